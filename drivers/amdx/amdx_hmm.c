// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM contexts and ioctls
 *
 * Each device fd of a device with device-private VRAM has an HMM context
 * bound to the address space of the process that opened it: attribute
 * ranges (amdx_hmm_range.c), counters, and an mmu_interval_notifier over
 * the whole address space that serves as the device's mirror (the
 * technique of lib/test_hmm.c).
 *
 * ::
 *
 *   process          device fd (ctx)              kernel mm
 *     | SET_ATTR  --> validate VMAs, split/merge ranges
 *     | MIGRATE   --> amdx_hmm_migrate_range() --> migrate_vma_*()
 *     | ACCESS    --> hmm_range_fault() under the notifier sequence,
 *     |               copy under mirror_lock <-- invalidate() bumps seq
 *     | touch     ----------------------------> do_swap_page()
 *     |                                          -> migrate_to_ram()
 *     | close     --> data home, notifier removed
 *
 * Lock order: device lock (read, ioctls) -> mmap_lock -> hmm.lock ->
 * ctx->lock; mirror_lock nests inside mmap_lock and is taken by the
 * notifier.  No context lock is held across migrate_vma or
 * hmm_range_fault.  SET_ATTR looks up the registry (its xarray lock)
 * under hmm.lock.
 *
 * The access attribute names devices by id, and ids come back after their
 * device is gone.  SET_ATTR checks the named devices exist under hmm.lock;
 * removal of a device, before it frees the id, takes every device's
 * hmm.lock in turn and clears the id from every range
 * (amdx_hmm_forget_devices()), so no bit outlives its device::
 *
 *   SET_ATTR on A naming B               unregister B
 *     hmm.lock(A)                          B's id reserved: lookups fail
 *       B registered? (registry)           ...
 *       ranges: access |= B                hmm.lock(A) (waits for SET_ATTR)
 *     unlock                                 ranges: access &= ~B
 *                                          unlock; ... ; B's id freed
 */
#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/delay.h>
#include <linux/hmm.h>
#include <linux/jiffies.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "amdx_core.h"
#include "amdx_hmm.h"
#include "amdx_partition.h"
#include "amdx_ras.h"

/* Largest span one ACCESS call handles. */
#define AMDX_HMM_ACCESS_MAX	(64ULL << 20)
/* Pages per hmm_range_fault() call of ACCESS. */
#define AMDX_HMM_ACCESS_CHUNK	512

/**
 * amdx_hmm_supported() - whether this build supports HMM migration
 *
 * Return: true (this file is built only with CONFIG_DEVICE_PRIVATE).
 */
bool amdx_hmm_supported(void)
{
	return true;
}

static void amdx_hmm_ctx_release(struct kref *ref)
{
	struct amdx_hmm_ctx *ctx = container_of(ref, struct amdx_hmm_ctx, ref);

	amdx_range_set_fini(&ctx->ranges);
	mmdrop(ctx->mm);
	kfree(ctx);
}

/**
 * amdx_hmm_ctx_put() - drop a reference on a context
 * @ctx: the context.
 */
void amdx_hmm_ctx_put(struct amdx_hmm_ctx *ctx)
{
	kref_put(&ctx->ref, amdx_hmm_ctx_release);
}

static bool amdx_hmm_invalidate(struct mmu_interval_notifier *mni,
				const struct mmu_notifier_range *range,
				unsigned long cur_seq)
{
	struct amdx_hmm_ctx *ctx = container_of(mni, struct amdx_hmm_ctx,
						notifier);
	bool blockable = mmu_notifier_range_blockable(range);

	if (blockable)
		mutex_lock(&ctx->mirror_lock);
	else if (!mutex_trylock(&ctx->mirror_lock))
		return false;
	mmu_interval_set_seq(mni, cur_seq);
	mutex_unlock(&ctx->mirror_lock);

	if (range->event == MMU_NOTIFY_UNMAP) {
		spin_lock(&ctx->lock);
		amdx_range_clip(&ctx->ranges, range->start, range->end);
		spin_unlock(&ctx->lock);
	}
	return true;
}

static const struct mmu_interval_notifier_ops amdx_hmm_notifier_ops = {
	.invalidate = amdx_hmm_invalidate,
};

/**
 * amdx_hmm_file_open() - create the HMM context of a new device fd
 * @file: the device fd's file; file->adev is set.
 *
 * Devices without device-private VRAM get no context.
 *
 * Return: 0 or -errno.
 */
