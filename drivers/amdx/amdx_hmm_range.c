// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM attribute ranges
 *
 * A context's ranges form a sorted list of disjoint [start, end) runs,
 * each with one set of attributes, like amdkfd's SVM ranges; an rbtree
 * of the same nodes keyed by start finds the range at an address
 * (amdx_range_find(), amdx_range_next()) in O(log ranges) for the fault,
 * migration and eviction paths, which walk the list on from there.  A
 * range's start and end change in place only where the order stays.  Setting
 * attributes over [start, end):
 *
 *  1. splits the ranges that straddle @start or @end,
 *  2. fills the gaps inside [start, end) with new ranges holding the
 *     default attributes,
 *  3. applies the attributes named in @valid to every range inside,
 *  4. merges neighbours that touch and have equal attributes.
 *
 * Setting attributes allocates nothing: the nodes it needs come from a
 * pool the caller filled beforehand (amdx_range_pool_fill(),
 * GFP_KERNEL_ACCOUNT, with no spinlock held), sized by
 * amdx_range_nodes_needed() under the caller's lock, so a short pool or a
 * set at %AMDX_HMM_RANGES_MAX leaves the set as it was.  Only a hole
 * punched inside one range (amdx_range_clip(), from an mmu notifier)
 * takes a node of its own, with GFP_NOWAIT.  Counters stay with the left part of a split and add
 * up on a merge, so the context's totals never change.
 *
 * Residency: the migration path counts the pages it moves into a
 * partition (amdx_range_account_in()) and home (amdx_range_account_out());
 * queries and the holder scan read these counters instead of walking page
 * tables, so they cost O(ranges), never O(pages of the ranges).
 *
 * Callers serialise; nothing here sleeps.
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include "amdx_hmm_range.h"
#include "amdx_kunit.h"

/**
 * amdx_range_set_init() - an empty set
 * @rs: the set.
 */
void amdx_range_set_init(struct amdx_range_set *rs)
{
	INIT_LIST_HEAD(&rs->ranges);
	rs->tree = RB_ROOT;
	rs->count = 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_set_init);

/**
 * amdx_range_set_fini() - free every range
 * @rs: the set.
 */
void amdx_range_set_fini(struct amdx_range_set *rs)
{
	struct amdx_range *r, *tmp;

	list_for_each_entry_safe(r, tmp, &rs->ranges, node) {
		list_del(&r->node);
		kfree(r);
	}
	rs->tree = RB_ROOT;
	rs->count = 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_set_fini);

static bool amdx_range_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct amdx_range, rb)->start <
	       rb_entry(b, struct amdx_range, rb)->start;
}

/* @r, just added to rs->ranges, joins the tree. */
static void amdx_range_link(struct amdx_range_set *rs, struct amdx_range *r)
{
	rb_add(&r->rb, &rs->tree, amdx_range_less);
	rs->count++;
}

/* @r leaves the set and is freed. */
static void amdx_range_unlink(struct amdx_range_set *rs, struct amdx_range *r)
{
	rb_erase(&r->rb, &rs->tree);
	list_del(&r->node);
	kfree(r);
	rs->count--;
}

/**
 * amdx_range_attr_default() - the attributes of a new range
 * @attr: filled with system memory, granularity 9 (2 MiB), no flags and no
 *	access bits (the caller adds its own device).
 */
void amdx_range_attr_default(struct amdx_range_attr *attr)
{
	attr->preferred_loc = AMDX_HMM_LOC_SYSTEM;
	attr->granularity = AMDX_HMM_GRANULARITY_DEFAULT;
	attr->flags = 0;
	attr->access = 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_attr_default);

static bool amdx_attr_equal(const struct amdx_range_attr *a,
			    const struct amdx_range_attr *b)
{
	return a->preferred_loc == b->preferred_loc &&
	       a->granularity == b->granularity && a->flags == b->flags &&
	       a->access == b->access;
}

