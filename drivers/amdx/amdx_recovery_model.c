// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: Recovery model
 *
 * Pure logic: for a fault, the recovery actions that suffice, the
 * cheapest one the device can carry out, and the scope of any action:
 * the devices, partitions, VFs and processes it takes down, the peers
 * that must drain first, and how long it takes.  The actions, cheapest
 * first, and the faults each one suffices for:
 *
 * ==========  =============================================  ==============
 * action      suffices for                                   needs
 * ==========  =============================================  ==============
 * none        a corrected error                              \-
 * process     the above; poison consumed by a process        \-
 * queue       a corrected error; a hung queue                queue reset
 * pipe        the same                                       pipe reset
 * partition   the above, and a UE in the partition's         partition
 *             engines, when the fault names a partition      reset
 * vf          the same when the partition is bound to a VF;  VF FLR
 *             a hung VF
 * device      every fault of the device                      device reset
 * hive        the above, and a failed fabric                 a hive
 * node        the above, and a device reset that failed      \-
 * rma         everything: the board is replaced              \-
 * ==========  =============================================  ==============
 *
 * amdx_recovery_choose() takes the first action of that list the device
 * can carry out and that suffices; amdx_recovery_escalate() the next one
 * after an action whose self-test failed.  What an action takes down
 * (amdx_recovery_scope()) follows the reset domains: a device reset of a
 * device whose reset is hive-wide (amdgpu's XGMI hive reset) takes its
 * hive, and one carried out as a secondary bus reset takes every device
 * below its PCIe switch, repeatedly until no device is added; a hive
 * member left up is a peer that must drain its P2P traffic first.
 * Replacing a board takes the node down, with no estimate of when it
 * returns.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "amdx_kunit.h"
#include "amdx_recovery_model.h"

static_assert(AMDX_RECOVERY_MAX_DEVICES <= BITS_PER_LONG_LONG);
static_assert(AMDX_MAX_PARTITIONS <= BITS_PER_BYTE);
static_assert(AMDX_MAX_VFS <= BITS_PER_BYTE);

/* Per action, the fault kinds it suffices for (before the domain rules). */
#define K(_k)	BIT(AMDX_FAULT_##_k)
static const u32 amdx_recovery_kinds[AMDX_RECOVER_COUNT] = {
	[AMDX_RECOVER_NONE] = K(PAGE_CE),
	[AMDX_RECOVER_PROCESS] = K(PAGE_CE) | K(POISON_CONSUMED),
	[AMDX_RECOVER_QUEUE] = K(PAGE_CE) | K(QUEUE_HANG),
	[AMDX_RECOVER_PIPE] = K(PAGE_CE) | K(QUEUE_HANG),
	[AMDX_RECOVER_PARTITION] = K(PAGE_CE) | K(POISON_CONSUMED) |
				   K(QUEUE_HANG) | K(ENGINE_UE),
	[AMDX_RECOVER_VF] = K(PAGE_CE) | K(POISON_CONSUMED) | K(QUEUE_HANG) |
			    K(ENGINE_UE) | K(VF_HANG),
	[AMDX_RECOVER_DEVICE] = GENMASK(AMDX_FAULT_FIRMWARE, 0),
	[AMDX_RECOVER_HIVE] = GENMASK(AMDX_FAULT_FABRIC, 0),
	[AMDX_RECOVER_NODE] = GENMASK(AMDX_FAULT_RESET_FAILED, 0),
	[AMDX_RECOVER_RMA] = GENMASK(AMDX_FAULT_BOARD, 0),
};

#undef K

static const char * const amdx_recovery_action_names[AMDX_RECOVER_COUNT] = {
	"none", "process", "queue", "pipe", "partition", "vf", "device",
	"hive", "node", "rma",
};

static const char * const amdx_recovery_fault_names[AMDX_FAULT_COUNT] = {
	"page_ce", "poison_consumed", "queue_hang", "engine_ue", "vf_hang",
	"device_ue", "firmware", "fabric", "reset_failed", "board",
};

/**
 * amdx_recovery_action_name() - an action's name
 * @action: %AMDX_RECOVER_*.
 *
 * Return: the name the CLI and the documentation use, "?" if unknown.
 */
const char *amdx_recovery_action_name(u32 action)
{
	return action < AMDX_RECOVER_COUNT ?
	       amdx_recovery_action_names[action] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(amdx_recovery_action_name);

/**
 * amdx_recovery_fault_name() - a fault kind's name
 * @kind: %AMDX_FAULT_*.
 *
 * Return: its name, "?" if unknown.
 */
const char *amdx_recovery_fault_name(u32 kind)
{
	return kind < AMDX_FAULT_COUNT ? amdx_recovery_fault_names[kind] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(amdx_recovery_fault_name);

static int amdx_recovery_dev_check(const struct amdx_recovery_dev *d)
{
	u32 all = 0, v;

	if (!d->num_partitions || d->num_partitions > AMDX_MAX_PARTITIONS ||
	    d->num_vfs > AMDX_MAX_VFS || (d->caps & ~AMDX_RECOVER_CAP_ALL))
		return -EINVAL;
	if (!d->hive && ((d->caps & AMDX_RECOVER_CAP_HIVE) ||
			 d->reset_takes_hive))
		return -EINVAL;
	if (!d->pci_switch && d->reset_is_sbr)
		return -EINVAL;
	for (v = 0; v < d->num_vfs; v++) {
		if (d->vf_partitions[v] & ~GENMASK(d->num_partitions - 1, 0))
			return -EINVAL;
		/* A partition is bound to one VF at most. */
		if (d->vf_partitions[v] & all)
			return -EINVAL;
		all |= d->vf_partitions[v];
	}
	for (v = d->num_vfs; v < AMDX_MAX_VFS; v++)
		if (d->vf_partitions[v])
			return -EINVAL;
	return 0;
}

/**
 * amdx_recovery_topo_check() - is a topology consistent
 * @t: the topology.
 *
 * Return: 0, or -EINVAL: too many devices; a device with no or too many
 * partitions or VFs, unknown capabilities, a hive reset or a hive-wide
 * device reset without a hive, a secondary bus reset without a switch, a
 * VF bound to a partition that does not exist or that another VF holds.
 */
int amdx_recovery_topo_check(const struct amdx_recovery_topo *t)
{
	u32 i;

	if (t->num > AMDX_RECOVERY_MAX_DEVICES)
		return -EINVAL;
	for (i = 0; i < t->num; i++)
		if (amdx_recovery_dev_check(&t->dev[i]))
			return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_recovery_topo_check);

static int amdx_recovery_fault_check(const struct amdx_recovery_topo *t,
				     const struct amdx_recovery_fault *f)
{
	const struct amdx_recovery_dev *d;

	if (f->kind >= AMDX_FAULT_COUNT || f->device >= t->num)
		return -EINVAL;
	d = &t->dev[f->device];
	if (f->partition != AMDX_RAS_PARTITION_ALL &&
	    f->partition >= d->num_partitions)
		return -EINVAL;
	switch (f->kind) {
	case AMDX_FAULT_QUEUE_HANG:
	case AMDX_FAULT_ENGINE_UE:
		/* Engines and queues belong to a partition. */
		return f->partition == AMDX_RAS_PARTITION_ALL ? -EINVAL : 0;
	case AMDX_FAULT_VF_HANG:
		return f->vf < d->num_vfs ? 0 : -EINVAL;
	case AMDX_FAULT_FABRIC:
		return d->hive ? 0 : -EINVAL;
	default:
		return 0;
	}
}

/* The VF the fault's partition is bound to, or -1. */
static int amdx_recovery_fault_vf(const struct amdx_recovery_dev *d,
				  const struct amdx_recovery_fault *f)
{
	u32 v;

	if (f->kind == AMDX_FAULT_VF_HANG)
		return f->vf;
	if (f->partition == AMDX_RAS_PARTITION_ALL)
		return -1;
	for (v = 0; v < d->num_vfs; v++)
		if (d->vf_partitions[v] & BIT(f->partition))
			return v;
	return -1;
}

/**
 * amdx_recovery_need() - the cheapest action that suffices for a fault
 * @fault_kind: %AMDX_FAULT_*.
 *
 * What the fault needs whatever the device can do; the action taken may
 * cost more (amdx_recovery_choose()).
 *
 * Return: %AMDX_RECOVER_*, %AMDX_RECOVER_RMA for an unknown kind.
 */
u32 amdx_recovery_need(u32 fault_kind)
{
	u32 a;

	for (a = 0; a < AMDX_RECOVER_COUNT; a++)
		if (fault_kind < AMDX_FAULT_COUNT &&
		    (amdx_recovery_kinds[a] & BIT(fault_kind)))
			return a;
	return AMDX_RECOVER_RMA;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_recovery_need);

/**
 * amdx_recovery_can() - can a device carry out an action
 * @t: the topology.
 * @device: the device's index.
 * @action: %AMDX_RECOVER_*.
 *
 * Return: true for none, process, node and rma; for the others, when the
 * device declares it (hive also needs a hive).
 */
bool amdx_recovery_can(const struct amdx_recovery_topo *t, u32 device,
		       u32 action)
{
	const struct amdx_recovery_dev *d;

	if (device >= t->num || action >= AMDX_RECOVER_COUNT)
		return false;
	d = &t->dev[device];
	switch (action) {
	case AMDX_RECOVER_NONE:
	case AMDX_RECOVER_PROCESS:
	case AMDX_RECOVER_NODE:
	case AMDX_RECOVER_RMA:
		return true;
	case AMDX_RECOVER_HIVE:
		return d->hive && (d->caps & AMDX_RECOVER_CAP_HIVE);
	default:
		return d->caps & BIT(action);
	}
}
EXPORT_SYMBOL_IF_KUNIT(amdx_recovery_can);

/**
 * amdx_recovery_suffices() - does an action recover from a fault
 * @t: the topology.
 * @f: the fault.
 * @action: %AMDX_RECOVER_*.
 *
 * Whether the device can carry it out is amdx_recovery_can()'s question.
 *
 * Return: true when @action's kinds include the fault's (DOC table) and,
 * for partition, the fault names a partition, for vf, the fault's
 * partition is bound to a VF or the fault is that VF's; false for an
 * invalid fault.
 */
bool amdx_recovery_suffices(const struct amdx_recovery_topo *t,
			    const struct amdx_recovery_fault *f, u32 action)
{
	if (amdx_recovery_fault_check(t, f) || action >= AMDX_RECOVER_COUNT ||
	    !(amdx_recovery_kinds[action] & BIT(f->kind)))
		return false;
	switch (action) {
	case AMDX_RECOVER_PARTITION:
		return f->partition != AMDX_RAS_PARTITION_ALL;
	case AMDX_RECOVER_VF:
		return amdx_recovery_fault_vf(&t->dev[f->device], f) >= 0;
	default:
		return true;
	}
}
EXPORT_SYMBOL_IF_KUNIT(amdx_recovery_suffices);

/* The first action from @from on that the device can do and suffices. */
static int amdx_recovery_first(const struct amdx_recovery_topo *t,
			       const struct amdx_recovery_fault *f, u32 from,
			       u32 *action)
{
	u32 a;

	if (amdx_recovery_fault_check(t, f))
		return -EINVAL;
	for (a = from; a < AMDX_RECOVER_COUNT; a++) {
		if (amdx_recovery_can(t, f->device, a) &&
		    amdx_recovery_suffices(t, f, a)) {
			*action = a;
			return 0;
		}
	}
	/* After rma there is nothing. */
	return -ENOENT;
}

/**
 * amdx_recovery_choose() - the cheapest sufficient action a device can do
 * @t: the topology.
 * @f: the fault.
 * @action: out: %AMDX_RECOVER_*.
 *
 * Return: 0, or -EINVAL for a fault that does not fit the topology (an
 * unknown kind or device, a partition beyond the device's, a queue hang
 * or engine UE without a partition, a VF hang of a VF that does not
 * exist, a fabric fault of a device in no hive).
 */
int amdx_recovery_choose(const struct amdx_recovery_topo *t,
			 const struct amdx_recovery_fault *f, u32 *action)
{
	return amdx_recovery_first(t, f, AMDX_RECOVER_NONE, action);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_recovery_choose);

/**
 * amdx_recovery_escalate() - the next action after one that did not hold
 * @t: the topology.
 * @f: the fault.
 * @action: in: the action that ran and whose self-test failed; out: the
 *	next sufficient action the device can do.
 *
 * Return: 0, -EINVAL as amdx_recovery_choose() or for an unknown action,
 * -ENOENT after %AMDX_RECOVER_RMA.
 */
int amdx_recovery_escalate(const struct amdx_recovery_topo *t,
			   const struct amdx_recovery_fault *f, u32 *action)
{
	if (*action >= AMDX_RECOVER_COUNT)
		return -EINVAL;
	return amdx_recovery_first(t, f, *action + 1, action);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_recovery_escalate);

/* Every device of @t in @hive. */
static u64 amdx_recovery_hive_mask(const struct amdx_recovery_topo *t,
				   u64 hive)
{
	u64 mask = 0;
	u32 i;

	for (i = 0; hive && i < t->num; i++)
		if (t->dev[i].hive == hive)
			mask |= BIT_ULL(i);
	return mask;
}

/*
 * The devices a reset of @set takes: a hive-wide reset adds the hive, a
 * secondary bus reset every device below the switch; repeated until
 * nothing is added (at most one round per device).
 */
static u64 amdx_recovery_close(const struct amdx_recovery_topo *t, u64 set)
{
	u64 prev;
	u32 i, j;

	do {
		prev = set;
		for (i = 0; i < t->num; i++) {
			const struct amdx_recovery_dev *d = &t->dev[i];

			if (!(set & BIT_ULL(i)))
				continue;
			if (d->reset_takes_hive)
				set |= amdx_recovery_hive_mask(t, d->hive);
			if (!d->reset_is_sbr)
				continue;
			for (j = 0; j < t->num; j++)
				if (t->dev[j].pci_switch == d->pci_switch)
					set |= BIT_ULL(j);
		}
	} while (set != prev);
	return set;
}

static u32 amdx_recovery_procs(const struct amdx_recovery_dev *d, u8 parts)
{
	u32 n = d->procs_device, p, q;

	for (p = 0; p < d->num_partitions; p++) {
		if (!(parts & BIT(p)))
			continue;
		/* The holders of memory an earlier partition shares: counted. */
		for (q = 0; q < p; q++)
			if ((parts & BIT(q)) && d->mem[p] && d->mem[q] == d->mem[p])
				break;
		if (q == p)
			n += d->procs[p];
	}
	return n;
}

/* The VFs of @d holding any of @parts. */
static u8 amdx_recovery_vfs_of(const struct amdx_recovery_dev *d, u8 parts)
{
	u8 vfs = 0;
	u32 v;

	for (v = 0; v < d->num_vfs; v++)
		if (d->vf_partitions[v] & parts)
			vfs |= BIT(v);
	return vfs;
}

static void amdx_recovery_take(const struct amdx_recovery_topo *t, u32 i,
			       u8 parts, u8 vfs, struct amdx_recovery_scope *s)
{
	s->partitions[i] = parts;
	s->vfs[i] = vfs;
	s->num_partitions += hweight8(parts);
	s->num_vfs += hweight8(vfs);
	s->num_processes += amdx_recovery_procs(&t->dev[i], parts);
}

/* Whole devices: @set and everything on them. */
static void amdx_recovery_take_devices(const struct amdx_recovery_topo *t,
				       u64 set, u32 action,
				       struct amdx_recovery_scope *s)
{
	u64 hives = 0;
	u32 i;

	s->devices = set;
	for (i = 0; i < t->num; i++) {
		const struct amdx_recovery_dev *d = &t->dev[i];
		u8 all = GENMASK(d->num_partitions - 1, 0);

		if (!(set & BIT_ULL(i)))
			continue;
		s->num_devices++;
		amdx_recovery_take(t, i, all, d->num_vfs ?
				   GENMASK(d->num_vfs - 1, 0) : 0, s);
		if (action <= AMDX_RECOVER_HIVE)
			s->est_ms = max(s->est_ms, d->est_ms[action]);
		hives |= amdx_recovery_hive_mask(t, d->hive);
	}
	s->peers = hives & ~set;
}

/**
 * amdx_recovery_sum() - the summary of an action's scope
 * @action: %AMDX_RECOVER_*.
 * @s: its scope.
 *
 * What ERROR, POISON_CONSUMED and RECOVERY records carry (uapi).
 *
 * Return: %AMDX_RECOVERY_SUM_VALID, @action and the counts, each saturated
 * at its field's width.
 */
u64 amdx_recovery_sum(u32 action, const struct amdx_recovery_scope *s)
{
	return AMDX_RECOVERY_SUM_VALID | (action & 0xff) |
	       (u64)min_t(u32, s->num_devices, 0xff) << 8 |
	       (u64)min_t(u32, s->num_partitions, 0xfff) << 16 |
	       (u64)min_t(u32, s->num_vfs, 0xfff) << 28 |
	       (u64)min_t(u32, s->num_processes, 0xffff) << 40;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_recovery_sum);

/**
 * amdx_recovery_scope() - what an action on a fault's target takes down
 * @t: the topology.
 * @f: the fault: its device, partition and VF are the action's target.
 * @action: %AMDX_RECOVER_*.
 * @s: out: the scope (DOC).
 *
 * process and queue stop one process; pipe every process of the fault's
 * partition (of every partition when the fault names none) and those
 * holding the whole device; partition and vf their partitions, the VFs
 * bound to them and those processes; device, hive, node and rma whole
 * devices as the DOC says.
 *
 * Return: 0; -EINVAL for a fault that does not fit the topology, an
 * unknown action, partition for a fault naming no partition, vf for a
 * fault whose partition is bound to no VF.
 */
int amdx_recovery_scope(const struct amdx_recovery_topo *t,
			const struct amdx_recovery_fault *f, u32 action,
			struct amdx_recovery_scope *s)
{
	const struct amdx_recovery_dev *d;
	u64 set;
	u8 parts;
	int vf;

	memset(s, 0, sizeof(*s));
	if (amdx_recovery_fault_check(t, f) || action >= AMDX_RECOVER_COUNT)
		return -EINVAL;
	d = &t->dev[f->device];
	switch (action) {
	case AMDX_RECOVER_NONE:
		return 0;
	case AMDX_RECOVER_PROCESS:
	case AMDX_RECOVER_QUEUE:
		s->num_processes = 1;
		break;
	case AMDX_RECOVER_PIPE:
		parts = f->partition == AMDX_RAS_PARTITION_ALL ?
			GENMASK(d->num_partitions - 1, 0) : BIT(f->partition);
		s->num_processes = amdx_recovery_procs(d, parts);
		break;
	case AMDX_RECOVER_PARTITION:
		if (f->partition == AMDX_RAS_PARTITION_ALL)
			return -EINVAL;
		parts = BIT(f->partition);
		amdx_recovery_take(t, f->device, parts,
				   amdx_recovery_vfs_of(d, parts), s);
		break;
	case AMDX_RECOVER_VF:
		vf = amdx_recovery_fault_vf(d, f);
		if (vf < 0)
			return -EINVAL;
		amdx_recovery_take(t, f->device, d->vf_partitions[vf], BIT(vf),
				   s);
		break;
	case AMDX_RECOVER_DEVICE:
	case AMDX_RECOVER_HIVE:
		set = BIT_ULL(f->device);
		if (action == AMDX_RECOVER_HIVE)
			set |= amdx_recovery_hive_mask(t, d->hive);
		amdx_recovery_take_devices(t, amdx_recovery_close(t, set),
					   action, s);
		return 0;
	default:
		/* The node, also to replace a board. */
		amdx_recovery_take_devices(t, t->num ?
					   GENMASK_ULL(t->num - 1, 0) : 0,
					   action, s);
		s->est_ms = action == AMDX_RECOVER_NODE ? t->node_reboot_ms :
			    AMDX_RECOVERY_EST_NEVER;
		return 0;
	}
	s->est_ms = d->est_ms[action];
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_recovery_scope);
