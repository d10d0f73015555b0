// SPDX-License-Identifier: GPL-2.0
/*
 * The in-kernel HMM hooks that RAS and partition control call, driven
 * through their debugfs testing files:
 *
 *   /sys/kernel/debug/amdx/amdx<id>/evict_vram_page  (a VRAM page index)
 *   /sys/kernel/debug/amdx/amdx<id>/drain_partition  (a memory partition)
 *
 * A process puts a patterned buffer in VRAM through its device fd
 * (AMDX_IOC_HMM_SET_ATTR, AMDX_IOC_HMM_MIGRATE) and learns which VRAM page
 * holds each of its pages from AMDX_HMM_ACCESS_SNAPSHOT's vram_pfns.
 * Evicting one VRAM page must move that page, and only that one, to
 * another VRAM page of the partition (home when the partition is full),
 * leaving the old page free; draining the partition must move everything
 * home and free the whole VRAM; the data stays intact throughout, for the
 * device and for the CPU.  The hooks move pages without the process, so
 * they change none of its HMM counters (observed and asserted).  Then
 * each validation path with its exact errno.
 *
 * Each test creates the amdx_sim device of the hooks block
 * (lib/amdx_sim_ids.def; mi300x, 64 MiB of VRAM, NPS1) and deletes it
 * afterwards.  Without AMDX_CAP_HMM_MIGRATE every test skips, unless the
 * runner says the kernel has CONFIG_DEVICE_PRIVATE
 * (AMDX_EXPECT_DEVICE_PRIVATE=1): then a missing capability fails.
 */
#include <limits.h>
#include <stdbool.h>
#include <sys/mman.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

#define HOOKS_SIM_ID		AMDX_SIM_ID(hooks, 0)
#define HOOKS_SIM_PARAMS	"model=mi300x vram=64"
#define HOOKS_DEBUGFS		"/sys/kernel/debug/amdx"
#define HOOKS_NPAGES		64
#define HOOKS_NO_CAP	"no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)"
#define NO_VRAM_PAGE		(~0ULL)

struct hooks_ctx {
	int ctl;
	int fd;
	bool skip;
	bool created;
	__u32 id;
	unsigned long ps;
	__u64 vpages;
	char evict[PATH_MAX];
	char drain[PATH_MAX];
	/* the process's buffer and what the device sees of it */
	char *buf;
	size_t size;
	unsigned long npages;
	__u8 *snap;
	__u64 *pfns;
	char *bounce;
};

FIXTURE(hooks)
{
	struct hooks_ctx c;
};

/* Write "@val" to a hook file: 0 or -errno. */
static int hook(const char *path, unsigned long long val)
{
	char s[32];

	snprintf(s, sizeof(s), "%llu", val);
	return amdx_sysfs_write(path, s);
}

static __u64 vram_free(struct hooks_ctx *h)
{
	struct amdx_device_info info;

	if (amdx_device_info(h->ctl, h->id, &info))
		return 0;
	return info.vram_free;
}

/* AMDX_HMM_ACCESS_SNAPSHOT of the buffer with VRAM page indices. */
static int snapshot(struct hooks_ctx *h, __u8 *snap, __u64 *pfns)
{
	struct amdx_hmm_access a = {
		.addr = (uintptr_t)h->buf,
		.size = h->size,
		.buf = (uintptr_t)snap,
		.op = AMDX_HMM_ACCESS_SNAPSHOT,
		.vram_pfns = (uintptr_t)pfns,
	};

	memset(snap, 0x5a, h->npages);
	memset(pfns, 0x11, h->npages * sizeof(*pfns));
	return amdx_ioctl(h->fd, AMDX_IOC_HMM_ACCESS, &a);
}

/* The device reads the buffer (in place where it is in VRAM). */
static int dev_read(struct hooks_ctx *h)
{
	struct amdx_hmm_access a = {
		.addr = (uintptr_t)h->buf,
		.size = h->size,
		.buf = (uintptr_t)h->bounce,
		.op = AMDX_HMM_ACCESS_READ,
	};

	memset(h->bounce, 0, h->size);
	return amdx_ioctl(h->fd, AMDX_IOC_HMM_ACCESS, &a);
}