int amdx_hmm_file_open(struct amdx_file *file)
{
	struct amdx_device *adev = file->adev;
	struct amdx_hmm_ctx *ctx;
	int ret;

	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM) || !current->mm)
		return 0;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	kref_init(&ctx->ref);
	ctx->adev = adev;
	ctx->tgid = task_tgid_nr(current);
	get_task_comm(ctx->comm, current);
	ctx->owner = file->owner;
	spin_lock_init(&ctx->lock);
	mutex_init(&ctx->mirror_lock);
	amdx_range_set_init(&ctx->ranges);
	mmgrab(current->mm);
	ctx->mm = current->mm;

	ret = mmu_interval_notifier_insert(&ctx->notifier, ctx->mm, 0,
					   ULONG_MAX & PAGE_MASK,
					   &amdx_hmm_notifier_ops);
	if (ret)
		goto err_put;

	mutex_lock(&adev->hmm.lock);
	list_add_tail(&ctx->dev_node, &adev->hmm.ctxs);
	mutex_unlock(&adev->hmm.lock);
	file->hmm = ctx;
	return 0;

err_put:
	amdx_hmm_ctx_put(ctx);
	return ret;
}

/**
 * amdx_hmm_file_release() - tear down the HMM context of a device fd
 * @file: the closing device fd.
 *
 * Moves the context's data home while the address space lives, then
 * removes the notifier.
 */
void amdx_hmm_file_release(struct amdx_file *file)
{
	struct amdx_hmm_ctx *ctx = file->hmm;
	struct amdx_range *r;
	LIST_HEAD(spans);

	if (!ctx)
		return;
	mutex_lock(&ctx->adev->hmm.lock);
	list_del(&ctx->dev_node);
	mutex_unlock(&ctx->adev->hmm.lock);

	/* Like an ioctl: the provider must stay while pages move. */
	down_read(&ctx->adev->lock);
	if (!ctx->adev->dead && mmget_not_zero(ctx->mm)) {
		u64 start = 0, end = 0;

		for (;;) {
			struct amdx_hmm_result res = {};

			spin_lock(&ctx->lock);
			r = NULL;
			list_for_each_entry(r, &ctx->ranges.ranges, node)
				if (r->start >= end)
					break;
			if (list_entry_is_head(r, &ctx->ranges.ranges, node))
				r = NULL;
			if (r) {
				start = r->start;
				end = r->end;
			}
			spin_unlock(&ctx->lock);
			if (!r)
				break;
			amdx_hmm_migrate_range(ctx, start, end,
					       AMDX_HMM_LOC_SYSTEM, &res);
		}
		mmput(ctx->mm);
	}
	up_read(&ctx->adev->lock);
	mmu_interval_notifier_remove(&ctx->notifier);
	file->hmm = NULL;
	amdx_hmm_ctx_put(ctx);
}

static int amdx_hmm_ctx_check(struct amdx_file *file)
{
	if (!file->hmm)
		return -EOPNOTSUPP;
	if (current->mm != file->hmm->mm)
		return -EBADF;
	return 0;
}

static int amdx_hmm_num_partitions(struct amdx_device *adev, u32 *n)
{
	struct amdx_device_state st = {};
	int ret;

	ret = adev->ops->get_state(adev, &st);
	*n = st.num_mem_partitions;
	return ret;
}

static int amdx_hmm_span_check(u64 start, u64 size)
{
	u64 end;

	if (!size || !PAGE_ALIGNED(start) || !PAGE_ALIGNED(size))
		return -EINVAL;
	if (check_add_overflow(start, size, &end) || end > TASK_SIZE)
		return -EINVAL;
	return 0;
}

/* Every byte mapped, private, accessible, migratable. */
static int amdx_hmm_vmas_check(struct mm_struct *mm, u64 start, u64 end)
{
	u64 addr = start;

	while (addr < end) {
		struct vm_area_struct *vma = vma_lookup(mm, addr);

		if (!vma)
			return -EFAULT;
		if (!(vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC)))
			return -EACCES;
		if (vma->vm_flags & (VM_SHARED | VM_IO | VM_PFNMAP |
				     VM_MIXEDMAP | VM_HUGETLB))
			return -EINVAL;
		addr = vma->vm_end;
	}
	return 0;
}

/**
 * amdx_ioctl_hmm_set_attr() - %AMDX_IOC_HMM_SET_ATTR
 * @file: a device fd.
 * @data: &struct amdx_hmm_attr.
 *
 * Return: 0; -EINVAL for bad alignment, size, overflow, unknown bits,
 * reserved fields, granularity, partition, access bits naming no device or
 * shared/special mappings; -EFAULT for unmapped memory; -EACCES for
 * PROT_NONE; -EDQUOT when pinning would exceed 3/4 of the device's VRAM;
 * -EOPNOTSUPP without HMM; -EBADF from another address space; -ENOMEM.
 */
