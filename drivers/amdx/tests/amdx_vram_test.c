// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: KUnit tests of the VRAM allocator
 *
 * Suite ``amdx_vram``: partition layout per NPS mode, accounting per
 * partition and owner, exhaustion, fragmentation, quotas, repartitioning,
 * argument checking and the pfn to partition map.  Each test builds its
 * own small allocator (a few dozen pages) and releases it through a KUnit
 * action, so a failed assertion leaks nothing.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/err.h>
#include <linux/mm.h>

#include <amdx/amdx_vram.h>

#define TEST_PAGES	64

static void amdx_vram_test_exit_destroy(struct kunit_resource *res)
{
	amdx_vram_destroy(res->data);
}

static int amdx_vram_test_init_create(struct kunit_resource *res, void *ctx)
{
	res->data = ctx;
	return 0;
}

/* An allocator of @npages pages and @parts partitions, freed with the test. */
static struct amdx_vram *new_vram(struct kunit *test, u64 npages, u32 parts)
{
	struct amdx_vram *v;

	v = amdx_vram_create(npages * PAGE_SIZE, parts);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, v);
	kunit_alloc_resource(test, amdx_vram_test_init_create,
			     amdx_vram_test_exit_destroy, GFP_KERNEL, v);
	return v;
}

struct amdx_vram_layout_case {
	const char *name;
	u32 parts;
};

static const struct amdx_vram_layout_case amdx_vram_layout_cases[] = {
	{ .name = "NPS1", .parts = 1 },
	{ .name = "NPS2", .parts = 2 },
	{ .name = "NPS4", .parts = 4 },
	{ .name = "NPS8", .parts = 8 },
};

static void amdx_vram_layout_case_desc(const struct amdx_vram_layout_case *c,
				       char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(amdx_vram_layout, amdx_vram_layout_cases,
		  amdx_vram_layout_case_desc);

static void partitions_split_vram_evenly_and_contiguously(struct kunit *test)
{
	const struct amdx_vram_layout_case *c = test->param_value;
	u64 size = TEST_PAGES / c->parts;
	struct amdx_vram *v = new_vram(test, TEST_PAGES, c->parts);
	u32 i;

	KUNIT_EXPECT_EQ(test, amdx_vram_num_partitions(v), c->parts);
	KUNIT_EXPECT_EQ(test, amdx_vram_npages(v), TEST_PAGES);
	for (i = 0; i < c->parts; i++) {
		KUNIT_EXPECT_EQ(test, amdx_vram_part_base(v, i), i * size);
		KUNIT_EXPECT_EQ(test, amdx_vram_part_size(v, i), size);
		KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, i), size);
	}
	/* no partition beyond the last one */
	KUNIT_EXPECT_EQ(test, amdx_vram_part_size(v, c->parts), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, c->parts), 0);
}

static void alloc_charges_partition_and_owner(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 4);
	u64 pfn[3], run;
	int i;

	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 1, 2, &pfn[i]), 0);
		KUNIT_EXPECT_EQ(test, amdx_vram_pfn_partition(v, pfn[i]), 1);
		KUNIT_EXPECT_EQ(test, amdx_vram_pfn_owner(v, pfn[i]), 2);
	}
	KUNIT_EXPECT_NE(test, pfn[0], pfn[1]);
	KUNIT_EXPECT_NE(test, pfn[1], pfn[2]);
	KUNIT_EXPECT_NE(test, pfn[0], pfn[2]);

	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 1), 16 - 3);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 0), 16);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 2), 16);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 2), 3);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, AMDX_VRAM_OWNER_PF), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 3);

	KUNIT_ASSERT_EQ(test, amdx_vram_alloc_contig(v, 3, 0, 5, &run), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_partition(v, run), 3);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_partition(v, run + 4), 3);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 3), 16 - 5);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 0), 5);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 8);

	for (i = 0; i < 3; i++)
		amdx_vram_free(v, pfn[i], 2);
	amdx_vram_free_contig(v, run, 5, 0);

	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 1), 16);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 3), 16);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 2), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 0), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_owner(v, pfn[0]), -ENOENT);
}

