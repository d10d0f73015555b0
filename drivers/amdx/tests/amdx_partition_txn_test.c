// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The partition transaction engine (amdx_partition.c) against a fake
 * provider: every step failing in turn rolls back to exactly the state
 * before, provider ops failing roll back what ran before them, refusals
 * change nothing, and the RAS interface on the partition objects.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/amdx.h>

#include <amdx/amdx_provider.h>

#include "amdx_core.h"
#include "amdx_kunit_fake.h"
#include "amdx_partition.h"

#define TXN_VRAM	BIT_ULL(30)
/* A QUERY_PARTITIONS result with room for every partition. */
#define TXN_QSIZE	(sizeof(struct amdx_query_partitions) + \
			 AMDX_MAX_PARTITIONS * sizeof(struct amdx_partition_info))

/* Which provider op fails (besides partition_step). */
enum txn_fail_op {
	TXN_OK,
	TXN_FAIL_COMPUTE,
	TXN_FAIL_MEMORY,
};

struct txn_fake {
	u32 compute;
	u32 memory;
	u32 fail_step;
	enum txn_fail_op fail_op;
	u32 steps_seen;
	int compute_calls;
	int memory_calls;
	int part_resets;
};

struct txn_ctx {
	struct txn_fake fake;
	struct amdx_device *adev;
	struct amdx_query_partitions *before;
	struct amdx_query_partitions *after;
};

static u32 txn_nps(u32 mode)
{
	return mode == AMDX_MEMORY_NPS4 ? 4 : mode == AMDX_MEMORY_NPS2 ? 2 : 1;
}

static int txn_get_state(struct amdx_device *adev, struct amdx_device_state *st)
{
	struct txn_fake *f = amdx_device_priv(adev);
	u32 i, n = txn_nps(f->memory);

	st->compute_mode = f->compute;
	st->memory_mode = f->memory;
	st->num_mem_partitions = n;
	for (i = 0; i < n; i++) {
		st->mem[i].base = TXN_VRAM / n * i;
		st->mem[i].size = TXN_VRAM / n;
		st->mem[i].free = TXN_VRAM / n;
	}
	return 0;
}

static int txn_partition_step(struct amdx_device *adev, u32 step)
{
	struct txn_fake *f = amdx_device_priv(adev);

	f->steps_seen |= BIT(step);
	return step == f->fail_step ? -EIO : 0;
}

static int txn_set_compute(struct amdx_device *adev, u32 mode)
{
	struct txn_fake *f = amdx_device_priv(adev);

	f->compute_calls++;
	if (f->fail_op == TXN_FAIL_COMPUTE)
		return -EREMOTEIO;
	f->compute = mode;
	return 0;
}

static int txn_set_memory(struct amdx_device *adev, u32 mode)
{
	struct txn_fake *f = amdx_device_priv(adev);

	f->memory_calls++;
	if (f->fail_op == TXN_FAIL_MEMORY)
		return -EBUSY;
	f->memory = mode;
	return 0;
}

static int txn_partition_reset(struct amdx_device *adev, u32 part)
{
	struct txn_fake *f = amdx_device_priv(adev);

	f->part_resets++;
	return 0;
}

static const struct amdx_provider_ops txn_ops = {
	.get_state = txn_get_state,
	.partition_step = txn_partition_step,
	.set_compute_mode = txn_set_compute,
	.set_memory_mode = txn_set_memory,
	.partition_reset = txn_partition_reset,
};

static int txn_init(struct kunit *test)
{
	struct amdx_device_desc desc = amdx_kunit_desc("0000:ef:00.0",
						       "KUNITTXN");
	struct txn_ctx *c;

	desc.model = AMDX_MODEL_MI300X;
	desc.vram_size = TXN_VRAM;
	desc.num_xcc = 8;
	desc.num_sdma = 16;
	desc.num_vcn = 4;
	desc.supported_compute_modes = BIT(AMDX_COMPUTE_SPX) |
				       BIT(AMDX_COMPUTE_DPX) |
				       BIT(AMDX_COMPUTE_QPX) |
				       BIT(AMDX_COMPUTE_CPX);
	/* NPS2: the model's, not declared by this device */
	desc.supported_memory_modes = BIT(AMDX_MEMORY_NPS1) |
				      BIT(AMDX_MEMORY_NPS4);

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->before = kunit_kzalloc(test, TXN_QSIZE, GFP_KERNEL);
	c->after = kunit_kzalloc(test, TXN_QSIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->before);
	KUNIT_ASSERT_NOT_NULL(test, c->after);
	c->fake.compute = AMDX_COMPUTE_SPX;
	c->fake.memory = AMDX_MEMORY_NPS1;
	c->adev = amdx_kunit_register(test, &desc, &txn_ops, &c->fake);
	test->priv = c;
	return 0;
}

