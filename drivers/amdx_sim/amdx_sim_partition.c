// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: simulated partition switches and SR-IOV
 *
 * The hardware half of the core's partition manager: what the firmware
 * and the reset would do on an Instinct part, with knobs to make it fail
 * (debugfs, amdx_sim_debugfs.c).
 *
 * - A commit step first passes amdx_sim_partition_step(), which fails the
 *   step armed in ``fail_partition_step`` once with -EIO.
 * - A compute-mode switch is a firmware call: it just records the mode.
 * - A memory-mode switch is a device reset (``reset_delay_ms``) after
 *   which the VRAM allocator is laid out in the new number of NPS
 *   partitions; it fails with -EBUSY while any VRAM page is allocated,
 *   leaving everything as it was.
 * - VF n's VRAM quota is the allocator's quota of owner n + 1; disabling
 *   the VFs lifts the quotas.
 * - A VF FLR notifies the guest, waits for its ack (``vf_ack_delay_ms``,
 *   at most 10 ms, GIM's timeout), then resets (``reset_delay_ms``) and
 *   clears every VRAM page the VF holds, as GIM clears a VF's framebuffer
 *   so nothing of the old guest reaches the next one.
 *
 * ::
 *
 *    core                       amdx_sim
 *     | partition_step(N) ----> fail_partition_step == N ? -EIO
 *     | set_memory_mode(m) ---> sleep reset_delay_ms, repartition VRAM
 *     | vf_flr(vf) -----------> guest ack (<= 10 ms) ... reset, clear
 *                                 the VF's VRAM pages
 *
 * The core serialises these per device; &amdx_sim_dev.state_lock guards
 * the modes and the VF count against get_state().
 */
#define pr_fmt(fmt) "amdx_sim: " fmt

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/mm.h>

#include <amdx/amdx_provider.h>
#include <amdx/amdx_vram.h>

#include "amdx_sim.h"

/* GIM waits this long for a guest's FLR acknowledgment. */
#define AMDX_SIM_FLR_ACK_TIMEOUT_MS	10

static void amdx_sim_reset_wait(struct amdx_sim_dev *sd)
{
	u32 ms = amdx_sim_reset_delay_ms(sd);

	if (ms)
		msleep(ms);
}

/**
 * amdx_sim_partition_step() - &amdx_provider_ops.partition_step
 * @adev: the core's device.
 * @step: %AMDX_PART_STEP_*.
 *
 * VALIDATE first takes ``validate_delay_ms`` (the window between a
 * commit's checks and its closing the VRAM gate, for tests).
 *
 * Return: 0, or -EIO when ``fail_partition_step`` arms @step (consumed).
 */
int amdx_sim_partition_step(struct amdx_device *adev, u32 step)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);

	if (step == AMDX_PART_STEP_VALIDATE)
		msleep_interruptible(atomic_read(&sd->validate_delay_ms));
	if (!amdx_sim_should_fail_step(sd, step))
		return 0;
	dev_info(&sd->dev, "injected failure of partition step %u\n", step);
	return -EIO;
}

/**
 * amdx_sim_set_compute_mode() - &amdx_provider_ops.set_compute_mode
 * @adev: the core's device.
 * @mode: %AMDX_COMPUTE_*, one of the model's.
 *
 * Return: 0, or -EINVAL for a mode the model lacks.
 */
int amdx_sim_set_compute_mode(struct amdx_device *adev, u32 mode)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);

	if (mode >= 32 || !(sd->params.model->compute_modes & BIT(mode)))
		return -EINVAL;
	mutex_lock(&sd->state_lock);
	WRITE_ONCE(sd->compute_mode, mode);
	mutex_unlock(&sd->state_lock);
	return 0;
}

static u32 amdx_sim_nps(u32 mode)
{
	switch (mode) {
	case AMDX_MEMORY_NPS1:
		return 1;
	case AMDX_MEMORY_NPS2:
		return 2;
	case AMDX_MEMORY_NPS4:
		return 4;
	case AMDX_MEMORY_NPS8:
		return 8;
	default:
		return 0;
	}
}

/**
 * amdx_sim_set_memory_mode() - &amdx_provider_ops.set_memory_mode
 * @adev: the core's device.
 * @mode: %AMDX_MEMORY_*, one of the model's.
 *
 * Simulates the reset (``reset_delay_ms``), then lays the VRAM out in the
 * mode's partitions.
 *
 * Return: 0; -EINVAL for a mode the model lacks or the VRAM cannot split
 * into; -EBUSY while VRAM is allocated.  On error nothing changed.
 */
