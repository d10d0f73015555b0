// SPDX-License-Identifier: GPL-2.0
/*
 * The RAS containment ladder end to end, observed on the event log.
 *
 * Each test creates a simulated MI300X, subscribes to its events, injects
 * errors through AMDX_IOC_RAS_INJECT and checks both the events (kinds,
 * order, partition, payload, gap-free sequence numbers) and the state the
 * queries report afterwards: a CE storm retires one page, a gfx UE in CPX
 * quarantines, resets and restores exactly one partition, the policy's
 * partition reset limit leaves it offline, and a fatal error resets the
 * device; partition switch steps and VF resets are events too, and a RAS
 * reset of a partition bound to a VF tells that VF (VF_RESET, cause RAS).
 * None of this needs HMM, so it runs on every kernel.
 */
#include <poll.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

#define LADDER_MAX_EVENTS	256

FIXTURE(ladder) {
	int ctl;
	int fd;
	int ev;
	__u32 id;
	unsigned int sim_id;
	struct amdx_event evs[LADDER_MAX_EVENTS];
	unsigned int nevs;
};

FIXTURE_SETUP(ladder)
{
	struct amdx_event_subscribe sub = {
		.mask = AMDX_EVENT_MASK_ALL,
		.flags = AMDX_EVENT_F_NONBLOCK,
	};
	char bdf[AMDX_BDF_LEN];

	/* one board per test: the simulator keeps bad-page tables per board */
	self->sim_id = AMDX_SIM_ID_MOD(ladder, _metadata->name[0]);
	self->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->ctl, 0);
	amdx_sim_del(self->sim_id);
	ASSERT_EQ(0, amdx_sim_new(self->sim_id, "model=mi300x vram=512"));
	amdx_sim_bdf(self->sim_id, bdf, sizeof(bdf));
	ASSERT_EQ(0, amdx_find_device(self->ctl, bdf, &self->id));
	self->fd = amdx_device_open(self->ctl, self->id);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, amdx_ioctl(self->fd, AMDX_IOC_EVENT_SUBSCRIBE, &sub));
	self->ev = sub.fd;
	self->nevs = 0;
}

FIXTURE_TEARDOWN(ladder)
{
	close(self->ev);
	close(self->fd);
	amdx_sim_del(self->sim_id);
	close(self->ctl);
}

/* Read every waiting record into self->evs; the seqs must have no gap. */
static void drain(struct __test_metadata *_metadata,
		  FIXTURE_DATA(ladder) *self)
{
	ssize_t n;
	unsigned int i;

	for (;;) {
		n = read(self->ev, &self->evs[self->nevs],
			 (LADDER_MAX_EVENTS - self->nevs) * sizeof(self->evs[0]));
		if (n < 0) {
			ASSERT_EQ(EAGAIN, errno);
			break;
		}
		ASSERT_EQ(0, n % sizeof(self->evs[0]));
		self->nevs += n / sizeof(self->evs[0]);
		ASSERT_LT(self->nevs, LADDER_MAX_EVENTS);
	}
	for (i = 0; i < self->nevs; i++) {
		ASSERT_NE(AMDX_EVENT_LOST, self->evs[i].kind);
		ASSERT_EQ(self->id, self->evs[i].device);
		if (i)
			ASSERT_EQ(self->evs[i - 1].seq + 1, self->evs[i].seq);
	}
}

/* Index of the first event of @kind at or after @from, or -1. */
static int find(FIXTURE_DATA(ladder) *self, unsigned int from, __u16 kind)
{
	unsigned int i;

	for (i = from; i < self->nevs; i++)
		if (self->evs[i].kind == kind)
			return i;
	return -1;
}

static int commit_compute(int fd, __u32 mode)
{
	struct amdx_partition_config c = { .compute_mode = mode };

	return amdx_ioctl(fd, AMDX_IOC_PARTITION_COMMIT, &c);
}

