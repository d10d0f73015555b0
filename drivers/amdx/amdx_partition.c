// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: partition manager
 *
 * Each device has partition objects: the compute partitions of its current
 * compute mode, each with its XCCs, its share of the SDMA and VCN engines,
 * the memory (NPS) partition local to it, the VF bound to it, a state
 * (online, quarantined, offline) and a reset count.  Ids run 0 .. n - 1
 * and stay until the next mode change; the generation counts layout
 * changes (mode switches, VF bindings).  The state is the core's, built
 * from the provider's modes at registration (amdx_partition_model.c gives
 * the topology) and changed only here.
 *
 * A change of mode is a transaction.  PLAN and COMMIT share the first
 * half; COMMIT then runs the steps, each timed into the result::
 *
 *   PLAN/COMMIT          core                                provider
 *     | targets  -->  lock (hive-wide for a memory change)
 *     |               model check, VFs, partition states,
 *     |               hive members, holders (HMM pages)
 *     |<-- refused: reason (+ holders)            (PLAN stops here)
 *     |               VALIDATE  modes still as recorded   <-- get_state
 *     |               QUIESCE   close the VRAM gate: no migration runs;
 *     |                         holders again (one may have come meanwhile)
 *     |               DRAIN     (with AMDX_PART_F_DRAIN) move HMM data
 *     |                         home, before the deadline
 *     |               COMPUTE   ------------------------> set_compute_mode
 *     |               MEMORY    (each hive member) -----> set_memory_mode
 *     |               REBUILD   install the new partition objects
 *     |               RESUME    open the gate
 *     |<-- COMMITTED, steps, durations
 *
 * The provider's partition_step() runs before each step and may fail it.
 * A failing step undoes what ran, in reverse: the old partition objects
 * come back, each switched member is reset into its old memory mode, the
 * compute mode is set back, the gate opens.  Modes, partitions, states,
 * reset counts and the generation are then exactly as before and the
 * commit reports %AMDX_PART_OUTCOME_ROLLED_BACK with the failing step.
 *
 * Only a memory-mode change moves VRAM, so only it has holders: processes
 * with HMM pages on the device (any partition: the whole VRAM is laid out
 * anew).  A compute-only change keeps every byte where it is.  In an XGMI
 * hive the memory mode is hive-wide: a memory-mode commit on one member
 * switches every member (their compute modes stay), and PLAN reports how
 * many devices that is.
 *
 * Locking: &amdx_part_dev.lock (a mutex) protects the state below; the
 * order is amdx_core.h's lock order table.  Hive members' device locks
 * are only try-locked: a member being removed is skipped (it is leaving
 * the hive).  The gate is held for read by every HMM migration and for
 * write by a commit from QUIESCE to its end, and by VF_ENABLE and
 * VF_DISABLE while they change the VFs.
 */
#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/rwsem.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_hmm.h"
#include "amdx_hmm_ctx.h"
#include "amdx_hmm_devmove.h"
#include "amdx_kunit.h"
#include "amdx_partition.h"
#include "amdx_partition_gate.h"
#include "amdx_partition_model.h"
#include "amdx_partition_vf.h"
#include "amdx_partition_types.h"

/* Most devices of a hive (struct amdx_reset_scope.devices). */
#define AMDX_PART_HIVE_MAX	15
/* Most holders a commit reports back. */
#define AMDX_PART_HOLDERS_MAX	256

/* Serialises multi-device (hive) commits; see the DOC block. */
static DEFINE_MUTEX(amdx_part_hive_lock);

/**
 * amdx_partition_share_mask() - the engines of one partition
 * @count: engine instances of the device.
 * @n: partitions.
 * @i: the partition, below @n.
 *
 * With at least as many engines as partitions each partition gets
 * @count / @n contiguous ones; with fewer, partitions share: partition @i
 * gets engine @i * @count / @n (CPX on MI300X: one VCN per two
 * partitions).
 *
 * Return: bit N set for engine N; 0 for bad arguments.
 */
u32 amdx_partition_share_mask(u32 count, u32 n, u32 i)
{
	u32 per;

	if (!count || count > 32 || !n || i >= n)
		return 0;
	if (count >= n) {
		per = count / n;
		return GENMASK(per * (i + 1) - 1, per * i);
	}
	return BIT(i * count / n);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_share_mask);

/* The partition objects of @compute/@memory on @adev, fresh. */
static int amdx_part_build(struct amdx_device *adev, u32 compute, u32 memory,
			   struct amdx_part_layout *l)
{
	struct amdx_partition_topology topo;
	u32 i;
	int ret;

	ret = amdx_partition_compute_topology(adev->desc.model, compute,
					      memory, &topo);
	if (ret)
		return ret;
	memset(l, 0, sizeof(*l));
	l->compute_mode = compute;
	l->memory_mode = memory;
	l->num_partitions = topo.num_compute;
	l->num_memory = topo.num_memory;
	for (i = 0; i < topo.num_compute; i++) {
		struct amdx_part_obj *o = &l->parts[i];

		o->state = AMDX_PART_STATE_ONLINE;
		o->xcc_mask = topo.xcc_mask[i];
		o->sdma_mask = amdx_partition_share_mask(adev->desc.num_sdma,
							 topo.num_compute, i);
		o->vcn_mask = amdx_partition_share_mask(adev->desc.num_vcn,
							topo.num_compute, i);
		o->mem_partition = topo.mem_partition[i];
		o->vf = AMDX_VF_NONE;
	}
	return 0;
}

