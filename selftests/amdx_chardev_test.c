// SPDX-License-Identifier: GPL-2.0
/*
 * The /dev/amdx control node: open, query, error paths, size protocol;
 * against a simulated device (sim id 510): fds are installed only after
 * their number was copied out, event subscription flags, SET_ATTR's
 * unnamed fields and the enforced access attribute.
 */
#include <dirent.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

FIXTURE(amdx)
{
	int fd;
};

FIXTURE_SETUP(amdx)
{
	self->fd = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0) TH_LOG("open %s: %s", AMDX_DEV_PATH,
				       strerror(errno));
}

FIXTURE_TEARDOWN(amdx)
{
	close(self->fd);
}

TEST(open_close_repeatedly)
{
	int i, fd;

	for (i = 0; i < 100; i++) {
		fd = open(AMDX_DEV_PATH, O_RDONLY);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, close(fd));
	}
}

TEST_F(amdx, caps_report_version_and_query_cap)
{
	struct amdx_query_caps caps;
	uint32_t size = sizeof(caps);

	memset(&caps, 0xff, sizeof(caps));
	ASSERT_EQ(0, amdx_query(self->fd, AMDX_QUERY_CAPS, 0, &caps, &size));
	EXPECT_EQ(sizeof(caps), size);
	EXPECT_EQ(AMDX_UAPI_VERSION_MAJOR, caps.version_major);
	EXPECT_EQ(AMDX_UAPI_VERSION_MINOR, caps.version_minor);
	EXPECT_TRUE(caps.caps & AMDX_CAP_DEVICE_QUERY);
	EXPECT_EQ(0, caps.pad);
	EXPECT_EQ(0, caps.reserved[0] | caps.reserved[1] | caps.reserved[2] |
		     caps.reserved[3]);
}

/*
 * The VM runner says which kernel this is: the test kernel has
 * CONFIG_DEVICE_PRIVATE, Debian's stock kernel has not (it has
 * CONFIG_HMM_MIRROR, for nouveau and amdgpu), and the capability bits must
 * say so.
 */
TEST_F(amdx, caps_match_kernel_config)
{
	const char *want = getenv("AMDX_EXPECT_DEVICE_PRIVATE");
	uint64_t caps = amdx_caps(self->fd);

	if (!want)
		SKIP(return, "AMDX_EXPECT_DEVICE_PRIVATE not set by the runner");
	EXPECT_EQ(atoi(want), !!(caps & AMDX_CAP_DEVICE_PRIVATE));
	/* HMM migration exactly where device-private memory exists. */
	EXPECT_EQ(atoi(want), !!(caps & AMDX_CAP_HMM_MIGRATE));
}

TEST_F(amdx, query_size_zero_reports_size)
{
	uint32_t size = 0;

	ASSERT_EQ(0, amdx_query(self->fd, AMDX_QUERY_CAPS, 0, NULL, &size));
	EXPECT_EQ(sizeof(struct amdx_query_caps), size);
	size = 0;
	ASSERT_EQ(0, amdx_query(self->fd, AMDX_QUERY_DEVICES, 0, NULL, &size));
	EXPECT_EQ(0, (size - sizeof(struct amdx_query_devices)) %
			     sizeof(struct amdx_device_entry));
}

TEST_F(amdx, query_small_buffer_enospc_and_size)
{
	char buf[8];
	uint32_t size = sizeof(buf);

	EXPECT_EQ(-ENOSPC, amdx_query(self->fd, AMDX_QUERY_CAPS, 0, buf, &size));
	EXPECT_EQ(sizeof(struct amdx_query_caps), size);
}

/* A device list buffer smaller than its header: -ENOSPC and the size. */
TEST_F(amdx, query_devices_below_the_header_enospc_and_size)
{
	char buf[sizeof(struct amdx_query_devices) - 1];
	uint32_t size, need = 0;

	ASSERT_EQ(0, amdx_query(self->fd, AMDX_QUERY_DEVICES, 0, NULL, &need));
	size = sizeof(buf);
	memset(buf, 0xa5, sizeof(buf));
	EXPECT_EQ(-ENOSPC, amdx_query(self->fd, AMDX_QUERY_DEVICES, 0, buf,
				      &size));
	EXPECT_EQ(need, size);
	/* Nothing was written. */
	for (size_t i = 0; i < sizeof(buf); i++)
		ASSERT_EQ(0xa5, (unsigned char)buf[i]);
}

