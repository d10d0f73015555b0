/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * HMM migration engine: migrate_vma passes over a process's address space
 * and the buffers and helpers device-page moves share (amdx_hmm_migrate.c).
 */
#ifndef _AMDX_HMM_MIGRATE_H_
#define _AMDX_HMM_MIGRATE_H_

#include <linux/types.h>

struct amdx_device;
struct amdx_hmm_result;
struct mm_struct;
struct page;

/* Pages per migrate_vma call: 16 MiB. */
#define AMDX_HMM_BATCH		4096
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
 * @only_owner: home: only pages the VRAM allocator charges to @owner move
 *	(eviction: one process may hold fds of several tenants, and an
 *	address space holds the pages of all of them).
 * @keep: home, or NULL: VRAM pages for which it returns true stay
 *	(eviction: pages placed at an address their fd pins, wherever they
 *	are mapped); called with @keep_arg and the VRAM page index.
 * @keep_arg: for @keep.
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
	bool only_owner;
	bool (*keep)(const void *arg, u64 index);
	const void *keep_arg;
};

int amdx_bufs_alloc(struct amdx_migrate_bufs *b, unsigned long n);
void amdx_bufs_free(struct amdx_migrate_bufs *b);
void amdx_hold_pages(struct amdx_device *adev, struct page **pages, u32 n,
		     u32 holder);
int amdx_migrate_mm(struct amdx_migrate_req *req, unsigned long start,
		    unsigned long end);

#endif /* _AMDX_HMM_MIGRATE_H_ */
