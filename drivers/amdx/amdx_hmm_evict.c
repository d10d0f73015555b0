// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM eviction
 *
 * A migration towards VRAM that finds its memory partition full (or its
 * VF at its quota) makes room and tries again from where it stopped
 * (amdx_hmm_migrate_range(), at most %AMDX_HMM_MAX_EVICT times).  Room
 * comes from moving home, in this order:
 *
 * 1. what is left to place plus %AMDX_HMM_EVICT_SLACK pages of the least
 *    recently used unpinned range with pages in that partition, another
 *    fd's before the migrating fd's own (amdx_hmm_evict());
 * 2. pages no range counts (``mremap()`` moved them), found in the
 *    address spaces of the device's contexts (amdx_hmm_evict_uncovered());
 * 3. pages found by VRAM index, whoever maps them: of other fds, of
 *    closed fds, of the migrating fd (amdx_hmm_evict_held()).
 *
 * Never the span being migrated in, never a page placed at an address
 * its fd pins (pinning is a property of the pages, not of the fd:
 * amdx_hmm_pinned_page()), and never
 * another tenant's data: a migration evicts only data charged to its own
 * owner (the PF's fds one another's, a VF's fds their VF's), whether the
 * partition is full (``-ENOSPC``) or the VF at its quota (``-EDQUOT``);
 * a tenant's VRAM is the tenant's (Documentation/security.rst).  One
 * &struct amdx_hmm_evict_req carries what each step may move.
 */
#include <linux/bitmap.h>
#include <linux/bsearch.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <amdx/amdx_vram.h>

#include "amdx_core.h"
#include "amdx_hmm_ctx.h"
#include "amdx_hmm_devmove.h"
#include "amdx_hmm_evict.h"
#include "amdx_hmm_migrate.h"
#include "amdx_hmm_walk.h"
#include "amdx_trace.h"
/* Evictions one migration may cause before it gives up. */
#define AMDX_HMM_MAX_EVICT	16
/*
 * Pages an eviction moves home beyond what the migration asking for room
 * needs: 2 MiB, one default granule, so that a migration that fills the
 * partition page by page does not evict once per page.
 */
#define AMDX_HMM_EVICT_SLACK	512

/**
 * struct amdx_hmm_evict_req - what one eviction may move home
 * @adev: the device whose VRAM is full.
 * @self: the context of the migration asking for room, or NULL; its own
 *	data is a victim last.
 * @part: the full memory partition, %AMDX_HMM_LOC_SYSTEM for any.
 * @ex_start: first byte of the span @self is migrating in: never moved.
 * @ex_end: one past its last byte.
 * @owner: only data charged to this owner (@self's) moves.
 * @want: pages to move home: what the migration still has to place plus
 *	%AMDX_HMM_EVICT_SLACK.
 */
struct amdx_hmm_evict_req {
	struct amdx_device *adev;
	struct amdx_hmm_ctx *self;
	u32 part;
	u64 ex_start;
	u64 ex_end;
	u32 owner;
	u64 want;
};

/*
 * Whether [@s, @e) meets a range of @ctx that is pinned or counts pages in
 * VRAM (those are amdx_hmm_evict()'s own victims); ctx->lock held.  Costs
 * a tree look-up plus the ranges inside [@s, @e), not every range.
 */
static bool amdx_hmm_covered_in(struct amdx_hmm_ctx *ctx, u64 s, u64 e)
{
	struct amdx_range *r = amdx_range_next(&ctx->ranges, s);

	if (!r)
		return false;
	list_for_each_entry_from(r, &ctx->ranges.ranges, node) {
		if (r->start >= e)
			break;
		if ((r->attr.flags & AMDX_HMM_F_PIN) || r->resident)
			return true;
	}
	return false;
}

