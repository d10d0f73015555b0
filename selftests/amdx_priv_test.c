// SPDX-License-Identifier: GPL-2.0
/*
 * Privilege and privacy (Documentation/security.rst):
 *
 *  - /dev/amdx is root:render 0660 (the kernel's mode, the udev rule's
 *    group, applied by the guest init): a member of render (uid 1000) may
 *    open it, query, open devices, subscribe, PLAN and use HMM; a user in
 *    no GPU group (uid 1001) gets -EACCES; changes are -EPERM for both,
 *    even on fds root opened for them;
 *  - pids in PLAN holders and in events reach only CAP_SYS_ADMIN or the
 *    same effective uid, in the reader's pid namespace (0 when hidden or
 *    not visible there, comm all zero with it);
 *  - the pin quota is per uid and memory partition: one uid cannot pin a
 *    whole NPS partition, and another uid can still pin after it.
 *
 * The test runs as root and forks children that take other uids (the
 * guest's users, mkinitramfs.sh: 1000 in render, 1001 outside; 1002 is a
 * second member of render made up here).  Children never ASSERT: they
 * _exit() with the number of the step that failed, and the parent checks
 * it.  Each test creates amdx_sim device SIM_ID (MI300X, 256 MiB of VRAM).
 */
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

#define SIM_ID		AMDX_SIM_ID(priv, 0)
#define SIM_PARAMS	"model=mi300x vram=256"
#define MIB		(1UL << 20)
#define NPAGES		16
#define HMM_NO_CAP	"no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)"

/* An identity a child takes. */
struct who {
	uid_t uid;
	gid_t gid;
	bool render;	/* supplementary group render */
};

static const struct who member = { 1000, 1000, true };
static const struct who member2 = { 1002, 1002, true };
static const struct who outsider = { 1001, 1001, false };

/* The gid of group render in /etc/group (no NSS in a static binary). */
static gid_t render_gid(void)
{
	char line[256];
	gid_t gid = (gid_t)-1;
	FILE *f = fopen("/etc/group", "r");

	if (!f)
		return gid;
	while (fgets(line, sizeof(line), f)) {
		unsigned int g;

		if (sscanf(line, "render:%*[^:]:%u:", &g) == 1) {
			gid = g;
			break;
		}
	}
	fclose(f);
	return gid;
}

/* Become @w for good (no capabilities left): 0 or -errno. */
static int become(const struct who *w)
{
	gid_t groups[1] = { render_gid() };

	if (setgroups(w->render ? 1 : 0, groups) ||
	    setresgid(w->gid, w->gid, w->gid) ||
	    setresuid(w->uid, w->uid, w->uid))
		return -errno;
	return 0;
}

/* Exit status of child @pid: its step number, or 255 if it died. */
static int reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return 254;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

/* One byte through a pipe: the children's rendezvous. */
static int post(int fd)
{
	char c = 1;

	return write(fd, &c, 1) == 1 ? 0 : -1;
}

static int wait_post(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char c;

	if (poll(&p, 1, 60000) != 1)
		return -1;
	return read(fd, &c, 1) == 1 ? 0 : -1;
}

static int open_ctl(void)
{
	return open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
}

/* /dev/amdx and a device fd of @id in this process: 0 or a step number. */
static int open_dev(__u32 id, int *ctl, int *fd)
{
	*ctl = open_ctl();
	if (*ctl < 0)
		return 1;
	*fd = amdx_device_open(*ctl, id);
	return *fd < 0 ? 2 : 0;
}

static int set_attr(int fd, void *p, size_t size, __u32 valid, __u32 loc,
		    __u32 flags)
{
	struct amdx_hmm_attr a = {
		.start = (uintptr_t)p,
		.size = size,
		.valid = valid,
		.preferred_loc = loc,
		.flags = flags,
	};

	return amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a);
}

