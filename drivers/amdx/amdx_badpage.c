// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: bad-page table codec
 *
 * The persistent record of retired VRAM pages, modelled on amdgpu's EEPROM
 * table: a 20-byte header and 24-byte records, little-endian, no padding::
 *
 *    0       4         8       12            16         20
 *    | magic | version | count | record_size | checksum | records ...
 *
 *    record: 0 address (u64) | 8 time (u64) | 16 partition (u32)
 *            | 20 cause (u16) | 22 flags (u16)
 *
 * The checksum is CRC32 (IEEE 802.3, crc32_le(~0, ...) ^ ~0) over the
 * header with the checksum field zero, followed by the records.  Records
 * are sorted by address, one per page.
 *
 * Decoding checks everything before it writes anything and rejects with
 * -EBADMSG and a sentence saying what is wrong: a table is applied whole
 * or not at all.  Whether the addresses fit a device is the caller's
 * business.
 */
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <amdx/amdx_badpage.h>
#include <amdx/amdx_compat.h>

#include "amdx_kunit.h"

static_assert(sizeof(struct amdx_badpage_header) == AMDX_BADPAGE_HEADER_SIZE);
static_assert(sizeof(struct amdx_badpage_record) == AMDX_BADPAGE_RECORD_SIZE);

#define HDR_MAGIC	0
#define HDR_VERSION	4
#define HDR_COUNT	8
#define HDR_RECSIZE	12
#define HDR_CHECKSUM	16

#define REC_ADDRESS	0
#define REC_TIME	8
#define REC_PARTITION	16
#define REC_CAUSE	20
#define REC_FLAGS	22

/**
 * amdx_badpage_size() - bytes of an encoded table
 * @count: records.
 *
 * Return: header plus @count records.
 */
size_t amdx_badpage_size(u32 count)
{
	return AMDX_BADPAGE_HEADER_SIZE +
	       (size_t)count * AMDX_BADPAGE_RECORD_SIZE;
}
EXPORT_SYMBOL_GPL(amdx_badpage_size);

/* CRC over @len bytes at @buf, the checksum field counted as zero. */
static u32 amdx_badpage_crc(const u8 *buf, size_t len)
{
	static const u8 zero[4];
	u32 crc = ~0U;

	crc = crc32_le(crc, buf, HDR_CHECKSUM);
	crc = crc32_le(crc, zero, sizeof(zero));
	crc = crc32_le(crc, buf + AMDX_BADPAGE_HEADER_SIZE,
		       len - AMDX_BADPAGE_HEADER_SIZE);
	return ~crc;
}

/**
 * amdx_badpage_encode() - write a table
 * @recs: records, sorted by address, unique.
 * @count: records, at most %AMDX_BADPAGE_MAX_RECORDS.
 * @buf: output.
 * @len: bytes at @buf, at least amdx_badpage_size(@count).
 *
 * Return: bytes written, -EINVAL for too many records, -ENOSPC when @len
 * is too small.
 */
int amdx_badpage_encode(const struct amdx_badpage_record *recs, u32 count,
			void *buf, size_t len)
{
	size_t size = amdx_badpage_size(count);
	u8 *p = buf;
	u32 i;

	if (count > AMDX_BADPAGE_MAX_RECORDS)
		return -EINVAL;
	if (len < size)
		return -ENOSPC;

	put_unaligned_le32(AMDX_BADPAGE_MAGIC, p + HDR_MAGIC);
	put_unaligned_le32(AMDX_BADPAGE_VERSION, p + HDR_VERSION);
	put_unaligned_le32(count, p + HDR_COUNT);
	put_unaligned_le32(AMDX_BADPAGE_RECORD_SIZE, p + HDR_RECSIZE);
	put_unaligned_le32(0, p + HDR_CHECKSUM);
	for (i = 0; i < count; i++) {
		u8 *r = p + amdx_badpage_size(i);

		put_unaligned_le64(recs[i].address, r + REC_ADDRESS);
		put_unaligned_le64(recs[i].time, r + REC_TIME);
		put_unaligned_le32(recs[i].partition, r + REC_PARTITION);
		put_unaligned_le16(recs[i].cause, r + REC_CAUSE);
		put_unaligned_le16(recs[i].flags, r + REC_FLAGS);
	}
	put_unaligned_le32(amdx_badpage_crc(p, size), p + HDR_CHECKSUM);
	return size;
}
EXPORT_SYMBOL_GPL(amdx_badpage_encode);

/* Fails with -EBADMSG and @msg as the reason. */
#define amdx_badpage_bad(why, msg) ({ *(why) = (msg); -EBADMSG; })

