// SPDX-License-Identifier: GPL-2.0
/*
 * The fabric as a fault domain (Documentation/fabric.rst), end to end on
 * an MI300X hive of 8 simulated devices (a full mesh, 28 links): a replay
 * storm on one link changes that link alone, asks for its containment
 * with the route around it, resets nothing, and clears when the storm
 * ends; links going down one by one are routed around until a device has
 * none left, and then that device alone is parked and given its recovery
 * rung; a flapping link is held down (one state change for 50 flaps);
 * every change arrives as an AMDX_EVENT_LINK record at both ends.
 */
#include <poll.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

#define LNK_DEVS	8
#define LNK_LINKS	(LNK_DEVS * (LNK_DEVS - 1) / 2)
#define LNK_MAX_EVENTS	256
#define LNK_HIVE	"model=mi300x vram=64 hive=11c0"
#define LNK_FAULT	AMDX_SIM_DEBUGFS "/link_fault"
/* What the harness waits at most for an event that must come. */
#define LNK_WAIT_MS	(120 * 1000)
/* Pages of each buffer the HMM case places. */
#define LNK_PAGES	16
#define NO_HMM		"no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)"

struct lnk_dev {
	unsigned int sim;
	__u32 id;
	int fd;
	int ev;
	struct amdx_event evs[LNK_MAX_EVENTS];
	unsigned int nevs;
};

/*
 * Simulated device @sim with new_device parameters @params into @d:
 * found, opened, subscribed to every event.
 */
static void dev_new(struct __test_metadata *_metadata, int ctl,
		    struct lnk_dev *d, unsigned int sim, const char *params)
{
	struct amdx_event_subscribe sub = {
		.mask = AMDX_EVENT_MASK_ALL,
		.flags = AMDX_EVENT_F_NONBLOCK,
	};
	char bdf[AMDX_BDF_LEN];

	d->sim = sim;
	d->fd = -1;
	d->ev = -1;
	d->nevs = 0;
	amdx_sim_del(sim);
	ASSERT_EQ(0, amdx_sim_new(sim, params));
	amdx_sim_bdf(sim, bdf, sizeof(bdf));
	ASSERT_EQ(0, amdx_find_device(ctl, bdf, &d->id));
	d->fd = amdx_device_open(ctl, d->id);
	ASSERT_GE(d->fd, 0);
	ASSERT_EQ(0, amdx_ioctl(d->fd, AMDX_IOC_EVENT_SUBSCRIBE, &sub));
	d->ev = sub.fd;
}

/* Closes and removes the first @n devices dev_new() made into @d. */
static void devs_del(struct lnk_dev *d, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (d[i].ev >= 0)
			close(d[i].ev);
		if (d[i].fd >= 0)
			close(d[i].fd);
		amdx_sim_del(d[i].sim);
	}
}

/* Reads every waiting record of the @n devices @d. */
static void devs_drain(struct __test_metadata *_metadata, struct lnk_dev *d,
		       unsigned int n)
{
	unsigned int i;
	ssize_t got;

	for (i = 0; i < n; i++) {
		for (;;) {
			got = read(d[i].ev, &d[i].evs[d[i].nevs],
				   (LNK_MAX_EVENTS - d[i].nevs) *
				   sizeof(d[i].evs[0]));
			if (got < 0) {
				ASSERT_EQ(EAGAIN, errno);
				break;
			}
			d[i].nevs += got / sizeof(d[i].evs[0]);
			ASSERT_LT(d[i].nevs, LNK_MAX_EVENTS);
		}
	}
}

/* Records of @kind device @d has read. */
static unsigned int dev_count(const struct lnk_dev *d, __u16 kind)
{
	unsigned int k, n = 0;

	for (k = 0; k < d->nevs; k++)
		n += d->evs[k].kind == kind;
	return n;
}

FIXTURE(lnk) {
	int ctl;
	unsigned int n;
	struct lnk_dev d[LNK_DEVS];
	char links_buf[sizeof(struct amdx_query_links) +
		       LNK_LINKS * sizeof(struct amdx_link_info)];
};

FIXTURE_SETUP(lnk)
{
	self->n = 0;
	self->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->ctl, 0);
	if (amdx_provider_is_amdgpu())
		SKIP(return, "the amdgpu provider does not claim %s",
		     amdx_amdgpu_lacks(LNK_HIVE));
	for (self->n = 0; self->n < LNK_DEVS; self->n++)
		dev_new(_metadata, self->ctl, &self->d[self->n],
			AMDX_SIM_ID_MOD(link, self->n), LNK_HIVE);
}

FIXTURE_TEARDOWN(lnk)
{
	devs_del(self->d, self->n < LNK_DEVS ? self->n : LNK_DEVS);
	close(self->ctl);
}

/* Writes "@a @b @fault" (simulated device indices) to link_fault. */
static int fault(FIXTURE_DATA(lnk) *self, unsigned int a, unsigned int b,
		 const char *what)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%u %u %s", self->d[a].sim, self->d[b].sim,
		 what);
	return amdx_sysfs_write(LNK_FAULT, buf);
}

/* Reads every waiting record of every device. */
static void drain(struct __test_metadata *_metadata, FIXTURE_DATA(lnk) *self)
{
	devs_drain(_metadata, self->d, LNK_DEVS);
}

static const struct amdx_query_links *links(struct __test_metadata *_metadata,
					    FIXTURE_DATA(lnk) *self)
{
	struct amdx_query_links *q = (void *)self->links_buf;
	__u32 size = sizeof(self->links_buf);
	unsigned int i, e;

	memset(self->links_buf, 0xa5, sizeof(self->links_buf));
	EXPECT_EQ(0, amdx_query(self->d[0].fd, AMDX_QUERY_LINKS, 0, q, &size));
	EXPECT_EQ(sizeof(self->links_buf), size);
	EXPECT_EQ(LNK_LINKS, q->num_links);
	EXPECT_EQ(sizeof(struct amdx_link_info), q->entry_size);
	EXPECT_EQ(0x11c0, q->hive_id);
	/* A hive's ends are devices, their fabric id the device id. */
	for (i = 0; i < q->num_links && i < LNK_LINKS; i++) {
		for (e = 0; e < 2; e++) {
			EXPECT_EQ(AMDX_LINK_END_DEVICE, q->links[i].end[e]);
			EXPECT_EQ(q->links[i].device[e],
				  q->links[i].fabric_id[e]);
			EXPECT_EQ(0, q->links[i].domain[e]);
		}
	}
	return q;
}

/* The index of the link between devices @a and @b (fixture indices). */
static int link_of(FIXTURE_DATA(lnk) *self, const struct amdx_query_links *q,
		   unsigned int a, unsigned int b)
{
	__u32 x = self->d[a].id, y = self->d[b].id;
	unsigned int i;

	for (i = 0; i < q->num_links; i++) {
		const struct amdx_link_info *l = &q->links[i];

		if ((l->device[0] == x && l->device[1] == y) ||
		    (l->device[0] == y && l->device[1] == x))
			return i;
	}
	return -1;
}

/* A link's LINK records on device @i, and no other link's. */
static unsigned int link_events(struct __test_metadata *_metadata,
				FIXTURE_DATA(lnk) *self, unsigned int i,
				int link)
{
	const struct lnk_dev *d = &self->d[i];
	unsigned int k, n = 0;

	for (k = 0; k < d->nevs; k++) {
		if (d->evs[k].kind != AMDX_EVENT_LINK)
			continue;
		EXPECT_EQ(link, (int)d->evs[k].instance);
		n++;
	}
	return n;
}

static unsigned int count_kind(FIXTURE_DATA(lnk) *self, unsigned int i,
			       __u16 kind)
{
	return dev_count(&self->d[i], kind);
}

/* Device @i's ACTION_START and ACTION_END records of @action. */
static unsigned int count_action(FIXTURE_DATA(lnk) *self, unsigned int i,
				 __u64 action)
{
	unsigned int k, n = 0;

	for (k = 0; k < self->d[i].nevs; k++)
		n += (self->d[i].evs[k].kind == AMDX_EVENT_ACTION_START ||
		      self->d[i].evs[k].kind == AMDX_EVENT_ACTION_END) &&
		     self->d[i].evs[k].data[0] == action;
	return n;
}

static const char * const lnk_state_names[] = {
	"up", "degraded", "replay", "down", "parked",
};

/* Appends @v to the space-separated list @s of @n bytes. */
static void lnk_cat(char *s, size_t n, const char *v)
{
	size_t len = strlen(s);

	snprintf(s + len, n - len, "%s%s", len ? " " : "", v);
}

/* A counter of a sysfs list: "-" when @absent. */
static void lnk_count(char *v, size_t n, bool absent, __u64 x)
{
	if (absent)
		snprintf(v, n, "-");
	else
		snprintf(v, n, "%llu", (unsigned long long)x);
}

/*
 * /sys/class/amdx/amdx<@id>/links/: one value per link with an end on
 * device @id, in link order, space separated, as the query @q says: its
 * index, the peer (a device id, "acc" and a pod accelerator's fabric id,
 * "sw" and a switch's plane), state, width and counters ("-" for what the
 * provider declares it does not report).
 */
