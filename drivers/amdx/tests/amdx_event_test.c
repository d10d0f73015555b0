// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: KUnit tests of the event log
 *
 * Suite ``amdx_event``: the ring on its own (order across wrap-around,
 * capacity without loss, exact LOST accounting for one and for several
 * overflows and under a long pseudo-random load, the filter, LOST records
 * regardless of the filter), validation of subscription arguments, and
 * emission on fake devices (seq, timestamp and device stamping, order,
 * the hive-wide counter, the end of the log when the device goes away),
 * and the events a provider emits for what its driver did on its own (a
 * device reset, an RMA flag).
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/irqflags.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/amdx.h>

#include <amdx/amdx_compat.h>
#include <amdx/amdx_provider.h>

#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_event_ring.h"
#include "amdx_kunit_fake.h"
#include "amdx_ras_types.h"

#define MASK_ERR	BIT_ULL(AMDX_EVENT_ERROR)
#define MASK_ALL	AMDX_EVENT_MASK_ALL

/* A ring of @size records with storage freed with the test. */
static struct amdx_event_ring *new_ring(struct kunit *test, u32 size,
					u64 mask)
{
	struct amdx_event_ring *r = kunit_kzalloc(test, sizeof(*r),
						  GFP_KERNEL);
	struct amdx_event *recs = kunit_kcalloc(test, size, sizeof(*recs),
						GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	amdx_event_ring_init(r, recs, size, mask);
	return r;
}

/* Room for @n records read back, freed with the test. */
static struct amdx_event *recs(struct kunit *test, u32 n)
{
	struct amdx_event *out = kunit_kcalloc(test, n, sizeof(*out),
					       GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	return out;
}

static struct amdx_event rec(u64 seq, u16 kind)
{
	return (struct amdx_event){
		.seq = seq,
		.timestamp_ns = 1000 + seq,
		.kind = kind,
		.size = sizeof(struct amdx_event),
		.device = 7,
		.data = { seq * 3, 0 },
	};
}

static enum amdx_event_push push(struct amdx_event_ring *r, u64 seq, u16 kind)
{
	struct amdx_event ev = rec(seq, kind);

	return amdx_event_ring_push(r, &ev);
}

/* Pop up to @max records into @out as a reader would; returns how many. */
static u32 pop(struct amdx_event_ring *r, struct amdx_event *out, u32 max)
{
	const struct amdx_event *first;
	u32 done = 0, n;

	while (done < max) {
		n = amdx_event_ring_peek(r, max - done, &first);
		/* Only misses left: the reader has their LOST record queued. */
		if (!n && amdx_event_ring_lost_pending(r) &&
		    amdx_event_ring_flush_lost(r))
			continue;
		if (!n)
			break;
		memcpy(&out[done], first, n * sizeof(*first));
		amdx_event_ring_consume(r, n);
		done += n;
	}
	return done;
}

static void expect_lost(struct kunit *test, const struct amdx_event *ev,
			u64 first, u64 count, u64 last)
{
	KUNIT_EXPECT_EQ(test, ev->kind, AMDX_EVENT_LOST);
	KUNIT_EXPECT_EQ(test, ev->size, sizeof(*ev));
	KUNIT_EXPECT_EQ(test, ev->seq, first);
	KUNIT_EXPECT_EQ(test, ev->data[0], count);
	KUNIT_EXPECT_EQ(test, ev->data[1], last);
	KUNIT_EXPECT_EQ(test, ev->timestamp_ns, 1000 + first);
	KUNIT_EXPECT_EQ(test, ev->device, 7);
	KUNIT_EXPECT_EQ(test, ev->partition, AMDX_RAS_PARTITION_ALL);
}

static void ring_delivers_in_order_across_wrap_around(struct kunit *test)
{
	struct amdx_event_ring *r = new_ring(test, 16, MASK_ALL);
	struct amdx_event *out = recs(test, 16);
	u64 seq = 1, next = 1;
	u32 round, i, n;

	/* Uneven batches walk the wrap point through every slot. */
	for (round = 0; round < 40; round++) {
		u32 batch = 1 + (round * 7) % 16;

		for (i = 0; i < batch; i++)
			KUNIT_ASSERT_EQ(test, push(r, seq++, AMDX_EVENT_ERROR),
					AMDX_EVENT_PUSH_STORED);
		n = pop(r, out, 16);
		KUNIT_ASSERT_EQ(test, n, batch);
		for (i = 0; i < n; i++) {
			KUNIT_EXPECT_EQ(test, out[i].seq, next);
			KUNIT_EXPECT_EQ(test, out[i].data[0], next * 3);
			next++;
		}
	}
	KUNIT_EXPECT_EQ(test, next, seq);
	KUNIT_EXPECT_FALSE(test, amdx_event_ring_readable(r));
	KUNIT_EXPECT_EQ(test, r->dropped, 0);
}

static void ring_peek_stops_at_the_end_of_storage(struct kunit *test)
{
	struct amdx_event_ring *r = new_ring(test, 16, MASK_ALL);
	struct amdx_event *out = recs(test, 16);
	const struct amdx_event *first;
	u64 s;

	for (s = 1; s <= 12; s++)
		push(r, s, AMDX_EVENT_ERROR);
	KUNIT_ASSERT_EQ(test, pop(r, out, 12), 12);
	for (s = 13; s <= 20; s++)
		push(r, s, AMDX_EVENT_ERROR);
	/* slots 12..15 hold 13..16, slots 0..3 hold 17..20 */
	KUNIT_EXPECT_EQ(test, amdx_event_ring_peek(r, 16, &first), 4);
	KUNIT_EXPECT_EQ(test, first->seq, 13);
	amdx_event_ring_consume(r, 4);
	KUNIT_EXPECT_EQ(test, amdx_event_ring_peek(r, 16, &first), 4);
	KUNIT_EXPECT_EQ(test, first->seq, 17);
	KUNIT_EXPECT_EQ(test, amdx_event_ring_peek(r, 2, &first), 2);
}

static void ring_holds_its_capacity_without_loss(struct kunit *test)
{
	struct amdx_event_ring *r = new_ring(test, 16, MASK_ALL);
	struct amdx_event *out = recs(test, 17);
	u64 s;

	for (s = 1; s <= 16; s++)
		KUNIT_ASSERT_EQ(test, push(r, s, AMDX_EVENT_MIGRATE),
				AMDX_EVENT_PUSH_STORED);
	KUNIT_EXPECT_EQ(test, amdx_event_ring_queued(r), 16);
	KUNIT_EXPECT_EQ(test, push(r, 17, AMDX_EVENT_MIGRATE),
			AMDX_EVENT_PUSH_DROPPED);
	KUNIT_ASSERT_EQ(test, pop(r, out, 17), 17);
	for (s = 0; s < 16; s++)
		KUNIT_EXPECT_EQ(test, out[s].seq, s + 1);
	expect_lost(test, &out[16], 17, 1, 17);
}

static void ring_overflow_yields_one_lost_with_exact_count(struct kunit *test)
{
	struct amdx_event_ring *r = new_ring(test, 16, MASK_ALL);
	struct amdx_event *out = recs(test, 32);
	u64 s;

	for (s = 1; s <= 16 + 37; s++)
		push(r, s, AMDX_EVENT_ERROR);
	KUNIT_EXPECT_EQ(test, r->dropped, 37);
	KUNIT_ASSERT_EQ(test, pop(r, out, 32), 17);
	for (s = 0; s < 16; s++)
		KUNIT_EXPECT_EQ(test, out[s].seq, s + 1);
	expect_lost(test, &out[16], 17, 37, 53);
	KUNIT_EXPECT_EQ(test, pop(r, out, 32), 0);
	KUNIT_EXPECT_FALSE(test, amdx_event_ring_readable(r));
}

/* Records that follow a run of misses come after its LOST record. */
static void ring_lost_precedes_later_records(struct kunit *test)
{
	struct amdx_event_ring *r = new_ring(test, 16, MASK_ALL);
	struct amdx_event *out = recs(test, 32);
	u64 s;

	for (s = 1; s <= 20; s++)		/* 17..20 missed */
		push(r, s, AMDX_EVENT_ERROR);
	KUNIT_ASSERT_EQ(test, pop(r, out, 1), 1);
	/* one free slot: no room for LOST and 21, so 21 joins the run */
	KUNIT_EXPECT_EQ(test, push(r, 21, AMDX_EVENT_ERROR),
			AMDX_EVENT_PUSH_DROPPED);
	KUNIT_ASSERT_EQ(test, pop(r, out, 1), 1);
	KUNIT_EXPECT_EQ(test, push(r, 22, AMDX_EVENT_ERROR),
			AMDX_EVENT_PUSH_STORED);
	KUNIT_EXPECT_EQ(test, amdx_event_ring_queued(r), 16);

	KUNIT_ASSERT_EQ(test, pop(r, out, 32), 16);
	for (s = 0; s < 14; s++)
		KUNIT_EXPECT_EQ(test, out[s].seq, s + 3);
	expect_lost(test, &out[14], 17, 5, 21);
	KUNIT_EXPECT_EQ(test, out[15].kind, AMDX_EVENT_ERROR);
	KUNIT_EXPECT_EQ(test, out[15].seq, 22);
	KUNIT_EXPECT_EQ(test, r->dropped, 5);
}

static void ring_reports_each_overflow_separately(struct kunit *test)
{
	struct amdx_event_ring *r = new_ring(test, 16, MASK_ALL);
	struct amdx_event *out = recs(test, 64);
	u64 s;
	u32 n;

	for (s = 1; s <= 26; s++)		/* 17..26 missed */
		push(r, s, AMDX_EVENT_ERROR);
	KUNIT_ASSERT_EQ(test, pop(r, out, 8), 8);	/* 1..8 */
	for (s = 27; s <= 40; s++)	/* LOST + 27..33 fit, 34..40 missed */
		push(r, s, AMDX_EVENT_ERROR);
	KUNIT_EXPECT_EQ(test, r->dropped, 17);

	n = pop(r, out, 64);
	KUNIT_ASSERT_EQ(test, n, 8 + 1 + 7 + 1);
	for (s = 0; s < 8; s++)
		KUNIT_EXPECT_EQ(test, out[s].seq, s + 9);
	expect_lost(test, &out[8], 17, 10, 26);
	for (s = 0; s < 7; s++)
		KUNIT_EXPECT_EQ(test, out[9 + s].seq, s + 27);
	expect_lost(test, &out[16], 34, 7, 40);

	/* and the ring is whole again afterwards */
	for (s = 41; s <= 56; s++)
		KUNIT_EXPECT_EQ(test, push(r, s, AMDX_EVENT_ERROR),
				AMDX_EVENT_PUSH_STORED);
	KUNIT_EXPECT_EQ(test, pop(r, out, 64), 16);
	KUNIT_EXPECT_EQ(test, out[0].seq, 41);
	KUNIT_EXPECT_EQ(test, out[15].seq, 56);
}

/* The reader's side never queues; the producer's flush needs misses and room. */
static void ring_flush_lost_needs_misses_and_room(struct kunit *test)
{
	struct amdx_event_ring *r = new_ring(test, 4, MASK_ALL);
	const struct amdx_event *first;
	u64 s;

	KUNIT_EXPECT_FALSE(test, amdx_event_ring_flush_lost(r));
	for (s = 1; s <= 6; s++)			/* 5 and 6 missed */
		push(r, s, AMDX_EVENT_ERROR);
	KUNIT_EXPECT_TRUE(test, amdx_event_ring_lost_pending(r));
	KUNIT_EXPECT_FALSE(test, amdx_event_ring_flush_lost(r));	/* full */
	KUNIT_ASSERT_EQ(test, amdx_event_ring_peek(r, 8, &first), 4);
	KUNIT_EXPECT_EQ(test, first->seq, 1);
	amdx_event_ring_consume(r, 4);
	/* Empty to peek, yet readable: the misses wait for their record. */
	KUNIT_EXPECT_EQ(test, amdx_event_ring_peek(r, 8, &first), 0);
	KUNIT_EXPECT_TRUE(test, amdx_event_ring_readable(r));
	KUNIT_EXPECT_TRUE(test, amdx_event_ring_flush_lost(r));
	KUNIT_EXPECT_FALSE(test, amdx_event_ring_lost_pending(r));
	KUNIT_ASSERT_EQ(test, amdx_event_ring_peek(r, 8, &first), 1);
	expect_lost(test, first, 5, 2, 6);
	amdx_event_ring_consume(r, 1);
	KUNIT_EXPECT_FALSE(test, amdx_event_ring_flush_lost(r));
	KUNIT_EXPECT_FALSE(test, amdx_event_ring_readable(r));
	KUNIT_EXPECT_EQ(test, r->dropped, 2);
}

static void ring_filter_skips_unwanted_kinds_uncounted(struct kunit *test)
{
	struct amdx_event_ring *r = new_ring(test, 16, MASK_ERR);
	struct amdx_event *out = recs(test, 4);
	u64 s;

	for (s = 1; s <= 100; s++)
		KUNIT_EXPECT_EQ(test, push(r, s, AMDX_EVENT_MIGRATE),
				AMDX_EVENT_PUSH_FILTERED);
	KUNIT_EXPECT_EQ(test, push(r, 101, AMDX_EVENT_KIND_COUNT),
			AMDX_EVENT_PUSH_FILTERED);
	KUNIT_EXPECT_EQ(test, push(r, 102, 64), AMDX_EVENT_PUSH_FILTERED);
	KUNIT_EXPECT_FALSE(test, amdx_event_ring_readable(r));
	KUNIT_EXPECT_EQ(test, r->dropped, 0);
	KUNIT_EXPECT_EQ(test, push(r, 103, AMDX_EVENT_ERROR),
			AMDX_EVENT_PUSH_STORED);
	KUNIT_ASSERT_EQ(test, pop(r, out, 4), 1);
	KUNIT_EXPECT_EQ(test, out[0].seq, 103);
}

/* The mask has no LOST bit; the LOST record comes anyway. */
static void ring_lost_arrives_regardless_of_mask(struct kunit *test)
{
	struct amdx_event_ring *r = new_ring(test, 16, MASK_ERR);
	struct amdx_event *out = recs(test, 32);
	u64 s, n = 0;

	for (s = 1; s <= 60; s++)
		push(r, s, s % 2 ? AMDX_EVENT_ERROR : AMDX_EVENT_MIGRATE);
	/* 30 ERROR records (odd seqs): 16 kept, 17th (seq 33) on missed */
	KUNIT_ASSERT_EQ(test, pop(r, out, 32), 17);
	for (s = 0; s < 16; s++) {
		KUNIT_EXPECT_EQ(test, out[s].kind, AMDX_EVENT_ERROR);
		KUNIT_EXPECT_EQ(test, out[s].seq, 2 * s + 1);
		n++;
	}
	expect_lost(test, &out[16], 33, 14, 59);
	KUNIT_EXPECT_EQ(test, n + out[16].data[0], 30);
}

/* A small deterministic generator (xorshift64). */
static u64 next_rand(u64 *state)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

#define RANDOM_OPS	20000
#define RANDOM_MAX	(RANDOM_OPS * 8)

/*
 * Bursts of pushes of random kinds against reads of random size, the
 * reader alternately slower (the ring overflows, again and again, with
 * reads freeing one slot at a time in between) and faster than the
 * producer (it catches up): every
 * record of a wanted kind is either delivered, in order, or inside the
 * [seq, data[1]] run of exactly one LOST record counting it; no two LOST
 * records are adjacent; nothing unwanted shows up.
 */
static void ring_accounting_is_exact_under_random_load(struct kunit *test)
{
	const u64 mask = MASK_ERR | BIT_ULL(AMDX_EVENT_RMA) |
			 BIT_ULL(AMDX_EVENT_MIGRATE) |
			 BIT_ULL(AMDX_EVENT_PAGE_PENDING) |
			 BIT_ULL(AMDX_EVENT_PAGE_RETIRED) |
			 BIT_ULL(AMDX_EVENT_VF_RESET) |
			 BIT_ULL(AMDX_EVENT_ACTION_START) |
			 BIT_ULL(AMDX_EVENT_ACTION_END);
	struct amdx_event_ring *r = new_ring(test, 32, mask);
	struct amdx_event *out = kunit_kcalloc(test, 64, sizeof(*out),
					       GFP_KERNEL);
	u64 *wanted = kunit_kcalloc(test, RANDOM_MAX, sizeof(*wanted),
				    GFP_KERNEL);
	u64 state = 0x9e3779b97f4a7c15ULL, seq = 0, nwanted = 0, pos = 0;
	u64 delivered = 0, lost = 0, nlost = 0;
	bool prev_lost = false;
	u32 op, i, n;

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, wanted);
	for (op = 0; op < RANDOM_OPS; op++) {
		bool last = op == RANDOM_OPS - 1;
		bool slow = (op / 200) % 2;
		u32 burst = next_rand(&state) % 8;

		for (i = 0; i < burst && !last; i++) {
			u16 kind = 1 + next_rand(&state) % 15;

			if (mask & BIT_ULL(kind))
				wanted[nwanted++] = seq + 1;
			push(r, ++seq, kind);
		}
		n = pop(r, out, last ? 64 : next_rand(&state) % (slow ? 2 : 9));
		if (last)
			while (amdx_event_ring_readable(r))
				n += pop(r, out + n, 64 - n);
		for (i = 0; i < n; i++) {
			struct amdx_event *ev = &out[i];

			KUNIT_ASSERT_LT(test, pos, nwanted);
			KUNIT_ASSERT_EQ(test, ev->seq, wanted[pos]);
			if (ev->kind == AMDX_EVENT_LOST) {
				KUNIT_ASSERT_FALSE(test, prev_lost);
				KUNIT_ASSERT_GT(test, ev->data[0], 0);
				KUNIT_ASSERT_LE(test, pos + ev->data[0],
						nwanted);
				KUNIT_ASSERT_EQ(test, ev->data[1],
						wanted[pos + ev->data[0] - 1]);
				pos += ev->data[0];
				lost += ev->data[0];
				nlost++;
				prev_lost = true;
			} else {
				KUNIT_ASSERT_TRUE(test,
						  !!(mask & BIT_ULL(ev->kind)));
				KUNIT_ASSERT_EQ(test, ev->data[0], ev->seq * 3);
				pos++;
				delivered++;
				prev_lost = false;
			}
		}
	}
	KUNIT_EXPECT_EQ(test, pos, nwanted);
	KUNIT_EXPECT_EQ(test, delivered + lost, nwanted);
	KUNIT_EXPECT_EQ(test, lost, r->dropped);
	/* the load did overflow, repeatedly */
	KUNIT_EXPECT_GT(test, nlost, 100);
	KUNIT_EXPECT_GT(test, delivered, nwanted / 4);
	kunit_info(test, "%llu wanted, %llu delivered, %llu lost in %llu runs",
		   nwanted, delivered, lost, nlost);
}

struct amdx_event_check_case {
	const char *name;
	struct amdx_event_subscribe args;
	int err;
};

static const struct amdx_event_check_case amdx_event_check_cases[] = {
	{ "all kinds, default ring", { .mask = MASK_ALL }, 0 },
	{ "one kind, smallest ring", { .mask = MASK_ERR, .ring_size = 16 }, 0 },
	{ "largest ring, nonblocking",
	  { .mask = MASK_ALL, .ring_size = 65536,
	    .flags = AMDX_EVENT_F_NONBLOCK }, 0 },
	{ "LOST bit with a kind", { .mask = MASK_ERR | 1 }, 0 },
	{ "mask 0", { .mask = 0 }, -EINVAL },
	{ "only LOST", { .mask = 1 }, -EINVAL },
	{ "unknown kind", { .mask = BIT_ULL(AMDX_EVENT_KIND_COUNT) }, -EINVAL },
	{ "top bit", { .mask = MASK_ERR | BIT_ULL(63) }, -EINVAL },
	{ "ring 8", { .mask = MASK_ALL, .ring_size = 8 }, -EINVAL },
	{ "ring 1", { .mask = MASK_ALL, .ring_size = 1 }, -EINVAL },
	{ "ring 100", { .mask = MASK_ALL, .ring_size = 100 }, -EINVAL },
	{ "ring 131072", { .mask = MASK_ALL, .ring_size = 131072 }, -EINVAL },
	{ "ring 2^31", { .mask = MASK_ALL, .ring_size = 1U << 31 }, -EINVAL },
	{ "flag O_CLOEXEC", { .mask = MASK_ALL, .flags = O_CLOEXEC }, -EINVAL },
	{ "flag O_NONBLOCK", { .mask = MASK_ALL, .flags = O_NONBLOCK }, -EINVAL },
	{ "v1 records (minor 3)",
	  { .mask = MASK_ALL, .flags = AMDX_EVENT_F_SIZE_VER1 }, 0 },
	{ "v2 records (minor 9)",
	  { .mask = MASK_ALL, .flags = AMDX_EVENT_F_SIZE_VER2 }, 0 },
	{ "v3 records (minor 10)",
	  { .mask = MASK_ALL, .flags = AMDX_EVENT_F_SIZE_VER3 }, 0 },
	{ "v1 and v2 records",
	  { .mask = MASK_ALL,
	    .flags = AMDX_EVENT_F_SIZE_VER1 | AMDX_EVENT_F_SIZE_VER2 },
	  -EINVAL },
	{ "v2 and v3 records",
	  { .mask = MASK_ALL,
	    .flags = AMDX_EVENT_F_SIZE_VER2 | AMDX_EVENT_F_SIZE_VER3 },
	  -EINVAL },
	{ "v1 and v3 records",
	  { .mask = MASK_ALL,
	    .flags = AMDX_EVENT_F_SIZE_VER1 | AMDX_EVENT_F_SIZE_VER3 },
	  -EINVAL },
	{ "flag bit 4", { .mask = MASK_ALL, .flags = 16 }, -EINVAL },
	{ "pad", { .mask = MASK_ALL, .pad = 1 }, -EINVAL },
	{ "reserved[0]", { .mask = MASK_ALL, .reserved = { 1, 0 } }, -EINVAL },
	{ "reserved[1]", { .mask = MASK_ALL, .reserved = { 0, 1 } }, -EINVAL },
};

static void amdx_event_check_case_desc(const struct amdx_event_check_case *c,
				       char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(amdx_event_check, amdx_event_check_cases,
		  amdx_event_check_case_desc);

static void subscribe_arguments_are_checked(struct kunit *test)
{
	const struct amdx_event_check_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, amdx_event_subscribe_check(0, &c->args), c->err);
}

/* ---- emission on fake devices */

static const struct amdx_provider_ops fake_ops = {
	.get_state = amdx_kunit_get_state,
};

static int res_init(struct kunit_resource *res, void *ctx)
{
	res->data = ctx;
	return 0;
}

/*
 * A registered 8-XCC MI300X of @ops in @hive with RAS blocks @ras,
 * unregistered with the test.
 */
static struct amdx_device *fake_device_ops(struct kunit *test, u32 n, u64 hive,
					   const struct amdx_provider_ops *ops,
					   const struct amdx_ras_block_info *ras)
{
	char bdf[AMDX_BDF_LEN];
	struct amdx_device_desc desc = amdx_kunit_desc(bdf, "KUNITEV");

	snprintf(bdf, sizeof(bdf), "0000:e%u:00.0", n);
	desc.model = AMDX_MODEL_MI300X;
	desc.num_xcc = 8;
	desc.hive_id = hive;
	desc.ras_blocks = ras;
	return amdx_kunit_register(test, &desc, ops, NULL);
}

/* A registered fake device, unregistered with the test. */
static struct amdx_device *fake_device(struct kunit *test, u32 n, u64 hive)
{
	return fake_device_ops(test, n, hive, &fake_ops, NULL);
}

static void res_sub_destroy(struct kunit_resource *res)
{
	amdx_event_sub_destroy(res->data);
}

/* A subscriber, destroyed with the test before its device goes. */
static struct amdx_event_sub *fake_sub(struct kunit *test,
				       struct amdx_device *adev, u64 mask,
				       u32 size)
{
	struct amdx_event_sub *sub;

	sub = amdx_event_sub_create(&adev->events, mask, size,
				    AMDX_EVENT_SUBSCRIBERS_MAX, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sub));
	if (!kunit_alloc_resource(test, res_init, res_sub_destroy, GFP_KERNEL,
				  sub)) {
		amdx_event_sub_destroy(sub);
		KUNIT_FAIL_AND_ABORT(test, "no memory for a test resource");
	}
	return sub;
}

