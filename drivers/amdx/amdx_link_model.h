/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The link model (amdx_link_model.c): the fabric between accelerators as a
 * fault domain.  Endpoints and links, each link's state machine with its
 * hysteresis, routes over the mesh, and the containment a link fault
 * needs.  Pure logic over a topology passed in: no locking, no device, so
 * KUnit drives it on golden topologies (Documentation/fabric.rst).
 */
#ifndef _AMDX_LINK_MODEL_H_
#define _AMDX_LINK_MODEL_H_

#include <linux/bitmap.h>
#include <linux/types.h>
#include <linux/amdx.h>

#include <amdx/amdx_provider.h>

/* Most endpoints and links of a topology: a pod of 72 on 4 planes fits. */
#define AMDX_LINK_MAX_EPS		128
#define AMDX_LINK_MAX_LINKS		512
/* Most lanes of a link. */
#define AMDX_LINK_MAX_WIDTH		32
/* No endpoint or link: a route's end, a parent that is none. */
#define AMDX_LINK_NONE			U32_MAX

/* What the containment does to a range crossing a link that moves. */
#define AMDX_LINK_RANGE_KEEP		0	/* crosses nothing: untouched */
#define AMDX_LINK_RANGE_MOVE		1	/* the data moves off the link */
#define AMDX_LINK_RANGE_REVOKE		2	/* the data stays, the peer loses access */

/* What an endpoint is. */
#define AMDX_LINK_EP_LOCAL		0	/* a device of this host */
#define AMDX_LINK_EP_REMOTE		1	/* an accelerator known by id */
#define AMDX_LINK_EP_SWITCH		2	/* a scale-up switch, by id */
#define AMDX_LINK_EP_COUNT		3

/*
 * A link's kind (%AMDX_LINK_KIND_*), state (%AMDX_LINK_STATE_*) and the
 * containment it asks for (%AMDX_LINK_CONTAIN_*) are the uapi's
 * (<linux/amdx.h>); what a link reports is the provider interface's
 * (%AMDX_LINK_OBS_*, <amdx/amdx_provider.h>).
 */

/**
 * struct amdx_link_ep - one endpoint of the fabric
 * @kind: %AMDX_LINK_EP_*.
 * @device: amdx device id of a %AMDX_LINK_EP_LOCAL endpoint.
 * @id: fabric id of a remote accelerator or switch (the pod's), or of a
 *	local device when it has one; unique per kind.
 * @domain: OS domain (host) of an accelerator in a pod, 0 in a hive.
 * @parked: removed from its hive or virtual pod (amdx_link_contain()).
 */
struct amdx_link_ep {
	u32 kind;
	u32 device;
	u64 id;
	u32 domain;
	bool parked;
};

/**
 * struct amdx_link_policy - the hysteresis of every link of a topology
 * @hold_ns: a link that went down is held down until it has been up this
 *	long; each flap inside @flap_window_ns doubles it.
 * @max_hold_shift: most doublings of @hold_ns.
 * @flap_window_ns: a link that stays in service this long forgets its
 *	flaps.
 * @replay_storm: replays in one @replay_window_ns window that make a
 *	storm.
 * @replay_window_ns: the window; a storm ends after a whole window with
 *	fewer than @replay_storm replays.
 */
struct amdx_link_policy {
	u64 hold_ns;
	u32 max_hold_shift;
	u64 flap_window_ns;
	u32 replay_storm;
	u64 replay_window_ns;
};

/**
 * struct amdx_link_counters - what happened on one link
 * @ce: corrected errors.
 * @ue: uncorrected errors.
 * @replays: replays.
 * @width_changes: retrainings at another width.
 * @downs: losses of training (and uncorrected errors, which hold the link
 *	down the same way).
 * @flaps: downs inside the current flap window.
 * @state_changes: changes of the state routing sees.
 * @time_ns: per %AMDX_LINK_STATE_*, time spent in it (up to the last
 *	observation or tick).
 */
struct amdx_link_counters {
	u64 ce;
	u64 ue;
	u64 replays;
	u64 width_changes;
	u64 downs;
	u32 flaps;
	u64 state_changes;
	u64 time_ns[AMDX_LINK_STATE_COUNT];
};

/**
 * struct amdx_link - one link between two endpoints
 * @kind: %AMDX_LINK_KIND_*.
 * @ep: the endpoints, indices into &struct amdx_link_topo.ep.
 * @port: the port of each endpoint the link leaves from.
 * @width_max: lanes when trained at full width.
 * @width: lanes now.
 * @state: %AMDX_LINK_STATE_*, what routing sees.
 * @trained: the link reports itself trained (its raw state).
 * @parked: taken out of use (amdx_link_set_parked()).
 * @held_until_ns: when @trained, the link is held down until then.
 * @storm: a replay storm is on.
 * @replay_window_ns: start of the current replay window.
 * @window_replays: replays in it.
 * @in_service_ns: when the link last came back into service.
 * @since_ns: when @state was last accounted in @c.time_ns.
 * @c: its counters.
 */
