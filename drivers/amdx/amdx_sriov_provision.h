/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * SR-IOV VF provisioning math: VRAM quotas and scheduling parameters,
 * pure logic, no device.
 */
#ifndef _AMDX_SRIOV_PROVISION_H_
#define _AMDX_SRIOV_PROVISION_H_

#include <linux/sizes.h>
#include <linux/types.h>

/* Most VFs of any model (MI300X in CPX). */
#define AMDX_SRIOV_MAX_VFS			8

/* Per-VF VRAM: a multiple of 16 MiB, at least 256 MiB (GIM). */
#define AMDX_SRIOV_VRAM_ALIGN			SZ_16M
#define AMDX_SRIOV_VRAM_MIN			SZ_256M

/* Graphics time slice in microseconds; GIM's default is 6 ms. */
#define AMDX_SRIOV_TIME_SLICE_MIN_US		1000
#define AMDX_SRIOV_TIME_SLICE_DEFAULT_US	6000
#define AMDX_SRIOV_TIME_SLICE_MAX_US		100000

/* Scheduling priority, low to high. */
#define AMDX_SRIOV_PRIO_LOW			0
#define AMDX_SRIOV_PRIO_NORMAL			1
#define AMDX_SRIOV_PRIO_HIGH			2
#define AMDX_SRIOV_PRIO_MAX			AMDX_SRIOV_PRIO_HIGH

/**
 * struct amdx_sriov_vf_config - the resources of one VF
 * @vram: VRAM quota in bytes.
 * @time_slice_us: graphics time slice in microseconds.
 * @priority: %AMDX_SRIOV_PRIO_*.
 */
struct amdx_sriov_vf_config {
	u64 vram;
	u32 time_slice_us;
	u32 priority;
};

int amdx_sriov_fair_vram(u64 vram_size, u32 num_vfs, u64 *per_vf);
int amdx_sriov_provision_fair(u64 vram_size, u32 num_vfs,
			      struct amdx_sriov_vf_config *cfg);
int amdx_sriov_check_vram(u64 vram);
int amdx_sriov_check_sched(u32 time_slice_us, u32 priority);
int amdx_sriov_provision_check(u64 vram_size,
			       const struct amdx_sriov_vf_config *cfg,
			       u32 num_vfs);

#endif /* _AMDX_SRIOV_PROVISION_H_ */