/* A provider reports modes the model refuses: one partition of all. */
static void amdx_part_build_whole(struct amdx_device *adev,
				  const struct amdx_device_state *st,
				  struct amdx_part_layout *l)
{
	u32 nxcc = clamp_t(u32, adev->desc.num_xcc, 1, 32);

	memset(l, 0, sizeof(*l));
	l->compute_mode = st->compute_mode;
	l->memory_mode = st->memory_mode;
	l->num_partitions = 1;
	l->num_memory = clamp_t(u32, st->num_mem_partitions, 1,
				AMDX_MAX_MEM_PARTITIONS);
	l->parts[0].state = AMDX_PART_STATE_ONLINE;
	l->parts[0].xcc_mask = GENMASK(nxcc - 1, 0);
	l->parts[0].sdma_mask = amdx_partition_share_mask(adev->desc.num_sdma,
							  1, 0);
	l->parts[0].vcn_mask = amdx_partition_share_mask(adev->desc.num_vcn,
							 1, 0);
	l->parts[0].vf = AMDX_VF_NONE;
}

/* Rebuild the objects from what the provider says (after a failure). */
static void amdx_part_resync(struct amdx_device *adev)
{
	struct amdx_part_dev *p = adev->part;
	struct amdx_device_state st = {};
	u64 gen = p->cur.generation + 1;

	if (adev->ops->get_state(adev, &st))
		return;
	if (amdx_part_build(adev, st.compute_mode, st.memory_mode, &p->cur))
		amdx_part_build_whole(adev, &st, &p->cur);
	p->cur.generation = gen;
}

/* The device is unreferenced; its partition state may be NULL. */
static void amdx_partition_dev_fini(struct amdx_device *adev)
{
	struct amdx_part_dev *p = adev->part;

	if (!p)
		return;
	mutex_destroy(&p->lock);
	lockdep_unregister_key(&p->gate_key);
	kfree(p);
	adev->part = NULL;
}

/**
 * amdx_partition_dev_init() - set up a device's partition state
 * @adev: the device being registered: desc and ops set, not yet visible.
 *
 * Reads the provider's modes once and builds the partition objects.
 * Registers their freeing with the device (%AMDX_DEVICE_RELEASE).
 *
 * Return: 0, -ENOMEM, -ENOSPC when the device holds no more actions, or
 * the provider's get_state() error.
 */
int amdx_partition_dev_init(struct amdx_device *adev)
{
	struct amdx_device_state st = {};
	struct amdx_part_dev *p;
	int ret;

	ret = adev->ops->get_state(adev, &st);
	if (ret)
		return ret;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	mutex_init(&p->lock);
	lockdep_register_key(&p->gate_key);
	__init_rwsem(&p->gate, "&amdx_part_dev.gate", &p->gate_key);
	adev->part = p;
	ret = amdx_device_add_action_or_reset(adev, AMDX_DEVICE_RELEASE,
					      amdx_partition_dev_fini);
	if (ret)
		return ret;
	if (amdx_part_build(adev, st.compute_mode, st.memory_mode, &p->cur)) {
		amdx_warn(adev, "modes %u/%u invalid for the model, one partition\n",
			  st.compute_mode, st.memory_mode);
		amdx_part_build_whole(adev, &st, &p->cur);
	}
	return 0;
}

static bool amdx_part_can_switch(const struct amdx_device *adev)
{
	return adev->ops->set_compute_mode && adev->ops->set_memory_mode;
}

/* Bytes of VRAM per memory partition: VRAM splits evenly. */
static u64 amdx_part_mem_size(const struct amdx_device *adev, u32 nmem)
{
	return div_u64(adev->desc.vram_size, max(nmem, 1U));
}

static void amdx_part_info(const struct amdx_device *adev,
			   const struct amdx_part_layout *l, u32 i,
			   struct amdx_partition_info *pi)
{
	const struct amdx_part_obj *o = &l->parts[i];
	u64 msize = amdx_part_mem_size(adev, l->num_memory);

	memset(pi, 0, sizeof(*pi));
	pi->id = i;
	pi->state = o->state;
	pi->xcc_mask = o->xcc_mask;
	pi->sdma_mask = o->sdma_mask;
	pi->vcn_mask = o->vcn_mask;
	pi->mem_partition = o->mem_partition;
	pi->vf = o->vf;
	pi->resets = o->resets;
	pi->vram_base = msize * o->mem_partition;
	pi->vram_size = msize;
}

/*
 * The transaction
 */

/**
 * struct amdx_part_txn - one PLAN or COMMIT
 * @cfg: the argument.
 * @ndev: devices locked; the first of @devs is the device the call came
 *	in on.
 * @naff: devices the change applies to: @ndev for a memory-mode change,
 *	else 1.
 * @devs: the locked devices.
 * @trylocked: per entry of @devs, its device lock was taken here (hive
 *	members).
 * @hive: the hive lock is held and @devs hold references.
 * @compute: target compute mode.
 * @memory: target memory mode.
 * @old: the layouts before, per device.
 * @new: the layouts after, per affected device.
 * @holders: kernel copy of the holders found, @max_holders entries, each
 *	holding a pid reference until the end.
 * @max_holders: capacity of @holders.
 * @got_holders: entries of @holders written (references held).
 * @quiesced: gates closed so far, those of @devs[@qorder[0 .. @quiesced)].
 * @qorder: indices into @devs by device id: the order gates close in.
 * @mem_done: devices switched into the new memory mode so far.
 * @compute_done: the compute mode was switched.
 * @rebuilt: the new layouts are installed.
 */
