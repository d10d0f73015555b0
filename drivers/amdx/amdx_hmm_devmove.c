// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM device-page moves without a process
 *
 * Some moves start from VRAM, not from an address space: RAS retirement
 * of one VRAM page (amdx_hmm_retire_vram_page()), emptying a memory
 * partition before a partition switch (amdx_hmm_vacate_partition()) or a
 * removed device (amdx_hmm_vacate_device()), and an fd's pages found by
 * VRAM index wherever they are mapped (amdx_hmm_home_holder(), close and
 * eviction's last resort).  They use migrate_device_range(), which finds
 * the mappings itself, and the engine's buffers (amdx_hmm_migrate.c).
 *
 * When a device page must go, a poisoned one (RAS: its data is bad) is
 * replaced by a stand-in wherever it was mapped (amdx_hmm_standin.c): the
 * process still gets SIGBUS (BUS_MCEERR_AR) on touching it, after the
 * device and amdx_sim are gone, and no page of host RAM is marked or
 * taken out of service.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/migrate.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/xarray.h>
#include <amdx/amdx_compat.h>
#include <amdx/amdx_vram.h>

#include "amdx_core.h"
#include "amdx_hmm_ctx.h"
#include "amdx_hmm_devmove.h"
#include "amdx_hmm_migrate.h"
#include "amdx_hmm_standin.h"
#include "amdx_partition_gate.h"
#include "amdx_ras_poison.h"

/*
 * One step of amdx_hmm_move_device_pages(), over pages whose address
 * spaces the caller holds.
 */
static int amdx_hmm_move_run(struct amdx_device *adev, u64 index,
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
		/* Nothing to copy: a stand-in that faults as poison. */
		dpage = amdx_hmm_standin_get();
		if (!dpage) {
			ret = -ENOMEM;
			continue;
		}
		b.dst[i] = migrate_pfn(page_to_pfn(dpage));
	}
	migrate_device_pages(b.src, b.dst, n);
	for (i = 0; i < n; i++)
		if ((b.src[i] & MIGRATE_PFN_MIGRATE) && b.dst[i])
			(*moved)++;
	migrate_device_finalize(b.src, b.dst, n);
out:
	amdx_bufs_free(&b);
	return ret;
}

/* Address spaces one step of a move holds at most. */
#define AMDX_HMM_MOVE_MMS	8

/**
 * struct amdx_hmm_move_mms - the address spaces one step of a move holds
 * @mm: each with a reference (mmgrab()) and its mmap lock held for reading.
 * @holder: the holder id of the device fd whose address space each is.
 * @n: how many.
 */
struct amdx_hmm_move_mms {
	struct mm_struct *mm[AMDX_HMM_MOVE_MMS];
	u32 holder[AMDX_HMM_MOVE_MMS];
	u32 n;
};

/*
 * How many of VRAM pages [@index, @index + @n) can move now: for each
 * page's holder not yet in @mms, the address space of its fd is locked
 * for reading and added.  A holder whose fd is gone has nothing to hold.
 * The run ends at a page whose address space is locked for writing
 * (*@skip = 1 when that is the first page: it is left for a later pass)
 * or when @mms is full.
 */
static unsigned long amdx_hmm_move_mms_take(struct amdx_device *adev,
					    u64 index, unsigned long n,
					    struct amdx_hmm_move_mms *mms,
					    unsigned long *skip)
{
	struct amdx_vram *v = adev->desc.vram;
	struct amdx_hmm_ctx *ctx;
	struct mm_struct *mm;
	unsigned long i;
	u32 h, k;

	*skip = 0;
	for (i = 0; i < n; i++) {
		h = amdx_vram_pfn_holder(v, index + i);
		if (h == AMDX_VRAM_NO_HOLDER)
			continue;
		for (k = 0; k < mms->n && mms->holder[k] != h; k++)
			;
		if (k < mms->n)
			continue;
		if (mms->n == AMDX_HMM_MOVE_MMS)
			break;
		mm = NULL;
		xa_lock(&adev->hmm.holders);
		ctx = xa_load(&adev->hmm.holders, h);
		if (ctx) {
			mm = ctx->mm;
			mmgrab(mm);
		}
		xa_unlock(&adev->hmm.holders);
		if (!mm)
			continue;
		if (!mmap_read_trylock(mm)) {
			mmdrop(mm);
			*skip = !i;
			break;
		}
		mms->mm[mms->n] = mm;
		mms->holder[mms->n++] = h;
	}
	return i;
}

static void amdx_hmm_move_mms_put(struct amdx_hmm_move_mms *mms)
{
	while (mms->n) {
		mms->n--;
		mmap_read_unlock(mms->mm[mms->n]);
		mmdrop(mms->mm[mms->n]);
	}
}