static void partitions(struct __test_metadata *_metadata, int fd,
		       struct amdx_partition_info *out, __u32 *n)
{
	__u64 buf[(sizeof(struct amdx_query_partitions) +
		   AMDX_MAX_PARTITIONS * sizeof(struct amdx_partition_info)) / 8];
	struct amdx_query_partitions *q = (void *)buf;
	__u32 size = sizeof(buf), i;

	ASSERT_EQ(0, amdx_query(fd, AMDX_QUERY_PARTITIONS, 0, q, &size));
	*n = q->num_partitions;
	for (i = 0; i < q->num_partitions; i++)
		memcpy(&out[i], (char *)q->partitions + i * q->entry_size,
		       sizeof(out[i]));
}

TEST_F(ladder, ce_storm_retires_one_page_in_order)
{
	const __u64 addr = 0x123000;
	int e, p, s, r, end;

	ASSERT_EQ(0, amdx_ras_inject(self->fd, AMDX_RAS_BLOCK_UMC, AMDX_RAS_TYPE_CE, 0,
				     49, addr));
	drain(_metadata, self);
	/* below the threshold (50): one error event, nothing else */
	ASSERT_EQ(1, self->nevs);
	EXPECT_EQ(AMDX_EVENT_ERROR, self->evs[0].kind);
	EXPECT_EQ(AMDX_RAS_BLOCK_UMC, self->evs[0].block);
	EXPECT_EQ(AMDX_RAS_TYPE_CE, self->evs[0].type);
	EXPECT_EQ(addr, self->evs[0].address);
	EXPECT_EQ(49, self->evs[0].data[0]);

	ASSERT_EQ(0, amdx_ras_inject(self->fd, AMDX_RAS_BLOCK_UMC, AMDX_RAS_TYPE_CE, 0,
				     1, addr));
	drain(_metadata, self);
	e = find(self, 1, AMDX_EVENT_ERROR);
	p = find(self, 1, AMDX_EVENT_PAGE_PENDING);
	s = find(self, 1, AMDX_EVENT_ACTION_START);
	r = find(self, 1, AMDX_EVENT_PAGE_RETIRED);
	end = find(self, 1, AMDX_EVENT_ACTION_END);
	ASSERT_TRUE(e > 0 && p > e && s > p && r > s && end > r);
	EXPECT_EQ(addr, self->evs[p].address);
	EXPECT_EQ(AMDX_ACTION_SOFT_RETIRE, self->evs[s].data[0]);
	EXPECT_EQ(addr, self->evs[r].address);
	EXPECT_EQ(AMDX_BADPAGE_CAUSE_CE, self->evs[r].data[0]);
	EXPECT_EQ(AMDX_ACTION_SOFT_RETIRE, self->evs[end].data[0]);
	EXPECT_EQ(0, self->evs[end].data[1]);
	EXPECT_GT(self->evs[end].timestamp_ns, self->evs[s].timestamp_ns - 1);

	/* the page is gone: injecting there again is refused */
	EXPECT_EQ(-EINVAL, amdx_ras_inject(self->fd, AMDX_RAS_BLOCK_UMC,
					   AMDX_RAS_TYPE_CE, 0, 1, addr));
}

