// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: KUnit tests of the HMM attribute ranges
 *
 * Suite ``amdx_hmm_range``: amdx_range_set_attr() splitting straddled
 * ranges, merging touching ranges with equal attributes, filling holes
 * with the defaults, applying only the attributes named in ``valid``,
 * keeping counters with the left part of a split and adding them on a
 * merge; amdx_range_clip() removing and shrinking ranges and splitting a
 * range around an inner hole (at %AMDX_HMM_RANGES_MAX forgetting the part
 * above it instead); amdx_range_clear_access() taking a removed device out
 * of every range and merging; amdx_range_covered(), amdx_range_find() and
 * amdx_range_pinned_bytes(); -EINVAL for an empty interval, -ENOMEM for
 * a pool short of amdx_range_nodes_needed() and -ENOSPC at
 * %AMDX_HMM_RANGES_MAX leaving the set as it was; the residency counters;
 * and random operation sequences checked against a per-page model, the
 * look-up tree against the list after every step.
 *
 * Addresses in the tables are page numbers; each test owns its set and
 * frees it through a KUnit resource, so a failed assertion leaks nothing.
 */
#include <kunit/test.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <amdx/amdx_compat.h>

#include "amdx_hmm_range.h"

#define PG(n)		((u64)(n) * PAGE_SIZE)

#define ATTR_A { .preferred_loc = 0, .granularity = 4, .access = 0x1 }
#define ATTR_B { .preferred_loc = 1, .granularity = 2, \
		 .flags = AMDX_HMM_F_PIN, .access = 0x6 }
#define ATTR_DEF { .preferred_loc = AMDX_HMM_LOC_SYSTEM, \
		   .granularity = AMDX_HMM_GRANULARITY_DEFAULT }

static const struct amdx_range_attr attr_a = ATTR_A;
static const struct amdx_range_attr attr_b = ATTR_B;

#define MAX_OPS		4
#define MAX_RANGES	5

/* One amdx_range_set_attr() call over pages [first, last). */
struct range_op {
	u32 first;
	u32 last;
	struct amdx_range_attr attr;
	u32 valid;
};

/* One range expected in the set: pages [first, last) with @attr. */
struct range_exp {
	u32 first;
	u32 last;
	struct amdx_range_attr attr;
};

static int range_set_res_init(struct kunit_resource *res, void *ctx)
{
	struct amdx_range_set *rs = kzalloc(sizeof(*rs), GFP_KERNEL);

	if (!rs)
		return -ENOMEM;
	amdx_range_set_init(rs);
	res->data = rs;
	return 0;
}

static void range_set_res_free(struct kunit_resource *res)
{
	amdx_range_set_fini(res->data);
	kfree(res->data);
}

/* An empty set, freed with the test. */
static struct amdx_range_set *new_set(struct kunit *test)
{
	struct amdx_range_set *rs;

	rs = kunit_alloc_resource(test, range_set_res_init, range_set_res_free,
				  GFP_KERNEL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rs);
	return rs;
}

/*
 * amdx_range_set_attr() as the HMM context calls it: a pool of exactly
 * the nodes needed, what is left over freed.
 */
static int set_attr(struct amdx_range_set *rs, u64 start, u64 end,
		    const struct amdx_range_attr *attr, u32 valid)
{
	LIST_HEAD(pool);
	u32 have = 0;
	int ret;

	ret = amdx_range_pool_fill(&pool, &have,
				   amdx_range_nodes_needed(rs, start, end));
	if (!ret)
		ret = amdx_range_set_attr(rs, start, end, attr, valid, &pool);
	amdx_range_pool_free(&pool);
	return ret;
}

static void apply_ops(struct kunit *test, struct amdx_range_set *rs,
		      const struct range_op *ops, u32 nops)
{
	u32 i;

	for (i = 0; i < nops; i++)
		KUNIT_ASSERT_EQ_MSG(test,
				    set_attr(rs, PG(ops[i].first),
					     PG(ops[i].last),
					     &ops[i].attr,
					     ops[i].valid),
				    0, "op %u", i);
}

static void expect_attr(struct kunit *test, const struct amdx_range_attr *got,
			const struct amdx_range_attr *want, u32 i)
{
	KUNIT_EXPECT_EQ_MSG(test, got->preferred_loc, want->preferred_loc,
			    "range %u", i);
	KUNIT_EXPECT_EQ_MSG(test, got->granularity, want->granularity,
			    "range %u", i);
	KUNIT_EXPECT_EQ_MSG(test, got->flags, want->flags, "range %u", i);
	KUNIT_EXPECT_EQ_MSG(test, got->access, want->access, "range %u", i);
}

/* The set holds exactly @exp, in order, and counts them right. */
static void expect_ranges(struct kunit *test, const struct amdx_range_set *rs,
			  const struct range_exp *exp, u32 n)
{
	const struct amdx_range *r;
	u32 i = 0;

	list_for_each_entry(r, &rs->ranges, node) {
		if (i < n) {
			KUNIT_EXPECT_EQ_MSG(test, r->start, PG(exp[i].first),
					    "range %u", i);
			KUNIT_EXPECT_EQ_MSG(test, r->end, PG(exp[i].last),
					    "range %u", i);
			expect_attr(test, &r->attr, &exp[i].attr, i);
		}
		i++;
	}
	KUNIT_EXPECT_EQ_MSG(test, i, n, "ranges in the list");
	KUNIT_EXPECT_EQ_MSG(test, rs->count, n, "rs->count");
}

/* The n-th range of the set (0-based). */
static struct amdx_range *nth_range(struct kunit *test,
				    struct amdx_range_set *rs, u32 n)
{
	struct amdx_range *r;

	list_for_each_entry(r, &rs->ranges, node)
		if (!n--)
			return r;
	KUNIT_FAIL_AND_ABORT(test, "fewer ranges than expected");
	return NULL;
}

/* Table-driven set_attr shapes: a sequence of calls, then the ranges. */
struct shape_case {
	const char *name;
	u32 nops;
	struct range_op ops[MAX_OPS];
	u32 n;
	struct range_exp exp[MAX_RANGES];
};

