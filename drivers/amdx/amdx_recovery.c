// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: Recovery state
 *
 * Every fault leaves its target (the device, the compute partition or the
 * VF it hit) with a pending recovery action: the cheapest the device can
 * carry out that suffices (amdx_recovery_choose() over the node's
 * topology: hives, PCIe switches, the resets each device declares, the
 * processes holding each partition).  A target keeps the costliest action
 * its faults asked for, with the seq and time of the event that set it.
 *
 * It returns to none only after the action ran and the post-recovery
 * self-test (&amdx_provider_ops.self_test) passed, never by a timer; a
 * failing self-test escalates to the next sufficient rung
 * (amdx_recovery_escalate()) and a failing action leaves the state
 * FAILED; a device or hive reset that failed is moreover the reset_failed
 * fault, a node reboot pending on the device (whoever ran it: a run, the
 * ladder, the driver on its own).  Hangs come from the provider's
 * detection (amdx_device_hang()).  The containment ladder's own partition
 * and device resets count as running the action when they are the action
 * pending; anything else waits for %AMDX_IOC_RECOVERY_RUN::
 *
 *    provider       core (intake)                 caller
 *      report --->  ERROR (data[1]: action, scope)
 *                   RECOVERY(PENDING)     <------ RECOVERY_PLAN: scope,
 *                   ladder step                   processes, estimate
 *                                         <------ RECOVERY_RUN
 *                   [stop holders] RECOVERY(STOPPED)
 *      reset  <---  the action            RECOVERY(RAN | FAILED)
 *      self-test <- RECOVERY(SELFTEST)
 *                   RECOVERY(CLEARED | ESCALATED)
 *
 * The processes an action stops are those holding VRAM (amdx_hmm_holders())
 * in the memory partitions of the compute partitions it resets; a process
 * action's are the consumers of poison it names.  A consumption is
 * reported where the RAS lock cannot be taken (amdx_ras_poison.c queues
 * it); the worker, or the next plan or run of the device first, sets the
 * process action on the page's partition and names the consumer there (a
 * reference on its pid, dropped when the action clears or changes, or
 * the device is freed).  A process action names up to
 * %AMDX_RECOVERY_CONSUMERS; one more, or a full queue, escalates to the
 * next sufficient rung, which stops every process there.  Devices
 * other than the target's that a hive or secondary bus reset takes are
 * reset with it; once the run's self-test passed, each runs its own and
 * the actions pending there that the reset covered clear (CLEARED records
 * on that device), amdx_recovery_clear_others().
 *
 * Locking: the state is &amdx_ras.lock's (amdx_ras_types.h); the topology
 * is read under it from the registry and each device's partition lock and
 * HMM lock, which come after it (amdx_core.h).
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched/task.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_hmm.h"
#include "amdx_partition.h"
#include "amdx_partition_gate.h"
#include "amdx_partition_model.h"
#include "amdx_partition_types.h"
#include "amdx_partition_vf.h"
#include "amdx_ras_partition.h"
#include "amdx_ras_poison.h"
#include "amdx_ras_types.h"
#include "amdx_recovery.h"
#include "amdx_recovery_model.h"
#include "amdx_recovery_policy.h"
#include "amdx_viewer.h"

/* A node reboot's estimate: amdx's figure, no device reports one. */
#define AMDX_RECOVERY_NODE_REBOOT_MS	300000

/*
 * Estimates for a provider that reports none (&amdx_device_desc.reset_ms
 * 0), in ms: amdx's conservative figures, Documentation/ras.rst.
 */
static const u32 amdx_recovery_default_ms[AMDX_RECOVER_HIVE + 1] = {
	[AMDX_RECOVER_QUEUE] = 10,
	[AMDX_RECOVER_PIPE] = 100,
	[AMDX_RECOVER_PARTITION] = 1000,
	[AMDX_RECOVER_VF] = 500,
	[AMDX_RECOVER_DEVICE] = 5000,
	[AMDX_RECOVER_HIVE] = 20000,
};

/**
 * struct amdx_recovery_ctx - the node as one recovery decision sees it
 * @topo: the model's topology, devices in id order.
 * @devs: per topology index, the device (a reference).
 * @mem: per topology index and compute partition, its memory partitions.
 * @self: the topology index of the device deciding.
 * @holders: the processes an action stops (references), @nholders.
 * @holder_dev: per entry of @holders, the topology index of its device.
 * @nholders: entries of @holders.
 * @layout: scratch for amdx_partition_fill().
 */
struct amdx_recovery_ctx {
	struct amdx_recovery_topo topo;
	struct amdx_device *devs[AMDX_RECOVERY_MAX_DEVICES];
	u8 mem[AMDX_RECOVERY_MAX_DEVICES][AMDX_MAX_PARTITIONS];
	u32 self;
	struct amdx_hmm_holder *holders;
	u8 *holder_dev;
	u32 nholders;
	union {
		struct amdx_query_partitions layout;
		u8 layout_buf[sizeof(struct amdx_query_partitions) +
			      AMDX_MAX_PARTITIONS *
			      sizeof(struct amdx_partition_info)];
	};
};

/*
 * The resets a device declares, or without a declaration (AMDX_RESET_F_CAPS
 * clear, no caps) those its ops allow.
 */
static u32 amdx_recovery_caps(const struct amdx_device *adev)
{
	u32 caps = adev->desc.reset_caps & AMDX_RECOVER_CAP_ALL;

	if (!caps && !(adev->desc.reset_flags & AMDX_RESET_F_CAPS)) {
		if (adev->ops->queue_reset)
			caps |= AMDX_RECOVER_CAP_QUEUE | AMDX_RECOVER_CAP_PIPE;
		if (adev->ops->partition_reset)
			caps |= AMDX_RECOVER_CAP_PARTITION;
		if (adev->ops->vf_flr)
			caps |= AMDX_RECOVER_CAP_VF;
		if (adev->ops->device_reset)
			caps |= AMDX_RECOVER_CAP_DEVICE | AMDX_RECOVER_CAP_HIVE;
	}
	if (!adev->desc.hive_id)
		caps &= ~AMDX_RECOVER_CAP_HIVE;
	return caps;
}

/* The memory partitions local to compute partition @p of @l. */
static u8 amdx_recovery_mem_mask(const struct amdx_query_partitions *l, u32 p)
{
	u32 nmem = amdx_partition_num_memory(l->memory_mode);
	u32 n = l->num_partitions, m;
	u8 mask = 0;

	if (nmem <= n)
		return BIT(l->partitions[p].mem_partition % AMDX_MAX_MEM_PARTITIONS);
	for (m = 0; m < nmem && m < AMDX_MAX_MEM_PARTITIONS; m++)
		if (m * n / nmem == p)
			mask |= BIT(m);
	return mask;
}

/*
 * The reset domains of @d (its hive, its switch, how its reset reaches
 * them), its resets and their estimates: all the model needs to know what
 * a device or hive reset takes.  From the descriptor alone; one partition.
 */
static void amdx_recovery_dev_domain(const struct amdx_device *d,
				     struct amdx_recovery_dev *rd)
{
	u32 a;

	rd->hive = d->desc.hive_id;
	rd->pci_switch = d->desc.pci_switch;
	rd->caps = amdx_recovery_caps(d);
	rd->reset_takes_hive = !!rd->hive;
	rd->reset_is_sbr = rd->pci_switch &&
			   (d->desc.reset_flags & AMDX_RESET_F_SBR);
	for (a = 0; a <= AMDX_RECOVER_HIVE; a++)
		rd->est_ms[a] = d->desc.reset_ms[a] ?:
				amdx_recovery_default_ms[a];
	rd->num_partitions = 1;
}

static void amdx_recovery_dev_fill(struct amdx_recovery_ctx *c, u32 i)
{
	struct amdx_device *d = c->devs[i];
	struct amdx_recovery_dev *rd = &c->topo.dev[i];
	struct amdx_query_partitions *l = &c->layout;
	u32 n, p, cnt;

	amdx_recovery_dev_domain(d, rd);
	n = clamp_t(u32, amdx_partition_fill(d, l, AMDX_MAX_PARTITIONS), 1,
		    AMDX_MAX_PARTITIONS);
	if (!l->num_partitions) {
		/* No layout: one partition, its memory the first. */
		l->partitions[0].mem_partition = 0;
		l->partitions[0].vf = AMDX_VF_NONE;
		l->num_partitions = 1;
	}
	rd->num_partitions = n;
	rd->num_vfs = min_t(u32, READ_ONCE(d->part->num_vfs), AMDX_MAX_VFS);
	for (p = 0; p < n; p++) {
		u32 vf = l->partitions[p].vf;

		if (vf < rd->num_vfs)
			rd->vf_partitions[vf] |= BIT(p);
		c->mem[i][p] = amdx_recovery_mem_mask(l, p);
		rd->mem[p] = c->mem[i][p];
		if (!amdx_hmm_holders(d, c->mem[i][p], NULL, 0, &cnt))
			rd->procs[p] = cnt;
	}
}

static void amdx_recovery_ctx_put(struct amdx_recovery_ctx *c)
{
	u32 i;

	amdx_hmm_holders_put(c->holders, c->nholders);
	kvfree(c->holders);
	kvfree(c->holder_dev);
	for (i = 0; i < c->topo.num; i++)
		if (c->devs[i])
			amdx_device_put(c->devs[i]);
	kfree(c);
}