static void alloc_fails_with_enospc_exactly_at_capacity(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 2);
	DECLARE_BITMAP(seen, TEST_PAGES);
	u64 pfn, again;
	int i;

	bitmap_zero(seen, TEST_PAGES);
	for (i = 0; i < TEST_PAGES / 2; i++) {
		KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 0, 0, &pfn), 0);
		KUNIT_ASSERT_LT(test, pfn, TEST_PAGES / 2);
		KUNIT_EXPECT_FALSE(test, test_and_set_bit(pfn, seen));
	}
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 0), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc(v, 0, 0, &pfn), -ENOSPC);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_contig(v, 0, 0, 1, &pfn),
			-ENOSPC);
	/* the other partition is untouched and still usable */
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 1), TEST_PAGES / 2);
	KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 1, 0, &again), 0);
	amdx_vram_free(v, again, 0);

	/* a freed page is found again although it lies behind the cursor */
	amdx_vram_free(v, 3, 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 0, 0, &again), 0);
	KUNIT_EXPECT_EQ(test, again, 3);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), TEST_PAGES / 2);

	for (i = 0; i < TEST_PAGES / 2; i++)
		amdx_vram_free(v, i, 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 0);
}

static void alloc_is_next_fit(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 1);
	u64 a, b;

	KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 0, 0, &a), 0);
	amdx_vram_free(v, a, 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 0, 0, &b), 0);
	KUNIT_EXPECT_EQ(test, b, a + 1);
	amdx_vram_free(v, b, 0);
}

/* Free every allocated page of a @npages allocator, as the tests end. */
static void free_all(struct amdx_vram *v, u64 npages)
{
	u64 pfn;

	for (pfn = 0; pfn < npages; pfn++)
		if (amdx_vram_pfn_owner(v, pfn) >= 0)
			amdx_vram_free_page(v, pfn);
}

static void bulk_alloc_takes_the_lowest_free_pages(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 2);
	u64 pfns[TEST_PAGES], one, base = TEST_PAGES / 2;
	u32 got, i;

	/* Next-fit single pages leave holes at 32 and 34 once freed. */
	for (i = 0; i < 4; i++)
		KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 1, 0, &one), 0);
	amdx_vram_free(v, base, 0);
	amdx_vram_free(v, base + 2, 0);

	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_bulk(v, 1, 3, 5, pfns, &got), 0);
	KUNIT_ASSERT_EQ(test, got, 5);
	KUNIT_EXPECT_EQ(test, pfns[0], base);
	KUNIT_EXPECT_EQ(test, pfns[1], base + 2);
	for (i = 2; i < 5; i++)
		KUNIT_EXPECT_EQ(test, pfns[i], base + 2 + i);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, amdx_vram_pfn_owner(v, pfns[i]), 3);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 3), 5);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 1), base - 7);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 0), base);

	/* amdx_vram_free_page() finds the owner itself. */
	amdx_vram_free_page(v, pfns[1]);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_owner(v, pfns[1]), -ENOENT);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 3), 4);
	free_all(v, TEST_PAGES);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 0);
}

static void bulk_alloc_stops_at_capacity_and_quota(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 1);
	u64 pfns[TEST_PAGES + 1];
	u32 got;

	KUNIT_ASSERT_EQ(test, amdx_vram_retire(v, 3), 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_set_quota(v, 2, 10), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_bulk(v, 0, 2, 12, pfns, &got),
			-EDQUOT);
	KUNIT_EXPECT_EQ(test, got, 10);
	/* The retired page is skipped. */
	KUNIT_EXPECT_EQ(test, pfns[3], 4);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 2), 10);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_bulk(v, 0, 2, 1, pfns, &got),
			-EDQUOT);
	KUNIT_EXPECT_EQ(test, got, 0);

	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_bulk(v, 0, 0, TEST_PAGES + 1,
						   pfns, &got), -ENOSPC);
	KUNIT_EXPECT_EQ(test, got, TEST_PAGES - 11);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 0), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_bulk(v, 0, 0, 1, pfns, &got),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, got, 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_bulk(v, 1, 0, 1, pfns, &got),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_bulk(v, 0, AMDX_VRAM_MAX_OWNERS,
						   1, pfns, &got), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_bulk(v, 0, 0, 0, pfns, &got),
			-EINVAL);
	free_all(v, TEST_PAGES);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 0);
}

