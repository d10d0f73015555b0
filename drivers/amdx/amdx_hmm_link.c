// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: HMM across a fabric link
 *
 * What the HMM path does for a link of the hive that is not up
 * (amdx_link.c, Documentation/fabric.rst "Containment"): a range's
 * ``access`` set names the devices that reach its data; data in the VRAM
 * of device A that device B accesses crosses the link A-B.
 *
 * While the link asks for anything but *none*, no new data is placed
 * across it: a MIGRATE towards A's VRAM of a span with a range (one that
 * would go to VRAM) naming B fails with ``-ENOLINK`` before moving a page
 * (amdx_hmm_link_check()), and so does a SET_ATTR adding B to the access
 * set of a range with pages in A's VRAM, before changing anything
 * (amdx_hmm_link_access()); one rule (amdx_hmm_link_blocked()) for both,
 * and the log names the link (amdx_hmm_link_refuse()).  The core keeps
 * per device the peers whose link asks for that
 * (&amdx_hmm_dev.link_avoid, amdx_hmm_link_avoid()).
 *
 * When the link asks to move what crosses it (a replay storm, down,
 * parked), amdx_hmm_link_move() brings home every range of A's fds that
 * counts pages in A's VRAM and names B, and takes on to B's VRAM what the
 * same process's range on B (its fd of B) prefers in one of B's memory
 * partitions, unless the data there would cross a link that takes no
 * new data (amdx_link_move_dest(), the rule; amdx_hmm_link_to_span()).
 * The data goes through system memory, not across the link being
 * contained.  Ranges not naming B stay where they are.  Each process's
 * pages moved are %AMDX_EVENT_MIGRATE records: home at A, to VRAM at B.
 *
 * A range that must stay where it is (amdx_link_range_fate(): pinned,
 * %AMDX_HMM_F_PIN) is not moved: B loses its access instead
 * (amdx_hmm_link_revoke()): B leaves the range's access set and B's
 * mirror of that address space is invalidated, so B's next ACCESS there
 * fails with -EACCES and none in progress copies after the revoke; the
 * data and the owner's access stay.  The link code records it as an
 * %AMDX_ACTION_LINK_REVOKE action before the move.
 *
 * What B must give for that is tried, never waited for (the caller holds
 * A's device lock and may hold a provider's locks): B's device lock, its
 * RAS lock (a device flagged for RMA that refuses use takes nothing), its
 * VRAM gate, the address space's mmap lock.  B's range must be of a PF
 * fd that holds VRAM already (the link's containment gives no fd a
 * holder id: it would charge whoever reported the fault), the memory
 * partition B's PF may place in (amdx_partition_mem_check()), with room:
 * nothing is evicted for it.  Whatever cannot go to B stays home.
 *
 * Left open: a MIGRATE already past its check when the link goes bad
 * places its data; the next move (the link's next change to a state
 * that moves) takes it home.
 */
#include <linux/bitops.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "amdx_core.h"
#include "amdx_hmm_ctx.h"
#include "amdx_hmm_link.h"
#include "amdx_hmm_migrate.h"
#include "amdx_link_model.h"
#include "amdx_partition_gate.h"
#include "amdx_ras_poison.h"

/* Bytes one hold of a process's mmap lock moves at most: 64 MiB. */
#define AMDX_HMM_LINK_STEP	(64ULL << 20)

/**
 * amdx_hmm_link_avoid() - whether new data may be placed across a link
 * @adev: one end of the link.
 * @peer: the amdx device id at its other end.
 * @link: the link's index (%AMDX_QUERY_LINKS), for the log.
 * @avoid: true while the link asks for anything but *none*.
 *
 * Context: any; takes no lock (the bits are atomic).
 */
void amdx_hmm_link_avoid(struct amdx_device *adev, u32 peer, u32 link,
			 bool avoid)
{
	if (peer >= AMDX_MAX_DEVICES)
		return;
	WRITE_ONCE(adev->hmm.link_idx[peer], link);
	if (avoid)
		set_bit(peer, adev->hmm.link_avoid);
	else
		clear_bit(peer, adev->hmm.link_avoid);
}

