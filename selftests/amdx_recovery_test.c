// SPDX-License-Identifier: GPL-2.0
/*
 * Smallest-sufficient recovery end to end (Documentation/ras.rst,
 * "Recovery actions"): a fault's ERROR record carries the action it sets
 * and its scope; RECOVERY_PLAN previews the action's exact scope;
 * RECOVERY_RUN stops exactly the processes the plan listed (a bystander
 * on another partition or VF keeps running, its data intact), runs the
 * action (a partition reset, a VF's FLR) and clears it only after the
 * self-test; it runs nothing (-EAGAIN) when the pending action changed
 * while the processes it stopped exited; a failing self-test escalates,
 * a reset failing midway leaves the state FAILED; hive and switch resets
 * that take other devices need AMDX_RECOVERY_F_OTHERS; consumptions of
 * poison past the queue's 16 escalate the device.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

#define REC_MAX_EVENTS	128
#define REC_NONE	0xffffffffU
#define REC_DEVS	3

struct rec_dev {
	unsigned int sim;
	__u32 id;
	int fd;
};

FIXTURE(rec) {
	int ctl;
	int ev;
	struct rec_dev d[REC_DEVS];
	unsigned int n;
	struct amdx_event evs[REC_MAX_EVENTS];
	unsigned int nevs;
};

FIXTURE_SETUP(rec)
{
	self->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->ctl, 0);
	self->n = 0;
	self->ev = -1;
	self->nevs = 0;
}

FIXTURE_TEARDOWN(rec)
{
	unsigned int i;

	if (self->ev >= 0)
		close(self->ev);
	for (i = 0; i < self->n; i++) {
		close(self->d[i].fd);
		amdx_sim_del(self->d[i].sim);
	}
	close(self->ctl);
}

/* Creates device @i (sim id recovery + @i) with @params; subscribes to 0. */
static void dev_new(struct __test_metadata *_metadata,
		    FIXTURE_DATA(rec) *self, const char *params)
{
	struct amdx_event_subscribe sub = {
		.mask = AMDX_EVENT_MASK_ALL,
		.flags = AMDX_EVENT_F_NONBLOCK,
	};
	struct rec_dev *d = &self->d[self->n];
	char bdf[AMDX_BDF_LEN];

	d->sim = AMDX_SIM_ID_MOD(recovery, self->n);
	amdx_sim_del(d->sim);
	ASSERT_EQ(0, amdx_sim_new(d->sim, params));
	amdx_sim_bdf(d->sim, bdf, sizeof(bdf));
	ASSERT_EQ(0, amdx_find_device(self->ctl, bdf, &d->id));
	d->fd = amdx_device_open(self->ctl, d->id);
	ASSERT_GE(d->fd, 0);
	if (!self->n++) {
		ASSERT_EQ(0, amdx_ioctl(d->fd, AMDX_IOC_EVENT_SUBSCRIBE, &sub));
		self->ev = sub.fd;
	}
}

/* Reads every waiting record of device 0 into self->evs. */
static void drain(struct __test_metadata *_metadata, FIXTURE_DATA(rec) *self)
{
	ssize_t n;

	for (;;) {
		n = read(self->ev, &self->evs[self->nevs],
			 (REC_MAX_EVENTS - self->nevs) * sizeof(self->evs[0]));
		if (n < 0) {
			ASSERT_EQ(EAGAIN, errno);
			break;
		}
		self->nevs += n / sizeof(self->evs[0]);
		ASSERT_LT(self->nevs, REC_MAX_EVENTS);
	}
}

/* Index of the first RECOVERY record of @type at or after @from, or -1. */
static int find_rec(FIXTURE_DATA(rec) *self, unsigned int from, __u32 type)
{
	unsigned int i;

	for (i = from; i < self->nevs; i++)
		if (self->evs[i].kind == AMDX_EVENT_RECOVERY &&
		    self->evs[i].type == type)
			return i;
	return -1;
}

static int find_kind(FIXTURE_DATA(rec) *self, __u16 kind)
{
	unsigned int i;

	for (i = 0; i < self->nevs; i++)
		if (self->evs[i].kind == kind)
			return i;
	return -1;
}

/* Index of the last RECOVERY PENDING record about @part, or -1. */
static int last_pending_on(FIXTURE_DATA(rec) *self, __u32 part)
{
	int i, found = -1;

	for (i = 0; i < (int)self->nevs; i++)
		if (self->evs[i].kind == AMDX_EVENT_RECOVERY &&
		    self->evs[i].type == AMDX_RECOVERY_EV_PENDING &&
		    self->evs[i].partition == part)
			found = i;
	return found;
}

static int plan(int fd, struct amdx_recovery *r, __u32 part, __u32 vf,
		__u32 action)
{
	memset(r, 0, sizeof(*r));
	r->partition = part;
	r->vf = vf;
	r->action = action;
	return amdx_ioctl(fd, AMDX_IOC_RECOVERY_PLAN, r);
}

static int run(int fd, struct amdx_recovery *r, __u32 part, __u32 action,
	       __u32 flags)
{
	memset(r, 0, sizeof(*r));
	r->partition = part;
	r->vf = REC_NONE;
	r->action = action;
	r->flags = flags;
	return amdx_ioctl(fd, AMDX_IOC_RECOVERY_RUN, r);
}

/*
 * A hang of device @i through the simulator: @knob (hang_queue: an XCC,
 * hang_vf: a VF, hang_firmware: 1) set to @val, then the wait for the
 * simulator's detection (its own work, a job timeout later) to report
 * fault @kind to the core through amdx_device_hang(): target (@part,
 * @vf)'s plan in @r.  Skips against the amdgpu provider (no such knob).
 */
#define HANG(i, knob, val, kind, part, vf, r) do {			\
	int __ret = amdx_sim_knob(self->d[i].sim, (knob), (val));	\
									\
	AMDX_SKIP_PROVIDER(__ret, "amdx_sim's hang knobs");		\
	ASSERT_EQ(0, __ret);						\
	ASSERT_EQ(0, amdx_recovery_wait(self->d[i].fd, (part), (vf),	\
					(kind), (r)));			\
} while (0)

/* A page of device fd @fd poison-retired: a umc deferred error at @page. */
static int retire(int fd, __u64 page)
{
	return amdx_ras_inject(fd, AMDX_RAS_BLOCK_UMC, AMDX_RAS_TYPE_DE, 0, 1,
			       page * sysconf(_SC_PAGESIZE));
}

/*
 * The board past its bad-page threshold, as the RAS policy says it: the
 * threshold of device fd @fd lowered to one page, with a page retired
 * already (retire()): the core flags the device for RMA, the board
 * fault.
 */
static int board(int fd)
{
	struct amdx_ras_policy p = {
		.valid = AMDX_RAS_POL_BAD_PAGE_THRESHOLD,
		.bad_page_threshold = 1,
	};

	return amdx_ioctl(fd, AMDX_IOC_RAS_SET_POLICY, &p);
}

static int commit(int fd, __u32 compute, __u32 memory)
{
	struct amdx_partition_config c = {
		.compute_mode = compute, .memory_mode = memory,
	};

	return amdx_ioctl(fd, AMDX_IOC_PARTITION_COMMIT, &c);
}

