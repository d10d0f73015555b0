// SPDX-License-Identifier: GPL-2.0
/*
 * Bounds: nothing a caller sizes decides what the kernel allocates or how
 * long it runs (Documentation/security.rst, "Bounds and caps").
 *
 *  - AMDX_QUERY_HMM_RANGES with a huge buffer size allocates for what the
 *    kernel holds and answers normally (it used to kvzalloc() the caller's
 *    size: 4 GiB hit the allocator's WARN).
 *  - A 64 TiB PROT_READ range marked with SET_ATTR: the ranges query, the
 *    PLAN holder scan and close return within seconds (they used to walk
 *    every page under a spinlock), MIGRATE over it dies promptly on
 *    SIGKILL, and so does close with pages in VRAM.
 *  - Caps: AMDX_HMM_RANGES_MAX ranges per fd (-ENOSPC), event subscribers
 *    per device and per uid (-EMFILE: AMDX_EVENT_SUBSCRIBERS_PER_USER per
 *    uid, the last AMDX_EVENT_SUBSCRIBERS_RESERVED only for
 *    CAP_SYS_ADMIN); holder ids per device and per uid (-ENOSPC from
 *    MIGRATE: AMDX_HMM_HOLDERS_PER_USER per uid, taken at an fd's first
 *    migration).
 *
 * The slow operations run in a child that opens its own device fd (HMM
 * contexts belong to the address space that opened them); the parent
 * bounds its time and, for the killable cases, sends SIGKILL.
 *
 * Each test creates its own amdx_sim device with an id derived from its
 * pid, so a test a broken kernel leaves stuck does not hold the next one.
 */
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

#define BOUNDS_SIM_PARAMS	"model=mi300x vram=64"
/* A huge sparse marking, as an attacker would: 64 TiB of PROT_READ. */
#define HUGE_SIZE		(64ULL << 40)
/* How long an operation over it may take (TCG is slow; a walk takes hours). */
#define BOUND_S			20
/* After SIGKILL, how long the child may take to die. */
#define KILL_BOUND_S		20
/* Each test, setup and the bounds above included (amdx_harness.h). */
#define TEST_S			120

#define HMM_NO_CAP		"no AMDX_CAP_HMM_MIGRATE"

FIXTURE(bounds)
{
	int ctl;
	unsigned int sim;
	bool created;
	__u32 id;
	int fd;
	bool hmm;
	long page;
};

FIXTURE_SETUP(bounds)
{
	const char *want = getenv("AMDX_EXPECT_DEVICE_PRIVATE");
	char bdf[AMDX_BDF_LEN];

	self->fd = -1;
	self->page = sysconf(_SC_PAGESIZE);
	self->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->ctl) TH_LOG("open %s: %s", AMDX_DEV_PATH,
				       strerror(errno));
	self->hmm = amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE;
	if (!self->hmm) {
		ASSERT_FALSE(want && atoi(want) == 1)
			TH_LOG("no AMDX_CAP_HMM_MIGRATE with DEVICE_PRIVATE");
	}
	self->sim = AMDX_SIM_ID_MOD(bounds, getpid());
	amdx_sim_del(self->sim);
	ASSERT_EQ(0, amdx_sim_new(self->sim, BOUNDS_SIM_PARAMS));
	self->created = true;
	amdx_sim_bdf(self->sim, bdf, sizeof(bdf));
	ASSERT_EQ(0, amdx_find_device(self->ctl, bdf, &self->id));
	self->fd = amdx_device_open(self->ctl, self->id);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(bounds)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->created)
		EXPECT_EQ(0, amdx_sim_del(self->sim));
	close(self->ctl);
}

static int set_attr(int fd, void *p, size_t size, __u32 gran)
{
	struct amdx_hmm_attr a = {
		.start = (uintptr_t)p,
		.size = size,
		.valid = AMDX_HMM_ATTR_GRANULARITY,
		.granularity = gran,
	};

	return amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a);
}

