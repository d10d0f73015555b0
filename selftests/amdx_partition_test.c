// SPDX-License-Identifier: GPL-2.0
/*
 * Compute/memory partitions and SR-IOV VFs through the uapi, against
 * simulated devices:
 *
 *  - every compute x memory mode of each model: PLAN and COMMIT agree with
 *    the rules restated here (ANCHORS.md), invalid ones fail with -EINVAL
 *    and the exact reason and change nothing (QUERY_PARTITIONS compared
 *    byte for byte before and after);
 *  - a process with HMM data in VRAM makes a memory-mode change -EBUSY
 *    with itself listed as holder; with AMDX_PART_F_DRAIN the data moves
 *    home intact and the switch commits (skipped without HMM);
 *  - each commit step failed once through amdx_sim's debugfs
 *    fail_partition_step rolls back exactly;
 *  - VF counts per mode, custom provisioning and VF_SET validation with
 *    their errnos, the VF reset rate limit (the 4th reset quarantines),
 *    VF VRAM quotas, an FLR clearing exactly its VF's VRAM (debugfs
 *    vram_data) while other VFs' and the PF's data stay (skipped without
 *    HMM);
 *  - without CAP_SYS_ADMIN changes fail with -EPERM, PLAN and queries work;
 *  - in a hive the memory mode changes hive-wide.
 *
 * Each test creates its amdx_sim devices (ids 400..) and deletes them.
 */
#include <linux/capability.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

#define SIM_ID		AMDX_SIM_ID(partition, 0)
#define SIM_ID2		AMDX_SIM_ID(partition, 1)
#define MIB		(1ULL << 20)
#define HMM_NO_CAP	"no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)"
#define QSIZE		(sizeof(struct amdx_query_partitions) + \
			 AMDX_MAX_PARTITIONS * sizeof(struct amdx_partition_info))

struct dev {
	unsigned int sim;
	__u32 id;
	int fd;
	bool created;
};

struct devs {
	int ctl;
	struct dev d[2];
};

static int devs_setup(struct devs *s)
{
	s->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	s->d[0].fd = -1;
	s->d[1].fd = -1;
	return s->ctl;
}

static void devs_teardown(struct devs *s)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (s->d[i].fd >= 0)
			close(s->d[i].fd);
		if (s->d[i].created)
			amdx_sim_del(s->d[i].sim);
	}
	close(s->ctl);
}

/* Every model (variants below). */
FIXTURE(part)
{
	struct devs s;
};

FIXTURE_SETUP(part)
{
	ASSERT_LE(0, devs_setup(&self->s));
}

FIXTURE_TEARDOWN(part)
{
	devs_teardown(&self->s);
}

/* MI300X only: SR-IOV, HMM data, hives. */
FIXTURE(mi300x)
{
	struct devs s;
};

FIXTURE_SETUP(mi300x)
{
	ASSERT_LE(0, devs_setup(&self->s));
}

FIXTURE_TEARDOWN(mi300x)
{
	devs_teardown(&self->s);
}

/* Create simulated device @sim with @params as d[@i] and open it. */
static int dev_new(int ctl, struct dev *d, unsigned int sim,
		   const char *params)
{
	char bdf[AMDX_BDF_LEN];
	int ret;

	d->sim = sim;
	amdx_sim_del(sim);	/* left behind by a test that timed out */
	ret = amdx_sim_new(sim, params);
	if (ret)
		return ret;
	d->created = true;
	amdx_sim_bdf(sim, bdf, sizeof(bdf));
	ret = amdx_find_device(ctl, bdf, &d->id);
	if (ret)
		return ret;
	d->fd = amdx_device_open(ctl, d->id);
	return d->fd < 0 ? d->fd : 0;
}

#define NEW(i, sim, params) do {						\
	int _r = dev_new(self->s.ctl, &self->s.d[i], sim, params);	\
									\
	AMDX_SKIP_PROVIDER(_r, amdx_amdgpu_lacks(params));		\
	ASSERT_EQ(0, _r);						\
} while (0)
#define NEW_MI300X(i, sim, extra) NEW(i, sim, "model=mi300x " extra)

static int run(int fd, bool commit, struct amdx_partition_config *c)
{
	return amdx_ioctl(fd, commit ? AMDX_IOC_PARTITION_COMMIT :
				       AMDX_IOC_PARTITION_PLAN, c);
}

/* QUERY_PARTITIONS into a zeroed buffer of QSIZE bytes. */
static int query_parts(int fd, void *buf)
{
	__u32 size = QSIZE;

	memset(buf, 0, QSIZE);
	return amdx_query(fd, AMDX_QUERY_PARTITIONS, 0, buf, &size);
}

static int query_vfs(int fd, struct amdx_query_vfs *v)
{
	__u32 size = sizeof(*v) + AMDX_MAX_VFS * sizeof(v->vfs[0]);

	memset(v, 0, size);
	return amdx_query(fd, AMDX_QUERY_VFS, 0, v, &size);
}

#define VFS_SIZE (sizeof(struct amdx_query_vfs) + \
		  AMDX_MAX_VFS * sizeof(struct amdx_vf_info))

static int vf_enable(int fd, __u32 n, struct amdx_vf_config *cfgs,
		     struct amdx_vf_enable *e)
{
	memset(e, 0, sizeof(*e));
	e->num_vfs = n;
	if (cfgs) {
		e->flags = AMDX_VF_ENABLE_F_CUSTOM;
		e->configs = (uintptr_t)cfgs;
		e->config_size = sizeof(*cfgs);
	}
	return amdx_ioctl(fd, AMDX_IOC_VF_ENABLE, e);
}

static int vf_disable(int fd)
{
	struct amdx_vf_disable d = {};

	return amdx_ioctl(fd, AMDX_IOC_VF_DISABLE, &d);
}

static bool have_hmm(int ctl)
{
	return amdx_caps(ctl) & AMDX_CAP_HMM_MIGRATE;
}

/* Skip a test of process data in VRAM where there is none. */
#define HMM_OR_SKIP(ctl) do {						\
	AMDX_SKIP_AMDGPU(AMDX_AMDGPU_NO_HMM);				\
	if (!have_hmm(ctl))						\
		SKIP(return, HMM_NO_CAP);				\
} while (0)

/*
 * The rules, restated from ANCHORS.md independently of the kernel's
 * tables: the reason a model refuses compute/memory mode c/m for.
 */
struct model_rules {
	const char *name;
	__u32 xcc;
	__u32 compute;	/* bit per AMDX_COMPUTE_* */
	__u32 memory;	/* bit per AMDX_MEMORY_* */
	bool sriov;
};

#define C(x) (1U << AMDX_COMPUTE_##x)
#define M(x) (1U << AMDX_MEMORY_##x)

static const struct model_rules rules_mi300x = {
	"mi300x", 8, C(SPX) | C(DPX) | C(QPX) | C(CPX),
	M(NPS1) | M(NPS2) | M(NPS4), true,
};
static const struct model_rules rules_mi300a = {
	"mi300a", 6, C(SPX) | C(TPX) | C(CPX), M(NPS1), false,
};
static const struct model_rules rules_mi308x = {
	"mi308x", 4, C(SPX) | C(DPX) | C(CPX), M(NPS1) | M(NPS4), false,
};

static __u32 nps(__u32 m)
{
	return m == AMDX_MEMORY_NPS1 ? 1 : m == AMDX_MEMORY_NPS2 ? 2 :
	       m == AMDX_MEMORY_NPS4 ? 4 : m == AMDX_MEMORY_NPS8 ? 8 : 0;
}

static __u32 nparts(const struct model_rules *r, __u32 c)
{
	static const __u32 n[] = { 0, 1, 2, 3, 4, 0 };

	return c == AMDX_COMPUTE_CPX ? r->xcc : n[c];
}

static __u32 expected_reason(const struct model_rules *r, __u32 c, __u32 m)
{
	static const __u32 compat[] = {
		[AMDX_COMPUTE_SPX] = M(NPS1),
		[AMDX_COMPUTE_DPX] = M(NPS1) | M(NPS2),
		[AMDX_COMPUTE_TPX] = M(NPS1) | M(NPS4),
		[AMDX_COMPUTE_QPX] = M(NPS1) | M(NPS4),
		[AMDX_COMPUTE_CPX] = M(NPS1) | M(NPS4),
	};

	if (c > AMDX_COMPUTE_CPX || !(r->compute & (1U << c)))
		return AMDX_PART_REASON_COMPUTE_UNSUPPORTED;
	if (m > AMDX_MEMORY_NPS8 || !(r->memory & (1U << m)))
		return AMDX_PART_REASON_MEMORY_UNSUPPORTED;
	if (!(compat[c] & (1U << m)))
		return AMDX_PART_REASON_INCOMPATIBLE;
	if (r->xcc % nparts(r, c) ||
	    (c == AMDX_COMPUTE_CPX && r->xcc % nps(m)))
		return AMDX_PART_REASON_XCC_NOT_DIVISIBLE;
	return AMDX_PART_REASON_NONE;
}

/* VF count @n in mode c/m on MI300X (GIM's tables), 0 if allowed. */
static __u32 expected_vf_reason(__u32 c, __u32 m, __u32 n)
{
	static const __u32 per_compute[] = {
		[AMDX_COMPUTE_SPX] = 1U << 1, [AMDX_COMPUTE_DPX] = 1U << 2,
		[AMDX_COMPUTE_QPX] = 1U << 4,
		[AMDX_COMPUTE_CPX] = (1U << 1) | (1U << 2) | (1U << 4) | (1U << 8),
	};
	static const __u32 per_count[] = {
		[1] = M(NPS1) | M(NPS4), [2] = M(NPS1), [4] = M(NPS1) | M(NPS4),
		[8] = M(NPS1) | M(NPS4),
	};

	if (!(per_compute[c] & (1U << n)))
		return AMDX_PART_REASON_VF_COMPUTE;
	if (!(per_count[n] & (1U << m)))
		return AMDX_PART_REASON_VF_MEMORY;
	return AMDX_PART_REASON_NONE;
}

FIXTURE_VARIANT(part)
{
	const struct model_rules *rules;
};

FIXTURE_VARIANT_ADD(part, mi300x) { .rules = &rules_mi300x };
FIXTURE_VARIANT_ADD(part, mi300a) { .rules = &rules_mi300a };
FIXTURE_VARIANT_ADD(part, mi308x) { .rules = &rules_mi308x };

static void model_params(const struct model_rules *r, const char *extra,
			 char *buf, size_t len)
{
	snprintf(buf, len, "model=%s %s", r->name, extra);
}

#define NEW_MODEL(i, sim, extra)					\
	do {								\
		char _p[96];						\
		model_params(variant->rules, extra, _p, sizeof(_p));	\
		NEW(i, sim, _p);					\
	} while (0)

TEST_F(part, initial_query)
{
	char buf[QSIZE], small[sizeof(struct amdx_query_partitions)];
	struct amdx_query_partitions *q = (void *)buf;
	const struct model_rules *r = variant->rules;
	struct amdx_partition_info *p = q->partitions;
	struct amdx_device_info info;
	__u32 size = 0;

	NEW_MODEL(0, SIM_ID, "vram=256");
	ASSERT_EQ(0, amdx_query(self->s.d[0].fd, AMDX_QUERY_PARTITIONS, 0, NULL,
				&size));
	EXPECT_EQ(sizeof(*q) + sizeof(*p), size);
	size = sizeof(small);
	EXPECT_EQ(-ENOSPC, amdx_query(self->s.d[0].fd, AMDX_QUERY_PARTITIONS, 0,
				      small, &size));
	EXPECT_EQ(sizeof(*q) + sizeof(*p), size);
	/* Not on the control node. */
	size = QSIZE;
	EXPECT_EQ(-EINVAL, amdx_query(self->s.ctl, AMDX_QUERY_PARTITIONS, 0, buf,
				      &size));

	ASSERT_EQ(0, query_parts(self->s.d[0].fd, buf));
	EXPECT_EQ(AMDX_COMPUTE_SPX, q->compute_mode);
	EXPECT_EQ(AMDX_MEMORY_NPS1, q->memory_mode);
	EXPECT_EQ(1, q->num_partitions);
	EXPECT_EQ(sizeof(*p), q->entry_size);
	EXPECT_EQ(0, q->generation);
	EXPECT_EQ(0, p->id);
	EXPECT_EQ(AMDX_PART_STATE_ONLINE, p->state);
	EXPECT_EQ((1U << r->xcc) - 1, p->xcc_mask);
	EXPECT_EQ(AMDX_VF_NONE, p->vf);
	EXPECT_EQ(0, p->vram_base);
	EXPECT_EQ(256 * MIB, p->vram_size);
	ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[0].id, &info));
	EXPECT_EQ((1U << info.num_sdma) - 1, p->sdma_mask);
	EXPECT_EQ((1U << info.num_vcn) - 1, p->vcn_mask);
}

