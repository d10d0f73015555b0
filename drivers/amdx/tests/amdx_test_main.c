// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 *
 * amdx_test.ko: the KUnit suites of amdx.  Each amdx_<area>_test.c
 * registers its own suite; this file carries the module metadata.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("KUnit tests for amdx");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
