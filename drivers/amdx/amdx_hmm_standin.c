// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM stand-ins for poisoned data
 *
 * When a device page whose data is poisoned must leave its device (a
 * drained memory partition, a removed device), the process that maps it
 * must still get SIGBUS (``BUS_MCEERR_AR``) when it touches that address,
 * and nothing else must change: no page of host RAM is marked or retired
 * (``HardwareCorrupted`` stays 0, ``memory_failure()`` is never called),
 * and the bad data is never copied anywhere.
 *
 * The page is replaced by a stand-in: a device-private page of amdx's own
 * pagemap (one memory section of struct pages with no memory behind them,
 * made once at module load: 2 MiB of struct pages on x86-64), which holds
 * no data.  A CPU fault on it
 * answers %VM_FAULT_HWPOISON, which the architecture turns into the
 * SIGBUS of a consumed memory error for that process alone (a kernel
 * without ``CONFIG_MEMORY_FAILURE`` sends a plain SIGBUS: never zeroes,
 * never stale data).  The stand-in stays mapped until the process unmaps
 * it or exits, whatever becomes of the device; the kernel's own page
 * tables, ``fork()`` and ``mremap()`` treat it as any device-private page.
 * pagemap, smaps and ``PAGEMAP_SCAN`` see a device-private entry naming a
 * pfn of that section, never a page of RAM.
 *
 * Each stand-in in use holds a reference on this module, so ``rmmod
 * amdx`` says the module is in use while a process maps poisoned data,
 * instead of waiting for it.  The pool has %AMDX_HMM_STANDINS pages
 * (32,768 on x86-64); a move that finds none free leaves the poisoned
 * page where it is, busy.
 */
#include <linux/bitmap.h>
#include <linux/err.h>
#include <linux/ioport.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <amdx/amdx_provider.h>

#include "amdx_hmm_standin.h"

/**
 * struct amdx_hmm_standins - the pool
 * @res: the physical range the pages sit in (no memory behind it).
 * @pgmap: its device-private pagemap.
 * @pfn_first: the pfn of the first page.
 * @lock: protects @used and @hint.
 * @used: a bit per page in use.
 * @hint: where to look for a free page next.
 */
struct amdx_hmm_standins {
	struct resource *res;
	struct dev_pagemap pgmap;
	unsigned long pfn_first;
	spinlock_t lock;	/* see above */
	unsigned long *used;
	unsigned long hint;
};

static struct amdx_hmm_standins *amdx_standins;

/* Nothing to move back: the data is bad.  SIGBUS, BUS_MCEERR_AR. */
static vm_fault_t amdx_hmm_standin_fault(struct vm_fault *vmf)
{
	return VM_FAULT_HWPOISON;
}

static void amdx_hmm_standin_free(struct page *page)
{
	struct amdx_hmm_standins *s = amdx_standins;
	unsigned long i = page_to_pfn(page) - s->pfn_first;

	spin_lock(&s->lock);
	__clear_bit(i, s->used);
	spin_unlock(&s->lock);
	/*
	 * memunmap_pages() in module exit waits for the pagemap reference
	 * that the caller drops after this returns: the code stays.
	 */
	module_put(THIS_MODULE);
}

static const struct dev_pagemap_ops amdx_hmm_standin_ops = {
	.page_free = amdx_hmm_standin_free,
	.migrate_to_ram = amdx_hmm_standin_fault,
};

/**
 * amdx_hmm_standin_get() - a stand-in for a poisoned device page
 *
 * Return: a device-private page with one reference, locked (a
 * destination for migrate_device_pages()), holding a reference on this
 * module until its last reference goes; NULL when all are in use.
 */
struct page *amdx_hmm_standin_get(void)
{
	struct amdx_hmm_standins *s = amdx_standins;
	unsigned long i;
	struct page *page;

	spin_lock(&s->lock);
	i = find_next_zero_bit(s->used, AMDX_HMM_STANDINS, s->hint);
	if (i >= AMDX_HMM_STANDINS)
		i = find_first_zero_bit(s->used, AMDX_HMM_STANDINS);
	if (i < AMDX_HMM_STANDINS) {
		__set_bit(i, s->used);
		s->hint = i + 1;
	}
	spin_unlock(&s->lock);
	if (i >= AMDX_HMM_STANDINS)
		return NULL;
	__module_get(THIS_MODULE);
	page = pfn_to_page(s->pfn_first + i);
	zone_device_page_init(page);
	return page;
}

