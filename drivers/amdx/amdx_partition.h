/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Partition and SR-IOV state of a device (amdx_partition.c): the partition
 * manager's ioctls and queries, the gate HMM migrations pass, and the
 * interface RAS containment uses to quarantine, reset and restore one
 * partition.
 */
#ifndef _AMDX_PARTITION_H_
#define _AMDX_PARTITION_H_

#include <linux/types.h>

struct amdx_device;
struct amdx_file;
struct amdx_partition_config;
struct amdx_query;
struct amdx_query_partitions;
struct attribute_group;

/*
 * All of these take the device's partition lock themselves and may sleep.
 * @part is a compute partition id of the current mode.
 */
int amdx_partition_of_instance(struct amdx_device *adev, u32 block,
			       u32 instance, u32 *part);
int amdx_partition_of_vram(struct amdx_device *adev, u64 address, u32 *mem);
int amdx_partition_set_state(struct amdx_device *adev, u32 part, u32 state);
int amdx_partition_get_state(struct amdx_device *adev, u32 part, u32 *state);
int amdx_partition_reset(struct amdx_device *adev, u32 part);
bool amdx_partition_vf_reset_notify(struct amdx_device *adev, u32 part);

/* Device life cycle (amdx_device.c). */
int amdx_partition_dev_init(struct amdx_device *adev);
void amdx_partition_dev_fini(struct amdx_device *adev);

/* Ioctls and queries on device fds. */
int amdx_ioctl_partition_plan(struct amdx_file *file, void *data);
int amdx_ioctl_partition_commit(struct amdx_file *file, void *data);
int amdx_ioctl_vf_enable(struct amdx_file *file, void *data);
int amdx_ioctl_vf_disable(struct amdx_file *file, void *data);
int amdx_ioctl_vf_set(struct amdx_file *file, void *data);
int amdx_ioctl_vf_reset(struct amdx_file *file, void *data);
int amdx_partition_query(struct amdx_file *file, struct amdx_query *q);

/* HMM: the VRAM gate and VF-backed device fds. */
int amdx_partition_vram_begin(struct amdx_device *adev);
void amdx_partition_vram_end(struct amdx_device *adev);
int amdx_partition_vf_open(struct amdx_device *adev, u32 vf, u64 *epoch);
int amdx_partition_vf_check(struct amdx_device *adev, u32 vf, u64 epoch,
			    bool *evict);

/* sysfs: /sys/class/amdx/amdx<id>/partitions/ and vfs/. */
extern const struct attribute_group amdx_partition_attr_group;
extern const struct attribute_group amdx_vf_attr_group;

/* Internals, for KUnit. */
u32 amdx_partition_share_mask(u32 count, u32 n, u32 i);
int amdx_partition_run(struct amdx_device *adev,
		       struct amdx_partition_config *cfg, bool commit);
int amdx_partition_fill(struct amdx_device *adev,
			struct amdx_query_partitions *res, u32 max);

#endif /* _AMDX_PARTITION_H_ */
