// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated device bus: creating devices through
 * /sys/bus/amdx_sim/new_device and seeing them through AMDX_IOC_QUERY and
 * /sys/class/amdx, the parameter validation of new_device and del_device,
 * concurrent creation and removal, and removal under open device fds.
 *
 * Each test uses its own ids of the block "sim" of lib/amdx_sim_ids.def
 * (SIM_ID_* below) and deletes what it created in teardown.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

#define SIM_NEW		"/sys/bus/amdx_sim/new_device"
#define SIM_DEL		"/sys/bus/amdx_sim/del_device"
#define SIM_BUS_DEVS	"/sys/bus/amdx_sim/devices"
#define AMDX_CLASS	"/sys/class/amdx"
#define MIB		(1024ULL * 1024)

/* Sim id ranges, one per test. */
#define SIM_ID_MODEL		AMDX_SIM_ID(sim, 0)	/* + 0..2 per variant */
#define SIM_ID_INVALID		AMDX_SIM_ID(sim, 3)
#define SIM_ID_DUP		AMDX_SIM_ID(sim, 4)
#define SIM_ID_DEFAULT		AMDX_SIM_ID(sim, 5)
#define SIM_ID_DEL		AMDX_SIM_ID(sim, 6)
#define SIM_ID_VRAM_BOUNDS	AMDX_SIM_ID(sim, 7)	/* and + 1 */
#define SIM_ID_UNPRIV		AMDX_SIM_ID(sim, 9)	/* and + 1 */
#define SIM_ID_RECREATE		AMDX_SIM_ID(sim, 11)
#define SIM_ID_FD		AMDX_SIM_ID(sim, 12)	/* and + 1 */
#define SIM_ID_FD_RACE		AMDX_SIM_ID(sim, 14)
#define SIM_ID_STRESS		AMDX_SIM_ID(sim, 15)	/* .. + STRESS_IDS - 1 */
#define SIM_ID_MAX_TRACKED	1024

/*
 * Each iteration creates and removes devices, and each creation maps a
 * memory section of device-private pages under the memory hotplug lock:
 * 40 iterations took sim.concurrent_create_remove 780 s of a 6.12 guest
 * at host load 16.  16 still put every pair of the four workers and the
 * reader through creation and removal of the shared id many times.
 */
#define STRESS_THREADS	4
#define STRESS_ITERS	16
#define STRESS_PROGRESS	4	/* iterations between progress lines */
#define STRESS_IDS	(STRESS_THREADS + 1)	/* one private each, one shared */
/* The stress ids, then concurrent_processes_same_id's one. */
_Static_assert(SIM_ID_STRESS + STRESS_IDS + 1 <= AMDX_SIM_FIRST_sim + AMDX_SIM_COUNT_sim,
	       "the stress ids pass the block \"sim\" of lib/amdx_sim_ids.def");
#define FD_RACE_ROUNDS	20

static int sim_write(const char *path, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return amdx_sysfs_write(path, buf);
}

static int sim_del(unsigned int sim_id)
{
	return sim_write(SIM_DEL, "%u\n", sim_id);
}

/* The BDF amdx_sim gives sim id @sim_id (amdx_sim_dev_identity()). */
static void sim_bdf(unsigned int sim_id, char bdf[AMDX_BDF_LEN])
{
	unsigned int bus = 0xc1 + sim_id;

	snprintf(bdf, AMDX_BDF_LEN, "%04x:%02x:00.0", bus >> 8, bus & 0xff);
}

/* The device list, malloc()ed; NULL on error with errno set. */
static struct amdx_query_devices *list_devices(int ctl)
{
	struct amdx_query_devices *res;
	int tries, ret;
	__u32 size;

	for (tries = 0; tries < 100; tries++) {
		size = 0;
		ret = amdx_query(ctl, AMDX_QUERY_DEVICES, 0, NULL, &size);
		if (ret)
			break;
		res = calloc(1, size);
		if (!res)
			return NULL;
		ret = amdx_query(ctl, AMDX_QUERY_DEVICES, 0, res, &size);
		if (!ret)
			return res;
		free(res);
		if (ret != -ENOSPC)	/* -ENOSPC: the list grew, again */
			break;
	}
	errno = ret ? -ret : EAGAIN;
	return NULL;
}

static struct amdx_device_entry *entry_at(struct amdx_query_devices *res,
					  __u32 i)
{
	return (void *)((char *)res->devices + (size_t)i * res->entry_size);
}

/* Number of registered devices, or -errno. */
static int count_devices(int ctl)
{
	struct amdx_query_devices *res = list_devices(ctl);
	int n;

	if (!res)
		return -errno;
	n = res->num_devices;
	free(res);
	return n;
}

/* The amdx id of the device with @bdf: 0 with *@id set, -ENOENT, -errno. */
static int find_by_bdf(int ctl, const char *bdf, __u32 *id)
{
	struct amdx_query_devices *res = list_devices(ctl);
	int ret = -ENOENT;
	__u32 i;

	if (!res)
		return -errno;
	for (i = 0; i < res->num_devices; i++) {
		if (!strcmp((char *)entry_at(res, i)->bdf, bdf)) {
			*id = entry_at(res, i)->id;
			ret = 0;
			break;
		}
	}
	free(res);
	return ret;
}

static int find_sim(int ctl, unsigned int sim_id, __u32 *id)
{
	char bdf[AMDX_BDF_LEN];

	sim_bdf(sim_id, bdf);
	return find_by_bdf(ctl, bdf, id);
}

static int device_info(int ctl, __u32 id, struct amdx_device_info *info)
{
	__u32 size = sizeof(*info);

	memset(info, 0xa5, sizeof(*info));
	return amdx_query(ctl, AMDX_QUERY_DEVICE_INFO, id, info, &size);
}

/* First line of a sysfs attribute without the newline: 0 or -errno. */
static int read_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[256];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = amdx_file_read(path, buf, len);
	buf[strcspn(buf, "\n")] = '\0';
	return ret;
}

static bool path_exists(const char *fmt, ...)
{
	char path[256];
	struct stat st;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return !stat(path, &st);
}