/*
 * Every compute x memory mode (and two bogus values) of the model.  A
 * combination the model allows and the device does not claim (the
 * amdgpu provider claims the current memory mode only: amdgpu switches
 * memory partitions across a reload) is refused by PLAN and COMMIT alike,
 * with the reason, and changes nothing.
 */
TEST_F(part, every_combination)
{
	const struct model_rules *r = variant->rules;
	char before[QSIZE], after[QSIZE];
	struct amdx_query_partitions *q = (void *)after;
	struct amdx_device_info info, claims;
	struct amdx_partition_config c;
	__u32 cm, mm, unclaimed = 0;

	NEW_MODEL(0, SIM_ID, "vram=256");
	ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[0].id, &claims));
	for (cm = AMDX_COMPUTE_SPX; cm <= AMDX_COMPUTE_CPX + 1; cm++) {
		for (mm = AMDX_MEMORY_NPS1; mm <= AMDX_MEMORY_NPS8 + 1; mm++) {
			__u32 want = expected_reason(r, cm, mm);
			int ret;

			if (!want &&
			    !(claims.supported_compute_modes & (1U << cm)))
				want = AMDX_PART_REASON_COMPUTE_UNSUPPORTED;
			else if (!want &&
				 !(claims.supported_memory_modes & (1U << mm)))
				want = AMDX_PART_REASON_MEMORY_UNSUPPORTED;
			unclaimed += want && !expected_reason(r, cm, mm);

			ASSERT_EQ(0, query_parts(self->s.d[0].fd, before));
			memset(&c, 0, sizeof(c));
			c.compute_mode = cm;
			c.memory_mode = mm;
			ASSERT_EQ(0, run(self->s.d[0].fd, false, &c));
			EXPECT_EQ(want, c.reason) TH_LOG("%u/%u", cm, mm);
			EXPECT_EQ(!want, c.allowed) TH_LOG("%u/%u", cm, mm);

			ret = amdx_commit_modes(self->s.d[0].fd, cm, mm, 0, &c);
			ASSERT_EQ(0, query_parts(self->s.d[0].fd, after));
			if (want) {
				EXPECT_EQ(-EINVAL, ret) TH_LOG("%u/%u", cm, mm);
				EXPECT_EQ(want, c.reason);
				EXPECT_EQ(AMDX_PART_OUTCOME_NONE, c.outcome);
				EXPECT_EQ(0, c.num_steps);
				EXPECT_EQ(0, memcmp(before, after, QSIZE));
				continue;
			}
			EXPECT_EQ(0, ret) TH_LOG("%u/%u", cm, mm);
			EXPECT_EQ(cm, q->compute_mode);
			EXPECT_EQ(mm, q->memory_mode);
			EXPECT_EQ(nparts(r, cm), q->num_partitions);
			EXPECT_EQ(nparts(r, cm), c.num_partitions);
			EXPECT_EQ(256 * MIB / nps(mm),
				  q->partitions[q->num_partitions - 1].vram_size);
			ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[0].id,
						      &info));
			EXPECT_EQ(cm, info.compute_mode);
			EXPECT_EQ(mm, info.memory_mode);
			EXPECT_EQ(nps(mm), info.num_mem_partitions);
		}
	}
	if (unclaimed)
		TH_LOG("%u combinations the model allows are not claimed, refused",
		       unclaimed);
}

TEST_F(part, commit_result_and_unchanged)
{
	struct amdx_partition_info topo[AMDX_MAX_PARTITIONS];
	char buf[QSIZE];
	struct amdx_query_partitions *q = (void *)buf;
	struct amdx_partition_config c = {
		.compute_mode = AMDX_COMPUTE_CPX,
		.topology = (uintptr_t)topo,
	};
	__u32 i, n = variant->rules->xcc;

	NEW_MODEL(0, SIM_ID, "vram=256");
	memset(topo, 0xff, sizeof(topo));
	ASSERT_EQ(0, run(self->s.d[0].fd, false, &c));
	EXPECT_EQ(1, c.allowed);
	EXPECT_EQ(n, c.num_partitions);
	EXPECT_EQ(1, c.num_devices);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(i, topo[i].id);
		EXPECT_EQ(1U << i, topo[i].xcc_mask);
		EXPECT_EQ(AMDX_PART_STATE_ONLINE, topo[i].state);
	}
	ASSERT_EQ(0, run(self->s.d[0].fd, true, &c));
	EXPECT_EQ(AMDX_PART_OUTCOME_COMMITTED, c.outcome);
	/* Compute only: VALIDATE QUIESCE COMPUTE REBUILD RESUME. */
	ASSERT_EQ(5, c.num_steps);
	EXPECT_EQ(AMDX_PART_STEP_VALIDATE, c.steps[0].step);
	EXPECT_EQ(AMDX_PART_STEP_COMPUTE, c.steps[2].step);
	EXPECT_EQ(AMDX_PART_STEP_RESUME, c.steps[4].step);
	EXPECT_EQ(0, c.failed_step);
	ASSERT_EQ(0, query_parts(self->s.d[0].fd, buf));
	EXPECT_EQ(1, q->generation);
	EXPECT_EQ(0, memcmp(topo, q->partitions, n * sizeof(topo[0])));

	ASSERT_EQ(0, run(self->s.d[0].fd, true, &c));
	EXPECT_EQ(AMDX_PART_OUTCOME_UNCHANGED, c.outcome);
	EXPECT_EQ(0, c.num_steps);
	ASSERT_EQ(0, query_parts(self->s.d[0].fd, buf));
	EXPECT_EQ(1, q->generation);

	c = (struct amdx_partition_config){ .flags = 2 };
	EXPECT_EQ(-EINVAL, run(self->s.d[0].fd, false, &c));
	c = (struct amdx_partition_config){ .pad = 1 };
	EXPECT_EQ(-EINVAL, run(self->s.d[0].fd, true, &c));
	c = (struct amdx_partition_config){ .max_holders = 1 };
	EXPECT_EQ(-EINVAL, run(self->s.d[0].fd, true, &c));
}

/* Each step fails once (debugfs) and the commit rolls back exactly. */
TEST_F(mi300x, injected_step_failure_rolls_back)
{
	char before[QSIZE], after[QSIZE];
	struct amdx_device_info i0, i1;
	struct amdx_partition_config c;
	__u32 step;

	AMDX_SKIP_AMDGPU("amdx_sim's fail_partition_step knob");

	NEW_MI300X(0, SIM_ID, "vram=256");
	for (step = AMDX_PART_STEP_VALIDATE; step <= AMDX_PART_STEP_MAX;
	     step++) {
		ASSERT_EQ(0, query_parts(self->s.d[0].fd, before));
		ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[0].id, &i0));
		ASSERT_EQ(0, amdx_sim_knob(SIM_ID, "fail_partition_step", step));
		EXPECT_EQ(-EIO, amdx_commit_modes(self->s.d[0].fd,
						  AMDX_COMPUTE_CPX,
						  AMDX_MEMORY_NPS4,
						  AMDX_PART_F_DRAIN, &c));
		EXPECT_EQ(AMDX_PART_OUTCOME_ROLLED_BACK, c.outcome);
		EXPECT_EQ(step, c.failed_step);
		ASSERT_EQ(step, c.num_steps);
		EXPECT_EQ(step, c.steps[step - 1].step);
		EXPECT_EQ(-EIO, c.steps[step - 1].error);
		EXPECT_EQ(0, amdx_sim_knob_read(SIM_ID, "fail_partition_step"));
		ASSERT_EQ(0, query_parts(self->s.d[0].fd, after));
		EXPECT_EQ(0, memcmp(before, after, QSIZE)) TH_LOG("step %u",
								  step);
		ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[0].id, &i1));
		EXPECT_EQ(i0.compute_mode, i1.compute_mode);
		EXPECT_EQ(i0.memory_mode, i1.memory_mode);
		EXPECT_EQ(i0.num_mem_partitions, i1.num_mem_partitions);
	}
	EXPECT_EQ(0, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_CPX,
				       AMDX_MEMORY_NPS4, AMDX_PART_F_DRAIN,
				       &c));
	EXPECT_EQ(AMDX_PART_OUTCOME_COMMITTED, c.outcome);
	EXPECT_EQ(AMDX_PART_STEP_MAX, c.num_steps);
}

/*
 * The device reports another compute mode than amdx last set (changed
 * behind its back, as by a write to amdgpu's current_compute_partition):
 * COMMIT's VALIDATE fails with -EIO before anything changed; once the
 * device agrees again, the same COMMIT goes through.
 */
TEST_F(mi300x, commit_refuses_a_mode_changed_behind_its_back)
{
	char before[QSIZE], after[QSIZE];
	struct amdx_partition_config c;

	AMDX_SKIP_AMDGPU("amdx_sim's reported_compute_mode knob");

	NEW_MI300X(0, SIM_ID, "vram=256");
	ASSERT_EQ(0, query_parts(self->s.d[0].fd, before));
	ASSERT_EQ(0, amdx_sim_knob(SIM_ID, "reported_compute_mode",
				   AMDX_COMPUTE_DPX));
	EXPECT_EQ(-EIO, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_QPX, 0,
					  0, &c));
	EXPECT_EQ(AMDX_PART_OUTCOME_ROLLED_BACK, c.outcome);
	EXPECT_EQ(AMDX_PART_STEP_VALIDATE, c.failed_step);
	ASSERT_EQ(0, amdx_sim_knob(SIM_ID, "reported_compute_mode", 0));
	ASSERT_EQ(0, query_parts(self->s.d[0].fd, after));
	EXPECT_EQ(0, memcmp(before, after, QSIZE));
	EXPECT_EQ(0, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_QPX, 0, 0,
				       &c));
	EXPECT_EQ(AMDX_PART_OUTCOME_COMMITTED, c.outcome);
}

/*
 * Child of kfd_process_anywhere_makes_a_switch_busy(): opens /dev/kfd
 * itself (the KFD's process is its mm's: an open inherited across exec
 * would die with the old mm), writes the open's 0 or -errno to @ready,
 * holds it until @release is closed, then exits, which ends the KFD's
 * process with its mm.
 */
static int kfd_holder(int ready, int release)
{
	int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	int ret = fd < 0 ? -errno : 0;
	char c;

	if (write(ready, &ret, sizeof(ret)) != sizeof(ret))
		return 1;
	while (read(release, &c, 1) < 0 && errno == EINTR)
		;
	return 0;
}

/*
 * Against the amdgpu provider with the KFD up (fakes made with kfd=1):
 * amdgpu's partition switch locks the KFD first
 * (kgd2kfd_check_and_lock_kfd()), which is -EBUSY while the KFD's global
 * process table holds any process, one with no GPU of its own and none
 * of this device among them.  The COMMIT fails in its compute step with
 * -EBUSY and is rolled back, the partitions as before; once the process
 * is gone the same COMMIT switches.  amdx_sim has no KFD: skipped.
 */