struct amdx_part_txn {
	struct amdx_partition_config *cfg;
	u32 ndev;
	u32 naff;
	struct amdx_device *devs[AMDX_PART_HIVE_MAX];
	bool trylocked[AMDX_PART_HIVE_MAX];
	bool hive;
	u32 compute;
	u32 memory;
	struct amdx_part_layout old[AMDX_PART_HIVE_MAX];
	struct amdx_part_layout new[AMDX_PART_HIVE_MAX];
	struct amdx_hmm_holder *holders;
	u32 max_holders;
	u32 got_holders;
	u32 quiesced;
	u32 qorder[AMDX_PART_HIVE_MAX];
	u32 mem_done;
	bool compute_done;
	bool rebuilt;
};

static int amdx_part_lock(struct amdx_part_txn *t, struct amdx_device *adev)
{
	struct amdx_device *all[AMDX_PART_HIVE_MAX];
	u32 n, i;
	int ret;

	t->devs[0] = adev;
	t->ndev = 1;
	if (!adev->desc.hive_id || !t->cfg->memory_mode) {
		mutex_lock(&adev->part->lock);
		return 0;
	}

	/*
	 * A hive commit may wait behind another hive's drain: a signal ends
	 * the wait (the ioctl restarts, nothing has changed yet).
	 */
	if (mutex_lock_interruptible(&amdx_part_hive_lock))
		return -ERESTARTSYS;
	ret = amdx_device_hive_get(adev->desc.hive_id, all, ARRAY_SIZE(all),
				   &n);
	if (ret) {
		mutex_unlock(&amdx_part_hive_lock);
		amdx_info_ratelimited(adev, "hive %llx has %u devices, at most %u supported\n",
				      adev->desc.hive_id, n,
				      AMDX_PART_HIVE_MAX);
		return -E2BIG;
	}
	t->hive = true;
	kref_get(&adev->ref);
	for (i = 0; i < n; i++) {
		struct amdx_device *m = all[i];

		if (m == adev) {
			amdx_device_put(m);
			continue;
		}
		/* Never wait: a member being removed leaves the hive. */
		if (!down_read_trylock(&m->lock)) {
			amdx_device_put(m);
			continue;
		}
		if (m->dead) {
			up_read(&m->lock);
			amdx_device_put(m);
			continue;
		}
		t->trylocked[t->ndev] = true;
		t->devs[t->ndev++] = m;
	}
	for (i = 0; i < t->ndev; i++)
		mutex_lock_nest_lock(&t->devs[i]->part->lock,
				     &amdx_part_hive_lock);
	return 0;
}

static void amdx_part_unlock(struct amdx_part_txn *t)
{
	u32 i = t->ndev;

	while (i--) {
		struct amdx_device *d = t->devs[i];

		mutex_unlock(&d->part->lock);
		if (t->trylocked[i])
			up_read(&d->lock);
		if (t->hive)
			amdx_device_put(d);
	}
	if (t->hive)
		mutex_unlock(&amdx_part_hive_lock);
}

static int amdx_part_refuse(struct amdx_part_txn *t, u32 reason, int err)
{
	t->cfg->reason = reason;
	amdx_dbg(t->devs[0], "partition change to %u/%u refused: %s\n",
		 t->compute, t->memory,
		 amdx_partition_reason_name(reason));
	return err;
}

/*
 * Processes with HMM pages on the affected devices, counted into
 * cfg->num_holders, the first max_holders of them kept; replaces any
 * before.  Without the count a change over resident data could not be
 * refused: an error (the holders scan allocates) fails the check.
 */
static int amdx_part_find_holders(struct amdx_part_txn *t)
{
	u32 total = 0, got = 0, i;
	int ret = 0;

	amdx_hmm_holders_put(t->holders, t->got_holders);
	t->got_holders = 0;
	t->cfg->num_holders = 0;

	for (i = 0; i < t->naff && !ret; i++) {
		struct amdx_device *d = t->devs[i];
		u32 room = t->max_holders - min(got, t->max_holders);
		u32 n = 0;

		if (!(d->desc.flags & AMDX_DEVICE_F_HMM))
			continue;
		ret = amdx_hmm_holders(d, GENMASK(t->old[i].num_memory - 1, 0),
				       room ? t->holders + got : NULL, room,
				       &n);
		got += min(n, room);
		total += n;
	}
	t->got_holders = got;
	if (ret) {
		amdx_dbg(t->devs[0], "holders of VRAM unknown: %pe\n",
			 ERR_PTR(ret));
		return ret;
	}
	t->cfg->num_holders = total;
	return 0;
}

/*
 * Decide: 0 to go ahead, 1 when nothing changes, or -errno with
 * cfg->reason set.  Fills the new layouts and the holders.
 */
