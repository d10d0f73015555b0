// SPDX-License-Identifier: GPL-2.0
/*
 * The /dev/amdx control node: open, query, error paths, size protocol.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "amdx_selftest.h"
#include "kselftest_harness.h"

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

TEST_HARNESS_MAIN