static int migrate(int fd, void *p, size_t size, __u32 dest)
{
	struct amdx_hmm_migrate m = {
		.start = (uintptr_t)p, .size = size, .dest = dest,
	};

	return amdx_ioctl(fd, AMDX_IOC_HMM_MIGRATE, &m);
}

static int query_ranges(int fd, void *buf, __u32 *size)
{
	return amdx_query(fd, AMDX_QUERY_HMM_RANGES, 0, buf, size);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait up to @secs for @pid: its wait status, or -1 if still running. */
static int wait_bounded(pid_t pid, double secs)
{
	double end = now_s() + secs;
	int status;

	do {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(10000);
	} while (now_s() < end);
	return -1;
}

/* What the child does between "ready" and the slow operation. */
enum slow_op {
	SLOW_QUERY,	/* AMDX_QUERY_HMM_RANGES */
	SLOW_PLAN,	/* PARTITION_PLAN of a memory-mode change */
	SLOW_MIGRATE,	/* MIGRATE home over the whole marking */
	SLOW_CLOSE,	/* close() of the device fd */
};

/*
 * Child: open a device fd of its own, mark HUGE_SIZE of PROT_READ (and,
 * with @resident, move one page of a small writable mapping inside it to
 * VRAM first), tell the parent, run @op.  Exit 0 on the expected result,
 * else the step that failed.
 */
static void slow_child(int ctl, __u32 id, int ready, enum slow_op op,
		       bool resident)
{
	struct amdx_partition_config c = {
		.compute_mode = AMDX_COMPUTE_CPX,
		.memory_mode = AMDX_MEMORY_NPS4,
	};
	char buf[4096];
	__u32 size = sizeof(buf);
	char *p, *w;
	int fd, ret;

	fd = amdx_device_open(ctl, id);
	if (fd < 0)
		_exit(10);
	p = mmap(NULL, HUGE_SIZE, PROT_READ,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		_exit(11);
	if (resident) {
		/* one writable page in the middle, with data */
		w = mmap(p + HUGE_SIZE / 2, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (w == MAP_FAILED)
			_exit(12);
		w[0] = 1;
	}
	if (set_attr(fd, p, HUGE_SIZE, AMDX_HMM_GRANULARITY_DEFAULT))
		_exit(13);
	if (resident && migrate(fd, p + HUGE_SIZE / 2, 4096, 0))
		_exit(14);
	if (write(ready, "r", 1) != 1)
		_exit(15);

	switch (op) {
	case SLOW_QUERY:
		ret = query_ranges(fd, buf, &size);
		_exit(ret ? 20 : 0);
	case SLOW_PLAN:
		ret = amdx_ioctl(fd, AMDX_IOC_PARTITION_PLAN, &c);
		/* holders counted, none: the marking has nothing in VRAM */
		_exit(ret ? 21 : !c.allowed ? 22 : c.num_holders ? 23 : 0);
	case SLOW_MIGRATE:
		ret = migrate(fd, p, HUGE_SIZE, AMDX_HMM_LOC_SYSTEM);
		_exit(ret ? 24 : 0);
	case SLOW_CLOSE:
		_exit(close(fd) ? 25 : 0);
	}
	_exit(30);
}

/*
 * Run slow_child(); with @kill_after_s >= 0 send SIGKILL that long after
 * the child is ready and expect it gone within KILL_BOUND_S, else expect
 * it to finish within BOUND_S with exit 0.  Returns the seconds taken.
 */
static double run_slow(struct __test_metadata *_metadata, int ctl, __u32 id,
		       enum slow_op op, bool resident, double kill_after_s)
{
	struct pollfd pfd;
	int pipefd[2], status;
	bool ready;
	double t0, dt;
	char c;
	pid_t pid;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(pipefd[0]);
		slow_child(ctl, id, pipefd[1], op, resident);
	}
	close(pipefd[1]);
	pfd = (struct pollfd){ .fd = pipefd[0], .events = POLLIN };
	ready = poll(&pfd, 1, 60000) == 1;
	if (!ready)
		kill(pid, SIGKILL);	/* not left running behind the test */
	ASSERT_TRUE(ready) TH_LOG("child not ready");
	if (read(pipefd[0], &c, 1) != 1) {
		status = wait_bounded(pid, 5);
		ASSERT_EQ(0, status) TH_LOG("setup failed: exit %d",
					    WEXITSTATUS(status));
	}
	close(pipefd[0]);
	t0 = now_s();
	if (kill_after_s >= 0) {
		usleep(kill_after_s * 1e6);
		kill(pid, SIGKILL);
		status = wait_bounded(pid, KILL_BOUND_S);
		dt = now_s() - t0;
		TH_LOG("op %d killed after %.1f s, gone after %.1f s", op,
		       kill_after_s, dt);
		ASSERT_NE(-1, status) TH_LOG("not dead %d s after SIGKILL",
					     KILL_BOUND_S);
		return dt;
	}
	status = wait_bounded(pid, BOUND_S);
	dt = now_s() - t0;
	if (status == -1)
		kill(pid, SIGKILL);
	TH_LOG("op %d took %.2f s", op, dt);
	ASSERT_NE(-1, status) TH_LOG("still running after %d s", BOUND_S);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	return dt;
}

/* A buffer size far beyond what the kernel holds is not an allocation. */
TEST_F_TIMEOUT(bounds, ranges_query_huge_size_allocates_what_is_held, TEST_S)
{
	static const __u32 sizes[] = { 0xffffffffU, 0x80000000U, 0x10000000U };
	struct amdx_query_hmm_ranges *r;
	__u32 size, need = 0;
	char *p;
	int i;

	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	p = mmap(NULL, 4 * self->page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, set_attr(self->fd, p, 4 * self->page, 0));
	ASSERT_EQ(0, query_ranges(self->fd, NULL, &need));
	ASSERT_EQ(sizeof(*r) + sizeof(r->ranges[0]), need);
	/* the kernel writes only what it holds: one page is room enough */
	r = mmap(NULL, self->page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r);
	for (i = 0; i < 3; i++) {
		size = sizes[i];
		memset(r, 0xff, self->page);
		EXPECT_EQ(0, query_ranges(self->fd, r, &size))
			TH_LOG("size %#x", sizes[i]);
		EXPECT_EQ(need, size);
		EXPECT_EQ(1, r->num_ranges);
		EXPECT_LE(AMDX_HMM_RANGE_INFO_SIZE_VER0, r->entry_size);
		EXPECT_EQ(getpid(), r->pid);
		EXPECT_EQ(0, r->pad);
		EXPECT_EQ((uintptr_t)p, r->ranges[0].start);
		EXPECT_EQ(4 * self->page, r->ranges[0].size);
		EXPECT_EQ(0, r->ranges[0].pad);
		EXPECT_EQ(0, r->ranges[0].reserved[0]);
		/* nothing past the result */
		EXPECT_EQ(0xff, ((unsigned char *)r)[need]);
	}
	munmap(r, self->page);
	munmap(p, 4 * self->page);
}

/*
 * AMDX_HMM_RANGES_MAX ranges per fd, then -ENOSPC and nothing changes;
 * the query returns all of them (more than one copy-out chunk).
 */
TEST_F_TIMEOUT(bounds, ranges_per_fd_cap_enospc, TEST_S)
{
	size_t n = AMDX_HMM_RANGES_MAX, i;
	struct amdx_query_hmm_ranges *r;
	size_t len = (n + 1) * self->page;
	__u32 size = 0, short_size;
	char *p;

	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	/* one range per page: neighbours differ, nothing merges */
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, set_attr(self->fd, p + i * self->page, self->page,
				      i & 1))
			TH_LOG("range %zu", i);
	}
	EXPECT_EQ(-ENOSPC, set_attr(self->fd, p + n * self->page, self->page,
				    n & 1));

	ASSERT_EQ(0, query_ranges(self->fd, NULL, &size));
	ASSERT_EQ(sizeof(*r) + n * sizeof(r->ranges[0]), size);
	r = malloc(size);
	ASSERT_NE(NULL, r);
	short_size = size - sizeof(r->ranges[0]);
	EXPECT_EQ(-ENOSPC, query_ranges(self->fd, r, &short_size));
	EXPECT_EQ(size, short_size);
	ASSERT_EQ(0, query_ranges(self->fd, r, &size));
	ASSERT_EQ(n, r->num_ranges);
	for (i = 0; i < n; i++) {
		EXPECT_EQ((uintptr_t)(p + i * self->page), r->ranges[i].start);
		EXPECT_EQ(i & 1, r->ranges[i].granularity);
		if (r->ranges[i].start != (uintptr_t)(p + i * self->page))
			break;
	}
	/* a change that needs no node still works at the cap */
	EXPECT_EQ(0, set_attr(self->fd, p, 2 * self->page, 0));
	EXPECT_EQ(0, set_attr(self->fd, p + n * self->page, self->page,
			      n & 1));
	free(r);
	munmap(p, len);
}

