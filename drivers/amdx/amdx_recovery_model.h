/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The recovery model (amdx_recovery_model.c): which recovery action
 * suffices for a fault, the cheapest one a device can carry out, and what
 * each action takes down with it.  Pure logic over a topology passed in,
 * so KUnit drives it without a device.
 */
#ifndef _AMDX_RECOVERY_MODEL_H_
#define _AMDX_RECOVERY_MODEL_H_

#include <linux/types.h>
#include <linux/amdx.h>

#include <amdx/amdx_provider.h>

/* Actions (%AMDX_RECOVER_*) and faults (%AMDX_FAULT_*) are the uapi's. */

/* A device's resets are %AMDX_RECOVER_CAP_* (amdx/amdx_provider.h). */

/* Most devices a topology holds (as many as amdx can register). */
#define AMDX_RECOVERY_MAX_DEVICES	AMDX_MAX_DEVICES

/* AMDX_RECOVER_RMA: no estimate, the board is out until replaced. */
#define AMDX_RECOVERY_EST_NEVER		U32_MAX

/**
 * struct amdx_recovery_dev - one device as recovery sees it
 * @hive: XGMI hive, 0 if none; devices with the same non-zero @hive share
 *	it.
 * @pci_switch: the PCIe switch above the device, 0 if on a root port.
 * @caps: %AMDX_RECOVER_CAP_*.
 * @reset_takes_hive: a device reset resets every device of its hive
 *	(amdgpu resets an XGMI hive as one).
 * @reset_is_sbr: a device reset is a secondary bus reset of @pci_switch's
 *	port, so it takes every device below that switch.
 * @num_partitions: compute partitions of the current mode, 1..8.
 * @num_vfs: enabled VFs.
 * @vf_partitions: per VF, the compute partitions bound to it (bit N:
 *	partition N).
 * @mem: per compute partition, the memory partitions local to it (bit N:
 *	memory partition N); two partitions' are equal or disjoint.  0 when
 *	not known: each partition's memory its own.
 * @procs: per compute partition, the processes holding its memory;
 *	partitions of equal @mem share them, and count them once.
 * @procs_device: processes holding the device as a whole.
 * @est_ms: per %AMDX_RECOVER_* action, the time it takes on this device;
 *	each figure's source is the provider's (Documentation/ras.rst).
 */
struct amdx_recovery_dev {
	u64 hive;
	u32 pci_switch;
	u32 caps;
	bool reset_takes_hive;
	bool reset_is_sbr;
	u32 num_partitions;
	u32 num_vfs;
	u8 vf_partitions[AMDX_MAX_VFS];
	u8 mem[AMDX_MAX_PARTITIONS];
	u32 procs[AMDX_MAX_PARTITIONS];
	u32 procs_device;
	u32 est_ms[AMDX_RECOVER_COUNT];
};

/**
 * struct amdx_recovery_topo - the devices of one node
 * @num: devices in @dev.
 * @node_reboot_ms: what rebooting the node takes.
 * @dev: the devices, indexed by amdx device id or any dense index.
 */
struct amdx_recovery_topo {
	u32 num;
	u32 node_reboot_ms;
	struct amdx_recovery_dev dev[AMDX_RECOVERY_MAX_DEVICES];
};

/**
 * struct amdx_recovery_fault - a fault, and where it hit
 * @kind: %AMDX_FAULT_*.
 * @device: index into &struct amdx_recovery_topo.dev.
 * @partition: compute partition, or %AMDX_RAS_PARTITION_ALL when the fault
 *	belongs to the whole device.
 * @vf: the VF for %AMDX_FAULT_VF_HANG; ignored otherwise.
 * @uncorrected: a %AMDX_FAULT_PAGE_CE whose error was uncorrectable: a
 *	deferred error in HBM nothing consumed (a poison created, its page
 *	poison-retired).  The ladder needs nothing more for it than for a
 *	corrected one; a replay baseline may (amdx_recovery_policy.c).
 *	Ignored for the other kinds, uncorrectable all.
 */
struct amdx_recovery_fault {
	u32 kind;
	u32 device;
	u32 partition;
	u32 vf;
	bool uncorrected;
};

/**
 * struct amdx_recovery_scope - what one action takes down
 * @devices: bit N: device N is reset (all its partitions, VFs and
 *	processes with it).
 * @peers: bit N: device N stays up but must drain its peer-to-peer
 *	traffic to a reset device first (a hive member outside @devices).
 * @partitions: per device, the compute partitions reset (every one of a
 *	device in @devices).
 * @vfs: per device, the VFs reset with them.
 * @num_devices: devices in @devices.
 * @num_partitions: partitions in @partitions, over all devices.
 * @num_vfs: VFs in @vfs, over all devices.
 * @num_processes: processes stopped, an upper bound when one process
 *	holds several of the partitions.
 * @est_ms: estimated time to recover, or %AMDX_RECOVERY_EST_NEVER.
 */
struct amdx_recovery_scope {
	u64 devices;
	u64 peers;
	u8 partitions[AMDX_RECOVERY_MAX_DEVICES];
	u8 vfs[AMDX_RECOVERY_MAX_DEVICES];
	u32 num_devices;
	u32 num_partitions;
	u32 num_vfs;
	u32 num_processes;
	u32 est_ms;
};

int amdx_recovery_topo_check(const struct amdx_recovery_topo *t);
u32 amdx_recovery_need(u32 fault_kind);
bool amdx_recovery_can(const struct amdx_recovery_topo *t, u32 device,
		       u32 action);
bool amdx_recovery_suffices(const struct amdx_recovery_topo *t,
			    const struct amdx_recovery_fault *f, u32 action);
int amdx_recovery_choose(const struct amdx_recovery_topo *t,
			 const struct amdx_recovery_fault *f, u32 *action);
int amdx_recovery_escalate(const struct amdx_recovery_topo *t,
			   const struct amdx_recovery_fault *f, u32 *action);
int amdx_recovery_scope(const struct amdx_recovery_topo *t,
			const struct amdx_recovery_fault *f, u32 action,
			struct amdx_recovery_scope *s);
u64 amdx_recovery_sum(u32 action, const struct amdx_recovery_scope *s);
const char *amdx_recovery_action_name(u32 action);
const char *amdx_recovery_fault_name(u32 kind);

#endif /* _AMDX_RECOVERY_MODEL_H_ */
