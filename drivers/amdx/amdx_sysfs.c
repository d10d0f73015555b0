// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: sysfs
 *
 * Every registered device gets /sys/class/amdx/amdx<id>/ below its
 * provider's device, with read-only attributes mirroring
 * %AMDX_QUERY_DEVICE_INFO (Documentation/ABI/testing/sysfs-class-amdx),
 * and the partitions/ and vfs/ groups of amdx_partition.c.
 * Attributes that change at runtime ask the provider on every read.
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kdev_t.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include <amdx_probes.h>

#include "amdx_core.h"
#include "amdx_link.h"
#include "amdx_partition_sysfs.h"
#include "amdx_ras.h"
#include "amdx_sysfs.h"

static struct class *amdx_class;

static const char * const amdx_model_names[] = {
	[AMDX_MODEL_UNKNOWN] = "unknown",
	[AMDX_MODEL_MI300X] = "mi300x",
	[AMDX_MODEL_MI300A] = "mi300a",
	[AMDX_MODEL_MI308X] = "mi308x",
};

static const char * const amdx_compute_names[] = {
	[AMDX_COMPUTE_UNKNOWN] = "unknown",
	[AMDX_COMPUTE_SPX] = "SPX",
	[AMDX_COMPUTE_DPX] = "DPX",
	[AMDX_COMPUTE_TPX] = "TPX",
	[AMDX_COMPUTE_QPX] = "QPX",
	[AMDX_COMPUTE_CPX] = "CPX",
};

static const char * const amdx_memory_names[] = {
	[AMDX_MEMORY_UNKNOWN] = "unknown",
	[AMDX_MEMORY_NPS1] = "NPS1",
	[AMDX_MEMORY_NPS2] = "NPS2",
	[AMDX_MEMORY_NPS4] = "NPS4",
	[AMDX_MEMORY_NPS8] = "NPS8",
};

static const char *amdx_name(const char * const *names, size_t n, u32 v)
{
	return v < n && names[v] ? names[v] : "unknown";
}

static struct amdx_device *to_adev(struct device *dev)
{
	return dev_get_drvdata(dev);
}

/*
 * Runtime attributes: ask the provider.  Returns the info in a heap buffer
 * because struct amdx_device_info is too large for the stack.
 */
static struct amdx_device_info *amdx_sysfs_info(struct device *dev)
{
	struct amdx_device_info *info;
	int ret;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return ERR_PTR(-ENOMEM);
	ret = amdx_device_fill_info(to_adev(dev), info);
	if (ret) {
		kfree(info);
		return ERR_PTR(ret);
	}
	return info;
}

#define AMDX_STATIC_ATTR(_name, _fmt, _expr)				\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct amdx_device *adev = to_adev(dev);			\
									\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static DEVICE_ATTR_RO(_name)

AMDX_STATIC_ATTR(id, "%u", adev->id);
AMDX_STATIC_ATTR(bdf, "%s", adev->bdf);
AMDX_STATIC_ATTR(serial, "%s", adev->serial);
AMDX_STATIC_ATTR(product, "%s", adev->product);
AMDX_STATIC_ATTR(model, "%s",
		 amdx_name(amdx_model_names, ARRAY_SIZE(amdx_model_names),
			   adev->desc.model));
AMDX_STATIC_ATTR(hive_id, "0x%016llx", adev->desc.hive_id);
AMDX_STATIC_ATTR(vram_size, "%llu", adev->desc.vram_size);
AMDX_STATIC_ATTR(num_xcc, "%u", adev->desc.num_xcc);
AMDX_STATIC_ATTR(num_sdma, "%u", adev->desc.num_sdma);
AMDX_STATIC_ATTR(num_vcn, "%u", adev->desc.num_vcn);
AMDX_STATIC_ATTR(max_vfs, "%u", adev->desc.max_vfs);

#define AMDX_STATE_ATTR(_name, _fmt, _expr)				\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct amdx_device_info *info = amdx_sysfs_info(dev);		\
	ssize_t len;							\
									\
	if (IS_ERR(info))						\
		return PTR_ERR(info);					\
	len = sysfs_emit(buf, _fmt "\n", _expr);			\
	kfree(info);							\
	return len;							\
}									\
static DEVICE_ATTR_RO(_name)

