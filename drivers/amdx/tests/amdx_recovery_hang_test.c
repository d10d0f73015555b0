// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The provider's fault entries of the recovery state: amdx_device_hang(),
 * through which a provider's hang detection reports a hung queue, VF or
 * firmware, and amdx_device_reset_end() with an error, a device reset
 * that failed (reset_failed).  Each bad kind, partition and VF is refused
 * with -EINVAL and leaves nothing pending; a device being removed is
 * -ENODEV.  Registers amdx_kunit_fake.h's device (one partition, no
 * VFs, queue and device resets).
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/amdx.h>

#include <amdx/amdx_provider.h>

#include "amdx_core.h"
#include "amdx_kunit_fake.h"
#include "amdx_ras_types.h"

static int amdx_hang_fake_queue_reset(struct amdx_device *adev, u32 part,
				      bool pipe)
{
	return 0;
}

static int amdx_hang_fake_device_reset(struct amdx_device *adev)
{
	return 0;
}

static const struct amdx_provider_ops amdx_hang_fake_ops = {
	.get_state = amdx_kunit_get_state,
	.queue_reset = amdx_hang_fake_queue_reset,
	.device_reset = amdx_hang_fake_device_reset,
};

static struct amdx_device *amdx_hang_fake_new(struct kunit *test)
{
	struct amdx_device_desc desc = amdx_kunit_desc("0000:ed:00.0",
						       "KUNITHANG1");

	return amdx_kunit_register(test, &desc, &amdx_hang_fake_ops, NULL);
}

/* Whether any target of @adev has an action. */
static bool amdx_hang_any_pending(struct amdx_device *adev)
{
	struct amdx_recovery_state *rs = &adev->ras->recovery;
	u32 i;

	if (rs->dev.action)
		return true;
	for (i = 0; i < AMDX_MAX_PARTITIONS; i++)
		if (rs->parts[i].action)
			return true;
	for (i = 0; i < AMDX_MAX_VFS; i++)
		if (rs->vfs[i].action)
			return true;
	return false;
}

/*
 * Every report that is no hang, or whose partition or VF does not fit the
 * kind or the device: -EINVAL, nothing pending.
 */
static void amdx_recovery_hang_bad_reports_are_einval(struct kunit *test)
{
	static const struct {
		u32 kind, partition, vf;
		const char *what;
	} bad[] = {
		{ AMDX_FAULT_ENGINE_UE, 0, AMDX_VF_NONE, "a RAS fault" },
		{ AMDX_FAULT_RESET_FAILED, AMDX_RAS_PARTITION_ALL,
		  AMDX_VF_NONE, "reset_failed" },
		{ AMDX_FAULT_BOARD, AMDX_RAS_PARTITION_ALL, AMDX_VF_NONE,
		  "board" },
		{ AMDX_FAULT_COUNT, 0, AMDX_VF_NONE, "an unknown kind" },
		{ U32_MAX, 0, AMDX_VF_NONE, "kind U32_MAX" },
		{ AMDX_FAULT_QUEUE_HANG, AMDX_RAS_PARTITION_ALL, AMDX_VF_NONE,
		  "a queue hang without a partition" },
		{ AMDX_FAULT_QUEUE_HANG, AMDX_MAX_PARTITIONS, AMDX_VF_NONE,
		  "partition past the uapi's" },
		{ AMDX_FAULT_QUEUE_HANG, 1, AMDX_VF_NONE,
		  "a partition the device lacks" },
		{ AMDX_FAULT_QUEUE_HANG, 0, 0, "a queue hang with a VF" },
		{ AMDX_FAULT_VF_HANG, AMDX_RAS_PARTITION_ALL, AMDX_VF_NONE,
		  "a VF hang without a VF" },
		{ AMDX_FAULT_VF_HANG, AMDX_RAS_PARTITION_ALL, AMDX_MAX_VFS,
		  "VF past the uapi's" },
		{ AMDX_FAULT_VF_HANG, AMDX_RAS_PARTITION_ALL, 0,
		  "a VF the device lacks" },
		{ AMDX_FAULT_VF_HANG, 0, 0, "a VF hang with a partition" },
		{ AMDX_FAULT_FIRMWARE, 0, AMDX_VF_NONE,
		  "firmware on a partition" },
		{ AMDX_FAULT_FIRMWARE, AMDX_RAS_PARTITION_ALL, 0,
		  "firmware on a VF" },
	};
	struct amdx_device *adev = amdx_hang_fake_new(test);
	u32 i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test,
				    amdx_device_hang(adev, bad[i].kind,
						     bad[i].partition,
						     bad[i].vf),
				    -EINVAL, "%s", bad[i].what);
		KUNIT_EXPECT_FALSE_MSG(test, amdx_hang_any_pending(adev),
				       "%s left an action", bad[i].what);
	}
}