TEST_F_TIMEOUT(bounds, close_with_nothing_in_vram_is_quick, TEST_S)
{
	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	run_slow(_metadata, self->ctl, self->id, SLOW_CLOSE, false, -1);
}

TEST_F_TIMEOUT(bounds, migrate_over_huge_sparse_range_dies_on_sigkill, TEST_S)
{
	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	run_slow(_metadata, self->ctl, self->id, SLOW_MIGRATE, false, 1);
}

TEST_F_TIMEOUT(bounds, close_with_pages_in_vram_dies_on_sigkill, TEST_S)
{
	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	run_slow(_metadata, self->ctl, self->id, SLOW_CLOSE, true, 1);
}

static int subscribe(int fd)
{
	struct amdx_event_subscribe s = {
		.mask = 1ULL << AMDX_EVENT_ERROR,
		.ring_size = AMDX_EVENT_RING_MIN,
	};
	int ret = amdx_ioctl(fd, AMDX_IOC_EVENT_SUBSCRIBE, &s);

	return ret ? ret : s.fd;
}

/* Subscribe until it fails: how many, the last error in *@err. */
static int subscribe_all(int fd, int *fds, int max, int *err)
{
	int n = 0, ret;

	while (n < max) {
		ret = subscribe(fd);
		if (ret < 0) {
			*err = ret;
			return n;
		}
		fds[n++] = ret;
	}
	*err = 0;
	return n;
}

