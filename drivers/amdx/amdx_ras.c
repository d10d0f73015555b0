// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: RAS intake and containment
 *
 * Providers report hardware errors with amdx_ras_report(); injection
 * (%AMDX_IOC_RAS_INJECT) is validated here and handed to the provider's
 * &amdx_provider_ops.ras_inject, which produces the same kind of report a
 * real backend would.  Every report is counted, logged as an ERROR event
 * and contained before amdx_ras_report() returns, so containment has run
 * when the inject ioctl returns; a report the provider marks uncounted
 * (%AMDX_RAS_ERR_F_UNCOUNTED: a page of one poison its driver counted
 * once) is contained only, each page keeping its PAGE_RETIRED record::
 *
 *    process        core (ioctl)          provider          core (intake)
 *      | INJECT ------> validate             |                    |
 *      |                ras_inject() ------> | hardware-like      |
 *      |                                     | report ----------> | count, ERROR
 *      |                                     |                    | decide (policy)
 *      |                                     |                    | contain:
 *      |                                     |                    |  soft retire /
 *      |                                     |                    |  poison retire /
 *      |                                     |                    |  partition reset /
 *      |                                     |                    |  device reset
 *      |                                     | <----------------- | seq
 *      | <------------ seq ------------------|                    |
 *
 * Soft retirement moves the data resident on the page to another VRAM
 * page of the same memory partition (system memory when the partition is
 * full or the VRAM gate closed) with amdx_hmm_retire_vram_page(), then the
 * page leaves the allocator; poisoned pages keep their (bad) data and
 * their mappings: a CPU touch gets SIGBUS (BUS_MCEERR_AR) from
 * amdx_hmm_migrate_to_ram(), a device access -EIO.  Retired pages are
 * recorded in the bad-page table (amdx_badpage.c), which the provider
 * keeps on the board.
 *
 * Locking: &amdx_ras.lock (a mutex) protects the whole RAS state of a
 * device and is held across containment, which may sleep; the order is
 * amdx_core.h's lock order table.  The poison map (amdx_ras_poison.c owns
 * it) is an xarray read without the mutex (RCU) from the CPU fault path,
 * which holds the mmap lock: nothing under &amdx_ras.lock takes an mmap
 * lock.  amdx_ras_report() must not be
 * called once amdx_device_unregister() has started.
 */
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/capability.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>
#include <amdx/amdx_badpage.h>

#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_partition_gate.h"
#include "amdx_partition_model.h"
#include "amdx_hmm_devmove.h"
#include "amdx_ras.h"
#include "amdx_ras_partition.h"
#include "amdx_ras_poison.h"
#include "amdx_ras_policy.h"
#include "amdx_ras_types.h"
#include "amdx_recovery.h"
#include "amdx_recovery_model.h"

/* Pages BADPAGES_IMPORT retires per hold of &amdx_ras.lock. */
#define AMDX_RAS_IMPORT_BATCH	64
/* Errors one injection may stand for. */
#define AMDX_RAS_INJECT_MAX	1024

/* Size of the first version of the fixed-size RAS query results. */
static_assert(sizeof(struct amdx_ras_policy) >= AMDX_RAS_POLICY_SIZE_VER0);
static_assert(sizeof(struct amdx_reset_scope) >= AMDX_RESET_SCOPE_SIZE_VER0);

static const char * const amdx_ras_block_names[AMDX_RAS_BLOCK_COUNT] = {
	[AMDX_RAS_BLOCK_UMC] = "umc",
	[AMDX_RAS_BLOCK_SDMA] = "sdma",
	[AMDX_RAS_BLOCK_GFX] = "gfx",
	[AMDX_RAS_BLOCK_MMHUB] = "mmhub",
	[AMDX_RAS_BLOCK_PCIE_BIF] = "pcie_bif",
	[AMDX_RAS_BLOCK_HDP] = "hdp",
	[AMDX_RAS_BLOCK_XGMI_WAFL] = "xgmi_wafl",
};

static const char * const amdx_ras_type_names[AMDX_RAS_TYPE_COUNT] = {
	[AMDX_RAS_TYPE_CE] = "ce",
	[AMDX_RAS_TYPE_UE] = "ue",
	[AMDX_RAS_TYPE_DE] = "de",
};

static u64 amdx_ras_now_s(void)
{
	return ktime_get_boottime_seconds();
}

static void amdx_ras_emit(struct amdx_device *adev, u16 kind, u32 partition,
			  u64 address, u64 d0, u64 d1)
{
	struct amdx_event ev = {
		.kind = kind,
		.partition = partition,
		.address = address,
		.data = { d0, d1 },
	};

	amdx_event_emit(adev, &ev);
}

static void amdx_ras_action_end(struct amdx_device *adev, u32 action,
				u32 partition, int ret, u64 t0)
{
	amdx_ras_emit(adev, AMDX_EVENT_ACTION_END, partition,
		      ktime_get_ns() - t0, action, (u64)(s64)ret);
}

/* Caller holds ras->lock. */
static bool amdx_ras_retired(struct amdx_ras *ras, u64 address)
{
	u32 pos;

	return ras->table &&
	       !amdx_badpage_find(ras->table, ras->nrec,
				  address & PAGE_MASK, &pos);
}

/* Caller holds ras->lock.  The table's room, allocated at first use. */
static int amdx_ras_table_alloc(struct amdx_ras *ras)
{
	if (!ras->table)
		ras->table = kvcalloc(AMDX_BADPAGE_MAX_RECORDS,
				      sizeof(*ras->table), GFP_KERNEL);
	return ras->table ? 0 : -ENOMEM;
}

/* Caller holds ras->lock.  Keeps the table sorted. */
static int amdx_ras_record(struct amdx_ras *ras,
			   const struct amdx_badpage_record *rec)
{
	u32 pos;

	if (!amdx_badpage_find(ras->table, ras->nrec, rec->address, &pos))
		return -EEXIST;
	if (ras->nrec == AMDX_BADPAGE_MAX_RECORDS)
		return -ENOSPC;
	if (amdx_ras_table_alloc(ras))
		return -ENOMEM;
	memmove(&ras->table[pos + 1], &ras->table[pos],
		(ras->nrec - pos) * sizeof(*ras->table));
	ras->table[pos] = *rec;
	ras->nrec++;
	ras->dirty = true;
	return 0;
}

