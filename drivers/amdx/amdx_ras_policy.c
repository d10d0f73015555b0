// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: RAS containment policy
 *
 * Pure logic: what containment does about one error, given the device's
 * policy (&struct amdx_ras_policy) and what is known about the error.  The
 * ladder, smallest domain first:
 *
 * ====================================  ===============================
 * error                                 decision
 * ====================================  ===============================
 * CE on a VRAM page, below threshold    count
 * CE on a VRAM page, at threshold       soft retire (move data, retire)
 * UE or DE on a VRAM page               poison and retire
 * UE in gfx/sdma of a partition         quarantine, reset, restore
 * the same, ``part_reset_limit``-th     quarantine, reset, leave offline
 * reset within ``part_reset_window_s``
 * UE in any other block (xgmi_wafl,     device reset (fatal)
 * pcie_bif, hdp, mmhub; gfx/sdma
 * without a partition)
 * DE off a page, CE off a page          count
 * ====================================  ===============================
 *
 * Errors on a page already retired are only counted.  Separately, the
 * retired pages are compared with ``bad_page_threshold`` (amdgpu's
 * semantics): -1 flags the device for RMA at 128 pages but only warns,
 * -2 flags it at one page per 100 MiB of VRAM, N > 0 at N pages; with
 * %AMDX_RAS_POL_F_RMA_REFUSE and a threshold other than -1, a flagged
 * device refuses new VRAM allocations.
 *
 * CE windows slide in eighths: a page's CEs are counted in slots of
 * ceil(window / 8) seconds, and a CE stops counting once its slot is
 * ceil(window / slot) slots old (eight for windows of 8 s and more; a
 * window below 8 s slides by the second).  Memory per page is fixed
 * (96 bytes) whatever the threshold, at the price of expiring errors up
 * to one slot (3 h with the 24 h default) later than an exact window
 * would.  Partition resets are kept exactly: the last
 * %AMDX_RAS_PART_RESET_LIMIT_MAX reset times per partition.
 *
 * Times are seconds of a clock that never goes back and counts suspend
 * (the caller uses ktime_get_boottime_seconds()); tests pass their own.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "amdx_kunit.h"
#include "amdx_ras_policy.h"

/**
 * amdx_ras_policy_default() - the policy a device starts with
 * @p: out: fully overwritten; @p->valid is %AMDX_RAS_POL_ALL.
 */
void amdx_ras_policy_default(struct amdx_ras_policy *p)
{
	memset(p, 0, sizeof(*p));
	p->valid = AMDX_RAS_POL_ALL;
	p->ce_page_threshold = AMDX_RAS_CE_PAGE_THRESHOLD_DEFAULT;
	p->ce_window_s = AMDX_RAS_CE_WINDOW_DEFAULT_S;
	p->bad_page_threshold = AMDX_RAS_BAD_PAGE_WARN;
	p->part_reset_limit = AMDX_RAS_PART_RESET_LIMIT_DEFAULT;
	p->part_reset_window_s = AMDX_RAS_PART_RESET_WINDOW_DEFAULT_S;
	p->flags = 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ras_policy_default);

/* A field @req->valid does not name is not zero: true with @why naming it. */
static bool amdx_ras_policy_unnamed(const struct amdx_ras_policy *req,
				    const char **why)
{
	static const struct {
		u32 bit;
		const char *why;
	} fields[] = {
		{ AMDX_RAS_POL_CE_PAGE_THRESHOLD,
		  "ce_page_threshold not zero but not named in valid" },
		{ AMDX_RAS_POL_CE_WINDOW,
		  "ce_window_s not zero but not named in valid" },
		{ AMDX_RAS_POL_BAD_PAGE_THRESHOLD,
		  "bad_page_threshold not zero but not named in valid" },
		{ AMDX_RAS_POL_PART_RESET_LIMIT,
		  "part_reset_limit not zero but not named in valid" },
		{ AMDX_RAS_POL_PART_RESET_WINDOW,
		  "part_reset_window_s not zero but not named in valid" },
		{ AMDX_RAS_POL_FLAGS,
		  "flags not zero but not named in valid" },
	};
	const u32 val[] = {
		req->ce_page_threshold, req->ce_window_s,
		(u32)req->bad_page_threshold, req->part_reset_limit,
		req->part_reset_window_s, req->flags,
	};
	u32 i;

	static_assert(ARRAY_SIZE(fields) == ARRAY_SIZE(val));
	static_assert(BIT(ARRAY_SIZE(fields)) - 1 == AMDX_RAS_POL_ALL);
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		if (!(req->valid & fields[i].bit) && val[i]) {
			*why = fields[i].why;
			return true;
		}
	}
	return false;
}

/**
 * amdx_ras_policy_check() - validate a %AMDX_IOC_RAS_SET_POLICY request
 * @req: the request: the fields named in @req->valid must be in their
 *	ranges, every other field must be zero (an unused field that is not
 *	zero is a caller's mistake, which the uapi rejects everywhere).
 * @why: out: on error, what is wrong (naming the field), for the log.
 *
 * Return: 0, or -EINVAL with @why set.
 */
