// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: queries
 *
 * %AMDX_IOC_QUERY follows the two-call size protocol of xe's
 * DRM_IOCTL_XE_DEVICE_QUERY: with &amdx_query.size 0 the kernel only
 * reports the size of the result; with a buffer at least that large it
 * writes the result and sets the size to what it wrote; with a smaller one
 * it fails with -ENOSPC and reports the needed size (the list may have grown
 * between the two calls).
 *
 * Fixed-size results are truncated to a smaller buffer that still holds
 * their first version, so callers built against an older header keep
 * working when a result grows.
 *
 * Queries need no privilege.  On a device fd, device queries are about
 * that fd's device and &amdx_query.id must be 0.
 *
 * Every result is built in kernel memory and copied to the caller by
 * amdx_query_out(), which on a device fd drops the device lock the
 * dispatcher holds around the copy: a result buffer on a page that
 * userfaultfd or FUSE holds back never holds up the device's removal.
 *
 * %AMDX_QUERY_STATS reads a device's cumulative counters: each is counted
 * where the thing happens (&struct amdx_dev_stats, atomics; the event
 * log's under its own lock), so one query returns totals since the device
 * registered, whether or not anyone watched the events.
 *
 * %AMDX_QUERY_FIRMWARE (minor 4) reports amdx's own version and what the
 * device's provider knows of its firmware (&amdx_provider_ops.firmware):
 * the provider fills a zeroed answer sized by %AMDX_MAX_FIRMWARE, never
 * by the caller; the core checks it (a provider's bad answer is -EIO,
 * logged) and fills the rest.  Without the op, -EOPNOTSUPP.
 */
#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/overflow.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_hmm.h"
#include "amdx_hmm_ioctl.h"
#include "amdx_kunit.h"
#include "amdx_link.h"
#include "amdx_partition.h"
#include "amdx_query.h"
#include "amdx_ras.h"

/* The first uapi versions are the smallest sizes a structure ever has. */
static_assert(sizeof(struct amdx_query_caps) >= AMDX_QUERY_CAPS_SIZE_VER0);
static_assert(sizeof(struct amdx_device_info) >= AMDX_DEVICE_INFO_SIZE_VER0);
static_assert(sizeof(struct amdx_device_entry) >= AMDX_DEVICE_ENTRY_SIZE_VER0);
static_assert(sizeof(struct amdx_hmm_range_info) >=
	      AMDX_HMM_RANGE_INFO_SIZE_VER0);
static_assert(sizeof(struct amdx_device_stats) >=
	      AMDX_DEVICE_STATS_SIZE_VER0);

/**
 * amdx_caps() - the capabilities of this build on this kernel
 *
 * Return: %AMDX_CAP_* bits.
 */
u64 amdx_caps(void)
{
	u64 caps = AMDX_CAP_DEVICE_QUERY;

	if (IS_ENABLED(CONFIG_DEVICE_PRIVATE))
		caps |= AMDX_CAP_DEVICE_PRIVATE;
	if (IS_ENABLED(CONFIG_HMM_MIRROR))
		caps |= AMDX_CAP_HMM_MIRROR;
	if (amdx_hmm_supported())
		caps |= AMDX_CAP_HMM_MIGRATE;
	return caps;
}

/*
 * @locked: on a device fd, its device, whose lock the dispatcher holds for
 * read: the result is built in kernel memory under it, and
 * amdx_query_out() drops it around the copy to the caller.
 */
static int amdx_query_caps(struct amdx_device *locked, struct amdx_query *q)
{
	struct amdx_query_caps caps = {
		.version_major = AMDX_UAPI_VERSION_MAJOR,
		.version_minor = AMDX_UAPI_VERSION_MINOR,
		.caps = amdx_caps(),
		.num_devices = amdx_device_count(),
	};

	if (q->id)
		return -EINVAL;
	return amdx_query_out(locked, q, &caps, sizeof(caps),
			      AMDX_QUERY_CAPS_SIZE_VER0);
}

/* @locked: as for amdx_query_caps(). */
static int amdx_query_devices(struct amdx_device *locked,
			      struct amdx_query *q)
{
	struct amdx_query_devices *res;
	u32 max, n;
	size_t len;
	int ret;

	if (q->id)
		return -EINVAL;
	if (!q->size) {
		n = amdx_device_count();
		q->size = struct_size(res, devices, n);
		return 0;
	}
	if (q->size < sizeof(*res)) {
		amdx_device_list(NULL, 0, &n);
		q->size = struct_size(res, devices, n);
		return -ENOSPC;
	}
	max = (q->size - sizeof(*res)) / sizeof(res->devices[0]);
	/* Never allocate more than the registry can fill. */
	max = min(max, amdx_device_count());
	res = kzalloc(struct_size(res, devices, max), GFP_KERNEL);
	if (!res)
		return -ENOMEM;
	ret = amdx_device_list(res->devices, max, &n);
	len = struct_size(res, devices, n);
	if (ret) {
		q->size = len;
		goto out;
	}
	res->num_devices = n;
	res->entry_size = sizeof(res->devices[0]);
	ret = amdx_query_out(locked, q, res, len, len);
out:
	kfree(res);
	return ret;
}

static int amdx_query_device_info(struct amdx_file *file,
				  struct amdx_query *q)
{
	struct amdx_device *adev;
	struct amdx_device_info *info;
	int ret;

	if (!q->size) {
		q->size = sizeof(*info);
		return 0;
	}
	if (file->adev) {
		/* A device fd: its ioctl path holds the device lock. */
		if (q->id)
			return -EINVAL;
		info = kzalloc(sizeof(*info), GFP_KERNEL);
		if (!info)
			return -ENOMEM;
		ret = amdx_device_fill_info_locked(file->adev, info);
		if (!ret)
			ret = amdx_query_out(file->adev, q, info,
					     sizeof(*info),
					     AMDX_DEVICE_INFO_SIZE_VER0);
		kfree(info);
		return ret;
	}
	adev = amdx_device_get(q->id);
	if (!adev)
		return -ENODEV;
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info) {
		ret = -ENOMEM;
		goto out_put;
	}
	ret = amdx_device_fill_info(adev, info);
	if (!ret)
		ret = amdx_query_out(NULL, q, info, sizeof(*info),
				     AMDX_DEVICE_INFO_SIZE_VER0);
	kfree(info);
out_put:
	amdx_device_put(adev);
	return ret;
}

