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
 * /dev/amdx (amdx_chardev.c) follows /dev/kfd: the kernel creates it
 * root:root 0660 and the udev rule the package ships (udev/70-amdx.rules)
 * gives it to group render, so members of render and root may open it,
 * nobody else (Documentation/security.rst).
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/module.h>

#include "amdx_chardev.h"
#include "amdx_core.h"
#include "amdx_debugfs.h"
#include "amdx_hmm_standin.h"
#include "amdx_query.h"
#include "amdx_sysfs.h"

static int __init amdx_init(void)
{
	int ret;

	ret = amdx_hmm_standin_init();
	if (ret)
		goto err;
	ret = amdx_sysfs_init();
	if (ret)
		goto err_standin;
	amdx_debugfs_init();
	ret = amdx_chardev_init();
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
err_standin:
	amdx_hmm_standin_fini();
err:
	pr_err("amdx: init failed: %pe\n", ERR_PTR(ret));
	return ret;
}

static void __exit amdx_exit(void)
{
	amdx_chardev_fini();
	amdx_debugfs_fini();
	amdx_sysfs_fini();
	amdx_device_registry_fini();
	amdx_hmm_standin_fini();
}

module_init(amdx_init);
module_exit(amdx_exit);

MODULE_DESCRIPTION("amdx: RAS containment, partitions and HMM for AMD Instinct");
MODULE_AUTHOR("The amdx authors");
MODULE_LICENSE("GPL");
/* dkms.conf's PACKAGE_VERSION (Kbuild); amdx --version reads it in sysfs. */
MODULE_VERSION(AMDX_MODULE_VERSION);
