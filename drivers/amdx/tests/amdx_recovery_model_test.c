// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: KUnit tests of the recovery model
 *
 * Suite ``amdx_recovery_model``: the action each fault needs; golden
 * MI300X nodes (a CPX hive of 8 with amdgpu's reset capabilities and with
 * partition reset; devices below PCIe switches that reset by secondary bus
 * reset); every escalation chain; invalid topologies and faults; and a
 * sweep over simulated profiles (reset capabilities x compute partitions x
 * hive of 1/4/8 x devices per switch x VFs) in which, for every fault and
 * target, the choice is the cheapest sufficient action the device can do,
 * scopes grow with the ladder, and a device outside the target's hive and
 * switch is never touched below a node reboot.
 */
#include <kunit/test.h>

#include "amdx_recovery_model.h"

#define ALL		AMDX_RAS_PARTITION_ALL
#define AMDGPU_CAPS	(AMDX_RECOVER_CAP_QUEUE | AMDX_RECOVER_CAP_PIPE | \
			 AMDX_RECOVER_CAP_DEVICE | AMDX_RECOVER_CAP_HIVE)

/* @n devices of one hive, @parts partitions each, 2 processes each. */
static struct amdx_recovery_topo *hive_of(struct kunit *test, u32 n,
					  u32 parts, u32 caps, bool coupled)
{
	struct amdx_recovery_topo *t = kunit_kzalloc(test, sizeof(*t),
						     GFP_KERNEL);
	u32 i, p;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->num = n;
	t->node_reboot_ms = 1800000;
	for (i = 0; i < n; i++) {
		struct amdx_recovery_dev *d = &t->dev[i];

		d->hive = 0x4000;
		d->pci_switch = 1 + i;
		d->caps = caps;
		d->reset_takes_hive = coupled;
		d->num_partitions = parts;
		for (p = 0; p < parts; p++)
			d->procs[p] = 2;
		d->procs_device = 1;
		d->est_ms[AMDX_RECOVER_QUEUE] = 10;
		d->est_ms[AMDX_RECOVER_PIPE] = 50;
		d->est_ms[AMDX_RECOVER_PARTITION] = 400;
		d->est_ms[AMDX_RECOVER_VF] = 600;
		d->est_ms[AMDX_RECOVER_DEVICE] = 3000 + i;
		d->est_ms[AMDX_RECOVER_HIVE] = 5000 + i;
	}
	KUNIT_ASSERT_EQ(test, amdx_recovery_topo_check(t), 0);
	return t;
}

static u32 choose(struct kunit *test, const struct amdx_recovery_topo *t,
		  u32 kind, u32 dev, u32 part, u32 vf)
{
	struct amdx_recovery_fault f = {
		.kind = kind, .device = dev, .partition = part, .vf = vf,
	};
	u32 a = ~0U;

	KUNIT_ASSERT_EQ(test, amdx_recovery_choose(t, &f, &a), 0);
	return a;
}

static void need_follows_the_table(struct kunit *test)
{
	static const u32 need[AMDX_FAULT_COUNT] = {
		[AMDX_FAULT_PAGE_CE] = AMDX_RECOVER_NONE,
		[AMDX_FAULT_POISON_CONSUMED] = AMDX_RECOVER_PROCESS,
		[AMDX_FAULT_QUEUE_HANG] = AMDX_RECOVER_QUEUE,
		[AMDX_FAULT_ENGINE_UE] = AMDX_RECOVER_PARTITION,
		[AMDX_FAULT_VF_HANG] = AMDX_RECOVER_VF,
		[AMDX_FAULT_DEVICE_UE] = AMDX_RECOVER_DEVICE,
		[AMDX_FAULT_FIRMWARE] = AMDX_RECOVER_DEVICE,
		[AMDX_FAULT_FABRIC] = AMDX_RECOVER_HIVE,
		[AMDX_FAULT_RESET_FAILED] = AMDX_RECOVER_NODE,
		[AMDX_FAULT_BOARD] = AMDX_RECOVER_RMA,
	};
	u32 k;

	for (k = 0; k < AMDX_FAULT_COUNT; k++)
		KUNIT_EXPECT_EQ_MSG(test, amdx_recovery_need(k), need[k],
				    "fault %s", amdx_recovery_fault_name(k));
	KUNIT_EXPECT_EQ(test, amdx_recovery_need(AMDX_FAULT_COUNT),
			AMDX_RECOVER_RMA);
	KUNIT_EXPECT_STREQ(test, amdx_recovery_action_name(AMDX_RECOVER_VF),
			   "vf");
	KUNIT_EXPECT_STREQ(test, amdx_recovery_action_name(AMDX_RECOVER_COUNT),
			   "?");
}