TEST_F(mi300x, kfd_process_anywhere_makes_a_switch_busy)
{
	const char *fake = getenv("AMDX_TEST_AMDGPU_FAKE");
	char before[QSIZE], after[QSIZE];
	struct amdx_partition_config c;
	int ready[2], release[2];
	int ret, status, i;
	pid_t pid;

	if (!amdx_provider_is_amdgpu())
		SKIP(return, "amdgpu's KFD only: amdx_sim has none");
	if (!fake || !strstr(fake, "kfd=1"))
		SKIP(return, "the fakes' KFD is down (AMDX_TEST_AMDGPU_FAKE without kfd=1)");
	if (access("/dev/kfd", R_OK | W_OK))
		SKIP(return, "no /dev/kfd: amdgpu's KFD is not initialised");

	NEW_MI300X(0, SIM_ID, "vram=256");
	ASSERT_EQ(0, query_parts(self->s.d[0].fd, before));
	ASSERT_EQ(0, pipe2(ready, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(release, O_CLOEXEC));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(ready[0]);
		close(release[1]);
		_exit(kfd_holder(ready[1], release[0]));
	}
	close(ready[1]);
	close(release[0]);
	ASSERT_EQ(sizeof(ret), read(ready[0], &ret, sizeof(ret)));
	close(ready[0]);
	EXPECT_EQ(0, ret);

	EXPECT_EQ(-EBUSY, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_CPX,
					    0, 0, &c));
	EXPECT_EQ(AMDX_PART_OUTCOME_ROLLED_BACK, c.outcome);
	EXPECT_EQ(AMDX_PART_STEP_COMPUTE, c.failed_step);
	ASSERT_EQ(0, query_parts(self->s.d[0].fd, after));
	EXPECT_EQ(0, memcmp(before, after, QSIZE));

	close(release[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	/*
	 * The KFD drops the process when its mm goes (its MMU notifier's
	 * release); another holder of the mm may delay that past the exit:
	 * bounded by tries, not by time.
	 */
	for (i = 0; i < 100; i++) {
		ret = amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_CPX, 0, 0,
					&c);
		if (ret != -EBUSY)
			break;
		usleep(100 * 1000);
	}
	EXPECT_EQ(0, ret);
	EXPECT_EQ(AMDX_PART_OUTCOME_COMMITTED, c.outcome);
}

/* Drop CAP_SYS_ADMIN from the effective set. */
static int drop_sys_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -errno;
	d[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

/* Child: each check sets one bit of the exit status when it fails. */
static int unprivileged_checks(int ctl, int fd, __u32 id)
{
	struct amdx_partition_config c = {
		.compute_mode = AMDX_COMPUTE_CPX,
	};
	struct amdx_device_open o = {
		.id = id, .flags = AMDX_DEVICE_OPEN_F_VF,
	};
	struct amdx_vf_enable e = { .num_vfs = 1 };
	struct amdx_vf_disable dis = {};
	struct amdx_vf_set set = { .valid = AMDX_VF_SET_PRIORITY };
	struct amdx_vf_reset rst = {};
	char buf[QSIZE];
	int bad = 0;

	if (drop_sys_admin())
		return 0x80;
	if (run(fd, false, &c) || !c.allowed)
		bad |= 0x01;
	if (query_parts(fd, buf))
		bad |= 0x02;
	if (run(fd, true, &c) != -EPERM)
		bad |= 0x04;
	if (amdx_ioctl(fd, AMDX_IOC_VF_ENABLE, &e) != -EPERM ||
	    amdx_ioctl(fd, AMDX_IOC_VF_DISABLE, &dis) != -EPERM)
		bad |= 0x08;
	if (amdx_ioctl(fd, AMDX_IOC_VF_SET, &set) != -EPERM ||
	    amdx_ioctl(fd, AMDX_IOC_VF_RESET, &rst) != -EPERM)
		bad |= 0x10;
	if (amdx_ioctl(ctl, AMDX_IOC_DEVICE_OPEN, &o) != -EPERM)
		bad |= 0x20;
	return bad;
}

TEST_F(mi300x, unprivileged_may_plan_and_query_only)
{
	char before[QSIZE], after[QSIZE];
	int status;
	pid_t pid;

	NEW_MI300X(0, SIM_ID, "vram=256");
	ASSERT_EQ(0, query_parts(self->s.d[0].fd, before));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(unprivileged_checks(self->s.ctl, self->s.d[0].fd,
					  self->s.d[0].id));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, query_parts(self->s.d[0].fd, after));
	EXPECT_EQ(0, memcmp(before, after, QSIZE));
}

/* A buffer of @npages with a pattern, a range, migrated to partition 0. */
static char *to_vram(struct __test_metadata *_metadata, int fd,
		     unsigned long npages, __u32 dest,
		     struct amdx_hmm_migrate *m)
{
	size_t size = npages * sysconf(_SC_PAGESIZE);
	struct amdx_hmm_attr a = {
		.valid = AMDX_HMM_ATTR_PREFERRED_LOC,
		.preferred_loc = dest,
	};
	unsigned long i;
	char *buf;

	buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return NULL;
	for (i = 0; i < size; i++)
		buf[i] = (char)(i * 7 + 3);
	a.start = (uintptr_t)buf;
	a.size = size;
	if (amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a))
		return NULL;
	memset(m, 0, sizeof(*m));
	m->start = (uintptr_t)buf;
	m->size = size;
	m->dest = dest;
	if (amdx_ioctl(fd, AMDX_IOC_HMM_MIGRATE, m))
		return NULL;
	return buf;
}

static bool intact(const char *buf, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		if (buf[i] != (char)(i * 7 + 3))
			return false;
	return true;
}

#define NPAGES 64

TEST_F(mi300x, holders_busy_then_drain)
{
	struct amdx_partition_holder h[4];
	size_t size = NPAGES * sysconf(_SC_PAGESIZE);
	char before[QSIZE], after[QSIZE], comm[16] = "";
	struct amdx_partition_config c;
	struct amdx_device_info info;
	struct amdx_event_subscribe sub = {
		.mask = 1ULL << AMDX_EVENT_DRAINED,
		.flags = AMDX_EVENT_F_NONBLOCK,
	};
	struct amdx_hmm_migrate m;
	struct amdx_event ev;
	char *buf;

	HMM_OR_SKIP(self->s.ctl);
	NEW_MI300X(0, SIM_ID, "vram=256");
	buf = to_vram(_metadata, self->s.d[0].fd, NPAGES, 0, &m);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(NPAGES, m.moved);

	/* Compute only: the data stays in VRAM, no holders. */
	ASSERT_EQ(0, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_CPX, 0, 0,
				       &c));
	EXPECT_EQ(0, c.num_holders);
	ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[0].id, &info));
	EXPECT_EQ(256 * MIB - size, info.vram_free);

	ASSERT_EQ(0, query_parts(self->s.d[0].fd, before));
	memset(&c, 0, sizeof(c));
	memset(h, 0, sizeof(h));
	c.memory_mode = AMDX_MEMORY_NPS4;
	c.holders = (uintptr_t)h;
	c.max_holders = 4;
	ASSERT_EQ(0, run(self->s.d[0].fd, false, &c));
	EXPECT_EQ(0, c.allowed);
	EXPECT_EQ(AMDX_PART_REASON_BUSY, c.reason);
	EXPECT_EQ(1, c.num_holders);
	EXPECT_EQ(-EBUSY, run(self->s.d[0].fd, true, &c));
	EXPECT_EQ(AMDX_PART_REASON_BUSY, c.reason);
	EXPECT_EQ(AMDX_PART_OUTCOME_NONE, c.outcome);
	ASSERT_EQ(1, c.num_holders);
	EXPECT_EQ(getpid(), h[0].pid);
	EXPECT_EQ(0, h[0].mem_partition);
	EXPECT_EQ(NPAGES, h[0].pages);
	ASSERT_EQ(0, prctl(PR_GET_NAME, comm));
	EXPECT_STREQ(comm, (char *)h[0].comm);
	ASSERT_EQ(0, query_parts(self->s.d[0].fd, after));
	EXPECT_EQ(0, memcmp(before, after, QSIZE));

	/* PLAN with a drain is allowed; COMMIT drains and switches. */
	c.flags = AMDX_PART_F_DRAIN;
	ASSERT_EQ(0, run(self->s.d[0].fd, false, &c));
	EXPECT_EQ(1, c.allowed);
	EXPECT_EQ(1, c.num_holders);
	ASSERT_EQ(0, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_EVENT_SUBSCRIBE, &sub));
	ASSERT_EQ(0, run(self->s.d[0].fd, true, &c));
	/* the holder is told, with its pid and the pages it had there */
	for (;;) {
		ASSERT_EQ(sizeof(ev), read(sub.fd, &ev, sizeof(ev)));
		if (ev.kind == AMDX_EVENT_DRAINED)
			break;
	}
	EXPECT_EQ(getpid(), ev.data[0]);
	EXPECT_EQ(NPAGES, ev.data[1]);
	EXPECT_EQ(0, ev.partition);
	close(sub.fd);
	EXPECT_EQ(AMDX_PART_OUTCOME_COMMITTED, c.outcome);
	ASSERT_EQ(AMDX_PART_STEP_MAX - 1, c.num_steps);
	EXPECT_EQ(AMDX_PART_STEP_DRAIN, c.steps[2].step);
	EXPECT_EQ(0, c.steps[2].error);
	ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[0].id, &info));
	EXPECT_EQ(AMDX_MEMORY_NPS4, info.memory_mode);
	EXPECT_EQ(256 * MIB, info.vram_free);
	EXPECT_TRUE(intact(buf, size));
	munmap(buf, size);
}

/*
 * A child holding one page of VRAM through a device fd of its own, until
 * @hold's write end closes; tells @ready 'y' once it holds it, 'n' if not.
 */
static void drain_holder(int ctl, __u32 id, int ready, int hold)
{
	size_t ps = sysconf(_SC_PAGESIZE);
	struct amdx_hmm_attr a = {
		.valid = AMDX_HMM_ATTR_PREFERRED_LOC, .preferred_loc = 0,
	};
	struct amdx_hmm_migrate m = { .dest = 0 };
	char ok = 'n', c;
	char *buf;
	int fd;

	fd = amdx_device_open(ctl, id);
	buf = mmap(NULL, ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fd >= 0 && buf != MAP_FAILED) {
		memset(buf, 0x5a, ps);
		a.start = (uintptr_t)buf;
		a.size = ps;
		m.start = a.start;
		m.size = a.size;
		if (!amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a) &&
		    !amdx_ioctl(fd, AMDX_IOC_HMM_MIGRATE, &m) && m.moved == 1)
			ok = 'y';
	}
	if (write(ready, &ok, 1) != 1)
		_exit(1);
	while (read(hold, &c, 1) > 0)
		;
	_exit(ok == 'y' && buf[ps - 1] == 0x5a ? 0 : 1);
}

#define DRAIN_HOLDERS	80

/*
 * Every process whose data a drain moves home is told, however many: 80
 * processes with a page each in partition 0, then NPS4 with a drain, one
 * DRAINED event for each (the drain used to tell the first 64 only).
 */
TEST_F_TIMEOUT(mi300x, drain_tells_every_holder, 180)
{
	struct amdx_event_subscribe sub = {
		.mask = 1ULL << AMDX_EVENT_DRAINED,
		.flags = AMDX_EVENT_F_NONBLOCK,
	};
	struct amdx_partition_config c = {
		.compute_mode = AMDX_COMPUTE_CPX,
		.memory_mode = AMDX_MEMORY_NPS4, .flags = AMDX_PART_F_DRAIN,
	};
	pid_t pids[DRAIN_HOLDERS];
	bool told[DRAIN_HOLDERS] = {};
	int ready[2], hold[2], i, n = 0, status;
	struct amdx_event ev;
	char r;

	HMM_OR_SKIP(self->s.ctl);
	NEW_MI300X(0, SIM_ID, "vram=256");
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(hold));
	for (i = 0; i < DRAIN_HOLDERS; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i]) {
			close(ready[0]);
			close(hold[1]);
			drain_holder(self->s.ctl, self->s.d[0].id, ready[1],
				     hold[0]);
		}
	}
	close(ready[1]);
	close(hold[0]);
	for (i = 0; i < DRAIN_HOLDERS; i++) {
		ASSERT_EQ(1, read(ready[0], &r, 1));
		EXPECT_EQ('y', r);
	}

	ASSERT_EQ(0, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_EVENT_SUBSCRIBE, &sub));
	ASSERT_EQ(0, run(self->s.d[0].fd, true, &c));
	EXPECT_EQ(AMDX_PART_OUTCOME_COMMITTED, c.outcome);
	while (read(sub.fd, &ev, sizeof(ev)) == sizeof(ev)) {
		if (ev.kind != AMDX_EVENT_DRAINED)
			continue;
		for (i = 0; i < DRAIN_HOLDERS; i++)
			if (pids[i] == (pid_t)ev.data[0] && !told[i]) {
				told[i] = true;
				EXPECT_EQ(1, ev.data[1]);
				EXPECT_EQ(0, ev.partition);
				n++;
			}
	}
	close(sub.fd);
	EXPECT_EQ(DRAIN_HOLDERS, n);

	/* The children read their data back from system memory. */
	close(hold[1]);
	for (i = 0; i < DRAIN_HOLDERS; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
	close(ready[0]);
}

