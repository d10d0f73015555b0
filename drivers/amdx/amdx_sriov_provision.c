// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: SR-IOV provisioning math
 *
 * Before VFs are enabled the PF gives each one its VRAM quota and
 * scheduling parameters (Intel xe's PF model), either fairly or from a
 * custom configuration.  Only the arithmetic lives here; applying the
 * quotas belongs to the device code.
 *
 * Fair provisioning splits the VRAM evenly, each share rounded down to
 * the 16 MiB step GIM uses, and refuses with -ENOSPC when a share would
 * fall under GIM's 256 MiB minimum.  What the rounding leaves over stays
 * with the PF::
 *
 *    0                                                        vram_size
 *    | VF1 quota | VF2 quota |  ...  | VFn quota | PF remainder (< n * 16M) |
 *
 * Every VF gets the default 6 ms time slice and normal priority.
 *
 * A custom configuration is checked VF by VF first (VRAM not a multiple of
 * 16 MiB or under 256 MiB, time slice or priority out of range: -EINVAL),
 * then as a whole (the quotas add up to more than the VRAM: -ENOSPC).
 */
#include <linux/align.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/math64.h>

#include "amdx_kunit.h"
#include "amdx_sriov_provision.h"

/**
 * amdx_sriov_fair_vram() - the fair VRAM share of each VF
 * @vram_size: VRAM to share, in bytes.
 * @num_vfs: VFs, 1..%AMDX_SRIOV_MAX_VFS.
 * @per_vf: set to the share in bytes, a multiple of %AMDX_SRIOV_VRAM_ALIGN.
 *
 * Return: 0; -EINVAL for a VF count out of range; -ENOSPC if a share would
 * be under %AMDX_SRIOV_VRAM_MIN.
 */
int amdx_sriov_fair_vram(u64 vram_size, u32 num_vfs, u64 *per_vf)
{
	u64 share;

	if (!num_vfs || num_vfs > AMDX_SRIOV_MAX_VFS)
		return -EINVAL;

	share = ALIGN_DOWN(div_u64(vram_size, num_vfs),
			   (u64)AMDX_SRIOV_VRAM_ALIGN);
	if (share < AMDX_SRIOV_VRAM_MIN)
		return -ENOSPC;
	*per_vf = share;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_sriov_fair_vram);

/**
 * amdx_sriov_provision_fair() - a fair configuration for every VF
 * @vram_size: VRAM to share, in bytes.
 * @num_vfs: VFs, 1..%AMDX_SRIOV_MAX_VFS.
 * @cfg: @num_vfs entries, filled on success, untouched on failure.
 *
 * Return: as amdx_sriov_fair_vram().
 */
int amdx_sriov_provision_fair(u64 vram_size, u32 num_vfs,
			      struct amdx_sriov_vf_config *cfg)
{
	u64 share;
	u32 i;
	int ret;

	ret = amdx_sriov_fair_vram(vram_size, num_vfs, &share);
	if (ret)
		return ret;

	for (i = 0; i < num_vfs; i++) {
		cfg[i].vram = share;
		cfg[i].time_slice_us = AMDX_SRIOV_TIME_SLICE_DEFAULT_US;
		cfg[i].priority = AMDX_SRIOV_PRIO_NORMAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_sriov_provision_fair);

/**
 * amdx_sriov_check_vram() - is one VF's VRAM quota well formed
 * @vram: quota in bytes.
 *
 * Return: 0, or -EINVAL if @vram is not a multiple of
 * %AMDX_SRIOV_VRAM_ALIGN or is under %AMDX_SRIOV_VRAM_MIN.
 */
int amdx_sriov_check_vram(u64 vram)
{
	if (!IS_ALIGNED(vram, (u64)AMDX_SRIOV_VRAM_ALIGN) ||
	    vram < AMDX_SRIOV_VRAM_MIN)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_sriov_check_vram);

/**
 * amdx_sriov_check_sched() - are one VF's scheduling parameters in range
 * @time_slice_us: %AMDX_SRIOV_TIME_SLICE_MIN_US..%AMDX_SRIOV_TIME_SLICE_MAX_US.
 * @priority: %AMDX_SRIOV_PRIO_LOW..%AMDX_SRIOV_PRIO_MAX.
 *
 * Return: 0, or -EINVAL if either is out of range.
 */
int amdx_sriov_check_sched(u32 time_slice_us, u32 priority)
{
	if (time_slice_us < AMDX_SRIOV_TIME_SLICE_MIN_US ||
	    time_slice_us > AMDX_SRIOV_TIME_SLICE_MAX_US ||
	    priority > AMDX_SRIOV_PRIO_MAX)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_sriov_check_sched);

/**
 * amdx_sriov_provision_check() - is a custom configuration valid
 * @vram_size: VRAM to share, in bytes.
 * @cfg: @num_vfs entries.
 * @num_vfs: VFs, 1..%AMDX_SRIOV_MAX_VFS.
 *
 * Return: 0; -EINVAL for a VF count out of range or any VF's quota or
 * scheduling parameters malformed; -ENOSPC if the VRAM quotas add up to
 * more than @vram_size.
 */
int amdx_sriov_provision_check(u64 vram_size,
			       const struct amdx_sriov_vf_config *cfg,
			       u32 num_vfs)
{
	u64 total = 0;
	u32 i;
	int ret;

	if (!num_vfs || num_vfs > AMDX_SRIOV_MAX_VFS)
		return -EINVAL;

	for (i = 0; i < num_vfs; i++) {
		ret = amdx_sriov_check_vram(cfg[i].vram);
		if (ret)
			return ret;
		ret = amdx_sriov_check_sched(cfg[i].time_slice_us,
					     cfg[i].priority);
		if (ret)
			return ret;
	}

	for (i = 0; i < num_vfs; i++) {
		if (cfg[i].vram > vram_size - total)
			return -ENOSPC;
		total += cfg[i].vram;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_sriov_provision_check);