/*
 * MI300X, CPX/NPS4, a hive of 8 reset as one, with amdgpu 6.12's
 * capabilities (queue and pipe resets, no partition reset): a UE in one
 * partition's engines costs the hive; with partition reset, one partition.
 */
static void cpx_hive_engine_ue_costs_hive_or_partition(struct kunit *test)
{
	struct amdx_recovery_topo *t = hive_of(test, 8, 8, AMDGPU_CAPS, true);
	struct amdx_recovery_fault f = {
		.kind = AMDX_FAULT_ENGINE_UE, .device = 2, .partition = 3,
	};
	struct amdx_recovery_scope s;
	u32 a;

	KUNIT_ASSERT_EQ(test, amdx_recovery_choose(t, &f, &a), 0);
	KUNIT_EXPECT_EQ(test, a, AMDX_RECOVER_DEVICE);
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, a, &s), 0);
	KUNIT_EXPECT_EQ(test, s.devices, 0xffULL);
	KUNIT_EXPECT_EQ(test, s.num_devices, 8);
	KUNIT_EXPECT_EQ(test, s.num_partitions, 64);
	KUNIT_EXPECT_EQ(test, s.num_processes, 8 * (8 * 2 + 1));
	KUNIT_EXPECT_EQ(test, s.peers, 0ULL);
	/* The hive resets together: the slowest device decides. */
	KUNIT_EXPECT_EQ(test, s.est_ms, 3007);

	t->dev[2].caps |= AMDX_RECOVER_CAP_PARTITION;
	KUNIT_ASSERT_EQ(test, amdx_recovery_choose(t, &f, &a), 0);
	KUNIT_EXPECT_EQ(test, a, AMDX_RECOVER_PARTITION);
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, a, &s), 0);
	KUNIT_EXPECT_EQ(test, s.devices, 0ULL);
	KUNIT_EXPECT_EQ(test, s.partitions[2], BIT(3));
	KUNIT_EXPECT_EQ(test, s.num_partitions, 1);
	KUNIT_EXPECT_EQ(test, s.num_processes, 2 + 1);
	KUNIT_EXPECT_EQ(test, s.est_ms, 400);
}

static void poison_consumed_costs_the_process(struct kunit *test)
{
	struct amdx_recovery_topo *t = hive_of(test, 8, 8, AMDGPU_CAPS, true);
	struct amdx_recovery_fault f = {
		.kind = AMDX_FAULT_POISON_CONSUMED, .device = 5, .partition = 7,
	};
	struct amdx_recovery_scope s;
	u32 a;

	KUNIT_ASSERT_EQ(test, amdx_recovery_choose(t, &f, &a), 0);
	KUNIT_EXPECT_EQ(test, a, AMDX_RECOVER_PROCESS);
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, a, &s), 0);
	KUNIT_EXPECT_EQ(test, s.num_processes, 1);
	KUNIT_EXPECT_EQ(test, s.num_devices, 0);
	KUNIT_EXPECT_EQ(test, s.num_partitions, 0);
	/* Its self-test failing: no partition reset here, so the device. */
	KUNIT_ASSERT_EQ(test, amdx_recovery_escalate(t, &f, &a), 0);
	KUNIT_EXPECT_EQ(test, a, AMDX_RECOVER_DEVICE);
}

/*
 * The summary records carry: what the uapi's AMDX_RECOVERY_SUM_* read back,
 * each count saturated at its field's width, never spilling into the next.
 */