/* PLAN or COMMIT as the ioctl path does it: device lock held for read. */
static int txn_run(struct txn_ctx *c, struct amdx_partition_config *cfg,
		   bool commit)
{
	int ret;

	down_read(&c->adev->lock);
	ret = amdx_partition_run(c->adev, cfg, commit);
	up_read(&c->adev->lock);
	return ret;
}

static int txn_set_state(struct txn_ctx *c, u32 part, u32 state)
{
	return amdx_partition_set_state(c->adev, part, state);
}

static int txn_of(struct txn_ctx *c, u32 block, u32 instance, u32 *part)
{
	return amdx_partition_of_instance(c->adev, block, instance, part);
}

static void txn_snapshot(struct txn_ctx *c, struct amdx_query_partitions *q)
{
	memset(q, 0, TXN_QSIZE);
	amdx_partition_fill(c->adev, q, AMDX_MAX_PARTITIONS);
}

static const u32 txn_steps[] = {
	AMDX_PART_STEP_VALIDATE, AMDX_PART_STEP_QUIESCE, AMDX_PART_STEP_DRAIN,
	AMDX_PART_STEP_COMPUTE, AMDX_PART_STEP_MEMORY, AMDX_PART_STEP_REBUILD,
	AMDX_PART_STEP_RESUME,
};

static void txn_step_desc(const u32 *step, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "step %u", *step);
}

KUNIT_ARRAY_PARAM(txn_step, txn_steps, txn_step_desc);

static void txn_failing_step_rolls_back_exactly(struct kunit *test)
{
	u32 step = *(const u32 *)test->param_value;
	struct txn_ctx *c = test->priv;
	struct amdx_partition_config cfg = {
		.compute_mode = AMDX_COMPUTE_CPX,
		.memory_mode = AMDX_MEMORY_NPS4,
		.flags = AMDX_PART_F_DRAIN,
	};
	u32 i;

	/* Partition state the rollback must bring back too. */
	KUNIT_ASSERT_EQ(test, amdx_partition_reset(c->adev, 0), 0);
	txn_snapshot(c, c->before);
	c->fake.fail_step = step;

	KUNIT_EXPECT_EQ(test, txn_run(c, &cfg, true), -EIO);
	KUNIT_EXPECT_EQ(test, cfg.outcome, AMDX_PART_OUTCOME_ROLLED_BACK);
	KUNIT_EXPECT_EQ(test, cfg.failed_step, step);
	KUNIT_ASSERT_EQ(test, cfg.num_steps, step);
	for (i = 0; i < step; i++) {
		KUNIT_EXPECT_EQ(test, cfg.steps[i].step, txn_steps[i]);
		KUNIT_EXPECT_EQ(test, cfg.steps[i].error, i + 1 == step ? -EIO : 0);
	}
	txn_snapshot(c, c->after);
	KUNIT_EXPECT_EQ(test, memcmp(c->before, c->after, TXN_QSIZE), 0);
	KUNIT_EXPECT_EQ(test, c->after->generation, 0);
	KUNIT_EXPECT_EQ(test, c->after->partitions[0].resets, 1);
	KUNIT_EXPECT_EQ(test, c->fake.compute, AMDX_COMPUTE_SPX);
	KUNIT_EXPECT_EQ(test, c->fake.memory, AMDX_MEMORY_NPS1);
	/* Switched and switched back, or never switched. */
	KUNIT_EXPECT_EQ(test, c->fake.compute_calls,
			step > AMDX_PART_STEP_COMPUTE ? 2 : 0);
	KUNIT_EXPECT_EQ(test, c->fake.memory_calls,
			step > AMDX_PART_STEP_MEMORY ? 2 : 0);

	/* The same commit then goes through. */
	c->fake.fail_step = 0;
	KUNIT_EXPECT_EQ(test, txn_run(c, &cfg, true), 0);
	KUNIT_EXPECT_EQ(test, cfg.outcome, AMDX_PART_OUTCOME_COMMITTED);
	KUNIT_EXPECT_EQ(test, cfg.failed_step, 0);
	KUNIT_EXPECT_EQ(test, cfg.num_steps, ARRAY_SIZE(txn_steps));
	KUNIT_EXPECT_EQ(test, cfg.num_partitions, 8);
	txn_snapshot(c, c->after);
	KUNIT_EXPECT_EQ(test, c->after->generation, 1);
	KUNIT_EXPECT_EQ(test, c->after->num_partitions, 8);
	KUNIT_EXPECT_EQ(test, c->after->compute_mode, AMDX_COMPUTE_CPX);
	KUNIT_EXPECT_EQ(test, c->after->memory_mode, AMDX_MEMORY_NPS4);
	KUNIT_EXPECT_EQ(test, c->after->partitions[0].resets, 0);
	KUNIT_EXPECT_EQ(test, c->fake.compute, AMDX_COMPUTE_CPX);
	KUNIT_EXPECT_EQ(test, c->fake.memory, AMDX_MEMORY_NPS4);
}