/*
 * The rule, for MIGRATE and SET_ATTR alike: of the devices in @access,
 * those whose fabric link to @adev takes no new data.  Data in @adev's
 * VRAM that one of them accesses would cross such a link.
 */
static u64 amdx_hmm_link_blocked(struct amdx_device *adev, u64 access)
{
	u64 avoid = 0;

	bitmap_to_arr64(&avoid, adev->hmm.link_avoid, AMDX_MAX_DEVICES);
	return access & avoid;
}

/**
 * amdx_hmm_link_refuse() - log a refusal of amdx_hmm_link_blocked()
 * @adev: the device whose VRAM holds, or would hold, the data.
 * @what: the operation refused, for the log.
 * @at: the start of the range refused.
 * @hit: the devices refused (non-zero); the log names the lowest.
 *
 * Return: -ENOLINK.
 */
int amdx_hmm_link_refuse(struct amdx_device *adev, const char *what, u64 at,
			 u64 hit)
{
	u32 peer = __ffs64(hit), link = READ_ONCE(adev->hmm.link_idx[peer]);

	if (link == U32_MAX)
		amdx_info_ratelimited(adev, "%s refused: range %#llx: device %u would access it in device %u's VRAM, and the fabric has no way between them (another virtual pod, or no link)\n",
				      what, at, peer, amdx_device_id(adev));
	else
		amdx_info_ratelimited(adev, "%s refused: range %#llx: device %u would access it in device %u's VRAM across fabric link %u, which takes no new data\n",
				      what, at, peer, amdx_device_id(adev), link);
	return -ENOLINK;
}

/**
 * amdx_hmm_link_check() - MIGRATE's check of the links a placement crosses
 * @ctx: the migrating fd's context.
 * @start: first byte of the span.
 * @end: one past its last byte.
 * @dest: MIGRATE's destination; %AMDX_HMM_LOC_PREFERRED looks at the
 *	ranges preferring one of the device's @nparts memory partitions.
 * @nparts: the device's memory partitions.
 *
 * Return: 0, or -ENOLINK (logged, naming the link and the range) when a
 * range of the span that would go to VRAM names a device whose link to
 * this one asks that no new data be placed across it.
 */
int amdx_hmm_link_check(struct amdx_hmm_ctx *ctx, u64 start, u64 end,
			u32 dest, u32 nparts)
{
	struct amdx_device *adev = ctx->adev;
	u64 hit = 0, at = 0;
	struct amdx_range *r;

	if (dest == AMDX_HMM_LOC_SYSTEM ||
	    !amdx_hmm_link_blocked(adev, ~0ULL))
		return 0;
	spin_lock(&ctx->lock);
	r = amdx_range_next(&ctx->ranges, start);
	if (r) {
		list_for_each_entry_from(r, &ctx->ranges.ranges, node) {
			if (r->start >= end)
				break;
			if (dest == AMDX_HMM_LOC_PREFERRED &&
			    r->attr.preferred_loc >= nparts)
				continue;
			hit = amdx_hmm_link_blocked(adev, r->attr.access);
			if (hit) {
				at = r->start;
				break;
			}
		}
	}
	spin_unlock(&ctx->lock);
	if (!hit)
		return 0;
	return amdx_hmm_link_refuse(adev, "MIGRATE to VRAM", at, hit);
}

/**
 * amdx_hmm_link_access() - SET_ATTR's check of the access it gives
 * @ctx: the fd's context; the caller holds its lock, so that the check
 *	and the change are one.
 * @start: first byte of the span.
 * @end: one past its last byte.
 * @access: the span's new access set.
 * @at: out: the start of the range refused.
 *
 * Giving a device access to a range with pages in this device's VRAM
 * places data across the link between them as a MIGRATE would; access
 * to data at home crosses no fabric link, and a device the range names
 * already is no new traffic (a move takes it home).
 *
 * Return: the devices refused (amdx_hmm_link_blocked()), 0 if none; the
 * caller logs them with amdx_hmm_link_refuse() once the lock is dropped.
 */
