// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: KUnit tests of the baseline recovery policies
 *
 * Suite ``amdx_recovery_policy``: for every fault kind, amdx keeps the
 * ladder's choice, amdgpu-6.12 takes its row of the table in
 * amdx_recovery_policy.c and per-gpu resets the GPU (an uncorrectable
 * error in HBM nothing consumed too); and over every policy, fault kind
 * (that one too), device and target of a CPX hive with VFs, a device
 * on its own and a hive without hive reset, a baseline's action is never
 * cheaper than amdx's, always suffices, is one the device can carry out
 * (node and rma aside), and its scope never takes fewer devices,
 * partitions or processes than amdx's.
 */
#include <kunit/test.h>

#include "amdx_recovery_model.h"
#include "amdx_recovery_policy.h"

#define ALL		AMDX_RAS_PARTITION_ALL
#define NOVF		0xffffffffU
#define FULL_CAPS	(AMDX_RECOVER_CAP_QUEUE | AMDX_RECOVER_CAP_PIPE | \
			 AMDX_RECOVER_CAP_PARTITION | AMDX_RECOVER_CAP_VF | \
			 AMDX_RECOVER_CAP_DEVICE | AMDX_RECOVER_CAP_HIVE)

/*
 * @n MI300X of one hive (@hive 0: none), @parts partitions, 2 processes
 * each, device 0 with 2 VFs holding partitions 0 and 1 when @parts > 1.
 */
static struct amdx_recovery_topo *topo_of(struct kunit *test, u32 n,
					  u32 parts, u64 hive, u32 caps)
{
	struct amdx_recovery_topo *t = kunit_kzalloc(test, sizeof(*t),
						     GFP_KERNEL);
	u32 i, p;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->num = n;
	t->node_reboot_ms = 1800000;
	for (i = 0; i < n; i++) {
		struct amdx_recovery_dev *d = &t->dev[i];

		d->hive = hive;
		d->caps = hive ? caps : caps & ~AMDX_RECOVER_CAP_HIVE;
		d->reset_takes_hive = !!hive;
		d->num_partitions = parts;
		for (p = 0; p < parts; p++)
			d->procs[p] = 2;
		d->est_ms[AMDX_RECOVER_QUEUE] = 10;
		d->est_ms[AMDX_RECOVER_PARTITION] = 400;
		d->est_ms[AMDX_RECOVER_VF] = 600;
		d->est_ms[AMDX_RECOVER_DEVICE] = 3000;
		d->est_ms[AMDX_RECOVER_HIVE] = 5000;
	}
	if (parts > 1) {
		t->dev[0].num_vfs = 2;
		t->dev[0].vf_partitions[0] = BIT(0);
		t->dev[0].vf_partitions[1] = BIT(1);
	}
	KUNIT_ASSERT_EQ(test, amdx_recovery_topo_check(t), 0);
	return t;
}

static u32 mapped(struct kunit *test, u32 policy,
		  const struct amdx_recovery_topo *t, u32 kind, u32 dev,
		  u32 part, u32 vf)
{
	struct amdx_recovery_fault f = {
		.kind = kind, .device = dev, .partition = part, .vf = vf,
	};
	u32 a = ~0U;

	KUNIT_ASSERT_EQ(test, amdx_recovery_choose(t, &f, &a), 0);
	return amdx_recovery_policy_map(policy, t, &f, a);
}

/* Per fault kind, its target on device 0 of topo_of(8, 8, hive). */
static const u32 target_part[AMDX_FAULT_COUNT] = {
	[AMDX_FAULT_PAGE_CE] = 3,
	[AMDX_FAULT_POISON_CONSUMED] = 3,
	[AMDX_FAULT_QUEUE_HANG] = 3,
	[AMDX_FAULT_ENGINE_UE] = 3,
	[AMDX_FAULT_VF_HANG] = ALL,
	[AMDX_FAULT_DEVICE_UE] = ALL,
	[AMDX_FAULT_FIRMWARE] = ALL,
	[AMDX_FAULT_FABRIC] = ALL,
	[AMDX_FAULT_RESET_FAILED] = ALL,
	[AMDX_FAULT_BOARD] = ALL,
};

