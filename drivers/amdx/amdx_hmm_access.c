// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM contexts and ioctls
 *
 * Each device fd of a device with device-private VRAM has an HMM context
 * bound to the address space of the process that opened it: attribute
 * ranges (amdx_hmm_range.c), counters, and an mmu_interval_notifier over
 * the whole address space that serves as the device's mirror (the
 * technique of lib/test_hmm.c).
 *
 * ::
 *
 *   process          device fd (ctx)              kernel mm
 *     | SET_ATTR  --> validate VMAs, split/merge ranges
 *     | MIGRATE   --> amdx_hmm_migrate_range() --> migrate_vma_*()
 *     | ACCESS    --> hmm_range_fault() under the notifier sequence,
 *     |               copy under mirror_lock <-- invalidate() bumps seq
 *     | touch     ----------------------------> do_swap_page()
 *     |                                          -> migrate_to_ram()
 *     | close     --> data home, notifier removed
 *
 * Lock order: device lock (read, ioctls) -> mmap_lock -> hmm.lock ->
 * ctx->lock; mirror_lock nests inside mmap_lock and is taken by the
 * notifier.  No context lock is held across migrate_vma or
 * hmm_range_fault.  SET_ATTR looks up the registry (its xarray lock)
 * under hmm.lock.
 *
 * The access attribute names devices by id, and ids come back after their
 * device is gone.  SET_ATTR checks the named devices exist under hmm.lock;
 * removal of a device, before it frees the id, takes every device's
 * hmm.lock in turn and clears the id from every range
 * (amdx_hmm_forget_devices()), so no bit outlives its device::
 *
 *   SET_ATTR on A naming B               unregister B
 *     hmm.lock(A)                          B's id reserved: lookups fail
 *       B registered? (registry)           ...
 *       ranges: access |= B                hmm.lock(A) (waits for SET_ATTR)
 *     unlock                                 ranges: access &= ~B
 *                                          unlock; ... ; B's id freed
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/delay.h>
#include <linux/hmm.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/swapops.h>
#include <linux/uaccess.h>

#include <amdx/amdx_vram.h>

#include "amdx_core.h"
#include "amdx_hmm.h"
#include "amdx_partition_gate.h"
#include "amdx_query_size.h"
#include "amdx_ras_poison.h"

/*
 * Bytes of a range MIGRATE and close move per step: 1 GiB, 64 migration
 * batches.  Between steps they drop the mmap lock, reschedule and stop on
 * a fatal signal, however large and sparse the range.
 */
#define AMDX_HMM_MIGRATE_STEP	BIT_ULL(30)
/* Entries of %AMDX_QUERY_HMM_RANGES gathered per hold of ctx->lock. */
#define AMDX_HMM_QUERY_CHUNK	32

/* Largest span one ACCESS call handles. */
#define AMDX_HMM_ACCESS_MAX	(64ULL << 20)
/* Pages per hmm_range_fault() call of ACCESS. */
#define AMDX_HMM_ACCESS_CHUNK	512

/**
 * amdx_hmm_supported() - whether this build supports HMM migration
 *
 * Return: true (this file is built only with CONFIG_DEVICE_PRIVATE).
 */
bool amdx_hmm_supported(void)
{
	return true;
}

static void amdx_hmm_ctx_release(struct kref *ref)
{
	struct amdx_hmm_ctx *ctx = container_of(ref, struct amdx_hmm_ctx, ref);

	amdx_range_set_fini(&ctx->ranges);
	put_pid(ctx->who.pid);
	mmdrop(ctx->mm);
	kfree(ctx);
}

/**
 * amdx_hmm_ctx_put() - drop a reference on a context
 * @ctx: the context.
 */
void amdx_hmm_ctx_put(struct amdx_hmm_ctx *ctx)
{
	kref_put(&ctx->ref, amdx_hmm_ctx_release);
}

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
 * @adev: the device.
 * @mm: the address space; its mmap lock held.
 * @addr: first byte.
 * @end: one past the last byte.
 *
 * Costs the populated page tables of the span, not the span (see
 * amdx_hmm_walk()).
 *
 * Return: the device-private pages of @adev mapped in [@addr, @end).
 */