static int amdx_query_stats(struct amdx_device *adev, struct amdx_query *q)
{
	const atomic64_t *m = adev->stats.migrations;
	const atomic64_t *b = adev->stats.migrated_bytes;
	const atomic64_t *c = adev->stats.commits;
	struct amdx_device_stats st = {};

	st.migrations_to_vram = atomic64_read(&m[AMDX_MIG_TO_VRAM]);
	st.bytes_to_vram = atomic64_read(&b[AMDX_MIG_TO_VRAM]);
	st.migrations_to_ram = atomic64_read(&m[AMDX_MIG_TO_RAM]);
	st.bytes_to_ram = atomic64_read(&b[AMDX_MIG_TO_RAM]);
	st.fault_migrations = atomic64_read(&m[AMDX_MIG_FAULT]);
	st.fault_bytes = atomic64_read(&b[AMDX_MIG_FAULT]);
	st.evictions = atomic64_read(&m[AMDX_MIG_EVICT]);
	st.evicted_bytes = atomic64_read(&b[AMDX_MIG_EVICT]);
	st.drains = atomic64_read(&m[AMDX_MIG_DRAIN]);
	st.drained_bytes = atomic64_read(&b[AMDX_MIG_DRAIN]);
	st.vf_flrs = atomic64_read(&adev->stats.vf_flrs);
	st.commits = atomic64_read(&c[AMDX_COMMIT_COMMITTED]);
	st.rollbacks = atomic64_read(&c[AMDX_COMMIT_ROLLED_BACK]);
	st.refusals = atomic64_read(&c[AMDX_COMMIT_REFUSED]);
	amdx_event_source_counts(&adev->events, &st.events_emitted,
				 &st.events_lost);
	return amdx_query_out(adev, q, &st, sizeof(st),
			      AMDX_DEVICE_STATS_SIZE_VER0);
}

