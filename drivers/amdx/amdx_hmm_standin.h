/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Stand-ins for poisoned device pages that leave their device
 * (amdx_hmm_standin.c).
 */
#ifndef _AMDX_HMM_STANDIN_H_
#define _AMDX_HMM_STANDIN_H_

#include <linux/bits.h>
#include <linux/mm.h>
#include <linux/mmzone.h>

/* One memory section: the unit a device-private pagemap is made in. */
#define AMDX_HMM_STANDINS_SIZE	BIT_ULL(PA_SECTION_SHIFT)
#define AMDX_HMM_STANDINS	(AMDX_HMM_STANDINS_SIZE >> PAGE_SHIFT)

struct page;

#if IS_ENABLED(CONFIG_DEVICE_PRIVATE)
int amdx_hmm_standin_init(void);
void amdx_hmm_standin_fini(void);
struct page *amdx_hmm_standin_get(void);
#else
static inline int amdx_hmm_standin_init(void)
{
	return 0;
}

static inline void amdx_hmm_standin_fini(void)
{
}
#endif

#endif /* _AMDX_HMM_STANDIN_H_ */