/* Caller holds ras->lock.  Hands the table to the board. */
static void amdx_ras_store(struct amdx_device *adev)
{
	struct amdx_ras *ras = adev->ras;
	size_t len = amdx_badpage_size(ras->nrec);
	void *buf;
	int ret;

	if (!ras->dirty || !adev->ops->badpages_store)
		return;
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto out_err;
	}
	amdx_badpage_encode(ras->table, ras->nrec, buf, len);
	ret = adev->ops->badpages_store(adev, buf, len);
	kvfree(buf);
	if (!ret) {
		ras->dirty = false;
		return;
	}
out_err:
	amdx_warn_ratelimited(adev, "bad-page table not stored on the board: %pe\n",
			      ERR_PTR(ret));
}

/* Caller holds ras->lock. */
static void amdx_ras_check_rma(struct amdx_device *adev)
{
	struct amdx_ras *ras = adev->ras;
	u32 limit = amdx_ras_bad_page_limit(&ras->policy, adev->desc.vram_size);

	if (ras->rma || ras->nrec < limit)
		return;
	ras->rma = true;
	amdx_warn(adev, "%u retired pages reach the bad-page threshold %u: device flagged for RMA%s\n",
		  ras->nrec, limit,
		  amdx_ras_rma_refuses(&ras->policy) ?
		  ", new VRAM allocations refused" : "");
	amdx_ras_emit(adev, AMDX_EVENT_RMA, AMDX_RAS_PARTITION_ALL, 0,
		      ras->nrec, 0);
	amdx_recovery_fault(adev, AMDX_FAULT_BOARD, AMDX_RAS_PARTITION_ALL,
			    AMDX_VF_NONE, NULL);
}

#if IS_ENABLED(CONFIG_DEVICE_PRIVATE)
/* Moves what a process has on the page elsewhere: pages moved. */
static int amdx_ras_move_off(struct amdx_device *adev, u64 index, u64 *moved)
{
	int ret;

	*moved = 0;
	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM))
		return 0;
	ret = amdx_hmm_retire_vram_page(adev, index);
	if (ret == -ENOENT)
		return 0;
	if (!ret)
		*moved = 1;
	return ret;
}
#else
static int amdx_ras_move_off(struct amdx_device *adev, u64 index, u64 *moved)
{
	*moved = 0;
	return 0;
}
#endif

/*
 * Caller holds ras->lock.  Retires one page: soft (CE, import: data moves
 * off first) or poisoned (UE, DE: data stays, consumers get SIGBUS).  With
 * @record false the caller records @rec itself (amdx_ras_apply_batch()).
 */
static int amdx_ras_retire(struct amdx_device *adev,
			   const struct amdx_badpage_record *rec, bool record)
{
	struct amdx_ras *ras = adev->ras;
	bool poison = rec->cause == AMDX_BADPAGE_CAUSE_UE ||
		      rec->cause == AMDX_BADPAGE_CAUSE_DE;
	u32 action = poison ? AMDX_ACTION_POISON_RETIRE :
			      AMDX_ACTION_SOFT_RETIRE;
	u64 index = rec->address >> PAGE_SHIFT, moved = 0, t0 = ktime_get_ns();
	int ret = 0, err;

	amdx_ras_emit(adev, AMDX_EVENT_PAGE_PENDING, AMDX_RAS_PARTITION_ALL,
		      rec->address, 0, 0);
	amdx_ras_emit(adev, AMDX_EVENT_ACTION_START, AMDX_RAS_PARTITION_ALL,
		      rec->address, action, 0);

	if (poison)
		ret = amdx_ras_poison_mark(ras, index);
	/* First out of the allocator, so the move cannot land on it. */
	if (adev->ops->vram_retire) {
		err = adev->ops->vram_retire(adev, index);
		ret = ret ?: err;
	}
	if (!poison) {
		err = amdx_ras_move_off(adev, index, &moved);
		ret = ret ?: err;
	}
	if (record) {
		err = amdx_ras_record(ras, rec);
		if (err == -ENOSPC)
			amdx_warn_ratelimited(adev, "bad-page table full, page %#llx retired but not recorded\n",
					      rec->address);
		ret = ret ?: err;
	}
	if (ret)
		amdx_info_ratelimited(adev, "retiring page %#llx: %pe\n",
				      rec->address, ERR_PTR(ret));

	amdx_ras_emit(adev, AMDX_EVENT_PAGE_RETIRED, AMDX_RAS_PARTITION_ALL,
		      rec->address, rec->cause, moved);
	amdx_ras_action_end(adev, action, AMDX_RAS_PARTITION_ALL, ret, t0);
	if (record)
		amdx_ras_check_rma(adev);
	return ret;
}

/* Caller holds ras->lock.  Retires and records one page. */
static int amdx_ras_retire_page(struct amdx_device *adev, u64 address,
				u32 mem_part, u16 cause, u64 time)
{
	struct amdx_badpage_record rec = {
		.address = address & PAGE_MASK,
		.time = time,
		.partition = mem_part,
		.cause = cause,
	};

	return amdx_ras_retire(adev, &rec, true);
}

/* Every device id has its bit in the DEVICE_RESET_BEGIN bitmap. */
static_assert(sizeof(u64) * BITS_PER_BYTE >= AMDX_MAX_DEVICES);