static bool expect_device_private(int *want)
{
	const char *env = getenv("AMDX_EXPECT_DEVICE_PRIVATE");

	if (!env)
		return false;
	*want = atoi(env);
	return true;
}

/*
 * Common fixture: the control node, the device count before the test, and
 * the sim ids the test created, deleted in teardown (-ENODEV ignored).
 */
#define FIXTURE_SIM_BODY			\
	int ctl;				\
	int count0;				\
	bool created[SIM_ID_MAX_TRACKED]

static void common_setup(struct __test_metadata *_metadata, int *ctl,
			 int *count0)
{
	ASSERT_EQ(0, access(SIM_NEW, W_OK)) TH_LOG("%s: %m", SIM_NEW);
	*ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(*ctl, 0) TH_LOG("open %s: %m", AMDX_DEV_PATH);
	*count0 = count_devices(*ctl);
	ASSERT_GE(*count0, 0);
}

static void common_teardown(struct __test_metadata *_metadata, int ctl,
			    int count0, bool *created)
{
	unsigned int i;
	int ret;

	for (i = 0; i < SIM_ID_MAX_TRACKED; i++) {
		if (!created[i])
			continue;
		ret = sim_del(i);
		if (ret && ret != -ENODEV)
			TH_LOG("del_device %u: %s", i, strerror(-ret));
	}
	/* Nothing the test made outlives it. */
	EXPECT_EQ(count0, count_devices(ctl));
	close(ctl);
}

/*
 * new_device "@sim_id @fmt...\n", remembering @sim_id in @created for
 * teardown: 0 or -errno.
 */
static int sim_new(bool *created, unsigned int sim_id, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int len;

	created[sim_id] = true;
	len = snprintf(buf, sizeof(buf), "%u ", sim_id);
	va_start(ap, fmt);
	vsnprintf(buf + len, sizeof(buf) - len - 1, fmt, ap);
	va_end(ap);
	strcat(buf, "\n");
	return amdx_sysfs_write(SIM_NEW, buf);
}

/* ------------------------------------------------------------------ */
/* Each model: creation and what the query and sysfs report. */

struct sim_model_spec {
	const char *name;
	__u32 model;
	const char *product;
	__u32 num_xcc;
	__u32 num_sdma;
	__u32 num_vcn;
	__u32 compute_modes;
	__u32 memory_modes;
	__u32 max_vfs;
	unsigned int sim_id;
};

/* What Documentation/admin-guide/simulator.rst promises per model. */
static const struct sim_model_spec sim_mi300x = {
	.name = "mi300x",
	.model = AMDX_MODEL_MI300X,
	.product = "AMD Instinct MI300X (amdx_sim)",
	.num_xcc = 8,
	.num_sdma = 16,
	.num_vcn = 4,
	.compute_modes = (1 << AMDX_COMPUTE_SPX) | (1 << AMDX_COMPUTE_DPX) |
			 (1 << AMDX_COMPUTE_QPX) | (1 << AMDX_COMPUTE_CPX),
	.memory_modes = (1 << AMDX_MEMORY_NPS1) | (1 << AMDX_MEMORY_NPS2) |
			(1 << AMDX_MEMORY_NPS4),
	.max_vfs = 8,
	.sim_id = SIM_ID_MODEL,
};

static const struct sim_model_spec sim_mi300a = {
	.name = "mi300a",
	.model = AMDX_MODEL_MI300A,
	.product = "AMD Instinct MI300A (amdx_sim)",
	.num_xcc = 6,
	.num_sdma = 12,
	.num_vcn = 3,
	.compute_modes = (1 << AMDX_COMPUTE_SPX) | (1 << AMDX_COMPUTE_TPX) |
			 (1 << AMDX_COMPUTE_CPX),
	.memory_modes = 1 << AMDX_MEMORY_NPS1,
	.max_vfs = 0,
	.sim_id = SIM_ID_MODEL + 1,
};

static const struct sim_model_spec sim_mi308x = {
	.name = "mi308x",
	.model = AMDX_MODEL_MI308X,
	.product = "AMD Instinct MI308X (amdx_sim)",
	.num_xcc = 4,
	.num_sdma = 8,
	.num_vcn = 2,
	.compute_modes = (1 << AMDX_COMPUTE_SPX) | (1 << AMDX_COMPUTE_DPX) |
			 (1 << AMDX_COMPUTE_CPX),
	.memory_modes = (1 << AMDX_MEMORY_NPS1) | (1 << AMDX_MEMORY_NPS4),
	.max_vfs = 4,
	.sim_id = SIM_ID_MODEL + 2,
};

FIXTURE(sim_model)
{
	FIXTURE_SIM_BODY;
};

FIXTURE_VARIANT(sim_model)
{
	const struct sim_model_spec *m;
};

FIXTURE_VARIANT_ADD(sim_model, mi300x)
{
	.m = &sim_mi300x,
};

FIXTURE_VARIANT_ADD(sim_model, mi300a)
{
	.m = &sim_mi300a,
};

FIXTURE_VARIANT_ADD(sim_model, mi308x)
{
	.m = &sim_mi308x,
};

FIXTURE_SETUP(sim_model)
{
	common_setup(_metadata, &self->ctl, &self->count0);
}

FIXTURE_TEARDOWN(sim_model)
{
	common_teardown(_metadata, self->ctl, self->count0, self->created);
}

