/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * HMM across a fabric link (amdx_hmm_link.c): which links take no new
 * data, MIGRATE's and SET_ATTR's check of the links a placement or an
 * access crosses, and moving what crosses a bad link home or to the
 * device that accesses it, or revoking that device's access to it.
 */
#ifndef _AMDX_HMM_LINK_H_
#define _AMDX_HMM_LINK_H_

#include <linux/types.h>

struct amdx_device;
struct amdx_hmm_ctx;

#if IS_ENABLED(CONFIG_DEVICE_PRIVATE)
void amdx_hmm_link_avoid(struct amdx_device *adev, u32 peer, u32 link,
			 bool avoid);
int amdx_hmm_link_check(struct amdx_hmm_ctx *ctx, u64 start, u64 end,
			u32 dest, u32 nparts);
u64 amdx_hmm_link_access(struct amdx_hmm_ctx *ctx, u64 start, u64 end,
			 u64 access, u64 *at);
int amdx_hmm_link_refuse(struct amdx_device *adev, const char *what, u64 at,
			 u64 hit);
int amdx_hmm_link_move(struct amdx_device *adev, u32 peer, u64 *moved,
		       u64 *to_peer, u64 *left);
int amdx_hmm_link_revoke(struct amdx_device *adev, u32 peer, bool count,
			 u64 *ranges, u64 *pages);
#else
/* Without CONFIG_DEVICE_PRIVATE there is no HMM data to keep off a link. */
static inline void amdx_hmm_link_avoid(struct amdx_device *adev, u32 peer,
				       u32 link, bool avoid)
{
}

static inline int amdx_hmm_link_move(struct amdx_device *adev, u32 peer,
				     u64 *moved, u64 *to_peer, u64 *left)
{
	*moved = 0;
	*to_peer = 0;
	*left = 0;
	return 0;
}

static inline int amdx_hmm_link_revoke(struct amdx_device *adev, u32 peer,
				       bool count, u64 *ranges, u64 *pages)
{
	*ranges = 0;
	*pages = 0;
	return 0;
}
#endif

#endif /* _AMDX_HMM_LINK_H_ */