/* Caller holds ras->lock.  Runs the policy's step for one report. */
static void amdx_ras_contain(struct amdx_device *adev,
			     const struct amdx_ras_error *err)
{
	struct amdx_ras *ras = adev->ras;
	struct amdx_ras_situation s = {
		.block = err->block,
		.type = err->type,
		.on_page = amdx_ras_error_on_page(err),
		.partition = err->partition < AMDX_MAX_PARTITIONS,
	};
	u64 now = 0, index = err->address >> PAGE_SHIFT;
	struct amdx_ras_ce_window *w;
	u32 step;
	int ret;

	/* The windows need the time; a CE or DE off a page is only counted. */
	if (s.on_page || err->type == AMDX_RAS_TYPE_UE)
		now = amdx_ras_now_s();
	if (s.on_page)
		s.page_retired = amdx_ras_retired(ras, err->address);
	if (s.on_page && !s.page_retired && err->type == AMDX_RAS_TYPE_CE) {
		w = xa_load(&ras->ce, index);
		if (!w) {
			w = kzalloc(sizeof(*w), GFP_KERNEL);
			if (!w || xa_err(xa_store(&ras->ce, index, w,
						  GFP_KERNEL))) {
				kfree(w);
				amdx_info_ratelimited(adev, "no memory to count CEs of page %#llx\n",
						      err->address & PAGE_MASK);
				return;
			}
		}
		s.page_ces = amdx_ras_ce_add(w, ras->policy.ce_window_s, now,
					     err->count);
	}
	if (s.partition && err->type == AMDX_RAS_TYPE_UE)
		s.part_resets = amdx_ras_resets_in_window(&ras->resets[err->partition],
							  ras->policy.part_reset_window_s,
							  now);

	step = amdx_ras_decide(&ras->policy, &s);
	switch (step) {
	case AMDX_RAS_DO_SOFT_RETIRE:
		amdx_ras_retire_page(adev, err->address, err->mem_partition,
				     AMDX_BADPAGE_CAUSE_CE, ktime_get_real_seconds());
		kfree(xa_erase(&ras->ce, index));
		break;
	case AMDX_RAS_DO_POISON_RETIRE:
		amdx_ras_retire_page(adev, err->address, err->mem_partition,
				     err->type == AMDX_RAS_TYPE_UE ?
				     AMDX_BADPAGE_CAUSE_UE : AMDX_BADPAGE_CAUSE_DE,
				     ktime_get_real_seconds());
		kfree(xa_erase(&ras->ce, index));
		break;
	case AMDX_RAS_DO_PARTITION_RESET:
	case AMDX_RAS_DO_PARTITION_OFFLINE:
		amdx_ras_reset_record(&ras->resets[err->partition], now);
		ret = amdx_ras_partition_contain(adev, err->partition,
						 step == AMDX_RAS_DO_PARTITION_OFFLINE);
		/* Left offline, the partition still needs its action. */
		if (step == AMDX_RAS_DO_PARTITION_RESET)
			amdx_recovery_ran(adev, AMDX_RECOVER_PARTITION,
					  err->partition, ret);
		break;
	case AMDX_RAS_DO_DEVICE_RESET:
		ret = amdx_recovery_device_reset(adev);
		amdx_recovery_ran(adev, AMDX_RECOVER_DEVICE,
				  AMDX_RAS_PARTITION_ALL, ret);
		break;
	default:
		break;
	}
	amdx_ras_store(adev);
}

static int amdx_ras_error_check(struct amdx_device *adev,
				const struct amdx_ras_error *err)
{
	struct amdx_ras *ras = adev->ras;

	if (err->block >= AMDX_RAS_BLOCK_COUNT ||
	    err->type >= AMDX_RAS_TYPE_COUNT || !err->count ||
	    (err->flags & ~(AMDX_RAS_ERR_F_ADDRESS | AMDX_RAS_ERR_F_UNCOUNTED)))
		return -EINVAL;
	/* Uncounted: the page of a UE or DE another report counted. */
	if ((err->flags & AMDX_RAS_ERR_F_UNCOUNTED) &&
	    (!(err->flags & AMDX_RAS_ERR_F_ADDRESS) ||
	     err->type == AMDX_RAS_TYPE_CE))
		return -EINVAL;
	if (!(ras->blocks[err->block].supported & BIT(err->type)) ||
	    err->instance >= ras->blocks[err->block].instances)
		return -EINVAL;
	if ((err->flags & AMDX_RAS_ERR_F_ADDRESS) &&
	    (err->address >= adev->desc.vram_size ||
	     err->mem_partition >= AMDX_MAX_MEM_PARTITIONS))
		return -EINVAL;
	if (err->partition != AMDX_RAS_PARTITION_ALL &&
	    err->partition >= AMDX_MAX_PARTITIONS)
		return -EINVAL;
	/* An event's type names an event: none without one. */
	if (err->driver_event_type > AMDX_DRIVER_EVENT_POISON_CONSUMPTION ||
	    (!err->driver_event && err->driver_event_type))
		return -EINVAL;
	return 0;
}

/**
 * amdx_ras_report() - a provider reports a hardware error
 * @adev: the device.
 * @err: the error.
 * @seq: out, may be NULL: sequence number of the ERROR event, 0 for an
 *	uncounted report.
 *
 * Counts the error, logs an ERROR event (naming @err's consumer, if any,
 * to the subscribers that may see it, and the driver's event id and type)
 * and runs containment (see DOC) before returning.  A report with
 * %AMDX_RAS_ERR_F_UNCOUNTED is a page of an error another report counts
 * (one poison whose row's pages the provider's driver retires): the
 * page's containment runs as for any report of it, with its own
 * PAGE_RETIRED record, but no counter moves and no ERROR event is logged,
 * so the counts stay the driver's.
 *
 * Context: process context, may sleep; not after amdx_device_unregister()
 * has started.
 * Return: 0, or -EINVAL for a report that does not fit the device (an
 * unknown block or type, one the block does not support, an instance or
 * address out of range, an uncounted report without an address or of a
 * CE, a driver event type unknown or without an event id).
 */
