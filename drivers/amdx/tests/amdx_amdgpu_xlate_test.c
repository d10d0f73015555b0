// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: KUnit tests of the amdgpu provider's translations
 *
 * Suite ``amdx_amdgpu_xlate``: every amdgpu value of each translated enum
 * (and the holes and ends around them) to amdx's and every amdx value
 * back, round trips both ways, the EEPROM record's layout and its
 * conversion (page size, address overflow, memory partition, cause), and
 * the XCC -> compute partition attribution of each mode on 8, 6 and 4
 * XCCs, checked against a hand-written table and against amdx's own
 * partition model.  The file under test is compiled in from
 * drivers/amdx_amdgpu, the same source the provider builds.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/string.h>

#include "amdx_partition_model.h"
#include "../../amdx_amdgpu/amdx_amdgpu_xlate.c"

struct map_case {
	s64 in;
	int want;
	const char *name;
};

static void map_case_desc(const struct map_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

/* Every amdgpu compute value, both ends past them, and the int limits. */
static const struct map_case compute_from_cases[] = {
	{ INT_MIN, -EINVAL, "INT_MIN" },
	{ -3, -EINVAL, "below_auto" },
	{ AMDX_AMDGPU_COMPUTE_AUTO, -EOPNOTSUPP, "AUTO" },
	{ AMDX_AMDGPU_COMPUTE_UNKNOWN, AMDX_COMPUTE_UNKNOWN, "UNKNOWN" },
	{ AMDX_AMDGPU_SPX, AMDX_COMPUTE_SPX, "SPX" },
	{ AMDX_AMDGPU_DPX, AMDX_COMPUTE_DPX, "DPX" },
	{ AMDX_AMDGPU_TPX, AMDX_COMPUTE_TPX, "TPX" },
	{ AMDX_AMDGPU_QPX, AMDX_COMPUTE_QPX, "QPX" },
	{ AMDX_AMDGPU_CPX, AMDX_COMPUTE_CPX, "CPX" },
	{ 5, -EINVAL, "past_cpx" },
	{ INT_MAX, -EINVAL, "INT_MAX" },
};

KUNIT_ARRAY_PARAM(compute_from, compute_from_cases, map_case_desc);

static void compute_from_amdgpu_maps_every_value(struct kunit *test)
{
	const struct map_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, amdx_amdgpu_compute_from_amdgpu(c->in), c->want);
}

static const struct map_case compute_to_cases[] = {
	{ AMDX_COMPUTE_UNKNOWN, -EINVAL, "UNKNOWN" },
	{ AMDX_COMPUTE_SPX, AMDX_AMDGPU_SPX, "SPX" },
	{ AMDX_COMPUTE_DPX, AMDX_AMDGPU_DPX, "DPX" },
	{ AMDX_COMPUTE_TPX, AMDX_AMDGPU_TPX, "TPX" },
	{ AMDX_COMPUTE_QPX, AMDX_AMDGPU_QPX, "QPX" },
	{ AMDX_COMPUTE_CPX, AMDX_AMDGPU_CPX, "CPX" },
	{ AMDX_COMPUTE_CPX + 1, -EINVAL, "past_cpx" },
	{ U32_MAX, -EINVAL, "U32_MAX" },
};

KUNIT_ARRAY_PARAM(compute_to, compute_to_cases, map_case_desc);

static void compute_to_amdgpu_maps_every_value(struct kunit *test)
{
	const struct map_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, amdx_amdgpu_compute_to_amdgpu(c->in), c->want);
}

static void compute_round_trips(struct kunit *test)
{
	int m, v;

	for (m = AMDX_COMPUTE_SPX; m <= AMDX_COMPUTE_CPX; m++) {
		v = amdx_amdgpu_compute_to_amdgpu(m);
		KUNIT_EXPECT_EQ(test, amdx_amdgpu_compute_from_amdgpu(v), m);
	}
	for (m = AMDX_AMDGPU_SPX; m <= AMDX_AMDGPU_CPX; m++) {
		v = amdx_amdgpu_compute_from_amdgpu(m);
		KUNIT_EXPECT_EQ(test, amdx_amdgpu_compute_to_amdgpu(v), m);
	}
}

/* 0..8 covers every amdgpu NPS value and the holes (5, 7) between them. */
static const struct map_case memory_from_cases[] = {
	{ INT_MIN, -EINVAL, "INT_MIN" },
	{ -1, -EINVAL, "minus_one" },
	{ AMDX_AMDGPU_NPS_UNKNOWN, AMDX_MEMORY_UNKNOWN, "UNKNOWN" },
	{ AMDX_AMDGPU_NPS1, AMDX_MEMORY_NPS1, "NPS1" },
	{ AMDX_AMDGPU_NPS2, AMDX_MEMORY_NPS2, "NPS2" },
	{ AMDX_AMDGPU_NPS3, -EOPNOTSUPP, "NPS3" },
	{ AMDX_AMDGPU_NPS4, AMDX_MEMORY_NPS4, "NPS4" },
	{ 5, -EINVAL, "hole_5" },
	{ AMDX_AMDGPU_NPS6, -EOPNOTSUPP, "NPS6" },
	{ 7, -EINVAL, "hole_7" },
	{ AMDX_AMDGPU_NPS8, AMDX_MEMORY_NPS8, "NPS8" },
	{ 9, -EINVAL, "past_nps8" },
	{ INT_MAX, -EINVAL, "INT_MAX" },
};

KUNIT_ARRAY_PARAM(memory_from, memory_from_cases, map_case_desc);

static void memory_from_amdgpu_maps_every_value(struct kunit *test)
{
	const struct map_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, amdx_amdgpu_memory_from_amdgpu(c->in), c->want);
}

static const struct map_case memory_to_cases[] = {
	{ AMDX_MEMORY_UNKNOWN, -EINVAL, "UNKNOWN" },
	{ AMDX_MEMORY_NPS1, AMDX_AMDGPU_NPS1, "NPS1" },
	{ AMDX_MEMORY_NPS2, AMDX_AMDGPU_NPS2, "NPS2" },
	{ AMDX_MEMORY_NPS4, AMDX_AMDGPU_NPS4, "NPS4" },
	{ AMDX_MEMORY_NPS8, AMDX_AMDGPU_NPS8, "NPS8" },
	{ AMDX_MEMORY_NPS8 + 1, -EINVAL, "past_nps8" },
	{ U32_MAX, -EINVAL, "U32_MAX" },
};