static void expect_sysfs_links(struct __test_metadata *_metadata, __u32 id,
			       const struct amdx_query_links *q)
{
	static const char * const files[] = {
		"link", "peer", "state", "width", "ce", "ue", "replays", "downs",
	};
	char want[ARRAY_SIZE(files)][512] = {}, v[ARRAY_SIZE(files)][32];
	char got[512], name[32];
	unsigned int i, f, o;

	for (i = 0; i < q->num_links; i++) {
		const struct amdx_link_info *l = &q->links[i];

		if (l->device[0] != id && l->device[1] != id)
			continue;
		o = l->device[0] == id;
		snprintf(v[0], sizeof(v[0]), "%u", l->link);
		if (l->end[o] == AMDX_LINK_END_SWITCH)
			snprintf(v[1], sizeof(v[1]), "sw%u", l->fabric_id[o]);
		else if (l->end[o] == AMDX_LINK_END_REMOTE)
			snprintf(v[1], sizeof(v[1]), "acc%u", l->fabric_id[o]);
		else
			snprintf(v[1], sizeof(v[1]), "%u", l->device[o]);
		snprintf(v[2], sizeof(v[2]), "%s", lnk_state_names[l->state]);
		lnk_count(v[3], sizeof(v[3]), l->flags & AMDX_LINK_F_NO_WIDTH,
			  l->width);
		lnk_count(v[4], sizeof(v[4]),
			  l->flags & AMDX_LINK_F_NO_COUNTERS, l->ce);
		lnk_count(v[5], sizeof(v[5]),
			  l->flags & AMDX_LINK_F_NO_COUNTERS, l->ue);
		lnk_count(v[6], sizeof(v[6]),
			  l->flags & AMDX_LINK_F_NO_COUNTERS, l->replays);
		lnk_count(v[7], sizeof(v[7]), l->flags & AMDX_LINK_F_NO_STATE,
			  l->downs);
		for (f = 0; f < ARRAY_SIZE(files); f++)
			lnk_cat(want[f], sizeof(want[f]), v[f]);
	}
	for (f = 0; f < ARRAY_SIZE(files); f++) {
		strcat(want[f], "\n");
		snprintf(name, sizeof(name), "links/%s", files[f]);
		ASSERT_EQ(0, amdx_class_read(id, name, got, sizeof(got)));
		EXPECT_STREQ(want[f], got) TH_LOG("device %u %s", id, name);
	}
}

/* Nothing but @skip (a link, or -1) changed, counted anything, or moved. */
static void untouched(struct __test_metadata *_metadata,
		      const struct amdx_query_links *q, int skip, int skip2)
{
	unsigned int i, n = 0;

	for (i = 0; i < q->num_links; i++) {
		const struct amdx_link_info *l = &q->links[i];

		if ((int)i == skip || (int)i == skip2)
			continue;
		n++;
		EXPECT_EQ(i, l->link);
		EXPECT_EQ(AMDX_LINK_KIND_XGMI, l->kind);
		EXPECT_EQ(AMDX_LINK_STATE_UP, l->state);
		EXPECT_EQ(AMDX_LINK_CONTAIN_NONE, l->contain);
		EXPECT_EQ(1, l->hops);
		EXPECT_EQ(0, l->flags);
		EXPECT_EQ(16, l->width);
		EXPECT_EQ(0, l->state_changes);
		EXPECT_EQ(0, l->replays + l->ce + l->ue + l->downs +
			     l->width_changes);
		EXPECT_EQ(0, l->pad);
	}
	EXPECT_EQ(LNK_LINKS - (skip >= 0) - (skip2 >= 0), n);
}

/* Waits (poll, no sleep) for device @i's LINK record of @link in @state. */
static bool devs_wait_state(struct __test_metadata *_metadata,
			    struct lnk_dev *devs, unsigned int n,
			    unsigned int i, int link, __u32 state)
{
	struct lnk_dev *d = &devs[i];
	struct pollfd p = { .fd = d->ev, .events = POLLIN };
	unsigned int k, from = 0;

	for (;;) {
		for (k = from; k < d->nevs; k++)
			if (d->evs[k].kind == AMDX_EVENT_LINK &&
			    (int)d->evs[k].instance == link &&
			    d->evs[k].type == state)
				return true;
		from = d->nevs;
		if (poll(&p, 1, LNK_WAIT_MS) != 1)
			return false;
		devs_drain(_metadata, devs, n);
	}
}

static bool wait_state(struct __test_metadata *_metadata,
		       FIXTURE_DATA(lnk) *self, unsigned int i, int link,
		       __u32 state)
{
	return devs_wait_state(_metadata, self->d, LNK_DEVS, i, link, state);
}

/*
 * A replay storm on link 0-1: its records at both ends (up to replay,
 * asking to move what crosses it, 2 hops around it), none elsewhere; the
 * other 27 links untouched; no reset, no recovery action; and once the
 * storm's window passes quietly the link comes back up by itself.
 */
TEST_F(lnk, replay_storm_stays_on_its_link)
{
	const struct amdx_query_links *q;
	const struct amdx_link_info *l;
	const struct amdx_event *e;
	unsigned int i;
	int L;

	q = links(_metadata, self);
	L = link_of(self, q, 0, 1);
	ASSERT_GE(L, 0);
	untouched(_metadata, q, -1, -1);

	ASSERT_EQ(0, fault(self, 0, 1, "replay 100"));
	drain(_metadata, self);
	for (i = 0; i < 2; i++) {
		ASSERT_GE(link_events(_metadata, self, i, L), 1);
		e = &self->d[i].evs[0];
		ASSERT_EQ(AMDX_EVENT_LINK, e->kind);
		EXPECT_EQ(AMDX_LINK_STATE_REPLAY, e->type);
		EXPECT_EQ(AMDX_LINK_STATE_UP, e->block);
		EXPECT_EQ(self->d[!i].id, e->address);
		EXPECT_EQ(AMDX_LINK_CONTAIN_MOVE, e->data[0]);
		EXPECT_EQ(2, e->data[1]);
		EXPECT_EQ(AMDX_RAS_PARTITION_ALL, e->partition);
	}
	for (i = 0; i < LNK_DEVS; i++) {
		if (i >= 2)
			EXPECT_EQ(0, link_events(_metadata, self, i, -1));
		EXPECT_EQ(0, count_kind(self, i, AMDX_EVENT_DEVICE_RESET_BEGIN));
		EXPECT_EQ(0, count_kind(self, i, AMDX_EVENT_RECOVERY));
		/* The only action: moving what crossed the link (nothing). */
		EXPECT_EQ(count_kind(self, i, AMDX_EVENT_ACTION_START) +
			  count_kind(self, i, AMDX_EVENT_ACTION_END),
			  count_action(self, i, AMDX_ACTION_LINK_MOVE));
		EXPECT_EQ(0, count_kind(self, i, AMDX_EVENT_MIGRATE));
	}

	q = links(_metadata, self);
	l = &q->links[L];
	EXPECT_EQ(100, l->replays);
	EXPECT_GE(l->state_changes, 1);
	untouched(_metadata, q, L, -1);
	/* sysfs says the same, per device: 0 and 1 see it, 2 does not. */
	for (i = 0; i < 3; i++)
		expect_sysfs_links(_metadata, self->d[i].id, q);

	/* The storm ends after a quiet window: the tick, not a sleep. */
	ASSERT_TRUE(wait_state(_metadata, self, 0, L, AMDX_LINK_STATE_UP));
	q = links(_metadata, self);
	l = &q->links[L];
	EXPECT_EQ(AMDX_LINK_STATE_UP, l->state);
	EXPECT_EQ(AMDX_LINK_CONTAIN_NONE, l->contain);
	EXPECT_EQ(1, l->hops);
	EXPECT_EQ(2, l->state_changes);
	EXPECT_GT(l->time_ns[AMDX_LINK_STATE_REPLAY], 0);
	untouched(_metadata, q, L, -1);
}

/*
 * Device 3's links go down one by one: each is routed around (2 hops)
 * until the seventh leaves device 3 without a route: then device 3 alone
 * is parked (its 7 links), it alone gets a recovery action (pending, not
 * run: no reset), and the 21 links between the others never change.
 */
TEST_F(lnk, link_down_parks_only_the_peer_left_without_a_route)
{
	const struct amdx_query_links *q;
	const struct amdx_event *e;
	unsigned int i, k, parked;
	int L[LNK_DEVS];

	/*
	 * A kernel without DEVICE_PRIVATE (Debian's stock ones) has no HMM
	 * data to move: no LINK_MOVE action follows the LINK record there.
	 */
	const unsigned int after = amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE ?
				   2 : 0;

	q = links(_metadata, self);
	for (i = 0; i < LNK_DEVS; i++)
		L[i] = i == 3 ? -1 : link_of(self, q, 3, i);

	for (i = 0; i < LNK_DEVS; i++) {
		if (i == 3)
			continue;
		ASSERT_EQ(0, fault(self, 3, i, "down"));
		drain(_metadata, self);
		if (i == 7)
			break;
		/*
		 * Still a route around it: down, move, 2 hops; no parking.
		 * Its LINK record is followed by the LINK_MOVE action's two
		 * where the device has HMM.
		 */
		ASSERT_GE(self->d[i].nevs, 1 + after);
		e = &self->d[i].evs[self->d[i].nevs - 1];
		if (after) {
			EXPECT_EQ(AMDX_EVENT_ACTION_END, e->kind);
			EXPECT_EQ(AMDX_ACTION_LINK_MOVE, e->data[0]);
		}
		e = &self->d[i].evs[self->d[i].nevs - 1 - after];
		ASSERT_EQ(AMDX_EVENT_LINK, e->kind);
		EXPECT_EQ(L[i], (int)e->instance);
		EXPECT_EQ(AMDX_LINK_STATE_DOWN, e->type);
		EXPECT_EQ(AMDX_LINK_CONTAIN_MOVE, e->data[0]);
		EXPECT_EQ(2, e->data[1]);
		EXPECT_EQ(0, count_kind(self, 3, AMDX_EVENT_RECOVERY));
	}

	/* Device 3: 7 downs, then 7 parked links, and its recovery rung. */
	parked = 0;
	for (k = 0; k < self->d[3].nevs; k++) {
		e = &self->d[3].evs[k];
		if (e->kind == AMDX_EVENT_LINK &&
		    e->type == AMDX_LINK_STATE_PARKED) {
			EXPECT_EQ(AMDX_LINK_STATE_DOWN, e->block);
			EXPECT_EQ(0, e->data[1]);
			parked++;
		}
	}
	EXPECT_EQ(7, parked);
	EXPECT_EQ(14, count_kind(self, 3, AMDX_EVENT_LINK));
	EXPECT_GE(count_kind(self, 3, AMDX_EVENT_RECOVERY), 1);
	/* The last down asked for parking. */
	for (k = 0; k < self->d[7].nevs; k++) {
		e = &self->d[7].evs[k];
		if (e->kind == AMDX_EVENT_LINK &&
		    e->type == AMDX_LINK_STATE_DOWN) {
			EXPECT_EQ(AMDX_LINK_CONTAIN_PARK, e->data[0]);
			EXPECT_EQ(0, e->data[1]);
		}
	}
	for (i = 0; i < LNK_DEVS; i++) {
		EXPECT_EQ(0, count_kind(self, i, AMDX_EVENT_DEVICE_RESET_BEGIN));
		if (i == 3)
			continue;
		/* Its link to device 3: down, then parked; nothing else. */
		EXPECT_EQ(2, link_events(_metadata, self, i, L[i]));
	}

	q = links(_metadata, self);
	for (i = 0; i < q->num_links; i++) {
		const struct amdx_link_info *l = &q->links[i];
		bool of3 = l->device[0] == self->d[3].id ||
			   l->device[1] == self->d[3].id;

		if (!of3) {
			EXPECT_EQ(AMDX_LINK_STATE_UP, l->state);
			EXPECT_EQ(0, l->state_changes);
			EXPECT_EQ(1, l->hops);
			continue;
		}
		EXPECT_EQ(AMDX_LINK_STATE_PARKED, l->state);
		EXPECT_EQ(2, l->state_changes);
		EXPECT_EQ(1, l->downs);
		EXPECT_EQ(0, l->hops);
		EXPECT_EQ(AMDX_LINK_F_ROUTE_DEGRADED, l->flags);
	}
}

