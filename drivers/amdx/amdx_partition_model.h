/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Which compute/memory partition modes and VF counts a model supports, and
 * the topology a valid combination yields: pure logic, no device.
 */
#ifndef _AMDX_PARTITION_MODEL_H_
#define _AMDX_PARTITION_MODEL_H_

#include <linux/types.h>
#include <linux/amdx.h>

/* Most XCCs, and so most compute partitions, of any model. */
#define AMDX_PART_MAX_XCC			8

/* Why amdx_partition_check() refused a combination. */
#define AMDX_PART_REASON_NONE			0
#define AMDX_PART_REASON_BAD_MODEL		1
#define AMDX_PART_REASON_COMPUTE_UNSUPPORTED	2
#define AMDX_PART_REASON_MEMORY_UNSUPPORTED	3
#define AMDX_PART_REASON_INCOMPATIBLE		4
#define AMDX_PART_REASON_XCC_NOT_DIVISIBLE	5
#define AMDX_PART_REASON_VF_UNSUPPORTED		6
#define AMDX_PART_REASON_VF_COMPUTE		7
#define AMDX_PART_REASON_VF_MEMORY		8
#define AMDX_PART_REASON_COUNT			9
/* The last reason of any kind: the model's above, a transaction's after. */
#define AMDX_PART_REASON_LAST		AMDX_PART_REASON_VF_RESET_LIMIT

/**
 * struct amdx_partition_topology - the partitions of one valid combination
 * @num_xcc: XCCs of the device.
 * @num_compute: compute partitions, 1..@num_xcc.
 * @num_memory: memory (NPS) partitions.
 * @xccs_per_partition: XCCs in each compute partition.
 * @xcc_mask: bit N set: XCC N belongs to compute partition i; the masks
 *	are disjoint and together cover the @num_xcc XCCs.
 * @mem_partition: the memory partition local to compute partition i.
 *
 * Entries at and beyond @num_compute are zero.
 */
struct amdx_partition_topology {
	u32 num_xcc;
	u32 num_compute;
	u32 num_memory;
	u32 xccs_per_partition;
	u32 xcc_mask[AMDX_PART_MAX_XCC];
	u32 mem_partition[AMDX_PART_MAX_XCC];
};

u32 amdx_partition_num_xcc(u32 model);
u32 amdx_partition_compute_modes(u32 model);
u32 amdx_partition_memory_modes(u32 model);
u32 amdx_partition_num_compute(u32 num_xcc, u32 compute_mode);
u32 amdx_partition_num_memory(u32 memory_mode);
int amdx_partition_check_layout(u32 num_xcc, u32 compute_mode,
				u32 memory_mode, u32 *reason);
int amdx_partition_check(u32 model, u32 compute_mode, u32 memory_mode,
			 u32 num_vfs, u32 *reason);
const char *amdx_partition_reason_name(u32 reason);
int amdx_partition_compute_topology(u32 model, u32 compute_mode,
				    u32 memory_mode,
				    struct amdx_partition_topology *topo);

#endif /* _AMDX_PARTITION_MODEL_H_ */
