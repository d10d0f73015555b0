// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: RAS poison gate
 *
 * What the HMM path asks RAS before it touches VRAM: whether a page holds
 * poison, whether the device refuses new VRAM, and the report of a
 * consumed poisoned page.  A leaf of its own below the features, so the
 * migration engine reads RAS state without depending on the RAS feature,
 * which itself moves data through HMM (amdx_ras.c).  The poisoned pages
 * live in &amdx_ras.poison, and this file is its one owner: it sets the
 * set up, writes it (RAS marks a page with amdx_ras_poison_mark()) and
 * frees it.
 */
#include <linux/lockdep.h>
#include <linux/pid.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_ras_poison.h"
#include "amdx_ras_types.h"
#include "amdx_recovery_model.h"

/**
 * amdx_ras_poison_init() - start a device's set of poisoned pages, empty
 * @ras: the device's RAS state, being set up.
 */
void amdx_ras_poison_init(struct amdx_ras *ras)
{
	xa_init(&ras->poison);
}

/**
 * amdx_ras_poison_fini() - free a device's set of poisoned pages
 * @ras: the device's RAS state, being freed: nobody reads it any more.
 */
void amdx_ras_poison_fini(struct amdx_ras *ras)
{
	xa_destroy(&ras->poison);
}

/**
 * amdx_ras_poison_mark() - mark a VRAM page as holding poison
 * @ras: the device's RAS state; the caller holds &amdx_ras.lock.
 * @index: VRAM page index.
 *
 * Poison is never cleared while the device exists (amdx_ras_any_poison()
 * relies on it): there is no unmark.
 *
 * Return: 0, or -ENOMEM.
 */
int amdx_ras_poison_mark(struct amdx_ras *ras, u64 index)
{
	lockdep_assert_held(&ras->lock);
	return xa_err(xa_store(&ras->poison, index, xa_mk_value(1),
			       GFP_KERNEL));
}

/**
 * amdx_ras_page_poisoned() - whether a VRAM page holds poison
 * @adev: the device.
 * @index: VRAM page index.
 *
 * Context: any; lockless (the CPU fault path calls it).
 * Return: true for a page retired after a UE or DE.
 */
bool amdx_ras_page_poisoned(struct amdx_device *adev, u64 index)
{
	return adev->ras && xa_load(&adev->ras->poison, index);
}

/**
 * amdx_ras_any_poison() - whether any VRAM page of a device holds poison
 * @adev: the device.
 *
 * Poison is never cleared while the device exists, so false here means
 * amdx_ras_page_poisoned() is false for every page now and was before:
 * a migration asks once per batch instead of once per page.
 *
 * Context: any; lockless.
 * Return: true once a page was retired after a UE or DE.
 */
bool amdx_ras_any_poison(struct amdx_device *adev)
{
	return adev->ras && !xa_empty(&adev->ras->poison);
}

/*
 * The fault path holds mmap_lock, which nests under the RAS lock: the
 * consumer waits in &amdx_recovery_state.queue for the recovery worker, or
 * the next plan or run of the device (amdx_recovery.c), which sets the
 * process action of the page's partition and names the consumer in it.  A
 * full queue says it overflowed instead: the worker escalates the
 * device's action past the process it cannot name.
 */
static void amdx_ras_poison_queue(struct amdx_device *adev, u64 index,
				  const struct amdx_subject *who,
				  const struct amdx_event *ev)
{
	struct amdx_recovery_state *rs = &adev->ras->recovery;
	struct amdx_recovery_consumed *q;
	unsigned long flags;

	spin_lock_irqsave(&rs->queue_lock, flags);
	if (!rs->closed) {
		if (rs->nqueued < AMDX_RECOVERY_QUEUE) {
			q = &rs->queue[rs->nqueued++];
			q->who.pid = get_pid(who->pid);
			q->who.euid = who->euid;
			q->index = index;
			q->seq = ev->seq;
			q->time_ns = ev->timestamp_ns;
		} else {
			rs->overflow = true;
		}
		schedule_work(&rs->work);
	}
	spin_unlock_irqrestore(&rs->queue_lock, flags);
}

/**
 * amdx_ras_poison_consumed() - somebody touched a poisoned page
 * @adev: the device.
 * @index: VRAM page index.
 * @who: the consumer; the event shows it only to whom may see it.
 *
 * The POISON_CONSUMED record carries the action the consumption sets
 * (data[1]); the consumer is queued to be named in it.
 *
 * Context: any; never sleeps.
 */
void amdx_ras_poison_consumed(struct amdx_device *adev, u64 index,
			      const struct amdx_subject *who)
{
	struct amdx_event ev = {
		.kind = AMDX_EVENT_POISON_CONSUMED,
		.partition = AMDX_RAS_PARTITION_ALL,
		.address = index << PAGE_SHIFT,
	};
	/*
	 * The action a consumption sets: the cheapest that suffices, which
	 * every device can carry out, and whose scope is the one process
	 * whatever the topology (amdx_recovery_scope()).
	 */
	const struct amdx_recovery_scope one = { .num_processes = 1 };

	amdx_ras_info(adev, "poison at %#llx consumed by pid %d",
		      index << PAGE_SHIFT, pid_nr(who->pid));
	ev.data[1] = amdx_recovery_sum(amdx_recovery_need(AMDX_FAULT_POISON_CONSUMED),
				       &one);
	amdx_event_emit_subject(adev, &ev, who);
	amdx_ras_poison_queue(adev, index, who, &ev);
}

/* The rule of both: flagged for RMA and the policy refuses use. */
static bool amdx_ras_refuses_vram(struct amdx_ras *ras)
{
	lockdep_assert_held(&ras->lock);
	return ras->rma && amdx_ras_rma_refuses(&ras->policy);
}

/**
 * amdx_ras_vram_refused() - whether the device refuses new VRAM allocations
 * @adev: the device.
 *
 * Return: true when it is flagged for RMA and the policy refuses use.
 */
bool amdx_ras_vram_refused(struct amdx_device *adev)
{
	struct amdx_ras *ras = adev->ras;
	bool refused;

	mutex_lock(&ras->lock);
	refused = amdx_ras_refuses_vram(ras);
	mutex_unlock(&ras->lock);
	return refused;
}

/**
 * amdx_ras_vram_refused_nowait() - amdx_ras_vram_refused() without waiting
 * @adev: the device.
 *
 * For a placement that must not wait for the RAS lock and has somewhere
 * else to go: a fabric link's containment (amdx_hmm_link.c), which holds
 * another device's lock.
 *
 * Return: true when the device refuses new VRAM allocations, or when its
 * RAS lock is taken (the caller then places nothing).
 */
bool amdx_ras_vram_refused_nowait(struct amdx_device *adev)
{
	struct amdx_ras *ras = adev->ras;
	bool refused;

	if (!mutex_trylock(&ras->lock))
		return true;
	refused = amdx_ras_refuses_vram(ras);
	mutex_unlock(&ras->lock);
	return refused;
}