static void golden_rows(struct kunit *test)
{
	static const u32 want[AMDX_RECOVERY_POLICY_COUNT][AMDX_FAULT_COUNT] = {
		[AMDX_RECOVERY_POLICY_AMDX] = {
			AMDX_RECOVER_NONE, AMDX_RECOVER_PROCESS,
			AMDX_RECOVER_QUEUE, AMDX_RECOVER_PARTITION,
			AMDX_RECOVER_VF, AMDX_RECOVER_DEVICE,
			AMDX_RECOVER_DEVICE, AMDX_RECOVER_HIVE,
			AMDX_RECOVER_NODE, AMDX_RECOVER_RMA,
		},
		/* amdx_recovery_policy.c's table, row by row */
		[AMDX_RECOVERY_POLICY_AMDGPU] = {
			AMDX_RECOVER_NONE, AMDX_RECOVER_HIVE,
			AMDX_RECOVER_QUEUE, AMDX_RECOVER_HIVE,
			AMDX_RECOVER_VF, AMDX_RECOVER_HIVE,
			AMDX_RECOVER_HIVE, AMDX_RECOVER_HIVE,
			AMDX_RECOVER_NODE, AMDX_RECOVER_RMA,
		},
		[AMDX_RECOVERY_POLICY_PER_GPU] = {
			AMDX_RECOVER_NONE, AMDX_RECOVER_DEVICE,
			AMDX_RECOVER_DEVICE, AMDX_RECOVER_DEVICE,
			AMDX_RECOVER_DEVICE, AMDX_RECOVER_DEVICE,
			AMDX_RECOVER_DEVICE, AMDX_RECOVER_HIVE,
			AMDX_RECOVER_NODE, AMDX_RECOVER_RMA,
		},
	};
	struct amdx_recovery_topo *t = topo_of(test, 8, 8, 0x4000, FULL_CAPS);
	u32 p, k;

	for (p = 0; p < AMDX_RECOVERY_POLICY_COUNT; p++)
		for (k = 0; k < AMDX_FAULT_COUNT; k++)
			KUNIT_EXPECT_EQ_MSG(test,
					    mapped(test, p, t, k, 0,
						   target_part[k], 0),
					    want[p][k], "%s %s",
					    amdx_recovery_policy_name(p),
					    amdx_recovery_fault_name(k));
}

/* Outside a hive amdgpu's GPU reset is the device's. */
static void amdgpu_alone_resets_the_device(struct kunit *test)
{
	struct amdx_recovery_topo *t = topo_of(test, 1, 8, 0, FULL_CAPS);

	KUNIT_EXPECT_EQ(test, mapped(test, AMDX_RECOVERY_POLICY_AMDGPU, t,
				     AMDX_FAULT_ENGINE_UE, 0, 5, NOVF),
			AMDX_RECOVER_DEVICE);
	KUNIT_EXPECT_EQ(test, mapped(test, AMDX_RECOVERY_POLICY_AMDGPU, t,
				     AMDX_FAULT_POISON_CONSUMED, 0, 5, NOVF),
			AMDX_RECOVER_DEVICE);
	/* no queue reset: a hung queue costs amdgpu the GPU */
	t->dev[0].caps &= ~AMDX_RECOVER_CAP_QUEUE;
	KUNIT_EXPECT_EQ(test, mapped(test, AMDX_RECOVERY_POLICY_AMDGPU, t,
				     AMDX_FAULT_QUEUE_HANG, 0, 5, NOVF),
			AMDX_RECOVER_DEVICE);
	/* no device reset: per-gpu takes the next rung the device has */
	t->dev[0].caps = AMDX_RECOVER_CAP_PARTITION;
	KUNIT_EXPECT_EQ(test, mapped(test, AMDX_RECOVERY_POLICY_PER_GPU, t,
				     AMDX_FAULT_ENGINE_UE, 0, 5, NOVF),
			AMDX_RECOVER_NODE);
}