static u32 sub_pop(struct amdx_event_sub *sub, struct amdx_event *out,
		   u32 max)
{
	u32 n;

	/* The producers' lock, as the reader takes it to flush misses. */
	spin_lock_irq(&sub->src->lock);
	n = pop(&sub->ring, out, max);
	spin_unlock_irq(&sub->src->lock);
	return n;
}

static u64 emit(struct amdx_device *adev, u16 kind, u64 data)
{
	struct amdx_event ev = {
		.kind = kind,
		.partition = AMDX_RAS_PARTITION_ALL,
		.data = { data, 0 },
	};

	amdx_event_emit(adev, &ev);
	return ev.seq;
}

static void emit_stamps_and_orders_records(struct kunit *test)
{
	struct amdx_device *adev = fake_device(test, 1, 0);
	struct amdx_event_sub *sub = fake_sub(test, adev, MASK_ALL, 256);
	struct amdx_event *out = kunit_kcalloc(test, 256, sizeof(*out),
					       GFP_KERNEL);
	struct amdx_event ev = {
		.kind = AMDX_EVENT_ERROR, .block = 2, .type = 1,
		.instance = 3, .partition = 4, .address = 0x5000,
		.data = { 6, 7 },
	};
	u64 before = ktime_get_ns();
	u32 i, n;

	KUNIT_ASSERT_NOT_NULL(test, out);
	amdx_event_emit(adev, &ev);
	/* written back to the caller */
	KUNIT_EXPECT_EQ(test, ev.seq, 1);
	KUNIT_EXPECT_EQ(test, ev.size, sizeof(ev));
	KUNIT_EXPECT_EQ(test, ev.device, amdx_device_id(adev));
	KUNIT_EXPECT_GE(test, ev.timestamp_ns, before);
	KUNIT_EXPECT_LE(test, ev.timestamp_ns, ktime_get_ns());
	for (i = 1; i < 200; i++)
		KUNIT_EXPECT_EQ(test, emit(adev, 1 + i % 15, i), i + 1);

	n = sub_pop(sub, out, 256);
	KUNIT_ASSERT_EQ(test, n, 200);
	KUNIT_EXPECT_EQ(test, memcmp(&out[0], &ev, sizeof(ev)), 0);
	for (i = 1; i < n; i++) {
		KUNIT_EXPECT_EQ(test, out[i].seq, i + 1);
		KUNIT_EXPECT_EQ(test, out[i].kind, 1 + i % 15);
		KUNIT_EXPECT_EQ(test, out[i].data[0], i);
		KUNIT_EXPECT_EQ(test, out[i].device, amdx_device_id(adev));
		KUNIT_EXPECT_GE(test, out[i].timestamp_ns,
				out[i - 1].timestamp_ns);
	}
}

