// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: Link model
 *
 * The fabric between accelerators as a fault domain, pure logic: no
 * device, no locking; the caller serialises access to a topology (a
 * sleeping lock: the containment yields the CPU between its reaches).
 *
 * A topology holds endpoints (a device of this host, a remote accelerator
 * of a scale-up pod known by its fabric id, or a scale-up switch) and the
 * links between them (XGMI or scale-up), each leaving its endpoints by a
 * port.  amdx_link_build_mesh() builds an XGMI hive (a full mesh: 8
 * devices, 7 links each, 28 links); amdx_link_build_pod() a scale-up pod
 * (its OS domains of accelerators, one of them this host's, every
 * accelerator with one link to each switch plane).  A pod's fabric
 * manager may divide its accelerators into virtual pods (consecutive
 * fabric ids, amdx_link_vpod()): a switch then carries data only between
 * accelerators of one, so no route, reach or way between two accelerators
 * ever leaves their virtual pod.
 *
 * Each link's state follows what it reports (amdx_link_observe()) and the
 * time (amdx_link_tick()), through a hysteresis:
 *
 * ========  ===========================================================
 * state     when
 * ========  ===========================================================
 * parked    taken out of use (its peer is parked); only unparking ends it
 * down      not trained, or trained again less than the hold ago: a link
 *           that went down (or had an uncorrected error) is held down
 *           for the policy's hold, doubled for each flap inside the flap
 *           window, so a flapping link stays down instead of toggling per
 *           event; a link in service for a whole flap window forgets its
 *           flaps
 * replay    a replay storm: the policy's count of replays inside one
 *           window; it ends after a whole window with fewer
 * degraded  trained below its full width
 * up        none of the above
 * ========  ===========================================================
 *
 * Routes (amdx_link_route()) are the shortest in hops (an accelerator to
 * accelerator link is one hop, a switch passed through with its two links
 * is one), then in links, ties to the lowest endpoint and link index.
 * They use up links where they can, degraded and storming ones where they
 * must, down and parked ones never; a route through a link that is not up
 * or longer than it would be with every link up is degraded.
 *
 * amdx_link_contain() says what a link's state needs, the smallest rung
 * first: an up link nothing; a degraded one that no new data is placed
 * across it (routes go around it where the mesh allows); a storming, down
 * or parked one also that what crosses it moves; and when a peer is left
 * with no route at all, that peer is parked: in each virtual pod, every
 * accelerator outside the part the pod keeps, which is, of the parts
 * holding a local device, the one holding the most accelerators, and in
 * a virtual pod with no local device the part holding the most
 * accelerators; of two alike, the one reaching more switches, then the
 * one of the lowest accelerator.  Only a parked local device escalates to the recovery ladder: one
 * to its device rung, more to the hive rung.
 */
#include <linux/bitmap.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "amdx_kunit.h"
#include "amdx_link_model.h"

/*
 * Route cost: half hops (an accelerator's end of a link is one, a
 * switch's none), then links (a route has fewer than 256).
 */
#define AMDX_LINK_COST_HALF	256U
#define AMDX_LINK_COST_INF	U32_MAX

static_assert(AMDX_LINK_MAX_EPS < AMDX_LINK_COST_HALF);
static_assert(AMDX_LINK_MAX_EPS <= 256);	/* a switch's u8 ports */

static const char * const amdx_link_state_names[AMDX_LINK_STATE_COUNT] = {
	"up", "degraded", "replay", "down", "parked",
};

static const char * const amdx_link_kind_names[AMDX_LINK_KIND_COUNT] = {
	"xgmi", "scaleup",
};

static const char * const amdx_link_contain_names[AMDX_LINK_CONTAIN_COUNT] = {
	"none", "avoid", "move", "park",
};

/**
 * amdx_link_state_name() - a link state's name
 * @state: %AMDX_LINK_STATE_*.
 *
 * Return: its name, "?" if unknown.
 */
const char *amdx_link_state_name(u32 state)
{
	return state < AMDX_LINK_STATE_COUNT ?
	       amdx_link_state_names[state] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_state_name);

/**
 * amdx_link_kind_name() - a link kind's name
 * @kind: %AMDX_LINK_KIND_*.
 *
 * Return: its name, "?" if unknown.
 */
const char *amdx_link_kind_name(u32 kind)
{
	return kind < AMDX_LINK_KIND_COUNT ? amdx_link_kind_names[kind] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_kind_name);

/**
 * amdx_link_contain_name() - a containment's name
 * @action: %AMDX_LINK_CONTAIN_*.
 *
 * Return: its name, "?" if unknown.
 */
const char *amdx_link_contain_name(u32 action)
{
	return action < AMDX_LINK_CONTAIN_COUNT ?
	       amdx_link_contain_names[action] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_contain_name);

/**
 * amdx_link_policy_default() - the default hysteresis
 * @p: filled in.
 *
 * A link that went down is held down for 1 s (doubled per flap, at most
 * 64 s) and forgets its flaps after 60 s in service; 64 replays in 1 s
 * are a storm.
 */
void amdx_link_policy_default(struct amdx_link_policy *p)
{
	p->hold_ns = 1000000000ULL;
	p->max_hold_shift = 6;
	p->flap_window_ns = 60000000000ULL;
	p->replay_storm = 64;
	p->replay_window_ns = 1000000000ULL;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_policy_default);

static bool amdx_link_is_accel(const struct amdx_link_ep *e)
{
	return e->kind != AMDX_LINK_EP_SWITCH;
}

static bool amdx_link_is_local(const struct amdx_link_ep *e)
{
	return e->kind == AMDX_LINK_EP_LOCAL;
}