static int amdx_part_decide(struct amdx_part_txn *t)
{
	struct amdx_partition_config *cfg = t->cfg;
	struct amdx_device *adev = t->devs[0];
	u32 reason, i, j;
	int ret;

	for (i = 0; i < t->ndev; i++)
		t->old[i] = t->devs[i]->part->cur;
	t->compute = cfg->compute_mode ?: t->old[0].compute_mode;
	t->memory = cfg->memory_mode ?: t->old[0].memory_mode;

	if (amdx_partition_check(adev->desc.model, t->compute, t->memory, 0,
				 &reason))
		return amdx_part_refuse(t, reason, -EINVAL);
	t->naff = t->memory != t->old[0].memory_mode ? t->ndev : 1;
	cfg->num_devices = t->naff;
	/*
	 * The model allows more than a device may carry out: a provider
	 * declares what it can (amdgpu: the modes of its current NPS mode).
	 * PLAN answers for COMMIT, so both refuse the same way.
	 */
	if (!(adev->desc.supported_compute_modes & BIT(t->compute)))
		return amdx_part_refuse(t, AMDX_PART_REASON_COMPUTE_UNSUPPORTED,
					-EINVAL);
	for (i = 0; i < t->naff; i++)
		if (!(t->devs[i]->desc.supported_memory_modes & BIT(t->memory)))
			return amdx_part_refuse(t,
						AMDX_PART_REASON_MEMORY_UNSUPPORTED,
						-EINVAL);

	for (i = 0; i < t->naff; i++) {
		struct amdx_device *d = t->devs[i];
		u32 compute = i ? t->old[i].compute_mode : t->compute;

		if (amdx_part_build(d, compute, t->memory, &t->new[i]))
			return amdx_part_refuse(t, AMDX_PART_REASON_HIVE_MEMORY,
						-EINVAL);
		t->new[i].generation = t->old[i].generation + 1;
	}
	cfg->num_partitions = t->new[0].num_partitions;
	if (t->compute == t->old[0].compute_mode &&
	    t->memory == t->old[0].memory_mode)
		return 1;

	for (i = 0; i < t->naff; i++) {
		if (t->devs[i]->part->num_vfs)
			return amdx_part_refuse(t, AMDX_PART_REASON_VFS_ENABLED,
						-EINVAL);
		for (j = 0; j < t->old[i].num_partitions; j++)
			if (t->old[i].parts[j].state != AMDX_PART_STATE_ONLINE)
				return amdx_part_refuse(t,
					AMDX_PART_REASON_PARTITION_STATE,
					-EINVAL);
	}
	if (t->naff > 1)
		amdx_dbg(adev, "memory mode %u applies to %u hive devices\n",
			 t->memory, t->naff);

	if (t->memory != t->old[0].memory_mode) {
		ret = amdx_part_find_holders(t);
		if (ret)
			return ret;
		if (cfg->num_holders && !(cfg->flags & AMDX_PART_F_DRAIN))
			return amdx_part_refuse(t, AMDX_PART_REASON_BUSY,
						-EBUSY);
		/* Pins legal in the old mode may exceed the new quota. */
		for (i = 0; i < t->naff && !ret; i++)
			ret = amdx_hmm_pins_fit(t->devs[i],
						t->new[i].num_memory);
		if (ret == -EDQUOT)
			return amdx_part_refuse(t, AMDX_PART_REASON_BUSY, ret);
		if (ret)
			return ret;
	}
	return 0;
}

/* Move every device page of the affected devices home. */
/* Drain every memory partition of @d, partition by partition. */
static int amdx_part_drain_dev(struct amdx_device *d, u32 num_memory,
			       u64 deadline, u32 ms)
{
	u32 m;
	int ret;

	for (m = 0; m < num_memory; m++) {
		/* busy pages are retried until the deadline */
		do {
			if (fatal_signal_pending(current))
				return -EINTR;
			if (ktime_get_ns() > deadline) {
				amdx_info_ratelimited(d, "drain of memory partition %u missed its %u ms deadline\n",
						      m, ms);
				return -ETIMEDOUT;
			}
			ret = amdx_hmm_vacate_partition(d, m);
		} while (ret == -EBUSY);
		if (ret)
			return ret;
	}
	return 0;
}

/* Tell each holder whose data a drain moved home (AMDX_EVENT_DRAINED). */
static void amdx_part_notify_drained(struct amdx_device *d,
				     const struct amdx_hmm_holder *h, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		struct amdx_event ev = {
			.kind = AMDX_EVENT_DRAINED,
			.partition = h[i].mem_partition,
			.data = { 0, h[i].pages },
		};

		amdx_event_emit_subject(d, &ev, &h[i].who);
		cond_resched();
	}
}

/*
 * The holders of @d's memory partitions, all of them: counted first (an
 * upper bound, amdx_hmm_holders() may count a process twice beyond its
 * array), then found into an array of that size, charged to the caller.
 * The gates are closed, so nobody becomes a holder in between.
 */
static int amdx_part_drain_holders(struct amdx_device *d, u32 num_memory,
				   struct amdx_hmm_holder **h, u32 *nh)
{
	u32 mask = GENMASK(num_memory - 1, 0), max;
	int ret;

	*h = NULL;
	ret = amdx_hmm_holders(d, mask, NULL, 0, &max);
	if (ret || !max) {
		*nh = 0;
		return ret;
	}
	*h = kvcalloc(max, sizeof(**h), GFP_KERNEL_ACCOUNT);
	if (!*h)
		return -ENOMEM;
	ret = amdx_hmm_holders(d, mask, *h, max, nh);
	*nh = min(*nh, max);
	return ret;
}

static int amdx_part_drain(struct amdx_part_txn *t)
{
	u32 ms = t->cfg->deadline_ms ?: AMDX_PART_DEADLINE_DEFAULT_MS;
	u64 deadline = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;
	struct amdx_hmm_holder *h[AMDX_PART_HIVE_MAX] = {};
	u32 nh[AMDX_PART_HIVE_MAX] = {};
	u32 i;
	int ret = 0;

	if (!IS_ENABLED(CONFIG_DEVICE_PRIVATE))
		return 0;
	/*
	 * Who has data there now is told once it is home: found for every
	 * device before any page moves, so that a failure to find them
	 * fails the step with nothing moved.  The gates are closed: no
	 * migration adds a holder until the drain is done.
	 */
	for (i = 0; i < t->naff && !ret; i++)
		if (t->devs[i]->desc.flags & AMDX_DEVICE_F_HMM)
			ret = amdx_part_drain_holders(t->devs[i],
						      t->old[i].num_memory,
						      &h[i], &nh[i]);
	if (ret)
		amdx_dbg(t->devs[0], "holders to tell of the drain unknown: %pe\n",
			 ERR_PTR(ret));

	for (i = 0; i < t->naff && !ret; i++) {
		if (!(t->devs[i]->desc.flags & AMDX_DEVICE_F_HMM))
			continue;
		ret = amdx_part_drain_dev(t->devs[i], t->old[i].num_memory,
					  deadline, ms);
		if (!ret)
			amdx_part_notify_drained(t->devs[i], h[i], nh[i]);
	}

	for (i = 0; i < t->naff; i++) {
		if (h[i])
			amdx_hmm_holders_put(h[i], nh[i]);
		kvfree(h[i]);
	}
	return ret;
}

