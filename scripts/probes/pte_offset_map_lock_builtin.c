// SPDX-License-Identifier: GPL-2.0
/*
 * HAVE_PTE_OFFSET_MAP_LOCK_BUILTIN: pte_offset_map_lock() calls
 * __pte_offset_map_lock(), which the kernel does not export to modules,
 * commit 0d940a9b270b ("mm/pgtable: allow pte_offset_map[_lock]() to
 * fail"), v6.5.  Modules walk a user page table through
 * apply_to_existing_page_range() there.
 */
#include <linux/mm.h>
#include <linux/module.h>

pte_t *amdx_probe_fn(struct mm_struct *mm, pmd_t *pmd, unsigned long addr);
pte_t *amdx_probe_fn(struct mm_struct *mm, pmd_t *pmd, unsigned long addr)
{
	spinlock_t *ptl;	/* the page table's */

	return __pte_offset_map_lock(mm, pmd, addr, &ptl);
}
MODULE_LICENSE("GPL");
