/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The two-call size protocol of AMDX_IOC_QUERY (amdx_query_size.c).
 */
#ifndef _AMDX_QUERY_SIZE_H_
#define _AMDX_QUERY_SIZE_H_

#include <linux/types.h>

long amdx_query_fit(u32 *size, u32 len, u32 min_len);

#endif /* _AMDX_QUERY_SIZE_H_ */
