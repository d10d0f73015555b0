// SPDX-License-Identifier: GPL-2.0
/*
 * HAVE_KUNIT_FAIL_AND_ABORT: KUNIT_ASSERT_FAILURE() is renamed
 * KUNIT_FAIL_AND_ABORT(), commit "kunit: Rename KUNIT_ASSERT_FAILURE to
 * KUNIT_FAIL_AND_ABORT for readability", v6.11.
 */
#include <linux/module.h>
#include <kunit/test.h>

void amdx_probe_fn(struct kunit *test);
void amdx_probe_fn(struct kunit *test)
{
	KUNIT_FAIL_AND_ABORT(test, "probe");
}
MODULE_LICENSE("GPL");