static void names_and_unknown(struct kunit *test)
{
	struct amdx_recovery_topo *t = topo_of(test, 2, 8, 0x4000, FULL_CAPS);
	struct amdx_recovery_fault f = {
		.kind = AMDX_FAULT_ENGINE_UE, .device = 1, .partition = 2,
	};

	KUNIT_EXPECT_STREQ(test, amdx_recovery_policy_name(0), "amdx");
	KUNIT_EXPECT_STREQ(test, amdx_recovery_policy_name(1), "amdgpu-6.12");
	KUNIT_EXPECT_STREQ(test, amdx_recovery_policy_name(2), "per-gpu");
	KUNIT_EXPECT_STREQ(test,
			   amdx_recovery_policy_name(AMDX_RECOVERY_POLICY_COUNT),
			   "?");
	/* an unknown policy is amdx's */
	KUNIT_EXPECT_EQ(test, amdx_recovery_policy_map(77, t, &f,
						       AMDX_RECOVER_PARTITION),
			AMDX_RECOVER_PARTITION);
}

/* Every baseline costs at least amdx's choice, in every count. */
static u32 sweep_fault(struct kunit *test, const struct amdx_recovery_topo *t,
		       const struct amdx_recovery_fault *f,
		       struct amdx_recovery_scope *sa,
		       struct amdx_recovery_scope *sb)
{
	u32 p, a, b;

	if (amdx_recovery_choose(t, f, &a))
		return 0;
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, f, a, sa), 0);
	for (p = 0; p < AMDX_RECOVERY_POLICY_COUNT; p++) {
		b = amdx_recovery_policy_map(p, t, f, a);
		KUNIT_EXPECT_GE(test, b, a);
		KUNIT_EXPECT_TRUE(test, amdx_recovery_suffices(t, f, b));
		if (b < AMDX_RECOVER_NODE)
			KUNIT_EXPECT_TRUE(test, amdx_recovery_can(t, f->device, b));
		if (p == AMDX_RECOVERY_POLICY_AMDX)
			KUNIT_EXPECT_EQ(test, b, a);
		KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, f, b, sb), 0);
		KUNIT_EXPECT_GE(test, sb->num_devices, sa->num_devices);
		KUNIT_EXPECT_GE(test, sb->num_partitions, sa->num_partitions);
		KUNIT_EXPECT_GE(test, sb->num_processes, sa->num_processes);
		KUNIT_EXPECT_EQ(test, sb->devices & sa->devices, sa->devices);
	}
	return p;
}

/* Every fault kind on every device and target (each partition, none). */
static u32 sweep_topo(struct kunit *test, const struct amdx_recovery_topo *t,
		      struct amdx_recovery_scope *sa,
		      struct amdx_recovery_scope *sb)
{
	struct amdx_recovery_fault f = {};
	u32 runs = 0, k, d, part;

	/* k == AMDX_FAULT_COUNT: an uncorrected page_ce */
	for (k = 0; k <= AMDX_FAULT_COUNT; k++) {
		for (d = 0; d < t->num; d++) {
			for (part = 0; part <= t->dev[d].num_partitions;
			     part++) {
				f.kind = k < AMDX_FAULT_COUNT ? k :
					 AMDX_FAULT_PAGE_CE;
				f.uncorrected = k == AMDX_FAULT_COUNT;
				f.device = d;
				f.partition = part == t->dev[d].num_partitions ?
					      ALL : part;
				runs += sweep_fault(test, t, &f, sa, sb);
			}
		}
	}
	return runs;
}

static void baselines_never_cost_less(struct kunit *test)
{
	struct amdx_recovery_scope *sa, *sb;
	u32 runs = 0;

	sa = kunit_kzalloc(test, sizeof(*sa), GFP_KERNEL);
	sb = kunit_kzalloc(test, sizeof(*sb), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sa);
	KUNIT_ASSERT_NOT_NULL(test, sb);
	runs += sweep_topo(test, topo_of(test, 8, 8, 0x4000, FULL_CAPS),
			   sa, sb);
	runs += sweep_topo(test, topo_of(test, 4, 1, 0x4001, FULL_CAPS),
			   sa, sb);
	runs += sweep_topo(test, topo_of(test, 1, 4, 0, FULL_CAPS), sa, sb);
	runs += sweep_topo(test, topo_of(test, 4, 8, 0x4002,
					 FULL_CAPS & ~AMDX_RECOVER_CAP_HIVE),
			   sa, sb);
	kunit_info(test, "%u mapped faults", runs);
	KUNIT_EXPECT_GT(test, runs, 2000);
}