static void emit_many_stamps_records_back_to_back(struct kunit *test)
{
	struct amdx_device *adev = fake_device(test, 11, 0);
	struct amdx_event_sub *sub = fake_sub(test, adev, MASK_ALL, 16);
	struct amdx_event *evs = recs(test, 20);
	struct amdx_event *out = recs(test, 20);
	u64 first = emit(adev, AMDX_EVENT_RMA, 0) + 1;
	u32 i;

	KUNIT_ASSERT_EQ(test, sub_pop(sub, out, 20), 1);
	for (i = 0; i < 20; i++) {
		evs[i].kind = AMDX_EVENT_ERROR;
		evs[i].data[0] = i;
	}
	amdx_event_emit_many(adev, evs, 20);
	for (i = 0; i < 20; i++) {
		KUNIT_EXPECT_EQ(test, evs[i].seq, first + i);
		KUNIT_EXPECT_EQ(test, evs[i].size, sizeof(evs[i]));
		KUNIT_EXPECT_EQ(test, evs[i].device, amdx_device_id(adev));
		if (i)
			KUNIT_EXPECT_GE(test, evs[i].timestamp_ns,
					evs[i - 1].timestamp_ns);
	}
	/* 16 fit, the last 4 are one LOST record */
	KUNIT_ASSERT_EQ(test, sub_pop(sub, out, 20), 17);
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, memcmp(&out[i], &evs[i], sizeof(*out)), 0);
	KUNIT_EXPECT_EQ(test, out[16].kind, AMDX_EVENT_LOST);
	KUNIT_EXPECT_EQ(test, out[16].seq, first + 16);
	KUNIT_EXPECT_EQ(test, out[16].data[0], 4);
	KUNIT_EXPECT_EQ(test, out[16].data[1], first + 19);
}