static void txn_failing_memory_op_restores_compute(struct kunit *test)
{
	struct txn_ctx *c = test->priv;
	struct amdx_partition_config cfg = {
		.compute_mode = AMDX_COMPUTE_CPX,
		.memory_mode = AMDX_MEMORY_NPS4,
	};

	txn_snapshot(c, c->before);
	c->fake.fail_op = TXN_FAIL_MEMORY;
	KUNIT_EXPECT_EQ(test, txn_run(c, &cfg, true), -EBUSY);
	KUNIT_EXPECT_EQ(test, cfg.outcome, AMDX_PART_OUTCOME_ROLLED_BACK);
	KUNIT_EXPECT_EQ(test, cfg.failed_step, AMDX_PART_STEP_MEMORY);
	/* No drain asked: VALIDATE, QUIESCE, COMPUTE, MEMORY. */
	KUNIT_EXPECT_EQ(test, cfg.num_steps, 4);
	KUNIT_EXPECT_EQ(test, c->fake.compute, AMDX_COMPUTE_SPX);
	KUNIT_EXPECT_EQ(test, c->fake.compute_calls, 2);
	KUNIT_EXPECT_EQ(test, c->fake.memory_calls, 1);
	txn_snapshot(c, c->after);
	KUNIT_EXPECT_EQ(test, memcmp(c->before, c->after, TXN_QSIZE), 0);
}

static void txn_failing_compute_op_changes_nothing(struct kunit *test)
{
	struct txn_ctx *c = test->priv;
	struct amdx_partition_config cfg = {
		.compute_mode = AMDX_COMPUTE_CPX,
	};

	txn_snapshot(c, c->before);
	c->fake.fail_op = TXN_FAIL_COMPUTE;
	KUNIT_EXPECT_EQ(test, txn_run(c, &cfg, true), -EREMOTEIO);
	KUNIT_EXPECT_EQ(test, cfg.failed_step, AMDX_PART_STEP_COMPUTE);
	KUNIT_EXPECT_EQ(test, c->fake.compute_calls, 1);
	KUNIT_EXPECT_EQ(test, c->fake.memory_calls, 0);
	txn_snapshot(c, c->after);
	KUNIT_EXPECT_EQ(test, memcmp(c->before, c->after, TXN_QSIZE), 0);
}

static void txn_compute_only_change_skips_drain_and_memory(struct kunit *test)
{
	struct txn_ctx *c = test->priv;
	struct amdx_partition_config cfg = {
		.compute_mode = AMDX_COMPUTE_CPX,
		.flags = AMDX_PART_F_DRAIN,
	};

	KUNIT_ASSERT_EQ(test, txn_run(c, &cfg, true), 0);
	KUNIT_EXPECT_EQ(test, cfg.outcome, AMDX_PART_OUTCOME_COMMITTED);
	KUNIT_ASSERT_EQ(test, cfg.num_steps, 5);
	KUNIT_EXPECT_EQ(test, cfg.steps[0].step, AMDX_PART_STEP_VALIDATE);
	KUNIT_EXPECT_EQ(test, cfg.steps[1].step, AMDX_PART_STEP_QUIESCE);
	KUNIT_EXPECT_EQ(test, cfg.steps[2].step, AMDX_PART_STEP_COMPUTE);
	KUNIT_EXPECT_EQ(test, cfg.steps[3].step, AMDX_PART_STEP_REBUILD);
	KUNIT_EXPECT_EQ(test, cfg.steps[4].step, AMDX_PART_STEP_RESUME);
	KUNIT_EXPECT_EQ(test, c->fake.steps_seen & BIT(AMDX_PART_STEP_DRAIN),
			0);
	KUNIT_EXPECT_EQ(test, c->fake.memory_calls, 0);
	KUNIT_EXPECT_EQ(test, cfg.num_devices, 1);
}

