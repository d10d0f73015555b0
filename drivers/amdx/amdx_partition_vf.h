/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * SR-IOV virtual functions of a device (amdx_partition_vf.c).
 */
#ifndef _AMDX_PARTITION_VF_H_
#define _AMDX_PARTITION_VF_H_

#include <linux/types.h>

struct amdx_device;
struct amdx_file;
struct amdx_query;

int amdx_ioctl_vf_enable(struct amdx_file *file, void *data);
int amdx_ioctl_vf_disable(struct amdx_file *file, void *data);
int amdx_ioctl_vf_set(struct amdx_file *file, void *data);
int amdx_ioctl_vf_reset(struct amdx_file *file, void *data);
bool amdx_partition_vf_reset_notify(struct amdx_device *adev, u32 part);
int amdx_partition_query_vfs(struct amdx_device *adev, struct amdx_query *q);

#endif /* _AMDX_PARTITION_VF_H_ */