static int amdx_link_ep_check(const struct amdx_link_topo *t, u32 i)
{
	const struct amdx_link_ep *e = &t->ep[i];
	u32 j;

	if (e->kind >= AMDX_LINK_EP_COUNT)
		return -EINVAL;
	if (e->kind == AMDX_LINK_EP_LOCAL && e->device >= AMDX_MAX_DEVICES)
		return -EINVAL;
	for (j = 0; j < i; j++) {
		const struct amdx_link_ep *o = &t->ep[j];

		if (o->kind != e->kind)
			continue;
		if (e->kind == AMDX_LINK_EP_LOCAL ? o->device == e->device :
		    o->id == e->id)
			return -EINVAL;
	}
	return 0;
}

static int amdx_link_link_check(const struct amdx_link_topo *t, u32 i)
{
	const struct amdx_link *l = &t->link[i];
	u32 j, e, f;

	if (l->kind >= AMDX_LINK_KIND_COUNT ||
	    l->state >= AMDX_LINK_STATE_COUNT ||
	    l->ep[0] >= t->num_eps || l->ep[1] >= t->num_eps ||
	    l->ep[0] == l->ep[1] ||
	    !l->width_max || l->width_max > AMDX_LINK_MAX_WIDTH ||
	    l->width > l->width_max)
		return -EINVAL;
	/* A port carries one link. */
	for (j = 0; j < i; j++)
		for (e = 0; e < 2; e++)
			for (f = 0; f < 2; f++)
				if (t->link[j].ep[f] == l->ep[e] &&
				    t->link[j].port[f] == l->port[e])
					return -EINVAL;
	return 0;
}

/**
 * amdx_link_topo_check() - is a topology consistent
 * @t: the topology.
 *
 * Return: 0, or -EINVAL: too many endpoints or links; an endpoint of an
 * unknown kind, a local one beyond %AMDX_MAX_DEVICES, two of a kind with
 * the same device or id; a link of an unknown kind or state, to an
 * endpoint that does not exist, to itself, with no lanes or more than
 * %AMDX_LINK_MAX_WIDTH, or on a port another link uses; a policy with no
 * replay window or storm count or with a hold shifted out of range; a
 * virtual pod larger than %AMDX_LINK_MAX_EPS.
 */
int amdx_link_topo_check(const struct amdx_link_topo *t)
{
	const struct amdx_link_policy *p = &t->policy;
	u32 i;

	if (t->num_eps > AMDX_LINK_MAX_EPS ||
	    t->num_links > AMDX_LINK_MAX_LINKS ||
	    t->vpod_size > AMDX_LINK_MAX_EPS)
		return -EINVAL;
	if (!p->replay_storm || !p->replay_window_ns ||
	    p->max_hold_shift > 16 || p->hold_ns > (U64_MAX >> 17))
		return -EINVAL;
	for (i = 0; i < t->num_eps; i++)
		if (amdx_link_ep_check(t, i))
			return -EINVAL;
	for (i = 0; i < t->num_links; i++)
		if (amdx_link_link_check(t, i))
			return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_topo_check);

/**
 * amdx_link_vpod() - the virtual pod of an endpoint
 * @t: the topology.
 * @ep: the endpoint.
 *
 * An accelerator's virtual pod is its fabric id divided by
 * &amdx_link_topo.vpod_size, 0 when that is 0 (the fabric is one).  A
 * switch serves every virtual pod.
 *
 * Return: the virtual pod, counted from 0; %AMDX_LINK_NONE for a switch
 * or an unknown endpoint.
 */
u32 amdx_link_vpod(const struct amdx_link_topo *t, u32 ep)
{
	if (ep >= t->num_eps || !amdx_link_is_accel(&t->ep[ep]))
		return AMDX_LINK_NONE;
	return t->vpod_size ? div_u64(t->ep[ep].id, t->vpod_size) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_vpod);

/**
 * amdx_link_add_ep() - add an endpoint
 * @t: the topology.
 * @kind: %AMDX_LINK_EP_*.
 * @device: the amdx device id of a local endpoint.
 * @id: the fabric id.
 * @domain: the OS domain.
 *
 * Return: the endpoint's index, -ENOSPC when the topology is full, or
 * -EINVAL when amdx_link_topo_check() would refuse the endpoint.
 */
int amdx_link_add_ep(struct amdx_link_topo *t, u32 kind, u32 device, u64 id,
		     u32 domain)
{
	struct amdx_link_ep *e;

	if (t->num_eps >= AMDX_LINK_MAX_EPS)
		return -ENOSPC;
	e = &t->ep[t->num_eps];
	*e = (struct amdx_link_ep){
		.kind = kind, .device = device, .id = id, .domain = domain,
	};
	if (amdx_link_ep_check(t, t->num_eps)) {
		memset(e, 0, sizeof(*e));
		return -EINVAL;
	}
	return t->num_eps++;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_add_ep);

/**
 * amdx_link_add() - add a link, up at full width
 * @t: the topology.
 * @kind: %AMDX_LINK_KIND_*.
 * @a: one endpoint.
 * @port_a: its port.
 * @b: the other endpoint.
 * @port_b: its port.
 * @width: lanes at full width.
 * @now_ns: the time, from which its state is accounted.
 *
 * Return: the link's index, -ENOSPC when the topology is full, or -EINVAL
 * when amdx_link_topo_check() would refuse the link.
 */
int amdx_link_add(struct amdx_link_topo *t, u32 kind, u32 a, u8 port_a,
		  u32 b, u8 port_b, u8 width, u64 now_ns)
{
	struct amdx_link *l;

	if (t->num_links >= AMDX_LINK_MAX_LINKS)
		return -ENOSPC;
	l = &t->link[t->num_links];
	*l = (struct amdx_link){
		.kind = kind, .ep = { a, b }, .port = { port_a, port_b },
		.width_max = width, .width = width,
		.state = AMDX_LINK_STATE_UP, .trained = true,
		.replay_window_ns = now_ns, .in_service_ns = now_ns,
		.since_ns = now_ns,
	};
	if (amdx_link_link_check(t, t->num_links)) {
		memset(l, 0, sizeof(*l));
		return -EINVAL;
	}
	return t->num_links++;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_add);