/* Checks every field of @info against what new_device was given. */
static void check_info(struct __test_metadata *_metadata,
		       const struct sim_model_spec *m,
		       const struct amdx_device_info *info, __u32 id,
		       __u64 vram_mib, __u32 max_vfs, __u64 hive)
{
	char bdf[AMDX_BDF_LEN], serial_prefix[16];
	__u64 sum = 0, part_free = 0;
	__u32 i;
	int want_hmm;

	sim_bdf(m->sim_id, bdf);
	snprintf(serial_prefix, sizeof(serial_prefix), "SIM%04X",
		 m->sim_id);

	EXPECT_EQ(id, info->id);
	EXPECT_EQ(m->model, info->model);
	EXPECT_STREQ(bdf, (char *)info->bdf);
	EXPECT_EQ(0, strncmp((char *)info->serial, serial_prefix,
			     strlen(serial_prefix)))
		TH_LOG("serial %s", info->serial);
	EXPECT_EQ(15, strnlen((char *)info->serial, sizeof(info->serial)));
	EXPECT_STREQ(m->product, (char *)info->product);
	EXPECT_EQ(hive, info->hive_id);
	EXPECT_EQ(vram_mib * MIB, info->vram_size);
	EXPECT_EQ(info->vram_size, info->vram_free);
	EXPECT_EQ(m->num_xcc, info->num_xcc);
	EXPECT_EQ(m->num_sdma, info->num_sdma);
	EXPECT_EQ(m->num_vcn, info->num_vcn);
	EXPECT_EQ(AMDX_COMPUTE_SPX, info->compute_mode);
	EXPECT_EQ(AMDX_MEMORY_NPS1, info->memory_mode);
	EXPECT_EQ(m->compute_modes, info->supported_compute_modes);
	EXPECT_EQ(m->memory_modes, info->supported_memory_modes);
	EXPECT_EQ(0, info->num_vfs);
	EXPECT_EQ(max_vfs, info->max_vfs);
	EXPECT_EQ(0, info->flags & ~(__u32)AMDX_DEVICE_F_HMM);
	if (expect_device_private(&want_hmm))
		EXPECT_EQ(want_hmm, !!(info->flags & AMDX_DEVICE_F_HMM));
	EXPECT_EQ(0, info->pad);

	/* NPS1 at creation: one partition holding all of VRAM, all free. */
	ASSERT_EQ(1, info->num_mem_partitions);
	for (i = 0; i < info->num_mem_partitions; i++) {
		EXPECT_EQ(sum, info->mem_partitions[i].base);
		sum += info->mem_partitions[i].size;
		part_free += info->mem_partitions[i].free;
		EXPECT_EQ(info->mem_partitions[i].size,
			  info->mem_partitions[i].free);
	}
	EXPECT_EQ(info->vram_size, sum);
	EXPECT_EQ(info->vram_free, part_free);
	for (; i < AMDX_MAX_MEM_PARTITIONS; i++) {
		EXPECT_EQ(0, info->mem_partitions[i].base |
			     info->mem_partitions[i].size |
			     info->mem_partitions[i].free);
	}
	for (i = 0; i < 8; i++)
		EXPECT_EQ(0, info->reserved[i]);
}

TEST_F(sim_model, create_defaults_query_matches)
{
	const struct sim_model_spec *m = variant->m;
	struct amdx_device_info info;
	__u32 id;

	ASSERT_EQ(0, sim_new(self->created, m->sim_id, "model=%s", m->name));
	EXPECT_EQ(self->count0 + 1, count_devices(self->ctl));
	ASSERT_EQ(0, find_sim(self->ctl, m->sim_id, &id));
	ASSERT_EQ(0, device_info(self->ctl, id, &info));
	/* Defaults: 512 MiB, the model's max_vfs, no hive. */
	check_info(_metadata, m, &info, id, 512, m->max_vfs, 0);
}

TEST_F(sim_model, create_with_params_query_matches)
{
	const struct sim_model_spec *m = variant->m;
	__u32 max_vfs = m->max_vfs / 2;
	struct amdx_device_info info;
	__u32 id;

	ASSERT_EQ(0, sim_new(self->created, m->sim_id,
			     "model=%s vram=128 max_vfs=%u hive=c0ffee42",
			     m->name, max_vfs));
	ASSERT_EQ(0, find_sim(self->ctl, m->sim_id, &id));
	ASSERT_EQ(0, device_info(self->ctl, id, &info));
	check_info(_metadata, m, &info, id, 128, max_vfs, 0xc0ffee42);
}

/* Keys in any order, tabs and double blanks, a 0x hive, the VF limit. */
TEST_F(sim_model, create_keys_any_order_query_matches)
{
	const struct sim_model_spec *m = variant->m;
	struct amdx_device_info info;
	__u32 id;

	ASSERT_EQ(0, sim_new(self->created, m->sim_id,
			     "hive=0xFFFFFFFFFFFFFFFF\tmax_vfs=%u  vram=64 model=%s",
			     m->max_vfs, m->name));
	ASSERT_EQ(0, find_sim(self->ctl, m->sim_id, &id));
	ASSERT_EQ(0, device_info(self->ctl, id, &info));
	check_info(_metadata, m, &info, id, 64, m->max_vfs, ~0ULL);
}

/*
 * AMDX_QUERY_FIRMWARE (minor 4): amdx's module version, the simulator as
 * the provider and its default firmware table (amdx_sim_fw_version),
 * every reserved byte zero; the list must fit whole; device fds only.
 */
TEST_F(sim_model, firmware_query)
{
	const struct sim_model_spec *m = variant->m;
	struct {
		struct amdx_query_firmware h;
		struct amdx_firmware_info fw[AMDX_MAX_FIRMWARE];
	} res;
	char modver[AMDX_VERSION_LEN] = "";
	__u32 id, size = 0, i;
	FILE *f;
	int fd;

	ASSERT_EQ(0, sim_new(self->created, m->sim_id, "model=%s vram=64",
			     m->name));
	ASSERT_EQ(0, find_sim(self->ctl, m->sim_id, &id));
	fd = amdx_device_open(self->ctl, id);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, amdx_query(self->ctl, AMDX_QUERY_FIRMWARE, id,
				      &res, &size));
	size = sizeof(res);
	EXPECT_EQ(-EINVAL, amdx_query(fd, AMDX_QUERY_FIRMWARE, 1, &res,
				      &size));
	size = 0;
	ASSERT_EQ(0, amdx_query(fd, AMDX_QUERY_FIRMWARE, 0, NULL, &size));
	ASSERT_EQ(sizeof(res.h) + (AMDX_FW_COUNT - 1) * sizeof(res.fw[0]),
		  size);
	size -= 1;
	EXPECT_EQ(-ENOSPC, amdx_query(fd, AMDX_QUERY_FIRMWARE, 0, &res,
				      &size));
	memset(&res, 0xa5, sizeof(res));
	size = sizeof(res);
	ASSERT_EQ(0, amdx_query(fd, AMDX_QUERY_FIRMWARE, 0, &res, &size));
	EXPECT_EQ(sizeof(res.h) + (AMDX_FW_COUNT - 1) * sizeof(res.fw[0]),
		  size);

	f = fopen("/sys/module/amdx/version", "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(modver, sizeof(modver), f));
	fclose(f);
	modver[strcspn(modver, "\n")] = '\0';
	EXPECT_STREQ(modver, (char *)res.h.driver_version);
	EXPECT_STREQ("amdx_sim", (char *)res.h.provider);
	EXPECT_STREQ(modver, (char *)res.h.provider_version);
	EXPECT_EQ(AMDX_FW_COUNT - 1, res.h.num_firmware);
	EXPECT_EQ(AMDX_FIRMWARE_INFO_SIZE_VER0, res.h.entry_size);
	EXPECT_EQ(0, res.h.reserved[0] | res.h.reserved[1]);
	for (i = 0; i < res.h.num_firmware; i++) {
		EXPECT_EQ(i + 1, res.fw[i].id);
		EXPECT_EQ(0, res.fw[i].instance);
		EXPECT_NE(0, res.fw[i].version);
		EXPECT_EQ(0, res.fw[i].reserved);
	}
	EXPECT_EQ(0x00557100, res.fw[AMDX_FW_SMU - 1].version);
	EXPECT_EQ(50, res.fw[AMDX_FW_MEC - 1].feature);
	close(fd);
}