/*
 * The mmap lock of @mm, for read, for an eviction: the evicting MIGRATE
 * holds the device lock and the VRAM gate, so another process's lock is
 * taken only if it is free now (a writer waiting behind a fault a
 * userfaultfd or FUSE page holds back must not hold up the gate, and
 * with it COMMIT and removal): that address space is skipped, and its
 * pages can still go by VRAM index (amdx_hmm_evict_held()), which takes
 * no mmap lock.  The caller's own is taken killably.  Returns whether
 * the lock is held.
 */
static bool amdx_hmm_evict_lock_mm(struct mm_struct *mm)
{
	if (mm == current->mm)
		return !mmap_read_lock_killable(mm);
	return mmap_read_trylock(mm);
}

/* Whether @ctx pins a range (ctx->lock held). */
static bool amdx_hmm_ctx_pins(struct amdx_hmm_ctx *ctx)
{
	struct amdx_range *r;

	list_for_each_entry(r, &ctx->ranges.ranges, node)
		if (r->attr.flags & AMDX_HMM_F_PIN)
			return true;
	return false;
}

/**
 * struct amdx_hmm_pinners - the fds whose pinned pages an eviction keeps
 * @adev: their device.
 * @ctx: their contexts, each with a reference, sorted by holder id.
 * @n: how many.
 */
struct amdx_hmm_pinners {
	struct amdx_device *adev;
	struct amdx_hmm_ctx **ctx;
	u32 n;
};

static int amdx_hmm_holder_cmp(const void *a, const void *b)
{
	const struct amdx_hmm_ctx *x = *(struct amdx_hmm_ctx * const *)a;
	const struct amdx_hmm_ctx *y = *(struct amdx_hmm_ctx * const *)b;

	return x->holder < y->holder ? -1 : x->holder > y->holder;
}

static int amdx_hmm_holder_key(const void *key, const void *elt)
{
	const struct amdx_hmm_ctx *c = *(struct amdx_hmm_ctx * const *)elt;
	u32 holder = *(const u32 *)key;

	return holder < c->holder ? -1 : holder > c->holder;
}

/* The context of @p with holder id @holder, or NULL. */
static struct amdx_hmm_ctx *
amdx_hmm_pinner(const struct amdx_hmm_pinners *p, u32 holder)
{
	struct amdx_hmm_ctx **found;

	found = bsearch(&holder, p->ctx, p->n, sizeof(*p->ctx),
			amdx_hmm_holder_key);
	return found ? *found : NULL;
}

/*
 * &amdx_migrate_req.keep and &amdx_hmm_held.keep of eviction (@arg: the
 * &struct amdx_hmm_pinners): whether VRAM page @index was placed at an
 * address its holder's fd pins (the page's anonymous index, as
 * amdx_hmm_page_in() reads it), wherever it is mapped now.  Pinning is a
 * property of the pinned pages, not of the fd: the fd's other pages go
 * like anybody's, so a pin of 4 KiB keeps 4 KiB whatever else the fd
 * migrated, and a pinned page stays also when eviction meets it in
 * another address space (a fork() child's).  A tree look-up under the
 * holder's context lock, for pages of pinning fds only.
 */
static bool amdx_hmm_pinned_page(const void *arg, u64 index)
{
	const struct amdx_hmm_pinners *p = arg;
	struct amdx_device *adev = p->adev;
	struct amdx_hmm_ctx *ctx;
	struct amdx_range *r;
	pgoff_t off;
	bool pinned;

	ctx = amdx_hmm_pinner(p, amdx_vram_pfn_holder(adev->desc.vram, index));
	if (!ctx)
		return false;
	off = READ_ONCE(adev->ops->vram_index_page(adev, index)->index);
	spin_lock(&ctx->lock);
	r = amdx_range_find(&ctx->ranges, (u64)off << PAGE_SHIFT);
	pinned = r && (r->attr.flags & AMDX_HMM_F_PIN);
	spin_unlock(&ctx->lock);
	return pinned;
}

