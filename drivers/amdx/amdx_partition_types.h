/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The partition manager's state, shared by amdx_partition.c (objects,
 * transactions, queries, RAS interface), amdx_partition_vf.c (VFs) and
 * amdx_partition_sysfs.c.  Locking: see the DOC block of amdx_partition.c.
 */
#ifndef _AMDX_PARTITION_TYPES_H_
#define _AMDX_PARTITION_TYPES_H_

#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/types.h>
#include <linux/amdx.h>

/**
 * struct amdx_part_obj - one compute partition
 * @state: %AMDX_PART_STATE_*.
 * @xcc_mask: its XCCs.
 * @sdma_mask: SDMA instances serving it.
 * @vcn_mask: VCN instances serving it (shared when there are fewer).
 * @mem_partition: the memory partition local to it.
 * @vf: VF bound to it, or %AMDX_VF_NONE.
 * @resets: partition resets.
 */
struct amdx_part_obj {
	u32 state;
	u32 xcc_mask;
	u32 sdma_mask;
	u32 vcn_mask;
	u32 mem_partition;
	u32 vf;
	u32 resets;
};

/**
 * struct amdx_part_layout - the partitions of one configuration
 * @compute_mode: %AMDX_COMPUTE_*.
 * @memory_mode: %AMDX_MEMORY_*.
 * @num_partitions: valid entries in @parts.
 * @num_memory: memory partitions.
 * @generation: layout changes so far.
 * @parts: the compute partitions.
 *
 * A commit snapshots it whole: restoring the copy is the rollback.
 */
struct amdx_part_layout {
	u32 compute_mode;
	u32 memory_mode;
	u32 num_partitions;
	u32 num_memory;
	u64 generation;
	struct amdx_part_obj parts[AMDX_MAX_PARTITIONS];
};

/**
 * struct amdx_part_vf - one enabled VF
 * @cfg: its provisioning.
 * @state: %AMDX_PART_STATE_*.
 * @resets: resets since enabled.
 * @reset_ns: CLOCK_MONOTONIC times of the last resets, a ring.
 * @reset_next: next slot of @reset_ns.
 */
struct amdx_part_vf {
	struct amdx_vf_config cfg;
	u32 state;
	u32 resets;
	u64 reset_ns[AMDX_VF_RESET_LIMIT];
	u32 reset_next;
};

/**
 * struct amdx_part_dev - partition and SR-IOV state of one device
 * @lock: protects everything below but @gate.
 * @gate: HMM migrations hold it for read; a commit from QUIESCE on,
 *	VF_ENABLE and VF_DISABLE hold it for write, so no VRAM is allocated
 *	meanwhile.
 * @gate_key: @gate's lockdep class, one per device: a hive commit closes
 *	the gates of all members, killably and in the order of their device
 *	ids, which no nest-lock annotation allows (amdx_partition.c).
 * @cur: the current partitions.
 * @num_vfs: VFs enabled.  Changes with @gate held for write too.
 * @vf_epoch: incremented by every VF enable and disable; device fds
 *	opened for a VF remember it.  Changes with @gate held for write too,
 *	so holders of @gate read it (and @num_vfs) without @lock.
 * @vfs: the enabled VFs.
 */
struct amdx_part_dev {
	struct mutex lock;	/* see above */
	struct rw_semaphore gate;
	struct lock_class_key gate_key;
	struct amdx_part_layout cur;
	u32 num_vfs;
	u64 vf_epoch;
	struct amdx_part_vf vfs[AMDX_MAX_VFS];
};

#endif /* _AMDX_PARTITION_TYPES_H_ */
