/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kselftest_harness.h for the amdx suites, with its per-test alarm turned
 * into a hang detector.
 *
 * The harness kills a test that runs longer than its timeout (30 s unless
 * TEST_F_TIMEOUT() names another) and fails it: a verdict on how fast the
 * host is.  The suites run under TCG on 2 shared cores, where a test of a
 * few seconds on a quiet host took four times as long beside other work
 * (sim.concurrent_create_remove reached its 240 s at a load of 11).  So
 * every test here may take at least AMDX_TEST_HANG_S, longer where it
 * asks; a test silent for longer than that is a hang, reported by the
 * harness with the test's name before guest-init.sh's own stall limit
 * (amdx.timeout, 480 s of silence) would kill the whole suite.  Bounds a
 * test proves (an operation over a huge range is quick) are its own
 * assertions, with their margins, not the harness's.
 */
#ifndef _AMDX_HARNESS_H_
#define _AMDX_HARNESS_H_

#include "kselftest_harness.h"

#define AMDX_TEST_HANG_S	450

#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT	AMDX_TEST_HANG_S

#undef TEST_F_TIMEOUT
#define TEST_F_TIMEOUT(fixture_name, test_name, timeout)		\
	__TEST_F_IMPL(fixture_name, test_name, -1,			\
		      (timeout) > AMDX_TEST_HANG_S ? (timeout) :	\
						     AMDX_TEST_HANG_S)

#endif /* _AMDX_HARNESS_H_ */