u64 amdx_hmm_link_access(struct amdx_hmm_ctx *ctx, u64 start, u64 end,
			 u64 access, u64 *at)
{
	struct amdx_device *adev = ctx->adev;
	struct amdx_range *r;
	u64 hit;

	lockdep_assert_held(&ctx->lock);
	if (!amdx_hmm_link_blocked(adev, access))
		return 0;
	r = amdx_range_next(&ctx->ranges, start);
	if (!r)
		return 0;
	list_for_each_entry_from(r, &ctx->ranges.ranges, node) {
		if (r->start >= end)
			break;
		if (!r->resident)
			continue;
		hit = amdx_hmm_link_blocked(adev, access & ~r->attr.access);
		if (hit) {
			*at = r->start;
			return hit;
		}
	}
	return 0;
}

/*
 * What the containment of the link to @peer does to range @r (its fd's
 * device's end): a range counting no pages in VRAM crosses nothing.
 */
static u32 amdx_hmm_link_fate(const struct amdx_range *r, u32 peer)
{
	if (!r->resident)
		return AMDX_LINK_RANGE_KEEP;
	return amdx_link_range_fate(peer, r->attr.flags, r->attr.access);
}

/*
 * References on @d's contexts (only those of @mm, unless it is NULL), in
 * a new array (kvfree(); amdx_hmm_ctx_put() each) of *@n; NULL with *@n
 * 0 when there are none, or -ENOMEM in *@err.
 */
static struct amdx_hmm_ctx **amdx_hmm_link_ctxs(struct amdx_device *d,
						struct mm_struct *mm, u32 *n,
						int *err)
{
	struct amdx_hmm_ctx **cs, *ctx;
	u32 max = 0;

	*n = 0;
	*err = 0;
	mutex_lock(&d->hmm.lock);
	list_for_each_entry(ctx, &d->hmm.ctxs, dev_node)
		max += !mm || ctx->mm == mm;
	mutex_unlock(&d->hmm.lock);
	if (!max)
		return NULL;
	cs = kvmalloc_array(max, sizeof(*cs), GFP_KERNEL);
	if (!cs) {
		*err = -ENOMEM;
		return NULL;
	}
	mutex_lock(&d->hmm.lock);
	list_for_each_entry(ctx, &d->hmm.ctxs, dev_node) {
		if (*n == max)
			break;
		if (mm && ctx->mm != mm)
			continue;
		kref_get(&ctx->ref);
		cs[(*n)++] = ctx;
	}
	mutex_unlock(&d->hmm.lock);
	return cs;
}

/*
 * As amdx_hmm_link_ctxs(), every context of @adev, when its VRAM may hold
 * data that crosses the link to device @peer: none (NULL, *@n and *@err
 * 0) without HMM VRAM or for no other device.
 */
static struct amdx_hmm_ctx **amdx_hmm_link_peer_ctxs(struct amdx_device *adev,
						     u32 peer, u32 *n,
						     int *err)
{
	*n = 0;
	*err = 0;
	if (!(adev->desc.flags & AMDX_DEVICE_F_HMM) ||
	    peer >= AMDX_MAX_DEVICES || peer == amdx_device_id(adev))
		return NULL;
	return amdx_hmm_link_ctxs(adev, NULL, n, err);
}

static void amdx_hmm_link_ctxs_put(struct amdx_hmm_ctx **cs, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		amdx_hmm_ctx_put(cs[i]);
	kvfree(cs);
}

/*
 * The next range of @ctx at or after @from that counts pages in VRAM,
 * names @peer and moves (amdx_link_range_fate()), as [*@s, *@e); false
 * when none is left.
 */
static bool amdx_hmm_link_next(struct amdx_hmm_ctx *ctx, u64 from, u32 peer,
			       u64 *s, u64 *e)
{
	struct amdx_range *r;
	bool found = false;

	spin_lock(&ctx->lock);
	r = amdx_range_next(&ctx->ranges, from);
	if (r) {
		list_for_each_entry_from(r, &ctx->ranges.ranges, node) {
			if (amdx_hmm_link_fate(r, peer) != AMDX_LINK_RANGE_MOVE)
				continue;
			*s = max(r->start, from);
			*e = min(r->end, *s + AMDX_HMM_LINK_STEP);
			found = true;
			break;
		}
	}
	spin_unlock(&ctx->lock);
	return found;
}

