/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Partition and SR-IOV state of a device (amdx_partition.c): the partition
 * manager's ioctls and queries and the interface RAS containment uses to
 * quarantine, reset and restore one partition.  The gate HMM migrations
 * pass is amdx_partition_gate.h, the VFs amdx_partition_vf.h.
 */
#ifndef _AMDX_PARTITION_H_
#define _AMDX_PARTITION_H_

#include <linux/types.h>

struct amdx_device;
struct amdx_file;
struct amdx_partition_config;
struct amdx_query;
struct amdx_query_partitions;

/*
 * All of these take the device's partition lock themselves and may sleep.
 * @part is a compute partition id of the current mode.  The attribution of
 * errors to partitions, amdx_partition_of_instance() and
 * amdx_partition_of_vram(), is in the provider interface.
 */
int amdx_partition_set_state(struct amdx_device *adev, u32 part, u32 state);
int amdx_partition_get_state(struct amdx_device *adev, u32 part, u32 *state);
int amdx_partition_reset(struct amdx_device *adev, u32 part);

/* Device set-up (amdx_device_probe.c). */
int amdx_partition_dev_init(struct amdx_device *adev);

/* Ioctls and queries on device fds. */
int amdx_ioctl_partition_plan(struct amdx_file *file, void *data);
int amdx_ioctl_partition_commit(struct amdx_file *file, void *data);
int amdx_partition_query(struct amdx_file *file, struct amdx_query *q);

/* Internals, for KUnit. */
u32 amdx_partition_share_mask(u32 count, u32 n, u32 i);
int amdx_partition_run(struct amdx_device *adev,
		       struct amdx_partition_config *cfg, bool commit);
int amdx_partition_fill(struct amdx_device *adev,
			struct amdx_query_partitions *res, u32 max);

#endif /* _AMDX_PARTITION_H_ */
