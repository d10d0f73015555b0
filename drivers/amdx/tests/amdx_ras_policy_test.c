// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: KUnit tests of the RAS containment policy
 *
 * Suite ``amdx_ras_policy``: defaults, every validation range with its
 * edges, every field valid does not name rejected unless zero, the
 * bad-page threshold's three meanings, CE windows with injected time
 * (threshold, sliding, expiry, per-page independence),
 * partition reset windows, and every step of the ladder.
 */
#include <kunit/test.h>

#include "amdx_ras_policy.h"

static void defaults_match_the_documentation(struct kunit *test)
{
	struct amdx_ras_policy p;

	memset(&p, 0xa5, sizeof(p));
	amdx_ras_policy_default(&p);
	KUNIT_EXPECT_EQ(test, p.valid, AMDX_RAS_POL_ALL);
	KUNIT_EXPECT_EQ(test, p.ce_page_threshold, 50);
	KUNIT_EXPECT_EQ(test, p.ce_window_s, 86400);
	KUNIT_EXPECT_EQ(test, p.bad_page_threshold, -1);
	KUNIT_EXPECT_EQ(test, p.part_reset_limit, 3);
	KUNIT_EXPECT_EQ(test, p.part_reset_window_s, 3600);
	KUNIT_EXPECT_EQ(test, p.flags, 0);
	KUNIT_EXPECT_EQ(test, p.pad, 0);
	KUNIT_EXPECT_EQ(test, p.reserved[0], 0);
	KUNIT_EXPECT_EQ(test, p.reserved[1], 0);
}

struct amdx_pol_case {
	const char *name;
	struct amdx_ras_policy req;
	int ret;
};

