/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * HMM migration as the rest of amdx sees it: a device fd's context, the
 * processes holding a device's VRAM, and clearing what a removed device
 * leaves behind (amdx_hmm_ctx.c).  Only what files outside the HMM wing
 * call; what the wing's files share of the contexts is in
 * amdx_hmm_ctx.h.  The fd's ioctls are in amdx_hmm_ioctl.h and
 * amdx_hmm_access.h, moves of device pages without a process in
 * amdx_hmm_devmove.h.  What the fabric links ask of HMM (no new data
 * across a bad link, move what crosses it) is in amdx_hmm_link.h.
 */
#ifndef _AMDX_HMM_H_
#define _AMDX_HMM_H_

#include <linux/sched.h>
#include <linux/types.h>

#include "amdx_viewer.h"

struct amdx_device;
struct amdx_file;

/**
 * struct amdx_hmm_holder - a process with device pages in a memory partition
 * @who: the process (a reference on its pid, amdx_hmm_holders_put()).
 * @mem_partition: the memory partition.
 * @pages: its device pages there.
 * @comm: its command name.
 */
struct amdx_hmm_holder {
	struct amdx_subject who;
	u32 mem_partition;
	u64 pages;
	char comm[TASK_COMM_LEN];
};

#if IS_ENABLED(CONFIG_DEVICE_PRIVATE)
bool amdx_hmm_supported(void);
int amdx_hmm_file_open(struct amdx_file *file);
void amdx_hmm_forget_devices(struct amdx_device *adev, u64 mask);
int amdx_hmm_holders(struct amdx_device *adev, u32 part_mask,
		     struct amdx_hmm_holder *out, u32 max, u32 *count);
void amdx_hmm_holders_put(struct amdx_hmm_holder *h, u32 n);
#else
/* Without CONFIG_DEVICE_PRIVATE: HMM is reported absent. */
static inline bool amdx_hmm_supported(void)
{
	return false;
}

static inline int amdx_hmm_file_open(struct amdx_file *file)
{
	return 0;
}

static inline void amdx_hmm_forget_devices(struct amdx_device *adev,
					   u64 mask)
{
}

static inline int amdx_hmm_holders(struct amdx_device *adev, u32 part_mask,
				   struct amdx_hmm_holder *out, u32 max,
				   u32 *count)
{
	*count = 0;
	return 0;
}

static inline void amdx_hmm_holders_put(struct amdx_hmm_holder *h, u32 n)
{
}
#endif

#endif /* _AMDX_HMM_H_ */