static void shape_case_desc(const struct shape_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

static void run_shape_case(struct kunit *test)
{
	const struct shape_case *c = test->param_value;
	struct amdx_range_set *rs = new_set(test);

	apply_ops(test, rs, c->ops, c->nops);
	expect_ranges(test, rs, c->exp, c->n);
}

#define ALL	AMDX_HMM_ATTR_ALL

/* Base range [2, 14) with A, then B on a part of it. */
static const struct shape_case split_cases[] = {
	{
		.name = "middle_gives_three",
		.nops = 2,
		.ops = { { 2, 14, ATTR_A, ALL }, { 6, 10, ATTR_B, ALL } },
		.n = 3,
		.exp = { { 2, 6, ATTR_A }, { 6, 10, ATTR_B },
			 { 10, 14, ATTR_A } },
	}, {
		.name = "one_page_in_the_middle_gives_three",
		.nops = 2,
		.ops = { { 2, 14, ATTR_A, ALL }, { 7, 8, ATTR_B, ALL } },
		.n = 3,
		.exp = { { 2, 7, ATTR_A }, { 7, 8, ATTR_B },
			 { 8, 14, ATTR_A } },
	}, {
		.name = "left_edge_gives_two",
		.nops = 2,
		.ops = { { 2, 14, ATTR_A, ALL }, { 2, 6, ATTR_B, ALL } },
		.n = 2,
		.exp = { { 2, 6, ATTR_B }, { 6, 14, ATTR_A } },
	}, {
		.name = "right_edge_gives_two",
		.nops = 2,
		.ops = { { 2, 14, ATTR_A, ALL }, { 10, 14, ATTR_B, ALL } },
		.n = 2,
		.exp = { { 2, 10, ATTR_A }, { 10, 14, ATTR_B } },
	}, {
		.name = "whole_range_changes_in_place",
		.nops = 2,
		.ops = { { 2, 14, ATTR_A, ALL }, { 2, 14, ATTR_B, ALL } },
		.n = 1,
		.exp = { { 2, 14, ATTR_B } },
	}, {
		.name = "across_left_edge_splits_once",
		.nops = 2,
		.ops = { { 2, 14, ATTR_A, ALL }, { 0, 6, ATTR_B, ALL } },
		.n = 2,
		.exp = { { 0, 6, ATTR_B }, { 6, 14, ATTR_A } },
	}, {
		.name = "across_right_edge_splits_once",
		.nops = 2,
		.ops = { { 2, 14, ATTR_A, ALL }, { 10, 16, ATTR_B, ALL } },
		.n = 2,
		.exp = { { 2, 10, ATTR_A }, { 10, 16, ATTR_B } },
	}, {
		.name = "equal_attributes_leave_one_range",
		.nops = 2,
		.ops = { { 2, 14, ATTR_A, ALL }, { 6, 10, ATTR_A, ALL } },
		.n = 1,
		.exp = { { 2, 14, ATTR_A } },
	}, {
		.name = "two_straddled_ranges_split_at_both_ends",
		.nops = 3,
		.ops = { { 2, 8, ATTR_A, ALL }, { 8, 14, ATTR_B, ALL },
			 { 4, 10, ATTR_DEF, ALL } },
		.n = 3,
		.exp = { { 2, 4, ATTR_A }, { 4, 10, ATTR_DEF },
			 { 10, 14, ATTR_B } },
	},
};

KUNIT_ARRAY_PARAM(split, split_cases, shape_case_desc);

static void set_attr_splits_straddled_ranges(struct kunit *test)
{
	run_shape_case(test);
}

static const struct shape_case merge_cases[] = {
	{
		.name = "adjacent_equal_merge",
		.nops = 2,
		.ops = { { 0, 4, ATTR_A, ALL }, { 4, 8, ATTR_A, ALL } },
		.n = 1,
		.exp = { { 0, 8, ATTR_A } },
	}, {
		.name = "adjacent_equal_merge_right_to_left",
		.nops = 2,
		.ops = { { 4, 8, ATTR_A, ALL }, { 0, 4, ATTR_A, ALL } },
		.n = 1,
		.exp = { { 0, 8, ATTR_A } },
	}, {
		.name = "adjacent_different_stay_apart",
		.nops = 2,
		.ops = { { 0, 4, ATTR_A, ALL }, { 4, 8, ATTR_B, ALL } },
		.n = 2,
		.exp = { { 0, 4, ATTR_A }, { 4, 8, ATTR_B } },
	}, {
		.name = "non_adjacent_equal_stay_apart",
		.nops = 2,
		.ops = { { 0, 4, ATTR_A, ALL }, { 8, 12, ATTR_A, ALL } },
		.n = 2,
		.exp = { { 0, 4, ATTR_A }, { 8, 12, ATTR_A } },
	}, {
		.name = "undoing_a_split_merges_back",
		.nops = 3,
		.ops = { { 0, 12, ATTR_A, ALL }, { 4, 8, ATTR_B, ALL },
			 { 4, 8, ATTR_A, ALL } },
		.n = 1,
		.exp = { { 0, 12, ATTR_A } },
	}, {
		.name = "bridge_merges_three",
		.nops = 3,
		.ops = { { 0, 4, ATTR_A, ALL }, { 8, 12, ATTR_A, ALL },
			 { 4, 8, ATTR_A, ALL } },
		.n = 1,
		.exp = { { 0, 12, ATTR_A } },
	}, {
		.name = "partial_valid_making_equal_merges",
		.nops = 3,
		.ops = { { 0, 4, ATTR_A, ALL },
			 { 4, 8, { .preferred_loc = 0, .granularity = 4,
				   .flags = AMDX_HMM_F_PIN, .access = 0x1 },
			   ALL },
			 { 4, 8, ATTR_A, AMDX_HMM_ATTR_FLAGS } },
		.n = 1,
		.exp = { { 0, 8, ATTR_A } },
	}, {
		.name = "only_the_equal_neighbour_merges",
		.nops = 3,
		.ops = { { 0, 4, ATTR_A, ALL }, { 4, 12, ATTR_B, ALL },
			 { 4, 8, ATTR_A, ALL } },
		.n = 2,
		.exp = { { 0, 8, ATTR_A }, { 8, 12, ATTR_B } },
	},
};

KUNIT_ARRAY_PARAM(merge, merge_cases, shape_case_desc);

static void set_attr_merges_only_touching_equal_ranges(struct kunit *test)
{
	run_shape_case(test);
}

#define ATTR_A_PIN { .preferred_loc = 0, .granularity = 4, \
		     .flags = AMDX_HMM_F_PIN, .access = 0x1 }
#define ATTR_DEF_PIN { .preferred_loc = AMDX_HMM_LOC_SYSTEM, \
		       .granularity = AMDX_HMM_GRANULARITY_DEFAULT, \
		       .flags = AMDX_HMM_F_PIN }

