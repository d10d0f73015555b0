// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: amdx_sim module
 *
 * amdx_sim.ko simulates AMD Instinct devices for amdx, in the manner of
 * netdevsim and lib/test_hmm.c: no hardware, every device is created from
 * user space through the amdx_sim bus (see amdx_sim_bus.c) and registered
 * with the amdx core as a provider.  Unloading removes every device.
 *
 * Init order: debugfs root, then the bus (devices may appear as soon as it
 * exists); exit in reverse.
 */
#include <linux/module.h>

#include "amdx_sim.h"

static int __init amdx_sim_init(void)
{
	int ret;

	amdx_sim_debugfs_init();

	ret = amdx_sim_bus_init();
	if (ret)
		goto err_debugfs;
	return 0;

err_debugfs:
	amdx_sim_debugfs_exit();
	return ret;
}

static void __exit amdx_sim_exit(void)
{
	amdx_sim_bus_exit();
	amdx_sim_eeprom_exit();
	amdx_sim_debugfs_exit();
}

module_init(amdx_sim_init);
module_exit(amdx_sim_exit);

MODULE_DESCRIPTION("Simulated AMD Instinct devices for amdx");
MODULE_AUTHOR("The amdx authors");
MODULE_LICENSE("GPL");