/* NPAGES of fresh memory moved into memory partition 0: 0 or -errno. */
static int to_vram(int fd, char **out)
{
	size_t size = NPAGES * sysconf(_SC_PAGESIZE);
	struct amdx_hmm_migrate m = { .size = size, .dest = 0 };
	char *p;
	int ret;

	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	memset(p, 0x5a, size);
	ret = set_attr(fd, p, size, AMDX_HMM_ATTR_PREFERRED_LOC, 0, 0);
	m.start = (uintptr_t)p;
	if (!ret)
		ret = amdx_ioctl(fd, AMDX_IOC_HMM_MIGRATE, &m);
	if (!ret && m.moved != NPAGES)
		ret = -EAGAIN;
	if (out)
		*out = p;
	return ret;
}

static int subscribe(int fd, __u64 mask, __u32 flags)
{
	struct amdx_event_subscribe s = { .mask = mask, .flags = flags };
	int ret = amdx_ioctl(fd, AMDX_IOC_EVENT_SUBSCRIBE, &s);

	return ret ? ret : s.fd;
}

/* The next record of @kind on event fd @efd within 30 s: 0 or -1. */
static int next_event(int efd, __u16 kind, struct amdx_event *ev)
{
	struct pollfd p = { .fd = efd, .events = POLLIN };

	for (;;) {
		if (poll(&p, 1, 30000) != 1)
			return -1;
		if (read(efd, ev, sizeof(*ev)) != sizeof(*ev))
			return -1;
		if (ev->kind == kind)
			return 0;
	}
}

/* PLAN of a memory-mode change with room for 4 holders. */
static int plan(int fd, struct amdx_partition_holder *h,
		struct amdx_partition_config *c)
{
	memset(c, 0, sizeof(*c));
	memset(h, 0xa5, 4 * sizeof(*h));
	c->compute_mode = AMDX_COMPUTE_CPX;
	c->memory_mode = AMDX_MEMORY_NPS4;
	c->holders = (uintptr_t)h;
	c->max_holders = 4;
	return amdx_ioctl(fd, AMDX_IOC_PARTITION_PLAN, c);
}

static bool all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		if (*b++)
			return false;
	return true;
}

FIXTURE(priv)
{
	int ctl;
	int fd;
	__u32 id;
	bool created;
	bool hmm;
};

FIXTURE_SETUP(priv)
{
	char bdf[AMDX_BDF_LEN];

	self->fd = -1;
	self->ctl = open_ctl();
	ASSERT_LE(0, self->ctl);
	amdx_sim_del(SIM_ID);	/* left behind by a crashed run */
	ASSERT_EQ(0, amdx_sim_new(SIM_ID, SIM_PARAMS));
	self->created = true;
	amdx_sim_bdf(SIM_ID, bdf, sizeof(bdf));
	ASSERT_EQ(0, amdx_find_device(self->ctl, bdf, &self->id));
	self->fd = amdx_device_open(self->ctl, self->id);
	ASSERT_LE(0, self->fd);
	self->hmm = amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE;
}

FIXTURE_TEARDOWN(priv)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->created)
		EXPECT_EQ(0, amdx_sim_del(SIM_ID));
	close(self->ctl);
}

/* ---- the device node */

