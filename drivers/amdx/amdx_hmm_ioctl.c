// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM ioctls
 *
 * What a device fd's process asks of HMM, and its close::
 *
 *   process          device fd (ctx)              kernel mm
 *     | SET_ATTR  --> validate VMAs, split/merge ranges
 *     | MIGRATE   --> amdx_hmm_migrate_range() --> migrate_vma_*()
 *     | ACCESS    --> amdx_hmm_access.c
 *     | touch     ----------------------------> do_swap_page()
 *     |                                          -> migrate_to_ram()
 *     | close     --> data home, notifier removed
 *
 * Each ioctl checks its argument alone first, then what needs the device
 * or the address space, then acts (amdx_hmm_set_attr_args_check(),
 * amdx_hmm_migrate_args_check(), ...).  MIGRATE and close move at most
 * %AMDX_HMM_MIGRATE_STEP bytes per step.  The context, its locks and the
 * access attribute's life are described in amdx_hmm_ctx.c.
 */
#include <linux/bitops.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <amdx/amdx_vram.h>

#include "amdx_core.h"
#include "amdx_hmm_ctx.h"
#include "amdx_hmm_devmove.h"
#include "amdx_hmm_evict.h"
#include "amdx_hmm_ioctl.h"
#include "amdx_hmm_link.h"
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
	if (!ctx->adev->dead && ctx->holder) {
		/* What the ranges do not see, found by page. */
		amdx_hmm_home_holder(ctx->adev, ctx->holder);
		amdx_vram_holder_put(ctx->adev->desc.vram, ctx->holder);
	}
	up_read(&ctx->adev->lock);
	/* Only this context's entry: a reused id may name another by now. */
	if (ctx->holder)
		xa_cmpxchg(&ctx->adev->hmm.holders, ctx->holder, ctx, NULL, 0);
	mmu_interval_notifier_remove(&ctx->notifier);
	file->hmm = NULL;
	amdx_hmm_ctx_put(ctx);
}

static int amdx_hmm_num_partitions(struct amdx_device *adev, u32 *n)
{
	struct amdx_device_state st = {};
	int ret;

	ret = adev->ops->get_state(adev, &st);
	*n = st.num_mem_partitions;
	return ret;
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
			amdx_dbg(adev,
				 "hmm set_attr: %s is %#llx but valid does not name it\n",
				 names[i], vals[i]);
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
		amdx_dbg(adev,
			 "hmm set_attr: pinning %llu bytes exceeds the owner's half of a %llu-byte memory partition\n",
			 mine, part);
		return -EDQUOT;
	}
	if (all > adev->desc.vram_size / 4 * 3) {
		amdx_dbg(adev,
			 "hmm set_attr: pinning %llu bytes exceeds 3/4 of the VRAM\n",
			 all);
		return -EDQUOT;
	}
	return 0;
}

/*
 * SET_ATTR's checks of its argument alone, and of the partition it names
 * against the *@nparts memory partitions.
 */
static int amdx_hmm_set_attr_args_check(struct amdx_device *adev,
					const struct amdx_hmm_attr *args,
					u32 *nparts)
{
	int ret;

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
	ret = amdx_hmm_num_partitions(adev, nparts);
	if (ret)
		return ret;
	if ((args->valid & AMDX_HMM_ATTR_PREFERRED_LOC) &&
	    args->preferred_loc != AMDX_HMM_LOC_SYSTEM &&
	    args->preferred_loc >= *nparts)
		return -EINVAL;
	return 0;
}

/*
 * SET_ATTR's access bits name registered devices only; under hmm.lock:
 * see "access" in amdx_hmm_ctx.c's DOC block.
 */
static int amdx_hmm_set_attr_access_check(struct amdx_device *adev,
					  const struct amdx_hmm_attr *args)
{
	u64 unknown;

	if (!(args->valid & AMDX_HMM_ATTR_ACCESS))
		return 0;
	unknown = args->access & ~amdx_device_id_mask();
	if (unknown) {
		amdx_dbg(adev, "hmm set_attr: access bit %u names no device\n",
			 (unsigned int)__ffs64(unknown));
		return -EINVAL;
	}
	return 0;
}

/*
 * The bytes other fds on @ctx's device pin: all of them in *@pinned,
 * those of @ctx's owner in *@mine.  hmm.lock held: the list is stable.
 */