static const struct shape_case gap_cases[] = {
	{
		.name = "hole_between_two_ranges",
		.nops = 3,
		.ops = { { 0, 4, ATTR_A, ALL }, { 8, 12, ATTR_A, ALL },
			 { 2, 10, ATTR_B, AMDX_HMM_ATTR_FLAGS } },
		.n = 5,
		.exp = { { 0, 2, ATTR_A }, { 2, 4, ATTR_A_PIN },
			 { 4, 8, ATTR_DEF_PIN }, { 8, 10, ATTR_A_PIN },
			 { 10, 12, ATTR_A } },
	}, {
		.name = "holes_before_and_after",
		.nops = 2,
		.ops = { { 4, 8, ATTR_A, ALL },
			 { 0, 12, { .access = 0x5 }, AMDX_HMM_ATTR_ACCESS } },
		.n = 3,
		.exp = { { 0, 4, { .preferred_loc = AMDX_HMM_LOC_SYSTEM,
				   .granularity = AMDX_HMM_GRANULARITY_DEFAULT,
				   .access = 0x5 } },
			 { 4, 8, { .preferred_loc = 0, .granularity = 4,
				   .access = 0x5 } },
			 { 8, 12, { .preferred_loc = AMDX_HMM_LOC_SYSTEM,
				    .granularity = AMDX_HMM_GRANULARITY_DEFAULT,
				    .access = 0x5 } } },
	}, {
		.name = "holes_between_three_ranges",
		.nops = 4,
		.ops = { { 0, 2, ATTR_A, ALL }, { 4, 6, ATTR_B, ALL },
			 { 8, 10, ATTR_A, ALL },
			 { 0, 10, { .granularity = 3 },
			   AMDX_HMM_ATTR_GRANULARITY } },
		.n = 5,
		.exp = { { 0, 2, { .preferred_loc = 0, .granularity = 3,
				   .access = 0x1 } },
			 { 2, 4, { .preferred_loc = AMDX_HMM_LOC_SYSTEM,
				   .granularity = 3 } },
			 { 4, 6, { .preferred_loc = 1, .granularity = 3,
				   .flags = AMDX_HMM_F_PIN, .access = 0x6 } },
			 { 6, 8, { .preferred_loc = AMDX_HMM_LOC_SYSTEM,
				   .granularity = 3 } },
			 { 8, 10, { .preferred_loc = 0, .granularity = 3,
				    .access = 0x1 } } },
	}, {
		.name = "empty_set_gets_the_attributes",
		.nops = 1,
		.ops = { { 0, 4, ATTR_B, ALL } },
		.n = 1,
		.exp = { { 0, 4, ATTR_B } },
	}, {
		.name = "empty_set_valid_none_gets_defaults",
		.nops = 1,
		.ops = { { 0, 4, ATTR_B, 0 } },
		.n = 1,
		.exp = { { 0, 4, ATTR_DEF } },
	}, {
		.name = "default_hole_merges_with_default_neighbours",
		.nops = 3,
		.ops = { { 0, 4, ATTR_B, 0 }, { 8, 12, ATTR_B, 0 },
			 { 2, 10, ATTR_B, 0 } },
		.n = 1,
		.exp = { { 0, 12, ATTR_DEF } },
	},
};

KUNIT_ARRAY_PARAM(gap, gap_cases, shape_case_desc);

static void set_attr_fills_holes_with_defaults(struct kunit *test)
{
	run_shape_case(test);
}

/* B over A, only the attributes named in valid. */
struct valid_case {
	const char *name;
	u32 valid;
	struct amdx_range_attr exp;
};

static const struct valid_case valid_cases[] = {
	{ "preferred_loc", AMDX_HMM_ATTR_PREFERRED_LOC,
	  { .preferred_loc = 1, .granularity = 4, .access = 0x1 } },
	{ "granularity", AMDX_HMM_ATTR_GRANULARITY,
	  { .preferred_loc = 0, .granularity = 2, .access = 0x1 } },
	{ "flags", AMDX_HMM_ATTR_FLAGS,
	  { .preferred_loc = 0, .granularity = 4, .flags = AMDX_HMM_F_PIN,
	    .access = 0x1 } },
	{ "access", AMDX_HMM_ATTR_ACCESS,
	  { .preferred_loc = 0, .granularity = 4, .access = 0x6 } },
	{ "loc_and_access",
	  AMDX_HMM_ATTR_PREFERRED_LOC | AMDX_HMM_ATTR_ACCESS,
	  { .preferred_loc = 1, .granularity = 4, .access = 0x6 } },
	{ "none", 0, ATTR_A },
	{ "all", AMDX_HMM_ATTR_ALL, ATTR_B },
};

static void valid_case_desc(const struct valid_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(valid, valid_cases, valid_case_desc);

static void set_attr_applies_only_valid_attributes(struct kunit *test)
{
	const struct valid_case *c = test->param_value;
	struct amdx_range_set *rs = new_set(test);
	const struct range_exp whole[] = { { 0, 8, c->exp } };
	const struct range_exp middle[] = {
		{ 0, 2, ATTR_A }, { 2, 6, c->exp }, { 6, 8, ATTR_A },
	};
	bool same = !memcmp(&c->exp, &attr_a, sizeof(attr_a));

	/* over a whole range: changed in place */
	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(0), PG(8), &attr_a, ALL), 0);
	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(0), PG(8), &attr_b, c->valid), 0);
	expect_ranges(test, rs, whole, 1);

	/* over a part: only that part changes (no split when nothing does) */
	amdx_range_set_fini(rs);
	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(0), PG(8), &attr_a, ALL), 0);
	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(2), PG(6), &attr_b, c->valid), 0);
	if (same) {
		const struct range_exp one[] = { { 0, 8, ATTR_A } };

		expect_ranges(test, rs, one, 1);
	} else {
		expect_ranges(test, rs, middle, 3);
	}
}

static void stats_fill(struct amdx_hmm_stats *s, u64 base)
{
	s->pages_in = base + 1;
	s->pages_out = base + 2;
	s->cpu_faults = base + 3;
	s->evictions = base + 4;
	s->bytes_in = base + 5;
	s->bytes_out = base + 6;
	s->ns_in = base + 7;
	s->ns_out = base + 8;
}

static void expect_stats(struct kunit *test, const struct amdx_hmm_stats *got,
			 const struct amdx_hmm_stats *want)
{
	KUNIT_EXPECT_EQ(test, got->pages_in, want->pages_in);
	KUNIT_EXPECT_EQ(test, got->pages_out, want->pages_out);
	KUNIT_EXPECT_EQ(test, got->cpu_faults, want->cpu_faults);
	KUNIT_EXPECT_EQ(test, got->evictions, want->evictions);
	KUNIT_EXPECT_EQ(test, got->bytes_in, want->bytes_in);
	KUNIT_EXPECT_EQ(test, got->bytes_out, want->bytes_out);
	KUNIT_EXPECT_EQ(test, got->ns_in, want->ns_in);
	KUNIT_EXPECT_EQ(test, got->ns_out, want->ns_out);
}