/*
 * The node's topology, @adev included even before it is published: with
 * @full each device's partitions, VFs and the processes holding them (the
 * caller holds @adev's RAS lock), else only its reset domains
 * (amdx_recovery_dev_domain(), no lock needed).  Returns the context or
 * NULL (no memory, logged by the caller).
 */
static struct amdx_recovery_ctx *__amdx_recovery_ctx_get(struct amdx_device *adev,
							 bool full)
{
	struct amdx_recovery_ctx *c;
	struct amdx_device *d;
	unsigned long id = 0;
	bool self = false;
	u32 n = 0, i;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	while (n < AMDX_RECOVERY_MAX_DEVICES && (d = amdx_device_next(&id))) {
		id++;
		if (d == adev)
			self = true;
		c->devs[n++] = d;
	}
	if (!self) {
		if (n == AMDX_RECOVERY_MAX_DEVICES)
			amdx_device_put(c->devs[--n]);
		kref_get(&adev->ref);
		c->devs[n++] = adev;
	}
	c->topo.num = n;
	c->topo.node_reboot_ms = AMDX_RECOVERY_NODE_REBOOT_MS;
	for (i = 0; i < n; i++) {
		if (c->devs[i] == adev)
			c->self = i;
		if (full)
			amdx_recovery_dev_fill(c, i);
		else
			amdx_recovery_dev_domain(c->devs[i], &c->topo.dev[i]);
	}
	return c;
}

static struct amdx_recovery_ctx *amdx_recovery_ctx_get(struct amdx_device *adev)
{
	return __amdx_recovery_ctx_get(adev, true);
}

static struct amdx_recovery_slot *
amdx_recovery_slot(struct amdx_device *adev, u32 partition, u32 vf)
{
	struct amdx_recovery_state *rs = &adev->ras->recovery;

	if (vf < AMDX_MAX_VFS)
		return &rs->vfs[vf];
	if (partition < AMDX_MAX_PARTITIONS)
		return &rs->parts[partition];
	return &rs->dev;
}

/* Drops the consumers @slot names. */
static void amdx_recovery_consumers_put(struct amdx_recovery_slot *slot)
{
	u32 i;

	for (i = 0; i < slot->nconsumers; i++) {
		put_pid(slot->consumers[i].who.pid);
		slot->consumers[i].who.pid = NULL;
	}
	slot->nconsumers = 0;
}

/* Empties @slot: nothing pending, nobody referenced. */
static void amdx_recovery_slot_clear(struct amdx_recovery_slot *slot)
{
	amdx_recovery_consumers_put(slot);
	memset(slot, 0, sizeof(*slot));
}

/* Emits a RECOVERY record about @s; returns its seq. */
static u64 amdx_recovery_event(struct amdx_device *adev, u32 type,
			       const struct amdx_recovery_slot *s,
			       u32 partition, u32 vf, u64 sum, u64 d1)
{
	struct amdx_event ev = {
		.kind = AMDX_EVENT_RECOVERY,
		.type = type,
		.block = s->fault,
		.partition = partition,
		.instance = vf,
		.address = s->seq,
		.data = { sum, d1 },
	};

	amdx_event_emit(adev, &ev);
	return ev.seq;
}

/*
 * The scope of @action on @f into @sc and its summary; without a context
 * (no memory) or for an action that does not fit, an empty scope.
 */
static u64 amdx_recovery_sum_of(struct amdx_recovery_ctx *c,
				const struct amdx_recovery_fault *f,
				u32 action, struct amdx_recovery_scope *sc)
{
	if (!c || amdx_recovery_scope(&c->topo, f, action, sc)) {
		memset(sc, 0, sizeof(*sc));
		return AMDX_RECOVERY_SUM_VALID | action;
	}
	return amdx_recovery_sum(action, sc);
}

/* The fault kind a target's action is previewed for when none is pending. */
static u32 amdx_recovery_default_fault(u32 partition, u32 vf)
{
	if (vf != AMDX_VF_NONE)
		return AMDX_FAULT_VF_HANG;
	if (partition != AMDX_RAS_PARTITION_ALL)
		return AMDX_FAULT_ENGINE_UE;
	return AMDX_FAULT_DEVICE_UE;
}

static u32 amdx_recovery_target_vf(const struct amdx_recovery_slot *slot,
				   struct amdx_device *adev, u32 vf)
{
	return slot == &adev->ras->recovery.vfs[vf % AMDX_MAX_VFS] ?
	       vf : AMDX_VF_NONE;
}

/*
 * @slot (of @partition or @vf) gets @action for a fault of @kind unless an
 * action at least as costly is pending there: a PENDING record with @sum
 * and @est_ms, about @ev, the event that set it (emitted already), or
 * itself when @ev is NULL.  The caller holds the RAS lock.
 */
static void amdx_recovery_pend(struct amdx_device *adev,
			       struct amdx_recovery_slot *slot, u32 kind,
			       u32 action, u32 partition, u32 vf,
			       const struct amdx_event *ev, u64 sum, u32 est_ms)
{
	u32 tvf;

	/* A pending action at least as costly covers this fault too. */
	if (slot->action >= action && slot->state == AMDX_RECOVERY_STATE_PENDING)
		return;
	amdx_recovery_consumers_put(slot);
	*slot = (struct amdx_recovery_slot) {
		.action = action,
		.fault = kind,
		.state = AMDX_RECOVERY_STATE_PENDING,
		.seq = ev ? ev->seq : 0,
		.time_ns = ev ? ev->timestamp_ns : ktime_get_ns(),
	};
	tvf = amdx_recovery_target_vf(slot, adev, vf);
	if (ev) {
		amdx_recovery_event(adev, AMDX_RECOVERY_EV_PENDING, slot,
				    partition, tvf, sum, est_ms);
	} else {
		/* The record is the fault's own: it carries its own seq. */
		slot->seq = amdx_recovery_event(adev, AMDX_RECOVERY_EV_PENDING,
						slot, partition, tvf, sum,
						est_ms);
	}
	amdx_info_ratelimited(adev, "%s on %s %d: %s pending\n",
			      amdx_recovery_fault_name(kind),
			      tvf != AMDX_VF_NONE ? "VF" :
			      partition < AMDX_MAX_PARTITIONS ? "partition" :
			      "device", tvf != AMDX_VF_NONE ? (int)tvf :
			      partition < AMDX_MAX_PARTITIONS ? (int)partition :
			      (int)adev->id, amdx_recovery_action_name(action));
}

/*
 * The action fault @fault (its device is @adev) sets under the policy in
 * force (the ladder's choice, or a replay baseline's:
 * amdx_recovery_policy.c), its summary (%AMDX_RECOVERY_SUM_*) and estimate
 * into @action, @sum and @est_ms.  A fault that needs nothing is nothing
 * under amdx, without the topology; a baseline's map is asked for every
 * fault (an uncorrected page_ce may cost it more).  Returns as
 * amdx_recovery_fault(); on -ENOMEM the action the fault needs, unscoped.
 * The caller holds the RAS lock.
 */
static int amdx_recovery_decide(struct amdx_device *adev,
				const struct amdx_recovery_fault *fault,
				u32 *action, u64 *sum, u32 *est_ms)
{
	struct amdx_recovery_fault f = *fault;
	struct amdx_recovery_scope sc = {};
	struct amdx_recovery_ctx *c;
	int ret;

	*action = AMDX_RECOVER_NONE;
	*sum = AMDX_RECOVERY_SUM_VALID;
	*est_ms = 0;
	if (f.kind >= AMDX_FAULT_COUNT)
		return -EINVAL;
	if (amdx_recovery_need(f.kind) == AMDX_RECOVER_NONE &&
	    amdx_recovery_policy_get() == AMDX_RECOVERY_POLICY_AMDX)
		return 0;
	c = amdx_recovery_ctx_get(adev);
	if (!c) {
		*action = amdx_recovery_need(f.kind);
		*sum |= *action;
		return -ENOMEM;
	}
	f.device = c->self;
	ret = amdx_recovery_choose(&c->topo, &f, action);
	if (!ret) {
		*action = amdx_recovery_policy_map(amdx_recovery_policy_get(),
						   &c->topo, &f, *action);
		*sum = amdx_recovery_sum_of(c, &f, *action, &sc);
		*est_ms = sc.est_ms;
	}
	amdx_recovery_ctx_put(c);
	return ret;
}

/**
 * amdx_recovery_fault() - a fault sets its target's pending action
 * @adev: the device; the caller holds its RAS lock.
 * @kind: %AMDX_FAULT_*.
 * @partition: the compute partition it hit, or %AMDX_RAS_PARTITION_ALL.
 * @vf: the VF it hit (%AMDX_FAULT_VF_HANG), else %AMDX_VF_NONE.
 * @ev: the fault's event, emitted here with data[1] the summary of the
 *	action chosen, or NULL: the RECOVERY record is the fault's own.
 *
 * Return: 0; -EINVAL for a fault that does not fit the device (a
 * partition or VF it lacks, a queue hang without a partition, a fabric
 * fault outside a hive); -ENOMEM (the action the fault needs is pending
 * then, unscoped).  @ev is emitted either way.
 */