/*
 * The contexts of @er->owner that hold pages and pin a range, each with a
 * reference, into @p, sorted by holder id.  Two walks of the context
 * list: one counts them (their array is allocated without the lock), one
 * takes them.  A pinning fd that finds no place in @p (it started pinning
 * between the walks, or no memory) is kept whole by
 * amdx_hmm_evict_held(); amdx_hmm_evict_mm() still skips its pinned
 * ranges in its own address space.
 */
static void amdx_hmm_pinners_get(const struct amdx_hmm_evict_req *er,
				 struct amdx_hmm_pinners *p)
{
	struct amdx_device *adev = er->adev;
	struct amdx_hmm_ctx *ctx;
	u32 max = 0;
	bool pins;

	p->adev = adev;
	p->n = 0;
	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		if (ctx->owner != er->owner ||
		    !amdx_hmm_ctx_used(ctx, NULL))
			continue;
		spin_lock(&ctx->lock);
		max += amdx_hmm_ctx_pins(ctx);
		spin_unlock(&ctx->lock);
	}
	mutex_unlock(&adev->hmm.lock);
	p->ctx = max ? kvmalloc_array(max, sizeof(*p->ctx), GFP_KERNEL) : NULL;
	if (!p->ctx)
		return;
	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		if (p->n == max)
			break;
		if (ctx->owner != er->owner ||
		    !amdx_hmm_ctx_used(ctx, NULL))
			continue;
		spin_lock(&ctx->lock);
		pins = amdx_hmm_ctx_pins(ctx);
		spin_unlock(&ctx->lock);
		if (!pins)
			continue;
		kref_get(&ctx->ref);
		p->ctx[p->n++] = ctx;
	}
	mutex_unlock(&adev->hmm.lock);
	sort(p->ctx, p->n, sizeof(*p->ctx), amdx_hmm_holder_cmp, NULL);
}

static void amdx_hmm_pinners_put(struct amdx_hmm_pinners *p)
{
	u32 i;

	for (i = 0; i < p->n; i++)
		amdx_hmm_ctx_put(p->ctx[i]);
	kvfree(p->ctx);
}

/*
 * Move up to @er->want of @er->adev's pages mapped anywhere in @ctx's
 * address space home, in steps of at most %AMDX_HMM_BATCH pages inside VMAs that
 * map some (counted at page-table cost, amdx_hmm_count_local()), skipping
 * steps that meet a pinned range, a range counting pages in VRAM or,
 * in @er->self, [@er->ex_start, @er->ex_end).  The caller holds a reference on the mm and no
 * mmap lock; an address space whose lock is taken is skipped
 * (amdx_hmm_evict_lock_mm()).  Pages placed at an address their fd pins
 * stay, whichever address space this is (amdx_hmm_pinned_page()).
 */
static void amdx_hmm_evict_mm(const struct amdx_hmm_evict_req *er,
			      struct amdx_hmm_ctx *ctx,
			      const struct amdx_hmm_pinners *pins,
			      struct amdx_hmm_result *res)
{
	struct amdx_device *adev = er->adev;
	u64 ex_start = ctx == er->self ? er->ex_start : 0;
	u64 ex_end = ctx == er->self ? er->ex_end : 0, want = er->want;
	struct amdx_migrate_req req = {
		.adev = adev, .mm = ctx->mm, .dest = AMDX_HMM_LOC_SYSTEM,
		.owner = er->owner, .res = res, .only_owner = true,
		.keep = amdx_hmm_pinned_page, .keep_arg = pins,
	};
	unsigned long addr = 0, next;
	struct vm_area_struct *vma;
	bool skip;