/**
 * amdx_link_remove_ep() - take an endpoint and its links out of a topology
 * @t: the topology.
 * @ep: the endpoint.
 *
 * The endpoints and links after it move down by one place per removed one
 * before them, in order; every other link keeps its state and counters.
 *
 * Return: the links removed, or -EINVAL for an unknown endpoint.
 */
int amdx_link_remove_ep(struct amdx_link_topo *t, u32 ep)
{
	u32 i, n = 0;

	if (ep >= t->num_eps)
		return -EINVAL;
	for (i = 0; i < t->num_links; i++) {
		struct amdx_link *l = &t->link[i];

		if (l->ep[0] == ep || l->ep[1] == ep)
			continue;
		l->ep[0] -= l->ep[0] > ep;
		l->ep[1] -= l->ep[1] > ep;
		if (n != i)
			t->link[n] = *l;
		n++;
	}
	memset(&t->link[n], 0, (t->num_links - n) * sizeof(t->link[0]));
	i = t->num_links - n;
	t->num_links = n;
	memmove(&t->ep[ep], &t->ep[ep + 1],
		(t->num_eps - ep - 1) * sizeof(t->ep[0]));
	t->num_eps--;
	memset(&t->ep[t->num_eps], 0, sizeof(t->ep[0]));
	return i;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_remove_ep);

/**
 * amdx_link_build_mesh() - an XGMI hive: a full mesh of local devices
 * @t: the topology, empty; its policy is kept.
 * @n: devices, 2..16, amdx device ids 0..@n-1, fabric ids the same.
 * @now_ns: the time the links come up.
 *
 * Device i reaches device j by its port j, or j-1 when j > i, so each
 * device uses ports 0..@n-2; every link has 16 lanes.
 *
 * Return: 0, or -EINVAL for a non-empty topology or @n out of range.
 */
int amdx_link_build_mesh(struct amdx_link_topo *t, u32 n, u64 now_ns)
{
	u32 i, j;
	int r;

	if (t->num_eps || t->num_links || n < 2 || n > 16)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		r = amdx_link_add_ep(t, AMDX_LINK_EP_LOCAL, i, i, 0);
		if (r < 0)
			return r;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			r = amdx_link_add(t, AMDX_LINK_KIND_XGMI, i, j - 1,
					  j, i, 16, now_ns);
			if (r < 0)
				return r;
		}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_build_mesh);

/**
 * amdx_link_build_pod() - a scale-up pod as one of its hosts sees it
 * @t: the topology, empty; its policy is kept.
 * @domains: OS domains (hosts) of the pod.
 * @per_domain: accelerators per domain, 1..8.
 * @local_domain: this host's domain: its accelerators are local devices
 *	0..@per_domain-1, the others remote.
 * @planes: switch planes, 1..8: every accelerator has one 4-lane link,
 *	on its port p, to the switch of plane p, on that switch's port
 *	numbered by the accelerator's pod index.
 * @vpod_size: accelerators per virtual pod (&amdx_link_topo.vpod_size),
 *	0 for one; at most the pod's accelerators.
 * @now_ns: the time the links come up.
 *
 * Endpoints are the accelerators in pod order (fabric id = pod index),
 * then the switches (fabric id = plane).
 *
 * Return: 0, -ENOSPC when the pod does not fit %AMDX_LINK_MAX_EPS or
 * %AMDX_LINK_MAX_LINKS, or -EINVAL for a non-empty topology or an
 * argument out of range.
 */
int amdx_link_build_pod(struct amdx_link_topo *t, u32 domains,
			u32 per_domain, u32 local_domain, u32 planes,
			u32 vpod_size, u64 now_ns)
{
	u32 i, p, n;
	int r;

	if (t->num_eps || t->num_links || !domains || !per_domain ||
	    per_domain > 8 || local_domain >= domains || !planes || planes > 8)
		return -EINVAL;
	n = domains * per_domain;
	if (n + planes > AMDX_LINK_MAX_EPS || n * planes > AMDX_LINK_MAX_LINKS)
		return -ENOSPC;
	if (vpod_size > n)
		return -EINVAL;
	t->vpod_size = vpod_size;
	for (i = 0; i < n; i++) {
		bool local = i / per_domain == local_domain;

		r = amdx_link_add_ep(t, local ? AMDX_LINK_EP_LOCAL :
				     AMDX_LINK_EP_REMOTE,
				     local ? i % per_domain : 0, i,
				     i / per_domain);
		if (r < 0)
			return r;
	}
	for (p = 0; p < planes; p++) {
		r = amdx_link_add_ep(t, AMDX_LINK_EP_SWITCH, 0, p, 0);
		if (r < 0)
			return r;
	}
	for (i = 0; i < n; i++)
		for (p = 0; p < planes; p++) {
			r = amdx_link_add(t, AMDX_LINK_KIND_SCALEUP, i, p,
					  n + p, i, 4, now_ns);
			if (r < 0)
				return r;
		}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_build_pod);

/**
 * amdx_link_find() - the link between two endpoints
 * @t: the topology.
 * @a: one endpoint.
 * @b: the other.
 *
 * Return: the lowest index of a link between them, %AMDX_LINK_NONE if none.
 */
u32 amdx_link_find(const struct amdx_link_topo *t, u32 a, u32 b)
{
	u32 i;

	for (i = 0; i < t->num_links; i++) {
		const struct amdx_link *l = &t->link[i];

		if ((l->ep[0] == a && l->ep[1] == b) ||
		    (l->ep[0] == b && l->ep[1] == a))
			return i;
	}
	return AMDX_LINK_NONE;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_find);

/* The state machine. */

static u64 amdx_link_hold(const struct amdx_link_policy *p,
			  const struct amdx_link *l)
{
	u32 shift = l->c.flaps ? l->c.flaps - 1 : 0;

	return p->hold_ns << min(shift, p->max_hold_shift);
}

static void amdx_link_account(struct amdx_link *l, u64 now_ns)
{
	l->c.time_ns[l->state] += now_ns - l->since_ns;
	l->since_ns = now_ns;
}

