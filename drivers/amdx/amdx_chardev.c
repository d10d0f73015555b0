// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: the front
 *
 * Where the file descriptors are: /dev/amdx (a misc device), the device
 * fds %AMDX_IOC_DEVICE_OPEN creates, their &struct file_operations, and
 * the one ioctl table both reach (event fds are the event log's own,
 * created through %AMDX_IOC_EVENT_SUBSCRIBE in this table).  The
 * dispatcher that runs the table is amdx_ioctl.c; the handlers are the
 * features'.  Nothing below this file includes it.
 */
#include <linux/capability.h>
#include <linux/anon_inodes.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/amdx.h>

#include "amdx_chardev.h"
#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_hmm.h"
#include "amdx_hmm_access.h"
#include "amdx_hmm_ioctl.h"
#include "amdx_ioctl.h"
#include "amdx_kunit.h"
#include "amdx_partition.h"
#include "amdx_partition_gate.h"
#include "amdx_partition_vf.h"
#include "amdx_query.h"
#include "amdx_ras.h"
#include "amdx_recovery.h"

static int amdx_device_fd_release(struct inode *inode, struct file *filp)
{
	struct amdx_file *file = filp->private_data;

	amdx_hmm_file_release(file);
	amdx_device_put(file->adev);
	kfree(file);
	return 0;
}

static long amdx_device_fd_ioctl(struct file *filp, unsigned int cmd,
				 unsigned long arg)
{
	/* The dispatcher takes the device lock once the argument is in. */
	return amdx_ioctl(filp->private_data, AMDX_IOCTL_F_DEVICE, cmd, arg);
}

static const struct file_operations amdx_device_fops = {
	.owner = THIS_MODULE,
	.release = amdx_device_fd_release,
	.unlocked_ioctl = amdx_device_fd_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/**
 * amdx_device_file_open() - create the file of a device fd
 * @adev: the device; the file takes its own reference.
 * @vf: with @as_vf, the enabled VF the fd acts for.
 * @as_vf: charge the fd's VRAM to VF @vf instead of the PF.
 *
 * The caller puts the file into an fd table (O_CLOEXEC) or fput()s it.
 *
 * Return: the new file (O_RDWR), or an ERR_PTR() (-EINVAL for a VF that
 * is not enabled).
 */
struct file *amdx_device_file_open(struct amdx_device *adev, u32 vf,
				   bool as_vf)
{
	struct amdx_file *file;
	struct file *filp;
	int ret;

	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file)
		return ERR_PTR(-ENOMEM);
	if (as_vf) {
		ret = amdx_partition_vf_open(adev, vf, &file->vf_epoch);
		if (ret) {
			kfree(file);
			return ERR_PTR(ret);
		}
		file->vf = vf;
		file->owner = AMDX_OWNER_VF(vf);
	}
	kref_get(&adev->ref);
	file->adev = adev;
	ret = amdx_hmm_file_open(file);
	if (ret)
		goto err_put;
	filp = anon_inode_getfile("[amdx_device]", &amdx_device_fops, file,
				  O_RDWR);
	if (IS_ERR(filp)) {
		ret = PTR_ERR(filp);
		goto err_hmm;
	}
	return filp;

err_hmm:
	amdx_hmm_file_release(file);
err_put:
	amdx_device_put(adev);
	kfree(file);
	return ERR_PTR(ret);
}

/**
 * amdx_ioctl_device_open() - %AMDX_IOC_DEVICE_OPEN
 * @file: the amdx file (always /dev/amdx).
 * @data: &struct amdx_device_open.
 *
 * The dispatcher puts the file into the fd table once the argument is
 * copied back (&amdx_ioctl_desc.open).
 *
 * Return: the device fd's file; ERR_PTR(-EINVAL) for unknown flags, a
 * non-zero @vf without %AMDX_DEVICE_OPEN_F_VF or a VF that is not enabled;
 * ERR_PTR(-EPERM) for %AMDX_DEVICE_OPEN_F_VF without CAP_SYS_ADMIN;
 * ERR_PTR(-ENODEV) for an unknown device; ERR_PTR(-ENOMEM).
 */
struct file *amdx_ioctl_device_open(struct amdx_file *file, void *data)
{
	struct amdx_device_open *args = data;
	bool as_vf = args->flags & AMDX_DEVICE_OPEN_F_VF;
	struct amdx_device *adev;
	struct file *filp;

