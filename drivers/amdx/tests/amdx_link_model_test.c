// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: KUnit tests of the link model
 *
 * Suite ``amdx_link_model``: golden topologies (an MI300X hive, a full
 * mesh of 8 with 7 links each; a scale-up pod of 72 accelerators in 18
 * domains of 4 on 4 switch planes; a hive with one link down) for their
 * shape, routes and hop counts; the containment each link fault gets,
 * from avoiding a degraded link to parking an isolated peer and the
 * recovery rung that follows; the hysteresis (flaps held down with a
 * growing hold, a flapping detour in the hive with one link down that
 * moves its routes once, not per flap, replay storms that end only after a quiet window, an
 * uncorrected error held like a flap); invalid input; and every route of
 * meshes with links taken down by a fixed pseudo-random pattern, checked
 * against a breadth-first search of the test's own; where a range
 * crossing a link that moves goes, per its accessing device's range.
 */
#include <kunit/test.h>

#include "amdx_link_model.h"

#define MS	1000000ULL
#define S	1000000000ULL

static struct amdx_link_topo *topo_new(struct kunit *test)
{
	struct amdx_link_topo *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	amdx_link_policy_default(&t->policy);
	return t;
}

static struct amdx_link_topo *mesh(struct kunit *test, u32 n)
{
	struct amdx_link_topo *t = topo_new(test);

	KUNIT_ASSERT_EQ(test, amdx_link_build_mesh(t, n, 0), 0);
	KUNIT_ASSERT_EQ(test, amdx_link_topo_check(t), 0);
	return t;
}

/* 72 accelerators, 18 domains of 4, this host domain 0, 4 planes. */
static struct amdx_link_topo *pod72(struct kunit *test)
{
	struct amdx_link_topo *t = topo_new(test);

	KUNIT_ASSERT_EQ(test, amdx_link_build_pod(t, 18, 4, 0, 4, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, amdx_link_topo_check(t), 0);
	return t;
}

static struct amdx_link_path *route_new(struct kunit *test)
{
	struct amdx_link_path *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	return r;
}

static struct amdx_link_containment *contain(struct kunit *test,
					     const struct amdx_link_topo *t,
					     u32 link)
{
	struct amdx_link_containment *c = kunit_kzalloc(test, sizeof(*c),
							GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, amdx_link_contain(t, link, c), 0);
	return c;
}

static u32 link_of(struct kunit *test, const struct amdx_link_topo *t, u32 a,
		   u32 b)
{
	u32 l = amdx_link_find(t, a, b);

	KUNIT_ASSERT_NE(test, l, AMDX_LINK_NONE);
	return l;
}

static void down(struct kunit *test, struct amdx_link_topo *t, u32 a, u32 b,
		 u64 now)
{
	KUNIT_ASSERT_EQ(test, amdx_link_observe(t, link_of(test, t, a, b),
						AMDX_LINK_OBS_DOWN, 0, now), 1);
}

/* The route is a walk of links from @src to @dst. */
static void expect_walk(struct kunit *test, const struct amdx_link_topo *t,
			const struct amdx_link_path *r, u32 src, u32 dst)
{
	u32 i, at = src;

	for (i = 0; i < r->num_links; i++) {
		const struct amdx_link *l = &t->link[r->link[i]];

		KUNIT_ASSERT_TRUE(test, l->ep[0] == at || l->ep[1] == at);
		KUNIT_EXPECT_LT(test, l->state, AMDX_LINK_STATE_DOWN);
		at = l->ep[0] == at ? l->ep[1] : l->ep[0];
	}
	KUNIT_EXPECT_EQ(test, at, dst);
}

static void mesh_of_8_is_28_links(struct kunit *test)
{
	struct amdx_link_topo *t = mesh(test, 8);
	struct amdx_link_path *r = route_new(test);
	u32 i, j, deg[8] = {}, ports[8] = {};

	KUNIT_EXPECT_EQ(test, t->num_eps, 8);
	KUNIT_EXPECT_EQ(test, t->num_links, 28);
	for (i = 0; i < t->num_links; i++) {
		const struct amdx_link *l = &t->link[i];

		KUNIT_EXPECT_EQ(test, l->kind, AMDX_LINK_KIND_XGMI);
		KUNIT_EXPECT_EQ(test, l->state, AMDX_LINK_STATE_UP);
		KUNIT_EXPECT_EQ(test, l->width, l->width_max);
		for (j = 0; j < 2; j++) {
			deg[l->ep[j]]++;
			ports[l->ep[j]] |= BIT(l->port[j]);
		}
	}
	for (i = 0; i < 8; i++) {
		KUNIT_EXPECT_EQ(test, deg[i], 7);
		KUNIT_EXPECT_EQ(test, ports[i], GENMASK(6, 0));
		KUNIT_EXPECT_EQ(test, t->ep[i].kind, AMDX_LINK_EP_LOCAL);
		KUNIT_EXPECT_EQ(test, t->ep[i].device, i);
	}
	for (i = 0; i < 8; i++)
		for (j = 0; j < 8; j++) {
			KUNIT_ASSERT_EQ(test, amdx_link_route(t, i, j,
							      AMDX_LINK_NONE,
							      r), 0);
			KUNIT_EXPECT_EQ(test, r->hops, i == j ? 0 : 1);
			KUNIT_EXPECT_EQ(test, r->num_links, i == j ? 0 : 1);
			KUNIT_EXPECT_FALSE(test, r->degraded);
			if (i != j)
				KUNIT_EXPECT_EQ(test, r->link[0],
						amdx_link_find(t, i, j));
		}
}

static void pod_of_72_in_18_domains(struct kunit *test)
{
	struct amdx_link_topo *t = pod72(test);
	struct amdx_link_path *r = route_new(test);
	u32 i, kinds[AMDX_LINK_EP_COUNT] = {}, per_domain[18] = {};

	KUNIT_EXPECT_EQ(test, t->num_eps, 76);
	KUNIT_EXPECT_EQ(test, t->num_links, 72 * 4);
	for (i = 0; i < t->num_eps; i++) {
		kinds[t->ep[i].kind]++;
		if (t->ep[i].kind != AMDX_LINK_EP_SWITCH)
			per_domain[t->ep[i].domain]++;
	}
	KUNIT_EXPECT_EQ(test, kinds[AMDX_LINK_EP_LOCAL], 4);
	KUNIT_EXPECT_EQ(test, kinds[AMDX_LINK_EP_REMOTE], 68);
	KUNIT_EXPECT_EQ(test, kinds[AMDX_LINK_EP_SWITCH], 4);
	for (i = 0; i < 18; i++)
		KUNIT_EXPECT_EQ(test, per_domain[i], 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, t->ep[i].device, i);
	for (i = 0; i < t->num_links; i++)
		KUNIT_EXPECT_EQ(test, t->link[i].kind, AMDX_LINK_KIND_SCALEUP);

	/* Through one switch: one hop, two links, the first plane. */
	for (i = 1; i < 72; i++) {
		KUNIT_ASSERT_EQ(test, amdx_link_route(t, 0, i, AMDX_LINK_NONE,
						      r), 0);
		KUNIT_EXPECT_EQ(test, r->hops, 1);
		KUNIT_EXPECT_EQ(test, r->num_links, 2);
		KUNIT_EXPECT_FALSE(test, r->degraded);
		KUNIT_EXPECT_EQ(test, r->link[0], link_of(test, t, 0, 72));
		expect_walk(test, t, r, 0, i);
	}
	/* To a switch itself: half a hop rounds up. */
	KUNIT_ASSERT_EQ(test, amdx_link_route(t, 5, 75, AMDX_LINK_NONE, r), 0);
	KUNIT_EXPECT_EQ(test, r->hops, 1);
	KUNIT_EXPECT_EQ(test, r->num_links, 1);
}

static void hive_with_one_link_down(struct kunit *test)
{
	struct amdx_link_topo *t = mesh(test, 8);
	struct amdx_link_path *r = route_new(test);
	struct amdx_link_containment *c;
	u32 i, j, bad = link_of(test, t, 2, 5);

	down(test, t, 2, 5, 10 * MS);
	KUNIT_EXPECT_EQ(test, t->link[bad].state, AMDX_LINK_STATE_DOWN);
	for (i = 0; i < 8; i++)
		for (j = 0; j < 8; j++) {
			bool cut = (i == 2 && j == 5) || (i == 5 && j == 2);

			KUNIT_ASSERT_EQ(test, amdx_link_route(t, i, j,
							      AMDX_LINK_NONE,
							      r), 0);
			expect_walk(test, t, r, i, j);
			KUNIT_EXPECT_EQ(test, r->hops, i == j ? 0 : cut ? 2 : 1);
			KUNIT_EXPECT_EQ(test, r->degraded, cut);
			KUNIT_EXPECT_FALSE(test,
					   amdx_link_route_crosses(r, bad));
		}
	/* Around it through the lowest device. */
	KUNIT_ASSERT_EQ(test, amdx_link_route(t, 2, 5, AMDX_LINK_NONE, r), 0);
	KUNIT_EXPECT_EQ(test, r->link[0], link_of(test, t, 2, 0));
	KUNIT_EXPECT_EQ(test, r->link[1], link_of(test, t, 0, 5));

	/* The one pair it served goes around, one hop longer; no parking. */
	c = contain(test, t, bad);
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, c->pairs, 1);
	KUNIT_EXPECT_EQ(test, c->rerouted, 1);
	KUNIT_EXPECT_EQ(test, c->longer, 1);
	KUNIT_EXPECT_EQ(test, c->num_parked, 0);
	KUNIT_EXPECT_EQ(test, c->escalate, AMDX_RECOVER_NONE);

