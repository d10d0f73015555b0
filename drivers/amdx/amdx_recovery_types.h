/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The recovery state a device's RAS state carries (amdx_ras_types.h);
 * amdx_recovery.c keeps it.
 */
#ifndef _AMDX_RECOVERY_TYPES_H_
#define _AMDX_RECOVERY_TYPES_H_

#include <linux/spinlock_types.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/amdx.h>

#include "amdx_viewer.h"

struct amdx_device;

/* Most consumers one pending process action names; one more escalates. */
#define AMDX_RECOVERY_CONSUMERS		4

/* Consumptions queued for the worker (amdx_recovery_consumed()). */
#define AMDX_RECOVERY_QUEUE		16

/**
 * struct amdx_recovery_consumer - a process that consumed poison
 * @who: the process (a reference on its pid, dropped when the slot
 *	holding it clears or changes action, or the device is freed).
 * @mem_partition: the memory partition of the poisoned page.
 */
struct amdx_recovery_consumer {
	struct amdx_subject who;
	u32 mem_partition;
};

/**
 * struct amdx_recovery_consumed - a consumption waiting for the worker
 * @who: the consumer (a reference on its pid).
 * @index: the VRAM page index.
 * @seq: seq of its POISON_CONSUMED record.
 * @time_ns: that record's time.
 */
struct amdx_recovery_consumed {
	struct amdx_subject who;
	u64 index;
	u64 seq;
	u64 time_ns;
};

/**
 * struct amdx_recovery_slot - the pending action of one target
 * @action: %AMDX_RECOVER_*, %AMDX_RECOVER_NONE when nothing is pending.
 * @fault: the %AMDX_FAULT_* that set it.
 * @state: %AMDX_RECOVERY_STATE_*.
 * @seq: seq of the event that set it.
 * @time_ns: CLOCK_MONOTONIC time of that event.
 * @nconsumers: entries in @consumers; only a process action has any.
 * @consumers: the processes a process action stops.
 */
struct amdx_recovery_slot {
	u32 action;
	u32 fault;
	u32 state;
	u64 seq;
	u64 time_ns;
	u32 nconsumers;
	struct amdx_recovery_consumer consumers[AMDX_RECOVERY_CONSUMERS];
};

/**
 * struct amdx_recovery_state - the pending actions of one device
 * @dev: the device's own (actions on the whole device and wider).
 * @parts: per compute partition (process, queue, pipe, partition).
 * @vfs: per VF (vf).
 * @adev: the device (for @work).
 * @queue_lock: protects @closed, @nqueued and @queue; any context.
 * @closed: the device is going: nothing is queued any more.
 * @overflow: a consumption found @queue full.
 * @nqueued: entries in @queue.
 * @queue: consumptions of poison reported where the RAS lock cannot be
 *	taken (the fault path holds mmap_lock): amdx_ras_poison.c queues,
 *	amdx_recovery.c empties it.
 * @work: sets the actions of @queue (amdx_recovery.c).
 *
 * Protected by &amdx_ras.lock but where said.  Indices are those of the
 * current layout; a partition commit or VF change does not move them.
 */
struct amdx_recovery_state {
	struct amdx_recovery_slot dev;
	struct amdx_recovery_slot parts[AMDX_MAX_PARTITIONS];
	struct amdx_recovery_slot vfs[AMDX_MAX_VFS];
	struct amdx_device *adev;
	spinlock_t queue_lock;	/* see above */
	bool closed;
	bool overflow;
	u32 nqueued;
	struct amdx_recovery_consumed queue[AMDX_RECOVERY_QUEUE];
	struct work_struct work;
};

#endif /* _AMDX_RECOVERY_TYPES_H_ */
