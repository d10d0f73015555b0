/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The attribute ranges of one HMM context: pure logic, no mm.
 */
#ifndef _AMDX_HMM_RANGE_H_
#define _AMDX_HMM_RANGE_H_

#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/types.h>
#include <linux/amdx.h>

/**
 * struct amdx_range_attr - the attributes of a range
 * @preferred_loc: memory partition index or %AMDX_HMM_LOC_SYSTEM.
 * @granularity: log2 of the migration unit in pages.
 * @flags: %AMDX_HMM_F_*.
 * @access: bit N: amdx device N may access.
 */
struct amdx_range_attr {
	u32 preferred_loc;
	u32 granularity;
	u32 flags;
	u64 access;
};

/**
 * struct amdx_range - a run of pages with equal attributes
 * @node: entry in &amdx_range_set.ranges, sorted by @start.
 * @rb: node in &amdx_range_set.tree, keyed by @start.
 * @start: first byte.
 * @end: one past the last byte.
 * @attr: attributes.
 * @stats: counters; a split leaves them with the left part.
 * @resident: pages in VRAM as the migration path counts them (the sum of
 *	@resident_part), see amdx_range_account_in().
 * @resident_parts: memory partitions that may hold some of them, bit N
 *	for partition N (eviction for a full partition picks only ranges
 *	that may free room there).
 * @resident_part: pages counted in each memory partition.
 * @last_used: ktime of the last migration into VRAM (LRU order).
 */
struct amdx_range {
	struct list_head node;
	struct rb_node rb;
	u64 start;
	u64 end;
	struct amdx_range_attr attr;
	struct amdx_hmm_stats stats;
	u64 resident;
	u32 resident_parts;
	u64 resident_part[AMDX_MAX_MEM_PARTITIONS];
	u64 last_used;
};

/**
 * struct amdx_range_set - the ranges of one context
 * @ranges: non-overlapping ranges sorted by start.
 * @tree: the same ranges, for look-ups by address in O(log @count).
 * @count: entries in @ranges.
 */
struct amdx_range_set {
	struct list_head ranges;
	struct rb_root tree;
	u32 count;
};

void amdx_range_set_init(struct amdx_range_set *rs);
void amdx_range_set_fini(struct amdx_range_set *rs);
void amdx_range_attr_default(struct amdx_range_attr *attr);
u32 amdx_range_nodes_needed(const struct amdx_range_set *rs, u64 start,
			    u64 end);
int amdx_range_pool_fill(struct list_head *pool, u32 *have, u32 want);
void amdx_range_pool_free(struct list_head *pool);
int amdx_range_set_attr(struct amdx_range_set *rs, u64 start, u64 end,
			const struct amdx_range_attr *attr, u32 valid,
			struct list_head *pool);
bool amdx_range_covered(const struct amdx_range_set *rs, u64 start, u64 end);
struct amdx_range *amdx_range_find(const struct amdx_range_set *rs, u64 addr);
struct amdx_range *amdx_range_next(const struct amdx_range_set *rs, u64 addr);
void amdx_range_clip(struct amdx_range_set *rs, u64 start, u64 end);
bool amdx_range_clear_access(struct amdx_range_set *rs, u64 mask);
void amdx_range_merge(struct amdx_range_set *rs);
u64 amdx_range_pinned_bytes(const struct amdx_range_set *rs);
u64 amdx_range_pinned_overlap(const struct amdx_range_set *rs, u64 start,
			      u64 end);
void amdx_range_account_in(struct amdx_range *r, u32 part, u64 pages);
void amdx_range_account_out(struct amdx_range *r, u64 pages);
void amdx_range_forget_resident(struct amdx_range *r, u32 part);
u64 amdx_range_set_resident(const struct amdx_range_set *rs, u64 *per_part);

#endif /* _AMDX_HMM_RANGE_H_ */
