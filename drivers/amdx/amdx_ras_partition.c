// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: RAS partition containment
 *
 * Steps 3 and 4 of the ladder: a UE in gfx or sdma attributed to one
 * compute partition quarantines that partition (no new work or
 * allocations), resets it alone through the partition manager
 * (amdx_partition_reset()) and restores it, while the other partitions
 * carry on.  At the policy's reset limit the partition is left offline
 * instead.  Every transition is an event; a partition bound to a VF that
 * was reset also tells the VF's subscribers::
 *
 *    ACTION_START(PARTITION_RESET)
 *    PARTITION_QUARANTINED
 *    [VF_RESET(vf, cause RAS, partition)]     reset done, VF bound
 *    PARTITION_RESTORED | PARTITION_OFFLINE
 *    ACTION_END(PARTITION_RESET, 0 | -errno, duration)
 *
 * Lock order (amdx_core.h's table): the RAS lock, then the partition lock
 * (taken inside the amdx_partition_*() calls); the partition manager never
 * calls into RAS.
 */
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/ktime.h>

#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_partition.h"
#include "amdx_partition_vf.h"
#include "amdx_ras_partition.h"

static void amdx_ras_part_event(struct amdx_device *adev, u32 kind, u32 part)
{
	struct amdx_event ev = { .kind = kind, .partition = part };

	amdx_event_emit(adev, &ev);
}

/**
 * amdx_ras_partition_contain() - quarantine, reset, restore a partition
 * @adev: the device; the caller holds its RAS lock.
 * @part: compute partition.
 * @offline: the partition reached its reset limit: leave it offline
 *	instead of resetting it.
 *
 * Return: 0 when the partition is back online (or, with @offline, was
 * taken offline as asked); -ENODEV when it was offline already; -EINVAL
 * for a partition the current mode lacks; the reset's error (the
 * partition is then offline).
 */
int amdx_ras_partition_contain(struct amdx_device *adev, u32 part,
			       bool offline)
{
	struct amdx_event ev = {
		.kind = AMDX_EVENT_ACTION_START,
		.partition = part,
		.data = { AMDX_ACTION_PARTITION_RESET },
	};
	u64 t0 = ktime_get_ns();
	u32 state;
	int ret;

	amdx_event_emit(adev, &ev);
	ret = amdx_partition_get_state(adev, part, &state);
	if (!ret && state == AMDX_PART_STATE_OFFLINE)
		ret = -ENODEV;
	if (!ret)
		ret = amdx_partition_set_state(adev, part,
					       AMDX_PART_STATE_QUARANTINED);
	if (!ret) {
		amdx_ras_part_event(adev, AMDX_EVENT_PARTITION_QUARANTINED, part);
		if (offline)
			ret = amdx_partition_set_state(adev, part,
						       AMDX_PART_STATE_OFFLINE);
		else
			ret = amdx_partition_reset(adev, part);
		if (!ret && !offline)
			amdx_partition_vf_reset_notify(adev, part);
		amdx_ras_part_event(adev, ret || offline ?
				    AMDX_EVENT_PARTITION_OFFLINE :
				    AMDX_EVENT_PARTITION_RESTORED, part);
		if (ret || offline)
			amdx_warn(adev, "partition %u offline after %s: %pe\n",
				  part,
				  offline ? "too many resets" : "a failed reset",
				  ERR_PTR(ret));
	}
	ev = (struct amdx_event) {
		.kind = AMDX_EVENT_ACTION_END,
		.partition = part,
		.address = ktime_get_ns() - t0,
		.data = { AMDX_ACTION_PARTITION_RESET, (u64)(s64)ret },
	};
	amdx_event_emit(adev, &ev);
	return ret;
}