TEST_F(ladder, gfx_ue_in_cpx_resets_only_its_partition)
{
	struct amdx_partition_info before[AMDX_MAX_PARTITIONS];
	struct amdx_partition_info after[AMDX_MAX_PARTITIONS];
	__u32 nb, na, i;
	int e, s, q, r, end;

	ASSERT_EQ(0, commit_compute(self->fd, AMDX_COMPUTE_CPX));
	partitions(_metadata, self->fd, before, &nb);
	ASSERT_EQ(8, nb);
	drain(_metadata, self);
	self->nevs = 0;

	/* XCC 3 is partition 3 in CPX */
	ASSERT_EQ(0, amdx_ras_inject(self->fd, AMDX_RAS_BLOCK_GFX, AMDX_RAS_TYPE_UE, 3,
				     1, 0));
	drain(_metadata, self);
	e = find(self, 0, AMDX_EVENT_ERROR);
	s = find(self, 0, AMDX_EVENT_ACTION_START);
	q = find(self, 0, AMDX_EVENT_PARTITION_QUARANTINED);
	r = find(self, 0, AMDX_EVENT_PARTITION_RESTORED);
	end = find(self, 0, AMDX_EVENT_ACTION_END);
	ASSERT_TRUE(e >= 0 && s > e && q > s && r > q && end > r);
	EXPECT_EQ(3, self->evs[e].partition);
	EXPECT_EQ(AMDX_ACTION_PARTITION_RESET, self->evs[s].data[0]);
	EXPECT_EQ(3, self->evs[q].partition);
	EXPECT_EQ(3, self->evs[r].partition);
	EXPECT_EQ(0, self->evs[end].data[1]);
	EXPECT_EQ(-1, find(self, 0, AMDX_EVENT_PARTITION_OFFLINE));
	EXPECT_EQ(-1, find(self, 0, AMDX_EVENT_DEVICE_RESET_BEGIN));
	/* no VF is bound to it */
	EXPECT_EQ(-1, find(self, 0, AMDX_EVENT_VF_RESET));

	partitions(_metadata, self->fd, after, &na);
	ASSERT_EQ(nb, na);
	for (i = 0; i < na; i++) {
		EXPECT_EQ(AMDX_PART_STATE_ONLINE, after[i].state);
		EXPECT_EQ(before[i].resets + (i == 3), after[i].resets);
	}
}

