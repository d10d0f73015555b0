/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The VRAM page allocator shared by the core and the providers.
 */
#ifndef _AMDX_VRAM_H_
#define _AMDX_VRAM_H_

#include <linux/types.h>

/* Memory (NPS) partitions an allocator can be split into. */
#define AMDX_VRAM_MAX_PARTITIONS	8

/* Owners: 0 is the PF, 1 .. AMDX_VRAM_MAX_OWNERS - 1 are VFs. */
#define AMDX_VRAM_MAX_OWNERS		16
#define AMDX_VRAM_OWNER_PF		0

/* Holders (which fd's data a page holds): 1 .. this; 0 is nobody. */
#define AMDX_VRAM_MAX_HOLDERS		65535	/* a u16 per page */
#define AMDX_VRAM_NO_HOLDER		0

struct amdx_vram;

struct amdx_vram *amdx_vram_create(u64 size_bytes, u32 num_partitions);
void amdx_vram_destroy(struct amdx_vram *v);

int amdx_vram_alloc(struct amdx_vram *v, u32 part, u32 owner, u64 *pfn);
int amdx_vram_alloc_bulk(struct amdx_vram *v, u32 part, u32 owner, u32 n,
			 u64 *pfns, u32 *got);
int amdx_vram_alloc_contig(struct amdx_vram *v, u32 part, u32 owner,
			   u64 npages, u64 *first_pfn);
int amdx_vram_try_free(struct amdx_vram *v, u64 first_pfn, u64 npages,
		       u32 owner);
void amdx_vram_free(struct amdx_vram *v, u64 pfn, u32 owner);
void amdx_vram_free_page(struct amdx_vram *v, u64 pfn);
void amdx_vram_free_contig(struct amdx_vram *v, u64 first_pfn, u64 npages,
			   u32 owner);

int amdx_vram_repartition(struct amdx_vram *v, u32 num_partitions);

u64 amdx_vram_npages(struct amdx_vram *v);
u64 amdx_vram_used(struct amdx_vram *v);
u32 amdx_vram_num_partitions(struct amdx_vram *v);
u64 amdx_vram_part_base(struct amdx_vram *v, u32 part);
u64 amdx_vram_part_size(struct amdx_vram *v, u32 part);
u64 amdx_vram_part_free(struct amdx_vram *v, u32 part);
int amdx_vram_pfn_partition(struct amdx_vram *v, u64 pfn);
int amdx_vram_pfn_owner(struct amdx_vram *v, u64 pfn);
u64 amdx_vram_owner_next(struct amdx_vram *v, u32 owner, u64 from);
u64 amdx_vram_owner_next_below(struct amdx_vram *v, u32 owner, u64 from,
			       u64 end);
u64 amdx_vram_scanned(struct amdx_vram *v);

int amdx_vram_holder_new(struct amdx_vram *v, u32 user, u32 user_max,
			 u32 *id);
void amdx_vram_holder_put(struct amdx_vram *v, u32 id);
void amdx_vram_hold_pages(struct amdx_vram *v, const u64 *pfns, u32 n,
			  u32 id);
u32 amdx_vram_pfn_holder(struct amdx_vram *v, u64 pfn);
u64 amdx_vram_holder_used(struct amdx_vram *v, u32 id, u64 *pages);
u64 amdx_vram_holder_run(struct amdx_vram *v, u32 id, u64 *pos, u64 end);

int amdx_vram_set_quota(struct amdx_vram *v, u32 owner, u64 npages);
u64 amdx_vram_quota(struct amdx_vram *v, u32 owner);
u64 amdx_vram_owner_used(struct amdx_vram *v, u32 owner);

int amdx_vram_retire(struct amdx_vram *v, u64 pfn);
bool amdx_vram_pfn_retired(struct amdx_vram *v, u64 pfn);
void amdx_vram_retired(struct amdx_vram *v, u64 *retired, u64 *pending);

#endif /* _AMDX_VRAM_H_ */