KUNIT_ARRAY_PARAM(memory_to, memory_to_cases, map_case_desc);

static void memory_to_amdgpu_maps_every_value(struct kunit *test)
{
	const struct map_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, amdx_amdgpu_memory_to_amdgpu(c->in), c->want);
}

static void memory_round_trips(struct kunit *test)
{
	static const int amdgpu_modes[] = {
		AMDX_AMDGPU_NPS1, AMDX_AMDGPU_NPS2, AMDX_AMDGPU_NPS4,
		AMDX_AMDGPU_NPS8,
	};
	int m, i, v;

	for (m = AMDX_MEMORY_NPS1; m <= AMDX_MEMORY_NPS8; m++) {
		v = amdx_amdgpu_memory_to_amdgpu(m);
		KUNIT_EXPECT_EQ(test, amdx_amdgpu_memory_from_amdgpu(v), m);
	}
	for (i = 0; i < ARRAY_SIZE(amdgpu_modes); i++) {
		v = amdx_amdgpu_memory_from_amdgpu(amdgpu_modes[i]);
		KUNIT_EXPECT_EQ(test, amdx_amdgpu_memory_to_amdgpu(v),
				amdgpu_modes[i]);
	}
}

/* All 19 amdgpu 6.12 blocks by name, and the values around them. */
static const struct map_case block_from_cases[] = {
	{ INT_MIN, -EINVAL, "INT_MIN" },
	{ -1, -EINVAL, "minus_one" },
	{ AMDX_AMDGPU_RAS_BLOCK_UMC, AMDX_RAS_BLOCK_UMC, "umc" },
	{ AMDX_AMDGPU_RAS_BLOCK_SDMA, AMDX_RAS_BLOCK_SDMA, "sdma" },
	{ AMDX_AMDGPU_RAS_BLOCK_GFX, AMDX_RAS_BLOCK_GFX, "gfx" },
	{ AMDX_AMDGPU_RAS_BLOCK_MMHUB, AMDX_RAS_BLOCK_MMHUB, "mmhub" },
	{ AMDX_AMDGPU_RAS_BLOCK_ATHUB, -EOPNOTSUPP, "athub" },
	{ AMDX_AMDGPU_RAS_BLOCK_PCIE_BIF, AMDX_RAS_BLOCK_PCIE_BIF, "pcie_bif" },
	{ AMDX_AMDGPU_RAS_BLOCK_HDP, AMDX_RAS_BLOCK_HDP, "hdp" },
	{ AMDX_AMDGPU_RAS_BLOCK_XGMI_WAFL, AMDX_RAS_BLOCK_XGMI_WAFL,
	  "xgmi_wafl" },
	{ AMDX_AMDGPU_RAS_BLOCK_DF, -EOPNOTSUPP, "df" },
	{ AMDX_AMDGPU_RAS_BLOCK_SMN, -EOPNOTSUPP, "smn" },
	{ AMDX_AMDGPU_RAS_BLOCK_SEM, -EOPNOTSUPP, "sem" },
	{ AMDX_AMDGPU_RAS_BLOCK_MP0, -EOPNOTSUPP, "mp0" },
	{ AMDX_AMDGPU_RAS_BLOCK_MP1, -EOPNOTSUPP, "mp1" },
	{ AMDX_AMDGPU_RAS_BLOCK_FUSE, -EOPNOTSUPP, "fuse" },
	{ AMDX_AMDGPU_RAS_BLOCK_MCA, -EOPNOTSUPP, "mca" },
	{ AMDX_AMDGPU_RAS_BLOCK_VCN, -EOPNOTSUPP, "vcn" },
	{ AMDX_AMDGPU_RAS_BLOCK_JPEG, -EOPNOTSUPP, "jpeg" },
	{ AMDX_AMDGPU_RAS_BLOCK_IH, -EOPNOTSUPP, "ih" },
	{ AMDX_AMDGPU_RAS_BLOCK_MPIO, -EOPNOTSUPP, "mpio" },
	{ AMDX_AMDGPU_RAS_BLOCK_LAST, -EINVAL, "last" },
	{ INT_MAX, -EINVAL, "INT_MAX" },
};

KUNIT_ARRAY_PARAM(block_from, block_from_cases, map_case_desc);

static void ras_block_from_amdgpu_maps_every_value(struct kunit *test)
{
	const struct map_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, amdx_amdgpu_ras_block_from_amdgpu(c->in),
			c->want);
}

static const struct map_case block_to_cases[] = {
	{ AMDX_RAS_BLOCK_UMC, AMDX_AMDGPU_RAS_BLOCK_UMC, "umc" },
	{ AMDX_RAS_BLOCK_SDMA, AMDX_AMDGPU_RAS_BLOCK_SDMA, "sdma" },
	{ AMDX_RAS_BLOCK_GFX, AMDX_AMDGPU_RAS_BLOCK_GFX, "gfx" },
	{ AMDX_RAS_BLOCK_MMHUB, AMDX_AMDGPU_RAS_BLOCK_MMHUB, "mmhub" },
	{ AMDX_RAS_BLOCK_PCIE_BIF, AMDX_AMDGPU_RAS_BLOCK_PCIE_BIF, "pcie_bif" },
	{ AMDX_RAS_BLOCK_HDP, AMDX_AMDGPU_RAS_BLOCK_HDP, "hdp" },
	{ AMDX_RAS_BLOCK_XGMI_WAFL, AMDX_AMDGPU_RAS_BLOCK_XGMI_WAFL,
	  "xgmi_wafl" },
	{ AMDX_RAS_BLOCK_COUNT, -EINVAL, "count" },
	{ U32_MAX, -EINVAL, "U32_MAX" },
};

KUNIT_ARRAY_PARAM(block_to, block_to_cases, map_case_desc);

static void ras_block_to_amdgpu_maps_every_value(struct kunit *test)
{
	const struct map_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, amdx_amdgpu_ras_block_to_amdgpu(c->in), c->want);
}

