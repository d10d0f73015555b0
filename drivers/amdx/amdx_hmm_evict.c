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
 *     | partition full: drop mmap lock, evict what is left to place plus
 *     | %AMDX_HMM_EVICT_SLACK pages of the least recently used unpinned
 *     | range of another fd (or this one), retry
 *
 * Batches are large (%AMDX_HMM_BATCH pages, not test_hmm's 64) so the
 * unmap, TLB flush and page-table walks amortise.  CPU faults on device
 * pages come back through the provider's migrate_to_ram() to
 * amdx_hmm_migrate_to_ram(), which moves the whole granule (the range's
 * granularity, at most 2 MiB) around the fault home.
 *
 * Device-page moves without a process (RAS retirement of one VRAM page,
 * draining a memory partition, removing a device) use
 * migrate_device_range(), which finds the mappings itself.
 *
 * Poisoned VRAM pages (RAS: a UE or deferred error, amdx_ras.c) never
 * move with a granule: their data is bad.  A CPU fault on one fails with
 * VM_FAULT_HWPOISON, which the fault handler turns into SIGBUS
 * (BUS_MCEERR_AR) for the faulting process only.  A page poisoned while
 * its copy is in flight is checked again after the copy and stays, so the
 * data never comes home silently clean.  When a device page must go
 * (draining, device removal) a poisoned one is replaced by hwpoison
 * entries in every PTE that mapped it (amdx_hmm_poison_ptes()): the
 * process still gets SIGBUS on touching it, after the device, amdx_sim
 * and amdx are gone, and no page of host RAM is taken out of service
 * (memory_failure() is never called; ``HardwareCorrupted`` stays 0).
 *
 * Locking: callers hold the mmap lock of the mm they migrate (read); the
 * context lock is never held across migrate_vma calls because the
 * invalidations they trigger run the context's notifier.
 */
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/migrate.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/swapops.h>
#include <amdx/amdx_compat.h>
#include <amdx/amdx_vram.h>

#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_hmm.h"
#include "amdx_ras_poison.h"
#include "amdx_trace.h"

/* Pages per migrate_vma call: 16 MiB. */
#define AMDX_HMM_BATCH		4096
/* At most this many pages move back on one CPU fault: 2 MiB. */
#define AMDX_HMM_FAULT_MAX	512
/* Evictions one migration may cause before it gives up. */
#define AMDX_HMM_MAX_EVICT	16
/*
 * Pages an eviction moves home beyond what the migration asking for room
 * needs: 2 MiB, one default granule, so that a migration that fills the
 * partition page by page does not evict once per page.
 */
#define AMDX_HMM_EVICT_SLACK	512

/*
 * Per-call buffers of n entries: migrate_vma's @src and @dst, the entries
 * setup selected (@sel), and for the pages being copied their destination
 * and source (@dpages, @spages) and migrate_vma index (@idx).  One
 * allocation (a CPU fault makes one per granule); @src, @dst and @sel
 * start zeroed.
 */
struct amdx_migrate_bufs {
	unsigned long *src;
	unsigned long *dst;
	unsigned long *sel;
	struct page **dpages;
	struct page **spages;
	u32 *idx;
};

/**
 * struct amdx_migrate_req - one request to the migration engine
 * @adev: the device whose VRAM pages move.
 * @mm: the address space; the caller holds its mmap lock for read.
 * @dest: a memory partition, or %AMDX_HMM_LOC_SYSTEM for home.
 * @owner: towards VRAM: whom the new VRAM pages are charged to.
 * @holder: towards VRAM: the fd the new VRAM pages hold data of
 *	(&amdx_hmm_ctx.holder).
 * @res: the outcome, added to by every pass of the request.
 * @resume: out, towards VRAM: when the partition (or @owner's quota) ran
 *	out, the first address not placed; pages from there on are not
 *	counted in @res.
 * @fault_page: home on a CPU fault: the faulting device page, else NULL.
 * @fault_addr: the page-aligned address @fault_page is mapped at.
 * @fault_moved: out, with @fault_page: whether that page moved.
 *
 * What amdx_migrate_mm() and its migrate_vma passes share; the span and
 * the VMA change from pass to pass and are their own arguments.
 */
struct amdx_migrate_req {
	struct amdx_device *adev;
	struct mm_struct *mm;
	u32 dest;
	u32 owner;
	u32 holder;
	struct amdx_hmm_result *res;
	unsigned long resume;
	struct page *fault_page;
	unsigned long fault_addr;
	bool fault_moved;
};

static int amdx_bufs_alloc(struct amdx_migrate_bufs *b, unsigned long n)
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

static void amdx_bufs_free(struct amdx_migrate_bufs *b)
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

/*
 * Record @holder on the VRAM pages of @pages[0 .. @n) (NULL entries
 * skipped), a lock round trip per 32 pages.  Before migrate_vma_pages():
 * the pages are ours until then, so none can have been freed and given
 * to someone else; one that does not move is freed, and its holder with
 * it.
 */
static void amdx_hold_pages(struct amdx_device *adev, struct page **pages,
			    u32 n, u32 holder)
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
			if (amdx_hmm_is_local(adev, vma->vm_mm,
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

/*
 * Migrate [start, end) of @req->mm, whose mmap lock the caller holds for
 * read.  Returns -ENOSPC when VRAM ran out (-EDQUOT when the owner's quota
 * did), with @req->resume at the first address not placed (not counted in
 * @req->res).
 */
static int amdx_migrate_mm(struct amdx_migrate_req *req, unsigned long start,
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
 * amdx_hmm_account() - add a migration's outcome to the counters
 * @ctx: the context.
 * @start: first byte migrated.
 * @end: one past the last byte.
 * @dest: where to (%AMDX_HMM_LOC_SYSTEM or a partition).
 * @res: the outcome.
 * @fault: a CPU fault caused it.
 * @eviction: an eviction caused it.
 *
 * Attributes the pages to the range holding @start.
 */
void amdx_hmm_account(struct amdx_hmm_ctx *ctx, u64 start, u64 end,
		      u32 dest, const struct amdx_hmm_result *res,
		      bool fault, bool eviction)
{
	struct amdx_hmm_stats *st[2] = { &ctx->total, NULL };
	struct amdx_range *r;
	int i;

	spin_lock(&ctx->lock);
	r = amdx_range_find(&ctx->ranges, start);
	if (r) {
		st[1] = &r->stats;
		if (dest == AMDX_HMM_LOC_SYSTEM) {
			amdx_range_account_out(r, res->moved);
		} else {
			amdx_range_account_in(r, dest, res->moved);
			r->last_used = ktime_get_ns();
		}
	}
	for (i = 0; i < 2 && st[i]; i++) {
		if (dest == AMDX_HMM_LOC_SYSTEM) {
			st[i]->pages_out += res->moved;
			st[i]->bytes_out += res->moved << PAGE_SHIFT;
			st[i]->ns_out += res->ns;
		} else {
			st[i]->pages_in += res->moved;
			st[i]->bytes_in += res->moved << PAGE_SHIFT;
			st[i]->ns_in += res->ns;
		}
		if (fault)
			st[i]->cpu_faults++;
		if (eviction)
			st[i]->evictions++;
	}
	spin_unlock(&ctx->lock);
}

/*
 * Whether [@s, @e) meets a range of @ctx that is pinned or counts pages in
 * VRAM (those are amdx_hmm_evict()'s own victims); ctx->lock held.  Costs
 * a tree look-up plus the ranges inside [@s, @e), not every range.
 */
static bool amdx_hmm_covered_in(struct amdx_hmm_ctx *ctx, u64 s, u64 e)
{
	struct amdx_range *r = amdx_range_next(&ctx->ranges, s);

	if (!r)
		return false;
	list_for_each_entry_from(r, &ctx->ranges.ranges, node) {
		if (r->start >= e)
			break;
		if ((r->attr.flags & AMDX_HMM_F_PIN) || r->resident)
			return true;
	}
	return false;
}

/*
 * Move up to @want of @adev's pages mapped anywhere in @ctx's address
 * space home, in steps of at most %AMDX_HMM_BATCH pages inside VMAs that
 * map some (counted at page-table cost, amdx_hmm_count_local()), skipping
 * steps that meet a pinned range, a range counting pages in VRAM or
 * [@ex_start, @ex_end).  The caller holds a reference on the mm and no
 * mmap lock.
 */
static void amdx_hmm_evict_mm(struct amdx_device *adev,
			      struct amdx_hmm_ctx *ctx, u64 ex_start,
			      u64 ex_end, u64 want,
			      struct amdx_hmm_result *res)
{
	struct amdx_migrate_req req = {
		.adev = adev, .mm = ctx->mm, .dest = AMDX_HMM_LOC_SYSTEM,
		.owner = ctx->owner, .res = res,
	};
	unsigned long addr = 0, next;
	struct vm_area_struct *vma;
	bool skip;

	mmap_read_lock(ctx->mm);
	while (res->moved < want && !fatal_signal_pending(current)) {
		vma = find_vma(ctx->mm, addr);
		if (!vma)
			break;
		addr = max(addr, vma->vm_start);
		/* Most VMAs hold none: skip them at page-table cost. */
		if (addr == vma->vm_start &&
		    !amdx_hmm_count_local(adev, ctx->mm, vma->vm_start,
					  vma->vm_end)) {
			addr = vma->vm_end;
			cond_resched();
			continue;
		}
		next = min_t(u64, vma->vm_end,
			     addr + (min_t(u64, want - res->moved,
					   AMDX_HMM_BATCH) << PAGE_SHIFT));
		spin_lock(&ctx->lock);
		skip = amdx_hmm_covered_in(ctx, addr, next);
		spin_unlock(&ctx->lock);
		if (!skip && (addr >= ex_end || next <= ex_start))
			amdx_migrate_mm(&req, addr, next);
		addr = next;
		cond_resched();
	}
	mmap_read_unlock(ctx->mm);
}

static int amdx_hmm_move_device_pages(struct amdx_device *adev, u64 index,
				      unsigned long n, u32 to_part,
				      u64 *moved);

/*
 * Whether the device page of VRAM page @index was last mapped at a
 * linear page index in [@lo, @hi): for an anonymous page its address
 * when it was placed, kept by mremap() and fork().  Read without a
 * reference: the device (and so its pagemap) lives while the caller
 * holds its lock, and a stale answer only keeps a page where it is.
 */
static bool amdx_hmm_page_in(struct amdx_device *adev, u64 index, u64 lo,
			     u64 hi)
{
	pgoff_t off;

	if (lo >= hi)
		return false;
	off = READ_ONCE(adev->ops->vram_index_page(adev, index)->index);
	return off >= lo && off < hi;
}

/*
 * Move up to @want - *@moved pages held by @holder in VRAM pages
 * [@first, @end) home, found by index (amdx_vram_holder_run()) and moved
 * wherever they are mapped (migrate_device_range()), at most
 * %AMDX_HMM_BATCH per step, but none whose linear page index is in
 * [@lo, @hi) (amdx_hmm_page_in()); stops on a fatal signal.  Busy pages
 * stay.
 */
static void amdx_hmm_move_held(struct amdx_device *adev, u32 holder,
			       u64 first, u64 end, u64 lo, u64 hi, u64 want,
			       u64 *moved)
{
	struct amdx_vram *v = adev->desc.vram;
	u64 pos = first, n, k, j;

	while (pos < end && *moved < want && !fatal_signal_pending(current)) {
		n = amdx_vram_holder_run(v, holder, &pos, end);
		n = min3(n, (u64)AMDX_HMM_BATCH, want - *moved);
		for (k = 0; k < n; k = j + 1) {
			for (j = k; j < n; j++)
				if (amdx_hmm_page_in(adev, pos + j, lo, hi))
					break;
			if (j > k)
				amdx_hmm_move_device_pages(adev, pos + k, j - k,
							   AMDX_HMM_LOC_SYSTEM,
							   moved);
		}
		pos += n;
		cond_resched();
	}
}

/**
 * amdx_hmm_home_holder() - move home every page one fd holds
 * @adev: the device, not dead (the caller holds its lock for read).
 * @holder: the fd's holder id (&amdx_hmm_ctx.holder).
 *
 * Finds the pages by VRAM index, wherever they are mapped: in the fd's
 * ranges, where ``mremap()`` moved them, in a ``fork()`` child only.
 * Costs nothing when the fd holds no page, else a look at one 16-bit
 * entry per page of VRAM in bounded steps (amdx_vram_holder_run()),
 * rescheduling between them; stops on a fatal signal.  Busy pages stay.
 */
void amdx_hmm_home_holder(struct amdx_device *adev, u32 holder)
{
	struct amdx_vram *v = adev->desc.vram;
	u64 moved = 0;

	if (amdx_vram_holder_used(v, holder, NULL))
		amdx_hmm_move_held(adev, holder, 0, amdx_vram_npages(v), 0, 0,
				   U64_MAX, &moved);
}

/* Whether @ctx pins a range (ctx->lock held). */
static bool amdx_hmm_ctx_pins(struct amdx_hmm_ctx *ctx)
{
	struct amdx_range *r;

	list_for_each_entry(r, &ctx->ranges.ranges, node)
		if (r->attr.flags & AMDX_HMM_F_PIN)
			return true;
	return false;
}

/*
 * Last resort of a full memory partition @part (%AMDX_HMM_LOC_SYSTEM:
 * any): pages found by holder, wherever they are mapped (a fork() child's
 * after its parent's copy-on-write, which no address space of a context
 * maps): of every other fd on @adev that pins nothing (with @same_owner
 * only those charging @self's owner), then of nobody (fds gone; not with
 * @same_owner), then of @self if it pins nothing, but never a page placed
 * at an address in [@ex_start, @ex_end), the span its migration is
 * moving in (amdx_hmm_page_in()).  Adds to *@moved, up to @want.
 */
static void amdx_hmm_evict_held(struct amdx_device *adev,
				struct amdx_hmm_ctx *self, u32 part,
				u64 ex_start, u64 ex_end, bool same_owner,
				u64 want, u64 *moved)
{
	struct amdx_vram *v = adev->desc.vram;
	u64 first = 0, end = amdx_vram_npages(v), before = *moved;
	struct amdx_hmm_ctx *ctx;
	u32 i, k, holder = 0;
	bool found, pins;

	if (part != AMDX_HMM_LOC_SYSTEM) {
		first = amdx_vram_part_base(v, part);
		end = first + amdx_vram_part_size(v, part);
	}
	for (i = 0; *moved < want && !fatal_signal_pending(current); i++) {
		found = false;
		k = 0;
		mutex_lock(&adev->hmm.lock);
		list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
			if (ctx == self ||
			    (same_owner && (!self || ctx->owner != self->owner)))
				continue;
			if (k++ < i)
				continue;
			spin_lock(&ctx->lock);
			found = !amdx_hmm_ctx_pins(ctx);
			spin_unlock(&ctx->lock);
			holder = ctx->holder;
			break;
		}
		mutex_unlock(&adev->hmm.lock);
		if (k <= i)
			break;
		if (found)
			amdx_hmm_move_held(adev, holder, first, end, 0, 0, want,
					   moved);
	}
	if (!same_owner)
		amdx_hmm_move_held(adev, AMDX_VRAM_NO_HOLDER, first, end, 0, 0,
				   want, moved);
	if (self) {
		spin_lock(&self->lock);
		pins = amdx_hmm_ctx_pins(self);
		spin_unlock(&self->lock);
		if (!pins)
			amdx_hmm_move_held(adev, self->holder, first, end,
					   ex_start >> PAGE_SHIFT,
					   DIV_ROUND_UP_ULL(ex_end, PAGE_SIZE),
					   want, moved);
	}
	if (*moved > before) {
		amdx_stats_migrated(adev, AMDX_MIG_EVICT, *moved - before);
		trace_amdx_hmm_evict(amdx_device_id(adev), 0, 0,
				     *moved - before);
	}
}

/*
 * The partition is full and no range counts pages in it, yet pages are
 * there: mapped where no range covers them (mremap() moved them and the
 * old range was clipped).  Look for them in the address space of every
 * context on @adev (with @same_owner only those charging @self's owner),
 * @self's own last and never its [@ex_start, @ex_end), and move up to
 * @want home; when that finds none, by holder (amdx_hmm_evict_held()).
 * Returns 0 when something moved, else -ENOSPC.
 */
static int amdx_hmm_evict_uncovered(struct amdx_device *adev,
				    struct amdx_hmm_ctx *self, u32 part,
				    u64 ex_start, u64 ex_end, bool same_owner,
				    u64 want)
{
	struct amdx_hmm_result res = {};
	struct amdx_hmm_ctx *ctx, *c;
	u32 pass, i, k;
	u64 before;
	bool mine;

	for (pass = 0; pass < 2 && res.moved < want; pass++) {
		for (i = 0; res.moved < want; i++) {
			c = NULL;
			k = 0;
			mutex_lock(&adev->hmm.lock);
			list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
				if (same_owner &&
				    (!self || ctx->owner != self->owner))
					continue;
				/* pass 0: the others; pass 1: @self */
				mine = ctx == self;
				if (mine != !!pass)
					continue;
				if (k++ < i)
					continue;
				if (mmget_not_zero(ctx->mm)) {
					kref_get(&ctx->ref);
					c = ctx;
				}
				break;
			}
			mutex_unlock(&adev->hmm.lock);
			if (k <= i)
				break;
			if (!c)
				continue;
			before = res.moved;
			amdx_hmm_evict_mm(adev, c, c == self ? ex_start : 0,
					  c == self ? ex_end : 0, want, &res);
			mmput(c->mm);
			spin_lock(&c->lock);
			c->total.pages_out += res.moved - before;
			c->total.bytes_out += (res.moved - before) << PAGE_SHIFT;
			c->total.evictions++;
			spin_unlock(&c->lock);
			trace_amdx_hmm_evict(amdx_device_id(adev), c->tgid, 0,
					     res.moved - before);
			amdx_stats_migrated(adev, AMDX_MIG_EVICT,
					    res.moved - before);
			amdx_hmm_ctx_put(c);
			if (fatal_signal_pending(current))
				return -EINTR;
		}
	}
	if (!res.moved)
		amdx_hmm_evict_held(adev, self, part, ex_start, ex_end,
				    same_owner, want, &res.moved);
	return res.moved ? 0 : -ENOSPC;
}

/*
 * Move @need pages plus %AMDX_HMM_EVICT_SLACK of the least recently used
 * unpinned range with pages in VRAM home (all of it when it holds fewer):
 * of any context on @adev, @self's own last; with @same_owner only of
 * contexts charging @self's owner (a VF at its quota); unless @part is
 * %AMDX_HMM_LOC_SYSTEM, only ranges with pages in memory partition @part
 * (evicting another partition's data makes no room in a full one).
 * Inside the range the walk goes up from its start, in steps no longer
 * than what is still to move, so it never moves more than asked however
 * large the range (adjacent ranges with equal attributes merge).  Never
 * the span [@ex_start, @ex_end) of @self.  The caller holds no mmap lock.
 * Returns 0 when something was evicted, -ENOSPC when nothing could be,
 * -EINTR on a fatal signal.
 */
static int amdx_hmm_evict(struct amdx_device *adev, struct amdx_hmm_ctx *self,
			  u32 part, u64 ex_start, u64 ex_end, bool same_owner,
			  u64 need)
{
	struct amdx_hmm_ctx *ctx, *victim = NULL;
	struct amdx_hmm_result res = {};
	struct amdx_migrate_req req = {
		.adev = adev, .dest = AMDX_HMM_LOC_SYSTEM, .res = &res,
	};
	u64 best = U64_MAX, start = 0, end = 0, t0, addr, next, want;
	struct amdx_range *r;
	int ret = 0;

	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		if (same_owner && (!self || ctx->owner != self->owner))
			continue;
		spin_lock(&ctx->lock);
		list_for_each_entry(r, &ctx->ranges.ranges, node) {
			/* Prefer others' ranges: bias ours to the end. */
			u64 key = r->last_used + (ctx == self ? U64_MAX / 2 : 0);

			u64 s = r->start, e = r->end;

			if ((r->attr.flags & AMDX_HMM_F_PIN) || !r->resident ||
			    key >= best)
				continue;
			if (part != AMDX_HMM_LOC_SYSTEM &&
			    !(r->resident_parts & BIT(part)))
				continue;
			/* Never the span being migrated in: what is left. */
			if (ctx == self && s < ex_end && e > ex_start) {
				if (s < ex_start)
					e = ex_start;
				else if (e > ex_end)
					s = ex_end;
				else
					continue;
			}
			best = key;
			victim = ctx;
			start = s;
			end = e;
		}
		spin_unlock(&ctx->lock);
	}
	if (victim && !mmget_not_zero(victim->mm))
		victim = NULL;
	if (victim)
		kref_get(&victim->ref);
	mutex_unlock(&adev->hmm.lock);
	if (!victim)
		return amdx_hmm_evict_uncovered(adev, self, part, ex_start,
						ex_end, same_owner,
						need + AMDX_HMM_EVICT_SLACK);

	t0 = ktime_get_ns();
	want = need + AMDX_HMM_EVICT_SLACK;
	req.mm = victim->mm;
	req.owner = victim->owner;
	for (addr = start; addr < end && res.moved < want; addr = next) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		next = min(end, addr + ((want - res.moved) << PAGE_SHIFT));
		mmap_read_lock(victim->mm);
		ret = amdx_migrate_mm(&req, addr, next);
		mmap_read_unlock(victim->mm);
		if (ret)
			break;
		cond_resched();
	}
	res.ns = ktime_get_ns() - t0;
	mmput(victim->mm);
	amdx_hmm_account(victim, start, end, AMDX_HMM_LOC_SYSTEM, &res, false,
			 true);
	amdx_stats_migrated(adev, AMDX_MIG_EVICT, res.moved);
	if (!res.moved && addr >= end) {
		/* Nothing came back: forget the stale residency hint. */
		spin_lock(&victim->lock);
		r = amdx_range_find(&victim->ranges, start);
		if (r)
			amdx_range_forget_resident(r, AMDX_HMM_LOC_SYSTEM);
		spin_unlock(&victim->lock);
	}
	trace_amdx_hmm_evict(amdx_device_id(adev), victim->tgid, start,
			     res.moved);
	amdx_hmm_ctx_put(victim);
	return ret ? ret : 0;
}