/*
 * Child of the subscriber cap test: as @uid, subscribe until refused,
 * report how many and the error on @done, hold them until @go closes.
 */
static void subscriber_child(int fd, uid_t uid, int go, int done)
{
	static int fds[AMDX_EVENT_SUBSCRIBERS_MAX + 8];
	int n, err;
	char c;

	if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
		_exit(10);
	n = subscribe_all(fd, fds, AMDX_EVENT_SUBSCRIBERS_MAX + 8, &err);
	if (write(done, &n, sizeof(n)) != sizeof(n) ||
	    write(done, &err, sizeof(err)) != sizeof(err))
		_exit(11);
	/* hold them until the parent closes the pipe */
	if (read(go, &c, 1) != 0)
		_exit(12);
	_exit(0);
}

/*
 * Without CAP_SYS_ADMIN one effective uid takes
 * AMDX_EVENT_SUBSCRIBERS_PER_USER subscriptions of a device, then
 * -EMFILE, and the next uid still gets as many: uids 1000, 1001, ...
 * (children, one after the other) fill the AMDX_EVENT_SUBSCRIBERS_MAX -
 * AMDX_EVENT_SUBSCRIBERS_RESERVED places users have, the uid after them
 * gets none (-EMFILE); root takes the reserve, then -EMFILE too; closing
 * one frees its place.
 */