int amdx_ras_report(struct amdx_device *adev,
		    const struct amdx_ras_error *err, u64 *seq)
{
	struct amdx_ras *ras = adev->ras;
	struct amdx_event ev = {
		.kind = AMDX_EVENT_ERROR,
		.block = err->block,
		.type = err->type,
		.instance = err->instance,
		.partition = err->partition,
		.data = { err->count },
	};
	struct amdx_event_error error = {
		.driver_event = err->driver_event,
		.driver_event_type = err->driver_event_type,
	};
	struct amdx_recovery_fault f;
	struct amdx_subject who;
	int ret;

	if (seq)
		*seq = 0;
	ret = amdx_ras_error_check(adev, err);
	if (ret) {
		amdx_info_ratelimited(adev, "provider reported an invalid error (block %u type %u instance %u)\n",
				      err->block, err->type, err->instance);
		return ret;
	}
	if (err->flags & AMDX_RAS_ERR_F_ADDRESS)
		ev.address = err->address;
	/* The consumer, as each subscriber may see it (amdx_viewer.c). */
	if (err->consumer) {
		amdx_subject_of_pid(&who, err->consumer);
		who.pasid = err->pasid;
		error.consumer = &who;
	}

	mutex_lock(&ras->lock);
	if (!(err->flags & AMDX_RAS_ERR_F_UNCOUNTED)) {
		ras->count[err->block][0][err->type] += err->count;
		if (err->partition < AMDX_MAX_PARTITIONS)
			ras->count[err->block][1 + err->partition][err->type] +=
				err->count;
		/* The ERROR record carries the fault's action (data[1]). */
		amdx_recovery_fault_of(adev, err, &f);
		amdx_recovery_fault_error(adev, &f, &ev, &error);
		if (seq)
			*seq = ev.seq;
	}
	amdx_ras_contain(adev, err);
	mutex_unlock(&ras->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(amdx_ras_report);

/**
 * amdx_ras_count() - a device's count of one block's errors of one type
 * @adev: the device.
 * @block: %AMDX_RAS_BLOCK_*.
 * @type: %AMDX_RAS_TYPE_*.
 *
 * The device-wide count, as &struct amdx_query_ras's device row and the
 * sysfs ras/<block>_<type>_count show it.
 *
 * Context: process context, may sleep.
 * Return: the count, or %AMDX_RAS_UNSUPPORTED when the device lacks the
 * block or the block does not report the type (or either is unknown).
 */
u64 amdx_ras_count(struct amdx_device *adev, u32 block, u32 type)
{
	struct amdx_ras *ras = adev->ras;
	const struct amdx_ras_block_info *b;
	u64 val;

	if (block >= AMDX_RAS_BLOCK_COUNT || type >= AMDX_RAS_TYPE_COUNT)
		return AMDX_RAS_UNSUPPORTED;
	b = &ras->blocks[block];
	if (!b->instances || !(b->supported & BIT(type)))
		return AMDX_RAS_UNSUPPORTED;
	mutex_lock(&ras->lock);
	val = ras->count[block][0][type];
	mutex_unlock(&ras->lock);
	return val;
}
EXPORT_SYMBOL_GPL(amdx_ras_count);

/**
 * amdx_device_reset_begin() - a device reset amdx did not ask for starts
 * @adev: the device the reset was asked of.
 *
 * For a reset the provider's driver runs on its own (a hang, its own RAS
 * recovery), never for one amdx asked for through
 * &amdx_provider_ops.device_reset, which the core reports itself: the
 * DEVICE_RESET_BEGIN event the core emits around that op, with the same
 * bitmap of the device ids the reset affects (amdx_recovery_reset_ids():
 * @adev, its hive, the devices below its switch for a secondary bus
 * reset), on @adev only.  amdx_device_reset_end() follows.
 *
 * Context: process context; not after amdx_device_unregister() has
 * started.
 */
void amdx_device_reset_begin(struct amdx_device *adev)
{
	amdx_info(adev, "device reset by its driver\n");
	amdx_ras_emit(adev, AMDX_EVENT_DEVICE_RESET_BEGIN,
		      AMDX_RAS_PARTITION_ALL, 0, amdx_recovery_reset_mask(adev), 0);
}
EXPORT_SYMBOL_GPL(amdx_device_reset_begin);

/**
 * amdx_device_reset_end() - a device reset amdx did not ask for is over
 * @adev: the device of amdx_device_reset_begin().
 * @result: 0, or the -errno the reset failed with.
 *
 * The DEVICE_RESET_END event, as the core emits it after its own
 * &amdx_provider_ops.device_reset: data[0] is @result.  The reset ran
 * the device's pending device-reset action, if it has one (one the
 * driver's reset stood for, as its device_reset op said with -EALREADY,
 * or any other): the action's self-test follows and it clears, or it
 * fails with @result.  A reset that failed is the reset_failed fault:
 * the device gets its action, a node reboot.
 *
 * Context: process context, without the device's RAS lock; not after
 * amdx_device_unregister() has started.
 */
void amdx_device_reset_end(struct amdx_device *adev, int result)
{
	if (result)
		amdx_err(adev, "device reset by its driver failed: %pe\n",
			 ERR_PTR(result));
	amdx_ras_emit(adev, AMDX_EVENT_DEVICE_RESET_END, AMDX_RAS_PARTITION_ALL,
		      0, (u64)(s64)result, 0);
	mutex_lock(&adev->ras->lock);
	amdx_recovery_ran(adev, AMDX_RECOVER_DEVICE, AMDX_RAS_PARTITION_ALL,
			  result);
	mutex_unlock(&adev->ras->lock);
}
EXPORT_SYMBOL_GPL(amdx_device_reset_end);

/**
 * amdx_device_rma() - the provider's driver flagged the device for RMA
 * @adev: the device.
 *
 * The board is to be returned by the driver's own rule (amdgpu: its
 * EEPROM's bad-page records reached amdgpu's threshold), whatever amdx's
 * own bad-page threshold says: the device is flagged for RMA as when
 * amdx's threshold is reached (&amdx_query_ras.flags %AMDX_RAS_F_RMA,
 * the rma attribute, with the policy's %AMDX_RAS_POL_F_RMA_REFUSE new
 * VRAM allocations refused) and one RMA event says so, data[0] the pages
 * amdx holds retired.  A device already flagged stays so, with no second
 * event.
 *
 * Context: process context; not after amdx_device_unregister() has
 * started.
 */
void amdx_device_rma(struct amdx_device *adev)
{
	struct amdx_ras *ras = adev->ras;

	mutex_lock(&ras->lock);
	if (!ras->rma) {
		ras->rma = true;
		amdx_warn(adev, "flagged for RMA by its driver, %u retired pages%s\n",
			  ras->nrec, amdx_ras_rma_refuses(&ras->policy) ?
			  ", new VRAM allocations refused" : "");
		amdx_ras_emit(adev, AMDX_EVENT_RMA, AMDX_RAS_PARTITION_ALL, 0,
			      ras->nrec, 0);
		amdx_recovery_fault(adev, AMDX_FAULT_BOARD,
				    AMDX_RAS_PARTITION_ALL, AMDX_VF_NONE, NULL);
	}
	mutex_unlock(&ras->lock);
}
EXPORT_SYMBOL_GPL(amdx_device_rma);

/*
 * Caller holds ras->lock.  Retires the pages of @recs (a decoded table's
 * records: sorted, unique, checked against the device) that are not
 * retired yet, then records them with one merge: O(nrec + @n) moves and
 * @n binary searches, where recording each page on its own moved the
 * table's tail every time.  @recs is overwritten.  Returns the pages
 * newly retired; those beyond a full table are retired but not recorded
 * (logged, as for any retirement).
 */
static u32 amdx_ras_apply_batch(struct amdx_device *adev,
				struct amdx_badpage_record *recs, u32 n,
				u16 cause)
{
	struct amdx_ras *ras = adev->ras;
	struct amdx_badpage_record rec;
	u32 i, retired = 0, added = 0;

	if (amdx_ras_table_alloc(ras)) {
		/* Each page retires all the same and says why unrecorded. */
		for (i = 0; i < n; i++) {
			if (amdx_ras_retired(ras, recs[i].address))
				continue;
			amdx_ras_retire_page(adev, recs[i].address,
					     recs[i].partition,
					     cause ?: recs[i].cause,
					     recs[i].time);
			retired++;
		}
		return retired;
	}
	for (i = 0; i < n; i++) {
		if (amdx_ras_retired(ras, recs[i].address))
			continue;
		rec = recs[i];
		rec.cause = cause ?: rec.cause;
		amdx_ras_retire(adev, &rec, false);
		retired++;
		if (ras->nrec + added < AMDX_BADPAGE_MAX_RECORDS)
			recs[added++] = rec;	/* added <= i */
		else
			amdx_warn_ratelimited(adev, "bad-page table full, page %#llx retired but not recorded\n",
					      rec.address);
	}
	if (added) {
		ras->nrec = amdx_badpage_merge(ras->table, ras->nrec, recs,
					       added);
		ras->dirty = true;
	}
	amdx_ras_check_rma(adev);
	return retired;
}

/* Records must name pages of this device. */
static int amdx_ras_table_fits(struct amdx_device *adev,
			       const struct amdx_badpage_record *recs, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (recs[i].address >= adev->desc.vram_size ||
		    !PAGE_ALIGNED(recs[i].address) ||
		    recs[i].partition >= AMDX_MAX_MEM_PARTITIONS) {
			amdx_info_ratelimited(adev, "bad-page record %u: page %#llx (partition %u) is not a page of this device\n",
					      i, recs[i].address,
					      recs[i].partition);
			return -EINVAL;
		}
	}
	return 0;
}

/* Decode a whole table into a new array: 0 or -errno, nothing applied. */
static int amdx_ras_decode(struct amdx_device *adev, const void *buf,
			   size_t len, struct amdx_badpage_record **recs,
			   u32 *n)
{
	size_t max = len > AMDX_BADPAGE_HEADER_SIZE ?
		     (len - AMDX_BADPAGE_HEADER_SIZE) / AMDX_BADPAGE_RECORD_SIZE : 0;
	const char *why = NULL;
	int ret;

	max = min_t(size_t, max, AMDX_BADPAGE_MAX_RECORDS);
	*recs = kvcalloc(max ?: 1, sizeof(**recs), GFP_KERNEL);
	if (!*recs)
		return -ENOMEM;
	ret = amdx_badpage_decode(buf, len, *recs, max, n, &why);
	if (ret == -EBADMSG)
		amdx_info_ratelimited(adev, "bad-page table rejected: %s\n",
				      why);
	if (!ret)
		ret = amdx_ras_table_fits(adev, *recs, *n);
	if (ret) {
		kvfree(*recs);
		*recs = NULL;
	}
	return ret;
}

/* The device's last reference is gone. */
static void amdx_ras_fini(struct amdx_device *adev)
{
	struct amdx_ras *ras = adev->ras;
	struct amdx_ras_ce_window *w;
	unsigned long index;

	if (!ras)
		return;
	xa_for_each(&ras->ce, index, w)
		kfree(w);
	xa_destroy(&ras->ce);
	amdx_ras_poison_fini(ras);
	amdx_recovery_fini(ras);
	kvfree(ras->table);
	mutex_destroy(&ras->lock);
	kfree(ras);
	adev->ras = NULL;
}

/**
 * amdx_ras_init() - set up the RAS state of a new device
 * @adev: the device, being registered; adev->desc is its own copy.
 *
 * Copies the provider's RAS blocks and retires the pages of the table the
 * board keeps.  A corrupt board table is logged and ignored: the device
 * starts with an empty one (and overwrites the board's at the first
 * retirement).  Registers the freeing of the state with the device
 * (%AMDX_DEVICE_RELEASE).
 *
 * Return: 0, -ENOMEM, or -ENOSPC when the device holds no more actions.
 */
int amdx_ras_init(struct amdx_device *adev)
{
	struct amdx_badpage_record *recs;
	struct amdx_ras *ras;
	u32 n;
	int ret;

	ras = kzalloc(sizeof(*ras), GFP_KERNEL);
	if (!ras)
		return -ENOMEM;
	mutex_init(&ras->lock);
	xa_init(&ras->ce);
	amdx_ras_poison_init(ras);
	amdx_ras_policy_default(&ras->policy);
	if (adev->desc.ras_blocks)
		memcpy(ras->blocks, adev->desc.ras_blocks, sizeof(ras->blocks));
	adev->desc.ras_blocks = NULL;
	adev->ras = ras;
	ret = amdx_device_add_action_or_reset(adev, AMDX_DEVICE_RELEASE,
					      amdx_ras_fini);
	if (ret)
		return ret;
	ret = amdx_recovery_init(adev);
	if (ret)
		return ret;

	if (adev->desc.badpages &&
	    !amdx_ras_decode(adev, adev->desc.badpages,
			     adev->desc.badpages_len, &recs, &n)) {
		mutex_lock(&ras->lock);
		/* Nothing is mapped yet: no data to move, no events to read. */
		amdx_ras_apply_batch(adev, recs, n, 0);
		ras->dirty = false;
		mutex_unlock(&ras->lock);
		kvfree(recs);
		amdx_info(adev, "%u retired pages from the board's bad-page table\n",
			  n);
	}
	adev->desc.badpages = NULL;
	adev->desc.badpages_len = 0;
	return 0;
}

/* Refuses an injection with @reason (struct amdx_ras_inject.reason). */
static int amdx_ras_inject_refuse(struct amdx_device *adev,
				  struct amdx_ras_inject *args, u32 reason,
				  int err, const char *why)
{
	args->reason = reason;
	amdx_dbg(adev, "inject: %s %s instance %u count %u address %#llx: %s\n",
		 args->block < AMDX_RAS_BLOCK_COUNT ?
			amdx_ras_block_names[args->block] : "?",
		 args->type < AMDX_RAS_TYPE_COUNT ?
			amdx_ras_type_names[args->type] : "?",
		 args->instance, args->count, args->address, why);
	return err;
}

/**
 * amdx_ioctl_ras_inject() - %AMDX_IOC_RAS_INJECT
 * @file: a device fd.
 * @data: &struct amdx_ras_inject.
 *
 * Validated like amdgpu's ras_ctrl, then handed to the provider; the
 * error has been contained when this returns.  Every refusal of these
 * checks names its cause in &amdx_ras_inject.reason, which the dispatcher
 * copies back with the error (%AMDX_IOCTL_F_OUT_ON_ERR).  The providers
 * refuse nothing these checks let through: amdgpu's and amdx_sim's own
 * argument checks are the same bounds, so their errors are the
 * injection's (reason 0).
 *
 * Return: 0 with &amdx_ras_inject.seq set; -EINVAL for non-zero flags,
 * reason, reserved or seq, an unknown block or type, an instance beyond
 * the block's instance count, a count outside 1..1024, a umc address
 * beyond the VRAM or on a retired page, or an address for another block;
 * -EOPNOTSUPP when the device lacks the block, the block does not report
 * the type, or the provider cannot inject; the provider's error.
 */
int amdx_ioctl_ras_inject(struct amdx_file *file, void *data)
{
	struct amdx_ras_inject *args = data;
	struct amdx_device *adev = file->adev;
	struct amdx_ras *ras = adev->ras;
	const struct amdx_ras_block_info *b;
	bool retired;
	u64 seq = 0;
	int ret;

	if (args->flags || args->reason || args->seq || args->reserved[0] ||
	    args->reserved[1])
		return amdx_ras_inject_refuse(adev, args,
					      AMDX_RAS_INJECT_REASON_ARGS,
					      -EINVAL,
					      "flags, reason, seq or reserved not zero");
	if (args->block >= AMDX_RAS_BLOCK_COUNT)
		return amdx_ras_inject_refuse(adev, args,
					      AMDX_RAS_INJECT_REASON_BLOCK,
					      -EINVAL, "unknown block");
	if (args->type >= AMDX_RAS_TYPE_COUNT)
		return amdx_ras_inject_refuse(adev, args,
					      AMDX_RAS_INJECT_REASON_TYPE,
					      -EINVAL, "unknown type");
	b = &ras->blocks[args->block];
	if (!b->instances)
		return amdx_ras_inject_refuse(adev, args,
					      AMDX_RAS_INJECT_REASON_NO_BLOCK,
					      -EOPNOTSUPP,
					      "the device lacks the block");
	if (!(b->supported & BIT(args->type)))
		return amdx_ras_inject_refuse(adev, args,
					      AMDX_RAS_INJECT_REASON_NO_TYPE,
					      -EOPNOTSUPP,
					      "the block does not report the type here");
	if (args->instance >= b->instances)
		return amdx_ras_inject_refuse(adev, args,
					      AMDX_RAS_INJECT_REASON_INSTANCE,
					      -EINVAL,
					      "instance beyond the block's count");
	if (!args->count || args->count > AMDX_RAS_INJECT_MAX)
		return amdx_ras_inject_refuse(adev, args,
					      AMDX_RAS_INJECT_REASON_COUNT_RANGE,
					      -EINVAL, "count outside 1..1024");
	if (args->block != AMDX_RAS_BLOCK_UMC && args->address)
		return amdx_ras_inject_refuse(adev, args,
					      AMDX_RAS_INJECT_REASON_ADDRESS_BLOCK,
					      -EINVAL, "an address only for umc");
	if (args->block == AMDX_RAS_BLOCK_UMC) {
		if (args->address >= adev->desc.vram_size)
			return amdx_ras_inject_refuse(adev, args,
						      AMDX_RAS_INJECT_REASON_ADDRESS_RANGE,
						      -EINVAL,
						      "address beyond the VRAM");
		mutex_lock(&ras->lock);
		retired = amdx_ras_retired(ras, args->address);
		mutex_unlock(&ras->lock);
		if (retired)
			return amdx_ras_inject_refuse(adev, args,
						      AMDX_RAS_INJECT_REASON_RETIRED,
						      -EINVAL, "page retired");
	}
	if (!adev->ops->ras_inject)
		return amdx_ras_inject_refuse(adev, args,
					      AMDX_RAS_INJECT_REASON_NO_INJECT,
					      -EOPNOTSUPP,
					      "the provider cannot inject");
	ret = adev->ops->ras_inject(adev, args, &seq);
	if (ret)
		return ret;
	args->seq = seq;
	return 0;
}

/**
 * amdx_ioctl_ras_set_policy() - %AMDX_IOC_RAS_SET_POLICY
 * @file: a device fd.
 * @data: &struct amdx_ras_policy.
 *
 * The new thresholds apply from the next error on; a lower bad-page
 * threshold may flag the device for RMA at once.
 *
 * Return: 0, or -EINVAL for a field out of its range (see the uapi), a
 * non-zero field that valid does not name, an unknown valid bit or flag,
 * no valid bit, non-zero pad or reserved (logged, ratelimited, naming the
 * field).
 */
int amdx_ioctl_ras_set_policy(struct amdx_file *file, void *data)
{
	struct amdx_ras_policy *req = data;
	struct amdx_device *adev = file->adev;
	struct amdx_ras *ras = adev->ras;
	const char *why = NULL;
	int ret;

	ret = amdx_ras_policy_check(req, &why);
	if (ret) {
		amdx_info_ratelimited(adev, "RAS policy refused: %s\n", why);
		return ret;
	}
	mutex_lock(&ras->lock);
	amdx_ras_policy_apply(&ras->policy, req);
	amdx_ras_check_rma(adev);
	mutex_unlock(&ras->lock);
	return 0;
}

/**
 * amdx_ioctl_ras_badpages_import() - %AMDX_IOC_RAS_BADPAGES_IMPORT
 * @file: a device fd.
 * @data: &struct amdx_ras_badpages_import.
 *
 * The whole table is checked before any page is retired, and whether its
 * new pages fit the device's table.  Newly retired pages are soft-retired
 * (their data moves first) and recorded with cause
 * %AMDX_BADPAGE_CAUSE_IMPORT and the time from the table, in batches of
 * %AMDX_RAS_IMPORT_BATCH pages: &amdx_ras.lock is dropped between them
 * (errors contained meanwhile may take the last room of the table: a page
 * beyond it is retired but not recorded, as for any retirement), the
 * caller may be rescheduled and a fatal signal stops the import.  Work is
 * O(n log n) for n records, never O(n^2).
 *
 * Return: 0 with &amdx_ras_badpages_import.imported set; -EBADMSG for a
 * corrupt or truncated table (logged with the reason); -EINVAL for
 * non-zero pad, reserved or out fields, a size above a full table, or a
 * record naming no page of this device; -ENOSPC when the device's table
 * cannot take the new records; -EFAULT; -ENOMEM; -ENODEV when the device
 * was removed while the table was being copied in; -EINTR when a fatal
 * signal stopped it (the pages retired so far stay retired and recorded).
 */
int amdx_ioctl_ras_badpages_import(struct amdx_file *file, void *data)
{
	struct amdx_ras_badpages_import *args = data;
	struct amdx_device *adev = file->adev;
	struct amdx_ras *ras = adev->ras;
	struct amdx_badpage_record *recs;
	u32 n, i, b, fresh = 0, imported = 0;
	bool killed;
	void *buf;
	int ret = 0;

	if (args->pad || args->pad2 || args->imported || args->reserved[0] ||
	    args->reserved[1]) {
		amdx_dbg(adev, "import: pad, imported or reserved not zero\n");
		return -EINVAL;
	}
	if (args->size > amdx_badpage_size(AMDX_BADPAGE_MAX_RECORDS)) {
		amdx_dbg(adev, "import: %u bytes is more than a full table\n",
			 args->size);
		return -EINVAL;
	}
	buf = kvmalloc(args->size ?: 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = amdx_device_copy_from_user(adev, buf,
					 u64_to_user_ptr(args->data),
					 args->size);
	if (ret) {
		kvfree(buf);
		return ret;
	}
	ret = amdx_ras_decode(adev, buf, args->size, &recs, &n);
	kvfree(buf);
	if (ret)
		return ret;

	mutex_lock(&ras->lock);
	for (i = 0; i < n; i++)
		fresh += !amdx_ras_retired(ras, recs[i].address);
	if (fresh > AMDX_BADPAGE_MAX_RECORDS - ras->nrec) {
		amdx_dbg(adev, "import: %u new records do not fit the table\n",
			 fresh);
		mutex_unlock(&ras->lock);
		kvfree(recs);
		return -ENOSPC;
	}
	for (i = 0; i < n; i += b) {
		b = min_t(u32, n - i, AMDX_RAS_IMPORT_BATCH);
		imported += amdx_ras_apply_batch(adev, recs + i, b,
						 AMDX_BADPAGE_CAUSE_IMPORT);
		if (i + b == n)
			break;
		/* Errors and queries get the lock between batches. */
		mutex_unlock(&ras->lock);
		cond_resched();
		killed = fatal_signal_pending(current);
		mutex_lock(&ras->lock);
		if (killed) {
			ret = -EINTR;
			break;
		}
	}
	amdx_ras_store(adev);
	mutex_unlock(&ras->lock);
	args->imported = imported;
	kvfree(recs);
	return ret;
}

static u32 amdx_ras_num_partitions(struct amdx_device *adev)
{
	struct amdx_device_state st = {};
	u32 n;

	if (adev->ops->get_state(adev, &st))
		return 1;
	n = amdx_partition_num_compute(adev->desc.num_xcc, st.compute_mode);
	return clamp_t(u32, n, 1, AMDX_MAX_PARTITIONS);
}

static int amdx_ras_query_counters(struct amdx_device *adev,
				   struct amdx_query *q)
{
	struct amdx_ras *ras = adev->ras;
	u32 nparts = amdx_ras_num_partitions(adev);
	u32 rows = AMDX_RAS_BLOCK_COUNT * (1 + nparts), b, r, t;
	struct amdx_query_ras *res;
	u64 retired = 0, pending = 0;
	size_t len = struct_size(res, entries, rows);
	int ret;

	if (!q->size || q->size < len)
		return amdx_query_out(adev, q, NULL, len, len);
	res = kvzalloc(len, GFP_KERNEL);
	if (!res)
		return -ENOMEM;
	if (adev->ops->vram_retired)
		adev->ops->vram_retired(adev, &retired, &pending);

	mutex_lock(&ras->lock);
	res->num_entries = rows;
	res->entry_size = sizeof(res->entries[0]);
	res->flags = ras->rma ? AMDX_RAS_F_RMA : 0;
	res->retired_pages = ras->nrec;
	res->pending_pages = min_t(u64, pending, U32_MAX);
	for (b = 0; b < AMDX_RAS_BLOCK_COUNT; b++) {
		for (r = 0; r <= nparts; r++) {
			struct amdx_ras_counters *c =
				&res->entries[b * (1 + nparts) + r];

			c->block = b;
			c->partition = r ? r - 1 : AMDX_RAS_PARTITION_ALL;
			c->instances = ras->blocks[b].instances;
			c->supported = ras->blocks[b].instances ?
				       ras->blocks[b].supported : 0;
			for (t = 0; t < AMDX_RAS_TYPE_COUNT; t++)
				c->count[t] = c->supported & BIT(t) ?
					      ras->count[b][r][t] :
					      AMDX_RAS_UNSUPPORTED;
		}
	}
	mutex_unlock(&ras->lock);
	ret = amdx_query_out(adev, q, res, len, len);
	kvfree(res);
	return ret;
}

static int amdx_ras_query_badpages(struct amdx_device *adev,
				   struct amdx_query *q)
{
	struct amdx_ras *ras = adev->ras;
	size_t len;
	void *buf;
	int ret;

	mutex_lock(&ras->lock);
	len = amdx_badpage_size(ras->nrec);
	if (!q->size || q->size < len) {
		mutex_unlock(&ras->lock);
		return amdx_query_out(adev, q, NULL, len, len);
	}
	buf = kvmalloc(len, GFP_KERNEL);
	if (buf)
		amdx_badpage_encode(ras->table, ras->nrec, buf, len);
	mutex_unlock(&ras->lock);
	if (!buf)
		return -ENOMEM;
	ret = amdx_query_out(adev, q, buf, len, len);
	kvfree(buf);
	return ret;
}

static int amdx_ras_query_reset_scope(struct amdx_device *adev,
				      struct amdx_query *q)
{
	struct amdx_reset_scope scope = { .hive_id = adev->desc.hive_id };
	u32 n = 0, id;
	u64 ids;
	int ret;

	/* The recovery model's scope of a device reset, as its plan says. */
	ret = amdx_recovery_reset_ids(adev, &ids);
	if (ret)
		return ret;
	for (; ids && n < ARRAY_SIZE(scope.devices); ids &= ids - 1) {
		id = __ffs64(ids);
		scope.devices[n++] = id;
	}
	scope.num_devices = n;
	return amdx_query_out(adev, q, &scope, sizeof(scope),
				  AMDX_RESET_SCOPE_SIZE_VER0);
}

/**
 * amdx_ras_query() - the RAS queries on a device fd
 * @file: the amdx file.
 * @q: %AMDX_QUERY_RAS_COUNTERS, %AMDX_QUERY_RAS_POLICY,
 *	%AMDX_QUERY_BADPAGES or %AMDX_QUERY_RESET_SCOPE.
 *
 * Return: 0; -EINVAL on /dev/amdx or with an id; -ENOSPC with the needed
 * size; -EFAULT; -ENOMEM.
 */
int amdx_ras_query(struct amdx_file *file, struct amdx_query *q)
{
	struct amdx_device *adev = file->adev;
	struct amdx_ras_policy pol;

	if (!adev || q->id)
		return -EINVAL;
	switch (q->query) {
	case AMDX_QUERY_RAS_COUNTERS:
		return amdx_ras_query_counters(adev, q);
	case AMDX_QUERY_RAS_POLICY:
		mutex_lock(&adev->ras->lock);
		pol = adev->ras->policy;
		mutex_unlock(&adev->ras->lock);
		pol.valid = AMDX_RAS_POL_ALL;
		return amdx_query_out(adev, q, &pol, sizeof(pol),
					  AMDX_RAS_POLICY_SIZE_VER0);
	case AMDX_QUERY_BADPAGES:
		return amdx_ras_query_badpages(adev, q);
	case AMDX_QUERY_RESET_SCOPE:
		return amdx_ras_query_reset_scope(adev, q);
	default:
		return -EINVAL;
	}
}

/*
 * sysfs: /sys/class/amdx/amdx<id>/ras/, one file per block and type with
 * the device-wide count or "unsupported", plus retired_pages and rma.
 */
struct amdx_ras_attr {
	struct device_attribute attr;
	u32 block;
	u32 type;
};

static ssize_t amdx_ras_count_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct amdx_ras_attr *ra = container_of(attr, struct amdx_ras_attr,
						attr);
	struct amdx_device *adev = dev_get_drvdata(dev);
	u64 val = amdx_ras_count(adev, ra->block, ra->type);

	if (val == AMDX_RAS_UNSUPPORTED)
		return sysfs_emit(buf, "unsupported\n");
	return sysfs_emit(buf, "%llu\n", val);
}

#define AMDX_RAS_ATTR(_bn, _b, _tn, _t)					\
static struct amdx_ras_attr amdx_ras_attr_##_bn##_##_tn = {		\
	.attr = __ATTR(_bn##_##_tn##_count, 0444, amdx_ras_count_show,	\
		       NULL),						\
	.block = AMDX_RAS_BLOCK_##_b,					\
	.type = AMDX_RAS_TYPE_##_t,					\
}

