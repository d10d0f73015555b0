// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: the migration floor
 *
 * amdx_bench.ko is the yardstick ``make bench`` holds amdx's HMM migration
 * against: the least a driver must do to move a process's pages to
 * device-private memory and back with the kernel's migrate_vma API, and
 * nothing more (no ranges, statistics, quotas, events, RAS or eviction).
 * It owns one %MEMORY_DEVICE_PRIVATE pagemap of ``size_mb`` MiB.  Like
 * amdx_sim's VRAM, a device page keeps its contents in a system page hung
 * off page->zone_device_data, allocated at its first use and kept for the
 * next, so the floor and amdx copy the same way.
 *
 * ::
 *
 *   AMDX_BENCH_FLOOR_MIGRATE: per VMA, in batches of ``batch`` pages
 *     migrate_vma_setup()     collect, lock and unmap the sources
 *     alloc                   a free device page (to the device) or
 *                             alloc_page_vma() (home), per page
 *     copy                    one copy_highpage() per page
 *     migrate_vma_pages()     hand the struct page state over
 *     migrate_vma_finalize()  map the destinations, free the sources
 *   CPU fault on a device page: migrate_to_ram() moves the 2 MiB around
 *   the fault (amdx's default granule) home the same way.
 *
 * The ioctl reports the time each phase took, so the benchmark can say
 * where a migration's time goes on each kernel.  Unloading first moves
 * every device page a process still maps home (migrate_device_range()).
 * Only root opens the device; the module is loaded by make bench only.
 */
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/ioport.h>
#include <linux/ktime.h>
#include <linux/memremap.h>
#include <linux/migrate.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "amdx_bench_floor.h"

/* Pages moved home per CPU fault: 2 MiB, amdx's default granule. */
#define AMDX_FLOOR_FAULT_PAGES	512
#define AMDX_FLOOR_MAX_BATCH	65536
#define AMDX_FLOOR_MAX_MB	65536

static unsigned int size_mb = 512;
module_param(size_mb, uint, 0444);
MODULE_PARM_DESC(size_mb, "device-private memory in MiB (default 512)");

static unsigned int batch = 4096;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "pages per migrate_vma call (default 4096, amdx's)");

/**
 * struct amdx_floor - the floor's device memory
 * @pgmap: the device-private pagemap; @pgmap.owner is this struct.
 * @res: the physical range the device pages occupy.
 * @pfn_first: pfn of device page 0.
 * @npages: device pages.
 * @lock: protects @free and @nfree.
 * @free: stack of free device page indexes.
 * @nfree: entries on @free.
 * @evict: 2 * @batch pfns for the eviction at unload, which cannot fail.
 * @misc: /dev/amdx_bench_floor.
 */
struct amdx_floor {
	struct dev_pagemap pgmap;
	struct resource *res;
	unsigned long pfn_first;
	unsigned long npages;
	spinlock_t lock;	/* @free, @nfree */
	u32 *free;
	unsigned long nfree;
	unsigned long *evict;
	struct miscdevice misc;
};

static struct amdx_floor floor;

static void amdx_floor_push(unsigned long index)
{
	spin_lock(&floor.lock);
	floor.free[floor.nfree++] = index;
	spin_unlock(&floor.lock);
}

/* A free device page, locked, one reference; NULL when none is left. */
static struct page *amdx_floor_dev_alloc(void)
{
	unsigned long index;
	struct page *page;

	spin_lock(&floor.lock);
	if (!floor.nfree) {
		spin_unlock(&floor.lock);
		return NULL;
	}
	index = floor.free[--floor.nfree];
	spin_unlock(&floor.lock);

	page = pfn_to_page(floor.pfn_first + index);
	if (!page->zone_device_data) {
		/* Its contents; never zeroed: every byte gets copied. */
		page->zone_device_data = alloc_page(GFP_HIGHUSER);
		if (!page->zone_device_data) {
			amdx_floor_push(index);
			return NULL;
		}
	}
	zone_device_page_init(page);
	return page;
}

static void amdx_floor_page_free(struct page *page)
{
	/* The contents page stays with the device page. */
	amdx_floor_push(page_to_pfn(page) - floor.pfn_first);
}

/*
 * A destination page for each entry migrate_vma_setup() selected (dst 0
 * for the others and where none could be had).
 */