/* The fd's total counters and the sum over its ranges' counters. */
static int hmm_stats(int fd, struct amdx_hmm_stats *total,
		     struct amdx_hmm_stats *ranges)
{
	struct amdx_query_hmm_ranges *r;
	struct amdx_hmm_range_info *ri;
	__u32 size = 0, i;
	int ret;

	ret = amdx_query(fd, AMDX_QUERY_HMM_RANGES, 0, NULL, &size);
	if (ret)
		return ret;
	r = calloc(1, size);
	if (!r)
		return -ENOMEM;
	ret = amdx_query(fd, AMDX_QUERY_HMM_RANGES, 0, r, &size);
	if (!ret) {
		*total = r->total;
		memset(ranges, 0, sizeof(*ranges));
		for (i = 0; i < r->num_ranges; i++) {
			ri = (void *)((char *)r->ranges +
				      (size_t)i * r->entry_size);
			ranges->pages_in += ri->stats.pages_in;
			ranges->pages_out += ri->stats.pages_out;
			ranges->cpu_faults += ri->stats.cpu_faults;
			ranges->evictions += ri->stats.evictions;
		}
	}
	free(r);
	return ret;
}

static void expect_same_stats(struct __test_metadata *_metadata,
			      const struct amdx_hmm_stats *a,
			      const struct amdx_hmm_stats *b)
{
	EXPECT_EQ(a->pages_in, b->pages_in);
	EXPECT_EQ(a->pages_out, b->pages_out);
	EXPECT_EQ(a->cpu_faults, b->cpu_faults);
	EXPECT_EQ(a->evictions, b->evictions);
}

/*
 * Map an @npages buffer with a pattern, make it a range and migrate it to
 * partition 0; h->pfns then holds its VRAM page indices, all distinct
 * and inside the VRAM.
 */
static void populate(struct __test_metadata *_metadata,
		     struct hooks_ctx *h, unsigned long npages)
{
	struct amdx_hmm_migrate m = { .dest = 0 };
	struct amdx_hmm_attr a = {
		.valid = AMDX_HMM_ATTR_PREFERRED_LOC,
		.preferred_loc = AMDX_HMM_LOC_SYSTEM,
	};
	unsigned long i, j;
	char *seen;

	h->npages = npages;
	h->size = npages * h->ps;
	h->buf = mmap(NULL, h->size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, h->buf);
	h->snap = malloc(npages);
	h->pfns = malloc(npages * sizeof(*h->pfns));
	h->bounce = malloc(h->size);
	ASSERT_NE(NULL, h->snap);
	ASSERT_NE(NULL, h->pfns);
	ASSERT_NE(NULL, h->bounce);
	amdx_fill(h->buf, h->size, 7);

	a.start = (uintptr_t)h->buf;
	a.size = h->size;
	ASSERT_EQ(0, amdx_ioctl(h->fd, AMDX_IOC_HMM_SET_ATTR, &a));
	m.start = (uintptr_t)h->buf;
	m.size = h->size;
	ASSERT_EQ(0, amdx_ioctl(h->fd, AMDX_IOC_HMM_MIGRATE, &m));
	ASSERT_EQ(npages, m.moved);

	ASSERT_EQ(0, snapshot(h, h->snap, h->pfns));
	seen = calloc(h->vpages, 1);
	ASSERT_NE(NULL, seen);
	for (i = 0; i < npages; i++) {
		j = h->pfns[i];
		ASSERT_TRUE(h->snap[i] & AMDX_HMM_SNAP_DEV_LOCAL)
			TH_LOG("page %lu: snapshot 0x%x", i, h->snap[i]);
		ASSERT_LT(j, h->vpages) TH_LOG("page %lu", i);
		ASSERT_EQ(0, seen[j]) TH_LOG("VRAM page %lu twice", j);
		seen[j] = 1;
	}
	free(seen);
}