TEST_F_TIMEOUT(bounds, event_subscribers_per_user_and_device_cap_emfile,
	       TEST_S)
{
	const int user_max = AMDX_EVENT_SUBSCRIBERS_MAX -
			     AMDX_EVENT_SUBSCRIBERS_RESERVED;
	const int users = user_max / AMDX_EVENT_SUBSCRIBERS_PER_USER;
	static int fds[AMDX_EVENT_SUBSCRIBERS_MAX + 8];
	struct rlimit rl = { 4096, 4096 };
	int go[2], done[2], n, err, status, k;
	pid_t pids[AMDX_EVENT_SUBSCRIBERS_MAX];

	if (geteuid())
		SKIP(return, "needs root to drop to uids 1000 and up");
	ASSERT_EQ(0, user_max % AMDX_EVENT_SUBSCRIBERS_PER_USER);
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	for (k = 0; k <= users; k++) {
		pids[k] = fork();
		ASSERT_LE(0, pids[k]);
		if (!pids[k]) {
			close(go[1]);
			close(done[0]);
			subscriber_child(self->fd, 1000 + k, go[0], done[1]);
		}
		ASSERT_EQ(sizeof(n), read(done[0], &n, sizeof(n)));
		ASSERT_EQ(sizeof(err), read(done[0], &err, sizeof(err)));
		EXPECT_EQ(k < users ? AMDX_EVENT_SUBSCRIBERS_PER_USER : 0, n)
			TH_LOG("uid %d", 1000 + k);
		EXPECT_EQ(-EMFILE, err) TH_LOG("uid %d", 1000 + k);
	}

	n = subscribe_all(self->fd, fds, AMDX_EVENT_SUBSCRIBERS_MAX + 8, &err);
	EXPECT_EQ(AMDX_EVENT_SUBSCRIBERS_RESERVED, n);
	EXPECT_EQ(-EMFILE, err);
	ASSERT_LT(0, n);
	close(fds[--n]);
	fds[n] = subscribe(self->fd);
	EXPECT_LE(0, fds[n]) TH_LOG("a closed subscriber's place: %d", fds[n]);
	if (fds[n] >= 0)
		n++;
	while (n > 0)
		close(fds[--n]);

	/* the children's subscriptions go with them */
	close(go[0]);
	close(go[1]);
	for (k = 0; k <= users; k++) {
		ASSERT_EQ(pids[k], waitpid(pids[k], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
			TH_LOG("uid %d: status %#x", 1000 + k, status);
	}
	/* all closed: room for everyone again */
	n = subscribe_all(self->fd, fds, user_max, &err);
	EXPECT_EQ(user_max, n);
	while (n > 0)
		close(fds[--n]);
	close(done[0]);
	close(done[1]);
}

/*
 * Child of the holder id cap test: as @uid, open @idle device fds that
 * never migrate (an fd takes its holder id at its first migration, not
 * at open), then device fds that each migrate the one page @p into VRAM,
 * until one is refused or @max did.  Reports the fds that migrated and
 * the last error on @done, holds everything until @go closes.
 */
static void holder_child(int ctl, __u32 id, uid_t uid, int idle, int max,
			 int go, int done)
{
	long page = sysconf(_SC_PAGESIZE);
	int n = 0, err = 0, fd, k;
	char *p, c;

	if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
		_exit(10);
	p = mmap(NULL, page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(11);
	memset(p, 1, page);
	for (k = 0; k < idle; k++)
		if (amdx_device_open(ctl, id) < 0)
			_exit(12);
	while (n < max) {
		fd = amdx_device_open(ctl, id);
		if (fd < 0) {
			err = fd;
			break;
		}
		err = set_attr(fd, p, page, 0);
		if (!err)
			err = migrate(fd, p, page, 0);
		if (err)
			break;
		n++;
	}
	if (write(done, &n, sizeof(n)) != sizeof(n) ||
	    write(done, &err, sizeof(err)) != sizeof(err))
		_exit(13);
	/* hold them until the parent closes the pipe */
	if (read(go, &c, 1) != 0)
		_exit(14);
	_exit(0);
}

/* Fork holder_child(); its count and error into *@n and *@err. */
static pid_t holder_run(struct __test_metadata *_metadata, int ctl, __u32 id,
			uid_t uid, int idle, int max, int go[2], int done[2],
			int *n, int *err)
{
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		close(go[1]);
		close(done[0]);
		holder_child(ctl, id, uid, idle, max, go[0], done[1]);
	}
	ASSERT_EQ(sizeof(*n), read(done[0], n, sizeof(*n)));
	ASSERT_EQ(sizeof(*err), read(done[0], err, sizeof(*err)));
	return pid;
}

/*
 * Holder ids are per user: without CAP_SYS_ADMIN the device fds of one
 * effective uid that migrated hold at most AMDX_HMM_HOLDERS_PER_USER ids
 * of a device, then MIGRATE fails with -ENOSPC; fds that never migrated
 * hold none.  Uid 1000 takes its share behind as many idle fds; uid 1001
 * and root still migrate; once uid 1000's fds are closed it migrates
 * again.
 */
TEST_F_TIMEOUT(bounds, holder_ids_per_user_cap_enospc, 600)
{
	const int cap = AMDX_HMM_HOLDERS_PER_USER;
	struct rlimit rl = { 4 * cap + 64, 4 * cap + 64 };
	int go[2], done[2], n, err, status;
	char *p;
	pid_t a, b;

	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	if (geteuid())
		SKIP(return, "needs root to drop to uids 1000 and 1001");
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));

	a = holder_run(_metadata, self->ctl, self->id, 1000, cap, cap + 8, go,
		       done, &n, &err);
	EXPECT_EQ(cap, n) TH_LOG("uid 1000: fds that migrated");
	EXPECT_EQ(-ENOSPC, err) TH_LOG("uid 1000: %s", strerror(-err));

	b = holder_run(_metadata, self->ctl, self->id, 1001, 0, 1, go, done,
		       &n, &err);
	EXPECT_EQ(1, n) TH_LOG("uid 1001 beside uid 1000's full share");
	EXPECT_EQ(0, err) TH_LOG("uid 1001: %s", strerror(-err));

	p = mmap(NULL, self->page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	memset(p, 1, self->page);
	ASSERT_EQ(0, set_attr(self->fd, p, self->page, 0));
	EXPECT_EQ(0, migrate(self->fd, p, self->page, 0)) TH_LOG("root");

	close(go[1]);
	ASSERT_EQ(a, waitpid(a, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("uid 1000: status %#x", status);
	ASSERT_EQ(b, waitpid(b, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("uid 1001: status %#x", status);
	close(go[0]);

	/* uid 1000's fds closed: its ids came back */
	ASSERT_EQ(0, pipe(go));
	a = holder_run(_metadata, self->ctl, self->id, 1000, 0, 1, go, done,
		       &n, &err);
	EXPECT_EQ(1, n) TH_LOG("uid 1000 after its fds closed");
	EXPECT_EQ(0, err) TH_LOG("uid 1000: %s", strerror(-err));
	close(go[1]);
	ASSERT_EQ(a, waitpid(a, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	close(go[0]);
	close(done[0]);
	close(done[1]);
	munmap(p, self->page);
}

/* Last: on a kernel that walks pages under a spinlock these wedge a CPU. */
TEST_F_TIMEOUT(bounds, ranges_query_over_huge_sparse_range_is_quick, TEST_S)
{
	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	run_slow(_metadata, self->ctl, self->id, SLOW_QUERY, false, -1);
}

TEST_F_TIMEOUT(bounds, plan_holders_over_huge_sparse_range_is_quick, TEST_S)
{
	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	run_slow(_metadata, self->ctl, self->id, SLOW_PLAN, false, -1);
}

TEST_HARNESS_MAIN