static void amdx_floor_alloc(struct migrate_vma *args, bool to_dev)
{
	unsigned long i, addr = args->start;

	for (i = 0; i < args->npages; i++, addr += PAGE_SIZE) {
		struct page *dpage;

		args->dst[i] = 0;
		if (!(args->src[i] & MIGRATE_PFN_MIGRATE))
			continue;
		if (to_dev) {
			dpage = amdx_floor_dev_alloc();
		} else {
			dpage = alloc_page_vma(GFP_HIGHUSER_MOVABLE, args->vma,
					       addr);
			if (dpage)
				lock_page(dpage);
		}
		if (dpage)
			args->dst[i] = migrate_pfn(page_to_pfn(dpage));
	}
}

/* One page copy per destination. */
static void amdx_floor_copy(struct migrate_vma *args, bool to_dev)
{
	unsigned long i;

	for (i = 0; i < args->npages; i++) {
		struct page *dpage = migrate_pfn_to_page(args->dst[i]);
		struct page *spage = migrate_pfn_to_page(args->src[i]);

		if (!dpage)
			continue;
		if (!to_dev)
			copy_highpage(dpage, spage->zone_device_data);
		else if (spage)
			copy_highpage(dpage->zone_device_data, spage);
		else	/* never touched: reads as zeroes */
			clear_highpage(dpage->zone_device_data);
	}
}

/* One migrate_vma pass over [start, end) of @vma; adds to @m. */
static int amdx_floor_batch(struct vm_area_struct *vma, unsigned long start,
			    unsigned long end, bool to_dev, unsigned long *pfns,
			    struct amdx_bench_floor_migrate *m)
{
	struct migrate_vma args = {
		.vma = vma,
		.start = start,
		.end = end,
		.src = pfns,
		.dst = pfns + batch,
		.pgmap_owner = &floor,
		.flags = to_dev ? MIGRATE_VMA_SELECT_SYSTEM :
				  MIGRATE_VMA_SELECT_DEVICE_PRIVATE,
	};
	u64 t[AMDX_BENCH_FLOOR_NPHASES + 1];
	unsigned long i;
	int ret;

	t[0] = ktime_get_ns();
	ret = migrate_vma_setup(&args);
	if (ret) {
		pr_warn_ratelimited("amdx_bench: migrate_vma_setup() refused [%#lx, %#lx): %pe\n",
				    start, end, ERR_PTR(ret));
		return ret;
	}
	t[1] = ktime_get_ns();
	amdx_floor_alloc(&args, to_dev);
	t[2] = ktime_get_ns();
	amdx_floor_copy(&args, to_dev);
	t[3] = ktime_get_ns();
	migrate_vma_pages(&args);
	t[4] = ktime_get_ns();
	migrate_vma_finalize(&args);
	t[5] = ktime_get_ns();

	/* finalize keeps src's MIGRATE bits: set where the page moved. */
	for (i = 0; i < args.npages; i++)
		m->moved += !!(args.src[i] & MIGRATE_PFN_MIGRATE);
	for (i = 0; i < AMDX_BENCH_FLOOR_NPHASES; i++)
		m->ns[i] += t[i + 1] - t[i];
	return 0;
}

