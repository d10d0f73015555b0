// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: device-private VRAM pages
 *
 * Built only with CONFIG_DEVICE_PRIVATE.  A simulated device's VRAM gets a
 * range of unused physical addresses (request_free_mem_region(), rounded
 * up to a memory section) and memremap_pages() of type
 * %MEMORY_DEVICE_PRIVATE creates a &struct page per VRAM page there, owned
 * by the &struct amdx_sim_dev.  The pagemap is the core's &struct
 * amdx_pagemap with the core's ops (amdx_pagemap_ops()): a CPU fault on a
 * page goes straight to the core, and the pagemap's page_free() to
 * amdx_sim_devmem_page_free().  The CPU cannot map those pages; the data
 * of an allocated VRAM page lives in a real system page hung off
 * page->zone_device_data, allocated with the VRAM page and freed with it
 * (the technique of lib/test_hmm.c).
 *
 * ::
 *
 *    VRAM pfn n  <->  device page pfn_to_page(pfn_first + n)
 *                        | zone_device_data
 *                        v
 *                     system page (the "VRAM" contents)
 *
 * Page life cycle: amdx_sim_devmem_get_page() -> zone_device_page_init()
 * (ref 1, locked, pins the pagemap) ... last put_page() -> page_free()
 * -> amdx_sim_devmem_page_free() frees the VRAM pfn.  The system page stays with the VRAM page
 * for its next use (allocating one per migrated page cost a fifth of the
 * migration time) and amdx_sim_devmem_fini() frees them all.
 * memunmap_pages() waits until every device page has been freed; the core
 * guarantees that: amdx_device_unregister() returns only after every page
 * went home (or became a hwpoison entry) and every holder of one (a CPU
 * fault in migrate_to_ram()) let go, so amdx_sim_devmem_page_free(), the
 * provider data and this module outlive every page (the ops are the
 * core's, in amdx.ko, which this module depends on).
 *
 * A VF FLR clears the pages the VF holds (amdx_sim_devmem_wipe()), as
 * GIM clears a VF's framebuffer; debugfs ``vram_data`` reads the contents
 * (amdx_sim_devmem_read()).
 */
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/ioport.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/slab.h>

#include <amdx/amdx_provider.h>
#include <amdx/amdx_vram.h>

#include "amdx_sim.h"

/**
 * struct amdx_sim_devmem - ZONE_DEVICE backing of one device's VRAM
 * @apm: the device-private pagemap (@apm.pgmap.owner is the amdx_sim_dev)
 *	and the core device, set by amdx_sim_devmem_set_device().
 * @res: the physical address range the pages occupy.
 * @sd: the device.
 * @pfn_first: host pfn of VRAM page 0.
 *
 * Constant after amdx_sim_devmem_init() but for @apm.adev; the per-page
 * state is the page's own and the allocator's, under their locks.
 */
struct amdx_sim_devmem {
	struct amdx_pagemap apm;
	struct resource *res;
	struct amdx_sim_dev *sd;
	unsigned long pfn_first;
};

/* &amdx_pagemap.page_free */
static void amdx_sim_devmem_page_free(struct amdx_pagemap *apm,
				      struct page *page)
{
	struct amdx_sim_devmem *dm = container_of(apm, struct amdx_sim_devmem,
						  apm);
	struct amdx_vram *vram = dm->sd->vram;
	u64 pfn = page_to_pfn(page) - dm->pfn_first;

	/*
	 * The system page holding the contents stays with the VRAM page
	 * (zone_device_data) for its next allocation, like the cells of real
	 * VRAM; amdx_sim_devmem_fini() frees them all.
	 */
	amdx_vram_free_page(vram, pfn);
}

/**
 * amdx_sim_devmem_init() - create device-private pages for a device's VRAM
 * @sd: the device; sd->vram exists, sd->dev is named.
 *
 * Return: 0 or -errno; on failure nothing is left behind and sd->devmem
 * stays NULL.
 */
int amdx_sim_devmem_init(struct amdx_sim_dev *sd)
{
	u64 size = amdx_vram_npages(sd->vram) << PAGE_SHIFT;
	struct amdx_sim_devmem *dm;
	void *addr;
	int ret;

	dm = kzalloc(sizeof(*dm), GFP_KERNEL);
	if (!dm)
		return -ENOMEM;
	dm->sd = sd;

	/* the name is kept by the resource; dev_name() outlives it */
	dm->res = request_free_mem_region(&iomem_resource, size,
					  dev_name(&sd->dev));
	if (IS_ERR(dm->res)) {
		ret = PTR_ERR(dm->res);
		dev_err(&sd->dev, "no free physical range for %llu bytes: %pe\n",
			size, dm->res);
		goto err_free_dm;
	}

	dm->apm.pgmap.type = MEMORY_DEVICE_PRIVATE;
	dm->apm.pgmap.range.start = dm->res->start;
	dm->apm.pgmap.range.end = dm->res->end;
	dm->apm.pgmap.nr_range = 1;
	dm->apm.pgmap.ops = amdx_pagemap_ops();
	dm->apm.pgmap.owner = sd;
	dm->apm.page_free = amdx_sim_devmem_page_free;

	addr = amdx_pagemap_map(&dm->apm.pgmap, dev_to_node(&sd->dev));
	if (IS_ERR(addr)) {
		ret = PTR_ERR(addr);
		dev_err(&sd->dev, "memremap_pages failed: %pe\n", addr);
		goto err_release_region;
	}
	dm->pfn_first = PHYS_PFN(dm->res->start);

	sd->devmem = dm;
	return 0;

err_release_region:
	release_mem_region(dm->res->start, resource_size(dm->res));
err_free_dm:
	kfree(dm);
	return ret;
}

/**
 * amdx_sim_devmem_fini() - remove a device's device-private pages
 * @sd: the device; every VRAM page is free.
 *
 * Context: process context; waits for the pagemap's references.
 */
void amdx_sim_devmem_fini(struct amdx_sim_dev *sd)
{
	struct amdx_sim_devmem *dm = sd->devmem;

	u64 pfn, npages = amdx_vram_npages(sd->vram);

	if (!dm)
		return;

	sd->devmem = NULL;
	/* Every page is free: drop the system pages that held contents. */
	for (pfn = 0; pfn < npages; pfn++) {
		struct page *page = pfn_to_page(dm->pfn_first + pfn);

		if (page->zone_device_data)
			__free_page(page->zone_device_data);
		page->zone_device_data = NULL;
		if (!(pfn & 4095))
			cond_resched();
	}
	memunmap_pages(&dm->apm.pgmap);
	release_mem_region(dm->res->start, resource_size(dm->res));
	kfree(dm);
}

/**
 * amdx_sim_devmem_set_device() - tell the pagemap its core device
 * @sd: the device; sd->adev is what amdx_device_register() returned, or
 *	NULL once amdx_device_unregister() returned.
 *
 * The core's migrate_to_ram() finds the device in the pagemap
 * (&amdx_pagemap.adev).  Nothing without device-private memory.
 */
void amdx_sim_devmem_set_device(struct amdx_sim_dev *sd)
{
	if (sd->devmem)
		WRITE_ONCE(sd->devmem->apm.adev, sd->adev);
}

/**
 * amdx_sim_devmem_page() - device-private page of a VRAM page
 * @sd: the device, with device-private memory.
 * @pfn: VRAM page index, below the VRAM size.
 *
 * Return: the &struct page.
 */
struct page *amdx_sim_devmem_page(struct amdx_sim_dev *sd, u64 pfn)
{
	return pfn_to_page(sd->devmem->pfn_first + pfn);
}

/**
 * amdx_sim_devmem_get_page() - make an allocated VRAM page usable
 * @sd: the device, with device-private memory.
 * @pfn: VRAM page just taken from the allocator.
 *
 * Gives the device page a system page for its contents unless it kept one
 * from an earlier use (never zeroed: the core copies into every page it
 * allocates), one reference, and locks it (zone_device_page_init()).
 *
 * Context: process context, may sleep.
 * Return: 0 or -ENOMEM.
 */
int amdx_sim_devmem_get_page(struct amdx_sim_dev *sd, u64 pfn)
{
	struct page *dpage = amdx_sim_devmem_page(sd, pfn);
	struct page *rpage = dpage->zone_device_data;

	/*
	 * A page used before keeps its system page.  Not zeroed either way:
	 * the core writes every byte of a new VRAM page.
	 */
	if (!rpage) {
		rpage = alloc_page(GFP_HIGHUSER);
		if (!rpage)
			return -ENOMEM;
	}

	zone_device_page_init(dpage);
	dpage->zone_device_data = rpage;
	return 0;
}

/**
 * amdx_sim_devmem_put_page() - drop the allocation's reference on a page
 * @sd: the device, with device-private memory.
 * @pfn: VRAM page from amdx_sim_devmem_get_page(), still locked.
 *
 * The last reference frees the VRAM pfn through the pagemap's page_free()
 * callback.
 */
void amdx_sim_devmem_put_page(struct amdx_sim_dev *sd, u64 pfn)
{
	struct page *dpage = amdx_sim_devmem_page(sd, pfn);

	unlock_page(dpage);
	put_page(dpage);
}

/**
 * amdx_sim_devmem_wipe() - clear the VRAM pages an owner holds
 * @sd: the device, with device-private memory.
 * @owner: the allocator's owner, AMDX_OWNER_VF(n) for VF n.
 *
 * What an FLR does to a VF's framebuffer: every page allocated to @owner
 * reads zero afterwards, whoever maps it.  The pages come from the
 * allocator's record of @owner's pages (amdx_vram_owner_next()), so the
 * wipe costs the VF's pages, not the device's VRAM: nothing for a VF
 * holding none (``wipe_visited`` in debugfs counts them).  Each page is
 * referenced and locked while it is cleared, so a migration copying it
 * out (which holds the lock) finishes first and never copies half a
 * cleared page.
 *
 * Context: process context, may sleep.  The caller keeps new allocations
 * for @owner out (the core's VRAM gate).
 * Return: pages cleared.
 */
u64 amdx_sim_devmem_wipe(struct amdx_sim_dev *sd, u32 owner)
{
	u64 pfn, npages = amdx_vram_npages(sd->vram), n = 0, visited = 0;

	for (pfn = amdx_vram_owner_next(sd->vram, owner, 0); pfn < npages;
	     pfn = amdx_vram_owner_next(sd->vram, owner, pfn + 1)) {
		struct page *dpage, *rpage;

		visited++;
		cond_resched();
		dpage = amdx_sim_devmem_page(sd, pfn);
		/* Not handed out yet or freed meanwhile: nothing to clear. */
		if (!get_page_unless_zero(dpage))
			continue;
		lock_page(dpage);
		rpage = READ_ONCE(dpage->zone_device_data);
		/* Freed and given to another owner since it was found? */
		if (rpage && amdx_vram_pfn_owner(sd->vram, pfn) == owner) {
			clear_highpage(rpage);
			n++;
		}
		unlock_page(dpage);
		put_page(dpage);
	}
	WRITE_ONCE(sd->wipe_visited, visited);
	return n;
}

/**
 * amdx_sim_devmem_read() - the contents of one VRAM page
 * @sd: the device, with device-private memory.
 * @pfn: VRAM page index, below the VRAM size.
 * @buf: PAGE_SIZE bytes.
 *
 * A page never used reads zero; a free page reads what it held last, like
 * VRAM cells.  Not synchronised with writers: a page copied meanwhile may
 * read torn.
 */
void amdx_sim_devmem_read(struct amdx_sim_dev *sd, u64 pfn, void *buf)
{
	struct page *rpage;

	/* Set once at the page's first use, freed at devmem_fini only. */
	rpage = READ_ONCE(amdx_sim_devmem_page(sd, pfn)->zone_device_data);
	if (rpage)
		memcpy_from_page(buf, rpage, 0, PAGE_SIZE);
	else
		memset(buf, 0, PAGE_SIZE);
}

/*
 * The HMM provider ops.  The "DMA engine" of the simulator is a CPU copy
 * between the system pages that hold VRAM contents.
 */
static struct page *amdx_sim_backing(struct amdx_sim_dev *sd, struct page *p)
{
	if (!is_device_private_page(p))
		return p;
	if (p->pgmap->owner != sd)
		return NULL;
	return p->zone_device_data;
}

/**
 * amdx_sim_vram_alloc_page() - &amdx_provider_ops.vram_alloc_page
 * @adev: the core's device.
 * @part: memory partition.
 * @owner: %AMDX_OWNER_PF or AMDX_OWNER_VF(n), the allocator's owner.
 *
 * Return: a locked device page with one reference, or ERR_PTR()
 * (-EDQUOT at the owner's VRAM quota).
 */
struct page *amdx_sim_vram_alloc_page(struct amdx_device *adev, u32 part,
				      u32 owner)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	u64 pfn;
	int ret;

	ret = amdx_sim_vram_alloc(sd, part, owner, &pfn);
	if (ret)
		return ERR_PTR(ret);
	return amdx_sim_devmem_page(sd, pfn);
}