TEST(node_is_root_render_0660)
{
	struct stat st;
	gid_t render = render_gid();

	ASSERT_NE((gid_t)-1, render) TH_LOG("no group render in /etc/group");
	ASSERT_EQ(0, stat(AMDX_DEV_PATH, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0660, st.st_mode & 07777);
	EXPECT_EQ(0, st.st_uid);
	EXPECT_EQ(render, st.st_gid);
}

/* Everything a member of render may do; step numbers on failure. */
static int member_checks(__u32 id, bool hmm)
{
	struct amdx_partition_holder h[4];
	struct amdx_partition_config c;
	struct amdx_device_info info;
	int ctl, fd, efd, ret;

	if (become(&member))
		return 1;
	ctl = open_ctl();
	if (ctl < 0)
		return 2;
	if (!(amdx_caps(ctl) & AMDX_CAP_DEVICE_QUERY))
		return 3;
	if (amdx_device_info(ctl, id, &info))
		return 4;
	fd = amdx_device_open(ctl, id);
	if (fd < 0)
		return 5;
	efd = subscribe(fd, AMDX_EVENT_MASK_ALL, 0);
	if (efd < 0)
		return 6;
	if (plan(fd, h, &c) || !c.allowed)
		return 7;
	if (hmm) {
		struct amdx_hmm_access a = { .op = AMDX_HMM_ACCESS_READ };
		char *p, *buf = malloc(NPAGES * sysconf(_SC_PAGESIZE));

		ret = to_vram(fd, &p);
		if (ret)
			return 8;
		a.addr = (uintptr_t)p;
		a.size = NPAGES * sysconf(_SC_PAGESIZE);
		a.buf = (uintptr_t)buf;
		if (!buf || amdx_ioctl(fd, AMDX_IOC_HMM_ACCESS, &a) ||
		    buf[0] != 0x5a)
			return 9;
	}
	return 0;
}

TEST_F_TIMEOUT(priv, member_opens_queries_subscribes_plans_migrates, 120)
{
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid)
		_exit(member_checks(self->id, self->hmm));
	EXPECT_EQ(0, reap(pid));
}

TEST(outsider_open_eacces)
{
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		int fd;

		if (become(&outsider))
			_exit(1);
		fd = open(AMDX_DEV_PATH, O_RDWR);
		if (fd >= 0)
			_exit(2);
		_exit(errno == EACCES ? 0 : 3);
	}
	EXPECT_EQ(0, reap(pid)) TH_LOG("2: uid 1001 opened %s", AMDX_DEV_PATH);
}

/* Every change, on fds root opened: -EPERM each; a bit per failure. */
static int mutation_checks(const struct who *w, int ctl, int fd, __u32 id)
{
	struct amdx_ras_inject inj = { .block = AMDX_RAS_BLOCK_GFX,
				       .type = AMDX_RAS_TYPE_CE, .count = 1 };
	struct amdx_ras_policy pol = { .valid = AMDX_RAS_POL_CE_WINDOW,
				       .ce_window_s = 60 };
	struct amdx_ras_badpages_import imp = {};
	struct amdx_partition_config c = { .compute_mode = AMDX_COMPUTE_CPX };
	struct amdx_vf_enable en = { .num_vfs = 1 };
	struct amdx_vf_disable dis = {};
	struct amdx_vf_set set = { .valid = AMDX_VF_SET_PRIORITY };
	struct amdx_vf_reset rst = {};
	struct amdx_device_open o = { .id = id, .flags = AMDX_DEVICE_OPEN_F_VF };
	int bad = 0;

	if (become(w))
		return 0x80;
	bad |= (amdx_ioctl(fd, AMDX_IOC_RAS_INJECT, &inj) != -EPERM) << 0;
	bad |= (amdx_ioctl(fd, AMDX_IOC_RAS_SET_POLICY, &pol) != -EPERM) << 1;
	bad |= (amdx_ioctl(fd, AMDX_IOC_RAS_BADPAGES_IMPORT, &imp) !=
		-EPERM) << 2;
	bad |= (amdx_ioctl(fd, AMDX_IOC_PARTITION_COMMIT, &c) != -EPERM) << 3;
	bad |= (amdx_ioctl(fd, AMDX_IOC_VF_ENABLE, &en) != -EPERM ||
		amdx_ioctl(fd, AMDX_IOC_VF_DISABLE, &dis) != -EPERM) << 4;
	bad |= (amdx_ioctl(fd, AMDX_IOC_VF_SET, &set) != -EPERM ||
		amdx_ioctl(fd, AMDX_IOC_VF_RESET, &rst) != -EPERM) << 5;
	bad |= (amdx_ioctl(ctl, AMDX_IOC_DEVICE_OPEN, &o) != -EPERM) << 6;
	return bad;
}

