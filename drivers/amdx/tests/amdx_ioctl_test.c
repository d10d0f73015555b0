// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The ioctl dispatcher and argument validation, driven through kernel
 * memory with copy_struct_from_user() semantics.
 */
#include <kunit/test.h>
#include <linux/ioctl.h>
#include <linux/string.h>
#include <linux/amdx.h>

#include "amdx_core.h"
#include "amdx_chardev.h"
#include "amdx_ioctl.h"
#include "amdx_query.h"
#include "amdx_query_size.h"

static int amdx_test_in(void *dst, size_t ksize, const void *src, size_t usize)
{
	size_t n = min(ksize, usize);

	if (usize > ksize && memchr_inv(src + ksize, 0, usize - ksize))
		return -E2BIG;
	memcpy(dst, src, n);
	memset(dst + n, 0, ksize - n);
	return 0;
}

static int amdx_test_out(void *dst, const void *src, size_t size)
{
	memcpy(dst, src, size);
	return 0;
}

static const struct amdx_uaccess amdx_test_ua = {
	.in = amdx_test_in,
	.out = amdx_test_out,
};

/* A v2 argument whose v1 ended after @b. */
struct amdx_test_arg {
	u64 a;
	u64 b;
	u64 c_added_in_v2;
	u64 seen_c;
};

static int amdx_test_handler(struct amdx_file *file, void *data)
{
	struct amdx_test_arg *arg = data;

	arg->seen_c = arg->c_added_in_v2;
	arg->a = arg->a + 1;
	return arg->b == 99 ? -EIO : 0;
}

#define AMDX_TEST_IOC _IOWR(AMDX_IOCTL_BASE, 0x7f, struct amdx_test_arg)

static const struct amdx_ioctl_desc amdx_test_table[] = {
	{
		.cmd = AMDX_TEST_IOC,
		.min_size = offsetofend(struct amdx_test_arg, b),
		.flags = AMDX_IOCTL_F_CONTROL,
		.func = amdx_test_handler,
		.name = "TEST",
	},
};

static long amdx_test_call(unsigned int flags, unsigned int cmd, void *arg)
{
	struct amdx_file file = {};

	return amdx_ioctl_dispatch(amdx_test_table,
				   ARRAY_SIZE(amdx_test_table), &file, flags,
				   cmd, arg, &amdx_test_ua);
}

static unsigned int amdx_test_cmd(size_t size)
{
	return _IOC(_IOC_READ | _IOC_WRITE, AMDX_IOCTL_BASE, 0x7f, size);
}

static void amdx_ioctl_unknown_nr_is_enotty(struct kunit *test)
{
	u64 buf[8] = {};

	KUNIT_EXPECT_EQ(test, amdx_test_call(AMDX_IOCTL_F_CONTROL,
					     _IOWR(AMDX_IOCTL_BASE, 0x7e, u64),
					     buf), -ENOTTY);
}

static void amdx_ioctl_foreign_type_is_enotty(struct kunit *test)
{
	u64 buf[8] = {};

	KUNIT_EXPECT_EQ(test, amdx_test_call(AMDX_IOCTL_F_CONTROL,
					     _IOWR('d', 0x7f,
						   struct amdx_test_arg),
					     buf), -ENOTTY);
}

static void amdx_ioctl_wrong_direction_is_enotty(struct kunit *test)
{
	u64 buf[8] = {};

	KUNIT_EXPECT_EQ(test, amdx_test_call(AMDX_IOCTL_F_CONTROL,
					     _IOW(AMDX_IOCTL_BASE, 0x7f,
						  struct amdx_test_arg),
					     buf), -ENOTTY);
}

static void amdx_ioctl_wrong_fd_kind_is_enotty(struct kunit *test)
{
	struct amdx_test_arg arg = {};

	KUNIT_EXPECT_EQ(test, amdx_test_call(AMDX_IOCTL_F_DEVICE,
					     AMDX_TEST_IOC, &arg), -ENOTTY);
}

