/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Moves of device pages without a process: RAS retirement, emptying a
 * memory partition or a removed device, and an fd's pages found by VRAM
 * index (amdx_hmm_devmove.c).
 */
#ifndef _AMDX_HMM_DEVMOVE_H_
#define _AMDX_HMM_DEVMOVE_H_

#include <linux/types.h>

struct amdx_device;

/**
 * struct amdx_hmm_held - pages of one holder to move home by VRAM index
 * @holder: the holder (&amdx_hmm_ctx.holder, or %AMDX_VRAM_NO_HOLDER).
 * @first: first VRAM page to look at.
 * @end: one past the last.
 * @keep_lo: first linear page index whose pages stay (amdx_hmm_page_in()).
 * @keep_hi: one past the last; @keep_lo == @keep_hi keeps none.
 * @want: stop once this many pages moved (counting what moved before).
 * @owner: amdx_hmm_move_owned(): the VRAM owner (%AMDX_OWNER_PF,
 *	AMDX_OWNER_VF()) whose pages move; @holder is not used.
 * @keep: or NULL: whether VRAM page @index stays where it is (eviction:
 *	a page placed at a pinned address, amdx_hmm_evict.c); called with
 *	@keep_arg, without locks, for each page that would move otherwise.
 * @keep_arg: for @keep.
 */
struct amdx_hmm_held {
	u32 holder;
	u64 first;
	u64 end;
	u64 keep_lo;
	u64 keep_hi;
	u64 want;
	u32 owner;
	bool (*keep)(const void *arg, u64 index);
	const void *keep_arg;
};

int amdx_hmm_retire_vram_page(struct amdx_device *adev, u64 index);
int amdx_hmm_vacate_partition(struct amdx_device *adev, u32 part);
void amdx_hmm_move_held(struct amdx_device *adev,
			const struct amdx_hmm_held *h, u64 *moved);
void amdx_hmm_move_owned(struct amdx_device *adev,
			 const struct amdx_hmm_held *h,
			 const unsigned long *holders, u64 *moved);
void amdx_hmm_home_holder(struct amdx_device *adev, u32 holder);

#if IS_ENABLED(CONFIG_DEVICE_PRIVATE)
void amdx_hmm_vacate_device(struct amdx_device *adev);
#else
static inline void amdx_hmm_vacate_device(struct amdx_device *adev)
{
}
#endif

#endif /* _AMDX_HMM_DEVMOVE_H_ */
