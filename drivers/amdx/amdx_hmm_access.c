// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM ACCESS
 *
 * %AMDX_IOC_HMM_ACCESS emulates the device reading, writing or looking at
 * process memory through its mirror (the technique of lib/test_hmm.c):
 * a look with hmm_range_fault() under the context's notifier sequence,
 * then the copy under mirror_lock, which the notifier takes before it
 * bumps the sequence, so no page is copied after an invalidation took it
 * away::
 *
 *   process          device fd (ctx)              kernel mm
 *     | ACCESS    --> access attribute of every fd on this mm
 *     |               device lock dropped
 *     |               look (hmm_range_fault(), no fault requested);
 *     |               fault what is missing (fixup_user_fault(),
 *     |               ALLOW_RETRY | KILLABLE), look again
 *     |               device lock retaken, -ENODEV if removed
 *     |               copy under mirror_lock <-- invalidate() bumps seq
 *
 * Neither the look nor the faults hold the device lock: a fault may wait
 * for as long as a userfaultfd or a FUSE daemon holds a page back, and
 * removal, which takes the lock for write, must not wait for that.  The
 * faults go through fixup_user_fault() rather than hmm_range_fault()'s
 * own, which lacks FAULT_FLAG_ALLOW_RETRY: with it the mmap lock is
 * dropped while such a page is awaited, and a fatal signal ends the wait.
 *
 * A span goes in chunks of %AMDX_HMM_ACCESS_CHUNK pages through bounce
 * pages, copied from and to the caller's buffer without any lock held.
 */
#include <linux/highmem.h>
#include <linux/hmm.h>
#include <linux/jiffies.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "amdx_core.h"
#include "amdx_hmm_access.h"
#include "amdx_hmm_ctx.h"
#include "amdx_hmm_walk.h"
#include "amdx_ras_poison.h"

/* Largest span one ACCESS call handles. */
#define AMDX_HMM_ACCESS_MAX	(64ULL << 20)
/* Pages per hmm_range_fault() call of ACCESS. */
#define AMDX_HMM_ACCESS_CHUNK	512

/*
 * Per-call buffers of ACCESS, %AMDX_HMM_ACCESS_CHUNK entries each: the
 * hmm_range_fault() result (@hpfns), the bounce pages the data goes
 * through (@bounce, allocated on first use), and for SNAPSHOT the bytes
 * and VRAM page indices reported (@snap, @vidx).
 */
struct amdx_hmm_access_bufs {
	unsigned long *hpfns;
	struct page **bounce;
	u8 *snap;
	u64 *vidx;
};

static void amdx_hmm_access_bufs_free(struct amdx_hmm_access_bufs *b)
{
	unsigned long i;

	kvfree(b->hpfns);
	kvfree(b->snap);
	kvfree(b->vidx);
	if (!b->bounce)
		return;
	for (i = 0; i < AMDX_HMM_ACCESS_CHUNK; i++)
		if (b->bounce[i])
			__free_page(b->bounce[i]);
	kvfree(b->bounce);
}

static int amdx_hmm_access_bufs_alloc(struct amdx_hmm_access_bufs *b)
{
	b->hpfns = kvcalloc(AMDX_HMM_ACCESS_CHUNK, sizeof(*b->hpfns),
			    GFP_KERNEL_ACCOUNT);
	b->snap = kvzalloc(AMDX_HMM_ACCESS_CHUNK, GFP_KERNEL_ACCOUNT);
	b->vidx = kvcalloc(AMDX_HMM_ACCESS_CHUNK, sizeof(*b->vidx),
			   GFP_KERNEL_ACCOUNT);
	b->bounce = kvcalloc(AMDX_HMM_ACCESS_CHUNK, sizeof(*b->bounce),
			     GFP_KERNEL_ACCOUNT);
	if (!b->hpfns || !b->snap || !b->vidx || !b->bounce)
		return -ENOMEM;
	return 0;
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
		const void *owner;
		bool writable;

		snap[i] = 0;
		if (hpfns[i] & (HMM_PFN_VALID | HMM_PFN_ERROR))
			continue;
		owner = amdx_hmm_pte_device_owner(ctx->mm,
						  addr + (i << PAGE_SHIFT),
						  &writable);
		if (owner && owner != ctx->adev->desc.pgmap_owner)
			snap[i] = AMDX_HMM_SNAP_DEV_REMOTE | AMDX_HMM_SNAP_READ |
				  (writable ? AMDX_HMM_SNAP_WRITE : 0);
	}
}

/*
 * Whether the device must fault a page in for @op before it touches it:
 * absent (another device's pages look absent too), or read-only under
 * WRITE.  A read-only page of this device (COW-shared after fork) counts:
 * the write fault brings it home and breaks COW, so a child's write never
 * reaches its parent.
 */