static void subscribers_are_independent(struct kunit *test)
{
	struct amdx_device *adev = fake_device(test, 2, 0);
	struct amdx_event_sub *a = fake_sub(test, adev, MASK_ALL, 16);
	struct amdx_event_sub *b = fake_sub(test, adev, MASK_ERR, 64);
	struct amdx_event *out = recs(test, 64);
	u32 i;

	for (i = 0; i < 40; i++)
		emit(adev, i % 2 ? AMDX_EVENT_ERROR : AMDX_EVENT_RMA, i);
	/* a: 16 of all, then a LOST of 24 from seq 17 */
	KUNIT_ASSERT_EQ(test, sub_pop(a, out, 64), 17);
	KUNIT_EXPECT_EQ(test, out[15].seq, 16);
	KUNIT_EXPECT_EQ(test, out[16].kind, AMDX_EVENT_LOST);
	KUNIT_EXPECT_EQ(test, out[16].seq, 17);
	KUNIT_EXPECT_EQ(test, out[16].data[0], 24);
	/* b: the 20 errors, even seqs, no loss */
	KUNIT_ASSERT_EQ(test, sub_pop(b, out, 64), 20);
	for (i = 0; i < 20; i++) {
		KUNIT_EXPECT_EQ(test, out[i].kind, AMDX_EVENT_ERROR);
		KUNIT_EXPECT_EQ(test, out[i].seq, 2 * i + 2);
	}
}