AMDX_RAS_ATTR(umc, UMC, ce, CE);
AMDX_RAS_ATTR(umc, UMC, ue, UE);
AMDX_RAS_ATTR(umc, UMC, de, DE);
AMDX_RAS_ATTR(sdma, SDMA, ce, CE);
AMDX_RAS_ATTR(sdma, SDMA, ue, UE);
AMDX_RAS_ATTR(sdma, SDMA, de, DE);
AMDX_RAS_ATTR(gfx, GFX, ce, CE);
AMDX_RAS_ATTR(gfx, GFX, ue, UE);
AMDX_RAS_ATTR(gfx, GFX, de, DE);
AMDX_RAS_ATTR(mmhub, MMHUB, ce, CE);
AMDX_RAS_ATTR(mmhub, MMHUB, ue, UE);
AMDX_RAS_ATTR(mmhub, MMHUB, de, DE);
AMDX_RAS_ATTR(pcie_bif, PCIE_BIF, ce, CE);
AMDX_RAS_ATTR(pcie_bif, PCIE_BIF, ue, UE);
AMDX_RAS_ATTR(pcie_bif, PCIE_BIF, de, DE);
AMDX_RAS_ATTR(hdp, HDP, ce, CE);
AMDX_RAS_ATTR(hdp, HDP, ue, UE);
AMDX_RAS_ATTR(hdp, HDP, de, DE);
AMDX_RAS_ATTR(xgmi_wafl, XGMI_WAFL, ce, CE);
AMDX_RAS_ATTR(xgmi_wafl, XGMI_WAFL, ue, UE);
AMDX_RAS_ATTR(xgmi_wafl, XGMI_WAFL, de, DE);