/**
 * amdx_hmm_evict_one() - move the least recently used range home
 * @adev: the device.
 * @part: the memory partition that is full.
 * @self: the context asking; its own ranges are candidates too, last.
 * @ex_start: first byte of @self's range being migrated (never a victim).
 * @ex_end: one past its last byte.
 *
 * Picks the unpinned range of any context on @adev with pages in memory
 * partition @part (%AMDX_HMM_LOC_SYSTEM: in any) that was used least
 * recently and migrates up to %AMDX_HMM_EVICT_SLACK of its pages, lowest
 * addresses first, to system memory.  The caller must hold no mmap lock.
 *
 * Return: 0 when something was evicted, -ENOSPC when nothing could be.
 */
int amdx_hmm_evict_one(struct amdx_device *adev, u32 part,
		       struct amdx_hmm_ctx *self, u64 ex_start, u64 ex_end)
{
	return amdx_hmm_evict(adev, self, part, ex_start, ex_end, false, 0);
}

/**
 * amdx_hmm_migrate_range() - migrate [start, end) of a context's process
 * @ctx: the context; the caller's mm is ctx->mm.
 * @start: first byte, page aligned.
 * @end: one past the last byte, page aligned.
 * @dest: a memory partition or %AMDX_HMM_LOC_SYSTEM.
 * @res: out: the outcome, accumulated.
 *
 * Takes the mmap lock itself; evicts least recently used ranges when the
 * partition is full.
 *
 * Return: 0 (see @res for what moved), -EINTR on a fatal signal, -ENOMEM.
 */