static void contig_alloc_fails_on_fragmented_partition(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, 16, 1);
	u64 pfn;
	int i;

	KUNIT_ASSERT_EQ(test, amdx_vram_alloc_contig(v, 0, 0, 16, &pfn), 0);
	KUNIT_ASSERT_EQ(test, pfn, 0);
	for (i = 0; i < 16; i += 2)
		amdx_vram_free(v, i, 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_part_free(v, 0), 8);

	/* half the partition is free, but no two free pages are adjacent */
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_contig(v, 0, 0, 2, &pfn),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 0), 8);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 0), 8);

	KUNIT_ASSERT_EQ(test, amdx_vram_alloc_contig(v, 0, 0, 1, &pfn), 0);
	KUNIT_EXPECT_EQ(test, pfn, 0);
	for (i = 1; i < 8; i++) {
		KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 0, 0, &pfn), 0);
		KUNIT_EXPECT_EQ(test, pfn % 2, 0);
	}
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc(v, 0, 0, &pfn), -ENOSPC);
	amdx_vram_free_contig(v, 0, 16, 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 0);
}

static void contig_alloc_stays_inside_partition(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, 16, 2);
	u64 pfn;

	/* take pages 0..6 of partition 0; only page 7 is free there */
	KUNIT_ASSERT_EQ(test, amdx_vram_alloc_contig(v, 0, 0, 7, &pfn), 0);
	KUNIT_ASSERT_EQ(test, pfn, 0);
	/* pages 7..9 are free in the bitmap but 8 belongs to partition 1 */
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_contig(v, 0, 0, 2, &pfn),
			-ENOSPC);
	KUNIT_ASSERT_EQ(test, amdx_vram_alloc_contig(v, 1, 0, 8, &pfn), 0);
	KUNIT_EXPECT_EQ(test, pfn, 8);
	amdx_vram_free_contig(v, 0, 7, 0);
	amdx_vram_free_contig(v, 8, 8, 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 0);
}

static void alloc_over_quota_fails_with_edquot(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 1);
	u64 pfn[3], other, run;
	int i;

	KUNIT_ASSERT_EQ(test, amdx_vram_set_quota(v, 1, 3), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_quota(v, 1), 3);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 0, 1, &pfn[i]), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc(v, 0, 1, &other), -EDQUOT);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 1), 3);

	/* other owners are not limited by owner 1's quota */
	KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 0, 2, &other), 0);
	amdx_vram_free(v, other, 2);

	/* a run that would cross the quota is refused as a whole */
	amdx_vram_free(v, pfn[2], 1);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_contig(v, 0, 1, 2, &run),
			-EDQUOT);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 1), 2);
	KUNIT_ASSERT_EQ(test, amdx_vram_alloc_contig(v, 0, 1, 1, &run), 0);
	amdx_vram_free(v, run, 1);

	/* a quota below usage blocks further allocation, 0 lifts it */
	KUNIT_ASSERT_EQ(test, amdx_vram_set_quota(v, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc(v, 0, 1, &other), -EDQUOT);
	KUNIT_ASSERT_EQ(test, amdx_vram_set_quota(v, 1, 0), 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 0, 1, &other), 0);

	amdx_vram_free(v, other, 1);
	amdx_vram_free(v, pfn[0], 1);
	amdx_vram_free(v, pfn[1], 1);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 1), 0);
}

