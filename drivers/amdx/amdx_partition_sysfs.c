// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: partition sysfs
 *
 * /sys/class/amdx/amdx<id>/partitions/ and vfs/: one value per partition
 * or VF, space separated, by id (Documentation/ABI/testing/
 * sysfs-class-amdx).  Read-only: changes go through the ioctls.  Reads
 * take the device lock for read, then the partition mutex.
 */
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "amdx_core.h"
#include "amdx_partition.h"
#include "amdx_partition_sysfs.h"
#include "amdx_partition_types.h"

enum amdx_part_field {
	AMDX_PF_STATE,
	AMDX_PF_XCC_MASK,
	AMDX_PF_SDMA_MASK,
	AMDX_PF_VCN_MASK,
	AMDX_PF_MEM_PARTITION,
	AMDX_PF_VF,
	AMDX_PF_RESETS,
	AMDX_VF_STATE,
	AMDX_VF_PARTITION_MASK,
	AMDX_VF_VRAM_QUOTA,
	AMDX_VF_VRAM_USED,
	AMDX_VF_TIME_SLICE,
	AMDX_VF_PRIORITY,
	AMDX_VF_FLAGS,
	AMDX_VF_RESETS,
};

static const char * const amdx_part_state_names[] = {
	[AMDX_PART_STATE_ONLINE] = "online",
	[AMDX_PART_STATE_QUARANTINED] = "quarantined",
	[AMDX_PART_STATE_OFFLINE] = "offline",
};

static const char *amdx_part_state_name(u32 state)
{
	return state < ARRAY_SIZE(amdx_part_state_names) ?
	       amdx_part_state_names[state] : "unknown";
}

static int amdx_part_emit(char *buf, int len, u32 i, enum amdx_part_field f,
			  const struct amdx_part_dev *p,
			  const struct amdx_device_state *st)
{
	const struct amdx_part_obj *o = &p->cur.parts[i];
	const struct amdx_part_vf *v = &p->vfs[i];
	const char *sep = i ? " " : "";

	switch (f) {
	case AMDX_PF_STATE:
		return sysfs_emit_at(buf, len, "%s%s", sep,
				     amdx_part_state_name(o->state));
	case AMDX_PF_XCC_MASK:
		return sysfs_emit_at(buf, len, "%s0x%x", sep, o->xcc_mask);
	case AMDX_PF_SDMA_MASK:
		return sysfs_emit_at(buf, len, "%s0x%x", sep, o->sdma_mask);
	case AMDX_PF_VCN_MASK:
		return sysfs_emit_at(buf, len, "%s0x%x", sep, o->vcn_mask);
	case AMDX_PF_MEM_PARTITION:
		return sysfs_emit_at(buf, len, "%s%u", sep, o->mem_partition);
	case AMDX_PF_VF:
		if (o->vf == AMDX_VF_NONE)
			return sysfs_emit_at(buf, len, "%s-", sep);
		return sysfs_emit_at(buf, len, "%s%u", sep, o->vf);
	case AMDX_PF_RESETS:
		return sysfs_emit_at(buf, len, "%s%u", sep, o->resets);
	case AMDX_VF_STATE:
		return sysfs_emit_at(buf, len, "%s%s", sep,
				     amdx_part_state_name(v->state));
	case AMDX_VF_PARTITION_MASK:
		return sysfs_emit_at(buf, len, "%s0x%x", sep,
				     v->cfg.partition_mask);
	case AMDX_VF_VRAM_QUOTA:
		return sysfs_emit_at(buf, len, "%s%llu", sep,
				     v->cfg.vram_quota);
	case AMDX_VF_VRAM_USED:
		return sysfs_emit_at(buf, len, "%s%llu", sep,
				     st->vf_vram_used[i]);
	case AMDX_VF_TIME_SLICE:
		return sysfs_emit_at(buf, len, "%s%u", sep,
				     v->cfg.time_slice_us);
	case AMDX_VF_PRIORITY:
		return sysfs_emit_at(buf, len, "%s%u", sep, v->cfg.priority);
	case AMDX_VF_FLAGS:
		return sysfs_emit_at(buf, len, "%s0x%x", sep, v->cfg.flags);
	case AMDX_VF_RESETS:
		return sysfs_emit_at(buf, len, "%s%u", sep, v->resets);
	}
	return 0;
}