int amdx_ioctl_hmm_set_attr(struct amdx_file *file, void *data)
{
	struct amdx_hmm_attr *args = data;
	struct amdx_hmm_ctx *ctx = file->hmm;
	struct amdx_device *adev = file->adev;
	struct amdx_range_attr attr = {};
	u64 pinned = 0;
	u32 nparts;
	bool pin;
	int ret;

	ret = amdx_hmm_ctx_check(file);
	if (ret)
		return ret;
	if (args->reserved[0] || args->reserved[1] ||
	    (args->valid & ~AMDX_HMM_ATTR_ALL) || !args->valid)
		return -EINVAL;
	ret = amdx_hmm_span_check(args->start, args->size);
	if (ret)
		return ret;
	if ((args->valid & AMDX_HMM_ATTR_FLAGS) &&
	    (args->flags & ~AMDX_HMM_F_PIN))
		return -EINVAL;
	if ((args->valid & AMDX_HMM_ATTR_GRANULARITY) &&
	    args->granularity > AMDX_HMM_GRANULARITY_MAX)
		return -EINVAL;
	ret = amdx_hmm_num_partitions(adev, &nparts);
	if (ret)
		return ret;
	if ((args->valid & AMDX_HMM_ATTR_PREFERRED_LOC) &&
	    args->preferred_loc != AMDX_HMM_LOC_SYSTEM &&
	    args->preferred_loc >= nparts)
		return -EINVAL;
	attr.preferred_loc = args->preferred_loc;
	attr.granularity = args->granularity;
	attr.flags = args->flags;
	attr.access = args->access;

	mmap_read_lock(ctx->mm);
	ret = amdx_hmm_vmas_check(ctx->mm, args->start,
				  args->start + args->size);
	if (ret)
		goto out_unlock_mm;
	pin = (args->valid & AMDX_HMM_ATTR_FLAGS) &&
	      (args->flags & AMDX_HMM_F_PIN);
	mutex_lock(&adev->hmm.lock);
	/* Under hmm.lock: see "access" in the DOC block above. */
	if (args->valid & AMDX_HMM_ATTR_ACCESS) {
		u64 unknown = args->access & ~amdx_device_id_mask();

		if (unknown) {
			pr_debug("amdx%u: hmm set_attr: access bit %lu names no device\n",
				 adev->id, __ffs64(unknown));
			ret = -EINVAL;
			goto out_unlock_hmm;
		}
	}
	if (pin) {
		struct amdx_hmm_ctx *c;

		/* Other fds' pins; the list is stable under hmm.lock. */
		list_for_each_entry(c, &adev->hmm.ctxs, dev_node) {
			if (c == ctx)
				continue;
			spin_lock(&c->lock);
			pinned += amdx_range_pinned_bytes(&c->ranges);
			spin_unlock(&c->lock);
		}
	}
	spin_lock(&ctx->lock);
	if (pin) {
		/* Bytes of the span pinned already are not pinned twice. */
		pinned += amdx_range_pinned_bytes(&ctx->ranges) + args->size -
			  amdx_range_pinned_overlap(&ctx->ranges, args->start,
						    args->start + args->size);
		if (pinned > adev->desc.vram_size / 4 * 3) {
			ret = -EDQUOT;
			goto out_unlock;
		}
	}
	if (!amdx_range_covered(&ctx->ranges, args->start,
				args->start + args->size) &&
	    !(args->valid & AMDX_HMM_ATTR_ACCESS)) {
		/* New ranges: this device may access unless told otherwise. */
		attr.access = BIT_ULL(adev->id);
		ret = amdx_range_set_attr(&ctx->ranges, args->start,
					  args->start + args->size, &attr,
					  args->valid | AMDX_HMM_ATTR_ACCESS,
					  GFP_ATOMIC);
	} else {
		ret = amdx_range_set_attr(&ctx->ranges, args->start,
					  args->start + args->size, &attr,
					  args->valid, GFP_ATOMIC);
	}
out_unlock:
	spin_unlock(&ctx->lock);
out_unlock_hmm:
	mutex_unlock(&adev->hmm.lock);
out_unlock_mm:
	mmap_read_unlock(ctx->mm);
	return ret;
}

struct amdx_hmm_span {
	u64 start;
	u64 end;
	u32 dest;
};

/**
 * amdx_ioctl_hmm_migrate() - %AMDX_IOC_HMM_MIGRATE
 * @file: a device fd.
 * @data: &struct amdx_hmm_migrate.
 *
 * Return: 0 with the counts filled; -EINVAL for bad alignment, flags,
 * reserved fields or destination; -ENOENT when part of the span has no
 * range; -EIO towards VRAM of a device flagged for RMA whose policy
 * refuses use; -ENODEV on a VF's fd once its VF is disabled, -EBUSY while
 * that VF is quarantined (both only towards VRAM); -EOPNOTSUPP, -EBADF,
 * -EINTR, -ENOMEM.
 */
