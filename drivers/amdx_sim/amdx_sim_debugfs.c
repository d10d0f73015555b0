// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: debugfs (unstable)
 *
 * ``/sys/kernel/debug/amdx_sim/<ID>/`` per simulated device.  Not ABI:
 * names and formats may change at any time.
 *
 * ``fail_partition_step`` (rw, u32)
 *	Fail the partition commit step N (%AMDX_PART_STEP_*: 1 VALIDATE,
 *	2 QUIESCE, 3 DRAIN, 4 COMPUTE, 5 MEMORY, 6 REBUILD, 7 RESUME) with
 *	-EIO the next time a commit on this device runs it, then reset to 0.
 *	0 = off.
 * ``fail_vram_alloc`` (rw, u32)
 *	The next N VRAM allocations through the simulator fail with -ENOMEM.
 * ``reset_delay_ms`` (rw, u32)
 *	How long a simulated reset takes (memory-mode switch, partition
 *	reset, VF FLR).
 * ``vf_ack_delay_ms`` (rw, u32)
 *	How long a VF's guest takes to acknowledge an FLR; above 10 ms the
 *	host stops waiting at 10 ms and resets anyway (ACK_TIMEOUT).
 * ``validate_delay_ms`` (rw, u32)
 *	How long a partition commit's VALIDATE step takes: the window
 *	between the commit's checks and its closing of the VRAM gate.
 * ``vram_copy_delay_ms`` (rw, u32)
 *	How long each page copy of the simulated DMA engine (vram_copy)
 *	takes, before it copies: keeps a migration in flight so tests can
 *	remove the device or inject an error meanwhile.
 * ``fail_vram_copy`` (rw, u32)
 *	The next N page copies of the simulated DMA engine (vram_copy) fail
 *	with -EIO, in either direction: a granule of a CPU fault with one
 *	page that cannot move.
 * ``reported_compute_mode`` (rw, u32)
 *	When not 0, the compute mode (%AMDX_COMPUTE_*) the device reports
 *	to the core instead of its own: a mode changed behind amdx's back,
 *	as by a write to amdgpu's ``current_compute_partition``.  0 = off.
 * ``fail_reset`` (rw, u32)
 *	The next N resets (queue, pipe, partition, device) fail with -EIO
 *	midway: the state they leave says so.
 * ``fail_self_test`` (rw, u32)
 *	The next N post-recovery self-tests fail with -EIO: the recovery
 *	escalates to its next rung.
 * ``hang_queue``, ``hang_vf``, ``hang_firmware``, ``job_timeout_ms``
 *	A hung queue, VF or firmware, detected by the simulator's own work
 *	one job timeout later and reported to the core
 *	(amdx_sim_hang.c).
 * ``wipe_visited`` (ro, u64)
 *	VRAM pages the last VF FLR's wipe (amdx_sim_devmem_wipe()) looked
 *	at: the pages the VF held, not the device's VRAM.
 * ``ras_blocks`` (ro)
 *	``<block> <instances>`` per RAS block of the model.
 * ``vram`` (ro)
 *	``<partition> <base_pfn> <pages> <used> <free>`` per memory partition.
 * ``vram_data`` (ro, binary)
 *	The VRAM's contents, byte n of the file at VRAM address n (amdgpu's
 *	``amdgpu_vram``).  Pages never used read zero, free pages what they
 *	held last; all of it zero without device-private memory.
 *
 * ``/sys/kernel/debug/amdx_sim/link_fault`` (wo)
 *	Faults on the fabric link between two simulated devices of one
 *	hive, fed to the core as the link's reports (amdx_sim_link.c).
 *
 * The knobs are atomics: debugfs writes them while the simulator consumes
 * them, with no lock between the two.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <amdx/amdx_vram.h>

#include "amdx_sim.h"

static struct dentry *amdx_sim_debugfs_root;

static int amdx_sim_knob_get(void *data, u64 *val)
{
	*val = (u32)atomic_read(data);
	return 0;
}