TEST_F(sim_model, max_vfs_above_model_limit_einval)
{
	const struct sim_model_spec *m = variant->m;
	__u32 id;

	EXPECT_EQ(-EINVAL, sim_new(self->created, m->sim_id,
				   "model=%s max_vfs=%u", m->name,
				   m->max_vfs + 1));
	EXPECT_EQ(self->count0, count_devices(self->ctl));
	EXPECT_EQ(-ENOENT, find_sim(self->ctl, m->sim_id, &id));
}

TEST_F(sim_model, hmm_flag_matches_kernel)
{
	const struct sim_model_spec *m = variant->m;
	struct amdx_device_info info;
	int want;
	__u32 id;

	if (!expect_device_private(&want))
		SKIP(return, "AMDX_EXPECT_DEVICE_PRIVATE not set by the runner");
	ASSERT_EQ(0, sim_new(self->created, m->sim_id, "model=%s vram=64",
			     m->name));
	ASSERT_EQ(0, find_sim(self->ctl, m->sim_id, &id));
	ASSERT_EQ(0, device_info(self->ctl, id, &info));
	EXPECT_EQ(want, !!(info.flags & AMDX_DEVICE_F_HMM));
	EXPECT_EQ(want, !!(amdx_caps(self->ctl) & AMDX_CAP_DEVICE_PRIVATE));
}