static void summary_packs_and_saturates(struct kunit *test)
{
	struct amdx_recovery_scope s = {
		.num_devices = 3, .num_partitions = 24, .num_vfs = 2,
		.num_processes = 7,
	};
	u64 sum = amdx_recovery_sum(AMDX_RECOVER_HIVE, &s);

	KUNIT_EXPECT_TRUE(test, sum & AMDX_RECOVERY_SUM_VALID);
	KUNIT_EXPECT_EQ(test, AMDX_RECOVERY_SUM_ACTION(sum), AMDX_RECOVER_HIVE);
	KUNIT_EXPECT_EQ(test, AMDX_RECOVERY_SUM_DEVICES(sum), 3);
	KUNIT_EXPECT_EQ(test, AMDX_RECOVERY_SUM_PARTITIONS(sum), 24);
	KUNIT_EXPECT_EQ(test, AMDX_RECOVERY_SUM_VFS(sum), 2);
	KUNIT_EXPECT_EQ(test, AMDX_RECOVERY_SUM_PROCESSES(sum), 7);

	s = (struct amdx_recovery_scope) {
		.num_devices = 300, .num_partitions = 5000, .num_vfs = 5000,
		.num_processes = 100000,
	};
	sum = amdx_recovery_sum(AMDX_RECOVER_PROCESS, &s);
	KUNIT_EXPECT_EQ(test, AMDX_RECOVERY_SUM_ACTION(sum), AMDX_RECOVER_PROCESS);
	KUNIT_EXPECT_EQ(test, AMDX_RECOVERY_SUM_DEVICES(sum), 0xff);
	KUNIT_EXPECT_EQ(test, AMDX_RECOVERY_SUM_PARTITIONS(sum), 0xfff);
	KUNIT_EXPECT_EQ(test, AMDX_RECOVERY_SUM_VFS(sum), 0xfff);
	KUNIT_EXPECT_EQ(test, AMDX_RECOVERY_SUM_PROCESSES(sum), 0xffff);
	KUNIT_EXPECT_EQ(test, sum >> 56, 0x80ULL);
}

static void hung_queue_takes_queue_then_pipe(struct kunit *test)
{
	struct amdx_recovery_topo *t = hive_of(test, 1, 4, AMDGPU_CAPS, true);
	struct amdx_recovery_fault f = {
		.kind = AMDX_FAULT_QUEUE_HANG, .device = 0, .partition = 1,
	};
	struct amdx_recovery_scope s;
	u32 a;

	KUNIT_EXPECT_EQ(test, choose(test, t, AMDX_FAULT_QUEUE_HANG, 0, 1, 0),
			AMDX_RECOVER_QUEUE);
	t->dev[0].caps &= ~AMDX_RECOVER_CAP_QUEUE;
	a = choose(test, t, AMDX_FAULT_QUEUE_HANG, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, a, AMDX_RECOVER_PIPE);
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, a, &s), 0);
	KUNIT_EXPECT_EQ(test, s.num_processes, 2 + 1);
	KUNIT_EXPECT_EQ(test, s.num_partitions, 0);
	t->dev[0].caps &= ~AMDX_RECOVER_CAP_PIPE;
	KUNIT_EXPECT_EQ(test, choose(test, t, AMDX_FAULT_QUEUE_HANG, 0, 1, 0),
			AMDX_RECOVER_DEVICE);
}

/* VFs: a partition bound to a VF can be recovered by the VF's FLR. */
static void vf_flr_takes_the_vf_partitions(struct kunit *test)
{
	struct amdx_recovery_topo *t = hive_of(test, 1, 8,
					       AMDX_RECOVER_CAP_VF |
					       AMDX_RECOVER_CAP_DEVICE, false);
	struct amdx_recovery_fault f = {
		.kind = AMDX_FAULT_ENGINE_UE, .device = 0, .partition = 5,
	};
	struct amdx_recovery_scope s;
	u32 a;

	t->dev[0].num_vfs = 2;
	t->dev[0].vf_partitions[0] = 0x0f;
	t->dev[0].vf_partitions[1] = 0x30;
	KUNIT_ASSERT_EQ(test, amdx_recovery_topo_check(t), 0);
	KUNIT_ASSERT_EQ(test, amdx_recovery_choose(t, &f, &a), 0);
	KUNIT_EXPECT_EQ(test, a, AMDX_RECOVER_VF);
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, a, &s), 0);
	KUNIT_EXPECT_EQ(test, s.partitions[0], 0x30);
	KUNIT_EXPECT_EQ(test, s.vfs[0], BIT(1));
	KUNIT_EXPECT_EQ(test, s.num_vfs, 1);
	KUNIT_EXPECT_EQ(test, s.num_processes, 2 * 2 + 1);
	/* Partition 7 belongs to no VF: the device. */
	KUNIT_EXPECT_EQ(test, choose(test, t, AMDX_FAULT_ENGINE_UE, 0, 7, 0),
			AMDX_RECOVER_DEVICE);
	/* A hung VF is its FLR, whichever partition. */
	KUNIT_EXPECT_EQ(test, choose(test, t, AMDX_FAULT_VF_HANG, 0, ALL, 0),
			AMDX_RECOVER_VF);
	/* A partition reset also resets the VF holding the partition. */
	t->dev[0].caps |= AMDX_RECOVER_CAP_PARTITION;
	KUNIT_ASSERT_EQ(test, amdx_recovery_choose(t, &f, &a), 0);
	KUNIT_EXPECT_EQ(test, a, AMDX_RECOVER_PARTITION);
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, a, &s), 0);
	KUNIT_EXPECT_EQ(test, s.partitions[0], BIT(5));
	KUNIT_EXPECT_EQ(test, s.vfs[0], BIT(1));
}

