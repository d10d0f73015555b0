// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM attribute ranges
 *
 * A context's ranges form a sorted list of disjoint [start, end) runs,
 * each with one set of attributes, like amdkfd's SVM ranges.  Setting
 * attributes over [start, end):
 *
 *  1. splits the ranges that straddle @start or @end,
 *  2. fills the gaps inside [start, end) with new ranges holding the
 *     default attributes,
 *  3. applies the attributes named in @valid to every range inside,
 *  4. merges neighbours that touch and have equal attributes.
 *
 * Every node the operation needs is allocated before anything changes, so
 * -ENOMEM leaves the set as it was.  Counters stay with the left part of a
 * split and add up on a merge, so the context's totals never change.
 *
 * Callers serialise; nothing here sleeps unless @gfp allows it.
 */
#include <linux/errno.h>
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
	rs->count = 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_set_fini);

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

/* Nodes needed for [start, end): two splits plus one per gap. */
static u32 amdx_range_nodes_needed(const struct amdx_range_set *rs, u64 start,
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
	rs->count++;
}

static void amdx_range_merge(struct amdx_range_set *rs)
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
		prev->resident += r->resident;
		prev->resident_parts |= r->resident_parts;
		prev->last_used = max(prev->last_used, r->last_used);
		list_del(&r->node);
		kfree(r);
		rs->count--;
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
 * @gfp: allocation flags (GFP_ATOMIC under a spinlock).
 *
 * Return: 0, -EINVAL for an empty or reversed interval, -ENOMEM (the set
 * is unchanged).
 */
int amdx_range_set_attr(struct amdx_range_set *rs, u64 start, u64 end,
			const struct amdx_range_attr *attr, u32 valid, gfp_t gfp)
{
	struct amdx_range *r, *tmp;
	LIST_HEAD(pool);
	u64 cursor;
	u32 i, n;

	if (start >= end)
		return -EINVAL;

	n = amdx_range_nodes_needed(rs, start, end);
	for (i = 0; i < n; i++) {
		r = kzalloc(sizeof(*r), gfp);
		if (!r)
			goto err_pool;
		list_add(&r->node, &pool);
	}

	/* 1: split at the edges. */
	list_for_each_entry(r, &rs->ranges, node) {
		if (r->start < start && r->end > start)
			amdx_range_split(rs, r, start, &pool);
		if (r->start < end && r->end > end)
			amdx_range_split(rs, r, end, &pool);
	}

	/* 2 and 3: fill gaps, apply. */
	cursor = start;
	list_for_each_entry(r, &rs->ranges, node) {
		if (r->end <= start)
			continue;
		if (r->start >= end)
			break;
		if (r->start > cursor) {
			struct amdx_range *gap = amdx_take(&pool);

			gap->start = cursor;
			gap->end = r->start;
			amdx_range_attr_default(&gap->attr);
			amdx_attr_apply(&gap->attr, attr, valid);
			list_add_tail(&gap->node, &r->node);
			rs->count++;
		}
		amdx_attr_apply(&r->attr, attr, valid);
		cursor = r->end;
	}
	if (cursor < end) {
		struct amdx_range *gap = amdx_take(&pool);

		gap->start = cursor;
		gap->end = end;
		amdx_range_attr_default(&gap->attr);
		amdx_attr_apply(&gap->attr, attr, valid);
		/* Insert before the first range that starts at or after end. */
		list_for_each_entry(r, &rs->ranges, node)
			if (r->start >= end)
				break;
		list_add_tail(&gap->node, &r->node);
		rs->count++;
	}

	/* 4: merge. */
	amdx_range_merge(rs);
	WARN_ON_ONCE(!list_empty(&pool));
	return 0;

err_pool:
	list_for_each_entry_safe(r, tmp, &pool, node)
		kfree(r);
	return -ENOMEM;
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
 * amdx_range_find() - the range holding an address
 * @rs: the set.
 * @addr: the address.
 *
 * Return: the range or NULL.
 */
struct amdx_range *amdx_range_find(const struct amdx_range_set *rs, u64 addr)
{
	struct amdx_range *r;

	list_for_each_entry(r, &rs->ranges, node) {
		if (addr < r->start)
			return NULL;
		if (addr < r->end)
			return r;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_range_find);

/**
 * amdx_range_clip() - forget [start, end) after an munmap
 * @rs: the set.
 * @start: first byte unmapped.
 * @end: one past the last byte unmapped.
 *
 * Ranges inside go away and ranges overlapping an edge shrink.  A hole
 * strictly inside one range is left alone (that would need an allocation,
 * and this runs from an mmu notifier); migration skips unmapped pages.
 */
void amdx_range_clip(struct amdx_range_set *rs, u64 start, u64 end)
{
	struct amdx_range *r, *tmp;

	list_for_each_entry_safe(r, tmp, &rs->ranges, node) {
		if (r->end <= start)
			continue;
		if (r->start >= end)
			break;
		if (r->start >= start && r->end <= end) {
			list_del(&r->node);
			kfree(r);
			rs->count--;
		} else if (r->start < start && r->end <= end) {
			r->end = start;
		} else if (r->start >= start && r->end > end) {
			r->start = end;
		}
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