/* 50 flaps of link 4-5 in a row: one state change, held down. */
TEST_F(lnk, flapping_is_held_down)
{
	const struct amdx_query_links *q;
	const struct amdx_link_info *l;
	const struct amdx_event *e;
	int L;

	q = links(_metadata, self);
	L = link_of(self, q, 4, 5);
	ASSERT_GE(L, 0);
	ASSERT_EQ(0, fault(self, 4, 5, "flap 50"));
	drain(_metadata, self);
	/* A hold of 64 s after 50 flaps: the test is long done by then. */
	ASSERT_EQ(1, link_events(_metadata, self, 4, L));
	ASSERT_EQ(1, link_events(_metadata, self, 5, L));
	e = &self->d[4].evs[0];
	EXPECT_EQ(AMDX_LINK_STATE_DOWN, e->type);
	EXPECT_EQ(AMDX_LINK_CONTAIN_MOVE, e->data[0]);
	q = links(_metadata, self);
	l = &q->links[L];
	EXPECT_EQ(AMDX_LINK_STATE_DOWN, l->state);
	EXPECT_EQ(50, l->downs);
	EXPECT_EQ(1, l->state_changes);
	EXPECT_EQ(2, l->hops);
	EXPECT_EQ(AMDX_LINK_F_ROUTE_DEGRADED, l->flags);
	untouched(_metadata, q, L, -1);
}

/* A width drop: degraded, avoid; CEs count and change nothing. */
TEST_F(lnk, width_drop_degrades_and_ce_only_counts)
{
	const struct amdx_query_links *q;
	const struct amdx_event *e;
	int L, C;

	q = links(_metadata, self);
	L = link_of(self, q, 6, 7);
	C = link_of(self, q, 2, 5);
	ASSERT_EQ(0, fault(self, 6, 7, "width 8"));
	ASSERT_EQ(0, fault(self, 2, 5, "ce 5"));
	drain(_metadata, self);
	ASSERT_EQ(1, link_events(_metadata, self, 7, L));
	e = &self->d[7].evs[0];
	EXPECT_EQ(AMDX_LINK_STATE_DEGRADED, e->type);
	EXPECT_EQ(AMDX_LINK_CONTAIN_AVOID, e->data[0]);
	EXPECT_EQ(2, e->data[1]);
	EXPECT_EQ(0, link_events(_metadata, self, 2, -1));
	q = links(_metadata, self);
	EXPECT_EQ(8, q->links[L].width);
	EXPECT_EQ(1, q->links[L].width_changes);
	EXPECT_EQ(5, q->links[C].ce);
	EXPECT_EQ(AMDX_LINK_STATE_UP, q->links[C].state);
	EXPECT_EQ(0, q->links[C].state_changes);
	untouched(_metadata, q, L, C);
}

/*
 * Where HMM data sits and what crosses link 0-1: a buffer on device @dev
 * (fixture index) whose access set is @access (fixture indices) and,
 * in a forked process of its own, @other.
 */
struct lnk_buf {
	unsigned int dev;
	unsigned int access;
	bool crosses;
	bool other;
};

static const struct lnk_buf lnk_bufs[] = {
	{ 0, 1u << 0 | 1u << 1, true, false },	/* 0's VRAM, 1 reads it */
	{ 1, 1u << 1 | 1u << 0, true, false },	/* 1's VRAM, 0 reads it */
	{ 0, 1u << 0 | 1u << 2, false, false },	/* over link 0-2 */
	{ 1, 1u << 1, false, false },		/* 1's alone */
	{ 2, 1u << 2 | 1u << 3, false, false },	/* elsewhere */
	{ 0, 1u << 0 | 1u << 3, false, true },	/* another process, 0-3 */
	{ 1, 1u << 1 | 1u << 7, false, true },	/* another process, 1-7 */
};

#define LNK_BUFS	ARRAY_SIZE(lnk_bufs)

/* The amdx ids of the devices of @d (@n) whose index is in @access. */
static __u64 ids_of(const struct lnk_dev *d, unsigned int n,
		    unsigned int access)
{
	__u64 ids = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (access & (1u << i))
			ids |= 1ULL << d[i].id;
	return ids;
}

static __u64 access_ids(FIXTURE_DATA(lnk) *self, unsigned int access)
{
	return ids_of(self->d, LNK_DEVS, access);
}

/*
 * Fills @p with @seed's data and places it through @fd in its device's
 * VRAM with access set @access (indices into @d, @n devices).
 */
static int place_in(const struct lnk_dev *d, unsigned int n, int fd,
		    unsigned int access, __u32 seed, char *p)
{
	size_t size = LNK_PAGES * getpagesize();
	struct amdx_hmm_attr a = {
		.start = (uintptr_t)p,
		.size = size,
		.valid = AMDX_HMM_ATTR_ACCESS,
		.access = ids_of(d, n, access),
	};
	struct amdx_hmm_migrate m = {
		.start = (uintptr_t)p, .size = size, .dest = 0,
	};
	int ret;

	amdx_fill(p, size, seed);
	ret = amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a);
	if (!ret)
		ret = amdx_ioctl(fd, AMDX_IOC_HMM_MIGRATE, &m);
	if (!ret && m.moved != LNK_PAGES)
		ret = -EAGAIN;
	return ret;
}

/* Places buffer @b at @p through @fd: its attributes, data, VRAM. */
static int place(FIXTURE_DATA(lnk) *self, int fd, unsigned int b, char *p)
{
	return place_in(self->d, LNK_DEVS, fd, lnk_bufs[b].access, 0x11c0 + b,
			p);
}

/* Pages of buffer @p in @fd's device's VRAM (SNAPSHOT), -errno. */
static long resident(int fd, char *p)
{
	__u8 map[LNK_PAGES];
	struct amdx_hmm_access a = {
		.addr = (uintptr_t)p,
		.size = LNK_PAGES * getpagesize(),
		.op = AMDX_HMM_ACCESS_SNAPSHOT,
		.buf = (uintptr_t)map,
	};
	long n = 0;
	int i, ret;

	ret = amdx_ioctl(fd, AMDX_IOC_HMM_ACCESS, &a);
	if (ret)
		return ret;
	for (i = 0; i < LNK_PAGES; i++)
		n += !!(map[i] & AMDX_HMM_SNAP_DEV_LOCAL);
	return n;
}

/* The range at @p (QUERY_HMM_RANGES) into *@info; false if none. */
static bool range_info(int fd, char *p, struct amdx_hmm_range_info *info)
{
	char buf[sizeof(struct amdx_query_hmm_ranges) +
		 LNK_BUFS * sizeof(struct amdx_hmm_range_info)];
	struct amdx_query_hmm_ranges *q = (void *)buf;
	__u32 size = sizeof(buf), i;

	if (amdx_query(fd, AMDX_QUERY_HMM_RANGES, 0, q, &size))
		return false;
	for (i = 0; i < q->num_ranges; i++) {
		if (q->ranges[i].start == (uintptr_t)p) {
			*info = q->ranges[i];
			return true;
		}
	}
	return false;
}

/* What the range at @p counts in VRAM, -1 if none. */
static long long counted(int fd, char *p)
{
	struct amdx_hmm_range_info info;

	return range_info(fd, p, &info) ? (long long)info.resident_pages : -1;
}

/* The access set of the range at @p, 0 if none. */
static __u64 range_access(int fd, char *p)
{
	struct amdx_hmm_range_info info;

	return range_info(fd, p, &info) ? info.access : 0;
}

/* SET_ATTR of @p's access set to @access (fixture indices), -errno. */
static int set_access(FIXTURE_DATA(lnk) *self, int fd, char *p,
		      unsigned int access)
{
	struct amdx_hmm_attr a = {
		.start = (uintptr_t)p,
		.size = LNK_PAGES * getpagesize(),
		.valid = AMDX_HMM_ATTR_ACCESS,
		.access = access_ids(self, access),
	};

	return amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a);
}

/*
 * The buffers of another process: places them with fds of its own,
 * says so on @ready, waits for @go, then exits 0 when every one is still
 * in its VRAM and every checksum holds.
 */
static int other_process(FIXTURE_DATA(lnk) *self, char **p, int ready,
			 int go)
{
	size_t size = LNK_PAGES * getpagesize();
	int fd[LNK_BUFS], ctl, bad = 0;
	unsigned int b;
	char c = 0;

	ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return 10;
	for (b = 0; b < LNK_BUFS; b++) {
		fd[b] = -1;
		if (!lnk_bufs[b].other)
			continue;
		fd[b] = amdx_device_open(ctl, self->d[lnk_bufs[b].dev].id);
		if (fd[b] < 0 || place(self, fd[b], b, p[b]))
			return 11;
	}
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		return 12;
	for (b = 0; b < LNK_BUFS; b++) {
		if (!lnk_bufs[b].other)
			continue;
		if (resident(fd[b], p[b]) != LNK_PAGES ||
		    counted(fd[b], p[b]) != LNK_PAGES)
			bad |= 1 << b;
		if (amdx_check(p[b], size, 0x11c0 + b) != -1)
			bad |= 1 << b;
	}
	return bad ? 20 + bad : 0;
}