/* @adev: a device fd's device, whose lock the dispatcher holds for read. */
static int amdx_query_firmware(struct amdx_device *adev, struct amdx_query *q)
{
	struct amdx_query_firmware *res;
	size_t len;
	u32 i;
	int ret;

	if (!adev->ops->firmware)
		return -EOPNOTSUPP;
	res = kzalloc(struct_size(res, firmware, AMDX_MAX_FIRMWARE),
		      GFP_KERNEL);
	if (!res)
		return -ENOMEM;
	ret = adev->ops->firmware(adev, res);
	if (ret)
		goto out;
	ret = -EIO;
	if (res->num_firmware > AMDX_MAX_FIRMWARE) {
		pr_warn_ratelimited("amdx: device %u: the provider reported %u firmware entries, at most %u exist\n",
				    adev->id, res->num_firmware,
				    AMDX_MAX_FIRMWARE);
		goto out;
	}
	for (i = 0; i < res->num_firmware; i++) {
		if (!res->firmware[i].id ||
		    res->firmware[i].id >= AMDX_FW_COUNT) {
			pr_warn_ratelimited("amdx: device %u: the provider reported firmware id %u\n",
					    adev->id, res->firmware[i].id);
			goto out;
		}
		res->firmware[i].reserved = 0;
	}
	strscpy(res->driver_version, AMDX_MODULE_VERSION,
		sizeof(res->driver_version));
	res->provider[sizeof(res->provider) - 1] = '\0';
	res->provider_version[sizeof(res->provider_version) - 1] = '\0';
	res->entry_size = sizeof(res->firmware[0]);
	res->reserved[0] = 0;
	res->reserved[1] = 0;
	len = struct_size(res, firmware, res->num_firmware);
	ret = amdx_query_out(adev, q, res, len, len);
out:
	kfree(res);
	return ret;
}

/**
 * amdx_ioctl_query() - %AMDX_IOC_QUERY
 * @file: the amdx file.
 * @data: &struct amdx_query.
 *
 * Return: 0; -EINVAL for an unknown query, non-zero flags or reserved
 * fields, or an id where none is allowed; -ENOSPC for a too-small buffer;
 * -ENODEV for an unknown or removed device; -EFAULT for a bad @data;
 * -EOPNOTSUPP for firmware versions the provider does not report.
 */
int amdx_ioctl_query(struct amdx_file *file, void *data)
{
	struct amdx_query *q = data;

	if (q->flags || q->reserved[0] || q->reserved[1])
		return -EINVAL;

	switch (q->query) {
	case AMDX_QUERY_CAPS:
		return amdx_query_caps(file->adev, q);
	case AMDX_QUERY_DEVICES:
		return amdx_query_devices(file->adev, q);
	case AMDX_QUERY_DEVICE_INFO:
		return amdx_query_device_info(file, q);
	case AMDX_QUERY_HMM_RANGES:
		if (!file->adev || q->id)
			return -EINVAL;
		return amdx_hmm_query_ranges(file, q);
	case AMDX_QUERY_RAS_COUNTERS:
	case AMDX_QUERY_RAS_POLICY:
	case AMDX_QUERY_BADPAGES:
	case AMDX_QUERY_RESET_SCOPE:
		return amdx_ras_query(file, q);
	case AMDX_QUERY_PARTITIONS:
	case AMDX_QUERY_VFS:
		if (!file->adev || q->id)
			return -EINVAL;
		return amdx_partition_query(file, q);
	case AMDX_QUERY_STATS:
		if (!file->adev || q->id)
			return -EINVAL;
		return amdx_query_stats(file->adev, q);
	case AMDX_QUERY_LINKS:
		return amdx_link_query(file, q);
	case AMDX_QUERY_FIRMWARE:
		if (!file->adev || q->id)
			return -EINVAL;
		return amdx_query_firmware(file->adev, q);
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ioctl_query);