int amdx_ioctl_hmm_migrate(struct amdx_file *file, void *data)
{
	struct amdx_hmm_migrate *args = data;
	struct amdx_hmm_ctx *ctx = file->hmm;
	struct amdx_device *adev = file->adev;
	struct amdx_hmm_span *spans = NULL;
	struct amdx_range *r;
	u32 nparts, n = 0, i;
	u64 end, to_vram = 0, home = 0;
	int ret;

	ret = amdx_hmm_ctx_check(file);
	if (ret)
		return ret;
	if (args->flags || args->pad || args->reserved[0] ||
	    args->reserved[1] || args->moved || args->already ||
	    args->skipped || args->skip_reasons)
		return -EINVAL;
	ret = amdx_hmm_span_check(args->start, args->size);
	if (ret)
		return ret;
	end = args->start + args->size;

	/*
	 * RAS: a device flagged for RMA may refuse new VRAM allocations.
	 * Asked before the VRAM gate: a partition commit holds the gate while
	 * RAS containment waits for the partition lock under the RAS lock.
	 */
	if (args->dest != AMDX_HMM_LOC_SYSTEM && amdx_ras_vram_refused(adev))
		return -EIO;

	/* No partition switch, no VF disable while pages move. */
	ret = amdx_partition_vram_begin(adev);
	if (ret)
		return ret;
	if (file->owner != AMDX_OWNER_PF && args->dest != AMDX_HMM_LOC_SYSTEM) {
		bool evict = false;

		ret = amdx_partition_vf_check(adev, file->vf, file->vf_epoch,
					      &evict);
		if (ret)
			goto out_gate;
		WRITE_ONCE(ctx->vf_evict, evict);
	}

	/* The device fd's ioctl path holds the device lock for read. */
	ret = amdx_hmm_num_partitions(adev, &nparts);
	if (ret)
		goto out_gate;
	if (args->dest != AMDX_HMM_LOC_SYSTEM &&
	    args->dest != AMDX_HMM_LOC_PREFERRED && args->dest >= nparts) {
		ret = -EINVAL;
		goto out_gate;
	}

	spin_lock(&ctx->lock);
	if (!amdx_range_covered(&ctx->ranges, args->start, end)) {
		spin_unlock(&ctx->lock);
		ret = -ENOENT;
		goto out_gate;
	}
	spans = kcalloc(ctx->ranges.count, sizeof(*spans), GFP_ATOMIC);
	if (!spans) {
		spin_unlock(&ctx->lock);
		ret = -ENOMEM;
		goto out_gate;
	}
	list_for_each_entry(r, &ctx->ranges.ranges, node) {
		if (r->end <= args->start || r->start >= end)
			continue;
		spans[n].start = max(r->start, args->start);
		spans[n].end = min(r->end, end);
		spans[n].dest = args->dest == AMDX_HMM_LOC_PREFERRED ?
				r->attr.preferred_loc : args->dest;
		if (spans[n].dest != AMDX_HMM_LOC_SYSTEM &&
		    spans[n].dest >= nparts)
			spans[n].dest = AMDX_HMM_LOC_SYSTEM;
		n++;
	}
	spin_unlock(&ctx->lock);

	for (i = 0; i < n && !ret; i++) {
		struct amdx_hmm_result res = {};

		ret = amdx_hmm_migrate_range(ctx, spans[i].start, spans[i].end,
					     spans[i].dest, &res);
		amdx_hmm_account(ctx, spans[i].start, spans[i].end,
				 spans[i].dest, &res, false, false);
		if (spans[i].dest == AMDX_HMM_LOC_SYSTEM)
			home += res.moved;
		else
			to_vram += res.moved;
		args->moved += res.moved;
		args->already += res.already;
		args->skipped += res.skipped;
		args->skip_reasons |= res.reasons;
	}
	kfree(spans);
	amdx_hmm_event_migrate(adev, ctx->tgid, false, to_vram);
	amdx_hmm_event_migrate(adev, ctx->tgid, true, home);
out_gate:
	amdx_partition_vram_end(adev);
	return ret;
}

/* Bounce pages for ACCESS, allocated per call. */
static void amdx_free_bounce(struct page **bounce, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (bounce[i])
			__free_page(bounce[i]);
	kvfree(bounce);
}

static u8 amdx_snap_byte(struct amdx_device *adev, unsigned long hpfn,
			 u64 *vram_index)
{
	struct page *page;
	u8 b;

	*vram_index = ~0ULL;
	if (hpfn & HMM_PFN_ERROR)
		return AMDX_HMM_SNAP_ERROR;
	if (!(hpfn & HMM_PFN_VALID))
		return AMDX_HMM_SNAP_NONE;
	b = AMDX_HMM_SNAP_READ;
	if (hpfn & HMM_PFN_WRITE)
		b |= AMDX_HMM_SNAP_WRITE;
	page = hmm_pfn_to_page(hpfn);
	if (is_device_private_page(page)) {
		if (page->pgmap->owner == adev->desc.pgmap_owner) {
			b |= AMDX_HMM_SNAP_DEV_LOCAL;
			*vram_index = adev->ops->vram_page_index(adev, page);
		} else {
			b |= AMDX_HMM_SNAP_DEV_REMOTE;
		}
	}
	return b;
}

