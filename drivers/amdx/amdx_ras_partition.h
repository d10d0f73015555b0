/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * RAS containment of one compute partition (amdx_ras_partition.c).
 */
#ifndef _AMDX_RAS_PARTITION_H_
#define _AMDX_RAS_PARTITION_H_

#include <linux/types.h>

struct amdx_device;

int amdx_ras_partition_contain(struct amdx_device *adev, u32 part,
			       bool offline);

#endif /* _AMDX_RAS_PARTITION_H_ */
