/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Baseline recovery policies for fault replay (amdx_recovery_policy.c):
 * the recovery model's choice mapped to what another driver would do,
 * so the same faults can be measured under amdx and under the baselines.
 * Not a second ladder: only a map over amdx_recovery_choose()'s answer.
 */
#ifndef _AMDX_RECOVERY_POLICY_H_
#define _AMDX_RECOVERY_POLICY_H_

#include <linux/types.h>

struct amdx_recovery_fault;
struct amdx_recovery_topo;
struct dentry;

/* Policies (Documentation/replay.rst). */
#define AMDX_RECOVERY_POLICY_AMDX	0	/* the ladder's choice */
#define AMDX_RECOVERY_POLICY_AMDGPU	1	/* amdgpu 6.12 */
#define AMDX_RECOVERY_POLICY_PER_GPU	2	/* any UE resets the GPU */
#define AMDX_RECOVERY_POLICY_COUNT	3

u32 amdx_recovery_policy_map(u32 policy, const struct amdx_recovery_topo *t,
			     const struct amdx_recovery_fault *f, u32 action);
u32 amdx_recovery_policy_link_fault(u32 policy);
const char *amdx_recovery_policy_name(u32 policy);
u32 amdx_recovery_policy_get(void);
void amdx_recovery_policy_debugfs_add(struct dentry *root);
void amdx_recovery_policy_reset(void);

#endif /* _AMDX_RECOVERY_POLICY_H_ */
