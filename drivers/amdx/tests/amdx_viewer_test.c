// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 *
 * KUnit: who sees which process (amdx_viewer.c).
 */
#include <kunit/test.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/uidgid.h>

#include "amdx_viewer.h"

/* A reader in the initial namespace with @euid, privileged or not. */
static struct amdx_viewer amdx_test_viewer(u32 euid, bool admin)
{
	return (struct amdx_viewer){
		.ns = &init_pid_ns,
		.euid = KUIDT_INIT(euid),
		.admin = admin,
	};
}

static void amdx_viewer_admin_sees_every_uid(struct kunit *test)
{
	struct amdx_viewer v = amdx_test_viewer(0, true);
	struct amdx_subject who = {
		.pid = task_tgid(current), .euid = KUIDT_INIT(1234),
	};

	KUNIT_EXPECT_EQ(test, amdx_viewer_pid(&v, &who),
			task_tgid_nr(current));
}

static void amdx_viewer_same_euid_sees(struct kunit *test)
{
	struct amdx_viewer v = amdx_test_viewer(1000, false);
	struct amdx_subject who = {
		.pid = task_tgid(current), .euid = KUIDT_INIT(1000),
	};

	KUNIT_EXPECT_EQ(test, amdx_viewer_pid(&v, &who),
			task_tgid_nr(current));
}

static void amdx_viewer_other_euid_sees_zero(struct kunit *test)
{
	struct amdx_viewer v = amdx_test_viewer(1000, false);
	struct amdx_subject who = {
		.pid = task_tgid(current), .euid = KUIDT_INIT(0),
	};

	KUNIT_EXPECT_EQ(test, amdx_viewer_pid(&v, &who), 0);
}

static void amdx_viewer_no_pid_is_zero(struct kunit *test)
{
	struct amdx_viewer v = amdx_test_viewer(0, true);
	struct amdx_subject who = { .euid = KUIDT_INIT(0) };

	KUNIT_EXPECT_EQ(test, amdx_viewer_pid(&v, &who), 0);
}

/* The current task as a reader: its namespace and uid, and released. */
static void amdx_viewer_of_current(struct kunit *test)
{
	struct amdx_subject who;
	struct amdx_viewer v;

	amdx_viewer_init(&v);
	amdx_subject_current(&who);
	KUNIT_EXPECT_PTR_EQ(test, v.ns, task_active_pid_ns(current));
	KUNIT_EXPECT_TRUE(test, uid_eq(v.euid, who.euid));
	KUNIT_EXPECT_EQ(test, amdx_viewer_pid(&v, &who),
			task_tgid_vnr(current));
	amdx_viewer_fini(&v);
	KUNIT_EXPECT_PTR_EQ(test, v.ns, NULL);
}

static struct kunit_case amdx_viewer_cases[] = {
	KUNIT_CASE(amdx_viewer_admin_sees_every_uid),
	KUNIT_CASE(amdx_viewer_same_euid_sees),
	KUNIT_CASE(amdx_viewer_other_euid_sees_zero),
	KUNIT_CASE(amdx_viewer_no_pid_is_zero),
	KUNIT_CASE(amdx_viewer_of_current),
	{}
};

static struct kunit_suite amdx_viewer_suite = {
	.name = "amdx_viewer",
	.test_cases = amdx_viewer_cases,
};

kunit_test_suite(amdx_viewer_suite);
