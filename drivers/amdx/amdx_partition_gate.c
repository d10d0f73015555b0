// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: partition VRAM gate
 *
 * What the HMM path and the device fds ask the partition manager: the
 * VRAM gate every migration passes and whether a VF's fd may allocate.
 * A migration is inside the gate (&amdx_part_dev.gate) between
 * amdx_partition_vram_begin() and _end(); a commit closes it from
 * QUIESCE on, VF enable and disable while they change the VFs, VF reset
 * while it clears a VF's VRAM and a RAS device reset while it runs, with
 * amdx_partition_vram_close() and _open().  A leaf of its own below the features, so HMM reads
 * partition state without depending on the partition manager, which
 * itself drains memory through HMM (amdx_partition.c).
 */
#include <linux/err.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/rwsem.h>

#include "amdx_core.h"
#include "amdx_partition_gate.h"
#include "amdx_partition_types.h"

/**
 * amdx_partition_vram_begin() - enter the VRAM gate before a migration
 * @adev: the device.
 *
 * Waits while a partition commit or VF disable is under way.
 *
 * Return: 0, or -EINTR on a fatal signal.
 */
int amdx_partition_vram_begin(struct amdx_device *adev)
{
	return down_read_killable(&adev->part->gate);
}

/**
 * amdx_partition_vram_trybegin() - enter the VRAM gate if it is open
 * @adev: the device.
 *
 * For a move that must not wait and has somewhere else to go: RAS soft
 * retirement, under &amdx_ras.lock, which a partition reset takes before
 * the partition lock and so before the gate.
 *
 * Return: true when inside the gate (leave with amdx_partition_vram_end()),
 * false when a commit, VF change or reset holds it closed.
 */
bool amdx_partition_vram_trybegin(struct amdx_device *adev)
{
	return down_read_trylock(&adev->part->gate);
}

/**
 * amdx_partition_vram_end() - leave the VRAM gate
 * @adev: the device.
 */
void amdx_partition_vram_end(struct amdx_device *adev)
{
	up_read(&adev->part->gate);
}

/**
 * amdx_partition_vram_close() - close the VRAM gate
 * @adev: the device.
 *
 * Waits for the migrations inside the gate; none enters until
 * amdx_partition_vram_open().  VF count, generation, layouts and VF
 * bindings change only with the gate closed.
 *
 * Return: 0, or -EINTR on a fatal signal.
 */
int amdx_partition_vram_close(struct amdx_device *adev)
{
	return down_write_killable(&adev->part->gate);
}

/**
 * amdx_partition_vram_open() - open the VRAM gate closed by
 *	amdx_partition_vram_close()
 * @adev: the device.
 */
void amdx_partition_vram_open(struct amdx_device *adev)
{
	up_write(&adev->part->gate);
}

/**
 * amdx_partition_vf_open() - check a VF for a new device fd
 * @adev: the device (no lock held).
 * @vf: the VF.
 * @epoch: out: the VF generation the fd belongs to.
 *
 * Return: 0, or -EINVAL when @vf is not enabled, -ENODEV when the device
 * is gone.
 */
int amdx_partition_vf_open(struct amdx_device *adev, u32 vf, u64 *epoch)
{
	struct amdx_part_dev *p = adev->part;
	int ret = 0;

	down_read(&adev->lock);
	mutex_lock(&p->lock);
	if (adev->dead) {
		ret = -ENODEV;
	} else if (vf >= p->num_vfs) {
		amdx_dbg(adev, "device open for VF %u: not enabled\n", vf);
		ret = -EINVAL;
	}
	*epoch = p->vf_epoch;
	mutex_unlock(&p->lock);
	up_read(&adev->lock);
	return ret;
}

/**
 * amdx_partition_vf_check() - may a VF's device fd allocate VRAM
 * @adev: the device.
 * @vf: the fd's VF.
 * @epoch: the VF generation the fd was opened in.
 * @evict: out: the VF's %AMDX_VF_F_EVICT policy.
 *
 * The caller is inside the VRAM gate (amdx_partition_vram_begin()): the
 * VF count and generation only change with the gate held for write, so
 * they cannot change until the caller's allocations are done.  A VF's
 * state and flags may change meanwhile; the next migration sees them.
 *
 * Return: 0; -ENODEV when the VFs were disabled (or enabled anew) since;
 * -EBUSY when the VF is quarantined or offline.
 */
int amdx_partition_vf_check(struct amdx_device *adev, u32 vf, u64 epoch,
			    bool *evict)
{
	struct amdx_part_dev *p = adev->part;
	int ret = 0;

	lockdep_assert_held_read(&p->gate);
	if (epoch != p->vf_epoch || vf >= p->num_vfs)
		ret = -ENODEV;
	else if (READ_ONCE(p->vfs[vf].state) != AMDX_PART_STATE_ONLINE)
		ret = -EBUSY;
	else
		*evict = READ_ONCE(p->vfs[vf].cfg.flags) & AMDX_VF_F_EVICT;
	if (ret)
		amdx_dbg(adev, "VF %u fd may not allocate VRAM: %pe\n",
			 vf, ERR_PTR(ret));
	return ret;
}

/**
 * amdx_partition_mem_check() - may an fd place data in a memory partition
 * @adev: the device.
 * @mem: the memory partition, below the device's count.
 * @vf: the fd's VF, %AMDX_VF_NONE for the PF's fds.
 *
 * A tenant's VRAM is the tenant's: a memory partition whose compute
 * partitions are all bound to one VF is that VF's, and no other fd (the
 * PF's included) places data there.  A memory partition shared by
 * several tenants (NPS1 under CPX with two VFs, or a VF's partition next
 * to an unbound one) is shared VRAM, where quotas and same-owner eviction
 * keep tenants apart (amdx_hmm_evict.c).  A memory partition local to a
 * quarantined or offline compute partition takes no new data: the uapi's
 * "no new work or allocations".
 *
 * The caller is inside the VRAM gate (amdx_partition_vram_begin()):
 * layouts and VF bindings change only with the gate held for write, so
 * they are read without &amdx_part_dev.lock (which comes before the gate
 * in the lock order); a partition's state may change meanwhile, and the
 * next migration sees it.
 *
 * Return: 0; -EACCES when @mem is another tenant's; -EBUSY when a compute
 * partition local to it is quarantined or offline.
 */
int amdx_partition_mem_check(struct amdx_device *adev, u32 mem, u32 vf)
{
	struct amdx_part_dev *p = adev->part;
	u32 i, tenant = AMDX_VF_NONE, parts = 0;
	bool shared = false, busy = false;
	const struct amdx_part_obj *o;

	lockdep_assert_held_read(&p->gate);
	for (i = 0; i < p->cur.num_partitions; i++) {
		o = &p->cur.parts[i];
		if (o->mem_partition != mem)
			continue;
		if (READ_ONCE(o->state) != AMDX_PART_STATE_ONLINE)
			busy = true;
		if (!parts++)
			tenant = o->vf;
		else if (o->vf != tenant)
			shared = true;
	}
	if (!shared && tenant != AMDX_VF_NONE && tenant != vf) {
		amdx_dbg(adev, "memory partition %u is VF %u's\n", mem, tenant);
		return -EACCES;
	}
	if (busy) {
		amdx_dbg(adev, "memory partition %u is out of service\n", mem);
		return -EBUSY;
	}
	return 0;
}