/*
 * CPX + NPS4: partitions 2n and 2n + 1 share memory partition n, so its
 * holders: a VF of partitions 0 and 1 stops them once, not once per
 * partition; the device counts each memory partition's once.
 */
static void shared_memory_counts_its_holders_once(struct kunit *test)
{
	struct amdx_recovery_topo *t = hive_of(test, 1, 8,
					       AMDX_RECOVER_CAP_VF |
					       AMDX_RECOVER_CAP_DEVICE, false);
	struct amdx_recovery_fault f = {
		.kind = AMDX_FAULT_VF_HANG, .device = 0, .partition = ALL,
		.vf = 0,
	};
	struct amdx_recovery_scope s;
	u32 p;

	for (p = 0; p < 8; p++)
		t->dev[0].mem[p] = BIT(p / 2);
	t->dev[0].num_vfs = 1;
	t->dev[0].vf_partitions[0] = 0x03;
	KUNIT_ASSERT_EQ(test, amdx_recovery_topo_check(t), 0);
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, AMDX_RECOVER_VF, &s),
			0);
	KUNIT_EXPECT_EQ(test, s.partitions[0], 0x03);
	/* memory partition 0's 2, and the device's 1 */
	KUNIT_EXPECT_EQ(test, s.num_processes, 2 + 1);
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, AMDX_RECOVER_DEVICE,
						  &s), 0);
	KUNIT_EXPECT_EQ(test, s.num_processes, 4 * 2 + 1);
	/* one compute partition spanning several: its own */
	t->dev[0].num_partitions = 2;
	t->dev[0].num_vfs = 0;
	t->dev[0].vf_partitions[0] = 0;
	t->dev[0].mem[0] = 0x3;
	t->dev[0].mem[1] = 0xc;
	f.kind = AMDX_FAULT_DEVICE_UE;
	KUNIT_ASSERT_EQ(test, amdx_recovery_topo_check(t), 0);
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, AMDX_RECOVER_DEVICE,
						  &s), 0);
	KUNIT_EXPECT_EQ(test, s.num_processes, 2 * 2 + 1);
}

/*
 * A device reset done as a secondary bus reset takes its switch's other
 * devices, and a hive-wide reset of one of those its hive; the device on
 * another switch is a bystander.
 */