/* VRAM pages per allocator round trip of amdx_sim_vram_alloc_pages(). */
#define AMDX_SIM_ALLOC_CHUNK	64

/**
 * amdx_sim_vram_alloc_pages() - &amdx_provider_ops.vram_alloc_pages
 * @adev: the core's device.
 * @part: memory partition.
 * @owner: %AMDX_OWNER_PF or AMDX_OWNER_VF(n), the allocator's owner.
 * @n: pages wanted.
 * @pages: out: locked device pages with one reference each.
 * @got: out: how many.
 *
 * amdx_vram_alloc_bulk() per %AMDX_SIM_ALLOC_CHUNK pages (lowest free
 * first), each page made usable as amdx_sim_vram_alloc_page() does.  While
 * the debugfs knob ``fail_vram_alloc`` is set, page by page through
 * amdx_sim_vram_alloc_page(), so the knob counts pages either way.
 *
 * Context: process context, may sleep.
 * Return: 0 when all @n came, else -ENOSPC, -EDQUOT or -ENOMEM.
 */
int amdx_sim_vram_alloc_pages(struct amdx_device *adev, u32 part, u32 owner,
			      u32 n, struct page **pages, u32 *got)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	u64 pfns[AMDX_SIM_ALLOC_CHUNK];
	u32 k = 0, i, have;
	int ret = 0;

	if (unlikely(atomic_read(&sd->fail_vram_alloc) > 0)) {
		for (; k < n; k++) {
			struct page *page = amdx_sim_vram_alloc_page(adev, part,
								     owner);

			if (IS_ERR(page)) {
				ret = PTR_ERR(page);
				break;
			}
			pages[k] = page;
		}
		*got = k;
		return ret;
	}

	while (k < n && !ret) {
		ret = amdx_vram_alloc_bulk(sd->vram, part, owner,
					   min_t(u32, n - k,
						 AMDX_SIM_ALLOC_CHUNK),
					   pfns, &have);
		for (i = 0; i < have; i++) {
			if (amdx_sim_devmem_get_page(sd, pfns[i])) {
				/* The rest of the chunk goes back unused. */
				for (; i < have; i++)
					amdx_vram_free_page(sd->vram, pfns[i]);
				ret = -ENOMEM;
				break;
			}
			pages[k++] = amdx_sim_devmem_page(sd, pfns[i]);
		}
	}
	*got = k;
	return ret;
}