static void ras_block_round_trips_and_twelve_have_none(struct kunit *test)
{
	int b, r, none = 0;

	for (b = 0; b < AMDX_RAS_BLOCK_COUNT; b++) {
		r = amdx_amdgpu_ras_block_to_amdgpu(b);
		KUNIT_EXPECT_EQ(test, amdx_amdgpu_ras_block_from_amdgpu(r), b);
	}
	for (b = 0; b < AMDX_AMDGPU_RAS_BLOCK_LAST; b++) {
		r = amdx_amdgpu_ras_block_from_amdgpu(b);
		if (r == -EOPNOTSUPP) {
			none++;
			continue;
		}
		KUNIT_EXPECT_EQ(test, amdx_amdgpu_ras_block_to_amdgpu(r), b);
	}
	KUNIT_EXPECT_EQ(test, none,
			AMDX_AMDGPU_RAS_BLOCK_LAST - AMDX_RAS_BLOCK_COUNT);
}

/* Every value of the 4-bit mask, so each combination is seen. */
static void ras_type_from_amdgpu_maps_every_mask(struct kunit *test)
{
	u32 t;

	for (t = 0; t < 16; t++) {
		int want;

		switch (t) {
		case AMDX_AMDGPU_RAS_ERROR_SINGLE_CORRECTABLE:
			want = AMDX_RAS_TYPE_CE;
			break;
		case AMDX_AMDGPU_RAS_ERROR_MULTI_UNCORRECTABLE:
			want = AMDX_RAS_TYPE_UE;
			break;
		case AMDX_AMDGPU_RAS_ERROR_POISON:
			want = AMDX_RAS_TYPE_DE;
			break;
		case AMDX_AMDGPU_RAS_ERROR_PARITY:
			want = -EOPNOTSUPP;
			break;
		default:
			want = -EINVAL;
		}
		KUNIT_EXPECT_EQ_MSG(test, amdx_amdgpu_ras_type_from_amdgpu(t),
				    want, "amdgpu type %#x", t);
	}
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_ras_type_from_amdgpu(16), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_ras_type_from_amdgpu(U32_MAX),
			-EINVAL);
}

static void driver_event_type_maps_every_value(struct kunit *test)
{
	static const struct {
		int in;
		u32 want;
	} cases[] = {
		{ AMDX_AMDGPU_RAS_EVENT_INVALID, AMDX_DRIVER_EVENT_NONE },
		{ AMDX_AMDGPU_RAS_EVENT_FATAL, AMDX_DRIVER_EVENT_FATAL },
		{ AMDX_AMDGPU_RAS_EVENT_POISON_CREATION,
		  AMDX_DRIVER_EVENT_POISON_CREATION },
		{ AMDX_AMDGPU_RAS_EVENT_POISON_CONSUMPTION,
		  AMDX_DRIVER_EVENT_POISON_CONSUMPTION },
		{ AMDX_AMDGPU_RAS_EVENT_COUNT, AMDX_DRIVER_EVENT_NONE },
		{ -1, AMDX_DRIVER_EVENT_NONE },
		{ INT_MAX, AMDX_DRIVER_EVENT_NONE },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    amdx_amdgpu_driver_event_type(cases[i].in),
				    cases[i].want, "amdgpu event type %d",
				    cases[i].in);
}

static void ras_type_to_amdgpu_and_back(struct kunit *test)
{
	u32 t;
	int v;

	KUNIT_EXPECT_EQ(test, amdx_amdgpu_ras_type_to_amdgpu(AMDX_RAS_TYPE_CE),
			AMDX_AMDGPU_RAS_ERROR_SINGLE_CORRECTABLE);
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_ras_type_to_amdgpu(AMDX_RAS_TYPE_UE),
			AMDX_AMDGPU_RAS_ERROR_MULTI_UNCORRECTABLE);
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_ras_type_to_amdgpu(AMDX_RAS_TYPE_DE),
			AMDX_AMDGPU_RAS_ERROR_POISON);
	KUNIT_EXPECT_EQ(test,
			amdx_amdgpu_ras_type_to_amdgpu(AMDX_RAS_TYPE_COUNT),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_ras_type_to_amdgpu(U32_MAX), -EINVAL);
	for (t = 0; t < AMDX_RAS_TYPE_COUNT; t++) {
		v = amdx_amdgpu_ras_type_to_amdgpu(t);
		KUNIT_EXPECT_EQ(test, amdx_amdgpu_ras_type_from_amdgpu(v), t);
	}
}

/*
 * MI300's ACA masks in 6.12.118: sdma_v4_4_2.c:2357 UE, mmhub_v1_8.c:800
 * UE, gfx_v9_4_3.c:924 UE|CE, amdgpu_xgmi.c:1088 UE|CE, umc_v12_0.c:501
 * UE|CE|DEFERRED; no ACA handle or MCA entry for pcie_bif and hdp.
 */
static void ras_types_are_mi300s_aca_masks(struct kunit *test)
{
	static const u32 want[AMDX_RAS_BLOCK_COUNT] = {
		[AMDX_RAS_BLOCK_UMC] = BIT(AMDX_RAS_TYPE_CE) |
				       BIT(AMDX_RAS_TYPE_UE) |
				       BIT(AMDX_RAS_TYPE_DE),
		[AMDX_RAS_BLOCK_SDMA] = BIT(AMDX_RAS_TYPE_UE),
		[AMDX_RAS_BLOCK_GFX] = BIT(AMDX_RAS_TYPE_CE) |
				       BIT(AMDX_RAS_TYPE_UE),
		[AMDX_RAS_BLOCK_MMHUB] = BIT(AMDX_RAS_TYPE_UE),
		[AMDX_RAS_BLOCK_PCIE_BIF] = 0,
		[AMDX_RAS_BLOCK_HDP] = 0,
		[AMDX_RAS_BLOCK_XGMI_WAFL] = BIT(AMDX_RAS_TYPE_CE) |
					     BIT(AMDX_RAS_TYPE_UE),
	};
	u32 b, de = 0;

	for (b = 0; b < AMDX_RAS_BLOCK_COUNT; b++) {
		KUNIT_EXPECT_EQ_MSG(test, amdx_amdgpu_ras_types(b), want[b],
				    "block %u", b);
		if (amdx_amdgpu_ras_types(b) & BIT(AMDX_RAS_TYPE_DE))
			de++;
	}
	KUNIT_EXPECT_EQ(test, de, 1);
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_ras_types(AMDX_RAS_BLOCK_COUNT), 0);
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_ras_types(U32_MAX), 0);
}