static void sbr_and_hive_close_over(struct kunit *test)
{
	struct amdx_recovery_topo *t = hive_of(test, 5, 1,
					       AMDX_RECOVER_CAP_DEVICE, false);
	struct amdx_recovery_fault f = {
		.kind = AMDX_FAULT_DEVICE_UE, .device = 0, .partition = ALL,
	};
	struct amdx_recovery_scope s;
	u32 i;

	for (i = 0; i < 5; i++)
		t->dev[i].hive = 0;
	t->dev[0].pci_switch = 7;
	t->dev[0].reset_is_sbr = true;
	t->dev[1].pci_switch = 7;
	t->dev[1].hive = 0x99;
	t->dev[1].reset_takes_hive = true;
	t->dev[2].hive = 0x99;
	t->dev[3].hive = 0x99;
	t->dev[4].pci_switch = 8;
	KUNIT_ASSERT_EQ(test, amdx_recovery_topo_check(t), 0);
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, AMDX_RECOVER_DEVICE,
						  &s), 0);
	KUNIT_EXPECT_EQ(test, s.devices, 0x0fULL);
	KUNIT_EXPECT_EQ(test, s.num_devices, 4);
	KUNIT_EXPECT_EQ(test, s.peers, 0ULL);

	/* Without the coupling, devices 2 and 3 only drain. */
	t->dev[1].reset_takes_hive = false;
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, AMDX_RECOVER_DEVICE,
						  &s), 0);
	KUNIT_EXPECT_EQ(test, s.devices, 0x03ULL);
	KUNIT_EXPECT_EQ(test, s.peers, 0x0cULL);
}

static void fabric_board_and_failed_reset(struct kunit *test)
{
	struct amdx_recovery_topo *t = hive_of(test, 4, 1,
					       AMDX_RECOVER_CAP_DEVICE, false);
	struct amdx_recovery_fault f = {
		.kind = AMDX_FAULT_FABRIC, .device = 1, .partition = ALL,
	};
	struct amdx_recovery_scope s;
	u32 a;

	/* No hive reset declared: the node. */
	KUNIT_EXPECT_EQ(test, choose(test, t, AMDX_FAULT_FABRIC, 1, ALL, 0),
			AMDX_RECOVER_NODE);
	t->dev[1].caps |= AMDX_RECOVER_CAP_HIVE;
	KUNIT_ASSERT_EQ(test, amdx_recovery_choose(t, &f, &a), 0);
	KUNIT_EXPECT_EQ(test, a, AMDX_RECOVER_HIVE);
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, a, &s), 0);
	KUNIT_EXPECT_EQ(test, s.devices, 0x0fULL);
	KUNIT_EXPECT_EQ(test, s.est_ms, 5003);

	f.kind = AMDX_FAULT_RESET_FAILED;
	KUNIT_ASSERT_EQ(test, amdx_recovery_choose(t, &f, &a), 0);
	KUNIT_EXPECT_EQ(test, a, AMDX_RECOVER_NODE);
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, a, &s), 0);
	KUNIT_EXPECT_EQ(test, s.num_devices, 4);
	KUNIT_EXPECT_EQ(test, s.est_ms, 1800000);

	f.kind = AMDX_FAULT_BOARD;
	KUNIT_ASSERT_EQ(test, amdx_recovery_choose(t, &f, &a), 0);
	KUNIT_EXPECT_EQ(test, a, AMDX_RECOVER_RMA);
	KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, &f, a, &s), 0);
	KUNIT_EXPECT_EQ(test, s.est_ms, AMDX_RECOVERY_EST_NEVER);
	KUNIT_EXPECT_EQ(test, amdx_recovery_escalate(t, &f, &a), -ENOENT);
}

static void escalation_climbs_every_rung_it_can(struct kunit *test)
{
	static const u32 chain[] = {
		AMDX_RECOVER_PARTITION, AMDX_RECOVER_VF, AMDX_RECOVER_DEVICE,
		AMDX_RECOVER_HIVE, AMDX_RECOVER_NODE, AMDX_RECOVER_RMA,
	};
	struct amdx_recovery_topo *t = hive_of(test, 2, 4,
					       AMDX_RECOVER_CAP_ALL, true);
	struct amdx_recovery_fault f = {
		.kind = AMDX_FAULT_ENGINE_UE, .device = 1, .partition = 2,
	};
	u32 a, i;

	t->dev[1].num_vfs = 1;
	t->dev[1].vf_partitions[0] = BIT(2);
	KUNIT_ASSERT_EQ(test, amdx_recovery_choose(t, &f, &a), 0);
	for (i = 0; i < ARRAY_SIZE(chain); i++) {
		KUNIT_EXPECT_EQ(test, a, chain[i]);
		if (i + 1 < ARRAY_SIZE(chain))
			KUNIT_ASSERT_EQ(test, amdx_recovery_escalate(t, &f, &a),
					0);
	}
	KUNIT_EXPECT_EQ(test, amdx_recovery_escalate(t, &f, &a), -ENOENT);
	a = AMDX_RECOVER_COUNT;
	KUNIT_EXPECT_EQ(test, amdx_recovery_escalate(t, &f, &a), -EINVAL);
}

