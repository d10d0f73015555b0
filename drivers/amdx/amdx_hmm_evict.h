/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * HMM eviction policy: a migration towards a full memory partition makes
 * room by moving least recently used data home (amdx_hmm_evict.c).
 */
#ifndef _AMDX_HMM_EVICT_H_
#define _AMDX_HMM_EVICT_H_

#include <linux/types.h>

struct amdx_hmm_ctx;
struct amdx_hmm_result;

int amdx_hmm_migrate_range(struct amdx_hmm_ctx *ctx, u64 start, u64 end,
			   u32 dest, struct amdx_hmm_result *res);

#endif /* _AMDX_HMM_EVICT_H_ */