/* The attribute @name in @dir reads as the printf of @fmt. */
static void expect_attr(struct __test_metadata *_metadata, const char *dir,
			const char *name, const char *fmt, ...)
{
	char buf[256], want[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	ASSERT_EQ(0, read_attr(dir, name, buf, sizeof(buf)))
		TH_LOG("%s/%s", dir, name);
	EXPECT_STREQ(want, buf) TH_LOG("%s/%s", dir, name);
}

TEST_F(sim_model, sysfs_matches_query)
{
	const struct sim_model_spec *m = variant->m;
	struct amdx_device_info info;
	char dir[128];
	__u32 id;

	ASSERT_EQ(0, sim_new(self->created, m->sim_id,
			     "model=%s vram=128 max_vfs=%u hive=1234abcd",
			     m->name, m->max_vfs));
	ASSERT_EQ(0, find_sim(self->ctl, m->sim_id, &id));
	ASSERT_EQ(0, device_info(self->ctl, id, &info));
	snprintf(dir, sizeof(dir), AMDX_CLASS "/amdx%u", id);

	expect_attr(_metadata, dir, "id", "%u", info.id);
	expect_attr(_metadata, dir, "bdf", "%s", (char *)info.bdf);
	expect_attr(_metadata, dir, "serial", "%s", (char *)info.serial);
	expect_attr(_metadata, dir, "product", "%s", (char *)info.product);
	expect_attr(_metadata, dir, "model", "%s", m->name);
	expect_attr(_metadata, dir, "hive_id", "0x%016llx",
		    (unsigned long long)info.hive_id);
	expect_attr(_metadata, dir, "vram_size", "%llu",
		    (unsigned long long)info.vram_size);
	expect_attr(_metadata, dir, "vram_free", "%llu",
		    (unsigned long long)info.vram_free);
	expect_attr(_metadata, dir, "num_xcc", "%u", info.num_xcc);
	expect_attr(_metadata, dir, "num_sdma", "%u", info.num_sdma);
	expect_attr(_metadata, dir, "num_vcn", "%u", info.num_vcn);
	expect_attr(_metadata, dir, "max_vfs", "%u", info.max_vfs);
	expect_attr(_metadata, dir, "num_vfs", "%u", info.num_vfs);
	expect_attr(_metadata, dir, "num_mem_partitions", "%u",
		    info.num_mem_partitions);
	expect_attr(_metadata, dir, "mem_partition_free", "%llu",
		    (unsigned long long)info.mem_partitions[0].free);
	/* a fresh device, so these are the creation values */
	expect_attr(_metadata, dir, "compute_mode", "SPX");
	expect_attr(_metadata, dir, "memory_mode", "NPS1");
	/* and the query agrees with what was created */
	check_info(_metadata, m, &info, id, 128, m->max_vfs, 0x1234abcd);

	/* The class device hangs below the sim device of that sim id. */
	EXPECT_TRUE(path_exists(SIM_BUS_DEVS "/amdx_sim%u/amdx/amdx%u",
				m->sim_id, id));
}

/* ------------------------------------------------------------------ */
/* new_device input validation: each bad input alone, all else valid. */

FIXTURE(sim_invalid)
{
	FIXTURE_SIM_BODY;
};

/* The input, a printf format that may take the sim id once. */
FIXTURE_VARIANT(sim_invalid)
{
	const char *input;
};

FIXTURE_VARIANT_ADD(sim_invalid, empty)
{
	.input = "\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, blank)
{
	.input = "\t\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, id_not_decimal)
{
	.input = "0x208 model=mi300x\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, id_negative)
{
	.input = "-1 model=mi300x\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, id_above_max)
{
	.input = "1024 model=mi300x\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, id_with_junk)
{
	.input = "%uabc model=mi300x\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, token_without_value)
{
	.input = "%u model\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, unknown_key)
{
	.input = "%u vendor=amd\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, key_case_differs)
{
	.input = "%u Model=mi300x\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, unknown_model)
{
	.input = "%u model=mi250x\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, empty_model)
{
	.input = "%u model=\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, vram_not_a_number)
{
	.input = "%u vram=lots\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, vram_with_unit)
{
	.input = "%u vram=512M\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, vram_zero)
{
	.input = "%u vram=0\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, vram_below_min)
{
	.input = "%u vram=48\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, vram_above_max)
{
	.input = "%u vram=4112\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, vram_not_multiple_of_16)
{
	.input = "%u vram=520\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, max_vfs_not_a_number)
{
	.input = "%u max_vfs=many\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, max_vfs_negative)
{
	.input = "%u max_vfs=-1\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, max_vfs_above_default_model_limit)
{
	.input = "%u max_vfs=9\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, max_vfs_above_mi300a_limit)
{
	.input = "%u model=mi300a max_vfs=1\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, hive_not_hex)
{
	.input = "%u hive=xyz\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, hive_above_u64)
{
	.input = "%u hive=10000000000000000\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, model_given_twice)
{
	.input = "%u model=mi300x model=mi300x\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, vram_given_twice)
{
	.input = "%u vram=64 vram=128\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, max_vfs_given_twice)
{
	.input = "%u max_vfs=1 max_vfs=1\n",
};

FIXTURE_VARIANT_ADD(sim_invalid, hive_given_twice)
{
	.input = "%u hive=1 hive=1\n",
};

FIXTURE_SETUP(sim_invalid)
{
	common_setup(_metadata, &self->ctl, &self->count0);
}

FIXTURE_TEARDOWN(sim_invalid)
{
	common_teardown(_metadata, self->ctl, self->count0, self->created);
}

TEST_F(sim_invalid, new_device_einval_creates_nothing)
{
	char input[128];
	__u32 id;

	snprintf(input, sizeof(input), variant->input, SIM_ID_INVALID);
	/* should the kernel wrongly accept it, teardown removes it */
	self->created[SIM_ID_INVALID] = true;

	EXPECT_EQ(-EINVAL, amdx_sysfs_write(SIM_NEW, input))
		TH_LOG("input '%s'", input);
	EXPECT_EQ(self->count0, count_devices(self->ctl));
	EXPECT_EQ(-ENOENT, find_sim(self->ctl, SIM_ID_INVALID, &id));
	EXPECT_FALSE(path_exists(SIM_BUS_DEVS "/amdx_sim%u", SIM_ID_INVALID));
}

/* ------------------------------------------------------------------ */
/* Bus-level behaviour not tied to one model. */

FIXTURE(sim)
{
	FIXTURE_SIM_BODY;
};

FIXTURE_SETUP(sim)
{
	common_setup(_metadata, &self->ctl, &self->count0);
}

FIXTURE_TEARDOWN(sim)
{
	common_teardown(_metadata, self->ctl, self->count0, self->created);
}

/* The valid side of the vram bounds, so the bound tests can fail. */
TEST_F_TIMEOUT(sim, vram_bounds_accepted, 120)
{
	struct amdx_device_info info;
	__u32 id;

	ASSERT_EQ(0, sim_new(self->created, SIM_ID_VRAM_BOUNDS, "vram=64"));
	ASSERT_EQ(0, find_sim(self->ctl, SIM_ID_VRAM_BOUNDS, &id));
	ASSERT_EQ(0, device_info(self->ctl, id, &info));
	EXPECT_EQ(64 * MIB, info.vram_size);
	EXPECT_EQ(64 * MIB, info.vram_free);

	ASSERT_EQ(0, sim_new(self->created, SIM_ID_VRAM_BOUNDS + 1, "vram=4096"));
	ASSERT_EQ(0, find_sim(self->ctl, SIM_ID_VRAM_BOUNDS + 1, &id));
	ASSERT_EQ(0, device_info(self->ctl, id, &info));
	EXPECT_EQ(4096 * MIB, info.vram_size);
	EXPECT_EQ(4096 * MIB, info.vram_free);
	EXPECT_EQ(self->count0 + 2, count_devices(self->ctl));
}

/* Without model= the device is an MI300X. */
TEST_F(sim, default_model_is_mi300x)
{
	struct amdx_device_info info;
	__u32 id;

	ASSERT_EQ(0, sim_new(self->created, SIM_ID_DEFAULT, ""));
	ASSERT_EQ(0, find_sim(self->ctl, SIM_ID_DEFAULT, &id));
	ASSERT_EQ(0, device_info(self->ctl, id, &info));
	EXPECT_EQ(AMDX_MODEL_MI300X, info.model);
	EXPECT_EQ(512 * MIB, info.vram_size);
	EXPECT_EQ(8, info.max_vfs);
	EXPECT_EQ(0, info.hive_id);
}

TEST_F(sim, duplicate_id_einval)
{
	struct amdx_device_info info;
	__u32 id, id2;

	ASSERT_EQ(0, sim_new(self->created, SIM_ID_DUP,
			     "model=mi308x vram=64"));
	ASSERT_EQ(0, find_sim(self->ctl, SIM_ID_DUP, &id));

	EXPECT_EQ(-EINVAL, sim_new(self->created, SIM_ID_DUP, "model=mi300a"));
	EXPECT_EQ(self->count0 + 1, count_devices(self->ctl));
	/* The first device is untouched. */
	ASSERT_EQ(0, find_sim(self->ctl, SIM_ID_DUP, &id2));
	EXPECT_EQ(id, id2);
	ASSERT_EQ(0, device_info(self->ctl, id, &info));
	EXPECT_EQ(AMDX_MODEL_MI308X, info.model);
}

TEST_F(sim, del_unknown_id_enodev)
{
	EXPECT_EQ(-ENODEV, sim_del(SIM_ID_DEL));
	EXPECT_EQ(self->count0, count_devices(self->ctl));
}

TEST_F(sim, del_twice_enodev)
{
	ASSERT_EQ(0, sim_new(self->created, SIM_ID_DEL,
			     "model=mi300a vram=64"));
	EXPECT_EQ(0, sim_del(SIM_ID_DEL));
	EXPECT_EQ(-ENODEV, sim_del(SIM_ID_DEL));
	EXPECT_EQ(self->count0, count_devices(self->ctl));
}

TEST_F(sim, del_id_not_decimal_einval)
{
	ASSERT_EQ(0, sim_new(self->created, SIM_ID_DEL, "vram=64"));
	EXPECT_EQ(-EINVAL, sim_write(SIM_DEL, "dev%u\n", SIM_ID_DEL));
	EXPECT_EQ(self->count0 + 1, count_devices(self->ctl));
}

TEST_F(sim, del_id_above_max_einval)
{
	EXPECT_EQ(-EINVAL, sim_write(SIM_DEL, "1024\n"));
	EXPECT_EQ(self->count0, count_devices(self->ctl));
}

TEST_F(sim, del_empty_einval)
{
	ASSERT_EQ(0, sim_new(self->created, SIM_ID_DEL, "vram=64"));
	EXPECT_EQ(-EINVAL, sim_write(SIM_DEL, "\n"));
	EXPECT_EQ(self->count0 + 1, count_devices(self->ctl));
}

/*
 * Removal: the device leaves the list, sysfs and the bus; its sim id can be
 * used again and the new device gets a new amdx id (ids are cyclic: a freed
 * id is not the next one handed out).
 */
TEST_F(sim, del_then_recreate_new_amdx_id)
{
	__u32 id, id2;

	ASSERT_EQ(0, sim_new(self->created, SIM_ID_RECREATE,
			     "model=mi300x vram=64"));
	ASSERT_EQ(0, find_sim(self->ctl, SIM_ID_RECREATE, &id));
	ASSERT_TRUE(path_exists(AMDX_CLASS "/amdx%u", id));

	ASSERT_EQ(0, sim_del(SIM_ID_RECREATE));
	EXPECT_EQ(-ENOENT, find_sim(self->ctl, SIM_ID_RECREATE, &id2));
	EXPECT_FALSE(path_exists(AMDX_CLASS "/amdx%u", id));
	EXPECT_FALSE(path_exists(SIM_BUS_DEVS "/amdx_sim%u", SIM_ID_RECREATE));
	EXPECT_EQ(self->count0, count_devices(self->ctl));

	ASSERT_EQ(0, sim_new(self->created, SIM_ID_RECREATE,
			     "model=mi308x vram=64"));
	ASSERT_EQ(0, find_sim(self->ctl, SIM_ID_RECREATE, &id2));
	EXPECT_NE(id, id2);
}

/*
 * Only root writes new_device and del_device: the attributes are 0200, so
 * another uid fails at open() with -EACCES and nothing changes.
 */
TEST_F(sim, unprivileged_new_del_eacces)
{
	int status, ret;
	pid_t pid;
	__u32 id;

	ASSERT_EQ(0, sim_new(self->created, SIM_ID_UNPRIV,
			     "model=mi300x vram=64"));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(100);
		ret = sim_write(SIM_NEW, "%u model=mi300x\n",
				SIM_ID_UNPRIV + 1);
		if (ret != -EACCES)
			_exit(1);
		ret = sim_del(SIM_ID_UNPRIV);
		if (ret != -EACCES)
			_exit(2);
		_exit(0);
	}
	self->created[SIM_ID_UNPRIV + 1] = true;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 100)
		SKIP(return, "setuid(65534) failed (no CONFIG_MULTIUSER?)");
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("%s by uid 65534 did not fail with EACCES",
		       WEXITSTATUS(status) == 1 ? "new_device" : "del_device");
	EXPECT_EQ(self->count0 + 1, count_devices(self->ctl));
	EXPECT_EQ(0, find_sim(self->ctl, SIM_ID_UNPRIV, &id));
	EXPECT_EQ(-ENOENT, find_sim(self->ctl, SIM_ID_UNPRIV + 1, &id));
}

/* ------------------------------------------------------------------ */
/* Removal with open device fds. */

static int device_open(int ctl, __u32 id, int *fd)
{
	struct amdx_device_open o = { .id = id };
	int ret = amdx_ioctl(ctl, AMDX_IOC_DEVICE_OPEN, &o);

	*fd = o.fd;
	return ret;
}

TEST_F(sim, removed_device_fd_enodev)
{
	struct amdx_device_open o;
	struct amdx_device_info info;
	__u32 id, id2, size;
	int fd;

	ASSERT_EQ(0, sim_new(self->created, SIM_ID_FD, "model=mi300x vram=128"));
	ASSERT_EQ(0, find_sim(self->ctl, SIM_ID_FD, &id));
	ASSERT_EQ(0, device_open(self->ctl, id, &fd));
	ASSERT_GE(fd, 0);
	size = sizeof(info);
	ASSERT_EQ(0, amdx_query(fd, AMDX_QUERY_DEVICE_INFO, 0, &info, &size));
	EXPECT_EQ(id, info.id);

	ASSERT_EQ(0, sim_del(SIM_ID_FD));

	size = sizeof(info);
	EXPECT_EQ(-ENODEV, amdx_query(fd, AMDX_QUERY_DEVICE_INFO, 0, &info,
				      &size));
	size = sizeof(info);
	EXPECT_EQ(-ENODEV, amdx_query(self->ctl, AMDX_QUERY_DEVICE_INFO, id,
				      &info, &size));
	EXPECT_EQ(-ENOENT, find_sim(self->ctl, SIM_ID_FD, &id2));
	EXPECT_EQ(self->count0, count_devices(self->ctl));
	o = (struct amdx_device_open){ .id = id };
	EXPECT_EQ(-ENODEV, amdx_ioctl(self->ctl, AMDX_IOC_DEVICE_OPEN, &o));
	EXPECT_FALSE(path_exists(AMDX_CLASS "/amdx%u", id));

	/* A new device on the same sim id is not the old fd's device. */
	ASSERT_EQ(0, sim_new(self->created, SIM_ID_FD, "model=mi300x vram=128"));
	ASSERT_EQ(0, find_sim(self->ctl, SIM_ID_FD, &id2));
	EXPECT_NE(id, id2);
	size = sizeof(info);
	EXPECT_EQ(-ENODEV, amdx_query(fd, AMDX_QUERY_DEVICE_INFO, 0, &info,
				      &size));

	EXPECT_EQ(0, close(fd));
}

/* Several fds on one device, closed in a different order than opened. */
TEST_F(sim, removed_device_many_fds_close)
{
	struct amdx_device_info info;
	int fds[8], i;
	__u32 id, size;

	ASSERT_EQ(0, sim_new(self->created, SIM_ID_FD + 1, "model=mi308x vram=64"));
	ASSERT_EQ(0, find_sim(self->ctl, SIM_ID_FD + 1, &id));
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, device_open(self->ctl, id, &fds[i]));
	ASSERT_EQ(0, close(fds[3]));
	ASSERT_EQ(0, sim_del(SIM_ID_FD + 1));
	for (i = 7; i >= 0; i--) {
		if (i == 3)
			continue;
		size = sizeof(info);
		EXPECT_EQ(-ENODEV, amdx_query(fds[i], AMDX_QUERY_DEVICE_INFO,
					      0, &info, &size));
		EXPECT_EQ(0, close(fds[i]));
	}
}

struct fd_race {
	int fd;
	atomic_bool stop;
	/* results */
	unsigned int ok, enodev, other, ok_after_enodev;
	int other_err;
};

static void *fd_race_query(void *arg)
{
	struct fd_race *r = arg;
	struct amdx_device_info info;
	__u32 size;
	int ret;

	while (!r->stop || !r->enodev) {
		size = sizeof(info);
		ret = amdx_query(r->fd, AMDX_QUERY_DEVICE_INFO, 0, &info,
				 &size);
		if (!ret) {
			r->ok++;
			if (r->enodev)
				r->ok_after_enodev++;
		} else if (ret == -ENODEV) {
			r->enodev++;
			if (r->stop)
				break;
		} else {
			r->other++;
			r->other_err = ret;
			break;
		}
	}
	return NULL;
}

/*
 * A thread queries the device fd in a loop while the test removes the
 * device: every answer is a full result or -ENODEV, and once -ENODEV
 * always -ENODEV.
 */
TEST_F_TIMEOUT(sim, device_fd_query_races_removal, 120)
{
	unsigned int round, total_ok = 0;

	for (round = 0; round < FD_RACE_ROUNDS; round++) {
		struct fd_race r = { 0 };
		pthread_t thread;
		__u32 id;

		ASSERT_EQ(0, sim_new(self->created, SIM_ID_FD_RACE, "model=mi300a vram=64"));
		ASSERT_EQ(0, find_sim(self->ctl, SIM_ID_FD_RACE, &id));
		ASSERT_EQ(0, device_open(self->ctl, id, &r.fd));
		ASSERT_EQ(0, pthread_create(&thread, NULL, fd_race_query, &r));
		/* vary the point of removal */
		usleep(round * 500);
		EXPECT_EQ(0, sim_del(SIM_ID_FD_RACE));
		r.stop = true;
		ASSERT_EQ(0, pthread_join(thread, NULL));

		EXPECT_EQ(0, r.other) TH_LOG("round %u: query failed: %s",
					     round, strerror(-r.other_err));
		EXPECT_EQ(0, r.ok_after_enodev) TH_LOG("round %u", round);
		EXPECT_GT(r.enodev, 0);
		EXPECT_EQ(0, close(r.fd));
		total_ok += r.ok;
	}
	/* the fd answered before removal in some round */
	EXPECT_GT(total_ok, 0);
	EXPECT_EQ(self->count0, count_devices(self->ctl));
}

/* ------------------------------------------------------------------ */
/* Concurrent creation and removal. */

struct stress {
	unsigned int base;
	/* per thread: successful private creations and removals */
	unsigned int created[STRESS_THREADS], removed[STRESS_THREADS];
	/* errors no interleaving allows */
	unsigned int bad;
	int bad_err;
	const char *bad_op;
	int ctl;
	atomic_bool stop;
	pthread_mutex_t lock;
};

struct stress_arg {
	struct stress *s;
	unsigned int t;
};

static const char * const stress_models[] = { "mi300x", "mi300a", "mi308x" };

static void stress_bad(struct stress *s, const char *op, int err)
{
	pthread_mutex_lock(&s->lock);
	if (!s->bad++) {
		s->bad_op = op;
		s->bad_err = err;
	}
	pthread_mutex_unlock(&s->lock);
}

static void *stress_worker(void *arg)
{
	struct stress_arg *a = arg;
	struct stress *s = a->s;
	unsigned int mine = s->base + a->t;
	unsigned int shared = s->base + STRESS_THREADS;
	unsigned int i;
	int ret;

	for (i = 0; i < STRESS_ITERS; i++) {
		if (!a->t && i && !(i % STRESS_PROGRESS))
			AMDX_PROGRESS("worker 0 at %u of %u", i, STRESS_ITERS);
		/* private id: nobody else touches it, so both must work */
		ret = sim_write(SIM_NEW, "%u model=%s vram=64\n", mine,
				stress_models[(a->t + i) % 3]);
		if (ret)
			stress_bad(s, "new_device (private id)", ret);
		else
			s->created[a->t]++;
		/* shared id: exists or not, depending on the others */
		ret = sim_write(SIM_NEW, "%u vram=64\n", shared);
		if (ret && ret != -EINVAL)
			stress_bad(s, "new_device (shared id)", ret);
		ret = sim_del(mine);
		if (ret)
			stress_bad(s, "del_device (private id)", ret);
		else
			s->removed[a->t]++;
		ret = sim_del(shared);
		if (ret && ret != -ENODEV)
			stress_bad(s, "del_device (shared id)", ret);
	}
	/* leave the private id live half of the time for the check below */
	if (a->t % 2) {
		ret = sim_write(SIM_NEW, "%u vram=64\n", mine);
		if (ret)
			stress_bad(s, "new_device (final)", ret);
	}
	return NULL;
}

/* Lists and queries every device while they come and go. */
static void *stress_reader(void *arg)
{
	struct stress *s = arg;
	struct amdx_query_devices *res;
	struct amdx_device_info info;
	char dir[64], buf[64];
	__u32 i;
	int ret;

	while (!s->stop) {
		res = list_devices(s->ctl);
		if (!res) {
			stress_bad(s, "QUERY_DEVICES", -errno);
			break;
		}
		for (i = 0; i < res->num_devices; i++) {
			__u32 id = entry_at(res, i)->id;

			ret = device_info(s->ctl, id, &info);
			if (ret && ret != -ENODEV)
				stress_bad(s, "QUERY_DEVICE_INFO", ret);
			if (!ret && info.id != id)
				stress_bad(s, "QUERY_DEVICE_INFO id", -EIO);
			snprintf(dir, sizeof(dir), AMDX_CLASS "/amdx%u", id);
			ret = read_attr(dir, "vram_free", buf, sizeof(buf));
			if (ret && ret != -ENOENT && ret != -ENODEV)
				stress_bad(s, "sysfs vram_free", ret);
		}
		free(res);
	}
	return NULL;
}

TEST_F_TIMEOUT(sim, concurrent_create_remove, 240)
{
	struct stress_arg args[STRESS_THREADS];
	pthread_t threads[STRESS_THREADS], reader;
	struct stress s = { .base = SIM_ID_STRESS, .ctl = self->ctl };
	unsigned int t, live = 0;
	__u32 id;
	int n;

	pthread_mutex_init(&s.lock, NULL);
	for (t = 0; t < STRESS_IDS; t++)
		self->created[SIM_ID_STRESS + t] = true;
	ASSERT_EQ(0, pthread_create(&reader, NULL, stress_reader, &s));
	for (t = 0; t < STRESS_THREADS; t++) {
		args[t] = (struct stress_arg){ .s = &s, .t = t };
		ASSERT_EQ(0, pthread_create(&threads[t], NULL, stress_worker,
					    &args[t]));
	}
	for (t = 0; t < STRESS_THREADS; t++)
		ASSERT_EQ(0, pthread_join(threads[t], NULL));
	s.stop = true;
	ASSERT_EQ(0, pthread_join(reader, NULL));

	EXPECT_EQ(0, s.bad) TH_LOG("%u unexpected results, first %s: %s",
				   s.bad, s.bad_op, strerror(-s.bad_err));
	for (t = 0; t < STRESS_THREADS; t++) {
		EXPECT_EQ(STRESS_ITERS, s.created[t]);
		EXPECT_EQ(STRESS_ITERS, s.removed[t]);
	}

	/* The registry and the bus agree on every id of the range. */
	for (t = 0; t < STRESS_IDS; t++) {
		bool on_bus = path_exists(SIM_BUS_DEVS "/amdx_sim%u",
					  SIM_ID_STRESS + t);
		bool in_registry = !find_sim(self->ctl, SIM_ID_STRESS + t, &id);

		EXPECT_EQ(on_bus, in_registry) TH_LOG("sim id %u",
						      SIM_ID_STRESS + t);
		if (in_registry)
			EXPECT_TRUE(path_exists(AMDX_CLASS "/amdx%u", id));
		if (t < STRESS_THREADS) {
			EXPECT_EQ(t % 2, in_registry) TH_LOG("sim id %u",
							     SIM_ID_STRESS + t);
		}
		live += in_registry;
	}
	n = count_devices(self->ctl);
	EXPECT_EQ(self->count0 + live, n);

	/* All of them are removable, and then gone. */
	for (t = 0; t < STRESS_IDS; t++) {
		if (find_sim(self->ctl, SIM_ID_STRESS + t, &id))
			continue;
		EXPECT_EQ(0, sim_del(SIM_ID_STRESS + t));
		EXPECT_FALSE(path_exists(AMDX_CLASS "/amdx%u", id));
	}
	EXPECT_EQ(self->count0, count_devices(self->ctl));
	pthread_mutex_destroy(&s.lock);
}

/* The same with processes hammering one shared id. */
TEST_F_TIMEOUT(sim, concurrent_processes_same_id, 240)
{
	unsigned int sim_id = SIM_ID_STRESS + STRESS_IDS;
	pid_t pids[STRESS_THREADS];
	int i, status, ret;
	__u32 id;

	self->created[sim_id] = true;
	for (i = 0; i < STRESS_THREADS; i++) {
		pids[i] = fork();
		ASSERT_GE(pids[i], 0);
		if (pids[i] == 0) {
			unsigned int k;

			for (k = 0; k < STRESS_ITERS; k++) {
				if (!i && k && !(k % STRESS_PROGRESS))
					AMDX_PROGRESS("child 0 at %u of %u", k,
						      STRESS_ITERS);
				ret = sim_write(SIM_NEW, "%u model=%s vram=64\n",
						sim_id, stress_models[k % 3]);
				if (ret && ret != -EINVAL)
					_exit(1);
				ret = sim_del(sim_id);
				if (ret && ret != -ENODEV)
					_exit(2);
			}
			_exit(0);
		}
	}
	for (i = 0; i < STRESS_THREADS; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status))
			TH_LOG("child %d: unexpected %s error", i,
			       WEXITSTATUS(status) == 1 ? "new" : "del");
	}
	EXPECT_EQ(path_exists(SIM_BUS_DEVS "/amdx_sim%u", sim_id),
		  !find_sim(self->ctl, sim_id, &id));
	ret = sim_del(sim_id);
	EXPECT_TRUE(ret == 0 || ret == -ENODEV);
	EXPECT_EQ(self->count0, count_devices(self->ctl));
	/* and the id is usable again */
	EXPECT_EQ(0, sim_write(SIM_NEW, "%u\n", sim_id));
	EXPECT_EQ(0, sim_del(sim_id));
}

TEST_HARNESS_MAIN