/*
 * A full memory partition makes room from its own data only.  In NPS2 of
 * 64 MiB (two partitions of 32 MiB), the least recently used range sits
 * in partition 1; migrating into a full partition 0 must evict the range
 * there, never the older one in partition 1, which frees nothing in 0.
 */
TEST_F_TIMEOUT(mi300x, eviction_stays_in_the_full_partition, 120)
{
	const unsigned long old_pages = 2048, a_pages = 6144, b_pages = 4096;
	struct amdx_partition_config c;
	struct amdx_hmm_migrate m;
	char *old, *a, *b;

	HMM_OR_SKIP(self->s.ctl);
	NEW_MI300X(0, SIM_ID, "vram=64");
	ASSERT_EQ(0, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_DPX,
				       AMDX_MEMORY_NPS2, 0, &c));
	/* used least recently, in partition 1 */
	old = to_vram(_metadata, self->s.d[0].fd, old_pages, 1, &m);
	ASSERT_NE(NULL, old);
	ASSERT_EQ(old_pages, m.moved);
	/* 24 of partition 0's 32 MiB, then 16 more: partition 0 is full */
	a = to_vram(_metadata, self->s.d[0].fd, a_pages, 0, &m);
	ASSERT_NE(NULL, a);
	ASSERT_EQ(a_pages, m.moved);
	b = to_vram(_metadata, self->s.d[0].fd, b_pages, 0, &m);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(b_pages, m.moved);
	EXPECT_EQ(0, m.skipped);

	/* partition 1's data never moved: all of it is still there */
	memset(&m, 0, sizeof(m));
	m.start = (uintptr_t)old;
	m.size = old_pages * sysconf(_SC_PAGESIZE);
	m.dest = 1;
	ASSERT_EQ(0, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_HMM_MIGRATE, &m));
	EXPECT_EQ(old_pages, m.already);
	EXPECT_EQ(0, m.moved);
	/* and the range evicted for room was partition 0's */
	memset(&m, 0, sizeof(m));
	m.start = (uintptr_t)a;
	m.size = a_pages * sysconf(_SC_PAGESIZE);
	m.dest = 0;
	ASSERT_EQ(0, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_HMM_MIGRATE, &m));
	EXPECT_GT(m.moved + m.skipped, 0);
	EXPECT_TRUE(intact(old, old_pages * sysconf(_SC_PAGESIZE)));
	EXPECT_TRUE(intact(a, a_pages * sysconf(_SC_PAGESIZE)));
	EXPECT_TRUE(intact(b, b_pages * sysconf(_SC_PAGESIZE)));
	munmap(old, old_pages * sysconf(_SC_PAGESIZE));
	munmap(a, a_pages * sysconf(_SC_PAGESIZE));
	munmap(b, b_pages * sysconf(_SC_PAGESIZE));
}

/*
 * A drain that misses its deadline aborts the switch cleanly.  The
 * deadline is checked before each memory partition: with 1 ms and 8192
 * pages to move out of partition 0 of NPS4 (at least 2 ms even at 250 ns
 * per page, far more under emulation), the check before partition 1 fails
 * whatever the machine's speed.
 */
TEST_F(mi300x, drain_deadline_aborts_cleanly)
{
	const unsigned long npages = 8192;
	size_t size = npages * sysconf(_SC_PAGESIZE);
	char before[QSIZE], after[QSIZE];
	struct amdx_partition_config c;
	struct amdx_device_info info;
	struct amdx_hmm_migrate m;
	char *buf;

	HMM_OR_SKIP(self->s.ctl);
	NEW_MI300X(0, SIM_ID, "vram=256");
	ASSERT_EQ(0, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_CPX,
				       AMDX_MEMORY_NPS4, 0, &c));
	buf = to_vram(_metadata, self->s.d[0].fd, npages, 0, &m);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(npages, m.moved);
	ASSERT_EQ(0, query_parts(self->s.d[0].fd, before));

	memset(&c, 0, sizeof(c));
	c.memory_mode = AMDX_MEMORY_NPS1;
	c.flags = AMDX_PART_F_DRAIN;
	c.deadline_ms = 1;
	EXPECT_EQ(-ETIMEDOUT, run(self->s.d[0].fd, true, &c));
	EXPECT_EQ(AMDX_PART_OUTCOME_ROLLED_BACK, c.outcome);
	EXPECT_EQ(AMDX_PART_STEP_DRAIN, c.failed_step);
	ASSERT_GE(c.num_steps, 1);
	EXPECT_EQ(-ETIMEDOUT, c.steps[c.num_steps - 1].error);

	ASSERT_EQ(0, query_parts(self->s.d[0].fd, after));
	EXPECT_EQ(0, memcmp(before, after, QSIZE));
	ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[0].id, &info));
	EXPECT_EQ(AMDX_MEMORY_NPS4, info.memory_mode);
	EXPECT_TRUE(intact(buf, size));
	munmap(buf, size);
}

TEST_F(part, vf_counts_per_mode)
{
	static const __u32 modes[][2] = {
		{ AMDX_COMPUTE_SPX, AMDX_MEMORY_NPS1 },
		{ AMDX_COMPUTE_DPX, AMDX_MEMORY_NPS1 },
		{ AMDX_COMPUTE_DPX, AMDX_MEMORY_NPS2 },
		{ AMDX_COMPUTE_QPX, AMDX_MEMORY_NPS1 },
		{ AMDX_COMPUTE_QPX, AMDX_MEMORY_NPS4 },
		{ AMDX_COMPUTE_CPX, AMDX_MEMORY_NPS1 },
		{ AMDX_COMPUTE_CPX, AMDX_MEMORY_NPS4 },
	};
	char vbuf[VFS_SIZE], pbuf[QSIZE];
	struct amdx_query_vfs *v = (void *)vbuf;
	struct amdx_query_partitions *q = (void *)pbuf;
	struct amdx_partition_config c;
	struct amdx_vf_enable e;
	__u32 i, n, k, other;

	AMDX_SKIP_AMDGPU(AMDX_AMDGPU_NO_SRIOV);
	if (!variant->rules->sriov) {
		NEW_MODEL(0, SIM_ID, "vram=256");
		EXPECT_EQ(-EINVAL, vf_enable(self->s.d[0].fd, 1, NULL, &e));
		EXPECT_EQ(AMDX_PART_REASON_VF_UNSUPPORTED, e.reason);
		EXPECT_EQ(AMDX_VF_NONE, e.bad_vf);
		return;
	}
	NEW_MODEL(0, SIM_ID, "vram=2048");
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		ASSERT_EQ(0, amdx_commit_modes(self->s.d[0].fd, modes[i][0],
					       modes[i][1], 0, &c));
		for (n = 1; n <= AMDX_MAX_VFS; n++) {
			__u32 want = expected_vf_reason(modes[i][0],
							modes[i][1], n);
			int ret = vf_enable(self->s.d[0].fd, n, NULL, &e);

			if (want) {
				EXPECT_EQ(-EINVAL, ret) TH_LOG("mode %u n %u",
							       i, n);
				EXPECT_EQ(want, e.reason);
				continue;
			}
			ASSERT_EQ(0, ret) TH_LOG("mode %u n %u", i, n);
			ASSERT_EQ(0, query_vfs(self->s.d[0].fd, v));
			EXPECT_EQ(n, v->num_vfs);
			EXPECT_EQ(8, v->max_vfs);
			ASSERT_EQ(0, query_parts(self->s.d[0].fd, pbuf));
			for (k = 0; k < n; k++) {
				EXPECT_EQ(2048 * MIB / n / (16 * MIB) * 16 * MIB,
					  v->vfs[k].config.vram_quota);
				EXPECT_EQ(AMDX_VF_TIME_SLICE_DEFAULT_US,
					  v->vfs[k].config.time_slice_us);
				EXPECT_EQ(AMDX_VF_PRIO_NORMAL,
					  v->vfs[k].config.priority);
				EXPECT_EQ(AMDX_PART_STATE_ONLINE,
					  v->vfs[k].state);
			}
			/* Round robin binding. */
			for (k = 0; k < q->num_partitions; k++)
				EXPECT_EQ(k % n, q->partitions[k].vf);
			/* No mode change while VFs are up. */
			other = modes[i][0] == AMDX_COMPUTE_SPX ?
				AMDX_COMPUTE_CPX : AMDX_COMPUTE_SPX;
			EXPECT_EQ(-EINVAL,
				  amdx_commit_modes(self->s.d[0].fd, other,
						    AMDX_MEMORY_NPS1, 0, &c));
			EXPECT_EQ(AMDX_PART_REASON_VFS_ENABLED, c.reason);
			EXPECT_EQ(-EINVAL, vf_enable(self->s.d[0].fd, n, NULL, &e));
			EXPECT_EQ(AMDX_PART_REASON_VFS_ENABLED, e.reason);
			ASSERT_EQ(0, vf_disable(self->s.d[0].fd));
		}
	}
	EXPECT_EQ(-EINVAL, vf_disable(self->s.d[0].fd));
}

/* Migrations back and forth until told to stop. */
struct churn {
	int fd;
	char *buf;
	size_t size;
	volatile int stop;
	volatile unsigned long rounds;
	int errors;
};

static void *churn_thread(void *arg)
{
	struct churn *c = arg;

	while (!c->stop) {
		struct amdx_hmm_migrate m = {
			.start = (uintptr_t)c->buf,
			.size = c->size,
			.dest = c->rounds % 2 ? AMDX_HMM_LOC_SYSTEM : 0,
		};

		if (amdx_ioctl(c->fd, AMDX_IOC_HMM_MIGRATE, &m))
			c->errors++;
		c->rounds++;
	}
	return NULL;
}

/*
 * Memory-mode switches with a drain while another thread keeps migrating
 * the same process's data: the gate holds the migrations off from QUIESCE
 * on, so every commit succeeds and the data survives.
 */
TEST_F(mi300x, drain_races_migrations)
{
	struct churn ch = {};
	struct amdx_partition_config c;
	struct amdx_hmm_migrate m;
	pthread_t th;
	int i;

	HMM_OR_SKIP(self->s.ctl);
	NEW_MI300X(0, SIM_ID, "vram=256");
	ASSERT_EQ(0, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_CPX, 0, 0,
				       &c));
	ch.fd = self->s.d[0].fd;
	ch.size = 256 * sysconf(_SC_PAGESIZE);
	ch.buf = to_vram(_metadata, ch.fd, 256, 0, &m);
	ASSERT_NE(NULL, ch.buf);
	ASSERT_EQ(0, pthread_create(&th, NULL, churn_thread, &ch));
	while (!ch.rounds)
		sched_yield();
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(0, amdx_commit_modes(self->s.d[0].fd, 0,
					       i % 2 ? AMDX_MEMORY_NPS1 :
						       AMDX_MEMORY_NPS4,
					       AMDX_PART_F_DRAIN, &c));
		EXPECT_EQ(AMDX_PART_OUTCOME_COMMITTED, c.outcome);
	}
	ch.stop = 1;
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(0, ch.errors);
	EXPECT_TRUE(intact(ch.buf, ch.size));
	munmap(ch.buf, ch.size);
}

/* A migration into VRAM @delay_ms after it starts; when it ended. */
struct late {
	int fd;
	char *buf;
	size_t size;
	unsigned int delay_ms;
	int ret;
	__u64 moved;
	struct timespec done;
};

static void *late_thread(void *arg)
{
	struct late *l = arg;
	struct amdx_hmm_migrate m = {
		.start = (uintptr_t)l->buf,
		.size = l->size,
		.dest = 0,
	};

	usleep(l->delay_ms * 1000);
	l->ret = amdx_ioctl(l->fd, AMDX_IOC_HMM_MIGRATE, &m);
	l->moved = m.moved;
	clock_gettime(CLOCK_MONOTONIC, &l->done);
	return NULL;
}

/*
 * @npages filled with @fill at l->buf, one range of @fd's preferring
 * memory partition 0, for late_thread() to migrate.  0 or -1.
 */
