/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * HMM context of a device fd: what the HMM files share of it, and the
 * counters migrations add to.
 */
#ifndef _AMDX_HMM_CTX_H_
#define _AMDX_HMM_CTX_H_

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/amdx.h>

#include "amdx_core.h"
#include "amdx_hmm_range.h"
#include "amdx_viewer.h"

struct amdx_file;
struct mm_struct;

/*
 * Holder ids one effective uid without CAP_SYS_ADMIN may have on a device
 * (one per device fd that migrated towards VRAM): 64 users to fill the
 * device's %AMDX_VRAM_MAX_HOLDERS.  Documentation/security.rst.
 */
#define AMDX_HMM_HOLDERS_PER_USER	1024

/**
 * struct amdx_hmm_ctx - HMM state of one device fd
 * @ref: the fd holds one; eviction holds one while it works.
 * @adev: the device (the fd's reference keeps it).
 * @mm: the address space of the process that opened the fd (mmgrab).
 * @tgid: that process, in the initial pid namespace (for tracepoints).
 * @who: that process (a reference on its pid) and its effective uid at
 *	open: what reports may show of it (amdx_viewer.c), whose pin quota
 *	the fd uses.
 * @comm: its command name at open.
 * @owner: whom its VRAM is charged to (&amdx_file.owner).
 * @holder: its holder id in the device's VRAM allocator (amdx_vram.c),
 *	%AMDX_VRAM_NO_HOLDER until its first migration towards VRAM
 *	(amdx_hmm_ctx_holder_get()); set once, under &amdx_hmm_dev.lock:
 *	every VRAM page it migrates in records it, wherever the page is
 *	mapped later (``mremap()``, a ``fork()`` child), so PLAN's holders
 *	read counters, and close and eviction find its pages by VRAM index.
 * @vf_evict: a VF fd whose VF evicts its own data at its quota; set by
 *	each migration from the VF's policy.
 * @lock: protects @ranges and @total.  A spinlock because the notifier
 *	takes it, and notifiers run under fs_reclaim: nothing holding it
 *	allocates (range nodes come from a pool filled before, see
 *	amdx_range_pool_fill()), and every walk under it is bounded by
 *	%AMDX_HMM_RANGES_MAX.  Innermost but for page-table locks.
 * @ranges: attribute ranges.
 * @total: counters of the fd, including removed ranges.
 * @notifier: mirror of the whole address space, as test_hmm's.
 * @mirror_lock: serialises device access against invalidation.
 * @revoked: under @mirror_lock: bumped each time an access set of this
 *	address space stops naming this fd's device (a fabric link's
 *	containment, amdx_hmm_link.c): an ACCESS that checked the access
 *	sets before looks at them again before it copies.
 * @dev_node: entry in &amdx_hmm_dev.ctxs.
 */
struct amdx_hmm_ctx {
	struct kref ref;
	struct amdx_device *adev;
	struct mm_struct *mm;
	pid_t tgid;
	struct amdx_subject who;
	char comm[TASK_COMM_LEN];
	u32 owner;
	u32 holder;
	bool vf_evict;
	spinlock_t lock;	/* see above */
	struct amdx_range_set ranges;
	struct amdx_hmm_stats total;
	struct mmu_interval_notifier notifier;
	struct mutex mirror_lock;	/* see above */
	u64 revoked;
	struct list_head dev_node;
};

/**
 * struct amdx_hmm_result - outcome of a migration
 * @moved: pages moved.
 * @already: pages already at the destination.
 * @skipped: pages not moved.
 * @reasons: %AMDX_HMM_SKIP_* for @skipped.
 * @ns: time taken.
 */
struct amdx_hmm_result {
	u64 moved;
	u64 already;
	u64 skipped;
	u32 reasons;
	u64 ns;
};

void amdx_hmm_ctx_put(struct amdx_hmm_ctx *ctx);
struct amdx_hmm_ctx *amdx_hmm_ctx_of_mm(struct amdx_device *adev,
					struct mm_struct *mm,
					unsigned long addr);
int amdx_hmm_ctx_check(struct amdx_file *file);
int amdx_hmm_ctx_holder_get(struct amdx_hmm_ctx *ctx);
u64 amdx_hmm_ctx_used(const struct amdx_hmm_ctx *ctx, u64 *pages);
int amdx_hmm_span_check(u64 start, u64 size);
void amdx_hmm_account(struct amdx_hmm_ctx *ctx, u64 start, u32 dest,
		      const struct amdx_hmm_result *res,
		      enum amdx_mig_cause cause);
void amdx_hmm_event_migrate(struct amdx_device *adev,
			    const struct amdx_subject *who, bool home,
			    u64 pages);
void amdx_hmm_forget_resident(struct amdx_device *adev, u32 part);

/* For a memory-mode change (amdx_partition.c): with or without HMM. */
#if IS_ENABLED(CONFIG_DEVICE_PRIVATE)
int amdx_hmm_pins_fit(struct amdx_device *adev, u32 num_memory);
#else
static inline int amdx_hmm_pins_fit(struct amdx_device *adev, u32 num_memory)
{
	return 0;
}
#endif

#endif /* _AMDX_HMM_CTX_H_ */