int amdx_hmm_migrate_range(struct amdx_hmm_ctx *ctx, u64 start, u64 end,
			   u32 dest, struct amdx_hmm_result *res)
{
	struct amdx_device *adev = ctx->adev;
	struct amdx_migrate_req req = {
		.adev = adev, .mm = ctx->mm, .dest = dest,
		.owner = ctx->owner, .holder = ctx->holder, .res = res,
	};
	unsigned long addr = start;
	u64 t0 = ktime_get_ns();
	int evictions = 0, ret;

	for (;;) {
		if (fatal_signal_pending(current))
			return -EINTR;
		mmap_read_lock(ctx->mm);
		ret = amdx_migrate_mm(&req, addr, end);
		mmap_read_unlock(ctx->mm);
		if (ret != -ENOSPC && ret != -EDQUOT)
			break;
		/*
		 * Partition full (or a VF at its quota) from req.resume on: make
		 * room, retry there.  Room in a full partition comes only
		 * from data in that partition; a VF's quota spans all, but it
		 * evicts only its own data, and only with %AMDX_VF_F_EVICT.
		 */
		if (evictions++ >= AMDX_HMM_MAX_EVICT ||
		    (ret == -EDQUOT && !READ_ONCE(ctx->vf_evict)) ||
		    amdx_hmm_evict(adev, ctx,
				   ret == -EDQUOT ? AMDX_HMM_LOC_SYSTEM : dest,
				   start, end, ret == -EDQUOT,
				   (end - req.resume) >> PAGE_SHIFT)) {
			res->skipped += (end - req.resume) >> PAGE_SHIFT;
			res->reasons |= AMDX_HMM_SKIP_NO_MEMORY;
			ret = 0;
			break;
		}
		addr = req.resume;
	}
	res->ns = ktime_get_ns() - t0;
	trace_amdx_hmm_migrate(amdx_device_id(adev), ctx->tgid, start,
			       (end - start) >> PAGE_SHIFT, dest, res->moved,
			       res->ns);
	return ret;
}