static int amdx_floor_migrate(struct amdx_bench_floor_migrate *m)
{
	bool to_dev = m->flags & AMDX_BENCH_FLOOR_TO_DEV;
	struct mm_struct *mm = current->mm;
	unsigned long addr, next, end, *pfns;
	int ret = 0;

	if (m->flags & ~AMDX_BENCH_FLOOR_TO_DEV || m->pad) {
		pr_warn_ratelimited("amdx_bench: unknown flags %#x or non-zero pad\n",
				    m->flags);
		return -EINVAL;
	}
	if (!m->size || !PAGE_ALIGNED(m->start) || !PAGE_ALIGNED(m->size) ||
	    m->start >= TASK_SIZE || m->size > TASK_SIZE - m->start) {
		pr_warn_ratelimited("amdx_bench: bad range %#llx + %#llx\n",
				    m->start, m->size);
		return -EINVAL;
	}
	if (!mm)
		return -EINVAL;
	m->moved = 0;
	memset(m->ns, 0, sizeof(m->ns));

	pfns = kvmalloc_array(2 * batch, sizeof(*pfns), GFP_KERNEL);
	if (!pfns)
		return -ENOMEM;
	mmap_read_lock(mm);
	for (addr = m->start, end = m->start + m->size; addr < end;
	     addr = next) {
		struct vm_area_struct *vma = vma_lookup(mm, addr);

		if (!vma) {
			pr_warn_ratelimited("amdx_bench: nothing mapped at %#lx\n",
					    addr);
			ret = -EFAULT;
			break;
		}
		next = min3(end, vma->vm_end,
			    addr + ((unsigned long)batch << PAGE_SHIFT));
		ret = amdx_floor_batch(vma, addr, next, to_dev, pfns, m);
		if (ret)
			break;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	mmap_read_unlock(mm);
	kvfree(pfns);
	return ret;
}

static long amdx_floor_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	void __user *uarg = (void __user *)arg;
	struct amdx_bench_floor_migrate m;
	int ret;

	if (cmd != AMDX_BENCH_FLOOR_MIGRATE)
		return -ENOTTY;
	if (copy_from_user(&m, uarg, sizeof(m)))
		return -EFAULT;
	ret = amdx_floor_migrate(&m);
	if (ret)
		return ret;
	return copy_to_user(uarg, &m, sizeof(m)) ? -EFAULT : 0;
}

static vm_fault_t amdx_floor_migrate_to_ram(struct vm_fault *vmf)
{
	const unsigned long gran = AMDX_FLOOR_FAULT_PAGES << PAGE_SHIFT;
	unsigned long start = ALIGN_DOWN(vmf->address, gran);
	struct vm_area_struct *vma = vmf->vma;
	struct migrate_vma args = {
		.vma = vma,
		.start = max(start, vma->vm_start),
		.end = min(start + gran, vma->vm_end),
		.pgmap_owner = &floor,
		.flags = MIGRATE_VMA_SELECT_DEVICE_PRIVATE,
		.fault_page = vmf->page,
	};
	unsigned long *pfns, i;
	vm_fault_t ret = 0;

	pfns = kmalloc_array(2 * AMDX_FLOOR_FAULT_PAGES, sizeof(*pfns),
			     GFP_KERNEL);
	if (!pfns)
		return VM_FAULT_OOM;
	args.src = pfns;
	args.dst = pfns + AMDX_FLOOR_FAULT_PAGES;
	if (migrate_vma_setup(&args)) {
		ret = VM_FAULT_SIGBUS;
		goto out;
	}
	amdx_floor_alloc(&args, false);
	/* No page for the faulting one: the fault cannot be resolved. */
	i = ((vmf->address & PAGE_MASK) - args.start) >> PAGE_SHIFT;
	if ((args.src[i] & MIGRATE_PFN_MIGRATE) && !args.dst[i])
		ret = VM_FAULT_OOM;
	amdx_floor_copy(&args, false);
	migrate_vma_pages(&args);
	migrate_vma_finalize(&args);
out:
	kfree(pfns);
	return ret;
}

static const struct dev_pagemap_ops amdx_floor_pgmap_ops = {
	.page_free = amdx_floor_page_free,
	.migrate_to_ram = amdx_floor_migrate_to_ram,
};

static const struct file_operations amdx_floor_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = amdx_floor_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

/* Device pages that are not free. */
static unsigned long amdx_floor_used(void)
{
	unsigned long i, n = 0;

	for (i = 0; i < floor.npages; i++)
		n += !!page_count(pfn_to_page(floor.pfn_first + i));
	return n;
}

/*
 * Move every device page home, wherever it is mapped; a page that is busy
 * (a CPU fault moving it) is retried until it is free.
 */
static void amdx_floor_evict_all(void)
{
	unsigned long *src = floor.evict, *dst = floor.evict + batch;
	unsigned long first, n, i;

	while (amdx_floor_used()) {
		for (first = 0; first < floor.npages; first += n) {
			n = min_t(unsigned long, batch, floor.npages - first);
			if (migrate_device_range(src, floor.pfn_first + first, n))
				continue;
			for (i = 0; i < n; i++) {
				struct page *spage = migrate_pfn_to_page(src[i]);
				struct page *dpage;

				dst[i] = 0;
				if (!spage || !(src[i] & MIGRATE_PFN_MIGRATE))
					continue;
				dpage = alloc_page(GFP_HIGHUSER_MOVABLE |
						   __GFP_NOFAIL);
				lock_page(dpage);
				copy_highpage(dpage, spage->zone_device_data);
				dst[i] = migrate_pfn(page_to_pfn(dpage));
			}
			migrate_device_pages(src, dst, n);
			migrate_device_finalize(src, dst, n);
			cond_resched();
		}
		if (amdx_floor_used())
			msleep(20);
	}
}