static int late_map(struct late *l, int fd, unsigned long npages, int fill)
{
	struct amdx_hmm_attr a = {
		.valid = AMDX_HMM_ATTR_PREFERRED_LOC,
		.preferred_loc = 0,
	};

	l->fd = fd;
	l->size = npages * sysconf(_SC_PAGESIZE);
	l->buf = mmap(NULL, l->size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (l->buf == MAP_FAILED)
		return -1;
	memset(l->buf, fill, l->size);
	a.start = (uintptr_t)l->buf;
	a.size = l->size;
	return amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a) ? -1 : 0;
}

static bool before_ts(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/*
 * A holder that appears after COMMIT checked for holders but before it
 * closed the VRAM gate is seen: the commit looks again once the gate is
 * closed.  amdx_sim's validate_delay_ms holds the commit in VALIDATE
 * (after the checks, before QUIESCE) while a thread migrates in.
 */
TEST_F_TIMEOUT(mi300x, commit_rechecks_holders_after_gate_closes, 120)
{
	struct amdx_partition_holder h[4] = {};
	struct amdx_partition_config c;
	struct amdx_device_info info;
	struct late l = { .delay_ms = 300 };
	struct timespec end;
	pthread_t th;
	int ret;

	AMDX_SKIP_AMDGPU("amdx_sim's validate_delay_ms knob");

	HMM_OR_SKIP(self->s.ctl);
	NEW_MI300X(0, SIM_ID, "vram=256");
	ASSERT_EQ(0, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_CPX, 0, 0,
				       &c));
	ASSERT_EQ(0, late_map(&l, self->s.d[0].fd, NPAGES, 0x3c));
	ASSERT_EQ(0, amdx_sim_knob(SIM_ID, "validate_delay_ms", 2000));

	ASSERT_EQ(0, pthread_create(&th, NULL, late_thread, &l));
	memset(&c, 0, sizeof(c));
	c.memory_mode = AMDX_MEMORY_NPS4;
	c.holders = (uintptr_t)h;
	c.max_holders = 4;
	ret = run(l.fd, true, &c);
	clock_gettime(CLOCK_MONOTONIC, &end);
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(0, amdx_sim_knob(SIM_ID, "validate_delay_ms", 0));

	/* the migration ran inside the window, before the gate closed */
	ASSERT_EQ(0, l.ret);
	ASSERT_EQ(NPAGES, l.moved);
	ASSERT_TRUE(before_ts(&l.done, &end));
	EXPECT_EQ(-EBUSY, ret);
	EXPECT_EQ(AMDX_PART_REASON_BUSY, c.reason);
	EXPECT_EQ(AMDX_PART_STEP_QUIESCE, c.failed_step);
	EXPECT_EQ(AMDX_PART_OUTCOME_ROLLED_BACK, c.outcome);
	ASSERT_EQ(1, c.num_holders);
	EXPECT_EQ(getpid(), h[0].pid);
	EXPECT_EQ(NPAGES, h[0].pages);
	ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[0].id, &info));
	EXPECT_EQ(AMDX_MEMORY_NPS1, info.memory_mode);
	munmap(l.buf, l.size);
}

TEST_F(mi300x, vf_custom_provisioning_validation)
{
	struct amdx_vf_config cfg[2], good[2] = {
		{ .partition_mask = 0x0f, .time_slice_us = 6000,
		  .vram_quota = 512 * MIB, .priority = AMDX_VF_PRIO_HIGH },
		{ .partition_mask = 0xf0, .time_slice_us = 1000,
		  .vram_quota = 256 * MIB, .priority = AMDX_VF_PRIO_LOW,
		  .flags = AMDX_VF_F_EVICT },
	};
	static const struct {
		const char *what;
		__u32 vf;
		int err;
	} bad[] = {
		{ "quota not 16 MiB aligned", 1, -EINVAL },
		{ "quota under 256 MiB", 0, -EINVAL },
		{ "time slice too short", 1, -EINVAL },
		{ "time slice too long", 0, -EINVAL },
		{ "priority", 1, -EINVAL },
		{ "flags", 0, -EINVAL },
		{ "reserved", 1, -EINVAL },
		{ "no partition", 0, -EINVAL },
		{ "partition beyond", 1, -EINVAL },
		{ "partition twice", 1, -EINVAL },
		{ "quotas exceed VRAM", 1, -ENOSPC },
	};
	char vbuf[VFS_SIZE];
	struct amdx_query_vfs *v = (void *)vbuf;
	struct amdx_partition_config c;
	struct amdx_vf_enable e;
	__u32 i;

	AMDX_SKIP_AMDGPU(AMDX_AMDGPU_NO_SRIOV);
	NEW_MI300X(0, SIM_ID, "vram=1024");
	ASSERT_EQ(0, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_CPX, 0, 0,
				       &c));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(cfg, good, sizeof(cfg));
		switch (i) {
		case 0: cfg[1].vram_quota += 4096; break;
		case 1: cfg[0].vram_quota = 240 * MIB; break;
		case 2: cfg[1].time_slice_us = AMDX_VF_TIME_SLICE_MIN_US - 1; break;
		case 3: cfg[0].time_slice_us = AMDX_VF_TIME_SLICE_MAX_US + 1; break;
		case 4: cfg[1].priority = AMDX_VF_PRIO_HIGH + 1; break;
		case 5: cfg[0].flags = AMDX_VF_F_EVICT << 1; break;
		case 6: cfg[1].reserved[1] = 1; break;
		case 7: cfg[0].partition_mask = 0; break;
		case 8: cfg[1].partition_mask = 0x100; break;
		case 9: cfg[1].partition_mask = 0x18; break;
		case 10: cfg[1].vram_quota = 768 * MIB; break;
		}
		EXPECT_EQ(bad[i].err, vf_enable(self->s.d[0].fd, 2, cfg, &e))
			TH_LOG("%s", bad[i].what);
		EXPECT_EQ(AMDX_PART_REASON_VF_PROVISION, e.reason)
			TH_LOG("%s", bad[i].what);
		EXPECT_EQ(bad[i].vf, e.bad_vf) TH_LOG("%s", bad[i].what);
		ASSERT_EQ(0, query_vfs(self->s.d[0].fd, v));
		EXPECT_EQ(0, v->num_vfs);
	}
	/* Malformed arguments. */
	EXPECT_EQ(-EINVAL, vf_enable(self->s.d[0].fd, 0, NULL, &e));
	EXPECT_EQ(-EINVAL, vf_enable(self->s.d[0].fd, 9, NULL, &e));
	memset(&e, 0, sizeof(e));
	e.num_vfs = 2;
	e.flags = AMDX_VF_ENABLE_F_CUSTOM;
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_VF_ENABLE, &e));
	e.configs = (uintptr_t)good;
	e.config_size = 16;
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_VF_ENABLE, &e));

	ASSERT_EQ(0, vf_enable(self->s.d[0].fd, 2, good, &e));
	ASSERT_EQ(0, query_vfs(self->s.d[0].fd, v));
	ASSERT_EQ(2, v->num_vfs);
	EXPECT_EQ(0, memcmp(&good[0], &v->vfs[0].config, sizeof(good[0])));
	EXPECT_EQ(0, memcmp(&good[1], &v->vfs[1].config, sizeof(good[1])));
	EXPECT_EQ(0, v->vfs[1].vram_used);
}

/*
 * config_size is capped at a page (as openat2 and clone3 cap theirs):
 * beyond it E2BIG before anything is read, even with a zero tail; a page
 * with a zero tail is still a valid extended entry.
 */
TEST_F(mi300x, vf_config_size_above_a_page_is_e2big)
{
	static const struct amdx_vf_config good = {
		.partition_mask = 0x1, .time_slice_us = 6000,
		.vram_quota = 512 * MIB, .priority = AMDX_VF_PRIO_NORMAL,
	};
	long ps = sysconf(_SC_PAGESIZE);
	struct amdx_vf_enable e;
	char *buf;

	AMDX_SKIP_AMDGPU(AMDX_AMDGPU_NO_SRIOV);
	NEW_MI300X(0, SIM_ID, "vram=1024");
	buf = mmap(NULL, 2 * ps + 64, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	memcpy(buf, &good, sizeof(good));

	memset(&e, 0, sizeof(e));
	e.num_vfs = 1;
	e.flags = AMDX_VF_ENABLE_F_CUSTOM;
	e.configs = (uintptr_t)buf;
	e.config_size = ps + 8;
	EXPECT_EQ(-E2BIG, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_VF_ENABLE, &e));
	e.config_size = 0xffffffffu;
	EXPECT_EQ(-E2BIG, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_VF_ENABLE, &e));

	e.config_size = ps;
	EXPECT_EQ(0, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_VF_ENABLE, &e));
	EXPECT_EQ(0, vf_disable(self->s.d[0].fd));
	munmap(buf, 2 * ps + 64);
}

TEST_F(mi300x, vf_set_validation)
{
	char vbuf[VFS_SIZE];
	struct amdx_query_vfs *v = (void *)vbuf;
	struct amdx_vf_enable e;
	struct amdx_vf_set s;
	int fd;

	AMDX_SKIP_AMDGPU(AMDX_AMDGPU_NO_SRIOV);
	NEW_MI300X(0, SIM_ID, "vram=1024");
	fd = self->s.d[0].fd;
	ASSERT_EQ(0, vf_enable(fd, 1, NULL, &e));

#define SET(_vf, _valid, ...)						\
	(s = (struct amdx_vf_set){ .vf = _vf, .valid = _valid,		\
				   .config = { __VA_ARGS__ } },		\
	 amdx_ioctl(fd, AMDX_IOC_VF_SET, &s))

	EXPECT_EQ(-EINVAL, SET(1, AMDX_VF_SET_PRIORITY, .priority = 2));
	EXPECT_EQ(-EINVAL, SET(0, 0));
	EXPECT_EQ(-EINVAL, SET(0, 1U << 4));
	EXPECT_EQ(-EINVAL, SET(0, AMDX_VF_SET_PRIORITY, .partition_mask = 1));
	EXPECT_EQ(-EINVAL, SET(0, AMDX_VF_SET_PRIORITY, .priority = 2,
			       .time_slice_us = 2000));
	EXPECT_EQ(-EINVAL, SET(0, AMDX_VF_SET_PRIORITY, .priority = 3));
	EXPECT_EQ(-EINVAL, SET(0, AMDX_VF_SET_TIME_SLICE,
			       .time_slice_us = 999));
	EXPECT_EQ(-EINVAL, SET(0, AMDX_VF_SET_VRAM_QUOTA,
			       .vram_quota = 300 * MIB));
	EXPECT_EQ(-EINVAL, SET(0, AMDX_VF_SET_FLAGS, .flags = 2));
	EXPECT_EQ(-ENOSPC, SET(0, AMDX_VF_SET_VRAM_QUOTA,
			       .vram_quota = 1040 * MIB));
	ASSERT_EQ(0, query_vfs(fd, v));
	EXPECT_EQ(1024 * MIB, v->vfs[0].config.vram_quota);
	EXPECT_EQ(AMDX_VF_PRIO_NORMAL, v->vfs[0].config.priority);

	EXPECT_EQ(0, SET(0, AMDX_VF_SET_PRIORITY | AMDX_VF_SET_VRAM_QUOTA,
			 .priority = AMDX_VF_PRIO_HIGH,
			 .vram_quota = 512 * MIB));
	ASSERT_EQ(0, query_vfs(fd, v));
	EXPECT_EQ(512 * MIB, v->vfs[0].config.vram_quota);
	EXPECT_EQ(AMDX_VF_PRIO_HIGH, v->vfs[0].config.priority);
	EXPECT_EQ(AMDX_VF_TIME_SLICE_DEFAULT_US,
		  v->vfs[0].config.time_slice_us);
	EXPECT_EQ(1, v->vfs[0].config.partition_mask);
#undef SET
}