/**
 * struct amdx_hmm_link_to - the accessing device, while data may go on to it
 * @adev: the device at the link's other end, referenced, locked for read
 *	and inside its VRAM gate; NULL when nothing goes there.
 * @nparts: its memory partitions.
 * @avoid: the devices whose fabric link to it takes no new data.
 * @moved: pages placed in its VRAM.
 */
struct amdx_hmm_link_to {
	struct amdx_device *adev;
	u32 nparts;
	u64 avoid;
	u64 moved;
};

/*
 * Whether data may go on to device @peer's VRAM: every lock it needs is
 * tried, none waited for (see the DOC block).
 */
static void amdx_hmm_link_to_begin(struct amdx_hmm_link_to *to, u32 peer)
{
	struct amdx_device_state st = {};
	struct amdx_device *b;

	memset(to, 0, sizeof(*to));
	b = amdx_device_get(peer);
	if (!b)
		return;
	if (!down_read_trylock(&b->lock))
		goto put;
	if (b->dead || !(b->desc.flags & AMDX_DEVICE_F_HMM) ||
	    amdx_ras_vram_refused_nowait(b) ||
	    !amdx_partition_vram_trybegin(b))
		goto unlock;
	if (b->ops->get_state(b, &st) || !st.num_mem_partitions) {
		amdx_partition_vram_end(b);
		goto unlock;
	}
	to->adev = b;
	to->nparts = st.num_mem_partitions;
	to->avoid = amdx_hmm_link_blocked(b, ~0ULL);
	return;
unlock:
	up_read(&b->lock);
put:
	amdx_device_put(b);
}

static void amdx_hmm_link_to_end(struct amdx_hmm_link_to *to)
{
	struct amdx_device *b = to->adev;

	if (!b)
		return;
	amdx_partition_vram_end(b);
	up_read(&b->lock);
	amdx_device_put(b);
	to->adev = NULL;
}

/*
 * The next piece of [@from, @end) that a range of @cb (the process's fd
 * of the accessing device) sends there (amdx_link_move_dest()), as
 * [*@s, *@e) to memory partition *@dest; false when none is left.
 */
static bool amdx_hmm_link_to_next(struct amdx_hmm_ctx *cb,
				  const struct amdx_hmm_link_to *to, u64 from,
				  u64 end, u64 *s, u64 *e, u32 *dest)
{
	u32 peer = amdx_device_id(to->adev), d;
	struct amdx_range *r;
	bool found = false;

	spin_lock(&cb->lock);
	r = amdx_range_next(&cb->ranges, from);
	if (r) {
		list_for_each_entry_from(r, &cb->ranges.ranges, node) {
			if (r->start >= end)
				break;
			d = amdx_link_move_dest(peer, r->attr.preferred_loc,
						r->attr.access, to->nparts,
						to->avoid);
			if (d == AMDX_HMM_LOC_SYSTEM)
				continue;
			*s = max(r->start, from);
			*e = min(r->end, end);
			*dest = d;
			found = true;
			break;
		}
	}
	spin_unlock(&cb->lock);
	return found;
}

/*
 * Places in the accessing device's VRAM what of [@s, @e) of @ctx's
 * process (just moved home; the caller holds the mmap lock for read) that
 * process's range on the accessing device prefers there.  What cannot go
 * stays home.
 */
static int amdx_hmm_link_to_span(struct amdx_hmm_ctx *ctx,
				 struct amdx_hmm_link_to *to, u64 s, u64 e)
{
	struct amdx_device *b = to->adev;
	u64 from = s, ps, pe, placed = 0;
	struct amdx_hmm_ctx *cb;
	int ret = 0;
	u32 dest;