u64 amdx_hmm_count_local(struct amdx_device *adev, struct mm_struct *mm,
			 unsigned long addr, unsigned long end)
{
	struct amdx_hmm_pte_walk w = { .count = adev->desc.pgmap_owner };

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
 * @adev: the device.
 * @mm: the address space; its mmap lock held.
 * @addr: the address.
 *
 * Return: true when the PTE holds a device-private page of @adev.
 */
bool amdx_hmm_is_local(struct amdx_device *adev, struct mm_struct *mm,
		       unsigned long addr)
{
	return amdx_hmm_pte_device_owner(mm, addr, NULL) ==
	       adev->desc.pgmap_owner;
}

/*
 * An unmap of [@start, @end) takes the device pages there away: count
 * them out of the ranges holding them, walking only ranges that count
 * pages in VRAM.  Nothing is held across the walk but the unmapper's
 * mmap lock.
 */
static void amdx_hmm_unmap_account(struct amdx_hmm_ctx *ctx, u64 start,
				   u64 end)
{
	struct amdx_range *r;
	u64 from = start, s = 0, e = 0, n;
	bool found;

	while (from < end) {
		found = false;
		spin_lock(&ctx->lock);
		r = amdx_range_next(&ctx->ranges, from);
		if (r) {
			list_for_each_entry_from(r, &ctx->ranges.ranges, node) {
				if (r->start >= end)
					break;
				if (!r->resident)
					continue;
				s = max(r->start, from);
				e = min(r->end, end);
				found = true;
				break;
			}
		}
		spin_unlock(&ctx->lock);
		if (!found)
			return;
		n = amdx_hmm_count_local(ctx->adev, ctx->mm, s, e);
		spin_lock(&ctx->lock);
		r = amdx_range_find(&ctx->ranges, s);
		if (r)
			amdx_range_account_out(r, n);
		spin_unlock(&ctx->lock);
		from = e;
	}
}

static bool amdx_hmm_invalidate(struct mmu_interval_notifier *mni,
				const struct mmu_notifier_range *range,
				unsigned long cur_seq)
{
	struct amdx_hmm_ctx *ctx = container_of(mni, struct amdx_hmm_ctx,
						notifier);
	bool blockable = mmu_notifier_range_blockable(range);

	if (blockable)
		mutex_lock(&ctx->mirror_lock);
	else if (!mutex_trylock(&ctx->mirror_lock))
		return false;
	mmu_interval_set_seq(mni, cur_seq);
	mutex_unlock(&ctx->mirror_lock);

	if (range->event == MMU_NOTIFY_UNMAP) {
		/* The unmapper holds the mmap lock; the OOM reaper cannot wait. */
		if (blockable && range->mm == ctx->mm)
			amdx_hmm_unmap_account(ctx, range->start, range->end);
		spin_lock(&ctx->lock);
		amdx_range_clip(&ctx->ranges, range->start, range->end);
		spin_unlock(&ctx->lock);
	}
	return true;
}

static const struct mmu_interval_notifier_ops amdx_hmm_notifier_ops = {
	.invalidate = amdx_hmm_invalidate,
};

/**
 * amdx_hmm_file_open() - create the HMM context of a new device fd
 * @file: the device fd's file; file->adev is set.
 *
 * Devices without device-private VRAM get no context.
 *
 * Return: 0 or -errno.
 */
int amdx_hmm_file_open(struct amdx_file *file)
{
	struct amdx_device *adev = file->adev;
	struct amdx_hmm_ctx *ctx;
	int ret;

	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM) || !current->mm)
		return 0;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return -ENOMEM;
	kref_init(&ctx->ref);
	ctx->adev = adev;
	ctx->tgid = task_tgid_nr(current);
	ctx->who.pid = get_task_pid(current, PIDTYPE_TGID);
	ctx->who.euid = current_euid();
	get_task_comm(ctx->comm, current);
	ctx->owner = file->owner;
	spin_lock_init(&ctx->lock);
	mutex_init(&ctx->mirror_lock);
	amdx_range_set_init(&ctx->ranges);
	mmgrab(current->mm);
	ctx->mm = current->mm;

	/* The allocator is the provider's: only while the device lives. */
	down_read(&adev->lock);
	ret = adev->dead ? -ENODEV :
	      amdx_vram_holder_new(adev->desc.vram, &ctx->holder);
	up_read(&adev->lock);
	if (ret) {
		if (ret == -EMFILE)
			pr_debug_ratelimited("amdx: %s: all %u HMM holder ids in use\n",
					     adev->bdf, AMDX_VRAM_MAX_HOLDERS);
		goto err_put;
	}

	ret = mmu_interval_notifier_insert(&ctx->notifier, ctx->mm, 0,
					   ULONG_MAX & PAGE_MASK,
					   &amdx_hmm_notifier_ops);
	if (ret)
		goto err_holder;

	mutex_lock(&adev->hmm.lock);
	list_add_tail(&ctx->dev_node, &adev->hmm.ctxs);
	mutex_unlock(&adev->hmm.lock);
	file->hmm = ctx;
	return 0;

err_holder:
	down_read(&adev->lock);
	if (!adev->dead)
		amdx_vram_holder_put(adev->desc.vram, ctx->holder);
	up_read(&adev->lock);
err_put:
	amdx_hmm_ctx_put(ctx);
	return ret;
}

/* One step of MIGRATE or close: part of one range, with its destination. */
struct amdx_hmm_span {
	u64 start;
	u64 end;
	u32 dest;
};

/*
 * The next step at or after @from inside [@from, @end): the first range
 * reaching past @from, clipped to the interval and to
 * %AMDX_HMM_MIGRATE_STEP.  @dest %AMDX_HMM_LOC_PREFERRED takes the range's
 * preferred location (system memory when that is not one of @nparts
 * partitions).  Returns false when no range is left.
 */
static bool amdx_hmm_next_span(struct amdx_hmm_ctx *ctx, u64 from, u64 end,
			       u32 dest, u32 nparts, struct amdx_hmm_span *sp)
{
	struct amdx_range *r;
	bool found = false;

	if (from >= end)
		return false;
	spin_lock(&ctx->lock);
	list_for_each_entry(r, &ctx->ranges.ranges, node) {
		if (r->end <= from)
			continue;
		if (r->start >= end)
			break;
		sp->start = max(r->start, from);
		sp->end = min3(r->end, end, sp->start + AMDX_HMM_MIGRATE_STEP);
		sp->dest = dest == AMDX_HMM_LOC_PREFERRED ?
			   r->attr.preferred_loc : dest;
		if (sp->dest != AMDX_HMM_LOC_SYSTEM && sp->dest >= nparts)
			sp->dest = AMDX_HMM_LOC_SYSTEM;
		found = true;
		break;
	}
	spin_unlock(&ctx->lock);
	return found;
}

/**
 * amdx_hmm_file_release() - tear down the HMM context of a device fd
 * @file: the closing device fd.
 *
 * Moves the context's data home, then removes the notifier: range by
 * range what the ranges count in VRAM (while the address space lives),
 * then by VRAM index every other page the fd holds, wherever it is
 * mapped: an address ``mremap()`` moved it to, a ``fork()`` child
 * (amdx_hmm_home_holder()).  A fatal signal stops the moves; what is left
 * passes to holder nobody and comes home on a CPU fault, by eviction, or
 * when the device goes.
 */
void amdx_hmm_file_release(struct amdx_file *file)
{
	struct amdx_hmm_ctx *ctx = file->hmm;

	if (!ctx)
		return;
	mutex_lock(&ctx->adev->hmm.lock);
	list_del(&ctx->dev_node);
	mutex_unlock(&ctx->adev->hmm.lock);

	/* Like an ioctl: the provider must stay while pages move. */
	down_read(&ctx->adev->lock);
	if (!ctx->adev->dead && mmget_not_zero(ctx->mm)) {
		struct amdx_hmm_span sp;
		u64 from = 0;
		bool any;

		spin_lock(&ctx->lock);
		any = amdx_range_set_resident(&ctx->ranges, NULL);
		spin_unlock(&ctx->lock);
		while (any && !fatal_signal_pending(current) &&
		       amdx_hmm_next_span(ctx, from, U64_MAX,
					  AMDX_HMM_LOC_SYSTEM, 0, &sp)) {
			struct amdx_hmm_result res = {};

			amdx_hmm_migrate_range(ctx, sp.start, sp.end,
					       AMDX_HMM_LOC_SYSTEM, &res);
			from = sp.end;
			cond_resched();
		}
		mmput(ctx->mm);
	}
	if (!ctx->adev->dead) {
		/* What the ranges do not see, found by page. */
		amdx_hmm_home_holder(ctx->adev, ctx->holder);
		amdx_vram_holder_put(ctx->adev->desc.vram, ctx->holder);
	}
	up_read(&ctx->adev->lock);
	mmu_interval_notifier_remove(&ctx->notifier);
	file->hmm = NULL;
	amdx_hmm_ctx_put(ctx);
}