/**
 * amdx_sim_vram_copy() - &amdx_provider_ops.vram_copy
 * @adev: the core's device.
 * @dst: destination page (system, or a VRAM page of this device).
 * @src: source page (system, or a VRAM page of this device).
 *
 * Return: 0, -EINVAL for another device's page, -EIO when the debugfs
 * knob ``fail_vram_copy`` says so.
 */
int amdx_sim_vram_copy(struct amdx_device *adev, struct page *dst,
		       struct page *src)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	struct page *d = amdx_sim_backing(sd, dst);
	struct page *s = amdx_sim_backing(sd, src);
	u32 delay = amdx_sim_vram_copy_delay_ms(sd);

	if (!d || !s)
		return -EINVAL;
	if (amdx_sim_should_fail_vram_copy(sd))
		return -EIO;
	/* A slow DMA engine (debugfs): the copy reads the source after it. */
	if (delay)
		msleep(delay);
	copy_highpage(d, s);
	return 0;
}

/**
 * amdx_sim_vram_copy_pages() - &amdx_provider_ops.vram_copy_pages
 * @adev: the core's device.
 * @dst: destination pages (system, or VRAM pages of this device).
 * @src: source pages, likewise.
 * @n: pages.
 *
 * amdx_sim_vram_copy() of each pair, the debugfs knobs read once for the
 * batch while neither is set.
 *
 * Return: pages copied before the first that failed (@n when none did).
 */