/**
 * amdx_hmm_event_migrate() - report pages a migration moved
 * @adev: the device.
 * @who: the process whose pages moved.
 * @home: true when they moved to system memory, false for VRAM.
 * @pages: how many; nothing is reported for 0.
 *
 * Emits %AMDX_EVENT_MIGRATE (type 0 to VRAM, 1 home).
 */
void amdx_hmm_event_migrate(struct amdx_device *adev,
			    const struct amdx_subject *who, bool home,
			    u64 pages)
{
	struct amdx_event ev = {
		.kind = AMDX_EVENT_MIGRATE,
		.type = home,
		.partition = AMDX_RAS_PARTITION_ALL,
		.data = { 0, pages },
	};

	if (pages)
		amdx_event_emit_subject(adev, &ev, who);
}

/*
 * The context of @mm on @adev whose ranges hold @addr, else the first of
 * @mm's (a process may have several fds of one device: a VF's and the
 * PF's), referenced; NULL when @mm has none.
 */
static struct amdx_hmm_ctx *amdx_hmm_ctx_of_mm(struct amdx_device *adev,
					       struct mm_struct *mm,
					       unsigned long addr)
{
	struct amdx_hmm_ctx *ctx, *found = NULL;
	bool holds;

	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		if (ctx->mm != mm)
			continue;
		spin_lock(&ctx->lock);
		holds = amdx_range_find(&ctx->ranges, addr);
		spin_unlock(&ctx->lock);
		if (holds || !found)
			found = ctx;
		if (holds)
			break;
	}
	if (found)
		kref_get(&found->ref);
	mutex_unlock(&adev->hmm.lock);
	return found;
}