	cb = amdx_hmm_ctx_of_mm(b, ctx->mm, s);
	if (!cb)
		return 0;
	if (cb->owner != AMDX_OWNER_PF || !READ_ONCE(cb->holder))
		goto out;
	while (!ret &&
	       amdx_hmm_link_to_next(cb, to, from, e, &ps, &pe, &dest)) {
		struct amdx_hmm_result res = {};
		struct amdx_migrate_req req = {
			.adev = b, .mm = ctx->mm, .dest = dest,
			.owner = cb->owner, .holder = READ_ONCE(cb->holder),
			.res = &res,
		};
		u64 t0 = ktime_get_ns();

		from = pe;
		if (amdx_partition_mem_check(b, dest, AMDX_VF_NONE))
			continue;
		ret = amdx_migrate_mm(&req, ps, pe);
		/* Full: the rest stays home; nothing is evicted for it. */
		if (ret == -ENOSPC || ret == -EDQUOT)
			ret = 0;
		res.ns = ktime_get_ns() - t0;
		amdx_hmm_account(cb, ps, dest, &res, AMDX_MIG_TO_VRAM);
		placed += res.moved;
	}
	to->moved += placed;
	amdx_hmm_event_migrate(b, &cb->who, false, placed);
out:
	amdx_hmm_ctx_put(cb);
	return ret;
}

/*
 * Moves home what @ctx's ranges naming @peer hold in VRAM, and on to the
 * peer what its ranges there prefer there (@to), adding the pages moved
 * to *@moved and those left (an address space whose mmap lock is taken
 * for writing, busy pages) to *@left.
 */
static int amdx_hmm_link_move_ctx(struct amdx_hmm_ctx *ctx, u32 peer,
				  struct amdx_hmm_link_to *to, u64 *moved,
				  u64 *left)
{
	u64 from = 0, s, e, ctx_moved = 0;
	int ret = 0;

	while (amdx_hmm_link_next(ctx, from, peer, &s, &e)) {
		struct amdx_hmm_result res = {};
		struct amdx_migrate_req req = {
			.adev = ctx->adev, .mm = ctx->mm,
			.dest = AMDX_HMM_LOC_SYSTEM, .owner = ctx->owner,
			.only_owner = true, .res = &res,
		};
		u64 t0 = ktime_get_ns();

		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		/* The caller may hold locks: another's mmap lock is tried. */
		if (!mmap_read_trylock(ctx->mm)) {
			*left += (e - s) >> PAGE_SHIFT;
			from = e;
			continue;
		}
		ret = amdx_migrate_mm(&req, s, e);
		res.ns = ktime_get_ns() - t0;
		amdx_hmm_account(ctx, s, AMDX_HMM_LOC_SYSTEM, &res,
				 AMDX_MIG_TO_RAM);
		ctx_moved += res.moved;
		*left += res.skipped;
		if (!ret && to->adev)
			ret = amdx_hmm_link_to_span(ctx, to, s, e);
		mmap_read_unlock(ctx->mm);
		if (ret)
			break;
		from = e;
		cond_resched();
	}
	*moved += ctx_moved;
	amdx_hmm_event_migrate(ctx->adev, &ctx->who, true, ctx_moved);
	return ret;
}

/**
 * amdx_hmm_link_move() - move what crosses a fabric link off it
 * @adev: the end whose VRAM holds the data; the caller holds its lock for
 *	read and it is not dead.
 * @peer: the amdx device id at the link's other end.
 * @moved: out: pages moved out of @adev's VRAM.
 * @to_peer: out: of those, pages placed on in @peer's VRAM.
 * @left: out: pages of those ranges that stayed (busy, or their address
 *	space locked for writing).
 *
 * Every range of @adev's fds that counts pages in VRAM and whose access
 * set names @peer comes home, and goes on to @peer's VRAM where the
 * process's range on @peer asks for it (the DOC block); no other range
 * is looked at twice or moved.  Takes each fd's mmap lock and whatever
 * of @peer's it needs only if it is free (never waits for one), so it
 * may run under a provider's locks.
 *
 * Return: 0, -EINTR on a fatal signal, -ENOMEM, or an error of the
 * migration engine; the counts say what happened until then.
 */