static bool amdx_hmm_access_needs_fault(unsigned long hpfn, u32 op)
{
	if (!(hpfn & HMM_PFN_VALID))
		return true;
	return op == AMDX_HMM_ACCESS_WRITE && !(hpfn & HMM_PFN_WRITE);
}

/*
 * Fault the page at @addr in as the CPU would, mmap lock held for read,
 * with FAULT_FLAG_ALLOW_RETRY and FAULT_FLAG_KILLABLE (fixup_user_fault()):
 * a page a userfaultfd or a FUSE daemon holds back drops the mmap lock
 * while it waits, and a fatal signal ends the wait.  hmm_range_fault()
 * faults without ALLOW_RETRY: a userfaultfd page then fails at once
 * (SIGBUS inside the kernel), a FUSE page waits with the mmap lock held.
 * The VMA checks give hmm_range_fault()'s errnos.  The mmap lock is held
 * again on return.
 */
static int amdx_hmm_access_fault_page(struct mm_struct *mm, u64 addr,
				      bool write)
{
	struct vm_area_struct *vma = vma_lookup(mm, addr);
	bool unlocked = false;

	if (!vma || !(vma->vm_flags & VM_READ) ||
	    (vma->vm_flags & (VM_IO | VM_PFNMAP)))
		return -EFAULT;
	if (write && !(vma->vm_flags & VM_WRITE))
		return -EPERM;
	return fixup_user_fault(mm, addr, write ? FAULT_FLAG_WRITE : 0,
				&unlocked);
}

/*
 * One look at @range without faulting (hmm_range_fault() asked for
 * nothing), mmap lock held; then the faults @op needs, page by page in
 * address order.  Returns 1 when it faulted something (look again), 0
 * when the look found everything in place, or -errno.  @faults, when not
 * NULL, counts what the look finds to fault.
 */
static int amdx_hmm_access_look(struct amdx_hmm_ctx *ctx, u32 op,
				struct hmm_range *range, u8 *snap, u64 *faults)
{
	unsigned long npages = (range->end - range->start) >> PAGE_SHIFT;
	unsigned long i;
	int ret, faulted = 0;

	ret = hmm_range_fault(range);
	if (ret)
		return ret;
	if (op == AMDX_HMM_ACCESS_SNAPSHOT) {
		amdx_hmm_snap_remote(ctx, range->start, npages,
				     range->hmm_pfns, snap);
		return 0;
	}
	for (i = 0; faults && i < npages; i++)
		if (amdx_hmm_access_needs_fault(range->hmm_pfns[i], op))
			(*faults)++;
	for (i = 0; i < npages; i++) {
		if (range->hmm_pfns[i] & HMM_PFN_ERROR)
			return -EFAULT;
		if (!amdx_hmm_access_needs_fault(range->hmm_pfns[i], op))
			continue;
		ret = amdx_hmm_access_fault_page(ctx->mm,
						 range->start + (i << PAGE_SHIFT),
						 op == AMDX_HMM_ACCESS_WRITE);
		if (ret)
			return ret;
		faulted = 1;
	}
	return faulted;
}

/*
 * Bring @range in for @op, without the device lock: look and fault until
 * a look finds everything in place.  Returns 0 with the look's result in
 * @range (its notifier sequence to check under mirror_lock), -EBUSY when
 * invalidations kept racing until *@timeout with no fault in between
 * (each fault that made progress moves it on), -EINTR on a fatal signal,
 * or a fault's error.
 */
static int amdx_hmm_access_fault(struct amdx_hmm_ctx *ctx, u32 op,
				 struct hmm_range *range, u8 *snap,
				 u64 *faults, unsigned long *timeout)
{
	int ret;

	for (;;) {
		if (fatal_signal_pending(current))
			return -EINTR;
		if (time_after(jiffies, *timeout))
			return -EBUSY;
		range->notifier_seq = mmu_interval_read_begin(&ctx->notifier);
		if (mmap_read_lock_killable(ctx->mm))
			return -EINTR;
		ret = amdx_hmm_access_look(ctx, op, range, snap, faults);
		mmap_read_unlock(ctx->mm);
		if (ret <= 0 && ret != -EBUSY)
			return ret;
		if (ret > 0) {
			/* Counted at the first look only. */
			faults = NULL;
			*timeout = jiffies +
				   msecs_to_jiffies(HMM_RANGE_DEFAULT_TIMEOUT);
		}
		cond_resched();
	}
}

/*
 * The device's side of one chunk of @npages, ctx->mirror_lock held (the
 * pages stay the process's): copy between the pages and the bounce pages,
 * or for SNAPSHOT describe them.  -EIO when the device meets poison.
 */
