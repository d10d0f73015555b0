/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Recovery state (amdx_recovery.c): the pending recovery action of every
 * device, compute partition and VF, how a fault sets it, and how running
 * it and a passing self-test clear it.
 */
#ifndef _AMDX_RECOVERY_H_
#define _AMDX_RECOVERY_H_

#include <linux/types.h>
#include <linux/amdx.h>

#include "amdx_recovery_types.h"

struct amdx_device;
struct amdx_event;
struct amdx_event_error;
struct amdx_file;
struct amdx_ras;
struct amdx_ras_error;
struct amdx_recovery_fault;

int amdx_recovery_init(struct amdx_device *adev);
void amdx_recovery_fini(struct amdx_ras *ras);
void amdx_recovery_fault_of(struct amdx_device *adev,
			    const struct amdx_ras_error *err,
			    struct amdx_recovery_fault *f);
int amdx_recovery_fault(struct amdx_device *adev, u32 kind, u32 partition,
			u32 vf, struct amdx_event *ev);
int amdx_recovery_fault_error(struct amdx_device *adev,
			      const struct amdx_recovery_fault *fault,
			      struct amdx_event *ev,
			      const struct amdx_event_error *error);
void amdx_recovery_ran(struct amdx_device *adev, u32 action, u32 partition,
		       int ret);
int amdx_recovery_reset_ids(struct amdx_device *adev, u64 *ids);
u64 amdx_recovery_reset_mask(struct amdx_device *adev);
int amdx_recovery_device_reset(struct amdx_device *adev);
int amdx_ioctl_recovery_plan(struct amdx_file *file, void *data);
int amdx_ioctl_recovery_run(struct amdx_file *file, void *data);
void amdx_recovery_debugfs_add(struct amdx_device *adev);

#endif /* _AMDX_RECOVERY_H_ */
