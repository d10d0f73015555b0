/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kselftest_harness.h for the amdx suites, with its per-test alarm turned
 * into a hang detector.
 *
 * The harness kills a test that runs longer than its timeout (30 s unless
 * TEST_F_TIMEOUT() names another) and fails it: a verdict on how fast the
 * host is.  The suites run under TCG on 2 shared cores, where a test of a
 * few seconds on a quiet host took four times as long beside other work
 * (sim.concurrent_create_remove reached its 240 s at a load of 11, and
 * 450 s at a load of 20 in make check-loaded beside three other jobs).
 * A hang is silence, not a long run: guest-init.sh kills a suite that
 * prints nothing for amdx.timeout seconds (480), and a test that may run
 * long prints its progress (AMDX_PROGRESS()).  The harness's alarm is only
 * the backstop behind that, AMDX_TEST_HANG_S or longer where a test asks.
 * Bounds a test proves (an operation over a huge range is quick) are its
 * own assertions, with their margins, not the harness's.
 */
#ifndef _AMDX_HARNESS_H_
#define _AMDX_HARNESS_H_

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "kselftest.h"

/*
 * Each test's time, after its result: "# time: N ms fixture.test".  The
 * harness prints " RUN  name ..." before a test and "  OK  name" (or FAIL,
 * SKIP) after it, both through ksft_print_msg() and from the parent, in
 * 6.1 and 6.12 alike; the time between the two is the test's, fixture
 * setup and teardown included.  collect.py lists the slowest (where a
 * VM's time goes, Documentation/testing.rst "Time"); no verdict reads it.
 */
static struct timespec amdx_test_start;

/* 6.1's kselftest.h has no __printf() */
#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif

static inline __printf(1, 2) void amdx_ksft_print_msg(const char *msg, ...)
{
	int saved_errno = errno;
	struct timespec now;
	char line[256];
	const char *name;
	va_list args, copy;
	long ms;

	va_start(args, msg);
	va_copy(copy, args);
	vsnprintf(line, sizeof(line), msg, copy);
	va_end(copy);
	printf("# ");
	errno = saved_errno;
	vprintf(msg, args);
	va_end(args);

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!strncmp(line, " RUN ", 5)) {
		amdx_test_start = now;
	} else if (!strncmp(msg, "         %4s  ", 14)) {
		ms = (now.tv_sec - amdx_test_start.tv_sec) * 1000 +
		     (now.tv_nsec - amdx_test_start.tv_nsec) / 1000000;
		name = line + strspn(line, " ");
		name += strcspn(name, " ");
		name += strspn(name, " ");
		printf("# time: %ld ms %.*s\n", ms, (int)strcspn(name, "\n"),
		       name);
	}
	fflush(stdout);
	errno = saved_errno;
}

#define ksft_print_msg amdx_ksft_print_msg

#include "kselftest_harness.h"

#define AMDX_TEST_HANG_S	3600

#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT	AMDX_TEST_HANG_S

#undef TEST_F_TIMEOUT
#define TEST_F_TIMEOUT(fixture_name, test_name, timeout)		\
	__TEST_F_IMPL(fixture_name, test_name, -1,			\
		      (timeout) > AMDX_TEST_HANG_S ? (timeout) :	\
						     AMDX_TEST_HANG_S)

/*
 * A progress line on stderr, which is not buffered: guest-init.sh sees
 * output, so a test that is slow on a loaded host is not taken for a
 * hang.  Safe from any thread or child.
 */
#define AMDX_PROGRESS(fmt, ...) \
	fprintf(stderr, "# progress: " fmt "\n", ##__VA_ARGS__)

#endif /* _AMDX_HARNESS_H_ */