static int amdx_hmm_ctx_check(struct amdx_file *file)
{
	if (!file->hmm)
		return -EOPNOTSUPP;
	if (current->mm != file->hmm->mm)
		return -EBADF;
	return 0;
}

static int amdx_hmm_num_partitions(struct amdx_device *adev, u32 *n)
{
	struct amdx_device_state st = {};
	int ret;

	ret = adev->ops->get_state(adev, &st);
	*n = st.num_mem_partitions;
	return ret;
}

static int amdx_hmm_span_check(u64 start, u64 size)
{
	u64 end;

	if (!size || !PAGE_ALIGNED(start) || !PAGE_ALIGNED(size))
		return -EINVAL;
	if (check_add_overflow(start, size, &end) || end > TASK_SIZE)
		return -EINVAL;
	return 0;
}

/* Every byte mapped, private, accessible, migratable. */
static int amdx_hmm_vmas_check(struct mm_struct *mm, u64 start, u64 end)
{
	u64 addr = start;

	while (addr < end) {
		struct vm_area_struct *vma = vma_lookup(mm, addr);

		if (!vma)
			return -EFAULT;
		if (!(vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC)))
			return -EACCES;
		if (vma->vm_flags & (VM_SHARED | VM_IO | VM_PFNMAP |
				     VM_MIXEDMAP | VM_HUGETLB))
			return -EINVAL;
		addr = vma->vm_end;
	}
	return 0;
}