static void amdx_floor_free_contents(void)
{
	unsigned long i;

	for (i = 0; i < floor.npages; i++) {
		struct page *page = pfn_to_page(floor.pfn_first + i);

		if (page->zone_device_data)
			__free_page(page->zone_device_data);
		page->zone_device_data = NULL;
		if (!(i & 4095))
			cond_resched();
	}
}

static int __init amdx_floor_init(void)
{
	u64 size = (u64)size_mb << 20;
	unsigned long i;
	void *addr;
	int ret;

	if (!batch || batch > AMDX_FLOOR_MAX_BATCH || !size_mb ||
	    size_mb > AMDX_FLOOR_MAX_MB) {
		pr_err("amdx_bench: batch 1..%u and size_mb 1..%u\n",
		       AMDX_FLOOR_MAX_BATCH, AMDX_FLOOR_MAX_MB);
		return -EINVAL;
	}
	spin_lock_init(&floor.lock);
	floor.npages = size >> PAGE_SHIFT;
	floor.free = kvmalloc_array(floor.npages, sizeof(*floor.free),
				    GFP_KERNEL);
	floor.evict = kvmalloc_array(2 * batch, sizeof(*floor.evict),
				     GFP_KERNEL);
	if (!floor.free || !floor.evict) {
		ret = -ENOMEM;
		goto err_free;
	}
	/* Popped lowest index first. */
	for (i = 0; i < floor.npages; i++)
		floor.free[i] = floor.npages - 1 - i;
	floor.nfree = floor.npages;

	floor.res = request_free_mem_region(&iomem_resource, size,
					    "amdx_bench_floor");
	if (IS_ERR(floor.res)) {
		ret = PTR_ERR(floor.res);
		pr_err("amdx_bench: no free physical range of %u MiB: %pe\n",
		       size_mb, floor.res);
		goto err_free;
	}
	floor.pgmap.type = MEMORY_DEVICE_PRIVATE;
	floor.pgmap.range.start = floor.res->start;
	floor.pgmap.range.end = floor.res->end;
	floor.pgmap.nr_range = 1;
	floor.pgmap.ops = &amdx_floor_pgmap_ops;
	floor.pgmap.owner = &floor;
	addr = memremap_pages(&floor.pgmap, NUMA_NO_NODE);
	if (IS_ERR(addr)) {
		ret = PTR_ERR(addr);
		pr_err("amdx_bench: memremap_pages: %pe\n", addr);
		goto err_release;
	}
	floor.pfn_first = PHYS_PFN(floor.res->start);

	floor.misc.minor = MISC_DYNAMIC_MINOR;
	floor.misc.name = "amdx_bench_floor";
	floor.misc.mode = 0600;
	floor.misc.fops = &amdx_floor_fops;
	ret = misc_register(&floor.misc);
	if (ret) {
		pr_err("amdx_bench: misc_register: %pe\n", ERR_PTR(ret));
		goto err_unmap;
	}
	pr_info("amdx_bench: migration floor, %u MiB device-private, batch %u\n",
		size_mb, batch);
	return 0;

err_unmap:
	memunmap_pages(&floor.pgmap);
err_release:
	release_mem_region(floor.res->start, resource_size(floor.res));
err_free:
	kvfree(floor.evict);
	kvfree(floor.free);
	return ret;
}

static void __exit amdx_floor_exit(void)
{
	misc_deregister(&floor.misc);
	amdx_floor_evict_all();
	/* Every device page is free: their struct pages go with the map. */
	amdx_floor_free_contents();
	memunmap_pages(&floor.pgmap);
	release_mem_region(floor.res->start, resource_size(floor.res));
	kvfree(floor.evict);
	kvfree(floor.free);
}

module_init(amdx_floor_init);
module_exit(amdx_floor_exit);
MODULE_DESCRIPTION("amdx benchmark: the kernel's HMM migration floor");
MODULE_AUTHOR("The amdx authors");
MODULE_LICENSE("GPL");