TEST_F(priv, mutations_eperm_for_member_and_outsider)
{
	const struct who *whos[] = { &member, &outsider };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (!pid)
			_exit(mutation_checks(whos[i], self->ctl, self->fd,
					      self->id));
		EXPECT_EQ(0, reap(pid)) TH_LOG("uid %u", whos[i]->uid);
	}
}

/* ---- pids in PLAN holders */

/*
 * A holder: a child that takes @w (NULL: stays root), moves NPAGES into
 * VRAM, posts on @ready and lives until @go is posted or closed.
 */
static pid_t holder_start(const struct who *w, __u32 id, int ready[2],
			  int go[2])
{
	pid_t pid;

	if (pipe(ready) || pipe(go))
		return -1;
	pid = fork();
	if (pid)
		return pid;
	close(ready[0]);
	close(go[1]);
	{
		int ctl, fd;
		char c;

		if (w && become(w))
			_exit(1);
		if (open_dev(id, &ctl, &fd))
			_exit(2);
		if (to_vram(fd, NULL))
			_exit(3);
		if (post(ready[1]))
			_exit(4);
		if (read(go[0], &c, 1) < 0)
			_exit(5);
		_exit(0);
	}
}

static void holder_stop(pid_t pid, int ready[2], int go[2])
{
	close(go[1]);
	close(ready[0]);
	reap(pid);
}

/*
 * A PLAN by @w (NULL: root) in a child: exit 0 when it sees holder @pid
 * as @want (0: hidden, comm zero; else that pid with a comm), else the
 * failing step.
 */
static int plan_sees(const struct who *w, __u32 id, pid_t want)
{
	struct amdx_partition_holder h[4];
	struct amdx_partition_config c;
	int ctl, fd;

	if (w && become(w))
		return 1;
	if (open_dev(id, &ctl, &fd))
		return 2;
	if (plan(fd, h, &c))
		return 3;
	if (c.num_holders != 1 || c.reason != AMDX_PART_REASON_BUSY)
		return 4;
	if (h[0].pages != NPAGES || h[0].mem_partition)
		return 5;
	if (h[0].pid != (__u32)want)
		return 6;
	if (!want && !all_zero(h[0].comm, sizeof(h[0].comm)))
		return 7;
	if (want && !h[0].comm[0])
		return 8;
	/* the rest of the caller's array is left alone */
	if (h[1].pid != 0xa5a5a5a5)
		return 9;
	return 0;
}

static int plan_child(const struct who *w, __u32 id, pid_t want)
{
	pid_t pid = fork();

	if (!pid)
		_exit(plan_sees(w, id, want));
	return pid < 0 ? 253 : reap(pid);
}

TEST_F_TIMEOUT(priv, plan_holders_only_for_admin_or_same_uid, 120)
{
	int ready[2], go[2];
	pid_t holder;

	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	/* root's data: root sees it, a member of render does not */
	holder = holder_start(NULL, self->id, ready, go);
	ASSERT_LE(0, holder);
	ASSERT_EQ(0, wait_post(ready[0]));
	EXPECT_EQ(0, plan_child(NULL, self->id, holder));
	EXPECT_EQ(0, plan_child(&member, self->id, 0));
	holder_stop(holder, ready, go);

	/* uid 1000's data: uid 1000 and root see it, uid 1002 does not */
	holder = holder_start(&member, self->id, ready, go);
	ASSERT_LE(0, holder);
	ASSERT_EQ(0, wait_post(ready[0]));
	EXPECT_EQ(0, plan_child(&member, self->id, holder));
	EXPECT_EQ(0, plan_child(NULL, self->id, holder));
	EXPECT_EQ(0, plan_child(&member2, self->id, 0));
	holder_stop(holder, ready, go);
}

