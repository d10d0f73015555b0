// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: KUnit tests of the partition model and SR-IOV provisioning math
 *
 * Suite ``amdx_partition``: amdx_partition_check() over every model
 * (plus an unknown and an out-of-range one) x every compute mode x every
 * memory mode (each with an unknown and an out-of-range value) x VF counts
 * 0, 1, 2, 3, 4 and 8, one parameterised case each, against a verdict and
 * reason computed from this file's own tables of the ANCHORS facts (mode
 * names as strings, not the driver's bitmasks); the oracle itself checked
 * against a literal list of the 25 valid combinations; the model-free
 * layout rules (including the XCC divisibility no real model reaches);
 * the reason strings; and the topology of every valid configuration (XCC
 * masks disjoint, equal and covering, memory partitions shared evenly)
 * plus exact layouts such as MI300X CPX NPS4 (8 partitions, 2 per memory
 * partition).
 *
 * Suite ``amdx_sriov``: fair VRAM split exact values, 16 MiB rounding,
 * the 256 MiB minimum and -ENOSPC, defaults of a fair configuration, and
 * custom configurations refused with the right errno (-EINVAL per VF
 * before -ENOSPC for the sum, no wrap-around on huge quotas).
 */
#include <kunit/test.h>
#include <linux/align.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include "amdx_partition_model.h"
#include "amdx_vf_provision.h"

/* ---- the oracle: ANCHORS.md written out independently ---- */

/* Indices 0 and the last of each axis are unknown / out of range. */
static const char * const model_names[] = {
	"UNKNOWN", "MI300X", "MI300A", "MI308X", "MODEL4",
};

static const char * const compute_names[] = {
	"UNK", "SPX", "DPX", "TPX", "QPX", "CPX", "XPX6",
};

static const char * const memory_names[] = {
	"UNK", "NPS1", "NPS2", "NPS4", "NPS8", "NPS5",
};

static const u32 vf_counts[] = { 0, 1, 2, 3, 4, 8 };

struct model_spec {
	u32 xcc;
	const char *compute;	/* supported compute modes, by name */
	const char *memory;	/* supported memory modes, by name */
	bool sriov;
};

static const struct model_spec model_specs[] = {
	[1] = { 8, "SPX DPX QPX CPX", "NPS1 NPS2 NPS4", true },
	[2] = { 6, "SPX TPX CPX", "NPS1", false },
	[3] = { 4, "SPX DPX CPX", "NPS1 NPS4", false },
};

/* Memory modes compatible with each compute mode. */
static const char * const compat_memory[] = {
	[1] = "NPS1",
	[2] = "NPS1 NPS2",
	[3] = "NPS1 NPS4",
	[4] = "NPS1 NPS4",
	[5] = "NPS1 NPS4",
};

/* Compute partitions per compute mode; 0 means one per XCC. */
static const u32 compute_parts[] = { [1] = 1, [2] = 2, [3] = 3, [4] = 4,
				     [5] = 0 };

/* Memory partitions per memory mode. */
static const u32 memory_parts[] = { [1] = 1, [2] = 2, [3] = 4, [4] = 8 };

/* MI300X (GIM): VF counts per compute mode, "SPX 1, DPX 2, QPX 4, CPX 1/2/4/8". */
static const char * const vf_by_compute[] = {
	[1] = " 1 ", [2] = " 2 ", [4] = " 4 ", [5] = " 1 2 4 8 ",
};

/* MI300X (GIM): memory modes per VF count. */
static const char * const memory_by_vf[] = {
	[1] = "NPS1 NPS4", [2] = "NPS1", [4] = "NPS1 NPS4", [8] = "NPS1 NPS4",
};

static bool listed(const char *list, const char *name)
{
	return list && strstr(list, name);
}

static bool vf_listed(const char *list, u32 vfs)
{
	char tok[8];

	snprintf(tok, sizeof(tok), " %u ", vfs);
	return listed(list, tok);
}