/* One field named in valid, set to a value. */
#define POL(_bit, _field, _val) \
	{ .valid = AMDX_RAS_POL_##_bit, ._field = (_val) }

static const struct amdx_pol_case amdx_pol_cases[] = {
	{ "ce_threshold_1", POL(CE_PAGE_THRESHOLD, ce_page_threshold, 1), 0 },
	{ "ce_threshold_65535", POL(CE_PAGE_THRESHOLD, ce_page_threshold, 65535), 0 },
	{ "ce_threshold_0", POL(CE_PAGE_THRESHOLD, ce_page_threshold, 0), -EINVAL },
	{ "ce_threshold_65536", POL(CE_PAGE_THRESHOLD, ce_page_threshold, 65536), -EINVAL },
	{ "ce_window_1", POL(CE_WINDOW, ce_window_s, 1), 0 },
	{ "ce_window_30d", POL(CE_WINDOW, ce_window_s, 2592000), 0 },
	{ "ce_window_0", POL(CE_WINDOW, ce_window_s, 0), -EINVAL },
	{ "ce_window_30d_plus_1", POL(CE_WINDOW, ce_window_s, 2592001), -EINVAL },
	{ "bad_page_warn", POL(BAD_PAGE_THRESHOLD, bad_page_threshold, -1), 0 },
	{ "bad_page_auto", POL(BAD_PAGE_THRESHOLD, bad_page_threshold, -2), 0 },
	{ "bad_page_1", POL(BAD_PAGE_THRESHOLD, bad_page_threshold, 1), 0 },
	{ "bad_page_max", POL(BAD_PAGE_THRESHOLD, bad_page_threshold, 10921), 0 },
	{ "bad_page_0", POL(BAD_PAGE_THRESHOLD, bad_page_threshold, 0), -EINVAL },
	{ "bad_page_minus_3", POL(BAD_PAGE_THRESHOLD, bad_page_threshold, -3), -EINVAL },
	{ "bad_page_above_max", POL(BAD_PAGE_THRESHOLD, bad_page_threshold, 10922), -EINVAL },
	{ "reset_limit_1", POL(PART_RESET_LIMIT, part_reset_limit, 1), 0 },
	{ "reset_limit_100", POL(PART_RESET_LIMIT, part_reset_limit, 100), 0 },
	{ "reset_limit_0", POL(PART_RESET_LIMIT, part_reset_limit, 0), -EINVAL },
	{ "reset_limit_101", POL(PART_RESET_LIMIT, part_reset_limit, 101), -EINVAL },
	{ "reset_window_1", POL(PART_RESET_WINDOW, part_reset_window_s, 1), 0 },
	{ "reset_window_86400", POL(PART_RESET_WINDOW, part_reset_window_s, 86400), 0 },
	{ "reset_window_0", POL(PART_RESET_WINDOW, part_reset_window_s, 0), -EINVAL },
	{ "reset_window_86401", POL(PART_RESET_WINDOW, part_reset_window_s, 86401), -EINVAL },
	{ "flag_refuse", POL(FLAGS, flags, AMDX_RAS_POL_F_RMA_REFUSE), 0 },
	{ "flag_unknown", POL(FLAGS, flags, 2), -EINVAL },
	{ "valid_none", { .valid = 0, .ce_page_threshold = 5 }, -EINVAL },
	{ "valid_unknown", { .valid = AMDX_RAS_POL_ALL + 1 }, -EINVAL },
	{ "pad", { .valid = AMDX_RAS_POL_FLAGS, .pad = 1 }, -EINVAL },
	{ "reserved", { .valid = AMDX_RAS_POL_FLAGS, .reserved = { 0, 1 } },
	  -EINVAL },
	/* a field not named in valid may be zero */
	{ "unnamed_zero", POL(FLAGS, ce_page_threshold, 0), 0 },
};

static void amdx_pol_case_desc(const struct amdx_pol_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(amdx_pol, amdx_pol_cases, amdx_pol_case_desc);

static void check_accepts_ranges_and_rejects_the_rest(struct kunit *test)
{
	const struct amdx_pol_case *c = test->param_value;
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, amdx_ras_policy_check(&c->req, &why), c->ret);
	if (c->ret)
		KUNIT_EXPECT_NOT_NULL(test, why);
}

/*
 * Every field valid does not name must be zero: each one set alone, with
 * a valid request otherwise, is -EINVAL with a reason naming that field.
 */
static void check_rejects_unnamed_fields(struct kunit *test)
{
	static const struct {
		const char *field;
		struct amdx_ras_policy req;
	} cases[] = {
		{ "ce_page_threshold", { .valid = AMDX_RAS_POL_FLAGS,
					 .ce_page_threshold = 5 } },
		{ "ce_window_s", { .valid = AMDX_RAS_POL_FLAGS,
				   .ce_window_s = 60 } },
		{ "bad_page_threshold", { .valid = AMDX_RAS_POL_FLAGS,
					  .bad_page_threshold = -1 } },
		{ "part_reset_limit", { .valid = AMDX_RAS_POL_FLAGS,
					.part_reset_limit = 3 } },
		{ "part_reset_window_s", { .valid = AMDX_RAS_POL_FLAGS,
					   .part_reset_window_s = 60 } },
		{ "flags", { .valid = AMDX_RAS_POL_CE_WINDOW,
			     .ce_window_s = 60,
			     .flags = AMDX_RAS_POL_F_RMA_REFUSE } },
	};
	struct amdx_ras_policy ok;
	const char *why;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		why = NULL;
		KUNIT_EXPECT_EQ_MSG(test,
				    amdx_ras_policy_check(&cases[i].req, &why),
				    -EINVAL, "%s", cases[i].field);
		KUNIT_EXPECT_NOT_NULL_MSG(test, why, "%s", cases[i].field);
		if (why)
			KUNIT_EXPECT_NOT_NULL_MSG(test,
						  strstr(why, cases[i].field),
						  "%s: why is \"%s\"",
						  cases[i].field, why);
		/* the same value named in valid is accepted */
		ok = cases[i].req;
		ok.valid = AMDX_RAS_POL_ALL;
		if (!ok.ce_page_threshold)
			ok.ce_page_threshold = 1;
		if (!ok.ce_window_s)
			ok.ce_window_s = 1;
		if (!ok.bad_page_threshold)
			ok.bad_page_threshold = 1;
		if (!ok.part_reset_limit)
			ok.part_reset_limit = 1;
		if (!ok.part_reset_window_s)
			ok.part_reset_window_s = 1;
		KUNIT_EXPECT_EQ_MSG(test, amdx_ras_policy_check(&ok, &why), 0,
				    "%s named", cases[i].field);
	}
}

