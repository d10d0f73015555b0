/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * %AMDX_IOC_QUERY (amdx_query.c): the queries of its own, and the routing
 * of the others to the feature answering them.
 */
#ifndef _AMDX_QUERY_H_
#define _AMDX_QUERY_H_

#include <linux/types.h>

struct amdx_file;

u64 amdx_caps(void);
int amdx_ioctl_query(struct amdx_file *file, void *data);

#endif /* _AMDX_QUERY_H_ */