static int amdx_sim_knob_set(void *data, u64 val)
{
	if (val > INT_MAX)
		return -EINVAL;
	atomic_set(data, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(amdx_sim_knob_fops, amdx_sim_knob_get,
			 amdx_sim_knob_set, "%llu\n");

static int amdx_sim_ras_blocks_show(struct seq_file *m, void *unused)
{
	struct amdx_sim_dev *sd = m->private;
	const struct amdx_sim_model *model = sd->params.model;
	u32 i;

	for (i = 0; i < model->num_ras_blocks; i++)
		seq_printf(m, "%s %u\n", model->ras_blocks[i].name,
			   model->ras_blocks[i].instances);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(amdx_sim_ras_blocks);

static int amdx_sim_vram_show(struct seq_file *m, void *unused)
{
	struct amdx_sim_dev *sd = m->private;
	struct amdx_vram *v = sd->vram;
	u32 i, n = amdx_vram_num_partitions(v);

	for (i = 0; i < n; i++) {
		u64 size = amdx_vram_part_size(v, i);
		u64 free = amdx_vram_part_free(v, i);

		seq_printf(m, "%u %llu %llu %llu %llu\n", i,
			   amdx_vram_part_base(v, i), size, size - free, free);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(amdx_sim_vram);

static ssize_t amdx_sim_vram_data_read(struct file *file, char __user *ubuf,
				       size_t len, loff_t *ppos)
{
	struct amdx_sim_dev *sd = file->private_data;
	u64 size = amdx_vram_npages(sd->vram) << PAGE_SHIFT;
	u64 pos = *ppos;
	size_t done = 0;
	ssize_t ret = 0;
	void *buf;

	if (*ppos < 0)
		return -EINVAL;
	if (pos >= size || !len)
		return 0;
	len = min_t(u64, len, size - pos);
	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	while (done < len) {
		u64 at = pos + done;
		size_t off = offset_in_page(at);
		size_t n = min_t(size_t, PAGE_SIZE - off, len - done);

		if (amdx_sim_vram_has_hmm(sd))
			amdx_sim_devmem_read(sd, at >> PAGE_SHIFT, buf);
		else
			memset(buf, 0, PAGE_SIZE);
		if (copy_to_user(ubuf + done, buf + off, n)) {
			ret = -EFAULT;
			break;
		}
		done += n;
		if (fatal_signal_pending(current))
			break;
		cond_resched();
	}
	kfree(buf);
	if (!done)
		return ret;
	*ppos = pos + done;
	return done;
}

static const struct file_operations amdx_sim_vram_data_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = amdx_sim_vram_data_read,
	.llseek = default_llseek,
};

/**
 * amdx_sim_debugfs_init() - create the amdx_sim debugfs directory
 *
 * Failures are not errors: debugfs is optional.
 */
void amdx_sim_debugfs_init(void)
{
	amdx_sim_debugfs_root = debugfs_create_dir("amdx_sim", NULL);
	debugfs_create_file("link_fault", 0200, amdx_sim_debugfs_root, NULL,
			    &amdx_sim_link_fault_fops);
}

/**
 * amdx_sim_debugfs_exit() - remove the amdx_sim debugfs directory
 */
void amdx_sim_debugfs_exit(void)
{
	debugfs_remove_recursive(amdx_sim_debugfs_root);
	amdx_sim_debugfs_root = NULL;
}

/**
 * amdx_sim_debugfs_dev_init() - create a device's debugfs directory
 * @sd: the device, with its VRAM set up.
 */
void amdx_sim_debugfs_dev_init(struct amdx_sim_dev *sd)
{
	char name[16];

	snprintf(name, sizeof(name), "%u", sd->params.id);
	sd->ddir = debugfs_create_dir(name, amdx_sim_debugfs_root);

	debugfs_create_file_unsafe("fail_partition_step", 0600, sd->ddir,
				   &sd->fail_partition_step,
				   &amdx_sim_knob_fops);
	debugfs_create_file_unsafe("fail_vram_alloc", 0600, sd->ddir,
				   &sd->fail_vram_alloc, &amdx_sim_knob_fops);
	debugfs_create_file_unsafe("reset_delay_ms", 0600, sd->ddir,
				   &sd->reset_delay_ms, &amdx_sim_knob_fops);
	debugfs_create_file_unsafe("vf_ack_delay_ms", 0600, sd->ddir,
				   &sd->vf_ack_delay_ms, &amdx_sim_knob_fops);
	debugfs_create_file_unsafe("validate_delay_ms", 0600, sd->ddir,
				   &sd->validate_delay_ms, &amdx_sim_knob_fops);
	debugfs_create_file_unsafe("vram_copy_delay_ms", 0600, sd->ddir,
				   &sd->vram_copy_delay_ms, &amdx_sim_knob_fops);
	debugfs_create_file_unsafe("fail_vram_copy", 0600, sd->ddir,
				   &sd->fail_vram_copy, &amdx_sim_knob_fops);
	debugfs_create_file_unsafe("reported_compute_mode", 0600, sd->ddir,
				   &sd->reported_compute_mode,
				   &amdx_sim_knob_fops);
	debugfs_create_file_unsafe("fail_reset", 0600, sd->ddir,
				   &sd->fail_reset, &amdx_sim_knob_fops);
	debugfs_create_file_unsafe("fail_self_test", 0600, sd->ddir,
				   &sd->fail_self_test, &amdx_sim_knob_fops);
	debugfs_create_u64("wipe_visited", 0400, sd->ddir, &sd->wipe_visited);
	amdx_sim_hang_debugfs(sd);
	debugfs_create_file("ras_blocks", 0400, sd->ddir, sd,
			    &amdx_sim_ras_blocks_fops);
	debugfs_create_file("vram", 0400, sd->ddir, sd, &amdx_sim_vram_fops);
	debugfs_create_file_size("vram_data", 0400, sd->ddir, sd,
				 &amdx_sim_vram_data_fops,
				 amdx_vram_npages(sd->vram) << PAGE_SHIFT);
}

/**
 * amdx_sim_debugfs_dev_exit() - remove a device's debugfs directory
 * @sd: the device.
 *
 * Waits for readers and writers of its files to finish.
 */
void amdx_sim_debugfs_dev_exit(struct amdx_sim_dev *sd)
{
	debugfs_remove_recursive(sd->ddir);
	sd->ddir = NULL;
}

/**
 * amdx_sim_should_fail_step() - should a partition-switch step fail?
 * @sd: the device.
 * @step: the %AMDX_PART_STEP_* about to run.
 *
 * Consumes the injection: a match resets ``fail_partition_step`` to 0.
 *
 * Return: true if @step is the step armed in ``fail_partition_step``.
 */
bool amdx_sim_should_fail_step(struct amdx_sim_dev *sd, u32 step)
{
	if (!step || step > INT_MAX)
		return false;
	return atomic_cmpxchg(&sd->fail_partition_step, step, 0) == step;
}

/**
 * amdx_sim_should_fail_vram_alloc() - should a VRAM allocation fail?
 * @sd: the device.
 *
 * Return: true (and one fewer pending failure) while ``fail_vram_alloc``
 * is above 0.
 */
bool amdx_sim_should_fail_vram_alloc(struct amdx_sim_dev *sd)
{
	return atomic_dec_if_positive(&sd->fail_vram_alloc) >= 0;
}

/**
 * amdx_sim_reset_delay_ms() - simulated reset duration
 * @sd: the device.
 *
 * Return: the ``reset_delay_ms`` knob.
 */
u32 amdx_sim_reset_delay_ms(struct amdx_sim_dev *sd)
{
	return atomic_read(&sd->reset_delay_ms);
}

/**
 * amdx_sim_vf_ack_delay_ms() - simulated guest FLR acknowledgment time
 * @sd: the device.
 *
 * Return: the ``vf_ack_delay_ms`` knob.
 */
u32 amdx_sim_vf_ack_delay_ms(struct amdx_sim_dev *sd)
{
	return atomic_read(&sd->vf_ack_delay_ms);
}

/**
 * amdx_sim_vram_copy_delay_ms() - simulated duration of one page copy
 * @sd: the device.
 *
 * Return: the ``vram_copy_delay_ms`` knob.
 */
u32 amdx_sim_vram_copy_delay_ms(struct amdx_sim_dev *sd)
{
	return atomic_read(&sd->vram_copy_delay_ms);
}

/**
 * amdx_sim_should_fail_vram_copy() - should a page copy fail?
 * @sd: the device.
 *
 * Return: true (and one fewer pending failure) while ``fail_vram_copy``
 * is above 0.
 */
bool amdx_sim_should_fail_vram_copy(struct amdx_sim_dev *sd)
{
	return atomic_dec_if_positive(&sd->fail_vram_copy) >= 0;
}

/**
 * amdx_sim_should_fail_reset() - should a reset fail midway?
 * @sd: the device.
 *
 * Return: true (and one fewer pending failure) while ``fail_reset`` is
 * above 0.
 */
bool amdx_sim_should_fail_reset(struct amdx_sim_dev *sd)
{
	return atomic_dec_if_positive(&sd->fail_reset) >= 0;
}

/**
 * amdx_sim_should_fail_self_test() - should a self-test fail?
 * @sd: the device.
 *
 * Return: true (and one fewer pending failure) while ``fail_self_test``
 * is above 0.
 */
bool amdx_sim_should_fail_self_test(struct amdx_sim_dev *sd)
{
	return atomic_dec_if_positive(&sd->fail_self_test) >= 0;
}