/*
 * Close the replay windows that ended by @now_ns: a storm survives only
 * the end of a window that itself held a storm's count.
 */
static void amdx_link_roll(const struct amdx_link_policy *p,
			   struct amdx_link *l, u64 now_ns)
{
	u64 k;

	if (now_ns - l->replay_window_ns < p->replay_window_ns)
		return;
	k = div64_u64(now_ns - l->replay_window_ns, p->replay_window_ns);
	l->storm = l->storm && k == 1 && l->window_replays >= p->replay_storm;
	l->replay_window_ns += k * p->replay_window_ns;
	l->window_replays = 0;
}

static u32 amdx_link_eval(const struct amdx_link *l, u64 now_ns)
{
	if (l->parked)
		return AMDX_LINK_STATE_PARKED;
	if (!l->trained || now_ns < l->held_until_ns)
		return AMDX_LINK_STATE_DOWN;
	if (l->storm)
		return AMDX_LINK_STATE_REPLAY;
	if (l->width < l->width_max)
		return AMDX_LINK_STATE_DEGRADED;
	return AMDX_LINK_STATE_UP;
}

/* Move to the state the link is in now; 1 if it changed. */
static int amdx_link_settle(const struct amdx_link_policy *p,
			    struct amdx_link *l, u64 now_ns)
{
	u32 s;

	amdx_link_roll(p, l, now_ns);
	s = amdx_link_eval(l, now_ns);
	if (l->state < AMDX_LINK_STATE_DOWN &&
	    now_ns - l->in_service_ns >= p->flap_window_ns)
		l->c.flaps = 0;
	if (s == l->state)
		return 0;
	if (s < AMDX_LINK_STATE_DOWN && l->state >= AMDX_LINK_STATE_DOWN)
		l->in_service_ns = now_ns;
	l->state = s;
	l->c.state_changes++;
	return 1;
}

/* A loss of training or an uncorrected error: one more flap. */
static void amdx_link_flap(const struct amdx_link_policy *p,
			   struct amdx_link *l, u64 now_ns)
{
	if (l->state < AMDX_LINK_STATE_DOWN &&
	    now_ns - l->in_service_ns >= p->flap_window_ns)
		l->c.flaps = 0;
	l->c.downs++;
	if (l->c.flaps < U32_MAX)
		l->c.flaps++;
}

static int amdx_link_at(struct amdx_link_topo *t, u32 link, u64 now_ns,
			struct amdx_link **lp)
{
	if (link >= t->num_links || now_ns < t->link[link].since_ns)
		return -EINVAL;
	*lp = &t->link[link];
	amdx_link_account(*lp, now_ns);
	return 0;
}

/**
 * amdx_link_observe() - feed a link's report to its state machine
 * @t: the topology.
 * @link: the link.
 * @obs: %AMDX_LINK_OBS_*.
 * @arg: lanes for %AMDX_LINK_OBS_UP and %AMDX_LINK_OBS_WIDTH (1 up to the
 *	link's full width), a count for %AMDX_LINK_OBS_REPLAY and
 *	%AMDX_LINK_OBS_CE, ignored otherwise.
 * @now_ns: the time, not before the link's last observation or tick.
 *
 * A report of a state the link is in already (up when up, down when down)
 * changes nothing but the counters; training again after a loss starts
 * the hold.
 *
 * Return: 1 when the link's state changed (the caller reports it), 0 when
 * not, -EINVAL for an unknown link or report, lanes out of range, or a
 * time before the last one.
 */
int amdx_link_observe(struct amdx_link_topo *t, u32 link, u32 obs, u32 arg,
		      u64 now_ns)
{
	const struct amdx_link_policy *p = &t->policy;
	struct amdx_link *l;

	if (obs >= AMDX_LINK_OBS_COUNT)
		return -EINVAL;
	if (link < t->num_links &&
	    (obs == AMDX_LINK_OBS_UP || obs == AMDX_LINK_OBS_WIDTH) &&
	    (!arg || arg > t->link[link].width_max))
		return -EINVAL;
	if (amdx_link_at(t, link, now_ns, &l))
		return -EINVAL;
	switch (obs) {
	case AMDX_LINK_OBS_UP:
		if (!l->trained) {
			l->trained = true;
			l->held_until_ns = now_ns + amdx_link_hold(p, l);
		}
		fallthrough;
	case AMDX_LINK_OBS_WIDTH:
		if (arg != l->width) {
			l->c.width_changes++;
			l->width = arg;
		}
		break;
	case AMDX_LINK_OBS_DOWN:
		if (l->trained) {
			l->trained = false;
			amdx_link_flap(p, l, now_ns);
		}
		break;
	case AMDX_LINK_OBS_REPLAY:
		amdx_link_roll(p, l, now_ns);
		l->c.replays += arg;
		l->window_replays = min_t(u64, (u64)l->window_replays + arg,
					  U32_MAX);
		if (l->window_replays >= p->replay_storm)
			l->storm = true;
		break;
	case AMDX_LINK_OBS_CE:
		l->c.ce += arg;
		break;
	case AMDX_LINK_OBS_UE:
		l->c.ue++;
		amdx_link_flap(p, l, now_ns);
		l->held_until_ns = now_ns + amdx_link_hold(p, l);
		break;
	}
	return amdx_link_settle(p, l, now_ns);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_observe);

/**
 * amdx_link_tick() - let time pass on a link
 * @t: the topology.
 * @link: the link.
 * @now_ns: the time, not before the link's last observation or tick.
 *
 * Ends a hold or a storm whose time is over, forgets flaps after a flap
 * window in service, and accounts the time in the state.
 *
 * Return: 1 when the link's state changed, 0 when not, -EINVAL for an
 * unknown link or a time before the last one.
 */
int amdx_link_tick(struct amdx_link_topo *t, u32 link, u64 now_ns)
{
	struct amdx_link *l;

	if (amdx_link_at(t, link, now_ns, &l))
		return -EINVAL;
	return amdx_link_settle(&t->policy, l, now_ns);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_tick);