FIXTURE_SETUP(hooks)
{
	struct hooks_ctx *h = &self->c;
	const char *want = getenv("AMDX_EXPECT_DEVICE_PRIVATE");
	struct amdx_device_info info;
	char bdf[AMDX_BDF_LEN];

	h->fd = -1;
	h->buf = MAP_FAILED;
	h->ps = sysconf(_SC_PAGESIZE);
	h->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(h->ctl, 0)
		TH_LOG("open %s: %s", AMDX_DEV_PATH, strerror(errno));
	if (!(amdx_caps(h->ctl) & AMDX_CAP_HMM_MIGRATE)) {
		/* on the test kernel (DEVICE_PRIVATE) this is a regression */
		ASSERT_FALSE(want && atoi(want) == 1)
			TH_LOG("no AMDX_CAP_HMM_MIGRATE with DEVICE_PRIVATE");
		h->skip = true;
		return;
	}

	/* a device left behind by a crashed earlier run */
	amdx_sim_del(HOOKS_SIM_ID);
	ASSERT_EQ(0, amdx_sim_new(HOOKS_SIM_ID, HOOKS_SIM_PARAMS));
	h->created = true;
	amdx_sim_bdf(HOOKS_SIM_ID, bdf, sizeof(bdf));
	ASSERT_EQ(0, amdx_find_device(h->ctl, bdf, &h->id))
		TH_LOG("no amdx device at %s", bdf);
	h->fd = amdx_device_open(h->ctl, h->id);
	ASSERT_GE(h->fd, 0)
		TH_LOG("open device %u: %s", h->id, strerror(-h->fd));
	ASSERT_EQ(0, amdx_device_info(h->ctl, h->id, &info));
	ASSERT_EQ(AMDX_MEMORY_NPS1, info.memory_mode);
	ASSERT_EQ(1, info.num_mem_partitions);
	ASSERT_EQ(info.vram_size, info.vram_free);
	h->vpages = info.vram_size / h->ps;

	snprintf(h->evict, sizeof(h->evict), "%s/amdx%u/evict_vram_page",
		 HOOKS_DEBUGFS, h->id);
	snprintf(h->drain, sizeof(h->drain), "%s/amdx%u/drain_partition",
		 HOOKS_DEBUGFS, h->id);
	ASSERT_EQ(0, access(h->evict, W_OK))
		TH_LOG("%s: %s", h->evict, strerror(errno));
	ASSERT_EQ(0, access(h->drain, W_OK))
		TH_LOG("%s: %s", h->drain, strerror(errno));
}

FIXTURE_TEARDOWN(hooks)
{
	struct hooks_ctx *h = &self->c;
	/* closing the fd returns the ranges' data home */
	if (h->fd >= 0)
		close(h->fd);
	if (h->buf != MAP_FAILED)
		munmap(h->buf, h->size);
	free(h->snap);
	free(h->pfns);
	free(h->bounce);
	if (h->created)
		EXPECT_EQ(0, amdx_sim_del(HOOKS_SIM_ID));
	if (h->ctl >= 0)
		close(h->ctl);
}

/*
 * Evicting the VRAM page under page k moves page k to another VRAM page;
 * every other page keeps its VRAM page; the old page is free afterwards.
 */