/* memremap_pages() of one pagemap, on a worker; see amdx_pagemap_map(). */
struct amdx_pagemap_map_work {
	struct work_struct work;
	struct dev_pagemap *pgmap;
	int nid;
	void *addr;
};

static void amdx_pagemap_map_fn(struct work_struct *work)
{
	struct amdx_pagemap_map_work *mw =
		container_of(work, struct amdx_pagemap_map_work, work);

	mw->addr = memremap_pages(mw->pgmap, mw->nid);
}

/**
 * amdx_pagemap_map() - memremap_pages() on a worker
 * @pgmap: the pagemap, filled in.
 * @nid: its node.
 *
 * x86's add_pages() WARNs whenever __add_pages() fails, which any
 * allocation failure inside it makes it do (arch/x86/mm/init_64.c, 6.1
 * and 6.12); the allocation-failure sweeps (selftests/amdx_failsweep_test.c,
 * amdx_unload_test.c) fail the Nth allocation of the task that loads amdx
 * or creates a simulated device, and a WARN fails the test run.  A
 * worker's allocations are not that task's, so the sweeps reach every
 * allocation of amdx and the simulator and none inside memory hotplug.
 * Nothing the caller holds may be one memory hotplug takes.
 *
 * Return: what memremap_pages() returned.
 */
void *amdx_pagemap_map(struct dev_pagemap *pgmap, int nid)
{
	struct amdx_pagemap_map_work mw = { .pgmap = pgmap, .nid = nid };

	INIT_WORK_ONSTACK(&mw.work, amdx_pagemap_map_fn);
	queue_work(system_unbound_wq, &mw.work);
	flush_work(&mw.work);
	destroy_work_on_stack(&mw.work);
	return mw.addr;
}
EXPORT_SYMBOL_GPL(amdx_pagemap_map);

/* The pagemap's owner: no device's, so no device counts its pages. */
static const char amdx_hmm_standin_owner[] = "amdx stand-ins";

/**
 * amdx_hmm_standin_init() - make the pool (module load)
 *
 * Return: 0 or -errno.
 */
int amdx_hmm_standin_init(void)
{
	struct amdx_hmm_standins *s;
	void *addr;
	int ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	spin_lock_init(&s->lock);
	s->used = bitmap_zalloc(AMDX_HMM_STANDINS, GFP_KERNEL);
	if (!s->used) {
		ret = -ENOMEM;
		goto err_free;
	}
	s->res = request_free_mem_region(&iomem_resource, AMDX_HMM_STANDINS_SIZE,
					 "amdx poison stand-ins");
	if (IS_ERR(s->res)) {
		ret = PTR_ERR(s->res);
		goto err_bitmap;
	}
	s->pgmap.type = MEMORY_DEVICE_PRIVATE;
	s->pgmap.range.start = s->res->start;
	s->pgmap.range.end = s->res->start + AMDX_HMM_STANDINS_SIZE - 1;
	s->pgmap.nr_range = 1;
	s->pgmap.ops = &amdx_hmm_standin_ops;
	s->pgmap.owner = (void *)amdx_hmm_standin_owner;
	addr = amdx_pagemap_map(&s->pgmap, NUMA_NO_NODE);
	if (IS_ERR(addr)) {
		ret = PTR_ERR(addr);
		goto err_region;
	}
	s->pfn_first = PHYS_PFN(s->res->start);
	amdx_standins = s;
	return 0;

err_region:
	release_mem_region(s->res->start, resource_size(s->res));
err_bitmap:
	bitmap_free(s->used);
err_free:
	kfree(s);
	pr_err("amdx: no pagemap for poison stand-ins: %pe\n", ERR_PTR(ret));
	return ret;
}

/**
 * amdx_hmm_standin_fini() - remove the pool (module unload)
 *
 * No stand-in is in use: each holds a reference on the module.
 */
void amdx_hmm_standin_fini(void)
{
	struct amdx_hmm_standins *s = amdx_standins;

	if (!s)
		return;
	amdx_standins = NULL;
	memunmap_pages(&s->pgmap);
	release_mem_region(s->res->start, resource_size(s->res));
	bitmap_free(s->used);
	kfree(s);
}