/**
 * amdx_link_set_parked() - take a link out of use, or give it back
 * @t: the topology.
 * @link: the link.
 * @parked: out of use.
 * @now_ns: the time, not before the link's last observation or tick.
 *
 * Return: 1 when the link's state changed, 0 when not, -EINVAL for an
 * unknown link or a time before the last one.
 */
int amdx_link_set_parked(struct amdx_link_topo *t, u32 link, bool parked,
			 u64 now_ns)
{
	struct amdx_link *l;

	if (amdx_link_at(t, link, now_ns, &l))
		return -EINVAL;
	l->parked = parked;
	return amdx_link_settle(&t->policy, l, now_ns);
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_set_parked);

/* Routing. */

/* Shortest routes from one endpoint: cost and the link arrived by. */
struct amdx_link_sp {
	u32 cost[AMDX_LINK_MAX_EPS];
	u32 via[AMDX_LINK_MAX_EPS];
};

/* Links a route may take: every one, or by state, never @avoid. */
#define AMDX_LINK_ANY		AMDX_LINK_STATE_COUNT

static u32 amdx_link_cost(const struct amdx_link_topo *t,
			  const struct amdx_link *l)
{
	return (amdx_link_is_accel(&t->ep[l->ep[0]]) +
		amdx_link_is_accel(&t->ep[l->ep[1]])) * AMDX_LINK_COST_HALF + 1;
}

/* Costs added, infinite when one is. */
static u32 amdx_link_cost_add(u32 a, u32 b)
{
	return a == AMDX_LINK_COST_INF || b == AMDX_LINK_COST_INF ?
	       AMDX_LINK_COST_INF : a + b;
}

/*
 * Dijkstra from @src over the links whose state is at most @worst (every
 * link when %AMDX_LINK_ANY, parked endpoints included), never @avoid;
 * only accelerators and switches in use carry a route through them, and
 * from an accelerator only those of its virtual pod are entered.
 * O(endpoints x (endpoints + links)).
 */
static void amdx_link_sp_from(const struct amdx_link_topo *t, u32 src,
			      u32 worst, u32 avoid, struct amdx_link_sp *sp)
{
	DECLARE_BITMAP(done, AMDX_LINK_MAX_EPS);
	u32 vpod = amdx_link_vpod(t, src), i, n, u;

	bitmap_zero(done, AMDX_LINK_MAX_EPS);
	for (i = 0; i < t->num_eps; i++) {
		sp->cost[i] = AMDX_LINK_COST_INF;
		sp->via[i] = AMDX_LINK_NONE;
	}
	sp->cost[src] = 0;
	for (n = 0; n < t->num_eps; n++) {
		u = AMDX_LINK_NONE;
		for (i = 0; i < t->num_eps; i++)
			if (!test_bit(i, done) &&
			    sp->cost[i] != AMDX_LINK_COST_INF &&
			    (u == AMDX_LINK_NONE || sp->cost[i] < sp->cost[u]))
				u = i;
		if (u == AMDX_LINK_NONE)
			break;
		__set_bit(u, done);
		/* A parked endpoint ends routes, it carries none. */
		if (u != src && worst != AMDX_LINK_ANY && t->ep[u].parked)
			continue;
		for (i = 0; i < t->num_links; i++) {
			const struct amdx_link *l = &t->link[i];
			u32 v, c;

			if (i == avoid || (l->ep[0] != u && l->ep[1] != u))
				continue;
			if (worst != AMDX_LINK_ANY && l->state > worst)
				continue;
			v = l->ep[0] == u ? l->ep[1] : l->ep[0];
			if (vpod != AMDX_LINK_NONE &&
			    amdx_link_is_accel(&t->ep[v]) &&
			    amdx_link_vpod(t, v) != vpod)
				continue;
			c = sp->cost[u] + amdx_link_cost(t, l);
			if (test_bit(v, done) || c >= sp->cost[v])
				continue;
			sp->cost[v] = c;
			sp->via[v] = i;
		}
	}
}

/* Hops of a route's cost; a route ending at a switch rounds up. */
static u32 amdx_link_hops(u32 cost)
{
	return DIV_ROUND_UP(cost / AMDX_LINK_COST_HALF, 2);
}

static bool amdx_link_ep_ok(const struct amdx_link_topo *t, u32 ep)
{
	return ep < t->num_eps;
}

/**
 * amdx_link_route() - the route between two endpoints
 * @t: the topology.
 * @src: the source endpoint.
 * @dst: the destination endpoint.
 * @avoid: a link the route must not take, or %AMDX_LINK_NONE.
 * @r: the route, filled in.
 *
 * The shortest route over up links; when there is none, over up, degraded
 * and storming ones; never over down or parked links, @avoid, through a
 * parked endpoint or out of @src's virtual pod.  @r->degraded when it
 * takes a link that is not up or more hops than the shortest route with
 * every link up.
 *
 * Return: 0, -ENOENT when no route is left (or none ever was: two
 * virtual pods), -ENOMEM, or -EINVAL for an
 * unknown endpoint or link.
 */
