/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The links of every hive (amdx_link.c): the link model's topology per
 * hive, fed by the providers (amdx_link_report()), its state changes
 * reported as events and contained on the link.
 */
#ifndef _AMDX_LINK_H_
#define _AMDX_LINK_H_

#include <linux/sysfs.h>
#include <linux/types.h>

struct amdx_device;
struct amdx_file;
struct amdx_query;

int amdx_link_device_init(struct amdx_device *adev);
int amdx_link_query(struct amdx_file *file, struct amdx_query *q);

extern const struct attribute_group amdx_link_attr_group;

#endif /* _AMDX_LINK_H_ */