/* Run @fn(@id, @arg) as pid 1 of a new pid namespace; its exit status. */
static int in_new_pidns(int (*fn)(__u32 id, long arg), __u32 id, long arg)
{
	pid_t pid = fork();

	if (pid < 0)
		return 253;
	if (!pid) {
		pid_t inner;

		if (unshare(CLONE_NEWPID))
			_exit(250);
		inner = fork();
		if (inner < 0)
			_exit(251);
		if (!inner)
			_exit(getpid() == 1 ? fn(id, arg) : 252);
		_exit(reap(inner));
	}
	return reap(pid);
}

static int plan_sees_hidden(__u32 id, long unused)
{
	return plan_sees(NULL, id, 0);
}

TEST_F_TIMEOUT(priv, plan_holders_in_the_readers_pid_namespace, 120)
{
	int ready[2], go[2];
	pid_t holder;

	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	holder = holder_start(NULL, self->id, ready, go);
	ASSERT_LE(0, holder);
	ASSERT_EQ(0, wait_post(ready[0]));
	/* even root sees nothing of a process outside its namespace */
	EXPECT_EQ(0, in_new_pidns(plan_sees_hidden, self->id, 0));
	/* and the parent namespace's reader sees it by its own number */
	EXPECT_EQ(0, plan_child(NULL, self->id, holder));
	holder_stop(holder, ready, go);
}

/* ---- pids in events */

/*
 * Subscriber as @w: subscribes to MIGRATE, posts on @ready, reads the two
 * pids it must see from @go, then expects two records to VRAM naming
 * them in order.
 */
static int event_sees(const struct who *w, __u32 id, int ready, int go)
{
	struct amdx_event ev;
	int ctl, fd, efd, i;
	pid_t want[2];

	if (w && become(w))
		return 1;
	if (open_dev(id, &ctl, &fd))
		return 2;
	efd = subscribe(fd, 1ULL << AMDX_EVENT_MIGRATE, 0);
	if (efd < 0)
		return 3;
	if (post(ready))
		return 4;
	if (read(go, want, sizeof(want)) != sizeof(want))
		return 5;
	for (i = 0; i < 2; i++) {
		if (next_event(efd, AMDX_EVENT_MIGRATE, &ev) || ev.type ||
		    ev.data[1] != NPAGES)
			return 6 + 2 * i;
		if (ev.data[0] != (__u64)want[i])
			return 7 + 2 * i;
	}
	return 0;
}

/* A child as @w moving NPAGES into VRAM: its pid, or -1. */
static pid_t migrator(const struct who *w, __u32 id)
{
	pid_t pid = fork();

	if (!pid) {
		int ctl, fd;

		if (become(w) || open_dev(id, &ctl, &fd) || to_vram(fd, NULL))
			_exit(1);
		_exit(0);
	}
	return pid;
}

/*
 * Root, uid 1000 and uid 1002 (both in render) subscribe; root migrates,
 * then uid 1000 does.  Root sees both pids, uid 1000 only its own
 * process's, uid 1002 neither.
 */
TEST_F_TIMEOUT(priv, event_pids_only_for_admin_or_same_uid, 120)
{
	const struct who *readers[] = { NULL, &member, &member2 };
	int ready[2], go[3][2];
	pid_t sub[3], mig, want[3][2];
	unsigned int i;

	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	ASSERT_EQ(0, pipe(ready));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, pipe(go[i]));
		sub[i] = fork();
		ASSERT_LE(0, sub[i]);
		if (!sub[i]) {
			close(go[i][1]);
			_exit(event_sees(readers[i], self->id, ready[1],
					 go[i][0]));
		}
		ASSERT_EQ(0, wait_post(ready[0])) TH_LOG("subscriber %u: %d",
							 i, reap(sub[i]));
	}
	ASSERT_EQ(0, to_vram(self->fd, NULL));
	mig = migrator(&member, self->id);
	ASSERT_LE(0, mig);
	ASSERT_EQ(0, reap(mig));

	want[0][0] = getpid();
	want[0][1] = mig;
	want[1][0] = 0;
	want[1][1] = mig;
	want[2][0] = 0;
	want[2][1] = 0;
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(sizeof(want[i]), write(go[i][1], want[i],
						 sizeof(want[i])));
		EXPECT_EQ(0, reap(sub[i])) TH_LOG("subscriber %u", i);
	}
}