	if (!amdx_hmm_evict_lock_mm(ctx->mm))
		return;
	while (res->moved < want && !fatal_signal_pending(current)) {
		vma = find_vma(ctx->mm, addr);
		if (!vma)
			break;
		addr = max(addr, vma->vm_start);
		/* Most VMAs hold none: skip them at page-table cost. */
		if (addr == vma->vm_start &&
		    !amdx_hmm_count_local(adev->desc.pgmap_owner, ctx->mm,
					  vma->vm_start, vma->vm_end)) {
			addr = vma->vm_end;
			cond_resched();
			continue;
		}
		next = min_t(u64, vma->vm_end,
			     addr + (min_t(u64, want - res->moved,
					   AMDX_HMM_BATCH) << PAGE_SHIFT));
		spin_lock(&ctx->lock);
		skip = amdx_hmm_covered_in(ctx, addr, next);
		spin_unlock(&ctx->lock);
		if (!skip && (addr >= ex_end || next <= ex_start))
			amdx_migrate_mm(&req, addr, next);
		addr = next;
		cond_resched();
	}
	mmap_read_unlock(ctx->mm);
}

/*
 * Last resort of a full memory partition @er->part (%AMDX_HMM_LOC_SYSTEM:
 * any): pages charged to @er->owner found by VRAM index, wherever they
 * are mapped (a fork() child's after its parent's copy-on-write, which no
 * address space of a context maps): first those of every other fd of
 * that owner and of nobody (fds gone), then @er->self's, but never a
 * page placed at an address its fd pins (amdx_hmm_pinned_page(), @pins)
 * nor one of @er->self's placed at an address in [@er->ex_start,
 * @er->ex_end), the span its migration is moving in (amdx_hmm_page_in()).
 * A pinning fd missing from @pins keeps all its pages.  Adds to *@moved,
 * up to @er->want.
 *
 * Costs one walk of the device's contexts (each asked for its page count
 * first: an fd holding none costs a lock round trip, its ranges are not
 * looked at) and at most two walks of the partition's pages by index
 * (amdx_hmm_move_owned(), amdx_hmm_move_held()), whatever the number of
 * fds: never a walk per fd; a page of a pinning fd costs a look-up in
 * its ranges.
 */
static void amdx_hmm_evict_held(const struct amdx_hmm_evict_req *er,
				const struct amdx_hmm_pinners *pins,
				u64 *moved)
{
	struct amdx_device *adev = er->adev;
	struct amdx_hmm_ctx *self = er->self, *ctx;
	struct amdx_vram *v = adev->desc.vram;
	struct amdx_hmm_held h = {
		.end = amdx_vram_npages(v), .want = er->want,
		.owner = er->owner, .keep = amdx_hmm_pinned_page,
		.keep_arg = pins,
	};
	bool pinning, self_ok = false;
	unsigned long *holders;
	u64 before = *moved;

	if (er->part != AMDX_HMM_LOC_SYSTEM) {
		h.first = amdx_vram_part_base(v, er->part);
		h.end = h.first + amdx_vram_part_size(v, er->part);
	}
	holders = bitmap_zalloc(AMDX_VRAM_MAX_HOLDERS + 1, GFP_KERNEL);
	if (!holders)
		return;
	__set_bit(AMDX_VRAM_NO_HOLDER, holders);
	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		if (ctx->owner != er->owner ||
		    !amdx_hmm_ctx_used(ctx, NULL))
			continue;
		if (!amdx_hmm_pinner(pins, ctx->holder)) {
			spin_lock(&ctx->lock);
			pinning = amdx_hmm_ctx_pins(ctx);
			spin_unlock(&ctx->lock);
			if (pinning)
				continue;
		}
		if (ctx == self)
			self_ok = true;
		else
			__set_bit(ctx->holder, holders);
	}
	mutex_unlock(&adev->hmm.lock);
	amdx_hmm_move_owned(adev, &h, holders, moved);
	bitmap_free(holders);
	if (self_ok && *moved < h.want) {
		h.holder = self->holder;
		h.keep_lo = er->ex_start >> PAGE_SHIFT;
		h.keep_hi = DIV_ROUND_UP_ULL(er->ex_end, PAGE_SIZE);
		amdx_hmm_move_held(adev, &h, moved);
	}
	if (*moved > before) {
		amdx_stats_migrated(adev, AMDX_MIG_EVICT, *moved - before);
		trace_amdx_hmm_evict(amdx_device_id(adev), 0, 0,
				     *moved - before);
	}
}