static ssize_t retired_pages_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct amdx_ras *ras = ((struct amdx_device *)dev_get_drvdata(dev))->ras;
	u32 n;

	mutex_lock(&ras->lock);
	n = ras->nrec;
	mutex_unlock(&ras->lock);
	return sysfs_emit(buf, "%u\n", n);
}
static DEVICE_ATTR_RO(retired_pages);

static ssize_t rma_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	struct amdx_ras *ras = ((struct amdx_device *)dev_get_drvdata(dev))->ras;
	bool rma;

	mutex_lock(&ras->lock);
	rma = ras->rma;
	mutex_unlock(&ras->lock);
	return sysfs_emit(buf, "%d\n", rma);
}
static DEVICE_ATTR_RO(rma);

static struct attribute *amdx_ras_attrs[] = {
	&amdx_ras_attr_umc_ce.attr.attr,
	&amdx_ras_attr_umc_ue.attr.attr,
	&amdx_ras_attr_umc_de.attr.attr,
	&amdx_ras_attr_sdma_ce.attr.attr,
	&amdx_ras_attr_sdma_ue.attr.attr,
	&amdx_ras_attr_sdma_de.attr.attr,
	&amdx_ras_attr_gfx_ce.attr.attr,
	&amdx_ras_attr_gfx_ue.attr.attr,
	&amdx_ras_attr_gfx_de.attr.attr,
	&amdx_ras_attr_mmhub_ce.attr.attr,
	&amdx_ras_attr_mmhub_ue.attr.attr,
	&amdx_ras_attr_mmhub_de.attr.attr,
	&amdx_ras_attr_pcie_bif_ce.attr.attr,
	&amdx_ras_attr_pcie_bif_ue.attr.attr,
	&amdx_ras_attr_pcie_bif_de.attr.attr,
	&amdx_ras_attr_hdp_ce.attr.attr,
	&amdx_ras_attr_hdp_ue.attr.attr,
	&amdx_ras_attr_hdp_de.attr.attr,
	&amdx_ras_attr_xgmi_wafl_ce.attr.attr,
	&amdx_ras_attr_xgmi_wafl_ue.attr.attr,
	&amdx_ras_attr_xgmi_wafl_de.attr.attr,
	&dev_attr_retired_pages.attr,
	&dev_attr_rma.attr,
	NULL
};

const struct attribute_group amdx_ras_sysfs_group = {
	.name = "ras",
	.attrs = amdx_ras_attrs,
};