/*
 * Close the gates of the affected devices, killably, in the order of
 * their device ids.  Each device's gate is a lockdep class of its own
 * (amdx_partition_dev_init()): no kernel has a killable nest-lock variant
 * of down_write(), and subclasses (8) do not cover a hive.  One order for
 * every commit is what keeps two gates from being taken both ways.
 */
static int amdx_part_quiesce(struct amdx_part_txn *t)
{
	u32 i, j, k;

	if (!t->quiesced) {
		for (i = 0; i < t->naff; i++) {
			for (j = i; j && t->devs[t->qorder[j - 1]]->id >
					 t->devs[i]->id; j--)
				t->qorder[j] = t->qorder[j - 1];
			t->qorder[j] = i;
		}
	}
	for (; t->quiesced < t->naff; t->quiesced++) {
		k = t->qorder[t->quiesced];
		if (amdx_partition_vram_close(t->devs[k])) {
			amdx_dbg(t->devs[0], "partition change: killed while migrations ran on %s\n",
				 t->devs[k]->bdf);
			return -EINTR;
		}
	}
	return 0;
}

/*
 * With the gates closed no migration runs: who holds VRAM now is who the
 * switch meets.  The holders found before the gate closed may be stale
 * (a migration between the two), so look again; without a drain that is
 * the same refusal as before the steps, rolled back.
 */
static int amdx_part_recheck_holders(struct amdx_part_txn *t)
{
	struct amdx_partition_config *cfg = t->cfg;
	int ret;

	if (t->memory == t->old[0].memory_mode)
		return 0;
	ret = amdx_part_find_holders(t);
	if (ret)
		return ret;
	if (!cfg->num_holders || (cfg->flags & AMDX_PART_F_DRAIN))
		return 0;
	return amdx_part_refuse(t, AMDX_PART_REASON_BUSY, -EBUSY);
}

static int amdx_part_step_work(struct amdx_part_txn *t, u32 step)
{
	struct amdx_device_state st;
	struct amdx_device *d;
	u32 i;
	int ret;

	switch (step) {
	case AMDX_PART_STEP_VALIDATE:
		for (i = 0; i < t->naff; i++) {
			d = t->devs[i];
			memset(&st, 0, sizeof(st));
			ret = d->ops->get_state(d, &st);
			if (ret)
				return ret;
			if (st.compute_mode != t->old[i].compute_mode ||
			    st.memory_mode != t->old[i].memory_mode) {
				amdx_err(d, "provider reports modes %u/%u, expected %u/%u\n",
					 st.compute_mode, st.memory_mode,
					 t->old[i].compute_mode,
					 t->old[i].memory_mode);
				return -EIO;
			}
		}
		return 0;
	case AMDX_PART_STEP_QUIESCE:
		ret = amdx_part_quiesce(t);
		return ret ? ret : amdx_part_recheck_holders(t);
	case AMDX_PART_STEP_DRAIN:
		return amdx_part_drain(t);
	case AMDX_PART_STEP_COMPUTE:
		d = t->devs[0];
		ret = d->ops->set_compute_mode(d, t->compute);
		if (!ret)
			t->compute_done = true;
		return ret;
	case AMDX_PART_STEP_MEMORY:
		for (; t->mem_done < t->naff; t->mem_done++) {
			d = t->devs[t->mem_done];
			ret = d->ops->set_memory_mode(d, t->memory);
			if (ret)
				return ret;
		}
		return 0;
	case AMDX_PART_STEP_REBUILD:
		for (i = 0; i < t->naff; i++)
			t->devs[i]->part->cur = t->new[i];
		t->rebuilt = true;
		return 0;
	default:
		return 0;
	}
}

static int amdx_part_step(struct amdx_part_txn *t, u32 step)
{
	struct amdx_partition_config *cfg = t->cfg;
	struct amdx_partition_step *s = &cfg->steps[cfg->num_steps++];
	u64 t0 = ktime_get_ns();
	int ret = 0;
	u32 i;

	s->step = step;
	for (i = 0; i < t->naff && !ret; i++) {
		struct amdx_device *d = t->devs[i];

		if (d->ops->partition_step)
			ret = d->ops->partition_step(d, step);
	}
	if (!ret)
		ret = amdx_part_step_work(t, step);
	s->error = ret;
	s->duration_ns = ktime_get_ns() - t0;
	for (i = 0; i < t->naff; i++) {
		struct amdx_event ev = {
			.kind = AMDX_EVENT_PARTITION_SWITCH,
			.type = step,
			.partition = AMDX_RAS_PARTITION_ALL,
			.address = s->duration_ns,
			.data = { (u64)(s64)ret },
		};

		amdx_event_emit(t->devs[i], &ev);
	}
	if (ret) {
		cfg->failed_step = step;
		amdx_info_ratelimited(t->devs[0], "partition switch step %u failed: %pe, rolling back\n",
				      step, ERR_PTR(ret));
	}
	return ret;
}