TEST_F(hooks, evict_moves_one_page_within_vram)
{
	struct hooks_ctx *h = &self->c;
	struct amdx_hmm_stats total0, ranges0, total1, ranges1;
	const unsigned long k = 5;
	__u64 *pfns1, old, free0;
	unsigned long i;
	__u8 *snap1;

	if (h->skip)
		SKIP(return, HOOKS_NO_CAP);
	populate(_metadata, h, HOOKS_NPAGES);
	snap1 = malloc(h->npages);
	pfns1 = malloc(h->npages * sizeof(*pfns1));
	ASSERT_NE(NULL, snap1);
	ASSERT_NE(NULL, pfns1);
	ASSERT_EQ(0, hmm_stats(h->fd, &total0, &ranges0));
	free0 = vram_free(h);
	ASSERT_EQ((h->vpages - h->npages) * h->ps, free0);
	old = h->pfns[k];

	ASSERT_EQ(0, hook(h->evict, old));

	ASSERT_EQ(0, snapshot(h, snap1, pfns1));
	EXPECT_TRUE(snap1[k] & AMDX_HMM_SNAP_DEV_LOCAL)
		TH_LOG("snapshot 0x%x", snap1[k]);
	EXPECT_NE(old, pfns1[k]);
	EXPECT_LT(pfns1[k], h->vpages);
	for (i = 0; i < h->npages; i++) {
		if (i == k)
			continue;
		EXPECT_TRUE(snap1[i] & AMDX_HMM_SNAP_DEV_LOCAL)
			TH_LOG("page %lu: snapshot 0x%x", i, snap1[i]);
		EXPECT_EQ(h->pfns[i], pfns1[i]) TH_LOG("page %lu", i);
		EXPECT_NE(pfns1[k], pfns1[i]) TH_LOG("page %lu", i);
	}
	/* the old page holds nothing any more; one page for one page */
	EXPECT_EQ(-ENOENT, hook(h->evict, old));
	EXPECT_EQ(free0, vram_free(h));

	/* the hook moves pages without the process: no counter changes */
	ASSERT_EQ(0, hmm_stats(h->fd, &total1, &ranges1));
	expect_same_stats(_metadata, &total0, &total1);
	expect_same_stats(_metadata, &ranges0, &ranges1);

	/* the device reads the data in place, the CPU then faults it home */
	ASSERT_EQ(0, dev_read(h));
	EXPECT_EQ(-1, amdx_check(h->bounce, h->size, 7));
	ASSERT_EQ(0, snapshot(h, snap1, pfns1));
	for (i = 0; i < h->npages; i++) {
		/* braces: EXPECT's TH_LOG handler is a second statement */
		EXPECT_TRUE(snap1[i] & AMDX_HMM_SNAP_DEV_LOCAL)
			TH_LOG("page %lu: snapshot 0x%x", i, snap1[i]);
	}
	EXPECT_EQ(-1, amdx_check(h->buf, h->size, 7));
	free(snap1);
	free(pfns1);
}

/* The data follows its page through repeated evictions. */
TEST_F(hooks, evict_twice_follows_the_data)
{
	struct hooks_ctx *h = &self->c;
	const unsigned long k = HOOKS_NPAGES - 1;
	__u64 *pfns1, first, second;
	__u8 *snap1;

	if (h->skip)
		SKIP(return, HOOKS_NO_CAP);
	populate(_metadata, h, HOOKS_NPAGES);
	snap1 = malloc(h->npages);
	pfns1 = malloc(h->npages * sizeof(*pfns1));
	ASSERT_NE(NULL, snap1);
	ASSERT_NE(NULL, pfns1);
	first = h->pfns[k];

	ASSERT_EQ(0, hook(h->evict, first));
	ASSERT_EQ(0, snapshot(h, snap1, pfns1));
	second = pfns1[k];
	ASSERT_NE(first, second);
	ASSERT_LT(second, h->vpages);

	ASSERT_EQ(0, hook(h->evict, second));
	ASSERT_EQ(0, snapshot(h, snap1, pfns1));
	EXPECT_TRUE(snap1[k] & AMDX_HMM_SNAP_DEV_LOCAL);
	EXPECT_NE(second, pfns1[k]);
	EXPECT_LT(pfns1[k], h->vpages);
	EXPECT_EQ(-ENOENT, hook(h->evict, second));
	EXPECT_EQ((h->vpages - h->npages) * h->ps, vram_free(h));

	ASSERT_EQ(0, dev_read(h));
	EXPECT_EQ(-1, amdx_check(h->bounce, h->size, 7));
	EXPECT_EQ(-1, amdx_check(h->buf, h->size, 7));
	free(snap1);
	free(pfns1);
}