AMDX_STATE_ATTR(vram_free, "%llu", info->vram_free);
AMDX_STATE_ATTR(num_vfs, "%u", info->num_vfs);
AMDX_STATE_ATTR(num_mem_partitions, "%u", info->num_mem_partitions);
AMDX_STATE_ATTR(compute_mode, "%s",
		amdx_name(amdx_compute_names, ARRAY_SIZE(amdx_compute_names),
			  info->compute_mode));
AMDX_STATE_ATTR(memory_mode, "%s",
		amdx_name(amdx_memory_names, ARRAY_SIZE(amdx_memory_names),
			  info->memory_mode));

static ssize_t mem_partition_free_show(struct device *dev,
				       struct device_attribute *attr,
				       char *buf)
{
	struct amdx_device_info *info = amdx_sysfs_info(dev);
	ssize_t len = 0;
	u32 i;

	if (IS_ERR(info))
		return PTR_ERR(info);
	for (i = 0; i < info->num_mem_partitions; i++)
		len += sysfs_emit_at(buf, len, "%s%llu", i ? " " : "",
				     info->mem_partitions[i].free);
	len += sysfs_emit_at(buf, len, "\n");
	kfree(info);
	return len;
}
static DEVICE_ATTR_RO(mem_partition_free);

static struct attribute *amdx_dev_attrs[] = {
	&dev_attr_bdf.attr,
	&dev_attr_compute_mode.attr,
	&dev_attr_hive_id.attr,
	&dev_attr_id.attr,
	&dev_attr_max_vfs.attr,
	&dev_attr_mem_partition_free.attr,
	&dev_attr_memory_mode.attr,
	&dev_attr_model.attr,
	&dev_attr_num_mem_partitions.attr,
	&dev_attr_num_sdma.attr,
	&dev_attr_num_vcn.attr,
	&dev_attr_num_vfs.attr,
	&dev_attr_num_xcc.attr,
	&dev_attr_product.attr,
	&dev_attr_serial.attr,
	&dev_attr_vram_free.attr,
	&dev_attr_vram_size.attr,
	NULL
};

static const struct attribute_group amdx_dev_group = {
	.attrs = amdx_dev_attrs,
};

static const struct attribute_group *amdx_dev_groups[] = {
	&amdx_dev_group,
	&amdx_ras_sysfs_group,
	&amdx_partition_attr_group,
	&amdx_vf_attr_group,
	&amdx_link_attr_group,
	NULL
};

/* Waits for running attribute reads to finish. */
static void amdx_sysfs_remove(struct amdx_device *adev)
{
	device_unregister(adev->class_dev);
	adev->class_dev = NULL;
}

/**
 * amdx_sysfs_add() - create the class device of a device
 * @adev: the device, id assigned.
 * @parent: the provider's device.
 *
 * Registers its removal with the device (%AMDX_DEVICE_UNPUBLISH).
 *
 * Return: 0 or -errno.
 */
int amdx_sysfs_add(struct amdx_device *adev, struct device *parent)
{
	struct device *dev;

	dev = device_create_with_groups(amdx_class, parent, MKDEV(0, 0), adev,
					amdx_dev_groups, "amdx%u", adev->id);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	adev->class_dev = dev;
	return amdx_device_add_action_or_reset(adev, AMDX_DEVICE_UNPUBLISH,
					       amdx_sysfs_remove);
}

/**
 * amdx_sysfs_init() - register the amdx class
 *
 * Return: 0 or -errno.
 */
int amdx_sysfs_init(void)
{
	/*
	 * HAVE_CLASS_CREATE_NO_OWNER: commit 1aaba11da9aa ("driver core:
	 * class: remove module * from class_create()", v6.4).
	 */
#ifdef HAVE_CLASS_CREATE_NO_OWNER
	amdx_class = class_create("amdx");
#else
	amdx_class = class_create(THIS_MODULE, "amdx");
#endif
	return PTR_ERR_OR_ZERO(amdx_class);
}

/**
 * amdx_sysfs_fini() - unregister the amdx class
 */
void amdx_sysfs_fini(void)
{
	class_destroy(amdx_class);
}
