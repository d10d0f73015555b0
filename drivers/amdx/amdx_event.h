/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The event log (amdx_event.c): every producer in amdx reports through
 * amdx_event_emit(); subscribers read records from their own ring.
 */
#ifndef _AMDX_EVENT_H_
#define _AMDX_EVENT_H_

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/amdx.h>

#include "amdx_event_ring.h"
#include "amdx_event_types.h"
#include "amdx_viewer.h"

struct amdx_device;
struct amdx_file;
struct inode;

/**
 * amdx_event_emit() - append an event to every subscriber of a device
 * @adev: the device.
 * @ev: the record; the caller fills kind, block, type, instance,
 *	partition, address and data.  seq, timestamp_ns, size and device are
 *	filled here (and written back to @ev).
 *
 * Never sleeps, callable from any context including under spinlocks.
 * Also fires the amdx_event tracepoint.
 */
void amdx_event_emit(struct amdx_device *adev, struct amdx_event *ev);

/**
 * amdx_event_emit_many() - amdx_event_emit() for several records at once
 * @adev: the device.
 * @evs: the records, filled as for amdx_event_emit(); stamped in place.
 * @n: how many; keep it small (tens): interrupts stay off meanwhile.
 *
 * The records reach every subscriber back to back, with one wake-up per
 * subscriber instead of one per record.  Same context rules as
 * amdx_event_emit().
 */
void amdx_event_emit_many(struct amdx_device *adev, struct amdx_event *evs,
			  u32 n);

/**
 * amdx_event_emit_subject() - amdx_event_emit() of a record naming a process
 * @adev: the device.
 * @ev: the record, filled as for amdx_event_emit(); data[0] is the pid
 *	(not an ERROR record: amdx_event_emit_error()).
 * @who: the process; each subscriber's record gets its pid as that
 *	subscriber may see it (amdx_viewer_pid()), 0 if not at all.
 *
 * Same context rules as amdx_event_emit().
 */
void amdx_event_emit_subject(struct amdx_device *adev, struct amdx_event *ev,
			     const struct amdx_subject *who);

/**
 * struct amdx_event_error - what the longer records tell of an error
 * @consumer: the process that consumed it, or NULL: struct amdx_event_v1's
 *	pid (as each subscriber may see it, amdx_viewer_pid()) and pasid.
 * @driver_event: struct amdx_event_v2's driver_event: the device driver's
 *	id of the RAS event, 0 for none.
 * @driver_event_type: struct amdx_event_v3's driver_event_type: that
 *	event's %AMDX_DRIVER_EVENT_*.
 */
struct amdx_event_error {
	const struct amdx_subject *consumer;
	u64 driver_event;
	u32 driver_event_type;
};

/**
 * amdx_event_emit_error() - amdx_event_emit() of an ERROR record
 * @adev: the device.
 * @ev: the record, filled as for amdx_event_emit().
 * @error: what subscribers of struct amdx_event_v1, _v2 or _v3 records read
 *	beside it.
 *
 * Same context rules as amdx_event_emit().
 */
void amdx_event_emit_error(struct amdx_device *adev, struct amdx_event *ev,
			   const struct amdx_event_error *error);

/**
 * struct amdx_event_sub - one subscriber (the state of an event fd)
 * @src: the device's event log.
 * @adev: the device, referenced by the fd; NULL for in-kernel users.
 * @node: entry in &amdx_event_source.subs; empty once the device is gone.
 * @ring: the records; producer side under &amdx_event_source.lock,
 *	consumer side under @read_lock, no lock between the two.
 * @read_lock: one reader consumes at a time; records are copied to user
 *	space in place.  Order: @read_lock -> mmap_lock, and @read_lock ->
 *	&amdx_event_source.lock (only to queue a pending LOST record).
 * @wait: readers, poll and epoll.
 * @last_ts: timestamp of the last record read (under @read_lock).
 * @hup: the device is gone: no more records will come.  Set with a
 *	release store under &amdx_event_source.lock after the last record.
 * @per_user: counts against the per-user cap of its @viewer's euid
 *	(amdx_event_sub_create()'s @max_user); under &amdx_event_source.lock.
 * @viewer: who subscribed, as at subscription: decides the pids its
 *	records carry (amdx_viewer.c).
 *
 * @rec_size: bytes of each record it reads: %AMDX_EVENT_SIZE_VER0, or
 *	with @ring.ext (%AMDX_EVENT_F_SIZE_VER1, _VER2, _VER3)
 *	%AMDX_EVENT_SIZE_VER1, _VER2 or _VER3.
 */
struct amdx_event_sub {
	struct amdx_event_source *src;
	struct amdx_device *adev;
	struct list_head node;
	struct amdx_event_ring ring;
	struct mutex read_lock;	/* see above */
	wait_queue_head_t wait;
	u64 last_ts;
	bool hup;
	bool per_user;
	struct amdx_viewer viewer;
	u32 rec_size;
};

int amdx_event_device_init(struct amdx_device *adev);
int amdx_event_source_init(struct amdx_event_source *src, u32 device,
			   u64 hive_id);
void amdx_event_source_kill(struct amdx_event_source *src);
void amdx_event_source_fini(struct amdx_event_source *src);
void amdx_event_source_emit(struct amdx_event_source *src,
			    struct amdx_event *evs, u32 n);
void amdx_event_source_counts(struct amdx_event_source *src, u64 *emitted,
			      u64 *lost);
int amdx_event_subscribe_check(u32 device,
			       const struct amdx_event_subscribe *args);
struct amdx_event_sub *amdx_event_sub_create(struct amdx_event_source *src,
					     u64 mask, u32 ring_size,
					     u32 max_subs, u32 max_user);
void amdx_event_sub_destroy(struct amdx_event_sub *sub);
struct file *amdx_ioctl_event_subscribe(struct amdx_file *file, void *data);
void amdx_event_debugfs_add(struct amdx_device *adev);
int amdx_event_hook_open(struct inode *inode, struct file *f);
int amdx_event_hook_release(struct inode *inode, struct file *f);

#endif /* _AMDX_EVENT_H_ */