TEST_F(amdx, query_devices_two_call_protocol)
{
	struct amdx_query_devices *res;
	uint32_t size = 0, size2;

	ASSERT_EQ(0, amdx_query(self->fd, AMDX_QUERY_DEVICES, 0, NULL, &size));
	ASSERT_GE(size, sizeof(*res));
	res = calloc(1, size + 64);
	ASSERT_NE(NULL, res);
	size2 = size + 64;
	ASSERT_EQ(0, amdx_query(self->fd, AMDX_QUERY_DEVICES, 0, res, &size2));
	EXPECT_EQ(size, size2);
	EXPECT_EQ(size, sizeof(*res) + res->num_devices * sizeof(res->devices[0]));
	free(res);
}

TEST_F(amdx, query_bad_pointer_efault)
{
	uint32_t size = sizeof(struct amdx_query_caps);

	EXPECT_EQ(-EFAULT, amdx_query(self->fd, AMDX_QUERY_CAPS, 0,
				      (void *)8, &size));
	EXPECT_EQ(-EFAULT, amdx_ioctl(self->fd, AMDX_IOC_QUERY, (void *)8));
}

TEST_F(amdx, query_readonly_buffer_efault)
{
	uint32_t size = sizeof(struct amdx_query_caps);
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-EFAULT, amdx_query(self->fd, AMDX_QUERY_CAPS, 0, p, &size));
	munmap(p, 4096);
}

TEST_F(amdx, unknown_ioctl_enotty)
{
	uint64_t buf[8] = {};

	EXPECT_EQ(-ENOTTY, amdx_ioctl(self->fd,
				      _IOWR(AMDX_IOCTL_BASE, 0x3f, uint64_t),
				      buf));
	EXPECT_EQ(-ENOTTY, amdx_ioctl(self->fd, _IO('d', 1), NULL));
}

TEST_F(amdx, query_nonzero_reserved_einval)
{
	struct amdx_query q = { .query = AMDX_QUERY_CAPS };

	q.reserved[0] = 1;
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->fd, AMDX_IOC_QUERY, &q));
	q.reserved[0] = 0;
	q.flags = 0x80;
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->fd, AMDX_IOC_QUERY, &q));
}

TEST_F(amdx, query_unknown_query_einval)
{
	struct amdx_query q = { .query = 0xdead };

	EXPECT_EQ(-EINVAL, amdx_ioctl(self->fd, AMDX_IOC_QUERY, &q));
}

/* A caller built against a future, longer struct amdx_query. */
TEST_F(amdx, query_longer_struct_zero_tail_ok)
{
	struct {
		struct amdx_query q;
		uint64_t future[2];
	} big = { .q.query = AMDX_QUERY_CAPS };

	ASSERT_EQ(0, amdx_ioctl(self->fd, _IOWR(AMDX_IOCTL_BASE, 0,
						typeof(big)), &big));
	EXPECT_EQ(sizeof(struct amdx_query_caps), big.q.size);
	big.future[1] = 1;
	EXPECT_EQ(-E2BIG, amdx_ioctl(self->fd, _IOWR(AMDX_IOCTL_BASE, 0,
						     typeof(big)), &big));
}

TEST_F(amdx, query_shorter_than_v1_einval)
{
	uint64_t buf[2] = {};

	EXPECT_EQ(-EINVAL, amdx_ioctl(self->fd, _IOWR(AMDX_IOCTL_BASE, 0,
						      typeof(buf)), buf));
}

TEST_F(amdx, device_open_unknown_enodev)
{
	struct amdx_device_open o = { .id = 0x7ffffffe };

	EXPECT_EQ(-ENODEV, amdx_ioctl(self->fd, AMDX_IOC_DEVICE_OPEN, &o));
	o.flags = AMDX_DEVICE_OPEN_F_VF << 1;
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->fd, AMDX_IOC_DEVICE_OPEN, &o));
	/* A VF index needs AMDX_DEVICE_OPEN_F_VF. */
	o.flags = 0;
	o.vf = 1;
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->fd, AMDX_IOC_DEVICE_OPEN, &o));
}

TEST_F(amdx, device_info_unknown_enodev)
{
	struct amdx_device_info info;
	uint32_t size = sizeof(info);

	EXPECT_EQ(-ENODEV, amdx_query(self->fd, AMDX_QUERY_DEVICE_INFO,
				      0x7ffffffe, &info, &size));
}

