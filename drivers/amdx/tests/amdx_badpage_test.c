// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: KUnit tests of the bad-page table codec
 *
 * Suite ``amdx_badpage``: the encoded layout byte by byte, round trips
 * (empty, one, many, the maximum), the checksum against an independent
 * value, every kind of corruption rejected with -EBADMSG and a reason
 * while the output stays untouched, the sorted-array search and the
 * merge of new records into a table.
 */
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/slab.h>
#include <amdx/amdx_badpage.h>
#include <amdx/amdx_compat.h>

static const struct amdx_badpage_record three[] = {
	{ .address = 0x1000, .time = 1700000000, .partition = 0,
	  .cause = AMDX_BADPAGE_CAUSE_CE },
	{ .address = 0x200000, .time = 1700000100, .partition = 1,
	  .cause = AMDX_BADPAGE_CAUSE_UE },
	{ .address = 0xfffff000, .time = 1700000200, .partition = 3,
	  .cause = AMDX_BADPAGE_CAUSE_IMPORT },
};

static u8 *encode(struct kunit *test, const struct amdx_badpage_record *r,
		  u32 n, size_t *len)
{
	u8 *buf;

	*len = amdx_badpage_size(n);
	buf = kunit_kzalloc(test, *len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, amdx_badpage_encode(r, n, buf, *len), (int)*len);
	return buf;
}

/* Recompute the checksum after a deliberate edit. */
static void reseal(u8 *buf, size_t len)
{
	u32 crc;

	put_unaligned_le32(0, buf + 16);
	crc = crc32_le(~0U, buf, len) ^ ~0U;
	put_unaligned_le32(crc, buf + 16);
}

static void layout_is_little_endian_and_packed(struct kunit *test)
{
	size_t len;
	u8 *b = encode(test, three, 1, &len);

	KUNIT_EXPECT_EQ(test, len, 44);
	KUNIT_EXPECT_EQ(test, sizeof(struct amdx_badpage_header), 20);
	KUNIT_EXPECT_EQ(test, sizeof(struct amdx_badpage_record), 24);
	/* "ABPX" */
	KUNIT_EXPECT_EQ(test, b[0], 'A');
	KUNIT_EXPECT_EQ(test, b[1], 'B');
	KUNIT_EXPECT_EQ(test, b[2], 'P');
	KUNIT_EXPECT_EQ(test, b[3], 'X');
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4), 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 8), 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 12), 24);
	KUNIT_EXPECT_EQ(test, b[20], 0x00);
	KUNIT_EXPECT_EQ(test, b[21], 0x10);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 28), 1700000000);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b + 40),
			AMDX_BADPAGE_CAUSE_CE);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b + 42), 0);
}

static void checksum_is_crc32_with_field_zero(struct kunit *test)
{
	size_t len;
	u8 *b = encode(test, three, 3, &len);
	u32 stored = get_unaligned_le32(b + 16);

	put_unaligned_le32(0, b + 16);
	KUNIT_EXPECT_EQ(test, stored, crc32_le(~0U, b, len) ^ ~0U);
}

static void empty_table_is_a_header(struct kunit *test)
{
	struct amdx_badpage_record r = { .address = 77 };
	const char *why = NULL;
	size_t len;
	u8 *b = encode(test, NULL, 0, &len);
	u32 n = 99;

	KUNIT_EXPECT_EQ(test, len, 20);
	KUNIT_EXPECT_EQ(test, amdx_badpage_decode(b, len, &r, 1, &n, &why), 0);
	KUNIT_EXPECT_EQ(test, n, 0);
	KUNIT_EXPECT_EQ(test, r.address, 77);
}

static void round_trip_keeps_every_field(struct kunit *test)
{
	struct amdx_badpage_record out[3] = {};
	const char *why = NULL;
	size_t len;
	u8 *b = encode(test, three, 3, &len);
	u32 n, i;

	KUNIT_ASSERT_EQ(test, amdx_badpage_decode(b, len, out, 3, &n, &why), 0);
	KUNIT_ASSERT_EQ(test, n, 3);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, out[i].address, three[i].address);
		KUNIT_EXPECT_EQ(test, out[i].time, three[i].time);
		KUNIT_EXPECT_EQ(test, out[i].partition, three[i].partition);
		KUNIT_EXPECT_EQ(test, out[i].cause, three[i].cause);
		KUNIT_EXPECT_EQ(test, out[i].flags, 0);
	}
}