/* Undo what the steps did, newest first. */
static void amdx_part_rollback(struct amdx_part_txn *t)
{
	struct amdx_device *d;
	u32 i;
	int ret;

	if (t->rebuilt)
		for (i = 0; i < t->naff; i++)
			t->devs[i]->part->cur = t->old[i];
	while (t->mem_done) {
		i = --t->mem_done;
		d = t->devs[i];
		ret = d->ops->set_memory_mode(d, t->old[i].memory_mode);
		if (ret) {
			amdx_err(d, "rollback to memory mode %u failed: %pe\n",
				 t->old[i].memory_mode, ERR_PTR(ret));
			amdx_part_resync(d);
		}
	}
	if (t->compute_done) {
		d = t->devs[0];
		ret = d->ops->set_compute_mode(d, t->old[0].compute_mode);
		if (ret) {
			amdx_err(d, "rollback to compute mode %u failed: %pe\n",
				 t->old[0].compute_mode, ERR_PTR(ret));
			amdx_part_resync(d);
		}
	}
}

static int amdx_part_commit(struct amdx_part_txn *t)
{
	static const u32 steps[] = {
		AMDX_PART_STEP_VALIDATE, AMDX_PART_STEP_QUIESCE,
		AMDX_PART_STEP_DRAIN, AMDX_PART_STEP_COMPUTE,
		AMDX_PART_STEP_MEMORY, AMDX_PART_STEP_REBUILD,
		AMDX_PART_STEP_RESUME,
	};
	struct amdx_partition_config *cfg = t->cfg;
	bool memory = t->memory != t->old[0].memory_mode;
	bool compute = t->compute != t->old[0].compute_mode;
	u64 t0 = ktime_get_ns();
	int ret = 0;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(steps) && !ret; i++) {
		if (steps[i] == AMDX_PART_STEP_DRAIN &&
		    (!memory || !(cfg->flags & AMDX_PART_F_DRAIN)))
			continue;
		if ((steps[i] == AMDX_PART_STEP_COMPUTE && !compute) ||
		    (steps[i] == AMDX_PART_STEP_MEMORY && !memory))
			continue;
		ret = amdx_part_step(t, steps[i]);
	}
	if (ret)
		amdx_part_rollback(t);
	while (t->quiesced)
		amdx_partition_vram_open(t->devs[t->qorder[--t->quiesced]]);
	cfg->outcome = ret ? AMDX_PART_OUTCOME_ROLLED_BACK :
			     AMDX_PART_OUTCOME_COMMITTED;
	amdx_stats_commit(t->devs[0], ret ? AMDX_COMMIT_ROLLED_BACK :
					    AMDX_COMMIT_COMMITTED);
	cfg->total_ns = ktime_get_ns() - t0;
	return ret;
}

static int amdx_part_config_check(struct amdx_device *adev,
				  struct amdx_partition_config *cfg)
{
	if ((cfg->flags & ~AMDX_PART_F_DRAIN) || cfg->pad || cfg->reserved ||
	    (!cfg->holders && cfg->max_holders)) {
		amdx_dbg(adev, "partition config: unknown flags, non-zero reserved fields or holders without a buffer\n");
		return -EINVAL;
	}
	/* Outputs: whatever a previous call left there is overwritten. */
	cfg->num_holders = 0;
	cfg->reason = AMDX_PART_REASON_NONE;
	cfg->num_partitions = 0;
	cfg->allowed = 0;
	cfg->outcome = AMDX_PART_OUTCOME_NONE;
	cfg->num_steps = 0;
	cfg->failed_step = 0;
	memset(cfg->steps, 0, sizeof(cfg->steps));
	cfg->total_ns = 0;
	cfg->num_devices = 0;
	return 0;
}

/* The holders as the caller may see them (amdx_viewer.c). */
static int amdx_part_copy_holders(struct amdx_part_txn *t)
{
	struct amdx_partition_holder __user *dst =
		u64_to_user_ptr(t->cfg->holders);
	struct amdx_partition_holder uh;
	struct amdx_viewer v;
	int ret = 0;
	u32 i;

	amdx_viewer_init(&v);
	for (i = 0; i < t->got_holders; i++) {
		const struct amdx_hmm_holder *h = &t->holders[i];

		memset(&uh, 0, sizeof(uh));
		uh.pid = amdx_viewer_pid(&v, &h->who);
		uh.mem_partition = h->mem_partition;
		uh.pages = h->pages;
		if (uh.pid)
			strscpy(uh.comm, h->comm, sizeof(uh.comm));
		/* Without the device lock: the copy may block indefinitely. */
		ret = amdx_device_copy_to_user(t->devs[0], &dst[i], &uh,
					       sizeof(uh));
		if (ret)
			break;
	}
	amdx_viewer_fini(&v);
	return ret;
}

static int amdx_part_copy_out(struct amdx_part_txn *t, bool planned)
{
	struct amdx_partition_config *cfg = t->cfg;
	struct amdx_partition_info pi;
	u32 i;
	int ret;

	if (planned && cfg->topology) {
		void __user *dst = u64_to_user_ptr(cfg->topology);

		for (i = 0; i < t->new[0].num_partitions; i++) {
			amdx_part_info(t->devs[0], &t->new[0], i, &pi);
			ret = amdx_device_copy_to_user(t->devs[0],
						       dst + i * sizeof(pi),
						       &pi, sizeof(pi));
			if (ret)
				return ret;
		}
	}
	return amdx_part_copy_holders(t);
}