static void invalid_topologies_and_faults(struct kunit *test)
{
	struct amdx_recovery_topo *t = hive_of(test, 2, 2, AMDGPU_CAPS, true);
	struct amdx_recovery_fault f = { .kind = AMDX_FAULT_PAGE_CE };
	struct amdx_recovery_scope s;
	u32 a;

	t->dev[0].num_partitions = 0;
	KUNIT_EXPECT_EQ(test, amdx_recovery_topo_check(t), -EINVAL);
	t->dev[0].num_partitions = 9;
	KUNIT_EXPECT_EQ(test, amdx_recovery_topo_check(t), -EINVAL);
	t->dev[0].num_partitions = 2;
	t->dev[0].caps |= BIT(0);
	KUNIT_EXPECT_EQ(test, amdx_recovery_topo_check(t), -EINVAL);
	t->dev[0].caps = AMDGPU_CAPS;
	t->dev[0].hive = 0;
	KUNIT_EXPECT_EQ(test, amdx_recovery_topo_check(t), -EINVAL);
	t->dev[0].hive = 1;
	t->dev[0].pci_switch = 0;
	t->dev[0].reset_is_sbr = true;
	KUNIT_EXPECT_EQ(test, amdx_recovery_topo_check(t), -EINVAL);
	t->dev[0].reset_is_sbr = false;
	t->dev[0].num_vfs = 2;
	t->dev[0].vf_partitions[0] = 1;
	t->dev[0].vf_partitions[1] = 1;
	KUNIT_EXPECT_EQ(test, amdx_recovery_topo_check(t), -EINVAL);
	t->dev[0].vf_partitions[1] = 4;
	KUNIT_EXPECT_EQ(test, amdx_recovery_topo_check(t), -EINVAL);
	t->dev[0].num_vfs = 1;
	KUNIT_EXPECT_EQ(test, amdx_recovery_topo_check(t), -EINVAL);
	t->dev[0].vf_partitions[1] = 0;
	KUNIT_EXPECT_EQ(test, amdx_recovery_topo_check(t), 0);
	t->num = AMDX_RECOVERY_MAX_DEVICES + 1;
	KUNIT_EXPECT_EQ(test, amdx_recovery_topo_check(t), -EINVAL);
	t->num = 2;

	f.device = 2;
	KUNIT_EXPECT_EQ(test, amdx_recovery_choose(t, &f, &a), -EINVAL);
	f.device = 0;
	f.partition = 2;
	KUNIT_EXPECT_EQ(test, amdx_recovery_choose(t, &f, &a), -EINVAL);
	f.partition = ALL;
	f.kind = AMDX_FAULT_ENGINE_UE;
	KUNIT_EXPECT_EQ(test, amdx_recovery_choose(t, &f, &a), -EINVAL);
	f.kind = AMDX_FAULT_QUEUE_HANG;
	KUNIT_EXPECT_EQ(test, amdx_recovery_choose(t, &f, &a), -EINVAL);
	f.kind = AMDX_FAULT_VF_HANG;
	f.vf = 1;
	KUNIT_EXPECT_EQ(test, amdx_recovery_choose(t, &f, &a), -EINVAL);
	f.kind = AMDX_FAULT_COUNT;
	KUNIT_EXPECT_EQ(test, amdx_recovery_choose(t, &f, &a), -EINVAL);
	f.kind = AMDX_FAULT_FABRIC;
	t->dev[0].hive = 0;
	t->dev[0].caps &= ~AMDX_RECOVER_CAP_HIVE;
	t->dev[0].reset_takes_hive = false;
	KUNIT_EXPECT_EQ(test, amdx_recovery_choose(t, &f, &a), -EINVAL);
	f.kind = AMDX_FAULT_DEVICE_UE;
	KUNIT_EXPECT_EQ(test, amdx_recovery_scope(t, &f, AMDX_RECOVER_PARTITION,
						  &s), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_recovery_scope(t, &f, AMDX_RECOVER_VF, &s),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_recovery_scope(t, &f, AMDX_RECOVER_COUNT,
						  &s), -EINVAL);
}