static void apply_changes_only_named_fields(struct kunit *test)
{
	struct amdx_ras_policy cur, req = {
		.valid = AMDX_RAS_POL_CE_WINDOW | AMDX_RAS_POL_FLAGS,
		.ce_page_threshold = 7,
		.ce_window_s = 60,
		.bad_page_threshold = 5,
		.flags = AMDX_RAS_POL_F_RMA_REFUSE,
	};

	amdx_ras_policy_default(&cur);
	amdx_ras_policy_apply(&cur, &req);
	KUNIT_EXPECT_EQ(test, cur.ce_window_s, 60);
	KUNIT_EXPECT_EQ(test, cur.flags, AMDX_RAS_POL_F_RMA_REFUSE);
	KUNIT_EXPECT_EQ(test, cur.ce_page_threshold, 50);
	KUNIT_EXPECT_EQ(test, cur.bad_page_threshold, -1);
	KUNIT_EXPECT_EQ(test, cur.part_reset_limit, 3);
	KUNIT_EXPECT_EQ(test, cur.valid, AMDX_RAS_POL_ALL);
}

static void bad_page_limit_has_amdgpu_semantics(struct kunit *test)
{
	struct amdx_ras_policy p;

	amdx_ras_policy_default(&p);
	KUNIT_EXPECT_EQ(test, amdx_ras_bad_page_limit(&p, 192ULL << 30), 128);
	KUNIT_EXPECT_FALSE(test, amdx_ras_rma_refuses(&p));
	p.flags = AMDX_RAS_POL_F_RMA_REFUSE;
	/* -1 warns only, even with the refuse flag */
	KUNIT_EXPECT_FALSE(test, amdx_ras_rma_refuses(&p));

	p.bad_page_threshold = AMDX_RAS_BAD_PAGE_AUTO;
	KUNIT_EXPECT_EQ(test, amdx_ras_bad_page_limit(&p, 192ULL << 30), 1966);
	KUNIT_EXPECT_EQ(test, amdx_ras_bad_page_limit(&p, 512ULL << 20), 5);
	KUNIT_EXPECT_EQ(test, amdx_ras_bad_page_limit(&p, 64ULL << 20), 1);
	KUNIT_EXPECT_TRUE(test, amdx_ras_rma_refuses(&p));

	p.bad_page_threshold = 3;
	KUNIT_EXPECT_EQ(test, amdx_ras_bad_page_limit(&p, 512ULL << 20), 3);
	KUNIT_EXPECT_TRUE(test, amdx_ras_rma_refuses(&p));
	p.flags = 0;
	KUNIT_EXPECT_FALSE(test, amdx_ras_rma_refuses(&p));
}

static void ce_window_counts_to_threshold(struct kunit *test)
{
	struct amdx_ras_ce_window w = {};
	u32 i;

	for (i = 1; i <= 50; i++)
		KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, 86400, 1000 + i, 1), i);
	/* a burst counts as many errors */
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, 86400, 2000, 1024), 1074);
	/* reading adds nothing */
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, 86400, 2000, 0), 1074);
}

static void ce_window_slides_in_eighths(struct kunit *test)
{
	struct amdx_ras_ce_window w = {};
	const u32 win = 800;	/* slots of 100 s */

	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, win, 0, 10), 10);
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, win, 450, 5), 15);
	/* slot 0 [0, 100) is in the window until slot 8 starts at 800 */
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, win, 799, 0), 15);
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, win, 800, 0), 5);
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, win, 1199, 1), 6);
	/* slot 4 [400, 500) leaves when slot 12 starts at 1200 */
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, win, 1200, 0), 1);
	/* a day later everything is gone */
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, win, 100000, 0), 0);
}

static void ce_window_reuses_slots_after_wrap(struct kunit *test)
{
	struct amdx_ras_ce_window w = {};

	/* slot length 1 s: slot 3 is reused for t = 3 and t = 11 */
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, 8, 3, 4), 4);
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, 8, 11, 2), 2);
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, 8, 12, 1), 3);
}

static void ce_window_tiny_window(struct kunit *test)
{
	struct amdx_ras_ce_window w = {};

	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, 1, 5, 3), 3);
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, 1, 5, 0), 3);
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, 1, 6, 0), 0);
	/* 3 s: three one-second slots */
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, 3, 10, 1), 1);
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, 3, 12, 1), 2);
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, 3, 13, 0), 1);
}

static void ce_window_saturates(struct kunit *test)
{
	struct amdx_ras_ce_window w = {};
	u32 i;

	for (i = 0; i < 8; i++)
		amdx_ras_ce_add(&w, 8, i, U32_MAX);
	KUNIT_EXPECT_EQ(test, amdx_ras_ce_add(&w, 8, 7, 0), U32_MAX);
}

