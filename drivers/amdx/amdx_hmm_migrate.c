// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM migration engine
 *
 * Process memory moves between system memory and a device's VRAM with the
 * kernel's migrate_vma machinery; the provider supplies device-private
 * pages (&amdx_provider_ops.vram_alloc_pages, one allocator round trip
 * per batch, lowest free VRAM first; else vram_alloc_page per page) and
 * copies (&amdx_provider_ops.vram_copy_pages, else vram_copy).
 *
 * ::
 *
 *   ioctl MIGRATE            migrate_vma_setup()   provider
 *     | per VMA, batches of     | collect + unmap     |
 *     | %AMDX_HMM_BATCH pages   |                     |
 *     |------------------------>|                     |
 *     |  the MIGRATE srcs:   vram_alloc_pages(part) ->| device pages
 *     |                      vram_copy_pages(d, s) -->| copies
 *     | migrate_vma_pages(), migrate_vma_finalize()    |
 *     | partition full: -ENOSPC and where it stopped; the caller makes
 *     | room (amdx_hmm_evict.c) and asks again from there
 *
 * Batches are large (%AMDX_HMM_BATCH pages, not test_hmm's 64) so the
 * unmap, TLB flush and page-table walks amortise.  CPU faults on device
 * pages come back through the pagemap's migrate_to_ram(), whose ops the
 * core owns (amdx_pagemap_ops(); the provider plugs them into its
 * &struct amdx_pagemap), to amdx_hmm_migrate_to_ram(), which moves the
 * whole granule (the range's granularity, at most 2 MiB) around the fault
 * home.
 *
 * Device-page moves without a process (RAS retirement of one VRAM page,
 * emptying a memory partition, removing a device) are amdx_hmm_devmove.c's;
 * they share this file's buffers (amdx_bufs_alloc()) and holder
 * bookkeeping (amdx_hold_pages()).
 *
 * Poisoned VRAM pages (RAS: a UE or deferred error, amdx_ras.c) never
 * move with a granule: their data is bad.  A CPU fault on one fails with
 * VM_FAULT_HWPOISON, which the fault handler turns into SIGBUS
 * (BUS_MCEERR_AR) for the faulting process only.  A page poisoned while
 * its copy is in flight is checked again after the copy and stays, so the
 * data never comes home silently clean.  When a device page must go
 * anyway (emptying a partition, device removal), amdx_hmm_devmove.c
 * replaces a poisoned one by a stand-in that faults the same way
 * (amdx_hmm_standin.c).
 *
 * Locking: callers hold the mmap lock of the mm they migrate (read); the
 * context lock is never held across migrate_vma calls because the
 * invalidations they trigger run the context's notifier.
 */
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/migrate.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <amdx/amdx_compat.h>
#include <amdx/amdx_vram.h>

#include "amdx_core.h"
#include "amdx_hmm_ctx.h"
#include "amdx_hmm_migrate.h"
#include "amdx_hmm_walk.h"
#include "amdx_ras_poison.h"
#include "amdx_trace.h"
/* At most this many pages move back on one CPU fault: 2 MiB. */
#define AMDX_HMM_FAULT_MAX	512

/**
 * amdx_bufs_alloc() - allocate the buffers of a migration
 * @b: the buffers.
 * @n: entries: pages of the largest pass.
 *
 * Return: 0 or -ENOMEM.
 */
int amdx_bufs_alloc(struct amdx_migrate_bufs *b, unsigned long n)
{
	size_t zeroed = (2 * n + BITS_TO_LONGS(n)) * sizeof(unsigned long);
	void *p;

	p = kvmalloc(zeroed + 2 * n * sizeof(struct page *) + n * sizeof(u32),
		     GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	memset(p, 0, zeroed);
	b->src = p;
	b->dst = b->src + n;
	b->sel = b->dst + n;
	b->dpages = (struct page **)(b->sel + BITS_TO_LONGS(n));
	b->spages = b->dpages + n;
	b->idx = (u32 *)(b->spages + n);
	return 0;
}

/**
 * amdx_bufs_free() - free what amdx_bufs_alloc() allocated
 * @b: the buffers.
 */
void amdx_bufs_free(struct amdx_migrate_bufs *b)
{
	kvfree(b->src);
}

/*
 * @n VRAM pages of partition @part for @owner into @pages, through the
 * provider's batch op where it has one: one allocator round trip per
 * batch instead of one per page.  A page that could not be had for
 * another reason than a full partition or quota is a NULL entry (the
 * next may still come, as with one call per page).  Returns 0 with
 * *@filled = @n, or -ENOSPC / -EDQUOT with the entries from *@filled on
 * unset.
 */
static int amdx_alloc_vram_pages(struct amdx_device *adev, u32 part,
				 u32 owner, u32 n, struct page **pages,
				 u32 *filled)
{
	struct page *page;
	u32 k = 0, got;
	int ret = 0;

	while (k < n) {
		if (adev->ops->vram_alloc_pages) {
			ret = adev->ops->vram_alloc_pages(adev, part, owner,
							  n - k, pages + k,
							  &got);
			k += got;
		} else {
			page = adev->ops->vram_alloc_page(adev, part, owner);
			ret = PTR_ERR_OR_ZERO(page);
			if (!ret)
				pages[k++] = page;
		}
		if (!ret)
			continue;
		if (ret == -ENOSPC || ret == -EDQUOT)
			break;
		pages[k++] = NULL;
		ret = 0;
	}
	*filled = k;
	return ret;
}

/**
 * amdx_hold_pages() - record the holder of new VRAM pages
 * @adev: the device.
 * @pages: the device pages; NULL entries are skipped.
 * @n: entries of @pages.
 * @holder: the fd whose data they take (&amdx_hmm_ctx.holder).
 *
 * A lock round trip per 32 pages.  Called before migrate_vma_pages() (or
 * migrate_device_pages()): the pages are ours until then, so none can
 * have been freed and given to someone else; one that does not move is
 * freed, and its holder with it.
 */
void amdx_hold_pages(struct amdx_device *adev, struct page **pages, u32 n,
		     u32 holder)
{
	u64 idx[32];
	u32 i, k = 0;

	for (i = 0; i < n; i++) {
		if (!pages[i])
			continue;
		idx[k++] = adev->ops->vram_page_index(adev, pages[i]);
		if (k == ARRAY_SIZE(idx)) {
			amdx_vram_hold_pages(adev->desc.vram, idx, k, holder);
			k = 0;
		}
	}
	if (k)
		amdx_vram_hold_pages(adev->desc.vram, idx, k, holder);
}

/*
 * Copy @b->spages[m] to @b->dpages[m] for m < @n, through the provider's
 * batch op where it has one.  A destination whose copy failed is
 * unlocked, put and set to NULL.  Returns whether any copy failed.
 */
static bool amdx_copy_pages(struct amdx_device *adev,
			    struct amdx_migrate_bufs *b, u32 n)
{
	bool failed = false;
	u32 m = 0;

	while (m < n) {
		if (adev->ops->vram_copy_pages)
			m += adev->ops->vram_copy_pages(adev, b->dpages + m,
							b->spages + m, n - m);
		else if (!adev->ops->vram_copy(adev, b->dpages[m],
					       b->spages[m]))
			m++;
		if (m == n)
			break;
		unlock_page(b->dpages[m]);
		put_page(b->dpages[m]);
		b->dpages[m++] = NULL;
		failed = true;
	}
	return failed;
}

/*
 * Remember which entries migrate_vma_setup() selected and classify the
 * others in [0, n): already at the destination, on another device, or
 * busy (collected but not isolated).
 */
static void amdx_classify(struct amdx_device *adev, struct migrate_vma *args,
			  struct amdx_migrate_bufs *b, bool to_vram,
			  struct amdx_hmm_result *res)
{
	unsigned long i;

	bitmap_zero(b->sel, args->npages);
	for (i = 0; i < args->npages; i++) {
		const void *owner;

		if (b->src[i] & MIGRATE_PFN_MIGRATE) {
			__set_bit(i, b->sel);
			continue;
		}
		if (b->src[i]) {
			res->skipped++;
			res->reasons |= AMDX_HMM_SKIP_BUSY;
			continue;
		}
		if (!to_vram) {
			/* Not ours: already in system memory (or elsewhere). */
			res->already++;
			continue;
		}
		owner = amdx_hmm_pte_device_owner(args->vma->vm_mm,
						  args->start +
						  (i << PAGE_SHIFT), NULL);
		if (owner == adev->desc.pgmap_owner) {
			res->already++;
		} else {
			res->skipped++;
			res->reasons |= owner ? AMDX_HMM_SKIP_OTHER_DEVICE :
						AMDX_HMM_SKIP_BUSY;
		}
	}
}

/* Count the selected entries in [0, n) after migrate_vma_pages(). */
static void amdx_count_moved(struct amdx_migrate_bufs *b, unsigned long n,
			     struct amdx_hmm_result *res)
{
	unsigned long i;

	for_each_set_bit(i, b->sel, n) {
		if ((b->src[i] & MIGRATE_PFN_MIGRATE) && b->dst[i]) {
			res->moved++;
		} else {
			res->skipped++;
			res->reasons |= b->dst[i] ? AMDX_HMM_SKIP_BUSY :
						    AMDX_HMM_SKIP_NO_MEMORY;
		}
	}
}

/*
 * One migrate_vma pass of @req over [start, end) inside @vma towards
 * partition @req->dest, charged to @req->owner.  When the partition fills
 * up (or the owner reaches its quota), returns -ENOSPC (-EDQUOT) with
 * @req->resume at the first page not placed; pages from there on are not
 * counted (the caller retries).
 */
static int amdx_migrate_batch_to_vram(struct amdx_migrate_req *req,
				      struct vm_area_struct *vma,
				      unsigned long start, unsigned long end,
				      struct amdx_migrate_bufs *b)
{
	struct amdx_device *adev = req->adev;
	struct amdx_hmm_result *res = req->res;
	struct migrate_vma args = {
		.vma = vma,
		.start = start,
		.end = end,
		.src = b->src,
		.dst = b->dst,
		.pgmap_owner = adev->desc.pgmap_owner,
		.flags = MIGRATE_VMA_SELECT_SYSTEM,
	};
	struct amdx_hmm_result tail = {};
	unsigned long i, limit;
	u32 k = 0, m = 0, nsel, filled;
	int ret, full;

	ret = migrate_vma_setup(&args);
	if (ret)
		return ret;
	limit = args.npages;

	amdx_classify(adev, &args, b, true, &tail);
	memset(b->dst, 0, args.npages * sizeof(*b->dst));
	nsel = bitmap_weight(b->sel, args.npages);
	full = amdx_alloc_vram_pages(adev, req->dest, req->owner, nsel,
				     b->dpages, &filled);
	for_each_set_bit(i, b->sel, args.npages) {
		struct page *dpage;

		/* Partition full (or quota) from here on. */
		if (k == filled) {
			limit = i;
			break;
		}
		dpage = b->dpages[k++];
		if (!dpage)
			continue;
		b->dpages[m] = dpage;
		/* Nothing mapped yet: the new page reads as zeroes. */
		b->spages[m] = migrate_pfn_to_page(b->src[i]) ?: ZERO_PAGE(0);
		b->idx[m++] = i;
	}
	amdx_copy_pages(adev, b, m);
	amdx_hold_pages(adev, b->dpages, m, req->holder);
	for (k = 0; k < m; k++)
		if (b->dpages[k])
			b->dst[b->idx[k]] =
				migrate_pfn(page_to_pfn(b->dpages[k]));

	migrate_vma_pages(&args);
	amdx_count_moved(b, limit, res);
	if (limit == args.npages) {
		res->already += tail.already;
		res->skipped += tail.skipped;
		res->reasons |= tail.reasons;
	} else {
		/* Recount the unselected entries before the limit only. */
		for (i = 0; i < limit; i++) {
			if (test_bit(i, b->sel))
				continue;
			if (amdx_hmm_is_local(adev->desc.pgmap_owner,
					      vma->vm_mm,
					      start + (i << PAGE_SHIFT))) {
				res->already++;
			} else {
				res->skipped++;
				res->reasons |= AMDX_HMM_SKIP_BUSY;
			}
		}
		req->resume = start + (limit << PAGE_SHIFT);
	}
	migrate_vma_finalize(&args);
	return limit == args.npages ? 0 : full;
}

/*
 * One migrate_vma pass of @req over [start, end) inside @vma home.  With
 * @req->fault_page, @req->fault_moved tells whether that page moved.
 */
static int amdx_migrate_batch_to_ram(struct amdx_migrate_req *req,
				     struct vm_area_struct *vma,
				     unsigned long start, unsigned long end,
				     struct amdx_migrate_bufs *b)
{
	struct amdx_device *adev = req->adev;
	struct amdx_hmm_result *res = req->res;
	struct migrate_vma args = {
		.vma = vma,
		.start = start,
		.end = end,
		.src = b->src,
		.dst = b->dst,
		.pgmap_owner = adev->desc.pgmap_owner,
		.flags = MIGRATE_VMA_SELECT_DEVICE_PRIVATE,
		.fault_page = req->fault_page,
	};
	unsigned long i;
	bool poison;
	int ret = 0;
	u32 m = 0, k;

	ret = migrate_vma_setup(&args);
	if (ret)
		return ret;

	amdx_classify(adev, &args, b, false, res);
	memset(b->dst, 0, args.npages * sizeof(*b->dst));
	/* Poison stays where it is; touching it is a SIGBUS. */
	poison = amdx_ras_any_poison(adev);
	for_each_set_bit(i, b->sel, args.npages) {
		struct page *spage, *dpage;

		spage = migrate_pfn_to_page(b->src[i]);
		if (!spage)
			continue;
		if (req->only_owner &&
		    amdx_vram_pfn_owner(adev->desc.vram,
					adev->ops->vram_page_index(adev,
								   spage)) !=
		    req->owner)
			continue;
		if (req->keep &&
		    req->keep(req->keep_arg,
			      adev->ops->vram_page_index(adev, spage)))
			continue;
		if (poison &&
		    amdx_ras_page_poisoned(adev,
					   adev->ops->vram_page_index(adev,
								      spage)))
			continue;
		dpage = alloc_page_vma(GFP_HIGHUSER_MOVABLE, vma,
				       start + (i << PAGE_SHIFT));
		if (!dpage) {
			ret = -ENOMEM;
			continue;
		}
		lock_page(dpage);
		b->dpages[m] = dpage;
		b->spages[m] = spage;
		b->idx[m++] = i;
	}
	if (amdx_copy_pages(adev, b, m))
		ret = -EIO;
	/*
	 * Poisoned while the copy ran: the copy may hold bad data.  The page
	 * stays, and a touch is SIGBUS.  RAS marks poison before anything
	 * else, so an error this misses came after the copy and stays with
	 * the VRAM page, not the data.
	 */
	poison = amdx_ras_any_poison(adev);
	for (k = 0; k < m; k++) {
		struct page *dpage = b->dpages[k];

		if (!dpage)
			continue;
		if (poison &&
		    amdx_ras_page_poisoned(adev,
					   adev->ops->vram_page_index(adev,
								      b->spages[k]))) {
			unlock_page(dpage);
			__free_page(dpage);
			continue;
		}
		b->dst[b->idx[k]] = migrate_pfn(page_to_pfn(dpage));
	}

	migrate_vma_pages(&args);
	amdx_count_moved(b, args.npages, res);
	if (req->fault_page) {
		i = (req->fault_addr - start) >> PAGE_SHIFT;
		req->fault_moved = i < args.npages &&
				   (b->src[i] & MIGRATE_PFN_MIGRATE) &&
				   b->dst[i];
	}
	migrate_vma_finalize(&args);
	return ret;
}

/**
 * amdx_migrate_mm() - migrate a span of an address space
 * @req: the request; the caller holds @req->mm's mmap lock for read.
 * @start: first byte, page aligned.
 * @end: one past the last byte, page aligned.
 *
 * VMA by VMA in passes of at most %AMDX_HMM_BATCH pages; what is not
 * mapped, refused or busy is counted as skipped in @req->res.
 *
 * Return: 0; -ENOSPC when VRAM ran out (-EDQUOT when the owner's quota
 * did), with @req->resume at the first address not placed (not counted
 * in @req->res); -ENOMEM; a migrate_vma_setup() error.
 */
int amdx_migrate_mm(struct amdx_migrate_req *req, unsigned long start,
		    unsigned long end)
{
	struct amdx_hmm_result *res = req->res;
	/* Buffers for no more than the span: small moves stay cheap. */
	unsigned long batch = clamp_t(unsigned long,
				      (end - start) >> PAGE_SHIFT, 1,
				      AMDX_HMM_BATCH);
	struct amdx_migrate_bufs b;
	unsigned long addr = start;
	int ret;

	ret = amdx_bufs_alloc(&b, batch);
	if (ret)
		return ret;

	while (addr < end) {
		struct vm_area_struct *vma = find_vma(req->mm, addr);
		unsigned long next;

		if (!vma || vma->vm_start >= end) {
			res->skipped += (end - addr) >> PAGE_SHIFT;
			res->reasons |= AMDX_HMM_SKIP_NOT_PRESENT;
			break;
		}
		if (vma->vm_start > addr) {
			res->skipped += (vma->vm_start - addr) >> PAGE_SHIFT;
			res->reasons |= AMDX_HMM_SKIP_NOT_PRESENT;
			addr = vma->vm_start;
		}
		next = min3(end, vma->vm_end, addr + (batch << PAGE_SHIFT));
		if (req->dest == AMDX_HMM_LOC_SYSTEM)
			ret = amdx_migrate_batch_to_ram(req, vma, addr, next,
							&b);
		else
			ret = amdx_migrate_batch_to_vram(req, vma, addr, next,
							 &b);
		if (ret == -ENOSPC || ret == -EDQUOT)
			break;
		if (ret == -EINVAL) {
			/* A VMA migrate_vma refuses (e.g. VM_SPECIAL). */
			res->skipped += (next - addr) >> PAGE_SHIFT;
			res->reasons |= AMDX_HMM_SKIP_BUSY;
		} else if (ret == -ENOMEM || ret == -EIO) {
			res->reasons |= AMDX_HMM_SKIP_NO_MEMORY;
		} else if (ret) {
			break;
		}
		ret = 0;
		addr = next;
		cond_resched();
	}
	amdx_bufs_free(&b);
	return ret;
}

/**
 * amdx_hmm_migrate_to_ram() - CPU fault on a device page
 * @adev: the device owning the page.
 * @vmf: the fault; vmf->page is the device page, referenced.
 *
 * For the pagemap's migrate_to_ram() (amdx_pagemap_ops()): moves the
 * granule around the fault (the range's granularity, at most 2 MiB,
 * within the VMA) home.
 * A poisoned page does not move: the fault fails with VM_FAULT_HWPOISON
 * (SIGBUS, BUS_MCEERR_AR) and a POISON_CONSUMED event names the process.
 * The fault succeeds once its own page moved, even when another page of
 * the granule could not (that one moves on its own fault).
 *
 * Return: 0, VM_FAULT_HWPOISON, or when the faulting page itself could not
 * move VM_FAULT_SIGBUS (copy failed) or VM_FAULT_OOM (no system page).
 */
static vm_fault_t amdx_hmm_migrate_to_ram(struct amdx_device *adev,
					  struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct amdx_hmm_result res = {};
	struct amdx_migrate_req req = {
		.adev = adev, .mm = vma->vm_mm, .dest = AMDX_HMM_LOC_SYSTEM,
		.res = &res,
	};
	unsigned long start, end, gran = PAGE_SIZE;
	struct amdx_migrate_bufs b;
	struct amdx_hmm_ctx *ctx;
	struct amdx_subject me;
	u64 t0 = ktime_get_ns(), index;
	bool moved = false;
	vm_fault_t vmret;
	int ret;

	amdx_subject_current(&me);
	/*
	 * The faulting page's reference (taken by do_swap_page()) holds off
	 * amdx_device_unregister(), which waits for every VRAM page: the
	 * registry's reference stands, so this one can be taken.
	 */
	kref_get(&adev->ref);
	index = adev->ops->vram_page_index(adev, vmf->page);
	if (amdx_ras_page_poisoned(adev, index)) {
		vmret = VM_FAULT_HWPOISON;
		goto out_poison;
	}

	ctx = amdx_hmm_ctx_of_mm(adev, vma->vm_mm, vmf->address);
	start = vmf->address & PAGE_MASK;
	end = start + PAGE_SIZE;
	if (ctx) {
		struct amdx_range *r;

		spin_lock(&ctx->lock);
		r = amdx_range_find(&ctx->ranges, vmf->address);
		if (r) {
			gran = min_t(unsigned long, AMDX_HMM_FAULT_MAX,
				     1UL << r->attr.granularity) << PAGE_SHIFT;
			start = max3(ALIGN_DOWN(vmf->address, gran),
				     vma->vm_start, (unsigned long)r->start);
			end = min3(ALIGN_DOWN(vmf->address, gran) + gran,
				   vma->vm_end, (unsigned long)r->end);
		}
		spin_unlock(&ctx->lock);
	}

	ret = amdx_bufs_alloc(&b, (end - start) >> PAGE_SHIFT);
	if (ret)
		goto out;
	req.fault_page = vmf->page;
	req.fault_addr = vmf->address & PAGE_MASK;
	ret = amdx_migrate_batch_to_ram(&req, vma, start, end, &b);
	moved = req.fault_moved;
	amdx_bufs_free(&b);
	res.ns = ktime_get_ns() - t0;
	trace_amdx_hmm_fault(amdx_device_id(adev), vmf->address,
			     (end - start) >> PAGE_SHIFT, res.moved);
out:
	if (ctx) {
		amdx_hmm_account(ctx, start, AMDX_HMM_LOC_SYSTEM, &res,
				 AMDX_MIG_FAULT);
		amdx_hmm_ctx_put(ctx);
	}
	amdx_hmm_event_migrate(adev, &me, true, res.moved);
	amdx_stats_migrated(adev, AMDX_MIG_FAULT, res.moved);
	/* Poisoned while its copy was in flight: the page stayed. */
	if (!moved && amdx_ras_page_poisoned(adev, index)) {
		vmret = VM_FAULT_HWPOISON;
		goto out_poison;
	}
	/*
	 * The fault is served once its own page moved, whatever became of
	 * the rest of the granule: a page that stayed (its copy failed, no
	 * memory for it) comes home on its own touch.
	 */
	if (moved || !ret)
		vmret = 0;
	else if (ret == -ENOMEM)
		vmret = VM_FAULT_OOM;
	else
		vmret = VM_FAULT_SIGBUS;
	amdx_device_put(adev);
	return vmret;

out_poison:
	amdx_ras_poison_consumed(adev, index, &me);
	amdx_device_put(adev);
	return vmret;
}

static vm_fault_t amdx_pagemap_migrate_to_ram(struct vm_fault *vmf)
{
	struct amdx_pagemap *apm = container_of(vmf->page->pgmap,
						struct amdx_pagemap, pgmap);
	struct amdx_device *adev = READ_ONCE(apm->adev);

	/*
	 * amdx_device_unregister() returns only once no page of the pagemap
	 * is allocated, and this fault holds one: the device cannot go
	 * before the fault is done.  NULL only in the instant between the
	 * core publishing a new device and the provider storing what
	 * amdx_device_register() returned: the access faults again.
	 */
	if (unlikely(!adev))
		return 0;
	return amdx_hmm_migrate_to_ram(adev, vmf);
}

static void amdx_pagemap_page_free(struct page *page)
{
	struct amdx_pagemap *apm = container_of(page->pgmap,
						struct amdx_pagemap, pgmap);

	apm->page_free(apm, page);
}

static const struct dev_pagemap_ops amdx_pagemap_dev_ops = {
	.page_free = amdx_pagemap_page_free,
	.migrate_to_ram = amdx_pagemap_migrate_to_ram,
};

/**
 * amdx_pagemap_ops() - the ops of a device's device-private pagemap
 *
 * For &amdx_pagemap.pgmap.ops: the pagemap must be embedded in a
 * &struct amdx_pagemap.  A CPU fault on a device page moves the data home
 * (the granule around it, amdx_hmm_migrate_to_ram()); a page whose last
 * reference went goes to &amdx_pagemap.page_free.  The ops live in this
 * module, which every provider of HMM devices depends on, so they outlive
 * every pagemap.
 *
 * Return: the ops.
 */
const struct dev_pagemap_ops *amdx_pagemap_ops(void)
{
	return &amdx_pagemap_dev_ops;
}
EXPORT_SYMBOL_GPL(amdx_pagemap_ops);