/*
 * With the partition full, an evicted page has nowhere to go in VRAM and
 * goes home; the rest stays where it was.
 */
TEST_F_TIMEOUT(hooks, evict_from_full_partition_goes_home, 180)
{
	struct hooks_ctx *h = &self->c;
	unsigned long i, k, wrong = 0, moved_others = 0;
	__u64 *pfns1, old;
	__u8 *snap1;

	if (h->skip)
		SKIP(return, HOOKS_NO_CAP);
	populate(_metadata, h, h->vpages);
	ASSERT_EQ(0, vram_free(h));
	snap1 = malloc(h->npages);
	pfns1 = malloc(h->npages * sizeof(*pfns1));
	ASSERT_NE(NULL, snap1);
	ASSERT_NE(NULL, pfns1);
	k = h->npages / 3;
	old = h->pfns[k];

	ASSERT_EQ(0, hook(h->evict, old));

	ASSERT_EQ(0, snapshot(h, snap1, pfns1));
	EXPECT_FALSE(snap1[k] & AMDX_HMM_SNAP_DEV_LOCAL)
		TH_LOG("snapshot 0x%x", snap1[k]);
	EXPECT_EQ(NO_VRAM_PAGE, pfns1[k]);
	for (i = 0; i < h->npages; i++) {
		if (i == k)
			continue;
		wrong += !(snap1[i] & AMDX_HMM_SNAP_DEV_LOCAL);
		moved_others += h->pfns[i] != pfns1[i];
	}
	EXPECT_EQ(0, wrong);
	EXPECT_EQ(0, moved_others);
	EXPECT_EQ(h->ps, vram_free(h));
	EXPECT_EQ(-ENOENT, hook(h->evict, old));

	EXPECT_EQ(-1, amdx_check(h->buf, h->size, 7));
	free(snap1);
	free(pfns1);
}

/* Draining partition 0 moves everything home and frees all VRAM. */
TEST_F(hooks, drain_moves_everything_home)
{
	struct hooks_ctx *h = &self->c;
	struct amdx_hmm_stats total0, ranges0, total1, ranges1;
	struct amdx_hmm_migrate m = { .dest = 0 };
	struct amdx_device_info info;
	unsigned long i;

	if (h->skip)
		SKIP(return, HOOKS_NO_CAP);
	populate(_metadata, h, HOOKS_NPAGES);
	ASSERT_EQ(0, hmm_stats(h->fd, &total0, &ranges0));

	ASSERT_EQ(0, hook(h->drain, 0));

	/* drain returns once no page is in use: no waiting */
	ASSERT_EQ(0, amdx_device_info(h->ctl, h->id, &info));
	EXPECT_EQ(info.vram_size, info.vram_free);
	EXPECT_EQ(info.mem_partitions[0].size, info.mem_partitions[0].free);
	ASSERT_EQ(0, snapshot(h, h->snap, h->pfns));
	for (i = 0; i < h->npages; i++) {
		EXPECT_FALSE(h->snap[i] & AMDX_HMM_SNAP_DEV_LOCAL)
			TH_LOG("page %lu: snapshot 0x%x", i, h->snap[i]);
		EXPECT_EQ(NO_VRAM_PAGE, h->pfns[i]) TH_LOG("page %lu", i);
	}
	/* every old VRAM page is free */
	EXPECT_EQ(-ENOENT, hook(h->evict, 0));

	/* moved without the process: no counter changes */
	ASSERT_EQ(0, hmm_stats(h->fd, &total1, &ranges1));
	expect_same_stats(_metadata, &total0, &total1);
	expect_same_stats(_metadata, &ranges0, &ranges1);

	ASSERT_EQ(0, dev_read(h));
	EXPECT_EQ(-1, amdx_check(h->bounce, h->size, 7));
	EXPECT_EQ(-1, amdx_check(h->buf, h->size, 7));

	/* the data can go back to VRAM afterwards */
	m.start = (uintptr_t)h->buf;
	m.size = h->size;
	ASSERT_EQ(0, amdx_ioctl(h->fd, AMDX_IOC_HMM_MIGRATE, &m));
	EXPECT_EQ(h->npages, m.moved);
}

