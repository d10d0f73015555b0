/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * RAS error intake, counters and containment of a device (amdx_ras.c).
 */
#ifndef _AMDX_RAS_H_
#define _AMDX_RAS_H_

#include <linux/sysfs.h>
#include <linux/types.h>

struct amdx_device;
struct amdx_subject;
struct amdx_file;
struct amdx_query;

int amdx_ras_init(struct amdx_device *adev);
void amdx_ras_fini(struct amdx_device *adev);
int amdx_ras_query(struct amdx_file *file, struct amdx_query *q);
int amdx_ioctl_ras_inject(struct amdx_file *file, void *data);
int amdx_ioctl_ras_set_policy(struct amdx_file *file, void *data);
int amdx_ioctl_ras_badpages_import(struct amdx_file *file, void *data);
bool amdx_ras_page_poisoned(struct amdx_device *adev, u64 index);
bool amdx_ras_any_poison(struct amdx_device *adev);
void amdx_ras_poison_consumed(struct amdx_device *adev, u64 index,
			      const struct amdx_subject *who);
bool amdx_ras_vram_refused(struct amdx_device *adev);
int amdx_ras_partition_contain(struct amdx_device *adev, u32 part,
			       bool offline);

extern const struct attribute_group amdx_ras_sysfs_group;

#endif /* _AMDX_RAS_H_ */