u32 amdx_sim_vram_copy_pages(struct amdx_device *adev, struct page **dst,
			     struct page **src, u32 n)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);
	struct page *d, *s;
	u32 i;

	if (unlikely(amdx_sim_vram_copy_delay_ms(sd) ||
		     atomic_read(&sd->fail_vram_copy) > 0)) {
		for (i = 0; i < n; i++)
			if (amdx_sim_vram_copy(adev, dst[i], src[i]))
				break;
		return i;
	}
	for (i = 0; i < n; i++) {
		d = amdx_sim_backing(sd, dst[i]);
		s = amdx_sim_backing(sd, src[i]);
		if (!d || !s)
			break;
		copy_highpage(d, s);
	}
	return i;
}

/**
 * amdx_sim_vram_page_index() - &amdx_provider_ops.vram_page_index
 * @adev: the core's device.
 * @page: a VRAM page of the device.
 *
 * Return: its VRAM page index.
 */
u64 amdx_sim_vram_page_index(struct amdx_device *adev, struct page *page)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);

	return page_to_pfn(page) - sd->devmem->pfn_first;
}

/**
 * amdx_sim_vram_index_page() - &amdx_provider_ops.vram_index_page
 * @adev: the core's device.
 * @index: a VRAM page index below the VRAM size.
 *
 * Return: the device page.
 */
struct page *amdx_sim_vram_index_page(struct amdx_device *adev, u64 index)
{
	return amdx_sim_devmem_page(amdx_device_priv(adev), index);
}

/**
 * amdx_sim_vram_used_pages() - &amdx_provider_ops.vram_used_pages
 * @adev: the core's device.
 *
 * Return: VRAM pages allocated.
 */
u64 amdx_sim_vram_used_pages(struct amdx_device *adev)
{
	struct amdx_sim_dev *sd = amdx_device_priv(adev);

	return amdx_vram_used(sd->vram);
}
