// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: simulated VRAM
 *
 * Each simulated device owns an amdx_vram allocator of its VRAM size, one
 * memory partition (NPS1) at creation.  On kernels with
 * CONFIG_DEVICE_PRIVATE every VRAM page also has a device-private
 * &struct page (amdx_sim_devmem.c), and an allocated page carries a real
 * system page holding its data; without it only the allocator exists and
 * amdx_sim_vram_page() returns NULL.
 *
 * ::
 *
 *    amdx_sim_vram_alloc()                 amdx_sim_vram_free()
 *      | fault injection (debugfs)           | HMM: unlock + put_page()
 *      | amdx_vram_alloc()                   |        '-> page_free()
 *      | HMM: back with a system page        |             frees backing page
 *      v      device page locked, ref 1      v             amdx_vram_free()
 *                                            | else: amdx_vram_free()
 */
#include <linux/err.h>
#include <linux/mm.h>

#include <amdx/amdx_vram.h>

#include "amdx_sim.h"

/**
 * amdx_sim_vram_init() - create a device's VRAM
 * @sd: the device; params.vram_mib set.
 *
 * Return: 0 or -errno; on failure nothing is left allocated.
 */
int amdx_sim_vram_init(struct amdx_sim_dev *sd)
{
	int ret;

	sd->vram = amdx_vram_create((u64)sd->params.vram_mib << 20, 1);
	if (IS_ERR(sd->vram)) {
		ret = PTR_ERR(sd->vram);
		sd->vram = NULL;
		return ret;
	}

	ret = amdx_sim_devmem_init(sd);
	if (ret)
		goto err_destroy_vram;
	return 0;

err_destroy_vram:
	amdx_vram_destroy(sd->vram);
	sd->vram = NULL;
	return ret;
}

/**
 * amdx_sim_vram_fini() - free a device's VRAM
 * @sd: the device, unregistered from the core.
 *
 * Every page must have been freed: amdx_device_unregister() returned only
 * once the core had moved every page home.  If some are still allocated
 * (a bug) the VRAM is leaked rather than freed under the pages' feet.
 */
void amdx_sim_vram_fini(struct amdx_sim_dev *sd)
{
	u64 used;

	if (!sd->vram)
		return;

	used = amdx_vram_used(sd->vram);
	if (used) {
		dev_WARN(&sd->dev, "%llu VRAM pages still allocated, leaking VRAM\n",
			 used);
		return;
	}

	amdx_sim_devmem_fini(sd);
	amdx_vram_destroy(sd->vram);
	sd->vram = NULL;
}

/**
 * amdx_sim_vram_has_hmm() - is the VRAM device-private memory?
 * @sd: the device.
 *
 * Return: true when VRAM pages have device-private struct pages.
 */
bool amdx_sim_vram_has_hmm(struct amdx_sim_dev *sd)
{
	return sd->devmem;
}

/**
 * amdx_sim_vram_alloc() - allocate one VRAM page
 * @sd: the device.
 * @part: memory partition.
 * @owner: 0 for the PF, 1.. for VFs.
 * @pfn: out: the VRAM page index.
 *
 * With device-private memory the page's &struct page is returned locked
 * with one reference and a system page behind it (not zeroed), ready to be a
 * migrate_vma destination; amdx_sim_vram_free() drops both.  The debugfs
 * knob ``fail_vram_alloc`` makes this fail with -ENOMEM.
 *
 * Context: process context, may sleep.
 * Return: 0, -ENOMEM, or an error of amdx_vram_alloc().
 */
int amdx_sim_vram_alloc(struct amdx_sim_dev *sd, u32 part, u32 owner,
			u64 *pfn)
{
	int ret;

	if (amdx_sim_should_fail_vram_alloc(sd))
		return -ENOMEM;

	ret = amdx_vram_alloc(sd->vram, part, owner, pfn);
	if (ret)
		return ret;

	if (sd->devmem) {
		ret = amdx_sim_devmem_get_page(sd, *pfn);
		if (ret)
			goto err_free_pfn;
	}
	return 0;

err_free_pfn:
	amdx_vram_free(sd->vram, *pfn, owner);
	return ret;
}

/**
 * amdx_sim_vram_free() - free a VRAM page from amdx_sim_vram_alloc()
 * @sd: the device.
 * @pfn: the page.
 *
 * With device-private memory this drops the allocation's reference; the
 * page returns to the allocator when the last reference goes (it may be
 * mapped into a process after a migration).
 *
 * Context: process context.
 */
void amdx_sim_vram_free(struct amdx_sim_dev *sd, u64 pfn)
{
	int owner;

	if (sd->devmem) {
		amdx_sim_devmem_put_page(sd, pfn);
		return;
	}

	owner = amdx_vram_pfn_owner(sd->vram, pfn);
	if (WARN_ON_ONCE(owner < 0))
		return;
	amdx_vram_free(sd->vram, pfn, owner);
}

/**
 * amdx_sim_vram_page() - device-private page of a VRAM page
 * @sd: the device.
 * @pfn: VRAM page index.
 *
 * Return: the &struct page, NULL without device-private memory or when
 * @pfn is beyond the VRAM.
 */
struct page *amdx_sim_vram_page(struct amdx_sim_dev *sd, u64 pfn)
{
	if (!sd->devmem || pfn >= amdx_vram_npages(sd->vram))
		return NULL;
	return amdx_sim_devmem_page(sd, pfn);
}