/*
 * Contexts of @er->owner whose fds hold pages (amdx_hmm_ctx_used()),
 * each with a reference on it and on its mm, @er->self last, into a new
 * array of *@n.  One walk of the list counts them, one more takes them:
 * never a walk per context.  NULL when there are none or on -ENOMEM.
 */
static struct amdx_hmm_ctx **
amdx_hmm_evict_ctxs(const struct amdx_hmm_evict_req *er, u32 *n)
{
	struct amdx_device *adev = er->adev;
	struct amdx_hmm_ctx **cs, *ctx;
	u32 max = 0, k = 0;
	bool self = false;

	*n = 0;
	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node)
		if (ctx->owner == er->owner &&
		    amdx_hmm_ctx_used(ctx, NULL))
			max++;
	mutex_unlock(&adev->hmm.lock);
	if (!max)
		return NULL;
	cs = kvmalloc_array(max, sizeof(*cs), GFP_KERNEL);
	if (!cs)
		return NULL;
	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		if (k + self == max)
			break;
		if (ctx->owner != er->owner ||
		    !amdx_hmm_ctx_used(ctx, NULL) ||
		    !mmget_not_zero(ctx->mm))
			continue;
		kref_get(&ctx->ref);
		if (ctx == er->self)
			self = true;
		else
			cs[k++] = ctx;
	}
	if (self)
		cs[k++] = er->self;
	mutex_unlock(&adev->hmm.lock);
	*n = k;
	return cs;
}

/*
 * The partition is full and no range counts pages in it, yet pages are
 * there: mapped where no range covers them (mremap() moved them and the
 * old range was clipped).  Look for them in the address space of every
 * context on @er->adev charging @er->owner whose fd holds pages,
 * @er->self's own last and never its [@er->ex_start, @er->ex_end), and
 * move up to @er->want home; when that finds none, by holder
 * (amdx_hmm_evict_held()).  An fd that holds no page is not looked at:
 * pages mapped only in its address space belong to another fd of that
 * process (looked at through that one) or to a closed one
 * (amdx_hmm_evict_held() finds them by index).
 * Returns 0 when something moved, else -ENOSPC.
 */
static int amdx_hmm_evict_uncovered(const struct amdx_hmm_evict_req *er)
{
	struct amdx_device *adev = er->adev;
	struct amdx_hmm_result res = {};
	struct amdx_hmm_pinners pins;
	struct amdx_hmm_ctx **cs, *c;
	u64 want = er->want, before;
	u32 i, n;
	int ret = 0;

	amdx_hmm_pinners_get(er, &pins);
	cs = amdx_hmm_evict_ctxs(er, &n);
	for (i = 0; i < n; i++) {
		c = cs[i];
		if (res.moved < want && !ret) {
			before = res.moved;
			amdx_hmm_evict_mm(er, c, &pins, &res);
			spin_lock(&c->lock);
			c->total.pages_out += res.moved - before;
			c->total.bytes_out += (res.moved - before) << PAGE_SHIFT;
			c->total.evictions++;
			spin_unlock(&c->lock);
			trace_amdx_hmm_evict(amdx_device_id(adev), c->tgid, 0,
					     res.moved - before);
			amdx_stats_migrated(adev, AMDX_MIG_EVICT,
					    res.moved - before);
			if (fatal_signal_pending(current))
				ret = -EINTR;
		}
		mmput(c->mm);
		amdx_hmm_ctx_put(c);
	}
	kvfree(cs);
	if (!ret && !res.moved)
		amdx_hmm_evict_held(er, &pins, &res.moved);
	amdx_hmm_pinners_put(&pins);
	if (ret)
		return ret;
	return res.moved ? 0 : -ENOSPC;
}