static void counters_stay_left_on_split_and_add_on_merge(struct kunit *test)
{
	struct amdx_range_set *rs = new_set(test);
	struct amdx_hmm_stats s100, s200, s300, zero = {}, sum;
	struct amdx_range *r, *mid, *right;

	stats_fill(&s100, 100);
	stats_fill(&s200, 200);
	stats_fill(&s300, 300);

	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(0), PG(12), &attr_a, ALL), 0);
	r = nth_range(test, rs, 0);
	r->stats = s100;
	r->resident = 7;
	r->last_used = 1000;

	/* split into three: everything stays on the left */
	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(4), PG(8), &attr_b, ALL), 0);
	KUNIT_ASSERT_EQ(test, rs->count, 3);
	KUNIT_EXPECT_PTR_EQ(test, nth_range(test, rs, 0), r);
	mid = nth_range(test, rs, 1);
	right = nth_range(test, rs, 2);
	expect_stats(test, &r->stats, &s100);
	expect_stats(test, &mid->stats, &zero);
	expect_stats(test, &right->stats, &zero);
	KUNIT_EXPECT_EQ(test, r->resident, 7);
	KUNIT_EXPECT_EQ(test, mid->resident, 0);
	KUNIT_EXPECT_EQ(test, right->resident, 0);
	/* the LRU time is the range's, copied to both parts */
	KUNIT_EXPECT_EQ(test, mid->last_used, 1000);
	KUNIT_EXPECT_EQ(test, right->last_used, 1000);

	/* merge back: counters and residency add, the LRU time is the latest */
	mid->stats = s200;
	mid->resident = 3;
	mid->last_used = 5000;
	right->stats = s300;
	right->resident = 2;
	right->last_used = 3000;
	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(4), PG(8), &attr_a, ALL), 0);
	KUNIT_ASSERT_EQ(test, rs->count, 1);
	r = nth_range(test, rs, 0);
	KUNIT_EXPECT_EQ(test, r->start, PG(0));
	KUNIT_EXPECT_EQ(test, r->end, PG(12));
	/* s100 + s200 + s300, member by member */
	sum.pages_in = 101 + 201 + 301;
	sum.pages_out = 102 + 202 + 302;
	sum.cpu_faults = 103 + 203 + 303;
	sum.evictions = 104 + 204 + 304;
	sum.bytes_in = 105 + 205 + 305;
	sum.bytes_out = 106 + 206 + 306;
	sum.ns_in = 107 + 207 + 307;
	sum.ns_out = 108 + 208 + 308;
	expect_stats(test, &r->stats, &sum);
	KUNIT_EXPECT_EQ(test, r->resident, 12);
	KUNIT_EXPECT_EQ(test, r->last_used, 5000);
}

/* A[0, 4) B[4, 8) A[8, 12), then a clip. */
struct clip_case {
	const char *name;
	u32 first;
	u32 last;
	u32 n;
	struct range_exp exp[4];
};

static const struct clip_case clip_cases[] = {
	{ "whole_range_removed", 4, 8, 2,
	  { { 0, 4, ATTR_A }, { 8, 12, ATTR_A } } },
	{ "everything_removed", 0, 12, 0, {} },
	{ "wider_than_the_set_removes_everything", 0, 100, 0, {} },
	{ "left_edge_shrinks", 0, 2, 3,
	  { { 2, 4, ATTR_A }, { 4, 8, ATTR_B }, { 8, 12, ATTR_A } } },
	{ "right_edge_shrinks", 10, 12, 3,
	  { { 0, 4, ATTR_A }, { 4, 8, ATTR_B }, { 8, 10, ATTR_A } } },
	{ "both_neighbours_shrink", 2, 6, 3,
	  { { 0, 2, ATTR_A }, { 6, 8, ATTR_B }, { 8, 12, ATTR_A } } },
	{ "shrink_remove_shrink", 2, 10, 2,
	  { { 0, 2, ATTR_A }, { 10, 12, ATTR_A } } },
	{ "inner_hole_splits_the_range", 5, 7, 4,
	  { { 0, 4, ATTR_A }, { 4, 5, ATTR_B }, { 7, 8, ATTR_B },
	    { 8, 12, ATTR_A } } },
	{ "outside_changes_nothing", 12, 16, 3,
	  { { 0, 4, ATTR_A }, { 4, 8, ATTR_B }, { 8, 12, ATTR_A } } },
};

static void clip_case_desc(const struct clip_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(clip, clip_cases, clip_case_desc);

static const struct range_op aba_ops[] = {
	{ 0, 4, ATTR_A, ALL }, { 4, 8, ATTR_B, ALL }, { 8, 12, ATTR_A, ALL },
};

static void clip_removes_and_shrinks_ranges(struct kunit *test)
{
	const struct clip_case *c = test->param_value;
	struct amdx_range_set *rs = new_set(test);

	apply_ops(test, rs, aba_ops, ARRAY_SIZE(aba_ops));
	amdx_range_clip(rs, PG(c->first), PG(c->last));
	expect_ranges(test, rs, c->exp, c->n);
}

/*
 * A mapping made later in a hole punched into a pinned range inherits
 * nothing: no range holds the hole, the parts around it keep the pin and
 * the counters stay with the left part.
 */
static void clip_hole_is_in_no_range(struct kunit *test)
{
	static const struct range_exp exp[] = {
		{ 0, 3, ATTR_B }, { 5, 8, ATTR_B },
	};
	struct amdx_range_set *rs = new_set(test);
	struct amdx_range *r;
	u32 i;

	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(0), PG(8), &attr_b, ALL), 0);
	r = nth_range(test, rs, 0);
	r->stats.pages_in = 8;
	r->resident = 8;
	amdx_range_clip(rs, PG(3), PG(5));
	expect_ranges(test, rs, exp, ARRAY_SIZE(exp));
	for (i = 3; i < 5; i++)
		KUNIT_EXPECT_NULL_MSG(test, amdx_range_find(rs, PG(i)),
				      "page %u", i);
	KUNIT_EXPECT_FALSE(test, amdx_range_covered(rs, PG(3), PG(4)));
	KUNIT_EXPECT_EQ(test, amdx_range_pinned_bytes(rs), PG(6));
	KUNIT_EXPECT_EQ(test, nth_range(test, rs, 0)->stats.pages_in, 8);
	KUNIT_EXPECT_EQ(test, nth_range(test, rs, 0)->resident, 8);
	KUNIT_EXPECT_EQ(test, nth_range(test, rs, 1)->stats.pages_in, 0);
	KUNIT_EXPECT_EQ(test, nth_range(test, rs, 1)->resident, 0);

	/* the hole gets the defaults when attributes are set over it */
	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(3), PG(5), &attr_a,
				       AMDX_HMM_ATTR_ACCESS), 0);
	r = amdx_range_find(rs, PG(3));
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->attr.flags, 0);
	KUNIT_EXPECT_EQ(test, r->attr.preferred_loc, AMDX_HMM_LOC_SYSTEM);
	KUNIT_EXPECT_EQ(test, r->attr.access, attr_a.access);
}

