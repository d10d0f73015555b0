// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: simulated hangs and their detection
 *
 * Hangs are not errors the RAS blocks report: a driver detects them, and
 * so does the simulator, in its own work item, as a driver's timers do.
 * A debugfs knob sets the hardware condition and returns at once; the
 * detection finds it one job timeout (``job_timeout_ms``) later and
 * reports it to the core through amdx_device_hang():
 *
 * ``hang_queue`` (wo, XCC)
 *	The queue running on that XCC stops making progress.  Its job times
 *	out (amdgpu's scheduler timeout, ``amdgpu_job_timedout()``): a
 *	queue hang of the compute partition holding the XCC, as the core's
 *	model of the layout says (amdx_partition_of_instance(), the mapping
 *	the simulator's RAS injection uses).
 * ``hang_vf`` (wo, VF)
 *	That VF stops answering.  Its heartbeat goes unanswered (the host's
 *	mailbox timeout, GIM's): a VF hang.
 * ``hang_firmware`` (wo, 1)
 *	The device's firmware stops.  Its heartbeat stops (an SMU or PSP
 *	message times out): a firmware hang of the device.
 * ``job_timeout_ms`` (rw, 1 .. 10000, default 20)
 *	How long the detection waits before it reports: the job timeout
 *	and the heartbeat interval.
 *
 * A condition is reported once: the recovery action the core sets is
 * what clears it on hardware.  Bad input is -EINVAL with the cause
 * logged: an XCC the current layout does not have, a VF not enabled, a
 * value other than 1.  A device being removed takes no more (-ENODEV);
 * its removal cancels the detection before the core's device goes
 * (amdx_sim_hang_stop()), so the work never reports to a device that is
 * gone, and a write cannot queue it again.
 *
 * ::
 *
 *    debugfs write -> condition set, detection armed (returns at once)
 *    job_timeout_ms later, the work -> amdx_device_hang() -> core:
 *                                       RECOVERY(PENDING)
 */
#include <linux/bitops.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include <amdx/amdx_provider.h>

#include "amdx_sim.h"

/* job_timeout_ms: the default (small: tests wait for it) and the most. */
#define AMDX_SIM_JOB_TIMEOUT_MS		20
#define AMDX_SIM_JOB_TIMEOUT_MS_MAX	10000

static void amdx_sim_hang_report(struct amdx_sim_dev *sd, u32 kind,
				 u32 part, u32 vf, const char *what)
{
	int ret = amdx_device_hang(sd->adev, kind, part, vf);

	if (ret)
		dev_warn_ratelimited(&sd->dev, "%s not reported: %pe\n", what,
				     ERR_PTR(ret));
}

static void amdx_sim_hang_work(struct work_struct *work)
{
	struct amdx_sim_hang *h = container_of(to_delayed_work(work),
					       struct amdx_sim_hang, work);
	struct amdx_sim_dev *sd = container_of(h, struct amdx_sim_dev, hang);
	u32 ms = atomic_read(&h->job_timeout_ms);
	unsigned long parts, vfs;
	unsigned int i;
	bool fw;

	mutex_lock(&h->lock);
	parts = h->parts;
	vfs = h->vfs;
	fw = h->firmware;
	h->parts = 0;
	h->vfs = 0;
	h->firmware = false;
	mutex_unlock(&h->lock);

	for_each_set_bit(i, &parts, AMDX_MAX_PARTITIONS) {
		dev_info(&sd->dev, "partition %u: job timed out after %u ms (hang_queue)\n",
			 i, ms);
		amdx_sim_hang_report(sd, AMDX_FAULT_QUEUE_HANG, i,
				     AMDX_VF_NONE, "queue hang");
	}
	for_each_set_bit(i, &vfs, AMDX_MAX_VFS) {
		dev_info(&sd->dev, "VF %u: no heartbeat for %u ms (hang_vf)\n",
			 i, ms);
		amdx_sim_hang_report(sd, AMDX_FAULT_VF_HANG,
				     AMDX_RAS_PARTITION_ALL, i, "VF hang");
	}
	if (fw) {
		dev_info(&sd->dev, "firmware: no heartbeat for %u ms (hang_firmware)\n",
			 ms);
		amdx_sim_hang_report(sd, AMDX_FAULT_FIRMWARE,
				     AMDX_RAS_PARTITION_ALL, AMDX_VF_NONE,
				     "firmware hang");
	}
}

/*
 * Sets a condition (@part's queue, @vf, or the firmware with @fw) and arms
 * the detection.  Returns 0, or -ENODEV once the device is going.
 */
static int amdx_sim_hang_set(struct amdx_sim_dev *sd, u32 part, u32 vf,
			     bool fw)
{
	struct amdx_sim_hang *h = &sd->hang;
	int ret = 0;

	mutex_lock(&h->lock);
	if (!h->open) {
		ret = -ENODEV;
	} else {
		if (part < AMDX_MAX_PARTITIONS)
			h->parts |= BIT(part);
		if (vf < AMDX_MAX_VFS)
			h->vfs |= BIT(vf);
		h->firmware |= fw;
		queue_delayed_work(system_wq, &h->work,
				   msecs_to_jiffies(atomic_read(&h->job_timeout_ms)));
	}
	mutex_unlock(&h->lock);
	return ret;
}

/*
 * The target of hang @kind set to @val (an XCC, a VF, 1) into @part and
 * @vf: 0, -EINVAL for what the device lacks (logged with the cause),
 * -ENODEV once it is going.
 */
static int amdx_sim_hang_target(struct amdx_sim_dev *sd, u32 kind, u32 val,
				u32 *part, u32 *vf)
{
	u32 num_vfs;
	int ret;

	*part = AMDX_RAS_PARTITION_ALL;
	*vf = AMDX_VF_NONE;
	switch (kind) {
	case AMDX_FAULT_QUEUE_HANG:
		/* the core's model of the layout, as the RAS injection's */
		mutex_lock(&sd->hang.lock);
		ret = sd->hang.open ?
		      amdx_partition_of_instance(sd->adev, AMDX_RAS_BLOCK_GFX,
						 val, part) : -ENODEV;
		mutex_unlock(&sd->hang.lock);
		if (ret == -ENODEV)
			return ret;
		if (ret || *part >= AMDX_MAX_PARTITIONS) {
			dev_info(&sd->dev, "hang_queue: XCC %u is in no compute partition of the current layout\n",
				 val);
			return -EINVAL;
		}
		return 0;
	case AMDX_FAULT_VF_HANG:
		mutex_lock(&sd->state_lock);
		num_vfs = sd->num_vfs;
		mutex_unlock(&sd->state_lock);
		if (val >= num_vfs || val >= AMDX_MAX_VFS) {
			dev_info(&sd->dev, "hang_vf: VF %u is not enabled (%u VFs)\n",
				 val, num_vfs);
			return -EINVAL;
		}
		*vf = val;
		return 0;
	default:
		if (val != 1) {
			dev_info(&sd->dev, "hang_firmware: want 1, not %u\n",
				 val);
			return -EINVAL;
		}
		return 0;
	}
}

/* A write of hang knob @kind: one decimal u32, its target, the hang. */
static ssize_t amdx_sim_hang_write(struct file *file, const char __user *ubuf,
				   size_t len, u32 kind)
{
	struct amdx_sim_dev *sd = file->private_data;
	u32 val, part, vf;
	char buf[16];
	int ret;

	if (!len || len >= sizeof(buf)) {
		dev_info(&sd->dev, "hang: want one decimal number\n");
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (kstrtou32(strim(buf), 10, &val)) {
		dev_info(&sd->dev, "hang: want one decimal number\n");
		return -EINVAL;
	}
	ret = amdx_sim_hang_target(sd, kind, val, &part, &vf);
	if (!ret)
		ret = amdx_sim_hang_set(sd, kind == AMDX_FAULT_QUEUE_HANG ?
					part : AMDX_RAS_PARTITION_ALL, vf,
					kind == AMDX_FAULT_FIRMWARE);
	return ret ?: len;
}

static ssize_t amdx_sim_hang_queue_write(struct file *file,
					 const char __user *ubuf, size_t len,
					 loff_t *ppos)
{
	return amdx_sim_hang_write(file, ubuf, len, AMDX_FAULT_QUEUE_HANG);
}

static ssize_t amdx_sim_hang_vf_write(struct file *file,
				      const char __user *ubuf, size_t len,
				      loff_t *ppos)
{
	return amdx_sim_hang_write(file, ubuf, len, AMDX_FAULT_VF_HANG);
}

static ssize_t amdx_sim_hang_firmware_write(struct file *file,
					    const char __user *ubuf,
					    size_t len, loff_t *ppos)
{
	return amdx_sim_hang_write(file, ubuf, len, AMDX_FAULT_FIRMWARE);
}

static const struct file_operations amdx_sim_hang_queue_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = amdx_sim_hang_queue_write,
};

static const struct file_operations amdx_sim_hang_vf_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = amdx_sim_hang_vf_write,
};

static const struct file_operations amdx_sim_hang_firmware_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = amdx_sim_hang_firmware_write,
};