/*
 * Move @er->want pages of the least recently used unpinned range with
 * pages in VRAM home (all of it when it holds fewer): of any context on
 * @er->adev charging @er->owner, @er->self's own last; unless @er->part is
 * %AMDX_HMM_LOC_SYSTEM, only ranges with pages in memory partition
 * @er->part (evicting another partition's data makes no room in a full
 * one).
 * Inside the range the walk goes up from its start, in steps no longer
 * than what is still to move, so it never moves more than asked however
 * large the range (adjacent ranges with equal attributes merge).  Never
 * the span [@er->ex_start, @er->ex_end) of @er->self.  The caller holds no mmap lock.
 * Returns 0 when something was evicted, -ENOSPC when nothing could be,
 * -EINTR on a fatal signal.
 */
static int amdx_hmm_evict(const struct amdx_hmm_evict_req *er)
{
	struct amdx_device *adev = er->adev;
	struct amdx_hmm_ctx *self = er->self, *ctx, *victim = NULL;
	u64 ex_start = er->ex_start, ex_end = er->ex_end, want = er->want;
	u32 part = er->part;
	struct amdx_hmm_result res = {};
	struct amdx_migrate_req req = {
		.adev = adev, .dest = AMDX_HMM_LOC_SYSTEM, .res = &res,
		.owner = er->owner, .only_owner = true,
	};
	u64 best = U64_MAX, start = 0, end = 0, t0, addr, next;
	struct amdx_range *r;
	bool busy = false;
	int ret = 0;

	mutex_lock(&adev->hmm.lock);
	list_for_each_entry(ctx, &adev->hmm.ctxs, dev_node) {
		if (ctx->owner != er->owner)
			continue;
		spin_lock(&ctx->lock);
		list_for_each_entry(r, &ctx->ranges.ranges, node) {
			/* Prefer others' ranges: bias ours to the end. */
			u64 key = r->last_used + (ctx == self ? U64_MAX / 2 : 0);

			u64 s = r->start, e = r->end;

			if ((r->attr.flags & AMDX_HMM_F_PIN) || !r->resident ||
			    key >= best)
				continue;
			if (part != AMDX_HMM_LOC_SYSTEM &&
			    !(r->resident_parts & BIT(part)))
				continue;
			/* Never the span being migrated in: what is left. */
			if (ctx == self && s < ex_end && e > ex_start) {
				if (s < ex_start)
					e = ex_start;
				else if (e > ex_end)
					s = ex_end;
				else
					continue;
			}
			best = key;
			victim = ctx;
			start = s;
			end = e;
		}
		spin_unlock(&ctx->lock);
	}
	if (victim && !mmget_not_zero(victim->mm))
		victim = NULL;
	if (victim)
		kref_get(&victim->ref);
	mutex_unlock(&adev->hmm.lock);
	if (!victim)
		return amdx_hmm_evict_uncovered(er);

	t0 = ktime_get_ns();
	req.mm = victim->mm;
	for (addr = start; addr < end && res.moved < want; addr = next) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		next = min(end, addr + ((want - res.moved) << PAGE_SHIFT));
		if (!amdx_hmm_evict_lock_mm(victim->mm)) {
			busy = true;
			break;
		}
		ret = amdx_migrate_mm(&req, addr, next);
		mmap_read_unlock(victim->mm);
		if (ret)
			break;
		cond_resched();
	}
	res.ns = ktime_get_ns() - t0;
	mmput(victim->mm);
	amdx_hmm_account(victim, start, AMDX_HMM_LOC_SYSTEM, &res,
			 AMDX_MIG_EVICT);
	amdx_stats_migrated(adev, AMDX_MIG_EVICT, res.moved);
	if (!res.moved && addr >= end) {
		/* Nothing came back: forget the stale residency hint. */
		spin_lock(&victim->lock);
		r = amdx_range_find(&victim->ranges, start);
		if (r)
			amdx_range_forget_resident(r, AMDX_HMM_LOC_SYSTEM);
		spin_unlock(&victim->lock);
	}
	trace_amdx_hmm_evict(amdx_device_id(adev), victim->tgid, start,
			     res.moved);
	amdx_hmm_ctx_put(victim);
	if (busy && !res.moved && !fatal_signal_pending(current))
		/* Its mmap lock is taken: look elsewhere, by VRAM index too. */
		return amdx_hmm_evict_uncovered(er);
	return ret;
}