/*
 * In a new pid namespace (pid 1 there, root): subscribe, let the parent
 * namespace migrate (@arg: the pipe pair), then migrate itself.  The
 * parent's process is not visible (0); itself it sees as 1.
 */
static int ns_event_sees(__u32 id, long arg)
{
	int *p = (int *)arg;	/* ready[1], go[0] */
	struct amdx_event ev;
	int ctl, fd, efd;
	char c;

	if (open_dev(id, &ctl, &fd))
		return 2;
	efd = subscribe(fd, 1ULL << AMDX_EVENT_MIGRATE, 0);
	if (efd < 0)
		return 3;
	if (post(p[0]) || read(p[1], &c, 1) != 1)
		return 4;
	if (to_vram(fd, NULL))
		return 5;
	if (next_event(efd, AMDX_EVENT_MIGRATE, &ev))
		return 6;
	if (ev.data[0] != 0)
		return 7;
	if (next_event(efd, AMDX_EVENT_MIGRATE, &ev))
		return 8;
	return ev.data[0] == 1 ? 0 : 9;
}

TEST_F_TIMEOUT(priv, event_pids_in_the_subscribers_pid_namespace, 120)
{
	int ready[2], go[2], ends[2];
	struct amdx_event ev;
	pid_t child;
	int efd;

	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	efd = subscribe(self->fd, 1ULL << AMDX_EVENT_MIGRATE, 0);
	ASSERT_LE(0, efd);
	ends[0] = ready[1];
	ends[1] = go[0];
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		_exit(in_new_pidns(ns_event_sees, self->id, (long)ends));
	ASSERT_EQ(0, wait_post(ready[0]));
	ASSERT_EQ(0, to_vram(self->fd, NULL));
	ASSERT_EQ(0, post(go[1]));
	EXPECT_EQ(0, reap(child));
	/* the parent namespace sees its own migration, then the child's */
	ASSERT_EQ(0, next_event(efd, AMDX_EVENT_MIGRATE, &ev));
	EXPECT_EQ(getpid(), ev.data[0]);
	ASSERT_EQ(0, next_event(efd, AMDX_EVENT_MIGRATE, &ev));
	EXPECT_NE(0, ev.data[0]);
	EXPECT_NE(getpid(), ev.data[0]);
	EXPECT_NE(1, ev.data[0]);
	close(efd);
}

/* ---- the pin quota */

/* Pin @size bytes of a fresh mapping on @fd: 0 or -errno. */
static int pin(int fd, size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return -ENOMEM;
	return set_attr(fd, p, size, AMDX_HMM_ATTR_FLAGS, 0, AMDX_HMM_F_PIN);
}

/*
 * A pinner as @w: pins what @sizes says (0 ends), expecting @want[i]
 * each; writes its status (0, or the failing step) to @ready and holds
 * its pins until @go closes.
 */
struct pins {
	size_t sizes[4];
	int want[4];
};

static pid_t pinner(const struct who *w, __u32 id, const struct pins *pl,
		    int ready, const int go[2])
{
	pid_t pid = fork();

	if (!pid) {
		char st = 0, c;
		int ctl, fd, i;

		close(go[1]);
		if (become(w) || open_dev(id, &ctl, &fd))
			st = 1;
		for (i = 0; !st && i < 4 && pl->sizes[i]; i++)
			if (pin(fd, pl->sizes[i]) != pl->want[i])
				st = 10 + i;
		if (write(ready, &st, 1) != 1)
			_exit(2);
		if (read(go[0], &c, 1) < 0)
			_exit(3);
		_exit(st);
	}
	return pid;
}

