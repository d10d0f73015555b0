// SPDX-License-Identifier: GPL-2.0
/*
 * HAVE_MIGRATE_VMA_FAULT_PAGE: struct migrate_vma.fault_page, commit
 * 16ce101db85d ("mm/memory.c: fix race when faulting a device private
 * page"), v6.1.
 */
#include <linux/migrate.h>
#include <linux/module.h>

struct page *amdx_probe_fn(struct migrate_vma *m);
struct page *amdx_probe_fn(struct migrate_vma *m)
{
	return m->fault_page;
}
MODULE_LICENSE("GPL");