int amdx_recovery_fault(struct amdx_device *adev, u32 kind, u32 partition,
			u32 vf, struct amdx_event *ev)
{
	const struct amdx_recovery_fault f = {
		.kind = kind,
		.partition = partition,
		.vf = vf,
	};

	return amdx_recovery_fault_error(adev, &f, ev, NULL);
}

/**
 * amdx_recovery_fault_error() - amdx_recovery_fault() of a hardware error
 *	(amdx_recovery_fault_of()), whose record the longer records extend
 * @adev: the device; the caller holds its RAS lock.
 * @fault: the fault: its kind (%AMDX_FAULT_*), the compute partition it
 *	hit or %AMDX_RAS_PARTITION_ALL, the VF it hit (else %AMDX_VF_NONE),
 *	whether it was uncorrectable; its device is @adev.
 * @ev: the fault's event, or NULL.
 * @error: what the longer records add to @ev (amdx_event_emit_error()),
 *	or NULL.
 *
 * Return: as amdx_recovery_fault().
 */
int amdx_recovery_fault_error(struct amdx_device *adev,
			      const struct amdx_recovery_fault *fault,
			      struct amdx_event *ev,
			      const struct amdx_event_error *error)
{
	u32 action = AMDX_RECOVER_NONE, est_ms = 0, kind = fault->kind;
	u32 partition = fault->partition, vf = fault->vf;
	u64 sum = AMDX_RECOVERY_SUM_VALID;
	struct amdx_recovery_slot *slot;
	int ret;

	ret = amdx_recovery_decide(adev, fault, &action, &sum, &est_ms);
	if (ev) {
		ev->data[1] = ret == -EINVAL ? 0 : sum;
		if (error)
			amdx_event_emit_error(adev, ev, error);
		else
			amdx_event_emit(adev, ev);
	}
	if (ret == -EINVAL || action == AMDX_RECOVER_NONE)
		return ret;

	slot = amdx_recovery_slot(adev, partition,
				  kind == AMDX_FAULT_VF_HANG ? vf : AMDX_VF_NONE);
	amdx_recovery_pend(adev, slot, kind, action, partition, vf, ev, sum,
			   est_ms);
	return ret;
}

/* The fault kind of amdx_recovery_fault_of(). */
static u32 amdx_recovery_fault_kind(struct amdx_device *adev,
				    const struct amdx_ras_error *err)
{
	if (err->type != AMDX_RAS_TYPE_UE)
		return AMDX_FAULT_PAGE_CE;
	switch (err->block) {
	case AMDX_RAS_BLOCK_UMC:
		return amdx_ras_error_on_page(err) ? AMDX_FAULT_POISON_CONSUMED :
						     AMDX_FAULT_DEVICE_UE;
	case AMDX_RAS_BLOCK_GFX:
	case AMDX_RAS_BLOCK_SDMA:
		return err->partition < AMDX_MAX_PARTITIONS ?
		       AMDX_FAULT_ENGINE_UE : AMDX_FAULT_DEVICE_UE;
	case AMDX_RAS_BLOCK_XGMI_WAFL:
		return adev->desc.hive_id ? AMDX_FAULT_FABRIC :
					    AMDX_FAULT_DEVICE_UE;
	default:
		return AMDX_FAULT_DEVICE_UE;
	}
}

/**
 * amdx_recovery_fault_of() - the fault a hardware error report stands for
 * @adev: the device.
 * @err: the report.
 * @f: out: the fault (its device left to amdx_recovery_fault_error()).
 *
 * A CE, and a DE (deferred: its page is poison-retired before anyone
 * reads it), break nothing: %AMDX_FAULT_PAGE_CE, @f->uncorrected for a
 * umc DE, an uncorrectable error in HBM nothing consumed (MI300's poison
 * mode reports one so); a umc UE at a page is poison a process consumes,
 * one without a page the device's (MI300's UMC UEs, which are fatal and
 * come without an address; the containment ladder resets the device for
 * them: amdx_ras_error_on_page()); a gfx or
 * sdma UE of one partition breaks that partition's engines, of none the
 * device; an xgmi UE the hive's fabric (the device outside a hive); any
 * other UE the device.  The partition is the report's, no VF.
 */
void amdx_recovery_fault_of(struct amdx_device *adev,
			    const struct amdx_ras_error *err,
			    struct amdx_recovery_fault *f)
{
	*f = (struct amdx_recovery_fault) {
		.kind = amdx_recovery_fault_kind(adev, err),
		.partition = err->partition,
		.vf = AMDX_VF_NONE,
		.uncorrected = err->block == AMDX_RAS_BLOCK_UMC &&
			       err->type == AMDX_RAS_TYPE_DE,
	};
}

/*
 * More consumers on @partition than a process action names (or than the
 * queue held): the next sufficient rung after process, which stops every
 * process there.  The caller holds the RAS lock.
 */
static void amdx_recovery_consumers_escalate(struct amdx_device *adev,
					     u32 partition,
					     const struct amdx_event *ev)
{
	struct amdx_recovery_fault f = {
		.kind = AMDX_FAULT_POISON_CONSUMED,
		.partition = partition,
		.vf = AMDX_VF_NONE,
	};
	u32 next = AMDX_RECOVER_PROCESS;
	struct amdx_recovery_scope sc;
	struct amdx_recovery_ctx *c;
	u64 sum;

	c = amdx_recovery_ctx_get(adev);
	if (c) {
		f.device = c->self;
		if (amdx_recovery_escalate(&c->topo, &f, &next))
			next = AMDX_RECOVER_RMA;
	} else {
		next = AMDX_RECOVER_DEVICE;
	}
	sum = amdx_recovery_sum_of(c, &f, next, &sc);
	amdx_warn_ratelimited(adev, "recovery: more processes consumed poison than a process action names: %s\n",
			      amdx_recovery_action_name(next));
	amdx_recovery_pend(adev, amdx_recovery_slot(adev, partition,
						    AMDX_VF_NONE),
			   AMDX_FAULT_POISON_CONSUMED, next, partition,
			   AMDX_VF_NONE, ev, sum, sc.est_ms);
	if (c)
		amdx_recovery_ctx_put(c);
}

/*
 * One queued consumption: the process action of the page's partition (of
 * the device when the page belongs to no one partition), the consumer
 * named in it, a PENDING record about its POISON_CONSUMED record.  A
 * costlier action pending there covers it.  Takes @q's reference.  The
 * caller holds the RAS lock.
 */
static void amdx_recovery_consumer_add(struct amdx_device *adev,
				       struct amdx_recovery_consumed *q)
{
	u32 action = amdx_recovery_need(AMDX_FAULT_POISON_CONSUMED);
	struct amdx_event ev = { .seq = q->seq, .timestamp_ns = q->time_ns };
	struct amdx_recovery_slot *slot;
	struct amdx_recovery_scope sc = {};
	u32 mem, part, i;

	if (amdx_partition_of_vram(adev, q->index << PAGE_SHIFT, &mem, &part))
		goto out;
	slot = amdx_recovery_slot(adev, part, AMDX_VF_NONE);
	/*
	 * Under a replay baseline the consumption sets that policy's action
	 * (amdx_recovery_policy.c: a GPU reset for both), as every fault
	 * does; naming the consumers is for the process action alone.
	 */
	if (amdx_recovery_policy_get() != AMDX_RECOVERY_POLICY_AMDX) {
		const struct amdx_recovery_fault f = {
			.kind = AMDX_FAULT_POISON_CONSUMED,
			.partition = part,
			.vf = AMDX_VF_NONE,
		};
		u32 est_ms;
		u64 sum;

		amdx_recovery_decide(adev, &f, &action, &sum, &est_ms);
		if (action > AMDX_RECOVER_PROCESS) {
			amdx_recovery_pend(adev, slot,
					   AMDX_FAULT_POISON_CONSUMED, action,
					   part, AMDX_VF_NONE, &ev, sum,
					   est_ms);
			goto out;
		}
		action = amdx_recovery_need(AMDX_FAULT_POISON_CONSUMED);
	}
	/* A costlier action, pending or failed, stays: it covers this. */
	if (slot->action > action)
		goto out;
	if (slot->state == AMDX_RECOVERY_STATE_PENDING) {
		for (i = 0; i < slot->nconsumers; i++)
			if (slot->consumers[i].who.pid == q->who.pid)
				goto out;
		if (slot->nconsumers == AMDX_RECOVERY_CONSUMERS) {
			amdx_recovery_consumers_escalate(adev, part, &ev);
			goto out;
		}
	}
	if (slot->action != action ||
	    slot->state != AMDX_RECOVERY_STATE_PENDING)
		amdx_recovery_slot_clear(slot);
	slot->action = action;
	slot->fault = AMDX_FAULT_POISON_CONSUMED;
	slot->state = AMDX_RECOVERY_STATE_PENDING;
	slot->seq = q->seq;
	slot->time_ns = q->time_ns;
	slot->consumers[slot->nconsumers].who = q->who;
	slot->consumers[slot->nconsumers++].mem_partition = mem;
	q->who.pid = NULL;
	sc.num_processes = slot->nconsumers;
	amdx_recovery_event(adev, AMDX_RECOVERY_EV_PENDING, slot, part,
			    AMDX_VF_NONE, amdx_recovery_sum(action, &sc),
			    adev->desc.reset_ms[action]);
	amdx_info_ratelimited(adev, "poison consumed on %s %d: %s pending, %u processes named\n",
			      part < AMDX_MAX_PARTITIONS ? "partition" :
			      "device", part < AMDX_MAX_PARTITIONS ? (int)part :
			      (int)adev->id, amdx_recovery_action_name(action),
			      slot->nconsumers);
out:
	put_pid(q->who.pid);
}