static void repartition_is_refused_while_pages_are_allocated(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 1);
	u64 pfn;

	KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 0, 0, &pfn), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_repartition(v, 4), -EBUSY);
	KUNIT_EXPECT_EQ(test, amdx_vram_num_partitions(v), 1);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_size(v, 0), TEST_PAGES);

	amdx_vram_free(v, pfn, 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_repartition(v, 4), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_num_partitions(v), 4);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_size(v, 0), TEST_PAGES / 4);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_base(v, 3), 3 * TEST_PAGES / 4);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 3), TEST_PAGES / 4);

	/* the new layout is live: partition 3 allocates from its range */
	KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 3, 0, &pfn), 0);
	KUNIT_EXPECT_GE(test, pfn, 3 * TEST_PAGES / 4);
	amdx_vram_free(v, pfn, 0);
}

/* amdx_vram_create()'s error, or 0 (and no leak) if it wrongly succeeds */
static long create_err(u64 size_bytes, u32 parts)
{
	struct amdx_vram *v = amdx_vram_create(size_bytes, parts);

	if (IS_ERR(v))
		return PTR_ERR(v);
	amdx_vram_destroy(v);
	return 0;
}

static void invalid_arguments_are_rejected(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 2);
	u64 pfn;

	KUNIT_EXPECT_EQ(test, create_err(0, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, create_err(PAGE_SIZE + 1, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, create_err(8 * PAGE_SIZE, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, create_err(16 * PAGE_SIZE, 9), -EINVAL);
	KUNIT_EXPECT_EQ(test, create_err(6 * PAGE_SIZE, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, create_err(8 * PAGE_SIZE, 8), 0);

	KUNIT_EXPECT_EQ(test, amdx_vram_alloc(v, 2, 0, &pfn), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc(v, 0, AMDX_VRAM_MAX_OWNERS,
					      &pfn), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_contig(v, 2, 0, 1, &pfn),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_contig(v, 0, 0, 0, &pfn),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_contig(v, 0,
						     AMDX_VRAM_MAX_OWNERS, 1,
						     &pfn), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_set_quota(v, AMDX_VRAM_MAX_OWNERS, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_repartition(v, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_repartition(v, 9), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_repartition(v, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_num_partitions(v), 2);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 0);

	/* a run longer than the partition can never fit */
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_contig(v, 0, 0,
						     TEST_PAGES / 2 + 1, &pfn),
			-ENOSPC);
}

static void bad_free_is_refused_and_changes_no_counter(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 2);
	u64 pfn, run;

	KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 0, 1, &pfn), 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_alloc_contig(v, 1, 1, 4, &run), 0);

	/* wrong owner */
	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, pfn, 1, 2), -EPERM);
	/* never allocated: a double free */
	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, pfn + 1, 1, 1), -ENOENT);
	/* run partly allocated: nothing of it may be freed */
	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, run, 5, 1), -ENOENT);
	/* beyond the VRAM, empty, bad owner, across a partition boundary */
	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, TEST_PAGES, 1, 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, pfn, 0, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, pfn, 1,
						 AMDX_VRAM_MAX_OWNERS),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, TEST_PAGES / 2 - 1, 2, 1),
			-EINVAL);

	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 1), 5);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 2), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 5);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 0), TEST_PAGES / 2 - 1);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 1), TEST_PAGES / 2 - 4);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_owner(v, pfn), 1);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_owner(v, run + 3), 1);

	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, pfn, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, pfn, 1, 1), -ENOENT);
	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, run, 4, 1), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 1), 0);
}

static void pfn_maps_to_its_partition(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 4);

	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_partition(v, 0), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_partition(v, 15), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_partition(v, 16), 1);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_partition(v, 31), 1);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_partition(v, 32), 2);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_partition(v, 48), 3);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_partition(v, TEST_PAGES - 1), 3);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_partition(v, TEST_PAGES), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_owner(v, TEST_PAGES), -EINVAL);

	KUNIT_ASSERT_EQ(test, amdx_vram_repartition(v, 2), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_partition(v, 31), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_partition(v, 32), 1);
}