static ssize_t amdx_part_show(struct device *dev, char *buf,
			      enum amdx_part_field f)
{
	struct amdx_device *adev = dev_get_drvdata(dev);
	struct amdx_part_dev *p = adev->part;
	struct amdx_device_state *st;
	bool vf = f >= AMDX_VF_STATE;
	int len = 0;
	u32 i, n;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	down_read(&adev->lock);
	if (adev->dead) {
		len = -ENODEV;
		goto out_unlock;
	}
	if (f == AMDX_VF_VRAM_USED) {
		len = adev->ops->get_state(adev, st);
		if (len)
			goto out_unlock;
	}
	mutex_lock(&p->lock);
	n = vf ? p->num_vfs : p->cur.num_partitions;
	for (i = 0; i < n; i++)
		len += amdx_part_emit(buf, len, i, f, p, st);
	mutex_unlock(&p->lock);
	len += sysfs_emit_at(buf, len, "\n");
out_unlock:
	up_read(&adev->lock);
	kfree(st);
	return len;
}

#define AMDX_PART_ATTR(_var, _name, _field)				\
static ssize_t _var##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return amdx_part_show(dev, buf, _field);			\
}									\
static struct device_attribute _var = __ATTR(_name, 0444, _var##_show, NULL)

AMDX_PART_ATTR(amdx_pa_state, state, AMDX_PF_STATE);
AMDX_PART_ATTR(amdx_pa_xcc_mask, xcc_mask, AMDX_PF_XCC_MASK);
AMDX_PART_ATTR(amdx_pa_sdma_mask, sdma_mask, AMDX_PF_SDMA_MASK);
AMDX_PART_ATTR(amdx_pa_vcn_mask, vcn_mask, AMDX_PF_VCN_MASK);
AMDX_PART_ATTR(amdx_pa_mem_partition, mem_partition, AMDX_PF_MEM_PARTITION);
AMDX_PART_ATTR(amdx_pa_vf, vf, AMDX_PF_VF);
AMDX_PART_ATTR(amdx_pa_resets, resets, AMDX_PF_RESETS);
AMDX_PART_ATTR(amdx_va_state, state, AMDX_VF_STATE);
AMDX_PART_ATTR(amdx_va_partition_mask, partition_mask,
	       AMDX_VF_PARTITION_MASK);
AMDX_PART_ATTR(amdx_va_vram_quota, vram_quota, AMDX_VF_VRAM_QUOTA);
AMDX_PART_ATTR(amdx_va_vram_used, vram_used, AMDX_VF_VRAM_USED);
AMDX_PART_ATTR(amdx_va_time_slice_us, time_slice_us, AMDX_VF_TIME_SLICE);
AMDX_PART_ATTR(amdx_va_priority, priority, AMDX_VF_PRIORITY);
AMDX_PART_ATTR(amdx_va_flags, flags, AMDX_VF_FLAGS);
AMDX_PART_ATTR(amdx_va_resets, resets, AMDX_VF_RESETS);

static ssize_t amdx_pa_count_show(struct device *dev, char *buf, bool gen)
{
	struct amdx_device *adev = dev_get_drvdata(dev);
	struct amdx_part_dev *p = adev->part;
	ssize_t len;

	mutex_lock(&p->lock);
	if (gen)
		len = sysfs_emit(buf, "%llu\n", p->cur.generation);
	else
		len = sysfs_emit(buf, "%u\n", p->cur.num_partitions);
	mutex_unlock(&p->lock);
	return len;
}

static ssize_t amdx_pa_generation_show(struct device *dev,
				       struct device_attribute *attr,
				       char *buf)
{
	return amdx_pa_count_show(dev, buf, true);
}

static ssize_t amdx_pa_count_partitions_show(struct device *dev,
					     struct device_attribute *attr,
					     char *buf)
{
	return amdx_pa_count_show(dev, buf, false);
}

static struct device_attribute amdx_pa_generation =
	__ATTR(generation, 0444, amdx_pa_generation_show, NULL);
static struct device_attribute amdx_pa_count =
	__ATTR(count, 0444, amdx_pa_count_partitions_show, NULL);

static struct attribute *amdx_partition_attrs[] = {
	&amdx_pa_count.attr,
	&amdx_pa_generation.attr,
	&amdx_pa_mem_partition.attr,
	&amdx_pa_resets.attr,
	&amdx_pa_sdma_mask.attr,
	&amdx_pa_state.attr,
	&amdx_pa_vcn_mask.attr,
	&amdx_pa_vf.attr,
	&amdx_pa_xcc_mask.attr,
	NULL
};

const struct attribute_group amdx_partition_attr_group = {
	.name = "partitions",
	.attrs = amdx_partition_attrs,
};

static struct attribute *amdx_vf_attrs[] = {
	&amdx_va_flags.attr,
	&amdx_va_partition_mask.attr,
	&amdx_va_priority.attr,
	&amdx_va_resets.attr,
	&amdx_va_state.attr,
	&amdx_va_time_slice_us.attr,
	&amdx_va_vram_quota.attr,
	&amdx_va_vram_used.attr,
	NULL
};

const struct attribute_group amdx_vf_attr_group = {
	.name = "vfs",
	.attrs = amdx_vf_attrs,
};
