// SPDX-License-Identifier: GPL-2.0
/*
 * HAVE_KUNIT_VISIBILITY: include/kunit/visibility.h with VISIBLE_IF_KUNIT and
 * EXPORT_SYMBOL_IF_KUNIT, commit 9c988fae6f6a ("kunit: add macro to allow
 * conditionally exposing static symbols to tests"), v6.2.
 */
#include <linux/module.h>
#include <kunit/visibility.h>

VISIBLE_IF_KUNIT int amdx_probe_fn(void);
VISIBLE_IF_KUNIT int amdx_probe_fn(void)
{
	return 0;
}
MODULE_LICENSE("GPL");