static void retired_free_page_leaves_the_allocator(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, 8, 2);
	u64 retired, pending, pfn;
	u32 i;

	KUNIT_ASSERT_EQ(test, amdx_vram_retire(v, 1), 0);
	/* idempotent */
	KUNIT_ASSERT_EQ(test, amdx_vram_retire(v, 1), 0);
	KUNIT_EXPECT_TRUE(test, amdx_vram_pfn_retired(v, 1));
	KUNIT_EXPECT_FALSE(test, amdx_vram_pfn_retired(v, 0));
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_owner(v, 1), -ENOENT);
	amdx_vram_retired(v, &retired, &pending);
	KUNIT_EXPECT_EQ(test, retired, 1);
	KUNIT_EXPECT_EQ(test, pending, 0);
	/* neither used nor free */
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 0), 3);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 1), 4);

	/* the partition fills up one page early, never handing out pfn 1 */
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 0, 0, &pfn), 0);
		KUNIT_EXPECT_NE(test, pfn, 1);
	}
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc(v, 0, 0, &pfn), -ENOSPC);
	/* not allocated: freeing it is a double free */
	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, 1, 1, 0), -ENOENT);
	/* contiguous runs step around it */
	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, 0, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, 2, 2, 0), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_alloc_contig(v, 0, 0, 3, &pfn),
			-ENOSPC);
	KUNIT_ASSERT_EQ(test, amdx_vram_alloc_contig(v, 0, 0, 2, &pfn), 0);
	KUNIT_EXPECT_EQ(test, pfn, 2);
	amdx_vram_free_contig(v, 2, 2, 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_retire(v, 8), -EINVAL);
	KUNIT_EXPECT_FALSE(test, amdx_vram_pfn_retired(v, 8));
}

static void retired_allocated_page_leaves_when_freed(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, 4, 1);
	u64 retired, pending, pfn, again;

	KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, 0, 3, &pfn), 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_retire(v, pfn), 0);
	/* still the owner's until freed */
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_owner(v, pfn), 3);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 3), 1);
	amdx_vram_retired(v, &retired, &pending);
	KUNIT_EXPECT_EQ(test, retired, 0);
	KUNIT_EXPECT_EQ(test, pending, 1);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 0), 3);

	KUNIT_ASSERT_EQ(test, amdx_vram_try_free(v, pfn, 1, 3), 0);
	amdx_vram_retired(v, &retired, &pending);
	KUNIT_EXPECT_EQ(test, retired, 1);
	KUNIT_EXPECT_EQ(test, pending, 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_used(v, 3), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 0), 3);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_owner(v, pfn), -ENOENT);
	KUNIT_EXPECT_EQ(test, amdx_vram_try_free(v, pfn, 1, 3), -ENOENT);

	/* it never comes back */
	while (!amdx_vram_alloc(v, 0, 0, &again))
		KUNIT_EXPECT_NE(test, again, pfn);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 3);
	amdx_vram_free(v, (pfn + 1) % 4, 0);
	amdx_vram_free(v, (pfn + 2) % 4, 0);
	amdx_vram_free(v, (pfn + 3) % 4, 0);
}

static void retired_pages_survive_repartitioning(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, 16, 1);
	u64 retired, pending;

	KUNIT_ASSERT_EQ(test, amdx_vram_retire(v, 3), 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_retire(v, 12), 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_retire(v, 13), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 0), 13);
	/* retired pages are not allocations: repartitioning is allowed */
	KUNIT_ASSERT_EQ(test, amdx_vram_repartition(v, 4), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 0), 3);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 1), 4);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 2), 4);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 3), 2);
	KUNIT_EXPECT_TRUE(test, amdx_vram_pfn_retired(v, 13));
	amdx_vram_retired(v, &retired, &pending);
	KUNIT_EXPECT_EQ(test, retired, 3);
	KUNIT_ASSERT_EQ(test, amdx_vram_repartition(v, 1), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_part_free(v, 0), 13);
}