/*
 * At %AMDX_HMM_RANGES_MAX a hole punched inside a range cannot split it:
 * the part above the hole is forgotten with the hole, the set never grows
 * beyond the cap and the hole is in no range.
 */
static void clip_hole_at_the_cap_forgets_the_part_above(struct kunit *test)
{
	struct amdx_range_set *rs = new_set(test);
	const struct amdx_range_attr *at;
	u32 i;

	for (i = 0; i < AMDX_HMM_RANGES_MAX - 1; i++) {
		at = i & 1 ? &attr_b : &attr_a;
		KUNIT_ASSERT_EQ_MSG(test, set_attr(rs, PG(i), PG(i + 1), at, ALL),
				    0, "range %u", i);
	}
	/* the last range four pages long */
	at = i & 1 ? &attr_b : &attr_a;
	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(i), PG(i + 4), at, ALL), 0);
	KUNIT_ASSERT_EQ(test, rs->count, AMDX_HMM_RANGES_MAX);
	amdx_range_clip(rs, PG(i + 1), PG(i + 2));
	KUNIT_EXPECT_EQ(test, rs->count, AMDX_HMM_RANGES_MAX);
	KUNIT_EXPECT_TRUE(test, amdx_range_covered(rs, PG(i), PG(i + 1)));
	KUNIT_EXPECT_NULL(test, amdx_range_find(rs, PG(i + 1)));
	KUNIT_EXPECT_NULL(test, amdx_range_find(rs, PG(i + 2)));
	KUNIT_EXPECT_NULL(test, amdx_range_find(rs, PG(i + 3)));

	/* below the cap the same hole splits */
	amdx_range_clip(rs, PG(0), PG(1));
	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(i), PG(i + 4), at, ALL), 0);
	KUNIT_ASSERT_EQ(test, rs->count, AMDX_HMM_RANGES_MAX - 1);
	amdx_range_clip(rs, PG(i + 1), PG(i + 2));
	KUNIT_EXPECT_EQ(test, rs->count, AMDX_HMM_RANGES_MAX);
	KUNIT_EXPECT_NULL(test, amdx_range_find(rs, PG(i + 1)));
	KUNIT_EXPECT_NOT_NULL(test, amdx_range_find(rs, PG(i + 2)));
	KUNIT_EXPECT_NOT_NULL(test, amdx_range_find(rs, PG(i + 3)));
}

static void covered_and_find_see_holes(struct kunit *test)
{
	static const struct {
		u32 first, last;
		bool covered;
	} spans[] = {
		{ 0, 8, true }, { 2, 6, true }, { 0, 4, true }, { 3, 5, true },
		{ 12, 16, true }, { 13, 14, true }, { 0, 12, false },
		{ 6, 14, false }, { 8, 12, false }, { 9, 10, false },
		{ 16, 20, false }, { 14, 17, false },
	};
	static const struct {
		u64 addr;
		int range;	/* index or -1 */
	} finds[] = {
		{ PG(0), 0 }, { PG(4) - 1, 0 }, { PG(4), 1 }, { PG(8) - 1, 1 },
		{ PG(8), -1 }, { PG(11), -1 }, { PG(12), 2 },
		{ PG(16) - 1, 2 }, { PG(16), -1 }, { PG(1000), -1 },
	};
	static const struct range_op ops[] = {
		{ 0, 4, ATTR_A, ALL }, { 4, 8, ATTR_B, ALL },
		{ 12, 16, ATTR_A, ALL },
	};
	struct amdx_range_set *rs = new_set(test);
	struct amdx_range *r;
	u32 i;

	/* empty set */
	KUNIT_EXPECT_FALSE(test, amdx_range_covered(rs, PG(0), PG(1)));
	KUNIT_EXPECT_NULL(test, amdx_range_find(rs, PG(0)));

	apply_ops(test, rs, ops, ARRAY_SIZE(ops));
	KUNIT_ASSERT_EQ(test, rs->count, 3);
	for (i = 0; i < ARRAY_SIZE(spans); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    amdx_range_covered(rs, PG(spans[i].first),
						       PG(spans[i].last)),
				    spans[i].covered, "[%u, %u)",
				    spans[i].first, spans[i].last);
	for (i = 0; i < ARRAY_SIZE(finds); i++) {
		r = amdx_range_find(rs, finds[i].addr);
		if (finds[i].range < 0)
			KUNIT_EXPECT_NULL_MSG(test, r, "addr %llx",
					      finds[i].addr);
		else
			KUNIT_EXPECT_PTR_EQ_MSG(test, r,
						nth_range(test, rs,
							  finds[i].range),
						"addr %llx", finds[i].addr);
	}
}

/*
 * A device going away leaves every range's access; ranges it alone told
 * apart merge, with their counters, and ranges that never named it stay.
 */
/*
 * The residency hints eviction relies on: a split leaves the pages with
 * the left part and the partitions on both (they may hold some of
 * either); a merge adds the pages and joins the partitions.
 */
static void residency_hints_follow_split_and_merge(struct kunit *test)
{
#define ATTR_G(g) { .preferred_loc = 0, .granularity = (g), .access = 1 }
	static const struct range_op whole = { 0, 8, ATTR_G(4), ALL };
	static const struct range_op split = { 2, 4, ATTR_G(5), ALL };
	static const struct range_op join = { 2, 4, ATTR_G(4), ALL };
#undef ATTR_G
	struct amdx_range_set *rs = new_set(test);
	struct amdx_range *r;

	apply_ops(test, rs, &whole, 1);
	r = nth_range(test, rs, 0);
	r->resident = 8;
	r->resident_parts = BIT(1);

	apply_ops(test, rs, &split, 1);
	KUNIT_ASSERT_EQ(test, rs->count, 3);
	KUNIT_EXPECT_EQ(test, nth_range(test, rs, 0)->resident, 8);
	KUNIT_EXPECT_EQ(test, nth_range(test, rs, 1)->resident, 0);
	KUNIT_EXPECT_EQ(test, nth_range(test, rs, 2)->resident, 0);
	KUNIT_EXPECT_EQ(test, nth_range(test, rs, 0)->resident_parts, BIT(1));
	KUNIT_EXPECT_EQ(test, nth_range(test, rs, 1)->resident_parts, BIT(1));
	KUNIT_EXPECT_EQ(test, nth_range(test, rs, 2)->resident_parts, BIT(1));

	nth_range(test, rs, 1)->resident = 2;
	nth_range(test, rs, 1)->resident_parts = BIT(2);
	nth_range(test, rs, 2)->resident_parts = BIT(3);
	apply_ops(test, rs, &join, 1);
	KUNIT_ASSERT_EQ(test, rs->count, 1);
	r = nth_range(test, rs, 0);
	KUNIT_EXPECT_EQ(test, r->resident, 10);
	KUNIT_EXPECT_EQ(test, r->resident_parts, BIT(1) | BIT(2) | BIT(3));
}