/*
 * A link's uncorrected error: amdx's answer is the link's containment (no
 * fault); the baselines see amdgpu's xgmi_wafl UE, a fabric fault.
 */
static void link_ue_by_policy(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test,
			amdx_recovery_policy_link_fault(AMDX_RECOVERY_POLICY_AMDX),
			AMDX_FAULT_COUNT);
	KUNIT_EXPECT_EQ(test,
			amdx_recovery_policy_link_fault(AMDX_RECOVERY_POLICY_AMDGPU),
			AMDX_FAULT_FABRIC);
	KUNIT_EXPECT_EQ(test,
			amdx_recovery_policy_link_fault(AMDX_RECOVERY_POLICY_PER_GPU),
			AMDX_FAULT_FABRIC);
	KUNIT_EXPECT_EQ(test,
			amdx_recovery_policy_link_fault(AMDX_RECOVERY_POLICY_COUNT),
			AMDX_FAULT_COUNT);
}

/*
 * An uncorrectable error in HBM nothing consumed (a deferred error: a
 * poison created; a page_ce fault, uncorrected): amdx and amdgpu-6.12
 * retire the page and nothing else, per-gpu resets the device (NVML's
 * row remap pending after an uncorrectable memory error); a corrected
 * error stays nothing under every policy.  On a partition's memory and
 * on memory no one partition owns.
 */
static void hbm_ue_not_consumed_by_policy(struct kunit *test)
{
	static const u32 want[AMDX_RECOVERY_POLICY_COUNT] = {
		[AMDX_RECOVERY_POLICY_AMDX] = AMDX_RECOVER_NONE,
		[AMDX_RECOVERY_POLICY_AMDGPU] = AMDX_RECOVER_NONE,
		[AMDX_RECOVERY_POLICY_PER_GPU] = AMDX_RECOVER_DEVICE,
	};
	struct amdx_recovery_topo *t = topo_of(test, 8, 8, 0x4000, FULL_CAPS);
	struct amdx_recovery_fault f = {
		.kind = AMDX_FAULT_PAGE_CE, .vf = NOVF,
	};
	static const u32 parts[] = { 3, ALL };
	u32 p, i, a;

	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		f.partition = parts[i];
		for (p = 0; p < AMDX_RECOVERY_POLICY_COUNT; p++) {
			f.uncorrected = true;
			KUNIT_ASSERT_EQ(test, amdx_recovery_choose(t, &f, &a), 0);
			KUNIT_EXPECT_EQ(test, a, AMDX_RECOVER_NONE);
			KUNIT_EXPECT_EQ_MSG(test,
					    amdx_recovery_policy_map(p, t, &f, a),
					    want[p], "%s, partition %u",
					    amdx_recovery_policy_name(p),
					    parts[i]);
			f.uncorrected = false;
			KUNIT_EXPECT_EQ_MSG(test,
					    amdx_recovery_policy_map(p, t, &f, a),
					    AMDX_RECOVER_NONE, "%s, corrected",
					    amdx_recovery_policy_name(p));
		}
	}
}

static struct kunit_case amdx_recovery_policy_cases[] = {
	KUNIT_CASE(golden_rows),
	KUNIT_CASE(amdgpu_alone_resets_the_device),
	KUNIT_CASE(names_and_unknown),
	KUNIT_CASE(baselines_never_cost_less),
	KUNIT_CASE(link_ue_by_policy),
	KUNIT_CASE(hbm_ue_not_consumed_by_policy),
	{}
};

static struct kunit_suite amdx_recovery_policy_suite = {
	.name = "amdx_recovery_policy",
	.test_cases = amdx_recovery_policy_cases,
};

kunit_test_suite(amdx_recovery_policy_suite);