/* A field SET_ATTR does not apply must be zero. */
static int amdx_hmm_attr_unnamed(const struct amdx_device *adev,
				 const struct amdx_hmm_attr *args)
{
	static const char * const names[] = {
		"preferred_loc", "granularity", "flags", "access",
	};
	const u64 vals[] = {
		args->preferred_loc, args->granularity, args->flags,
		args->access,
	};
	u32 i;

	static_assert(ARRAY_SIZE(names) == ilog2(AMDX_HMM_ATTR_ALL + 1));
	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		if (vals[i] && !(args->valid & BIT(i))) {
			pr_debug("amdx%u: hmm set_attr: %s is %#llx but valid does not name it\n",
				 adev->id, names[i], vals[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Pin quota: one owner (a uid for the PF's fds, the VF for a VF's) may pin
 * at most half of one memory partition, so nobody locks a whole partition
 * away from the others; all pins together at most 3/4 of the VRAM.  A
 * pinned range counts whole against both: it may move into any partition
 * of the device.
 */
static bool amdx_hmm_same_owner(const struct amdx_hmm_ctx *a,
				const struct amdx_hmm_ctx *b)
{
	if (a->owner != b->owner)
		return false;
	return a->owner != AMDX_OWNER_PF || uid_eq(a->who.euid, b->who.euid);
}

static int amdx_hmm_pin_check(struct amdx_device *adev, u32 nparts,
			      u64 all, u64 mine)
{
	u64 part = div_u64(adev->desc.vram_size, max(nparts, 1U));

	if (mine > part / 2) {
		pr_debug("amdx%u: hmm set_attr: pinning %llu bytes exceeds the owner's half of a %llu-byte memory partition\n",
			 adev->id, mine, part);
		return -EDQUOT;
	}
	if (all > adev->desc.vram_size / 4 * 3) {
		pr_debug("amdx%u: hmm set_attr: pinning %llu bytes exceeds 3/4 of the VRAM\n",
			 adev->id, all);
		return -EDQUOT;
	}
	return 0;
}

/**
 * amdx_ioctl_hmm_set_attr() - %AMDX_IOC_HMM_SET_ATTR
 * @file: a device fd.
 * @data: &struct amdx_hmm_attr.
 *
 * Return: 0; -EINVAL for bad alignment, size, overflow, unknown bits,
 * reserved fields, a non-zero field @valid does not name, granularity,
 * partition, access bits naming no device or shared/special mappings;
 * -EFAULT for unmapped memory; -EACCES for PROT_NONE; -EDQUOT when the
 * pins of the fd's owner would exceed half a memory partition or all pins
 * 3/4 of the device's VRAM; -ENOSPC when the fd would hold more than
 * %AMDX_HMM_RANGES_MAX ranges; -EOPNOTSUPP without HMM; -EBADF from
 * another address space; -ENOMEM.
 */
int amdx_ioctl_hmm_set_attr(struct amdx_file *file, void *data)
{
	struct amdx_hmm_attr *args = data;
	struct amdx_hmm_ctx *ctx = file->hmm;
	struct amdx_device *adev = file->adev;
	struct amdx_range_attr attr = {};
	u64 pinned = 0, mine = 0, span, end = args->start + args->size;
	u32 nparts, have = 0, need;
	LIST_HEAD(pool);
	bool pin;
	int ret;

	ret = amdx_hmm_ctx_check(file);
	if (ret)
		return ret;
	if (args->reserved[0] || args->reserved[1] ||
	    (args->valid & ~AMDX_HMM_ATTR_ALL) || !args->valid)
		return -EINVAL;
	ret = amdx_hmm_attr_unnamed(adev, args);
	if (ret)
		return ret;
	ret = amdx_hmm_span_check(args->start, args->size);
	if (ret)
		return ret;
	if ((args->valid & AMDX_HMM_ATTR_FLAGS) &&
	    (args->flags & ~AMDX_HMM_F_PIN))
		return -EINVAL;
	if ((args->valid & AMDX_HMM_ATTR_GRANULARITY) &&
	    args->granularity > AMDX_HMM_GRANULARITY_MAX)
		return -EINVAL;
	ret = amdx_hmm_num_partitions(adev, &nparts);
	if (ret)
		return ret;
	if ((args->valid & AMDX_HMM_ATTR_PREFERRED_LOC) &&
	    args->preferred_loc != AMDX_HMM_LOC_SYSTEM &&
	    args->preferred_loc >= nparts)
		return -EINVAL;
	attr.preferred_loc = args->preferred_loc;
	attr.granularity = args->granularity;
	attr.flags = args->flags;
	attr.access = args->access;

	mmap_read_lock(ctx->mm);
	ret = amdx_hmm_vmas_check(ctx->mm, args->start,
				  args->start + args->size);
	if (ret)
		goto out_unlock_mm;
	pin = (args->valid & AMDX_HMM_ATTR_FLAGS) &&
	      (args->flags & AMDX_HMM_F_PIN);
	mutex_lock(&adev->hmm.lock);
	/* Under hmm.lock: see "access" in the DOC block above. */
	if (args->valid & AMDX_HMM_ATTR_ACCESS) {
		u64 unknown = args->access & ~amdx_device_id_mask();

		if (unknown) {
			pr_debug("amdx%u: hmm set_attr: access bit %u names no device\n",
				 adev->id, (unsigned int)__ffs64(unknown));
			ret = -EINVAL;
			goto out_unlock_hmm;
		}
	}
	if (pin) {
		struct amdx_hmm_ctx *c;

		/* Other fds' pins; the list is stable under hmm.lock. */
		list_for_each_entry(c, &adev->hmm.ctxs, dev_node) {
			u64 b;

			if (c == ctx)
				continue;
			spin_lock(&c->lock);
			b = amdx_range_pinned_bytes(&c->ranges);
			spin_unlock(&c->lock);
			pinned += b;
			if (amdx_hmm_same_owner(c, ctx))
				mine += b;
		}
	}
	/*
	 * The nodes the change needs, allocated without the spinlock (the
	 * notifier may shrink the set meanwhile: count again under it).
	 */
	for (;;) {
		spin_lock(&ctx->lock);
		need = amdx_range_nodes_needed(&ctx->ranges, args->start, end);
		if (need <= have || need > AMDX_HMM_RANGES_MAX)
			break;
		spin_unlock(&ctx->lock);
		ret = amdx_range_pool_fill(&pool, &have, need);
		if (ret)
			goto out_unlock_hmm;
	}
	if (pin) {
		/* Bytes of the span pinned already are not pinned twice. */
		span = amdx_range_pinned_bytes(&ctx->ranges) + args->size -
		       amdx_range_pinned_overlap(&ctx->ranges, args->start,
						 args->start + args->size);
		ret = amdx_hmm_pin_check(adev, nparts, pinned + span,
					 mine + span);
		if (ret)
			goto out_unlock;
	}
	if (!amdx_range_covered(&ctx->ranges, args->start,
				args->start + args->size) &&
	    !(args->valid & AMDX_HMM_ATTR_ACCESS)) {
		/* New ranges: this device may access unless told otherwise. */
		attr.access = BIT_ULL(adev->id);
		ret = amdx_range_set_attr(&ctx->ranges, args->start, end,
					  &attr,
					  args->valid | AMDX_HMM_ATTR_ACCESS,
					  &pool);
	} else {
		ret = amdx_range_set_attr(&ctx->ranges, args->start, end,
					  &attr, args->valid, &pool);
	}
out_unlock:
	spin_unlock(&ctx->lock);
	if (ret == -ENOSPC)
		pr_debug_ratelimited("amdx%u: hmm set_attr: more than %u ranges on one fd\n",
				     adev->id, AMDX_HMM_RANGES_MAX);
out_unlock_hmm:
	mutex_unlock(&adev->hmm.lock);
out_unlock_mm:
	mmap_read_unlock(ctx->mm);
	amdx_range_pool_free(&pool);
	return ret;
}

/* MIGRATE's checks of its argument alone. */
static int amdx_hmm_migrate_args_check(const struct amdx_hmm_migrate *args)
{
	if (args->flags || args->pad || args->reserved[0] ||
	    args->reserved[1] || args->moved || args->already ||
	    args->skipped || args->skip_reasons)
		return -EINVAL;
	return amdx_hmm_span_check(args->start, args->size);
}

/*
 * MIGRATE's checks under the VRAM gate: the fd's VF (towards VRAM), the
 * destination against the *@nparts memory partitions, ranges covering
 * the whole span.
 */
static int amdx_hmm_migrate_dest_check(struct amdx_file *file,
				       const struct amdx_hmm_migrate *args,
				       u32 *nparts)
{
	struct amdx_hmm_ctx *ctx = file->hmm;
	bool covered;
	int ret;

	if (file->owner != AMDX_OWNER_PF && args->dest != AMDX_HMM_LOC_SYSTEM) {
		bool evict = false;

		ret = amdx_partition_vf_check(file->adev, file->vf,
					      file->vf_epoch, &evict);
		if (ret)
			return ret;
		WRITE_ONCE(ctx->vf_evict, evict);
	}

	/* The device fd's ioctl path holds the device lock for read. */
	ret = amdx_hmm_num_partitions(file->adev, nparts);
	if (ret)
		return ret;
	if (args->dest != AMDX_HMM_LOC_SYSTEM &&
	    args->dest != AMDX_HMM_LOC_PREFERRED && args->dest >= *nparts)
		return -EINVAL;

	spin_lock(&ctx->lock);
	covered = amdx_range_covered(&ctx->ranges, args->start,
				     args->start + args->size);
	spin_unlock(&ctx->lock);
	return covered ? 0 : -ENOENT;
}

/*
 * MIGRATE's moves: the span range by range in steps of at most
 * %AMDX_HMM_MIGRATE_STEP, nothing allocated (the set may change in
 * between), the counts added to @args.
 */
static int amdx_hmm_migrate_spans(struct amdx_hmm_ctx *ctx,
				  struct amdx_hmm_migrate *args, u32 nparts)
{
	u64 end = args->start + args->size, from, to_vram = 0, home = 0;
	struct amdx_hmm_span sp;
	int ret = 0;

	for (from = args->start; !ret &&
	     amdx_hmm_next_span(ctx, from, end, args->dest, nparts, &sp);
	     from = sp.end) {
		struct amdx_hmm_result res = {};

		ret = amdx_hmm_migrate_range(ctx, sp.start, sp.end, sp.dest,
					     &res);
		/* A span that failed before moving a page changes nothing. */
		if (ret && !res.moved)
			break;
		amdx_hmm_account(ctx, sp.start, sp.end, sp.dest, &res, false,
				 false);
		if (sp.dest == AMDX_HMM_LOC_SYSTEM)
			home += res.moved;
		else
			to_vram += res.moved;
		args->moved += res.moved;
		args->already += res.already;
		args->skipped += res.skipped;
		args->skip_reasons |= res.reasons;
		cond_resched();
	}
	amdx_hmm_event_migrate(ctx->adev, &ctx->who, false, to_vram);
	amdx_hmm_event_migrate(ctx->adev, &ctx->who, true, home);
	amdx_stats_migrated(ctx->adev, AMDX_MIG_TO_VRAM, to_vram);
	amdx_stats_migrated(ctx->adev, AMDX_MIG_TO_RAM, home);
	return ret;
}

/**
 * amdx_ioctl_hmm_migrate() - %AMDX_IOC_HMM_MIGRATE
 * @file: a device fd.
 * @data: &struct amdx_hmm_migrate.
 *
 * Return: 0 with the counts filled; -EINVAL for bad alignment, flags,
 * reserved fields or destination; -ENOENT when part of the span has no
 * range; -EIO towards VRAM of a device flagged for RMA whose policy
 * refuses use; -ENODEV on a VF's fd once its VF is disabled, -EBUSY while
 * that VF is quarantined (both only towards VRAM); -EINTR on a fatal
 * signal (checked every %AMDX_HMM_MIGRATE_STEP bytes) and -ENOMEM: the
 * counts say what moved until then, and a call that fails before moving
 * a page changes nothing, not even the range's statistics; -EOPNOTSUPP,
 * -EBADF.
 */
int amdx_ioctl_hmm_migrate(struct amdx_file *file, void *data)
{
	struct amdx_hmm_migrate *args = data;
	struct amdx_device *adev = file->adev;
	u32 nparts;
	int ret;

	ret = amdx_hmm_ctx_check(file);
	if (ret)
		return ret;
	ret = amdx_hmm_migrate_args_check(args);
	if (ret)
		return ret;

	/*
	 * RAS: a device flagged for RMA may refuse new VRAM allocations.
	 * Asked before the VRAM gate: a partition commit holds the gate while
	 * RAS containment waits for the partition lock under the RAS lock.
	 */
	if (args->dest != AMDX_HMM_LOC_SYSTEM && amdx_ras_vram_refused(adev))
		return -EIO;

	/* No partition switch, no VF disable while pages move. */
	ret = amdx_partition_vram_begin(adev);
	if (ret)
		return ret;
	ret = amdx_hmm_migrate_dest_check(file, args, &nparts);
	if (!ret)
		ret = amdx_hmm_migrate_spans(file->hmm, args, nparts);
	amdx_partition_vram_end(adev);
	return ret;
}

/* Bounce pages for ACCESS, allocated per call. */
static void amdx_free_bounce(struct page **bounce, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (bounce[i])
			__free_page(bounce[i]);
	kvfree(bounce);
}

static u8 amdx_snap_byte(struct amdx_device *adev, unsigned long hpfn,
			 u64 *vram_index)
{
	struct page *page;
	u8 b;

	*vram_index = ~0ULL;
	if (hpfn & HMM_PFN_ERROR)
		return AMDX_HMM_SNAP_ERROR;
	if (!(hpfn & HMM_PFN_VALID))
		return AMDX_HMM_SNAP_NONE;
	b = AMDX_HMM_SNAP_READ;
	if (hpfn & HMM_PFN_WRITE)
		b |= AMDX_HMM_SNAP_WRITE;
	page = hmm_pfn_to_page(hpfn);
	if (is_device_private_page(page)) {
		if (page->pgmap->owner == adev->desc.pgmap_owner) {
			b |= AMDX_HMM_SNAP_DEV_LOCAL;
			*vram_index = adev->ops->vram_page_index(adev, page);
		} else {
			b |= AMDX_HMM_SNAP_DEV_REMOTE;
		}
	}
	return b;
}

/*
 * hmm_range_fault() reports another device's private pages as absent when
 * it need not fault them; look at the PTEs (mmap lock held) to tell.
 */
static void amdx_hmm_snap_remote(struct amdx_hmm_ctx *ctx, u64 addr,
				 unsigned long npages,
				 const unsigned long *hpfns, u8 *snap)
{
	unsigned long i;

	for (i = 0; i < npages; i++) {
		const void *owner;
		bool writable;

		snap[i] = 0;
		if (hpfns[i] & (HMM_PFN_VALID | HMM_PFN_ERROR))
			continue;
		owner = amdx_hmm_pte_device_owner(ctx->mm,
						  addr + (i << PAGE_SHIFT),
						  &writable);
		if (owner && owner != ctx->adev->desc.pgmap_owner)
			snap[i] = AMDX_HMM_SNAP_DEV_REMOTE | AMDX_HMM_SNAP_READ |
				  (writable ? AMDX_HMM_SNAP_WRITE : 0);
	}
}

static bool amdx_hmm_readonly_device_page(const unsigned long *hpfns,
					  unsigned long npages)
{
	unsigned long i;

	for (i = 0; i < npages; i++)
		if ((hpfns[i] & HMM_PFN_VALID) && !(hpfns[i] & HMM_PFN_WRITE) &&
		    is_device_private_page(hmm_pfn_to_page(hpfns[i])))
			return true;
	return false;
}

/* One chunk of ACCESS: fault, then copy under the mirror lock. */
static int amdx_hmm_access_chunk(struct amdx_hmm_ctx *ctx,
				 struct amdx_hmm_access *args, u64 addr,
				 unsigned long npages, unsigned long *hpfns,
				 struct page **bounce, u8 *snap, u64 *vidx)
{
	struct amdx_device *adev = ctx->adev;
	struct hmm_range range = {
		.notifier = &ctx->notifier,
		.start = addr,
		.end = addr + (npages << PAGE_SHIFT),
		.hmm_pfns = hpfns,
		.dev_private_owner = adev->desc.pgmap_owner,
	};
	unsigned long i, timeout;
	int ret;

	if (args->op == AMDX_HMM_ACCESS_READ)
		range.default_flags = HMM_PFN_REQ_FAULT;
	else if (args->op == AMDX_HMM_ACCESS_WRITE)
		range.default_flags = HMM_PFN_REQ_FAULT | HMM_PFN_REQ_WRITE;

	/* Count what the device must fault in: a look without faulting. */
	if (args->op != AMDX_HMM_ACCESS_SNAPSHOT) {
		struct hmm_range peek = range;

		peek.default_flags = 0;
		peek.notifier_seq = mmu_interval_read_begin(&ctx->notifier);
		mmap_read_lock(ctx->mm);
		if (!hmm_range_fault(&peek))
			for (i = 0; i < npages; i++)
				if (!(hpfns[i] & HMM_PFN_VALID) ||
				    (args->op == AMDX_HMM_ACCESS_WRITE &&
				     !(hpfns[i] & HMM_PFN_WRITE)))
					args->faults++;
		mmap_read_unlock(ctx->mm);
	}

	timeout = jiffies + msecs_to_jiffies(HMM_RANGE_DEFAULT_TIMEOUT);
	for (;;) {
		if (time_after(jiffies, timeout))
			return -EBUSY;
		range.notifier_seq = mmu_interval_read_begin(&ctx->notifier);
		mmap_read_lock(ctx->mm);
		ret = hmm_range_fault(&range);
		if (!ret && args->op == AMDX_HMM_ACCESS_SNAPSHOT)
			amdx_hmm_snap_remote(ctx, addr, npages, hpfns, snap);
		mmap_read_unlock(ctx->mm);
		if (ret == -EBUSY)
			continue;
		if (ret)
			return ret;
		/*
		 * hmm_range_fault() reports our device pages as they are, even
		 * read-only ones (COW-shared after fork) under a write request.
		 * Writing those in place would reach the other sharers: ask
		 * again as a stranger, which faults them home and breaks COW.
		 */
		if (args->op == AMDX_HMM_ACCESS_WRITE &&
		    range.dev_private_owner &&
		    amdx_hmm_readonly_device_page(hpfns, npages)) {
			range.dev_private_owner = NULL;
			continue;
		}
		mutex_lock(&ctx->mirror_lock);
		if (mmu_interval_read_retry(&ctx->notifier,
					    range.notifier_seq)) {
			mutex_unlock(&ctx->mirror_lock);
			continue;
		}
		break;
	}

	/* ctx->mirror_lock held: the pages stay the process's. */
	for (i = 0; i < npages; i++) {
		struct page *page;

		if (args->op == AMDX_HMM_ACCESS_SNAPSHOT) {
			vidx[i] = ~0ULL;
			if (!snap[i])
				snap[i] = amdx_snap_byte(adev, hpfns[i],
							 &vidx[i]);
			continue;
		}
		page = hmm_pfn_to_page(hpfns[i]);
		if (is_device_private_page(page)) {
			u64 index = adev->ops->vram_page_index(adev, page);

			/* The device consumes poison: it fails, nobody dies. */
			if (amdx_ras_page_poisoned(adev, index)) {
				amdx_ras_poison_consumed(adev, index, &ctx->who);
				ret = -EIO;
				break;
			}
		}
		if (args->op == AMDX_HMM_ACCESS_READ) {
			if (is_device_private_page(page))
				ret = adev->ops->vram_copy(adev, bounce[i], page);
			else
				copy_highpage(bounce[i], page);
		} else {
			if (is_device_private_page(page))
				ret = adev->ops->vram_copy(adev, page, bounce[i]);
			else
				copy_highpage(page, bounce[i]);
		}
		if (ret)
			break;
	}
	mutex_unlock(&ctx->mirror_lock);
	return ret;
}

/* Whether a range of @ctx in [@start, @end) denies device @id. */
static bool amdx_hmm_ctx_denies(struct amdx_hmm_ctx *ctx, u64 start, u64 end,
				u32 id)
{
	struct amdx_range *r;
	bool denied = false;

	spin_lock(&ctx->lock);
	list_for_each_entry(r, &ctx->ranges.ranges, node) {
		if (r->start >= end)
			break;
		if (r->end > start && !(r->attr.access & BIT_ULL(id))) {
			denied = true;
			break;
		}
	}
	spin_unlock(&ctx->lock);
	return denied;
}

/*
 * The access attribute: device @self->adev may touch [@start, @end) only
 * if every range the process set there, through the fd of any device,
 * names it.  Looks at every registered device's contexts of this address
 * space; takes each device's hmm.lock in turn (never two), under the
 * caller's device lock and no mmap lock.
 */
static int amdx_hmm_access_check(struct amdx_hmm_ctx *self, u64 start,
				 u64 end)
{
	u64 ids = amdx_device_id_mask() | BIT_ULL(self->adev->id);
	u32 me = self->adev->id;
	int ret = 0;

	while (ids && !ret) {
		u32 id = __ffs64(ids);
		struct amdx_device *d = id == me ? self->adev :
					amdx_device_get(id);
		struct amdx_hmm_ctx *c;

		ids &= ids - 1;
		if (!d || !(d->desc.flags & AMDX_DEVICE_F_HMM))
			goto next;
		mutex_lock(&d->hmm.lock);
		list_for_each_entry(c, &d->hmm.ctxs, dev_node) {
			if (c->mm == self->mm &&
			    amdx_hmm_ctx_denies(c, start, end, me)) {
				pr_debug("amdx%u: hmm access: a range of device %u's fd at %#llx+%#llx does not grant device %u access\n",
					 me, id, start, end - start, me);
				ret = -EACCES;
				break;
			}
		}
		mutex_unlock(&d->hmm.lock);
next:
		if (d != self->adev)
			amdx_device_put(d);
	}
	return ret;
}

/**
 * amdx_ioctl_hmm_access() - %AMDX_IOC_HMM_ACCESS
 * @file: a device fd.
 * @data: &struct amdx_hmm_access.
 *
 * Return: 0; -EINVAL for bad alignment, size (over 64 MiB), op, flags or
 * reserved fields; -EACCES when a range of the process in the span does
 * not grant this device access (&amdx_hmm_attr.access); -EFAULT for
 * unmapped or inaccessible memory or a bad @buf; -EPERM for WRITE on
 * read-only memory; -EBUSY when invalidations kept racing; -EIO when a
 * page is poisoned (RAS); -ENODEV when the device was removed while @buf
 * was being copied; -EOPNOTSUPP, -EBADF, -ENOMEM.
 */
int amdx_ioctl_hmm_access(struct amdx_file *file, void *data)
{
	struct amdx_hmm_access *args = data;
	struct amdx_hmm_ctx *ctx = file->hmm;
	unsigned long *hpfns = NULL;
	struct page **bounce = NULL;
	u8 *snap = NULL;
	u64 *vidx = NULL;
	u64 done;
	int ret;

	ret = amdx_hmm_ctx_check(file);
	if (ret)
		return ret;
	if (args->flags || args->reserved[0] || args->reserved[1] ||
	    args->op > AMDX_HMM_ACCESS_SNAPSHOT || args->faults ||
	    (args->vram_pfns && args->op != AMDX_HMM_ACCESS_SNAPSHOT))
		return -EINVAL;
	ret = amdx_hmm_span_check(args->addr, args->size);
	if (ret)
		return ret;
	if (args->size > AMDX_HMM_ACCESS_MAX)
		return -EINVAL;
	ret = amdx_hmm_access_check(ctx, args->addr, args->addr + args->size);
	if (ret)
		return ret;

	hpfns = kvcalloc(AMDX_HMM_ACCESS_CHUNK, sizeof(*hpfns),
			 GFP_KERNEL_ACCOUNT);
	snap = kvzalloc(AMDX_HMM_ACCESS_CHUNK, GFP_KERNEL_ACCOUNT);
	vidx = kvcalloc(AMDX_HMM_ACCESS_CHUNK, sizeof(*vidx),
			GFP_KERNEL_ACCOUNT);
	bounce = kvcalloc(AMDX_HMM_ACCESS_CHUNK, sizeof(*bounce),
			  GFP_KERNEL_ACCOUNT);
	if (!hpfns || !snap || !vidx || !bounce) {
		ret = -ENOMEM;
		goto out;
	}

	for (done = 0; done < args->size && !ret;) {
		unsigned long n = min_t(u64, AMDX_HMM_ACCESS_CHUNK,
					(args->size - done) >> PAGE_SHIFT);
		void __user *ubuf = u64_to_user_ptr(args->buf + done);
		unsigned long i;

		if (args->op != AMDX_HMM_ACCESS_SNAPSHOT) {
			for (i = 0; i < n; i++) {
				if (!bounce[i])
					bounce[i] = alloc_page(GFP_HIGHUSER |
							       __GFP_ACCOUNT);
				if (!bounce[i]) {
					ret = -ENOMEM;
					goto out;
				}
			}
		}
		if (args->op == AMDX_HMM_ACCESS_WRITE) {
			for (i = 0; i < n && !ret; i++) {
				void *p = kmap_local_page(bounce[i]);

				ret = amdx_device_copy_from_user(file->adev, p,
								 ubuf + (i << PAGE_SHIFT),
								 PAGE_SIZE);
				kunmap_local(p);
			}
			if (ret)
				break;
		}
		ret = amdx_hmm_access_chunk(ctx, args, args->addr + done, n,
					    hpfns, bounce, snap, vidx);
		if (ret)
			break;
		if (args->op == AMDX_HMM_ACCESS_READ) {
			for (i = 0; i < n && !ret; i++) {
				void *p = kmap_local_page(bounce[i]);

				ret = amdx_device_copy_to_user(file->adev,
							       ubuf + (i << PAGE_SHIFT),
							       p, PAGE_SIZE);
				kunmap_local(p);
			}
		} else if (args->op == AMDX_HMM_ACCESS_SNAPSHOT) {
			u64 off = done >> PAGE_SHIFT;

			ret = amdx_device_copy_to_user(file->adev,
						       u64_to_user_ptr(args->buf +
								       off),
						       snap, n);
			if (!ret && args->vram_pfns)
				ret = amdx_device_copy_to_user(file->adev,
							       u64_to_user_ptr(args->vram_pfns +
									       off * sizeof(u64)),
							       vidx, n * sizeof(u64));
		}
		done += (u64)n << PAGE_SHIFT;
	}
out:
	kvfree(hpfns);
	kvfree(snap);
	kvfree(vidx);
	if (bounce)
		amdx_free_bounce(bounce, AMDX_HMM_ACCESS_CHUNK);
	return ret;
}

/*
 * Up to @max ranges starting at or after @from into @buf, as the query
 * reports them.  Returns how many; *@more tells whether others follow.
 */
static u32 amdx_hmm_ranges_chunk(struct amdx_hmm_ctx *ctx, u64 from,
				 struct amdx_hmm_range_info *buf, u32 max,
				 bool *more)
{
	struct amdx_range *r;
	u32 n = 0;

	*more = false;
	spin_lock(&ctx->lock);
	list_for_each_entry(r, &ctx->ranges.ranges, node) {
		if (r->start < from)
			continue;
		if (n == max) {
			*more = true;
			break;
		}
		buf[n++] = (struct amdx_hmm_range_info){
			.start = r->start,
			.size = r->end - r->start,
			.preferred_loc = r->attr.preferred_loc,
			.granularity = r->attr.granularity,
			.flags = r->attr.flags,
			.access = r->attr.access,
			.resident_pages = r->resident,
			.stats = r->stats,
		};
	}
	spin_unlock(&ctx->lock);
	return n;
}

/**
 * amdx_hmm_query_ranges() - %AMDX_QUERY_HMM_RANGES on a device fd
 * @file: a device fd; the caller holds its device's lock for read.
 * @q: the query.
 *
 * The result is gathered into a kernel buffer sized by the ranges the fd
 * holds (at most %AMDX_HMM_RANGES_MAX, whatever &amdx_query.size says),
 * %AMDX_HMM_QUERY_CHUNK entries per hold of the context's lock, then
 * copied out in one go without the device lock (amdx_device_copy_to_user():
 * a result buffer on a userfaultfd or FUSE page never holds up removal).
 * Residency comes from the ranges' counters, so the query costs O(ranges),
 * never O(pages).
 *
 * Return: 0; -ENOSPC with the needed size (also when ranges were added
 * while the query ran: call again); -ENODEV when the device was removed
 * during the copy; -EOPNOTSUPP, -EFAULT, -ENOMEM.
 */
int amdx_hmm_query_ranges(struct amdx_file *file, struct amdx_query *q)
{
	struct amdx_hmm_ctx *ctx = file->hmm;
	struct amdx_query_hmm_ranges *res;
	struct amdx_viewer v;
	u32 count, n = 0, got;
	u64 from = 0;
	size_t len;
	bool more;
	int ret = 0;

	if (!ctx)
		return -EOPNOTSUPP;
	spin_lock(&ctx->lock);
	count = ctx->ranges.count;
	spin_unlock(&ctx->lock);
	len = struct_size(res, ranges, count);
	/* The whole result or nothing: the size, or -ENOSPC and the size. */
	ret = amdx_query_fit(&q->size, len, len);
	if (ret <= 0)
		return ret;
	ret = 0;
	res = kvzalloc(len, GFP_KERNEL_ACCOUNT);
	if (!res)
		return -ENOMEM;

	do {
		got = amdx_hmm_ranges_chunk(ctx, from, res->ranges + n,
					    min_t(u32, AMDX_HMM_QUERY_CHUNK,
						  count - n), &more);
		n += got;
		if (got)
			from = res->ranges[n - 1].start +
			       res->ranges[n - 1].size;
		/* Ranges added meanwhile: more than the buffer holds. */
		if (more && n == count) {
			ret = -ENOSPC;
			break;
		}
		cond_resched();
	} while (more);
	if (ret) {
		kvfree(res);
		spin_lock(&ctx->lock);
		q->size = struct_size(res, ranges, ctx->ranges.count);
		spin_unlock(&ctx->lock);
		return ret;
	}

	res->num_ranges = n;
	res->entry_size = sizeof(res->ranges[0]);
	/* The fd may have been passed on: its reader decides. */
	amdx_viewer_init(&v);
	res->pid = amdx_viewer_pid(&v, &ctx->who);
	amdx_viewer_fini(&v);
	spin_lock(&ctx->lock);
	res->total = ctx->total;
	spin_unlock(&ctx->lock);
	len = struct_size(res, ranges, n);
	ret = amdx_device_copy_to_user(file->adev, u64_to_user_ptr(q->data),
				       res, len);
	kvfree(res);
	if (ret)
		return ret;
	q->size = len;
	return 0;
}

/* Add @pages of (@ctx's process, @part) to @out, merging with an entry. */
static void amdx_hmm_holder_add(struct amdx_hmm_holder *out, u32 max,
				u32 *n, const struct amdx_hmm_ctx *ctx,
				u32 part, u64 pages)
{
	u32 i;

	for (i = 0; i < *n && i < max; i++) {
		if (out[i].who.pid == ctx->who.pid &&
		    out[i].mem_partition == part) {
			out[i].pages += pages;
			return;
		}
	}
	if (*n < max) {
		memset(&out[*n], 0, sizeof(out[*n]));
		out[*n].who.pid = get_pid(ctx->who.pid);
		out[*n].who.euid = ctx->who.euid;
		out[*n].mem_partition = part;
		out[*n].pages = pages;
		strscpy(out[*n].comm, ctx->comm, sizeof(out[*n].comm));
	}
	(*n)++;
}

/**
 * amdx_hmm_holders_put() - drop the references amdx_hmm_holders() took
 * @h: the entries.
 * @n: how many were written (at most its @max).
 */
void amdx_hmm_holders_put(struct amdx_hmm_holder *h, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		put_pid(h[i].who.pid);
		h[i].who.pid = NULL;
	}
}

/**
 * amdx_hmm_holders() - processes with data in some memory partitions
 * @adev: the device.
 * @part_mask: bit N: memory partition N is of interest.
 * @out: up to @max entries, one per process and partition; may be NULL
 *	when @max is 0.
 * @max: capacity of @out.
 * @count: out: entries found; beyond @max they are only counted (and
 *	may then count a process twice).  The entries written hold pid
 *	references: drop them with amdx_hmm_holders_put().
 *
 * A holder is the process of a device fd whose data VRAM pages of @adev
 * hold, wherever they are mapped: in its ranges, where ``mremap()``
 * moved them, in a ``fork()`` child only.  Read from the counters the
 * VRAM allocator keeps per fd and memory partition (&amdx_hmm_ctx.holder),
 * so the cost is O(fds on @adev), under &amdx_hmm_dev.lock and no mmap
 * lock; no page table is walked.  A partition the provider reports empty
 * has no holders.
 *
 * Context: the caller may hold the device, partition and gate locks
 * (they come before mmap_lock), not &amdx_hmm_dev.lock.
 *
 * Return: 0, -ENOMEM or the provider's get_state() error.
 */
int amdx_hmm_holders(struct amdx_device *adev, u32 part_mask,
		     struct amdx_hmm_holder *out, u32 max, u32 *count)
{
	u64 pages[AMDX_VRAM_MAX_PARTITIONS];
	struct amdx_device_state *st;
	struct amdx_hmm_ctx *ctx;
	u32 n = 0, m, busy = 0;
	int ret;

	*count = 0;
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	ret = adev->ops->get_state(adev, st);
	if (ret)
		goto out_free_st;
	if (WARN_ON_ONCE(st->num_mem_partitions > AMDX_VRAM_MAX_PARTITIONS)) {
		ret = -EIO;
		goto out_free_st;
	}
	for (m = 0; m < st->num_mem_partitions; m++)
		if ((part_mask & BIT(m)) && st->mem[m].free < st->mem[m].size)
			busy |= BIT(m);
	/* No page in the partitions asked about: nobody holds one. */
	if (!busy)
		goto out_free_st;

	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		if (!amdx_vram_holder_used(adev->desc.vram, ctx->holder, pages))
			continue;
		for (m = 0; m < st->num_mem_partitions; m++)
			if (pages[m] && (busy & BIT(m)))
				amdx_hmm_holder_add(out, max, &n, ctx, m,
						    pages[m]);
	}
	mutex_unlock(&adev->hmm.lock);
	*count = n;
out_free_st:
	kfree(st);
	return ret;
}

/**
 * amdx_hmm_forget_resident() - a memory partition holds no process data
 * @adev: the device.
 * @part: the memory partition, %AMDX_HMM_LOC_SYSTEM for all of them.
 *
 * A drain moved every page of @part home without the contexts that had
 * them: their residency counters for @part go to zero.
 */
void amdx_hmm_forget_resident(struct amdx_device *adev, u32 part)
{
	struct amdx_hmm_ctx *ctx;
	struct amdx_range *r;

	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM))
		return;
	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		spin_lock(&ctx->lock);
		list_for_each_entry(r, &ctx->ranges.ranges, node)
			amdx_range_forget_resident(r, part);
		spin_unlock(&ctx->lock);
	}
	mutex_unlock(&adev->hmm.lock);
}