/**
 * amdx_partition_run() - PLAN or COMMIT a partition change
 * @adev: the device; the caller holds its lock for read.
 * @cfg: the argument, in kernel memory; its @topology and @holders are
 *	user pointers (or 0).
 * @commit: COMMIT; else PLAN.
 *
 * Return: PLAN: 0 with @cfg->allowed and @cfg->reason, -EINVAL for a
 * malformed @cfg, -ENOMEM or the provider's error when the holders of a
 * memory-mode change could not be counted.  COMMIT: 0 (committed or unchanged), -EINVAL with
 * @cfg->reason, -EBUSY with holders, the failing step's errno after a
 * rollback.  Both: -EOPNOTSUPP when the provider cannot switch modes,
 * -E2BIG for an oversized hive, -ENOMEM, -EFAULT, -ERESTARTSYS when a
 * signal interrupted the wait for another hive's commit (nothing changed;
 * the ioctl restarts, or fails with -EINTR without SA_RESTART).
 */
int amdx_partition_run(struct amdx_device *adev,
		       struct amdx_partition_config *cfg, bool commit)
{
	struct amdx_part_txn *t;
	bool planned;
	int ret, err;

	lockdep_assert_held(&adev->lock);
	ret = amdx_part_config_check(adev, cfg);
	if (ret)
		return ret;
	if (!amdx_part_can_switch(adev)) {
		amdx_dbg(adev, "provider cannot switch partition modes\n");
		return -EOPNOTSUPP;
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->cfg = cfg;
	t->max_holders = min_t(u32, cfg->max_holders, AMDX_PART_HOLDERS_MAX);
	if (t->max_holders) {
		t->holders = kcalloc(t->max_holders, sizeof(*t->holders),
				     GFP_KERNEL);
		if (!t->holders) {
			ret = -ENOMEM;
			goto out_free;
		}
	}

	ret = amdx_part_lock(t, adev);
	if (ret)
		goto out_free;
	ret = amdx_part_decide(t);
	/* A topology exists once the model accepted the modes. */
	planned = cfg->num_partitions;
	if (!commit && ret < 0 && cfg->reason == AMDX_PART_REASON_NONE) {
		/* Not refused: undecided (the holders could not be counted). */
	} else if (!commit) {
		cfg->allowed = ret >= 0;
		ret = 0;
	} else if (ret == 1) {
		cfg->outcome = AMDX_PART_OUTCOME_UNCHANGED;
		ret = 0;
	} else if (!ret) {
		ret = amdx_part_commit(t);
	} else {
		amdx_stats_commit(adev, AMDX_COMMIT_REFUSED);
	}
	amdx_part_unlock(t);

	err = amdx_part_copy_out(t, planned);
	if (err && !ret)
		ret = err;
out_free:
	amdx_hmm_holders_put(t->holders, t->got_holders);
	kfree(t->holders);
	kfree(t);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_run);

/**
 * amdx_ioctl_partition_plan() - %AMDX_IOC_PARTITION_PLAN
 * @file: a device fd.
 * @data: &struct amdx_partition_config.
 *
 * Return: see amdx_partition_run().
 */
int amdx_ioctl_partition_plan(struct amdx_file *file, void *data)
{
	return amdx_partition_run(file->adev, data, false);
}

/**
 * amdx_ioctl_partition_commit() - %AMDX_IOC_PARTITION_COMMIT
 * @file: a device fd.
 * @data: &struct amdx_partition_config.
 *
 * Return: see amdx_partition_run().
 */
int amdx_ioctl_partition_commit(struct amdx_file *file, void *data)
{
	return amdx_partition_run(file->adev, data, true);
}

/*
 * Queries
 */

/**
 * amdx_partition_fill() - the current partitions
 * @adev: the device.
 * @res: out: header and up to @max entries.
 * @max: capacity of @res->partitions.
 *
 * Return: the number of partitions (the entries written if <= @max).
 */
int amdx_partition_fill(struct amdx_device *adev,
			struct amdx_query_partitions *res, u32 max)
{
	struct amdx_part_dev *p = adev->part;
	u32 i, n;

	mutex_lock(&p->lock);
	n = p->cur.num_partitions;
	res->compute_mode = p->cur.compute_mode;
	res->memory_mode = p->cur.memory_mode;
	res->num_partitions = n;
	res->entry_size = sizeof(res->partitions[0]);
	res->generation = p->cur.generation;
	for (i = 0; i < n && i < max; i++)
		amdx_part_info(adev, &p->cur, i, &res->partitions[i]);
	mutex_unlock(&p->lock);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_fill);

static int amdx_query_partitions(struct amdx_device *adev,
				 struct amdx_query *q)
{
	struct amdx_query_partitions *res;
	size_t len = struct_size(res, partitions, AMDX_MAX_PARTITIONS);
	int n, ret;