/* ---- against a simulated device */

#define SIM_ID		AMDX_SIM_ID(core, 0)
#define SIM_ID2		AMDX_SIM_ID(core, 1)
#define SIM_PARAMS	"model=mi300x vram=64"
#define HMM_NO_CAP	"no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)"

/* Open fds of this process (/proc/self/fd, without the directory's). */
static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;
}

/* A page holding @len bytes of @arg, then made read-only. */
static void *readonly_copy(const void *arg, size_t len)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, arg, len);
	if (mprotect(p, 4096, PROT_READ)) {
		munmap(p, 4096);
		return NULL;
	}
	return p;
}

struct simdev {
	unsigned int sim;
	bool created;
	__u32 id;
	int fd;
};

struct devs {
	int ctl;
	bool hmm;
	struct simdev d[2];
};

FIXTURE(dev)
{
	struct devs s;
};

static int simdev_new(int ctl, struct simdev *d, unsigned int sim)
{
	char bdf[AMDX_BDF_LEN];
	int ret;

	d->sim = sim;
	amdx_sim_del(sim);	/* left behind by a crashed run */
	ret = amdx_sim_new(sim, SIM_PARAMS);
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

static void devs_setup(struct __test_metadata *_metadata, struct devs *s)
{
	s->d[0].fd = -1;
	s->d[1].fd = -1;
	s->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, s->ctl);
	s->hmm = amdx_caps(s->ctl) & AMDX_CAP_HMM_MIGRATE;
	ASSERT_EQ(0, simdev_new(s->ctl, &s->d[0], SIM_ID));
}

static void devs_teardown(struct __test_metadata *_metadata, struct devs *s)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (s->d[i].fd >= 0)
			close(s->d[i].fd);
		if (s->d[i].created)
			EXPECT_EQ(0, amdx_sim_del(s->d[i].sim));
	}
	close(s->ctl);
}

FIXTURE_SETUP(dev)
{
	devs_setup(_metadata, &self->s);
}

FIXTURE_TEARDOWN(dev)
{
	devs_teardown(_metadata, &self->s);
}

/*
 * The result cannot be copied back (read-only argument): -EFAULT, and the
 * caller's fd table is as before: no fd it was never told about.
 */
TEST_F(dev, device_open_efault_leaves_no_fd)
{
	struct amdx_device_open o = { .id = self->s.d[0].id };
	void *ro = readonly_copy(&o, sizeof(o));
	int before;

	ASSERT_NE(NULL, ro);
	before = count_fds();
	ASSERT_LT(0, before);
	EXPECT_EQ(-EFAULT, amdx_ioctl(self->s.ctl, AMDX_IOC_DEVICE_OPEN, ro));
	EXPECT_EQ(before, count_fds());
	munmap(ro, 4096);
}

TEST_F(dev, event_subscribe_efault_leaves_no_fd)
{
	struct amdx_event_subscribe s = { .mask = AMDX_EVENT_MASK_ALL };
	void *ro = readonly_copy(&s, sizeof(s));
	int before;

	ASSERT_NE(NULL, ro);
	before = count_fds();
	ASSERT_LT(0, before);
	EXPECT_EQ(-EFAULT, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_EVENT_SUBSCRIBE,
				      ro));
	EXPECT_EQ(before, count_fds());
	munmap(ro, 4096);
}

/* amdx's own flag bits: AMDX_EVENT_F_NONBLOCK, never O_NONBLOCK's value. */
TEST_F(dev, event_subscribe_amdx_flags)
{
	struct amdx_event_subscribe s = {
		.mask = AMDX_EVENT_MASK_ALL,
		.flags = AMDX_EVENT_F_NONBLOCK,
	};
	struct amdx_event ev;

	ASSERT_EQ(0, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_EVENT_SUBSCRIBE, &s));
	EXPECT_EQ(O_NONBLOCK, fcntl(s.fd, F_GETFL) & O_NONBLOCK);
	EXPECT_EQ(FD_CLOEXEC, fcntl(s.fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(-1, read(s.fd, &ev, sizeof(ev)));
	EXPECT_EQ(EAGAIN, errno);
	close(s.fd);

	s.flags = 0;
	ASSERT_EQ(0, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_EVENT_SUBSCRIBE, &s));
	EXPECT_EQ(0, fcntl(s.fd, F_GETFL) & O_NONBLOCK);
	close(s.fd);

	if (O_NONBLOCK != AMDX_EVENT_F_NONBLOCK) {
		s.flags = O_NONBLOCK;
		EXPECT_EQ(-EINVAL, amdx_ioctl(self->s.d[0].fd,
					      AMDX_IOC_EVENT_SUBSCRIBE, &s));
	}
	s.flags = ~AMDX_EVENT_F_ALL;
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_EVENT_SUBSCRIBE,
				      &s));
}

