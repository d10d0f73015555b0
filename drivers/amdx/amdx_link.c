// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: Hive links
 *
 * Every XGMI hive (the devices registered with one non-zero hive id) owns
 * one link topology of the link model (amdx_link_model.c): a full mesh of
 * its members, 16-lane XGMI links, grown as each member registers (member
 * k reaches member m on its lowest free port, so a hive registered in
 * order has the model's golden mesh: 8 devices, 7 links each) and shrunk
 * as one unregisters.  At most %AMDX_LINK_HIVE_MAX members get links.
 *
 * A provider reports what it sees on a link with amdx_link_report(); the
 * model's state machine and its hysteresis decide the state (a flapping
 * link is held down, never toggled per report), and a worker lets time
 * pass while a link is held down or storming.  Every change of a link's
 * state is an %AMDX_EVENT_LINK record to the devices at both its ends,
 * lossless like every event, with the containment the new state asks for
 * (amdx_link_contain()).  When taking the link out of use leaves a peer
 * with no route, the peer is parked (each of its links then reports its
 * own change) and only then the recovery ladder is asked for its rung: a
 * device fault on the one local device parked, a fabric fault (the hive
 * rung) on the lowest one when several are; amdx_recovery_fault() sets the
 * pending action with the blast radius the recovery model computes.  Under
 * a fault replay baseline (amdx_recovery_policy.c) a link's uncorrected
 * error is also reported as the fault that driver would see, on the
 * reporting device; under amdx the link's containment is the whole answer.
 *
 * HMM acts on the containment (amdx_hmm_link.c) per pair of members: the
 * way data between two of them goes is their link in a mesh, a plane's
 * two links through its switch in a pod, and the pair is as good as its
 * best way (amdx_link_pair_level()).  After every change each member
 * learns to which others its way is not up, and places no new data
 * there; a pair whose best way comes to moving what crosses it (storm,
 * down, parked; in a pod, on every plane) from one that carried data has
 * the ranges in each end's VRAM that the other end accesses brought home
 * or on to the other end, per the ranges' attributes, recorded at that
 * end as an %AMDX_ACTION_LINK_MOVE action naming the link that decided
 * it; a range that must stay (pinned) stays and the other end loses its
 * access to it instead, an %AMDX_ACTION_LINK_REVOKE action.  A pod's
 * lost plane thus moves nothing while another plane serves both ends.
 *
 * A hive may be a scale-up pod instead (&amdx_device_desc.pod): its first
 * member builds the pod's switches and the accelerators of the other OS
 * domains, known by fabric id only, each linked to every plane's switch;
 * each member adds itself and its plane links.  Reports name a pod's
 * link by accelerator and port (amdx_link_report_port()); a remote
 * accelerator left with no route is parked with no rung on this host,
 * and the records of a link with no end here go to the pod's lowest
 * member.  The pod's fabric manager may divide it into virtual pods
 * (&amdx_pod_desc.vpod_size): a switch carries nothing between two of
 * them, so a peer is parked only for want of a route inside its own, and
 * two devices of this host in different ones have no way at all: HMM
 * places no data between them, as across a link that takes none.
 *
 * %AMDX_QUERY_LINKS lists a hive's links with their counters, the
 * containment each asks for and the hops of the route between its ends
 * now (around it when it is not up).  /sys/class/amdx/amdx<id>/links/
 * lists a device's own links, one value per link and file.
 *
 * Locking: &amdx_link_lock (a mutex) protects the hive list and every
 * topology; it nests under a device's lock (the query) and over the event
 * log's lock, and is never held while taking a device's or RAS lock: the
 * moves (under each device's lock for read) and the escalation run after
 * it is dropped.
 */
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "amdx_core.h"
#include "amdx_event.h"
#include "amdx_hmm_link.h"
#include "amdx_link.h"
#include "amdx_link_model.h"
#include "amdx_ras_types.h"
#include "amdx_recovery.h"
#include "amdx_recovery_model.h"
#include "amdx_recovery_policy.h"

/* Most members of a hive with links (the model's mesh). */
#define AMDX_LINK_HIVE_MAX	16
/* Lanes of an XGMI link at full width. */
#define AMDX_LINK_XGMI_WIDTH	16
/* Lanes of a scale-up pod's link (the model's golden pod). */
#define AMDX_LINK_POD_WIDTH	4
/* How often time passes on a hive with a link held down or storming. */
#define AMDX_LINK_TICK		(HZ / 4)

/**
 * struct amdx_link_hive - the links of one hive
 * @node: entry in &amdx_link_hives.
 * @hive_id: the hive.
 * @pod: the scale-up pod the hive is; all zero: an XGMI hive.
 * @dev: per endpoint of @topo, its device (not referenced: a device
 *	leaves in its REMOVE stage, before it is freed); NULL for a remote
 *	accelerator or a switch of a pod.
 * @seen: per link, the state last reported.
 * @pair: per two devices of this host (amdx device ids, lower first),
 *	what HMM data between them was last told it may do
 *	(amdx_link_pair_level()).
 * @path: scratch for routes.
 * @topo: the topology.
 */
struct amdx_link_hive {
	struct list_head node;
	u64 hive_id;
	struct amdx_pod_desc pod;
	struct amdx_device *dev[AMDX_LINK_MAX_EPS];
	u8 seen[AMDX_LINK_MAX_LINKS];
	u8 pair[AMDX_MAX_DEVICES][AMDX_MAX_DEVICES];
	struct amdx_link_path path;
	struct amdx_link_topo topo;
};

static_assert(sizeof(struct amdx_link_info) >= AMDX_LINK_INFO_SIZE_VER0);
/*
 * A pod's fabric ids and domains (below its endpoints) and a hive's device
 * ids fit the uapi's @fabric_id and @domain.
 */
static_assert(U8_MAX + 1 >= AMDX_LINK_MAX_EPS);
/* A virtual pod's number (from 1) fits the uapi's @vpod. */
static_assert(U8_MAX >= AMDX_LINK_MAX_EPS);
static_assert(sizeof_field(struct amdx_link_info, time_ns) ==
	      AMDX_LINK_STATE_COUNT * sizeof(u64));

/*
 * Moves off links one report or tick may ask for: a parked member's (its
 * pairs with every other member, both directions).
 */
#define AMDX_LINK_MOVES_MAX	(4 * AMDX_LINK_HIVE_MAX)

/**
 * struct amdx_link_move - what crosses one link, to move off it
 * @device: the end whose VRAM holds the data.
 * @peer: the end that accesses it.
 * @link: the link that decided it (amdx_link_pair_level()).
 */
struct amdx_link_move {
	u8 device;
	u8 peer;
	u16 link;
};

static_assert(U8_MAX >= AMDX_MAX_DEVICES);
static_assert(U16_MAX >= AMDX_LINK_MAX_LINKS);

/*
 * What a containment asked for, run after the lock: recovery faults (the
 * rung of a parked device, a baseline's view of a link's uncorrected
 * error), and moves of what crosses a link (both directions of each
 * link).
 */
struct amdx_link_escalation {
	u32 n;
	u32 device[AMDX_LINK_HIVE_MAX];
	u32 kind[AMDX_LINK_HIVE_MAX];
	u32 nmoves;
	struct amdx_link_move move[AMDX_LINK_MOVES_MAX];
};

static LIST_HEAD(amdx_link_hives);
static DEFINE_MUTEX(amdx_link_lock);	/* see the DOC block */

static void amdx_link_tick_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(amdx_link_tick_work, amdx_link_tick_fn);

static struct amdx_link_hive *amdx_link_hive_find(u64 hive_id)
{
	struct amdx_link_hive *h;

	if (!hive_id)
		return NULL;
	list_for_each_entry(h, &amdx_link_hives, node)
		if (h->hive_id == hive_id)
			return h;
	return NULL;
}

static u32 amdx_link_ep_of(const struct amdx_link_hive *h,
			   const struct amdx_device *adev)
{
	u32 i;

	for (i = 0; i < h->topo.num_eps; i++)
		if (h->dev[i] == adev)
			return i;
	return AMDX_LINK_NONE;
}

static u32 amdx_link_ep_of_id(const struct amdx_link_hive *h, u32 id)
{
	u32 i;

	for (i = 0; i < h->topo.num_eps; i++)
		if (h->dev[i] && h->topo.ep[i].device == id)
			return i;
	return AMDX_LINK_NONE;
}

/* The accelerator (local or remote) with fabric id @id of a pod. */
static u32 amdx_link_ep_of_fabric(const struct amdx_link_hive *h, u64 id)
{
	u32 i;

	for (i = 0; i < h->topo.num_eps; i++)
		if (h->topo.ep[i].kind != AMDX_LINK_EP_SWITCH &&
		    h->topo.ep[i].id == id)
			return i;
	return AMDX_LINK_NONE;
}

/* The lowest member of this host in @h, NULL if none is left. */
static struct amdx_device *amdx_link_first_dev(const struct amdx_link_hive *h)
{
	u32 i;

	for (i = 0; i < h->topo.num_eps; i++)
		if (h->dev[i])
			return h->dev[i];
	return NULL;
}

/* The lowest port of @ep no link uses. */
static u8 amdx_link_free_port(const struct amdx_link_topo *t, u32 ep)
{
	DECLARE_BITMAP(used, AMDX_LINK_HIVE_MAX);
	u32 i, e;

	bitmap_zero(used, AMDX_LINK_HIVE_MAX);
	for (i = 0; i < t->num_links; i++)
		for (e = 0; e < 2; e++)
			if (t->link[i].ep[e] == ep &&
			    t->link[i].port[e] < AMDX_LINK_HIVE_MAX)
				__set_bit(t->link[i].port[e], used);
	return find_first_zero_bit(used, AMDX_LINK_HIVE_MAX);
}

/* A link not up is routed around where the mesh allows. */
static u32 amdx_link_hops_now(struct amdx_link_hive *h, u32 i, bool *degraded)
{
	const struct amdx_link *l = &h->topo.link[i];
	u32 avoid = l->state == AMDX_LINK_STATE_UP ? AMDX_LINK_NONE : i;
	int ret;

	ret = amdx_link_route(&h->topo, l->ep[0], l->ep[1], avoid, &h->path);
	if (ret) {
		if (degraded)
			*degraded = true;
		return 0;
	}
	if (degraded)
		*degraded = h->path.degraded || h->path.hops > 1 ||
			    !amdx_link_route_crosses(&h->path, i);
	return h->path.hops;
}

static void amdx_link_emit(struct amdx_link_hive *h, u32 i, u32 old,
			   u32 state, u32 action, u32 hops)
{
	const struct amdx_link_topo *t = &h->topo;
	const struct amdx_link *l = &t->link[i];
	struct amdx_device *to;
	bool any = false;
	u32 e;

	for (e = 0; e < 2; e++) {
		struct amdx_event ev = {
			.kind = AMDX_EVENT_LINK,
			.block = old,
			.type = state,
			.instance = i,
			.partition = AMDX_RAS_PARTITION_ALL,
			.address = h->dev[l->ep[!e]] ?
				   t->ep[l->ep[!e]].device : AMDX_LINK_NONE,
			.data = { action, hops },
		};

		to = h->dev[l->ep[e]];
		/* A pod's link with no end here: to its lowest member. */
		if (!to && e == 1 && !any)
			to = amdx_link_first_dev(h);
		if (!to)
			continue;
		any = true;
		amdx_event_emit(to, &ev);
	}
}

/* The fault of a parking's rung: one device parked, more (the hive). */
static u32 amdx_link_park_fault(u32 rung)
{
	return rung == AMDX_RECOVER_HIVE ? AMDX_FAULT_FABRIC :
	       AMDX_FAULT_DEVICE_UE;
}

/* Fault @kind (%AMDX_FAULT_*) on device @device, after the lock. */
static void amdx_link_escalate_add(struct amdx_link_escalation *esc,
				   u32 device, u32 kind)
{
	if (esc->n < AMDX_LINK_HIVE_MAX) {
		esc->device[esc->n] = device;
		esc->kind[esc->n] = kind;
		esc->n++;
	}
}

/* Data between endpoints @a and @b went from staying to moving off. */
static void amdx_link_move_add(struct amdx_link_hive *h, u32 a, u32 b,
			       u32 via, struct amdx_link_escalation *esc)
{
	const struct amdx_link_topo *t = &h->topo;
	u32 e, ep[2] = { a, b };

	for (e = 0; e < 2; e++) {
		if (esc->nmoves == AMDX_LINK_MOVES_MAX) {
			pr_warn_ratelimited("amdx: hive %llx: link %u: too many links to move off at once; its data stays\n",
					    h->hive_id, via);
			return;
		}
		esc->move[esc->nmoves++] = (struct amdx_link_move){
			.device = t->ep[ep[e]].device,
			.peer = t->ep[ep[!e]].device,
			.link = via,
		};
	}
}

/*
 * Tell the HMM of the devices at endpoints @a and @b whether new data may
 * be placed between them: not unless the pair asks for nothing
 * (amdx_link_pair_level()).  When the pair comes to moving what is there,
 * the moves go into @esc; NULL (a join, a leave): there is nothing yet.
 */
static void amdx_link_pair_sync(struct amdx_link_hive *h, u32 a, u32 b,
				struct amdx_link_escalation *esc)
{
	u32 da = h->topo.ep[a].device, db = h->topo.ep[b].device, via, lvl;
	u8 *seen;

	if (da >= AMDX_MAX_DEVICES || db >= AMDX_MAX_DEVICES)
		return;
	seen = &h->pair[min(da, db)][max(da, db)];
	lvl = amdx_link_pair_level(&h->topo, a, b, &via);
	amdx_hmm_link_avoid(h->dev[a], db, via, lvl != AMDX_LINK_CONTAIN_NONE);
	amdx_hmm_link_avoid(h->dev[b], da, via, lvl != AMDX_LINK_CONTAIN_NONE);
	if (esc && lvl == AMDX_LINK_CONTAIN_MOVE &&
	    *seen != AMDX_LINK_CONTAIN_MOVE)
		amdx_link_move_add(h, a, b, via, esc);
	*seen = lvl;
}

/*
 * amdx_link_pair_sync() for every pair of devices of this host with
 * endpoint @e0 or @e1 in it (a link's ends, or one endpoint twice), each
 * pair once; every pair for %AMDX_LINK_NONE.  A link with no end here
 * changes no pair's way (a pod's ways between two devices of this host
 * are their own plane links).
 */
static void amdx_link_pairs_sync(struct amdx_link_hive *h, u32 e0, u32 e1,
				 struct amdx_link_escalation *esc)
{
	bool all = e0 == AMDX_LINK_NONE;
	u32 a, b;

	for (a = 0; a < h->topo.num_eps; a++) {
		if (!h->dev[a])
			continue;
		for (b = a + 1; b < h->topo.num_eps; b++)
			if (h->dev[b] && (all || a == e0 || a == e1 ||
					  b == e0 || b == e1))
				amdx_link_pair_sync(h, a, b, esc);
	}
}

/*
 * Report every link whose state changed since it was last reported, with
 * the containment it asks for; park the peers a containment leaves with no
 * route (their links' changes are reported in turn) and note the rung.
 */
static void amdx_link_sync(struct amdx_link_hive *h, u64 now_ns,
			   struct amdx_link_escalation *esc)
{
	struct amdx_link_topo *t = &h->topo;
	struct amdx_link_containment c;
	bool again = true;
	u32 i, old, state;
	int ret;

	while (again) {
		again = false;
		for (i = 0; i < t->num_links; i++) {
			if (t->link[i].state == h->seen[i])
				continue;
			old = h->seen[i];
			state = t->link[i].state;
			h->seen[i] = state;
			ret = amdx_link_contain(t, i, &c);
			if (ret) {
				pr_warn_ratelimited("amdx: hive %llx: link %u: no containment (%d)\n",
						    h->hive_id, i, ret);
				c.action = amdx_link_state_level(state);
				c.num_parked = 0;
			}
			if (c.num_parked) {
				if (amdx_link_park_peers(t, &c, now_ns) > 0)
					again = true;
				if (c.escalate != AMDX_RECOVER_NONE)
					amdx_link_escalate_add(esc, c.device,
							       amdx_link_park_fault(c.escalate));
			}
			/*
			 * What the record announces holds before anyone reads
			 * it: a reader that saw "up" may place across the link.
			 */
			amdx_link_pairs_sync(h, t->link[i].ep[0],
					     t->link[i].ep[1], esc);
			/* Parking may have moved the link on: its own record. */
			amdx_link_emit(h, i, old, state, c.action,
				       amdx_link_hops_now(h, i, NULL));
		}
	}
	amdx_link_pairs_sync(h, AMDX_LINK_NONE, AMDX_LINK_NONE, esc);
}

/* Time can change a link's state: it is held down or storming. */
static bool amdx_link_timed(const struct amdx_link_topo *t)
{
	u32 i;

	for (i = 0; i < t->num_links; i++) {
		const struct amdx_link *l = &t->link[i];

		if (l->state == AMDX_LINK_STATE_REPLAY ||
		    (l->state == AMDX_LINK_STATE_DOWN && l->trained))
			return true;
	}
	return false;
}

static void amdx_link_action(struct amdx_device *adev, u16 kind, u64 action,
			     const struct amdx_link_move *m, s64 ret, u64 ns)
{
	struct amdx_event ev = {
		.kind = kind,
		.type = m->peer,
		.instance = m->link,
		.partition = AMDX_RAS_PARTITION_ALL,
		.address = ns,
		.data = { action, (u64)ret },
	};

	amdx_event_emit(adev, &ev);
}

/*
 * Revoke the other end's access to what crosses the link and must stay
 * (amdx_hmm_link_revoke()), recorded as an action when there is any.
 */
static void amdx_link_revoke_run(struct amdx_device *adev,
				 const struct amdx_link_move *m)
{
	u64 ranges, pages, t0;
	int ret;

	if (amdx_hmm_link_revoke(adev, m->peer, true, &ranges, &pages) ||
	    !ranges)
		return;
	t0 = ktime_get_ns();
	amdx_link_action(adev, AMDX_EVENT_ACTION_START, AMDX_ACTION_LINK_REVOKE,
			 m, 0, 0);
	ret = amdx_hmm_link_revoke(adev, m->peer, false, &ranges, &pages);
	amdx_link_action(adev, AMDX_EVENT_ACTION_END, AMDX_ACTION_LINK_REVOKE,
			 m, ret, ktime_get_ns() - t0);
	amdx_info(adev, "fabric link %u to device %u: %llu pinned ranges (%llu pages) stay in VRAM; device %u's access to them revoked (%d)\n",
		  m->link, m->peer, ranges, pages, m->peer, ret);
}

/*
 * Move what crosses each link of @esc off it: the ranges in one end's
 * VRAM that the other end accesses come home or go on to the other end
 * (amdx_hmm_link_move()), or, those that must stay, lose the other end's
 * access (amdx_hmm_link_revoke(), first), each recorded as an action
 * like every containment.
 */
static void amdx_link_move_run(const struct amdx_link_escalation *esc)
{
	const struct amdx_link_move *m;
	struct amdx_device *adev;
	u64 moved, to_peer, left, t0;
	u32 i;
	int ret;

	for (i = 0; i < esc->nmoves; i++) {
		m = &esc->move[i];
		adev = amdx_device_get(m->device);
		if (!adev)
			continue;
		down_read(&adev->lock);
		if (!adev->dead && (adev->desc.flags & AMDX_DEVICE_F_HMM)) {
			amdx_link_revoke_run(adev, m);
			t0 = ktime_get_ns();
			amdx_link_action(adev, AMDX_EVENT_ACTION_START,
					 AMDX_ACTION_LINK_MOVE, m, 0, 0);
			ret = amdx_hmm_link_move(adev, m->peer, &moved,
						 &to_peer, &left);
			amdx_link_action(adev, AMDX_EVENT_ACTION_END,
					 AMDX_ACTION_LINK_MOVE, m, ret,
					 ktime_get_ns() - t0);
			if (moved || left || ret)
				amdx_info(adev, "fabric link %u to device %u: %llu pages device %u accesses moved off, %llu of them on to its VRAM, the rest home; %llu left (%d)\n",
					  m->link, m->peer, moved, m->peer,
					  to_peer, left, ret);
		}
		up_read(&adev->lock);
		amdx_device_put(adev);
	}
}

static void amdx_link_escalate(const struct amdx_link_escalation *esc)
{
	struct amdx_device *adev;
	u32 i, kind;
	int ret;

	amdx_link_move_run(esc);
	for (i = 0; i < esc->n; i++) {
		adev = amdx_device_get(esc->device[i]);
		if (!adev)
			continue;
		kind = esc->kind[i];
		mutex_lock(&adev->ras->lock);
		ret = amdx_recovery_fault(adev, kind, AMDX_RAS_PARTITION_ALL,
					  AMDX_VF_NONE, NULL);
		mutex_unlock(&adev->ras->lock);
		amdx_warn(adev, "fabric: recovery fault %s (%d)\n",
			  amdx_recovery_fault_name(kind), ret);
		amdx_device_put(adev);
	}
}

static void amdx_link_tick_fn(struct work_struct *work)
{
	struct amdx_link_escalation esc = {};
	struct amdx_link_hive *h;
	bool timed = false;
	u64 now;
	u32 i;

	mutex_lock(&amdx_link_lock);
	now = ktime_get_ns();
	list_for_each_entry(h, &amdx_link_hives, node) {
		for (i = 0; i < h->topo.num_links; i++)
			amdx_link_tick(&h->topo, i, now);
		amdx_link_sync(h, now, &esc);
		timed |= amdx_link_timed(&h->topo);
	}
	if (timed)
		schedule_delayed_work(&amdx_link_tick_work, AMDX_LINK_TICK);
	mutex_unlock(&amdx_link_lock);
	amdx_link_escalate(&esc);
}

/* A report on link @l of @h, its containment noted in @esc; lock held. */
static int amdx_link_observe_sync(struct amdx_device *adev,
				  struct amdx_link_hive *h, u32 l, u32 obs,
				  u32 arg, struct amdx_link_escalation *esc)
{
	int ret;

	lockdep_assert_held(&amdx_link_lock);
	ret = amdx_link_observe(&h->topo, l, obs, arg, ktime_get_ns());
	if (ret < 0) {
		amdx_dbg(adev, "link report: lanes %u outside 1..%u\n", arg,
			 h->topo.link[l].width_max);
		return ret;
	}
	amdx_link_sync(h, ktime_get_ns(), esc);
	if (amdx_link_timed(&h->topo))
		schedule_delayed_work(&amdx_link_tick_work, AMDX_LINK_TICK);
	return 0;
}

/*
 * Where a report lands: the link to device @peer, or (@pod) the link on
 * port @port of pod accelerator @fabric_id.
 */
struct amdx_link_at {
	bool pod;
	u32 peer;
	u64 fabric_id;
	u32 port;
};

/* The link @at names in @adev's hive @h; -errno, logged, for none. */
static int amdx_link_at_find(struct amdx_device *adev,
			     const struct amdx_link_hive *h,
			     const struct amdx_link_at *at)
{
	u32 a, b, e;

	a = h ? amdx_link_ep_of(h, adev) : AMDX_LINK_NONE;
	if (a == AMDX_LINK_NONE || (at->pod && !h->pod.domains)) {
		amdx_dbg(adev, "link report: the device has no %s links\n",
			 at->pod ? "scale-up pod" : "fabric");
		return -ENODEV;
	}
	if (!at->pod) {
		b = amdx_link_ep_of_id(h, at->peer);
		e = b == AMDX_LINK_NONE || b == a ? AMDX_LINK_NONE :
		    amdx_link_find(&h->topo, a, b);
		if (e == AMDX_LINK_NONE) {
			amdx_dbg(adev, "link report: no link to device %u\n",
				 at->peer);
			return -ENOENT;
		}
		return e;
	}
	a = amdx_link_ep_of_fabric(h, at->fabric_id);
	for (e = 0; a != AMDX_LINK_NONE && e < h->topo.num_links; e++) {
		const struct amdx_link *k = &h->topo.link[e];

		if ((k->ep[0] == a && k->port[0] == at->port) ||
		    (k->ep[1] == a && k->port[1] == at->port))
			return e;
	}
	amdx_dbg(adev, "link report: no link on port %u of accelerator %llu\n",
		 at->port, at->fabric_id);
	return -ENOENT;
}

/*
 * What report @obs (@arg lanes or a count) of a link of @width_max lanes
 * says that a provider may declare it does not report
 * (&amdx_device_desc.link_absent): the counters (replays, errors), a width
 * below full.  The state is not among them: a provider without state
 * changes still reports the links its topology lacks, at the join.
 */
static u32 amdx_link_obs_needs(u32 obs, u32 arg, u32 width_max)
{
	switch (obs) {
	case AMDX_LINK_OBS_REPLAY:
	case AMDX_LINK_OBS_CE:
	case AMDX_LINK_OBS_UE:
		return AMDX_LINK_F_NO_COUNTERS;
	case AMDX_LINK_OBS_WIDTH:
		return AMDX_LINK_F_NO_WIDTH;
	case AMDX_LINK_OBS_UP:
		return arg == width_max ? 0 : AMDX_LINK_F_NO_WIDTH;
	}
	return 0;
}

/*
 * Link @link of @h took an uncorrected error that @adev reported: under a
 * replay baseline, the fault that driver would see (amdx_recovery_policy.c)
 * on @adev when the link is one of its own; under amdx, nothing (the
 * link's containment is the answer).
 */
static void amdx_link_baseline_ue(struct amdx_device *adev,
				  const struct amdx_link_hive *h, u32 link,
				  struct amdx_link_escalation *esc)
{
	u32 policy = amdx_recovery_policy_get(), me = amdx_link_ep_of(h, adev);
	u32 kind = amdx_recovery_policy_link_fault(policy);
	const struct amdx_link *l = &h->topo.link[link];

	if (kind >= AMDX_FAULT_COUNT || (l->ep[0] != me && l->ep[1] != me))
		return;
	amdx_info(adev, "fabric link %u: uncorrected error; the %s baseline takes it as a %s fault\n",
		  link, amdx_recovery_policy_name(policy),
		  amdx_recovery_fault_name(kind));
	amdx_link_escalate_add(esc, adev->id, kind);
}

/* Both reports: the link found, observed and contained, then escalated. */
static int amdx_link_report_at(struct amdx_device *adev,
			       const struct amdx_link_at *at, u32 obs, u32 arg)
{
	struct amdx_link_escalation esc = {};
	struct amdx_link_hive *h;
	u32 link;
	int ret;

	if (obs >= AMDX_LINK_OBS_COUNT) {
		amdx_dbg(adev, "link report: unknown report %u\n", obs);
		return -EINVAL;
	}
	mutex_lock(&amdx_link_lock);
	h = amdx_link_hive_find(adev->desc.hive_id);
	ret = amdx_link_at_find(adev, h, at);
	/* What the provider declared absent stays absent, never counted. */
	if (ret >= 0 && amdx_link_obs_needs(obs, arg,
					    h->topo.link[ret].width_max) &
	    adev->desc.link_absent) {
		amdx_dbg(adev, "link report: report %u on link %d: the provider declares it does not report that (%#x)\n",
			 obs, ret, adev->desc.link_absent);
		ret = -EOPNOTSUPP;
	}
	if (ret >= 0) {
		link = ret;
		ret = amdx_link_observe_sync(adev, h, link, obs, arg, &esc);
	}
	if (!ret && obs == AMDX_LINK_OBS_UE)
		amdx_link_baseline_ue(adev, h, link, &esc);
	mutex_unlock(&amdx_link_lock);
	amdx_link_escalate(&esc);
	return ret;
}

/**
 * amdx_link_report() - a provider's report of what one link did
 * @adev: the device at one end of the link.
 * @peer: the amdx device id at its other end (amdx_device_id()), a member
 *	of the same hive.
 * @obs: %AMDX_LINK_OBS_*.
 * @arg: lanes for %AMDX_LINK_OBS_UP and %AMDX_LINK_OBS_WIDTH (1 up to the
 *	link's full width), a count for %AMDX_LINK_OBS_REPLAY and
 *	%AMDX_LINK_OBS_CE; ignored otherwise.
 *
 * Feeds the report to the link's state machine (Documentation/fabric.rst):
 * counters always; the state through the hysteresis.  A change of state
 * is reported and contained before this returns: new placements across
 * a link not up refused, what crosses a link that storms or is down
 * moved home, a peer left with no route parked and its recovery rung set.
 *
 * Context: process; may sleep.  Takes the hive's devices' locks for read
 * and tries their processes' mmap locks: never call it holding one.
 *
 * Return: 0; -EINVAL for an unknown report or lanes out of range; -ENODEV
 * for a device in no hive, or beyond the hive's %AMDX_LINK_HIVE_MAX
 * members with links; -ENOENT for a peer that is no other member of it;
 * -EOPNOTSUPP for a report of what the device declares it does not report
 * (&amdx_device_desc.link_absent: a replay or error count under
 * %AMDX_LINK_F_NO_COUNTERS, a width below full under %AMDX_LINK_F_NO_WIDTH).
 */
int amdx_link_report(struct amdx_device *adev, u32 peer, u32 obs, u32 arg)
{
	const struct amdx_link_at at = { .peer = peer };

	return amdx_link_report_at(adev, &at, obs, arg);
}
EXPORT_SYMBOL_GPL(amdx_link_report);

/**
 * amdx_link_report_port() - a provider's report of one link of a pod
 * @adev: a device of this host in the pod (&amdx_device_desc.pod).
 * @fabric_id: the accelerator the link leaves from: @adev's own fabric
 *	id, another device's of this host, or a remote one's, which this
 *	host knows by id only (the pod's fabric manager tells of it).
 * @port: its port (the switch plane).
 * @obs: %AMDX_LINK_OBS_*.
 * @arg: as for amdx_link_report().
 *
 * As amdx_link_report(), for the links of a scale-up pod, which run
 * from an accelerator to a switch: a remote accelerator left with no
 * route is parked (no rung: it is its own host's to recover), one of
 * this host goes to its device rung.
 *
 * Context: as amdx_link_report().
 * Return: 0; -EINVAL for an unknown report or lanes out of range;
 * -ENODEV for a device in no pod; -ENOENT for no such accelerator or
 * port; -EOPNOTSUPP as for amdx_link_report().
 */
int amdx_link_report_port(struct amdx_device *adev, u64 fabric_id, u32 port,
			  u32 obs, u32 arg)
{
	const struct amdx_link_at at = {
		.pod = true, .fabric_id = fabric_id, .port = port,
	};

	return amdx_link_report_at(adev, &at, obs, arg);
}
EXPORT_SYMBOL_GPL(amdx_link_report_port);

/* A pod that fits the model: the provider's shape, checked. */
static bool amdx_link_pod_valid(const struct amdx_pod_desc *p)
{
	return p->per_domain && p->per_domain <= 8 && p->planes &&
	       p->planes <= 8 && p->domain < p->domains &&
	       p->index < p->per_domain &&
	       (u64)p->domains * p->per_domain + p->planes <= AMDX_LINK_MAX_EPS &&
	       p->vpod_size <= p->domains * p->per_domain &&
	       (u64)p->domains * p->per_domain * p->planes <=
	       AMDX_LINK_MAX_LINKS;
}

/*
 * A new pod's remote accelerators (every domain but this host's) and its
 * switches, each remote accelerator linked to every plane's switch.
 */
static int amdx_link_pod_build(struct amdx_link_hive *h, u64 now)
{
	const struct amdx_pod_desc *p = &h->pod;
	struct amdx_link_topo *t = &h->topo;
	u32 n = p->domains * p->per_domain, i, pl;
	int r, sw = 0;

	for (pl = 0; pl < p->planes; pl++) {
		r = amdx_link_add_ep(t, AMDX_LINK_EP_SWITCH, 0, pl, 0);
		if (r < 0)
			return r;
		if (!pl)
			sw = r;
	}
	for (i = 0; i < n; i++) {
		int a;

		if (i / p->per_domain == p->domain)
			continue;
		a = amdx_link_add_ep(t, AMDX_LINK_EP_REMOTE, 0, i,
				     i / p->per_domain);
		if (a < 0)
			return a;
		for (pl = 0; pl < p->planes; pl++) {
			r = amdx_link_add(t, AMDX_LINK_KIND_SCALEUP, a, pl,
					  sw + pl, i, AMDX_LINK_POD_WIDTH, now);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* Joins @adev to its pod: its endpoint and one link to each plane. */
static int amdx_link_pod_join(struct amdx_link_hive *h,
			      struct amdx_device *adev, u64 now)
{
	const struct amdx_pod_desc *p = &adev->desc.pod;
	struct amdx_link_topo *t = &h->topo;
	u64 id = (u64)p->domain * p->per_domain + p->index;
	u32 pl;
	int e, l;

	if (memcmp(&h->pod, p, offsetof(struct amdx_pod_desc, index)) ||
	    amdx_link_ep_of_fabric(h, id) != AMDX_LINK_NONE) {
		amdx_info(adev, "pod %llx: another shape, or accelerator %llu taken already: no links for this one\n",
			  h->hive_id, id);
		return 0;
	}
	e = amdx_link_add_ep(t, AMDX_LINK_EP_LOCAL, adev->id, id, p->domain);
	if (e < 0)
		return e;
	h->dev[e] = adev;
	for (pl = 0; pl < p->planes; pl++) {
		l = amdx_link_add(t, AMDX_LINK_KIND_SCALEUP, e, pl, pl, id,
				  AMDX_LINK_POD_WIDTH, now);
		if (l < 0)
			return l;
		h->seen[l] = t->link[l].state;
	}
	amdx_link_pairs_sync(h, e, e, NULL);
	return 0;
}

/* Joins @adev to its hive's mesh; a hive full already leaves it out. */
static int amdx_link_join(struct amdx_device *adev)
{
	struct amdx_link_hive *h;
	struct amdx_link_topo *t;
	u64 now = ktime_get_ns();
	u32 m;
	int e, l;

	mutex_lock(&amdx_link_lock);
	h = amdx_link_hive_find(adev->desc.hive_id);
	if (adev->desc.pod.domains && !amdx_link_pod_valid(&adev->desc.pod)) {
		mutex_unlock(&amdx_link_lock);
		amdx_info(adev, "pod %llx: %u domains of %u on %u planes do not fit the link model: no links\n",
			  adev->desc.hive_id, adev->desc.pod.domains,
			  adev->desc.pod.per_domain, adev->desc.pod.planes);
		return 0;
	}
	if (!h) {
		h = kvzalloc(sizeof(*h), GFP_KERNEL);
		if (!h) {
			mutex_unlock(&amdx_link_lock);
			return -ENOMEM;
		}
		h->hive_id = adev->desc.hive_id;
		h->pod = adev->desc.pod;
		h->topo.vpod_size = h->pod.vpod_size;
		amdx_link_policy_default(&h->topo.policy);
		if (h->pod.domains) {
			e = amdx_link_pod_build(h, now);
			if (e < 0) {
				kvfree(h);
				mutex_unlock(&amdx_link_lock);
				return e;
			}
			for (l = 0; l < h->topo.num_links; l++)
				h->seen[l] = h->topo.link[l].state;
		}
		list_add_tail(&h->node, &amdx_link_hives);
	}
	t = &h->topo;
	if (h->pod.domains || adev->desc.pod.domains) {
		e = h->pod.domains && adev->desc.pod.domains ?
		    amdx_link_pod_join(h, adev, now) : 0;
		if (!h->pod.domains || !adev->desc.pod.domains)
			amdx_info(adev, "hive %llx: a pod and a mesh under one id: no links for this one\n",
				  h->hive_id);
		if (!amdx_link_first_dev(h)) {
			list_del(&h->node);
			kvfree(h);
		}
		mutex_unlock(&amdx_link_lock);
		return e < 0 ? e : 0;
	}
	if (t->num_eps >= AMDX_LINK_HIVE_MAX) {
		amdx_info(adev, "hive %llx has %u members with links already: none for this one\n",
			  h->hive_id, t->num_eps);
		mutex_unlock(&amdx_link_lock);
		return 0;
	}
	e = amdx_link_add_ep(t, AMDX_LINK_EP_LOCAL, adev->id, adev->id, 0);
	if (e < 0) {
		if (!t->num_eps) {
			list_del(&h->node);
			kvfree(h);
		}
		mutex_unlock(&amdx_link_lock);
		return e;
	}
	h->dev[e] = adev;
	for (m = 0; m < e; m++) {
		l = amdx_link_add(t, AMDX_LINK_KIND_XGMI, m,
				  amdx_link_free_port(t, m), e,
				  amdx_link_free_port(t, e),
				  AMDX_LINK_XGMI_WIDTH, now);
		if (l < 0)
			break;
		h->seen[l] = t->link[l].state;
	}
	amdx_link_pairs_sync(h, e, e, NULL);
	mutex_unlock(&amdx_link_lock);
	return 0;
}

/* REMOVE: the device's endpoint and links leave the hive. */
static void amdx_link_leave(struct amdx_device *adev)
{
	struct amdx_link_hive *h;
	bool last;
	u32 e, i;

	mutex_lock(&amdx_link_lock);
	h = amdx_link_hive_find(adev->desc.hive_id);
	e = h ? amdx_link_ep_of(h, adev) : AMDX_LINK_NONE;
	if (e != AMDX_LINK_NONE) {
		amdx_link_remove_ep(&h->topo, e);
		memmove(&h->dev[e], &h->dev[e + 1],
			(AMDX_LINK_MAX_EPS - e - 1) * sizeof(h->dev[0]));
		h->dev[AMDX_LINK_MAX_EPS - 1] = NULL;
		for (i = 0; i < h->topo.num_links; i++)
			h->seen[i] = h->topo.link[i].state;
		/* Its id may come back: no member keeps avoiding it. */
		for (i = 0; i < h->topo.num_eps; i++)
			if (h->dev[i])
				amdx_hmm_link_avoid(h->dev[i], adev->id, 0,
						    false);
		for (i = 0; i < AMDX_MAX_DEVICES; i++)
			h->pair[min(i, adev->id)][max(i, adev->id)] =
				AMDX_LINK_CONTAIN_NONE;
		amdx_link_pairs_sync(h, AMDX_LINK_NONE, AMDX_LINK_NONE, NULL);
		/* A pod's remote part stays only while a member is here. */
		if (!amdx_link_first_dev(h)) {
			list_del(&h->node);
			kvfree(h);
		}
	}
	last = list_empty(&amdx_link_hives);
	mutex_unlock(&amdx_link_lock);
	if (!last)
		return;
	/* No hive left to tick: module unload must not find it queued. */
	cancel_delayed_work_sync(&amdx_link_tick_work);
	/* A hive that registered meanwhile keeps its tick. */
	mutex_lock(&amdx_link_lock);
	list_for_each_entry(h, &amdx_link_hives, node)
		if (amdx_link_timed(&h->topo))
			schedule_delayed_work(&amdx_link_tick_work,
					      AMDX_LINK_TICK);
	mutex_unlock(&amdx_link_lock);
}

/**
 * amdx_link_device_init() - give a device of a hive its fabric links
 * @adev: the device, not yet published.
 *
 * Return: 0, -ENOMEM, or -ENOSPC (no room for the teardown).
 */
int amdx_link_device_init(struct amdx_device *adev)
{
	int ret;

	if (!adev->desc.hive_id)
		return 0;
	ret = amdx_link_join(adev);
	if (ret)
		return ret;
	return amdx_device_add_action_or_reset(adev, AMDX_DEVICE_REMOVE,
					       amdx_link_leave);
}

/* What a provider may declare it does not report (&amdx_device_desc). */
#define AMDX_LINK_F_ABSENT	(AMDX_LINK_F_NO_STATE | AMDX_LINK_F_NO_WIDTH | \
				 AMDX_LINK_F_NO_COUNTERS)

/*
 * What the providers of link @l's ends of this host declare absent; for a
 * pod's link with no end here, those of every member (whose providers
 * report it).
 */
static u32 amdx_link_absent(const struct amdx_link_hive *h,
			    const struct amdx_link *l)
{
	bool here = h->dev[l->ep[0]] || h->dev[l->ep[1]];
	u32 f = 0, e;

	for (e = 0; e < h->topo.num_eps; e++)
		if (h->dev[e] && (!here || e == l->ep[0] || e == l->ep[1]))
			f |= h->dev[e]->desc.link_absent;
	return f & AMDX_LINK_F_ABSENT;
}

/* What each kind of endpoint is to the uapi (%AMDX_LINK_END_*). */
static const u8 amdx_link_end_uapi[AMDX_LINK_EP_COUNT] = {
	[AMDX_LINK_EP_LOCAL] = AMDX_LINK_END_DEVICE,
	[AMDX_LINK_EP_REMOTE] = AMDX_LINK_END_REMOTE,
	[AMDX_LINK_EP_SWITCH] = AMDX_LINK_END_SWITCH,
};

static void amdx_link_fill(struct amdx_link_hive *h, u32 i, u64 now,
			   struct amdx_link_info *li)
{
	const struct amdx_link_topo *t = &h->topo;
	const struct amdx_link *l = &t->link[i];
	struct amdx_link_containment c;
	bool degraded;
	u32 s, v;

	li->link = i;
	li->kind = l->kind;
	for (s = 0; s < 2; s++) {
		const struct amdx_link_ep *ep = &t->ep[l->ep[s]];

		li->device[s] = h->dev[l->ep[s]] ? ep->device : AMDX_LINK_NONE;
		li->port[s] = l->port[s];
		li->end[s] = amdx_link_end_uapi[ep->kind];
		li->domain[s] = ep->domain;
		li->fabric_id[s] = ep->id;
		v = amdx_link_vpod(t, l->ep[s]);
		li->vpod[s] = h->pod.domains && v != AMDX_LINK_NONE ? v + 1 : 0;
	}
	li->width_max = l->width_max;
	li->width = l->width;
	li->state = l->state;
	li->contain = amdx_link_contain(t, i, &c) ?
		      amdx_link_state_level(l->state) : c.action;
	li->hops = amdx_link_hops_now(h, i, &degraded);
	if (degraded)
		li->flags |= AMDX_LINK_F_ROUTE_DEGRADED;
	li->flags |= amdx_link_absent(h, l);
	li->ce = l->c.ce;
	li->ue = l->c.ue;
	li->replays = l->c.replays;
	li->width_changes = l->c.width_changes;
	li->downs = l->c.downs;
	li->state_changes = l->c.state_changes;
	for (s = 0; s < AMDX_LINK_STATE_COUNT; s++)
		li->time_ns[s] = l->c.time_ns[s];
	/* The current state's time up to now, without ticking. */
	li->time_ns[l->state] += now - l->since_ns;
}

/**
 * amdx_link_query() - %AMDX_QUERY_LINKS
 * @file: a device fd; the dispatcher holds its device's lock for read.
 * @q: the query.
 *
 * Return: 0; -EINVAL on /dev/amdx or with an id; -ENOSPC for a buffer
 * that does not hold every link; -ENOMEM; -EFAULT.
 */
int amdx_link_query(struct amdx_file *file, struct amdx_query *q)
{
	struct amdx_device *adev = file->adev;
	struct amdx_query_links *res;
	struct amdx_link_hive *h;
	u64 now;
	size_t len;
	u32 n, i;
	int ret;

	if (!adev || q->id)
		return -EINVAL;
	mutex_lock(&amdx_link_lock);
	h = amdx_link_hive_find(adev->desc.hive_id);
	n = h ? h->topo.num_links : 0;
	len = struct_size(res, links, n);
	if (q->size < len) {
		mutex_unlock(&amdx_link_lock);
		return amdx_query_out(adev, q, NULL, len, len);
	}
	/* Sized by the hive (at most 512 links), never by the caller. */
	res = kvzalloc(len, GFP_KERNEL);
	if (!res) {
		mutex_unlock(&amdx_link_lock);
		return -ENOMEM;
	}
	res->hive_id = adev->desc.hive_id;
	res->num_links = n;
	res->entry_size = sizeof(res->links[0]);
	now = ktime_get_ns();
	/* A containment per link not up: yield between them. */
	for (i = 0; i < n; i++) {
		amdx_link_fill(h, i, now, &res->links[i]);
		cond_resched();
	}
	mutex_unlock(&amdx_link_lock);
	ret = amdx_query_out(adev, q, res, len, len);
	kvfree(res);
	return ret;
}

/* sysfs: /sys/class/amdx/amdx<id>/links/ (Documentation/ABI/testing/). */

enum amdx_link_attr_field {
	AMDX_LA_LINK,
	AMDX_LA_PEER,
	AMDX_LA_STATE,
	AMDX_LA_WIDTH,
	AMDX_LA_CE,
	AMDX_LA_UE,
	AMDX_LA_REPLAYS,
	AMDX_LA_DOWNS,
};

/* Field @f of link @i, whose end @me is the device read. */
static int amdx_link_attr_emit(char *buf, int len, const char *sep,
			       const struct amdx_link_hive *h, u32 i, u32 me,
			       enum amdx_link_attr_field f)
{
	const struct amdx_link *l = &h->topo.link[i];
	u32 peer = l->ep[0] == me ? l->ep[1] : l->ep[0];
	const struct amdx_link_ep *p = &h->topo.ep[peer];
	u32 need;
	u64 v;

	switch (f) {
	case AMDX_LA_LINK:
		return sysfs_emit_at(buf, len, "%s%u", sep, i);
	case AMDX_LA_PEER:
		if (p->kind == AMDX_LINK_EP_SWITCH)
			return sysfs_emit_at(buf, len, "%ssw%llu", sep, p->id);
		if (p->kind == AMDX_LINK_EP_REMOTE)
			return sysfs_emit_at(buf, len, "%sacc%llu", sep, p->id);
		return sysfs_emit_at(buf, len, "%s%u", sep, p->device);
	case AMDX_LA_STATE:
		return sysfs_emit_at(buf, len, "%s%s", sep,
				     amdx_link_state_name(l->state));
	case AMDX_LA_WIDTH:
		need = AMDX_LINK_F_NO_WIDTH;
		v = l->width;
		break;
	case AMDX_LA_CE:
		need = AMDX_LINK_F_NO_COUNTERS;
		v = l->c.ce;
		break;
	case AMDX_LA_UE:
		need = AMDX_LINK_F_NO_COUNTERS;
		v = l->c.ue;
		break;
	case AMDX_LA_REPLAYS:
		need = AMDX_LINK_F_NO_COUNTERS;
		v = l->c.replays;
		break;
	case AMDX_LA_DOWNS:
		need = AMDX_LINK_F_NO_STATE;
		v = l->c.downs;
		break;
	default:
		return 0;
	}
	/* A count the provider declares it does not report: "-", never 0. */
	if (amdx_link_absent(h, l) & need)
		return sysfs_emit_at(buf, len, "%s-", sep);
	return sysfs_emit_at(buf, len, "%s%llu", sep, v);
}

/*
 * One value per link with an end on the device, in link index order,
 * space separated; an empty line for a device with no links.  At most 16
 * links (a hive's members but one, a pod's planes) of at most 22
 * characters each: well inside the page.
 */
static ssize_t amdx_link_attr_show(struct device *dev, char *buf,
				   enum amdx_link_attr_field f)
{
	struct amdx_device *adev = dev_get_drvdata(dev);
	struct amdx_link_hive *h;
	int len = 0;
	u32 i, me;

	down_read(&adev->lock);
	if (adev->dead) {
		up_read(&adev->lock);
		return -ENODEV;
	}
	mutex_lock(&amdx_link_lock);
	h = amdx_link_hive_find(adev->desc.hive_id);
	me = h ? amdx_link_ep_of(h, adev) : AMDX_LINK_NONE;
	for (i = 0; me != AMDX_LINK_NONE && i < h->topo.num_links; i++) {
		const struct amdx_link *l = &h->topo.link[i];

		if (l->ep[0] != me && l->ep[1] != me)
			continue;
		len += amdx_link_attr_emit(buf, len, len ? " " : "", h, i, me,
					   f);
	}
	mutex_unlock(&amdx_link_lock);
	up_read(&adev->lock);
	return len + sysfs_emit_at(buf, len, "\n");
}

#define AMDX_LINK_ATTR(_name, _field)					\
static ssize_t amdx_la_##_name##_show(struct device *dev,		\
				      struct device_attribute *attr,	\
				      char *buf)			\
{									\
	return amdx_link_attr_show(dev, buf, _field);			\
}									\
static struct device_attribute amdx_la_##_name =			\
	__ATTR(_name, 0444, amdx_la_##_name##_show, NULL)

AMDX_LINK_ATTR(link, AMDX_LA_LINK);
AMDX_LINK_ATTR(peer, AMDX_LA_PEER);
AMDX_LINK_ATTR(state, AMDX_LA_STATE);
AMDX_LINK_ATTR(width, AMDX_LA_WIDTH);
AMDX_LINK_ATTR(ce, AMDX_LA_CE);
AMDX_LINK_ATTR(ue, AMDX_LA_UE);
AMDX_LINK_ATTR(replays, AMDX_LA_REPLAYS);
AMDX_LINK_ATTR(downs, AMDX_LA_DOWNS);

static struct attribute *amdx_link_attrs[] = {
	&amdx_la_ce.attr,
	&amdx_la_downs.attr,
	&amdx_la_link.attr,
	&amdx_la_peer.attr,
	&amdx_la_replays.attr,
	&amdx_la_state.attr,
	&amdx_la_ue.attr,
	&amdx_la_width.attr,
	NULL
};

const struct attribute_group amdx_link_attr_group = {
	.name = "links",
	.attrs = amdx_link_attrs,
};
