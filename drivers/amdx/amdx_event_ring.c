// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: event ring
 *
 * Every subscriber of the event log has a ring of fixed-size records.
 * The producer never overwrites a record the reader has not consumed and
 * never waits: when the ring is full the new record is dropped and
 * counted.  The reader then gets exactly one %AMDX_EVENT_LOST record in
 * the place of the missed run, carrying how many records it missed
 * (data[0]), the seq of the first (seq) and of the last (data[1]), before
 * any record that came after them::
 *
 *    pushed:   1 2 3 4 5 6 7 8 9            (ring of 4, nothing read)
 *    queued:   1 2 3 4                      lost = 5 (seq 5..9)
 *    read:     1 2 3 4 LOST{seq 5, data[0] 5, data[1] 9} ...
 *
 * The LOST record takes a ring slot like any other.  It is queued either
 * by the producer, which needs room for it and the new record together
 * (with only one free slot the new record is dropped too, so one run of
 * misses is always reported by one record), or by the reader when it has
 * consumed everything else.  Records of kinds the subscriber did not ask
 * for are not queued and not counted; LOST records always are.
 *
 * So a ring of N records loses nothing as long as at most N records are
 * waiting, and a reader that counts delivered records plus the data[0]
 * of LOST records accounts for every record of its kinds.
 *
 * @head and @tail run freely (u64 never wraps in practice); the slot of
 * position p is p & (size - 1).  Nothing here locks: the caller
 * serialises all calls on a ring.  amdx_event_ring_peek() hands out
 * records in place, and they stay valid until amdx_event_ring_consume(),
 * because the producer does not write to queued slots.
 */
#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/build_bug.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "amdx_event_ring.h"
#include "amdx_kunit.h"

static_assert(sizeof(struct amdx_event) == 64);

/**
 * amdx_event_ring_init() - set up an empty ring
 * @ring: the ring.
 * @recs: storage for @size records, owned by the caller.
 * @size: capacity, a power of two, at least 2.
 * @mask: kinds to queue, bit (1 << kind).
 */
void amdx_event_ring_init(struct amdx_event_ring *ring,
			  struct amdx_event *recs, u32 size, u64 mask)
{
	WARN_ON_ONCE(!is_power_of_2(size) || size < 2);
	memset(ring, 0, sizeof(*ring));
	ring->recs = recs;
	ring->size = size;
	ring->mask = mask;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_init);

static u32 amdx_event_ring_room(const struct amdx_event_ring *ring)
{
	return ring->size - (u32)(ring->head - ring->tail);
}

static void amdx_event_ring_put(struct amdx_event_ring *ring,
				const struct amdx_event *ev)
{
	ring->recs[ring->head & (ring->size - 1)] = *ev;
	ring->head++;
}

/* Queue the LOST record for the run of misses so far; needs a free slot. */
static void amdx_event_ring_put_lost(struct amdx_event_ring *ring)
{
	struct amdx_event *lost = &ring->recs[ring->head & (ring->size - 1)];

	memset(lost, 0, sizeof(*lost));
	lost->seq = ring->lost_seq;
	lost->timestamp_ns = ring->lost_ts;
	lost->kind = AMDX_EVENT_LOST;
	lost->size = sizeof(*lost);
	lost->device = ring->lost_device;
	lost->partition = AMDX_RAS_PARTITION_ALL;
	lost->data[0] = ring->lost;
	lost->data[1] = ring->lost_last;
	ring->head++;
	ring->lost = 0;
}

/**
 * amdx_event_ring_push() - offer a record to a ring
 * @ring: the ring.
 * @ev: the record, complete (seq, timestamp, device set).
 *
 * Return: %AMDX_EVENT_PUSH_STORED, %AMDX_EVENT_PUSH_FILTERED when the
 * ring's mask excludes the kind, or %AMDX_EVENT_PUSH_DROPPED when there
 * was no room (the record is counted in the next LOST record).
 */
enum amdx_event_push amdx_event_ring_push(struct amdx_event_ring *ring,
					  const struct amdx_event *ev)
{
	u32 room = amdx_event_ring_room(ring);

	if (ev->kind >= BITS_PER_TYPE(ring->mask) ||
	    !(ring->mask & BIT_ULL(ev->kind)))
		return AMDX_EVENT_PUSH_FILTERED;

	if (!ring->lost && room >= 1) {
		amdx_event_ring_put(ring, ev);
		return AMDX_EVENT_PUSH_STORED;
	}
	if (ring->lost && room >= 2) {
		amdx_event_ring_put_lost(ring);
		amdx_event_ring_put(ring, ev);
		return AMDX_EVENT_PUSH_STORED;
	}

	if (!ring->lost) {
		ring->lost_seq = ev->seq;
		ring->lost_ts = ev->timestamp_ns;
		ring->lost_device = ev->device;
	}
	ring->lost++;
	ring->lost_last = ev->seq;
	ring->dropped++;
	return AMDX_EVENT_PUSH_DROPPED;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_push);

/**
 * amdx_event_ring_peek() - the next records to read, in place
 * @ring: the ring.
 * @max: at most this many.
 * @first: out: the first record.
 *
 * When only misses are pending, queues their LOST record first.  The
 * records returned are contiguous in memory (a run may stop at the end
 * of the storage; peek again after consuming) and stay unchanged until
 * amdx_event_ring_consume().
 *
 * Return: the number of records at @first, 0 if nothing is waiting.
 */
u32 amdx_event_ring_peek(struct amdx_event_ring *ring, u32 max,
			 const struct amdx_event **first)
{
	u32 queued = ring->head - ring->tail;
	u32 idx = ring->tail & (ring->size - 1);

	if (!queued && ring->lost) {
		amdx_event_ring_put_lost(ring);
		queued = 1;
	}
	*first = &ring->recs[idx];
	return min3(queued, max, ring->size - idx);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_peek);

/**
 * amdx_event_ring_consume() - drop records that were read
 * @ring: the ring.
 * @n: how many, at most what amdx_event_ring_peek() returned.
 */
void amdx_event_ring_consume(struct amdx_event_ring *ring, u32 n)
{
	if (WARN_ON_ONCE(n > ring->head - ring->tail))
		n = ring->head - ring->tail;
	ring->tail += n;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_consume);

/**
 * amdx_event_ring_readable() - whether a read would return a record
 * @ring: the ring.
 *
 * Return: true when records or a LOST record are waiting.
 */
bool amdx_event_ring_readable(const struct amdx_event_ring *ring)
{
	return ring->head != ring->tail || ring->lost;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_readable);

/**
 * amdx_event_ring_queued() - records waiting in the ring
 * @ring: the ring.
 *
 * Return: the count, not including a LOST record not yet queued.
 */
u32 amdx_event_ring_queued(const struct amdx_event_ring *ring)
{
	return ring->head - ring->tail;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_queued);