/* An owner's pages are found through its own record, in order. */
static void owner_next_finds_exactly_the_owners_pages(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 2);
	DECLARE_BITMAP(mine, TEST_PAGES);
	u64 pfn, run, n = 0;
	int i;

	bitmap_zero(mine, TEST_PAGES);
	/* an empty owner: nothing, whatever the others hold */
	KUNIT_ASSERT_EQ(test, amdx_vram_alloc_contig(v, 0, 1, 8, &run), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_next(v, 3, 0), TEST_PAGES);

	/* owner 3's pages in both partitions, interleaved with owner 1's */
	for (i = 0; i < 6; i++) {
		KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, i % 2, 3, &pfn), 0);
		__set_bit(pfn, mine);
		KUNIT_ASSERT_EQ(test, amdx_vram_alloc(v, i % 2, 1, &pfn), 0);
	}
	for (pfn = amdx_vram_owner_next(v, 3, 0); pfn < TEST_PAGES;
	     pfn = amdx_vram_owner_next(v, 3, pfn + 1)) {
		KUNIT_EXPECT_TRUE(test, test_bit(pfn, mine));
		KUNIT_EXPECT_EQ(test, amdx_vram_pfn_owner(v, pfn), 3);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 6);

	/* below a limit: partition 0's pages only, then the limit */
	n = 0;
	for (pfn = amdx_vram_owner_next_below(v, 3, 0, TEST_PAGES / 2);
	     pfn < TEST_PAGES / 2;
	     pfn = amdx_vram_owner_next_below(v, 3, pfn + 1, TEST_PAGES / 2))
		n++;
	KUNIT_EXPECT_EQ(test, n, 3);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_next_below(v, 3, TEST_PAGES / 2,
							 TEST_PAGES / 2),
			TEST_PAGES / 2);

	/* a freed page is no longer the owner's; bad arguments find none */
	pfn = find_first_bit(mine, TEST_PAGES);
	amdx_vram_free(v, pfn, 3);
	KUNIT_EXPECT_GT(test, amdx_vram_owner_next(v, 3, 0), pfn);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_next(v, 3, TEST_PAGES),
			TEST_PAGES);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_next(v, AMDX_VRAM_MAX_OWNERS, 0),
			TEST_PAGES);

	/* a retired page freed by its owner leaves the owner's record too */
	pfn = amdx_vram_owner_next(v, 3, 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_retire(v, pfn), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_next(v, 3, 0), pfn);
	amdx_vram_free(v, pfn, 3);
	KUNIT_EXPECT_GT(test, amdx_vram_owner_next(v, 3, 0), pfn);

	/* everything freed: an owner that held pages holds none */
	for (pfn = amdx_vram_owner_next(v, 3, 0); pfn < TEST_PAGES;
	     pfn = amdx_vram_owner_next(v, 3, pfn + 1))
		amdx_vram_free(v, pfn, 3);
	for (pfn = amdx_vram_owner_next(v, 1, 0); pfn < TEST_PAGES;
	     pfn = amdx_vram_owner_next(v, 1, pfn + 1))
		amdx_vram_free(v, pfn, 1);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_next(v, 3, 0), TEST_PAGES);
	KUNIT_EXPECT_EQ(test, amdx_vram_owner_next(v, 1, 0), TEST_PAGES);
	KUNIT_EXPECT_EQ(test, amdx_vram_used(v), 0);
}

/*
 * Pages are counted per holder and partition from the moment they are
 * held until they are freed; a run is found by holder; a dropped holder's
 * pages pass to nobody and its id to the next holder, which starts empty.
 */