/* Indexed like the real table: entry n holds command number n. */
static const struct amdx_ioctl_desc amdx_test_indexed[] = {
	[1] = {
		.cmd = _IOWR(AMDX_IOCTL_BASE, 1, u64),
		.flags = AMDX_IOCTL_F_CONTROL,
		.func = amdx_test_handler,
		.name = "ONE",
	},
	[3] = {
		.cmd = _IOW(AMDX_IOCTL_BASE, 3, u64),
		.flags = AMDX_IOCTL_F_CONTROL,
		.func = amdx_test_handler,
		.name = "THREE",
	},
};

static void amdx_ioctl_indexed_table_holes_match_nothing(struct kunit *test)
{
	const struct amdx_ioctl_desc *t = amdx_test_indexed;
	size_t n = ARRAY_SIZE(amdx_test_indexed);

	KUNIT_EXPECT_PTR_EQ(test, amdx_ioctl_find(t, n,
						  _IOWR(AMDX_IOCTL_BASE, 1, u32)),
			    &t[1]);
	KUNIT_EXPECT_PTR_EQ(test, amdx_ioctl_find(t, n,
						  _IOW(AMDX_IOCTL_BASE, 3, u64)),
			    &t[3]);
	/* Holes (cmd 0), even for a command that is all zero but its nr. */
	KUNIT_EXPECT_NULL(test, amdx_ioctl_find(t, n, _IO(0, 0)));
	KUNIT_EXPECT_NULL(test, amdx_ioctl_find(t, n, _IO(0, 2)));
	KUNIT_EXPECT_NULL(test, amdx_ioctl_find(t, n, 2));
	/* Right number, wrong direction; and beyond the table. */
	KUNIT_EXPECT_NULL(test, amdx_ioctl_find(t, n,
						_IOR(AMDX_IOCTL_BASE, 3, u64)));
	KUNIT_EXPECT_NULL(test, amdx_ioctl_find(t, n,
						_IOWR(AMDX_IOCTL_BASE, 9, u64)));
}

static void amdx_ioctl_below_min_size_is_einval(struct kunit *test)
{
	u64 buf[8] = {};

	KUNIT_EXPECT_EQ(test, amdx_test_call(AMDX_IOCTL_F_CONTROL,
					     amdx_test_cmd(8), buf), -EINVAL);
}

static void amdx_ioctl_older_struct_is_zero_extended(struct kunit *test)
{
	/* A v1 caller: 16 bytes, followed by garbage the kernel must not read. */
	u64 buf[4] = { 41, 0, 0xdead, 0xbeef };

	KUNIT_ASSERT_EQ(test, amdx_test_call(AMDX_IOCTL_F_CONTROL,
					     amdx_test_cmd(16), buf), 0);
	KUNIT_EXPECT_EQ(test, buf[0], 42);
	/* Output truncated to the caller's 16 bytes. */
	KUNIT_EXPECT_EQ(test, buf[2], 0xdead);
	KUNIT_EXPECT_EQ(test, buf[3], 0xbeef);
}

static void amdx_ioctl_current_struct_round_trips(struct kunit *test)
{
	struct amdx_test_arg arg = { .a = 1, .c_added_in_v2 = 7 };

	KUNIT_ASSERT_EQ(test, amdx_test_call(AMDX_IOCTL_F_CONTROL,
					     AMDX_TEST_IOC, &arg), 0);
	KUNIT_EXPECT_EQ(test, arg.a, 2);
	KUNIT_EXPECT_EQ(test, arg.seen_c, 7);
}

static void amdx_ioctl_newer_struct_with_zero_tail_ok(struct kunit *test)
{
	u64 buf[6] = { 1, 0, 5, 0, 0, 0 };

	KUNIT_ASSERT_EQ(test, amdx_test_call(AMDX_IOCTL_F_CONTROL,
					     amdx_test_cmd(sizeof(buf)), buf),
			0);
	KUNIT_EXPECT_EQ(test, buf[0], 2);
	KUNIT_EXPECT_EQ(test, buf[3], 5);
	KUNIT_EXPECT_EQ(test, buf[5], 0);
}