static int amdx_hmm_access_copy(struct amdx_hmm_ctx *ctx, u32 op,
				unsigned long npages,
				struct amdx_hmm_access_bufs *b)
{
	struct amdx_device *adev = ctx->adev;
	unsigned long i;
	int ret = 0;

	for (i = 0; i < npages; i++) {
		struct page *page;

		if (op == AMDX_HMM_ACCESS_SNAPSHOT) {
			b->vidx[i] = ~0ULL;
			if (!b->snap[i])
				b->snap[i] = amdx_snap_byte(adev, b->hpfns[i],
							    &b->vidx[i]);
			continue;
		}
		page = hmm_pfn_to_page(b->hpfns[i]);
		if (is_device_private_page(page)) {
			u64 index = adev->ops->vram_page_index(adev, page);

			/* The device consumes poison: it fails, nobody dies. */
			if (amdx_ras_page_poisoned(adev, index)) {
				amdx_ras_poison_consumed(adev, index, &ctx->who);
				return -EIO;
			}
		}
		if (op == AMDX_HMM_ACCESS_READ) {
			if (is_device_private_page(page))
				ret = adev->ops->vram_copy(adev, b->bounce[i],
							   page);
			else
				copy_highpage(b->bounce[i], page);
		} else {
			if (is_device_private_page(page))
				ret = adev->ops->vram_copy(adev, page,
							   b->bounce[i]);
			else
				copy_highpage(page, b->bounce[i]);
		}
		if (ret)
			break;
	}
	return ret;
}

static int amdx_hmm_access_check(struct amdx_hmm_ctx *self, u64 start,
				 u64 end);

/*
 * One chunk of ACCESS at @addr.  The caller holds the device lock for
 * read; it is dropped while the pages are looked at and faulted in (that
 * takes the mmap lock and may wait for as long as a userfaultfd or FUSE
 * page is held back: removal must not wait for it) and taken again for
 * the copy, which happens under mirror_lock only if no invalidation came
 * since the look, and only if no access set stopped naming the device
 * since *@revoked was read (a fabric link's containment revoked it):
 * then the access sets are checked again.  -ENODEV when the device went
 * away meanwhile, -EACCES when its access was revoked; the lock is held
 * again on return either way.
 */
static int amdx_hmm_access_chunk(struct amdx_hmm_ctx *ctx,
				 struct amdx_hmm_access *args, u64 addr,
				 unsigned long npages,
				 struct amdx_hmm_access_bufs *b, u64 *revoked)
{
	struct amdx_device *adev = ctx->adev;
	struct hmm_range range = {
		.notifier = &ctx->notifier,
		.start = addr,
		.end = addr + (npages << PAGE_SHIFT),
		.hmm_pfns = b->hpfns,
		.dev_private_owner = adev->desc.pgmap_owner,
	};
	unsigned long timeout;
	u64 *faults = &args->faults;
	int ret;

	lockdep_assert_held_read(&adev->lock);
	timeout = jiffies + msecs_to_jiffies(HMM_RANGE_DEFAULT_TIMEOUT);
	for (;;) {
		up_read(&adev->lock);
		ret = amdx_hmm_access_fault(ctx, args->op, &range, b->snap,
					    faults, &timeout);
		faults = NULL;
		down_read(&adev->lock);
		if (adev->dead)
			return -ENODEV;
		if (ret)
			return ret;
		mutex_lock(&ctx->mirror_lock);
		if (mmu_interval_read_retry(&ctx->notifier,
					    range.notifier_seq)) {
			mutex_unlock(&ctx->mirror_lock);
			continue;
		}
		if (ctx->revoked == *revoked)
			break;
		*revoked = ctx->revoked;
		mutex_unlock(&ctx->mirror_lock);
		ret = amdx_hmm_access_check(ctx, range.start, range.end);
		if (ret)
			return ret;
	}
	ret = amdx_hmm_access_copy(ctx, args->op, npages, b);
	mutex_unlock(&ctx->mirror_lock);
	return ret;
}

/* Whether a range of @ctx in [@start, @end) denies device @id. */
static bool amdx_hmm_ctx_denies(struct amdx_hmm_ctx *ctx, u64 start, u64 end,
				u32 id)
{
	struct amdx_range *r;
	bool denied = false;

	spin_lock(&ctx->lock);
	list_for_each_entry(r, &ctx->ranges.ranges, node) {
		if (r->start >= end)
			break;
		if (r->end > start && !(r->attr.access & BIT_ULL(id))) {
			denied = true;
			break;
		}
	}
	spin_unlock(&ctx->lock);
	return denied;
}

