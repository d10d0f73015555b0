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
 */
#include <linux/memremap.h>
#include <linux/mm.h>
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

/* Runs under the PTE's lock (apply_to_existing_page_range()). */
static int amdx_hmm_walk_pte(pte_t *ptep, unsigned long addr, void *data)
{
	struct amdx_hmm_pte_walk *w = data;
	pte_t pte = ptep_get(ptep);
	swp_entry_t e;

	if (pte_present(pte) || !is_swap_pte(pte))
		return 0;
	e = pte_to_swp_entry(pte);
	if (!is_device_private_entry(e))
		return 0;
	/* The entry holds a reference on the page, and so on its pgmap. */
	w->owner = pfn_swap_entry_to_page(e)->pgmap->owner;
	w->writable = is_writable_device_private_entry(e);
	if (w->owner == w->count)
		w->n++;
	return 0;
}

/*
 * amdx_hmm_walk_pte() over the PTEs of [@addr, @end) of @mm (mmap lock
 * held).  Empty page-table levels are skipped whole, so the cost is that
 * of the populated page tables (what an unmap walks anyway), not of the
 * span.  Never splits or changes anything: huge PMDs are skipped, and the
 * PTEs are read by apply_to_existing_page_range() under their lock
 * (pte_offset_map_lock() is not for modules since 6.5).  follow_pte()
 * would not do: it returns only present PTEs, and device-private entries
 * are swap-like.
 */
static void amdx_hmm_walk(struct mm_struct *mm, unsigned long addr,
			  unsigned long end, struct amdx_hmm_pte_walk *w)
{
	unsigned long next;
	pmd_t *pmd, pmdval;
	pgd_t *pgd;
	p4d_t *p4d;
	pud_t *pud;

	for (; addr < end; addr = next) {
		pgd = pgd_offset(mm, addr);
		next = pgd_addr_end(addr, end);
		if (pgd_none(*pgd) || pgd_bad(*pgd))
			continue;
		p4d = p4d_offset(pgd, addr);
		next = p4d_addr_end(addr, next);
		if (p4d_none(*p4d) || p4d_bad(*p4d))
			continue;
		pud = pud_offset(p4d, addr);
		next = pud_addr_end(addr, next);
		if (pud_none(*pud) || pud_bad(*pud))
			continue;
		pmd = pmd_offset(pud, addr);
		next = pmd_addr_end(addr, next);
		pmdval = READ_ONCE(*pmd);
		if (pmd_none(pmdval) || !pmd_present(pmdval) ||
		    pmd_trans_huge(pmdval) || pmd_bad(pmdval))
			continue;
		apply_to_existing_page_range(mm, addr, next - addr,
					     amdx_hmm_walk_pte, w);
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