TEST_F(mi300x, vf_reset_rate_limit)
{
	char vbuf[VFS_SIZE];
	struct amdx_query_vfs *v = (void *)vbuf;
	struct amdx_vf_enable e;
	struct amdx_vf_reset r;
	int fd, i;

	AMDX_SKIP_AMDGPU(AMDX_AMDGPU_NO_SRIOV);

	NEW_MI300X(0, SIM_ID, "vram=256");
	fd = self->s.d[0].fd;
	ASSERT_EQ(0, vf_enable(fd, 1, NULL, &e));
	/* Each refusal's reason is copied back (uapi minor 8). */
	r = (struct amdx_vf_reset){ .vf = 1 };
	EXPECT_EQ(-EINVAL, amdx_ioctl(fd, AMDX_IOC_VF_RESET, &r));
	EXPECT_EQ(AMDX_PART_REASON_NO_VF, r.reason);
	r = (struct amdx_vf_reset){ .flags = 1 };
	EXPECT_EQ(-EINVAL, amdx_ioctl(fd, AMDX_IOC_VF_RESET, &r));
	EXPECT_EQ(AMDX_PART_REASON_NONE, r.reason);
	r = (struct amdx_vf_reset){ .reserved = 1 };
	EXPECT_EQ(-EINVAL, amdx_ioctl(fd, AMDX_IOC_VF_RESET, &r));
	r = (struct amdx_vf_reset){ .reason = AMDX_PART_REASON_NO_VF };
	EXPECT_EQ(-EINVAL, amdx_ioctl(fd, AMDX_IOC_VF_RESET, &r));
	EXPECT_EQ(AMDX_PART_REASON_NONE, r.reason);

	for (i = 1; i <= AMDX_VF_RESET_LIMIT; i++) {
		/* The guest of the last one does not ack in time. */
		ASSERT_EQ(0, amdx_sim_knob(SIM_ID, "vf_ack_delay_ms",
					   i == AMDX_VF_RESET_LIMIT ? 50 : 0));
		r = (struct amdx_vf_reset){ .vf = 0 };
		ASSERT_EQ(0, amdx_ioctl(fd, AMDX_IOC_VF_RESET, &r));
		EXPECT_EQ(i == AMDX_VF_RESET_LIMIT ? AMDX_VF_RESET_ACK_TIMEOUT :
						     AMDX_VF_RESET_ACKED,
			  r.result);
		EXPECT_EQ(AMDX_PART_STATE_ONLINE, r.state);
		EXPECT_EQ(i, r.resets_in_window);
	}
	r = (struct amdx_vf_reset){ .vf = 0 };
	EXPECT_EQ(-EBUSY, amdx_ioctl(fd, AMDX_IOC_VF_RESET, &r));
	EXPECT_EQ(AMDX_PART_REASON_VF_RESET_LIMIT, r.reason);
	EXPECT_EQ(AMDX_PART_STATE_QUARANTINED, r.state);
	EXPECT_EQ(AMDX_VF_RESET_LIMIT, r.resets_in_window);
	r = (struct amdx_vf_reset){ .vf = 0 };
	EXPECT_EQ(-EBUSY, amdx_ioctl(fd, AMDX_IOC_VF_RESET, &r));
	EXPECT_EQ(AMDX_PART_REASON_VF_QUARANTINED, r.reason);
	EXPECT_EQ(AMDX_PART_STATE_QUARANTINED, r.state);
	ASSERT_EQ(0, query_vfs(fd, v));
	EXPECT_EQ(AMDX_PART_STATE_QUARANTINED, v->vfs[0].state);
	EXPECT_EQ(AMDX_VF_RESET_LIMIT, v->vfs[0].resets);

	/* Re-enabling brings a fresh VF. */
	ASSERT_EQ(0, vf_disable(fd));
	ASSERT_EQ(0, vf_enable(fd, 1, NULL, &e));
	ASSERT_EQ(0, query_vfs(fd, v));
	EXPECT_EQ(AMDX_PART_STATE_ONLINE, v->vfs[0].state);
	EXPECT_EQ(0, v->vfs[0].resets);
}

TEST_F_TIMEOUT(mi300x, vf_vram_quota, 120)
{
	struct amdx_vf_config cfg = {
		.partition_mask = 1, .time_slice_us = 6000,
		.vram_quota = AMDX_VF_VRAM_MIN,
		.priority = AMDX_VF_PRIO_NORMAL,
	};
	unsigned long ps = sysconf(_SC_PAGESIZE);
	unsigned long quota = AMDX_VF_VRAM_MIN / ps;
	struct amdx_device_open o = {
		.id = 0, .flags = AMDX_DEVICE_OPEN_F_VF,
	};
	char vbuf[VFS_SIZE];
	struct amdx_query_vfs *v = (void *)vbuf;
	struct amdx_hmm_migrate m, m2;
	struct amdx_vf_enable e;
	struct amdx_vf_set s = {
		.valid = AMDX_VF_SET_FLAGS,
		.config.flags = AMDX_VF_F_EVICT,
	};
	struct amdx_partition_config c;
	char *buf, *buf2;
	int vfd;

	HMM_OR_SKIP(self->s.ctl);
	NEW_MI300X(0, SIM_ID, "vram=512");
	/*
	 * CPX/NPS1: the VF's compute partition shares memory partition 0
	 * with seven unbound ones, so the PF may place data there too (in
	 * SPX the VF's partition would be the VF's alone: -EACCES).
	 */
	ASSERT_EQ(0, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_CPX,
				       AMDX_MEMORY_NPS1, 0, &c));
	o.id = self->s.d[0].id;
	o.vf = 0;
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->s.ctl, AMDX_IOC_DEVICE_OPEN, &o));
	ASSERT_EQ(0, vf_enable(self->s.d[0].fd, 1, &cfg, &e));
	o.vf = 1;
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->s.ctl, AMDX_IOC_DEVICE_OPEN, &o));
	o.vf = 0;
	ASSERT_EQ(0, amdx_ioctl(self->s.ctl, AMDX_IOC_DEVICE_OPEN, &o));
	vfd = o.fd;

	/* 16 pages beyond the quota: those are skipped, NO_MEMORY. */
	buf = to_vram(_metadata, vfd, quota + 16, 0, &m);
	ASSERT_NE(NULL, buf);
	EXPECT_EQ(quota, m.moved);
	EXPECT_EQ(16, m.skipped);
	EXPECT_EQ(AMDX_HMM_SKIP_NO_MEMORY, m.skip_reasons);
	ASSERT_EQ(0, query_vfs(self->s.d[0].fd, v));
	EXPECT_EQ(AMDX_VF_VRAM_MIN, v->vfs[0].vram_used);
	/* The PF is not limited by the VF's quota. */
	buf2 = to_vram(_metadata, self->s.d[0].fd, 16, 0, &m2);
	ASSERT_NE(NULL, buf2);
	EXPECT_EQ(16, m2.moved);

	/* No disabling while the VF holds VRAM. */
	EXPECT_EQ(-EBUSY, vf_disable(self->s.d[0].fd));

	/* With EVICT the VF's own least recently used data makes room. */
	ASSERT_EQ(0, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_VF_SET, &s));
	munmap(buf2, 16 * ps);
	buf2 = to_vram(_metadata, vfd, 16, 0, &m2);
	ASSERT_NE(NULL, buf2);
	EXPECT_EQ(16, m2.moved);
	EXPECT_EQ(0, m2.skipped);
	ASSERT_EQ(0, query_vfs(self->s.d[0].fd, v));
	EXPECT_GE(AMDX_VF_VRAM_MIN, v->vfs[0].vram_used);
	EXPECT_TRUE(intact(buf, (quota + 16) * ps));

	/* Once the VF's data is gone it can be disabled; its fd stops. */
	close(vfd);
	ASSERT_EQ(0, vf_disable(self->s.d[0].fd));
	munmap(buf, (quota + 16) * ps);
	munmap(buf2, 16 * ps);
}

/*
 * A VF's device fd moves data towards VRAM only while its VF is online
 * and is the VF it was opened for: -EBUSY once the VF is quarantined,
 * -ENODEV once the VFs are disabled, and still -ENODEV after they are
 * enabled anew (a new VF 0 is not the fd's).  Moving home stays allowed.
 */
TEST_F_TIMEOUT(mi300x, vf_fd_stops_when_its_vf_does, 120)
{
	struct amdx_vf_config cfg = {
		.partition_mask = 1, .time_slice_us = 6000,
		.vram_quota = AMDX_VF_VRAM_MIN,
		.priority = AMDX_VF_PRIO_NORMAL,
	};
	struct amdx_device_open o = { .flags = AMDX_DEVICE_OPEN_F_VF };
	struct amdx_vf_reset r = { .vf = 0 };
	struct amdx_hmm_migrate m, home;
	struct amdx_vf_enable e;
	size_t size = 8 * sysconf(_SC_PAGESIZE);
	int vfd, vfd2, i;
	char *buf;

	HMM_OR_SKIP(self->s.ctl);
	NEW_MI300X(0, SIM_ID, "vram=256");
	ASSERT_EQ(0, vf_enable(self->s.d[0].fd, 1, &cfg, &e));
	o.id = self->s.d[0].id;
	ASSERT_EQ(0, amdx_ioctl(self->s.ctl, AMDX_IOC_DEVICE_OPEN, &o));
	vfd = o.fd;

	/* Online: the VF's fd moves data to VRAM and home again. */
	buf = to_vram(_metadata, vfd, 8, 0, &m);
	ASSERT_NE(NULL, buf);
	EXPECT_EQ(8, m.moved);
	home = (struct amdx_hmm_migrate){
		.start = (uintptr_t)buf, .size = size,
		.dest = AMDX_HMM_LOC_SYSTEM,
	};
	ASSERT_EQ(0, amdx_ioctl(vfd, AMDX_IOC_HMM_MIGRATE, &home));
	EXPECT_EQ(8, home.moved);

	/* Quarantined by its resets: -EBUSY towards VRAM, home allowed. */
	for (i = 0; i < AMDX_VF_RESET_LIMIT; i++)
		ASSERT_EQ(0, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_VF_RESET, &r));
	ASSERT_EQ(-EBUSY, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_VF_RESET, &r));
	ASSERT_EQ(AMDX_PART_STATE_QUARANTINED, r.state);
	m = (struct amdx_hmm_migrate){
		.start = (uintptr_t)buf, .size = size, .dest = 0,
	};
	EXPECT_EQ(-EBUSY, amdx_ioctl(vfd, AMDX_IOC_HMM_MIGRATE, &m));
	EXPECT_EQ(0, m.moved);
	home = (struct amdx_hmm_migrate){
		.start = (uintptr_t)buf, .size = size,
		.dest = AMDX_HMM_LOC_SYSTEM,
	};
	EXPECT_EQ(0, amdx_ioctl(vfd, AMDX_IOC_HMM_MIGRATE, &home));

	/* Disabled (the VF holds no VRAM, its fd is open): -ENODEV. */
	ASSERT_EQ(0, vf_disable(self->s.d[0].fd));
	m = (struct amdx_hmm_migrate){
		.start = (uintptr_t)buf, .size = size, .dest = 0,
	};
	EXPECT_EQ(-ENODEV, amdx_ioctl(vfd, AMDX_IOC_HMM_MIGRATE, &m));

	/* Enabled anew: VF 0 exists again, but not for the old fd. */
	ASSERT_EQ(0, vf_enable(self->s.d[0].fd, 1, &cfg, &e));
	m = (struct amdx_hmm_migrate){
		.start = (uintptr_t)buf, .size = size, .dest = 0,
	};
	EXPECT_EQ(-ENODEV, amdx_ioctl(vfd, AMDX_IOC_HMM_MIGRATE, &m));
	EXPECT_EQ(0, m.moved);
	close(vfd);
	munmap(buf, size);
	ASSERT_EQ(0, amdx_ioctl(self->s.ctl, AMDX_IOC_DEVICE_OPEN, &o));
	vfd2 = o.fd;
	buf = to_vram(_metadata, vfd2, 8, 0, &m);
	ASSERT_NE(NULL, buf);
	EXPECT_EQ(8, m.moved);
	EXPECT_TRUE(intact(buf, size));
	close(vfd2);
	munmap(buf, size);
	ASSERT_EQ(0, vf_disable(self->s.d[0].fd));
}

#define FLR_PAGES	32

/*
 * @npages pages tagged "amdx-flr <tag> <page>" at the start of each page
 * (the rest a pattern), migrated to VRAM through @fd.
 */
