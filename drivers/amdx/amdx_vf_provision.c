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
 * Every VF gets the default 6 ms time slice and normal priority, and the
 * compute partitions are dealt to the VFs in turn.
 *
 * A custom configuration is checked VF by VF first (reserved fields or
 * unknown flags set, no partition or one beyond the mode's, VRAM not a
 * multiple of 16 MiB or under 256 MiB, time slice or priority out of range,
 * a partition already bound to an earlier VF: -EINVAL), then as a whole
 * (the quotas add up to more than the VRAM: -ENOSPC).  The rules are the
 * uapi's (&struct amdx_vf_config); VF_ENABLE calls exactly these.
 */
#include <linux/align.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "amdx_kunit.h"
#include "amdx_vf_provision.h"

/**
 * amdx_vf_fair_vram() - the fair VRAM share of each VF
 * @vram_size: VRAM to share, in bytes.
 * @num_vfs: VFs, 1..%AMDX_MAX_VFS.
 * @per_vf: set to the share in bytes, a multiple of %AMDX_VF_VRAM_ALIGN.
 *
 * Return: 0; -EINVAL for a VF count out of range; -ENOSPC if a share would
 * be under %AMDX_VF_VRAM_MIN.
 */
int amdx_vf_fair_vram(u64 vram_size, u32 num_vfs, u64 *per_vf)
{
	u64 share;

	if (!num_vfs || num_vfs > AMDX_MAX_VFS)
		return -EINVAL;

	share = ALIGN_DOWN(div_u64(vram_size, num_vfs), AMDX_VF_VRAM_ALIGN);
	if (share < AMDX_VF_VRAM_MIN)
		return -ENOSPC;
	*per_vf = share;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_vf_fair_vram);

/**
 * amdx_vf_provision_fair() - a fair configuration for every VF
 * @vram_size: VRAM to share, in bytes.
 * @num_vfs: VFs, 1..%AMDX_MAX_VFS.
 * @num_partitions: compute partitions of the current mode, 1..32; VF n
 *	gets partitions n, n + @num_vfs, ...
 * @cfg: @num_vfs entries, filled on success, untouched on failure.
 *
 * Return: as amdx_vf_fair_vram().
 */
int amdx_vf_provision_fair(u64 vram_size, u32 num_vfs, u32 num_partitions,
			   struct amdx_vf_config *cfg)
{
	u64 share;
	u32 i;
	int ret;

	ret = amdx_vf_fair_vram(vram_size, num_vfs, &share);
	if (ret)
		return ret;

	for (i = 0; i < num_vfs; i++) {
		memset(&cfg[i], 0, sizeof(cfg[i]));
		cfg[i].vram_quota = share;
		cfg[i].time_slice_us = AMDX_VF_TIME_SLICE_DEFAULT_US;
		cfg[i].priority = AMDX_VF_PRIO_NORMAL;
	}
	for (i = 0; i < num_partitions && i < 32; i++)
		cfg[i % num_vfs].partition_mask |= BIT(i);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_vf_provision_fair);

/**
 * amdx_vf_check_vram() - is one VF's VRAM quota well formed
 * @vram: quota in bytes.
 *
 * Return: 0, or -EINVAL if @vram is not a multiple of
 * %AMDX_VF_VRAM_ALIGN or is under %AMDX_VF_VRAM_MIN.
 */
int amdx_vf_check_vram(u64 vram)
{
	if (!IS_ALIGNED(vram, AMDX_VF_VRAM_ALIGN) || vram < AMDX_VF_VRAM_MIN)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_vf_check_vram);

/**
 * amdx_vf_check_sched() - are one VF's scheduling parameters in range
 * @time_slice_us: %AMDX_VF_TIME_SLICE_MIN_US..%AMDX_VF_TIME_SLICE_MAX_US.
 * @priority: %AMDX_VF_PRIO_LOW..%AMDX_VF_PRIO_MAX.
 *
 * Return: 0, or -EINVAL if either is out of range.
 */
int amdx_vf_check_sched(u32 time_slice_us, u32 priority)
{
	if (time_slice_us < AMDX_VF_TIME_SLICE_MIN_US ||
	    time_slice_us > AMDX_VF_TIME_SLICE_MAX_US ||
	    priority > AMDX_VF_PRIO_MAX)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_vf_check_sched);

/**
 * amdx_vf_config_bad() - what is wrong with one VF's configuration
 * @c: the configuration.
 * @num_partitions: compute partitions of the current mode, 1..32.
 *
 * Return: NULL when @c is well formed on its own, else the reason.
 */
const char *amdx_vf_config_bad(const struct amdx_vf_config *c,
			       u32 num_partitions)
{
	u32 valid = num_partitions >= 32 ? U32_MAX :
		    (u32)GENMASK(num_partitions - 1, 0);

	if (c->reserved[0] || c->reserved[1])
		return "non-zero reserved field";
	if (c->flags & ~AMDX_VF_F_EVICT)
		return "unknown flags";
	if (!num_partitions || !c->partition_mask ||
	    (c->partition_mask & ~valid))
		return "partition mask empty or naming no partition";
	if (amdx_vf_check_vram(c->vram_quota))
		return "VRAM quota not a multiple of 16 MiB or under 256 MiB";
	if (amdx_vf_check_sched(c->time_slice_us, c->priority))
		return "time slice or priority out of range";
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_vf_config_bad);

/**
 * amdx_vf_provision_check() - is a custom configuration valid
 * @vram_size: VRAM to share, in bytes.
 * @cfg: @num_vfs entries.
 * @num_vfs: VFs, 1..%AMDX_MAX_VFS.
 * @num_partitions: compute partitions of the current mode.
 * @bad_vf: on error, the VF at fault, or %AMDX_VF_NONE.
 * @why: on error, the reason.
 *
 * Return: 0; -EINVAL for a VF count out of range, a VF's configuration
 * malformed (amdx_vf_config_bad()) or a partition bound twice; -ENOSPC
 * if the VRAM quotas add up to more than @vram_size.
 */
int amdx_vf_provision_check(u64 vram_size,
			    const struct amdx_vf_config *cfg, u32 num_vfs,
			    u32 num_partitions, u32 *bad_vf,
			    const char **why)
{
	u64 total = 0;
	u32 used = 0, i;
	const char *bad;

	*bad_vf = AMDX_VF_NONE;
	if (!num_vfs || num_vfs > AMDX_MAX_VFS) {
		*why = "VF count out of range";
		return -EINVAL;
	}

	for (i = 0; i < num_vfs; i++) {
		bad = amdx_vf_config_bad(&cfg[i], num_partitions);
		if (!bad && (cfg[i].partition_mask & used))
			bad = "partition bound to another VF";
		if (bad) {
			*bad_vf = i;
			*why = bad;
			return -EINVAL;
		}
		used |= cfg[i].partition_mask;
	}

	for (i = 0; i < num_vfs; i++) {
		if (cfg[i].vram_quota > vram_size - total) {
			*bad_vf = i;
			*why = "VRAM quotas exceed the VRAM";
			return -ENOSPC;
		}
		total += cfg[i].vram_quota;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_vf_provision_check);