/* The simulated profiles of the sweep. */
static const u32 sweep_caps[] = {
	0,
	AMDX_RECOVER_CAP_DEVICE,
	AMDGPU_CAPS,
	AMDX_RECOVER_CAP_PARTITION | AMDX_RECOVER_CAP_DEVICE,
	AMDX_RECOVER_CAP_VF | AMDX_RECOVER_CAP_DEVICE | AMDX_RECOVER_CAP_HIVE,
	AMDX_RECOVER_CAP_ALL,
};

static const u32 sweep_parts[] = { 1, 2, 4, 8 };

static const u32 sweep_hive[] = { 1, 4, 8 };

static const u32 sweep_per_switch[] = { 1, 2, 4 };

/*
 * Two hives' worth of devices (so the second is a bystander), @per_switch
 * per PCIe switch; half of them reset by secondary bus reset; even
 * devices have VFs on their first partitions.
 */
static void sweep_build(struct amdx_recovery_topo *t, u32 caps, u32 parts,
			u32 hive, u32 per_switch)
{
	u32 i, p;

	memset(t, 0, sizeof(*t));
	t->num = 2 * hive;
	t->node_reboot_ms = 1800000;
	for (i = 0; i < t->num; i++) {
		struct amdx_recovery_dev *d = &t->dev[i];

		d->hive = hive > 1 ? 1 + i / hive : 0;
		d->pci_switch = 1 + i / per_switch;
		d->caps = d->hive ? caps : caps & ~AMDX_RECOVER_CAP_HIVE;
		d->reset_takes_hive = d->hive && (caps & AMDX_RECOVER_CAP_HIVE);
		d->reset_is_sbr = i & 1;
		d->num_partitions = parts;
		for (p = 0; p < parts; p++)
			d->procs[p] = 1 + p;
		if (!(i & 1) && parts > 1) {
			d->num_vfs = 1;
			d->vf_partitions[0] = GENMASK(parts / 2 - 1, 0);
		}
		for (p = 0; p < AMDX_RECOVER_COUNT; p++)
			d->est_ms[p] = 100 * p + i;
	}
}

/* @a's scope within @b's: every device, partition and VF. */
static bool scope_within(const struct amdx_recovery_scope *a,
			 const struct amdx_recovery_scope *b)
{
	u32 i;

	if (a->devices & ~b->devices)
		return false;
	for (i = 0; i < AMDX_RECOVERY_MAX_DEVICES; i++)
		if ((a->partitions[i] & ~b->partitions[i]) ||
		    (a->vfs[i] & ~b->vfs[i]))
			return false;
	return a->num_processes <= b->num_processes;
}

static void sweep_one(struct kunit *test, const struct amdx_recovery_topo *t,
		      const struct amdx_recovery_fault *f, u64 bystanders,
		      struct amdx_recovery_scope *s,
		      struct amdx_recovery_scope *prev)
{
	u32 a, b, chosen;
	bool have_prev = false;

	KUNIT_ASSERT_EQ(test, amdx_recovery_choose(t, f, &chosen), 0);
	/* Cheapest: no cheaper action the device can do suffices. */
	for (b = 0; b < chosen; b++)
		KUNIT_EXPECT_FALSE_MSG(test, amdx_recovery_can(t, f->device, b) &&
				       amdx_recovery_suffices(t, f, b),
				       "%s chose %s over %s",
				       amdx_recovery_fault_name(f->kind),
				       amdx_recovery_action_name(chosen),
				       amdx_recovery_action_name(b));
	KUNIT_EXPECT_GE(test, chosen, amdx_recovery_need(f->kind));
	/* Up the ladder the scope only grows; bystanders stay up. */
	for (a = chosen;;) {
		KUNIT_ASSERT_EQ(test, amdx_recovery_scope(t, f, a, s), 0);
		if (have_prev)
			KUNIT_EXPECT_TRUE_MSG(test, scope_within(prev, s),
					      "%s: scope shrinks at %s",
					      amdx_recovery_fault_name(f->kind),
					      amdx_recovery_action_name(a));
		if (a < AMDX_RECOVER_NODE)
			KUNIT_EXPECT_EQ_MSG(test,
					    (s->devices | s->peers) & bystanders,
					    0ULL, "%s touches a bystander",
					    amdx_recovery_action_name(a));
		KUNIT_EXPECT_EQ(test, s->num_devices, hweight64(s->devices));
		*prev = *s;
		have_prev = true;
		if (amdx_recovery_escalate(t, f, &a))
			break;
	}
	KUNIT_EXPECT_EQ(test, a, AMDX_RECOVER_RMA);
}