static void txn_same_config_is_unchanged(struct kunit *test)
{
	struct txn_ctx *c = test->priv;
	struct amdx_partition_config cfg = {
		.compute_mode = AMDX_COMPUTE_SPX,
		.memory_mode = AMDX_MEMORY_NPS1,
	};

	txn_snapshot(c, c->before);
	KUNIT_EXPECT_EQ(test, txn_run(c, &cfg, true), 0);
	KUNIT_EXPECT_EQ(test, cfg.outcome, AMDX_PART_OUTCOME_UNCHANGED);
	KUNIT_EXPECT_EQ(test, cfg.num_steps, 0);
	KUNIT_EXPECT_EQ(test, c->fake.steps_seen, 0);
	txn_snapshot(c, c->after);
	KUNIT_EXPECT_EQ(test, c->after->generation, c->before->generation);
}

struct txn_refusal {
	const char *name;
	u32 compute;
	u32 memory;
	u32 reason;
	u32 undeclared;	/* compute modes the device stops declaring */
};

static const struct txn_refusal txn_refusals[] = {
	{ "SPX NPS4 incompatible", AMDX_COMPUTE_SPX, AMDX_MEMORY_NPS4,
	  AMDX_PART_REASON_INCOMPATIBLE },
	{ "TPX not on MI300X", AMDX_COMPUTE_TPX, 0,
	  AMDX_PART_REASON_COMPUTE_UNSUPPORTED },
	{ "NPS8 not on MI300X", AMDX_COMPUTE_CPX, AMDX_MEMORY_NPS8,
	  AMDX_PART_REASON_MEMORY_UNSUPPORTED },
	{ "unknown compute mode", 42, 0,
	  AMDX_PART_REASON_COMPUTE_UNSUPPORTED },
	{ "CPX NPS2 incompatible", AMDX_COMPUTE_CPX, AMDX_MEMORY_NPS2,
	  AMDX_PART_REASON_INCOMPATIBLE },
	{ "DPX not declared by the device", AMDX_COMPUTE_DPX, 0,
	  AMDX_PART_REASON_COMPUTE_UNSUPPORTED, BIT(AMDX_COMPUTE_DPX) },
	{ "NPS2 not declared by the device", AMDX_COMPUTE_DPX,
	  AMDX_MEMORY_NPS2, AMDX_PART_REASON_MEMORY_UNSUPPORTED },
};

static void txn_refusal_desc(const struct txn_refusal *r, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", r->name);
}

KUNIT_ARRAY_PARAM(txn_refusal, txn_refusals, txn_refusal_desc);