	if ((args->flags & ~AMDX_DEVICE_OPEN_F_VF) || (!as_vf && args->vf))
		return ERR_PTR(-EINVAL);
	if (as_vf && !capable(CAP_SYS_ADMIN))
		return ERR_PTR(-EPERM);
	adev = amdx_device_get(args->id);
	if (!adev)
		return ERR_PTR(-ENODEV);
	filp = amdx_device_file_open(adev, args->vf, as_vf);
	amdx_device_put(adev);
	return filp;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ioctl_device_open);

/* Indexed by command number, so amdx_ioctl_find() needs no search. */
static const struct amdx_ioctl_desc amdx_ioctls[] = {
	[_IOC_NR(AMDX_IOC_QUERY)] = {
		.cmd = AMDX_IOC_QUERY,
		.min_size = AMDX_QUERY_SIZE_VER0,
		.flags = AMDX_IOCTL_F_CONTROL | AMDX_IOCTL_F_DEVICE |
			 AMDX_IOCTL_F_OUT_ON_ERR,
		.func = amdx_ioctl_query,
		.name = "QUERY",
	},
	[_IOC_NR(AMDX_IOC_DEVICE_OPEN)] = {
		.cmd = AMDX_IOC_DEVICE_OPEN,
		.min_size = AMDX_DEVICE_OPEN_SIZE_VER0,
		.flags = AMDX_IOCTL_F_CONTROL,
		.open = amdx_ioctl_device_open,
		.fd_offset = offsetof(struct amdx_device_open, fd),
		.name = "DEVICE_OPEN",
	},
	[_IOC_NR(AMDX_IOC_HMM_SET_ATTR)] = {
		.cmd = AMDX_IOC_HMM_SET_ATTR,
		.min_size = AMDX_HMM_ATTR_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE,
		.func = amdx_ioctl_hmm_set_attr,
		.name = "HMM_SET_ATTR",
	},
	[_IOC_NR(AMDX_IOC_HMM_MIGRATE)] = {
		.cmd = AMDX_IOC_HMM_MIGRATE,
		.min_size = AMDX_HMM_MIGRATE_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE,
		.func = amdx_ioctl_hmm_migrate,
		.name = "HMM_MIGRATE",
	},
	[_IOC_NR(AMDX_IOC_HMM_ACCESS)] = {
		.cmd = AMDX_IOC_HMM_ACCESS,
		.min_size = AMDX_HMM_ACCESS_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE,
		.func = amdx_ioctl_hmm_access,
		.name = "HMM_ACCESS",
	},
	[_IOC_NR(AMDX_IOC_EVENT_SUBSCRIBE)] = {
		.cmd = AMDX_IOC_EVENT_SUBSCRIBE,
		.min_size = AMDX_EVENT_SUBSCRIBE_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE,
		.open = amdx_ioctl_event_subscribe,
		.fd_offset = offsetof(struct amdx_event_subscribe, fd),
		.name = "EVENT_SUBSCRIBE",
	},
	[_IOC_NR(AMDX_IOC_RAS_INJECT)] = {
		.cmd = AMDX_IOC_RAS_INJECT,
		.min_size = AMDX_RAS_INJECT_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE | AMDX_IOCTL_F_ADMIN |
			 AMDX_IOCTL_F_OUT_ON_ERR,
		.func = amdx_ioctl_ras_inject,
		.name = "RAS_INJECT",
	},
	[_IOC_NR(AMDX_IOC_RAS_SET_POLICY)] = {
		.cmd = AMDX_IOC_RAS_SET_POLICY,
		.min_size = AMDX_RAS_POLICY_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE | AMDX_IOCTL_F_ADMIN,
		.func = amdx_ioctl_ras_set_policy,
		.name = "RAS_SET_POLICY",
	},
	[_IOC_NR(AMDX_IOC_RAS_BADPAGES_IMPORT)] = {
		.cmd = AMDX_IOC_RAS_BADPAGES_IMPORT,
		.min_size = AMDX_RAS_BADPAGES_IMPORT_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE | AMDX_IOCTL_F_ADMIN,
		.func = amdx_ioctl_ras_badpages_import,
		.name = "RAS_BADPAGES_IMPORT",
	},
	[_IOC_NR(AMDX_IOC_RECOVERY_PLAN)] = {
		.cmd = AMDX_IOC_RECOVERY_PLAN,
		.min_size = AMDX_RECOVERY_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE | AMDX_IOCTL_F_OUT_ON_ERR,
		.func = amdx_ioctl_recovery_plan,
		.name = "RECOVERY_PLAN",
	},
	[_IOC_NR(AMDX_IOC_RECOVERY_RUN)] = {
		.cmd = AMDX_IOC_RECOVERY_RUN,
		.min_size = AMDX_RECOVERY_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE | AMDX_IOCTL_F_ADMIN |
			 AMDX_IOCTL_F_OUT_ON_ERR,
		.func = amdx_ioctl_recovery_run,
		.name = "RECOVERY_RUN",
	},
	[_IOC_NR(AMDX_IOC_PARTITION_PLAN)] = {
		.cmd = AMDX_IOC_PARTITION_PLAN,
		.min_size = AMDX_PARTITION_CONFIG_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE | AMDX_IOCTL_F_OUT_ON_ERR,
		.func = amdx_ioctl_partition_plan,
		.name = "PARTITION_PLAN",
	},
	[_IOC_NR(AMDX_IOC_PARTITION_COMMIT)] = {
		.cmd = AMDX_IOC_PARTITION_COMMIT,
		.min_size = AMDX_PARTITION_CONFIG_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE | AMDX_IOCTL_F_ADMIN |
			 AMDX_IOCTL_F_OUT_ON_ERR,
		.func = amdx_ioctl_partition_commit,
		.name = "PARTITION_COMMIT",
	},
	[_IOC_NR(AMDX_IOC_VF_ENABLE)] = {
		.cmd = AMDX_IOC_VF_ENABLE,
		.min_size = AMDX_VF_ENABLE_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE | AMDX_IOCTL_F_ADMIN |
			 AMDX_IOCTL_F_OUT_ON_ERR,
		.func = amdx_ioctl_vf_enable,
		.name = "VF_ENABLE",
	},
	[_IOC_NR(AMDX_IOC_VF_DISABLE)] = {
		.cmd = AMDX_IOC_VF_DISABLE,
		.min_size = AMDX_VF_DISABLE_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE | AMDX_IOCTL_F_ADMIN,
		.func = amdx_ioctl_vf_disable,
		.name = "VF_DISABLE",
	},
	[_IOC_NR(AMDX_IOC_VF_SET)] = {
		.cmd = AMDX_IOC_VF_SET,
		.min_size = AMDX_VF_SET_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE | AMDX_IOCTL_F_ADMIN,
		.func = amdx_ioctl_vf_set,
		.name = "VF_SET",
	},
	[_IOC_NR(AMDX_IOC_VF_RESET)] = {
		.cmd = AMDX_IOC_VF_RESET,
		.min_size = AMDX_VF_RESET_SIZE_VER0,
		.flags = AMDX_IOCTL_F_DEVICE | AMDX_IOCTL_F_ADMIN |
			 AMDX_IOCTL_F_OUT_ON_ERR,
		.func = amdx_ioctl_vf_reset,
		.name = "VF_RESET",
	},
};