static void clear_access_forgets_a_device_and_merges(struct kunit *test)
{
#define ATTR_ACC(a) { .preferred_loc = 0, .granularity = 4, .access = (a) }
	static const struct range_op ops[] = {
		{ 0, 4, ATTR_ACC(0x1), ALL },
		{ 4, 8, ATTR_ACC(0x1 | BIT_ULL(63)), ALL },
		{ 8, 12, ATTR_ACC(0x1), ALL },
		{ 12, 16, ATTR_ACC(0x5), ALL },
		{ 20, 24, ATTR_ACC(BIT_ULL(63)), ALL },
	};
	static const struct range_exp before[] = {
		{ 0, 4, ATTR_ACC(0x1) },
		{ 4, 8, ATTR_ACC(0x1 | BIT_ULL(63)) },
		{ 8, 12, ATTR_ACC(0x1) },
		{ 12, 16, ATTR_ACC(0x5) },
		{ 20, 24, ATTR_ACC(BIT_ULL(63)) },
	};
	static const struct range_exp after[] = {
		{ 0, 12, ATTR_ACC(0x1) },
		{ 12, 16, ATTR_ACC(0x5) },
		{ 20, 24, ATTR_ACC(0) },
	};
	static const struct range_exp none[] = {
		{ 0, 16, ATTR_ACC(0) },
		{ 20, 24, ATTR_ACC(0) },
	};
#undef ATTR_ACC
	struct amdx_range_set *rs = new_set(test);
	struct amdx_hmm_stats s100, s200, sum;

	apply_ops(test, rs, ops, ARRAY_SIZE(ops));
	expect_ranges(test, rs, before, ARRAY_SIZE(before));
	stats_fill(&s100, 100);
	stats_fill(&s200, 200);
	nth_range(test, rs, 0)->stats = s100;
	nth_range(test, rs, 1)->stats = s200;

	/* a device no range names: nothing changes */
	KUNIT_EXPECT_FALSE(test, amdx_range_clear_access(rs, BIT_ULL(7)));
	expect_ranges(test, rs, before, ARRAY_SIZE(before));

	/* device 63 goes: [0, 12) is one range again, [20, 24) stays apart */
	KUNIT_EXPECT_TRUE(test, amdx_range_clear_access(rs, BIT_ULL(63)));
	expect_ranges(test, rs, after, ARRAY_SIZE(after));
	sum.pages_in = 101 + 201;
	sum.pages_out = 102 + 202;
	sum.cpu_faults = 103 + 203;
	sum.evictions = 104 + 204;
	sum.bytes_in = 105 + 205;
	sum.bytes_out = 106 + 206;
	sum.ns_in = 107 + 207;
	sum.ns_out = 108 + 208;
	expect_stats(test, &nth_range(test, rs, 0)->stats, &sum);
	KUNIT_EXPECT_FALSE(test, amdx_range_clear_access(rs, BIT_ULL(63)));

	/* every device (a removed device's own ranges) */
	KUNIT_EXPECT_TRUE(test, amdx_range_clear_access(rs, U64_MAX));
	expect_ranges(test, rs, none, ARRAY_SIZE(none));
}

static void pinned_bytes_sum_pinned_ranges(struct kunit *test)
{
	static const struct range_op ops[] = {
		{ 0, 4, ATTR_B, ALL },		/* pinned */
		{ 4, 8, ATTR_A, ALL },
		{ 10, 13, ATTR_B, ALL },	/* pinned */
	};
	struct amdx_range_attr loc = { .preferred_loc = 3 };
	struct amdx_range_set *rs = new_set(test);

	KUNIT_EXPECT_EQ(test, amdx_range_pinned_bytes(rs), 0);
	apply_ops(test, rs, ops, ARRAY_SIZE(ops));
	KUNIT_EXPECT_EQ(test, amdx_range_pinned_bytes(rs), PG(7));

	/* splitting a pinned range keeps the pin on both parts */
	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(1), PG(2), &loc,
				       AMDX_HMM_ATTR_PREFERRED_LOC), 0);
	KUNIT_EXPECT_EQ(test, rs->count, 5);
	KUNIT_EXPECT_EQ(test, amdx_range_pinned_bytes(rs), PG(7));

	/* pinning the hole and the unpinned range */
	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(6), PG(10), &attr_b,
				       AMDX_HMM_ATTR_FLAGS), 0);
	KUNIT_EXPECT_EQ(test, amdx_range_pinned_bytes(rs), PG(11));

	/* unpinning one page, clipping two pinned pages */
	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(0), PG(1), &attr_a,
				       AMDX_HMM_ATTR_FLAGS), 0);
	KUNIT_EXPECT_EQ(test, amdx_range_pinned_bytes(rs), PG(10));
	amdx_range_clip(rs, PG(11), PG(13));
	KUNIT_EXPECT_EQ(test, amdx_range_pinned_bytes(rs), PG(8));
}

static void empty_or_reversed_interval_is_einval(struct kunit *test)
{
	static const struct range_exp one[] = { { 0, 8, ATTR_A } };
	struct amdx_range_set *rs = new_set(test);

	KUNIT_EXPECT_EQ(test, set_attr(rs, PG(1), PG(1), &attr_a,
				       ALL), -EINVAL);
	KUNIT_EXPECT_EQ(test, set_attr(rs, PG(2), PG(1), &attr_a,
				       ALL), -EINVAL);
	KUNIT_EXPECT_EQ(test, set_attr(rs, U64_MAX, 0, &attr_a, ALL), -EINVAL);
	KUNIT_EXPECT_EQ(test, rs->count, 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&rs->ranges));

	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(0), PG(8), &attr_a, ALL), 0);
	KUNIT_EXPECT_EQ(test, set_attr(rs, PG(4), PG(4), &attr_b,
				       ALL), -EINVAL);
	KUNIT_EXPECT_EQ(test, set_attr(rs, PG(6), PG(2), &attr_b,
				       ALL), -EINVAL);
	expect_ranges(test, rs, one, 1);
}