static void holders_count_find_and_hand_over_their_pages(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 2);
	u64 pfns[8], parts[AMDX_VRAM_MAX_PARTITIONS], pos, n;
	u32 a, b, c, got, i;

	KUNIT_ASSERT_EQ(test, amdx_vram_holder_new(v, 0, 0, &a), 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_holder_new(v, 0, 0, &b), 0);
	KUNIT_EXPECT_NE(test, a, AMDX_VRAM_NO_HOLDER);
	KUNIT_EXPECT_NE(test, a, b);

	/* 8 pages of partition 1 (pfns 32..39), allocated: held by nobody */
	KUNIT_ASSERT_EQ(test, amdx_vram_alloc_bulk(v, 1, 0, 8, pfns, &got), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_used(v, AMDX_VRAM_NO_HOLDER,
						    NULL), 8);
	/* a holds 32..35 and 38, b holds 36 */
	amdx_vram_hold_pages(v, pfns, 4, a);
	amdx_vram_hold_pages(v, &pfns[6], 1, a);
	amdx_vram_hold_pages(v, &pfns[4], 1, b);
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_used(v, a, parts), 5);
	KUNIT_EXPECT_EQ(test, parts[0], 0);
	KUNIT_EXPECT_EQ(test, parts[1], 5);
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_used(v, b, NULL), 1);
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_used(v, AMDX_VRAM_NO_HOLDER,
						    NULL), 2);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_holder(v, 36), b);

	/* runs of a: 32..35, then 38 */
	pos = 0;
	n = amdx_vram_holder_run(v, a, &pos, TEST_PAGES);
	KUNIT_EXPECT_EQ(test, pos, 32);
	KUNIT_EXPECT_EQ(test, n, 4);
	pos += n;
	n = amdx_vram_holder_run(v, a, &pos, TEST_PAGES);
	KUNIT_EXPECT_EQ(test, pos, 38);
	KUNIT_EXPECT_EQ(test, n, 1);
	pos += n;
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_run(v, a, &pos, TEST_PAGES), 0);
	KUNIT_EXPECT_EQ(test, pos, TEST_PAGES);
	/* nobody's run skips free pages: 37, then 39 */
	pos = 0;
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_run(v, AMDX_VRAM_NO_HOLDER,
						   &pos, TEST_PAGES), 1);
	KUNIT_EXPECT_EQ(test, pos, 37);

	/* a freed page leaves its holder's count */
	amdx_vram_free_page(v, 33);
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_used(v, a, NULL), 4);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_holder(v, 33),
			AMDX_VRAM_NO_HOLDER);

	/* a goes: its 4 pages pass to nobody, its id can come back empty */
	amdx_vram_holder_put(v, a);
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_used(v, a, NULL), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_used(v, AMDX_VRAM_NO_HOLDER,
						    NULL), 6);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_holder(v, 32),
			AMDX_VRAM_NO_HOLDER);
	/* holding for a dropped holder holds for nobody */
	amdx_vram_hold_pages(v, pfns, 1, a);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_holder(v, 32),
			AMDX_VRAM_NO_HOLDER);
	/* a's id does not come back at once: ids are cyclic */
	KUNIT_ASSERT_EQ(test, amdx_vram_holder_new(v, 0, 0, &c), 0);
	KUNIT_EXPECT_NE(test, c, a);
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_used(v, c, NULL), 0);
	amdx_vram_hold_pages(v, pfns, 1, c);
	KUNIT_EXPECT_EQ(test, amdx_vram_pfn_holder(v, 32), c);
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_used(v, c, NULL), 1);

	for (i = 0; i < 8; i++)
		if (amdx_vram_pfn_owner(v, pfns[i]) >= 0)
			amdx_vram_free_page(v, pfns[i]);
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_used(v, b, NULL), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_used(v, AMDX_VRAM_NO_HOLDER,
						    NULL), 0);
	amdx_vram_holder_put(v, b);
	amdx_vram_holder_put(v, c);
}

/*
 * A dropped holder id is not handed out again until every other id was:
 * a reader that took an id without the lock (eviction) never meets the
 * next fd under it.
 */