static void hive_devices_share_one_counter(struct kunit *test)
{
	const u64 hive = 0xa3d0e7e57ULL, other = hive + 1;
	struct amdx_device *a = fake_device(test, 3, hive);
	struct amdx_device *b = fake_device(test, 4, hive);
	struct amdx_device *c = fake_device(test, 5, other);
	struct amdx_device *solo = fake_device(test, 6, 0);
	struct amdx_event_sub *sa = fake_sub(test, a, MASK_ALL, 16);
	struct amdx_event *out = recs(test, 16);

	KUNIT_EXPECT_PTR_EQ(test, a->events.counter, b->events.counter);
	KUNIT_EXPECT_PTR_NE(test, a->events.counter, c->events.counter);
	KUNIT_EXPECT_PTR_NE(test, a->events.counter, solo->events.counter);

	KUNIT_EXPECT_EQ(test, emit(a, AMDX_EVENT_ERROR, 0), 1);
	KUNIT_EXPECT_EQ(test, emit(b, AMDX_EVENT_ERROR, 0), 2);
	KUNIT_EXPECT_EQ(test, emit(b, AMDX_EVENT_ERROR, 0), 3);
	KUNIT_EXPECT_EQ(test, emit(a, AMDX_EVENT_ERROR, 0), 4);
	KUNIT_EXPECT_EQ(test, emit(c, AMDX_EVENT_ERROR, 0), 1);
	KUNIT_EXPECT_EQ(test, emit(solo, AMDX_EVENT_ERROR, 0), 1);
	KUNIT_EXPECT_EQ(test, emit(solo, AMDX_EVENT_ERROR, 0), 2);

	/* a's subscriber sees a's events only, with the hive's seqs */
	KUNIT_ASSERT_EQ(test, sub_pop(sa, out, 16), 2);
	KUNIT_EXPECT_EQ(test, out[0].seq, 1);
	KUNIT_EXPECT_EQ(test, out[1].seq, 4);
	KUNIT_EXPECT_EQ(test, out[1].device, amdx_device_id(a));
}

