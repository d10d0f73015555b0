// SPDX-License-Identifier: GPL-2.0
/*
 * amdx_lifetime_test.c's 200 create/migrate/remove cycles with two
 * threads faulting, in a binary of their own: they take most of the
 * guest's per-binary time limit.
 */
#define AMDX_LIFETIME_CYCLES
/* the helpers the other tests use */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "amdx_lifetime_test.c"