/*
 * -ENOMEM: the failslab fail-nth counter (what /proc/<pid>/fail-nth
 * sets) makes the nth slab allocation of this task fail for real.
 * failslab ignores allocations that may reclaim, hence GFP_ATOMIC, which
 * the function documents for callers under a spinlock; __GFP_NOWARN keeps
 * the injection quiet.  The call needs three nodes (two splits and a
 * hole); kmemleak's own bookkeeping allocations take turns in the count
 * too, so each n either fails (the set must be unchanged) or succeeds
 * (the set must have the new shape).
 */
static void short_pool_leaves_the_set_unchanged(struct kunit *test)
{
	static const struct range_op ops[] = {
		{ 0, 4, ATTR_A, ALL }, { 4, 8, ATTR_B, ALL },
		{ 12, 16, ATTR_A, ALL },
	};
	static const struct range_exp before[] = {
		{ 0, 4, ATTR_A }, { 4, 8, ATTR_B }, { 12, 16, ATTR_A },
	};
	static const struct range_exp after[] = {
		{ 0, 2, ATTR_A }, { 2, 14, ATTR_DEF }, { 14, 16, ATTR_A },
	};
	const struct amdx_range_attr def = ATTR_DEF;
	u32 need, have;

	for (have = 0;; have++) {
		struct amdx_range_set *rs = new_set(test);
		LIST_HEAD(pool);
		u32 n = 0;
		int ret;

		apply_ops(test, rs, ops, ARRAY_SIZE(ops));
		need = amdx_range_nodes_needed(rs, PG(2), PG(14));
		/* two splits and one gap */
		KUNIT_ASSERT_EQ(test, need, 3);
		KUNIT_ASSERT_EQ(test, amdx_range_pool_fill(&pool, &n, have), 0);
		KUNIT_ASSERT_EQ(test, n, have);
		ret = amdx_range_set_attr(rs, PG(2), PG(14), &def, ALL, &pool);
		amdx_range_pool_free(&pool);
		if (have < need) {
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM, "%u nodes", have);
			expect_ranges(test, rs, before, ARRAY_SIZE(before));
			continue;
		}
		KUNIT_EXPECT_EQ(test, ret, 0);
		expect_ranges(test, rs, after, ARRAY_SIZE(after));
		break;
	}
}

/* One range per page, alternating attributes so that nothing merges. */
static void ranges_cap_is_enospc_and_leaves_the_set(struct kunit *test)
{
	struct amdx_range_set *rs = new_set(test);
	const struct amdx_range_attr *at;
	u32 i;

	for (i = 0; i < AMDX_HMM_RANGES_MAX; i++) {
		at = i & 1 ? &attr_b : &attr_a;
		KUNIT_ASSERT_EQ_MSG(test, set_attr(rs, PG(i), PG(i + 1), at, ALL),
				    0, "range %u", i);
	}
	KUNIT_ASSERT_EQ(test, rs->count, AMDX_HMM_RANGES_MAX);
	at = i & 1 ? &attr_b : &attr_a;
	KUNIT_EXPECT_EQ(test, set_attr(rs, PG(i), PG(i + 1), at, ALL),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, rs->count, AMDX_HMM_RANGES_MAX);
	KUNIT_EXPECT_FALSE(test, amdx_range_covered(rs, PG(i), PG(i + 1)));
	/* a change that needs no node works at the cap: 0, 1, 2 merge */
	KUNIT_EXPECT_EQ(test, set_attr(rs, PG(0), PG(2), &attr_a, ALL), 0);
	KUNIT_EXPECT_EQ(test, rs->count, AMDX_HMM_RANGES_MAX - 2);
	KUNIT_EXPECT_EQ(test, set_attr(rs, PG(i), PG(i + 1), at, ALL), 0);
	KUNIT_EXPECT_EQ(test, rs->count, AMDX_HMM_RANGES_MAX - 1);
}

/* Residency counters: in per partition, out lowest partition first. */
static void residency_counts_in_and_out_per_partition(struct kunit *test)
{
	struct amdx_range_set *rs = new_set(test);
	u64 per[AMDX_MAX_MEM_PARTITIONS] = {};
	struct amdx_range *r;

	KUNIT_ASSERT_EQ(test, set_attr(rs, PG(0), PG(64), &attr_a, ALL), 0);
	r = nth_range(test, rs, 0);
	amdx_range_account_in(r, 1, 10);
	amdx_range_account_in(r, 3, 5);
	/* a partition beyond the uapi's counts nothing */
	amdx_range_account_in(r, AMDX_MAX_MEM_PARTITIONS, 7);
	KUNIT_EXPECT_EQ(test, r->resident, 15);
	KUNIT_EXPECT_EQ(test, r->resident_parts, BIT(1) | BIT(3));
	KUNIT_EXPECT_EQ(test, amdx_range_set_resident(rs, per), 15);
	KUNIT_EXPECT_EQ(test, per[1], 10);
	KUNIT_EXPECT_EQ(test, per[3], 5);

	amdx_range_account_out(r, 12);
	KUNIT_EXPECT_EQ(test, r->resident, 3);
	KUNIT_EXPECT_EQ(test, r->resident_part[1], 0);
	KUNIT_EXPECT_EQ(test, r->resident_part[3], 3);
	KUNIT_EXPECT_EQ(test, r->resident_parts, BIT(3));
	/* never below zero */
	amdx_range_account_out(r, 100);
	KUNIT_EXPECT_EQ(test, r->resident, 0);
	KUNIT_EXPECT_EQ(test, r->resident_parts, 0);

	amdx_range_account_in(r, 0, 4);
	amdx_range_account_in(r, 2, 6);
	amdx_range_forget_resident(r, 2);
	KUNIT_EXPECT_EQ(test, r->resident, 4);
	KUNIT_EXPECT_EQ(test, r->resident_parts, BIT(0));
	amdx_range_forget_resident(r, AMDX_HMM_LOC_SYSTEM);
	KUNIT_EXPECT_EQ(test, r->resident, 0);
	KUNIT_EXPECT_EQ(test, amdx_range_set_resident(rs, NULL), 0);
}

/*
 * Random set_attr and clip sequences against a per-page model: after
 * each call the set must be exactly the maximal runs of equal attributes
 * of the model (sorted, disjoint, merged, counted), and set_attr must
 * preserve the sum of the counters.
 */
#define MODEL_PAGES	48
#define MODEL_STEPS	3000

struct page_model {
	bool present[MODEL_PAGES];
	struct amdx_range_attr attr[MODEL_PAGES];
};

static u32 lcg_next(u32 *state)
{
	*state = *state * 1664525 + 1013904223;
	return *state >> 8;
}

static bool attr_eq(const struct amdx_range_attr *a,
		    const struct amdx_range_attr *b)
{
	return a->preferred_loc == b->preferred_loc &&
	       a->granularity == b->granularity && a->flags == b->flags &&
	       a->access == b->access;
}

