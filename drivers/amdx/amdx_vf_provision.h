/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * SR-IOV VF provisioning math: VRAM quotas and scheduling parameters,
 * pure logic, no device.
 */
#ifndef _AMDX_VF_PROVISION_H_
#define _AMDX_VF_PROVISION_H_

#include <linux/types.h>
#include <linux/amdx.h>

/*
 * The rules (VF count, VRAM steps and minimum, time slice and priority
 * ranges) are the uapi's: %AMDX_MAX_VFS, %AMDX_VF_VRAM_ALIGN,
 * %AMDX_VF_VRAM_MIN, %AMDX_VF_TIME_SLICE_MIN_US .. %AMDX_VF_TIME_SLICE_MAX_US,
 * %AMDX_VF_PRIO_*.
 */
#define AMDX_VF_PRIO_MAX			AMDX_VF_PRIO_HIGH

int amdx_vf_fair_vram(u64 vram_size, u32 num_vfs, u64 *per_vf);
int amdx_vf_provision_fair(u64 vram_size, u32 num_vfs, u32 num_partitions,
			   struct amdx_vf_config *cfg);
int amdx_vf_check_vram(u64 vram);
int amdx_vf_check_sched(u32 time_slice_us, u32 priority);
const char *amdx_vf_config_bad(const struct amdx_vf_config *c,
			       u32 num_partitions);
int amdx_vf_provision_check(u64 vram_size,
			    const struct amdx_vf_config *cfg, u32 num_vfs,
			    u32 num_partitions, u32 *bad_vf,
			    const char **why);

#endif /* _AMDX_VF_PROVISION_H_ */