static int amdx_sim_job_timeout_get(void *data, u64 *val)
{
	*val = (u32)atomic_read(data);
	return 0;
}

static int amdx_sim_job_timeout_set(void *data, u64 val)
{
	if (!val || val > AMDX_SIM_JOB_TIMEOUT_MS_MAX) {
		pr_info("amdx_sim: job_timeout_ms: 1 .. %u\n",
			AMDX_SIM_JOB_TIMEOUT_MS_MAX);
		return -EINVAL;
	}
	atomic_set(data, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(amdx_sim_job_timeout_fops, amdx_sim_job_timeout_get,
			 amdx_sim_job_timeout_set, "%llu\n");

/**
 * amdx_sim_hang_init() - set up a device's hang detection, closed
 * @sd: the device, being created.
 */
void amdx_sim_hang_init(struct amdx_sim_dev *sd)
{
	struct amdx_sim_hang *h = &sd->hang;

	mutex_init(&h->lock);
	INIT_DELAYED_WORK(&h->work, amdx_sim_hang_work);
	atomic_set(&h->job_timeout_ms, AMDX_SIM_JOB_TIMEOUT_MS);
}

/**
 * amdx_sim_hang_debugfs() - create the hang knobs in the device's directory
 * @sd: the device; its debugfs directory exists.
 */
void amdx_sim_hang_debugfs(struct amdx_sim_dev *sd)
{
	debugfs_create_file_unsafe("hang_queue", 0200, sd->ddir, sd,
				   &amdx_sim_hang_queue_fops);
	debugfs_create_file_unsafe("hang_vf", 0200, sd->ddir, sd,
				   &amdx_sim_hang_vf_fops);
	debugfs_create_file_unsafe("hang_firmware", 0200, sd->ddir, sd,
				   &amdx_sim_hang_firmware_fops);
	debugfs_create_file_unsafe("job_timeout_ms", 0600, sd->ddir,
				   &sd->hang.job_timeout_ms,
				   &amdx_sim_job_timeout_fops);
}

/**
 * amdx_sim_hang_start() - the device is the core's: hangs may be set
 * @sd: the device, registered with the core (@sd->adev set).
 */
void amdx_sim_hang_start(struct amdx_sim_dev *sd)
{
	mutex_lock(&sd->hang.lock);
	sd->hang.open = true;
	mutex_unlock(&sd->hang.lock);
}

/**
 * amdx_sim_hang_stop() - no more hangs; the detection is over
 * @sd: the device, before amdx_device_unregister().
 *
 * A write after this is -ENODEV; a detection armed is cancelled, one
 * running finishes first (it reports to a device still registered).
 */
void amdx_sim_hang_stop(struct amdx_sim_dev *sd)
{
	mutex_lock(&sd->hang.lock);
	sd->hang.open = false;
	mutex_unlock(&sd->hang.lock);
	cancel_delayed_work_sync(&sd->hang.work);
}