/* The set matches @m; counts mismatches rather than flooding the log. */
static bool model_matches(const struct amdx_range_set *rs,
			  const struct page_model *m, u64 *pages_in)
{
	const struct amdx_range *r, *prev = NULL;
	u32 page = 0, n = 0;

	*pages_in = 0;
	list_for_each_entry(r, &rs->ranges, node) {
		u32 first = r->start / PAGE_SIZE, last = r->end / PAGE_SIZE;
		u32 i;

		n++;
		*pages_in += r->stats.pages_in;
		if (r->start % PAGE_SIZE || r->end % PAGE_SIZE ||
		    first >= last || last > MODEL_PAGES || first < page)
			return false;
		/* nothing in the model between the previous range and this */
		for (i = page; i < first; i++)
			if (m->present[i])
				return false;
		for (i = first; i < last; i++)
			if (!m->present[i] || !attr_eq(&m->attr[i], &r->attr))
				return false;
		/* maximal: a touching equal neighbour should have merged */
		if (prev && prev->end == r->start &&
		    attr_eq(&prev->attr, &r->attr))
			return false;
		prev = r;
		page = last;
	}
	for (; page < MODEL_PAGES; page++)
		if (m->present[page])
			return false;
	return n == rs->count;
}

/*
 * The tree holds the list's nodes in its order, and amdx_range_next() and
 * amdx_range_find() answer for every page what a walk of the list does.
 */
static bool tree_matches_list(const struct amdx_range_set *rs)
{
	struct rb_node *n = rb_first(&rs->tree);
	struct amdx_range *r, *want;
	u32 page;

	list_for_each_entry(r, &rs->ranges, node) {
		if (n != &r->rb)
			return false;
		n = rb_next(n);
	}
	if (n)
		return false;
	for (page = 0; page <= MODEL_PAGES; page++) {
		want = NULL;
		list_for_each_entry(r, &rs->ranges, node) {
			if (r->end > PG(page)) {
				want = r;
				break;
			}
		}
		if (amdx_range_next(rs, PG(page)) != want)
			return false;
		if (amdx_range_find(rs, PG(page)) !=
		    (want && want->start <= PG(page) ? want : NULL))
			return false;
	}
	return true;
}

static void random_sequences_match_a_page_model(struct kunit *test)
{
	static const struct amdx_range_attr pool[] = {
		ATTR_A, ATTR_B, ATTR_DEF, { .preferred_loc = 2, .access = 1 },
	};
	struct amdx_range_set *rs = new_set(test);
	struct page_model *m;
	u32 seed = 0x5eed, step;
	u64 total = 0, sum;

	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);

	for (step = 0; step < MODEL_STEPS; step++) {
		u32 a = lcg_next(&seed) % (MODEL_PAGES + 1);
		u32 b = lcg_next(&seed) % (MODEL_PAGES + 1);
		u32 first = min(a, b), last = max(a, b), i;
		struct amdx_range *r;

		if (first == last)
			continue;
		if (lcg_next(&seed) % 4 == 0) {
			/* clip: every page of the interval leaves */
			for (i = first; i < last; i++)
				m->present[i] = false;
			amdx_range_clip(rs, PG(first), PG(last));
			KUNIT_ASSERT_TRUE_MSG(test, model_matches(rs, m, &sum),
					      "step %u clip [%u, %u)", step,
					      first, last);
			total = sum;
		} else {
			const struct amdx_range_attr *at =
				&pool[lcg_next(&seed) % ARRAY_SIZE(pool)];
			u32 valid = lcg_next(&seed) % (ALL + 1);

			for (i = first; i < last; i++) {
				if (!m->present[i]) {
					m->present[i] = true;
					amdx_range_attr_default(&m->attr[i]);
				}
				if (valid & AMDX_HMM_ATTR_PREFERRED_LOC)
					m->attr[i].preferred_loc =
						at->preferred_loc;
				if (valid & AMDX_HMM_ATTR_GRANULARITY)
					m->attr[i].granularity = at->granularity;
				if (valid & AMDX_HMM_ATTR_FLAGS)
					m->attr[i].flags = at->flags;
				if (valid & AMDX_HMM_ATTR_ACCESS)
					m->attr[i].access = at->access;
			}
			KUNIT_ASSERT_EQ(test,
					set_attr(rs, PG(first),
						 PG(last), at,
						 valid),
					0);
			KUNIT_ASSERT_TRUE_MSG(test, model_matches(rs, m, &sum),
					      "step %u set [%u, %u) valid %x",
					      step, first, last, valid);
			KUNIT_ASSERT_EQ_MSG(test, sum, total,
					    "step %u: counters not preserved",
					    step);
		}
		KUNIT_ASSERT_TRUE_MSG(test, tree_matches_list(rs),
				      "step %u: tree and list differ", step);
		/* charge a page-in to some range, as migration would */
		r = amdx_range_find(rs, PG(lcg_next(&seed) % MODEL_PAGES));
		if (r) {
			r->stats.pages_in++;
			total++;
		}
	}
}

static struct kunit_case amdx_hmm_range_test_cases[] = {
	KUNIT_CASE_PARAM(set_attr_splits_straddled_ranges,
			 split_gen_params),
	KUNIT_CASE_PARAM(set_attr_merges_only_touching_equal_ranges,
			 merge_gen_params),
	KUNIT_CASE_PARAM(set_attr_fills_holes_with_defaults, gap_gen_params),
	KUNIT_CASE_PARAM(set_attr_applies_only_valid_attributes,
			 valid_gen_params),
	KUNIT_CASE(counters_stay_left_on_split_and_add_on_merge),
	KUNIT_CASE_PARAM(clip_removes_and_shrinks_ranges, clip_gen_params),
	KUNIT_CASE(clip_hole_is_in_no_range),
	KUNIT_CASE(clip_hole_at_the_cap_forgets_the_part_above),
	KUNIT_CASE(covered_and_find_see_holes),
	KUNIT_CASE(residency_hints_follow_split_and_merge),
	KUNIT_CASE(clear_access_forgets_a_device_and_merges),
	KUNIT_CASE(pinned_bytes_sum_pinned_ranges),
	KUNIT_CASE(empty_or_reversed_interval_is_einval),
	KUNIT_CASE(short_pool_leaves_the_set_unchanged),
	KUNIT_CASE(ranges_cap_is_enospc_and_leaves_the_set),
	KUNIT_CASE(residency_counts_in_and_out_per_partition),
	KUNIT_CASE(random_sequences_match_a_page_model),
	{}
};

static struct kunit_suite amdx_hmm_range_test_suite = {
	.name = "amdx_hmm_range",
	.test_cases = amdx_hmm_range_test_cases,
};

kunit_test_suite(amdx_hmm_range_test_suite);