static u32 oracle_reason(u32 m, u32 c, u32 n, u32 vfs)
{
	const struct model_spec *s;
	const char *cn = compute_names[c], *mn = memory_names[n];
	u32 parts;

	if (m >= ARRAY_SIZE(model_specs) || !model_specs[m].xcc)
		return AMDX_PART_REASON_BAD_MODEL;
	s = &model_specs[m];
	if (!listed(s->compute, cn))
		return AMDX_PART_REASON_COMPUTE_UNSUPPORTED;
	if (!listed(s->memory, mn))
		return AMDX_PART_REASON_MEMORY_UNSUPPORTED;
	if (!listed(compat_memory[c], mn))
		return AMDX_PART_REASON_INCOMPATIBLE;
	parts = compute_parts[c] ? compute_parts[c] : s->xcc;
	if (s->xcc % parts ||
	    (!strcmp(cn, "CPX") && s->xcc % memory_parts[n]))
		return AMDX_PART_REASON_XCC_NOT_DIVISIBLE;
	if (!vfs)
		return AMDX_PART_REASON_NONE;
	if (!s->sriov)
		return AMDX_PART_REASON_VF_UNSUPPORTED;
	if (c >= ARRAY_SIZE(vf_by_compute) || !vf_listed(vf_by_compute[c], vfs))
		return AMDX_PART_REASON_VF_COMPUTE;
	if (vfs >= ARRAY_SIZE(memory_by_vf) || !listed(memory_by_vf[vfs], mn))
		return AMDX_PART_REASON_VF_MEMORY;
	return AMDX_PART_REASON_NONE;
}

/* ---- the full matrix, one parameterised case per combination ---- */

struct matrix_case {
	u32 model;
	u32 compute;
	u32 memory;
	u32 vfs;
	u32 reason;
};

#define N_MATRIX (ARRAY_SIZE(model_names) * ARRAY_SIZE(compute_names) * \
		  ARRAY_SIZE(memory_names) * ARRAY_SIZE(vf_counts))

static struct matrix_case matrix_cases[N_MATRIX];

static int amdx_partition_suite_init(struct kunit_suite *suite)
{
	struct matrix_case *mc = matrix_cases;
	u32 m, c, n, v;

	for (m = 0; m < ARRAY_SIZE(model_names); m++)
		for (c = 0; c < ARRAY_SIZE(compute_names); c++)
			for (n = 0; n < ARRAY_SIZE(memory_names); n++)
				for (v = 0; v < ARRAY_SIZE(vf_counts); v++) {
					mc->model = m;
					mc->compute = c;
					mc->memory = n;
					mc->vfs = vf_counts[v];
					mc->reason = oracle_reason(m, c, n,
								   vf_counts[v]);
					mc++;
				}
	return 0;
}

static void matrix_case_desc(struct matrix_case *mc, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s %s %u VFs: %s",
		 model_names[mc->model], compute_names[mc->compute],
		 memory_names[mc->memory], mc->vfs,
		 mc->reason ? "invalid" : "valid");
}

KUNIT_ARRAY_PARAM(matrix, matrix_cases, matrix_case_desc);

static void check_gives_verdict_and_reason_of_table(struct kunit *test)
{
	const struct matrix_case *mc = test->param_value;
	u32 reason = AMDX_PART_REASON_COUNT;
	int ret;

	ret = amdx_partition_check(mc->model, mc->compute, mc->memory,
				   mc->vfs, &reason);
	KUNIT_EXPECT_EQ(test, ret, mc->reason ? -EINVAL : 0);
	KUNIT_EXPECT_EQ_MSG(test, reason, mc->reason, "got \"%s\", want \"%s\"",
			    amdx_partition_reason_name(reason),
			    amdx_partition_reason_name(mc->reason));
	/* the reason is optional */
	KUNIT_EXPECT_EQ(test, amdx_partition_check(mc->model, mc->compute,
						   mc->memory, mc->vfs, NULL),
			ret);
}

/* The 25 valid combinations, written out by hand: model compute memory vfs. */
static const u32 valid_combos[][4] = {
	{ 1, 1, 1, 0 }, { 1, 2, 1, 0 }, { 1, 2, 2, 0 }, { 1, 4, 1, 0 },
	{ 1, 4, 3, 0 }, { 1, 5, 1, 0 }, { 1, 5, 3, 0 },
	{ 1, 1, 1, 1 }, { 1, 2, 1, 2 }, { 1, 4, 1, 4 }, { 1, 4, 3, 4 },
	{ 1, 5, 1, 1 }, { 1, 5, 1, 2 }, { 1, 5, 1, 4 }, { 1, 5, 1, 8 },
	{ 1, 5, 3, 1 }, { 1, 5, 3, 4 }, { 1, 5, 3, 8 },
	{ 2, 1, 1, 0 }, { 2, 3, 1, 0 }, { 2, 5, 1, 0 },
	{ 3, 1, 1, 0 }, { 3, 2, 1, 0 }, { 3, 5, 1, 0 }, { 3, 5, 3, 0 },
};