static void ras_counts_land_on_their_type(struct kunit *test)
{
	u64 count[AMDX_RAS_TYPE_COUNT];

	amdx_amdgpu_ras_counts(11, 22, 33, count);
	KUNIT_EXPECT_EQ(test, count[AMDX_RAS_TYPE_CE], 11);
	KUNIT_EXPECT_EQ(test, count[AMDX_RAS_TYPE_UE], 22);
	KUNIT_EXPECT_EQ(test, count[AMDX_RAS_TYPE_DE], 33);
	amdx_amdgpu_ras_counts(0, U64_MAX, 0, count);
	KUNIT_EXPECT_EQ(test, count[AMDX_RAS_TYPE_CE], 0);
	KUNIT_EXPECT_EQ(test, count[AMDX_RAS_TYPE_UE], U64_MAX);
	KUNIT_EXPECT_EQ(test, count[AMDX_RAS_TYPE_DE], 0);
}

/* amdgpu's eeprom_table_record: packed, 31 bytes (also asserted in-tree). */
static void eeprom_record_layout_is_amdgpus(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sizeof(struct amdx_amdgpu_eeprom_record), 31);
	KUNIT_EXPECT_EQ(test, offsetof(struct amdx_amdgpu_eeprom_record,
				       address), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct amdx_amdgpu_eeprom_record,
				       retired_page), 8);
	KUNIT_EXPECT_EQ(test, offsetof(struct amdx_amdgpu_eeprom_record, ts),
			16);
	KUNIT_EXPECT_EQ(test, offsetof(struct amdx_amdgpu_eeprom_record,
				       err_type), 24);
	KUNIT_EXPECT_EQ(test, offsetof(struct amdx_amdgpu_eeprom_record, bank),
			28);
	KUNIT_EXPECT_EQ(test, offsetof(struct amdx_amdgpu_eeprom_record,
				       mem_channel), 29);
	KUNIT_EXPECT_EQ(test, offsetof(struct amdx_amdgpu_eeprom_record,
				       mcumc_id), 30);
}

#define GIB		BIT_ULL(30)
#define MI300X_NPS4	(48 * GIB)	/* VRAM of one of MI300X's 4 */
#define PFN(a)		((u32)((a) >> 12))

/* MI300X in NPS4 as the ranges of four equal partitions. */
static const struct amdx_amdgpu_mem_range mi300x_nps4[] = {
	{ PFN(0 * MI300X_NPS4), PFN(1 * MI300X_NPS4) - 1 },
	{ PFN(1 * MI300X_NPS4), PFN(2 * MI300X_NPS4) - 1 },
	{ PFN(2 * MI300X_NPS4), PFN(3 * MI300X_NPS4) - 1 },
	{ PFN(3 * MI300X_NPS4), PFN(4 * MI300X_NPS4) - 1 },
};

static const struct amdx_amdgpu_mem_range one_gib[] = {
	{ 0, PFN(GIB) - 1 },
};

/* The most amdgpu's u32 page numbers can describe: 16 TiB. */
static const struct amdx_amdgpu_mem_range all_pfns[] = {
	{ 0, U32_MAX },
};

static const struct amdx_badpage_record poison_rec = {
	.address = 0xdeadbeef, .time = 0xdeadbeef, .partition = 0xdead,
	.cause = 0xbeef, .flags = 0xbeef,
};

static void badpage_from_amdgpu_converts_page_and_cause(struct kunit *test)
{
	static const struct {
		s32 err_type;
		u16 cause;
	} causes[] = {
		{ AMDX_AMDGPU_EEPROM_ERR_NA, AMDX_BADPAGE_CAUSE_UE },
		{ AMDX_AMDGPU_EEPROM_ERR_RECOVERABLE, AMDX_BADPAGE_CAUSE_CE },
		{ AMDX_AMDGPU_EEPROM_ERR_NON_RECOVERABLE, AMDX_BADPAGE_CAUSE_UE },
	};
	struct amdx_amdgpu_eeprom_record in = {
		.address = 0x7fff00001234, .retired_page = 0x1234,
		.ts = 1700000000, .bank = 3, .mem_channel = 5, .mcumc_id = 7,
	};
	struct amdx_badpage_record out;
	int i;

	for (i = 0; i < ARRAY_SIZE(causes); i++) {
		in.err_type = causes[i].err_type;
		out = poison_rec;
		KUNIT_ASSERT_EQ(test, amdx_amdgpu_badpage_from_amdgpu(&in, mi300x_nps4, 4,
								      &out), 0);
		KUNIT_EXPECT_EQ(test, out.address, 0x1234000);
		KUNIT_EXPECT_EQ(test, out.time, 1700000000);
		KUNIT_EXPECT_EQ(test, out.partition, 0);
		KUNIT_EXPECT_EQ(test, out.cause, causes[i].cause);
		KUNIT_EXPECT_EQ(test, out.flags, 0);
	}
}

struct part_case {
	u64 address;
	int ret;
	u32 partition;
	const char *name;
};

static const struct part_case part_cases[] = {
	{ 0, 0, 0, "first_page" },
	{ MI300X_NPS4 - 4096, 0, 0, "last_page_of_0" },
	{ MI300X_NPS4, 0, 1, "first_page_of_1" },
	{ 2 * MI300X_NPS4 + 4096, 0, 2, "in_2" },
	{ 4 * MI300X_NPS4 - 4096, 0, 3, "last_page" },
	{ 4 * MI300X_NPS4, -ERANGE, 0, "past_vram" },
};

