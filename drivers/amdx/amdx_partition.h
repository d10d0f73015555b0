/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Partition and SR-IOV state of a device (amdx_partition.c): the interface
 * RAS containment uses to quarantine, reset and restore one partition.
 */
#ifndef _AMDX_PARTITION_H_
#define _AMDX_PARTITION_H_

#include <linux/types.h>

struct amdx_device;

/*
 * All of these take the device's partition lock themselves and may sleep.
 * @part is a compute partition id of the current mode.
 */
int amdx_partition_of_instance(struct amdx_device *adev, u32 block,
			       u32 instance, u32 *part);
int amdx_partition_of_vram(struct amdx_device *adev, u64 address, u32 *mem);
int amdx_partition_set_state(struct amdx_device *adev, u32 part, u32 state);
int amdx_partition_get_state(struct amdx_device *adev, u32 part, u32 *state);
int amdx_partition_reset(struct amdx_device *adev, u32 part);

#endif /* _AMDX_PARTITION_H_ */