/*
 * Move device pages [index, index + n) of @adev somewhere else without a
 * process: home (to system memory), or to other VRAM pages of partition
 * @to_part (not %AMDX_HMM_LOC_SYSTEM).  Poisoned pages are replaced by
 * stand-ins (amdx_hmm_standin_get()).  The host pfns of the range
 * must be contiguous (the provider maps its VRAM in one pagemap range).
 *
 * migrate_device_range() takes no mm: between its unmap, which leaves
 * migration entries, and migrate_device_finalize(), which walks the
 * pages' anon_vma to replace them, nothing would keep that anon_vma from
 * being freed by the exit or munmap() of the address space mapping the
 * pages (the core's migrate_pages() holds folio_get_anon_vma(), which
 * modules cannot call).  So each step holds, for reading, the mmap lock
 * of every address space whose device fd holds one of its pages: neither
 * exit_mmap() nor munmap() frees page tables or anon_vmas without taking
 * it for writing.  The lock is only tried (the caller may hold the device
 * lock or the VRAM gate); a page whose address space is locked for
 * writing stays busy for this pass, as a locked page does.  Left open:
 * pages that only a process other than their fd's maps (a fork() child,
 * its parent having unmapped them) are moved holding nothing of it.
 */
static int amdx_hmm_move_device_pages(struct amdx_device *adev, u64 index,
				      unsigned long n, u32 to_part, u64 *moved)
{
	struct amdx_hmm_move_mms mms = {};
	unsigned long done = 0, run, skip;
	int ret = 0, err;

	while (done < n) {
		run = amdx_hmm_move_mms_take(adev, index + done, n - done,
					     &mms, &skip);
		if (run) {
			err = amdx_hmm_move_run(adev, index + done, run,
						to_part, moved);
			if (err && !ret)
				ret = err;
		}
		amdx_hmm_move_mms_put(&mms);
		done += run + skip;
	}
	return ret;
}

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

/* Whether VRAM page @index stays: in @h's kept span, or @h->keep says so. */
static bool amdx_hmm_held_keeps(struct amdx_device *adev,
				const struct amdx_hmm_held *h, u64 index)
{
	return amdx_hmm_page_in(adev, index, h->keep_lo, h->keep_hi) ||
	       (h->keep && h->keep(h->keep_arg, index));
}

/**
 * amdx_hmm_move_held() - move pages of one holder home by VRAM index
 * @adev: the device, not dead (the caller holds its lock for read).
 * @h: which pages: @h->holder's in VRAM pages [@h->first, @h->end), but
 *	none whose linear page index is in [@h->keep_lo, @h->keep_hi)
 *	(amdx_hmm_page_in()) or that @h->keep keeps.
 * @moved: pages moved, added to; stops once it reaches @h->want.
 *
 * Finds the pages by index (amdx_vram_holder_run()) and moves them
 * wherever they are mapped (migrate_device_range()), at most
 * %AMDX_HMM_BATCH per step, each VRAM page looked at once; stops on a
 * fatal signal.  Busy pages stay.
 */