static void reset_window_counts_recent_resets(struct kunit *test)
{
	struct amdx_ras_reset_window *w;
	u32 i;

	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, amdx_ras_resets_in_window(w, 3600, 0), 0);
	amdx_ras_reset_record(w, 100);
	amdx_ras_reset_record(w, 200);
	amdx_ras_reset_record(w, 3000);
	KUNIT_EXPECT_EQ(test, amdx_ras_resets_in_window(w, 3600, 3000), 3);
	KUNIT_EXPECT_EQ(test, amdx_ras_resets_in_window(w, 3600, 3699), 3);
	KUNIT_EXPECT_EQ(test, amdx_ras_resets_in_window(w, 3600, 3700), 2);
	KUNIT_EXPECT_EQ(test, amdx_ras_resets_in_window(w, 3600, 3800), 1);
	KUNIT_EXPECT_EQ(test, amdx_ras_resets_in_window(w, 3600, 6600), 0);

	/* the ring keeps the newest AMDX_RAS_PART_RESET_LIMIT_MAX */
	for (i = 0; i < 2 * AMDX_RAS_PART_RESET_LIMIT_MAX; i++)
		amdx_ras_reset_record(w, 10000 + i);
	KUNIT_EXPECT_EQ(test, amdx_ras_resets_in_window(w, 86400, 10199),
			AMDX_RAS_PART_RESET_LIMIT_MAX);
	KUNIT_EXPECT_EQ(test, amdx_ras_resets_in_window(w, 50, 10199), 50);
	KUNIT_EXPECT_EQ(test, w->total, 3 + 2 * AMDX_RAS_PART_RESET_LIMIT_MAX);
}

static void fatal_blocks(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, amdx_ras_fatal(AMDX_RAS_BLOCK_XGMI_WAFL,
					       AMDX_RAS_TYPE_UE));
	KUNIT_EXPECT_TRUE(test, amdx_ras_fatal(AMDX_RAS_BLOCK_PCIE_BIF,
					       AMDX_RAS_TYPE_UE));
	KUNIT_EXPECT_TRUE(test, amdx_ras_fatal(AMDX_RAS_BLOCK_HDP,
					       AMDX_RAS_TYPE_UE));
	KUNIT_EXPECT_TRUE(test, amdx_ras_fatal(AMDX_RAS_BLOCK_MMHUB,
					       AMDX_RAS_TYPE_UE));
	KUNIT_EXPECT_FALSE(test, amdx_ras_fatal(AMDX_RAS_BLOCK_XGMI_WAFL,
						AMDX_RAS_TYPE_CE));
	KUNIT_EXPECT_FALSE(test, amdx_ras_fatal(AMDX_RAS_BLOCK_XGMI_WAFL,
						AMDX_RAS_TYPE_DE));
	KUNIT_EXPECT_FALSE(test, amdx_ras_fatal(AMDX_RAS_BLOCK_GFX,
						AMDX_RAS_TYPE_UE));
	KUNIT_EXPECT_FALSE(test, amdx_ras_fatal(AMDX_RAS_BLOCK_SDMA,
						AMDX_RAS_TYPE_UE));
	KUNIT_EXPECT_FALSE(test, amdx_ras_fatal(AMDX_RAS_BLOCK_UMC,
						AMDX_RAS_TYPE_UE));
}

struct amdx_ladder_case {
	const char *name;
	struct amdx_ras_situation s;
	u32 want;
};

