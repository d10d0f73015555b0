/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The sysfs class and each device's class device (amdx_sysfs.c).
 */
#ifndef _AMDX_SYSFS_H_
#define _AMDX_SYSFS_H_

struct amdx_device;
struct device;

int amdx_sysfs_init(void);
void amdx_sysfs_fini(void);
int amdx_sysfs_add(struct amdx_device *adev, struct device *parent);

#endif /* _AMDX_SYSFS_H_ */