static void amdx_attr_apply(struct amdx_range_attr *dst,
			    const struct amdx_range_attr *src, u32 valid)
{
	if (valid & AMDX_HMM_ATTR_PREFERRED_LOC)
		dst->preferred_loc = src->preferred_loc;
	if (valid & AMDX_HMM_ATTR_GRANULARITY)
		dst->granularity = src->granularity;
	if (valid & AMDX_HMM_ATTR_FLAGS)
		dst->flags = src->flags;
	if (valid & AMDX_HMM_ATTR_ACCESS)
		dst->access = src->access;
}

static void amdx_stats_add(struct amdx_hmm_stats *dst,
			   const struct amdx_hmm_stats *src)
{
	dst->pages_in += src->pages_in;
	dst->pages_out += src->pages_out;
	dst->cpu_faults += src->cpu_faults;
	dst->evictions += src->evictions;
	dst->bytes_in += src->bytes_in;
	dst->bytes_out += src->bytes_out;
	dst->ns_in += src->ns_in;
	dst->ns_out += src->ns_out;
}

static void amdx_resident_add(struct amdx_range *dst,
			      const struct amdx_range *src)
{
	u32 m;

	dst->resident += src->resident;
	dst->resident_parts |= src->resident_parts;
	for (m = 0; m < AMDX_MAX_MEM_PARTITIONS; m++)
		dst->resident_part[m] += src->resident_part[m];
}

/**
 * amdx_range_nodes_needed() - nodes amdx_range_set_attr() will take
 * @rs: the set.
 * @start: first byte.
 * @end: one past the last byte.
 *
 * Return: two splits at most plus one node per gap in [@start, @end).
 */
u32 amdx_range_nodes_needed(const struct amdx_range_set *rs, u64 start,
			    u64 end)
{
	const struct amdx_range *r;
	u64 cursor = start;
	u32 n = 0;

	list_for_each_entry(r, &rs->ranges, node) {
		if (r->end <= start)
			continue;
		if (r->start >= end)
			break;
		if (r->start < start)
			n++;
		if (r->end > end)
			n++;
		if (r->start > cursor)
			n++;
		cursor = r->end;
	}
	if (cursor < end)
		n++;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_nodes_needed);

/**
 * amdx_range_pool_fill() - allocate nodes for amdx_range_set_attr()
 * @pool: the pool (a list of free nodes).
 * @have: nodes in @pool; updated.
 * @want: nodes wanted in all; at most two more than %AMDX_HMM_RANGES_MAX
 *	are ever useful.
 *
 * Charged to the caller's memory cgroup.  May sleep: call without
 * spinlocks.
 *
 * Return: 0, or -ENOMEM (the nodes allocated so far stay in @pool).
 */