/*
 * hmm_range_fault() reports another device's private pages as absent when
 * it need not fault them; look at the PTEs (mmap lock held) to tell.
 */
static void amdx_hmm_snap_remote(struct amdx_hmm_ctx *ctx, u64 addr,
				 unsigned long npages,
				 const unsigned long *hpfns, u8 *snap)
{
	unsigned long i;

	for (i = 0; i < npages; i++) {
		struct page *page;
		bool writable;

		snap[i] = 0;
		if (hpfns[i] & (HMM_PFN_VALID | HMM_PFN_ERROR))
			continue;
		page = amdx_hmm_pte_device_page(ctx->mm,
						addr + (i << PAGE_SHIFT),
						&writable);
		if (page && page->pgmap->owner != ctx->adev->desc.pgmap_owner)
			snap[i] = AMDX_HMM_SNAP_DEV_REMOTE | AMDX_HMM_SNAP_READ |
				  (writable ? AMDX_HMM_SNAP_WRITE : 0);
	}
}

static bool amdx_hmm_readonly_device_page(const unsigned long *hpfns,
					  unsigned long npages)
{
	unsigned long i;

	for (i = 0; i < npages; i++)
		if ((hpfns[i] & HMM_PFN_VALID) && !(hpfns[i] & HMM_PFN_WRITE) &&
		    is_device_private_page(hmm_pfn_to_page(hpfns[i])))
			return true;
	return false;
}

/* One chunk of ACCESS: fault, then copy under the mirror lock. */
static int amdx_hmm_access_chunk(struct amdx_hmm_ctx *ctx,
				 struct amdx_hmm_access *args, u64 addr,
				 unsigned long npages, unsigned long *hpfns,
				 struct page **bounce, u8 *snap, u64 *vidx)
{
	struct amdx_device *adev = ctx->adev;
	struct hmm_range range = {
		.notifier = &ctx->notifier,
		.start = addr,
		.end = addr + (npages << PAGE_SHIFT),
		.hmm_pfns = hpfns,
		.dev_private_owner = adev->desc.pgmap_owner,
	};
	unsigned long i, timeout;
	int ret;

	if (args->op == AMDX_HMM_ACCESS_READ)
		range.default_flags = HMM_PFN_REQ_FAULT;
	else if (args->op == AMDX_HMM_ACCESS_WRITE)
		range.default_flags = HMM_PFN_REQ_FAULT | HMM_PFN_REQ_WRITE;

	/* Count what the device must fault in: a look without faulting. */
	if (args->op != AMDX_HMM_ACCESS_SNAPSHOT) {
		struct hmm_range peek = range;

		peek.default_flags = 0;
		peek.notifier_seq = mmu_interval_read_begin(&ctx->notifier);
		mmap_read_lock(ctx->mm);
		if (!hmm_range_fault(&peek))
			for (i = 0; i < npages; i++)
				if (!(hpfns[i] & HMM_PFN_VALID) ||
				    (args->op == AMDX_HMM_ACCESS_WRITE &&
				     !(hpfns[i] & HMM_PFN_WRITE)))
					args->faults++;
		mmap_read_unlock(ctx->mm);
	}

	timeout = jiffies + msecs_to_jiffies(HMM_RANGE_DEFAULT_TIMEOUT);
	for (;;) {
		if (time_after(jiffies, timeout))
			return -EBUSY;
		range.notifier_seq = mmu_interval_read_begin(&ctx->notifier);
		mmap_read_lock(ctx->mm);
		ret = hmm_range_fault(&range);
		if (!ret && args->op == AMDX_HMM_ACCESS_SNAPSHOT)
			amdx_hmm_snap_remote(ctx, addr, npages, hpfns, snap);
		mmap_read_unlock(ctx->mm);
		if (ret == -EBUSY)
			continue;
		if (ret)
			return ret;
		/*
		 * hmm_range_fault() reports our device pages as they are, even
		 * read-only ones (COW-shared after fork) under a write request.
		 * Writing those in place would reach the other sharers: ask
		 * again as a stranger, which faults them home and breaks COW.
		 */
		if (args->op == AMDX_HMM_ACCESS_WRITE &&
		    range.dev_private_owner &&
		    amdx_hmm_readonly_device_page(hpfns, npages)) {
			range.dev_private_owner = NULL;
			continue;
		}
		mutex_lock(&ctx->mirror_lock);
		if (mmu_interval_read_retry(&ctx->notifier,
					    range.notifier_seq)) {
			mutex_unlock(&ctx->mirror_lock);
			continue;
		}
		break;
	}