static void hive_counter_outlives_removed_members(struct kunit *test)
{
	const u64 hive = 0xa3d0e7e60ULL;
	struct amdx_device *a = fake_device(test, 7, hive);
	struct amdx_device *b = fake_device(test, 8, hive);

	KUNIT_EXPECT_EQ(test, emit(b, AMDX_EVENT_RMA, 0), 1);
	amdx_kunit_unregister(test, b);
	/* b is gone; a keeps counting where the hive was */
	KUNIT_EXPECT_EQ(test, emit(a, AMDX_EVENT_RMA, 0), 2);
}

static void emit_works_with_interrupts_off(struct kunit *test)
{
	struct amdx_device *adev = fake_device(test, 9, 0);
	struct amdx_event_sub *sub = fake_sub(test, adev, MASK_ALL, 16);
	struct amdx_event *out = recs(test, 2);
	unsigned long flags;

	local_irq_save(flags);
	emit(adev, AMDX_EVENT_DEVICE_RESET_BEGIN, 1);
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, sub_pop(sub, out, 2), 1);
	KUNIT_EXPECT_EQ(test, out[0].kind, AMDX_EVENT_DEVICE_RESET_BEGIN);
}

static void removal_ends_the_log(struct kunit *test)
{
	struct amdx_device *adev = fake_device(test, 10, 0);
	struct amdx_event_sub *sub = fake_sub(test, adev, MASK_ALL, 16);
	struct amdx_event *out = recs(test, 4);

	emit(adev, AMDX_EVENT_ERROR, 1);
	KUNIT_EXPECT_FALSE(test, sub->hup);
	amdx_event_source_kill(&adev->events);
	KUNIT_EXPECT_TRUE(test, sub->hup);
	KUNIT_EXPECT_TRUE(test, list_empty(&sub->node));
	/* queued records survive; later ones reach nobody */
	KUNIT_EXPECT_EQ(test, emit(adev, AMDX_EVENT_ERROR, 2), 2);
	KUNIT_ASSERT_EQ(test, sub_pop(sub, out, 4), 1);
	KUNIT_EXPECT_EQ(test, out[0].data[0], 1);
	KUNIT_EXPECT_PTR_EQ(test, amdx_event_sub_create(&adev->events,
							MASK_ALL, 16,
							AMDX_EVENT_SUBSCRIBERS_MAX,
							0),
			    ERR_PTR(-ENODEV));
}

/*
 * A reset and an RMA flag the provider's driver decided on its own reach
 * the log as the core's own do: DEVICE_RESET_BEGIN with the bitmap of
 * the devices reset, DEVICE_RESET_END with the result (a failed one is
 * the reset_failed fault: a node reboot pending), one RMA event however
 * often the driver says so, and the device flagged, with the rma
 * recovery action pending.
 */