/*
 * HMM data over a replay storm on link 0-1: the ranges in device 0's
 * VRAM that device 1 accesses, and those in 1's that 0 accesses, come
 * home (an action recorded at each end, a MIGRATE record each); every
 * other range stays in its VRAM, another process's too; every checksum
 * holds; the other 27 links are untouched and nothing is reset.  While
 * the link storms a placement across it is refused with -ENOLINK and one
 * not crossing it is not; so is a SET_ATTR giving device 0 access to
 * data in device 1's VRAM, while one over link 1-2 goes and one naming
 * device 0 for data at home goes; once the link is up again both go.
 */
TEST_F(lnk, replay_storm_moves_exactly_what_crossed_it)
{
	size_t size = LNK_PAGES * getpagesize();
	int ready[2], go[2], status, L, fd;
	const struct amdx_query_links *q;
	struct amdx_hmm_migrate m;
	const struct amdx_event *e;
	char *p[LNK_BUFS], *x;
	unsigned int b, i, k;
	pid_t pid;
	char c = 0;

	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE))
		SKIP(return, NO_HMM);
	q = links(_metadata, self);
	L = link_of(self, q, 0, 1);
	ASSERT_GE(L, 0);
	for (b = 0; b < LNK_BUFS; b++) {
		p[b] = mmap(NULL, size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_NE(MAP_FAILED, p[b]);
	}
	x = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, x);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(other_process(self, p, ready[1], go[0]));
	for (b = 0; b < LNK_BUFS; b++)
		if (!lnk_bufs[b].other)
			ASSERT_EQ(0, place(self, self->d[lnk_bufs[b].dev].fd, b,
					   p[b]));
	ASSERT_EQ(1, read(ready[0], &c, 1));
	drain(_metadata, self);
	for (i = 0; i < LNK_DEVS; i++)
		self->d[i].nevs = 0;

	ASSERT_EQ(0, fault(self, 0, 1, "replay 100"));
	drain(_metadata, self);

	/* Exactly the ranges that crossed the link came home. */
	for (b = 0; b < LNK_BUFS; b++) {
		if (lnk_bufs[b].other)
			continue;
		fd = self->d[lnk_bufs[b].dev].fd;
		EXPECT_EQ(lnk_bufs[b].crosses ? 0 : LNK_PAGES,
			  resident(fd, p[b])) TH_LOG("buffer %u", b);
		EXPECT_EQ(lnk_bufs[b].crosses ? 0 : LNK_PAGES,
			  counted(fd, p[b])) TH_LOG("buffer %u", b);
	}
	/* Recorded at each end: the action, and the process's pages home. */
	for (i = 0; i < LNK_DEVS; i++) {
		unsigned int starts = 0, ends = 0, home = 0;

		for (k = 0; k < self->d[i].nevs; k++) {
			e = &self->d[i].evs[k];
			if (e->kind == AMDX_EVENT_MIGRATE) {
				EXPECT_EQ(1, e->type);
				EXPECT_EQ(getpid(), (pid_t)e->data[0]);
				home += e->data[1];
			}
			if (e->kind != AMDX_EVENT_ACTION_START &&
			    e->kind != AMDX_EVENT_ACTION_END)
				continue;
			EXPECT_EQ(AMDX_ACTION_LINK_MOVE, e->data[0]);
			EXPECT_EQ(L, (int)e->instance);
			EXPECT_EQ(self->d[!i].id, e->type);
			if (e->kind == AMDX_EVENT_ACTION_START) {
				starts++;
			} else {
				ends++;
				EXPECT_EQ(0, e->data[1]);
			}
		}
		EXPECT_EQ(i < 2, starts) TH_LOG("device %u", i);
		EXPECT_EQ(i < 2, ends) TH_LOG("device %u", i);
		EXPECT_EQ(i < 2 ? LNK_PAGES : 0, home) TH_LOG("device %u", i);
		EXPECT_EQ(0, count_kind(self, i, AMDX_EVENT_DEVICE_RESET_BEGIN));
		EXPECT_EQ(0, count_kind(self, i, AMDX_EVENT_RECOVERY));
		if (i >= 2)
			EXPECT_EQ(0, link_events(_metadata, self, i, -1));
	}
	q = links(_metadata, self);
	EXPECT_EQ(AMDX_LINK_STATE_REPLAY, q->links[L].state);
	untouched(_metadata, q, L, -1);

	/* The other process, not using the link: untouched. */
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	/* No new data across the storming link; across another, yes. */
	memset(&m, 0, sizeof(m));
	m.start = (uintptr_t)p[1];
	m.size = size;
	EXPECT_EQ(-ENOLINK, amdx_ioctl(self->d[1].fd, AMDX_IOC_HMM_MIGRATE,
				       &m));
	EXPECT_EQ(0, m.moved);
	EXPECT_EQ(0, resident(self->d[1].fd, p[1]));
	EXPECT_EQ(0, place(self, self->d[0].fd, 2, x));
	/* Home is always allowed. */
	memset(&m, 0, sizeof(m));
	m.start = (uintptr_t)p[1];
	m.size = size;
	m.dest = AMDX_HMM_LOC_SYSTEM;
	EXPECT_EQ(0, amdx_ioctl(self->d[1].fd, AMDX_IOC_HMM_MIGRATE, &m));
	/*
	 * Nor is access across it given to data in VRAM (buffer 3, device
	 * 1's alone): refused, nothing changed; across link 1-2, given.
	 */
	EXPECT_EQ(-ENOLINK, set_access(self, self->d[1].fd, p[3],
				       1u << 1 | 1u << 0));
	EXPECT_EQ(access_ids(self, 1u << 1), range_access(self->d[1].fd, p[3]));
	EXPECT_EQ(LNK_PAGES, resident(self->d[1].fd, p[3]));
	EXPECT_EQ(0, set_access(self, self->d[1].fd, p[3], 1u << 1 | 1u << 2));
	/* Data at home may name device 0: it does not cross the link. */
	EXPECT_EQ(0, set_access(self, self->d[1].fd, p[1], 1u << 1));
	EXPECT_EQ(0, set_access(self, self->d[1].fd, p[1], 1u << 1 | 1u << 0));

	/* Up again after a quiet window: placements cross it again. */
	ASSERT_TRUE(wait_state(_metadata, self, 1, L, AMDX_LINK_STATE_UP));
	memset(&m, 0, sizeof(m));
	m.start = (uintptr_t)p[1];
	m.size = size;
	EXPECT_EQ(0, amdx_ioctl(self->d[1].fd, AMDX_IOC_HMM_MIGRATE, &m));
	EXPECT_EQ(LNK_PAGES, m.moved);
	EXPECT_EQ(LNK_PAGES, resident(self->d[1].fd, p[1]));
	EXPECT_EQ(0, set_access(self, self->d[1].fd, p[3],
				1u << 1 | 1u << 2 | 1u << 0));
	EXPECT_EQ(access_ids(self, 1u << 1 | 1u << 2 | 1u << 0),
		  range_access(self->d[1].fd, p[3]));

	/* Every checksum holds (reading brings the data home). */
	for (b = 0; b < LNK_BUFS; b++) {
		if (!lnk_bufs[b].other) {
			EXPECT_EQ(-1, amdx_check(p[b], size, 0x11c0 + b))
				TH_LOG("buffer %u", b);
		}
	}
	EXPECT_EQ(-1, amdx_check(x, size, 0x11c0 + 2));
}

/*
 * Where what crosses link 0-1 goes when the link goes down, per the
 * ranges' attributes (fabric.rst, "HMM across a link"): a buffer placed
 * in @dev's VRAM (fixture indices) whose access set is @access, and the
 * range over it on the same process's fd of @peer (-1: none), preferring
 * @peer_loc with access set @peer_access; @lands: the device whose VRAM
 * holds it afterwards (-1: home); @other: in a forked process of its own.
 */
struct lnk_to {
	unsigned int dev;
	unsigned int access;
	int peer;
	__u32 peer_loc;
	unsigned int peer_access;
	int lands;
	bool other;
};

static const struct lnk_to lnk_tos[] = {
	/* 0's VRAM, 1 reads it and prefers it in its own: to device 1 */
	{ 0, 1u << 0 | 1u << 1, 1, 0, 1u << 1, 1, false },
	/* and the reverse: to device 0 */
	{ 1, 1u << 1 | 1u << 0, 0, 0, 1u << 0, 0, false },
	/* 1 prefers it at home: home */
	{ 0, 1u << 0 | 1u << 1, 1, AMDX_HMM_LOC_SYSTEM, 1u << 1, -1, false },
	/* in 1's VRAM device 0 would read it across the link: home */
	{ 0, 1u << 0 | 1u << 1, 1, 0, 1u << 1 | 1u << 0, -1, false },
	/* over link 0-2, however 2 prefers it: stays */
	{ 0, 1u << 0 | 1u << 2, 2, 0, 1u << 2, 0, false },
	/* another process: over link 0-3, stays */
	{ 0, 1u << 0 | 1u << 3, 3, 0, 1u << 3, 0, true },
	/* another process: 1's VRAM, 0 reads it: to device 0 */
	{ 1, 1u << 1 | 1u << 0, 0, 0, 1u << 0, 0, true },
};

#define LNK_TOS		ARRAY_SIZE(lnk_tos)

/*
 * Places buffer @b of lnk_tos at @p through @fd (its device's fd) and sets
 * the peer's range through @fds (per fixture device, the process's fds).
 */
