/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The front (amdx_chardev.c): /dev/amdx, the device fds, the ioctl table.
 */
#ifndef _AMDX_CHARDEV_H_
#define _AMDX_CHARDEV_H_

#include <linux/types.h>

struct amdx_device;
struct amdx_file;
struct file;

int amdx_chardev_init(void);
void amdx_chardev_fini(void);
long amdx_ioctl(struct amdx_file *file, unsigned int flags, unsigned int cmd,
		unsigned long arg);
struct file *amdx_device_file_open(struct amdx_device *adev, u32 vf,
				   bool as_vf);
struct file *amdx_ioctl_device_open(struct amdx_file *file, void *data);

#endif /* _AMDX_CHARDEV_H_ */