	/* ctx->mirror_lock held: the pages stay the process's. */
	for (i = 0; i < npages; i++) {
		struct page *page;

		if (args->op == AMDX_HMM_ACCESS_SNAPSHOT) {
			vidx[i] = ~0ULL;
			if (!snap[i])
				snap[i] = amdx_snap_byte(adev, hpfns[i],
							 &vidx[i]);
			continue;
		}
		page = hmm_pfn_to_page(hpfns[i]);
		if (is_device_private_page(page)) {
			u64 index = adev->ops->vram_page_index(adev, page);

			/* The device consumes poison: it fails, nobody dies. */
			if (amdx_ras_page_poisoned(adev, index)) {
				amdx_ras_poison_consumed(adev, index, ctx->tgid);
				ret = -EIO;
				break;
			}
		}
		if (args->op == AMDX_HMM_ACCESS_READ) {
			if (is_device_private_page(page))
				ret = adev->ops->vram_copy(adev, bounce[i], page);
			else
				copy_highpage(bounce[i], page);
		} else {
			if (is_device_private_page(page))
				ret = adev->ops->vram_copy(adev, page, bounce[i]);
			else
				copy_highpage(page, bounce[i]);
		}
		if (ret)
			break;
	}
	mutex_unlock(&ctx->mirror_lock);
	return ret;
}

/**
 * amdx_ioctl_hmm_access() - %AMDX_IOC_HMM_ACCESS
 * @file: a device fd.
 * @data: &struct amdx_hmm_access.
 *
 * Return: 0; -EINVAL for bad alignment, size (over 64 MiB), op, flags or
 * reserved fields; -EFAULT for unmapped or inaccessible memory or a bad
 * @buf; -EPERM for WRITE on read-only memory; -EBUSY when invalidations
 * kept racing; -EIO when a page is poisoned (RAS); -ENODEV when the device
 * was removed while @buf was being copied; -EOPNOTSUPP, -EBADF, -ENOMEM.
 */
int amdx_ioctl_hmm_access(struct amdx_file *file, void *data)
{
	struct amdx_hmm_access *args = data;
	struct amdx_hmm_ctx *ctx = file->hmm;
	unsigned long *hpfns = NULL;
	struct page **bounce = NULL;
	u8 *snap = NULL;
	u64 *vidx = NULL;
	u64 done;
	int ret;

	ret = amdx_hmm_ctx_check(file);
	if (ret)
		return ret;
	if (args->flags || args->reserved[0] || args->reserved[1] ||
	    args->op > AMDX_HMM_ACCESS_SNAPSHOT || args->faults ||
	    (args->vram_pfns && args->op != AMDX_HMM_ACCESS_SNAPSHOT))
		return -EINVAL;
	ret = amdx_hmm_span_check(args->addr, args->size);
	if (ret)
		return ret;
	if (args->size > AMDX_HMM_ACCESS_MAX)
		return -EINVAL;

	hpfns = kvcalloc(AMDX_HMM_ACCESS_CHUNK, sizeof(*hpfns), GFP_KERNEL);
	snap = kvzalloc(AMDX_HMM_ACCESS_CHUNK, GFP_KERNEL);
	vidx = kvcalloc(AMDX_HMM_ACCESS_CHUNK, sizeof(*vidx), GFP_KERNEL);
	bounce = kvcalloc(AMDX_HMM_ACCESS_CHUNK, sizeof(*bounce), GFP_KERNEL);
	if (!hpfns || !snap || !vidx || !bounce) {
		ret = -ENOMEM;
		goto out;
	}

	for (done = 0; done < args->size && !ret;) {
		unsigned long n = min_t(u64, AMDX_HMM_ACCESS_CHUNK,
					(args->size - done) >> PAGE_SHIFT);
		void __user *ubuf = u64_to_user_ptr(args->buf + done);
		unsigned long i;

		if (args->op != AMDX_HMM_ACCESS_SNAPSHOT) {
			for (i = 0; i < n; i++) {
				if (!bounce[i])
					bounce[i] = alloc_page(GFP_HIGHUSER);
				if (!bounce[i]) {
					ret = -ENOMEM;
					goto out;
				}
			}
		}
		if (args->op == AMDX_HMM_ACCESS_WRITE) {
			for (i = 0; i < n && !ret; i++) {
				void *p = kmap_local_page(bounce[i]);

				ret = amdx_device_copy_from_user(file->adev, p,
								 ubuf + (i << PAGE_SHIFT),
								 PAGE_SIZE);
				kunmap_local(p);
			}
			if (ret)
				break;
		}
		ret = amdx_hmm_access_chunk(ctx, args, args->addr + done, n,
					    hpfns, bounce, snap, vidx);
		if (ret)
			break;
		if (args->op == AMDX_HMM_ACCESS_READ) {
			for (i = 0; i < n && !ret; i++) {
				void *p = kmap_local_page(bounce[i]);

				ret = amdx_device_copy_to_user(file->adev,
							       ubuf + (i << PAGE_SHIFT),
							       p, PAGE_SIZE);
				kunmap_local(p);
			}
		} else if (args->op == AMDX_HMM_ACCESS_SNAPSHOT) {
			u64 off = done >> PAGE_SHIFT;

			ret = amdx_device_copy_to_user(file->adev,
						       u64_to_user_ptr(args->buf +
								       off),
						       snap, n);
			if (!ret && args->vram_pfns)
				ret = amdx_device_copy_to_user(file->adev,
							       u64_to_user_ptr(args->vram_pfns +
									       off * sizeof(u64)),
							       vidx, n * sizeof(u64));
		}
		done += (u64)n << PAGE_SHIFT;
	}
out:
	kvfree(hpfns);
	kvfree(snap);
	kvfree(vidx);
	if (bounce)
		amdx_free_bounce(bounce, AMDX_HMM_ACCESS_CHUNK);
	return ret;
}