static int place_to(FIXTURE_DATA(lnk) *self, const int *fds, unsigned int b,
		    char *p)
{
	const struct lnk_to *t = &lnk_tos[b];
	/*
	 * A granularity of its own: ranges with equal attributes merge, and
	 * each buffer's range must be found at its start.
	 */
	struct amdx_hmm_attr a = {
		.start = (uintptr_t)p,
		.size = LNK_PAGES * getpagesize(),
		.valid = AMDX_HMM_ATTR_ACCESS | AMDX_HMM_ATTR_GRANULARITY,
		.granularity = b,
		.access = access_ids(self, t->access),
	};
	struct amdx_hmm_migrate m = {
		.start = (uintptr_t)p, .size = a.size, .dest = 0,
	};
	int ret;

	amdx_fill(p, a.size, 0x70 + b);
	ret = amdx_ioctl(fds[t->dev], AMDX_IOC_HMM_SET_ATTR, &a);
	if (!ret)
		ret = amdx_ioctl(fds[t->dev], AMDX_IOC_HMM_MIGRATE, &m);
	if (!ret && m.moved != LNK_PAGES)
		ret = -EAGAIN;
	if (ret || t->peer < 0)
		return ret;
	a.valid = AMDX_HMM_ATTR_ACCESS | AMDX_HMM_ATTR_PREFERRED_LOC |
		  AMDX_HMM_ATTR_GRANULARITY;
	a.preferred_loc = t->peer_loc;
	a.access = access_ids(self, t->peer_access);
	return amdx_ioctl(fds[t->peer], AMDX_IOC_HMM_SET_ATTR, &a);
}

/* Pages of buffer @p in @fd's device's VRAM and in another's (SNAPSHOT). */
static int where(int fd, char *p, long *local, long *remote)
{
	__u8 map[LNK_PAGES];
	struct amdx_hmm_access a = {
		.addr = (uintptr_t)p,
		.size = LNK_PAGES * getpagesize(),
		.op = AMDX_HMM_ACCESS_SNAPSHOT,
		.buf = (uintptr_t)map,
	};
	int i, ret;

	*local = 0;
	*remote = 0;
	ret = amdx_ioctl(fd, AMDX_IOC_HMM_ACCESS, &a);
	for (i = 0; !ret && i < LNK_PAGES; i++) {
		*local += !!(map[i] & AMDX_HMM_SNAP_DEV_LOCAL);
		*remote += !!(map[i] & AMDX_HMM_SNAP_DEV_REMOTE);
	}
	return ret;
}

/*
 * Whether buffer @b is where lnk_tos says, seen by the peer's fd (which
 * every range of it grants access) and by both ranges' counters.
 */
static bool landed(const int *fds, unsigned int b, char *p)
{
	const struct lnk_to *t = &lnk_tos[b];
	long local, remote;

	if (where(fds[t->peer], p, &local, &remote))
		return false;
	if (local != (t->lands == t->peer ? LNK_PAGES : 0) ||
	    remote != (t->lands == (int)t->dev ? LNK_PAGES : 0))
		return false;
	return counted(fds[t->dev], p) ==
	       (t->lands == (int)t->dev ? LNK_PAGES : 0) &&
	       counted(fds[t->peer], p) ==
	       (t->lands == t->peer ? LNK_PAGES : 0);
}

/*
 * The other process of lnk_tos: places its buffers with fds of its own,
 * says so on @ready, waits for @go, exits 0 when each is where it should
 * be and every checksum holds.
 */
static int other_to(FIXTURE_DATA(lnk) *self, char **p, int ready, int go)
{
	size_t size = LNK_PAGES * getpagesize();
	int fds[LNK_DEVS], ctl, bad = 0;
	unsigned int b, i;
	char c = 0;

	ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return 10;
	for (i = 0; i < LNK_DEVS; i++) {
		fds[i] = amdx_device_open(ctl, self->d[i].id);
		if (fds[i] < 0)
			return 11;
	}
	for (b = 0; b < LNK_TOS; b++)
		if (lnk_tos[b].other && place_to(self, fds, b, p[b]))
			return 12;
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		return 13;
	for (b = 0; b < LNK_TOS; b++) {
		if (!lnk_tos[b].other)
			continue;
		if (!landed(fds, b, p[b]) ||
		    amdx_check(p[b], size, 0x70 + b) != -1)
			bad |= 1 << b;
	}
	return bad ? 20 + bad : 0;
}

/*
 * A link down (0-1) with HMM data across it: each range in one end's
 * VRAM that the other end accesses goes to the accessing device when
 * that device's range over it (the same process's fd) prefers one of its
 * memory partitions and names no device across a link that takes no new
 * data, home otherwise; ranges not crossing the link stay, another
 * process's too, and the other process's range crossing it goes to its
 * accessing device as well.  One LINK_MOVE action per end, the pages
 * arriving at the accessing device recorded there (MIGRATE to VRAM)
 * inside it; every checksum holds; the other 27 links untouched; no
 * reset, no recovery action.
 */
TEST_F(lnk, link_down_moves_to_the_accessing_device)
{
	/* Per device: pages MIGRATE records say went home, and to VRAM. */
	static const unsigned int want_home[LNK_DEVS] = { 48, 32 };
	static const unsigned int want_in[LNK_DEVS] = { 32, 16 };
	size_t size = LNK_PAGES * getpagesize();
	int ready[2], go[2], fds[LNK_DEVS], status, L;
	__u64 start_seq[2] = { 0 }, end_seq[2] = { 0 };
	const struct amdx_query_links *q;
	const struct amdx_event *e;
	unsigned int b, i, k;
	char *p[LNK_TOS];
	pid_t pid;
	char c = 0;

	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE))
		SKIP(return, NO_HMM);
	q = links(_metadata, self);
	L = link_of(self, q, 0, 1);
	ASSERT_GE(L, 0);
	for (i = 0; i < LNK_DEVS; i++)
		fds[i] = self->d[i].fd;
	for (b = 0; b < LNK_TOS; b++) {
		p[b] = mmap(NULL, size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_NE(MAP_FAILED, p[b]);
	}
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(other_to(self, p, ready[1], go[0]));
	for (b = 0; b < LNK_TOS; b++) {
		if (!lnk_tos[b].other) {
			ASSERT_EQ(0, place_to(self, fds, b, p[b]))
				TH_LOG("buffer %u", b);
		}
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	drain(_metadata, self);
	for (i = 0; i < LNK_DEVS; i++)
		self->d[i].nevs = 0;

	ASSERT_EQ(0, fault(self, 0, 1, "down"));
	drain(_metadata, self);

	for (b = 0; b < LNK_TOS; b++) {
		if (!lnk_tos[b].other) {
			EXPECT_TRUE(landed(fds, b, p[b])) TH_LOG("buffer %u", b);
		}
	}
	for (i = 0; i < LNK_DEVS; i++) {
		unsigned int home = 0, in = 0, actions = 0;

		for (k = 0; k < self->d[i].nevs; k++) {
			e = &self->d[i].evs[k];
			if (e->kind == AMDX_EVENT_MIGRATE) {
				if (e->type)
					home += e->data[1];
				else
					in += e->data[1];
			}
			if (e->kind != AMDX_EVENT_ACTION_START &&
			    e->kind != AMDX_EVENT_ACTION_END)
				continue;
			actions++;
			EXPECT_EQ(AMDX_ACTION_LINK_MOVE, e->data[0]);
			EXPECT_EQ(L, (int)e->instance);
			ASSERT_LT(i, 2);
			if (e->kind == AMDX_EVENT_ACTION_START) {
				start_seq[i] = e->seq;
			} else {
				end_seq[i] = e->seq;
				EXPECT_EQ(0, e->data[1]);
			}
		}
		EXPECT_EQ(i < 2 ? 2 : 0, actions) TH_LOG("device %u", i);
		EXPECT_EQ(i < 2 ? want_home[i] : 0, home) TH_LOG("device %u", i);
		EXPECT_EQ(i < 2 ? want_in[i] : 0, in) TH_LOG("device %u", i);
		EXPECT_EQ(0, count_kind(self, i, AMDX_EVENT_DEVICE_RESET_BEGIN));
		EXPECT_EQ(0, count_kind(self, i, AMDX_EVENT_RECOVERY));
		if (i >= 2)
			EXPECT_EQ(0, link_events(_metadata, self, i, -1));
	}
	/*
	 * Pages placed at the accessing device are part of the move at the
	 * other end: inside its action (the hive's seqs are one order).
	 */
	for (i = 0; i < 2; i++) {
		for (k = 0; k < self->d[i].nevs; k++) {
			e = &self->d[i].evs[k];
			if (e->kind != AMDX_EVENT_MIGRATE || e->type)
				continue;
			EXPECT_LT(start_seq[!i], e->seq);
			EXPECT_GT(end_seq[!i], e->seq);
		}
	}
	q = links(_metadata, self);
	EXPECT_EQ(AMDX_LINK_STATE_DOWN, q->links[L].state);
	EXPECT_EQ(AMDX_LINK_CONTAIN_MOVE, q->links[L].contain);
	EXPECT_EQ(2, q->links[L].hops);
	untouched(_metadata, q, L, -1);

	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	/* Every checksum holds (reading brings the data home). */
	for (b = 0; b < LNK_TOS; b++) {
		if (!lnk_tos[b].other) {
			EXPECT_EQ(-1, amdx_check(p[b], size, 0x70 + b))
				TH_LOG("buffer %u", b);
		}
	}
}

/* ACCESS READ of buffer @p through @fd into @out, -errno. */
static int dev_read(int fd, char *p, char *out)
{
	struct amdx_hmm_access a = {
		.addr = (uintptr_t)p,
		.size = LNK_PAGES * getpagesize(),
		.op = AMDX_HMM_ACCESS_READ,
		.buf = (uintptr_t)out,
	};

	return amdx_ioctl(fd, AMDX_IOC_HMM_ACCESS, &a);
}

/*
 * Revoke, not move, what must stay: with link 0-1 down, a pinned range
 * in device 0's VRAM that device 1 accesses stays there (SNAPSHOT and its
 * counter), keeps its checksum and its owner's access (device 0 reads
 * it), and device 1 loses its access (out of the access set; its READ
 * and SNAPSHOT fail with EACCES, and SET_ATTR gives it back only once
 * the link is up: ENOLINK); the same range unpinned comes home.  Device 0 records one
 * LINK_REVOKE action (then its LINK_MOVE), device 1 none; the other 27
 * links are untouched and nothing is reset.
 */
TEST_F(lnk, link_down_revokes_what_is_pinned)
{
	const size_t size = LNK_PAGES * getpagesize();
	const struct amdx_query_links *q;
	int fd0 = self->d[0].fd, fd1 = self->d[1].fd, L;
	unsigned int pinned = 0, i, k;
	const struct amdx_event *e;
	long local, remote;
	char *p[2], *out;
	struct amdx_hmm_attr a = {
		.size = size,
		.valid = AMDX_HMM_ATTR_FLAGS,
		.flags = AMDX_HMM_F_PIN,
	};

	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE))
		SKIP(return, NO_HMM);
	q = links(_metadata, self);
	L = link_of(self, q, 0, 1);
	ASSERT_GE(L, 0);
	out = malloc(size);
	ASSERT_NE(NULL, out);
	/* p[0] pinned, p[1] not; both lnk_bufs[0]: 0's VRAM, 1 reads it. */
	for (i = 0; i < 2; i++) {
		p[i] = mmap(NULL, size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_NE(MAP_FAILED, p[i]);
		a.start = (uintptr_t)p[i];
		if (i == 0)
			ASSERT_EQ(0, amdx_ioctl(fd0, AMDX_IOC_HMM_SET_ATTR, &a));
		ASSERT_EQ(0, place(self, fd0, 0, p[i]));
		ASSERT_EQ(LNK_PAGES, resident(fd0, p[i]));
	}
	/* Device 1 sees the pinned data in device 0's VRAM. */
	ASSERT_EQ(0, where(fd1, p[0], &local, &remote));
	EXPECT_EQ(LNK_PAGES, remote);
	drain(_metadata, self);
	for (i = 0; i < LNK_DEVS; i++)
		self->d[i].nevs = 0;

	ASSERT_EQ(0, fault(self, 0, 1, "down"));
	drain(_metadata, self);

	/* The pinned data stayed, device 1 is out, device 0 still reads. */
	EXPECT_EQ(LNK_PAGES, resident(fd0, p[0]));
	EXPECT_EQ(LNK_PAGES, counted(fd0, p[0]));
	EXPECT_EQ(access_ids(self, 1u << 0), range_access(fd0, p[0]));
	EXPECT_EQ(-EACCES, dev_read(fd1, p[0], out));
	EXPECT_EQ(-EACCES, where(fd1, p[0], &local, &remote));
	memset(out, 0, size);
	EXPECT_EQ(0, dev_read(fd0, p[0], out));
	EXPECT_EQ(-1, amdx_check(out, size, 0x11c0));
	EXPECT_EQ(LNK_PAGES, resident(fd0, p[0]));
	EXPECT_EQ(-ENOLINK, set_access(self, fd0, p[0], 1u << 0 | 1u << 1));
	/* The unpinned one came home, device 1 keeps its access there. */
	EXPECT_EQ(0, resident(fd0, p[1]));
	EXPECT_EQ(0, counted(fd0, p[1]));
	EXPECT_EQ(access_ids(self, 1u << 0 | 1u << 1), range_access(fd0, p[1]));

	for (i = 0; i < LNK_DEVS; i++) {
		for (k = 0; k < self->d[i].nevs; k++) {
			e = &self->d[i].evs[k];
			if ((e->kind != AMDX_EVENT_ACTION_START &&
			     e->kind != AMDX_EVENT_ACTION_END) ||
			    e->data[0] != AMDX_ACTION_LINK_REVOKE)
				continue;
			ASSERT_EQ(0, i);
			EXPECT_EQ(L, (int)e->instance);
			EXPECT_EQ(self->d[1].id, e->type);
			/* START, then END, then the move's two. */
			EXPECT_EQ(pinned ? AMDX_EVENT_ACTION_END :
				  AMDX_EVENT_ACTION_START, e->kind);
			if (e->kind == AMDX_EVENT_ACTION_END) {
				EXPECT_EQ(0, e->data[1]);
				ASSERT_LT(k + 1, self->d[i].nevs);
				EXPECT_EQ(AMDX_ACTION_LINK_MOVE,
					  e[1].data[0]);
			}
			pinned++;
		}
		EXPECT_EQ(i < 2 ? 2 : 0,
			  count_action(self, i, AMDX_ACTION_LINK_MOVE));
		EXPECT_EQ(0, count_kind(self, i, AMDX_EVENT_DEVICE_RESET_BEGIN));
		EXPECT_EQ(0, count_kind(self, i, AMDX_EVENT_RECOVERY));
	}
	EXPECT_EQ(2, pinned);
	q = links(_metadata, self);
	EXPECT_EQ(AMDX_LINK_STATE_DOWN, q->links[L].state);
	untouched(_metadata, q, L, -1);

	/* Every checksum holds (reading brings the data home). */
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(-1, amdx_check(p[i], size, 0x11c0)) TH_LOG("%u", i);
	}
	free(out);
}