	res = kzalloc(len, GFP_KERNEL);
	if (!res)
		return -ENOMEM;
	n = amdx_partition_fill(adev, res, AMDX_MAX_PARTITIONS);
	ret = amdx_query_out(adev, q, res, struct_size(res, partitions, n),
			     struct_size(res, partitions, n));
	kfree(res);
	return ret;
}

/**
 * amdx_partition_query() - %AMDX_QUERY_PARTITIONS and %AMDX_QUERY_VFS on a
 *	device fd
 * @file: a device fd; its ioctl path holds the device lock.
 * @q: the query.
 *
 * Return: 0, -ENOSPC with the needed size, -EFAULT, -ENOMEM, the
 * provider's error.
 */
int amdx_partition_query(struct amdx_file *file, struct amdx_query *q)
{
	switch (q->query) {
	case AMDX_QUERY_PARTITIONS:
		return amdx_query_partitions(file->adev, q);
	case AMDX_QUERY_VFS:
		return amdx_partition_query_vfs(file->adev, q);
	default:
		return -EINVAL;
	}
}

/*
 * The RAS interface
 */

/**
 * amdx_partition_of_instance() - the compute partition of a block instance
 * @adev: the device.
 * @block: %AMDX_RAS_BLOCK_GFX (instance = XCC) or %AMDX_RAS_BLOCK_SDMA.
 * @instance: the instance.
 * @part: out: the compute partition.
 *
 * The one model of which partition an engine error belongs to: providers
 * fill &amdx_ras_error.partition with it (amdx_sim does).
 *
 * Context: process context; takes the partition lock, so the caller holds
 * neither it nor anything it nests under but the device lock.
 * Return: 0; -ENOENT for blocks that belong to the whole device (UMC and
 * the others: use amdx_partition_of_vram() for memory errors); -EINVAL for
 * an instance the device lacks.
 */
int amdx_partition_of_instance(struct amdx_device *adev, u32 block,
			       u32 instance, u32 *part)
{
	struct amdx_part_dev *p = adev->part;
	int ret = -EINVAL;
	u32 i, mask;

	if (block != AMDX_RAS_BLOCK_GFX && block != AMDX_RAS_BLOCK_SDMA)
		return -ENOENT;
	if (instance >= 32)
		return -EINVAL;
	mutex_lock(&p->lock);
	for (i = 0; i < p->cur.num_partitions; i++) {
		mask = block == AMDX_RAS_BLOCK_GFX ? p->cur.parts[i].xcc_mask :
						     p->cur.parts[i].sdma_mask;
		if (mask & BIT(instance)) {
			*part = i;
			ret = 0;
			break;
		}
	}
	mutex_unlock(&p->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(amdx_partition_of_instance);

/**
 * amdx_partition_of_vram() - the memory partition of a VRAM address
 * @adev: the device.
 * @address: VRAM byte offset.
 * @mem: out: the memory partition.
 * @part: out: the compute partition the memory error belongs to: the only
 *	one with one partition, the one paired with @mem when compute and
 *	memory partitions pair 1:1, else %AMDX_RAS_PARTITION_ALL.
 *
 * The one model of which partitions a memory error belongs to: providers
 * fill &amdx_ras_error.mem_partition and .partition with it.  Context as
 * amdx_partition_of_instance().
 *
 * Return: 0, or -EINVAL for an address beyond the VRAM.
 */
int amdx_partition_of_vram(struct amdx_device *adev, u64 address, u32 *mem,
			   u32 *part)
{
	struct amdx_part_dev *p = adev->part;
	u32 nparts;
	u64 size;

	if (address >= adev->desc.vram_size)
		return -EINVAL;
	mutex_lock(&p->lock);
	size = amdx_part_mem_size(adev, p->cur.num_memory);
	*mem = div64_u64(address, size);
	nparts = p->cur.num_partitions;
	if (nparts == 1)
		*part = 0;
	else if (nparts == p->cur.num_memory)
		*part = *mem;
	else
		*part = AMDX_RAS_PARTITION_ALL;
	mutex_unlock(&p->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(amdx_partition_of_vram);

/**
 * amdx_partition_set_state() - put a partition in a state
 * @adev: the device.
 * @part: compute partition.
 * @state: %AMDX_PART_STATE_*.
 *
 * States change without a generation change.
 *
 * Return: 0, or -EINVAL for a bad @part or @state.
 */
int amdx_partition_set_state(struct amdx_device *adev, u32 part, u32 state)
{
	struct amdx_part_dev *p = adev->part;
	int ret = 0;

	if (state > AMDX_PART_STATE_OFFLINE)
		return -EINVAL;
	mutex_lock(&p->lock);
	if (part < p->cur.num_partitions)
		p->cur.parts[part].state = state;
	else
		ret = -EINVAL;
	mutex_unlock(&p->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_set_state);

/**
 * amdx_partition_get_state() - the state of a partition
 * @adev: the device.
 * @part: compute partition.
 * @state: out: %AMDX_PART_STATE_*.
 *
 * Return: 0, or -EINVAL for a bad @part.
 */
int amdx_partition_get_state(struct amdx_device *adev, u32 part, u32 *state)
{
	struct amdx_part_dev *p = adev->part;
	int ret = 0;

	mutex_lock(&p->lock);
	if (part < p->cur.num_partitions)
		*state = p->cur.parts[part].state;
	else
		ret = -EINVAL;
	mutex_unlock(&p->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_get_state);

/**
 * amdx_partition_reset() - reset one compute partition
 * @adev: the device; the caller holds its lock for read (device alive).
 * @part: compute partition.
 *
 * Counts the reset; the partition is online afterwards, or offline when
 * the reset failed or the provider cannot reset partitions.
 *
 * Return: 0, -EINVAL for a bad @part, -EOPNOTSUPP when the provider
 * cannot reset partitions, the provider's error.
 */
int amdx_partition_reset(struct amdx_device *adev, u32 part)
{
	struct amdx_part_dev *p = adev->part;
	int ret;

	mutex_lock(&p->lock);
	if (part >= p->cur.num_partitions) {
		ret = -EINVAL;
		goto out_unlock;
	}
	if (!adev->ops->partition_reset) {
		/* Nothing brings it back short of a device reset. */
		p->cur.parts[part].state = AMDX_PART_STATE_OFFLINE;
		ret = -EOPNOTSUPP;
		goto out_unlock;
	}
	ret = adev->ops->partition_reset(adev, part);
	p->cur.parts[part].resets++;
	p->cur.parts[part].state = ret ? AMDX_PART_STATE_OFFLINE :
					 AMDX_PART_STATE_ONLINE;
out_unlock:
	mutex_unlock(&p->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_partition_reset);