/*
 * The second hive is a bystander unless one of its devices shares a PCIe
 * switch with the first hive (a secondary bus reset would reach it).
 */
static u64 sweep_bystanders(const struct amdx_recovery_topo *t, u32 hive)
{
	u32 i;

	for (i = hive; i < 2 * hive; i++)
		if (t->dev[i].pci_switch <= t->dev[hive - 1].pci_switch)
			return 0;
	return GENMASK_ULL(2 * hive - 1, hive);
}

/* One profile of the sweep, and its faults. */
static u32 sweep_profile(struct kunit *test, struct amdx_recovery_topo *t,
			 u32 caps, u32 parts, u32 hive, u32 per_switch,
			 struct amdx_recovery_scope *s,
			 struct amdx_recovery_scope *prev)
{
	/* The first and last device and partition of the first hive. */
	const u32 devs[] = { 0, hive - 1 }, prts[] = { 0, parts - 1 };
	u32 k, i, runs = 0;
	u64 by;

	sweep_build(t, caps, parts, hive, per_switch);
	KUNIT_ASSERT_EQ(test, amdx_recovery_topo_check(t), 0);
	by = sweep_bystanders(t, hive);
	for (k = 0; k < AMDX_FAULT_COUNT; k++) {
		for (i = 0; i < 4; i++) {
			struct amdx_recovery_fault f = {
				.kind = k, .device = devs[i / 2],
				.partition = prts[i % 2],
			};

			if (k == AMDX_FAULT_FABRIC && hive == 1)
				continue;
			if (k == AMDX_FAULT_VF_HANG &&
			    !t->dev[f.device].num_vfs)
				continue;
			sweep_one(test, t, &f, by, s, prev);
			runs++;
		}
	}
	return runs;
}

static void sweep_profiles(struct kunit *test)
{
	const u32 nw = ARRAY_SIZE(sweep_per_switch);
	const u32 nh = ARRAY_SIZE(sweep_hive), np = ARRAY_SIZE(sweep_parts);
	const u32 profiles = ARRAY_SIZE(sweep_caps) * np * nh * nw;
	struct amdx_recovery_scope *s, *prev;
	struct amdx_recovery_topo *t;
	u32 i, runs = 0;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	prev = kunit_kzalloc(test, sizeof(*prev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, prev);
	for (i = 0; i < profiles; i++)
		runs += sweep_profile(test, t, sweep_caps[i / (np * nh * nw)],
				      sweep_parts[i / (nh * nw) % np],
				      sweep_hive[i / nw % nh],
				      sweep_per_switch[i % nw], s, prev);
	kunit_info(test, "%u faults over %u profiles", runs, profiles);
	KUNIT_EXPECT_EQ(test, profiles, 216);
	KUNIT_EXPECT_GT(test, runs, 5000);
}

static struct kunit_case amdx_recovery_model_cases[] = {
	KUNIT_CASE(need_follows_the_table),
	KUNIT_CASE(cpx_hive_engine_ue_costs_hive_or_partition),
	KUNIT_CASE(poison_consumed_costs_the_process),
	KUNIT_CASE(summary_packs_and_saturates),
	KUNIT_CASE(hung_queue_takes_queue_then_pipe),
	KUNIT_CASE(vf_flr_takes_the_vf_partitions),
	KUNIT_CASE(shared_memory_counts_its_holders_once),
	KUNIT_CASE(sbr_and_hive_close_over),
	KUNIT_CASE(fabric_board_and_failed_reset),
	KUNIT_CASE(escalation_climbs_every_rung_it_can),
	KUNIT_CASE(invalid_topologies_and_faults),
	KUNIT_CASE(sweep_profiles),
	{}
};

static struct kunit_suite amdx_recovery_model_suite = {
	.name = "amdx_recovery_model",
	.test_cases = amdx_recovery_model_cases,
};

kunit_test_suite(amdx_recovery_model_suite);