/* ---- SET_ATTR: a field valid does not name must be zero */

FIXTURE(attr)
{
	struct devs s;
};

FIXTURE_VARIANT(attr)
{
	__u32 field;	/* AMDX_HMM_ATTR_* of the field left unnamed */
};

FIXTURE_VARIANT_ADD(attr, preferred_loc) {
	.field = AMDX_HMM_ATTR_PREFERRED_LOC
};
FIXTURE_VARIANT_ADD(attr, granularity) { .field = AMDX_HMM_ATTR_GRANULARITY };
FIXTURE_VARIANT_ADD(attr, flags) { .field = AMDX_HMM_ATTR_FLAGS };
FIXTURE_VARIANT_ADD(attr, access) { .field = AMDX_HMM_ATTR_ACCESS };

FIXTURE_SETUP(attr)
{
	devs_setup(_metadata, &self->s);
}

FIXTURE_TEARDOWN(attr)
{
	devs_teardown(_metadata, &self->s);
}

static void *anon(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* An attribute that sets @field to a valid non-zero value. */
static void attr_with(struct amdx_hmm_attr *a, __u32 field, __u32 id)
{
	switch (field) {
	case AMDX_HMM_ATTR_PREFERRED_LOC:
		a->preferred_loc = AMDX_HMM_LOC_SYSTEM;
		break;
	case AMDX_HMM_ATTR_GRANULARITY:
		a->granularity = 4;
		break;
	case AMDX_HMM_ATTR_FLAGS:
		a->flags = AMDX_HMM_F_PIN;
		break;
	case AMDX_HMM_ATTR_ACCESS:
		a->access = 1ULL << id;
		break;
	}
}

TEST_F(attr, set_attr_unnamed_field_einval)
{
	__u32 field = variant->field;
	/* the one other attribute named: granularity, or flags for it */
	__u32 other = field == AMDX_HMM_ATTR_GRANULARITY ?
		      AMDX_HMM_ATTR_FLAGS : AMDX_HMM_ATTR_GRANULARITY;
	struct amdx_hmm_attr a;
	size_t size = 1 << 20;
	void *p;

	if (!self->s.hmm)
		SKIP(return, HMM_NO_CAP);
	p = anon(size);
	ASSERT_NE(NULL, p);
	memset(&a, 0, sizeof(a));
	a.start = (uintptr_t)p;
	a.size = size;
	a.valid = other;
	attr_with(&a, field, self->s.d[0].id);
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_HMM_SET_ATTR, &a));
	/* named, the same value is taken */
	a.valid |= field;
	EXPECT_EQ(0, amdx_ioctl(self->s.d[0].fd, AMDX_IOC_HMM_SET_ATTR, &a));
	munmap(p, size);
}

/* ---- the access attribute is enforced by the mirror (HMM_ACCESS) */

static int dev_read(int fd, void *p, size_t size, void *buf)
{
	struct amdx_hmm_access x = {
		.addr = (uintptr_t)p,
		.size = size,
		.buf = (uintptr_t)buf,
		.op = AMDX_HMM_ACCESS_READ,
	};

	return amdx_ioctl(fd, AMDX_IOC_HMM_ACCESS, &x);
}

static int set_access(int fd, void *p, size_t size, __u64 access)
{
	struct amdx_hmm_attr a = {
		.start = (uintptr_t)p,
		.size = size,
		.valid = AMDX_HMM_ATTR_ACCESS,
		.access = access,
	};

	return amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a);
}