void amdx_hmm_move_held(struct amdx_device *adev,
			const struct amdx_hmm_held *h, u64 *moved)
{
	struct amdx_vram *v = adev->desc.vram;
	u64 pos = h->first, n, k, j, win;

	while (pos < h->end && *moved < h->want &&
	       !fatal_signal_pending(current)) {
		/*
		 * A window no longer than one step moves: a long run is not
		 * looked at again for each batch taken from it.
		 */
		win = min3((u64)AMDX_HMM_BATCH, h->want - *moved,
			   h->end - pos);
		n = amdx_vram_holder_run(v, h->holder, &pos, pos + win);
		for (k = 0; k < n; k = j + 1) {
			for (j = k; j < n; j++)
				if (amdx_hmm_held_keeps(adev, h, pos + j))
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

/*
 * Whether VRAM page @index is charged to @owner and held by one of
 * @holders (a bitmap by holder id).
 */
static bool amdx_hmm_owned_by(struct amdx_vram *v, u64 index, u32 owner,
			      const unsigned long *holders)
{
	return amdx_vram_pfn_owner(v, index) == owner &&
	       test_bit(amdx_vram_pfn_holder(v, index), holders);
}

/**
 * amdx_hmm_move_owned() - move one owner's pages home by VRAM index
 * @adev: the device, not dead (the caller holds its lock for read).
 * @h: which pages: those charged to @h->owner in VRAM pages [@h->first,
 *	@h->end), but none whose linear page index is in [@h->keep_lo,
 *	@h->keep_hi) (amdx_hmm_page_in()) or that @h->keep keeps;
 *	@h->holder is not used.
 * @holders: bitmap by holder id (%AMDX_VRAM_MAX_HOLDERS + 1 bits): only
 *	pages whose holder's bit is set move.
 * @moved: pages moved, added to; stops once it reaches @h->want.
 *
 * One pass over the owner's own page bitmap (amdx_vram_owner_next_below()),
 * whatever the number of holders: eviction's walk by index costs the
 * span once, not once per fd.  Moves runs of at most %AMDX_HMM_BATCH
 * pages wherever they are mapped; stops on a fatal signal.  Busy pages
 * stay.
 */
void amdx_hmm_move_owned(struct amdx_device *adev,
			 const struct amdx_hmm_held *h,
			 const unsigned long *holders, u64 *moved)
{
	struct amdx_vram *v = adev->desc.vram;
	u64 pos = h->first, n, max;

	while (pos < h->end && *moved < h->want &&
	       !fatal_signal_pending(current)) {
		pos = amdx_vram_owner_next_below(v, h->owner, pos, h->end);
		if (pos >= h->end)
			break;
		max = min3(h->end - pos, (u64)AMDX_HMM_BATCH, h->want - *moved);
		for (n = 0; n < max; n++)
			if (!amdx_hmm_owned_by(v, pos + n, h->owner, holders) ||
			    amdx_hmm_held_keeps(adev, h, pos + n))
				break;
		if (n)
			amdx_hmm_move_device_pages(adev, pos, n,
						   AMDX_HMM_LOC_SYSTEM, moved);
		pos += n ? n : 1;
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
	struct amdx_hmm_held h = {
		.holder = holder, .end = amdx_vram_npages(v), .want = U64_MAX,
	};
	u64 moved = 0;

	if (amdx_vram_holder_used(v, holder, NULL))
		amdx_hmm_move_held(adev, &h, &moved);
}

/**
 * amdx_hmm_retire_vram_page() - move the data off one VRAM page
 * @adev: the device.
 * @index: the VRAM page index.
 *
 * The RAS soft-retirement hook: whatever a process has on the page moves
 * to a healthy VRAM page of the same memory partition (system memory when
 * the partition is full), with every mapping updated; the owner sees
 * nothing.  Afterwards the page is free unless something races.
 *
 * A new VRAM page is taken only inside the VRAM gate, like any migration's.
 * The gate is tried, never waited for (the caller holds &amdx_ras.lock,
 * which partition resets take before the gate): while a partition commit,
 * VF change or device reset holds it closed, the data goes home to system
 * memory instead, and the closed partition gets no new page.
 *
 * Return: 0 when data moved, -ENOENT when the page held none, -EBUSY when
 * it could not be moved (locked), -ENOMEM, -EIO.
 */
int amdx_hmm_retire_vram_page(struct amdx_device *adev, u64 index)
{
	struct amdx_device_state st = {};
	u32 part = AMDX_HMM_LOC_SYSTEM, i;
	u64 moved = 0, pos;
	bool gated;
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
	gated = amdx_partition_vram_trybegin(adev);
	if (!gated)
		amdx_dbg(adev, "retiring VRAM page %#llx: the VRAM gate is closed, its data goes home\n",
			 index << PAGE_SHIFT);
	ret = amdx_hmm_move_device_pages(adev, index, 1,
					 gated ? part : AMDX_HMM_LOC_SYSTEM,
					 &moved);
	if (gated)
		amdx_partition_vram_end(adev);
	if (ret)
		return ret;
	return moved ? 0 : -EBUSY;
}

/*
 * Move every device page in VRAM pages [@index, @index + @npages) home,
 * once, adding to *@moved: the pages that are busy at the time stay, and
 * callers loop.  Returns 0 or -errno.
 */
static int amdx_hmm_home_vram_span(struct amdx_device *adev, u64 index,
				   u64 npages, u64 *moved)
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
 * amdx_hmm_vacate_partition() - move all data off a memory partition
 * @adev: the device.
 * @part: the memory partition.
 *
 * A partition switch's step before the provider repartitions: every page
 * of @part comes home, retried a few times while some stay busy, and the
 * contexts' residency counters for @part go to zero.
 *
 * Return: 0 when the partition holds no process data any more, -EBUSY if
 * pages stayed busy, -EINVAL for a bad partition, -errno.
 */
int amdx_hmm_vacate_partition(struct amdx_device *adev, u32 part)
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
		ret = amdx_hmm_home_vram_span(adev, first, n, &moved);
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

/**
 * amdx_hmm_vacate_device() - move every page of a removed device home
 * @adev: the device, already dead for new ioctls.
 *
 * Called by amdx_device_unregister() so that the provider can free its
 * device-private memory afterwards (memunmap_pages() waits for every
 * device page).  No new VRAM page can be allocated any more, and every
 * page still allocated can be moved: poisoned ones are replaced by
 * stand-ins (amdx_hmm_standin.c), busy ones (an in-flight CPU fault, a concurrent drain) are
 * retried until their holder lets go.  There is no timeout: returning
 * with a page allocated would let the provider free what a process can
 * still reach.
 *
 * Context: process context; may wait for as long as a page stays busy.
 */
void amdx_hmm_vacate_device(struct amdx_device *adev)
{
	u64 npages = adev->desc.vram_size >> PAGE_SHIFT, moved = 0, busy;
	unsigned long next_log = jiffies + 10 * HZ;

	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM))
		return;
	for (;;) {
		amdx_hmm_home_vram_span(adev, 0, npages, &moved);
		busy = adev->ops->vram_used_pages(adev);
		if (!busy) {
			amdx_hmm_forget_resident(adev, AMDX_HMM_LOC_SYSTEM);
			return;
		}
		if (time_after(jiffies, next_log)) {
			amdx_warn(adev, "removal waits for %llu busy VRAM pages\n",
				  busy);
			next_log = jiffies + 10 * HZ;
		}
		/* Holders are faults and copies in flight: let them run. */
		msleep(20);
	}
}