static void txn_invalid_config_refused_with_reason(struct kunit *test)
{
	const struct txn_refusal *r = test->param_value;
	struct txn_ctx *c = test->priv;
	struct amdx_partition_config cfg = {
		.compute_mode = r->compute,
		.memory_mode = r->memory,
	};

	c->adev->desc.supported_compute_modes &= ~r->undeclared;
	txn_snapshot(c, c->before);
	KUNIT_EXPECT_EQ(test, txn_run(c, &cfg, false), 0);
	KUNIT_EXPECT_EQ(test, cfg.allowed, 0);
	KUNIT_EXPECT_EQ(test, cfg.reason, r->reason);

	cfg.reason = 0;
	KUNIT_EXPECT_EQ(test, txn_run(c, &cfg, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, cfg.reason, r->reason);
	KUNIT_EXPECT_EQ(test, cfg.outcome, AMDX_PART_OUTCOME_NONE);
	KUNIT_EXPECT_EQ(test, cfg.num_steps, 0);
	KUNIT_EXPECT_EQ(test, c->fake.steps_seen, 0);
	txn_snapshot(c, c->after);
	KUNIT_EXPECT_EQ(test, memcmp(c->before, c->after, TXN_QSIZE), 0);
}

static void txn_malformed_config_einval(struct kunit *test)
{
	struct txn_ctx *c = test->priv;
	struct amdx_partition_config cfg = { .flags = AMDX_PART_F_DRAIN << 1 };

	KUNIT_EXPECT_EQ(test, txn_run(c, &cfg, false), -EINVAL);
	cfg = (struct amdx_partition_config){ .reserved = 1 };
	KUNIT_EXPECT_EQ(test, txn_run(c, &cfg, false), -EINVAL);
	cfg = (struct amdx_partition_config){ .max_holders = 4 };
	KUNIT_EXPECT_EQ(test, txn_run(c, &cfg, true), -EINVAL);
}

static void txn_plan_changes_nothing(struct kunit *test)
{
	struct txn_ctx *c = test->priv;
	struct amdx_partition_config cfg = {
		.compute_mode = AMDX_COMPUTE_CPX,
		.memory_mode = AMDX_MEMORY_NPS4,
	};

	txn_snapshot(c, c->before);
	KUNIT_EXPECT_EQ(test, txn_run(c, &cfg, false), 0);
	KUNIT_EXPECT_EQ(test, cfg.allowed, 1);
	KUNIT_EXPECT_EQ(test, cfg.reason, AMDX_PART_REASON_NONE);
	KUNIT_EXPECT_EQ(test, cfg.num_partitions, 8);
	KUNIT_EXPECT_EQ(test, cfg.num_devices, 1);
	KUNIT_EXPECT_EQ(test, cfg.num_steps, 0);
	KUNIT_EXPECT_EQ(test, c->fake.steps_seen, 0);
	KUNIT_EXPECT_EQ(test, c->fake.compute, AMDX_COMPUTE_SPX);
	txn_snapshot(c, c->after);
	KUNIT_EXPECT_EQ(test, memcmp(c->before, c->after, TXN_QSIZE), 0);
}

static void txn_partition_not_online_refused(struct kunit *test)
{
	struct txn_ctx *c = test->priv;
	struct amdx_partition_config cfg = {
		.compute_mode = AMDX_COMPUTE_CPX,
	};
	u32 state = 0;

	KUNIT_ASSERT_EQ(test, txn_set_state(c, 0, AMDX_PART_STATE_QUARANTINED),
			0);
	KUNIT_EXPECT_EQ(test, amdx_partition_get_state(c->adev, 0, &state), 0);
	KUNIT_EXPECT_EQ(test, state, AMDX_PART_STATE_QUARANTINED);
	KUNIT_EXPECT_EQ(test, txn_run(c, &cfg, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, cfg.reason, AMDX_PART_REASON_PARTITION_STATE);

	/* A partition reset brings it back online, counted. */
	KUNIT_EXPECT_EQ(test, amdx_partition_reset(c->adev, 0), 0);
	KUNIT_EXPECT_EQ(test, c->fake.part_resets, 1);
	KUNIT_EXPECT_EQ(test, amdx_partition_get_state(c->adev, 0, &state), 0);
	KUNIT_EXPECT_EQ(test, state, AMDX_PART_STATE_ONLINE);
	KUNIT_EXPECT_EQ(test, txn_run(c, &cfg, true), 0);
	KUNIT_EXPECT_EQ(test, cfg.outcome, AMDX_PART_OUTCOME_COMMITTED);
}

static void txn_ras_lookups_follow_the_mode(struct kunit *test)
{
	struct txn_ctx *c = test->priv;
	struct amdx_partition_config cfg = {
		.compute_mode = AMDX_COMPUTE_CPX,
		.memory_mode = AMDX_MEMORY_NPS4,
	};
	u32 part = 99, mem = 99;

	KUNIT_EXPECT_EQ(test, txn_of(c, AMDX_RAS_BLOCK_GFX, 5, &part), 0);
	KUNIT_EXPECT_EQ(test, part, 0);
	part = 99;
	KUNIT_EXPECT_EQ(test, amdx_partition_of_vram(c->adev, TXN_VRAM - 1,
						     &mem, &part), 0);
	KUNIT_EXPECT_EQ(test, mem, 0);
	KUNIT_EXPECT_EQ(test, part, 0);

	KUNIT_ASSERT_EQ(test, txn_run(c, &cfg, true), 0);
	KUNIT_EXPECT_EQ(test, txn_of(c, AMDX_RAS_BLOCK_GFX, 5, &part), 0);
	KUNIT_EXPECT_EQ(test, part, 5);
	/* SDMA: two per partition in CPX. */
	KUNIT_EXPECT_EQ(test, txn_of(c, AMDX_RAS_BLOCK_SDMA, 13, &part), 0);
	KUNIT_EXPECT_EQ(test, part, 6);
	KUNIT_EXPECT_EQ(test, txn_of(c, AMDX_RAS_BLOCK_GFX, 8, &part), -EINVAL);
	KUNIT_EXPECT_EQ(test, txn_of(c, AMDX_RAS_BLOCK_UMC, 0, &part), -ENOENT);
	/* CPX/NPS4: 8 compute partitions share 4 memory partitions. */
	KUNIT_EXPECT_EQ(test, amdx_partition_of_vram(c->adev, TXN_VRAM - 1,
						     &mem, &part), 0);
	KUNIT_EXPECT_EQ(test, mem, 3);
	KUNIT_EXPECT_EQ(test, part, AMDX_RAS_PARTITION_ALL);
	KUNIT_EXPECT_EQ(test, amdx_partition_of_vram(c->adev, TXN_VRAM, &mem,
						     &part), -EINVAL);
	/* QPX/NPS4: compute and memory partitions pair 1:1. */
	cfg.compute_mode = AMDX_COMPUTE_QPX;
	KUNIT_ASSERT_EQ(test, txn_run(c, &cfg, true), 0);
	KUNIT_EXPECT_EQ(test, amdx_partition_of_vram(c->adev, TXN_VRAM - 1,
						     &mem, &part), 0);
	KUNIT_EXPECT_EQ(test, mem, 3);
	KUNIT_EXPECT_EQ(test, part, 3);
	KUNIT_EXPECT_EQ(test, txn_of(c, AMDX_RAS_BLOCK_GFX, 5, &part), 0);
	KUNIT_EXPECT_EQ(test, part, 2);
	KUNIT_EXPECT_EQ(test, amdx_partition_set_state(c->adev, 8, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_partition_set_state(c->adev, 0, 3),
			-EINVAL);
}

static void txn_engines_shared_when_scarce(struct kunit *test)
{
	/* MI300X CPX: 8 partitions, 4 VCNs: partitions 2i, 2i+1 share i. */
	KUNIT_EXPECT_EQ(test, amdx_partition_share_mask(4, 8, 0), BIT(0));
	KUNIT_EXPECT_EQ(test, amdx_partition_share_mask(4, 8, 1), BIT(0));
	KUNIT_EXPECT_EQ(test, amdx_partition_share_mask(4, 8, 7), BIT(3));
	/* 16 SDMA over 8: two each; over 1: all. */
	KUNIT_EXPECT_EQ(test, amdx_partition_share_mask(16, 8, 3), 0x00c0);
	KUNIT_EXPECT_EQ(test, amdx_partition_share_mask(16, 1, 0), 0xffff);
	/* MI300A TPX: 12 SDMA over 3. */
	KUNIT_EXPECT_EQ(test, amdx_partition_share_mask(12, 3, 2), 0x0f00);
	KUNIT_EXPECT_EQ(test, amdx_partition_share_mask(4, 8, 8), 0);
	KUNIT_EXPECT_EQ(test, amdx_partition_share_mask(0, 8, 0), 0);
}

static struct kunit_case amdx_partition_txn_cases[] = {
	KUNIT_CASE_PARAM(txn_failing_step_rolls_back_exactly,
			 txn_step_gen_params),
	KUNIT_CASE(txn_failing_memory_op_restores_compute),
	KUNIT_CASE(txn_failing_compute_op_changes_nothing),
	KUNIT_CASE(txn_compute_only_change_skips_drain_and_memory),
	KUNIT_CASE(txn_same_config_is_unchanged),
	KUNIT_CASE_PARAM(txn_invalid_config_refused_with_reason,
			 txn_refusal_gen_params),
	KUNIT_CASE(txn_malformed_config_einval),
	KUNIT_CASE(txn_plan_changes_nothing),
	KUNIT_CASE(txn_partition_not_online_refused),
	KUNIT_CASE(txn_ras_lookups_follow_the_mode),
	KUNIT_CASE(txn_engines_shared_when_scarce),
	{}
};

static struct kunit_suite amdx_partition_txn_suite = {
	.name = "amdx_partition_txn",
	.init = txn_init,
	.test_cases = amdx_partition_txn_cases,
};

kunit_test_suite(amdx_partition_txn_suite);
