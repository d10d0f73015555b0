/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Kernel API differences between the kernels amdx builds on (6.1, 6.12).
 *
 * Each #ifdef below tests a HAVE_* of generated/amdx_probes.h, defined when
 * scripts/probes/<name>.c compiles against the target kernel; the probe's
 * comment names the kernel commit it detects, and
 * Documentation/testing.rst lists on which kernels each one is true.
 * Feature code includes this header and uses the amdx_* spelling, or the
 * newer kernel's name where an API was only renamed; it never compares
 * LINUX_VERSION_CODE.
 */
#ifndef _AMDX_COMPAT_H_
#define _AMDX_COMPAT_H_

#include <linux/mm.h>
#include <amdx_probes.h>

/* get_unaligned_le32() and friends. */
#ifdef HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * The bus a bus attribute's show() and store() are handed:
 * static ssize_t foo_store(amdx_bus_attr_bus *bus, const char *buf, ...).
 */
#ifdef HAVE_BUS_ATTR_CONST
#define amdx_bus_attr_bus const struct bus_type
#else
#define amdx_bus_attr_bus struct bus_type
#endif

/* In TP_fast_assign(): copy @src, the string __string(@dst, @src) sized. */
#ifdef HAVE_ASSIGN_STR_ONE_ARG
#define amdx_assign_str(dst, src) __assign_str(dst)
#else
#define amdx_assign_str(dst, src) __assign_str(dst, src)
#endif

/* KUnit: fail the test and abort it (KUNIT_ASSERT_FAILURE() before 6.11). */
#ifndef HAVE_KUNIT_FAIL_AND_ABORT
#define KUNIT_FAIL_AND_ABORT(test, fmt, ...) \
	KUNIT_ASSERT_FAILURE(test, fmt, ##__VA_ARGS__)
#endif

#endif /* _AMDX_COMPAT_H_ */