/*
 * Sets the actions of the queued consumptions, in their order.  The caller
 * holds the RAS lock.
 */
static void amdx_recovery_absorb(struct amdx_device *adev)
{
	struct amdx_recovery_state *rs = &adev->ras->recovery;
	struct amdx_recovery_consumed q;
	unsigned long flags;
	bool got, overflow;

	for (;;) {
		spin_lock_irqsave(&rs->queue_lock, flags);
		got = rs->nqueued;
		if (got) {
			q = rs->queue[0];
			rs->nqueued--;
			memmove(&rs->queue[0], &rs->queue[1],
				rs->nqueued * sizeof(q));
		}
		overflow = !got && rs->overflow;
		if (overflow)
			rs->overflow = false;
		spin_unlock_irqrestore(&rs->queue_lock, flags);
		if (!got)
			break;
		amdx_recovery_consumer_add(adev, &q);
	}
	if (overflow)
		amdx_recovery_consumers_escalate(adev, AMDX_RAS_PARTITION_ALL,
						 NULL);
}

static void amdx_recovery_work(struct work_struct *work)
{
	struct amdx_recovery_state *rs =
		container_of(work, struct amdx_recovery_state, work);
	struct amdx_device *adev = rs->adev;

	down_read(&adev->lock);
	if (!adev->dead) {
		mutex_lock(&adev->ras->lock);
		amdx_recovery_absorb(adev);
		mutex_unlock(&adev->ras->lock);
	}
	up_read(&adev->lock);
}

/* %AMDX_DEVICE_REMOVE: nothing is queued any more; what was is dropped. */
static void amdx_recovery_remove(struct amdx_device *adev)
{
	struct amdx_recovery_state *rs = &adev->ras->recovery;
	unsigned long flags;

	spin_lock_irqsave(&rs->queue_lock, flags);
	rs->closed = true;
	spin_unlock_irqrestore(&rs->queue_lock, flags);
	cancel_work_sync(&rs->work);
	while (rs->nqueued)
		put_pid(rs->queue[--rs->nqueued].who.pid);
}

/**
 * amdx_recovery_init() - set up a device's recovery state
 * @adev: the device, being registered; adev->ras allocated, zeroed.
 *
 * Registers the end of the consumption queue (%AMDX_DEVICE_REMOVE).
 *
 * Return: 0, or -ENOSPC when the device holds no more actions.
 */
int amdx_recovery_init(struct amdx_device *adev)
{
	struct amdx_recovery_state *rs = &adev->ras->recovery;

	rs->adev = adev;
	spin_lock_init(&rs->queue_lock);
	INIT_WORK(&rs->work, amdx_recovery_work);
	return amdx_device_add_action_or_reset(adev, AMDX_DEVICE_REMOVE,
					       amdx_recovery_remove);
}

/**
 * amdx_recovery_fini() - drop what a device's recovery state references
 * @ras: the device's RAS state, being freed: nobody reads it any more.
 */
void amdx_recovery_fini(struct amdx_ras *ras)
{
	struct amdx_recovery_state *rs = &ras->recovery;
	u32 i;

	amdx_recovery_consumers_put(&rs->dev);
	for (i = 0; i < AMDX_MAX_PARTITIONS; i++)
		amdx_recovery_consumers_put(&rs->parts[i]);
	for (i = 0; i < AMDX_MAX_VFS; i++)
		amdx_recovery_consumers_put(&rs->vfs[i]);
	while (rs->nqueued)
		put_pid(rs->queue[--rs->nqueued].who.pid);
}