/* Draining a partition with nothing in it succeeds and changes nothing. */
TEST_F(hooks, drain_of_empty_partition_succeeds)
{
	struct hooks_ctx *h = &self->c;

	if (h->skip)
		SKIP(return, HOOKS_NO_CAP);
	ASSERT_EQ(0, hook(h->drain, 0));
	ASSERT_EQ(0, hook(h->drain, 0));
	EXPECT_EQ(h->vpages * h->ps, vram_free(h));
}

TEST_F(hooks, evict_index_beyond_vram_is_einval)
{
	struct hooks_ctx *h = &self->c;

	if (h->skip)
		SKIP(return, HOOKS_NO_CAP);
	populate(_metadata, h, HOOKS_NPAGES);
	EXPECT_EQ(-EINVAL, hook(h->evict, h->vpages));
	EXPECT_EQ(-EINVAL, hook(h->evict, ULLONG_MAX));
	EXPECT_EQ((h->vpages - h->npages) * h->ps, vram_free(h));
}

TEST_F(hooks, evict_not_a_number_is_einval)
{
	struct hooks_ctx *h = &self->c;

	if (h->skip)
		SKIP(return, HOOKS_NO_CAP);
	EXPECT_EQ(-EINVAL, amdx_sysfs_write(h->evict, "page"));
	EXPECT_EQ(-EINVAL, amdx_sysfs_write(h->evict, "-1"));
}

/* A page that holds no data: nothing allocated, or just not in use. */
TEST_F(hooks, evict_free_page_is_enoent)
{
	struct hooks_ctx *h = &self->c;
	__u64 idx;
	unsigned long i;

	if (h->skip)
		SKIP(return, HOOKS_NO_CAP);
	EXPECT_EQ(-ENOENT, hook(h->evict, 0));
	EXPECT_EQ(-ENOENT, hook(h->evict, h->vpages - 1));

	populate(_metadata, h, HOOKS_NPAGES);
	/* the first VRAM page not under the buffer */
	for (idx = 0; idx < h->vpages; idx++) {
		for (i = 0; i < h->npages; i++)
			if (h->pfns[i] == idx)
				break;
		if (i == h->npages)
			break;
	}
	ASSERT_LT(idx, h->vpages);
	EXPECT_EQ(-ENOENT, hook(h->evict, idx));
	EXPECT_EQ((h->vpages - h->npages) * h->ps, vram_free(h));
}

/* An NPS1 device has partition 0 only. */
TEST_F(hooks, drain_partition_beyond_nps1_is_einval)
{
	struct hooks_ctx *h = &self->c;

	if (h->skip)
		SKIP(return, HOOKS_NO_CAP);
	populate(_metadata, h, HOOKS_NPAGES);
	EXPECT_EQ(-EINVAL, hook(h->drain, 5));
	EXPECT_EQ(-EINVAL, hook(h->drain, 1));
	/* nothing moved */
	EXPECT_EQ((h->vpages - h->npages) * h->ps, vram_free(h));
}

/* Beyond any memory mode: AMDX_MAX_MEM_PARTITIONS and up. */
TEST_F(hooks, drain_partition_beyond_max_is_einval)
{
	struct hooks_ctx *h = &self->c;

	if (h->skip)
		SKIP(return, HOOKS_NO_CAP);
	EXPECT_EQ(-EINVAL, hook(h->drain, AMDX_MAX_MEM_PARTITIONS));
	EXPECT_EQ(-EINVAL, hook(h->drain, ULLONG_MAX));
	EXPECT_EQ(-EINVAL, amdx_sysfs_write(h->drain, "zero"));
}

TEST_HARNESS_MAIN
