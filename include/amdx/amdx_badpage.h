/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The bad-page table codec (drivers/amdx/amdx_badpage.c): the binary
 * format of struct amdx_badpage_header and struct amdx_badpage_record.
 * Pure logic.  Part of the provider contract: a provider that keeps the
 * table on the board encodes it with these (the amdgpu provider does).
 */
#ifndef _AMDX_BADPAGE_H_
#define _AMDX_BADPAGE_H_

#include <linux/types.h>
#include <linux/amdx.h>

/* Encoded sizes (the uapi structures are packed by construction). */
#define AMDX_BADPAGE_HEADER_SIZE	20
#define AMDX_BADPAGE_RECORD_SIZE	24

size_t amdx_badpage_size(u32 count);
int amdx_badpage_encode(const struct amdx_badpage_record *recs, u32 count,
			void *buf, size_t len);
int amdx_badpage_decode(const void *buf, size_t len,
			struct amdx_badpage_record *recs, u32 max,
			u32 *count, const char **why);
int amdx_badpage_find(const struct amdx_badpage_record *recs, u32 count,
		      u64 address, u32 *pos);
u32 amdx_badpage_merge(struct amdx_badpage_record *table, u32 count,
		       const struct amdx_badpage_record *add, u32 n);

#endif /* _AMDX_BADPAGE_H_ */