	/* The other 27 links need nothing. */
	for (i = 0; i < t->num_links; i++) {
		if (i == bad)
			continue;
		c = contain(test, t, i);
		KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_NONE);
		KUNIT_EXPECT_EQ(test, c->pairs, 0);
	}
}

static void containment_by_state(struct kunit *test)
{
	struct amdx_link_topo *t = mesh(test, 8);
	struct amdx_link_path *r = route_new(test);
	struct amdx_link_containment *c;
	u32 storm = link_of(test, t, 2, 6), narrow = link_of(test, t, 1, 3);
	u32 parked = link_of(test, t, 4, 7);

	/* A width drop: avoided, still carrying what it carries. */
	KUNIT_ASSERT_EQ(test, amdx_link_observe(t, narrow, AMDX_LINK_OBS_WIDTH,
						8, MS), 1);
	KUNIT_EXPECT_EQ(test, t->link[narrow].state, AMDX_LINK_STATE_DEGRADED);
	KUNIT_EXPECT_EQ(test, t->link[narrow].c.width_changes, 1);
	c = contain(test, t, narrow);
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_AVOID);
	KUNIT_EXPECT_EQ(test, c->pairs, 1);
	KUNIT_EXPECT_EQ(test, c->rerouted, 1);
	KUNIT_ASSERT_EQ(test, amdx_link_route(t, 1, 3, AMDX_LINK_NONE, r), 0);
	KUNIT_EXPECT_EQ(test, r->hops, 2);
	KUNIT_EXPECT_TRUE(test, r->degraded);
	KUNIT_EXPECT_FALSE(test, amdx_link_route_crosses(r, narrow));

	/* A storm: moved. */
	KUNIT_ASSERT_EQ(test, amdx_link_observe(t, storm, AMDX_LINK_OBS_REPLAY,
						64, 2 * MS), 1);
	KUNIT_EXPECT_EQ(test, t->link[storm].state, AMDX_LINK_STATE_REPLAY);
	c = contain(test, t, storm);
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, c->pairs, 1);
	KUNIT_EXPECT_EQ(test, c->longer, 1);

	/* A parked link: moved too. */
	KUNIT_ASSERT_EQ(test, amdx_link_set_parked(t, parked, true, 3 * MS), 1);
	KUNIT_EXPECT_EQ(test, t->link[parked].state, AMDX_LINK_STATE_PARKED);
	c = contain(test, t, parked);
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_MOVE);
	KUNIT_ASSERT_EQ(test, amdx_link_set_parked(t, parked, false, 4 * MS), 1);
	KUNIT_EXPECT_EQ(test, t->link[parked].state, AMDX_LINK_STATE_UP);

	/* With every other link of 1 down, the narrow one is its only way. */
	KUNIT_ASSERT_EQ(test, amdx_link_observe(t, link_of(test, t, 1, 0),
						AMDX_LINK_OBS_DOWN, 0, 5 * MS),
			1);
	down(test, t, 1, 2, 5 * MS);
	down(test, t, 1, 4, 5 * MS);
	down(test, t, 1, 5, 5 * MS);
	down(test, t, 1, 6, 5 * MS);
	down(test, t, 1, 7, 5 * MS);
	KUNIT_ASSERT_EQ(test, amdx_link_route(t, 1, 7, AMDX_LINK_NONE, r), 0);
	KUNIT_EXPECT_EQ(test, r->link[0], narrow);
	KUNIT_EXPECT_EQ(test, r->hops, 2);
	KUNIT_EXPECT_TRUE(test, r->degraded);
	KUNIT_EXPECT_EQ(test, amdx_link_route(t, 1, 7, narrow, r), -ENOENT);
	/* A degraded link is never a reason to park. */
	c = contain(test, t, narrow);
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_AVOID);
	KUNIT_EXPECT_EQ(test, c->num_parked, 0);
}