static void provider_reports_its_own_reset_and_rma(struct kunit *test)
{
	struct amdx_device *adev = fake_device(test, 11, 0);
	struct amdx_event_sub *sub = fake_sub(test, adev, MASK_ALL, 16);
	struct amdx_event *out = recs(test, 8);

	amdx_device_reset_begin(adev);
	amdx_device_reset_end(adev, -EIO);
	KUNIT_EXPECT_FALSE(test, adev->ras->rma);
	amdx_device_rma(adev);
	amdx_device_rma(adev);
	KUNIT_EXPECT_TRUE(test, adev->ras->rma);
	KUNIT_ASSERT_EQ(test, sub_pop(sub, out, 8), 5);
	KUNIT_EXPECT_EQ(test, out[0].kind, AMDX_EVENT_DEVICE_RESET_BEGIN);
	KUNIT_EXPECT_EQ(test, out[0].data[0], BIT_ULL(amdx_device_id(adev)));
	KUNIT_EXPECT_EQ(test, out[0].partition, AMDX_RAS_PARTITION_ALL);
	KUNIT_EXPECT_EQ(test, out[1].kind, AMDX_EVENT_DEVICE_RESET_END);
	KUNIT_EXPECT_EQ(test, (s64)out[1].data[0], -EIO);
	/* the failed reset: a node reboot pending */
	KUNIT_EXPECT_EQ(test, out[2].kind, AMDX_EVENT_RECOVERY);
	KUNIT_EXPECT_EQ(test, out[2].type, AMDX_RECOVERY_EV_PENDING);
	KUNIT_EXPECT_EQ(test, out[2].block, AMDX_FAULT_RESET_FAILED);
	KUNIT_EXPECT_EQ(test, AMDX_RECOVERY_SUM_ACTION(out[2].data[0]),
			AMDX_RECOVER_NODE);
	KUNIT_EXPECT_EQ(test, out[3].kind, AMDX_EVENT_RMA);
	KUNIT_EXPECT_EQ(test, out[3].data[0], 0);
	/* the board is to be replaced: that action is pending now */
	KUNIT_EXPECT_EQ(test, out[4].kind, AMDX_EVENT_RECOVERY);
	KUNIT_EXPECT_EQ(test, out[4].type, AMDX_RECOVERY_EV_PENDING);
	KUNIT_EXPECT_EQ(test, out[4].block, AMDX_FAULT_BOARD);
	KUNIT_EXPECT_EQ(test, AMDX_RECOVERY_SUM_ACTION(out[4].data[0]),
			AMDX_RECOVER_RMA);
	/* no other record set it: address 0, the record itself */
	KUNIT_EXPECT_EQ(test, out[4].address, 0);
}

/* A driver resetting the device on its own already (amdgpu's RAS recovery). */
static int fake_reset_under_way(struct amdx_device *adev)
{
	return -EALREADY;
}

static const struct amdx_provider_ops fake_busy_ops = {
	.get_state = amdx_kunit_get_state,
	.device_reset = fake_reset_under_way,
};

static const struct amdx_ras_block_info fake_mmhub_ue[AMDX_RAS_BLOCK_COUNT] = {
	[AMDX_RAS_BLOCK_MMHUB] = { .instances = 1,
				   .supported = BIT(AMDX_RAS_TYPE_UE) },
};

/* Whether @n records of @out hold a RECOVERY record of @type. */
static bool has_recovery(const struct amdx_event *out, u32 n, u16 type)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (out[i].kind == AMDX_EVENT_RECOVERY && out[i].type == type)
			return true;
	return false;
}

/*
 * A device reset containment asks for (an MMHUB UE: the device's action
 * pending, the ladder's device reset) while the provider's driver resets
 * the device on its own (amdgpu's RAS recovery of a fatal error, whose
 * queries report the error to amdx): the provider answers -EALREADY.
 * That reset stands for amdx's: the device's action stays pending, with
 * no FAILED record, until the driver's reset ends, which runs it (RAN,
 * then CLEARED); a failed end fails it (FAILED), and is the reset_failed
 * fault: a node reboot pending on the device.  The core used to fail the
 * action at once ("device reset failed", state failed) while the driver
 * reset the device (found by amdgpu_amdx_umc.fatal_error_is_one_recovery_of_amdgpus).
 */
static void reset_under_way_stands_for_amdxs(struct kunit *test)
{
	const struct amdx_ras_error ue = {
		.block = AMDX_RAS_BLOCK_MMHUB,
		.type = AMDX_RAS_TYPE_UE,
		.count = 1,
		.partition = AMDX_RAS_PARTITION_ALL,
	};
	struct amdx_device *adev = fake_device_ops(test, 12, 0, &fake_busy_ops,
						   fake_mmhub_ue);
	struct amdx_event_sub *sub = fake_sub(test, adev, MASK_ALL, 32);
	struct amdx_event *out = recs(test, 32);
	u64 seq;
	u32 n;

	KUNIT_ASSERT_EQ(test, amdx_ras_report(adev, &ue, &seq), 0);
	n = sub_pop(sub, out, 32);
	KUNIT_EXPECT_TRUE(test, has_recovery(out, n, AMDX_RECOVERY_EV_PENDING));
	KUNIT_EXPECT_FALSE(test, has_recovery(out, n, AMDX_RECOVERY_EV_FAILED));
	KUNIT_EXPECT_EQ(test, adev->ras->recovery.dev.state,
			AMDX_RECOVERY_STATE_PENDING);
	KUNIT_EXPECT_EQ(test, adev->ras->recovery.dev.action,
			AMDX_RECOVER_DEVICE);

	/* The driver's reset ends: it ran amdx's action. */
	amdx_device_reset_begin(adev);
	amdx_device_reset_end(adev, 0);
	n = sub_pop(sub, out, 32);
	KUNIT_EXPECT_TRUE(test, has_recovery(out, n, AMDX_RECOVERY_EV_RAN));
	KUNIT_EXPECT_TRUE(test, has_recovery(out, n, AMDX_RECOVERY_EV_CLEARED));
	KUNIT_EXPECT_EQ(test, adev->ras->recovery.dev.action, 0);

	/* Again, and the driver's reset fails: so does the action. */
	KUNIT_ASSERT_EQ(test, amdx_ras_report(adev, &ue, &seq), 0);
	amdx_device_reset_begin(adev);
	amdx_device_reset_end(adev, -EIO);
	n = sub_pop(sub, out, 32);
	KUNIT_EXPECT_TRUE(test, has_recovery(out, n, AMDX_RECOVERY_EV_FAILED));
	/* and the failed reset is reset_failed: the node reboot pending */
	KUNIT_EXPECT_EQ(test, adev->ras->recovery.dev.state,
			AMDX_RECOVERY_STATE_PENDING);
	KUNIT_EXPECT_EQ(test, adev->ras->recovery.dev.action,
			AMDX_RECOVER_NODE);
	KUNIT_EXPECT_EQ(test, adev->ras->recovery.dev.fault,
			AMDX_FAULT_RESET_FAILED);
}

static const struct amdx_ras_block_info fake_umc_ue[AMDX_RAS_BLOCK_COUNT] = {
	[AMDX_RAS_BLOCK_UMC] = { .instances = 1,
				 .supported = BIT(AMDX_RAS_TYPE_UE) },
};