/**
 * amdx_hmm_migrate_range() - migrate [start, end) of a context's process
 * @ctx: the context; the caller's mm is ctx->mm.
 * @start: first byte, page aligned.
 * @end: one past the last byte, page aligned.
 * @dest: a memory partition or %AMDX_HMM_LOC_SYSTEM.
 * @res: out: the outcome, accumulated.
 *
 * Takes the mmap lock itself; evicts least recently used ranges when the
 * partition is full.  Towards VRAM the fd gets its holder id first
 * (amdx_hmm_ctx_holder_get()).
 *
 * Return: 0 (see @res for what moved), -EINTR on a fatal signal, -ENOSPC
 * when the fd can get no holder id, -ENOMEM.
 */
int amdx_hmm_migrate_range(struct amdx_hmm_ctx *ctx, u64 start, u64 end,
			   u32 dest, struct amdx_hmm_result *res)
{
	struct amdx_device *adev = ctx->adev;
	struct amdx_migrate_req req = {
		.adev = adev, .mm = ctx->mm, .dest = dest,
		.owner = ctx->owner, .res = res,
	};
	struct amdx_hmm_evict_req er = {
		.adev = adev, .self = ctx, .ex_start = start, .ex_end = end,
		.owner = ctx->owner,
	};
	unsigned long addr = start;
	u64 t0 = ktime_get_ns();
	int evictions = 0, ret;

	if (dest != AMDX_HMM_LOC_SYSTEM) {
		ret = amdx_hmm_ctx_holder_get(ctx);
		if (ret)
			return ret;
	}
	req.holder = READ_ONCE(ctx->holder);
	for (;;) {
		if (fatal_signal_pending(current))
			return -EINTR;
		if (mmap_read_lock_killable(ctx->mm))
			return -EINTR;
		ret = amdx_migrate_mm(&req, addr, end);
		mmap_read_unlock(ctx->mm);
		if (ret != -ENOSPC && ret != -EDQUOT)
			break;
		/*
		 * Partition full (or a VF at its quota) from req.resume on: make
		 * room, retry there.  Room in a full partition comes only
		 * from data in that partition; a VF's quota spans all, and it
		 * evicts only with %AMDX_VF_F_EVICT.  Either way only data of
		 * the fd's own owner moves: never another tenant's.
		 */
		er.part = ret == -EDQUOT ? AMDX_HMM_LOC_SYSTEM : dest;
		er.want = ((end - req.resume) >> PAGE_SHIFT) +
			  AMDX_HMM_EVICT_SLACK;
		if (evictions++ >= AMDX_HMM_MAX_EVICT ||
		    (ret == -EDQUOT && !READ_ONCE(ctx->vf_evict)) ||
		    amdx_hmm_evict(&er)) {
			res->skipped += (end - req.resume) >> PAGE_SHIFT;
			res->reasons |= AMDX_HMM_SKIP_NO_MEMORY;
			ret = 0;
			break;
		}
		addr = req.resume;
	}
	res->ns = ktime_get_ns() - t0;
	trace_amdx_hmm_migrate(amdx_device_id(adev), ctx->tgid, start,
			       (end - start) >> PAGE_SHIFT, dest, res->moved,
			       res->ns);
	return ret;
}