/* Each hang sets its target's action, with the hang as its fault. */
static void amdx_recovery_hang_sets_the_targets_action(struct kunit *test)
{
	struct amdx_device *adev = amdx_hang_fake_new(test);
	struct amdx_recovery_state *rs = &adev->ras->recovery;

	KUNIT_ASSERT_EQ(test, amdx_device_hang(adev, AMDX_FAULT_QUEUE_HANG, 0,
					       AMDX_VF_NONE), 0);
	KUNIT_EXPECT_EQ(test, rs->parts[0].action, AMDX_RECOVER_QUEUE);
	KUNIT_EXPECT_EQ(test, rs->parts[0].fault, AMDX_FAULT_QUEUE_HANG);
	KUNIT_EXPECT_EQ(test, rs->parts[0].state, AMDX_RECOVERY_STATE_PENDING);
	KUNIT_EXPECT_EQ(test, rs->dev.action, AMDX_RECOVER_NONE);

	KUNIT_ASSERT_EQ(test, amdx_device_hang(adev, AMDX_FAULT_FIRMWARE,
					       AMDX_RAS_PARTITION_ALL,
					       AMDX_VF_NONE), 0);
	KUNIT_EXPECT_EQ(test, rs->dev.action, AMDX_RECOVER_DEVICE);
	KUNIT_EXPECT_EQ(test, rs->dev.fault, AMDX_FAULT_FIRMWARE);
	KUNIT_EXPECT_EQ(test, rs->dev.state, AMDX_RECOVERY_STATE_PENDING);
}

/* A device being removed takes no more reports. */
static void amdx_recovery_hang_after_removal_is_enodev(struct kunit *test)
{
	struct amdx_device *adev = amdx_hang_fake_new(test);
	struct amdx_device *held = amdx_device_get(amdx_device_id(adev));

	KUNIT_ASSERT_NOT_NULL(test, held);
	amdx_kunit_unregister(test, adev);
	KUNIT_EXPECT_EQ(test, amdx_device_hang(held, AMDX_FAULT_FIRMWARE,
					       AMDX_RAS_PARTITION_ALL,
					       AMDX_VF_NONE), -ENODEV);
	amdx_device_put(held);
}

/* A node reboot pending on @adev itself, for reset_failed. */
static void amdx_hang_expect_node(struct kunit *test, struct amdx_device *adev)
{
	struct amdx_recovery_slot *dev = &adev->ras->recovery.dev;

	KUNIT_EXPECT_EQ(test, dev->action, AMDX_RECOVER_NODE);
	KUNIT_EXPECT_EQ(test, dev->fault, AMDX_FAULT_RESET_FAILED);
	KUNIT_EXPECT_EQ(test, dev->state, AMDX_RECOVERY_STATE_PENDING);
}

/*
 * A device reset of the driver's own that failed is reset_failed: a node
 * reboot pending on the device, whether a device reset was pending (it
 * failed: the reboot replaces it) or not; one that passed sets nothing.
 */
static void amdx_recovery_hang_failed_reset_is_reset_failed(struct kunit *test)
{
	struct amdx_device *adev = amdx_hang_fake_new(test);

	amdx_device_reset_begin(adev);
	amdx_device_reset_end(adev, 0);
	KUNIT_EXPECT_FALSE(test, amdx_hang_any_pending(adev));

	amdx_device_reset_begin(adev);
	amdx_device_reset_end(adev, -EIO);
	amdx_hang_expect_node(test, adev);
	amdx_kunit_unregister(test, adev);

	adev = amdx_hang_fake_new(test);
	KUNIT_ASSERT_EQ(test, amdx_device_hang(adev, AMDX_FAULT_FIRMWARE,
					       AMDX_RAS_PARTITION_ALL,
					       AMDX_VF_NONE), 0);
	KUNIT_ASSERT_EQ(test, adev->ras->recovery.dev.action,
			AMDX_RECOVER_DEVICE);
	amdx_device_reset_begin(adev);
	amdx_device_reset_end(adev, -EIO);
	amdx_hang_expect_node(test, adev);
}

static struct kunit_case amdx_recovery_hang_cases[] = {
	KUNIT_CASE(amdx_recovery_hang_bad_reports_are_einval),
	KUNIT_CASE(amdx_recovery_hang_sets_the_targets_action),
	KUNIT_CASE(amdx_recovery_hang_after_removal_is_enodev),
	KUNIT_CASE(amdx_recovery_hang_failed_reset_is_reset_failed),
	{}
};

static struct kunit_suite amdx_recovery_hang_suite = {
	.name = "amdx_recovery_hang",
	.test_cases = amdx_recovery_hang_cases,
};

kunit_test_suite(amdx_recovery_hang_suite);