/* The self-test of @partition, or of every partition for the device. */
static int amdx_recovery_self_test(struct amdx_recovery_ctx *c, u32 partition)
{
	struct amdx_device *adev = c->devs[c->self];
	const struct amdx_recovery_dev *d = &c->topo.dev[c->self];
	u32 p, first = 0, last = d->num_partitions - 1;
	int ret;

	if (!adev->ops->self_test)
		return 0;
	if (partition < d->num_partitions) {
		first = partition;
		last = partition;
	}
	for (p = first; p <= last; p++) {
		ret = adev->ops->self_test(adev, p, __ffs(c->mem[c->self][p] | 0x100));
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Clears every slot of @adev an action as wide as @action covered, the
 * device's own too with @dev; each with a CLEARED record.
 */
static void amdx_recovery_clear_covered(struct amdx_device *adev, u32 action,
					bool dev)
{
	struct amdx_recovery_state *rs = &adev->ras->recovery;
	u32 i;

	if (dev && rs->dev.action && rs->dev.action <= action) {
		amdx_recovery_event(adev, AMDX_RECOVERY_EV_CLEARED, &rs->dev,
				    AMDX_RAS_PARTITION_ALL, AMDX_VF_NONE,
				    AMDX_RECOVERY_SUM_VALID, 0);
		amdx_recovery_slot_clear(&rs->dev);
	}

	for (i = 0; i < AMDX_MAX_PARTITIONS; i++) {
		if (rs->parts[i].action && rs->parts[i].action <= action) {
			amdx_recovery_event(adev, AMDX_RECOVERY_EV_CLEARED,
					    &rs->parts[i], i, AMDX_VF_NONE,
					    AMDX_RECOVERY_SUM_VALID, 0);
			amdx_recovery_slot_clear(&rs->parts[i]);
		}
	}
	for (i = 0; i < AMDX_MAX_VFS; i++) {
		if (rs->vfs[i].action && rs->vfs[i].action <= action) {
			amdx_recovery_event(adev, AMDX_RECOVERY_EV_CLEARED,
					    &rs->vfs[i], AMDX_RAS_PARTITION_ALL,
					    i, AMDX_RECOVERY_SUM_VALID, 0);
			amdx_recovery_slot_clear(&rs->vfs[i]);
		}
	}
}

/*
 * A device or hive reset (@action) that ran and failed with @ret is the
 * reset_failed fault: no reset of the device repairs what it left, so the
 * device gets that fault's action (a node reboot) on top of whatever
 * failed.  Nothing ran for -EOPNOTSUPP (no reset) or -EINTR (killed
 * before it), and for -EALREADY the driver's own reset stands for it
 * (amdx_device_reset_end() reports that one's result).  The caller holds
 * the RAS lock.
 */
static void amdx_recovery_reset_failed(struct amdx_device *adev, u32 action,
				       int ret)
{
	if (!ret || ret == -EALREADY || ret == -EOPNOTSUPP || ret == -EINTR ||
	    action < AMDX_RECOVER_DEVICE || action > AMDX_RECOVER_HIVE)
		return;
	amdx_recovery_fault(adev, AMDX_FAULT_RESET_FAILED,
			    AMDX_RAS_PARTITION_ALL, AMDX_VF_NONE, NULL);
}

/*
 * @action ran on @slot's target (@partition, @vf) with result @ret: the
 * slot fails, clears after a passing self-test, or escalates.  The caller
 * holds the RAS lock.  Returns %AMDX_RECOVERY_OUT_* and sets *@err.
 */
static u32 amdx_recovery_finish(struct amdx_recovery_ctx *c,
				struct amdx_recovery_slot *slot, u32 partition,
				u32 vf, u32 action, int ret, int *err)
{
	struct amdx_device *adev = c->devs[c->self];
	struct amdx_recovery_fault f = {
		.kind = slot->action ? slot->fault :
			amdx_recovery_default_fault(partition, vf),
		.device = c->self,
		.partition = partition,
		.vf = vf,
	};
	struct amdx_recovery_scope sc;
	u32 next = action;
	u64 sum;

	*err = ret;
	/*
	 * The device's driver resets it on its own already (amdgpu's RAS
	 * recovery of a fatal error): that reset stands for this action,
	 * which stays pending until the reset ends (amdx_device_reset_end()
	 * runs it then).  Nothing failed.
	 */
	if (ret == -EALREADY)
		return AMDX_RECOVERY_OUT_NONE;
	if (ret) {
		slot->state = AMDX_RECOVERY_STATE_FAILED;
		slot->action = max(slot->action, action);
		slot->fault = f.kind;
		if (slot->action != AMDX_RECOVER_PROCESS)
			amdx_recovery_consumers_put(slot);
		amdx_recovery_event(adev, AMDX_RECOVERY_EV_FAILED, slot,
				    partition, vf,
				    amdx_recovery_sum_of(c, &f, slot->action, &sc),
				    (u64)(s64)ret);
		amdx_warn_ratelimited(adev, "recovery: %s failed midway: %pe; state failed\n",
				      amdx_recovery_action_name(action),
				      ERR_PTR(ret));
		amdx_recovery_reset_failed(adev, action, ret);
		return AMDX_RECOVERY_OUT_FAILED;
	}
	amdx_recovery_event(adev, AMDX_RECOVERY_EV_RAN, slot, partition, vf,
			    amdx_recovery_sum_of(c, &f, action, &sc), 0);
	ret = amdx_recovery_self_test(c, partition);
	amdx_recovery_event(adev, AMDX_RECOVERY_EV_SELFTEST, slot, partition,
			    vf, AMDX_RECOVERY_SUM_VALID | action, (u64)(s64)ret);
	if (ret) {
		*err = ret;
		if (amdx_recovery_escalate(&c->topo, &f, &next))
			next = AMDX_RECOVER_RMA;
		next = max(next, slot->action);
		sum = amdx_recovery_sum_of(c, &f, next, &sc);
		slot->action = next;
		slot->fault = f.kind;
		slot->state = AMDX_RECOVERY_STATE_PENDING;
		if (next != AMDX_RECOVER_PROCESS)
			amdx_recovery_consumers_put(slot);
		amdx_recovery_event(adev, AMDX_RECOVERY_EV_ESCALATED, slot,
				    partition, vf, sum, (u64)(s64)ret);
		amdx_warn_ratelimited(adev, "recovery: self-test failed after %s (%pe): escalated to %s\n",
				      amdx_recovery_action_name(action),
				      ERR_PTR(ret),
				      amdx_recovery_action_name(next));
		return AMDX_RECOVERY_OUT_ESCALATED;
	}
	if (slot->action <= action) {
		amdx_recovery_event(adev, AMDX_RECOVERY_EV_CLEARED, slot,
				    partition, vf, AMDX_RECOVERY_SUM_VALID, 0);
		amdx_recovery_slot_clear(slot);
	}
	if (action >= AMDX_RECOVER_DEVICE)
		amdx_recovery_clear_covered(adev, action, false);
	return AMDX_RECOVERY_OUT_CLEARED;
}

/**
 * amdx_recovery_ran() - the containment ladder ran a reset itself
 * @adev: the device; the caller holds its RAS lock.
 * @action: %AMDX_RECOVER_PARTITION or %AMDX_RECOVER_DEVICE.
 * @partition: the partition reset, or %AMDX_RAS_PARTITION_ALL.
 * @ret: the reset's result.
 *
 * When @action is what the target has pending, it counts as running it:
 * the self-test follows and the state clears, escalates or fails.  A
 * device reset that failed is the reset_failed fault either way.
 */
void amdx_recovery_ran(struct amdx_device *adev, u32 action, u32 partition,
		       int ret)
{
	struct amdx_recovery_slot *slot;
	struct amdx_recovery_ctx *c;
	int err;

	slot = amdx_recovery_slot(adev, partition, AMDX_VF_NONE);
	if (slot->action != action ||
	    slot->state != AMDX_RECOVERY_STATE_PENDING) {
		amdx_recovery_reset_failed(adev, action, ret);
		return;
	}
	c = amdx_recovery_ctx_get(adev);
	if (!c) {
		amdx_warn_ratelimited(adev, "recovery: no memory for the self-test after %s; still pending\n",
				      amdx_recovery_action_name(action));
		amdx_recovery_reset_failed(adev, action, ret);
		return;
	}
	amdx_recovery_finish(c, slot, partition, AMDX_VF_NONE, action, ret,
			     &err);
	amdx_recovery_ctx_put(c);
}

/**
 * amdx_recovery_reset_ids() - the devices a device reset takes
 * @adev: the device.
 * @ids: out: a bitmap of their ids, @adev's included.
 *
 * The recovery model's scope of a device reset (amdx_recovery_scope()),
 * what RECOVERY_PLAN of %AMDX_RECOVER_DEVICE says: the device's hive when
 * its reset is hive-wide, every device below its PCIe switch when it is a
 * secondary bus reset, and so on until no device is added.  Reads the
 * registry and each device's descriptor; the caller need hold no lock.
 *
 * Return: 0, or -ENOMEM.
 */
int amdx_recovery_reset_ids(struct amdx_device *adev, u64 *ids)
{
	struct amdx_recovery_fault f = {
		.kind = AMDX_FAULT_DEVICE_UE,
		.partition = AMDX_RAS_PARTITION_ALL,
		.vf = AMDX_VF_NONE,
	};
	struct amdx_recovery_scope sc;
	struct amdx_recovery_ctx *c;
	u32 i, id;

	*ids = 0;
	c = __amdx_recovery_ctx_get(adev, false);
	if (!c)
		return -ENOMEM;
	f.device = c->self;
	if (amdx_recovery_scope(&c->topo, &f, AMDX_RECOVER_DEVICE, &sc))
		sc.devices = BIT_ULL(c->self);
	for (i = 0; i < c->topo.num; i++) {
		id = c->devs[i]->id;
		if ((sc.devices & BIT_ULL(i)) && id < AMDX_MAX_DEVICES)
			*ids |= BIT_ULL(id);
	}
	amdx_recovery_ctx_put(c);
	return 0;
}

/**
 * amdx_recovery_reset_mask() - the device ids a device reset affects
 * @adev: the device.
 *
 * Return: amdx_recovery_reset_ids()'s bitmap; without memory to compute
 * it, @adev alone (logged).
 */
u64 amdx_recovery_reset_mask(struct amdx_device *adev)
{
	u64 ids;

	if (!amdx_recovery_reset_ids(adev, &ids))
		return ids;
	amdx_warn_ratelimited(adev, "no memory for the scope of a device reset: the record names this device alone\n");
	return adev->id < AMDX_MAX_DEVICES ? BIT_ULL(adev->id) : 0;
}

static void amdx_recovery_emit(struct amdx_device *adev, u16 kind, u64 d0,
			       u64 d1, u64 address)
{
	struct amdx_event ev = {
		.kind = kind,
		.partition = AMDX_RAS_PARTITION_ALL,
		.address = address,
		.data = { d0, d1 },
	};

	amdx_event_emit(adev, &ev);
}

/**
 * amdx_recovery_device_reset() - reset a device, as containment does
 * @adev: the device; the caller holds its RAS lock.
 *
 * The reset runs with the VRAM gate closed, as a partition commit does
 * (the lock order allows the gate under the RAS lock): the migrations in
 * flight end first, none starts until the reset is over.  A fatal signal
 * while waiting for them ends the action with -EINTR and no reset; a
 * provider's report comes from a worker, which no signal stops.  Events:
 * ACTION_START, DEVICE_RESET_BEGIN (the device ids affected),
 * DEVICE_RESET_END, ACTION_END.
 *
 * Return: 0, -EINTR, -EOPNOTSUPP without &amdx_provider_ops.device_reset,
 * or the provider's error: -EALREADY when the device's driver is
 * resetting it on its own already (that reset stands for this one: the
 * action stays pending until amdx_device_reset_end()).
 */
int amdx_recovery_device_reset(struct amdx_device *adev)
{
	u64 t0 = ktime_get_ns();
	int ret;

	amdx_recovery_emit(adev, AMDX_EVENT_ACTION_START,
			   AMDX_ACTION_DEVICE_RESET, 0, 0);
	ret = amdx_partition_vram_close(adev);
	if (ret) {
		amdx_warn(adev, "device reset not done: killed while migrations ran\n");
		goto out;
	}
	amdx_recovery_emit(adev, AMDX_EVENT_DEVICE_RESET_BEGIN,
			   amdx_recovery_reset_mask(adev), 0, 0);
	ret = adev->ops->device_reset ? adev->ops->device_reset(adev) :
					-EOPNOTSUPP;
	if (ret == -EALREADY)
		amdx_info(adev, "device reset: its driver is resetting the device already; that reset stands for this one\n");
	else if (ret)
		amdx_err(adev, "device reset failed: %pe\n", ERR_PTR(ret));
	amdx_recovery_emit(adev, AMDX_EVENT_DEVICE_RESET_END, (u64)(s64)ret, 0,
			   0);
	amdx_partition_vram_open(adev);
out:
	amdx_recovery_emit(adev, AMDX_EVENT_ACTION_END,
			   AMDX_ACTION_DEVICE_RESET, (u64)(s64)ret,
			   ktime_get_ns() - t0);
	return ret;
}

/* The processes @sc stops: the holders of its partitions' VRAM. */
static int amdx_recovery_holders(struct amdx_recovery_ctx *c,
				 const struct amdx_recovery_scope *sc)
{
	u32 i, p, got, total = 0, room;
	u8 mem[AMDX_RECOVERY_MAX_DEVICES] = {};
	int ret;

	for (i = 0; i < c->topo.num; i++)
		for (p = 0; p < AMDX_MAX_PARTITIONS; p++)
			if (sc->partitions[i] & BIT(p))
				mem[i] |= c->mem[i][p];
	for (i = 0; i < c->topo.num; i++) {
		if (!mem[i])
			continue;
		ret = amdx_hmm_holders(c->devs[i], mem[i], NULL, 0, &got);
		if (ret)
			return ret;
		total += got;
	}
	total = min_t(u32, total, AMDX_RECOVERY_PROCESSES_MAX);
	if (!total)
		return 0;
	c->holders = kvcalloc(total, sizeof(*c->holders), GFP_KERNEL);
	c->holder_dev = kvcalloc(total, sizeof(*c->holder_dev), GFP_KERNEL);
	if (!c->holders || !c->holder_dev)
		return -ENOMEM;
	for (i = 0; i < c->topo.num && c->nholders < total; i++) {
		if (!mem[i])
			continue;
		room = total - c->nholders;
		ret = amdx_hmm_holders(c->devs[i], mem[i],
				       c->holders + c->nholders, room, &got);
		if (ret)
			return ret;
		got = min(got, room);
		memset(c->holder_dev + c->nholders, i, got);
		c->nholders += got;
	}
	return 0;
}

/*
 * The device pages each of @c's holders has in its memory partition, as
 * amdx_hmm_holders() counts them for a wider action's holders: a process
 * action's consumers are named by the slot, their pages are not.
 */
static int amdx_recovery_consumer_pages(struct amdx_recovery_ctx *c)
{
	struct amdx_device *adev = c->devs[c->self];
	struct amdx_hmm_holder *all;
	u32 i, j, mem = 0, got, n;
	int ret;

	for (i = 0; i < c->nholders; i++)
		mem |= BIT(c->holders[i].mem_partition);
	ret = amdx_hmm_holders(adev, mem, NULL, 0, &got);
	if (ret || !got)
		return ret;
	n = min_t(u32, got, AMDX_RECOVERY_PROCESSES_MAX);
	all = kvcalloc(n, sizeof(*all), GFP_KERNEL);
	if (!all)
		return -ENOMEM;
	ret = amdx_hmm_holders(adev, mem, all, n, &got);
	if (!ret) {
		n = min(n, got);
		for (i = 0; i < c->nholders; i++)
			for (j = 0; j < n; j++)
				if (all[j].who.pid == c->holders[i].who.pid &&
				    all[j].mem_partition ==
				    c->holders[i].mem_partition)
					c->holders[i].pages += all[j].pages;
		amdx_hmm_holders_put(all, n);
	}
	kvfree(all);
	return ret;
}

/*
 * The processes a process action stops: the consumers @slot names that
 * still run (one exiting already is not stopped again), with their pages.
 */
static int amdx_recovery_consumers(struct amdx_recovery_ctx *c,
				   const struct amdx_recovery_slot *slot)
{
	struct amdx_hmm_holder *h;
	struct task_struct *t;
	u32 i;

	if (!slot->nconsumers)
		return 0;
	c->holders = kvcalloc(slot->nconsumers, sizeof(*c->holders),
			      GFP_KERNEL);
	c->holder_dev = kvcalloc(slot->nconsumers, sizeof(*c->holder_dev),
				 GFP_KERNEL);
	if (!c->holders || !c->holder_dev)
		return -ENOMEM;
	for (i = 0; i < slot->nconsumers; i++) {
		t = get_pid_task(slot->consumers[i].who.pid, PIDTYPE_TGID);
		if (!t)
			continue;
		h = &c->holders[c->nholders];
		if (!(t->flags & PF_EXITING)) {
			get_task_comm(h->comm, t);
			h->who.pid = get_pid(slot->consumers[i].who.pid);
			h->who.euid = slot->consumers[i].who.euid;
			h->mem_partition = slot->consumers[i].mem_partition;
			c->holder_dev[c->nholders++] = c->self;
		}
		put_task_struct(t);
	}
	return amdx_recovery_consumer_pages(c);
}

/* The holders as the caller may see them (amdx_viewer.c). */
static int amdx_recovery_copy_holders(struct amdx_device *adev,
				      struct amdx_recovery_ctx *c,
				      struct amdx_recovery *args)
{
	struct amdx_recovery_process __user *dst =
		u64_to_user_ptr(args->processes);
	struct amdx_recovery_process up;
	struct amdx_viewer v;
	u32 i, n = min(c->nholders, args->num_listed);
	int ret = 0;

	amdx_viewer_init(&v);
	for (i = 0; i < n; i++) {
		const struct amdx_hmm_holder *h = &c->holders[i];

		memset(&up, 0, sizeof(up));
		up.pid = amdx_viewer_pid(&v, &h->who);
		up.device = c->devs[c->holder_dev[i]]->id;
		up.mem_partition = h->mem_partition;
		up.pages = h->pages;
		if (up.pid)
			strscpy(up.comm, h->comm, sizeof(up.comm));
		ret = amdx_device_copy_to_user(adev, &dst[i], &up, sizeof(up));
		if (ret)
			break;
	}
	amdx_viewer_fini(&v);
	args->num_listed = ret ? 0 : n;
	return ret;
}

static int amdx_recovery_check(struct amdx_device *adev,
			       const struct amdx_recovery *args, bool run)
{
	const char *why = NULL;

	if (args->flags & ~(run ? AMDX_RECOVERY_F_ALL : 0))
		why = run ? "unknown flags" : "flags (plan takes none)";
	else if (args->reserved[0] || args->reserved[1])
		why = "reserved not zero";
	else if (args->action != AMDX_RECOVER_PENDING &&
		 args->action >= AMDX_RECOVER_COUNT)
		why = "unknown action";
	else if (args->partition != AMDX_RAS_PARTITION_ALL &&
		 args->vf != AMDX_VF_NONE)
		why = "both a partition and a VF";
	else if (args->num_listed > AMDX_RECOVERY_PROCESSES_MAX)
		why = "num_listed above AMDX_RECOVERY_PROCESSES_MAX";
	else if (args->num_listed && !args->processes)
		why = "num_listed without processes";
	if (!why)
		return 0;
	amdx_info_ratelimited(adev, "recovery %s refused: %s\n",
			      run ? "run" : "plan", why);
	return -EINVAL;
}

/*
 * The one rule plan and run share: -EOPNOTSUPP (logged, the same cause
 * either way) for a reset the device does not declare
 * (amdx_recovery_can()), and for a run also for node and rma, which are
 * not amdx's to run.
 */
static int amdx_recovery_refuse(const struct amdx_recovery_ctx *c, u32 action,
				bool run)
{
	bool amdx_cannot = run && action >= AMDX_RECOVER_NODE;

	if (!amdx_cannot && amdx_recovery_can(&c->topo, c->self, action))
		return 0;
	amdx_info_ratelimited(c->devs[c->self], "recovery: %s is not something this device%s can do\n",
			      amdx_recovery_action_name(action),
			      amdx_cannot ? " (or amdx)" : "");
	return -EOPNOTSUPP;
}

/* Runs @action on its target.  The caller holds the RAS lock. */
static int amdx_recovery_exec(struct amdx_file *file, u32 action,
			      u32 partition, u32 vf)
{
	struct amdx_device *adev = file->adev;
	struct amdx_vf_reset vr = { .vf = vf };

	switch (action) {
	case AMDX_RECOVER_PROCESS:
		/* The holders stopped: userspace restarts them. */
		return 0;
	case AMDX_RECOVER_QUEUE:
	case AMDX_RECOVER_PIPE:
		if (!adev->ops->queue_reset)
			return -EOPNOTSUPP;
		return adev->ops->queue_reset(adev, partition,
					      action == AMDX_RECOVER_PIPE);
	case AMDX_RECOVER_PARTITION:
		return amdx_ras_partition_contain(adev, partition, false);
	case AMDX_RECOVER_VF:
		return amdx_ioctl_vf_reset(file, &vr);
	case AMDX_RECOVER_DEVICE:
	case AMDX_RECOVER_HIVE:
		return amdx_recovery_device_reset(adev);
	default:
		return -EOPNOTSUPP;
	}
}

static void amdx_recovery_scope_out(struct amdx_recovery_ctx *c,
				    const struct amdx_recovery_scope *sc,
				    struct amdx_recovery *args)
{
	u32 i, id;

	for (i = 0; i < c->topo.num; i++) {
		id = c->devs[i]->id;
		if (id >= AMDX_MAX_DEVICES)
			continue;
		if (sc->devices & BIT_ULL(i))
			args->devices |= BIT_ULL(id);
		if (sc->peers & BIT_ULL(i))
			args->peers |= BIT_ULL(id);
		args->partitions[id] = sc->partitions[i];
		args->vfs[id] = sc->vfs[i];
	}
	args->num_devices = sc->num_devices;
	args->num_partitions = sc->num_partitions;
	args->num_vfs = sc->num_vfs;
	args->num_processes = sc->num_processes;
	args->est_ms = sc->est_ms;
}

/* Stops the holders (SIGKILL); the caller holds the RAS lock. */
static void amdx_recovery_stop(struct amdx_device *adev,
			       struct amdx_recovery_ctx *c,
			       const struct amdx_recovery_slot *slot,
			       u32 partition, u32 vf)
{
	u32 i;

	for (i = 0; i < c->nholders; i++)
		kill_pid(c->holders[i].who.pid, SIGKILL, 1);
	amdx_recovery_event(adev, AMDX_RECOVERY_EV_STOPPED, slot, partition,
			    vf, AMDX_RECOVERY_SUM_VALID, c->nholders);
	amdx_info_ratelimited(adev, "recovery: stopped %u processes\n", c->nholders);
}

/* Whether the thread group of @pid has exited: a zombie, or reaped. */
static bool amdx_recovery_gone(struct pid *pid)
{
	struct task_struct *t;
	bool gone;

	rcu_read_lock();
	t = pid_task(pid, PIDTYPE_TGID);
	gone = !t || (READ_ONCE(t->exit_state) && thread_group_empty(t));
	rcu_read_unlock();
	return gone;
}

/*
 * Waits until every process amdx_recovery_stop() killed has exited: its
 * mm, and with it its VRAM, is released (exit_mm() comes before the
 * exit_notify() that wakes &pid.wait_pidfd).  Until then its pages are
 * still mapped in the memory the action resets, and they are freed under
 * the reset and its self-test.  The caller holds no RAS lock (an exiting
 * process may wait for it).
 *
 * Return: 0, or -EINTR when the caller is killed first.
 */
static int amdx_recovery_wait_stopped(struct amdx_device *adev,
				      const struct amdx_recovery_ctx *c)
{
	struct pid *pid;
	u32 i;

	for (i = 0; i < c->nholders; i++) {
		pid = c->holders[i].who.pid;
		if (wait_event_killable(pid->wait_pidfd,
					amdx_recovery_gone(pid))) {
			amdx_info_ratelimited(adev, "recovery run: killed while the stopped processes exited; the action stays pending\n");
			return -EINTR;
		}
	}
	return 0;
}

/*
 * A device or hive reset of @c's device ran and its self-test passed: each
 * other device it reset (@others, topology indices) runs its own
 * self-test, and the actions pending there that @action covers clear,
 * with CLEARED records on that device.  The caller holds its own device's
 * lock for read and no RAS lock; another device's lock is only tried (a
 * removal in progress keeps its actions), its RAS lock taken after it.
 */
static void amdx_recovery_clear_others(struct amdx_recovery_ctx *c,
				       u64 others, u32 action)
{
	struct amdx_device *d;
	u32 i, p;
	int ret;

	for (i = 0; i < c->topo.num; i++) {
		if (!(others & BIT_ULL(i)))
			continue;
		d = c->devs[i];
		if (!down_read_trylock(&d->lock))
			continue;
		if (d->dead || mutex_lock_killable(&d->ras->lock)) {
			up_read(&d->lock);
			continue;
		}
		ret = 0;
		for (p = 0; d->ops->self_test && !ret &&
		     p < c->topo.dev[i].num_partitions; p++)
			ret = d->ops->self_test(d, p,
						__ffs(c->mem[i][p] | 0x100));
		if (ret)
			amdx_warn_ratelimited(d, "recovery: self-test failed after the %s reset of device %u: %pe; its actions stay pending\n",
					      amdx_recovery_action_name(action),
					      c->devs[c->self]->id, ERR_PTR(ret));
		else
			amdx_recovery_clear_covered(d, action, true);
		mutex_unlock(&d->ras->lock);
		up_read(&d->lock);
	}
}

/*
 * -EINVAL (logged) unless @args names a partition and a VF the device has
 * now: amdx_recovery_dev_fill()'s counts, without the rest of the
 * topology.  The caller holds the RAS lock.
 */
static int amdx_recovery_target_valid(struct amdx_device *adev,
				      const struct amdx_recovery *args)
{
	struct amdx_query_partitions hdr;
	u32 nparts, nvfs;

	nparts = clamp_t(u32, amdx_partition_fill(adev, &hdr, 0), 1,
			 AMDX_MAX_PARTITIONS);
	nvfs = min_t(u32, READ_ONCE(adev->part->num_vfs), AMDX_MAX_VFS);
	if ((args->partition != AMDX_RAS_PARTITION_ALL &&
	     args->partition >= nparts) ||
	    (args->vf != AMDX_VF_NONE && args->vf >= nvfs)) {
		amdx_info_ratelimited(adev, "recovery: no partition %d or VF %d here\n",
				      (int)args->partition, (int)args->vf);
		return -EINVAL;
	}
	return 0;
}

/*
 * The stopped processes exit without the RAS lock held: drops it, waits
 * for them (amdx_recovery_wait_stopped()), takes it again.  -EAGAIN (and
 * nothing run) when @slot or the target changed meanwhile, -EINTR when
 * the caller is killed; the lock is released then.
 */
static int amdx_recovery_relock(struct amdx_device *adev,
				const struct amdx_recovery_ctx *c,
				const struct amdx_recovery_slot *slot,
				const struct amdx_recovery *args)
{
	struct amdx_recovery_slot was = *slot;
	int ret;

	mutex_unlock(&adev->ras->lock);
	ret = amdx_recovery_wait_stopped(adev, c);
	if (!ret && mutex_lock_killable(&adev->ras->lock))
		ret = -EINTR;
	if (ret)
		return ret;
	amdx_recovery_absorb(adev);
	ret = amdx_recovery_target_valid(adev, args);
	if (!ret && (slot->action != was.action || slot->state != was.state ||
		     slot->seq != was.seq)) {
		amdx_info_ratelimited(adev, "recovery run: the pending action changed while the stopped processes exited; nothing run\n");
		ret = -EAGAIN;
	}
	if (ret)
		mutex_unlock(&adev->ras->lock);
	return ret;
}

static int amdx_recovery_do(struct amdx_file *file, struct amdx_recovery *args,
			    bool run)
{
	struct amdx_device *adev = file->adev;
	struct amdx_ras *ras = adev->ras;
	struct amdx_recovery_fault f = {
		.partition = args->partition,
		.vf = args->vf,
	};
	struct amdx_recovery_slot *slot;
	struct amdx_recovery_ctx *c = NULL;
	struct amdx_recovery_scope sc;
	u32 action, num_listed = args->num_listed;
	bool named = args->action != AMDX_RECOVER_PENDING;
	u64 others = 0;
	int ret, err;

	ret = amdx_recovery_check(adev, args, run);
	if (ret)
		return ret;
	/* Every output starts zero. */
	*args = (struct amdx_recovery) {
		.action = args->action,
		.flags = args->flags,
		.partition = args->partition,
		.vf = args->vf,
		.processes = args->processes,
	};
	if (mutex_lock_killable(&ras->lock))
		return -EINTR;
	/* The consumptions of poison reported so far count. */
	amdx_recovery_absorb(adev);
	ret = amdx_recovery_target_valid(adev, args);
	if (ret)
		goto out_unlock;
	slot = amdx_recovery_slot(adev, args->partition, args->vf);
	args->state = slot->state;
	args->fault = slot->fault;
	args->seq = slot->seq;
	args->time_ns = slot->time_ns;
	action = args->action == AMDX_RECOVER_PENDING ? slot->action :
							args->action;
	args->action = action;
	/*
	 * Nothing pending and nothing named: no scope to compute.  The
	 * exporter and health ask this of every device, partition and VF at
	 * each collection; the node's topology built for each answer cost a
	 * 64-device collection 14 s on the debug kernel.
	 */
	if (action == AMDX_RECOVER_NONE) {
		if (run) {
			amdx_info_ratelimited(adev, "recovery run: nothing pending\n");
			ret = -ENOENT;
		}
		goto out_unlock;
	}
	c = amdx_recovery_ctx_get(adev);
	if (!c) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	f.device = c->self;
	f.kind = slot->action ? slot->fault :
		 amdx_recovery_default_fault(args->partition, args->vf);
	ret = amdx_recovery_scope(&c->topo, &f, action, &sc);
	if (ret) {
		amdx_info_ratelimited(adev, "recovery: %s does not apply to this target\n",
				      amdx_recovery_action_name(action));
		goto out_unlock;
	}
	amdx_recovery_scope_out(c, &sc, args);
	if (action == AMDX_RECOVER_PROCESS) {
		ret = amdx_recovery_consumers(c, slot);
		args->num_processes = c->nholders;
	} else {
		ret = amdx_recovery_holders(c, &sc);
	}
	if (ret)
		goto out_unlock;
	/*
	 * The pending action always plans: it is the state health and the
	 * exporter read, and one the device can carry out (the ladder only
	 * picks those).
	 */
	if (run || named)
		ret = amdx_recovery_refuse(c, action, run);
	if (ret || !run)
		goto out_unlock;

	others = sc.devices & ~BIT_ULL(c->self);
	if (others && !(args->flags & AMDX_RECOVERY_F_OTHERS)) {
		amdx_info_ratelimited(adev, "recovery run: %s resets %u other devices (ids %#llx): needs AMDX_RECOVERY_F_OTHERS\n",
				      amdx_recovery_action_name(action),
				      (u32)hweight64(others),
				      args->devices & ~BIT_ULL(adev->id));
		ret = -EXDEV;
		goto out_unlock;
	}
	if (c->nholders && !(args->flags & AMDX_RECOVERY_F_STOP)) {
		amdx_info_ratelimited(adev, "recovery run: %u processes hold the VRAM it resets: needs AMDX_RECOVERY_F_STOP\n",
				      c->nholders);
		ret = -EBUSY;
		goto out_unlock;
	}
	if (c->nholders) {
		amdx_recovery_stop(adev, c, slot, args->partition, args->vf);
		ret = amdx_recovery_relock(adev, c, slot, args);
		if (ret)
			goto out_unlocked;
	}
	if (action == AMDX_RECOVER_VF && args->vf == AMDX_VF_NONE)
		f.vf = __ffs(sc.vfs[c->self] | 0x10000);
	ret = amdx_recovery_exec(file, action,
				 args->partition == AMDX_RAS_PARTITION_ALL ?
				 0 : args->partition, f.vf);
	args->outcome = amdx_recovery_finish(c, slot, args->partition,
					     args->vf, action, ret, &err);
	args->error = err;
	args->state = slot->state;
	args->action = slot->action ?: action;
	if (args->outcome != AMDX_RECOVERY_OUT_CLEARED ||
	    action < AMDX_RECOVER_DEVICE)
		others = 0;
	/* The run happened: a failure is in outcome and error. */
	ret = 0;
out_unlock:
	mutex_unlock(&ras->lock);
out_unlocked:
	if (!ret && others)
		amdx_recovery_clear_others(c, others, action);
	args->num_listed = 0;
	if (c && !ret && num_listed) {
		args->num_listed = num_listed;
		ret = amdx_recovery_copy_holders(adev, c, args);
	}
	if (c)
		amdx_recovery_ctx_put(c);
	return ret;
}

/**
 * amdx_ioctl_recovery_plan() - %AMDX_IOC_RECOVERY_PLAN
 * @file: a device fd.
 * @data: &struct amdx_recovery.
 *
 * The target's pending action (or the one named) and its exact scope:
 * the devices, partitions, VFs and processes it takes down, the peers
 * that drain first, the estimate.  Changes nothing; needs no privilege.
 *
 * Return: 0; -EINVAL for flags, non-zero reserved, an unknown action, a
 * partition or VF the device lacks, both, an action that does not apply
 * to the target (partition on the device, vf on a partition bound to no
 * VF), more than %AMDX_RECOVERY_PROCESSES_MAX entries; -EOPNOTSUPP for a
 * named reset the device does not declare (as run refuses it); -EINTR;
 * -ENOMEM; -EFAULT.
 */
int amdx_ioctl_recovery_plan(struct amdx_file *file, void *data)
{
	return amdx_recovery_do(file, data, false);
}

/**
 * amdx_ioctl_recovery_run() - %AMDX_IOC_RECOVERY_RUN
 * @file: a device fd.
 * @data: &struct amdx_recovery.
 *
 * Plans as amdx_ioctl_recovery_plan(), then with the discipline of a
 * partition commit: refuses while processes hold the VRAM it resets
 * unless %AMDX_RECOVERY_F_STOP (they are then killed first, and it waits
 * until they have exited), refuses a
 * reset of other devices unless %AMDX_RECOVERY_F_OTHERS, runs the action,
 * then the self-test.  Every step is a RECOVERY event.
 *
 * Return: 0 with &amdx_recovery.outcome (cleared, escalated, failed) and
 * error; the errors of plan; -ENOENT with nothing pending; -EOPNOTSUPP
 * for a reset the device does not declare, node or rma; -EXDEV for
 * other devices without the flag; -EBUSY for holders without the flag;
 * -EAGAIN (nothing run) when the pending action changed while the
 * processes it stopped exited.
 */
int amdx_ioctl_recovery_run(struct amdx_file *file, void *data)
{
	return amdx_recovery_do(file, data, true);
}

/*
 * What is wrong with the shape of hang @kind on (@partition, @vf), or
 * NULL: a queue hang names its compute partition, a VF hang its VF, a
 * firmware hang neither.
 */
static const char *amdx_device_hang_bad(u32 kind, u32 partition, u32 vf)
{
	bool part = partition != AMDX_RAS_PARTITION_ALL;
	bool one_vf = vf != AMDX_VF_NONE;

	switch (kind) {
	case AMDX_FAULT_QUEUE_HANG:
		return partition >= AMDX_MAX_PARTITIONS || one_vf ?
		       "a queue hang names its compute partition, no VF" : NULL;
	case AMDX_FAULT_VF_HANG:
		return vf >= AMDX_MAX_VFS || part ?
		       "a VF hang names its VF, no partition" : NULL;
	case AMDX_FAULT_FIRMWARE:
		return part || one_vf ?
		       "a firmware hang is the device's: no partition or VF" :
		       NULL;
	default:
		return "not a hang (queue_hang, vf_hang or firmware)";
	}
}

/**
 * amdx_device_hang() - the provider's hang detection found a hang
 * @adev: the device.
 * @kind: %AMDX_FAULT_QUEUE_HANG (a job timed out: the driver's scheduler
 *	timeout), %AMDX_FAULT_VF_HANG (a VF stopped answering: a missed
 *	heartbeat, a mailbox timeout) or %AMDX_FAULT_FIRMWARE (the device's
 *	firmware stopped: a missed firmware heartbeat, an SMU or PSP
 *	timeout).
 * @partition: the compute partition of the hung queue; for the others
 *	%AMDX_RAS_PARTITION_ALL.
 * @vf: the hung VF; for the others %AMDX_VF_NONE.
 *
 * The faults the RAS blocks do not report: the target gets the action
 * the fault needs under the recovery policy in force (a PENDING record
 * says so), as for an error report.  The other fault kinds have their own
 * paths: amdx_ras_report() (page_ce, poison_consumed, engine_ue,
 * device_ue, fabric), amdx_device_reset_end() with an error (a device
 * reset that failed: reset_failed), amdx_device_rma() and the bad-page
 * threshold (board).  Fenced against the device's removal.
 *
 * Context: process context, without the device's RAS lock.
 * Return: 0; -EINVAL for another fault kind, a partition or VF the kind
 * does not take or the device lacks (logged, naming the cause); -ENODEV
 * once the device is being removed; -ENOMEM (the action the fault needs
 * is pending then, unscoped).
 */
int amdx_device_hang(struct amdx_device *adev, u32 kind, u32 partition,
		     u32 vf)
{
	const char *bad = amdx_device_hang_bad(kind, partition, vf);
	int ret;

	if (bad) {
		amdx_warn_ratelimited(adev, "hang %u on partition %d VF %d refused: %s\n",
				      kind, (int)partition, (int)vf, bad);
		return -EINVAL;
	}
	down_read(&adev->lock);
	if (adev->dead) {
		ret = -ENODEV;
	} else {
		mutex_lock(&adev->ras->lock);
		ret = amdx_recovery_fault(adev, kind, partition, vf, NULL);
		mutex_unlock(&adev->ras->lock);
	}
	up_read(&adev->lock);
	if (ret == -EINVAL)
		amdx_warn_ratelimited(adev, "%s on partition %d VF %d refused: the device has no such partition or VF (%u VFs)\n",
				      amdx_recovery_fault_name(kind),
				      (int)partition, (int)vf,
				      READ_ONCE(adev->part->num_vfs));
	return ret;
}
EXPORT_SYMBOL_GPL(amdx_device_hang);

/* Most consumptions one write of ``recovery_consume`` reports. */
#define AMDX_RECOVERY_CONSUME_MAX	(2 * AMDX_RECOVERY_QUEUE)

/*
 * debugfs: ``recovery_consume`` (write-only, root): "INDEX COUNT"
 * (decimal) reports COUNT (1 .. %AMDX_RECOVERY_CONSUME_MAX) consumptions
 * of poison at VRAM page INDEX by the writer, through the path a CPU or
 * device read of a poisoned page takes (amdx_ras_poison_consumed()), all
 * with the RAS lock held: the recovery worker empties none of them in
 * between, as with a burst of consumers faster than the worker.  Past
 * %AMDX_RECOVERY_QUEUE they find the queue full.  Nothing is read: the
 * page need not hold poison.  Fenced against removal as the event hook is.
 */
static ssize_t amdx_recovery_consume_write(struct file *f,
					   const char __user *ubuf, size_t len,
					   loff_t *ppos)
{
	struct amdx_device *adev = f->private_data;
	struct amdx_subject me;
	u32 count, i;
	char buf[48];
	u64 index;
	int ret = 0;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%llu %u", &index, &count) != 2) {
		amdx_dbg(adev, "recovery_consume: want \"INDEX COUNT\"\n");
		return -EINVAL;
	}
	if (!count || count > AMDX_RECOVERY_CONSUME_MAX ||
	    index >= adev->desc.vram_size >> PAGE_SHIFT) {
		amdx_dbg(adev, "recovery_consume: COUNT 1 .. %u, INDEX below %llu\n",
			 AMDX_RECOVERY_CONSUME_MAX,
			 adev->desc.vram_size >> PAGE_SHIFT);
		return -EINVAL;
	}
	amdx_subject_current(&me);
	down_read(&adev->lock);
	if (adev->dead) {
		ret = -ENODEV;
	} else {
		mutex_lock(&adev->ras->lock);
		for (i = 0; i < count; i++)
			amdx_ras_poison_consumed(adev, index, &me);
		mutex_unlock(&adev->ras->lock);
	}
	up_read(&adev->lock);
	return ret ? ret : len;
}

static const struct file_operations amdx_recovery_consume_fops = {
	.owner = THIS_MODULE,
	.open = amdx_event_hook_open,
	.release = amdx_event_hook_release,
	.write = amdx_recovery_consume_write,
};

/**
 * amdx_recovery_debugfs_add() - create the device's recovery hook
 * @adev: the device; its debugfs directory exists.
 *
 * ``recovery_consume``.  Faults come from the provider (amdx_device_hang(),
 * amdx_ras_report()), never from a core hook.
 */
void amdx_recovery_debugfs_add(struct amdx_device *adev)
{
	debugfs_create_file_unsafe("recovery_consume", 0200, adev->debugfs,
				   adev, &amdx_recovery_consume_fops);
}