static void amdx_ioctl_newer_struct_with_nonzero_tail_e2big(struct kunit *test)
{
	u64 buf[6] = { 1, 0, 0, 0, 0, 1 };

	KUNIT_EXPECT_EQ(test, amdx_test_call(AMDX_IOCTL_F_CONTROL,
					     amdx_test_cmd(sizeof(buf)), buf),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, buf[0], 1);
}

static void amdx_ioctl_handler_error_copies_nothing(struct kunit *test)
{
	struct amdx_test_arg arg = { .a = 1, .b = 99 };

	KUNIT_EXPECT_EQ(test, amdx_test_call(AMDX_IOCTL_F_CONTROL,
					     AMDX_TEST_IOC, &arg), -EIO);
	KUNIT_EXPECT_EQ(test, arg.a, 1);
}

static long amdx_test_query(struct amdx_query *q)
{
	struct amdx_file file = {};

	return amdx_ioctl_query(&file, q);
}

static void amdx_query_nonzero_flags_einval(struct kunit *test)
{
	struct amdx_query q = { .query = AMDX_QUERY_CAPS, .flags = 1 };

	KUNIT_EXPECT_EQ(test, amdx_test_query(&q), -EINVAL);
}

static void amdx_query_nonzero_reserved_einval(struct kunit *test)
{
	struct amdx_query q = { .query = AMDX_QUERY_CAPS };

	q.reserved[1] = 1;
	KUNIT_EXPECT_EQ(test, amdx_test_query(&q), -EINVAL);
}

static void amdx_query_unknown_query_einval(struct kunit *test)
{
	struct amdx_query q = { .query = 0x1234 };

	KUNIT_EXPECT_EQ(test, amdx_test_query(&q), -EINVAL);
}

static void amdx_query_caps_with_id_einval(struct kunit *test)
{
	struct amdx_query q = { .query = AMDX_QUERY_CAPS, .id = 3 };

	KUNIT_EXPECT_EQ(test, amdx_test_query(&q), -EINVAL);
}

static void amdx_query_size_zero_reports_size(struct kunit *test)
{
	struct amdx_query q = { .query = AMDX_QUERY_CAPS };

	KUNIT_ASSERT_EQ(test, amdx_test_query(&q), 0);
	KUNIT_EXPECT_EQ(test, q.size, sizeof(struct amdx_query_caps));

	q = (struct amdx_query){ .query = AMDX_QUERY_DEVICE_INFO };
	KUNIT_ASSERT_EQ(test, amdx_test_query(&q), 0);
	KUNIT_EXPECT_EQ(test, q.size, sizeof(struct amdx_device_info));
}

static void amdx_query_small_buffer_enospc_with_size(struct kunit *test)
{
	struct amdx_query q = { .query = AMDX_QUERY_CAPS, .size = 8 };

	KUNIT_EXPECT_EQ(test, amdx_test_query(&q), -ENOSPC);
	KUNIT_EXPECT_EQ(test, q.size, sizeof(struct amdx_query_caps));
}

static void amdx_query_caps_v1_sizes_are_current(struct kunit *test)
{
	/* Update the V1 constants only together with a uapi version bump. */
	KUNIT_EXPECT_EQ(test, sizeof(struct amdx_query_caps), 56);
	KUNIT_EXPECT_EQ(test, sizeof(struct amdx_device_info), 448);
}

static void amdx_query_unknown_device_enodev(struct kunit *test)
{
	struct amdx_query q = {
		.query = AMDX_QUERY_DEVICE_INFO,
		.size = sizeof(struct amdx_device_info),
		.id = 0x7fffffff,
	};

	KUNIT_EXPECT_EQ(test, amdx_test_query(&q), -ENODEV);
}