static void holder_ids_are_cyclic(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 1);
	u32 a, b, c, d;

	KUNIT_ASSERT_EQ(test, amdx_vram_holder_new(v, 0, 0, &a), 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_holder_new(v, 0, 0, &b), 0);
	amdx_vram_holder_put(v, a);
	KUNIT_ASSERT_EQ(test, amdx_vram_holder_new(v, 0, 0, &c), 0);
	KUNIT_EXPECT_NE(test, c, a);
	KUNIT_EXPECT_NE(test, c, b);
	amdx_vram_holder_put(v, c);
	KUNIT_ASSERT_EQ(test, amdx_vram_holder_new(v, 0, 0, &d), 0);
	KUNIT_EXPECT_NE(test, d, a);
	KUNIT_EXPECT_NE(test, d, c);
	amdx_vram_holder_put(v, b);
	amdx_vram_holder_put(v, d);
}

/*
 * Holder ids under a per-user cap: a user takes @user_max, then -ENOSPC,
 * another user still gets one, a dropped id's place comes back to its
 * user, and an id under no cap counts against nobody.
 */
static void holder_ids_per_user_cap(struct kunit *test)
{
	struct amdx_vram *v = new_vram(test, TEST_PAGES, 1);
	u32 a, b, c, d, e;

	KUNIT_ASSERT_EQ(test, amdx_vram_holder_new(v, 1000, 2, &a), 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_holder_new(v, 1000, 2, &b), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_new(v, 1000, 2, &c), -ENOSPC);
	KUNIT_ASSERT_EQ(test, amdx_vram_holder_new(v, 1001, 2, &c), 0);
	KUNIT_ASSERT_EQ(test, amdx_vram_holder_new(v, 1000, 0, &d), 0);
	amdx_vram_holder_put(v, a);
	KUNIT_ASSERT_EQ(test, amdx_vram_holder_new(v, 1000, 2, &e), 0);
	KUNIT_EXPECT_EQ(test, amdx_vram_holder_new(v, 1000, 2, &a), -ENOSPC);
	amdx_vram_holder_put(v, b);
	amdx_vram_holder_put(v, c);
	amdx_vram_holder_put(v, d);
	amdx_vram_holder_put(v, e);
}

static struct kunit_case amdx_vram_test_cases[] = {
	KUNIT_CASE_PARAM(partitions_split_vram_evenly_and_contiguously,
			 amdx_vram_layout_gen_params),
	KUNIT_CASE(alloc_charges_partition_and_owner),
	KUNIT_CASE(alloc_fails_with_enospc_exactly_at_capacity),
	KUNIT_CASE(alloc_is_next_fit),
	KUNIT_CASE(bulk_alloc_takes_the_lowest_free_pages),
	KUNIT_CASE(bulk_alloc_stops_at_capacity_and_quota),
	KUNIT_CASE(contig_alloc_fails_on_fragmented_partition),
	KUNIT_CASE(contig_alloc_stays_inside_partition),
	KUNIT_CASE(alloc_over_quota_fails_with_edquot),
	KUNIT_CASE(repartition_is_refused_while_pages_are_allocated),
	KUNIT_CASE(invalid_arguments_are_rejected),
	KUNIT_CASE(bad_free_is_refused_and_changes_no_counter),
	KUNIT_CASE(pfn_maps_to_its_partition),
	KUNIT_CASE(retired_free_page_leaves_the_allocator),
	KUNIT_CASE(retired_allocated_page_leaves_when_freed),
	KUNIT_CASE(retired_pages_survive_repartitioning),
	KUNIT_CASE(owner_next_finds_exactly_the_owners_pages),
	KUNIT_CASE(holders_count_find_and_hand_over_their_pages),
	KUNIT_CASE(holder_ids_are_cyclic),
	KUNIT_CASE(holder_ids_per_user_cap),
	{}
};

static struct kunit_suite amdx_vram_test_suite = {
	.name = "amdx_vram",
	.test_cases = amdx_vram_test_cases,
};

kunit_test_suite(amdx_vram_test_suite);