int amdx_link_route(const struct amdx_link_topo *t, u32 src, u32 dst,
		    u32 avoid, struct amdx_link_path *r)
{
	struct amdx_link_sp *sp;
	u32 nominal, u, n, i;

	if (!amdx_link_ep_ok(t, src) || !amdx_link_ep_ok(t, dst) ||
	    (avoid != AMDX_LINK_NONE && avoid >= t->num_links))
		return -EINVAL;
	sp = kmalloc(sizeof(*sp), GFP_KERNEL);
	if (!sp)
		return -ENOMEM;
	amdx_link_sp_from(t, src, AMDX_LINK_ANY, AMDX_LINK_NONE, sp);
	nominal = sp->cost[dst];
	amdx_link_sp_from(t, src, AMDX_LINK_STATE_UP, avoid, sp);
	if (sp->cost[dst] == AMDX_LINK_COST_INF)
		amdx_link_sp_from(t, src, AMDX_LINK_STATE_REPLAY, avoid, sp);
	if (sp->cost[dst] == AMDX_LINK_COST_INF) {
		kfree(sp);
		return -ENOENT;
	}
	memset(r, 0, sizeof(*r));
	r->hops = amdx_link_hops(sp->cost[dst]);
	r->degraded = r->hops > amdx_link_hops(nominal);
	/* Walk back from @dst; the route is written from @src on. */
	n = sp->cost[dst] % AMDX_LINK_COST_HALF;
	r->num_links = n;
	for (u = dst; u != src; n--) {
		i = sp->via[u];
		r->link[n - 1] = i;
		if (t->link[i].state != AMDX_LINK_STATE_UP)
			r->degraded = true;
		u = t->link[i].ep[0] == u ? t->link[i].ep[1] : t->link[i].ep[0];
	}
	kfree(sp);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_route);

/**
 * amdx_link_route_crosses() - does a route take a link
 * @r: the route.
 * @link: the link.
 *
 * Return: true when @link is one of @r's links.
 */
bool amdx_link_route_crosses(const struct amdx_link_path *r, u32 link)
{
	u32 i;

	for (i = 0; i < r->num_links; i++)
		if (r->link[i] == link)
			return true;
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_route_crosses);

/* Containment. */

/*
 * @part: per accelerator not parked, the first one of the part
 * (accelerators that reach each other) it was found in.
 * @size: per part (its first accelerator), the accelerators it reaches.
 * @ends: per part, the endpoints it reaches, switches included.
 * @kept: per part, whether its virtual pod keeps it.
 */
struct amdx_link_contain_work {
	struct amdx_link_sp nom_a, nom_b, nom, cur;
	u32 part[AMDX_LINK_MAX_EPS];
	u32 size[AMDX_LINK_MAX_EPS];
	u32 ends[AMDX_LINK_MAX_EPS];
	bool kept[AMDX_LINK_MAX_EPS];
};

/*
 * Endpoints reached from @src over usable links, never @avoid (of
 * accelerators, its virtual pod's only), into @set; returns the
 * accelerators among them.
 */
static u32 amdx_link_reach(const struct amdx_link_topo *t, u32 src, u32 avoid,
			   struct amdx_link_sp *sp, unsigned long *set)
{
	u32 i, n = 0;

	amdx_link_sp_from(t, src, AMDX_LINK_STATE_REPLAY, avoid, sp);
	bitmap_zero(set, AMDX_LINK_MAX_EPS);
	for (i = 0; i < t->num_eps; i++) {
		if (sp->cost[i] == AMDX_LINK_COST_INF)
			continue;
		__set_bit(i, set);
		n += amdx_link_is_accel(&t->ep[i]);
	}
	return n;
}

/*
 * Does part @q win over part @p of the same virtual pod: one holding a
 * local device over one without, then the one of more accelerators, then
 * the one reaching more of the fabric (switches too: of two accelerators
 * of a virtual pod of two that no longer reach each other, the one that
 * lost every link is parked), then the one found first (the lower first
 * accelerator: parts are found in index order).
 */
static bool amdx_link_part_beats(const struct amdx_link_topo *t,
				 const struct amdx_link_contain_work *w,
				 u32 q, u32 p)
{
	bool lq = amdx_link_is_local(&t->ep[q]);
	bool lp = amdx_link_is_local(&t->ep[p]);

	if (lq != lp)
		return lq;
	if (w->size[q] != w->size[p])
		return w->size[q] > w->size[p];
	if (w->ends[q] != w->ends[p])
		return w->ends[q] > w->ends[p];
	return q < p;
}

/*
 * Park every accelerator outside the part of its virtual pod the pod
 * keeps (the DOC above).  The parts are found from each accelerator not
 * parked and in no part yet, local ones first, so that a part holding a
 * local device is named by one (the lowest).  One reach per part, each
 * part compared with every other: O(parts x reach + parts^2).
 */
static void amdx_link_park_set(const struct amdx_link_topo *t, u32 avoid,
			       struct amdx_link_contain_work *w,
			       struct amdx_link_containment *c)
{
	DECLARE_BITMAP(set, AMDX_LINK_MAX_EPS);
	u32 i, j, p, pass, locals = 0;

	for (i = 0; i < AMDX_LINK_MAX_EPS; i++) {
		w->part[i] = AMDX_LINK_NONE;
		w->kept[i] = false;
	}
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < t->num_eps; i++) {
			const struct amdx_link_ep *e = &t->ep[i];

			if (!amdx_link_is_accel(e) || e->parked ||
			    amdx_link_is_local(e) == !!pass ||
			    w->part[i] != AMDX_LINK_NONE)
				continue;
			w->size[i] = amdx_link_reach(t, i, avoid, &w->cur, set);
			w->ends[i] = bitmap_weight(set, AMDX_LINK_MAX_EPS);
			/* up to an accelerator per part: 127 reaches */
			cond_resched();
			for_each_set_bit(j, set, t->num_eps)
				if (amdx_link_is_accel(&t->ep[j]) &&
				    !t->ep[j].parked)
					w->part[j] = i;
		}
	for (p = 0; p < t->num_eps; p++) {
		if (w->part[p] != p)
			continue;
		w->kept[p] = true;
		for (j = 0; j < t->num_eps && w->kept[p]; j++)
			if (j != p && w->part[j] == j &&
			    amdx_link_vpod(t, j) == amdx_link_vpod(t, p) &&
			    amdx_link_part_beats(t, w, j, p))
				w->kept[p] = false;
	}
	for (i = 0; i < t->num_eps; i++) {
		const struct amdx_link_ep *e = &t->ep[i];

		if (!amdx_link_is_accel(e) || e->parked || w->kept[w->part[i]])
			continue;
		__set_bit(i, c->parked);
		c->num_parked++;
		if (e->kind == AMDX_LINK_EP_LOCAL && !locals++)
			c->device = e->device;
	}
	if (locals)
		c->escalate = locals == 1 ? AMDX_RECOVER_DEVICE :
			      AMDX_RECOVER_HIVE;
}