/*
 * A scale-up pod (Documentation/fabric.rst): this host's 4 accelerators
 * (domain 0) and 68 remote ones of a pod of 72 in 18 OS domains, known by
 * fabric id only, each on 4 switch planes: 288 links of which 16 are
 * this host's devices'.
 */
#define POD_DEVS	4
#define POD_ACCS	72
#define POD_PLANES	4
#define POD_LINKS	(POD_ACCS * POD_PLANES)
#define POD_HIVE	"model=mi300x vram=64 hive=11c1 pod=18,4,4,0,"

FIXTURE(pod) {
	int ctl;
	unsigned int n;
	struct lnk_dev d[POD_DEVS];
	char links_buf[sizeof(struct amdx_query_links) +
		       POD_LINKS * sizeof(struct amdx_link_info)];
};

/* The pod's devices, in virtual pods of @vpod_size (0: one). */
static void pod_devs_new(struct __test_metadata *_metadata,
			 FIXTURE_DATA(pod) *self, unsigned int vpod_size)
{
	char params[96];

	for (self->n = 0; self->n < POD_DEVS; self->n++) {
		snprintf(params, sizeof(params), POD_HIVE "%u,%u", self->n,
			 vpod_size);
		dev_new(_metadata, self->ctl, &self->d[self->n],
			AMDX_SIM_ID_MOD(link, self->n), params);
	}
}

FIXTURE_SETUP(pod)
{
	self->n = 0;
	self->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->ctl, 0);
	if (amdx_provider_is_amdgpu())
		SKIP(return, "the amdgpu provider does not claim %s",
		     amdx_amdgpu_lacks(POD_HIVE "0"));
	pod_devs_new(_metadata, self, 0);
}

FIXTURE_TEARDOWN(pod)
{
	devs_del(self->d, self->n < POD_DEVS ? self->n : POD_DEVS);
	close(self->ctl);
}

/* Reads every waiting record of every device of the pod. */
static void pod_drain(struct __test_metadata *_metadata,
		      FIXTURE_DATA(pod) *self)
{
	devs_drain(_metadata, self->d, POD_DEVS);
}

static unsigned int pod_count(FIXTURE_DATA(pod) *self, unsigned int i,
			      __u16 kind)
{
	return dev_count(&self->d[i], kind);
}

/* "@FABRIC/PLANE FAULT" through device @via. */
static int pod_fault(FIXTURE_DATA(pod) *self, unsigned int via,
		     unsigned int fabric, unsigned int plane, const char *what)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%u @%u/%u %s", self->d[via].sim, fabric,
		 plane, what);
	return amdx_sysfs_write(LNK_FAULT, buf);
}

static const struct amdx_query_links *
pod_links(struct __test_metadata *_metadata, FIXTURE_DATA(pod) *self)
{
	struct amdx_query_links *q = (void *)self->links_buf;
	__u32 size = sizeof(self->links_buf);

	memset(self->links_buf, 0xa5, sizeof(self->links_buf));
	EXPECT_EQ(0, amdx_query(self->d[0].fd, AMDX_QUERY_LINKS, 0, q, &size));
	EXPECT_EQ(POD_LINKS, q->num_links);
	EXPECT_EQ(0x11c1, q->hive_id);
	return q;
}

/*
 * The pod accelerator a link leaves from: its switch end's port is the
 * accelerator's fabric id (device[] is ~0 for an end not of this host).
 */
static unsigned int pod_acc(const struct amdx_link_info *l)
{
	return l->device[1] == ~0U ? l->port[1] : l->port[0];
}

/* Links of accelerators other than @a and @b: all up, nothing counted. */
static void pod_untouched(struct __test_metadata *_metadata,
			  const struct amdx_query_links *q, unsigned int a,
			  unsigned int b)
{
	unsigned int i, n = 0;

	for (i = 0; i < q->num_links; i++) {
		const struct amdx_link_info *l = &q->links[i];

		if (pod_acc(l) == a || pod_acc(l) == b)
			continue;
		n++;
		EXPECT_EQ(AMDX_LINK_KIND_SCALEUP, l->kind);
		EXPECT_EQ(AMDX_LINK_STATE_UP, l->state);
		EXPECT_EQ(0, l->state_changes);
		EXPECT_EQ(0, l->downs);
		EXPECT_EQ(4, l->width);
	}
	EXPECT_EQ(POD_LINKS - (a < POD_ACCS) * POD_PLANES -
		  (b < POD_ACCS) * POD_PLANES, n);
}

/* Accelerator @acc's 4 links, each in @state. */
static void pod_acc_links(struct __test_metadata *_metadata,
			  const struct amdx_query_links *q, unsigned int acc,
			  __u32 state)
{
	unsigned int i, n = 0;

	for (i = 0; i < q->num_links; i++) {
		if (pod_acc(&q->links[i]) != acc)
			continue;
		n++;
		EXPECT_EQ(state, q->links[i].state) TH_LOG("link %u", i);
	}
	EXPECT_EQ(POD_PLANES, n);
}

/*
 * This host's device @dev losing its planes, remote accelerator @acc
 * parked: both parked, every other link untouched, @dev's device rung
 * pending, nothing reset.
 */
static void pod_park_device(struct __test_metadata *_metadata,
			    FIXTURE_DATA(pod) *self, unsigned int acc,
			    unsigned int dev)
{
	const struct amdx_query_links *q;
	unsigned int i, p;

	for (p = 0; p < POD_PLANES; p++)
		ASSERT_EQ(0, pod_fault(self, dev, dev, p, "down"));
	q = pod_links(_metadata, self);
	pod_acc_links(_metadata, q, dev, AMDX_LINK_STATE_PARKED);
	pod_acc_links(_metadata, q, acc, AMDX_LINK_STATE_PARKED);
	pod_untouched(_metadata, q, acc, dev);
	pod_drain(_metadata, self);
	for (i = 0; i < POD_DEVS; i++) {
		EXPECT_EQ(0, pod_count(self, i,
				       AMDX_EVENT_DEVICE_RESET_BEGIN));
		EXPECT_EQ(i == dev ? 1 : 0, pod_count(self, i,
						      AMDX_EVENT_RECOVERY))
			TH_LOG("device %u", i);
	}
}

