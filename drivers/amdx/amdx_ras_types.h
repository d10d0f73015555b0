/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The RAS state of a device, shared by the RAS feature (amdx_ras.c) and
 * the poison gate the HMM path reads (amdx_ras_poison.c).
 */
#ifndef _AMDX_RAS_TYPES_H_
#define _AMDX_RAS_TYPES_H_

#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <linux/amdx.h>

#include <amdx/amdx_provider.h>

#include "amdx_ras_policy.h"
#include "amdx_recovery_types.h"

/*
 * amdx_info_ratelimited() (amdx_core.h) with the newline added: left for
 * amdx_ras_poison.c's message until that file uses amdx_core.h's directly.
 */
#define amdx_ras_info(adev, fmt, ...) \
	amdx_info_ratelimited(adev, fmt "\n", ##__VA_ARGS__)

/* Counter rows per block: the device row, then one per compute partition. */
#define AMDX_RAS_ROWS	(1 + AMDX_MAX_PARTITIONS)

/**
 * struct amdx_ras - RAS state of one device
 * @lock: protects every field below but @poison's contents for readers.
 * @policy: the containment policy.
 * @blocks: the provider's RAS blocks, by %AMDX_RAS_BLOCK_*.
 * @count: errors per block, row (0: device, 1 + N: compute partition N)
 *	and type.  Monotonic.
 * @ce: per VRAM page index with CEs, its &struct amdx_ras_ce_window.
 * @poison: VRAM page indices poisoned (value entries): owned by
 *	amdx_ras_poison.c, written under @lock, read without it.
 * @table: the bad-page records, sorted by address, %AMDX_BADPAGE_MAX_RECORDS
 *	capacity; NULL while empty.
 * @nrec: records in @table.
 * @dirty: @table changed since it was last stored on the board.
 * @rma: the device reached its bad-page threshold.
 * @resets: per compute partition, its recent resets.
 * @recovery: the pending recovery actions (amdx_recovery.c).
 */
struct amdx_ras {
	struct mutex lock;	/* see above */
	struct amdx_ras_policy policy;
	struct amdx_ras_block_info blocks[AMDX_RAS_BLOCK_COUNT];
	u64 count[AMDX_RAS_BLOCK_COUNT][AMDX_RAS_ROWS][AMDX_RAS_TYPE_COUNT];
	struct xarray ce;
	struct xarray poison;
	struct amdx_badpage_record *table;
	u32 nrec;
	bool dirty;
	bool rma;
	struct amdx_ras_reset_window resets[AMDX_MAX_PARTITIONS];
	struct amdx_recovery_state recovery;
};

/**
 * amdx_ras_error_on_page() - whether a report names its error's page
 * @err: the report.
 *
 * A umc error with an address.  Both models of an error follow from it:
 * the containment ladder's per-page step (amdx_ras_decide()) and the
 * recovery model's fault (amdx_recovery_fault_of(): a UE at a page is
 * poison a process consumes, without one the device's).
 *
 * Return: true for an error at a page.
 */
static inline bool amdx_ras_error_on_page(const struct amdx_ras_error *err)
{
	return err->block == AMDX_RAS_BLOCK_UMC &&
	       (err->flags & AMDX_RAS_ERR_F_ADDRESS);
}

#endif /* _AMDX_RAS_TYPES_H_ */