int amdx_range_pool_fill(struct list_head *pool, u32 *have, u32 want)
{
	struct amdx_range *r;

	want = min_t(u32, want, AMDX_HMM_RANGES_MAX + 2);
	while (*have < want) {
		r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
		if (!r)
			return -ENOMEM;
		list_add(&r->node, pool);
		(*have)++;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_pool_fill);

/**
 * amdx_range_pool_free() - free the nodes left in a pool
 * @pool: the pool.
 */
void amdx_range_pool_free(struct list_head *pool)
{
	struct amdx_range *r, *tmp;

	list_for_each_entry_safe(r, tmp, pool, node) {
		list_del(&r->node);
		kfree(r);
	}
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_pool_free);

static struct amdx_range *amdx_take(struct list_head *pool)
{
	struct amdx_range *r = list_first_entry(pool, struct amdx_range, node);

	list_del(&r->node);
	memset(r, 0, sizeof(*r));
	return r;
}

/* Split @r at @at (r->start < at < r->end); the new right part follows. */
static void amdx_range_split(struct amdx_range_set *rs, struct amdx_range *r,
			     u64 at, struct list_head *pool)
{
	struct amdx_range *right = amdx_take(pool);

	right->start = at;
	right->end = r->end;
	right->attr = r->attr;
	right->resident_parts = r->resident_parts;
	right->last_used = r->last_used;
	r->end = at;
	list_add(&right->node, &r->node);
	amdx_range_link(rs, right);
}

/**
 * amdx_range_merge() - merge neighbours with equal attributes
 * @rs: the set, after attributes changed in place.
 *
 * Nothing is allocated.
 */
void amdx_range_merge(struct amdx_range_set *rs)
{
	struct amdx_range *r, *next;

	list_for_each_entry_safe(r, next, &rs->ranges, node) {
		struct amdx_range *prev;

		if (list_is_first(&r->node, &rs->ranges))
			continue;
		prev = list_prev_entry(r, node);
		if (prev->end != r->start || !amdx_attr_equal(&prev->attr, &r->attr))
			continue;
		prev->end = r->end;
		amdx_stats_add(&prev->stats, &r->stats);
		amdx_resident_add(prev, r);
		prev->last_used = max(prev->last_used, r->last_used);
		amdx_range_unlink(rs, r);
	}
}

/**
 * amdx_range_set_attr() - set attributes over [start, end)
 * @rs: the set.
 * @start: first byte; page aligned.
 * @end: one past the last byte; greater than @start.
 * @attr: the values.
 * @valid: %AMDX_HMM_ATTR_* bits: which members of @attr apply.  New
 *	ranges take the defaults for the others.
 * @pool: free nodes (amdx_range_pool_fill()); those used are taken off.
 *
 * Return: 0; -EINVAL for an empty or reversed interval; -ENOSPC when the
 * set would grow beyond %AMDX_HMM_RANGES_MAX ranges; -ENOMEM when @pool
 * holds fewer than amdx_range_nodes_needed() nodes.  On error the set is
 * unchanged.
 */
int amdx_range_set_attr(struct amdx_range_set *rs, u64 start, u64 end,
			const struct amdx_range_attr *attr, u32 valid,
			struct list_head *pool)
{
	struct amdx_range *r;
	u32 have = 0, n;
	u64 cursor;

	if (start >= end)
		return -EINVAL;

	n = amdx_range_nodes_needed(rs, start, end);
	/* Before merging: the cap bounds every walk of the set. */
	if (n > AMDX_HMM_RANGES_MAX - min_t(u32, rs->count, AMDX_HMM_RANGES_MAX))
		return -ENOSPC;
	list_for_each_entry(r, pool, node)
		if (++have >= n)
			break;
	if (have < n)
		return -ENOMEM;

	/* 1: split at the edges. */
	list_for_each_entry(r, &rs->ranges, node) {
		if (r->start < start && r->end > start)
			amdx_range_split(rs, r, start, pool);
		if (r->start < end && r->end > end)
			amdx_range_split(rs, r, end, pool);
	}

	/* 2 and 3: fill gaps, apply. */
	cursor = start;
	list_for_each_entry(r, &rs->ranges, node) {
		if (r->end <= start)
			continue;
		if (r->start >= end)
			break;
		if (r->start > cursor) {
			struct amdx_range *gap = amdx_take(pool);

			gap->start = cursor;
			gap->end = r->start;
			amdx_range_attr_default(&gap->attr);
			amdx_attr_apply(&gap->attr, attr, valid);
			list_add_tail(&gap->node, &r->node);
			amdx_range_link(rs, gap);
		}
		amdx_attr_apply(&r->attr, attr, valid);
		cursor = r->end;
	}
	if (cursor < end) {
		struct amdx_range *gap = amdx_take(pool);

		gap->start = cursor;
		gap->end = end;
		amdx_range_attr_default(&gap->attr);
		amdx_attr_apply(&gap->attr, attr, valid);
		/* Insert before the first range that starts at or after end. */
		list_for_each_entry(r, &rs->ranges, node)
			if (r->start >= end)
				break;
		list_add_tail(&gap->node, &r->node);
		amdx_range_link(rs, gap);
	}

	/* 4: merge. */
	amdx_range_merge(rs);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_set_attr);

/**
 * amdx_range_covered() - whether ranges cover [start, end) without holes
 * @rs: the set.
 * @start: first byte.
 * @end: one past the last byte.
 *
 * Return: true when every byte lies in some range.
 */
bool amdx_range_covered(const struct amdx_range_set *rs, u64 start, u64 end)
{
	const struct amdx_range *r;
	u64 cursor = start;

	list_for_each_entry(r, &rs->ranges, node) {
		if (r->end <= cursor)
			continue;
		if (r->start > cursor)
			return false;
		cursor = r->end;
		if (cursor >= end)
			return true;
	}
	return cursor >= end;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_covered);

/**
 * amdx_range_next() - the first range that ends after an address
 * @rs: the set.
 * @addr: the address.
 *
 * The range holding @addr, else the first one above it: where a walk of
 * the ranges meeting [@addr, ...) starts.  O(log ranges): ranges are
 * disjoint, so their ends are in the order of their starts.
 *
 * Return: the range or NULL.
 */
struct amdx_range *amdx_range_next(const struct amdx_range_set *rs, u64 addr)
{
	struct rb_node *n = rs->tree.rb_node;
	struct amdx_range *r, *found = NULL;

	while (n) {
		r = rb_entry(n, struct amdx_range, rb);
		if (r->end > addr) {
			found = r;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_next);

/**
 * amdx_range_find() - the range holding an address
 * @rs: the set.
 * @addr: the address.
 *
 * Return: the range or NULL.
 */
struct amdx_range *amdx_range_find(const struct amdx_range_set *rs, u64 addr)
{
	struct amdx_range *r = amdx_range_next(rs, addr);

	return r && r->start <= addr ? r : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_find);

/*
 * A hole [start, end) strictly inside @r: @r keeps [r->start, start) and a
 * new range after it takes [end, r->end), so nothing names the hole.  This
 * runs under the context's spinlock from an mmu notifier: the node comes
 * from GFP_NOWAIT, charged to the unmapper.  At %AMDX_HMM_RANGES_MAX
 * ranges or without memory the part above the hole is forgotten as well
 * (its pages keep their data, their attributes become the defaults
 * again): never the hole's.
 */
static void amdx_range_punch(struct amdx_range_set *rs, struct amdx_range *r,
			     u64 start, u64 end)
{
	struct amdx_range *right = NULL;
	LIST_HEAD(pool);

	if (rs->count < AMDX_HMM_RANGES_MAX)
		right = kzalloc(sizeof(*right),
				GFP_NOWAIT | __GFP_NOWARN | __GFP_ACCOUNT);
	if (right) {
		list_add(&right->node, &pool);
		amdx_range_split(rs, r, end, &pool);
	}
	r->end = start;
}

/**
 * amdx_range_clip() - forget [start, end) after an munmap
 * @rs: the set.
 * @start: first byte unmapped.
 * @end: one past the last byte unmapped.
 *
 * Ranges inside go away and ranges overlapping an edge shrink.  A hole
 * strictly inside one range splits it in two (counters stay with the
 * left part, as for any split), so a later mapping in the hole inherits
 * none of its attributes.  The split needs one node, taken with
 * GFP_NOWAIT (this runs from an mmu notifier under a spinlock); when the
 * set is at %AMDX_HMM_RANGES_MAX ranges or no node is to be had, the part
 * above the hole is forgotten too.
 */
void amdx_range_clip(struct amdx_range_set *rs, u64 start, u64 end)
{
	struct amdx_range *r = amdx_range_next(rs, start), *tmp;

	if (!r)
		return;
	list_for_each_entry_safe_from(r, tmp, &rs->ranges, node) {
		if (r->start >= end)
			break;
		if (r->start >= start && r->end <= end)
			amdx_range_unlink(rs, r);
		else if (r->start < start && r->end <= end)
			r->end = start;
		else if (r->start >= start && r->end > end)
			r->start = end;
		else
			amdx_range_punch(rs, r, start, end);
	}
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_clip);

/**
 * amdx_range_clear_access() - take devices out of every range's access
 * @rs: the set.
 * @mask: device bits to clear from &amdx_range_attr.access.
 *
 * For a device going away.  Neighbours that become equal merge; nothing
 * is allocated.
 *
 * Return: true when some range had a bit of @mask.
 */
bool amdx_range_clear_access(struct amdx_range_set *rs, u64 mask)
{
	struct amdx_range *r;
	bool changed = false;

	list_for_each_entry(r, &rs->ranges, node) {
		if (r->attr.access & mask) {
			r->attr.access &= ~mask;
			changed = true;
		}
	}
	if (changed)
		amdx_range_merge(rs);
	return changed;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_clear_access);

/**
 * amdx_range_pinned_bytes() - bytes in ranges pinned against eviction
 * @rs: the set.
 *
 * Return: the sum of the sizes of ranges with %AMDX_HMM_F_PIN.
 */
u64 amdx_range_pinned_bytes(const struct amdx_range_set *rs)
{
	const struct amdx_range *r;
	u64 sum = 0;

	list_for_each_entry(r, &rs->ranges, node)
		if (r->attr.flags & AMDX_HMM_F_PIN)
			sum += r->end - r->start;
	return sum;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_pinned_bytes);

/**
 * amdx_range_pinned_overlap() - pinned bytes inside [start, end)
 * @rs: the set.
 * @start: first byte.
 * @end: one past the last byte.
 *
 * Return: bytes of [start, end) covered by ranges with %AMDX_HMM_F_PIN.
 */
u64 amdx_range_pinned_overlap(const struct amdx_range_set *rs, u64 start,
			      u64 end)
{
	const struct amdx_range *r;
	u64 sum = 0;

	list_for_each_entry(r, &rs->ranges, node)
		if ((r->attr.flags & AMDX_HMM_F_PIN) && r->end > start &&
		    r->start < end)
			sum += min(r->end, end) - max(r->start, start);
	return sum;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_pinned_overlap);

/**
 * amdx_range_account_in() - pages a migration moved into VRAM
 * @r: the range they belong to.
 * @part: the memory partition they went to.
 * @pages: how many.
 */
void amdx_range_account_in(struct amdx_range *r, u32 part, u64 pages)
{
	if (!pages || part >= AMDX_MAX_MEM_PARTITIONS)
		return;
	r->resident += pages;
	r->resident_part[part] += pages;
	r->resident_parts |= BIT(part);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_account_in);

/**
 * amdx_range_account_out() - pages a migration moved home
 * @r: the range they belong to.
 * @pages: how many.
 *
 * The migration does not say which partitions they left: they are taken
 * from the lowest partition holding some first, which is exact for a range
 * whose pages are in one partition.  Never below zero.
 */
void amdx_range_account_out(struct amdx_range *r, u64 pages)
{
	u32 m;

	pages = min(pages, r->resident);
	r->resident -= pages;
	for (m = 0; m < AMDX_MAX_MEM_PARTITIONS && pages; m++) {
		u64 n = min(pages, r->resident_part[m]);

		r->resident_part[m] -= n;
		pages -= n;
	}
	for (m = 0; m < AMDX_MAX_MEM_PARTITIONS; m++)
		if (!r->resident_part[m])
			r->resident_parts &= ~BIT(m);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_account_out);

/**
 * amdx_range_forget_resident() - a partition was found or made empty
 * @r: the range.
 * @part: the memory partition, or %AMDX_HMM_LOC_SYSTEM for all.
 *
 * For a drain that moved every page of @part home without the ranges'
 * contexts, and for an eviction that found nothing left.
 */
void amdx_range_forget_resident(struct amdx_range *r, u32 part)
{
	u32 m;

	for (m = 0; m < AMDX_MAX_MEM_PARTITIONS; m++) {
		if (part != AMDX_HMM_LOC_SYSTEM && m != part)
			continue;
		r->resident -= min(r->resident, r->resident_part[m]);
		r->resident_part[m] = 0;
		r->resident_parts &= ~BIT(m);
	}
	if (part == AMDX_HMM_LOC_SYSTEM)
		r->resident = 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_forget_resident);

/**
 * amdx_range_set_resident() - pages of a set counted in VRAM
 * @rs: the set.
 * @per_part: out, may be NULL: %AMDX_MAX_MEM_PARTITIONS counters, added to.
 *
 * Return: the pages of all ranges.
 */
u64 amdx_range_set_resident(const struct amdx_range_set *rs, u64 *per_part)
{
	const struct amdx_range *r;
	u64 sum = 0;
	u32 m;

	list_for_each_entry(r, &rs->ranges, node) {
		sum += r->resident;
		if (per_part)
			for (m = 0; m < AMDX_MAX_MEM_PARTITIONS; m++)
				per_part[m] += r->resident_part[m];
	}
	return sum;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_set_resident);