/* The status byte a pinner wrote, or -1. */
static int pinned(int ready)
{
	struct pollfd p = { .fd = ready, .events = POLLIN };
	char st;

	if (poll(&p, 1, 20000) != 1 || read(ready, &st, 1) != 1)
		return -1;
	return st;
}

/*
 * NPS4 of 256 MiB: four partitions of 64 MiB.  uid 1000 may pin half of
 * one (32 MiB) over all its fds, never a whole partition; uid 1002 can
 * still pin its own half afterwards.
 */
TEST_F_TIMEOUT(priv, pin_quota_per_uid_and_partition, 120)
{
	const size_t ps = sysconf(_SC_PAGESIZE);
	const struct pins a = {
		.sizes = { 64 * MIB, 32 * MIB, ps },
		.want = { -EDQUOT, 0, -EDQUOT },
	};
	const struct pins a2 = { .sizes = { ps }, .want = { -EDQUOT } };
	const struct pins b = { .sizes = { 32 * MIB }, .want = { 0 } };
	struct amdx_partition_config c = {
		.compute_mode = AMDX_COMPUTE_CPX,
		.memory_mode = AMDX_MEMORY_NPS4,
	};
	int ready[2], go[2];
	pid_t pa, pa2, pb;

	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	ASSERT_EQ(0, amdx_ioctl(self->fd, AMDX_IOC_PARTITION_COMMIT, &c));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	/* 10: a whole partition pinned; 12: more than half of one */
	pa = pinner(&member, self->id, &a, ready[1], go);
	ASSERT_LE(0, pa);
	EXPECT_EQ(0, pinned(ready[0])) TH_LOG("uid 1000");
	/* the same uid from another process: its quota is used up */
	pa2 = pinner(&member, self->id, &a2, ready[1], go);
	ASSERT_LE(0, pa2);
	EXPECT_EQ(0, pinned(ready[0])) TH_LOG("uid 1000, second process");
	/* another uid still has its half */
	pb = pinner(&member2, self->id, &b, ready[1], go);
	ASSERT_LE(0, pb);
	EXPECT_EQ(0, pinned(ready[0])) TH_LOG("uid 1002");
	close(go[1]);
	reap(pa);
	reap(pa2);
	reap(pb);
}

/*
 * All owners' pins together: at most 3/4 of the VRAM.  NPS1 of 256 MiB:
 * uid 1000 pins its half of the partition (128 MiB); uid 1002's half
 * would make 256 MiB, over the 192 MiB cap, -EDQUOT; 64 MiB reaches the
 * cap exactly and is allowed.
 */
TEST_F_TIMEOUT(priv, pin_cap_of_the_device_over_all_owners, 120)
{
	const struct pins a = { .sizes = { 128 * MIB }, .want = { 0 } };
	const struct pins b = {
		.sizes = { 128 * MIB, 64 * MIB },
		.want = { -EDQUOT, 0 },
	};
	int ready[2], go[2];
	pid_t pa, pb;

	if (!self->hmm)
		SKIP(return, HMM_NO_CAP);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pa = pinner(&member, self->id, &a, ready[1], go);
	ASSERT_LE(0, pa);
	EXPECT_EQ(0, pinned(ready[0])) TH_LOG("uid 1000");
	/* 10: over the device's cap; 11: up to it */
	pb = pinner(&member2, self->id, &b, ready[1], go);
	ASSERT_LE(0, pb);
	EXPECT_EQ(0, pinned(ready[0])) TH_LOG("uid 1002");
	close(go[1]);
	reap(pa);
	reap(pb);
}

TEST_HARNESS_MAIN
