/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The recovery state a device's RAS state carries (amdx_ras_types.h);
 * amdx_recovery.c keeps it.
 */
#ifndef _AMDX_RECOVERY_TYPES_H_
#define _AMDX_RECOVERY_TYPES_H_

#include <linux/types.h>
#include <linux/amdx.h>

/**
 * struct amdx_recovery_slot - the pending action of one target
 * @action: %AMDX_RECOVER_*, %AMDX_RECOVER_NONE when nothing is pending.
 * @fault: the %AMDX_FAULT_* that set it.
 * @state: %AMDX_RECOVERY_STATE_*.
 * @seq: seq of the event that set it.
 * @time_ns: CLOCK_MONOTONIC time of that event.
 */
struct amdx_recovery_slot {
	u32 action;
	u32 fault;
	u32 state;
	u64 seq;
	u64 time_ns;
};

/**
 * struct amdx_recovery_state - the pending actions of one device
 * @dev: the device's own (actions on the whole device and wider).
 * @parts: per compute partition (process, queue, pipe, partition).
 * @vfs: per VF (vf).
 *
 * Protected by &amdx_ras.lock.  Indices are those of the current layout;
 * a partition commit or VF change does not move them.
 */
struct amdx_recovery_state {
	struct amdx_recovery_slot dev;
	struct amdx_recovery_slot parts[AMDX_MAX_PARTITIONS];
	struct amdx_recovery_slot vfs[AMDX_MAX_VFS];
};

#endif /* _AMDX_RECOVERY_TYPES_H_ */