static void isolated_device_is_parked_then_device_rung(struct kunit *test)
{
	struct amdx_link_topo *t = mesh(test, 8);
	struct amdx_link_containment *c;
	struct amdx_link_path *r = route_new(test);
	u32 i, last = link_of(test, t, 3, 7);
	int changed;

	for (i = 0; i < 7; i++)
		if (i != 3)
			down(test, t, 3, i, MS);
	c = contain(test, t, link_of(test, t, 3, 6));
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, c->num_parked, 0);
	KUNIT_EXPECT_EQ(test, c->escalate, AMDX_RECOVER_NONE);

	down(test, t, 3, 7, 2 * MS);
	c = contain(test, t, last);
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_PARK);
	KUNIT_EXPECT_EQ(test, c->num_parked, 1);
	KUNIT_EXPECT_TRUE(test, test_bit(3, c->parked));
	KUNIT_EXPECT_EQ(test, c->escalate, AMDX_RECOVER_DEVICE);
	KUNIT_EXPECT_EQ(test, c->device, 3);
	/* The one pair the link served has no route left. */
	KUNIT_EXPECT_EQ(test, c->pairs, 1);
	KUNIT_EXPECT_EQ(test, c->rerouted, 0);

	changed = amdx_link_park_peers(t, c, 3 * MS);
	KUNIT_EXPECT_EQ(test, changed, 7);
	KUNIT_EXPECT_TRUE(test, t->ep[3].parked);
	for (i = 0; i < t->num_links; i++) {
		const struct amdx_link *l = &t->link[i];
		bool of3 = l->ep[0] == 3 || l->ep[1] == 3;

		KUNIT_EXPECT_EQ(test, l->state, of3 ? AMDX_LINK_STATE_PARKED :
				AMDX_LINK_STATE_UP);
	}
	/* Parked stays parked when the link trains again. */
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, last, AMDX_LINK_OBS_UP, 16,
						10 * S), 0);
	KUNIT_EXPECT_EQ(test, t->link[last].state, AMDX_LINK_STATE_PARKED);
	KUNIT_EXPECT_EQ(test, amdx_link_route(t, 0, 3, AMDX_LINK_NONE, r),
			-ENOENT);
	/* Nothing left to park: the parked device is not parked twice. */
	c = contain(test, t, last);
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, c->num_parked, 0);
}

static void split_hive_is_hive_rung(struct kunit *test)
{
	struct amdx_link_topo *t = mesh(test, 8);
	struct amdx_link_containment *c;
	u32 i, j;

	for (i = 0; i < 4; i++)
		for (j = 4; j < 8; j++)
			down(test, t, i, j, MS);
	c = contain(test, t, link_of(test, t, 3, 7));
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_PARK);
	KUNIT_EXPECT_EQ(test, c->num_parked, 4);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, test_bit(i, c->parked), i >= 4);
	KUNIT_EXPECT_EQ(test, c->escalate, AMDX_RECOVER_HIVE);
	KUNIT_EXPECT_EQ(test, c->device, 4);
}

static void pod_link_faults(struct kunit *test)
{
	struct amdx_link_topo *t = pod72(test);
	struct amdx_link_path *r = route_new(test);
	struct amdx_link_containment *c;
	u32 p, l0 = link_of(test, t, 0, 72);

	/* A local plane link: 71 pairs lose a plane, none a hop. */
	down(test, t, 0, 72, MS);
	c = contain(test, t, l0);
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, c->pairs, 71);
	KUNIT_EXPECT_EQ(test, c->rerouted, 71);
	KUNIT_EXPECT_EQ(test, c->longer, 0);
	KUNIT_ASSERT_EQ(test, amdx_link_route(t, 0, 40, AMDX_LINK_NONE, r), 0);
	KUNIT_EXPECT_EQ(test, r->hops, 1);
	KUNIT_EXPECT_EQ(test, r->link[0], link_of(test, t, 0, 73));

	/* A remote peer losing every plane: parked alone, no rung here. */
	for (p = 0; p < 4; p++)
		down(test, t, 40, 72 + p, 2 * MS);
	c = contain(test, t, link_of(test, t, 40, 75));
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_PARK);
	KUNIT_EXPECT_EQ(test, c->num_parked, 1);
	KUNIT_EXPECT_TRUE(test, test_bit(40, c->parked));
	KUNIT_EXPECT_EQ(test, c->escalate, AMDX_RECOVER_NONE);
	KUNIT_EXPECT_EQ(test, amdx_link_park_peers(t, c, 3 * MS), 4);

	/* A local accelerator losing every plane: parked, its device rung. */
	for (p = 0; p < 4; p++)
		down(test, t, 2, 72 + p, 4 * MS);
	c = contain(test, t, link_of(test, t, 2, 72));
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_PARK);
	KUNIT_EXPECT_EQ(test, c->num_parked, 1);
	KUNIT_EXPECT_TRUE(test, test_bit(2, c->parked));
	KUNIT_EXPECT_EQ(test, c->escalate, AMDX_RECOVER_DEVICE);
	KUNIT_EXPECT_EQ(test, c->device, 2);
	/* The pairs it served: with every accelerator but the parked one. */
	KUNIT_EXPECT_EQ(test, c->pairs, 70);
	KUNIT_EXPECT_EQ(test, c->rerouted, 0);
}

static void flapping_is_held_down(struct kunit *test)
{
	struct amdx_link_topo *t = mesh(test, 2);
	struct amdx_link *l = &t->link[0];
	u32 changes = 0, i;
	u64 now = 0;
	int ret;

	/* Three flaps in 0.5 s: one change, held 4 s from the last. */
	for (i = 0; i < 3; i++) {
		ret = amdx_link_observe(t, 0, AMDX_LINK_OBS_DOWN, 0, now);
		KUNIT_ASSERT_GE(test, ret, 0);
		changes += ret;
		now += 100 * MS;
		ret = amdx_link_observe(t, 0, AMDX_LINK_OBS_UP, 16, now);
		KUNIT_ASSERT_GE(test, ret, 0);
		changes += ret;
		now += 100 * MS;
		KUNIT_EXPECT_EQ(test, l->state, AMDX_LINK_STATE_DOWN);
	}
	KUNIT_EXPECT_EQ(test, changes, 1);
	KUNIT_EXPECT_EQ(test, l->c.downs, 3);
	KUNIT_EXPECT_EQ(test, l->c.flaps, 3);
	KUNIT_EXPECT_EQ(test, l->held_until_ns, 500 * MS + 4 * S);
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, 0, 4500 * MS - 1), 0);
	KUNIT_EXPECT_EQ(test, l->state, AMDX_LINK_STATE_DOWN);
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, 0, 4500 * MS), 1);
	KUNIT_EXPECT_EQ(test, l->state, AMDX_LINK_STATE_UP);
	KUNIT_EXPECT_EQ(test, l->c.state_changes, 2);
	KUNIT_EXPECT_EQ(test, l->c.time_ns[AMDX_LINK_STATE_DOWN], 4500 * MS);
	KUNIT_EXPECT_EQ(test, l->c.time_ns[AMDX_LINK_STATE_UP], 0);

	/* A fourth flap inside the window: 8 s. */
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_DOWN, 0,
						10 * S), 1);
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_UP, 16,
						10 * S), 0);
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, 0, 18 * S - 1), 0);
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, 0, 18 * S), 1);
	KUNIT_EXPECT_EQ(test, l->c.time_ns[AMDX_LINK_STATE_UP], 5500 * MS);

	/* A flap window in service forgets the flaps: back to 1 s. */
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, 0, 78 * S), 0);
	KUNIT_EXPECT_EQ(test, l->c.flaps, 0);
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_DOWN, 0,
						80 * S), 1);
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_UP, 16,
						80 * S), 0);
	KUNIT_EXPECT_EQ(test, l->held_until_ns, 81 * S);

	/* However often it flaps, the hold stops at 64 s. */
	now = 81 * S;
	for (i = 0; i < 20; i++) {
		KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0,
							AMDX_LINK_OBS_DOWN, 0,
							now), 0);
		KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_UP,
							16, now), 0);
		now += MS;
	}
	KUNIT_EXPECT_EQ(test, l->held_until_ns, now - MS + 64 * S);
	KUNIT_EXPECT_EQ(test, l->c.state_changes, 5);
	KUNIT_EXPECT_EQ(test, l->c.downs, 25);
}

