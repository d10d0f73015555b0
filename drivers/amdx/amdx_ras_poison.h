/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The RAS poison gate the HMM path reads and the set of poisoned pages it
 * owns (amdx_ras_poison.c).
 */
#ifndef _AMDX_RAS_POISON_H_
#define _AMDX_RAS_POISON_H_

#include <linux/types.h>

struct amdx_device;
struct amdx_ras;
struct amdx_subject;

void amdx_ras_poison_init(struct amdx_ras *ras);
void amdx_ras_poison_fini(struct amdx_ras *ras);
int amdx_ras_poison_mark(struct amdx_ras *ras, u64 index);
bool amdx_ras_page_poisoned(struct amdx_device *adev, u64 index);
bool amdx_ras_any_poison(struct amdx_device *adev);
void amdx_ras_poison_consumed(struct amdx_device *adev, u64 index,
			      const struct amdx_subject *who);
bool amdx_ras_vram_refused(struct amdx_device *adev);
bool amdx_ras_vram_refused_nowait(struct amdx_device *adev);

#endif /* _AMDX_RAS_POISON_H_ */