/* A gfx UE of one partition in CPX: partition reset, self-test, cleared. */
TEST_F(rec, engine_ue_costs_the_partition_and_clears_after_self_test)
{
	struct amdx_recovery r;
	int e, p, t, c;

	dev_new(_metadata, self, "model=mi300x");
	ASSERT_EQ(0, commit(self->d[0].fd, AMDX_COMPUTE_CPX, 0));
	drain(_metadata, self);
	self->nevs = 0;

	/* XCC 3 is partition 3 in CPX */
	ASSERT_EQ(0, amdx_ras_inject(self->d[0].fd, AMDX_RAS_BLOCK_GFX,
				     AMDX_RAS_TYPE_UE, 3, 1, 0));
	drain(_metadata, self);
	e = find_kind(self, AMDX_EVENT_ERROR);
	ASSERT_GE(e, 0);
	ASSERT_TRUE(self->evs[e].data[1] & AMDX_RECOVERY_SUM_VALID);
	EXPECT_EQ(AMDX_RECOVER_PARTITION,
		  AMDX_RECOVERY_SUM_ACTION(self->evs[e].data[1]));
	EXPECT_EQ(0, AMDX_RECOVERY_SUM_DEVICES(self->evs[e].data[1]));
	EXPECT_EQ(1, AMDX_RECOVERY_SUM_PARTITIONS(self->evs[e].data[1]));
	p = find_rec(self, e, AMDX_RECOVERY_EV_PENDING);
	ASSERT_GT(p, e);
	EXPECT_EQ(3, self->evs[p].partition);
	EXPECT_EQ(self->evs[e].seq, self->evs[p].address);
	EXPECT_EQ(AMDX_FAULT_ENGINE_UE, self->evs[p].block);
	/* the ladder's reset is the action: self-test, then cleared */
	t = find_rec(self, p, AMDX_RECOVERY_EV_SELFTEST);
	ASSERT_GT(t, p);
	EXPECT_EQ(0, self->evs[t].data[1]);
	c = find_rec(self, t, AMDX_RECOVERY_EV_CLEARED);
	ASSERT_GT(c, t);

	ASSERT_EQ(0, plan(self->d[0].fd, &r, 3, REC_NONE, AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_NONE, r.action);
	EXPECT_EQ(AMDX_RECOVERY_STATE_NONE, r.state);
}

/* A failing self-test escalates to the next rung and says so. */
TEST_F(rec, failing_self_test_escalates)
{
	struct amdx_recovery r;
	int s, x;

	dev_new(_metadata, self, "model=mi300x");
	ASSERT_EQ(0, commit(self->d[0].fd, AMDX_COMPUTE_CPX, 0));
	ASSERT_EQ(0, amdx_sim_knob(self->d[0].sim, "fail_self_test", 1));
	drain(_metadata, self);
	self->nevs = 0;

	ASSERT_EQ(0, amdx_ras_inject(self->d[0].fd, AMDX_RAS_BLOCK_GFX,
				     AMDX_RAS_TYPE_UE, 3, 1, 0));
	drain(_metadata, self);
	s = find_rec(self, 0, AMDX_RECOVERY_EV_SELFTEST);
	ASSERT_GE(s, 0);
	EXPECT_EQ(-EIO, (__s64)self->evs[s].data[1]);
	x = find_rec(self, s, AMDX_RECOVERY_EV_ESCALATED);
	ASSERT_GT(x, s);
	/* no VF is bound: after partition comes the device */
	EXPECT_EQ(AMDX_RECOVER_DEVICE,
		  AMDX_RECOVERY_SUM_ACTION(self->evs[x].data[0]));
	EXPECT_EQ(-1, find_rec(self, s, AMDX_RECOVERY_EV_CLEARED));

	ASSERT_EQ(0, plan(self->d[0].fd, &r, 3, REC_NONE, AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_DEVICE, r.action);
	EXPECT_EQ(AMDX_RECOVERY_STATE_PENDING, r.state);
	EXPECT_EQ(1, r.num_devices);
	EXPECT_EQ(8, r.num_partitions);

	/* running it, with a passing self-test, clears it */
	ASSERT_EQ(0, run(self->d[0].fd, &r, 3, AMDX_RECOVER_PENDING, 0));
	EXPECT_EQ(AMDX_RECOVERY_OUT_CLEARED, r.outcome);
	EXPECT_EQ(AMDX_RECOVERY_STATE_NONE, r.state);
	ASSERT_EQ(0, plan(self->d[0].fd, &r, 3, REC_NONE, AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_NONE, r.action);
}

/* A device that declares no partition reset pays for the device. */
TEST_F(rec, profile_without_partition_reset_picks_the_device)
{
	struct amdx_recovery r;
	int e;

	dev_new(_metadata, self, "model=mi300x resets=queue,pipe,device");
	ASSERT_EQ(0, commit(self->d[0].fd, AMDX_COMPUTE_CPX, 0));
	drain(_metadata, self);
	self->nevs = 0;
	ASSERT_EQ(0, amdx_ras_inject(self->d[0].fd, AMDX_RAS_BLOCK_GFX,
				     AMDX_RAS_TYPE_UE, 3, 1, 0));
	drain(_metadata, self);
	e = find_kind(self, AMDX_EVENT_ERROR);
	ASSERT_GE(e, 0);
	EXPECT_EQ(AMDX_RECOVER_DEVICE,
		  AMDX_RECOVERY_SUM_ACTION(self->evs[e].data[1]));
	EXPECT_EQ(1, AMDX_RECOVERY_SUM_DEVICES(self->evs[e].data[1]));
	EXPECT_EQ(8, AMDX_RECOVERY_SUM_PARTITIONS(self->evs[e].data[1]));
	ASSERT_EQ(0, plan(self->d[0].fd, &r, 3, REC_NONE, AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_DEVICE, r.action);
	EXPECT_EQ(AMDX_RECOVERY_STATE_PENDING, r.state);
	EXPECT_EQ(self->evs[e].seq, r.seq);
	EXPECT_EQ(AMDX_FAULT_ENGINE_UE, r.fault);
}

/*
 * A hung queue, found by the simulator's job timeout (hang_queue of XCC
 * 1, partition 1 in CPX): queue reset pending, run, cleared; never by
 * itself.
 */
TEST_F(rec, queue_hang_clears_only_after_run)
{
	struct amdx_recovery r;

	dev_new(_metadata, self, "model=mi300x reset_ms=queue:7");
	ASSERT_EQ(0, commit(self->d[0].fd, AMDX_COMPUTE_CPX, 0));
	HANG(0, "hang_queue", 1, AMDX_FAULT_QUEUE_HANG, 1, REC_NONE, &r);
	EXPECT_EQ(AMDX_RECOVER_QUEUE, r.action);
	EXPECT_EQ(AMDX_RECOVERY_STATE_PENDING, r.state);
	EXPECT_EQ(7, r.est_ms);
	EXPECT_EQ(0, r.num_devices);
	/* the other partitions have nothing pending */
	ASSERT_EQ(0, plan(self->d[0].fd, &r, 2, REC_NONE, AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_NONE, r.action);

	ASSERT_EQ(0, run(self->d[0].fd, &r, 1, AMDX_RECOVER_PENDING, 0));
	EXPECT_EQ(AMDX_RECOVERY_OUT_CLEARED, r.outcome);
	ASSERT_EQ(0, plan(self->d[0].fd, &r, 1, REC_NONE, AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_NONE, r.action);
	EXPECT_EQ(-ENOENT, run(self->d[0].fd, &r, 1, AMDX_RECOVER_PENDING, 0));
}

/* A reset that fails midway leaves FAILED, never none. */
TEST_F(rec, reset_failing_midway_leaves_failed)
{
	struct amdx_recovery r;

	dev_new(_metadata, self, "model=mi300x");
	ASSERT_EQ(0, commit(self->d[0].fd, AMDX_COMPUTE_CPX, 0));
	HANG(0, "hang_queue", 2, AMDX_FAULT_QUEUE_HANG, 2, REC_NONE, &r);
	ASSERT_EQ(0, amdx_sim_knob(self->d[0].sim, "fail_reset", 1));
	ASSERT_EQ(0, run(self->d[0].fd, &r, 2, AMDX_RECOVER_PENDING, 0));
	EXPECT_EQ(AMDX_RECOVERY_OUT_FAILED, r.outcome);
	EXPECT_EQ(-EIO, r.error);
	EXPECT_EQ(AMDX_RECOVERY_STATE_FAILED, r.state);
	ASSERT_EQ(0, plan(self->d[0].fd, &r, 2, REC_NONE, AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_QUEUE, r.action);
	EXPECT_EQ(AMDX_RECOVERY_STATE_FAILED, r.state);
	/* a second run, that works, clears it */
	ASSERT_EQ(0, run(self->d[0].fd, &r, 2, AMDX_RECOVER_PENDING, 0));
	EXPECT_EQ(AMDX_RECOVERY_OUT_CLEARED, r.outcome);
}

/* A device fd of device @id, on behalf of VF @vf unless it is REC_NONE. */
static int open_as(int ctl, __u32 id, __u32 vf)
{
	struct amdx_device_open o = {
		.id = id, .flags = AMDX_DEVICE_OPEN_F_VF, .vf = vf,
	};

	if (vf == REC_NONE)
		return amdx_device_open(ctl, id);
	return amdx_ioctl(ctl, AMDX_IOC_DEVICE_OPEN, &o) ?: o.fd;
}

/* Sends its tid on the fd at @arg, then waits until killed. */
static void *rec_idle(void *arg)
{
	pid_t tid = syscall(SYS_gettid);

	if (write(*(int *)arg, &tid, sizeof(tid)) != sizeof(tid))
		_exit(1);
	for (;;)
		pause();
	return NULL;
}

/*
 * A child holding one VRAM page of memory partition @mem (through VF @vf's
 * fd unless REC_NONE) until killed; sends 'y' (or 'n') on @ready.  With
 * @thread, a second thread then sends its tid on @ready: a tracer of that
 * thread holds the killed process back (its thread group is not empty,
 * so it has not exited) until the tracer reaps the traced thread.
 */
static pid_t holder_ex(int ctl, __u32 id, __u32 vf, __u32 mem, int ready,
		       bool thread)
{
	size_t ps = sysconf(_SC_PAGESIZE);
	struct amdx_hmm_attr a = {
		.valid = AMDX_HMM_ATTR_PREFERRED_LOC, .preferred_loc = mem,
	};
	struct amdx_hmm_migrate m = { .dest = mem };
	static int tid_fd;
	char ok = 'n';
	pthread_t t;
	pid_t pid;
	char *buf;
	int fd;

	pid = fork();
	if (pid)
		return pid;
	/* a failing test leaves no process behind */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = open_as(ctl, id, vf);
	buf = mmap(NULL, ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fd >= 0 && buf != MAP_FAILED) {
		memset(buf, 0x5a, ps);
		a.start = (uintptr_t)buf;
		a.size = ps;
		m.start = a.start;
		m.size = ps;
		if (!amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a) &&
		    !amdx_ioctl(fd, AMDX_IOC_HMM_MIGRATE, &m) && m.moved == 1)
			ok = 'y';
	}
	if (write(ready, &ok, 1) != 1)
		_exit(1);
	tid_fd = ready;
	if (thread && pthread_create(&t, NULL, rec_idle, &tid_fd))
		_exit(1);
	/* until killed */
	for (;;)
		pause();
}

static pid_t holder(int ctl, __u32 id, __u32 vf, __u32 mem, int ready)
{
	return holder_ex(ctl, id, vf, mem, ready, false);
}

static volatile sig_atomic_t rec_usr1;

static void rec_on_usr1(int sig)
{
	rec_usr1 = 1;
}

/*
 * A bystander: holds VRAM of @mem (through VF @vf's fd unless REC_NONE);
 * on SIGUSR1 exits 0 with its data intact.
 */
static pid_t bystander(int ctl, __u32 id, __u32 vf, __u32 mem, int ready)
{
	size_t ps = sysconf(_SC_PAGESIZE);
	struct amdx_hmm_attr a = {
		.valid = AMDX_HMM_ATTR_PREFERRED_LOC, .preferred_loc = mem,
	};
	struct amdx_hmm_migrate m = { .dest = mem };
	char ok = 'n';
	pid_t pid;
	size_t i;
	char *buf;
	int fd;

	pid = fork();
	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGUSR1, rec_on_usr1);
	fd = open_as(ctl, id, vf);
	buf = mmap(NULL, ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fd >= 0 && buf != MAP_FAILED) {
		memset(buf, 0x3c, ps);
		a.start = (uintptr_t)buf;
		a.size = ps;
		m.start = a.start;
		m.size = ps;
		if (!amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a) &&
		    !amdx_ioctl(fd, AMDX_IOC_HMM_MIGRATE, &m) && m.moved == 1)
			ok = 'y';
	}
	if (write(ready, &ok, 1) != 1)
		_exit(1);
	while (!rec_usr1)
		pause();
	for (i = 0; i < ps; i++)
		if (buf[i] != 0x3c)
			_exit(3);
	_exit(0);
}

/*
 * The bystander @b is still running; told to check its data, it finds it
 * intact and exits 0.
 */
static void bystander_intact(struct __test_metadata *_metadata, pid_t b)
{
	int status;

	EXPECT_EQ(0, waitpid(b, &status, WNOHANG));
	ASSERT_EQ(0, kill(b, SIGUSR1));
	ASSERT_EQ(b, waitpid(b, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * DPX + NPS2: partition 0 is memory partition 0, partition 1 memory
 * partition 1.  A queue of partition 0 hangs on a device that declares no
 * queue reset: the partition reset is the action.  Its plan lists
 * exactly its holder;
 * the run refuses without STOP, then kills exactly it; the bystander on
 * partition 1 keeps running with its data intact.
 */
TEST_F(rec, run_stops_exactly_the_planned_processes)
{
	struct amdx_recovery_process procs[4];
	int rp[2], rb[2], status;
	struct amdx_recovery r;
	pid_t h, b;
	char ok;

	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE))
		SKIP(return, "no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)");
	dev_new(_metadata, self, "model=mi300x resets=partition,vf,device");
	ASSERT_EQ(0, commit(self->d[0].fd, AMDX_COMPUTE_DPX, AMDX_MEMORY_NPS2));
	ASSERT_EQ(0, pipe(rp));
	ASSERT_EQ(0, pipe(rb));
	h = holder(self->ctl, self->d[0].id, REC_NONE, 0, rp[1]);
	ASSERT_GT(h, 0);
	b = bystander(self->ctl, self->d[0].id, REC_NONE, 1, rb[1]);
	ASSERT_GT(b, 0);
	ASSERT_EQ(1, read(rp[0], &ok, 1));
	ASSERT_EQ('y', ok);
	ASSERT_EQ(1, read(rb[0], &ok, 1));
	ASSERT_EQ('y', ok);

	/* XCC 0 is partition 0's in DPX */
	HANG(0, "hang_queue", 0, AMDX_FAULT_QUEUE_HANG, 0, REC_NONE, &r);
	memset(&r, 0, sizeof(r));
	r.partition = 0;
	r.vf = REC_NONE;
	r.action = AMDX_RECOVER_PENDING;
	r.processes = (uintptr_t)procs;
	r.num_listed = 4;
	ASSERT_EQ(0, amdx_ioctl(self->d[0].fd, AMDX_IOC_RECOVERY_PLAN, &r));
	EXPECT_EQ(AMDX_RECOVER_PARTITION, r.action);
	EXPECT_EQ(1, r.num_partitions);
	EXPECT_EQ(1, r.partitions[self->d[0].id]);
	EXPECT_EQ(1, r.num_processes);
	ASSERT_EQ(1, r.num_listed);
	EXPECT_EQ(h, procs[0].pid);
	EXPECT_EQ(0, procs[0].mem_partition);
	EXPECT_EQ(self->d[0].id, procs[0].device);

	/* holders and no STOP: refused, nothing stopped */
	EXPECT_EQ(-EBUSY, run(self->d[0].fd, &r, 0, AMDX_RECOVER_PENDING, 0));
	EXPECT_EQ(0, waitpid(h, &status, WNOHANG));

	ASSERT_EQ(0, run(self->d[0].fd, &r, 0, AMDX_RECOVER_PENDING,
			 AMDX_RECOVERY_F_STOP));
	EXPECT_EQ(AMDX_RECOVERY_OUT_CLEARED, r.outcome);
	ASSERT_EQ(h, waitpid(h, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGKILL, WTERMSIG(status));
	/* the bystander still runs, its data intact */
	bystander_intact(_metadata, b);
	close(rp[0]);
	close(rp[1]);
	close(rb[0]);
	close(rb[1]);
}

/*
 * The VF FLR rung.  CPX + NPS4, four VFs of two partitions each: VF n
 * holds compute partitions 2n and 2n + 1, whose memory is memory
 * partition n, its alone.  A hung VF 0: the plan lists exactly VF 0, its
 * two partitions and the process holding its VRAM; the run refuses
 * without STOP, then kills exactly that process, FLRs VF 0 and clears
 * after the self-test; a bystander of VF 1 keeps running, its data
 * intact.
 */
TEST_F(rec, vf_flr_stops_exactly_the_planned_processes)
{
	struct amdx_vf_config cfg[4];
	struct amdx_vf_enable en = {
		.num_vfs = 4, .flags = AMDX_VF_ENABLE_F_CUSTOM,
		.configs = (uintptr_t)cfg, .config_size = sizeof(cfg[0]),
	};
	struct amdx_recovery_process procs[4];
	int rp[2], rb[2], status, v, f;
	struct amdx_recovery r;
	unsigned int i;
	pid_t h, b;
	char ok;

	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE))
		SKIP(return, "no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)");
	/* four VFs of AMDX_VF_VRAM_MIN each */
	dev_new(_metadata, self, "model=mi300x vram=1024");
	ASSERT_EQ(0, commit(self->d[0].fd, AMDX_COMPUTE_CPX, AMDX_MEMORY_NPS4));
	memset(cfg, 0, sizeof(cfg));
	for (i = 0; i < 4; i++) {
		cfg[i].partition_mask = 3U << (2 * i);
		cfg[i].time_slice_us = AMDX_VF_TIME_SLICE_DEFAULT_US;
		cfg[i].vram_quota = AMDX_VF_VRAM_MIN;
		cfg[i].priority = AMDX_VF_PRIO_NORMAL;
	}
	ASSERT_EQ(0, amdx_ioctl(self->d[0].fd, AMDX_IOC_VF_ENABLE, &en));
	ASSERT_EQ(0, pipe(rp));
	ASSERT_EQ(0, pipe(rb));
	h = holder(self->ctl, self->d[0].id, 0, 0, rp[1]);
	ASSERT_GT(h, 0);
	b = bystander(self->ctl, self->d[0].id, 1, 1, rb[1]);
	ASSERT_GT(b, 0);
	ASSERT_EQ(1, read(rp[0], &ok, 1));
	ASSERT_EQ('y', ok);
	ASSERT_EQ(1, read(rb[0], &ok, 1));
	ASSERT_EQ('y', ok);
	drain(_metadata, self);
	self->nevs = 0;

	/* VF 0 stops answering: the simulator's heartbeat check finds it */
	HANG(0, "hang_vf", 0, AMDX_FAULT_VF_HANG, AMDX_RAS_PARTITION_ALL, 0,
	     &r);
	memset(&r, 0, sizeof(r));
	r.partition = AMDX_RAS_PARTITION_ALL;
	r.vf = 0;
	r.action = AMDX_RECOVER_PENDING;
	r.processes = (uintptr_t)procs;
	r.num_listed = 4;
	ASSERT_EQ(0, amdx_ioctl(self->d[0].fd, AMDX_IOC_RECOVERY_PLAN, &r));
	EXPECT_EQ(AMDX_RECOVER_VF, r.action);
	EXPECT_EQ(AMDX_FAULT_VF_HANG, r.fault);
	EXPECT_EQ(AMDX_RECOVERY_STATE_PENDING, r.state);
	EXPECT_EQ(0, r.num_devices);
	EXPECT_EQ(1, r.num_vfs);
	EXPECT_EQ(1, r.vfs[self->d[0].id]);
	EXPECT_EQ(2, r.num_partitions);
	EXPECT_EQ(3, r.partitions[self->d[0].id]);
	EXPECT_EQ(1, r.num_processes);
	ASSERT_EQ(1, r.num_listed);
	EXPECT_EQ(h, procs[0].pid);
	EXPECT_EQ(self->d[0].id, procs[0].device);
	EXPECT_EQ(0, procs[0].mem_partition);
	EXPECT_EQ(1, procs[0].pages);

	/* holders and no STOP: refused, nothing stopped */
	memset(&r, 0, sizeof(r));
	r.partition = AMDX_RAS_PARTITION_ALL;
	r.vf = 0;
	r.action = AMDX_RECOVER_PENDING;
	EXPECT_EQ(-EBUSY, amdx_ioctl(self->d[0].fd, AMDX_IOC_RECOVERY_RUN, &r));
	EXPECT_EQ(0, waitpid(h, &status, WNOHANG));

	memset(&r, 0, sizeof(r));
	r.partition = AMDX_RAS_PARTITION_ALL;
	r.vf = 0;
	r.action = AMDX_RECOVER_PENDING;
	r.flags = AMDX_RECOVERY_F_STOP;
	ASSERT_EQ(0, amdx_ioctl(self->d[0].fd, AMDX_IOC_RECOVERY_RUN, &r));
	EXPECT_EQ(AMDX_RECOVER_VF, r.action);
	EXPECT_EQ(AMDX_RECOVERY_OUT_CLEARED, r.outcome);
	EXPECT_EQ(AMDX_RECOVERY_STATE_NONE, r.state);
	EXPECT_EQ(1, r.num_processes);
	ASSERT_EQ(h, waitpid(h, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGKILL, WTERMSIG(status));

	/* one process stopped, VF 0 reset by FLR, self-test, cleared */
	drain(_metadata, self);
	f = find_rec(self, 0, AMDX_RECOVERY_EV_STOPPED);
	ASSERT_GE(f, 0);
	EXPECT_EQ(1, self->evs[f].data[1]);
	EXPECT_EQ(0, self->evs[f].instance);
	for (v = -1, i = f; i < self->nevs; i++)
		if (self->evs[i].kind == AMDX_EVENT_VF_RESET) {
			EXPECT_EQ(-1, v);
			v = i;
		}
	ASSERT_GT(v, f);
	EXPECT_EQ(AMDX_VF_RESET_CAUSE_FLR, self->evs[v].type);
	EXPECT_EQ(0, self->evs[v].instance);
	f = find_rec(self, v, AMDX_RECOVERY_EV_SELFTEST);
	ASSERT_GT(f, v);
	EXPECT_EQ(0, self->evs[f].data[1]);
	ASSERT_GT(find_rec(self, f, AMDX_RECOVERY_EV_CLEARED), f);
	ASSERT_EQ(0, plan(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL, 0,
			  AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_NONE, r.action);

	/* the bystander of VF 1 still runs, its data intact */
	bystander_intact(_metadata, b);
	close(rp[0]);
	close(rp[1]);
	close(rb[0]);
	close(rb[1]);
}

/*
 * RECOVERY_RUN drops the RAS lock while the processes it stopped exit, and
 * runs nothing (-EAGAIN) when the pending action changed meanwhile.  The
 * window is held open without a sleep: the holder has a second thread
 * this test traces, so the killed holder has not exited until this test
 * reaps that thread.  A firmware hang the simulator detects sets a device
 * reset; the run (in a child) stops the holder and waits; the board
 * crossing its bad-page threshold now sets an RMA; the thread reaped, the
 * run returns -EAGAIN having reset nothing, and the RMA is what is
 * pending.
 */
TEST_F(rec, run_runs_nothing_when_the_action_changed_while_it_waited)
{
	int rp[2], res[2], status, s, out[2];
	struct amdx_recovery r;
	struct pollfd pfd;
	pid_t h, tid, runner;
	char ok;

	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE))
		SKIP(return, "no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)");
	dev_new(_metadata, self, "model=mi300x");
	/* a page retired before the holder allocates: not the holder's */
	ASSERT_EQ(0, retire(self->d[0].fd, 3));
	ASSERT_EQ(0, pipe(rp));
	ASSERT_EQ(0, pipe(res));
	h = holder_ex(self->ctl, self->d[0].id, REC_NONE, 0, rp[1], true);
	ASSERT_GT(h, 0);
	ASSERT_EQ(1, read(rp[0], &ok, 1));
	ASSERT_EQ('y', ok);
	ASSERT_EQ(sizeof(tid), read(rp[0], &tid, sizeof(tid)));
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, tid, 0, 0));

	HANG(0, "hang_firmware", 1, AMDX_FAULT_FIRMWARE,
	     AMDX_RAS_PARTITION_ALL, REC_NONE, &r);
	ASSERT_EQ(AMDX_RECOVER_DEVICE, r.action);
	drain(_metadata, self);
	self->nevs = 0;
	runner = fork();
	ASSERT_GE(runner, 0);
	if (!runner) {
		out[0] = run(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL,
			     AMDX_RECOVER_PENDING, AMDX_RECOVERY_F_STOP);
		out[1] = r.outcome;
		_exit(write(res[1], out, sizeof(out)) != sizeof(out));
	}
	/* the run killed the holder: it now waits for it to exit */
	while ((s = find_rec(self, 0, AMDX_RECOVERY_EV_STOPPED)) < 0) {
		pfd.fd = self->ev;
		pfd.events = POLLIN;
		ASSERT_EQ(1, poll(&pfd, 1, -1));
		drain(_metadata, self);
	}
	EXPECT_EQ(1, self->evs[s].data[1]);
	/* the board crosses its threshold meanwhile: rma */
	ASSERT_EQ(0, board(self->d[0].fd));
	/* let the holder exit */
	ASSERT_EQ(tid, waitpid(tid, &status, __WALL));
	ASSERT_EQ(sizeof(out), read(res[0], out, sizeof(out)));
	EXPECT_EQ(-EAGAIN, out[0]);
	EXPECT_EQ(AMDX_RECOVERY_OUT_NONE, out[1]);
	ASSERT_EQ(runner, waitpid(runner, &status, 0));
	ASSERT_EQ(h, waitpid(h, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGKILL, WTERMSIG(status));

	/* nothing ran: no reset, no self-test; the RMA is pending */
	drain(_metadata, self);
	EXPECT_EQ(-1, find_kind(self, AMDX_EVENT_DEVICE_RESET_BEGIN));
	EXPECT_EQ(-1, find_rec(self, 0, AMDX_RECOVERY_EV_RAN));
	EXPECT_EQ(-1, find_rec(self, 0, AMDX_RECOVERY_EV_SELFTEST));
	ASSERT_EQ(0, plan(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL, REC_NONE,
			  AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_RMA, r.action);
	EXPECT_EQ(AMDX_FAULT_BOARD, r.fault);
	EXPECT_EQ(AMDX_RECOVERY_STATE_PENDING, r.state);
	close(rp[0]);
	close(rp[1]);
	close(res[0]);
	close(res[1]);
}

/* The consumption queue's length (AMDX_RECOVERY_QUEUE, the core's). */
#define REC_QUEUE	16

/* Reports @count consumptions of VRAM page @index by this process at once. */
static int consume(__u32 id, __u64 index, unsigned int count)
{
	char path[96], buf[48];

	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/amdx/amdx%u/recovery_consume", id);
	snprintf(buf, sizeof(buf), "%llu %u", (unsigned long long)index, count);
	return amdx_sysfs_write(path, buf);
}

/*
 * Consumptions of poison wait in a queue of 16 for the recovery worker.
 * Sixteen at once fit: the process action names the consumer (this
 * process, once) and the device has nothing pending.  Seventeen: one
 * finds the queue full, and the consumer it cannot name escalates the
 * device's action to the next rung past process (the device reset: no
 * partition to reset), with a PENDING record of its own.
 */
TEST_F(rec, a_full_consumption_queue_escalates_the_device)
{
	struct amdx_recovery r;
	unsigned int i, n;
	int p;

	dev_new(_metadata, self, "model=mi300x");
	drain(_metadata, self);
	self->nevs = 0;

	ASSERT_EQ(0, consume(self->d[0].id, 0, REC_QUEUE));
	ASSERT_EQ(0, plan(self->d[0].fd, &r, 0, REC_NONE, AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_PROCESS, r.action);
	EXPECT_EQ(AMDX_FAULT_POISON_CONSUMED, r.fault);
	EXPECT_EQ(1, r.num_processes);
	ASSERT_EQ(0, plan(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL, REC_NONE,
			  AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_NONE, r.action);
	drain(_metadata, self);
	EXPECT_EQ(-1, last_pending_on(self, AMDX_RAS_PARTITION_ALL));

	ASSERT_EQ(0, consume(self->d[0].id, 0, REC_QUEUE + 1));
	ASSERT_EQ(0, plan(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL, REC_NONE,
			  AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_DEVICE, r.action);
	EXPECT_EQ(AMDX_FAULT_POISON_CONSUMED, r.fault);
	EXPECT_EQ(AMDX_RECOVERY_STATE_PENDING, r.state);
	EXPECT_EQ(1, r.num_devices);
	drain(_metadata, self);
	p = last_pending_on(self, AMDX_RAS_PARTITION_ALL);
	ASSERT_GE(p, 0);
	EXPECT_EQ(AMDX_FAULT_POISON_CONSUMED, self->evs[p].block);
	EXPECT_EQ(AMDX_RECOVER_DEVICE,
		  AMDX_RECOVERY_SUM_ACTION(self->evs[p].data[0]));
	EXPECT_EQ(self->evs[p].seq, r.seq);
	/* one POISON_CONSUMED record per consumption, 33 in all */
	for (n = 0, i = 0; i < self->nevs; i++)
		n += self->evs[i].kind == AMDX_EVENT_POISON_CONSUMED;
	EXPECT_EQ(2 * REC_QUEUE + 1, n);

	/* the hook's bounds */
	EXPECT_EQ(-EINVAL, consume(self->d[0].id, 0, 0));
	EXPECT_EQ(-EINVAL, consume(self->d[0].id, 0, 2 * REC_QUEUE + 1));
	EXPECT_EQ(-EINVAL, consume(self->d[0].id, ~0ULL >> 12, 1));
}

/*
 * A consumer: one page of data in memory partition @mem; sends its VRAM
 * page index on @out, waits for a byte on @in, reads the page through the
 * device (poisoned by then: the device consumes the poison, -EIO, nobody
 * dies), sends the result, then runs until killed.
 */
static pid_t consumer(int ctl, __u32 id, __u32 mem, int in, int out)
{
	size_t ps = sysconf(_SC_PAGESIZE);
	struct amdx_hmm_attr a = {
		.valid = AMDX_HMM_ATTR_PREFERRED_LOC, .preferred_loc = mem,
	};
	struct amdx_hmm_migrate m = { .dest = mem };
	struct amdx_hmm_access rd = { .op = AMDX_HMM_ACCESS_READ };
	__u64 pfn = ~0ULL;
	char *buf, *tmp, go;
	int fd, ret;
	pid_t pid;

	pid = fork();
	if (pid)
		return pid;
	/* a failing test leaves no process behind */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = amdx_device_open(ctl, id);
	buf = mmap(NULL, ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tmp = malloc(ps);
	if (fd >= 0 && buf != MAP_FAILED && tmp) {
		memset(buf, 0x77, ps);
		a.start = m.start = rd.addr = (uintptr_t)buf;
		a.size = m.size = rd.size = ps;
		rd.buf = (uintptr_t)tmp;
		if (!amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a) &&
		    !amdx_ioctl(fd, AMDX_IOC_HMM_MIGRATE, &m) && m.moved == 1)
			pfn = amdx_vram_pfn(fd, buf);
	}
	if (write(out, &pfn, sizeof(pfn)) != sizeof(pfn) ||
	    read(in, &go, 1) != 1)
		_exit(1);
	ret = amdx_ioctl(fd, AMDX_IOC_HMM_ACCESS, &rd);
	if (write(out, &ret, sizeof(ret)) != sizeof(ret))
		_exit(2);
	/* until killed */
	for (;;)
		pause();
}

/*
 * DPX + NPS2.  A UE on a page of a process's data in memory partition 0
 * (compute partition 0); the process's device read consumes the poison.
 * The POISON_CONSUMED record carries the action it sets (process, one
 * process stopped); the pending action of partition 0 names that process:
 * the plan lists exactly it, the run refuses without STOP, then kills
 * exactly it, and clears after the self-test; a bystander on partition 1
 * keeps running with its data intact.
 */
TEST_F(rec, poison_consumed_stops_exactly_the_consumer)
{
	struct amdx_recovery_process procs[4];
	int to_c[2], from_c[2], rb[2], status, ret, e, p, t, c;
	size_t ps = sysconf(_SC_PAGESIZE);
	struct amdx_recovery r;
	unsigned int i;
	pid_t k, b;
	__u64 pfn;
	char ok;

	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE))
		SKIP(return, "no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)");
	dev_new(_metadata, self, "model=mi300x");
	ASSERT_EQ(0, commit(self->d[0].fd, AMDX_COMPUTE_DPX, AMDX_MEMORY_NPS2));
	ASSERT_EQ(0, pipe(to_c));
	ASSERT_EQ(0, pipe(from_c));
	ASSERT_EQ(0, pipe(rb));
	k = consumer(self->ctl, self->d[0].id, 0, to_c[0], from_c[1]);
	ASSERT_GT(k, 0);
	b = bystander(self->ctl, self->d[0].id, REC_NONE, 1, rb[1]);
	ASSERT_GT(b, 0);
	ASSERT_EQ(1, read(rb[0], &ok, 1));
	ASSERT_EQ('y', ok);
	ASSERT_EQ(sizeof(pfn), read(from_c[0], &pfn, sizeof(pfn)));
	ASSERT_NE(~0ULL, pfn);
	drain(_metadata, self);
	self->nevs = 0;

	ASSERT_EQ(0, amdx_ras_inject(self->d[0].fd, AMDX_RAS_BLOCK_UMC,
				     AMDX_RAS_TYPE_UE, 0, 1, pfn * ps));
	ok = 'g';
	ASSERT_EQ(1, write(to_c[1], &ok, 1));
	ASSERT_EQ(sizeof(ret), read(from_c[0], &ret, sizeof(ret)));
	ASSERT_EQ(-EIO, ret);

	memset(&r, 0, sizeof(r));
	r.partition = 0;
	r.vf = REC_NONE;
	r.action = AMDX_RECOVER_PENDING;
	r.processes = (uintptr_t)procs;
	r.num_listed = 4;
	ASSERT_EQ(0, amdx_ioctl(self->d[0].fd, AMDX_IOC_RECOVERY_PLAN, &r));
	EXPECT_EQ(AMDX_RECOVER_PROCESS, r.action);
	EXPECT_EQ(AMDX_FAULT_POISON_CONSUMED, r.fault);
	EXPECT_EQ(AMDX_RECOVERY_STATE_PENDING, r.state);
	EXPECT_EQ(0, r.num_devices);
	EXPECT_EQ(0, r.num_partitions);
	EXPECT_EQ(1, r.num_processes);
	ASSERT_EQ(1, r.num_listed);
	EXPECT_EQ(k, procs[0].pid);
	EXPECT_EQ(self->d[0].id, procs[0].device);
	EXPECT_EQ(0, procs[0].mem_partition);
	/* its one page of data there, as a wider action's plan says */
	EXPECT_EQ(1, procs[0].pages);

	/* the consumption's record carries its action; PENDING names it */
	drain(_metadata, self);
	e = find_kind(self, AMDX_EVENT_POISON_CONSUMED);
	ASSERT_GE(e, 0);
	EXPECT_EQ(pfn * ps, self->evs[e].address);
	EXPECT_EQ(k, self->evs[e].data[0]);
	ASSERT_TRUE(self->evs[e].data[1] & AMDX_RECOVERY_SUM_VALID);
	EXPECT_EQ(AMDX_RECOVER_PROCESS,
		  AMDX_RECOVERY_SUM_ACTION(self->evs[e].data[1]));
	EXPECT_EQ(0, AMDX_RECOVERY_SUM_DEVICES(self->evs[e].data[1]));
	EXPECT_EQ(1, AMDX_RECOVERY_SUM_PROCESSES(self->evs[e].data[1]));
	for (p = -1, i = e; i < self->nevs; i++)
		if (self->evs[i].kind == AMDX_EVENT_RECOVERY &&
		    self->evs[i].type == AMDX_RECOVERY_EV_PENDING &&
		    self->evs[i].address == self->evs[e].seq)
			p = i;
	ASSERT_GT(p, e);
	EXPECT_EQ(0, self->evs[p].partition);
	EXPECT_EQ(AMDX_FAULT_POISON_CONSUMED, self->evs[p].block);
	EXPECT_EQ(AMDX_RECOVER_PROCESS,
		  AMDX_RECOVERY_SUM_ACTION(self->evs[p].data[0]));
	EXPECT_EQ(self->evs[e].seq, r.seq);

	/* the consumer runs on: no STOP, nothing stopped */
	EXPECT_EQ(-EBUSY, run(self->d[0].fd, &r, 0, AMDX_RECOVER_PENDING, 0));
	EXPECT_EQ(0, waitpid(k, &status, WNOHANG));
	self->nevs = 0;
	ASSERT_EQ(0, run(self->d[0].fd, &r, 0, AMDX_RECOVER_PENDING,
			 AMDX_RECOVERY_F_STOP));
	EXPECT_EQ(AMDX_RECOVER_PROCESS, r.action);
	EXPECT_EQ(AMDX_RECOVERY_OUT_CLEARED, r.outcome);
	EXPECT_EQ(AMDX_RECOVERY_STATE_NONE, r.state);
	ASSERT_EQ(k, waitpid(k, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGKILL, WTERMSIG(status));
	/* stopped, then the self-test, then cleared */
	drain(_metadata, self);
	p = find_rec(self, 0, AMDX_RECOVERY_EV_STOPPED);
	ASSERT_GE(p, 0);
	EXPECT_EQ(1, self->evs[p].data[1]);
	t = find_rec(self, p, AMDX_RECOVERY_EV_SELFTEST);
	ASSERT_GT(t, p);
	EXPECT_EQ(0, self->evs[t].data[1]);
	c = find_rec(self, t, AMDX_RECOVERY_EV_CLEARED);
	ASSERT_GT(c, t);
	ASSERT_EQ(0, plan(self->d[0].fd, &r, 0, REC_NONE, AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_NONE, r.action);

	/* the bystander on partition 1 still runs, its data intact */
	bystander_intact(_metadata, b);
	close(to_c[0]);
	close(to_c[1]);
	close(from_c[0]);
	close(from_c[1]);
	close(rb[0]);
	close(rb[1]);
}

#define REC_CONSUMERS	5

/*
 * A process action names four consumers: a fifth on the same partition
 * escalates to the partition's reset, which stops every holder of its
 * memory, all five; the run stops exactly them.  The records say so:
 * each of the first four consumptions a PENDING process record naming
 * one more process, the fifth's a PENDING partition record (about its
 * POISON_CONSUMED record) counting all five, and the plan each one's
 * page.
 */
TEST_F(rec, a_fifth_consumer_escalates_to_the_partition)
{
	struct amdx_recovery_process procs[8];
	int to_c[2], from_c[REC_CONSUMERS][2], status, ret;
	size_t ps = sysconf(_SC_PAGESIZE);
	pid_t k[REC_CONSUMERS];
	struct amdx_recovery r;
	unsigned int i, j, found;
	__u64 pfn;
	char go = 'g';

	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE))
		SKIP(return, "no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)");
	dev_new(_metadata, self, "model=mi300x");
	ASSERT_EQ(0, commit(self->d[0].fd, AMDX_COMPUTE_DPX, AMDX_MEMORY_NPS2));
	ASSERT_EQ(0, pipe(to_c));
	drain(_metadata, self);
	self->nevs = 0;
	for (i = 0; i < REC_CONSUMERS; i++) {
		ASSERT_EQ(0, pipe(from_c[i]));
		k[i] = consumer(self->ctl, self->d[0].id, 0, to_c[0],
				from_c[i][1]);
		ASSERT_GT(k[i], 0);
		ASSERT_EQ(sizeof(pfn), read(from_c[i][0], &pfn, sizeof(pfn)));
		ASSERT_NE(~0ULL, pfn);
		ASSERT_EQ(0, amdx_ras_inject(self->d[0].fd, AMDX_RAS_BLOCK_UMC,
					     AMDX_RAS_TYPE_UE, 0, 1, pfn * ps));
	}
	for (i = 0; i < REC_CONSUMERS; i++)
		ASSERT_EQ(1, write(to_c[1], &go, 1));
	for (i = 0; i < REC_CONSUMERS; i++) {
		ASSERT_EQ(sizeof(ret), read(from_c[i][0], &ret, sizeof(ret)));
		ASSERT_EQ(-EIO, ret);
	}

	memset(&r, 0, sizeof(r));
	r.partition = 0;
	r.vf = REC_NONE;
	r.action = AMDX_RECOVER_PENDING;
	r.processes = (uintptr_t)procs;
	r.num_listed = 8;
	ASSERT_EQ(0, amdx_ioctl(self->d[0].fd, AMDX_IOC_RECOVERY_PLAN, &r));
	EXPECT_EQ(AMDX_RECOVER_PARTITION, r.action);
	EXPECT_EQ(AMDX_FAULT_POISON_CONSUMED, r.fault);
	EXPECT_EQ(1, r.num_partitions);
	EXPECT_EQ(REC_CONSUMERS, r.num_processes);
	ASSERT_EQ(REC_CONSUMERS, r.num_listed);
	for (i = 0; i < REC_CONSUMERS; i++) {
		for (found = 0, j = 0; j < r.num_listed; j++)
			found += procs[j].pid == k[i];
		EXPECT_EQ(1, found);
		EXPECT_EQ(1, procs[i].pages);
	}

	/* one POISON_CONSUMED per consumer, each answered by a PENDING */
	drain(_metadata, self);
	for (found = 0, i = 0; i < self->nevs; i++) {
		const struct amdx_event *e = &self->evs[i];
		__u64 sum;

		if (e->kind != AMDX_EVENT_POISON_CONSUMED)
			continue;
		for (j = i + 1; j < self->nevs; j++)
			if (self->evs[j].kind == AMDX_EVENT_RECOVERY &&
			    self->evs[j].type == AMDX_RECOVERY_EV_PENDING &&
			    self->evs[j].address == e->seq)
				break;
		ASSERT_LT(j, self->nevs) {
			TH_LOG("no PENDING record about consumption %u", found);
		}
		sum = self->evs[j].data[0];
		EXPECT_EQ(0, self->evs[j].partition);
		EXPECT_EQ(AMDX_FAULT_POISON_CONSUMED, self->evs[j].block);
		if (++found < REC_CONSUMERS) {
			EXPECT_EQ(AMDX_RECOVER_PROCESS,
				  AMDX_RECOVERY_SUM_ACTION(sum));
			EXPECT_EQ(found, AMDX_RECOVERY_SUM_PROCESSES(sum));
		} else {
			EXPECT_EQ(AMDX_RECOVER_PARTITION,
				  AMDX_RECOVERY_SUM_ACTION(sum));
			EXPECT_EQ(1, AMDX_RECOVERY_SUM_PARTITIONS(sum));
			EXPECT_EQ(REC_CONSUMERS,
				  AMDX_RECOVERY_SUM_PROCESSES(sum));
		}
	}
	EXPECT_EQ(REC_CONSUMERS, found);

	ASSERT_EQ(0, run(self->d[0].fd, &r, 0, AMDX_RECOVER_PENDING,
			 AMDX_RECOVERY_F_STOP));
	EXPECT_EQ(AMDX_RECOVERY_OUT_CLEARED, r.outcome);
	for (i = 0; i < REC_CONSUMERS; i++) {
		ASSERT_EQ(k[i], waitpid(k[i], &status, 0));
		EXPECT_TRUE(WIFSIGNALED(status));
		EXPECT_EQ(SIGKILL, WTERMSIG(status));
		close(from_c[i][0]);
		close(from_c[i][1]);
	}
	close(to_c[0]);
	close(to_c[1]);
}

/*
 * A fabric fault (an xgmi_wafl UE: the ladder's device reset, then the
 * hive's reset pending) resets the hive: others only with the flag.
 */
TEST_F(rec, hive_reset_needs_the_others_flag)
{
	struct amdx_recovery r;

	dev_new(_metadata, self, "model=mi300x hive=7ec0");
	dev_new(_metadata, self, "model=mi300x hive=7ec0");
	ASSERT_EQ(0, amdx_ras_inject(self->d[0].fd, AMDX_RAS_BLOCK_XGMI_WAFL,
				     AMDX_RAS_TYPE_UE, 0, 1, 0));
	ASSERT_EQ(0, plan(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL, REC_NONE,
			  AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_HIVE, r.action);
	EXPECT_EQ(2, r.num_devices);
	EXPECT_EQ((1ULL << self->d[0].id) | (1ULL << self->d[1].id), r.devices);
	EXPECT_EQ(-EXDEV, run(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL,
			  AMDX_RECOVER_PENDING, 0));
	ASSERT_EQ(0, run(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL,
			 AMDX_RECOVER_PENDING, AMDX_RECOVERY_F_OTHERS));
	EXPECT_EQ(AMDX_RECOVERY_OUT_CLEARED, r.outcome);
}

/*
 * The hive reset of device 0 resets device 1 too: once its self-test
 * passed, the actions pending on device 1 that the reset covers clear,
 * with a CLEARED record on device 1 naming each.
 */
TEST_F(rec, hive_reset_clears_what_it_covered_on_the_other_devices)
{
	struct amdx_event_subscribe sub = {
		.mask = 1ULL << AMDX_EVENT_RECOVERY,
		.flags = AMDX_EVENT_F_NONBLOCK,
	};
	struct amdx_event evs[16];
	unsigned int cleared = 0;
	struct amdx_recovery r;
	ssize_t n, i;

	dev_new(_metadata, self, "model=mi300x hive=7ec1");
	dev_new(_metadata, self, "model=mi300x hive=7ec1");
	/* device 1: its firmware and a queue of partition 0 hung */
	HANG(1, "hang_firmware", 1, AMDX_FAULT_FIRMWARE,
	     AMDX_RAS_PARTITION_ALL, REC_NONE, &r);
	HANG(1, "hang_queue", 0, AMDX_FAULT_QUEUE_HANG, 0, REC_NONE, &r);
	ASSERT_EQ(0, plan(self->d[1].fd, &r, AMDX_RAS_PARTITION_ALL, REC_NONE,
			  AMDX_RECOVER_PENDING));
	ASSERT_EQ(AMDX_RECOVERY_STATE_PENDING, r.state);
	ASSERT_EQ(0, amdx_ioctl(self->d[1].fd, AMDX_IOC_EVENT_SUBSCRIBE, &sub));

	ASSERT_EQ(0, amdx_ras_inject(self->d[0].fd, AMDX_RAS_BLOCK_XGMI_WAFL,
				     AMDX_RAS_TYPE_UE, 0, 1, 0));
	ASSERT_EQ(0, run(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL,
			 AMDX_RECOVER_PENDING, AMDX_RECOVERY_F_OTHERS));
	EXPECT_EQ(AMDX_RECOVER_HIVE, r.action);
	EXPECT_EQ(AMDX_RECOVERY_OUT_CLEARED, r.outcome);

	ASSERT_EQ(0, plan(self->d[1].fd, &r, AMDX_RAS_PARTITION_ALL, REC_NONE,
			  AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_NONE, r.action);
	EXPECT_EQ(AMDX_RECOVERY_STATE_NONE, r.state);
	ASSERT_EQ(0, plan(self->d[1].fd, &r, 0, REC_NONE, AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_NONE, r.action);
	n = read(sub.fd, evs, sizeof(evs));
	ASSERT_GT(n, 0);
	for (i = 0; i < n / (ssize_t)sizeof(evs[0]); i++)
		cleared += evs[i].type == AMDX_RECOVERY_EV_CLEARED;
	EXPECT_EQ(2, cleared);
	close(sub.fd);
}

/* A device reset below a switch is a secondary bus reset of its port. */
TEST_F(rec, switch_reset_takes_the_devices_below_it)
{
	struct amdx_recovery r;

	dev_new(_metadata, self, "model=mi300x switch=3 reset_ms=device:900");
	dev_new(_metadata, self, "model=mi300x switch=3 reset_ms=device:1200");
	dev_new(_metadata, self, "model=mi300x");
	ASSERT_EQ(0, plan(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL, REC_NONE,
			  AMDX_RECOVER_DEVICE));
	EXPECT_EQ(2, r.num_devices);
	EXPECT_EQ((1ULL << self->d[0].id) | (1ULL << self->d[1].id), r.devices);
	EXPECT_EQ(0, r.peers);
	/* the slowest device decides */
	EXPECT_EQ(1200, r.est_ms);
	/* the device on a root port resets alone */
	ASSERT_EQ(0, plan(self->d[2].fd, &r, AMDX_RAS_PARTITION_ALL, REC_NONE,
			  AMDX_RECOVER_DEVICE));
	EXPECT_EQ(1, r.num_devices);
	EXPECT_EQ(1ULL << self->d[2].id, r.devices);
	/* and nothing was pending on it: a run has nothing to do */
	EXPECT_EQ(-ENOENT, run(self->d[2].fd, &r, AMDX_RAS_PARTITION_ALL,
			  AMDX_RECOVER_PENDING, 0));
}

/* The ids a RESET_SCOPE query lists, as a bitmap. */
static __u64 reset_scope_ids(struct __test_metadata *_metadata, int fd)
{
	struct amdx_reset_scope rs;
	__u32 size = sizeof(rs), i;
	__u64 ids = 0;

	memset(&rs, 0, sizeof(rs));
	EXPECT_EQ(0, amdx_query(fd, AMDX_QUERY_RESET_SCOPE, 0, &rs, &size));
	EXPECT_GE(15, rs.num_devices);
	for (i = 0; i < rs.num_devices && i < 15; i++)
		ids |= 1ULL << rs.devices[i];
	EXPECT_EQ(rs.num_devices, (__u32)__builtin_popcountll(ids));
	return ids;
}

/*
 * What a device reset takes is the recovery model's answer wherever it is
 * asked: AMDX_QUERY_RESET_SCOPE lists exactly the devices the plan of a
 * device reset resets.  Device 0 is below switch 3 with device 1 and in a
 * hive with device 2: a reset of any of them takes all three (the hive,
 * then the switch's secondary bus reset, until nothing is added).
 */
TEST_F(rec, reset_scope_query_is_the_plan_of_a_device_reset)
{
	struct amdx_recovery r;
	__u64 all = 0;
	unsigned int i;

	dev_new(_metadata, self, "model=mi300x switch=3 hive=7ec4");
	dev_new(_metadata, self, "model=mi300x switch=3");
	dev_new(_metadata, self, "model=mi300x hive=7ec4");
	for (i = 0; i < self->n; i++)
		all |= 1ULL << self->d[i].id;
	for (i = 0; i < self->n; i++) {
		TH_LOG("device %u", self->d[i].id);
		ASSERT_EQ(0, plan(self->d[i].fd, &r, AMDX_RAS_PARTITION_ALL,
				  REC_NONE, AMDX_RECOVER_DEVICE));
		EXPECT_EQ(all, r.devices);
		EXPECT_EQ(r.devices, reset_scope_ids(_metadata, self->d[i].fd));
	}
}

/*
 * A plan of a reset the device does not declare is refused as its run
 * is, by the one rule: EOPNOTSUPP and the same cause in the log.  The
 * resets it declares plan as before.
 */
TEST_F(rec, plan_refuses_a_reset_the_device_does_not_declare)
{
	static const char why[] =
		"recovery: partition is not something this device can do";
	struct amdx_recovery r;
	int kmsg;

	dev_new(_metadata, self, "model=mi300x resets=queue,pipe,device");
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, kmsg);
	ASSERT_LE(0, lseek(kmsg, 0, SEEK_END));

	EXPECT_EQ(-EOPNOTSUPP, plan(self->d[0].fd, &r, 0, REC_NONE,
				    AMDX_RECOVER_PARTITION));
	EXPECT_TRUE(amdx_kmsg_has(kmsg, why));
	EXPECT_EQ(-EOPNOTSUPP, run(self->d[0].fd, &r, 0,
				   AMDX_RECOVER_PARTITION, 0));
	EXPECT_TRUE(amdx_kmsg_has(kmsg, why));
	/* declared: planned */
	ASSERT_EQ(0, plan(self->d[0].fd, &r, 0, REC_NONE, AMDX_RECOVER_QUEUE));
	EXPECT_EQ(AMDX_RECOVER_QUEUE, r.action);
	ASSERT_EQ(0, plan(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL, REC_NONE,
			  AMDX_RECOVER_DEVICE));
	EXPECT_EQ(1, r.num_devices);
	/* no hive: a hive reset is nothing it can do either */
	EXPECT_EQ(-EOPNOTSUPP, plan(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL,
				    REC_NONE, AMDX_RECOVER_HIVE));
	close(kmsg);
}

/*
 * The RECOVERY record of a fault reported without a record of its own
 * (a provider's hang detection, a failed reset, the board): the last
 * PENDING record from @from, or -1.
 */
static int last_pending(FIXTURE_DATA(rec) *self, unsigned int from)
{
	int i, found = -1;

	for (i = from; i < (int)self->nevs; i++)
		if (self->evs[i].kind == AMDX_EVENT_RECOVERY &&
		    self->evs[i].type == AMDX_RECOVERY_EV_PENDING)
			found = i;
	return found;
}

/*
 * Every fault kind that no error report carries, each through its real
 * path and on a target where it sets a new action (cheapest first, so
 * none is covered by an earlier one): a hung queue, VF or firmware the
 * simulator detects (amdx_device_hang()), a device reset that fails (the
 * firmware's reset run with fail_reset set), the board past its bad-page
 * threshold.  Its record carries the action and the scope summary, and
 * they are what the plan of that target then says, seq and fault
 * included.  A corrected error sets nothing and says nothing.  (The
 * faults an error report carries: the ladder runs their action at once,
 * the tests above.)
 */
TEST_F(rec, every_detected_fault_kind_records_the_action_the_plan_shows)
{
	static const struct {
		__u32 kind, dev, part, vf, action;
	} f[] = {
		{ AMDX_FAULT_QUEUE_HANG, 0, 0, REC_NONE, AMDX_RECOVER_QUEUE },
		{ AMDX_FAULT_VF_HANG, 0, REC_NONE, 0, AMDX_RECOVER_VF },
		{ AMDX_FAULT_FIRMWARE, 1, REC_NONE, REC_NONE, AMDX_RECOVER_DEVICE },
		{ AMDX_FAULT_RESET_FAILED, 1, REC_NONE, REC_NONE, AMDX_RECOVER_NODE },
		{ AMDX_FAULT_BOARD, 1, REC_NONE, REC_NONE, AMDX_RECOVER_RMA },
	};
	struct amdx_event_subscribe sub = {
		.mask = 1ULL << AMDX_EVENT_RECOVERY,
		.flags = AMDX_EVENT_F_NONBLOCK,
	};
	struct amdx_vf_enable en = { .num_vfs = 1 };
	struct amdx_recovery r;
	unsigned int i, seen = 0;
	__u32 part;
	__u64 sum;
	int p, ev1;
	ssize_t n;

	dev_new(_metadata, self, "model=mi300x hive=7ec3");
	dev_new(_metadata, self, "model=mi300x hive=7ec3");
	ASSERT_EQ(0, amdx_ioctl(self->d[0].fd, AMDX_IOC_VF_ENABLE, &en));
	ASSERT_EQ(0, amdx_ioctl(self->d[1].fd, AMDX_IOC_EVENT_SUBSCRIBE, &sub));
	ev1 = sub.fd;
	drain(_metadata, self);
	self->nevs = 0;

	/* a corrected error: nothing pending, no record */
	ASSERT_EQ(0, amdx_ras_inject(self->d[0].fd, AMDX_RAS_BLOCK_GFX,
				     AMDX_RAS_TYPE_CE, 0, 1, 0));
	drain(_metadata, self);
	EXPECT_EQ(-1, find_kind(self, AMDX_EVENT_RECOVERY));
	ASSERT_EQ(0, plan(self->d[0].fd, &r, 0, REC_NONE, AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_NONE, r.action);

	for (i = 0; i < ARRAY_SIZE(f); i++) {
		const int fd = self->d[f[i].dev].fd;

		TH_LOG("fault %u", f[i].kind);
		part = f[i].part == REC_NONE ? AMDX_RAS_PARTITION_ALL :
		       f[i].part;
		switch (f[i].kind) {
		case AMDX_FAULT_QUEUE_HANG:
			/* XCC 0: partition 0 in SPX */
			HANG(f[i].dev, "hang_queue", 0, f[i].kind, part,
			     f[i].vf, &r);
			break;
		case AMDX_FAULT_VF_HANG:
			HANG(f[i].dev, "hang_vf", f[i].vf, f[i].kind, part,
			     f[i].vf, &r);
			break;
		case AMDX_FAULT_FIRMWARE:
			HANG(f[i].dev, "hang_firmware", 1, f[i].kind, part,
			     f[i].vf, &r);
			break;
		case AMDX_FAULT_RESET_FAILED:
			/* the firmware's device reset, failing midway */
			ASSERT_EQ(0, amdx_sim_knob(self->d[f[i].dev].sim,
						   "fail_reset", 1));
			ASSERT_EQ(0, run(fd, &r, part, AMDX_RECOVER_PENDING,
					 AMDX_RECOVERY_F_OTHERS));
			EXPECT_EQ(AMDX_RECOVERY_OUT_FAILED, r.outcome);
			EXPECT_EQ(-EIO, r.error);
			break;
		default:
			ASSERT_EQ(0, retire(fd, 3));
			ASSERT_EQ(0, board(fd));
			break;
		}
		self->nevs = 0;
		if (f[i].dev) {
			n = read(ev1, self->evs, sizeof(self->evs));
			ASSERT_GT(n, 0);
			self->nevs = n / sizeof(self->evs[0]);
		} else {
			drain(_metadata, self);
		}
		p = last_pending(self, 0);
		ASSERT_GE(p, 0);
		sum = self->evs[p].data[0];
		ASSERT_TRUE(sum & AMDX_RECOVERY_SUM_VALID);
		EXPECT_EQ(f[i].action, AMDX_RECOVERY_SUM_ACTION(sum));
		EXPECT_EQ(f[i].kind, self->evs[p].block);
		EXPECT_EQ(0, self->evs[p].address);
		EXPECT_EQ(f[i].vf, self->evs[p].instance);

		ASSERT_EQ(0, plan(fd, &r, part, f[i].vf, AMDX_RECOVER_PENDING));
		EXPECT_EQ(f[i].action, r.action);
		EXPECT_EQ(AMDX_RECOVERY_STATE_PENDING, r.state);
		EXPECT_EQ(f[i].kind, r.fault);
		EXPECT_EQ(self->evs[p].seq, r.seq);
		EXPECT_EQ(AMDX_RECOVERY_SUM_DEVICES(sum), r.num_devices);
		EXPECT_EQ(AMDX_RECOVERY_SUM_PARTITIONS(sum), r.num_partitions);
		EXPECT_EQ(AMDX_RECOVERY_SUM_VFS(sum), r.num_vfs);
		EXPECT_EQ(AMDX_RECOVERY_SUM_PROCESSES(sum), r.num_processes);
		seen++;
	}
	EXPECT_EQ(ARRAY_SIZE(f), seen);
	close(ev1);
}

/*
 * The simulator's hang knobs refuse what the device lacks, each with
 * -EINVAL and nothing reported: an XCC of no partition, a VF not
 * enabled, a firmware value other than 1, a job timeout of 0 or past
 * its bound.
 */
TEST_F(rec, hang_knobs_refuse_what_the_device_lacks)
{
	static const struct {
		const char *knob;
		unsigned int val;
	} bad[] = {
		{ "hang_queue", 8 }, { "hang_queue", 31 },
		{ "hang_queue", 4000000000U }, { "hang_vf", 0 },
		{ "hang_vf", 99 }, { "hang_firmware", 0 },
		{ "hang_firmware", 2 }, { "job_timeout_ms", 0 },
		{ "job_timeout_ms", 10001 },
	};
	struct amdx_recovery r;
	char path[96];
	unsigned int i;
	int ret;

	dev_new(_metadata, self, "model=mi300x");
	ret = amdx_sim_knob(self->d[0].sim, "job_timeout_ms", 1);
	AMDX_SKIP_PROVIDER(ret, "amdx_sim's hang knobs");
	ASSERT_EQ(0, ret);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ret = amdx_sim_knob(self->d[0].sim, bad[i].knob, bad[i].val);
		EXPECT_EQ(-EINVAL, ret) {
			TH_LOG("knob %u: %u", i, bad[i].val);
		}
	}
	/* a write of no number */
	snprintf(path, sizeof(path), AMDX_SIM_DEBUGFS "/%u/hang_queue",
		 self->d[0].sim);
	EXPECT_EQ(-EINVAL, amdx_sysfs_write(path, "x"));
	/* one job timeout (1 ms) and more: nothing was reported */
	usleep(50000);
	ASSERT_EQ(0, plan(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL, REC_NONE,
			  AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_NONE, r.action);
	ASSERT_EQ(0, plan(self->d[0].fd, &r, 0, REC_NONE,
			  AMDX_RECOVER_PENDING));
	EXPECT_EQ(AMDX_RECOVER_NONE, r.action);
	EXPECT_EQ(1, amdx_sim_knob_read(self->d[0].sim, "job_timeout_ms"));
}

TEST_F(rec, bad_arguments)
{
	struct amdx_recovery r;

	dev_new(_metadata, self, "model=mi300x");
	memset(&r, 0, sizeof(r));
	r.partition = AMDX_RAS_PARTITION_ALL;
	r.vf = REC_NONE;
	r.flags = AMDX_RECOVERY_F_STOP;
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->d[0].fd, AMDX_IOC_RECOVERY_PLAN, &r));
	EXPECT_EQ(-EINVAL, plan(self->d[0].fd, &r, 0, 0, AMDX_RECOVER_VF));
	EXPECT_EQ(-EINVAL, plan(self->d[0].fd, &r, 1, REC_NONE, AMDX_RECOVER_PENDING));
	EXPECT_EQ(-EINVAL, plan(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL, REC_NONE,
			   AMDX_RECOVER_COUNT));
	/* partition reset of no partition */
	EXPECT_EQ(-EINVAL, plan(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL, REC_NONE,
			   AMDX_RECOVER_PARTITION));
	memset(&r, 0, sizeof(r));
	r.partition = AMDX_RAS_PARTITION_ALL;
	r.vf = REC_NONE;
	r.flags = 1U << 7;
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->d[0].fd, AMDX_IOC_RECOVERY_RUN, &r));
	/* rma and node are not amdx's to run */
	EXPECT_EQ(-EOPNOTSUPP, run(self->d[0].fd, &r, AMDX_RAS_PARTITION_ALL,
			  AMDX_RECOVER_NODE, 0));
}

TEST_HARNESS_MAIN
