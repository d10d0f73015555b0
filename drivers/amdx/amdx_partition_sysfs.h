/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * sysfs: /sys/class/amdx/amdx<id>/partitions/ and vfs/
 * (amdx_partition_sysfs.c).
 */
#ifndef _AMDX_PARTITION_SYSFS_H_
#define _AMDX_PARTITION_SYSFS_H_

struct attribute_group;

extern const struct attribute_group amdx_partition_attr_group;
extern const struct attribute_group amdx_vf_attr_group;

#endif /* _AMDX_PARTITION_SYSFS_H_ */