/*
 * A UMC UE without an address is the device's fault, in the recovery
 * model as in the containment ladder (which resets the device for it):
 * no page holds it, so no process consumed it.  MI300's UMC UEs come so
 * (amdgpu's UMC 12 gives a UE no address; the error is fatal).  With an
 * address it is poison at that page, a consumer's.  The recovery model
 * used to call every UMC UE a consumption and set a process action
 * that named no process, beside the ladder's device reset.
 */
static void umc_ue_without_a_page_is_the_devices(struct kunit *test)
{
	struct amdx_ras_error ue = {
		.block = AMDX_RAS_BLOCK_UMC,
		.type = AMDX_RAS_TYPE_UE,
		.count = 1,
		.partition = AMDX_RAS_PARTITION_ALL,
	};
	struct amdx_device *adev = fake_device_ops(test, 13, 0, &fake_busy_ops,
						   fake_umc_ue);
	u64 seq;

	KUNIT_ASSERT_EQ(test, amdx_ras_report(adev, &ue, &seq), 0);
	KUNIT_EXPECT_EQ(test, adev->ras->recovery.dev.state,
			AMDX_RECOVERY_STATE_PENDING);
	KUNIT_EXPECT_EQ(test, adev->ras->recovery.dev.action,
			AMDX_RECOVER_DEVICE);
	KUNIT_EXPECT_EQ(test, adev->ras->recovery.dev.fault,
			AMDX_FAULT_DEVICE_UE);
}

/* The cap counts live subscribers: a destroyed one frees its place. */
static void subscribers_beyond_the_cap_are_emfile(struct kunit *test)
{
	struct amdx_device *adev = fake_device(test, 11, 0);
	struct amdx_event_sub *extra;
	u32 i;

	for (i = 0; i < 3; i++)
		fake_sub(test, adev, MASK_ALL, 16);
	KUNIT_EXPECT_EQ(test, adev->events.nsubs, 3);
	KUNIT_EXPECT_PTR_EQ(test, amdx_event_sub_create(&adev->events,
							MASK_ALL, 16, 3, 0),
			    ERR_PTR(-EMFILE));
	/* a larger limit (an administrator's) still admits one */
	extra = amdx_event_sub_create(&adev->events, MASK_ALL, 16, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(extra));
	KUNIT_EXPECT_EQ(test, adev->events.nsubs, 4);
	amdx_event_sub_destroy(extra);
	KUNIT_EXPECT_EQ(test, adev->events.nsubs, 3);
	/* after the device is gone nobody counts, and nobody may join */
	amdx_event_source_kill(&adev->events);
	KUNIT_EXPECT_EQ(test, adev->events.nsubs, 0);
	KUNIT_EXPECT_PTR_EQ(test, amdx_event_sub_create(&adev->events,
							MASK_ALL, 16, 4, 0),
			    ERR_PTR(-ENODEV));
}

/*
 * The per-user cap counts only the subscribers of the same euid that are
 * under it: beyond it -EMFILE, an uncapped (administrator's) subscriber
 * neither counts nor is refused, and a destroyed one frees its place.
 */
static void subscribers_beyond_the_user_cap_are_emfile(struct kunit *test)
{
	struct amdx_device *adev = fake_device(test, 12, 0);
	struct amdx_event_sub *a, *b, *c, *admin;

	a = amdx_event_sub_create(&adev->events, MASK_ALL, 16, 8, 2);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = amdx_event_sub_create(&adev->events, MASK_ALL, 16, 8, 2);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_PTR_EQ(test, amdx_event_sub_create(&adev->events,
							MASK_ALL, 16, 8, 2),
			    ERR_PTR(-EMFILE));
	admin = amdx_event_sub_create(&adev->events, MASK_ALL, 16, 8, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(admin));
	KUNIT_EXPECT_EQ(test, adev->events.nsubs, 3);
	/* a larger per-user cap admits one more; the admin's is not counted */
	c = amdx_event_sub_create(&adev->events, MASK_ALL, 16, 8, 3);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	amdx_event_sub_destroy(c);
	amdx_event_sub_destroy(b);
	b = amdx_event_sub_create(&adev->events, MASK_ALL, 16, 8, 2);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	amdx_event_sub_destroy(admin);
	amdx_event_sub_destroy(b);
	amdx_event_sub_destroy(a);
	KUNIT_EXPECT_EQ(test, adev->events.nsubs, 0);
}

static struct kunit_case amdx_event_test_cases[] = {
	KUNIT_CASE(subscribers_beyond_the_cap_are_emfile),
	KUNIT_CASE(subscribers_beyond_the_user_cap_are_emfile),
	KUNIT_CASE(ring_delivers_in_order_across_wrap_around),
	KUNIT_CASE(ring_peek_stops_at_the_end_of_storage),
	KUNIT_CASE(ring_holds_its_capacity_without_loss),
	KUNIT_CASE(ring_overflow_yields_one_lost_with_exact_count),
	KUNIT_CASE(ring_lost_precedes_later_records),
	KUNIT_CASE(ring_reports_each_overflow_separately),
	KUNIT_CASE(ring_flush_lost_needs_misses_and_room),
	KUNIT_CASE(ring_filter_skips_unwanted_kinds_uncounted),
	KUNIT_CASE(ring_lost_arrives_regardless_of_mask),
	KUNIT_CASE(ring_accounting_is_exact_under_random_load),
	KUNIT_CASE_PARAM(subscribe_arguments_are_checked,
			 amdx_event_check_gen_params),
	KUNIT_CASE(emit_stamps_and_orders_records),
	KUNIT_CASE(emit_many_stamps_records_back_to_back),
	KUNIT_CASE(subscribers_are_independent),
	KUNIT_CASE(hive_devices_share_one_counter),
	KUNIT_CASE(hive_counter_outlives_removed_members),
	KUNIT_CASE(emit_works_with_interrupts_off),
	KUNIT_CASE(removal_ends_the_log),
	KUNIT_CASE(provider_reports_its_own_reset_and_rma),
	KUNIT_CASE(reset_under_way_stands_for_amdxs),
	KUNIT_CASE(umc_ue_without_a_page_is_the_devices),
	{}
};

static struct kunit_suite amdx_event_test_suite = {
	.name = "amdx_event",
	.test_cases = amdx_event_test_cases,
};

kunit_test_suite(amdx_event_test_suite);