/*
 * The pairs (a local accelerator, another accelerator, neither parked)
 * whose shortest route with every link up crosses @link, and how they
 * fare without it.  Two accelerators of different virtual pods have no
 * route at all: no pair.
 */
static void amdx_link_pairs(const struct amdx_link_topo *t, u32 link,
			    struct amdx_link_contain_work *w,
			    struct amdx_link_containment *c)
{
	const struct amdx_link *l = &t->link[link];
	u32 cost = amdx_link_cost(t, l), s, d, via, ca, cb;

	amdx_link_sp_from(t, l->ep[0], AMDX_LINK_ANY, AMDX_LINK_NONE, &w->nom_a);
	amdx_link_sp_from(t, l->ep[1], AMDX_LINK_ANY, AMDX_LINK_NONE, &w->nom_b);
	for (s = 0; s < t->num_eps; s++) {
		if (t->ep[s].kind != AMDX_LINK_EP_LOCAL || t->ep[s].parked)
			continue;
		/* From @s to each end of the link, and across it. */
		ca = amdx_link_cost_add(w->nom_a.cost[s], cost);
		cb = amdx_link_cost_add(w->nom_b.cost[s], cost);
		amdx_link_sp_from(t, s, AMDX_LINK_ANY, AMDX_LINK_NONE, &w->nom);
		amdx_link_sp_from(t, s, AMDX_LINK_STATE_REPLAY, link, &w->cur);
		for (d = 0; d < t->num_eps; d++) {
			/* Each pair once: the lower local end counts it. */
			if (d == s || !amdx_link_is_accel(&t->ep[d]) ||
			    t->ep[d].parked ||
			    (t->ep[d].kind == AMDX_LINK_EP_LOCAL && d < s) ||
			    w->nom.cost[d] == AMDX_LINK_COST_INF)
				continue;
			via = min(amdx_link_cost_add(ca, w->nom_b.cost[d]),
				  amdx_link_cost_add(cb, w->nom_a.cost[d]));
			if (via != w->nom.cost[d])
				continue;
			c->pairs++;
			if (w->cur.cost[d] == AMDX_LINK_COST_INF)
				continue;
			c->rerouted++;
			if (amdx_link_hops(w->cur.cost[d]) >
			    amdx_link_hops(w->nom.cost[d]))
				c->longer++;
		}
	}
}

/**
 * amdx_link_contain() - what a link's state asks for
 * @t: the topology.
 * @link: the link.
 * @c: the containment, filled in.
 *
 * %AMDX_LINK_CONTAIN_NONE for an up link; %AMDX_LINK_CONTAIN_AVOID for a
 * degraded one (it still carries what uses it); %AMDX_LINK_CONTAIN_MOVE
 * for a storming, down or parked one; %AMDX_LINK_CONTAIN_PARK when, the
 * link out of use, accelerators are left with no route to the part of the
 * fabric that holds the most of them.  @c->pairs, @c->rerouted and
 * @c->longer count the pairs the link served (for every action but the
 * first); @c->parked and @c->escalate are set only for the last.
 *
 * Return: 0, -ENOMEM, or -EINVAL for an unknown link.
 */
int amdx_link_contain(const struct amdx_link_topo *t, u32 link,
		      struct amdx_link_containment *c)
{
	struct amdx_link_contain_work *w;
	u32 state;

	if (link >= t->num_links)
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	c->escalate = AMDX_RECOVER_NONE;
	state = t->link[link].state;
	if (state == AMDX_LINK_STATE_UP)
		return 0;
	w = kmalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	amdx_link_pairs(t, link, w, c);
	if (state == AMDX_LINK_STATE_DEGRADED) {
		c->action = AMDX_LINK_CONTAIN_AVOID;
	} else {
		c->action = AMDX_LINK_CONTAIN_MOVE;
		amdx_link_park_set(t, link, w, c);
		if (c->num_parked)
			c->action = AMDX_LINK_CONTAIN_PARK;
	}
	kfree(w);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_contain);

/**
 * amdx_link_park_peers() - carry out a containment's parking
 * @t: the topology.
 * @c: a containment amdx_link_contain() chose on @t.
 * @now_ns: the time, not before any of the parked endpoints' links' last
 *	observation or tick.
 *
 * Marks every endpoint of @c->parked parked and parks each of its links.
 *
 * Return: the links whose state changed, or -EINVAL for a time before a
 * link's last one (nothing is parked then).
 */
int amdx_link_park_peers(struct amdx_link_topo *t,
			 const struct amdx_link_containment *c, u64 now_ns)
{
	u32 i, changed = 0;
	int r;

	for (i = 0; i < t->num_links; i++)
		if (now_ns < t->link[i].since_ns &&
		    (test_bit(t->link[i].ep[0], c->parked) ||
		     test_bit(t->link[i].ep[1], c->parked)))
			return -EINVAL;
	for (i = 0; i < t->num_eps; i++)
		if (test_bit(i, c->parked))
			t->ep[i].parked = true;
	for (i = 0; i < t->num_links; i++) {
		if (!test_bit(t->link[i].ep[0], c->parked) &&
		    !test_bit(t->link[i].ep[1], c->parked))
			continue;
		r = amdx_link_set_parked(t, i, true, now_ns);
		if (r > 0)
			changed++;
	}
	return changed;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_park_peers);

/**
 * amdx_link_state_level() - what data may do across a link in a state
 * @state: an %AMDX_LINK_STATE_*.
 *
 * The containment a state asks for short of parking (amdx_link_contain()
 * adds that), also what the link code falls back to when the model
 * cannot say (no memory).
 *
 * Return: %AMDX_LINK_CONTAIN_NONE for an up link, %AMDX_LINK_CONTAIN_AVOID
 * for a degraded one, %AMDX_LINK_CONTAIN_MOVE for any other.
 */