/**
 * amdx_hmm_migrate_to_ram() - CPU fault on a device page
 * @adev: the device owning the page.
 * @vmf: the fault; vmf->page is the device page, referenced.
 *
 * For providers' &dev_pagemap_ops.migrate_to_ram: moves the granule around
 * the fault (the range's granularity, at most 2 MiB, within the VMA) home.
 * A poisoned page does not move: the fault fails with VM_FAULT_HWPOISON
 * (SIGBUS, BUS_MCEERR_AR) and a POISON_CONSUMED event names the process.
 * The fault succeeds once its own page moved, even when another page of
 * the granule could not (that one moves on its own fault).
 *
 * Return: 0, VM_FAULT_HWPOISON, or when the faulting page itself could not
 * move VM_FAULT_SIGBUS (copy failed) or VM_FAULT_OOM (no system page).
 */
vm_fault_t amdx_hmm_migrate_to_ram(struct amdx_device *adev,
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
		amdx_hmm_account(ctx, start, end, AMDX_HMM_LOC_SYSTEM, &res,
				 true, false);
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
EXPORT_SYMBOL_GPL(amdx_hmm_migrate_to_ram);

/*
 * The stand-in for a poisoned device page that must go (draining, device
 * removal): a zeroed system page, locked, with a second reference that
 * amdx_hmm_poison_ptes() drops.  The bad data is never copied.
 */
static struct page *amdx_hmm_poison_page(void)
{
	struct page *page = alloc_page(GFP_HIGHUSER_MOVABLE | __GFP_ZERO);

	if (!page)
		return NULL;
	lock_page(page);
	get_page(page);
	return page;
}

#if IS_ENABLED(CONFIG_MEMORY_FAILURE)
/*
 * Make every mapping of @page, the stand-in for a poisoned device page,
 * fault with SIGBUS (BUS_MCEERR_AR) as the device page did, without
 * memory_failure(): that would retire a healthy page of host RAM for good
 * (and panic with vm.memory_failure_recovery=0).  The page is flagged
 * HWPoison only for one more migrate_device_range() of its own pfn, whose
 * unmap (try_to_migrate()) writes a hwpoison entry into every PTE mapping
 * it, the kernel's own representation of a poisoned page in a process
 * (what memory_failure() leaves behind; do_swap_page() answers
 * VM_FAULT_HWPOISON; zap and exit drop it).  Nothing migrates, the flag
 * is cleared and the page goes back to the allocator: HardwareCorrupted
 * stays 0.
 *
 * Between migrate_device_finalize() mapping the stand-in and the unmap
 * here, a racing CPU read of that page in another thread sees zeroes
 * instead of SIGBUS; only draining and removal take this path, and a
 * process touching the page after either returned always gets SIGBUS.
 */
static void amdx_hmm_poison_ptes(struct page *page)
{
	unsigned long src, dst;

	SetPageHWPoison(page);
	/* Retried while the unmap could not lock or isolate the page. */
	while (page_mapped(page)) {
		src = 0;
		dst = 0;
		if (!migrate_device_range(&src, page_to_pfn(page), 1) && src) {
			migrate_device_pages(&src, &dst, 1);
			migrate_device_finalize(&src, &dst, 1);
		}
		cond_resched();
	}
	ClearPageHWPoison(page);
	put_page(page);
}
#else
static void amdx_hmm_poison_ptes(struct page *page)
{
	/* No hwpoison entries without MEMORY_FAILURE: zeroes, said once. */
	pr_warn_once("amdx: poisoned VRAM moved home as zeroes: kernel without CONFIG_MEMORY_FAILURE\n");
	put_page(page);
}
#endif

/*
 * Move device pages [index, index + n) of @adev somewhere else without a
 * process: home (to system memory), or to other VRAM pages of partition
 * @to_part (not %AMDX_HMM_LOC_SYSTEM).  Poisoned pages go home as
 * hwpoison entries (amdx_hmm_poison_ptes()).  The host pfns of the range
 * must be contiguous (the provider maps its VRAM in one pagemap range).
 */
static int amdx_hmm_move_device_pages(struct amdx_device *adev, u64 index,
				      unsigned long n, u32 to_part, u64 *moved)
{
	struct amdx_migrate_bufs b;
	unsigned long i, pfn;
	int ret;

	ret = amdx_bufs_alloc(&b, n);
	if (ret)
		return ret;
	pfn = page_to_pfn(adev->ops->vram_index_page(adev, index));
	ret = migrate_device_range(b.src, pfn, n);
	if (ret)
		goto out;
	for (i = 0; i < n; i++) {
		struct page *spage = migrate_pfn_to_page(b.src[i]);
		struct page *dpage;

		b.dst[i] = 0;
		if (!spage || !(b.src[i] & MIGRATE_PFN_MIGRATE))
			continue;
		if (amdx_ras_page_poisoned(adev, index + i))
			goto poisoned;
		if (to_part != AMDX_HMM_LOC_SYSTEM) {
			/* Charged to the PF: no process to attribute. */
			dpage = adev->ops->vram_alloc_page(adev, to_part,
							   AMDX_OWNER_PF);
			if (IS_ERR(dpage))
				dpage = NULL;
			/* The data's fd still holds it. */
			if (dpage)
				amdx_hold_pages(adev, &dpage, 1,
						amdx_vram_pfn_holder(adev->desc.vram,
								     index + i));
		} else {
			dpage = NULL;
		}
		if (!dpage) {
			/* Home is always possible (short of OOM). */
			dpage = alloc_page(GFP_HIGHUSER_MOVABLE);
			if (!dpage) {
				ret = -ENOMEM;
				continue;
			}
			lock_page(dpage);
		}
		if (adev->ops->vram_copy(adev, dpage, spage)) {
			unlock_page(dpage);
			put_page(dpage);
			ret = -EIO;
			continue;
		}
		if (!amdx_ras_page_poisoned(adev, index + i)) {
			b.dst[i] = migrate_pfn(page_to_pfn(dpage));
			continue;
		}
		/* Poisoned while the copy ran (see batch_to_ram). */
		unlock_page(dpage);
		put_page(dpage);
poisoned:
		/* Nothing to copy: a zeroed stand-in, poisoned below. */
		dpage = amdx_hmm_poison_page();
		if (!dpage) {
			ret = -ENOMEM;
			continue;
		}
		__set_bit(i, b.sel);
		b.dst[i] = migrate_pfn(page_to_pfn(dpage));
	}
	migrate_device_pages(b.src, b.dst, n);
	for (i = 0; i < n; i++)
		if ((b.src[i] & MIGRATE_PFN_MIGRATE) && b.dst[i])
			(*moved)++;
	migrate_device_finalize(b.src, b.dst, n);
	/* Stand-ins that did not move are gone but for our reference. */
	for_each_set_bit(i, b.sel, n)
		amdx_hmm_poison_ptes(migrate_pfn_to_page(b.dst[i]));
out:
	amdx_bufs_free(&b);
	return ret;
}

/**
 * amdx_hmm_evict_vram_page() - move the data off one VRAM page
 * @adev: the device.
 * @index: the VRAM page index.
 *
 * The RAS soft-retirement hook: whatever a process has on the page moves
 * to a healthy VRAM page of the same memory partition (system memory when
 * the partition is full), with every mapping updated; the owner sees
 * nothing.  Afterwards the page is free unless something races.
 *
 * Return: 0 when data moved, -ENOENT when the page held none, -EBUSY when
 * it could not be moved (locked), -ENOMEM, -EIO.
 */
int amdx_hmm_evict_vram_page(struct amdx_device *adev, u64 index)
{
	struct amdx_device_state st = {};
	u32 part = AMDX_HMM_LOC_SYSTEM, i;
	u64 moved = 0, pos;
	int ret;

	ret = adev->ops->get_state(adev, &st);
	if (ret)
		return ret;
	pos = index << PAGE_SHIFT;
	for (i = 0; i < st.num_mem_partitions; i++)
		if (pos >= st.mem[i].base &&
		    pos < st.mem[i].base + st.mem[i].size)
			part = i;
	if (part == AMDX_HMM_LOC_SYSTEM)
		return -EINVAL;
	if (!page_count(adev->ops->vram_index_page(adev, index)))
		return -ENOENT;
	ret = amdx_hmm_move_device_pages(adev, index, 1, part, &moved);
	if (ret)
		return ret;
	return moved ? 0 : -EBUSY;
}

/**
 * amdx_hmm_drain_vram() - move every device page in a VRAM span home
 * @adev: the device.
 * @index: first VRAM page.
 * @npages: pages.
 * @moved: out: pages moved, accumulated.
 *
 * The repartitioning hook (drain memory partition X) and the device
 * removal path.  Pages that are busy at the time stay; callers loop.
 *
 * Return: 0 or -errno.
 */
int amdx_hmm_drain_vram(struct amdx_device *adev, u64 index, u64 npages,
			u64 *moved)
{
	u64 done, before = *moved;
	int ret = 0;

	for (done = 0; done < npages && !ret; done += AMDX_HMM_BATCH) {
		unsigned long n = min_t(u64, AMDX_HMM_BATCH, npages - done);

		ret = amdx_hmm_move_device_pages(adev, index + done, n,
						 AMDX_HMM_LOC_SYSTEM, moved);
		cond_resched();
	}
	amdx_stats_migrated(adev, AMDX_MIG_DRAIN, *moved - before);
	return ret;
}

/**
 * amdx_hmm_drain_partition() - move all data off a memory partition
 * @adev: the device.
 * @part: the memory partition.
 *
 * Return: 0 when the partition holds no process data any more, -EBUSY if
 * pages stayed busy, -EINVAL for a bad partition, -errno.
 */
int amdx_hmm_drain_partition(struct amdx_device *adev, u32 part)
{
	struct amdx_device_state st = {};
	u64 moved = 0, first, n, i;
	int ret, tries;

	ret = adev->ops->get_state(adev, &st);
	if (ret)
		return ret;
	if (part >= st.num_mem_partitions)
		return -EINVAL;
	first = st.mem[part].base >> PAGE_SHIFT;
	n = st.mem[part].size >> PAGE_SHIFT;
	for (tries = 0; tries < 10; tries++) {
		ret = amdx_hmm_drain_vram(adev, first, n, &moved);
		if (ret)
			return ret;
		for (i = 0; i < n; i++)
			if (page_count(adev->ops->vram_index_page(adev,
								  first + i)))
				break;
		if (i == n) {
			amdx_hmm_forget_resident(adev, part);
			return 0;
		}
		msleep(20);
	}
	return -EBUSY;
}
