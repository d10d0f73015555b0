// SPDX-License-Identifier: GPL-2.0
/*
 * Privilege (Documentation/security.rst): /dev/amdx is root:render 0660
 * (the kernel's mode, the udev rule's group, applied by the guest init):
 * a member of render (uid 1000) may open it, query, open devices,
 * subscribe, PLAN and use HMM; a user in no GPU group (uid 1001) gets
 * -EACCES; changes are -EPERM for both, even on fds root opened for them.
 *
 * The test runs as root and forks children that take other uids (the
 * guest's users, mkinitramfs.sh: 1000 in render, 1001 outside).  Children
 * never ASSERT: they _exit() with the number of the step that failed, and
 * the parent checks it.  Each test creates amdx_sim device 500 (MI300X,
 * 256 MiB of VRAM).
 */
#include <grp.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "amdx_selftest.h"
#include "kselftest_harness.h"

#define SIM_ID		500
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

static int open_ctl(void)
{
	return open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
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

TEST_HARNESS_MAIN