u32 amdx_link_state_level(u32 state)
{
	if (state == AMDX_LINK_STATE_UP)
		return AMDX_LINK_CONTAIN_NONE;
	return state == AMDX_LINK_STATE_DEGRADED ? AMDX_LINK_CONTAIN_AVOID :
	       AMDX_LINK_CONTAIN_MOVE;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_state_level);

static u32 amdx_link_level(const struct amdx_link *l)
{
	return amdx_link_state_level(l->state);
}

/**
 * amdx_link_pair_level() - what HMM data between two accelerators may do
 * @t: the topology.
 * @a: one accelerator (an endpoint that is no switch).
 * @b: another.
 * @via: out: the link that decides it (for the log and the records): the
 *	link between @a and @b, or the worse link of the best way through a
 *	switch; %AMDX_LINK_NONE when there is no way at all.
 *
 * Data in the memory of @a that @b accesses goes the way the fabric gives
 * a peer access: across the link between them in a mesh (XGMI peer
 * access takes no second hop), or in a pod through one switch, on the
 * plane whose two links are best (the fabric spreads traffic over the
 * planes and leaves out one that is not up), never between two virtual
 * pods (no way: a switch keeps them apart).  The way is as good as its
 * worse link; the pair as good as its best way: %AMDX_LINK_CONTAIN_NONE
 * (new data may be placed), %AMDX_LINK_CONTAIN_AVOID (no new data, what
 * is there stays) or %AMDX_LINK_CONTAIN_MOVE (what is there moves off),
 * the last also when no way is left.  A lost plane thus costs a pod pair
 * nothing while another plane serves both ends; the pair is contained
 * only when no plane does (Documentation/fabric.rst, "HMM across a
 * link").
 *
 * Return: the %AMDX_LINK_CONTAIN_* the pair asks for: NONE, AVOID or MOVE.
 */
u32 amdx_link_pair_level(const struct amdx_link_topo *t, u32 a, u32 b,
			 u32 *via)
{
	u32 best = AMDX_LINK_CONTAIN_MOVE, i, s, la, lb, lvl;

	*via = AMDX_LINK_NONE;
	if (a >= t->num_eps || b >= t->num_eps || a == b ||
	    amdx_link_vpod(t, a) != amdx_link_vpod(t, b))
		return best;
	i = amdx_link_find(t, a, b);
	if (i != AMDX_LINK_NONE) {
		*via = i;
		return amdx_link_level(&t->link[i]);
	}
	for (s = 0; s < t->num_eps; s++) {
		if (t->ep[s].kind != AMDX_LINK_EP_SWITCH)
			continue;
		la = amdx_link_find(t, a, s);
		lb = amdx_link_find(t, s, b);
		if (la == AMDX_LINK_NONE || lb == AMDX_LINK_NONE)
			continue;
		/* The way's worse link; of two alike, @a's. */
		if (amdx_link_level(&t->link[lb]) >
		    amdx_link_level(&t->link[la]))
			la = lb;
		lvl = amdx_link_level(&t->link[la]);
		if (*via == AMDX_LINK_NONE || lvl < best) {
			best = lvl;
			*via = la;
		}
	}
	return best;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_pair_level);

/**
 * amdx_link_move_dest() - where data crossing a link that moves goes
 * @peer: the amdx device id at the link's other end: the device that
 *	accesses the data (data in this end's VRAM that @peer accesses
 *	crosses the link).
 * @pref: the preferred location of @peer's range over the data: the
 *	range of the same process's fd of @peer (a memory partition index
 *	of @peer, or %AMDX_HMM_LOC_SYSTEM).
 * @access: that range's access set (bit N: device N).
 * @nparts: @peer's memory partitions.
 * @avoid: the devices whose fabric link to @peer takes no new data (this
 *	end among them: its link is the one that moves).
 *
 * The containment's choice per range (Documentation/fabric.rst, "HMM
 * across a link"): to the accessing device when its own range says the
 * data belongs in one of its memory partitions and the data there would
 * cross no link that takes no new data (no device of the range's access
 * set is across one, this end included); home otherwise.  The caller
 * checks that @peer's range exists at all and that @peer can take the
 * data (its memory partition, its tenant, room).
 *
 * Return: @pref, a memory partition of @peer, or %AMDX_HMM_LOC_SYSTEM.
 */
u32 amdx_link_move_dest(u32 peer, u32 pref, u64 access, u32 nparts, u64 avoid)
{
	if (peer >= AMDX_MAX_DEVICES || pref >= nparts ||
	    !(access & BIT_ULL(peer)) || (access & avoid))
		return AMDX_HMM_LOC_SYSTEM;
	return pref;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_move_dest);

/**
 * amdx_link_range_fate() - move or revoke a range crossing a link that moves
 * @peer: the amdx device id at the link's other end.
 * @flags: the range's %AMDX_HMM_F_* (a range of this end's fd, with
 *	pages in this end's VRAM).
 * @access: its access set (bit N: device N).
 *
 * The containment's choice per range (Documentation/fabric.rst, "HMM
 * across a link"): a range not naming @peer crosses nothing and is left
 * alone.  One that names it moves off the link (home or to @peer,
 * amdx_link_move_dest()) unless it must stay where it is: a pinned range
 * (%AMDX_HMM_F_PIN, whose pages never leave this VRAM for eviction)
 * stays, and @peer loses its access to it instead.
 *
 * Return: %AMDX_LINK_RANGE_KEEP, %AMDX_LINK_RANGE_MOVE or
 * %AMDX_LINK_RANGE_REVOKE.
 */
u32 amdx_link_range_fate(u32 peer, u32 flags, u64 access)
{
	if (peer >= AMDX_MAX_DEVICES || !(access & BIT_ULL(peer)))
		return AMDX_LINK_RANGE_KEEP;
	if (flags & AMDX_HMM_F_PIN)
		return AMDX_LINK_RANGE_REVOKE;
	return AMDX_LINK_RANGE_MOVE;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_link_range_fate);