static bool combo_listed(const struct matrix_case *mc)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(valid_combos); i++)
		if (valid_combos[i][0] == mc->model &&
		    valid_combos[i][1] == mc->compute &&
		    valid_combos[i][2] == mc->memory &&
		    valid_combos[i][3] == mc->vfs)
			return true;
	return false;
}

static void table_valid_set_is_the_hand_written_list(struct kunit *test)
{
	u32 i, valid = 0, hits[AMDX_PART_REASON_COUNT] = {};

	for (i = 0; i < ARRAY_SIZE(matrix_cases); i++) {
		const struct matrix_case *mc = &matrix_cases[i];

		KUNIT_ASSERT_LT(test, mc->reason, AMDX_PART_REASON_COUNT);
		hits[mc->reason]++;
		valid += !mc->reason;
		KUNIT_EXPECT_EQ_MSG(test, !mc->reason, combo_listed(mc),
				    "%s %s %s %u VFs", model_names[mc->model],
				    compute_names[mc->compute],
				    memory_names[mc->memory], mc->vfs);
	}
	KUNIT_EXPECT_EQ(test, valid, ARRAY_SIZE(valid_combos));
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(matrix_cases), 1260);
	/* every reason a real model can give is exercised by the matrix */
	for (i = 0; i < AMDX_PART_REASON_COUNT; i++)
		if (i != AMDX_PART_REASON_XCC_NOT_DIVISIBLE)
			KUNIT_EXPECT_GT_MSG(test, hits[i], 0, "reason %u", i);
}

/* ---- model-free layout rules ---- */

struct layout_case {
	const char *name;
	u32 xcc;
	u32 compute;
	u32 memory;
	u32 reason;
};

static const struct layout_case layout_cases[] = {
	{ "6 XCC CPX NPS4 not divisible", 6, AMDX_COMPUTE_CPX,
	  AMDX_MEMORY_NPS4, AMDX_PART_REASON_XCC_NOT_DIVISIBLE },
	{ "6 XCC QPX not divisible", 6, AMDX_COMPUTE_QPX, AMDX_MEMORY_NPS1,
	  AMDX_PART_REASON_XCC_NOT_DIVISIBLE },
	{ "8 XCC TPX not divisible", 8, AMDX_COMPUTE_TPX, AMDX_MEMORY_NPS1,
	  AMDX_PART_REASON_XCC_NOT_DIVISIBLE },
	{ "2 XCC CPX NPS4 not divisible", 2, AMDX_COMPUTE_CPX,
	  AMDX_MEMORY_NPS4, AMDX_PART_REASON_XCC_NOT_DIVISIBLE },
	{ "4 XCC CPX NPS4", 4, AMDX_COMPUTE_CPX, AMDX_MEMORY_NPS4,
	  AMDX_PART_REASON_NONE },
	{ "6 XCC TPX NPS1", 6, AMDX_COMPUTE_TPX, AMDX_MEMORY_NPS1,
	  AMDX_PART_REASON_NONE },
	{ "8 XCC CPX NPS8 incompatible", 8, AMDX_COMPUTE_CPX,
	  AMDX_MEMORY_NPS8, AMDX_PART_REASON_INCOMPATIBLE },
	{ "8 XCC SPX NPS2 incompatible", 8, AMDX_COMPUTE_SPX,
	  AMDX_MEMORY_NPS2, AMDX_PART_REASON_INCOMPATIBLE },
	{ "0 XCC", 0, AMDX_COMPUTE_SPX, AMDX_MEMORY_NPS1,
	  AMDX_PART_REASON_COMPUTE_UNSUPPORTED },
	{ "9 XCC beyond the maximum", 9, AMDX_COMPUTE_SPX, AMDX_MEMORY_NPS1,
	  AMDX_PART_REASON_COMPUTE_UNSUPPORTED },
	{ "unknown compute mode", 8, AMDX_COMPUTE_UNKNOWN, AMDX_MEMORY_NPS1,
	  AMDX_PART_REASON_COMPUTE_UNSUPPORTED },
	{ "unknown memory mode", 8, AMDX_COMPUTE_SPX, AMDX_MEMORY_UNKNOWN,
	  AMDX_PART_REASON_MEMORY_UNSUPPORTED },
};