static char *tagged_to_vram(int fd, unsigned long npages, unsigned int tag,
			    struct amdx_hmm_migrate *m)
{
	size_t ps = sysconf(_SC_PAGESIZE), size = npages * ps, i;
	struct amdx_hmm_attr a = {
		.valid = AMDX_HMM_ATTR_PREFERRED_LOC,
		.preferred_loc = 0,
	};
	char *buf;

	buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return NULL;
	for (i = 0; i < size; i++)
		buf[i] = (char)(i * 7 + tag);
	for (i = 0; i < npages; i++)
		snprintf(buf + i * ps, 32, "amdx-flr %u %zu", tag, i);
	a.start = (uintptr_t)buf;
	a.size = size;
	if (amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a)) {
		munmap(buf, size);
		return NULL;
	}
	memset(m, 0, sizeof(*m));
	m->start = (uintptr_t)buf;
	m->size = size;
	m->dest = 0;
	if (amdx_ioctl(fd, AMDX_IOC_HMM_MIGRATE, m)) {
		munmap(buf, size);
		return NULL;
	}
	return buf;
}

static bool tagged_intact(const char *buf, unsigned long npages,
			  unsigned int tag)
{
	size_t ps = sysconf(_SC_PAGESIZE), i;
	char head[32];

	for (i = 0; i < npages * ps; i++) {
		if (i % ps == 0) {
			snprintf(head, sizeof(head), "amdx-flr %u %zu", tag,
				 i / ps);
			if (strcmp(buf + i, head))
				return false;
			/* and its NUL, by the loop */
			i += strlen(head);
			continue;
		}
		if (buf[i] != (char)(i * 7 + tag))
			return false;
	}
	return true;
}

/*
 * Pages of simulated device @sim's VRAM (debugfs vram_data) that start
 * with the tag of tagged_to_vram(), counted per tag (0..3); -errno.
 */
static int count_tags(unsigned int sim, unsigned long counts[4])
{
	size_t ps = sysconf(_SC_PAGESIZE), chunk = 256 * ps, off;
	char path[128], *buf;
	unsigned int tag;
	ssize_t n;
	int fd;

	memset(counts, 0, 4 * sizeof(counts[0]));
	snprintf(path, sizeof(path), AMDX_SIM_DEBUGFS "/%u/vram_data", sim);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	buf = malloc(chunk);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while ((n = read(fd, buf, chunk)) > 0) {
		for (off = 0; off + ps <= (size_t)n; off += ps)
			if (!strncmp(buf + off, "amdx-flr ", 9) &&
			    sscanf(buf + off + 9, "%u", &tag) == 1 && tag < 4)
				counts[tag]++;
	}
	free(buf);
	close(fd);
	return n < 0 ? -errno : 0;
}

static bool all_zero(const char *buf, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		if (buf[i])
			return false;
	return true;
}

TEST_F_TIMEOUT(mi300x, vf_flr_clears_only_its_vf_vram, 120)
{
	struct amdx_event_subscribe sub = {
		.mask = 1ULL << AMDX_EVENT_VF_RESET,
		.flags = AMDX_EVENT_F_NONBLOCK,
	};
	struct amdx_device_open o = { .flags = AMDX_DEVICE_OPEN_F_VF };
	size_t ps = sysconf(_SC_PAGESIZE), size = FLR_PAGES * ps;
	struct amdx_partition_config c;
	struct amdx_hmm_migrate m;
	struct amdx_vf_enable e;
	struct amdx_vf_reset r = { .vf = 0 };
	struct amdx_event ev[4];
	char vbuf[VFS_SIZE];
	struct amdx_query_vfs *v = (void *)vbuf;
	unsigned long cnt[4];
	char *b0, *b1, *bpf;
	int fd, vfd[2], evfd, i;

	HMM_OR_SKIP(self->s.ctl);
	NEW_MI300X(0, SIM_ID, "vram=512");
	fd = self->s.d[0].fd;
	ASSERT_EQ(0, amdx_commit_modes(fd, AMDX_COMPUTE_CPX, AMDX_MEMORY_NPS1,
				       0, &c));
	ASSERT_EQ(0, vf_enable(fd, 2, NULL, &e));
	o.id = self->s.d[0].id;
	for (i = 0; i < 2; i++) {
		o.vf = i;
		ASSERT_EQ(0, amdx_ioctl(self->s.ctl, AMDX_IOC_DEVICE_OPEN, &o));
		vfd[i] = o.fd;
	}
	ASSERT_EQ(0, amdx_ioctl(fd, AMDX_IOC_EVENT_SUBSCRIBE, &sub));
	evfd = sub.fd;

	/* tag 0: VF 0's data, tag 1: VF 1's, tag 2: the PF's */
	b0 = tagged_to_vram(vfd[0], FLR_PAGES, 0, &m);
	ASSERT_NE(NULL, b0);
	ASSERT_EQ(FLR_PAGES, m.moved);
	b1 = tagged_to_vram(vfd[1], FLR_PAGES, 1, &m);
	ASSERT_NE(NULL, b1);
	ASSERT_EQ(FLR_PAGES, m.moved);
	bpf = tagged_to_vram(fd, FLR_PAGES, 2, &m);
	ASSERT_NE(NULL, bpf);
	ASSERT_EQ(FLR_PAGES, m.moved);
	ASSERT_EQ(0, count_tags(SIM_ID, cnt));
	ASSERT_EQ(FLR_PAGES, cnt[0]);
	ASSERT_EQ(FLR_PAGES, cnt[1]);
	ASSERT_EQ(FLR_PAGES, cnt[2]);

	r.vram_cleared = 12345;		/* out only: ignored on input */
	ASSERT_EQ(0, amdx_ioctl(fd, AMDX_IOC_VF_RESET, &r));
	EXPECT_EQ(AMDX_VF_RESET_ACKED, r.result);
	EXPECT_EQ(AMDX_PART_STATE_ONLINE, r.state);
	EXPECT_EQ(size, r.vram_cleared);

	/* The VRAM holds nothing of VF 0 any more; the rest is untouched. */
	ASSERT_EQ(0, count_tags(SIM_ID, cnt));
	EXPECT_EQ(0, cnt[0]);
	EXPECT_EQ(FLR_PAGES, cnt[1]);
	EXPECT_EQ(FLR_PAGES, cnt[2]);

	/* The event says how much VRAM VF 0 held and lost. */
	ASSERT_EQ((ssize_t)sizeof(ev[0]), read(evfd, ev, sizeof(ev)));
	EXPECT_EQ(AMDX_EVENT_VF_RESET, ev[0].kind);
	EXPECT_EQ(0, ev[0].instance);
	EXPECT_EQ(AMDX_VF_RESET_CAUSE_FLR, ev[0].type);
	EXPECT_EQ(size, ev[0].address);
	EXPECT_EQ(AMDX_VF_RESET_ACKED, ev[0].data[0]);
	EXPECT_EQ(AMDX_PART_STATE_ONLINE, ev[0].data[1]);

	/* The pages stay VF 0's, cleared: its process reads zeroes. */
	ASSERT_EQ(0, query_vfs(fd, v));
	EXPECT_EQ(size, v->vfs[0].vram_used);
	EXPECT_EQ(size, v->vfs[1].vram_used);
	EXPECT_TRUE(all_zero(b0, size));
	EXPECT_TRUE(tagged_intact(b1, FLR_PAGES, 1));
	EXPECT_TRUE(tagged_intact(bpf, FLR_PAGES, 2));

	/* Touched, they came home: the VF may be disabled once VF 1's go. */
	ASSERT_EQ(0, query_vfs(fd, v));
	EXPECT_EQ(0, v->vfs[0].vram_used);
	munmap(b0, size);
	munmap(b1, size);
	munmap(bpf, size);
	close(evfd);
	close(vfd[0]);
	close(vfd[1]);
	ASSERT_EQ(0, vf_disable(fd));
}

TEST_F(mi300x, hive_memory_mode_is_hive_wide)
{
	char pbuf[QSIZE];
	struct amdx_query_partitions *q = (void *)pbuf;
	struct amdx_reset_scope rs;
	struct amdx_partition_config c;
	struct amdx_device_info info;
	__u32 size;

	NEW_MI300X(0, SIM_ID, "vram=256 hive=a1");
	NEW_MI300X(1, SIM_ID2, "vram=256 hive=a1");

	size = sizeof(rs);
	memset(&rs, 0, sizeof(rs));
	ASSERT_EQ(0, amdx_query(self->s.d[0].fd, AMDX_QUERY_RESET_SCOPE, 0, &rs,
				&size));
	EXPECT_EQ(0xa1, rs.hive_id);
	ASSERT_EQ(2, rs.num_devices);
	EXPECT_EQ(self->s.d[0].id, rs.devices[0]);
	EXPECT_EQ(self->s.d[1].id, rs.devices[1]);

	/* Compute modes are per device. */
	ASSERT_EQ(0, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_CPX, 0, 0,
				       &c));
	EXPECT_EQ(1, c.num_devices);
	ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[1].id, &info));
	EXPECT_EQ(AMDX_COMPUTE_SPX, info.compute_mode);

	/* The other member in SPX cannot take NPS4. */
	memset(&c, 0, sizeof(c));
	c.memory_mode = AMDX_MEMORY_NPS4;
	ASSERT_EQ(0, run(self->s.d[0].fd, false, &c));
	EXPECT_EQ(0, c.allowed);
	EXPECT_EQ(AMDX_PART_REASON_HIVE_MEMORY, c.reason);
	EXPECT_EQ(2, c.num_devices);
	EXPECT_EQ(-EINVAL, run(self->s.d[0].fd, true, &c));
	EXPECT_EQ(AMDX_PART_REASON_HIVE_MEMORY, c.reason);

	ASSERT_EQ(0, amdx_commit_modes(self->s.d[1].fd, AMDX_COMPUTE_QPX, 0, 0,
				       &c));
	ASSERT_EQ(0, amdx_commit_modes(self->s.d[0].fd, 0, AMDX_MEMORY_NPS4, 0,
				       &c));
	EXPECT_EQ(AMDX_PART_OUTCOME_COMMITTED, c.outcome);
	EXPECT_EQ(2, c.num_devices);
	ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[1].id, &info));
	EXPECT_EQ(AMDX_MEMORY_NPS4, info.memory_mode);
	EXPECT_EQ(AMDX_COMPUTE_QPX, info.compute_mode);
	EXPECT_EQ(4, info.num_mem_partitions);
	ASSERT_EQ(0, query_parts(self->s.d[1].fd, pbuf));
	EXPECT_EQ(AMDX_MEMORY_NPS4, q->memory_mode);
	EXPECT_EQ(2, q->generation);
	EXPECT_EQ(3, q->partitions[3].mem_partition);

	/* A failing member rolls every member back. */
	ASSERT_EQ(0, amdx_sim_knob(SIM_ID2, "fail_partition_step",
				   AMDX_PART_STEP_REBUILD));
	EXPECT_EQ(-EIO, amdx_commit_modes(self->s.d[0].fd, 0, AMDX_MEMORY_NPS1,
					  0, &c));
	EXPECT_EQ(AMDX_PART_OUTCOME_ROLLED_BACK, c.outcome);
	ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[0].id, &info));
	EXPECT_EQ(AMDX_MEMORY_NPS4, info.memory_mode);
	ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[1].id, &info));
	EXPECT_EQ(AMDX_MEMORY_NPS4, info.memory_mode);
}

/*
 * A hive commit that waits in QUIESCE for a member's migration can be
 * killed: the migration on member 1 copies slowly (amdx_sim's
 * vram_copy_delay_ms), a child commits a hive-wide memory mode from member
 * 0 and is killed while it waits for member 1's VRAM gate.  It must be
 * gone before the migration ends, and nothing changed.
 */