TEST_F(dev, access_attr_denies_unnamed_device)
{
	size_t size = 1 << 20, half = size / 2;
	__u64 me = 1ULL << self->s.d[0].id;
	char *p, *buf;

	if (!self->s.hmm)
		SKIP(return, HMM_NO_CAP);
	p = anon(size);
	buf = malloc(size);
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, buf);
	memset(p, 7, size);
	/* memory without any range: nothing to enforce */
	EXPECT_EQ(0, dev_read(self->s.d[0].fd, p, size, buf));
	/* a range granting no device: -EACCES, also for a span touching it */
	ASSERT_EQ(0, set_access(self->s.d[0].fd, p + half, half, 0));
	EXPECT_EQ(-EACCES, dev_read(self->s.d[0].fd, p + half, half, buf));
	EXPECT_EQ(-EACCES, dev_read(self->s.d[0].fd, p, size, buf));
	EXPECT_EQ(0, dev_read(self->s.d[0].fd, p, half, buf));
	/* granted again */
	ASSERT_EQ(0, set_access(self->s.d[0].fd, p + half, half, me));
	EXPECT_EQ(0, dev_read(self->s.d[0].fd, p, size, buf));
	EXPECT_EQ(7, buf[size - 1]);
	free(buf);
	munmap(p, size);
}

/* A range set through device A's fd governs device B's access too. */
TEST_F(dev, access_attr_across_devices)
{
	size_t size = 1 << 20;
	__u64 a_bit = 1ULL << self->s.d[0].id, b_bit;
	char *p, *buf;

	if (!self->s.hmm)
		SKIP(return, HMM_NO_CAP);
	ASSERT_EQ(0, simdev_new(self->s.ctl, &self->s.d[1], SIM_ID2));
	b_bit = 1ULL << self->s.d[1].id;
	p = anon(size);
	buf = malloc(size);
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, buf);
	memset(p, 9, size);
	ASSERT_EQ(0, set_access(self->s.d[0].fd, p, size, a_bit));
	EXPECT_EQ(0, dev_read(self->s.d[0].fd, p, size, buf));
	EXPECT_EQ(-EACCES, dev_read(self->s.d[1].fd, p, size, buf));
	ASSERT_EQ(0, set_access(self->s.d[0].fd, p, size, a_bit | b_bit));
	EXPECT_EQ(0, dev_read(self->s.d[1].fd, p, size, buf));
	EXPECT_EQ(9, buf[0]);
	free(buf);
	munmap(p, size);
}

/* ---- a provider without some operations (amdx_sim's without=) */

FIXTURE(without)
{
	int ctl;
	int fd;
	bool created;
};

FIXTURE_SETUP(without)
{
	self->ctl = open(AMDX_DEV_PATH, O_RDWR);
	ASSERT_LE(0, self->ctl);
	self->fd = -1;
	amdx_sim_del(SIM_ID);
}

FIXTURE_TEARDOWN(without)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->created)
		amdx_sim_del(SIM_ID);
	close(self->ctl);
}

/* Create SIM_ID with @params and open it: 0 or -errno. */
static int without_new(int ctl, const char *params, bool *created, int *fd,
		       __u32 *id)
{
	char bdf[AMDX_BDF_LEN];
	int ret = amdx_sim_new(SIM_ID, params);

	if (ret)
		return ret;
	*created = true;
	amdx_sim_bdf(SIM_ID, bdf, sizeof(bdf));
	ret = amdx_find_device(ctl, bdf, id);
	if (ret)
		return ret;
	*fd = amdx_device_open(ctl, *id);
	return *fd < 0 ? *fd : 0;
}

#define WITHOUT(params) ({						\
	__u32 id;							\
	ASSERT_EQ(0, without_new(self->ctl, SIM_PARAMS " " params,	\
				 &self->created, &self->fd, &id));	\
	id;								\
})

TEST_F(without, unknown_operation_is_einval_and_creates_nothing)
{
	EXPECT_EQ(-EINVAL, amdx_sim_new(SIM_ID, SIM_PARAMS " without=sriov,warp"));
	EXPECT_EQ(-EINVAL, amdx_sim_new(SIM_ID, SIM_PARAMS " without="));
	EXPECT_EQ(-ENODEV, amdx_sim_del(SIM_ID));
}

/* No mode switches: PLAN and COMMIT are -EOPNOTSUPP, nothing changes. */
TEST_F(without, modes)
{
	struct amdx_partition_config c = { .compute_mode = AMDX_COMPUTE_CPX };
	struct amdx_device_info info;
	__u32 id = WITHOUT("without=modes");

	EXPECT_EQ(-EOPNOTSUPP, amdx_ioctl(self->fd, AMDX_IOC_PARTITION_PLAN, &c));
	EXPECT_EQ(-EOPNOTSUPP, amdx_ioctl(self->fd, AMDX_IOC_PARTITION_COMMIT,
					  &c));
	ASSERT_EQ(0, amdx_device_info(self->ctl, id, &info));
	EXPECT_EQ(AMDX_COMPUTE_SPX, info.compute_mode);
}

