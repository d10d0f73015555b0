/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The event ring of one subscriber (amdx_event_ring.c): fixed-size records,
 * a kind filter and exact loss accounting.  One producer side and one
 * consumer side, each serialised by its caller, meet without a lock.
 */
#ifndef _AMDX_EVENT_RING_H_
#define _AMDX_EVENT_RING_H_

#include <linux/cache.h>
#include <linux/types.h>
#include <linux/amdx.h>

/**
 * struct amdx_event_ext - what the longer records add to a record: the
 *	fields of struct amdx_event_v3 after its struct amdx_event
 * @pid: struct amdx_event_v1's pid.
 * @pasid: struct amdx_event_v1's pasid.
 * @driver_event: struct amdx_event_v2's driver_event.
 * @driver_event_type: struct amdx_event_v3's driver_event_type.
 * @reserved: struct amdx_event_v3's reserved: zero.
 */
struct amdx_event_ext {
	u32 pid;
	u32 pasid;
	u64 driver_event;
	u32 driver_event_type;
	u32 reserved;
};

/**
 * struct amdx_event_ring - a subscriber's ring of event records
 * @recs: @size records.
 * @ext: NULL, or per slot of @recs the fields the longer records add
 *	(zero where a record has none).
 * @size: capacity in records, a power of two.
 * @mask: kinds accepted, bit (1 << kind); LOST records bypass it.
 * @head: free-running count of records written (producer side).
 * @lost: records missed since the last LOST record was queued.
 * @lost_seq: seq of the first of them.
 * @lost_last: seq of the last of them.
 * @lost_ts: timestamp of the first of them.
 * @lost_device: device of the first of them.
 * @dropped: records missed over the ring's life (statistics).
 * @tail: free-running count of records consumed (consumer side), on a
 *	cache line of its own; @head - @tail <= @size.
 *
 * Everything but @tail belongs to the producer side; the consumer reads
 * @head and @lost without the producer's lock (see the DOC for the
 * ordering).
 */
struct amdx_event_ring {
	struct amdx_event *recs;
	struct amdx_event_ext *ext;
	u32 size;
	u64 mask;
	u64 head;
	u64 lost;
	u64 lost_seq;
	u64 lost_last;
	u64 lost_ts;
	u32 lost_device;
	u64 dropped;
	u64 tail ____cacheline_aligned_in_smp;
};

/**
 * enum amdx_event_push - outcome of amdx_event_ring_push()
 * @AMDX_EVENT_PUSH_STORED: the record is queued.
 * @AMDX_EVENT_PUSH_FILTERED: the subscriber does not want this kind.
 * @AMDX_EVENT_PUSH_DROPPED: the ring was full; the record is counted in
 *	the next LOST record.
 */
enum amdx_event_push {
	AMDX_EVENT_PUSH_STORED,
	AMDX_EVENT_PUSH_FILTERED,
	AMDX_EVENT_PUSH_DROPPED,
};

void amdx_event_ring_init(struct amdx_event_ring *ring,
			  struct amdx_event *recs, u32 size, u64 mask);
/* Producer side. */
enum amdx_event_push amdx_event_ring_push(struct amdx_event_ring *ring,
					  const struct amdx_event *ev);
enum amdx_event_push amdx_event_ring_push_ext(struct amdx_event_ring *ring,
					      const struct amdx_event *ev,
					      const struct amdx_event_ext *ext);
bool amdx_event_ring_flush_lost(struct amdx_event_ring *ring);
/* Consumer side. */
u32 amdx_event_ring_peek(const struct amdx_event_ring *ring, u32 max,
			 const struct amdx_event **first);
void amdx_event_ring_consume(struct amdx_event_ring *ring, u32 n);
const struct amdx_event_ext *
amdx_event_ring_ext(const struct amdx_event_ring *ring,
		    const struct amdx_event *rec);
bool amdx_event_ring_lost_pending(const struct amdx_event_ring *ring);
/* Either side. */
bool amdx_event_ring_readable(const struct amdx_event_ring *ring);
u32 amdx_event_ring_queued(const struct amdx_event_ring *ring);

#endif /* _AMDX_EVENT_RING_H_ */
