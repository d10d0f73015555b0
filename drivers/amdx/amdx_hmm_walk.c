// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM PTE walker
 *
 * Which device-private page a process maps where, read from its page
 * tables: the HMM files ask it whether an address already holds a device
 * page (MIGRATE's classification), how many pages of a device a span maps
 * (unmap accounting, eviction) and whose device page an address holds
 * (ACCESS snapshots).  A device is named by its pgmap owner
 * (&amdx_device_desc.pgmap_owner), so the walker knows nothing of
 * devices; it only reads, never faults or splits.
 *
 * It reads user page tables the way the core mm's walkers do (one read of
 * each PMD, the PTE table under RCU and its lock once the PMD proved
 * unchanged), never through apply_to_existing_page_range(), which is for
 * kernel mappings and WARNs when a PTE table turns into a huge PMD under
 * it (MADV_COLLAPSE on 6.12 does that under the mmap read lock).
 */
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/swap.h>
#include <linux/swapops.h>

#include "amdx_hmm_walk.h"

/*
 * What amdx_hmm_walk_pte() looks for and finds: the device-private entries
 * of @count (a pgmap owner) counted in @n; @owner and @writable of the
 * last device-private entry seen.
 */
struct amdx_hmm_pte_walk {
	const void *count;
	u64 n;
	const void *owner;
	bool writable;
};

/* Runs under the PTE's lock (amdx_hmm_walk_pmd()). */
static void amdx_hmm_walk_pte(pte_t pte, struct amdx_hmm_pte_walk *w)
{
	swp_entry_t e;

	if (pte_present(pte) || !is_swap_pte(pte))
		return;
	e = pte_to_swp_entry(pte);
	if (!is_device_private_entry(e))
		return;
	/* The entry holds a reference on the page, and so on its pgmap. */
	w->owner = pfn_swap_entry_to_page(e)->pgmap->owner;
	w->writable = is_writable_device_private_entry(e);
	if (w->owner == w->count)
		w->n++;
}

/*
 * amdx_hmm_walk_pte() over the PTEs of [@addr, @end) of @mm (mmap lock
 * held, or the caller is the unmapper inside an UNMAP notifier, where the
 * VMAs are already out of the tree but the page tables still stand).
 * Empty page-table levels are skipped whole, so the cost is that of the
 * populated page tables (what an unmap walks anyway), not of the span.
 *
 * A user page table can change under a reader that holds the mmap lock
 * only for read: MADV_COLLAPSE (6.12: collapse_pte_mapped_thp()) replaces
 * a PTE table by a huge PMD, khugepaged's retract_page_tables() clears
 * the PMD and frees the table after an RCU grace period.  So each PMD is
 * read once (a PUD or PMD that is not a table, a huge page or a THP
 * migration entry, holds no device-private entry: those exist only in
 * PTEs), the PTE table is used only inside rcu_read_lock() and under its
 * lock after the PMD proved unchanged: the protocol of the kernel's own
 * pte_offset_map_lock(), which modules cannot call since 6.5, and what
 * hmm_range_fault() and walk_page_range() do.  hmm_range_fault() itself
 * does not fit: it reports only one owner's device pages, needs a VMA
 * (an UNMAP notifier has none) and may not run inside the notifier.
 * Never faults, splits or changes anything.
 */
static void amdx_hmm_walk_pmd(struct mm_struct *mm, pmd_t *pmd,
			      unsigned long addr, unsigned long end,
			      struct amdx_hmm_pte_walk *w)
{
	spinlock_t *ptl;	/* the PTE table's */
	pmd_t pmdval;
	pte_t *pte;

