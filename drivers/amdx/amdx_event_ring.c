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
 * The LOST record takes a ring slot like any other.  The producer queues
 * it when it has room for it and the new record together (with only one
 * free slot the new record is dropped too, so one run of misses is
 * always reported by one record); when the reader has consumed
 * everything else and misses are still pending, it asks the producer
 * side to queue it (amdx_event_ring_flush_lost(), under the producer's
 * lock).  Records of kinds the subscriber did not ask for are not queued
 * and not counted; LOST records always are.
 *
 * So a ring of N records loses nothing as long as at most N records are
 * waiting, and a reader that counts delivered records plus the data[0]
 * of LOST records accounts for every record of its kinds.
 *
 * @head and @tail run freely (u64 never wraps in practice); the slot of
 * position p is p & (size - 1).  The two sides share no lock: producers
 * are serialised by their caller (the event log's lock), the consumer by
 * its own (the reader mutex).  The producer writes slots, then publishes
 * them with a release store of @head; the consumer reads @head with an
 * acquire load, copies the slots, and hands them back with a release
 * store of @tail, which the producer reads with an acquire load before
 * it reuses a slot.  amdx_event_ring_peek() hands out records in place;
 * they stay valid until amdx_event_ring_consume(), because the producer
 * never writes a queued slot.
 */
#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <asm/barrier.h>

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

/* Producer side: the slot at @pos, which the consumer does not own. */
static struct amdx_event *
amdx_event_ring_slot(struct amdx_event_ring *ring, u64 pos)
{
	return &ring->recs[pos & (ring->size - 1)];
}

/* Fill @lost with the LOST record for the run of misses so far. */
static void amdx_event_ring_fill_lost(struct amdx_event_ring *ring,
				      struct amdx_event *lost)
{
	memset(lost, 0, sizeof(*lost));
	lost->seq = ring->lost_seq;
	lost->timestamp_ns = ring->lost_ts;
	lost->kind = AMDX_EVENT_LOST;
	lost->size = sizeof(*lost);
	lost->device = ring->lost_device;
	lost->partition = AMDX_RAS_PARTITION_ALL;
	lost->data[0] = ring->lost;
	lost->data[1] = ring->lost_last;
}

/*
 * Producer side: the extension of the slot at @pos (none: NULL), if the
 * ring has them.
 */
static void amdx_event_ring_set_ext(struct amdx_event_ring *ring, u64 pos,
				    const struct amdx_event_ext *ext)
{
	static const struct amdx_event_ext none;

	if (ring->ext)
		ring->ext[pos & (ring->size - 1)] = ext ? *ext : none;
}

/**
 * amdx_event_ring_push() - offer a record to a ring (producer side)
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
	return amdx_event_ring_push_ext(ring, ev, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_push);

/**
 * amdx_event_ring_push_ext() - amdx_event_ring_push() with the fields the
 *	longer records add
 * @ring: the ring.
 * @ev: the record.
 * @ext: those fields (NULL: all zero), kept where @ring has @ext storage.
 *
 * Return: as amdx_event_ring_push().
 */
enum amdx_event_push amdx_event_ring_push_ext(struct amdx_event_ring *ring,
					      const struct amdx_event *ev,
					      const struct amdx_event_ext *ext)
{
	u64 head = ring->head;
	u32 room;

	if (ev->kind >= BITS_PER_TYPE(ring->mask) ||
	    !(ring->mask & BIT_ULL(ev->kind)))
		return AMDX_EVENT_PUSH_FILTERED;

	/* Pairs with the release in amdx_event_ring_consume(). */
	room = ring->size - (u32)(head - smp_load_acquire(&ring->tail));
	if (!ring->lost && room >= 1) {
		*amdx_event_ring_slot(ring, head) = *ev;
		amdx_event_ring_set_ext(ring, head, ext);
		/* Pairs with the acquire in amdx_event_ring_peek(). */
		smp_store_release(&ring->head, head + 1);
		return AMDX_EVENT_PUSH_STORED;
	}
	if (ring->lost && room >= 2) {
		amdx_event_ring_fill_lost(ring, amdx_event_ring_slot(ring, head));
		amdx_event_ring_set_ext(ring, head, NULL);
		*amdx_event_ring_slot(ring, head + 1) = *ev;
		amdx_event_ring_set_ext(ring, head + 1, ext);
		WRITE_ONCE(ring->lost, 0);
		/* Both slots, then head: pairs with the acquire in peek. */
		smp_store_release(&ring->head, head + 2);
		return AMDX_EVENT_PUSH_STORED;
	}

	if (!ring->lost) {
		ring->lost_seq = ev->seq;
		ring->lost_ts = ev->timestamp_ns;
		ring->lost_device = ev->device;
	}
	WRITE_ONCE(ring->lost, ring->lost + 1);
	ring->lost_last = ev->seq;
	ring->dropped++;
	return AMDX_EVENT_PUSH_DROPPED;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_push_ext);

/**
 * amdx_event_ring_flush_lost() - queue the LOST record of pending misses
 * @ring: the ring.
 *
 * Producer side: the caller holds the producers' lock.  The consumer
 * calls it (through that lock) when it has read everything else and
 * amdx_event_ring_lost_pending() says misses are waiting.
 *
 * Return: true if a LOST record was queued; false with no misses pending
 * or no free slot (a LOST record then comes with the next push that
 * finds room, or the next flush).
 */
bool amdx_event_ring_flush_lost(struct amdx_event_ring *ring)
{
	u64 head = ring->head, tail;

	if (!ring->lost)
		return false;
	/* Pairs with the release in amdx_event_ring_consume(). */
	tail = smp_load_acquire(&ring->tail);
	if (head - tail >= ring->size)
		return false;
	amdx_event_ring_fill_lost(ring, amdx_event_ring_slot(ring, head));
	amdx_event_ring_set_ext(ring, head, NULL);
	WRITE_ONCE(ring->lost, 0);
	/* The slot, then head: pairs with the acquire in peek. */
	smp_store_release(&ring->head, head + 1);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_flush_lost);

/**
 * amdx_event_ring_peek() - the next records to read, in place
 * @ring: the ring.
 * @max: at most this many.
 * @first: out: the first record.
 *
 * Consumer side.  The records returned are contiguous in memory (a run
 * may stop at the end of the storage; peek again after consuming) and
 * stay unchanged until amdx_event_ring_consume().  Pending misses whose
 * LOST record is not queued yet are not seen here: see
 * amdx_event_ring_flush_lost().
 *
 * Return: the number of records at @first, 0 if nothing is queued.
 */
u32 amdx_event_ring_peek(const struct amdx_event_ring *ring, u32 max,
			 const struct amdx_event **first)
{
	u64 tail = ring->tail;
	/* Pairs with the release in amdx_event_ring_push(). */
	u32 queued = smp_load_acquire(&ring->head) - tail;
	u32 idx = tail & (ring->size - 1);

	*first = &ring->recs[idx];
	return min3(queued, max, ring->size - idx);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_peek);

/**
 * amdx_event_ring_ext() - the extension of a record amdx_event_ring_peek()
 *	handed out
 * @ring: the ring.
 * @rec: the record, in @ring's storage.
 *
 * Consumer side, between the peek and amdx_event_ring_consume().
 *
 * Return: the fields the longer records add to @rec, NULL for a ring
 * without extensions.
 */
const struct amdx_event_ext *
amdx_event_ring_ext(const struct amdx_event_ring *ring,
		    const struct amdx_event *rec)
{
	return ring->ext ? &ring->ext[rec - ring->recs] : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_ext);

/**
 * amdx_event_ring_consume() - drop records that were read
 * @ring: the ring.
 * @n: how many, at most what amdx_event_ring_peek() returned.
 *
 * Consumer side: hands the slots back to the producer.
 */
void amdx_event_ring_consume(struct amdx_event_ring *ring, u32 n)
{
	u64 tail = ring->tail;
	u32 queued = READ_ONCE(ring->head) - tail;

	if (WARN_ON_ONCE(n > queued))
		n = queued;
	/* The slots are copied out; pairs with the acquire in push. */
	smp_store_release(&ring->tail, tail + n);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_consume);

/**
 * amdx_event_ring_lost_pending() - misses wait for their LOST record
 * @ring: the ring.
 *
 * Consumer side, a lockless hint: true means the caller should take the
 * producers' lock and call amdx_event_ring_flush_lost().
 *
 * Return: whether misses are counted but not queued.
 */
bool amdx_event_ring_lost_pending(const struct amdx_event_ring *ring)
{
	return READ_ONCE(ring->lost);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_lost_pending);

/**
 * amdx_event_ring_readable() - whether a read would return a record
 * @ring: the ring.
 *
 * Lockless from either side; for poll and wait conditions.
 *
 * Return: true when records or a LOST record are waiting.
 */
bool amdx_event_ring_readable(const struct amdx_event_ring *ring)
{
	return READ_ONCE(ring->head) != READ_ONCE(ring->tail) ||
	       READ_ONCE(ring->lost);
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
	return READ_ONCE(ring->head) - READ_ONCE(ring->tail);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_event_ring_queued);
