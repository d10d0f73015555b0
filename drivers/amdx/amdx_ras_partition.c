// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: RAS partition containment
 *
 * Steps 3 and 4 of the ladder: a UE in gfx or sdma attributed to one
 * compute partition quarantines that partition, resets it and restores it
 * (or, at the policy's reset limit, leaves it offline) while the other
 * partitions carry on.  They need the partition manager (amdx_partition.h),
 * which this build does not have yet: the step is recorded as an action
 * that failed with -EOPNOTSUPP and nothing else happens.
 */
#include <linux/errno.h>
#include <linux/ktime.h>

#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_ras.h"

/**
 * amdx_ras_partition_contain() - quarantine, reset, restore a partition
 * @adev: the device; the caller holds its RAS lock.
 * @part: compute partition.
 * @offline: leave it offline instead of restoring it.
 *
 * Return: -EOPNOTSUPP (no partition manager in this build).
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

	amdx_event_emit(adev, &ev);
	ev = (struct amdx_event) {
		.kind = AMDX_EVENT_ACTION_END,
		.partition = part,
		.address = ktime_get_ns() - t0,
		.data = { AMDX_ACTION_PARTITION_RESET, (u64)(s64)-EOPNOTSUPP },
	};
	amdx_event_emit(adev, &ev);
	return -EOPNOTSUPP;
}