TEST_F(ladder, reset_limit_leaves_the_partition_offline)
{
	struct amdx_ras_policy pol = {
		.valid = AMDX_RAS_POL_PART_RESET_LIMIT,
		.part_reset_limit = 2,
	};
	struct amdx_partition_info pi[AMDX_MAX_PARTITIONS];
	__u32 n, i;
	int o, end;

	ASSERT_EQ(0, commit_compute(self->fd, AMDX_COMPUTE_CPX));
	ASSERT_EQ(0, amdx_ioctl(self->fd, AMDX_IOC_RAS_SET_POLICY, &pol));
	drain(_metadata, self);
	self->nevs = 0;

	/* first UE: reset and restored */
	ASSERT_EQ(0, amdx_ras_inject(self->fd, AMDX_RAS_BLOCK_GFX, AMDX_RAS_TYPE_UE, 5,
				     1, 0));
	drain(_metadata, self);
	ASSERT_GE(find(self, 0, AMDX_EVENT_PARTITION_RESTORED), 0);
	ASSERT_EQ(-1, find(self, 0, AMDX_EVENT_PARTITION_OFFLINE));
	self->nevs = 0;

	/* second within the window reaches the limit: offline */
	ASSERT_EQ(0, amdx_ras_inject(self->fd, AMDX_RAS_BLOCK_GFX, AMDX_RAS_TYPE_UE, 5,
				     1, 0));
	drain(_metadata, self);
	o = find(self, 0, AMDX_EVENT_PARTITION_OFFLINE);
	ASSERT_GE(o, 0);
	EXPECT_EQ(5, self->evs[o].partition);
	EXPECT_EQ(-1, find(self, 0, AMDX_EVENT_PARTITION_RESTORED));

	partitions(_metadata, self->fd, pi, &n);
	ASSERT_EQ(8, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(i == 5 ? AMDX_PART_STATE_OFFLINE :
			  AMDX_PART_STATE_ONLINE, pi[i].state);
	self->nevs = 0;

	/* an offline partition is not reset again */
	ASSERT_EQ(0, amdx_ras_inject(self->fd, AMDX_RAS_BLOCK_GFX, AMDX_RAS_TYPE_UE, 5,
				     1, 0));
	drain(_metadata, self);
	end = find(self, 0, AMDX_EVENT_ACTION_END);
	ASSERT_GE(end, 0);
	EXPECT_EQ(-ENODEV, (__s64)self->evs[end].data[1]);
	EXPECT_EQ(-1, find(self, 0, AMDX_EVENT_PARTITION_QUARANTINED));
}

TEST_F(ladder, sdma_ue_maps_to_its_xcc_partition)
{
	int q;

	ASSERT_EQ(0, commit_compute(self->fd, AMDX_COMPUTE_CPX));
	drain(_metadata, self);
	self->nevs = 0;
	/* MI300X: 16 SDMA engines, 2 per XCC: engine 13 serves XCC 6 */
	ASSERT_EQ(0, amdx_ras_inject(self->fd, AMDX_RAS_BLOCK_SDMA, AMDX_RAS_TYPE_UE, 13,
				     1, 0));
	drain(_metadata, self);
	q = find(self, 0, AMDX_EVENT_PARTITION_QUARANTINED);
	ASSERT_GE(q, 0);
	EXPECT_EQ(6, self->evs[q].partition);
}

TEST_F(ladder, fatal_error_resets_the_device_with_events)
{
	int b, end;

	ASSERT_EQ(0, amdx_ras_inject(self->fd, AMDX_RAS_BLOCK_XGMI_WAFL,
				     AMDX_RAS_TYPE_UE, 0, 1, 0));
	drain(_metadata, self);
	b = find(self, 0, AMDX_EVENT_DEVICE_RESET_BEGIN);
	end = find(self, 0, AMDX_EVENT_DEVICE_RESET_END);
	ASSERT_TRUE(b >= 0 && end > b);
	ASSERT_GT(AMDX_MAX_DEVICES, self->id);
	EXPECT_EQ(1ULL << self->id, self->evs[b].data[0]);
	EXPECT_EQ(0, self->evs[end].data[0]);
	EXPECT_EQ(-1, find(self, 0, AMDX_EVENT_PARTITION_QUARANTINED));
}

TEST_F(ladder, partition_switch_steps_are_events)
{
	struct amdx_partition_config c = { .compute_mode = AMDX_COMPUTE_DPX };
	unsigned int i, steps = 0;

	ASSERT_EQ(0, amdx_ioctl(self->fd, AMDX_IOC_PARTITION_COMMIT, &c));
	drain(_metadata, self);
	for (i = 0; i < self->nevs; i++) {
		if (self->evs[i].kind != AMDX_EVENT_PARTITION_SWITCH)
			continue;
		ASSERT_LT(steps, c.num_steps);
		EXPECT_EQ(c.steps[steps].step, self->evs[i].type);
		EXPECT_EQ(0, self->evs[i].data[0]);
		steps++;
	}
	EXPECT_EQ(c.num_steps, steps);
	EXPECT_GE(steps, 4);
}

TEST_F(ladder, vf_resets_are_events_up_to_quarantine)
{
	struct amdx_vf_enable en = { .num_vfs = 1 };
	struct amdx_vf_disable dis = {};
	struct amdx_vf_reset r = { .vf = 0 };
	unsigned int i, n = 0;

	ASSERT_EQ(0, amdx_ioctl(self->fd, AMDX_IOC_VF_ENABLE, &en));
	drain(_metadata, self);
	self->nevs = 0;
	for (i = 0; i < AMDX_VF_RESET_LIMIT; i++)
		ASSERT_EQ(0, amdx_ioctl(self->fd, AMDX_IOC_VF_RESET, &r));
	EXPECT_EQ(-EBUSY, amdx_ioctl(self->fd, AMDX_IOC_VF_RESET, &r));
	drain(_metadata, self);
	for (i = 0; i < self->nevs; i++) {
		if (self->evs[i].kind != AMDX_EVENT_VF_RESET)
			continue;
		EXPECT_EQ(0, self->evs[i].instance);
		EXPECT_EQ(AMDX_VF_RESET_CAUSE_FLR, self->evs[i].type);
		EXPECT_EQ(AMDX_RAS_PARTITION_ALL, self->evs[i].partition);
		EXPECT_EQ(AMDX_VF_RESET_ACKED, self->evs[i].data[0]);
		EXPECT_EQ(n < AMDX_VF_RESET_LIMIT ? AMDX_PART_STATE_ONLINE :
			  AMDX_PART_STATE_QUARANTINED, self->evs[i].data[1]);
		/* the VF held no VRAM */
		EXPECT_EQ(0, self->evs[i].address);
		n++;
	}
	EXPECT_EQ(AMDX_VF_RESET_LIMIT + 1, n);
	EXPECT_EQ(0, amdx_ioctl(self->fd, AMDX_IOC_VF_DISABLE, &dis));
}

TEST_F(ladder, gfx_ue_on_a_vf_partition_resets_that_vf)
{
	struct amdx_partition_info pi[AMDX_MAX_PARTITIONS];
	struct amdx_vf_enable en = { .num_vfs = 2 };
	struct amdx_vf_disable dis = {};
	struct amdx_vf_reset r = { .vf = 1 };
	__u32 n;
	int q, v, rs, end;

	ASSERT_EQ(0, commit_compute(self->fd, AMDX_COMPUTE_CPX));
	/* fair provisioning: VF 0 gets partitions 0, 2, 4, 6; VF 1 the others */
	ASSERT_EQ(0, amdx_ioctl(self->fd, AMDX_IOC_VF_ENABLE, &en));
	partitions(_metadata, self->fd, pi, &n);
	ASSERT_EQ(8, n);
	ASSERT_EQ(1, pi[5].vf);
	ASSERT_EQ(0, pi[4].vf);
	drain(_metadata, self);
	self->nevs = 0;

	/* XCC 5 is partition 5, bound to VF 1 */
	ASSERT_EQ(0, amdx_ras_inject(self->fd, AMDX_RAS_BLOCK_GFX, AMDX_RAS_TYPE_UE, 5,
				     1, 0));
	drain(_metadata, self);
	q = find(self, 0, AMDX_EVENT_PARTITION_QUARANTINED);
	v = find(self, 0, AMDX_EVENT_VF_RESET);
	rs = find(self, 0, AMDX_EVENT_PARTITION_RESTORED);
	end = find(self, 0, AMDX_EVENT_ACTION_END);
	ASSERT_TRUE(q >= 0 && v > q && rs > v && end > rs);
	EXPECT_EQ(1, self->evs[v].instance);
	EXPECT_EQ(AMDX_VF_RESET_CAUSE_RAS, self->evs[v].type);
	EXPECT_EQ(5, self->evs[v].partition);
	EXPECT_EQ(AMDX_VF_RESET_UNANNOUNCED, self->evs[v].data[0]);
	EXPECT_EQ(AMDX_PART_STATE_ONLINE, self->evs[v].data[1]);
	EXPECT_EQ(0, self->evs[v].address);
	EXPECT_EQ(0, self->evs[v].block);
	/* exactly one: VF 0 was not touched */
	EXPECT_EQ(-1, find(self, v + 1, AMDX_EVENT_VF_RESET));
	self->nevs = 0;

	/* the same record layout as an FLR of that VF, cause FLR */
	ASSERT_EQ(0, amdx_ioctl(self->fd, AMDX_IOC_VF_RESET, &r));
	drain(_metadata, self);
	v = find(self, 0, AMDX_EVENT_VF_RESET);
	ASSERT_GE(v, 0);
	EXPECT_EQ(1, self->evs[v].instance);
	EXPECT_EQ(AMDX_VF_RESET_CAUSE_FLR, self->evs[v].type);
	EXPECT_EQ(AMDX_RAS_PARTITION_ALL, self->evs[v].partition);
	EXPECT_EQ(0, amdx_ioctl(self->fd, AMDX_IOC_VF_DISABLE, &dis));
}

TEST_HARNESS_MAIN
