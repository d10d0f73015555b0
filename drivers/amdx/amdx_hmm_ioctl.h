/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * HMM on a device fd: SET_ATTR, MIGRATE, the ranges query and close
 * (amdx_hmm_ioctl.c).
 */
#ifndef _AMDX_HMM_IOCTL_H_
#define _AMDX_HMM_IOCTL_H_

#include <linux/errno.h>

struct amdx_file;
struct amdx_query;

#if IS_ENABLED(CONFIG_DEVICE_PRIVATE)
void amdx_hmm_file_release(struct amdx_file *file);
int amdx_ioctl_hmm_set_attr(struct amdx_file *file, void *data);
int amdx_ioctl_hmm_migrate(struct amdx_file *file, void *data);
int amdx_hmm_query_ranges(struct amdx_file *file, struct amdx_query *q);
#else
static inline void amdx_hmm_file_release(struct amdx_file *file)
{
}

static inline int amdx_ioctl_hmm_set_attr(struct amdx_file *file, void *data)
{
	return -EOPNOTSUPP;
}

static inline int amdx_ioctl_hmm_migrate(struct amdx_file *file, void *data)
{
	return -EOPNOTSUPP;
}

static inline int amdx_hmm_query_ranges(struct amdx_file *file,
					struct amdx_query *q)
{
	return -EOPNOTSUPP;
}
#endif

#endif /* _AMDX_HMM_IOCTL_H_ */