static void part_case_desc(const struct part_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(part, part_cases, part_case_desc);

static void badpage_from_amdgpu_finds_memory_partition(struct kunit *test)
{
	const struct part_case *c = test->param_value;
	struct amdx_amdgpu_eeprom_record in = {
		.retired_page = c->address >> 12,
		.err_type = AMDX_AMDGPU_EEPROM_ERR_NON_RECOVERABLE,
	};
	struct amdx_badpage_record out = poison_rec;

	KUNIT_ASSERT_EQ(test, amdx_amdgpu_badpage_from_amdgpu(&in, mi300x_nps4, 4,
							      &out), c->ret);
	if (c->ret) {
		KUNIT_EXPECT_EQ(test, memcmp(&out, &poison_rec, sizeof(out)), 0);
		return;
	}
	KUNIT_EXPECT_EQ(test, out.partition, c->partition);
	KUNIT_EXPECT_EQ(test, out.address, c->address);
}

/*
 * amdgpu's own split when the IP discovery has no NPS table,
 * gmc_v9_0_init_sw_mem_ranges(): each partition (VRAM + 16 MiB) / 4
 * pages, the last cut at the VRAM's end.  For VRAM = 192 GiB - 16 MiB
 * the partitions start at 48 GiB steps, not at VRAM / 4 = 48 GiB - 4 MiB.
 */
#define SW_VRAM		(4 * MI300X_NPS4 - (16ULL << 20))

static const struct amdx_amdgpu_mem_range sw_nps4[] = {
	{ PFN(0 * MI300X_NPS4), PFN(1 * MI300X_NPS4) - 1 },
	{ PFN(1 * MI300X_NPS4), PFN(2 * MI300X_NPS4) - 1 },
	{ PFN(2 * MI300X_NPS4), PFN(3 * MI300X_NPS4) - 1 },
	{ PFN(3 * MI300X_NPS4), PFN(SW_VRAM) - 1 },
};

/* An NPS table may list the partitions in any order and leave gaps. */
static const struct amdx_amdgpu_mem_range table_nps2[] = {
	{ PFN(96 * GIB), PFN(192 * GIB) - 1 },
	{ PFN(0), PFN(95 * GIB) - 1 },
};

struct range_case {
	const struct amdx_amdgpu_mem_range *ranges;
	u32 num_ranges;
	u64 address;
	int partition;
	const char *name;
};

static const struct range_case range_cases[] = {
	{ sw_nps4, 4, 0, 0, "sw_first_page" },
	{ sw_nps4, 4, MI300X_NPS4 - 4096, 0, "sw_last_page_of_0" },
	{ sw_nps4, 4, MI300X_NPS4 - (2ULL << 20), 0, "sw_vram_by_4_is_still_0" },
	{ sw_nps4, 4, MI300X_NPS4, 1, "sw_first_page_of_1" },
	{ sw_nps4, 4, 3 * MI300X_NPS4 - 4096, 2, "sw_last_page_of_2" },
	{ sw_nps4, 4, SW_VRAM - 4096, 3, "sw_last_page" },
	{ sw_nps4, 4, SW_VRAM, -ERANGE, "sw_past_vram" },
	{ table_nps2, 2, 0, 1, "table_low_is_1" },
	{ table_nps2, 2, 95 * GIB - 4096, 1, "table_end_of_1" },
	{ table_nps2, 2, 95 * GIB, -ERANGE, "table_gap" },
	{ table_nps2, 2, 96 * GIB, 0, "table_high_is_0" },
	{ table_nps2, 2, 192 * GIB - 1, 0, "table_last_byte" },
	{ table_nps2, 2, 192 * GIB, -ERANGE, "table_past_vram" },
	{ table_nps2, 0, 0, -EINVAL, "no_ranges" },
};

static void range_case_desc(const struct range_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(range, range_cases, range_case_desc);

static void mem_partition_follows_amdgpus_ranges(struct kunit *test)
{
	const struct range_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, amdx_amdgpu_mem_partition(c->ranges, c->num_ranges,
							c->address),
			c->partition);
}

/* The imported record's partition is the range's, as amdgpu's. */
static void badpage_from_amdgpu_takes_partition_from_ranges(struct kunit *test)
{
	const struct range_case *c = test->param_value;
	struct amdx_amdgpu_eeprom_record in = {
		.retired_page = c->address >> 12,
		.err_type = AMDX_AMDGPU_EEPROM_ERR_NON_RECOVERABLE,
	};
	struct amdx_badpage_record out = poison_rec;

	KUNIT_ASSERT_EQ(test, amdx_amdgpu_badpage_from_amdgpu(&in, c->ranges,
							      c->num_ranges, &out),
			c->partition < 0 ? c->partition : 0);
	if (c->partition < 0) {
		KUNIT_EXPECT_EQ(test, memcmp(&out, &poison_rec, sizeof(out)), 0);
		return;
	}
	KUNIT_EXPECT_EQ(test, out.partition, c->partition);
	KUNIT_EXPECT_EQ(test, out.address, c->address & ~0xfffULL);
}

static void badpage_from_amdgpu_refuses_bad_input(struct kunit *test)
{
	struct amdx_amdgpu_eeprom_record in = {
		.retired_page = 1,
		.err_type = AMDX_AMDGPU_EEPROM_ERR_NON_RECOVERABLE,
	};
	struct amdx_badpage_record out = poison_rec;

	in.err_type = AMDX_AMDGPU_EEPROM_ERR_COUNT;
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_badpage_from_amdgpu(&in, one_gib, 1,
							      &out), -EINVAL);
	in.err_type = -1;
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_badpage_from_amdgpu(&in, one_gib, 1,
							      &out), -EINVAL);
	in.err_type = AMDX_AMDGPU_EEPROM_ERR_NON_RECOVERABLE;
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_badpage_from_amdgpu(&in, one_gib, 0,
							      &out), -EINVAL);
	/* The byte address of page 2^52 does not fit 64 bits. */
	in.retired_page = 1ULL << 52;
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_badpage_from_amdgpu(&in, all_pfns, 1,
							      &out), -ERANGE);
	in.retired_page = U64_MAX;
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_badpage_from_amdgpu(&in, all_pfns, 1,
							      &out), -ERANGE);
	/* Past the last page amdgpu's ranges can hold. */
	in.retired_page = 1ULL << 32;
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_badpage_from_amdgpu(&in, all_pfns, 1,
							      &out), -ERANGE);
	KUNIT_EXPECT_EQ(test, memcmp(&out, &poison_rec, sizeof(out)), 0);

	/* The last page that fits. */
	in.retired_page = U32_MAX;
	KUNIT_ASSERT_EQ(test, amdx_amdgpu_badpage_from_amdgpu(&in, all_pfns, 1,
							      &out), 0);
	KUNIT_EXPECT_EQ(test, out.address, (u64)U32_MAX << 12);
}

