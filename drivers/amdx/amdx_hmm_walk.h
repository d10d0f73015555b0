/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * HMM PTE walker: device-private pages in a process's page tables.
 */
#ifndef _AMDX_HMM_WALK_H_
#define _AMDX_HMM_WALK_H_

#include <linux/types.h>

struct mm_struct;

u64 amdx_hmm_count_local(const void *owner, struct mm_struct *mm,
			 unsigned long addr, unsigned long end);
const void *amdx_hmm_pte_device_owner(struct mm_struct *mm,
				      unsigned long addr, bool *writable);
bool amdx_hmm_is_local(const void *owner, struct mm_struct *mm,
		       unsigned long addr);

#endif /* _AMDX_HMM_WALK_H_ */
