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