struct amdx_link {
	u32 kind;
	u32 ep[2];
	u8 port[2];
	u8 width_max;
	u8 width;
	u32 state;
	bool trained;
	bool parked;
	u64 held_until_ns;
	bool storm;
	u64 replay_window_ns;
	u32 window_replays;
	u64 in_service_ns;
	u64 since_ns;
	struct amdx_link_counters c;
};

/**
 * struct amdx_link_topo - endpoints and the links between them
 * @num_eps: endpoints in @ep.
 * @num_links: links in @link.
 * @vpod_size: accelerators per virtual pod of a scale-up pod
 *	(amdx_link_vpod()); 0: the fabric is one.
 * @policy: the hysteresis of every link.
 * @ep: the endpoints.
 * @link: the links.
 */
struct amdx_link_topo {
	u32 num_eps;
	u32 num_links;
	u32 vpod_size;
	struct amdx_link_policy policy;
	struct amdx_link_ep ep[AMDX_LINK_MAX_EPS];
	struct amdx_link link[AMDX_LINK_MAX_LINKS];
};

/**
 * struct amdx_link_path - a route between two endpoints
 * @hops: accelerator hops: a direct link is one, a switch passed through
 *	is one with its two links.
 * @num_links: links in @link.
 * @link: the links, from the source on.
 * @degraded: the route uses a link that is not up, or takes more hops
 *	than it would with every link up.
 */
struct amdx_link_path {
	u32 hops;
	u32 num_links;
	u32 link[AMDX_LINK_MAX_EPS];
	bool degraded;
};

/**
 * struct amdx_link_containment - what a link's state asks for
 * @action: %AMDX_LINK_CONTAIN_*.
 * @pairs: pairs (a local accelerator and any accelerator of its virtual
 *	pod) whose shortest route with every link up crosses the link.
 * @rerouted: of those, the pairs routed around it.
 * @longer: of those, the pairs whose route now takes more hops.
 * @parked: bit N: endpoint N has no route left and is parked.
 * @num_parked: endpoints in @parked.
 * @escalate: the recovery rung after parking: %AMDX_RECOVER_DEVICE when
 *	one local device is parked, %AMDX_RECOVER_HIVE when more are, else
 *	%AMDX_RECOVER_NONE (a parked remote peer is its own host's to
 *	recover).
 * @device: the parked local device for %AMDX_RECOVER_DEVICE, the lowest
 *	one for %AMDX_RECOVER_HIVE.
 */
struct amdx_link_containment {
	u32 action;
	u32 pairs;
	u32 rerouted;
	u32 longer;
	DECLARE_BITMAP(parked, AMDX_LINK_MAX_EPS);
	u32 num_parked;
	u32 escalate;
	u32 device;
};

const char *amdx_link_state_name(u32 state);
const char *amdx_link_kind_name(u32 kind);
const char *amdx_link_contain_name(u32 action);
int amdx_link_topo_check(const struct amdx_link_topo *t);
void amdx_link_policy_default(struct amdx_link_policy *p);
int amdx_link_add_ep(struct amdx_link_topo *t, u32 kind, u32 device, u64 id,
		     u32 domain);
int amdx_link_add(struct amdx_link_topo *t, u32 kind, u32 a, u8 port_a,
		  u32 b, u8 port_b, u8 width, u64 now_ns);
int amdx_link_remove_ep(struct amdx_link_topo *t, u32 ep);
int amdx_link_build_mesh(struct amdx_link_topo *t, u32 n, u64 now_ns);
int amdx_link_build_pod(struct amdx_link_topo *t, u32 domains,
			u32 per_domain, u32 local_domain, u32 planes,
			u32 vpod_size, u64 now_ns);
u32 amdx_link_vpod(const struct amdx_link_topo *t, u32 ep);
u32 amdx_link_find(const struct amdx_link_topo *t, u32 a, u32 b);
int amdx_link_observe(struct amdx_link_topo *t, u32 link, u32 obs, u32 arg,
		      u64 now_ns);
int amdx_link_tick(struct amdx_link_topo *t, u32 link, u64 now_ns);
int amdx_link_set_parked(struct amdx_link_topo *t, u32 link, bool parked,
			 u64 now_ns);
int amdx_link_route(const struct amdx_link_topo *t, u32 src, u32 dst,
		    u32 avoid, struct amdx_link_path *r);
bool amdx_link_route_crosses(const struct amdx_link_path *r, u32 link);
int amdx_link_contain(const struct amdx_link_topo *t, u32 link,
		      struct amdx_link_containment *c);
int amdx_link_park_peers(struct amdx_link_topo *t,
			 const struct amdx_link_containment *c, u64 now_ns);
u32 amdx_link_state_level(u32 state);
u32 amdx_link_pair_level(const struct amdx_link_topo *t, u32 a, u32 b,
			 u32 *via);
u32 amdx_link_move_dest(u32 peer, u32 pref, u64 access, u32 nparts, u64 avoid);
u32 amdx_link_range_fate(u32 peer, u32 flags, u64 access);

#endif /* _AMDX_LINK_MODEL_H_ */