static void badpage_to_amdgpu_converts_page_and_cause(struct kunit *test)
{
	static const struct {
		u16 cause;
		s32 err_type;
	} causes[] = {
		{ AMDX_BADPAGE_CAUSE_CE, AMDX_AMDGPU_EEPROM_ERR_RECOVERABLE },
		{ AMDX_BADPAGE_CAUSE_UE, AMDX_AMDGPU_EEPROM_ERR_NON_RECOVERABLE },
		{ AMDX_BADPAGE_CAUSE_DE, AMDX_AMDGPU_EEPROM_ERR_NON_RECOVERABLE },
		{ AMDX_BADPAGE_CAUSE_IMPORT,
		  AMDX_AMDGPU_EEPROM_ERR_NON_RECOVERABLE },
	};
	struct amdx_badpage_record in = {
		.address = 0x2fedcba000, .time = 1700000123, .partition = 2,
	};
	struct amdx_amdgpu_eeprom_record out;
	int i;

	for (i = 0; i < ARRAY_SIZE(causes); i++) {
		in.cause = causes[i].cause;
		memset(&out, 0xa5, sizeof(out));
		KUNIT_ASSERT_EQ(test, amdx_amdgpu_badpage_to_amdgpu(&in, &out), 0);
		KUNIT_EXPECT_EQ(test, out.retired_page, 0x2fedcba);
		KUNIT_EXPECT_EQ(test, out.ts, 1700000123);
		KUNIT_EXPECT_EQ(test, out.err_type, causes[i].err_type);
		KUNIT_EXPECT_EQ(test, out.address, 0);
		KUNIT_EXPECT_EQ(test, out.bank, 0);
		KUNIT_EXPECT_EQ(test, out.mem_channel, 0);
		KUNIT_EXPECT_EQ(test, out.mcumc_id, 0);
	}
}

static void badpage_to_amdgpu_refuses_bad_input(struct kunit *test)
{
	static const struct amdx_badpage_record bad[] = {
		{ .address = 0x1001, .cause = AMDX_BADPAGE_CAUSE_UE },
		{ .address = 0x1800, .cause = AMDX_BADPAGE_CAUSE_UE },
		{ .address = 0x1000, .cause = 0 },
		{ .address = 0x1000, .cause = AMDX_BADPAGE_CAUSE_IMPORT + 1 },
		{ .address = 0x1000, .cause = U16_MAX },
		{ .address = 0x1000, .cause = AMDX_BADPAGE_CAUSE_UE, .flags = 1 },
	};
	struct amdx_amdgpu_eeprom_record out, orig;
	int i;

	memset(&orig, 0xa5, sizeof(orig));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		out = orig;
		KUNIT_EXPECT_EQ_MSG(test, amdx_amdgpu_badpage_to_amdgpu(&bad[i], &out),
				    -EINVAL, "case %d", i);
		KUNIT_EXPECT_EQ(test, memcmp(&out, &orig, sizeof(out)), 0);
	}
}

static void badpage_round_trips(struct kunit *test)
{
	static const s32 types[] = {
		AMDX_AMDGPU_EEPROM_ERR_RECOVERABLE,
		AMDX_AMDGPU_EEPROM_ERR_NON_RECOVERABLE,
	};
	static const u16 causes[] = {
		AMDX_BADPAGE_CAUSE_CE, AMDX_BADPAGE_CAUSE_UE,
	};
	struct amdx_amdgpu_eeprom_record e, e2;
	struct amdx_badpage_record r, r2;
	int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		e = (struct amdx_amdgpu_eeprom_record) {
			.retired_page = 0xc00000 + i, .ts = 1700000000 + i,
			.err_type = types[i],
		};
		KUNIT_ASSERT_EQ(test, amdx_amdgpu_badpage_from_amdgpu(&e, mi300x_nps4, 4,
								      &r), 0);
		KUNIT_ASSERT_EQ(test, amdx_amdgpu_badpage_to_amdgpu(&r, &e2), 0);
		KUNIT_EXPECT_EQ(test, memcmp(&e, &e2, sizeof(e)), 0);
	}
	for (i = 0; i < ARRAY_SIZE(causes); i++) {
		r = (struct amdx_badpage_record) {
			.address = 3 * MI300X_NPS4 + 0x5000, .time = 42 + i,
			.partition = 3, .cause = causes[i],
		};
		KUNIT_ASSERT_EQ(test, amdx_amdgpu_badpage_to_amdgpu(&r, &e), 0);
		KUNIT_ASSERT_EQ(test, amdx_amdgpu_badpage_from_amdgpu(&e, mi300x_nps4, 4,
								      &r2), 0);
		KUNIT_EXPECT_EQ(test, memcmp(&r, &r2, sizeof(r)), 0);
	}
}

/*
 * The partition of each XCC, per mode, written out: MI300X (8 XCCs),
 * MI300A (6) and MI308X (4).  -EINVAL: amdgpu refuses the mode on that
 * count (__aqua_vanjaram_is_valid_mode(): DPX needs a multiple of 4 XCCs,
 * QPX 2 XCCs per partition, CPX more than one XCC).
 */
struct xcc_case {
	u32 mode;
	u32 num_xcc;
	int parts;
	s8 partition[8];
	const char *name;
};

