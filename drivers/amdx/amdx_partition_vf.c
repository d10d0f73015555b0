// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: SR-IOV virtual functions
 *
 * VF_ENABLE validates the whole provisioning before the provider brings
 * any VF up (Intel xe's PF model): the model's VF counts for the current
 * modes, then fair (auto) or custom per-VF resources
 * (amdx_vf_provision.c), the quotas together against the VRAM.  The
 * provider brings all VFs up or none.  VF n's VRAM quota is the VRAM
 * allocator's quota of owner n + 1; device fds opened for a VF charge it.
 *
 * ::
 *
 *   VF_ENABLE --> validate all --> gate (write) --> provider vf_enable
 *                                                   bind partitions
 *   VF_RESET  --> rate limit (3 per 60 s, else quarantine, -EBUSY)
 *                 --> gate (write) --> provider vf_flr: guest ack
 *                     <= 10 ms, reset, clear the VF's VRAM
 *                 --> AMDX_EVENT_VF_RESET (cause FLR)
 *   RAS resets a partition bound to a VF
 *                 --> AMDX_EVENT_VF_RESET (cause RAS, the partition)
 *   VF fd MIGRATE --> gate (read) --> VF generation and state checked
 *                 --> allocations charged to the VF; at its quota
 *                     skip, or evict its own LRU data (AMDX_VF_F_EVICT)
 *
 * An FLR clears the VF's VRAM, as GIM clears a VF's framebuffer before
 * the next guest: every page charged to the VF reads zero afterwards.
 * Processes that had data there keep their mappings and find zeroes, the
 * way a guest finds its VRAM after a reset (amdgpu's "VRAM lost"), not
 * a SIGBUS: the data is gone by design, not by a fault, and the VF_RESET
 * event says how many bytes the VF held.  The gate is held for write
 * across the FLR so no migration places data in the VF's VRAM meanwhile.
 *
 * Locking: the partition mutex of the device; the VF count and the VF
 * generation change with the VRAM gate held for write as well.  Order:
 * partition mutex -> gate.
 */
#include <linux/bitops.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_partition_gate.h"
#include "amdx_partition_model.h"
#include "amdx_partition_vf.h"
#include "amdx_partition_types.h"
#include "amdx_vf_provision.h"

static bool amdx_part_vf_capable(const struct amdx_device *adev)
{
	return adev->ops->vf_enable && adev->ops->vf_disable &&
	       adev->ops->vf_configure && adev->ops->vf_flr;
}

static bool amdx_part_all_online(const struct amdx_part_layout *l)
{
	u32 i;

	for (i = 0; i < l->num_partitions; i++)
		if (l->parts[i].state != AMDX_PART_STATE_ONLINE)
			return false;
	return true;
}

static int amdx_vf_refuse(struct amdx_device *adev,
			  struct amdx_vf_enable *args, u32 reason, u32 vf,
			  int err, const char *why)
{
	args->reason = reason;
	args->bad_vf = vf;
	amdx_dbg(adev, "VF enable of %u VFs refused (VF %d): %s: %s\n",
		 args->num_vfs, vf == AMDX_VF_NONE ? -1 : (int)vf,
		 amdx_partition_reason_name(reason), why);
	return err;
}

/* Fill @cfg with the custom configs at @args->configs. */
static int amdx_vf_copy_configs(struct amdx_device *adev,
				struct amdx_vf_enable *args,
				struct amdx_vf_config *cfg)
{
	void __user *src = u64_to_user_ptr(args->configs);
	u32 i;
	int ret;

	for (i = 0; i < args->num_vfs; i++) {
		/* Without the device lock: the copy may block indefinitely. */
		ret = amdx_device_copy_struct_from_user(adev, &cfg[i],
							sizeof(cfg[i]),
							src + (size_t)i *
							args->config_size,
							args->config_size);
		if (ret)
			return ret;
	}
	return 0;
}

static int amdx_vf_provision(struct amdx_device *adev,
			     struct amdx_vf_enable *args,
			     struct amdx_vf_config *cfg)
{
	u32 nparts = adev->part->cur.num_partitions, bad_vf;
	const char *why;
	int ret;

	if (!(args->flags & AMDX_VF_ENABLE_F_CUSTOM)) {
		ret = amdx_vf_provision_fair(adev->desc.vram_size,
					     args->num_vfs, nparts, cfg);
		if (ret)
			return amdx_vf_refuse(adev, args,
					      AMDX_PART_REASON_VF_PROVISION,
					      AMDX_VF_NONE, ret,
					      "fair VRAM share under 256 MiB");
		return 0;
	}

	ret = amdx_vf_provision_check(adev->desc.vram_size, cfg,
				      args->num_vfs, nparts, &bad_vf, &why);
	if (ret)
		return amdx_vf_refuse(adev, args,
				      AMDX_PART_REASON_VF_PROVISION, bad_vf,
				      ret, why);
	return 0;
}

/**
 * amdx_ioctl_vf_enable() - %AMDX_IOC_VF_ENABLE
 * @file: a device fd.
 * @data: &struct amdx_vf_enable.
 *
 * Return: 0; -EINVAL for malformed arguments or with @reason (VFs enabled
 * already, VF count the model or mode does not allow, a partition not
 * online, a bad custom config: @bad_vf); -E2BIG for a @config_size above
 * PAGE_SIZE; -ENOSPC when the VRAM quotas do not fit; -EOPNOTSUPP without
 * SR-IOV; the provider's error.
 */
int amdx_ioctl_vf_enable(struct amdx_file *file, void *data)
{
	struct amdx_vf_enable *args = data;
	struct amdx_device *adev = file->adev;
	struct amdx_part_dev *p = adev->part;
	bool custom = args->flags & AMDX_VF_ENABLE_F_CUSTOM;
	struct amdx_vf_config *cfg;
	u32 reason, i, b;
	int ret;

	args->reason = AMDX_PART_REASON_NONE;
	args->bad_vf = AMDX_VF_NONE;
	if ((args->flags & ~AMDX_VF_ENABLE_F_CUSTOM) || args->pad ||
	    args->reserved[0] || args->reserved[1] || custom != !!args->configs ||
	    (custom && args->config_size < AMDX_VF_CONFIG_SIZE_VER0) ||
	    (!custom && args->config_size) || !args->num_vfs ||
	    args->num_vfs > AMDX_MAX_VFS) {
		amdx_dbg(adev, "VF enable: malformed arguments\n");
		return -EINVAL;
	}
	/* As openat2() and clone3(): one page per entry is plenty. */
	if (args->config_size > PAGE_SIZE) {
		amdx_dbg(adev, "VF enable: config_size %u above a page\n",
			 args->config_size);
		return -E2BIG;
	}
	if (!amdx_part_vf_capable(adev)) {
		amdx_dbg(adev, "provider has no SR-IOV\n");
		return -EOPNOTSUPP;
	}
	cfg = kcalloc(args->num_vfs, sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	if (custom) {
		ret = amdx_vf_copy_configs(adev, args, cfg);
		if (ret) {
			if (ret == -E2BIG)
				ret = amdx_vf_refuse(adev, args,
						     AMDX_PART_REASON_VF_PROVISION,
						     AMDX_VF_NONE, -EINVAL,
						     "unknown config fields set");
			goto out_free;
		}
	}

	mutex_lock(&p->lock);
	if (p->num_vfs) {
		ret = amdx_vf_refuse(adev, args, AMDX_PART_REASON_VFS_ENABLED,
				     AMDX_VF_NONE, -EINVAL, "disable them first");
		goto out_unlock;
	}
	if (amdx_partition_check(adev->desc.model, p->cur.compute_mode,
				 p->cur.memory_mode, args->num_vfs, &reason)) {
		ret = amdx_vf_refuse(adev, args, reason, AMDX_VF_NONE, -EINVAL,
				     "partition model");
		goto out_unlock;
	}
	if (args->num_vfs > adev->desc.max_vfs) {
		ret = amdx_vf_refuse(adev, args, AMDX_PART_REASON_VF_PROVISION,
				     AMDX_VF_NONE, -EINVAL,
				     "more VFs than the device supports");
		goto out_unlock;
	}
	if (!amdx_part_all_online(&p->cur)) {
		ret = amdx_vf_refuse(adev, args,
				     AMDX_PART_REASON_PARTITION_STATE,
				     AMDX_VF_NONE, -EINVAL, "partition state");
		goto out_unlock;
	}
	ret = amdx_vf_provision(adev, args, cfg);
	if (ret)
		goto out_unlock;

	/* The VF count and generation change only with the gate closed. */
	if (amdx_partition_vram_close(adev)) {
		ret = -EINTR;
		goto out_unlock;
	}
	ret = adev->ops->vf_enable(adev, args->num_vfs, cfg);
	if (ret) {
		amdx_partition_vram_open(adev);
		amdx_info_ratelimited(adev, "enabling %u VFs failed: %pe\n",
				      args->num_vfs, ERR_PTR(ret));
		goto out_unlock;
	}
	memset(p->vfs, 0, sizeof(p->vfs));
	for (i = 0; i < args->num_vfs; i++) {
		p->vfs[i].cfg = cfg[i];
		p->vfs[i].state = AMDX_PART_STATE_ONLINE;
		for (b = 0; b < p->cur.num_partitions; b++)
			if (cfg[i].partition_mask & BIT(b))
				p->cur.parts[b].vf = i;
	}
	p->num_vfs = args->num_vfs;
	p->vf_epoch++;
	p->cur.generation++;
	amdx_partition_vram_open(adev);
out_unlock:
	mutex_unlock(&p->lock);
out_free:
	kfree(cfg);
	return ret;
}

/**
 * amdx_ioctl_vf_disable() - %AMDX_IOC_VF_DISABLE
 * @file: a device fd.
 * @data: &struct amdx_vf_disable.
 *
 * Return: 0; -EINVAL for non-zero flags or pad or when no VF is enabled;
 * -EBUSY while a VF holds VRAM (close its device fds first);
 * -EOPNOTSUPP without SR-IOV; -EINTR.
 */
int amdx_ioctl_vf_disable(struct amdx_file *file, void *data)
{
	struct amdx_vf_disable *args = data;
	struct amdx_device *adev = file->adev;
	struct amdx_part_dev *p = adev->part;
	struct amdx_device_state st = {};
	u32 i;
	int ret;

	if (args->flags || args->pad) {
		amdx_dbg(adev, "VF disable: non-zero flags or pad\n");
		return -EINVAL;
	}
	if (!amdx_part_vf_capable(adev))
		return -EOPNOTSUPP;
	mutex_lock(&p->lock);
	if (!p->num_vfs) {
		amdx_dbg(adev, "VF disable: no VF enabled\n");
		ret = -EINVAL;
		goto out_unlock;
	}
	/* No migration may charge a VF while it goes away. */
	if (amdx_partition_vram_close(adev)) {
		ret = -EINTR;
		goto out_unlock;
	}
	ret = adev->ops->get_state(adev, &st);
	for (i = 0; !ret && i < p->num_vfs; i++) {
		if (st.vf_vram_used[i]) {
			amdx_dbg(adev, "VF disable: VF %u holds %llu bytes of VRAM\n",
				 i, st.vf_vram_used[i]);
			ret = -EBUSY;
		}
	}
	if (!ret) {
		adev->ops->vf_disable(adev);
		for (i = 0; i < p->cur.num_partitions; i++)
			p->cur.parts[i].vf = AMDX_VF_NONE;
		memset(p->vfs, 0, sizeof(p->vfs));
		p->num_vfs = 0;
		p->vf_epoch++;
		p->cur.generation++;
	}
	amdx_partition_vram_open(adev);
out_unlock:
	mutex_unlock(&p->lock);
	return ret;
}

/**
 * amdx_ioctl_vf_set() - %AMDX_IOC_VF_SET
 * @file: a device fd.
 * @data: &struct amdx_vf_set.
 *
 * Return: 0; -EINVAL for a VF not enabled, no or unknown @valid bits, a
 * partition mask, reserved fields or fields not named in @valid non-zero,
 * or a value out of range; -ENOSPC when the VRAM quotas would not fit;
 * -EOPNOTSUPP without SR-IOV; the provider's error.
 */
int amdx_ioctl_vf_set(struct amdx_file *file, void *data)
{
	const u32 all = AMDX_VF_SET_TIME_SLICE | AMDX_VF_SET_VRAM_QUOTA |
			AMDX_VF_SET_PRIORITY | AMDX_VF_SET_FLAGS;
	struct amdx_vf_set *args = data;
	struct amdx_vf_config *in = &args->config, next;
	struct amdx_device *adev = file->adev;
	struct amdx_part_dev *p = adev->part;
	const char *bad = NULL;
	u64 others = 0;
	u32 i;
	int ret;

	if (!args->valid || (args->valid & ~all) || in->partition_mask ||
	    in->reserved[0] || in->reserved[1])
		bad = "no or unknown valid bits, partition mask or reserved field";
	else if ((!(args->valid & AMDX_VF_SET_TIME_SLICE) && in->time_slice_us) ||
		 (!(args->valid & AMDX_VF_SET_VRAM_QUOTA) && in->vram_quota) ||
		 (!(args->valid & AMDX_VF_SET_PRIORITY) && in->priority) ||
		 (!(args->valid & AMDX_VF_SET_FLAGS) && in->flags))
		bad = "a field not named in valid is set";
	if (bad) {
		amdx_dbg(adev, "VF set: %s\n", bad);
		return -EINVAL;
	}
	if (!amdx_part_vf_capable(adev))
		return -EOPNOTSUPP;

	mutex_lock(&p->lock);
	if (args->vf >= p->num_vfs) {
		bad = "no such VF";
		ret = -EINVAL;
		goto out_unlock;
	}
	next = p->vfs[args->vf].cfg;
	if (args->valid & AMDX_VF_SET_TIME_SLICE)
		next.time_slice_us = in->time_slice_us;
	if (args->valid & AMDX_VF_SET_PRIORITY)
		next.priority = in->priority;
	if (args->valid & AMDX_VF_SET_VRAM_QUOTA)
		next.vram_quota = in->vram_quota;
	if (args->valid & AMDX_VF_SET_FLAGS)
		next.flags = in->flags;
	ret = -EINVAL;
	if (next.flags & ~AMDX_VF_F_EVICT)
		bad = "unknown VF flags";
	else if (amdx_vf_check_sched(next.time_slice_us, next.priority))
		bad = "time slice or priority out of range";
	else if (amdx_vf_check_vram(next.vram_quota))
		bad = "VRAM quota not a multiple of 16 MiB or under 256 MiB";
	if (bad)
		goto out_unlock;
	for (i = 0; i < p->num_vfs; i++)
		if (i != args->vf)
			others += p->vfs[i].cfg.vram_quota;
	if (next.vram_quota > adev->desc.vram_size - others) {
		bad = "VRAM quotas exceed the VRAM";
		ret = -ENOSPC;
		goto out_unlock;
	}
	ret = adev->ops->vf_configure(adev, args->vf, &next);
	if (!ret) {
		p->vfs[args->vf].cfg = next;
		/* Read without the lock by amdx_partition_vf_check(). */
		WRITE_ONCE(p->vfs[args->vf].cfg.flags, next.flags);
	}
out_unlock:
	mutex_unlock(&p->lock);
	if (bad)
		amdx_dbg(adev, "VF set of VF %u: %s\n", args->vf, bad);
	return ret;
}

/* Resets of @v in the rate-limit window ending @now. */
static u32 amdx_vf_resets_in_window(const struct amdx_part_vf *v, u64 now)
{
	u64 window = (u64)AMDX_VF_RESET_WINDOW_S * NSEC_PER_SEC;
	u32 i, n = 0;

	for (i = 0; i < AMDX_VF_RESET_LIMIT; i++)
		if (v->reset_ns[i] && now - v->reset_ns[i] < window)
			n++;
	return n;
}

/* One AMDX_EVENT_VF_RESET record; the caller holds the partition lock. */
static void amdx_vf_reset_event(struct amdx_device *adev, u32 vf, u32 cause,
				u32 part, u32 result, u64 cleared)
{
	struct amdx_event ev = {
		.kind = AMDX_EVENT_VF_RESET,
		.type = cause,
		.instance = vf,
		.partition = part,
		.address = cleared,
		.data = { result, adev->part->vfs[vf].state },
	};

	lockdep_assert_held(&adev->part->lock);
	amdx_event_emit(adev, &ev);
}

/* Bytes of VRAM @vf holds (0 when the provider cannot tell). */
static u64 amdx_vf_vram_used(struct amdx_device *adev, u32 vf)
{
	struct amdx_device_state st = {};

	if (adev->ops->get_state(adev, &st))
		return 0;
	return st.vf_vram_used[vf];
}

/**
 * amdx_ioctl_vf_reset() - %AMDX_IOC_VF_RESET
 * @file: a device fd.
 * @data: &struct amdx_vf_reset.
 *
 * The provider clears the VF's VRAM; processes with data there read
 * zeroes from then on.
 *
 * Each refusal names its cause in &amdx_vf_reset.reason (the dispatcher
 * copies the argument back with the error); malformed arguments, which
 * no library sends, leave it 0, as for %AMDX_IOC_VF_ENABLE.
 *
 * Return: 0 with the result; -EINVAL for a VF not enabled
 * (%AMDX_PART_REASON_NO_VF) or non-zero flags, reason or reserved fields;
 * -EBUSY when the VF is quarantined (%AMDX_PART_REASON_VF_QUARANTINED), or
 * is quarantined now because it reached the rate limit
 * (%AMDX_PART_REASON_VF_RESET_LIMIT); -EOPNOTSUPP without SR-IOV
 * (%AMDX_PART_REASON_VF_UNSUPPORTED); -EINTR; the provider's error.
 */
int amdx_ioctl_vf_reset(struct amdx_file *file, void *data)
{
	struct amdx_vf_reset *args = data;
	struct amdx_device *adev = file->adev;
	struct amdx_part_dev *p = adev->part;
	struct amdx_part_vf *v;
	u64 t0 = ktime_get_ns(), cleared = 0;
	u32 result = AMDX_VF_RESET_ACKED;
	int ret;

	if (args->flags || args->reason || args->reserved) {
		amdx_dbg(adev, "VF reset: non-zero flags, reason or reserved\n");
		args->reason = AMDX_PART_REASON_NONE;
		return -EINVAL;
	}
	args->result = 0;
	args->state = 0;
	args->duration_ns = 0;
	args->resets_in_window = 0;
	args->vram_cleared = 0;
	if (!amdx_part_vf_capable(adev)) {
		args->reason = AMDX_PART_REASON_VF_UNSUPPORTED;
		return -EOPNOTSUPP;
	}

	mutex_lock(&p->lock);
	if (args->vf >= p->num_vfs) {
		amdx_dbg(adev, "VF reset: no VF %u (%u enabled)\n", args->vf,
			 p->num_vfs);
		args->reason = AMDX_PART_REASON_NO_VF;
		ret = -EINVAL;
		goto out_unlock;
	}
	v = &p->vfs[args->vf];
	args->resets_in_window = amdx_vf_resets_in_window(v, t0);
	if (v->state == AMDX_PART_STATE_QUARANTINED) {
		amdx_dbg(adev, "VF reset: VF %u is quarantined\n", args->vf);
		args->reason = AMDX_PART_REASON_VF_QUARANTINED;
		ret = -EBUSY;
		goto out_state;
	}
	if (args->resets_in_window >= AMDX_VF_RESET_LIMIT) {
		args->reason = AMDX_PART_REASON_VF_RESET_LIMIT;
		WRITE_ONCE(v->state, AMDX_PART_STATE_QUARANTINED);
		amdx_info_ratelimited(adev, "VF %u reset %u times in %u s: quarantined\n",
				      args->vf,
				      args->resets_in_window,
				      AMDX_VF_RESET_WINDOW_S);
		ret = -EBUSY;
		goto out_state;
	}
	/* No migration may place data in the VF's VRAM while it is cleared. */
	if (amdx_partition_vram_close(adev)) {
		ret = -EINTR;
		goto out_unlock;
	}
	cleared = amdx_vf_vram_used(adev, args->vf);
	ret = adev->ops->vf_flr(adev, args->vf, &result);
	amdx_partition_vram_open(adev);
	if (ret) {
		amdx_info_ratelimited(adev, "VF %u reset failed: %pe\n",
				      args->vf, ERR_PTR(ret));
		goto out_state;
	}
	v->reset_ns[v->reset_next] = t0;
	v->reset_next = (v->reset_next + 1) % AMDX_VF_RESET_LIMIT;
	v->resets++;
	atomic64_inc(&adev->stats.vf_flrs);
	args->result = result;
	args->vram_cleared = cleared;
	args->resets_in_window = amdx_vf_resets_in_window(v, t0);
	args->duration_ns = ktime_get_ns() - t0;
out_state:
	args->state = v->state;
	if (!ret || args->state == AMDX_PART_STATE_QUARANTINED)
		amdx_vf_reset_event(adev, args->vf, AMDX_VF_RESET_CAUSE_FLR,
				    AMDX_RAS_PARTITION_ALL, args->result,
				    cleared);
out_unlock:
	mutex_unlock(&p->lock);
	return ret;
}

/**
 * amdx_partition_vf_reset_notify() - tell a partition's VF it was reset
 * @adev: the device.
 * @part: a compute partition that RAS containment has just reset.
 *
 * Emits %AMDX_EVENT_VF_RESET with cause %AMDX_VF_RESET_CAUSE_RAS when
 * @part is bound to a VF: its guest lost the work on that partition.  A
 * partition reset leaves the VRAM alone and does not count towards the
 * VF's FLR rate limit.
 *
 * Return: true when @part is bound to a VF (and the event was emitted).
 */
bool amdx_partition_vf_reset_notify(struct amdx_device *adev, u32 part)
{
	struct amdx_part_dev *p = adev->part;
	u32 vf = AMDX_VF_NONE;
	bool bound;

	mutex_lock(&p->lock);
	if (part < p->cur.num_partitions)
		vf = p->cur.parts[part].vf;
	bound = vf < p->num_vfs;
	if (bound)
		amdx_vf_reset_event(adev, vf, AMDX_VF_RESET_CAUSE_RAS, part,
				    AMDX_VF_RESET_UNANNOUNCED, 0);
	mutex_unlock(&p->lock);
	return bound;
}

/**
 * amdx_partition_query_vfs() - %AMDX_QUERY_VFS
 * @adev: the device; the caller holds its lock for read.
 * @q: the query.
 *
 * Return: 0, -ENOSPC with the needed size, -EFAULT, -ENOMEM, the
 * provider's error.
 */
int amdx_partition_query_vfs(struct amdx_device *adev, struct amdx_query *q)
{
	struct amdx_part_dev *p = adev->part;
	struct amdx_device_state st = {};
	struct amdx_query_vfs *res;
	size_t len = struct_size(res, vfs, AMDX_MAX_VFS);
	u64 now = ktime_get_ns();
	u32 i;
	int ret;

	res = kzalloc(len, GFP_KERNEL);
	if (!res)
		return -ENOMEM;
	ret = adev->ops->get_state(adev, &st);
	if (ret)
		goto out;
	mutex_lock(&p->lock);
	res->num_vfs = p->num_vfs;
	res->entry_size = sizeof(res->vfs[0]);
	res->max_vfs = adev->desc.max_vfs;
	for (i = 0; i < p->num_vfs; i++) {
		struct amdx_vf_info *vi = &res->vfs[i];

		vi->vf = i;
		vi->state = p->vfs[i].state;
		vi->config = p->vfs[i].cfg;
		vi->vram_used = st.vf_vram_used[i];
		vi->resets = p->vfs[i].resets;
		vi->resets_in_window = amdx_vf_resets_in_window(&p->vfs[i],
								now);
	}
	len = struct_size(res, vfs, p->num_vfs);
	mutex_unlock(&p->lock);
	ret = amdx_query_out(adev, q, res, len, len);
out:
	kfree(res);
	return ret;
}