int amdx_ras_policy_check(const struct amdx_ras_policy *req,
			  const char **why)
{
	u32 v = req->valid;

	if (req->pad || req->reserved[0] || req->reserved[1]) {
		*why = "pad or reserved field not zero";
		return -EINVAL;
	}
	if (!v || (v & ~AMDX_RAS_POL_ALL)) {
		*why = "valid names no field or an unknown one";
		return -EINVAL;
	}
	if (amdx_ras_policy_unnamed(req, why))
		return -EINVAL;
	if ((v & AMDX_RAS_POL_CE_PAGE_THRESHOLD) &&
	    (!req->ce_page_threshold ||
	     req->ce_page_threshold > AMDX_RAS_CE_PAGE_THRESHOLD_MAX)) {
		*why = "ce_page_threshold outside 1..65535";
		return -EINVAL;
	}
	if ((v & AMDX_RAS_POL_CE_WINDOW) &&
	    (!req->ce_window_s || req->ce_window_s > AMDX_RAS_CE_WINDOW_MAX_S)) {
		*why = "ce_window_s outside 1..2592000 (30 days)";
		return -EINVAL;
	}
	if ((v & AMDX_RAS_POL_BAD_PAGE_THRESHOLD) &&
	    req->bad_page_threshold != AMDX_RAS_BAD_PAGE_WARN &&
	    req->bad_page_threshold != AMDX_RAS_BAD_PAGE_AUTO &&
	    (req->bad_page_threshold <= 0 ||
	     req->bad_page_threshold > AMDX_BADPAGE_MAX_RECORDS)) {
		*why = "bad_page_threshold not -1, -2 or 1..10921";
		return -EINVAL;
	}
	if ((v & AMDX_RAS_POL_PART_RESET_LIMIT) &&
	    (!req->part_reset_limit ||
	     req->part_reset_limit > AMDX_RAS_PART_RESET_LIMIT_MAX)) {
		*why = "part_reset_limit outside 1..100";
		return -EINVAL;
	}
	if ((v & AMDX_RAS_POL_PART_RESET_WINDOW) &&
	    (!req->part_reset_window_s ||
	     req->part_reset_window_s > AMDX_RAS_PART_RESET_WINDOW_MAX_S)) {
		*why = "part_reset_window_s outside 1..86400";
		return -EINVAL;
	}
	if ((v & AMDX_RAS_POL_FLAGS) &&
	    (req->flags & ~AMDX_RAS_POL_F_RMA_REFUSE)) {
		*why = "unknown flag";
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ras_policy_check);

/**
 * amdx_ras_policy_apply() - change the fields a checked request names
 * @cur: the device's policy.
 * @req: a request amdx_ras_policy_check() accepted.
 */
void amdx_ras_policy_apply(struct amdx_ras_policy *cur,
			   const struct amdx_ras_policy *req)
{
	u32 v = req->valid;

	if (v & AMDX_RAS_POL_CE_PAGE_THRESHOLD)
		cur->ce_page_threshold = req->ce_page_threshold;
	if (v & AMDX_RAS_POL_CE_WINDOW)
		cur->ce_window_s = req->ce_window_s;
	if (v & AMDX_RAS_POL_BAD_PAGE_THRESHOLD)
		cur->bad_page_threshold = req->bad_page_threshold;
	if (v & AMDX_RAS_POL_PART_RESET_LIMIT)
		cur->part_reset_limit = req->part_reset_limit;
	if (v & AMDX_RAS_POL_PART_RESET_WINDOW)
		cur->part_reset_window_s = req->part_reset_window_s;
	if (v & AMDX_RAS_POL_FLAGS)
		cur->flags = req->flags;
	cur->valid = AMDX_RAS_POL_ALL;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ras_policy_apply);

/**
 * amdx_ras_bad_page_limit() - retired pages that flag a device for RMA
 * @p: the policy.
 * @vram_size: the device's VRAM in bytes.
 *
 * Return: 128 for %AMDX_RAS_BAD_PAGE_WARN, VRAM / 100 MiB (at least 1)
 * for %AMDX_RAS_BAD_PAGE_AUTO, else the threshold itself.
 */
u32 amdx_ras_bad_page_limit(const struct amdx_ras_policy *p, u64 vram_size)
{
	switch (p->bad_page_threshold) {
	case AMDX_RAS_BAD_PAGE_WARN:
		return AMDX_RAS_BAD_PAGE_WARN_PAGES;
	case AMDX_RAS_BAD_PAGE_AUTO:
		return max_t(u64, 1, div64_u64(vram_size,
					       AMDX_RAS_BAD_PAGE_AUTO_BYTES));
	default:
		return max(p->bad_page_threshold, 1);
	}
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ras_bad_page_limit);

/**
 * amdx_ras_rma_refuses() - whether a device flagged for RMA stops allocating
 * @p: the policy.
 *
 * Return: true with %AMDX_RAS_POL_F_RMA_REFUSE unless the threshold is
 * %AMDX_RAS_BAD_PAGE_WARN, which only ever warns.
 */
bool amdx_ras_rma_refuses(const struct amdx_ras_policy *p)
{
	return (p->flags & AMDX_RAS_POL_F_RMA_REFUSE) &&
	       p->bad_page_threshold != AMDX_RAS_BAD_PAGE_WARN;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ras_rma_refuses);

static u64 amdx_ras_slot_len(u32 window_s)
{
	return max_t(u64, 1, DIV_ROUND_UP(window_s, AMDX_RAS_CE_SLOTS));
}

/**
 * amdx_ras_ce_add() - count CEs of a page and report its window total
 * @w: the page's window.
 * @window_s: the policy's window, at least 1.
 * @now_s: the time of the errors, never before an earlier call's.
 * @n: CEs to add (0 only reads).
 *
 * Return: CEs within the window ending at @now_s, @n included, saturated
 * at U32_MAX.
 */
u32 amdx_ras_ce_add(struct amdx_ras_ce_window *w, u32 window_s, u64 now_s,
		    u32 n)
{
	u64 len = amdx_ras_slot_len(window_s);
	u64 epoch = div64_u64(now_s, len);
	u32 slot = epoch % AMDX_RAS_CE_SLOTS;
	u32 nslots = DIV_ROUND_UP_ULL(window_s, len);
	u64 sum = 0;
	u32 i;

	if (w->epoch[slot] != epoch) {
		w->epoch[slot] = epoch;
		w->count[slot] = 0;
	}
	w->count[slot] = (u32)min_t(u64, (u64)w->count[slot] + n, U32_MAX);

	for (i = 0; i < AMDX_RAS_CE_SLOTS; i++)
		if (w->count[i] && w->epoch[i] <= epoch &&
		    epoch - w->epoch[i] < nslots)
			sum += w->count[i];
	return (u32)min_t(u64, sum, U32_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ras_ce_add);

/**
 * amdx_ras_resets_in_window() - resets of a partition in the window
 * @w: the partition's reset history.
 * @window_s: the policy's window.
 * @now_s: now.
 *
 * Return: resets at times t with now - window < t <= now.
 */
u32 amdx_ras_resets_in_window(const struct amdx_ras_reset_window *w,
			      u32 window_s, u64 now_s)
{
	u32 i, n = min_t(u32, w->total, AMDX_RAS_PART_RESET_LIMIT_MAX), c = 0;

	for (i = 0; i < n; i++)
		if (w->time[i] <= now_s && now_s - w->time[i] < window_s)
			c++;
	return c;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ras_resets_in_window);

/**
 * amdx_ras_reset_record() - remember a partition reset
 * @w: the partition's reset history.
 * @now_s: when it happened.
 */
void amdx_ras_reset_record(struct amdx_ras_reset_window *w, u64 now_s)
{
	w->time[w->next] = now_s;
	w->next = (w->next + 1) % AMDX_RAS_PART_RESET_LIMIT_MAX;
	if (w->total < U32_MAX)
		w->total++;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ras_reset_record);

/**
 * amdx_ras_fatal() - whether an error can only be contained by a device reset
 * @block: %AMDX_RAS_BLOCK_*.
 * @type: %AMDX_RAS_TYPE_*.
 *
 * Return: true for a UE outside umc, gfx and sdma (those have smaller
 * domains: the page, the partition).
 */
bool amdx_ras_fatal(u32 block, u32 type)
{
	return type == AMDX_RAS_TYPE_UE && block != AMDX_RAS_BLOCK_UMC &&
	       block != AMDX_RAS_BLOCK_GFX && block != AMDX_RAS_BLOCK_SDMA;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ras_fatal);

/**
 * amdx_ras_decide() - the containment step for one error
 * @p: the device's policy.
 * @s: what is known about the error.
 *
 * Return: %AMDX_RAS_DO_*; see the DOC table.
 */
u32 amdx_ras_decide(const struct amdx_ras_policy *p,
		    const struct amdx_ras_situation *s)
{
	if (s->on_page) {
		if (s->page_retired)
			return AMDX_RAS_DO_COUNT;
		if (s->type == AMDX_RAS_TYPE_CE)
			return s->page_ces >= p->ce_page_threshold ?
			       AMDX_RAS_DO_SOFT_RETIRE : AMDX_RAS_DO_COUNT;
		return AMDX_RAS_DO_POISON_RETIRE;
	}
	if (s->type != AMDX_RAS_TYPE_UE)
		return AMDX_RAS_DO_COUNT;
	if ((s->block == AMDX_RAS_BLOCK_GFX ||
	     s->block == AMDX_RAS_BLOCK_SDMA) && s->partition)
		return s->part_resets + 1 >= p->part_reset_limit ?
		       AMDX_RAS_DO_PARTITION_OFFLINE :
		       AMDX_RAS_DO_PARTITION_RESET;
	return AMDX_RAS_DO_DEVICE_RESET;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ras_decide);