/**
 * amdx_hmm_forget_devices() - clear devices from every range's access
 * @adev: the device whose contexts' ranges to update.
 * @mask: bit N: forget device N.
 *
 * Called by amdx_device_unregister(), before the id of the device going
 * away can be given to a new device: for every registered device with
 * that device's bit, and for the device itself with every bit.
 *
 * Context: takes @adev's hmm.lock and each context's lock; the caller
 * holds no mmap lock and no HMM lock.
 */
void amdx_hmm_forget_devices(struct amdx_device *adev, u64 mask)
{
	struct amdx_hmm_ctx *ctx;

	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM))
		return;
	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		spin_lock(&ctx->lock);
		amdx_range_clear_access(&ctx->ranges, mask);
		spin_unlock(&ctx->lock);
	}
	mutex_unlock(&adev->hmm.lock);
}

/**
 * amdx_hmm_device_drain() - move every page of a removed device home
 * @adev: the device, already dead for new ioctls.
 *
 * Called by amdx_device_unregister() so that the provider can free its
 * device-private memory afterwards (memunmap_pages() waits for every
 * device page).  No new VRAM page can be allocated any more, and every
 * page still allocated can be moved: poisoned ones go home as hwpoison
 * entries, busy ones (an in-flight CPU fault, a concurrent drain) are
 * retried until their holder lets go.  There is no timeout: returning
 * with a page allocated would let the provider free what a process can
 * still reach.
 *
 * Context: process context; may wait for as long as a page stays busy.
 */
void amdx_hmm_device_drain(struct amdx_device *adev)
{
	u64 npages = adev->desc.vram_size >> PAGE_SHIFT, moved = 0, busy;
	unsigned long next_log = jiffies + 10 * HZ;

	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM))
		return;
	for (;;) {
		amdx_hmm_drain_vram(adev, 0, npages, &moved);
		busy = adev->ops->vram_used_pages(adev);
		if (!busy) {
			amdx_hmm_forget_resident(adev, AMDX_HMM_LOC_SYSTEM);
			return;
		}
		if (time_after(jiffies, next_log)) {
			pr_warn("amdx: %s: removal waits for %llu busy VRAM pages\n",
				adev->bdf, busy);
			next_log = jiffies + 10 * HZ;
		}
		/* Holders are faults and copies in flight: let them run. */
		msleep(20);
	}
}