int amdx_hmm_link_move(struct amdx_device *adev, u32 peer, u64 *moved,
		       u64 *to_peer, u64 *left)
{
	struct amdx_hmm_link_to to;
	struct amdx_hmm_ctx **cs;
	int ret, err;
	u32 n, i;

	*moved = 0;
	*to_peer = 0;
	*left = 0;
	cs = amdx_hmm_link_peer_ctxs(adev, peer, &n, &ret);
	if (!cs)
		return ret;
	amdx_hmm_link_to_begin(&to, peer);
	for (i = 0; i < n; i++) {
		if (ret || !mmget_not_zero(cs[i]->mm))
			continue;
		err = amdx_hmm_link_move_ctx(cs[i], peer, &to, moved, left);
		if (err)
			ret = err;
		mmput(cs[i]->mm);
	}
	*to_peer = to.moved;
	amdx_hmm_link_to_end(&to);
	amdx_hmm_link_ctxs_put(cs, n);
	return ret;
}

/*
 * Invalidates device @peer's mirror of @mm: each of its fds in @mm that
 * is in an ACCESS which checked the access sets before the revoke checks
 * them again before it copies (&amdx_hmm_ctx.revoked).  Waits for the
 * copy in progress, as an invalidation by the mm does.
 */
static void amdx_hmm_link_unmirror(u32 peer, struct mm_struct *mm)
{
	struct amdx_hmm_ctx **cs;
	struct amdx_device *b;
	u32 n = 0, i;
	int err;

	b = amdx_device_get(peer);
	if (!b)
		return;
	cs = b->desc.flags & AMDX_DEVICE_F_HMM ?
	     amdx_hmm_link_ctxs(b, mm, &n, &err) : NULL;
	for (i = 0; i < n; i++) {
		mutex_lock(&cs[i]->mirror_lock);
		cs[i]->revoked++;
		mutex_unlock(&cs[i]->mirror_lock);
	}
	if (cs)
		amdx_hmm_link_ctxs_put(cs, n);
	amdx_device_put(b);
}

/**
 * amdx_hmm_link_revoke() - take a link's other end's access to what stays
 * @adev: the end whose VRAM holds the data; the caller holds its lock for
 *	read and it is not dead.
 * @peer: the amdx device id at the link's other end.
 * @count: only count, change nothing.
 * @ranges: out: ranges of @adev's fds whose access set lost @peer (or
 *	would).
 * @pages: out: their pages in @adev's VRAM, which stay there.
 *
 * Every range of @adev's fds that counts pages in VRAM, names @peer and
 * must stay where it is (amdx_link_range_fate(): %AMDX_HMM_F_PIN) stops
 * naming @peer, and @peer's mirror of that address space is invalidated
 * (amdx_hmm_link_unmirror()), so that @peer's next ACCESS there fails
 * with -EACCES and none in progress copies after this returns.  The
 * owner's access and the data stay.  SET_ATTR gives @peer its access
 * back only once the link is up again (amdx_hmm_link_access()).
 *
 * Context: takes @adev's and @peer's &amdx_hmm_dev.lock, the contexts'
 * locks and @peer's contexts' mirror_lock; no mmap lock.
 * Return: 0 or -ENOMEM; the counts say what happened until then.
 */
int amdx_hmm_link_revoke(struct amdx_device *adev, u32 peer, bool count,
			 u64 *ranges, u64 *pages)
{
	struct amdx_hmm_ctx **cs;
	struct amdx_range *r;
	u64 nr;
	u32 n, i;
	int ret;

	*ranges = 0;
	*pages = 0;
	cs = amdx_hmm_link_peer_ctxs(adev, peer, &n, &ret);
	if (!cs)
		return ret;
	for (i = 0; i < n; i++) {
		nr = 0;
		/* At most AMDX_HMM_RANGES_MAX ranges: bounded. */
		spin_lock(&cs[i]->lock);
		list_for_each_entry(r, &cs[i]->ranges.ranges, node) {
			if (amdx_hmm_link_fate(r, peer) !=
			    AMDX_LINK_RANGE_REVOKE)
				continue;
			nr++;
			*pages += r->resident;
			if (!count)
				r->attr.access &= ~BIT_ULL(peer);
		}
		if (nr && !count)
			amdx_range_merge(&cs[i]->ranges);
		spin_unlock(&cs[i]->lock);
		*ranges += nr;
		if (nr && !count)
			amdx_hmm_link_unmirror(peer, cs[i]->mm);
		cond_resched();
	}
	amdx_hmm_link_ctxs_put(cs, n);
	return 0;
}