/*
 * A link down in a pod parks only the peer with no route left: remote
 * accelerator 41 (domain 10) losing its planes one by one keeps a route
 * through the others until the last, then it alone is parked, with no
 * recovery action on this host (it is its own host's to recover); this
 * host's device 2 losing its 4 planes is parked alone and gets its device
 * rung, pending (nothing reset).  Every other link stays up, untouched.
 */
TEST_F(pod, link_down_parks_only_the_peer_without_a_route)
{
	const struct amdx_query_links *q;
	unsigned int i, p;

	q = pod_links(_metadata, self);
	pod_untouched(_metadata, q, ~0U, ~0U);
	/*
	 * This host's accelerators are its devices, on ports 0..3; every
	 * end says what it is: a device or a remote accelerator by fabric id
	 * and domain, the switch by its plane (minor 6).
	 */
	for (i = 0; i < q->num_links; i++) {
		const struct amdx_link_info *l = &q->links[i];

		if (pod_acc(l) < POD_DEVS) {
			EXPECT_EQ(self->d[pod_acc(l)].id, l->device[0]);
			EXPECT_EQ(AMDX_LINK_END_DEVICE, l->end[0]);
		} else {
			EXPECT_EQ(~0U, l->device[0]);
			EXPECT_EQ(AMDX_LINK_END_REMOTE, l->end[0]);
		}
		EXPECT_EQ(pod_acc(l), l->fabric_id[0]) TH_LOG("link %u", i);
		EXPECT_EQ(pod_acc(l) / POD_DEVS, l->domain[0]);
		EXPECT_EQ(~0U, l->device[1]);
		EXPECT_EQ(AMDX_LINK_END_SWITCH, l->end[1]);
		EXPECT_EQ(l->port[0], l->fabric_id[1]);
		EXPECT_EQ(0, l->domain[1]);
		/* One virtual pod: the whole pod (minor 7). */
		EXPECT_EQ(1, l->vpod[0]);
		EXPECT_EQ(0, l->vpod[1]);
		EXPECT_EQ(1, l->hops);
	}

	for (p = 0; p < POD_PLANES; p++) {
		ASSERT_EQ(0, pod_fault(self, 0, 41, p, "down"));
		q = pod_links(_metadata, self);
		for (i = 0; i < q->num_links; i++) {
			const struct amdx_link_info *l = &q->links[i];

			if (pod_acc(l) != 41 || l->port[0] > p)
				continue;
			EXPECT_EQ(p < POD_PLANES - 1 ? AMDX_LINK_STATE_DOWN :
				  AMDX_LINK_STATE_PARKED, l->state);
		}
	}
	pod_acc_links(_metadata, q, 41, AMDX_LINK_STATE_PARKED);
	pod_untouched(_metadata, q, 41, ~0U);
	pod_drain(_metadata, self);

	pod_park_device(_metadata, self, 41, 2);
	/* The remote accelerator's changes went to the lowest member. */
	EXPECT_LE(8, pod_count(self, 0, AMDX_EVENT_LINK));
	EXPECT_EQ(0, pod_count(self, 1, AMDX_EVENT_LINK));
	EXPECT_LE(8, pod_count(self, 2, AMDX_EVENT_LINK));
}

/*
 * HMM data between two devices of a pod goes through a switch, on any
 * plane whose two links serve both (fabric.rst, "HMM across a link"): a
 * buffer in @dev's VRAM whose access set is @access (fixture indices);
 * @crosses: it is between devices 0 and 1.
 */
struct pod_buf {
	unsigned int dev;
	unsigned int access;
	bool crosses;
};

static const struct pod_buf pod_bufs[] = {
	{ 0, 1u << 0 | 1u << 1, true },		/* 0's VRAM, 1 reads it */
	{ 1, 1u << 1 | 1u << 0, true },		/* 1's VRAM, 0 reads it */
	{ 0, 1u << 0 | 1u << 2, false },	/* pair 0-2 */
	{ 1, 1u << 1 | 1u << 3, false },	/* pair 1-3 */
	{ 2, 1u << 2 | 1u << 3, false },	/* elsewhere */
};

#define POD_BUFS	ARRAY_SIZE(pod_bufs)
#define POD_SEED	0x11c1

/* The index of accelerator @acc's link on plane @plane, -1 if none. */
static int pod_link(const struct amdx_query_links *q, unsigned int acc,
		    unsigned int plane)
{
	unsigned int i;

	for (i = 0; i < q->num_links; i++)
		if (pod_acc(&q->links[i]) == acc &&
		    q->links[i].port[0] == plane)
			return i;
	return -1;
}

/*
 * Device 0 losing plane 0 moves and refuses nothing: planes 1..3 serve
 * every pair.  Device 1 then losing planes 1..3 leaves pair 0-1 with no
 * plane in common: exactly the ranges in 0's VRAM that 1 accesses and in
 * 1's that 0 accesses come home (a LINK_MOVE action at each end, naming
 * the other), a placement between them is refused with -ENOLINK, every
 * other range stays and pair 0-2 still places; nothing is parked, reset
 * or recovered.  Plane 0 of device 0 up again serves the pair: placing
 * goes again.  Every checksum holds.
 */
TEST_F(pod, hmm_moves_only_when_no_plane_serves_both)
{
	size_t size = LNK_PAGES * getpagesize();
	const struct amdx_query_links *q;
	struct amdx_hmm_migrate m;
	const struct amdx_event *e;
	char *p[POD_BUFS], *x;
	unsigned int b, i, k, n;
	int L;

	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE))
		SKIP(return, NO_HMM);
	for (b = 0; b < POD_BUFS; b++) {
		p[b] = mmap(NULL, size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_NE(MAP_FAILED, p[b]);
		ASSERT_EQ(0, place_in(self->d, POD_DEVS,
				      self->d[pod_bufs[b].dev].fd,
				      pod_bufs[b].access, POD_SEED + b, p[b]));
	}
	x = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, x);
	pod_drain(_metadata, self);
	for (i = 0; i < POD_DEVS; i++)
		self->d[i].nevs = 0;

	/* One plane lost: the others serve every pair. */
	ASSERT_EQ(0, pod_fault(self, 0, 0, 0, "down"));
	pod_drain(_metadata, self);
	for (b = 0; b < POD_BUFS; b++) {
		EXPECT_EQ(LNK_PAGES, resident(self->d[pod_bufs[b].dev].fd,
					      p[b])) TH_LOG("buffer %u", b);
	}
	for (i = 0; i < POD_DEVS; i++)
		EXPECT_EQ(0, pod_count(self, i, AMDX_EVENT_ACTION_START));
	EXPECT_EQ(0, place_in(self->d, POD_DEVS, self->d[0].fd,
			      1u << 0 | 1u << 1, POD_SEED + POD_BUFS, x));

	/* Device 1 keeps plane 0 only, device 0 lost it: no way left. */
	for (k = 1; k < POD_PLANES; k++)
		ASSERT_EQ(0, pod_fault(self, 1, 1, k, "down"));
	pod_drain(_metadata, self);
	for (b = 0; b < POD_BUFS; b++) {
		i = pod_bufs[b].dev;
		EXPECT_EQ(pod_bufs[b].crosses ? 0 : LNK_PAGES,
			  resident(self->d[i].fd, p[b])) TH_LOG("buffer %u", b);
		EXPECT_EQ(pod_bufs[b].crosses ? 0 : LNK_PAGES,
			  counted(self->d[i].fd, p[b])) TH_LOG("buffer %u", b);
	}
	EXPECT_EQ(0, resident(self->d[0].fd, x));
	for (i = 0; i < POD_DEVS; i++) {
		for (k = 0, n = 0; k < self->d[i].nevs; k++) {
			e = &self->d[i].evs[k];
			if (e->kind != AMDX_EVENT_ACTION_START &&
			    e->kind != AMDX_EVENT_ACTION_END)
				continue;
			n++;
			EXPECT_EQ(AMDX_ACTION_LINK_MOVE, e->data[0]);
			EXPECT_EQ(self->d[!i].id, e->type);
			EXPECT_GT(POD_LINKS, e->instance);
			if (e->kind == AMDX_EVENT_ACTION_END)
				EXPECT_EQ(0, e->data[1]);
		}
		EXPECT_EQ(i < 2 ? 2 : 0, n) TH_LOG("device %u", i);
		n = pod_count(self, i, AMDX_EVENT_DEVICE_RESET_BEGIN);
		EXPECT_EQ(0, n);
		EXPECT_EQ(0, pod_count(self, i, AMDX_EVENT_RECOVERY));
	}
	q = pod_links(_metadata, self);
	for (i = 0; i < q->num_links; i++) {
		EXPECT_NE(AMDX_LINK_STATE_PARKED, q->links[i].state)
			TH_LOG("link %u", i);
	}
	L = pod_link(q, 0, 0);
	ASSERT_LE(0, L);

	/* Nothing new between 0 and 1; between 0 and 2, yes. */
	memset(&m, 0, sizeof(m));
	m.start = (uintptr_t)p[0];
	m.size = size;
	EXPECT_EQ(-ENOLINK, amdx_ioctl(self->d[0].fd, AMDX_IOC_HMM_MIGRATE,
				       &m));
	EXPECT_EQ(0, m.moved);
	EXPECT_EQ(0, place_in(self->d, POD_DEVS, self->d[0].fd,
			      1u << 0 | 1u << 2, POD_SEED + POD_BUFS, x));

	/* Plane 0 of device 0 back after its hold: the pair has a way. */
	ASSERT_EQ(0, pod_fault(self, 0, 0, 0, "up"));
	ASSERT_TRUE(devs_wait_state(_metadata, self->d, POD_DEVS, 0, L,
				    AMDX_LINK_STATE_UP));
	memset(&m, 0, sizeof(m));
	m.start = (uintptr_t)p[0];
	m.size = size;
	EXPECT_EQ(0, amdx_ioctl(self->d[0].fd, AMDX_IOC_HMM_MIGRATE, &m));
	EXPECT_EQ(LNK_PAGES, m.moved);

	for (b = 0; b < POD_BUFS; b++) {
		EXPECT_EQ(-1, amdx_check(p[b], size, POD_SEED + b))
			TH_LOG("buffer %u", b);
	}
	EXPECT_EQ(-1, amdx_check(x, size, POD_SEED + POD_BUFS));
}

