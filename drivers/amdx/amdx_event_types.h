/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The event log's state that &struct amdx_device embeds, apart from the
 * log's functions (amdx_event.h), so that the device header includes no
 * function of a layer above it.
 */
#ifndef _AMDX_EVENT_TYPES_H_
#define _AMDX_EVENT_TYPES_H_

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/**
 * struct amdx_event_counter - a sequence counter
 * @ref: one per device using it.
 * @hive_id: the hive whose devices share it, 0 for a device of its own.
 * @seq: the last seq handed out.
 * @node: entry in the list of hive counters (hive_id != 0 only).
 */
struct amdx_event_counter {
	struct kref ref;
	u64 hive_id;
	atomic64_t seq;
	struct list_head node;
};

/**
 * struct amdx_event_source - the event log of one device
 * @lock: protects @subs, @nsubs and @dead, serialises the producer side of
 *	every subscriber's ring, and makes taking a seq and queueing the
 *	record one step, so every subscriber sees its device's seqs in
 *	increasing order.  Taken with interrupts off (emitters may run in
 *	any context).  Order: &amdx_device.lock -> @lock -> wait queue
 *	locks.
 * @subs: subscribers (&amdx_event_sub.node).
 * @nsubs: entries in @subs, at most %AMDX_EVENT_SUBSCRIBERS_MAX: every
 *	emission visits each with interrupts off.
 * @counter: seq counter, shared by the devices of a hive.
 * @device: device id written into records.
 * @dead: the device is gone; no new subscribers.
 * @emitted: records emitted (seqs taken); under @lock.
 * @lost: records dropped from full subscriber rings, summed over the
 *	subscribers; under @lock.
 */
struct amdx_event_source {
	spinlock_t lock;	/* see above */
	struct list_head subs;
	u32 nsubs;
	struct amdx_event_counter *counter;
	u32 device;
	bool dead;
	u64 emitted;
	u64 lost;
};

#endif /* _AMDX_EVENT_TYPES_H_ */
