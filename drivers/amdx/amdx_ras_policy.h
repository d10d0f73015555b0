/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The RAS containment policy (amdx_ras_policy.c): defaults, validation,
 * per-page CE windows and the decision what to do about one error.  Pure
 * logic with the time passed in, so KUnit drives it without a device.
 */
#ifndef _AMDX_RAS_POLICY_H_
#define _AMDX_RAS_POLICY_H_

#include <linux/types.h>
#include <linux/amdx.h>

/* Defaults (Documentation/ras.rst). */
#define AMDX_RAS_CE_PAGE_THRESHOLD_DEFAULT	50
#define AMDX_RAS_CE_WINDOW_DEFAULT_S		(24 * 3600)
#define AMDX_RAS_PART_RESET_LIMIT_DEFAULT	3
#define AMDX_RAS_PART_RESET_WINDOW_DEFAULT_S	3600

/* The ranges %AMDX_IOC_RAS_SET_POLICY accepts are the uapi's. */

/* Pages that trip the warn-only threshold (amdgpu on MI300-class). */
#define AMDX_RAS_BAD_PAGE_WARN_PAGES		128
/* One retired page allowed per this much VRAM with %AMDX_RAS_BAD_PAGE_AUTO. */
#define AMDX_RAS_BAD_PAGE_AUTO_BYTES		(100ULL << 20)

/* A CE window is kept in this many slots: it slides in 1/8 steps. */
#define AMDX_RAS_CE_SLOTS			8

/**
 * struct amdx_ras_ce_window - CEs of one page in a sliding window
 * @epoch: per slot, the slot number (time / slot length) its count is for.
 * @count: per slot, CEs reported in that slot.
 *
 * Zero-initialised it is an empty window.
 */
struct amdx_ras_ce_window {
	u64 epoch[AMDX_RAS_CE_SLOTS];
	u32 count[AMDX_RAS_CE_SLOTS];
};

/**
 * struct amdx_ras_reset_window - recent resets of one partition
 * @time: boot-time seconds of the last resets, a ring.
 * @next: where the next reset goes in @time.
 * @total: resets ever recorded.
 */
struct amdx_ras_reset_window {
	u64 time[AMDX_RAS_PART_RESET_LIMIT_MAX];
	u32 next;
	u32 total;
};

/* What containment does about one error (amdx_ras_decide()). */
#define AMDX_RAS_DO_COUNT		0	/* count it, nothing else */
#define AMDX_RAS_DO_SOFT_RETIRE		1	/* move the data, retire */
#define AMDX_RAS_DO_POISON_RETIRE	2	/* poison the page, retire */
#define AMDX_RAS_DO_PARTITION_RESET	3	/* quarantine, reset, restore */
#define AMDX_RAS_DO_PARTITION_OFFLINE	4	/* quarantine, reset, offline */
#define AMDX_RAS_DO_DEVICE_RESET	5	/* fatal: reset the device */

/**
 * struct amdx_ras_situation - what the policy needs to know about an error
 * @block: %AMDX_RAS_BLOCK_*.
 * @type: %AMDX_RAS_TYPE_*.
 * @on_page: the error names a VRAM page (umc with an address).
 * @page_retired: that page is retired already.
 * @page_ces: CEs of that page in the policy's window, this error included.
 * @partition: the error is attributed to one compute partition.
 * @part_resets: resets of that partition within the policy's window,
 *	before this error.
 */
struct amdx_ras_situation {
	u32 block;
	u32 type;
	bool on_page;
	bool page_retired;
	u32 page_ces;
	bool partition;
	u32 part_resets;
};

void amdx_ras_policy_default(struct amdx_ras_policy *p);
int amdx_ras_policy_check(const struct amdx_ras_policy *req,
			  const char **why);
void amdx_ras_policy_apply(struct amdx_ras_policy *cur,
			   const struct amdx_ras_policy *req);
u32 amdx_ras_bad_page_limit(const struct amdx_ras_policy *p, u64 vram_size);
bool amdx_ras_rma_refuses(const struct amdx_ras_policy *p);
u32 amdx_ras_ce_add(struct amdx_ras_ce_window *w, u32 window_s, u64 now_s,
		    u32 n);
u32 amdx_ras_resets_in_window(const struct amdx_ras_reset_window *w,
			      u32 window_s, u64 now_s);
void amdx_ras_reset_record(struct amdx_ras_reset_window *w, u64 now_s);
bool amdx_ras_fatal(u32 block, u32 type);
u32 amdx_ras_decide(const struct amdx_ras_policy *p,
		    const struct amdx_ras_situation *s);

#endif /* _AMDX_RAS_POLICY_H_ */
