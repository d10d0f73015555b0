// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM ACCESS
 *
 * %AMDX_IOC_HMM_ACCESS emulates the device reading, writing or looking at
 * process memory through its mirror (the technique of lib/test_hmm.c):
 * hmm_range_fault() under the context's notifier sequence, then the copy
 * under mirror_lock, which the notifier takes before it bumps the
 * sequence, so no page is copied after an invalidation took it away::
 *
 *   process          device fd (ctx)              kernel mm
 *     | ACCESS    --> access attribute of every fd on this mm
 *     |               hmm_range_fault() under the notifier sequence,
 *     |               copy under mirror_lock <-- invalidate() bumps seq
 *
 * A span goes in chunks of %AMDX_HMM_ACCESS_CHUNK pages through bounce
 * pages, copied from and to the caller's buffer without any lock held.
 */
#include <linux/highmem.h>
#include <linux/hmm.h>
#include <linux/jiffies.h>
#include <linux/memremap.h>
#include <linux/mm.h>
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

/*
 * Count in @args->faults what READ or WRITE makes the device fault in:
 * the pages of @range a look without faulting finds absent (or, for
 * WRITE, read-only).
 */
static void amdx_hmm_access_count_faults(struct amdx_hmm_ctx *ctx,
					 struct amdx_hmm_access *args,
					 const struct hmm_range *range)
{
	unsigned long i, npages = (range->end - range->start) >> PAGE_SHIFT;
	struct hmm_range peek = *range;

	peek.default_flags = 0;
	peek.notifier_seq = mmu_interval_read_begin(&ctx->notifier);
	mmap_read_lock(ctx->mm);
	if (!hmm_range_fault(&peek))
		for (i = 0; i < npages; i++)
			if (!(range->hmm_pfns[i] & HMM_PFN_VALID) ||
			    (args->op == AMDX_HMM_ACCESS_WRITE &&
			     !(range->hmm_pfns[i] & HMM_PFN_WRITE)))
				args->faults++;
	mmap_read_unlock(ctx->mm);
}

/*
 * Fault @range in for @op and return 0 with ctx->mirror_lock held and the
 * result still valid (no invalidation since); -EBUSY when invalidations
 * kept racing for %HMM_RANGE_DEFAULT_TIMEOUT ms, or hmm_range_fault()'s
 * error.
 */
static int amdx_hmm_access_fault(struct amdx_hmm_ctx *ctx, u32 op,
				 struct hmm_range *range, u8 *snap)
{
	unsigned long npages = (range->end - range->start) >> PAGE_SHIFT;
	unsigned long timeout;
	int ret;

	timeout = jiffies + msecs_to_jiffies(HMM_RANGE_DEFAULT_TIMEOUT);
	for (;;) {
		if (time_after(jiffies, timeout))
			return -EBUSY;
		range->notifier_seq = mmu_interval_read_begin(&ctx->notifier);
		mmap_read_lock(ctx->mm);
		ret = hmm_range_fault(range);
		if (!ret && op == AMDX_HMM_ACCESS_SNAPSHOT)
			amdx_hmm_snap_remote(ctx, range->start, npages,
					     range->hmm_pfns, snap);
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
		if (op == AMDX_HMM_ACCESS_WRITE && range->dev_private_owner &&
		    amdx_hmm_readonly_device_page(range->hmm_pfns, npages)) {
			range->dev_private_owner = NULL;
			continue;
		}
		mutex_lock(&ctx->mirror_lock);
		if (mmu_interval_read_retry(&ctx->notifier,
					    range->notifier_seq)) {
			mutex_unlock(&ctx->mirror_lock);
			continue;
		}
		return 0;
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

/* One chunk of ACCESS at @addr: fault, then copy under the mirror lock. */
static int amdx_hmm_access_chunk(struct amdx_hmm_ctx *ctx,
				 struct amdx_hmm_access *args, u64 addr,
				 unsigned long npages,
				 struct amdx_hmm_access_bufs *b)
{
	struct hmm_range range = {
		.notifier = &ctx->notifier,
		.start = addr,
		.end = addr + (npages << PAGE_SHIFT),
		.hmm_pfns = b->hpfns,
		.dev_private_owner = ctx->adev->desc.pgmap_owner,
	};
	int ret;

	if (args->op == AMDX_HMM_ACCESS_READ)
		range.default_flags = HMM_PFN_REQ_FAULT;
	else if (args->op == AMDX_HMM_ACCESS_WRITE)
		range.default_flags = HMM_PFN_REQ_FAULT | HMM_PFN_REQ_WRITE;

	if (args->op != AMDX_HMM_ACCESS_SNAPSHOT)
		amdx_hmm_access_count_faults(ctx, args, &range);
	ret = amdx_hmm_access_fault(ctx, args->op, &range, b->snap);
	if (ret)
		return ret;
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
				pr_debug("amdx%u: hmm access: a range of device %u's fd at %#llx+%#llx does not grant device %u access\n",
					 me, id, start, end - start, me);
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
					    &b);
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
