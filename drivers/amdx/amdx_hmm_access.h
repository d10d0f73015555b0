/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * %AMDX_IOC_HMM_ACCESS: a device's access to process memory, emulated
 * (amdx_hmm_access.c).
 */
#ifndef _AMDX_HMM_ACCESS_H_
#define _AMDX_HMM_ACCESS_H_

#include <linux/errno.h>

struct amdx_file;

#if IS_ENABLED(CONFIG_DEVICE_PRIVATE)
int amdx_ioctl_hmm_access(struct amdx_file *file, void *data);
#else
static inline int amdx_ioctl_hmm_access(struct amdx_file *file, void *data)
{
	return -EOPNOTSUPP;
}
#endif

#endif /* _AMDX_HMM_ACCESS_H_ */