	rcu_read_lock();
	pmdval = READ_ONCE(*pmd);
	if (pmd_none(pmdval) || !pmd_present(pmdval) ||
	    pmd_trans_huge(pmdval) || pmd_devmap(pmdval) || pmd_leaf(pmdval) ||
	    pmd_bad(pmdval))
		goto out;
	ptl = pte_lockptr(mm, &pmdval);
	pte = pte_offset_kernel(&pmdval, addr);
	spin_lock(ptl);
	/* The table may have been retracted or collapsed meanwhile. */
	if (pmd_same(pmdval, READ_ONCE(*pmd)))
		for (; addr < end; addr += PAGE_SIZE, pte++)
			amdx_hmm_walk_pte(ptep_get(pte), w);
	spin_unlock(ptl);
out:
	rcu_read_unlock();
}

static void amdx_hmm_walk(struct mm_struct *mm, unsigned long addr,
			  unsigned long end, struct amdx_hmm_pte_walk *w)
{
	unsigned long next;
	pgd_t *pgd, pgdval;
	p4d_t *p4d, p4dval;
	pud_t *pud, pudval;

	for (; addr < end; addr = next) {
		pgd = pgd_offset(mm, addr);
		next = pgd_addr_end(addr, end);
		pgdval = READ_ONCE(*pgd);
		if (pgd_none(pgdval) || pgd_bad(pgdval))
			continue;
		p4d = p4d_offset(pgd, addr);
		next = p4d_addr_end(addr, next);
		p4dval = READ_ONCE(*p4d);
		if (p4d_none(p4dval) || p4d_leaf(p4dval) || p4d_bad(p4dval))
			continue;
		pud = pud_offset(p4d, addr);
		next = pud_addr_end(addr, next);
		pudval = READ_ONCE(*pud);
		if (pud_none(pudval) || pud_leaf(pudval) || pud_bad(pudval))
			continue;
		next = pmd_addr_end(addr, next);
		amdx_hmm_walk_pmd(mm, pmd_offset(pud, addr), addr, next, w);
		/* Spans of more than a page table: let others run. */
		if (next < end)
			cond_resched();
	}
}

/**
 * amdx_hmm_count_local() - count a device's pages mapped in a span
 * @owner: the device's pgmap owner.
 * @mm: the address space; its mmap lock held.
 * @addr: first byte.
 * @end: one past the last byte.
 *
 * Costs the populated page tables of the span, not the span (see
 * amdx_hmm_walk()).
 *
 * Return: the device-private pages of @owner mapped in [@addr, @end).
 */
u64 amdx_hmm_count_local(const void *owner, struct mm_struct *mm,
			 unsigned long addr, unsigned long end)
{
	struct amdx_hmm_pte_walk w = { .count = owner };

	amdx_hmm_walk(mm, addr, end, &w);
	return w.n;
}

/**
 * amdx_hmm_pte_device_owner() - whose device-private page a PTE points to
 * @mm: the address space; its mmap lock held.
 * @addr: the address.
 * @writable: out, may be NULL: whether the entry allows writes.
 *
 * The page's pgmap is read under the page-table lock, while the entry
 * still pins the page: once the lock is dropped the page may be freed
 * and, with its device gone, its pgmap too, so no page pointer leaves
 * this function.  Never sleeps for the one page it walks.
 *
 * Return: the pgmap owner of the device-private page mapped at @addr, or
 * NULL when there is none.
 */
const void *amdx_hmm_pte_device_owner(struct mm_struct *mm,
				      unsigned long addr, bool *writable)
{
	struct amdx_hmm_pte_walk w = {};

	addr &= PAGE_MASK;
	amdx_hmm_walk(mm, addr, addr + PAGE_SIZE, &w);
	if (w.owner && writable)
		*writable = w.writable;
	return w.owner;
}

/**
 * amdx_hmm_is_local() - whether an address maps a VRAM page of a device
 * @owner: the device's pgmap owner.
 * @mm: the address space; its mmap lock held.
 * @addr: the address.
 *
 * Return: true when the PTE holds a device-private page of @owner.
 */
bool amdx_hmm_is_local(const void *owner, struct mm_struct *mm,
		       unsigned long addr)
{
	return amdx_hmm_pte_device_owner(mm, addr, NULL) == owner;
}