TEST_F_TIMEOUT(mi300x, hive_quiesce_is_killable, 120)
{
	struct amdx_partition_config c;
	struct amdx_device_info info;
	struct late l = {};
	struct timespec reaped;
	int go[2], st, i;
	pthread_t th;
	pid_t pid;
	char g;

	HMM_OR_SKIP(self->s.ctl);
	NEW_MI300X(0, SIM_ID, "vram=256 hive=a1");
	NEW_MI300X(1, SIM_ID2, "vram=256 hive=a1");
	ASSERT_EQ(0, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_CPX, 0, 0,
				       &c));
	ASSERT_EQ(0, amdx_commit_modes(self->s.d[1].fd, AMDX_COMPUTE_QPX, 0, 0,
				       &c));

	/*
	 * The child first: fork() takes the mmap lock for write, which the
	 * migration holds for read.
	 */
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (read(go[0], &g, 1) != 1)
			_exit(2);
		_exit(amdx_commit_modes(self->s.d[0].fd, 0, AMDX_MEMORY_NPS4,
					AMDX_PART_F_DRAIN, &c) ? 1 : 0);
	}

	/* 16 copies of 200 ms each: member 1's migration runs for 3.2 s */
	ASSERT_EQ(0, late_map(&l, self->s.d[1].fd, 16, 0x5a));
	ASSERT_EQ(0, amdx_sim_knob(SIM_ID2, "vram_copy_delay_ms", 200));
	ASSERT_EQ(0, pthread_create(&th, NULL, late_thread, &l));
	usleep(300000);
	ASSERT_EQ(1, write(go[1], "g", 1));
	/* the child waits in QUIESCE for member 1's gate now */
	usleep(500000);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	clock_gettime(CLOCK_MONOTONIC, &reaped);
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(0, amdx_sim_knob(SIM_ID2, "vram_copy_delay_ms", 0));

	EXPECT_TRUE(WIFSIGNALED(st)) TH_LOG("status %#x", st);
	ASSERT_EQ(0, l.ret);
	EXPECT_EQ(16, l.moved);
	/* killed while the migration ran, not after it */
	EXPECT_TRUE(before_ts(&reaped, &l.done));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[i].id,
					      &info));
		EXPECT_EQ(AMDX_MEMORY_NPS1, info.memory_mode)
			TH_LOG("member %d", i);
	}
	munmap(l.buf, l.size);
	close(go[0]);
	close(go[1]);
}

/*
 * A hive commit locks all members at once, at most 15 of them
 * (AMDX_PART_HIVE_MAX): in a hive of 16, PLAN and COMMIT of a memory mode
 * are -E2BIG and nothing changed; once the hive is one device again, the
 * same change goes through.
 */
#define BIG_HIVE	16
#define BIG_HIVE_SIM	AMDX_SIM_ID(partition, 10)	/* + 0..14: the other members */

TEST_F(mi300x, hive_beyond_the_commit_limit_is_e2big)
{
	struct amdx_partition_config c;
	struct amdx_device_info info;
	int i, made = 0, plan, commit;

	NEW_MI300X(0, SIM_ID, "vram=64 hive=b2");
	for (i = 0; i < BIG_HIVE - 1; i++) {
		amdx_sim_del(BIG_HIVE_SIM + i);
		if (amdx_sim_new(BIG_HIVE_SIM + i, "model=mi300x vram=64 hive=b2"))
			break;
		made++;
	}
	memset(&c, 0, sizeof(c));
	c.memory_mode = AMDX_MEMORY_NPS4;
	plan = run(self->s.d[0].fd, false, &c);
	commit = amdx_commit_modes(self->s.d[0].fd, 0, AMDX_MEMORY_NPS4, 0, &c);
	for (i = 0; i < made; i++)
		amdx_sim_del(BIG_HIVE_SIM + i);
	ASSERT_EQ(BIG_HIVE - 1, made);
	EXPECT_EQ(-E2BIG, plan);
	EXPECT_EQ(-E2BIG, commit);
	ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[0].id, &info));
	EXPECT_EQ(AMDX_MEMORY_NPS1, info.memory_mode);
	/* Alone again: the same commit goes through. */
	EXPECT_EQ(0, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_CPX, 0, 0,
				       &c));
	EXPECT_EQ(0, amdx_commit_modes(self->s.d[0].fd, 0, AMDX_MEMORY_NPS4, 0,
				       &c));
	ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[0].id, &info));
	EXPECT_EQ(AMDX_MEMORY_NPS4, info.memory_mode);
}

#define EXPECT_SYSFS(id, name, want)					\
	do {								\
		char _b[256];						\
		ASSERT_EQ(0, amdx_class_read(id, name, _b, sizeof(_b)));	\
		EXPECT_STREQ(want, _b);					\
	} while (0)

TEST_F(mi300x, sysfs_mirrors_partitions_and_vfs)
{
	struct amdx_partition_config c;
	struct amdx_vf_enable e;
	__u32 id;

	NEW_MI300X(0, SIM_ID, "vram=1024");
	id = self->s.d[0].id;
	EXPECT_SYSFS(id, "partitions/count", "1\n");
	EXPECT_SYSFS(id, "partitions/xcc_mask", "0xff\n");
	EXPECT_SYSFS(id, "partitions/vf", "-\n");
	EXPECT_SYSFS(id, "vfs/state", "\n");
	AMDX_SKIP_AMDGPU(AMDX_AMDGPU_NO_SRIOV);
	ASSERT_EQ(0, amdx_commit_modes(self->s.d[0].fd, AMDX_COMPUTE_CPX,
				       AMDX_MEMORY_NPS4, 0, &c));
	ASSERT_EQ(0, vf_enable(self->s.d[0].fd, 4, NULL, &e));
	EXPECT_SYSFS(id, "partitions/count", "8\n");
	EXPECT_SYSFS(id, "partitions/generation", "2\n");
	EXPECT_SYSFS(id, "partitions/xcc_mask",
		     "0x1 0x2 0x4 0x8 0x10 0x20 0x40 0x80\n");
	EXPECT_SYSFS(id, "partitions/sdma_mask",
		     "0x3 0xc 0x30 0xc0 0x300 0xc00 0x3000 0xc000\n");
	EXPECT_SYSFS(id, "partitions/vcn_mask",
		     "0x1 0x1 0x2 0x2 0x4 0x4 0x8 0x8\n");
	EXPECT_SYSFS(id, "partitions/mem_partition", "0 0 1 1 2 2 3 3\n");
	EXPECT_SYSFS(id, "partitions/vf", "0 1 2 3 0 1 2 3\n");
	EXPECT_SYSFS(id, "partitions/state",
		     "online online online online online online online online\n");
	EXPECT_SYSFS(id, "partitions/resets", "0 0 0 0 0 0 0 0\n");
	EXPECT_SYSFS(id, "vfs/state", "online online online online\n");
	EXPECT_SYSFS(id, "vfs/partition_mask", "0x11 0x22 0x44 0x88\n");
	EXPECT_SYSFS(id, "vfs/vram_quota",
		     "268435456 268435456 268435456 268435456\n");
	EXPECT_SYSFS(id, "vfs/vram_used", "0 0 0 0\n");
	EXPECT_SYSFS(id, "vfs/time_slice_us", "6000 6000 6000 6000\n");
	EXPECT_SYSFS(id, "vfs/priority", "1 1 1 1\n");
	EXPECT_SYSFS(id, "vfs/resets", "0 0 0 0\n");
	EXPECT_SYSFS(id, "num_vfs", "4\n");
	EXPECT_SYSFS(id, "compute_mode", "CPX\n");
	EXPECT_SYSFS(id, "memory_mode", "NPS4\n");
}

TEST_F(part, reset_scope_without_hive)
{
	struct amdx_reset_scope rs;
	__u32 size = 0;

	NEW_MODEL(0, SIM_ID, "vram=256");
	ASSERT_EQ(0, amdx_query(self->s.d[0].fd, AMDX_QUERY_RESET_SCOPE, 0,
				NULL, &size));
	EXPECT_EQ(sizeof(rs), size);
	memset(&rs, 0xff, sizeof(rs));
	ASSERT_EQ(0, amdx_query(self->s.d[0].fd, AMDX_QUERY_RESET_SCOPE, 0, &rs,
				&size));
	EXPECT_EQ(0, rs.hive_id);
	EXPECT_EQ(1, rs.num_devices);
	EXPECT_EQ(self->s.d[0].id, rs.devices[0]);
	EXPECT_EQ(0, rs.devices[1]);
}

/* @mod's modinfo version from sysfs into @buf ("" without one). */
static void module_version(const char *mod, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/sys/module/%s/version", mod);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/*
 * AMDX_QUERY_FIRMWARE names amdx's version and the device's provider with
 * its version, and lists by id and instance each firmware the provider
 * knows the version of, once, none with version 0.  The amdgpu provider
 * (AMDX_TEST_PROVIDER=amdgpu) answers with the versions amdgpu keeps of
 * the fake's ucode (amdgpu_amdx_fake.c, fake_user_firmware()): the SMU,
 * PSP SOS, the RAS TA, MEC, RLC, every SDMA engine and VCN, and not the
 * XGMI TA, which amdgpu holds as 0 (not loaded) there.  The simulator's
 * table is amdx_sim_test's sim_model.firmware_query.
 */
TEST_F(part, firmware_versions_are_the_providers)
{
	struct {
		struct amdx_query_firmware h;
		struct amdx_firmware_info fw[AMDX_MAX_FIRMWARE];
	} res;
	static const struct { __u32 id, version, feature; } amdgpu[] = {
		{ AMDX_FW_SMU, 0x00557100, 0 },
		{ AMDX_FW_PSP_SOS, 0x0036003b, 0 },
		{ AMDX_FW_PSP_TA_RAS, 0x1b000049, 0 },
		{ AMDX_FW_MEC, 0x99, 50 },
		{ AMDX_FW_RLC, 0x22, 1 },
	};
	struct amdx_firmware_info *e = res.fw;
	char ver[AMDX_VERSION_LEN];
	struct amdx_device_info info;
	__u32 size = sizeof(res), i, n, max;

	NEW_MODEL(0, SIM_ID, "vram=256");
	ASSERT_EQ(0, amdx_device_info(self->s.ctl, self->s.d[0].id, &info));
	memset(&res, 0xa5, sizeof(res));
	ASSERT_EQ(0, amdx_query(self->s.d[0].fd, AMDX_QUERY_FIRMWARE, 0, &res,
				&size));
	ASSERT_GE(AMDX_MAX_FIRMWARE, res.h.num_firmware);
	EXPECT_EQ(sizeof(res.h) + res.h.num_firmware * sizeof(res.fw[0]), size);
	module_version("amdx", ver, sizeof(ver));
	EXPECT_STREQ(ver, (char *)res.h.driver_version);
	for (i = 0; i < res.h.num_firmware; i++) {
		max = e[i].id == AMDX_FW_SDMA ? info.num_sdma :
		      e[i].id == AMDX_FW_VCN ? info.num_vcn :
		      e[i].id == AMDX_FW_MEC ? 2 : 1;
		EXPECT_LT(0, e[i].id);
		EXPECT_GT(AMDX_FW_COUNT, e[i].id);
		EXPECT_GT(max, e[i].instance);
		EXPECT_NE(0, e[i].version);
		EXPECT_EQ(0, e[i].reserved);
		/* By id and instance, each once. */
		if (i)
			EXPECT_TRUE(e[i - 1].id < e[i].id ||
				    (e[i - 1].id == e[i].id &&
				     e[i - 1].instance < e[i].instance));
	}
	if (!amdx_provider_is_amdgpu()) {
		EXPECT_STREQ("amdx_sim", (char *)res.h.provider);
		return;
	}
	EXPECT_STREQ("amdgpu", (char *)res.h.provider);
	module_version("amdgpu", ver, sizeof(ver));
	EXPECT_STRNE("", ver);
	EXPECT_STREQ(ver, (char *)res.h.provider_version);
	n = ARRAY_SIZE(amdgpu);
	ASSERT_EQ(n + info.num_sdma + 1, res.h.num_firmware);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(amdgpu[i].id, e[i].id);
		EXPECT_EQ(0, e[i].instance);
		EXPECT_EQ(amdgpu[i].version, e[i].version);
		EXPECT_EQ(amdgpu[i].feature, e[i].feature);
	}
	for (i = 0; i < info.num_sdma; i++, n++) {
		EXPECT_EQ(AMDX_FW_SDMA, e[n].id);
		EXPECT_EQ(i, e[n].instance);
		EXPECT_EQ(0x15, e[n].version);
		EXPECT_EQ(60, e[n].feature);
	}
	EXPECT_EQ(AMDX_FW_VCN, e[n].id);
	EXPECT_EQ(0, e[n].instance);
	EXPECT_EQ(0x0a119009, e[n].version);
}

TEST_HARNESS_MAIN