/* An error of block _b and type _t, more fields after. */
#define ERR(_b, _t, ...) \
	{ .block = AMDX_RAS_BLOCK_##_b, .type = AMDX_RAS_TYPE_##_t, __VA_ARGS__ }

static const struct amdx_ladder_case amdx_ladder_cases[] = {
	{ "ce_page_below_threshold",
	  ERR(UMC, CE, .on_page = true, .page_ces = 49),
	  AMDX_RAS_DO_COUNT },
	{ "ce_page_at_threshold",
	  ERR(UMC, CE, .on_page = true, .page_ces = 50),
	  AMDX_RAS_DO_SOFT_RETIRE },
	{ "ce_page_above_threshold",
	  ERR(UMC, CE, .on_page = true, .page_ces = 1000),
	  AMDX_RAS_DO_SOFT_RETIRE },
	{ "ce_retired_page",
	  ERR(UMC, CE, .on_page = true, .page_retired = true, .page_ces = 1000),
	  AMDX_RAS_DO_COUNT },
	{ "ue_page",
	  ERR(UMC, UE, .on_page = true, .page_ces = 1),
	  AMDX_RAS_DO_POISON_RETIRE },
	{ "de_page",
	  ERR(UMC, DE, .on_page = true),
	  AMDX_RAS_DO_POISON_RETIRE },
	{ "ue_retired_page",
	  ERR(UMC, UE, .on_page = true, .page_retired = true),
	  AMDX_RAS_DO_COUNT },
	{ "gfx_ue_first_reset",
	  ERR(GFX, UE, .partition = true, .part_resets = 0),
	  AMDX_RAS_DO_PARTITION_RESET },
	{ "sdma_ue_second_reset",
	  ERR(SDMA, UE, .partition = true, .part_resets = 1),
	  AMDX_RAS_DO_PARTITION_RESET },
	{ "gfx_ue_limit_reached",
	  ERR(GFX, UE, .partition = true, .part_resets = 2),
	  AMDX_RAS_DO_PARTITION_OFFLINE },
	{ "gfx_ue_beyond_limit",
	  ERR(GFX, UE, .partition = true, .part_resets = 7),
	  AMDX_RAS_DO_PARTITION_OFFLINE },
	{ "gfx_ue_no_partition",
	  ERR(GFX, UE),
	  AMDX_RAS_DO_DEVICE_RESET },
	{ "gfx_ce",
	  ERR(GFX, CE, .partition = true),
	  AMDX_RAS_DO_COUNT },
	{ "gfx_de",
	  ERR(GFX, DE, .partition = true),
	  AMDX_RAS_DO_COUNT },
	{ "xgmi_ue_fatal",
	  ERR(XGMI_WAFL, UE),
	  AMDX_RAS_DO_DEVICE_RESET },
	{ "xgmi_ce",
	  ERR(XGMI_WAFL, CE),
	  AMDX_RAS_DO_COUNT },
	{ "pcie_bif_ue_fatal",
	  ERR(PCIE_BIF, UE),
	  AMDX_RAS_DO_DEVICE_RESET },
	{ "mmhub_de",
	  ERR(MMHUB, DE),
	  AMDX_RAS_DO_COUNT },
};

static void amdx_ladder_case_desc(const struct amdx_ladder_case *c,
				  char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(amdx_ladder, amdx_ladder_cases, amdx_ladder_case_desc);

static void ladder_decides_every_error(struct kunit *test)
{
	const struct amdx_ladder_case *c = test->param_value;
	struct amdx_ras_policy p;

	amdx_ras_policy_default(&p);
	KUNIT_EXPECT_EQ(test, amdx_ras_decide(&p, &c->s), c->want);
}

static void ladder_follows_policy_changes(struct kunit *test)
{
	struct amdx_ras_situation ce = {
		.block = AMDX_RAS_BLOCK_UMC, .type = AMDX_RAS_TYPE_CE,
		.on_page = true, .page_ces = 3,
	};
	struct amdx_ras_situation ue = {
		.block = AMDX_RAS_BLOCK_GFX, .type = AMDX_RAS_TYPE_UE,
		.partition = true,
	};
	struct amdx_ras_policy p;

	amdx_ras_policy_default(&p);
	KUNIT_EXPECT_EQ(test, amdx_ras_decide(&p, &ce), AMDX_RAS_DO_COUNT);
	p.ce_page_threshold = 3;
	KUNIT_EXPECT_EQ(test, amdx_ras_decide(&p, &ce),
			AMDX_RAS_DO_SOFT_RETIRE);

	KUNIT_EXPECT_EQ(test, amdx_ras_decide(&p, &ue),
			AMDX_RAS_DO_PARTITION_RESET);
	p.part_reset_limit = 1;
	KUNIT_EXPECT_EQ(test, amdx_ras_decide(&p, &ue),
			AMDX_RAS_DO_PARTITION_OFFLINE);
}

/* The windows and the decision together, as the engine uses them. */
static void ce_storm_retires_at_threshold_within_window(struct kunit *test)
{
	struct amdx_ras_ce_window w = {};
	struct amdx_ras_situation s = {
		.block = AMDX_RAS_BLOCK_UMC, .type = AMDX_RAS_TYPE_CE,
		.on_page = true,
	};
	struct amdx_ras_policy p;
	u64 t = 5000;
	u32 i;

	amdx_ras_policy_default(&p);
	/* 49 CEs twelve hours apart never add up to 50 in 24 h */
	for (i = 0; i < 49; i++) {
		s.page_ces = amdx_ras_ce_add(&w, p.ce_window_s, t, 1);
		KUNIT_EXPECT_LE(test, s.page_ces, 3);
		KUNIT_EXPECT_EQ(test, amdx_ras_decide(&p, &s),
				AMDX_RAS_DO_COUNT);
		t += 12 * 3600;
	}
	/* two days of quiet, then 50 within a minute do */
	t += 2 * 86400;
	for (i = 0; i < 49; i++) {
		s.page_ces = amdx_ras_ce_add(&w, p.ce_window_s, t + i, 1);
		KUNIT_EXPECT_EQ(test, s.page_ces, i + 1);
		KUNIT_EXPECT_EQ(test, amdx_ras_decide(&p, &s),
				AMDX_RAS_DO_COUNT);
	}
	s.page_ces = amdx_ras_ce_add(&w, p.ce_window_s, t + 49, 1);
	KUNIT_EXPECT_EQ(test, s.page_ces, 50);
	KUNIT_EXPECT_EQ(test, amdx_ras_decide(&p, &s),
			AMDX_RAS_DO_SOFT_RETIRE);
}

static void partition_resets_lead_offline_within_window(struct kunit *test)
{
	struct amdx_ras_situation s = {
		.block = AMDX_RAS_BLOCK_GFX, .type = AMDX_RAS_TYPE_UE,
		.partition = true,
	};
	struct amdx_ras_reset_window *w;
	struct amdx_ras_policy p;

	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	amdx_ras_policy_default(&p);

	s.part_resets = amdx_ras_resets_in_window(w, p.part_reset_window_s, 0);
	KUNIT_EXPECT_EQ(test, amdx_ras_decide(&p, &s),
			AMDX_RAS_DO_PARTITION_RESET);
	amdx_ras_reset_record(w, 0);
	s.part_resets = amdx_ras_resets_in_window(w, p.part_reset_window_s,
						  1800);
	KUNIT_EXPECT_EQ(test, amdx_ras_decide(&p, &s),
			AMDX_RAS_DO_PARTITION_RESET);
	amdx_ras_reset_record(w, 1800);
	/* the third reset within the hour leaves the partition offline */
	s.part_resets = amdx_ras_resets_in_window(w, p.part_reset_window_s,
						  3599);
	KUNIT_EXPECT_EQ(test, amdx_ras_decide(&p, &s),
			AMDX_RAS_DO_PARTITION_OFFLINE);
	/* one second later the first reset left the window */
	s.part_resets = amdx_ras_resets_in_window(w, p.part_reset_window_s,
						  3600);
	KUNIT_EXPECT_EQ(test, amdx_ras_decide(&p, &s),
			AMDX_RAS_DO_PARTITION_RESET);
}

static struct kunit_case amdx_ras_policy_cases[] = {
	KUNIT_CASE(defaults_match_the_documentation),
	KUNIT_CASE_PARAM(check_accepts_ranges_and_rejects_the_rest,
			 amdx_pol_gen_params),
	KUNIT_CASE(check_rejects_unnamed_fields),
	KUNIT_CASE(apply_changes_only_named_fields),
	KUNIT_CASE(bad_page_limit_has_amdgpu_semantics),
	KUNIT_CASE(ce_window_counts_to_threshold),
	KUNIT_CASE(ce_window_slides_in_eighths),
	KUNIT_CASE(ce_window_reuses_slots_after_wrap),
	KUNIT_CASE(ce_window_tiny_window),
	KUNIT_CASE(ce_window_saturates),
	KUNIT_CASE(reset_window_counts_recent_resets),
	KUNIT_CASE(fatal_blocks),
	KUNIT_CASE_PARAM(ladder_decides_every_error, amdx_ladder_gen_params),
	KUNIT_CASE(ladder_follows_policy_changes),
	KUNIT_CASE(ce_storm_retires_at_threshold_within_window),
	KUNIT_CASE(partition_resets_lead_offline_within_window),
	{}
};

static struct kunit_suite amdx_ras_policy_suite = {
	.name = "amdx_ras_policy",
	.test_cases = amdx_ras_policy_cases,
};

kunit_test_suite(amdx_ras_policy_suite);
