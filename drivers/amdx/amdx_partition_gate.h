/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The partition VRAM gate the HMM path and device fds pass
 * (amdx_partition_gate.c).
 */
#ifndef _AMDX_PARTITION_GATE_H_
#define _AMDX_PARTITION_GATE_H_

#include <linux/types.h>

struct amdx_device;

int amdx_partition_vram_begin(struct amdx_device *adev);
bool amdx_partition_vram_trybegin(struct amdx_device *adev);
void amdx_partition_vram_end(struct amdx_device *adev);
int amdx_partition_vram_close(struct amdx_device *adev);
void amdx_partition_vram_open(struct amdx_device *adev);
int amdx_partition_vf_open(struct amdx_device *adev, u32 vf, u64 *epoch);
int amdx_partition_vf_check(struct amdx_device *adev, u32 vf, u64 epoch,
			    bool *evict);
int amdx_partition_mem_check(struct amdx_device *adev, u32 mem, u32 vf);

#endif /* _AMDX_PARTITION_GATE_H_ */
