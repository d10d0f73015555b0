// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: debugfs testing hooks
 *
 * /sys/kernel/debug/amdx/amdx<id>/ exposes the in-kernel HMM hooks that
 * RAS and partition control call, so tests can drive them directly.
 * Unstable; testing only; root only.
 *
 * ``evict_vram_page``  write a VRAM page index: move its data to a healthy
 *                      page (amdx_hmm_retire_vram_page()).
 * ``drain_partition``  write a memory partition index: move all its data
 *                      home (amdx_hmm_vacate_partition()).
 * ``emit_events``      write "<kind> <count>": emit @count synthetic events
 *                      of @kind (amdx_event_debugfs_add()).
 * ``vram_scanned``     read: VRAM page entries looked at by index so far
 *                      (amdx_vram_scanned()): what eviction's walks cost.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/uaccess.h>

#include "amdx_core.h"
#include "amdx_debugfs.h"
#include "amdx_event.h"
#include "amdx_hmm_devmove.h"
#include "amdx_recovery.h"
#include "amdx_recovery_policy.h"
#include <amdx/amdx_vram.h>

static struct dentry *amdx_debugfs_root;

#if IS_ENABLED(CONFIG_DEVICE_PRIVATE)
static ssize_t amdx_debugfs_hook(struct file *f, const char __user *ubuf,
				 size_t len, loff_t *ppos,
				 int (*hook)(struct amdx_device *, u64))
{
	struct amdx_device *adev = file_inode(f)->i_private;
	u64 val;
	int ret;

	ret = kstrtou64_from_user(ubuf, len, 0, &val);
	if (ret)
		return ret;
	down_read(&adev->lock);
	ret = adev->dead ? -ENODEV : hook(adev, val);
	up_read(&adev->lock);
	return ret ? ret : len;
}

static int amdx_hook_evict(struct amdx_device *adev, u64 index)
{
	if (index >= adev->desc.vram_size >> PAGE_SHIFT)
		return -EINVAL;
	return amdx_hmm_retire_vram_page(adev, index);
}

static int amdx_hook_drain(struct amdx_device *adev, u64 part)
{
	if (part >= AMDX_MAX_MEM_PARTITIONS)
		return -EINVAL;
	return amdx_hmm_vacate_partition(adev, part);
}

static ssize_t amdx_evict_write(struct file *f, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	return amdx_debugfs_hook(f, ubuf, len, ppos, amdx_hook_evict);
}

static ssize_t amdx_drain_write(struct file *f, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	return amdx_debugfs_hook(f, ubuf, len, ppos, amdx_hook_drain);
}

static const struct file_operations amdx_evict_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = amdx_evict_write,
	.llseek = noop_llseek,
};

static const struct file_operations amdx_drain_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = amdx_drain_write,
	.llseek = noop_llseek,
};

static int amdx_vram_scanned_get(void *data, u64 *val)
{
	struct amdx_device *adev = data;

	*val = amdx_vram_scanned(adev->desc.vram);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(amdx_vram_scanned_fops, amdx_vram_scanned_get, NULL,
			 "%llu\n");
#endif

static void amdx_debugfs_remove(struct amdx_device *adev)
{
	debugfs_remove_recursive(adev->debugfs);
	adev->debugfs = NULL;
}

/**
 * amdx_debugfs_add() - create a device's debugfs directory
 * @adev: the device, id assigned.
 *
 * Registers its removal with the device (%AMDX_DEVICE_UNPUBLISH).
 *
 * Return: 0, or -ENOSPC when the device holds no more actions.
 */
int amdx_debugfs_add(struct amdx_device *adev)
{
	char name[24];

	snprintf(name, sizeof(name), "amdx%u", adev->id);
	adev->debugfs = debugfs_create_dir(name, amdx_debugfs_root);
	amdx_event_debugfs_add(adev);
	amdx_recovery_debugfs_add(adev);
#if IS_ENABLED(CONFIG_DEVICE_PRIVATE)
	if (adev->desc.flags & AMDX_DEVICE_F_HMM) {
		debugfs_create_file("evict_vram_page", 0200, adev->debugfs,
				    adev, &amdx_evict_fops);
		debugfs_create_file("drain_partition", 0200, adev->debugfs,
				    adev, &amdx_drain_fops);
		if (adev->desc.vram)
			debugfs_create_file_unsafe("vram_scanned", 0400,
						   adev->debugfs, adev,
						   &amdx_vram_scanned_fops);
	}
#endif
	return amdx_device_add_action_or_reset(adev, AMDX_DEVICE_UNPUBLISH,
					       amdx_debugfs_remove);
}

/**
 * amdx_debugfs_init() - create /sys/kernel/debug/amdx
 */
void amdx_debugfs_init(void)
{
	amdx_debugfs_root = debugfs_create_dir("amdx", NULL);
	amdx_recovery_policy_debugfs_add(amdx_debugfs_root);
}

/**
 * amdx_debugfs_fini() - remove /sys/kernel/debug/amdx
 */
void amdx_debugfs_fini(void)
{
	debugfs_remove_recursive(amdx_debugfs_root);
	amdx_recovery_policy_reset();
}