static const struct xcc_case xcc_cases[] = {
	{ AMDX_COMPUTE_SPX, 8, 1, { 0, 0, 0, 0, 0, 0, 0, 0 }, "8_spx" },
	{ AMDX_COMPUTE_DPX, 8, 2, { 0, 0, 0, 0, 1, 1, 1, 1 }, "8_dpx" },
	{ AMDX_COMPUTE_TPX, 8, -EINVAL, { 0 }, "8_tpx" },
	{ AMDX_COMPUTE_QPX, 8, 4, { 0, 0, 1, 1, 2, 2, 3, 3 }, "8_qpx" },
	{ AMDX_COMPUTE_CPX, 8, 8, { 0, 1, 2, 3, 4, 5, 6, 7 }, "8_cpx" },
	{ AMDX_COMPUTE_SPX, 6, 1, { 0, 0, 0, 0, 0, 0 }, "6_spx" },
	{ AMDX_COMPUTE_DPX, 6, -EINVAL, { 0 }, "6_dpx" },
	{ AMDX_COMPUTE_TPX, 6, 3, { 0, 0, 1, 1, 2, 2 }, "6_tpx" },
	{ AMDX_COMPUTE_QPX, 6, -EINVAL, { 0 }, "6_qpx" },
	{ AMDX_COMPUTE_CPX, 6, 6, { 0, 1, 2, 3, 4, 5 }, "6_cpx" },
	{ AMDX_COMPUTE_SPX, 4, 1, { 0, 0, 0, 0 }, "4_spx" },
	{ AMDX_COMPUTE_DPX, 4, 2, { 0, 0, 1, 1 }, "4_dpx" },
	{ AMDX_COMPUTE_TPX, 4, -EINVAL, { 0 }, "4_tpx" },
	{ AMDX_COMPUTE_QPX, 4, -EINVAL, { 0 }, "4_qpx" },
	{ AMDX_COMPUTE_CPX, 4, 4, { 0, 1, 2, 3 }, "4_cpx" },
	{ AMDX_COMPUTE_UNKNOWN, 8, -EINVAL, { 0 }, "8_unknown" },
	{ AMDX_COMPUTE_CPX + 1, 8, -EINVAL, { 0 }, "8_past_cpx" },
	{ AMDX_COMPUTE_SPX, 1, 1, { 0 }, "1_spx" },
	{ AMDX_COMPUTE_CPX, 1, -EINVAL, { 0 }, "1_cpx" },
	{ AMDX_COMPUTE_SPX, 0, -EINVAL, { 0 }, "0_spx" },
	{ AMDX_COMPUTE_CPX, 17, -EINVAL, { 0 }, "17_cpx" },
	{ AMDX_COMPUTE_DPX, 3, -EINVAL, { 0 }, "3_dpx" },
};