/* The route from @a to @b is @a, @via, @b. */
static void expect_detour(struct kunit *test, const struct amdx_link_topo *t,
			  struct amdx_link_path *r, u32 a, u32 via, u32 b)
{
	KUNIT_ASSERT_EQ(test, amdx_link_route(t, a, b, AMDX_LINK_NONE, r), 0);
	KUNIT_EXPECT_EQ(test, r->hops, 2);
	KUNIT_EXPECT_TRUE(test, r->degraded);
	KUNIT_ASSERT_EQ(test, r->num_links, 2);
	KUNIT_EXPECT_EQ(test, r->link[0], link_of(test, t, a, via));
	KUNIT_EXPECT_EQ(test, r->link[1], link_of(test, t, via, b));
}

/*
 * The golden hive with link 2-5 down; its detour's first link, 2-0, flaps
 * 40 times.  The hysteresis holds 2-0 down: one state change, the route
 * 2 to 5 moves once to the next detour (through 1) and stays there for
 * every flap, the containment of 2-0 stays *move* with nothing parked and
 * no rung, the other 26 links never change; only once the hold (64 s
 * after the last flap) passes does 2-0 come back, and the route with it.
 */
static void flapping_detour_in_hive_with_one_link_down(struct kunit *test)
{
	struct amdx_link_topo *t = mesh(test, 8);
	struct amdx_link_path *r = route_new(test);
	struct amdx_link_containment *c;
	u32 cut = link_of(test, t, 2, 5), flap = link_of(test, t, 2, 0);
	u32 changes = 0, i;
	u64 now = S;
	int ret;

	down(test, t, 2, 5, 10 * MS);
	expect_detour(test, t, r, 2, 0, 5);
	for (i = 0; i < 40; i++) {
		ret = amdx_link_observe(t, flap, AMDX_LINK_OBS_DOWN, 0, now);
		KUNIT_ASSERT_GE(test, ret, 0);
		changes += ret;
		now += 50 * MS;
		ret = amdx_link_observe(t, flap, AMDX_LINK_OBS_UP, 16, now);
		KUNIT_ASSERT_GE(test, ret, 0);
		changes += ret;
		KUNIT_ASSERT_EQ(test, amdx_link_tick(t, flap, now + 50 * MS),
				0);
		now += 100 * MS;
		KUNIT_EXPECT_EQ(test, t->link[flap].state,
				AMDX_LINK_STATE_DOWN);
		expect_detour(test, t, r, 2, 1, 5);
		/* 2 to 0 goes around too, through 1. */
		expect_detour(test, t, r, 2, 1, 0);
	}
	KUNIT_EXPECT_EQ(test, changes, 1);
	KUNIT_EXPECT_EQ(test, t->link[flap].c.state_changes, 1);
	KUNIT_EXPECT_EQ(test, t->link[flap].c.downs, 40);

	c = contain(test, t, flap);
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, c->pairs, 1);
	KUNIT_EXPECT_EQ(test, c->rerouted, 1);
	KUNIT_EXPECT_EQ(test, c->num_parked, 0);
	KUNIT_EXPECT_EQ(test, c->escalate, AMDX_RECOVER_NONE);
	for (i = 0; i < t->num_links; i++) {
		if (i == cut || i == flap)
			continue;
		KUNIT_EXPECT_EQ(test, t->link[i].state, AMDX_LINK_STATE_UP);
		KUNIT_EXPECT_EQ(test, t->link[i].c.state_changes, 0);
	}

	/* Held 64 s after its last training, then back, and the route. */
	now -= 100 * MS;
	KUNIT_EXPECT_EQ(test, t->link[flap].held_until_ns, now + 64 * S);
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, flap, now + 64 * S - 1), 0);
	expect_detour(test, t, r, 2, 1, 5);
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, flap, now + 64 * S), 1);
	KUNIT_EXPECT_EQ(test, t->link[flap].state, AMDX_LINK_STATE_UP);
	expect_detour(test, t, r, 2, 0, 5);
	KUNIT_EXPECT_EQ(test, t->link[cut].state, AMDX_LINK_STATE_DOWN);
	KUNIT_EXPECT_EQ(test, t->link[cut].c.state_changes, 1);
}

static void replay_storm_ends_after_a_quiet_window(struct kunit *test)
{
	struct amdx_link_topo *t = mesh(test, 2);
	struct amdx_link *l = &t->link[0];

	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_REPLAY, 63,
						100 * MS), 0);
	KUNIT_EXPECT_EQ(test, l->state, AMDX_LINK_STATE_UP);
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_REPLAY, 1,
						500 * MS), 1);
	KUNIT_EXPECT_EQ(test, l->state, AMDX_LINK_STATE_REPLAY);
	/* Window [1 s, 2 s): a few, not enough to end it before 2 s. */
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_REPLAY, 10,
						1500 * MS), 0);
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, 0, 2 * S - 1), 0);
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, 0, 2 * S), 1);
	KUNIT_EXPECT_EQ(test, l->state, AMDX_LINK_STATE_UP);
	KUNIT_EXPECT_EQ(test, l->c.replays, 74);

	/* A storm kept up window after window stays one storm. */
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_REPLAY, 64,
						2100 * MS), 1);
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_REPLAY, 64,
						3100 * MS), 0);
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_REPLAY, 64,
						4100 * MS), 0);
	KUNIT_EXPECT_EQ(test, l->state, AMDX_LINK_STATE_REPLAY);
	/* Silence for more than a window ends it at the next tick. */
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, 0, 9 * S), 1);
	KUNIT_EXPECT_EQ(test, l->state, AMDX_LINK_STATE_UP);
	KUNIT_EXPECT_EQ(test, l->c.state_changes, 4);

	/* Corrected errors count, and change nothing. */
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_CE, 7,
						9 * S), 0);
	KUNIT_EXPECT_EQ(test, l->c.ce, 7);
	/* An uncorrected error holds the link down like a flap. */
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_UE, 0,
						10 * S), 1);
	KUNIT_EXPECT_EQ(test, l->state, AMDX_LINK_STATE_DOWN);
	KUNIT_EXPECT_EQ(test, l->c.ue, 1);
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, 0, 11 * S - 1), 0);
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, 0, 11 * S), 1);
	/* A width drop and its recovery. */
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_WIDTH, 4,
						12 * S), 1);
	KUNIT_EXPECT_EQ(test, l->state, AMDX_LINK_STATE_DEGRADED);
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_WIDTH, 16,
						13 * S), 1);
	KUNIT_EXPECT_EQ(test, l->c.width_changes, 2);
	KUNIT_EXPECT_EQ(test, l->c.time_ns[AMDX_LINK_STATE_DEGRADED], S);
}

