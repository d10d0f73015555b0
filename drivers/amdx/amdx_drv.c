// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: amdx module
 *
 * amdx.ko is the core: the /dev/amdx misc device and its ioctls, the device
 * registry that providers feed, sysfs and tracepoints.  Providers are
 * separate modules (amdx_sim.ko); the core includes none of their headers.
 *
 * /dev/amdx follows /dev/kfd: the kernel creates it root:root 0660 and
 * the udev rule the package ships (udev/70-amdx.rules) gives it to group
 * render, so members of render and root may open it, nobody else
 * (Documentation/security.rst).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "amdx_core.h"
#include "amdx_ioctl.h"

#define CREATE_TRACE_POINTS
#include "amdx_trace.h"

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

static int __init amdx_init(void)
{
	int ret;

	ret = amdx_sysfs_init();
	if (ret)
		return ret;
	amdx_debugfs_init();
	ret = misc_register(&amdx_misc);
	if (ret)
		goto err_sysfs;
	pr_info("amdx: uapi %u.%u, caps %#llx%s\n", AMDX_UAPI_VERSION_MAJOR,
		AMDX_UAPI_VERSION_MINOR, amdx_caps(),
		IS_ENABLED(CONFIG_DEVICE_PRIVATE) ? "" :
		" (no CONFIG_DEVICE_PRIVATE: HMM migration unavailable)");
	return 0;

err_sysfs:
	amdx_debugfs_fini();
	amdx_sysfs_fini();
	return ret;
}

static void __exit amdx_exit(void)
{
	misc_deregister(&amdx_misc);
	amdx_debugfs_fini();
	amdx_sysfs_fini();
	amdx_device_registry_fini();
}

module_init(amdx_init);
module_exit(amdx_exit);

MODULE_DESCRIPTION("amdx: RAS containment, partitions and HMM for AMD Instinct");
MODULE_AUTHOR("The amdx authors");
MODULE_LICENSE("GPL");
/* dkms.conf's PACKAGE_VERSION (Kbuild); amdx --version reads it in sysfs. */
MODULE_VERSION(AMDX_MODULE_VERSION);