static void xcc_case_desc(const struct xcc_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(xcc, xcc_cases, xcc_case_desc);

static void xcc_partition_follows_the_table(struct kunit *test)
{
	const struct xcc_case *c = test->param_value;
	u32 x;

	KUNIT_EXPECT_EQ(test, amdx_amdgpu_num_partitions(c->mode, c->num_xcc),
			c->parts);
	for (x = 0; x < 8; x++) {
		int want = c->parts < 0 || x >= c->num_xcc ? -EINVAL :
			   c->partition[x];

		KUNIT_EXPECT_EQ_MSG(test, amdx_amdgpu_xcc_partition(c->mode, c->num_xcc, x),
				    want, "xcc %u", x);
	}
	KUNIT_EXPECT_EQ(test, amdx_amdgpu_xcc_partition(c->mode, c->num_xcc,
							U32_MAX), -EINVAL);
}

#define XPX(m)	BIT(AMDX_COMPUTE_##m)

/*
 * The compute modes amdgpu 6.12 accepts, by XCCs and memory partitions
 * (adev->gmc.num_mem_partitions: NPS1 1, NPS2 2, NPS4 4 on a dGPU and 3 on
 * an APU), written out from __aqua_vanjaram_is_valid_mode() in
 * aqua_vanjaram.c.
 */
struct modes_case {
	u32 num_xcc;
	u32 num_mem_partitions;
	u32 modes;
	const char *name;
};

static const struct modes_case modes_cases[] = {
	{ 8, 1, XPX(SPX) | XPX(DPX) | XPX(QPX) | XPX(CPX), "8_xcc_nps1" },
	{ 8, 2, XPX(DPX), "8_xcc_nps2" },
	{ 8, 3, 0, "8_xcc_3_parts" },
	{ 8, 4, XPX(QPX) | XPX(CPX), "8_xcc_nps4" },
	{ 6, 1, XPX(SPX) | XPX(TPX) | XPX(CPX), "6_xcc_nps1" },
	{ 6, 2, 0, "6_xcc_nps2" },
	{ 6, 3, XPX(TPX), "6_xcc_apu_nps4" },
	{ 6, 4, 0, "6_xcc_4_parts" },
	{ 4, 1, XPX(SPX) | XPX(DPX) | XPX(CPX), "4_xcc_nps1" },
	{ 4, 2, XPX(DPX), "4_xcc_nps2" },
	{ 4, 3, 0, "4_xcc_3_parts" },
	{ 4, 4, XPX(CPX), "4_xcc_nps4" },
	{ 8, 0, 0, "8_xcc_no_mem_partitions" },
	{ 8, 8, 0, "8_xcc_nps8" },
	{ 0, 1, 0, "0_xcc" },
	{ 1, 1, XPX(SPX), "1_xcc_nps1" },
	{ 12, 4, XPX(QPX) | XPX(CPX), "12_xcc_nps4" },
	{ 12, 3, XPX(TPX), "12_xcc_3_parts" },
};

static void modes_case_desc(const struct modes_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(modes, modes_cases, modes_case_desc);

static void compute_modes_are_amdgpus_for_the_memory_mode(struct kunit *test)
{
	const struct modes_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, amdx_amdgpu_compute_modes(c->num_xcc,
							c->num_mem_partitions),
			c->modes);
}

/* Never a mode amdx's own model refuses for the model with that many XCCs. */
static void compute_modes_within_amdx_model(struct kunit *test)
{
	static const u32 nps[] = {
		AMDX_MEMORY_NPS1, AMDX_MEMORY_NPS2, AMDX_MEMORY_NPS4,
	};
	struct amdx_partition_topology topo;
	u32 model, i, mode, modes;

	for (model = AMDX_MODEL_MI300X; model <= AMDX_MODEL_MI308X; model++) {
		KUNIT_ASSERT_EQ(test, amdx_partition_compute_topology(model, AMDX_COMPUTE_SPX,
								      AMDX_MEMORY_NPS1,
								      &topo), 0);
		for (i = 0; i < ARRAY_SIZE(nps); i++) {
			/* An APU's NPS4 is 3 memory partitions in amdgpu. */
			u32 nmp = nps[i] == AMDX_MEMORY_NPS4 &&
				  model == AMDX_MODEL_MI300A ? 3 :
				  nps[i] == AMDX_MEMORY_NPS4 ? 4 :
				  nps[i] == AMDX_MEMORY_NPS2 ? 2 : 1;

			modes = amdx_amdgpu_compute_modes(topo.num_xcc, nmp);
			for (mode = AMDX_COMPUTE_SPX; mode <= AMDX_COMPUTE_CPX; mode++) {
				if (!(modes & BIT(mode)))
					continue;
				KUNIT_EXPECT_TRUE_MSG(test, amdx_partition_compute_modes(model) &
						      BIT(mode),
						      "model %u mode %u", model, mode);
			}
		}
	}
}

/* amdgpu's attribution and amdx's partition model agree on every model. */
static void xcc_partition_agrees_with_amdx_model(struct kunit *test)
{
	struct amdx_partition_topology topo;
	u32 model, mode, x;
	int p;

	for (model = AMDX_MODEL_MI300X; model <= AMDX_MODEL_MI308X; model++) {
		for (mode = AMDX_COMPUTE_SPX; mode <= AMDX_COMPUTE_CPX; mode++) {
			if (!(amdx_partition_compute_modes(model) & BIT(mode)))
				continue;
			KUNIT_ASSERT_EQ(test, amdx_partition_compute_topology(model, mode,
									      AMDX_MEMORY_NPS1,
									      &topo), 0);
			KUNIT_EXPECT_EQ(test, amdx_amdgpu_num_partitions(mode, topo.num_xcc),
					topo.num_compute);
			for (x = 0; x < topo.num_xcc; x++) {
				p = amdx_amdgpu_xcc_partition(mode, topo.num_xcc, x);
				KUNIT_ASSERT_GE(test, p, 0);
				KUNIT_EXPECT_TRUE_MSG(test, topo.xcc_mask[p] & BIT(x),
						      "model %u mode %u xcc %u", model, mode, x);
			}
		}
	}
}

struct model_case {
	u16 pci_device;
	u32 num_xcc;
	u32 model;
	const char *name;
};

static const struct model_case model_cases[] = {
	{ 0x74a1, 8, AMDX_MODEL_MI300X, "mi300x" },
	{ 0x74a9, 8, AMDX_MODEL_MI300X, "mi300x_hf" },
	{ 0x74bd, 8, AMDX_MODEL_MI300X, "mi300x_hf2" },
	{ 0x74a0, 6, AMDX_MODEL_MI300A, "mi300a" },
	{ 0x74a2, 4, AMDX_MODEL_MI308X, "mi308x" },
	/* 8 XCCs, but not an MI300X. */
	{ 0x74a5, 8, AMDX_MODEL_UNKNOWN, "mi325x" },
	{ 0x74b5, 8, AMDX_MODEL_UNKNOWN, "mi300x_vf" },
	{ 0x74b9, 8, AMDX_MODEL_UNKNOWN, "mi325x_vf" },
	{ 0x0000, 8, AMDX_MODEL_UNKNOWN, "id_0_8_xcc" },
	{ 0xffff, 4, AMDX_MODEL_UNKNOWN, "id_ffff_4_xcc" },
	{ 0x74a0, 8, AMDX_MODEL_UNKNOWN, "mi300a_id_8_xcc" },
	/* The id says MI300X, the XCCs do not: no model. */
	{ 0x74a1, 4, AMDX_MODEL_UNKNOWN, "mi300x_id_4_xcc" },
	{ 0x74a1, 6, AMDX_MODEL_UNKNOWN, "mi300x_id_6_xcc" },
	{ 0x74a2, 8, AMDX_MODEL_UNKNOWN, "mi308x_id_8_xcc" },
	{ 0x74a1, 0, AMDX_MODEL_UNKNOWN, "mi300x_id_0_xcc" },
};

static void model_case_desc(const struct model_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(model, model_cases, model_case_desc);

static void model_comes_from_the_pci_id(struct kunit *test)
{
	const struct model_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, amdx_amdgpu_model(c->pci_device, c->num_xcc),
			c->model);
}

static struct kunit_case amdx_amdgpu_xlate_test_cases[] = {
	KUNIT_CASE_PARAM(compute_from_amdgpu_maps_every_value,
			 compute_from_gen_params),
	KUNIT_CASE_PARAM(compute_to_amdgpu_maps_every_value,
			 compute_to_gen_params),
	KUNIT_CASE(compute_round_trips),
	KUNIT_CASE_PARAM(memory_from_amdgpu_maps_every_value,
			 memory_from_gen_params),
	KUNIT_CASE_PARAM(memory_to_amdgpu_maps_every_value,
			 memory_to_gen_params),
	KUNIT_CASE(memory_round_trips),
	KUNIT_CASE_PARAM(ras_block_from_amdgpu_maps_every_value,
			 block_from_gen_params),
	KUNIT_CASE_PARAM(ras_block_to_amdgpu_maps_every_value,
			 block_to_gen_params),
	KUNIT_CASE(ras_block_round_trips_and_twelve_have_none),
	KUNIT_CASE(ras_type_from_amdgpu_maps_every_mask),
	KUNIT_CASE(driver_event_type_maps_every_value),
	KUNIT_CASE(ras_type_to_amdgpu_and_back),
	KUNIT_CASE(ras_types_are_mi300s_aca_masks),
	KUNIT_CASE(ras_counts_land_on_their_type),
	KUNIT_CASE(eeprom_record_layout_is_amdgpus),
	KUNIT_CASE(badpage_from_amdgpu_converts_page_and_cause),
	KUNIT_CASE_PARAM(badpage_from_amdgpu_finds_memory_partition,
			 part_gen_params),
	KUNIT_CASE_PARAM(mem_partition_follows_amdgpus_ranges,
			 range_gen_params),
	KUNIT_CASE_PARAM(badpage_from_amdgpu_takes_partition_from_ranges,
			 range_gen_params),
	KUNIT_CASE(badpage_from_amdgpu_refuses_bad_input),
	KUNIT_CASE(badpage_to_amdgpu_converts_page_and_cause),
	KUNIT_CASE(badpage_to_amdgpu_refuses_bad_input),
	KUNIT_CASE(badpage_round_trips),
	KUNIT_CASE_PARAM(xcc_partition_follows_the_table, xcc_gen_params),
	KUNIT_CASE(xcc_partition_agrees_with_amdx_model),
	KUNIT_CASE_PARAM(compute_modes_are_amdgpus_for_the_memory_mode,
			 modes_gen_params),
	KUNIT_CASE(compute_modes_within_amdx_model),
	KUNIT_CASE_PARAM(model_comes_from_the_pci_id, model_gen_params),
	{}
};

static struct kunit_suite amdx_amdgpu_xlate_test_suite = {
	.name = "amdx_amdgpu_xlate",
	.test_cases = amdx_amdgpu_xlate_test_cases,
};

kunit_test_suite(amdx_amdgpu_xlate_test_suite);
