// SPDX-License-Identifier: GPL-2.0
/*
 * Unloading amdx and amdx_sim while in use is refused or safe.  Runs last
 * (the runner sorts by name) and leaves both modules loaded again.
 */
#include <stdlib.h>
#include <sys/syscall.h>

#include "amdx_selftest.h"
#include "kselftest_harness.h"

#define MOD_DIR "/lib/amdx"
#define SIM_ID 990

static int unload(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK) ? -errno : 0;
}

static int load(const char *name)
{
	return amdx_module_load(MOD_DIR, name);
}

/* The amdx id of the sim device with BDF @bdf, or -1. */
static int find_id(int ctl, const char *bdf)
{
	struct amdx_query_devices *res;
	uint32_t size = 0, i;
	int id = -1;

	if (amdx_query(ctl, AMDX_QUERY_DEVICES, 0, NULL, &size))
		return -1;
	res = calloc(1, size);
	if (!res || amdx_query(ctl, AMDX_QUERY_DEVICES, 0, res, &size)) {
		free(res);
		return -1;
	}
	for (i = 0; i < res->num_devices; i++) {
		struct amdx_device_entry *e = (void *)((char *)res->devices +
						       i * res->entry_size);

		if (!strcmp((char *)e->bdf, bdf))
			id = e->id;
	}
	free(res);
	return id;
}

FIXTURE(unload)
{
	int ctl;
};

FIXTURE_SETUP(unload)
{
	if (access(MOD_DIR "/amdx_sim.ko", R_OK))
		SKIP(return, "no %s/amdx_sim.ko to reload", MOD_DIR);
	self->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->ctl, 0);
}

FIXTURE_TEARDOWN(unload)
{
	if (self->ctl >= 0)
		close(self->ctl);
	/* Whatever happened, leave both modules loaded. */
	if (access("/sys/module/amdx", F_OK))
		load("amdx");
	if (access("/sys/module/amdx_sim", F_OK))
		load("amdx_sim");
}

TEST_F(unload, amdx_refused_while_sim_loaded)
{
	EXPECT_EQ(-EWOULDBLOCK, unload("amdx"));
	EXPECT_EQ(0, access("/sys/module/amdx", F_OK));
}

TEST_F(unload, sim_with_device_fd_open_is_safe)
{
	struct amdx_device_open o = {};
	struct amdx_device_info info;
	uint32_t size = sizeof(info);
	char buf[32];
	int id;

	snprintf(buf, sizeof(buf), "%d model=mi300x vram=64", SIM_ID);
	ASSERT_EQ(0, amdx_sysfs_write("/sys/bus/amdx_sim/new_device", buf));
	/* amdx_sim's BDF: bus 0xc1 + id, spilling into the domain. */
	snprintf(buf, sizeof(buf), "%04x:%02x:00.0", (0xc1 + SIM_ID) >> 8,
		 (0xc1 + SIM_ID) & 0xff);
	id = find_id(self->ctl, buf);
	ASSERT_LE(0, id) TH_LOG("no device with bdf %s", buf);
	o.id = id;
	ASSERT_EQ(0, amdx_ioctl(self->ctl, AMDX_IOC_DEVICE_OPEN, &o));

	/* The provider goes away with our device fd open. */
	ASSERT_EQ(0, unload("amdx_sim"));
	EXPECT_EQ(-ENODEV, amdx_query(o.fd, AMDX_QUERY_DEVICE_INFO, 0, &info,
				      &size));
	EXPECT_EQ(-1, find_id(self->ctl, buf));
	EXPECT_EQ(0, close(o.fd));
	ASSERT_EQ(0, load("amdx_sim"));
}

TEST_F(unload, amdx_refused_with_fd_open_then_reloads)
{
	ASSERT_EQ(0, unload("amdx_sim"));
	/* /dev/amdx is open: the core stays. */
	EXPECT_EQ(-EWOULDBLOCK, unload("amdx"));
	close(self->ctl);
	self->ctl = -1;
	EXPECT_EQ(0, unload("amdx"));
	EXPECT_NE(0, access("/sys/module/amdx", F_OK));
	ASSERT_EQ(0, load("amdx"));
	ASSERT_EQ(0, load("amdx_sim"));
	self->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->ctl, 0);
	EXPECT_TRUE(amdx_caps(self->ctl) & AMDX_CAP_DEVICE_QUERY);
}

TEST_HARNESS_MAIN