/**
 * amdx_ioctl() - the unlocked_ioctl of every amdx fd
 * @file: the amdx file.
 * @flags: kind of fd, %AMDX_IOCTL_F_CONTROL or %AMDX_IOCTL_F_DEVICE.
 * @cmd: the command.
 * @arg: user pointer to the argument.
 *
 * Return: 0 or -errno, see amdx_ioctl_dispatch().
 */
long amdx_ioctl(struct amdx_file *file, unsigned int flags, unsigned int cmd,
		unsigned long arg)
{
	return amdx_ioctl_dispatch(amdx_ioctls, ARRAY_SIZE(amdx_ioctls), file,
				   flags, cmd, (void *)arg, &amdx_uaccess_user);
}

static int amdx_open(struct inode *inode, struct file *filp)
{
	struct amdx_file *file;

	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file)
		return -ENOMEM;
	filp->private_data = file;
	return 0;
}

static int amdx_release(struct inode *inode, struct file *filp)
{
	kfree(filp->private_data);
	return 0;
}

static long amdx_control_ioctl(struct file *filp, unsigned int cmd,
			       unsigned long arg)
{
	return amdx_ioctl(filp->private_data, AMDX_IOCTL_F_CONTROL, cmd, arg);
}

static const struct file_operations amdx_fops = {
	.owner = THIS_MODULE,
	.open = amdx_open,
	.release = amdx_release,
	.unlocked_ioctl = amdx_control_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice amdx_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = AMDX_DEVICE_NAME,
	.fops = &amdx_fops,
	.mode = 0660,
};

/**
 * amdx_chardev_init() - create /dev/amdx
 *
 * Return: 0 or misc_register()'s error.
 */
int amdx_chardev_init(void)
{
	return misc_register(&amdx_misc);
}

/**
 * amdx_chardev_fini() - remove /dev/amdx
 */
void amdx_chardev_fini(void)
{
	misc_deregister(&amdx_misc);
}