int amdx_sim_set_memory_mode(struct amdx_device *adev, u32 mode)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	u32 nps = amdx_sim_nps(mode);
	int ret;

	if (!nps || !(sd->params.model->memory_modes & BIT(mode)))
		return -EINVAL;
	amdx_sim_reset_wait(sd);
	mutex_lock(&sd->state_lock);
	ret = amdx_vram_repartition(sd->vram, nps);
	if (!ret)
		sd->memory_mode = mode;
	mutex_unlock(&sd->state_lock);
	if (ret)
		dev_info(&sd->dev, "memory mode %u: VRAM repartition failed: %pe\n",
			 mode, ERR_PTR(ret));
	return ret;
}

static int amdx_sim_vf_quota(struct amdx_sim_dev *sd, u32 vf,
			     const struct amdx_vf_config *cfg)
{
	return amdx_vram_set_quota(sd->vram, AMDX_OWNER_VF(vf),
				   cfg ? cfg->vram_quota >> PAGE_SHIFT : 0);
}

/**
 * amdx_sim_vf_enable() - &amdx_provider_ops.vf_enable
 * @adev: the core's device.
 * @num_vfs: VFs, at most the device's max_vfs.
 * @cfg: their provisioning, validated by the core.
 *
 * Return: 0, or -EINVAL (nothing enabled then).
 */
int amdx_sim_vf_enable(struct amdx_device *adev, u32 num_vfs,
		       const struct amdx_vf_config *cfg)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	u32 i;
	int ret;

	if (!num_vfs || num_vfs > sd->params.max_vfs)
		return -EINVAL;
	for (i = 0; i < num_vfs; i++) {
		ret = amdx_sim_vf_quota(sd, i, &cfg[i]);
		if (ret)
			goto err_quotas;
	}
	mutex_lock(&sd->state_lock);
	sd->num_vfs = num_vfs;
	mutex_unlock(&sd->state_lock);
	return 0;

err_quotas:
	while (i--)
		amdx_sim_vf_quota(sd, i, NULL);
	return ret;
}

/**
 * amdx_sim_vf_disable() - &amdx_provider_ops.vf_disable
 * @adev: the core's device.
 */
void amdx_sim_vf_disable(struct amdx_device *adev)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	u32 i, n;

	mutex_lock(&sd->state_lock);
	n = sd->num_vfs;
	sd->num_vfs = 0;
	mutex_unlock(&sd->state_lock);
	for (i = 0; i < n; i++)
		amdx_sim_vf_quota(sd, i, NULL);
}

/**
 * amdx_sim_vf_configure() - &amdx_provider_ops.vf_configure
 * @adev: the core's device.
 * @vf: an enabled VF.
 * @cfg: its new provisioning.
 *
 * Return: 0 or -EINVAL.
 */
int amdx_sim_vf_configure(struct amdx_device *adev, u32 vf,
			  const struct amdx_vf_config *cfg)
{
	return amdx_sim_vf_quota(amdx_device_priv(adev), vf, cfg);
}

/**
 * amdx_sim_vf_flr() - &amdx_provider_ops.vf_flr
 * @adev: the core's device.
 * @vf: an enabled VF.
 * @result: out: %AMDX_VF_RESET_ACKED or %AMDX_VF_RESET_ACK_TIMEOUT.
 *
 * The VF's VRAM pages read zero afterwards (amdx_sim_devmem_wipe()).
 *
 * Return: 0.
 */
int amdx_sim_vf_flr(struct amdx_device *adev, u32 vf, u32 *result)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	u32 ack = amdx_sim_vf_ack_delay_ms(sd);
	u64 cleared;

	if (ack > AMDX_SIM_FLR_ACK_TIMEOUT_MS) {
		msleep(AMDX_SIM_FLR_ACK_TIMEOUT_MS);
		*result = AMDX_VF_RESET_ACK_TIMEOUT;
		dev_info(&sd->dev, "VF %u: no FLR ack in %u ms, resetting anyway\n",
			 vf, AMDX_SIM_FLR_ACK_TIMEOUT_MS);
	} else {
		if (ack)
			msleep(ack);
		*result = AMDX_VF_RESET_ACKED;
	}
	amdx_sim_reset_wait(sd);
	if (amdx_sim_vram_has_hmm(sd)) {
		cleared = amdx_sim_devmem_wipe(sd, AMDX_OWNER_VF(vf));
		dev_dbg(&sd->dev, "VF %u: FLR cleared %llu VRAM pages\n", vf,
			cleared);
	}
	return 0;
}

/**
 * amdx_sim_partition_reset() - &amdx_provider_ops.partition_reset
 * @adev: the core's device.
 * @part: compute partition.
 *
 * Return: 0, or -EIO while the debugfs knob ``fail_reset`` is set.
 */
int amdx_sim_partition_reset(struct amdx_device *adev, u32 part)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);

	amdx_sim_reset_wait(sd);
	return amdx_sim_should_fail_reset(sd) ? -EIO : 0;
}