/**
 * amdx_hmm_query_ranges() - %AMDX_QUERY_HMM_RANGES on a device fd
 * @file: a device fd.
 * @q: the query.
 *
 * Return: 0, -ENOSPC with the needed size, -EOPNOTSUPP, -EFAULT, -ENOMEM.
 */
int amdx_hmm_query_ranges(struct amdx_file *file, struct amdx_query *q)
{
	struct amdx_hmm_ctx *ctx = file->hmm;
	struct amdx_query_hmm_ranges *res = NULL;
	struct amdx_range *r;
	bool have_mm;
	size_t len;
	u32 n, cap;
	int ret = 0;

	if (!ctx)
		return -EOPNOTSUPP;
	spin_lock(&ctx->lock);
	cap = ctx->ranges.count;
	spin_unlock(&ctx->lock);
	len = struct_size(res, ranges, cap);
	if (!q->size || q->size < len) {
		ret = q->size ? -ENOSPC : 0;
		q->size = len;
		return ret;
	}
	/* Room for what fits the caller's buffer; the list may grow. */
	cap = (q->size - sizeof(*res)) / sizeof(res->ranges[0]);
	res = kvzalloc(struct_size(res, ranges, cap), GFP_KERNEL);
	if (!res)
		return -ENOMEM;

	have_mm = mmget_not_zero(ctx->mm);
	if (have_mm)
		mmap_read_lock(ctx->mm);
	spin_lock(&ctx->lock);
	n = ctx->ranges.count;
	len = struct_size(res, ranges, n);
	if (n > cap) {
		ret = -ENOSPC;
		goto out_unlock;
	}
	res->num_ranges = n;
	res->entry_size = sizeof(res->ranges[0]);
	res->pid = ctx->tgid;
	res->total = ctx->total;
	n = 0;
	list_for_each_entry(r, &ctx->ranges.ranges, node) {
		struct amdx_hmm_range_info *ri = &res->ranges[n++];
		u64 a;

		ri->start = r->start;
		ri->size = r->end - r->start;
		ri->preferred_loc = r->attr.preferred_loc;
		ri->granularity = r->attr.granularity;
		ri->flags = r->attr.flags;
		ri->access = r->attr.access;
		ri->stats = r->stats;
		if (have_mm)
			for (a = r->start; a < r->end; a += PAGE_SIZE)
				ri->resident_pages +=
					amdx_hmm_is_local(ctx->adev, ctx->mm, a);
	}
out_unlock:
	spin_unlock(&ctx->lock);
	if (have_mm) {
		mmap_read_unlock(ctx->mm);
		mmput(ctx->mm);
	}
	if (!ret && copy_to_user(u64_to_user_ptr(q->data), res, len))
		ret = -EFAULT;
	q->size = len;
	kvfree(res);
	return ret;
}

/* Count @ctx's device pages per memory partition into @pages. */
static void amdx_hmm_ctx_resident(struct amdx_hmm_ctx *ctx,
				  const struct amdx_device_state *st,
				  u64 *pages)
{
	struct amdx_device *adev = ctx->adev;
	struct amdx_range *r;
	u64 a, pos;
	u32 m;

	mmap_read_lock(ctx->mm);
	spin_lock(&ctx->lock);
	list_for_each_entry(r, &ctx->ranges.ranges, node) {
		for (a = r->start; a < r->end; a += PAGE_SIZE) {
			struct page *page = amdx_hmm_pte_device_page(ctx->mm, a,
								     NULL);

			if (!page || page->pgmap->owner != adev->desc.pgmap_owner)
				continue;
			pos = adev->ops->vram_page_index(adev, page) << PAGE_SHIFT;
			for (m = 0; m < st->num_mem_partitions; m++)
				if (pos >= st->mem[m].base &&
				    pos - st->mem[m].base < st->mem[m].size)
					pages[m]++;
		}
	}
	spin_unlock(&ctx->lock);
	mmap_read_unlock(ctx->mm);
}

