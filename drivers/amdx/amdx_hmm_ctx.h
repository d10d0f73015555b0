/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * HMM migration: per-device state, per-fd contexts, the migration engine.
 */
#ifndef _AMDX_HMM_H_
#define _AMDX_HMM_H_

#include <linux/errno.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/amdx.h>

#include "amdx_hmm_range.h"
#include "amdx_viewer.h"

struct amdx_device;
struct amdx_file;
struct mm_struct;
struct amdx_query;

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
 * @holder: its holder id in the device's VRAM allocator (amdx_vram.c):
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
	struct list_head dev_node;
};

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
void amdx_hmm_file_release(struct amdx_file *file);
void amdx_hmm_device_drain(struct amdx_device *adev);
void amdx_hmm_forget_devices(struct amdx_device *adev, u64 mask);
int amdx_ioctl_hmm_set_attr(struct amdx_file *file, void *data);
int amdx_ioctl_hmm_migrate(struct amdx_file *file, void *data);
int amdx_ioctl_hmm_access(struct amdx_file *file, void *data);
int amdx_hmm_query_ranges(struct amdx_file *file, struct amdx_query *q);
int amdx_hmm_holders(struct amdx_device *adev, u32 part_mask,
		     struct amdx_hmm_holder *out, u32 max, u32 *count);
void amdx_hmm_holders_put(struct amdx_hmm_holder *h, u32 n);
void amdx_hmm_forget_resident(struct amdx_device *adev, u32 part);
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

static inline void amdx_hmm_file_release(struct amdx_file *file)
{
}

static inline void amdx_hmm_device_drain(struct amdx_device *adev)
{
}

static inline void amdx_hmm_forget_devices(struct amdx_device *adev,
					   u64 mask)
{
}

static inline int amdx_ioctl_hmm_set_attr(struct amdx_file *file, void *data)
{
	return -EOPNOTSUPP;
}

static inline int amdx_ioctl_hmm_migrate(struct amdx_file *file, void *data)
{
	return -EOPNOTSUPP;
}

static inline int amdx_ioctl_hmm_access(struct amdx_file *file, void *data)
{
	return -EOPNOTSUPP;
}

static inline int amdx_hmm_query_ranges(struct amdx_file *file,
					struct amdx_query *q)
{
	return -EOPNOTSUPP;
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

static inline void amdx_hmm_forget_resident(struct amdx_device *adev,
					    u32 part)
{
}
#endif

/* amdx_hmm_migrate.c */

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

int amdx_hmm_migrate_range(struct amdx_hmm_ctx *ctx, u64 start, u64 end,
			   u32 dest, struct amdx_hmm_result *res);
int amdx_hmm_evict_one(struct amdx_device *adev, u32 part,
		       struct amdx_hmm_ctx *self, u64 ex_start, u64 ex_end);
int amdx_hmm_evict_vram_page(struct amdx_device *adev, u64 index);
int amdx_hmm_drain_vram(struct amdx_device *adev, u64 index, u64 npages,
			u64 *moved);
int amdx_hmm_drain_partition(struct amdx_device *adev, u32 part);
void amdx_hmm_home_holder(struct amdx_device *adev, u32 holder);
void amdx_hmm_ctx_put(struct amdx_hmm_ctx *ctx);
bool amdx_hmm_is_local(struct amdx_device *adev, struct mm_struct *mm,
		       unsigned long addr);
u64 amdx_hmm_count_local(struct amdx_device *adev, struct mm_struct *mm,
			 unsigned long addr, unsigned long end);
const void *amdx_hmm_pte_device_owner(struct mm_struct *mm,
				      unsigned long addr, bool *writable);
void amdx_hmm_account(struct amdx_hmm_ctx *ctx, u64 start, u64 end,
		      u32 dest, const struct amdx_hmm_result *res,
		      bool fault, bool eviction);
void amdx_hmm_event_migrate(struct amdx_device *adev,
			    const struct amdx_subject *who, bool home,
			    u64 pages);

#endif /* _AMDX_HMM_H_ */