/*
 * The access attribute: device @self->adev may touch [@start, @end) only
 * if every range the process set there, through the fd of any device,
 * names it.  Looks at every registered device's contexts of this address
 * space; takes each device's hmm.lock in turn (never two), under the
 * caller's device lock and no mmap lock.
 */
static int amdx_hmm_access_check(struct amdx_hmm_ctx *self, u64 start,
				 u64 end)
{
	u64 ids = amdx_device_id_mask() | BIT_ULL(self->adev->id);
	u32 me = self->adev->id;
	int ret = 0;

	while (ids && !ret) {
		u32 id = __ffs64(ids);
		struct amdx_device *d = id == me ? self->adev :
					amdx_device_get(id);
		struct amdx_hmm_ctx *c;

		ids &= ids - 1;
		if (!d || !(d->desc.flags & AMDX_DEVICE_F_HMM))
			goto next;
		mutex_lock(&d->hmm.lock);
		list_for_each_entry(c, &d->hmm.ctxs, dev_node) {
			if (c->mm == self->mm &&
			    amdx_hmm_ctx_denies(c, start, end, me)) {
				amdx_dbg(self->adev,
					 "hmm access: a range of device %u's fd at %#llx+%#llx does not grant device %u access\n",
					 id, start, end - start, me);
				ret = -EACCES;
				break;
			}
		}
		mutex_unlock(&d->hmm.lock);
next:
		if (d != self->adev)
			amdx_device_put(d);
	}
	return ret;
}

/**
 * amdx_ioctl_hmm_access() - %AMDX_IOC_HMM_ACCESS
 * @file: a device fd.
 * @data: &struct amdx_hmm_access.
 *
 * Return: 0; -EINVAL for bad alignment, size (over 64 MiB), op, flags or
 * reserved fields; -EACCES when a range of the process in the span does
 * not grant this device access (&amdx_hmm_attr.access); -EFAULT for
 * unmapped or inaccessible memory or a bad @buf; -EPERM for WRITE on
 * read-only memory; -EBUSY when invalidations kept racing; -EIO when a
 * page is poisoned (RAS); -ENODEV when the device was removed while @buf
 * was being copied; -EOPNOTSUPP, -EBADF, -ENOMEM.
 */
int amdx_ioctl_hmm_access(struct amdx_file *file, void *data)
{
	struct amdx_hmm_access *args = data;
	struct amdx_hmm_ctx *ctx = file->hmm;
	struct amdx_hmm_access_bufs b = {};
	u64 done, revoked;
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
	/* Read before the check: a revoke after it is seen by the copy. */
	mutex_lock(&ctx->mirror_lock);
	revoked = ctx->revoked;
	mutex_unlock(&ctx->mirror_lock);
	ret = amdx_hmm_access_check(ctx, args->addr, args->addr + args->size);
	if (ret)
		return ret;

	ret = amdx_hmm_access_bufs_alloc(&b);
	if (ret)
		goto out;

	for (done = 0; done < args->size && !ret;) {
		unsigned long n = min_t(u64, AMDX_HMM_ACCESS_CHUNK,
					(args->size - done) >> PAGE_SHIFT);
		void __user *ubuf = u64_to_user_ptr(args->buf + done);
		unsigned long i;

		if (args->op != AMDX_HMM_ACCESS_SNAPSHOT) {
			for (i = 0; i < n; i++) {
				if (!b.bounce[i])
					b.bounce[i] = alloc_page(GFP_HIGHUSER |
								 __GFP_ACCOUNT);
				if (!b.bounce[i]) {
					ret = -ENOMEM;
					goto out;
				}
			}
		}
		if (args->op == AMDX_HMM_ACCESS_WRITE) {
			for (i = 0; i < n && !ret; i++) {
				void *p = kmap_local_page(b.bounce[i]);

				ret = amdx_device_copy_from_user(file->adev, p,
								 ubuf + (i << PAGE_SHIFT),
								 PAGE_SIZE);
				kunmap_local(p);
			}
			if (ret)
				break;
		}
		ret = amdx_hmm_access_chunk(ctx, args, args->addr + done, n,
					    &b, &revoked);
		if (ret)
			break;
		if (args->op == AMDX_HMM_ACCESS_READ) {
			for (i = 0; i < n && !ret; i++) {
				void *p = kmap_local_page(b.bounce[i]);

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
						       b.snap, n);
			if (!ret && args->vram_pfns)
				ret = amdx_device_copy_to_user(file->adev,
							       u64_to_user_ptr(args->vram_pfns +
									       off * sizeof(u64)),
							       b.vidx, n * sizeof(u64));
		}
		done += (u64)n << PAGE_SHIFT;
	}
out:
	amdx_hmm_access_bufs_free(&b);
	return ret;
}