static void amdx_device_open_bad_vf_or_flags_einval(struct kunit *test)
{
	struct amdx_device_open args = { .vf = 1 };
	struct amdx_file file = {};

	KUNIT_EXPECT_EQ(test, PTR_ERR(amdx_ioctl_device_open(&file, &args)),
			-EINVAL);
	args = (struct amdx_device_open){ .flags = AMDX_DEVICE_OPEN_F_VF << 1 };
	KUNIT_EXPECT_EQ(test, PTR_ERR(amdx_ioctl_device_open(&file, &args)),
			-EINVAL);
}

/*
 * The two-call size protocol every query follows: size 0 asks, a buffer
 * below what is accepted is -ENOSPC with the size needed, a larger one
 * gets the result, a fixed-size result is cut to an older caller's first
 * version.
 */
static void amdx_query_fit_follows_the_two_call_protocol(struct kunit *test)
{
	u32 size = 0;

	KUNIT_EXPECT_EQ(test, amdx_query_fit(&size, 100, 100), 0);
	KUNIT_EXPECT_EQ(test, size, 100);
	size = 99;
	KUNIT_EXPECT_EQ(test, amdx_query_fit(&size, 100, 100), -ENOSPC);
	KUNIT_EXPECT_EQ(test, size, 100);
	size = 4096;
	KUNIT_EXPECT_EQ(test, amdx_query_fit(&size, 100, 100), 100);
	KUNIT_EXPECT_EQ(test, size, 4096);
	size = 64;
	KUNIT_EXPECT_EQ(test, amdx_query_fit(&size, 100, 48), 64);
	size = 47;
	KUNIT_EXPECT_EQ(test, amdx_query_fit(&size, 100, 48), -ENOSPC);
	KUNIT_EXPECT_EQ(test, size, 100);
}

static struct kunit_case amdx_ioctl_cases[] = {
	KUNIT_CASE(amdx_ioctl_unknown_nr_is_enotty),
	KUNIT_CASE(amdx_ioctl_foreign_type_is_enotty),
	KUNIT_CASE(amdx_ioctl_wrong_direction_is_enotty),
	KUNIT_CASE(amdx_ioctl_wrong_fd_kind_is_enotty),
	KUNIT_CASE(amdx_ioctl_indexed_table_holes_match_nothing),
	KUNIT_CASE(amdx_ioctl_below_min_size_is_einval),
	KUNIT_CASE(amdx_ioctl_older_struct_is_zero_extended),
	KUNIT_CASE(amdx_ioctl_current_struct_round_trips),
	KUNIT_CASE(amdx_ioctl_newer_struct_with_zero_tail_ok),
	KUNIT_CASE(amdx_ioctl_newer_struct_with_nonzero_tail_e2big),
	KUNIT_CASE(amdx_query_fit_follows_the_two_call_protocol),
	KUNIT_CASE(amdx_ioctl_handler_error_copies_nothing),
	KUNIT_CASE(amdx_query_nonzero_flags_einval),
	KUNIT_CASE(amdx_query_nonzero_reserved_einval),
	KUNIT_CASE(amdx_query_unknown_query_einval),
	KUNIT_CASE(amdx_query_caps_with_id_einval),
	KUNIT_CASE(amdx_query_size_zero_reports_size),
	KUNIT_CASE(amdx_query_small_buffer_enospc_with_size),
	KUNIT_CASE(amdx_query_caps_v1_sizes_are_current),
	KUNIT_CASE(amdx_query_unknown_device_enodev),
	KUNIT_CASE(amdx_device_open_bad_vf_or_flags_einval),
	{}
};

static struct kunit_suite amdx_ioctl_suite = {
	.name = "amdx_ioctl",
	.test_cases = amdx_ioctl_cases,
};

kunit_test_suite(amdx_ioctl_suite);