static void invalid_input(struct kunit *test)
{
	struct amdx_link_topo *t = mesh(test, 4);
	struct amdx_link_topo *e = topo_new(test);
	struct amdx_link_path *r = route_new(test);
	struct amdx_link_containment *c = kunit_kzalloc(test, sizeof(*c),
							GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 6, AMDX_LINK_OBS_DOWN, 0,
						MS), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_COUNT, 0,
						MS), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_WIDTH, 0,
						MS), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, 0, AMDX_LINK_OBS_UP, 17,
						MS), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, 0, 2 * MS), 0);
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, 0, MS), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_set_parked(t, 0, true, MS), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_tick(t, 6, 2 * MS), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_route(t, 0, 4, AMDX_LINK_NONE, r),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_route(t, 0, 1, 6, r), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_contain(t, 6, c), -EINVAL);

	KUNIT_EXPECT_EQ(test, amdx_link_build_mesh(t, 4, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_build_mesh(e, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_build_mesh(e, 17, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_build_pod(e, 18, 8, 0, 1, 0, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, amdx_link_build_pod(e, 18, 4, 18, 4, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_build_pod(e, 4, 4, 0, 9, 0, 0),
			-EINVAL);
	/* A virtual pod larger than the pod. */
	KUNIT_EXPECT_EQ(test, amdx_link_build_pod(e, 4, 4, 0, 4, 17, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, e->num_eps, 0);

	/* Endpoints: kind, device, duplicates. */
	KUNIT_EXPECT_EQ(test, amdx_link_add_ep(t, AMDX_LINK_EP_COUNT, 0, 9, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_add_ep(t, AMDX_LINK_EP_LOCAL,
					       AMDX_MAX_DEVICES, 9, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_add_ep(t, AMDX_LINK_EP_LOCAL, 2, 9, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_add_ep(t, AMDX_LINK_EP_REMOTE, 0, 9, 0),
			4);
	KUNIT_EXPECT_EQ(test, amdx_link_add_ep(t, AMDX_LINK_EP_REMOTE, 0, 9, 0),
			-EINVAL);
	/* Links: kind, endpoints, width, ports in use. */
	KUNIT_EXPECT_EQ(test, amdx_link_add(t, AMDX_LINK_KIND_COUNT, 0, 9, 4, 0,
					    4, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_add(t, AMDX_LINK_KIND_SCALEUP, 4, 1, 4,
					    2, 4, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_add(t, AMDX_LINK_KIND_SCALEUP, 0, 9, 5,
					    0, 4, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_add(t, AMDX_LINK_KIND_SCALEUP, 0, 9, 4,
					    0, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_add(t, AMDX_LINK_KIND_SCALEUP, 0, 9, 4,
					    0, AMDX_LINK_MAX_WIDTH + 1, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_add(t, AMDX_LINK_KIND_SCALEUP, 0, 2, 4,
					    0, 4, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_add(t, AMDX_LINK_KIND_SCALEUP, 0, 9, 4,
					    0, 4, 0), 6);
	KUNIT_EXPECT_EQ(test, amdx_link_add(t, AMDX_LINK_KIND_SCALEUP, 1, 9, 4,
					    0, 4, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_topo_check(t), 0);
	KUNIT_EXPECT_EQ(test, t->num_links, 7);

	/* A topology edited behind the model's back. */
	t->link[6].width = 5;
	KUNIT_EXPECT_EQ(test, amdx_link_topo_check(t), -EINVAL);
	t->link[6].width = 4;
	t->link[6].state = AMDX_LINK_STATE_COUNT;
	KUNIT_EXPECT_EQ(test, amdx_link_topo_check(t), -EINVAL);
	t->link[6].state = AMDX_LINK_STATE_UP;
	t->policy.replay_storm = 0;
	KUNIT_EXPECT_EQ(test, amdx_link_topo_check(t), -EINVAL);
	amdx_link_policy_default(&t->policy);
	t->policy.max_hold_shift = 17;
	KUNIT_EXPECT_EQ(test, amdx_link_topo_check(t), -EINVAL);
	amdx_link_policy_default(&t->policy);
	t->num_eps = AMDX_LINK_MAX_EPS + 1;
	KUNIT_EXPECT_EQ(test, amdx_link_topo_check(t), -EINVAL);
	t->num_eps = 5;
	KUNIT_EXPECT_EQ(test, amdx_link_topo_check(t), 0);
	t->vpod_size = AMDX_LINK_MAX_EPS + 1;
	KUNIT_EXPECT_EQ(test, amdx_link_topo_check(t), -EINVAL);
	t->vpod_size = 0;

	KUNIT_EXPECT_STREQ(test, amdx_link_state_name(AMDX_LINK_STATE_REPLAY),
			   "replay");
	KUNIT_EXPECT_STREQ(test, amdx_link_state_name(AMDX_LINK_STATE_COUNT),
			   "?");
	KUNIT_EXPECT_STREQ(test, amdx_link_kind_name(AMDX_LINK_KIND_XGMI),
			   "xgmi");
	KUNIT_EXPECT_STREQ(test, amdx_link_kind_name(AMDX_LINK_KIND_COUNT),
			   "?");
	KUNIT_EXPECT_STREQ(test, amdx_link_contain_name(AMDX_LINK_CONTAIN_PARK),
			   "park");
	KUNIT_EXPECT_STREQ(test,
			   amdx_link_contain_name(AMDX_LINK_CONTAIN_COUNT),
			   "?");
}

static void full_topologies(struct kunit *test)
{
	struct amdx_link_topo *t = topo_new(test);
	u32 i;

	/* A pod of 128 accelerators on 3 planes fills the endpoints. */
	KUNIT_ASSERT_EQ(test, amdx_link_build_pod(t, 25, 5, 3, 3, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, t->num_eps, 128);
	KUNIT_EXPECT_EQ(test, t->num_links, 375);
	KUNIT_EXPECT_EQ(test, amdx_link_add_ep(t, AMDX_LINK_EP_SWITCH, 0, 99,
					       0), -ENOSPC);
	for (i = 375; i < AMDX_LINK_MAX_LINKS; i++)
		KUNIT_ASSERT_EQ(test, amdx_link_add(t, AMDX_LINK_KIND_SCALEUP,
						    0, 3 + i - 375, 1,
						    3 + i - 375, 1, 0),
				(int)i);
	KUNIT_EXPECT_EQ(test, amdx_link_add(t, AMDX_LINK_KIND_SCALEUP, 0, 250,
					    1, 250, 1, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, amdx_link_topo_check(t), 0);
}

/* Breadth-first hop counts over the up links of a mesh, the test's own. */
static void bfs(const bool up[8][8], u32 n, u32 src, u32 *hops)
{
	u32 queue[8], head = 0, tail = 0, u, v;

	for (v = 0; v < n; v++)
		hops[v] = U32_MAX;
	hops[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		u = queue[head++];
		for (v = 0; v < n; v++)
			if (up[u][v] && hops[v] == U32_MAX) {
				hops[v] = hops[u] + 1;
				queue[tail++] = v;
			}
	}
}

static void routes_match_bfs(struct kunit *test)
{
	struct amdx_link_topo *t = topo_new(test);
	struct amdx_link_path *r = route_new(test);
	u32 seed = 0x2545f491, pattern, i, j, k, checked = 0, cut = 0;
	u32 hops[8];
	bool up[8][8];
	int ret;

	for (pattern = 0; pattern < 64; pattern++) {
		memset(t, 0, sizeof(*t));
		amdx_link_policy_default(&t->policy);
		KUNIT_ASSERT_EQ(test, amdx_link_build_mesh(t, 8, 0), 0);
		for (i = 0; i < 8; i++)
			for (j = 0; j < 8; j++)
				up[i][j] = i != j;
		/* Take down between 0 and 24 of the 28 links. */
		for (k = 0; k < pattern % 25; k++) {
			seed = seed * 1103515245 + 12345;
			i = (seed >> 8) % t->num_links;
			if (t->link[i].state == AMDX_LINK_STATE_DOWN)
				continue;
			ret = amdx_link_observe(t, i, AMDX_LINK_OBS_DOWN, 0,
						MS);
			KUNIT_ASSERT_EQ(test, ret, 1);
			up[t->link[i].ep[0]][t->link[i].ep[1]] = false;
			up[t->link[i].ep[1]][t->link[i].ep[0]] = false;
		}
		for (i = 0; i < 8; i++) {
			bfs(up, 8, i, hops);
			for (j = 0; j < 8; j++) {
				ret = amdx_link_route(t, i, j, AMDX_LINK_NONE,
						      r);
				checked++;
				if (hops[j] == U32_MAX) {
					KUNIT_EXPECT_EQ(test, ret, -ENOENT);
					cut++;
					continue;
				}
				KUNIT_ASSERT_EQ(test, ret, 0);
				KUNIT_EXPECT_EQ(test, r->hops, hops[j]);
				KUNIT_EXPECT_EQ(test, r->num_links, hops[j]);
				KUNIT_EXPECT_EQ(test, r->degraded, hops[j] > 1);
				expect_walk(test, t, r, i, j);
			}
		}
	}
	kunit_info(test, "%u routes, %u with none left", checked, cut);
	KUNIT_EXPECT_EQ(test, checked, 64 * 64);
	KUNIT_EXPECT_GT(test, cut, 0);
}

/*
 * A device leaving a hive of 8 takes its 7 links; the other 21 keep their
 * ends (renumbered past it), state and counters, and the topology stays
 * consistent.
 */
static void removed_device_takes_its_links(struct kunit *test)
{
	struct amdx_link_topo *t = mesh(test, 8);
	u32 l46 = link_of(test, t, 4, 6), i;

	KUNIT_EXPECT_EQ(test, amdx_link_observe(t, l46, AMDX_LINK_OBS_WIDTH, 8,
						MS), 1);
	KUNIT_EXPECT_EQ(test, amdx_link_remove_ep(t, 3), 7);
	KUNIT_EXPECT_EQ(test, t->num_eps, 7U);
	KUNIT_EXPECT_EQ(test, t->num_links, 21U);
	KUNIT_EXPECT_EQ(test, amdx_link_topo_check(t), 0);
	/* Device 4 is endpoint 3 now, device 6 endpoint 5. */
	KUNIT_EXPECT_EQ(test, t->ep[3].device, 4U);
	l46 = link_of(test, t, 3, 5);
	KUNIT_EXPECT_EQ(test, t->link[l46].state, AMDX_LINK_STATE_DEGRADED);
	KUNIT_EXPECT_EQ(test, t->link[l46].c.width_changes, 1ULL);
	for (i = 0; i < t->num_links; i++)
		if (i != l46)
			KUNIT_EXPECT_EQ(test, t->link[i].state,
					AMDX_LINK_STATE_UP);
	KUNIT_EXPECT_EQ(test, amdx_link_remove_ep(t, 7), -EINVAL);
	KUNIT_EXPECT_EQ(test, amdx_link_remove_ep(t, 6), 6);
	KUNIT_EXPECT_EQ(test, t->num_links, 15U);
	KUNIT_EXPECT_EQ(test, amdx_link_topo_check(t), 0);
}

/*
 * Where a range crossing a link that moves goes (amdx_link_move_dest()):
 * device 1 accesses data in device 0's VRAM across link 0-1, which takes
 * no new data; device 1 has 2 memory partitions.
 */
static void move_dest_follows_the_accessing_range(struct kunit *test)
{
	const u64 d0 = BIT_ULL(0), d1 = BIT_ULL(1), d2 = BIT_ULL(2);
	const u64 avoid = d0;
	const u32 home = AMDX_HMM_LOC_SYSTEM;

	/* It prefers its partition 1 and only it accesses: there. */
	KUNIT_EXPECT_EQ(test, amdx_link_move_dest(1, 1, d1, 2, avoid), 1U);
	KUNIT_EXPECT_EQ(test, amdx_link_move_dest(1, 0, d1, 2, avoid), 0U);
	/* A device over a good link of device 1 may access it there too. */
	KUNIT_EXPECT_EQ(test, amdx_link_move_dest(1, 0, d1 | d2, 2, avoid),
			0U);
	/* Prefers home: home. */
	KUNIT_EXPECT_EQ(test, amdx_link_move_dest(1, home, d1, 2, avoid),
			home);
	/* Device 0 would access it across the same link: home. */
	KUNIT_EXPECT_EQ(test, amdx_link_move_dest(1, 0, d1 | d0, 2, avoid),
			home);
	/* Or device 2, when its link to device 1 takes no new data either. */
	KUNIT_EXPECT_EQ(test, amdx_link_move_dest(1, 0, d1 | d2, 2,
						  avoid | d2), home);
	/* Device 1's own range does not let device 1 access it: home. */
	KUNIT_EXPECT_EQ(test, amdx_link_move_dest(1, 0, d2, 2, avoid), home);
	/* A partition device 1 no longer has (a mode change): home. */
	KUNIT_EXPECT_EQ(test, amdx_link_move_dest(1, 2, d1, 2, avoid), home);
	KUNIT_EXPECT_EQ(test, amdx_link_move_dest(1, 0, d1, 0, avoid), home);
	/* Device ids are below AMDX_MAX_DEVICES. */
	KUNIT_EXPECT_EQ(test, amdx_link_move_dest(AMDX_MAX_DEVICES, 0, ~0ULL,
						  2, 0), home);
	KUNIT_EXPECT_EQ(test, amdx_link_move_dest(63, 0, BIT_ULL(63), 1, 0),
			0U);
}

/*
 * Move or revoke (amdx_link_range_fate()): device 1 accesses a range in
 * device 0's VRAM across link 0-1, which moves.  A pinned range
 * (%AMDX_HMM_F_PIN: its pages never leave that VRAM for eviction) stays
 * where it is and device 1 loses its access; any other range moves; a
 * range not naming device 1 crosses nothing and is left alone.
 */
static void range_fate_pinned_revokes(struct kunit *test)
{
	const u64 d0 = BIT_ULL(0), d1 = BIT_ULL(1), d2 = BIT_ULL(2);

	KUNIT_EXPECT_EQ(test, amdx_link_range_fate(1, 0, d0 | d1),
			(u32)AMDX_LINK_RANGE_MOVE);
	KUNIT_EXPECT_EQ(test, amdx_link_range_fate(1, AMDX_HMM_F_PIN, d0 | d1),
			(u32)AMDX_LINK_RANGE_REVOKE);
	KUNIT_EXPECT_EQ(test, amdx_link_range_fate(1, AMDX_HMM_F_PIN, d1),
			(u32)AMDX_LINK_RANGE_REVOKE);
	KUNIT_EXPECT_EQ(test, amdx_link_range_fate(1, AMDX_HMM_F_PIN,
						   d0 | d1 | d2),
			(u32)AMDX_LINK_RANGE_REVOKE);
	/* Not naming the other end: nothing crosses the link. */
	KUNIT_EXPECT_EQ(test, amdx_link_range_fate(1, AMDX_HMM_F_PIN, d0 | d2),
			(u32)AMDX_LINK_RANGE_KEEP);
	KUNIT_EXPECT_EQ(test, amdx_link_range_fate(1, 0, d0 | d2),
			(u32)AMDX_LINK_RANGE_KEEP);
	/* Flags the rule does not know do not change it. */
	KUNIT_EXPECT_EQ(test, amdx_link_range_fate(1, (u32)~AMDX_HMM_F_PIN, d1),
			(u32)AMDX_LINK_RANGE_MOVE);
	/* Device ids are below AMDX_MAX_DEVICES. */
	KUNIT_EXPECT_EQ(test, amdx_link_range_fate(AMDX_MAX_DEVICES,
						   AMDX_HMM_F_PIN, ~0ULL),
			(u32)AMDX_LINK_RANGE_KEEP);
	KUNIT_EXPECT_EQ(test, amdx_link_range_fate(63, AMDX_HMM_F_PIN,
						   BIT_ULL(63)),
			(u32)AMDX_LINK_RANGE_REVOKE);
}

static u32 pair(const struct amdx_link_topo *t, u32 a, u32 b, u32 *via)
{
	u32 back, lvl = amdx_link_pair_level(t, a, b, via);

	/* One answer whichever end asks. */
	if (amdx_link_pair_level(t, b, a, &back) != lvl)
		return U32_MAX;
	return lvl;
}

/*
 * The way HMM data goes between two devices of this host
 * (amdx_link_pair_level()): in a mesh their own link and nothing else
 * (XGMI peer access takes no second hop); in a pod any plane whose two
 * links serve both ends, so one lost plane moves nothing and a pair is
 * contained only when no plane serves both.
 */
static void pair_level_mesh_and_pod(struct kunit *test)
{
	struct amdx_link_topo *t = mesh(test, 8);
	u32 via, p;

	KUNIT_EXPECT_EQ(test, pair(t, 0, 1, &via), AMDX_LINK_CONTAIN_NONE);
	KUNIT_EXPECT_EQ(test, via, link_of(test, t, 0, 1));
	down(test, t, 0, 1, MS);
	KUNIT_EXPECT_EQ(test, pair(t, 0, 1, &via), AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, via, link_of(test, t, 0, 1));
	/* A two-hop route exists; data still does not take it. */
	KUNIT_EXPECT_EQ(test, pair(t, 1, 0, &via), AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, pair(t, 0, 2, &via), AMDX_LINK_CONTAIN_NONE);
	KUNIT_ASSERT_EQ(test, amdx_link_observe(t, link_of(test, t, 2, 3),
						AMDX_LINK_OBS_WIDTH, 8, MS), 1);
	KUNIT_EXPECT_EQ(test, pair(t, 2, 3, &via), AMDX_LINK_CONTAIN_AVOID);
	KUNIT_EXPECT_EQ(test, via, link_of(test, t, 2, 3));

	/* Pod: accelerators 0..3 local, switches 72..75. */
	t = pod72(test);
	KUNIT_EXPECT_EQ(test, pair(t, 0, 1, &via), AMDX_LINK_CONTAIN_NONE);
	KUNIT_EXPECT_EQ(test, via, link_of(test, t, 0, 72));
	/* Plane 0 lost at 0: plane 1 serves the pair. */
	down(test, t, 0, 72, MS);
	KUNIT_EXPECT_EQ(test, pair(t, 0, 1, &via), AMDX_LINK_CONTAIN_NONE);
	KUNIT_EXPECT_EQ(test, via, link_of(test, t, 0, 73));
	/* Planes 1..3 lost at 1: no plane serves both ends. */
	for (p = 1; p < 4; p++)
		down(test, t, 1, 72 + p, 2 * MS);
	KUNIT_EXPECT_EQ(test, pair(t, 0, 1, &via), AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, via, link_of(test, t, 0, 72));
	/* Each still has a plane in common with the others. */
	KUNIT_EXPECT_EQ(test, pair(t, 0, 2, &via), AMDX_LINK_CONTAIN_NONE);
	KUNIT_EXPECT_EQ(test, pair(t, 1, 2, &via), AMDX_LINK_CONTAIN_NONE);
	KUNIT_EXPECT_EQ(test, via, link_of(test, t, 1, 72));
	/* A remote accelerator the same way (never a device of this host). */
	KUNIT_EXPECT_EQ(test, pair(t, 1, 40, &via), AMDX_LINK_CONTAIN_NONE);
	/* The best plane is only degraded: no new data, nothing moves. */
	KUNIT_ASSERT_EQ(test, amdx_link_observe(t, link_of(test, t, 2, 72),
						AMDX_LINK_OBS_WIDTH, 2, 3 * MS),
			1);
	KUNIT_EXPECT_EQ(test, pair(t, 1, 2, &via), AMDX_LINK_CONTAIN_AVOID);
	KUNIT_EXPECT_EQ(test, via, link_of(test, t, 2, 72));
	KUNIT_EXPECT_EQ(test, pair(t, 2, 3, &via), AMDX_LINK_CONTAIN_NONE);

	/* Not a pair: no way. */
	KUNIT_EXPECT_EQ(test, pair(t, 2, 2, &via), AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, via, AMDX_LINK_NONE);
	KUNIT_EXPECT_EQ(test, pair(t, 2, t->num_eps, &via),
			AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, via, AMDX_LINK_NONE);
	/* A switch to an accelerator is a link, not a pair of devices. */
	KUNIT_EXPECT_EQ(test, pair(t, 72, 73, &via), AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, via, AMDX_LINK_NONE);
}

/* pod72() divided into virtual pods of @size accelerators. */
static struct amdx_link_topo *pod72_vpods(struct kunit *test, u32 size)
{
	struct amdx_link_topo *t = topo_new(test);

	KUNIT_ASSERT_EQ(test, amdx_link_build_pod(t, 18, 4, 0, 4, size, 0), 0);
	KUNIT_ASSERT_EQ(test, amdx_link_topo_check(t), 0);
	return t;
}

/* Accelerators @first..@last lose planes @p0..@p1, at @now. */
static void planes_down(struct kunit *test, struct amdx_link_topo *t,
			u32 first, u32 last, u32 p0, u32 p1, u64 now)
{
	u32 a, p;

	for (a = first; a <= last; a++)
		for (p = p0; p <= p1; p++)
			down(test, t, a, 72 + p, now);
}

static void expect_parked(struct kunit *test,
			  const struct amdx_link_containment *c, u32 first,
			  u32 last)
{
	u32 a;

	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_PARK);
	KUNIT_EXPECT_EQ(test, c->num_parked, last - first + 1);
	for (a = first; a <= last; a++)
		KUNIT_EXPECT_TRUE_MSG(test, test_bit(a, c->parked), "%u", a);
}

static void virtual_pods(struct kunit *test)
{
	/* Virtual pods of 8: two domains each; this host's is vpod 0. */
	struct amdx_link_topo *t = pod72_vpods(test, 8);
	struct amdx_link_path *r = route_new(test);
	struct amdx_link_containment *c;
	u32 via, a;

	KUNIT_EXPECT_EQ(test, amdx_link_vpod(t, 0), 0);
	KUNIT_EXPECT_EQ(test, amdx_link_vpod(t, 7), 0);
	KUNIT_EXPECT_EQ(test, amdx_link_vpod(t, 8), 1);
	KUNIT_EXPECT_EQ(test, amdx_link_vpod(t, 71), 8);
	KUNIT_EXPECT_EQ(test, amdx_link_vpod(t, 72), AMDX_LINK_NONE);
	KUNIT_EXPECT_EQ(test, amdx_link_vpod(t, t->num_eps), AMDX_LINK_NONE);

	/* Routes stay inside a virtual pod; a switch is in every one. */
	KUNIT_ASSERT_EQ(test, amdx_link_route(t, 0, 7, AMDX_LINK_NONE, r), 0);
	KUNIT_EXPECT_EQ(test, r->hops, 1);
	expect_walk(test, t, r, 0, 7);
	KUNIT_EXPECT_EQ(test, amdx_link_route(t, 0, 8, AMDX_LINK_NONE, r),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, amdx_link_route(t, 71, 7, AMDX_LINK_NONE, r),
			-ENOENT);
	KUNIT_ASSERT_EQ(test, amdx_link_route(t, 40, 47, AMDX_LINK_NONE, r),
			0);
	expect_walk(test, t, r, 40, 47);
	KUNIT_ASSERT_EQ(test, amdx_link_route(t, 8, 74, AMDX_LINK_NONE, r), 0);
	KUNIT_EXPECT_EQ(test, r->num_links, 1);

	/* Data has no way between two virtual pods, and needs none inside. */
	KUNIT_EXPECT_EQ(test, pair(t, 0, 8, &via), AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, via, AMDX_LINK_NONE);
	KUNIT_EXPECT_EQ(test, pair(t, 0, 7, &via), AMDX_LINK_CONTAIN_NONE);
	KUNIT_EXPECT_EQ(test, via, link_of(test, t, 0, 72));

	/* A local plane link serves the pairs of its own virtual pod only. */
	down(test, t, 0, 72, MS);
	c = contain(test, t, link_of(test, t, 0, 72));
	KUNIT_EXPECT_EQ(test, c->action, AMDX_LINK_CONTAIN_MOVE);
	KUNIT_EXPECT_EQ(test, c->pairs, 7);
	KUNIT_EXPECT_EQ(test, c->rerouted, 7);
	KUNIT_EXPECT_EQ(test, c->num_parked, 0);

	/*
	 * A remote accelerator of virtual pod 5 losing every plane is parked
	 * alone: the other virtual pods, which no device here reaches, are
	 * not parked for it.
	 */
	planes_down(test, t, 40, 40, 0, 3, 2 * MS);
	c = contain(test, t, link_of(test, t, 40, 75));
	expect_parked(test, c, 40, 40);
	KUNIT_EXPECT_EQ(test, c->escalate, AMDX_RECOVER_NONE);
	KUNIT_EXPECT_EQ(test, amdx_link_park_peers(t, c, 3 * MS), 4);

	/*
	 * Virtual pod 5 split in two: 41..43 keep planes 0 and 1 only,
	 * 44..47 planes 2 and 3 only.  The larger part stays.
	 */
	planes_down(test, t, 41, 43, 2, 3, 4 * MS);
	planes_down(test, t, 44, 47, 0, 1, 4 * MS);
	c = contain(test, t, link_of(test, t, 47, 73));
	expect_parked(test, c, 41, 43);
	KUNIT_EXPECT_EQ(test, c->escalate, AMDX_RECOVER_NONE);

	/*
	 * This host's virtual pod split: 0..2 keep plane 1 (0 lost plane 0
	 * above) only, 3..7 planes 0 and 2.  Of the parts holding a local
	 * device the larger stays, though not the lowest device's: 0..2 are
	 * parked, the hive rung on device 0.
	 */
	t = pod72_vpods(test, 8);
	planes_down(test, t, 0, 2, 0, 0, MS);
	planes_down(test, t, 0, 2, 2, 3, MS);
	planes_down(test, t, 3, 7, 1, 1, MS);
	planes_down(test, t, 3, 7, 3, 3, MS);
	c = contain(test, t, link_of(test, t, 7, 75));
	expect_parked(test, c, 0, 2);
	KUNIT_EXPECT_EQ(test, c->escalate, AMDX_RECOVER_HIVE);
	KUNIT_EXPECT_EQ(test, c->device, 0);

	/*
	 * A part with a local device stays over a larger one without: in
	 * virtual pods of 12, this host's 0..3 on planes 0 and 1, its
	 * remote 4..11 on planes 2 and 3.
	 */
	t = pod72_vpods(test, 12);
	planes_down(test, t, 0, 3, 2, 3, MS);
	planes_down(test, t, 4, 11, 0, 1, MS);
	c = contain(test, t, link_of(test, t, 11, 73));
	expect_parked(test, c, 4, 11);
	KUNIT_EXPECT_EQ(test, c->escalate, AMDX_RECOVER_NONE);
	/* Virtual pods of 12 end at 71: the sixth holds 60..71. */
	for (a = 60; a < 72; a++)
		KUNIT_EXPECT_EQ(test, amdx_link_vpod(t, a), 5);

	/*
	 * Virtual pods of 2: one member losing every plane leaves two parts
	 * of one accelerator each; the one with no link left is parked, the
	 * higher (43, this host's 3) as the lower (44).
	 */
	t = pod72_vpods(test, 2);
	planes_down(test, t, 43, 43, 0, 3, MS);
	c = contain(test, t, link_of(test, t, 43, 72));
	expect_parked(test, c, 43, 43);
	KUNIT_EXPECT_EQ(test, amdx_link_park_peers(t, c, 2 * MS), 4);
	planes_down(test, t, 44, 44, 0, 3, 3 * MS);
	c = contain(test, t, link_of(test, t, 44, 72));
	expect_parked(test, c, 44, 44);
	KUNIT_EXPECT_EQ(test, amdx_link_park_peers(t, c, 4 * MS), 4);
	planes_down(test, t, 3, 3, 0, 3, 5 * MS);
	c = contain(test, t, link_of(test, t, 3, 75));
	expect_parked(test, c, 3, 3);
	KUNIT_EXPECT_EQ(test, c->escalate, AMDX_RECOVER_DEVICE);
	KUNIT_EXPECT_EQ(test, c->device, 3);
}

static struct kunit_case amdx_link_model_cases[] = {
	KUNIT_CASE(mesh_of_8_is_28_links),
	KUNIT_CASE(pod_of_72_in_18_domains),
	KUNIT_CASE(hive_with_one_link_down),
	KUNIT_CASE(containment_by_state),
	KUNIT_CASE(isolated_device_is_parked_then_device_rung),
	KUNIT_CASE(split_hive_is_hive_rung),
	KUNIT_CASE(pod_link_faults),
	KUNIT_CASE(flapping_is_held_down),
	KUNIT_CASE(flapping_detour_in_hive_with_one_link_down),
	KUNIT_CASE(replay_storm_ends_after_a_quiet_window),
	KUNIT_CASE(invalid_input),
	KUNIT_CASE(full_topologies),
	KUNIT_CASE(routes_match_bfs),
	KUNIT_CASE(removed_device_takes_its_links),
	KUNIT_CASE(move_dest_follows_the_accessing_range),
	KUNIT_CASE(range_fate_pinned_revokes),
	KUNIT_CASE(pair_level_mesh_and_pod),
	KUNIT_CASE(virtual_pods),
	{}
};

static struct kunit_suite amdx_link_model_suite = {
	.name = "amdx_link_model",
	.test_cases = amdx_link_model_cases,
};

kunit_test_suite(amdx_link_model_suite);
