// SPDX-License-Identifier: GPL-2.0
/*
 * amdx_lifetime_test.c's 80 create/migrate/remove cycles with two
 * threads faulting, in a binary of their own, so that check.sh can put
 * them in another shard than the rest of the lifetime cases.
 */
#define AMDX_LIFETIME_CYCLES
/* the helpers the other tests use */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "amdx_lifetime_test.c"