static void round_trip_full_table(struct kunit *test)
{
	const u32 max = AMDX_BADPAGE_MAX_RECORDS;
	struct amdx_badpage_record *in, *out;
	const char *why = NULL;
	size_t len;
	u32 n, i;
	u8 *b;

	in = kunit_kcalloc(test, max, sizeof(*in), GFP_KERNEL);
	out = kunit_kcalloc(test, max, sizeof(*out), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	for (i = 0; i < max; i++) {
		in[i].address = (u64)i << 12;
		in[i].time = i;
		in[i].partition = i % 8;
		in[i].cause = 1 + i % 4;
	}
	b = encode(test, in, max, &len);
	KUNIT_EXPECT_LE(test, len, 256 * 1024);
	KUNIT_ASSERT_EQ(test, amdx_badpage_decode(b, len, out, max, &n, &why),
			0);
	KUNIT_EXPECT_EQ(test, n, max);
	KUNIT_EXPECT_EQ(test, memcmp(in, out, max * sizeof(*in)), 0);
	/* one more record does not fit the board's table */
	KUNIT_EXPECT_EQ(test, amdx_badpage_encode(in, max + 1, b, len), -EINVAL);
}

static void encode_needs_room(struct kunit *test)
{
	u8 buf[43];

	KUNIT_EXPECT_EQ(test, amdx_badpage_encode(three, 1, buf, sizeof(buf)),
			-ENOSPC);
}

static void decode_reports_count_when_output_too_small(struct kunit *test)
{
	struct amdx_badpage_record out[2] = {};
	const char *why = NULL;
	size_t len;
	u8 *b = encode(test, three, 3, &len);
	u32 n;

	KUNIT_EXPECT_EQ(test, amdx_badpage_decode(b, len, out, 2, &n, &why),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, n, 3);
	KUNIT_EXPECT_EQ(test, out[0].address, 0);
}

enum corruption {
	C_SHORT_HEADER,
	C_MAGIC,
	C_VERSION,
	C_RECORD_SIZE,
	C_COUNT_HUGE,
	C_COUNT_HIGH,
	C_COUNT_LOW,
	C_TRUNCATED,
	C_CHECKSUM,
	C_RECORD_BIT,
	C_FLAGS,
	C_CAUSE_ZERO,
	C_CAUSE_HIGH,
	C_UNSORTED,
	C_DUPLICATE,
};

struct amdx_bp_corrupt_case {
	const char *name;
	enum corruption kind;
	const char *why;
};

static const struct amdx_bp_corrupt_case amdx_bp_corrupt_cases[] = {
	{ "short_header", C_SHORT_HEADER, "truncated: shorter than the header" },
	{ "bad_magic", C_MAGIC, "bad magic" },
	{ "bad_version", C_VERSION, "unsupported version" },
	{ "bad_record_size", C_RECORD_SIZE, "bad record size" },
	{ "count_above_capacity", C_COUNT_HUGE, "count above the table's capacity" },
	{ "count_too_high", C_COUNT_HIGH, "truncated: fewer records than count" },
	{ "count_too_low", C_COUNT_LOW, "size larger than count records" },
	{ "truncated_record", C_TRUNCATED, "truncated: fewer records than count" },
	{ "checksum_field", C_CHECKSUM, "checksum mismatch" },
	{ "flipped_record_bit", C_RECORD_BIT, "checksum mismatch" },
	{ "record_flags", C_FLAGS, "record flags not zero" },
	{ "cause_zero", C_CAUSE_ZERO, "record with unknown cause" },
	{ "cause_unknown", C_CAUSE_HIGH, "record with unknown cause" },
	{ "unsorted", C_UNSORTED, "records unsorted or duplicate" },
	{ "duplicate", C_DUPLICATE, "records unsorted or duplicate" },
};

static void amdx_bp_corrupt_desc(const struct amdx_bp_corrupt_case *c,
				 char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(amdx_bp_corrupt, amdx_bp_corrupt_cases,
		  amdx_bp_corrupt_desc);

static void corruption_is_rejected_and_nothing_written(struct kunit *test)
{
	const struct amdx_bp_corrupt_case *c = test->param_value;
	struct amdx_badpage_record out[4];
	const char *why = NULL;
	size_t len;
	u8 *b = encode(test, three, 3, &len);
	u32 n = 42;

	switch (c->kind) {
	case C_SHORT_HEADER:
		len = 19;
		break;
	case C_MAGIC:
		b[0] ^= 1;
		reseal(b, len);
		break;
	case C_VERSION:
		put_unaligned_le32(2, b + 4);
		reseal(b, len);
		break;
	case C_RECORD_SIZE:
		put_unaligned_le32(32, b + 12);
		reseal(b, len);
		break;
	case C_COUNT_HUGE:
		put_unaligned_le32(AMDX_BADPAGE_MAX_RECORDS + 1, b + 8);
		reseal(b, len);
		break;
	case C_COUNT_HIGH:
		put_unaligned_le32(4, b + 8);
		reseal(b, len);
		break;
	case C_COUNT_LOW:
		put_unaligned_le32(2, b + 8);
		reseal(b, len);
		break;
	case C_TRUNCATED:
		len -= 1;
		break;
	case C_CHECKSUM:
		b[16] ^= 0x80;
		break;
	case C_RECORD_BIT:
		b[20 + 24 + 3] ^= 0x04;
		break;
	case C_FLAGS:
		put_unaligned_le16(1, b + 20 + 22);
		reseal(b, len);
		break;
	case C_CAUSE_ZERO:
		put_unaligned_le16(0, b + 20 + 24 + 20);
		reseal(b, len);
		break;
	case C_CAUSE_HIGH:
		put_unaligned_le16(AMDX_BADPAGE_CAUSE_IMPORT + 1, b + 20 + 20);
		reseal(b, len);
		break;
	case C_UNSORTED:
		put_unaligned_le64(0x300000, b + 20);
		reseal(b, len);
		break;
	case C_DUPLICATE:
		put_unaligned_le64(0x200000, b + 20 + 48);
		reseal(b, len);
		break;
	}

	memset(out, 0x5a, sizeof(out));
	KUNIT_EXPECT_EQ(test, amdx_badpage_decode(b, len, out, 4, &n, &why),
			-EBADMSG);
	KUNIT_EXPECT_STREQ(test, why, c->why);
	KUNIT_EXPECT_EQ(test, n, 0);
	KUNIT_EXPECT_EQ(test, out[0].address, 0x5a5a5a5a5a5a5a5aULL);
	KUNIT_EXPECT_EQ(test, out[3].cause, 0x5a5a);
}

static void find_locates_and_gives_insertion_point(struct kunit *test)
{
	u32 pos = 99;

	KUNIT_EXPECT_EQ(test, amdx_badpage_find(three, 3, 0x200000, &pos), 0);
	KUNIT_EXPECT_EQ(test, pos, 1);
	KUNIT_EXPECT_EQ(test, amdx_badpage_find(three, 3, 0, &pos), -ENOENT);
	KUNIT_EXPECT_EQ(test, pos, 0);
	KUNIT_EXPECT_EQ(test, amdx_badpage_find(three, 3, 0x2000, &pos),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, pos, 1);
	KUNIT_EXPECT_EQ(test, amdx_badpage_find(three, 3, ~0ULL, &pos),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, pos, 3);
	KUNIT_EXPECT_EQ(test, amdx_badpage_find(NULL, 0, 5, &pos), -ENOENT);
	KUNIT_EXPECT_EQ(test, pos, 0);
}

/*
 * Merging new records into a table gives what inserting them one by one
 * gives: sorted, every record kept, whichever side each one comes from.
 */
static void merge_keeps_the_table_sorted(struct kunit *test)
{
	static const u64 old_pages[] = { 3, 7, 8, 20 };
	static const u64 new_pages[] = { 0, 5, 9, 10, 30 };
	static const u64 want[] = { 0, 3, 5, 7, 8, 9, 10, 20, 30 };
	struct amdx_badpage_record table[ARRAY_SIZE(want)] = {};
	struct amdx_badpage_record add[ARRAY_SIZE(new_pages)] = {};
	u32 i, n;

	for (i = 0; i < ARRAY_SIZE(old_pages); i++) {
		table[i].address = old_pages[i] << 12;
		table[i].time = 100 + i;
	}
	for (i = 0; i < ARRAY_SIZE(new_pages); i++) {
		add[i].address = new_pages[i] << 12;
		add[i].time = 200 + i;
	}
	/* nothing to add, then into an empty table */
	KUNIT_EXPECT_EQ(test, amdx_badpage_merge(table, 4, add, 0), 4);
	KUNIT_EXPECT_EQ(test, table[3].address, 20 << 12);

	n = amdx_badpage_merge(table, ARRAY_SIZE(old_pages), add,
			       ARRAY_SIZE(new_pages));
	KUNIT_ASSERT_EQ(test, n, ARRAY_SIZE(want));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, table[i].address, want[i] << 12,
				    "record %u", i);
	/* each record moved whole */
	KUNIT_EXPECT_EQ(test, table[0].time, 200);
	KUNIT_EXPECT_EQ(test, table[1].time, 100);
	KUNIT_EXPECT_EQ(test, table[8].time, 204);

	memset(table, 0, sizeof(table));
	KUNIT_EXPECT_EQ(test, amdx_badpage_merge(table, 0, add, 2), 2);
	KUNIT_EXPECT_EQ(test, table[0].address, 0);
	KUNIT_EXPECT_EQ(test, table[1].address, 5 << 12);
}

static struct kunit_case amdx_badpage_cases[] = {
	KUNIT_CASE(layout_is_little_endian_and_packed),
	KUNIT_CASE(checksum_is_crc32_with_field_zero),
	KUNIT_CASE(empty_table_is_a_header),
	KUNIT_CASE(round_trip_keeps_every_field),
	KUNIT_CASE(round_trip_full_table),
	KUNIT_CASE(encode_needs_room),
	KUNIT_CASE(decode_reports_count_when_output_too_small),
	KUNIT_CASE_PARAM(corruption_is_rejected_and_nothing_written,
			 amdx_bp_corrupt_gen_params),
	KUNIT_CASE(find_locates_and_gives_insertion_point),
	KUNIT_CASE(merge_keeps_the_table_sorted),
	{}
};

static struct kunit_suite amdx_badpage_suite = {
	.name = "amdx_badpage",
	.test_cases = amdx_badpage_cases,
};

kunit_test_suite(amdx_badpage_suite);
