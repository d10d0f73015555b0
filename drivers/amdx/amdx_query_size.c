// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: the two-call query protocol
 *
 * Every %AMDX_IOC_QUERY answers in two calls: with ``size`` 0 it reports
 * the size of the result; with a buffer at least that large it fills it.
 * A buffer below what the query accepts fails with -ENOSPC and reports
 * the size needed; fixed-size results accept a buffer down to their
 * first version's size and are cut to it (an older caller), results that
 * must fit whole accept nothing shorter.  The rule lives here, a leaf;
 * amdx_query_out() (amdx_device.c) applies it and copies.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/minmax.h>

#include "amdx_kunit.h"
#include "amdx_query_size.h"

/**
 * amdx_query_fit() - how much of a query result goes to the caller
 * @size: in: the caller's buffer size (&amdx_query.size), 0 to ask for
 *	the size; out: set to @len when nothing is to be copied.
 * @len: the result's size.
 * @min_len: the smallest buffer accepted: @len for results that must fit
 *	whole, the first version's size for fixed-size results.
 *
 * Return: the bytes to copy, min(@len, *@size) (the caller sets *@size
 * to them once copied); 0 when the caller asked for the size (*@size set
 * to @len); -ENOSPC for a buffer below @min_len (*@size set to @len).
 */
long amdx_query_fit(u32 *size, u32 len, u32 min_len)
{
	if (!*size) {
		*size = len;
		return 0;
	}
	if (*size < min_len) {
		*size = len;
		return -ENOSPC;
	}
	return min(len, *size);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_query_fit);