/*
 * The pod divided into virtual pods of 2 (new_device's pod=...,2): this
 * host's devices 0-1 are one, 2-3 another, each remote pair one more.
 * Every accelerator end says its virtual pod (minor 7), a switch none.
 * Remote accelerator 43 losing its planes is parked alone though 42, its
 * only partner, no longer reaches it either; this host's device 3
 * likewise, with its device rung; every other link stays up, untouched.
 * HMM data between devices of two virtual pods has no way at all: a
 * placement in 0's VRAM that 2 accesses is refused with -ENOLINK before
 * any page moves, one that 1 accesses is placed, its checksum held.
 */
TEST_F(pod, virtual_pods_keep_parking_and_data_inside)
{
	size_t size = LNK_PAGES * getpagesize();
	const struct amdx_query_links *q;
	unsigned int i, k, p;
	char *x, buf[64];

	devs_del(self->d, self->n);
	pod_devs_new(_metadata, self, 2);
	q = pod_links(_metadata, self);
	ASSERT_EQ(0, amdx_class_read(self->d[0].id, "links/peer", buf,
				     sizeof(buf)));
	EXPECT_STREQ("sw0 sw1 sw2 sw3\n", buf);
	for (i = 0; i < q->num_links; i++) {
		const struct amdx_link_info *l = &q->links[i];

		EXPECT_EQ(pod_acc(l) / 2 + 1, l->vpod[0]) TH_LOG("link %u", i);
		EXPECT_EQ(0, l->vpod[1]) TH_LOG("link %u", i);
		for (k = 0; k < sizeof(l->reserved); k++)
			EXPECT_EQ(0, l->reserved[k]);
	}

	for (p = 0; p < POD_PLANES; p++)
		ASSERT_EQ(0, pod_fault(self, 0, 43, p, "down"));
	pod_park_device(_metadata, self, 43, 3);
	ASSERT_EQ(0, amdx_class_read(self->d[3].id, "links/state", buf,
				     sizeof(buf)));
	EXPECT_STREQ("parked parked parked parked\n", buf);
	q = pod_links(_metadata, self);
	for (i = 0; i < POD_DEVS; i++)
		expect_sysfs_links(_metadata, self->d[i].id, q);

	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE)) {
		TH_LOG("%s: placement across virtual pods not tried", NO_HMM);
		return;
	}
	x = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, x);
	EXPECT_EQ(-ENOLINK, place_in(self->d, POD_DEVS, self->d[0].fd,
				     1u << 0 | 1u << 2, POD_SEED, x));
	EXPECT_EQ(0, resident(self->d[0].fd, x));
	EXPECT_EQ(0, place_in(self->d, POD_DEVS, self->d[0].fd,
			      1u << 0 | 1u << 1, POD_SEED, x));
	EXPECT_EQ(LNK_PAGES, resident(self->d[0].fd, x));
	EXPECT_EQ(-1, amdx_check(x, size, POD_SEED));
	munmap(x, size);
}

#define ABS_HIVE	"model=mi300x vram=64 hive=11c2"
#define ABS_FLAGS	(AMDX_LINK_F_NO_STATE | AMDX_LINK_F_NO_WIDTH | \
			 AMDX_LINK_F_NO_COUNTERS)

/* What a device without link_width,link_counters cannot report. */
static const char * const abs_faults[] = {
	"replay 100", "ce", "ue", "width 8", "up 8",
};

/*
 * What a provider declares it does not report of its links (new_device's
 * without=link_*, as the amdgpu provider declares what Linux 6.12 lacks;
 * uapi minor 6) is flagged absent on each link with an end on that
 * device, and on no other link; a report of it is refused, never counted.
 */

TEST(absent_is_declared_per_provider)
{
	static const char * const params[] = {
		ABS_HIVE " without=link_width,link_counters",
		ABS_HIVE " without=link_state",
		ABS_HIVE,
	};
	static const __u32 absent[] = {
		AMDX_LINK_F_NO_WIDTH | AMDX_LINK_F_NO_COUNTERS,
		AMDX_LINK_F_NO_STATE,
		0,
	};
	char buf[sizeof(struct amdx_query_links) +
		 3 * sizeof(struct amdx_link_info)];
	struct amdx_query_links *q = (void *)buf;
	__u32 id[3], size = sizeof(buf);
	unsigned int i, a, b;
	char bdf[AMDX_BDF_LEN], cmd[64];
	int ctl, fd;

	ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(ctl, 0);
	if (amdx_provider_is_amdgpu())
		SKIP(return, "the amdgpu provider does not claim %s",
		     amdx_amdgpu_lacks(ABS_HIVE));
	for (i = 0; i < 3; i++) {
		amdx_sim_del(AMDX_SIM_ID_MOD(link, i));
		ASSERT_EQ(0, amdx_sim_new(AMDX_SIM_ID_MOD(link, i), params[i]));
		amdx_sim_bdf(AMDX_SIM_ID_MOD(link, i), bdf, sizeof(bdf));
		ASSERT_EQ(0, amdx_find_device(ctl, bdf, &id[i]));
	}
	/*
	 * What a device declares absent it cannot report: refused with
	 * EOPNOTSUPP, nothing counted; device 1 reports a CE on its link to
	 * device 2, declared, and it counts.
	 */
	for (i = 0; i < ARRAY_SIZE(abs_faults); i++) {
		snprintf(cmd, sizeof(cmd), "%u %u %s",
			 AMDX_SIM_ID_MOD(link, 0), AMDX_SIM_ID_MOD(link, 1),
			 abs_faults[i]);
		EXPECT_EQ(-EOPNOTSUPP, amdx_sysfs_write(LNK_FAULT, cmd))
			TH_LOG("%s", abs_faults[i]);
	}
	snprintf(cmd, sizeof(cmd), "%u %u ce 3", AMDX_SIM_ID_MOD(link, 1),
		 AMDX_SIM_ID_MOD(link, 2));
	EXPECT_EQ(0, amdx_sysfs_write(LNK_FAULT, cmd));
	fd = amdx_device_open(ctl, id[2]);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, amdx_query(fd, AMDX_QUERY_LINKS, 0, q, &size));
	ASSERT_EQ(3, q->num_links);
	for (i = 0; i < q->num_links; i++) {
		const struct amdx_link_info *l = &q->links[i];

		for (a = 0; a < 3 && id[a] != l->device[0]; a++)
			;
		for (b = 0; b < 3 && id[b] != l->device[1]; b++)
			;
		ASSERT_LT(a, 3);
		ASSERT_LT(b, 3);
		EXPECT_EQ(absent[a] | absent[b], l->flags & ABS_FLAGS)
			TH_LOG("link %u: devices %u-%u", i, a, b);
		EXPECT_EQ(AMDX_LINK_STATE_UP, l->state);
		EXPECT_EQ(l->width_max, l->width);
		EXPECT_EQ(a + b == 3 ? 3 : 0, l->ce)
			TH_LOG("link %u: devices %u-%u", i, a, b);
		EXPECT_EQ(0, l->replays);
		EXPECT_EQ(0, l->ue);
		EXPECT_EQ(0, l->width_changes);
	}
	/* sysfs: "-" for what is absent, as the flags say. */
	for (i = 0; i < 3; i++)
		expect_sysfs_links(_metadata, id[i], q);
	ASSERT_EQ(0, amdx_class_read(id[0], "links/ce", cmd, sizeof(cmd)));
	EXPECT_STREQ("- -\n", cmd);
	ASSERT_EQ(0, amdx_class_read(id[2], "links/ce", cmd, sizeof(cmd)));
	EXPECT_STREQ("- 3\n", cmd);
	close(fd);
	for (i = 0; i < 3; i++)
		amdx_sim_del(AMDX_SIM_ID_MOD(link, i));
	close(ctl);
}

/* Bad input: the errno and nothing changed. */
TEST_F(lnk, bad_input)
{
	struct amdx_query_links small;
	const struct amdx_query_links *q;
	__u32 size;

	EXPECT_EQ(-EINVAL, fault(self, 0, 1, "melt"));
	EXPECT_EQ(-EINVAL, fault(self, 0, 1, "width 17"));
	EXPECT_EQ(-EINVAL, fault(self, 0, 1, "width 0"));
	EXPECT_EQ(-EINVAL, fault(self, 0, 1, "flap 0"));
	EXPECT_EQ(-EINVAL, fault(self, 0, 1, "replay 0"));
	EXPECT_EQ(-EINVAL, fault(self, 0, 1, "replay 1 2"));
	EXPECT_EQ(-ENOENT, fault(self, 0, 0, "down"));
	EXPECT_EQ(-EINVAL, amdx_sysfs_write(LNK_FAULT, "x 1 down"));
	/* /dev/amdx has no hive; an id is refused. */
	size = 0;
	EXPECT_EQ(-EINVAL, amdx_query(self->ctl, AMDX_QUERY_LINKS, 0, NULL,
				      &size));
	size = 0;
	EXPECT_EQ(-EINVAL, amdx_query(self->d[0].fd, AMDX_QUERY_LINKS, 1,
				      NULL, &size));
	/* The two-call protocol: the size, then -ENOSPC below it. */
	size = 0;
	EXPECT_EQ(0, amdx_query(self->d[0].fd, AMDX_QUERY_LINKS, 0, NULL,
				&size));
	EXPECT_EQ(sizeof(self->links_buf), size);
	size = sizeof(small);
	EXPECT_EQ(-ENOSPC, amdx_query(self->d[0].fd, AMDX_QUERY_LINKS, 0,
				      &small, &size));
	EXPECT_EQ(sizeof(self->links_buf), size);
	drain(_metadata, self);
	EXPECT_EQ(0, link_events(_metadata, self, 0, -1));
	q = links(_metadata, self);
	untouched(_metadata, q, -1, -1);
}

TEST_HARNESS_MAIN