/**
 * amdx_badpage_decode() - check and read a table
 * @buf: the encoded table.
 * @len: its size in bytes; must be exactly the header plus its records.
 * @recs: output, written only when the whole table is valid.
 * @max: capacity of @recs.
 * @count: out: records in the table (also on -ENOSPC).
 * @why: out: on -EBADMSG, what is wrong with the table.
 *
 * Return: 0; -EBADMSG for a truncated or oversized buffer, a wrong magic,
 * version, record size, count or checksum, or a record with an unknown
 * cause, non-zero flags, or out of address order (unsorted or duplicate);
 * -ENOSPC when the valid header says more than @max records.
 */
int amdx_badpage_decode(const void *buf, size_t len,
			struct amdx_badpage_record *recs, u32 max,
			u32 *count, const char **why)
{
	const u8 *p = buf;
	u64 prev = 0;
	u32 n, i;

	*count = 0;
	if (len < AMDX_BADPAGE_HEADER_SIZE)
		return amdx_badpage_bad(why, "truncated: shorter than the header");
	if (get_unaligned_le32(p + HDR_MAGIC) != AMDX_BADPAGE_MAGIC)
		return amdx_badpage_bad(why, "bad magic");
	if (get_unaligned_le32(p + HDR_VERSION) != AMDX_BADPAGE_VERSION)
		return amdx_badpage_bad(why, "unsupported version");
	if (get_unaligned_le32(p + HDR_RECSIZE) != AMDX_BADPAGE_RECORD_SIZE)
		return amdx_badpage_bad(why, "bad record size");
	n = get_unaligned_le32(p + HDR_COUNT);
	if (n > AMDX_BADPAGE_MAX_RECORDS)
		return amdx_badpage_bad(why, "count above the table's capacity");
	if (len < amdx_badpage_size(n))
		return amdx_badpage_bad(why, "truncated: fewer records than count");
	if (len > amdx_badpage_size(n))
		return amdx_badpage_bad(why, "size larger than count records");
	if (get_unaligned_le32(p + HDR_CHECKSUM) != amdx_badpage_crc(p, len))
		return amdx_badpage_bad(why, "checksum mismatch");

	for (i = 0; i < n; i++) {
		const u8 *r = p + amdx_badpage_size(i);
		u64 addr = get_unaligned_le64(r + REC_ADDRESS);
		u16 cause = get_unaligned_le16(r + REC_CAUSE);

		if (get_unaligned_le16(r + REC_FLAGS))
			return amdx_badpage_bad(why, "record flags not zero");
		if (cause < AMDX_BADPAGE_CAUSE_CE ||
		    cause > AMDX_BADPAGE_CAUSE_IMPORT)
			return amdx_badpage_bad(why, "record with unknown cause");
		if (i && addr <= prev)
			return amdx_badpage_bad(why,
						"records unsorted or duplicate");
		prev = addr;
	}

	*count = n;
	if (n > max)
		return -ENOSPC;
	for (i = 0; i < n; i++) {
		const u8 *r = p + amdx_badpage_size(i);

		recs[i].address = get_unaligned_le64(r + REC_ADDRESS);
		recs[i].time = get_unaligned_le64(r + REC_TIME);
		recs[i].partition = get_unaligned_le32(r + REC_PARTITION);
		recs[i].cause = get_unaligned_le16(r + REC_CAUSE);
		recs[i].flags = 0;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_badpage_decode);

/**
 * amdx_badpage_find() - binary search of a sorted record array
 * @recs: records sorted by address.
 * @count: records.
 * @address: the page address.
 * @pos: out: its index, or where it would be inserted.
 *
 * Return: 0 when found, -ENOENT otherwise.
 */
int amdx_badpage_find(const struct amdx_badpage_record *recs, u32 count,
		      u64 address, u32 *pos)
{
	u32 lo = 0, hi = count;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (recs[mid].address < address)
			lo = mid + 1;
		else
			hi = mid;
	}
	*pos = lo;
	return lo < count && recs[lo].address == address ? 0 : -ENOENT;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_badpage_find);

/**
 * amdx_badpage_merge() - merge new records into a sorted table
 * @table: records sorted by address, with room for @count + @n.
 * @count: records in @table.
 * @add: @n records sorted by address, none of them in @table.
 * @n: records at @add; @add must not overlap @table.
 *
 * Merges from the end, in place: O(@count + @n), where inserting each
 * record on its own would move up to @count records every time.
 *
 * Return: the records in @table now, @count + @n.
 */
u32 amdx_badpage_merge(struct amdx_badpage_record *table, u32 count,
		       const struct amdx_badpage_record *add, u32 n)
{
	u32 i = count, j = n, k = count + n;

	while (j) {
		if (i && table[i - 1].address > add[j - 1].address)
			table[--k] = table[--i];
		else
			table[--k] = add[--j];
	}
	return count + n;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_badpage_merge);