static void layout_case_desc(const struct layout_case *lc, char *desc)
{
	strscpy(desc, lc->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(layout, layout_cases, layout_case_desc);

static void layout_rules_hold_without_a_model(struct kunit *test)
{
	const struct layout_case *lc = test->param_value;
	u32 reason = AMDX_PART_REASON_COUNT;

	KUNIT_EXPECT_EQ(test, amdx_partition_check_layout(lc->xcc, lc->compute,
							  lc->memory, &reason),
			lc->reason ? -EINVAL : 0);
	KUNIT_EXPECT_EQ(test, reason, lc->reason);
}

static void reason_strings_are_distinct_and_bounded(struct kunit *test)
{
	u32 i, j;

	for (i = 0; i <= AMDX_PART_REASON_LAST; i++) {
		const char *s = amdx_partition_reason_name(i);

		KUNIT_ASSERT_NOT_NULL(test, s);
		KUNIT_EXPECT_STRNEQ(test, s, "unknown reason");
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, s,
					    amdx_partition_reason_name(j));
	}
	KUNIT_EXPECT_STREQ(test,
			   amdx_partition_reason_name(AMDX_PART_REASON_LAST + 1),
			   "unknown reason");
	KUNIT_EXPECT_STREQ(test, amdx_partition_reason_name(U32_MAX),
			   "unknown reason");
}

static void model_queries_match_table(struct kunit *test)
{
	u32 m, c, n;

	for (m = 0; m < ARRAY_SIZE(model_names); m++) {
		const struct model_spec *s = m < ARRAY_SIZE(model_specs) ?
					     &model_specs[m] : NULL;
		u32 cmask = 0, nmask = 0;

		for (c = 0; s && c < ARRAY_SIZE(compute_names); c++)
			if (listed(s->compute, compute_names[c]))
				cmask |= BIT(c);
		for (n = 0; s && n < ARRAY_SIZE(memory_names); n++)
			if (listed(s->memory, memory_names[n]))
				nmask |= BIT(n);
		KUNIT_EXPECT_EQ_MSG(test, amdx_partition_num_xcc(m),
				    s ? s->xcc : 0, "%s", model_names[m]);
		KUNIT_EXPECT_EQ_MSG(test, amdx_partition_compute_modes(m), cmask,
				    "%s", model_names[m]);
		KUNIT_EXPECT_EQ_MSG(test, amdx_partition_memory_modes(m), nmask,
				    "%s", model_names[m]);
	}
	KUNIT_EXPECT_EQ(test, amdx_partition_num_memory(AMDX_MEMORY_NPS1), 1);
	KUNIT_EXPECT_EQ(test, amdx_partition_num_memory(AMDX_MEMORY_NPS2), 2);
	KUNIT_EXPECT_EQ(test, amdx_partition_num_memory(AMDX_MEMORY_NPS4), 4);
	KUNIT_EXPECT_EQ(test, amdx_partition_num_memory(AMDX_MEMORY_NPS8), 8);
	KUNIT_EXPECT_EQ(test, amdx_partition_num_memory(AMDX_MEMORY_UNKNOWN), 0);
	KUNIT_EXPECT_EQ(test, amdx_partition_num_compute(8, AMDX_COMPUTE_CPX),
			8);
	KUNIT_EXPECT_EQ(test, amdx_partition_num_compute(6, AMDX_COMPUTE_TPX),
			3);
	KUNIT_EXPECT_EQ(test, amdx_partition_num_compute(8, 6), 0);
}

/* ---- topology ---- */

static void topology_partitions_xccs_and_memory_evenly(struct kunit *test)
{
	struct amdx_partition_topology t;
	u32 k, i, checked = 0;

	for (k = 0; k < ARRAY_SIZE(matrix_cases); k++) {
		const struct matrix_case *mc = &matrix_cases[k];
		u32 per_mem[AMDX_PART_MAX_XCC] = {};
		u32 m = mc->model, c = mc->compute, all = 0;

		if (mc->vfs)
			continue;
		KUNIT_ASSERT_EQ(test,
				amdx_partition_compute_topology(m, c, mc->memory,
								&t),
				mc->reason ? -EINVAL : 0);
		if (mc->reason) {
			KUNIT_EXPECT_EQ(test, t.num_compute, 0);
			KUNIT_EXPECT_EQ(test, t.xcc_mask[0], 0);
			continue;
		}
		checked++;
		KUNIT_EXPECT_EQ(test, t.num_xcc, model_specs[m].xcc);
		KUNIT_EXPECT_EQ(test, t.num_compute,
				compute_parts[c] ?: model_specs[m].xcc);
		KUNIT_EXPECT_EQ(test, t.num_memory, memory_parts[mc->memory]);
		KUNIT_EXPECT_EQ(test, t.xccs_per_partition * t.num_compute,
				t.num_xcc);
		for (i = 0; i < t.num_compute; i++) {
			KUNIT_EXPECT_EQ(test, hweight32(t.xcc_mask[i]),
					t.xccs_per_partition);
			KUNIT_EXPECT_EQ_MSG(test, all & t.xcc_mask[i], 0,
					    "partition %u overlaps", i);
			all |= t.xcc_mask[i];
			KUNIT_ASSERT_LT(test, t.mem_partition[i], t.num_memory);
			per_mem[t.mem_partition[i]]++;
			if (i)
				KUNIT_EXPECT_GE(test, t.mem_partition[i],
						t.mem_partition[i - 1]);
		}
		KUNIT_EXPECT_EQ(test, all, (u32)GENMASK(t.num_xcc - 1, 0));
		for (i = 0; i < t.num_memory; i++)
			KUNIT_EXPECT_EQ_MSG(test, per_mem[i],
					    t.num_compute / t.num_memory,
					    "memory partition %u", i);
		for (i = t.num_compute; i < AMDX_PART_MAX_XCC; i++) {
			KUNIT_EXPECT_EQ(test, t.xcc_mask[i], 0);
			KUNIT_EXPECT_EQ(test, t.mem_partition[i], 0);
		}
	}
	/* bare-metal valid combinations: 7 on MI300X, 3 MI300A, 4 MI308X */
	KUNIT_EXPECT_EQ(test, checked, 14);
}

struct topo_case {
	const char *name;
	u32 model;
	u32 compute;
	u32 memory;
	u32 num_compute;
	u32 num_memory;
	u32 mask[AMDX_PART_MAX_XCC];
	u32 mem[AMDX_PART_MAX_XCC];
};

static const struct topo_case topo_cases[] = {
	{ "MI300X CPX NPS4", AMDX_MODEL_MI300X, AMDX_COMPUTE_CPX,
	  AMDX_MEMORY_NPS4, 8, 4,
	  { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80 },
	  { 0, 0, 1, 1, 2, 2, 3, 3 } },
	{ "MI300X CPX NPS1", AMDX_MODEL_MI300X, AMDX_COMPUTE_CPX,
	  AMDX_MEMORY_NPS1, 8, 1,
	  { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80 },
	  { 0, 0, 0, 0, 0, 0, 0, 0 } },
	{ "MI300X QPX NPS4", AMDX_MODEL_MI300X, AMDX_COMPUTE_QPX,
	  AMDX_MEMORY_NPS4, 4, 4, { 0x03, 0x0c, 0x30, 0xc0 }, { 0, 1, 2, 3 } },
	{ "MI300X DPX NPS2", AMDX_MODEL_MI300X, AMDX_COMPUTE_DPX,
	  AMDX_MEMORY_NPS2, 2, 2, { 0x0f, 0xf0 }, { 0, 1 } },
	{ "MI300X SPX NPS1", AMDX_MODEL_MI300X, AMDX_COMPUTE_SPX,
	  AMDX_MEMORY_NPS1, 1, 1, { 0xff }, { 0 } },
	{ "MI300A TPX NPS1", AMDX_MODEL_MI300A, AMDX_COMPUTE_TPX,
	  AMDX_MEMORY_NPS1, 3, 1, { 0x03, 0x0c, 0x30 }, { 0, 0, 0 } },
	{ "MI300A CPX NPS1", AMDX_MODEL_MI300A, AMDX_COMPUTE_CPX,
	  AMDX_MEMORY_NPS1, 6, 1, { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20 },
	  { 0, 0, 0, 0, 0, 0 } },
	{ "MI308X CPX NPS4", AMDX_MODEL_MI308X, AMDX_COMPUTE_CPX,
	  AMDX_MEMORY_NPS4, 4, 4, { 0x01, 0x02, 0x04, 0x08 }, { 0, 1, 2, 3 } },
	{ "MI308X DPX NPS1", AMDX_MODEL_MI308X, AMDX_COMPUTE_DPX,
	  AMDX_MEMORY_NPS1, 2, 1, { 0x03, 0x0c }, { 0, 0 } },
};

static void topo_case_desc(const struct topo_case *tc, char *desc)
{
	strscpy(desc, tc->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(topo, topo_cases, topo_case_desc);

static void topology_matches_exact_layout(struct kunit *test)
{
	const struct topo_case *tc = test->param_value;
	struct amdx_partition_topology t;
	u32 i;

	KUNIT_ASSERT_EQ(test,
			amdx_partition_compute_topology(tc->model, tc->compute,
							tc->memory, &t), 0);
	KUNIT_EXPECT_EQ(test, t.num_compute, tc->num_compute);
	KUNIT_EXPECT_EQ(test, t.num_memory, tc->num_memory);
	for (i = 0; i < AMDX_PART_MAX_XCC; i++) {
		KUNIT_EXPECT_EQ_MSG(test, t.xcc_mask[i], tc->mask[i],
				    "partition %u", i);
		KUNIT_EXPECT_EQ_MSG(test, t.mem_partition[i], tc->mem[i],
				    "partition %u", i);
	}
}

static struct kunit_case amdx_partition_test_cases[] = {
	KUNIT_CASE_PARAM(check_gives_verdict_and_reason_of_table,
			 matrix_gen_params),
	KUNIT_CASE(table_valid_set_is_the_hand_written_list),
	KUNIT_CASE_PARAM(layout_rules_hold_without_a_model, layout_gen_params),
	KUNIT_CASE(reason_strings_are_distinct_and_bounded),
	KUNIT_CASE(model_queries_match_table),
	KUNIT_CASE(topology_partitions_xccs_and_memory_evenly),
	KUNIT_CASE_PARAM(topology_matches_exact_layout, topo_gen_params),
	{}
};

static struct kunit_suite amdx_partition_test_suite = {
	.name = "amdx_partition",
	.suite_init = amdx_partition_suite_init,
	.test_cases = amdx_partition_test_cases,
};

/* ---- SR-IOV provisioning math ---- */

struct fair_case {
	const char *name;
	u64 vram;
	u32 num_vfs;
	int ret;
	u64 per_vf;
};

static const struct fair_case fair_cases[] = {
	{ "192G over 1", 192ULL * SZ_1G, 1, 0, 192ULL * SZ_1G },
	{ "192G over 8", 192ULL * SZ_1G, 8, 0, 24ULL * SZ_1G },
	{ "192G over 3", 192ULL * SZ_1G, 3, 0, 64ULL * SZ_1G },
	{ "48G over 2", 48ULL * SZ_1G, 2, 0, 24ULL * SZ_1G },
	{ "1000M over 3 rounds to 320M", 1000ULL * SZ_1M, 3, 0,
	  320ULL * SZ_1M },
	{ "4095M over 8 rounds to 496M", 4095ULL * SZ_1M, 8, 0,
	  496ULL * SZ_1M },
	{ "271M over 1 rounds to 256M", 271ULL * SZ_1M, 1, 0, SZ_256M },
	{ "2G over 8 is exactly the minimum", 2ULL * SZ_1G, 8, 0, SZ_256M },
	{ "2G-1 over 8 rounds under the minimum", 2ULL * SZ_1G - 1, 8,
	  -ENOSPC, 0 },
	{ "255M over 1", 255ULL * SZ_1M, 1, -ENOSPC, 0 },
	{ "no VRAM", 0, 1, -ENOSPC, 0 },
	{ "0 VFs", 192ULL * SZ_1G, 0, -EINVAL, 0 },
	{ "9 VFs", 192ULL * SZ_1G, 9, -EINVAL, 0 },
};

static void fair_case_desc(const struct fair_case *fc, char *desc)
{
	strscpy(desc, fc->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fair, fair_cases, fair_case_desc);

/* The custom check with 8 compute partitions, as MI300X in CPX. */
static int check8(u64 vram, const struct amdx_vf_config *cfg, u32 n,
		  u32 *bad_vf)
{
	const char *why = NULL;
	u32 bad;
	int ret;

	ret = amdx_vf_provision_check(vram, cfg, n, 8, &bad, &why);
	if (bad_vf)
		*bad_vf = bad;
	/* a refusal always says why */
	if (ret && !why)
		return -EFAULT;
	return ret;
}

static void fair_split_rounds_down_to_16m_steps(struct kunit *test)
{
	const struct fair_case *fc = test->param_value;
	struct amdx_vf_config cfg[AMDX_MAX_VFS + 1];
	u64 per_vf = 0xdead;
	u32 i, all = 0;

	KUNIT_EXPECT_EQ(test, amdx_vf_fair_vram(fc->vram, fc->num_vfs,
						&per_vf), fc->ret);
	KUNIT_EXPECT_EQ(test, per_vf, fc->ret ? 0xdead : fc->per_vf);

	memset(cfg, 0xa5, sizeof(cfg));
	KUNIT_ASSERT_EQ(test, amdx_vf_provision_fair(fc->vram, fc->num_vfs,
						     8, cfg), fc->ret);
	if (fc->ret) {
		/* untouched on failure */
		KUNIT_EXPECT_EQ(test, cfg[0].vram_quota,
				0xa5a5a5a5a5a5a5a5ULL);
		return;
	}
	for (i = 0; i < fc->num_vfs; i++) {
		KUNIT_EXPECT_EQ(test, cfg[i].vram_quota, fc->per_vf);
		KUNIT_EXPECT_EQ(test, cfg[i].time_slice_us, 6000);
		KUNIT_EXPECT_EQ(test, cfg[i].priority, AMDX_VF_PRIO_NORMAL);
		KUNIT_EXPECT_EQ(test, cfg[i].flags, 0);
		/* partitions dealt in turn: VF i has i, i + n, ... */
		KUNIT_EXPECT_TRUE(test, cfg[i].partition_mask & BIT(i));
		KUNIT_EXPECT_EQ(test, cfg[i].partition_mask & all, 0);
		all |= cfg[i].partition_mask;
	}
	KUNIT_EXPECT_EQ(test, all, 0xff);
	KUNIT_EXPECT_EQ(test, cfg[fc->num_vfs].vram_quota,
			0xa5a5a5a5a5a5a5a5ULL);
	/* a fair configuration passes the custom check */
	KUNIT_EXPECT_EQ(test, check8(fc->vram, cfg, fc->num_vfs, NULL), 0);
	/* the PF keeps less than one step per VF */
	KUNIT_EXPECT_LT(test, fc->vram - fc->per_vf * fc->num_vfs,
			(u64)fc->num_vfs * SZ_16M);
}

struct quota_case {
	const char *name;
	u64 vram;
	int ret;
};

static const struct quota_case quota_cases[] = {
	{ "256M", SZ_256M, 0 },
	{ "272M", SZ_256M + SZ_16M, 0 },
	{ "24G", 24ULL * SZ_1G, 0 },
	{ "256M + 1", SZ_256M + 1, -EINVAL },
	{ "264M (8M step)", SZ_256M + SZ_8M, -EINVAL },
	{ "240M under the minimum", SZ_256M - SZ_16M, -EINVAL },
	{ "16M", SZ_16M, -EINVAL },
	{ "0", 0, -EINVAL },
};

static void quota_case_desc(const struct quota_case *qc, char *desc)
{
	strscpy(desc, qc->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(quota, quota_cases, quota_case_desc);

static void vram_quota_needs_16m_steps_and_256m(struct kunit *test)
{
	const struct quota_case *qc = test->param_value;
	struct amdx_vf_config cfg = {
		.partition_mask = 1,
		.vram_quota = qc->vram,
		.time_slice_us = AMDX_VF_TIME_SLICE_DEFAULT_US,
		.priority = AMDX_VF_PRIO_NORMAL,
	};

	KUNIT_EXPECT_EQ(test, amdx_vf_check_vram(qc->vram), qc->ret);
	KUNIT_EXPECT_EQ(test, check8(192ULL * SZ_1G, &cfg, 1, NULL), qc->ret);
}

static void sched_parameters_are_range_checked(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, AMDX_VF_TIME_SLICE_DEFAULT_US, 6000);
	KUNIT_EXPECT_EQ(test, amdx_vf_check_sched(6000,
						  AMDX_VF_PRIO_NORMAL), 0);
	KUNIT_EXPECT_EQ(test, amdx_vf_check_sched(1000,
						  AMDX_VF_PRIO_LOW), 0);
	KUNIT_EXPECT_EQ(test, amdx_vf_check_sched(100000,
						  AMDX_VF_PRIO_HIGH), 0);
	KUNIT_EXPECT_EQ(test, amdx_vf_check_sched(999,
						  AMDX_VF_PRIO_NORMAL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vf_check_sched(0,
						  AMDX_VF_PRIO_NORMAL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vf_check_sched(100001,
						  AMDX_VF_PRIO_NORMAL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vf_check_sched(6000,
						  AMDX_VF_PRIO_HIGH + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_vf_check_sched(6000, U32_MAX), -EINVAL);
}

/* @n well-formed VFs of @vram each, VF i on partition i (mod 8). */
static void fill(struct amdx_vf_config *cfg, u32 n, u64 vram)
{
	u32 i;

	memset(cfg, 0, n * sizeof(*cfg));
	for (i = 0; i < n; i++) {
		cfg[i].partition_mask = BIT(i % 8);
		cfg[i].vram_quota = vram;
		cfg[i].time_slice_us = AMDX_VF_TIME_SLICE_DEFAULT_US;
		cfg[i].priority = AMDX_VF_PRIO_NORMAL;
	}
}

static void custom_quotas_must_fit_the_vram(struct kunit *test)
{
	struct amdx_vf_config cfg[AMDX_MAX_VFS + 1];
	const u64 vram = 192ULL * SZ_1G;
	u32 bad;

	/* 8 x 24G fills the VRAM exactly */
	fill(cfg, 8, 24ULL * SZ_1G);
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, 8, &bad), 0);
	KUNIT_EXPECT_EQ(test, bad, AMDX_VF_NONE);

	/* one step more is one step too many, and the last VF is at fault */
	cfg[7].vram_quota += SZ_16M;
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, 8, &bad), -ENOSPC);
	KUNIT_EXPECT_EQ(test, bad, 7);

	/* uneven but fitting */
	fill(cfg, 3, SZ_256M);
	cfg[1].vram_quota = 190ULL * SZ_1G;
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, 3, NULL), 0);

	/* a malformed VF is -EINVAL even when the sum also overflows */
	fill(cfg, 8, 32ULL * SZ_1G);
	cfg[5].vram_quota += SZ_1M;
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, 8, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad, 5);
	fill(cfg, 8, 32ULL * SZ_1G);
	cfg[6].time_slice_us = 0;
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, 8, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad, 6);
	fill(cfg, 8, 32ULL * SZ_1G);
	cfg[2].priority = AMDX_VF_PRIO_MAX + 1;
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, 8, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad, 2);

	/* huge quotas do not wrap the sum around */
	fill(cfg, 2, ALIGN_DOWN(U64_MAX, (u64)SZ_16M));
	KUNIT_EXPECT_EQ(test, check8(U64_MAX, cfg, 2, NULL), -ENOSPC);

	/* VF count out of range */
	fill(cfg, AMDX_MAX_VFS + 1, SZ_256M);
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, 0, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, AMDX_MAX_VFS, NULL), 0);
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, AMDX_MAX_VFS + 1, &bad),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bad, AMDX_VF_NONE);
}

