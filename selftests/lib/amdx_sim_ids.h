/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Simulated device ids: each suite owns a block of amdx_sim_ids.def (the
 * one place an id is chosen; selftests/Makefile checks that no two blocks
 * overlap).  AMDX_SIM_FIRST_<block> and AMDX_SIM_COUNT_<block>; C suites
 * (amdx_selftest.h) and the fuzzer include this header.
 */
#ifndef _AMDX_SIM_IDS_H_
#define _AMDX_SIM_IDS_H_

enum {
#define AMDX_SIM_IDS(block, first, count) \
	AMDX_SIM_FIRST_##block = (first), AMDX_SIM_COUNT_##block = (count),
#include "amdx_sim_ids.def"
#undef AMDX_SIM_IDS
};

/* 0 when @e is false; a build error otherwise (the kernel's macro). */
#define AMDX_BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int:(-!!(e)); })))

/*
 * Id @n (a constant) of @block's ids: a constant expression, and a build
 * error when @n is past the block's end.
 */
#define AMDX_SIM_ID(block, n) \
	(AMDX_SIM_FIRST_##block + (n) + \
	 AMDX_BUILD_BUG_ON_ZERO((n) >= AMDX_SIM_COUNT_##block))

/* An id of @block chosen at run time from any number @n (a hash, a pid). */
#define AMDX_SIM_ID_MOD(block, n) \
	(AMDX_SIM_FIRST_##block + (unsigned int)(n) % AMDX_SIM_COUNT_##block)

#endif /* _AMDX_SIM_IDS_H_ */