static void amdx_hmm_pinned_by_others(struct amdx_hmm_ctx *ctx, u64 *pinned,
				      u64 *mine)
{
	struct amdx_hmm_ctx *c;
	u64 b;

	list_for_each_entry(c, &ctx->adev->hmm.ctxs, dev_node) {
		if (c == ctx)
			continue;
		spin_lock(&c->lock);
		b = amdx_range_pinned_bytes(&c->ranges);
		spin_unlock(&c->lock);
		*pinned += b;
		if (amdx_hmm_same_owner(c, ctx))
			*mine += b;
	}
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
 * %AMDX_HMM_RANGES_MAX ranges; -ENOLINK when the new access set adds a
 * device whose fabric link to this one takes no new data to a range with
 * pages in VRAM (amdx_hmm_link_access(), Documentation/fabric.rst),
 * before changing anything; -EOPNOTSUPP without HMM; -EBADF from another
 * address space; -ENOMEM.
 */
int amdx_ioctl_hmm_set_attr(struct amdx_file *file, void *data)
{
	struct amdx_hmm_attr *args = data;
	struct amdx_hmm_ctx *ctx = file->hmm;
	struct amdx_device *adev = file->adev;
	struct amdx_range_attr attr = {};
	u64 pinned = 0, mine = 0, span, end = args->start + args->size;
	u64 refused = 0, at = 0;
	u32 nparts, have = 0, need;
	LIST_HEAD(pool);
	bool pin;
	int ret;

	ret = amdx_hmm_ctx_check(file);
	if (ret)
		return ret;
	ret = amdx_hmm_set_attr_args_check(adev, args, &nparts);
	if (ret)
		return ret;
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
	ret = amdx_hmm_set_attr_access_check(adev, args);
	if (ret)
		goto out_unlock_hmm;
	if (pin)
		amdx_hmm_pinned_by_others(ctx, &pinned, &mine);
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
	if (args->valid & AMDX_HMM_ATTR_ACCESS) {
		refused = amdx_hmm_link_access(ctx, args->start, end,
					       args->access, &at);
		if (refused) {
			ret = -ENOLINK;
			goto out_unlock;
		}
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
		amdx_dbg_ratelimited(adev,
				     "hmm set_attr: more than %u ranges on one fd\n",
				     AMDX_HMM_RANGES_MAX);
	if (refused)
		amdx_hmm_link_refuse(adev, "SET_ATTR access", at, refused);
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
 * Whether @ctx's fd may place data in memory partition @dest (VRAM gate
 * held): not in another tenant's, not in one out of service
 * (amdx_partition_mem_check()).  0, -EACCES or -EBUSY.
 */
static int amdx_hmm_dest_allowed(struct amdx_hmm_ctx *ctx, u32 dest)
{
	u32 vf = ctx->owner == AMDX_OWNER_PF ? AMDX_VF_NONE : ctx->owner - 1;

	if (dest == AMDX_HMM_LOC_SYSTEM)
		return 0;
	return amdx_partition_mem_check(ctx->adev, dest, vf);
}

/*
 * MIGRATE's checks under the VRAM gate: the fd's VF (towards VRAM), the
 * destination against the *@nparts memory partitions and the fd's
 * tenant, ranges covering the whole span, no fabric link crossed that
 * takes no new data (amdx_hmm_link_check()).
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
	if (args->dest != AMDX_HMM_LOC_PREFERRED) {
		ret = amdx_hmm_dest_allowed(ctx, args->dest);
		if (ret)
			return ret;
	}

	spin_lock(&ctx->lock);
	covered = amdx_range_covered(&ctx->ranges, args->start,
				     args->start + args->size);
	spin_unlock(&ctx->lock);
	if (!covered)
		return -ENOENT;
	return amdx_hmm_link_check(ctx, args->start, args->start + args->size,
				   args->dest, *nparts);
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

		/* A prefetch's partition is the range's: checked here. */
		ret = amdx_hmm_dest_allowed(ctx, sp.dest);
		if (ret)
			break;
		ret = amdx_hmm_migrate_range(ctx, sp.start, sp.end, sp.dest,
					     &res);
		/* A span that failed before moving a page changes nothing. */
		if (ret && !res.moved)
			break;
		amdx_hmm_account(ctx, sp.start, sp.dest, &res,
				 sp.dest == AMDX_HMM_LOC_SYSTEM ?
				 AMDX_MIG_TO_RAM : AMDX_MIG_TO_VRAM);
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
 * that VF is quarantined (both only towards VRAM); -EACCES towards a
 * memory partition of another tenant (one whose compute partitions are
 * all bound to one VF is that VF's, and the PF's fds are not it);
 * -EBUSY towards a memory partition whose compute partition is
 * quarantined or offline (both checked for each range of a prefetch
 * too, which stops there: the counts say what moved); -EINTR on a fatal
 * signal (checked every %AMDX_HMM_MIGRATE_STEP bytes) and -ENOMEM: the
 * counts say what moved until then, and a call that fails before moving
 * a page changes nothing, not even the range's statistics; -ENOSPC
 * towards VRAM when the fd has no holder id yet and its uid has its share
 * of them or the device all (amdx_hmm_ctx_holder_get()); -ENOLINK
 * towards VRAM when a range of the span (that would go to VRAM) names a
 * device whose fabric link to this one takes no new data
 * (Documentation/fabric.rst), before any page moves; -EOPNOTSUPP,
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