static void custom_partitions_flags_and_reserved(struct kunit *test)
{
	struct amdx_vf_config cfg[AMDX_MAX_VFS];
	const u64 vram = 192ULL * SZ_1G;
	u32 bad;

	/* a partition bound to two VFs: the second is at fault */
	fill(cfg, 4, SZ_1G);
	cfg[3].partition_mask |= BIT(1);
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, 4, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad, 3);

	/* no partition, or one the mode does not have */
	fill(cfg, 4, SZ_1G);
	cfg[2].partition_mask = 0;
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, 4, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad, 2);
	fill(cfg, 4, SZ_1G);
	cfg[0].partition_mask = BIT(8);
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, 4, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_NOT_NULL(test, amdx_vf_config_bad(&cfg[0], 8));
	KUNIT_EXPECT_NULL(test, amdx_vf_config_bad(&cfg[0], 9));
	KUNIT_EXPECT_NOT_NULL(test, amdx_vf_config_bad(&cfg[1], 0));

	/* unknown flags and reserved fields */
	fill(cfg, 4, SZ_1G);
	cfg[1].flags = AMDX_VF_F_EVICT;
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, 4, NULL), 0);
	cfg[1].flags = AMDX_VF_F_EVICT << 1;
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, 4, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad, 1);
	fill(cfg, 4, SZ_1G);
	cfg[3].reserved[1] = 1;
	KUNIT_EXPECT_EQ(test, check8(vram, cfg, 4, &bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, bad, 3);
}

static struct kunit_case amdx_sriov_test_cases[] = {
	KUNIT_CASE_PARAM(fair_split_rounds_down_to_16m_steps, fair_gen_params),
	KUNIT_CASE_PARAM(vram_quota_needs_16m_steps_and_256m,
			 quota_gen_params),
	KUNIT_CASE(sched_parameters_are_range_checked),
	KUNIT_CASE(custom_quotas_must_fit_the_vram),
	KUNIT_CASE(custom_partitions_flags_and_reserved),
	{}
};

static struct kunit_suite amdx_sriov_test_suite = {
	.name = "amdx_sriov",
	.test_cases = amdx_sriov_test_cases,
};

kunit_test_suites(&amdx_partition_test_suite, &amdx_sriov_test_suite);