/*
 * No SR-IOV: every VF ioctl that passes its own checks is -EOPNOTSUPP;
 * malformed ones stay -EINVAL (the arguments are checked first).
 */
TEST_F(without, sriov)
{
	struct amdx_vf_enable e = { .num_vfs = 1 };
	struct amdx_vf_disable d = {};
	struct amdx_vf_set s = { .valid = AMDX_VF_SET_PRIORITY };
	struct amdx_vf_reset r = {};
	struct amdx_device_info info;
	__u32 id = WITHOUT("without=sriov");

	EXPECT_EQ(-EOPNOTSUPP, amdx_ioctl(self->fd, AMDX_IOC_VF_ENABLE, &e));
	EXPECT_EQ(-EOPNOTSUPP, amdx_ioctl(self->fd, AMDX_IOC_VF_DISABLE, &d));
	EXPECT_EQ(-EOPNOTSUPP, amdx_ioctl(self->fd, AMDX_IOC_VF_SET, &s));
	EXPECT_EQ(-EOPNOTSUPP, amdx_ioctl(self->fd, AMDX_IOC_VF_RESET, &r));
	EXPECT_EQ(AMDX_PART_REASON_VF_UNSUPPORTED, r.reason);
	s.valid = 0;
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->fd, AMDX_IOC_VF_SET, &s));
	r = (struct amdx_vf_reset){ .flags = 1 };
	EXPECT_EQ(-EINVAL, amdx_ioctl(self->fd, AMDX_IOC_VF_RESET, &r));
	EXPECT_EQ(AMDX_PART_REASON_NONE, r.reason);
	ASSERT_EQ(0, amdx_device_info(self->ctl, id, &info));
	EXPECT_EQ(0, info.num_vfs);
}

/* No injection: a valid RAS_INJECT is -EOPNOTSUPP, reason NO_INJECT. */
TEST_F(without, inject)
{
	struct amdx_ras_inject in = {
		.block = AMDX_RAS_BLOCK_GFX, .type = AMDX_RAS_TYPE_CE, .count = 1,
	};

	WITHOUT("without=inject");
	EXPECT_EQ(-EOPNOTSUPP, amdx_ioctl(self->fd, AMDX_IOC_RAS_INJECT, &in));
	EXPECT_EQ(AMDX_RAS_INJECT_REASON_NO_INJECT, in.reason);
}

/* No HMM VRAM: the device says so and the HMM ioctls are -EOPNOTSUPP. */
TEST_F(without, hmm)
{
	struct amdx_hmm_attr a = { .valid = AMDX_HMM_ATTR_GRANULARITY };
	struct amdx_device_info info;
	__u32 size = 0;
	__u32 id = WITHOUT("without=hmm");
	void *p;

	ASSERT_EQ(0, amdx_device_info(self->ctl, id, &info));
	EXPECT_EQ(0, info.flags & AMDX_DEVICE_F_HMM);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	a.start = (uintptr_t)p;
	a.size = 4096;
	EXPECT_EQ(-EOPNOTSUPP, amdx_ioctl(self->fd, AMDX_IOC_HMM_SET_ATTR, &a));
	EXPECT_EQ(-EOPNOTSUPP, amdx_query(self->fd, AMDX_QUERY_HMM_RANGES, 0,
					  NULL, &size));
	munmap(p, 4096);
}

/*
 * No partition reset: a GFX UE's containment quarantines the partition,
 * cannot reset it, and leaves it offline.
 */
TEST_F(without, reset)
{
	char buf[sizeof(struct amdx_query_partitions) +
		 sizeof(struct amdx_partition_info)];
	struct amdx_query_partitions *q = (void *)buf;
	__u32 size = sizeof(buf);

	WITHOUT("without=reset");
	ASSERT_EQ(0, amdx_ras_inject(self->fd, AMDX_RAS_BLOCK_GFX,
				     AMDX_RAS_TYPE_UE, 0, 1, 0));
	memset(buf, 0, sizeof(buf));
	ASSERT_EQ(0, amdx_query(self->fd, AMDX_QUERY_PARTITIONS, 0, buf, &size));
	ASSERT_EQ(1, q->num_partitions);
	EXPECT_EQ(AMDX_PART_STATE_OFFLINE, q->partitions[0].state);
}

TEST_HARNESS_MAIN