/* Add @pages of (@pid, @part) to @out, merging with an entry there. */
static void amdx_hmm_holder_add(struct amdx_partition_holder *out, u32 max,
				u32 *n, const struct amdx_hmm_ctx *ctx,
				u32 part, u64 pages)
{
	u32 i;

	for (i = 0; i < *n && i < max; i++) {
		if (out[i].pid == ctx->tgid && out[i].mem_partition == part) {
			out[i].pages += pages;
			return;
		}
	}
	if (*n < max) {
		memset(&out[*n], 0, sizeof(out[*n]));
		out[*n].pid = ctx->tgid;
		out[*n].mem_partition = part;
		out[*n].pages = pages;
		strscpy(out[*n].comm, ctx->comm, sizeof(out[*n].comm));
	}
	(*n)++;
}

/**
 * amdx_hmm_holders() - processes with data in some memory partitions
 * @adev: the device.
 * @part_mask: bit N: memory partition N is of interest.
 * @out: up to @max entries, one per process and partition; may be NULL
 *	when @max is 0.
 * @max: capacity of @out.
 * @count: out: entries found; beyond @max they are only counted (and
 *	may then count a process twice).
 *
 * Walks the page tables of every context's ranges, so it costs time
 * proportional to their size.  Takes each context's mmap lock: the caller
 * holds none.
 *
 * Return: 0, -ENOMEM or the provider's get_state() error.
 */
int amdx_hmm_holders(struct amdx_device *adev, u32 part_mask,
		     struct amdx_partition_holder *out, u32 max, u32 *count)
{
	struct amdx_hmm_ctx *ctx, **ctxs;
	struct amdx_device_state *st;
	u32 n = 0, i, m, nctx = 0;
	u64 pages[AMDX_MAX_MEM_PARTITIONS];
	int ret;

	*count = 0;
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	ret = adev->ops->get_state(adev, st);
	if (ret)
		goto out_free_st;

	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node)
		nctx++;
	ctxs = kcalloc(nctx, sizeof(*ctxs), GFP_KERNEL);
	if (!ctxs) {
		mutex_unlock(&adev->hmm.lock);
		ret = -ENOMEM;
		goto out_free_st;
	}
	i = 0;
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		kref_get(&ctx->ref);
		ctxs[i++] = ctx;
	}
	mutex_unlock(&adev->hmm.lock);

	for (i = 0; i < nctx; i++) {
		ctx = ctxs[i];
		if (mmget_not_zero(ctx->mm)) {
			memset(pages, 0, sizeof(pages));
			amdx_hmm_ctx_resident(ctx, st, pages);
			mmput(ctx->mm);
			for (m = 0; m < st->num_mem_partitions; m++)
				if (pages[m] && (part_mask & BIT(m)))
					amdx_hmm_holder_add(out, max, &n, ctx,
							    m, pages[m]);
		}
		amdx_hmm_ctx_put(ctx);
	}
	kfree(ctxs);
	*count = n;
out_free_st:
	kfree(st);
	return ret;
}

/**
 * amdx_hmm_forget_devices() - clear devices from every range's access
 * @adev: the device whose contexts' ranges to update.
 * @mask: bit N: forget device N.
 *
 * Called by amdx_device_unregister(), before the id of the device going
 * away can be given to a new device: for every registered device with
 * that device's bit, and for the device itself with every bit.
 *
 * Context: takes @adev's hmm.lock and each context's lock; the caller
 * holds no mmap lock and no HMM lock.
 */
void amdx_hmm_forget_devices(struct amdx_device *adev, u64 mask)
{
	struct amdx_hmm_ctx *ctx;

	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM))
		return;
	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		spin_lock(&ctx->lock);
		amdx_range_clear_access(&ctx->ranges, mask);
		spin_unlock(&ctx->lock);
	}
	mutex_unlock(&adev->hmm.lock);
}

/**
 * amdx_hmm_device_drain() - move every page of a removed device home
 * @adev: the device, already dead for new ioctls.
 *
 * Called by amdx_device_unregister() so that the provider can free its
 * device-private memory afterwards (memunmap_pages() waits for every
 * device page).  No new VRAM page can be allocated any more, and every
 * page still allocated can be moved: poisoned ones go home as hwpoison
 * entries, busy ones (an in-flight CPU fault, a concurrent drain) are
 * retried until their holder lets go.  There is no timeout: returning
 * with a page allocated would let the provider free what a process can
 * still reach.
 *
 * Context: process context; may wait for as long as a page stays busy.
 */
void amdx_hmm_device_drain(struct amdx_device *adev)
{
	u64 npages = adev->desc.vram_size >> PAGE_SHIFT, moved = 0, busy;
	unsigned long next_log = jiffies + 10 * HZ;

	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM))
		return;
	for (;;) {
		amdx_hmm_drain_vram(adev, 0, npages, &moved);
		busy = adev->ops->vram_used_pages(adev);
		if (!busy)
			return;
		if (time_after(jiffies, next_log)) {
			pr_warn("amdx: %s: removal waits for %llu busy VRAM pages\n",
				adev->bdf, busy);
			next_log = jiffies + 10 * HZ;
		}
		/* Holders are faults and copies in flight: let them run. */
		msleep(20);
	}
}
