// SPDX-License-Identifier: GPL-2.0
/*
 * HMM migration through amdx device fds: AMDX_IOC_HMM_SET_ATTR,
 * AMDX_IOC_HMM_MIGRATE, AMDX_IOC_HMM_ACCESS and AMDX_QUERY_HMM_RANGES.
 *
 * What the kernel's selftests/vm/hmm-tests.c checks for test_hmm, asked of
 * amdx's uapi: device reads and writes of process memory, protection,
 * fork and COW, file-backed private mappings, migration to VRAM and back
 * on CPU fault, explicit and preferred-location migration, eviction and
 * pinning, two devices, teardown races, process exit and fd close; then
 * every validation path on its own with the exact errno.
 *
 * Each test creates its own amdx_sim devices (sim ids 100 and 101, 64 MiB
 * of VRAM in one NPS1 partition) and deletes them afterwards.  Without
 * AMDX_CAP_HMM_MIGRATE every test skips, unless the runner says the kernel
 * has CONFIG_DEVICE_PRIVATE (AMDX_EXPECT_DEVICE_PRIVATE=1): then a missing
 * capability is a regression and fails.
 *
 * Children created by fork() never use ASSERT (it would run the fixture's
 * teardown in the child): they _exit() with the number of the step that
 * failed and the parent asserts on it.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

#define HMM_SIM_ID		AMDX_SIM_ID(hmm, 0)
#define HMM_SIM_PARAMS		"model=mi300x vram=64"
#define HMM_MAX_DEVS		2

#define SZ_1M			0x100000UL
#define SZ_2M			0x200000UL
#define HMM_BUF_SIZE		(4UL << 20)
#define HMM_NTIMES		16

#define SNAP_RW			(AMDX_HMM_SNAP_READ | AMDX_HMM_SNAP_WRITE)

struct hmm_dev {
	unsigned int sim_id;
	bool created;
	__u32 id;
	int fd;
};

struct hmm_ctx {
	int ctl;
	bool skip;
	unsigned long page_size;
	int ndevs;
	struct hmm_dev dev[HMM_MAX_DEVS];
};

static int hmm_dev_create(struct hmm_ctx *c, struct hmm_dev *d,
			  unsigned int sim_id)
{
	char bdf[AMDX_BDF_LEN];
	int ret;

	d->sim_id = sim_id;
	d->fd = -1;
	/* a device left behind by a crashed earlier run */
	amdx_sim_del(sim_id);
	ret = amdx_sim_new(sim_id, HMM_SIM_PARAMS);
	if (ret)
		return ret;
	d->created = true;
	amdx_sim_bdf(sim_id, bdf, sizeof(bdf));
	ret = amdx_find_device(c->ctl, bdf, &d->id);
	if (ret)
		return ret;
	d->fd = amdx_device_open(c->ctl, d->id);
	return d->fd < 0 ? d->fd : 0;
}

static void hmm_ctx_teardown(struct __test_metadata *_metadata,
			     struct hmm_ctx *c)
{
	int i;

	for (i = 0; i < HMM_MAX_DEVS; i++) {
		struct hmm_dev *d = &c->dev[i];

		if (d->fd >= 0)
			close(d->fd);
		d->fd = -1;
		if (d->created)
			EXPECT_EQ(0, amdx_sim_del(d->sim_id));
		d->created = false;
	}
	if (c->ctl >= 0)
		close(c->ctl);
}

static void hmm_ctx_setup(struct __test_metadata *_metadata,
			  struct hmm_ctx *c, int ndevs)
{
	const char *want = getenv("AMDX_EXPECT_DEVICE_PRIVATE");
	int i, ret = 0;

	c->page_size = sysconf(_SC_PAGESIZE);
	c->ndevs = ndevs;
	for (i = 0; i < HMM_MAX_DEVS; i++)
		c->dev[i].fd = -1;
	c->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(c->ctl, 0) TH_LOG("open %s: %s", AMDX_DEV_PATH,
				    strerror(errno));

	if (!(amdx_caps(c->ctl) & AMDX_CAP_HMM_MIGRATE)) {
		/* on the test kernel (DEVICE_PRIVATE) this is a regression */
		ASSERT_FALSE(want && atoi(want) == 1)
			TH_LOG("no AMDX_CAP_HMM_MIGRATE with DEVICE_PRIVATE");
		c->skip = true;
		return;
	}

	for (i = 0; i < ndevs && !ret; i++)
		ret = hmm_dev_create(c, &c->dev[i], HMM_SIM_ID + i);
	if (ret) {
		/* no teardown after a failed setup: undo here */
		hmm_ctx_teardown(_metadata, c);
		ASSERT_EQ(0, ret) TH_LOG("sim device %u: %s", HMM_SIM_ID + i - 1,
					 strerror(-ret));
	}
}

FIXTURE(hmm)
{
	struct hmm_ctx c;
};

FIXTURE_SETUP(hmm)
{
	hmm_ctx_setup(_metadata, &self->c, 1);
}

FIXTURE_TEARDOWN(hmm)
{
	hmm_ctx_teardown(_metadata, &self->c);
}

/* Two devices: data moving between two VRAMs and system memory. */
FIXTURE(hmm2)
{
	struct hmm_ctx c;
};

FIXTURE_SETUP(hmm2)
{
	hmm_ctx_setup(_metadata, &self->c, 2);
}

FIXTURE_TEARDOWN(hmm2)
{
	hmm_ctx_teardown(_metadata, &self->c);
}

/*
 * First statement of every test, "if (self->c.skip) SKIP(...)": a SKIP()
 * in a 6.1 fixture setup does not stop the test.
 */
#define HMM_NO_CAP "no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)"

/* mmap() at a 2 MiB boundary, so granules (default 2 MiB) line up. */
static void *hmm_mmap(size_t size, int prot, int flags, int fd)
{
	char *res, *p;

	res = mmap(NULL, size + SZ_2M, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (res == MAP_FAILED)
		return MAP_FAILED;
	p = (char *)(((uintptr_t)res + SZ_2M - 1) & ~(SZ_2M - 1));
	if (mmap(p, size, prot, flags | MAP_FIXED, fd, 0) == MAP_FAILED) {
		munmap(res, size + SZ_2M);
		return MAP_FAILED;
	}
	if (p > res)
		munmap(res, p - res);
	munmap(p + size, res + SZ_2M - p);
	return p;
}

static void *hmm_anon(size_t size)
{
	return hmm_mmap(size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1);
}

/* amdx_check() of [base + off, base + off + len) of a buffer filled from base. */
static long check_at(const void *base, size_t off, size_t len, __u32 seed)
{
	const __u32 *w = base;
	unsigned long i;

	for (i = off / sizeof(*w); i < (off + len) / sizeof(*w); i++)
		if (w[i] != amdx_pattern(i, seed))
			return i;
	return -1;
}

static long check_zero(const void *p, size_t size)
{
	const __u32 *w = p;
	unsigned long i;

	for (i = 0; i < size / sizeof(*w); i++)
		if (w[i])
			return i;
	return -1;
}

static int set_attr(int fd, void *p, size_t size, __u32 valid,
		    __u32 loc, __u32 gran, __u32 flags,
			__u64 access)
{
	struct amdx_hmm_attr a = {
		.start = (uintptr_t)p,
		.size = size,
		.valid = valid,
		.preferred_loc = loc,
		.granularity = gran,
		.flags = flags,
		.access = access,
	};

	return amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a);
}

/* Make [p, p + size) a range with default attributes. */
static int add_range(int fd, void *p, size_t size)
{
	return set_attr(fd, p, size, AMDX_HMM_ATTR_PREFERRED_LOC,
			    AMDX_HMM_LOC_SYSTEM, 0, 0, 0);
}

/*
 * A range grants only the device whose fd set it (the access attribute's
 * default): let the first two devices of @c both reach [@p, @p + @size),
 * through either fd.
 */
static int grant_both(struct hmm_ctx *c, void *p, size_t size)
{
	__u64 both = (1ULL << c->dev[0].id) | (1ULL << c->dev[1].id);
	int i, ret;

	for (i = 0; i < 2; i++) {
		ret = set_attr(c->dev[i].fd, p, size, AMDX_HMM_ATTR_ACCESS,
			       0, 0, 0, both);
		if (ret)
			return ret;
	}
	return 0;
}

static int migrate_to(int fd, void *p, size_t size, __u32 dest,
		      struct amdx_hmm_migrate *m)
{
	*m = (struct amdx_hmm_migrate) {
		.start = (uintptr_t)p,
		.size = size,
		.dest = dest,
	};
	return amdx_ioctl(fd, AMDX_IOC_HMM_MIGRATE, m);
}

static int dev_access(int fd, __u32 op, void *p, size_t size, void *buf,
		      __u64 *faults)
{
	struct amdx_hmm_access a = {
		.addr = (uintptr_t)p,
		.size = size,
		.buf = (uintptr_t)buf,
		.op = op,
	};
	int ret = amdx_ioctl(fd, AMDX_IOC_HMM_ACCESS, &a);

	if (faults)
		*faults = a.faults;
	return ret;
}

static int dev_snapshot(struct hmm_ctx *c, int fd, void *p,
			unsigned long npages, __u8 *snap)
{
	memset(snap, 0x5a, npages);
	return dev_access(fd, AMDX_HMM_ACCESS_SNAPSHOT, p,
			  npages * c->page_size, snap, NULL);
}

/* Pages whose snapshot byte has every bit of @set and none of @clear. */
static unsigned long snap_count(const __u8 *snap, unsigned long npages,
				__u8 set, __u8 clear)
{
	unsigned long i, n = 0;

	for (i = 0; i < npages; i++)
		if ((snap[i] & set) == set && !(snap[i] & clear))
			n++;
	return n;
}

/* AMDX_QUERY_HMM_RANGES through the two-call protocol; free() it. */
static struct amdx_query_hmm_ranges *hmm_ranges(int fd)
{
	struct amdx_query_hmm_ranges *r;
	__u32 size = 0;

	if (amdx_query(fd, AMDX_QUERY_HMM_RANGES, 0, NULL, &size))
		return NULL;
	r = calloc(1, size);
	if (r && amdx_query(fd, AMDX_QUERY_HMM_RANGES, 0, r, &size)) {
		free(r);
		return NULL;
	}
	return r;
}

static struct amdx_hmm_range_info *
range_at(struct amdx_query_hmm_ranges *r, __u32 i)
{
	return (void *)((char *)r->ranges + (size_t)i * r->entry_size);
}

/*
 * Sum over the fd's ranges inside [p, p + size) of resident_pages
 * (@stats NULL) or of the ranges' stats into @stats; -1 on error.
 */
static long hmm_resident(int fd, void *p, size_t size,
			 struct amdx_hmm_stats *stats)
{
	struct amdx_query_hmm_ranges *r = hmm_ranges(fd);
	uintptr_t start = (uintptr_t)p, end = start + size;
	struct amdx_hmm_range_info *ri;
	long n = 0;
	__u32 i;

	if (!r)
		return -1;
	if (stats)
		memset(stats, 0, sizeof(*stats));
	for (i = 0; i < r->num_ranges; i++) {
		ri = range_at(r, i);
		if (ri->start + ri->size <= start || ri->start >= end)
			continue;
		n += ri->resident_pages;
		if (stats) {
			stats->pages_in += ri->stats.pages_in;
			stats->pages_out += ri->stats.pages_out;
			stats->cpu_faults += ri->stats.cpu_faults;
			stats->evictions += ri->stats.evictions;
			stats->bytes_in += ri->stats.bytes_in;
			stats->bytes_out += ri->stats.bytes_out;
		}
	}
	free(r);
	return n;
}

/* The fd's total counters (ranges since removed included). */
static int hmm_total(int fd, struct amdx_hmm_stats *total)
{
	struct amdx_query_hmm_ranges *r = hmm_ranges(fd);

	if (!r)
		return -1;
	*total = r->total;
	free(r);
	return 0;
}

static __u64 vram_free(struct hmm_ctx *c, int dev)
{
	struct amdx_device_info info;

	if (amdx_device_info(c->ctl, c->dev[dev].id, &info))
		return 0;
	return info.vram_free;
}

static __u64 vram_size(struct hmm_ctx *c, int dev)
{
	struct amdx_device_info info;

	if (amdx_device_info(c->ctl, c->dev[dev].id, &info))
		return 0;
	return info.vram_size;
}

/*
 * The eviction cases fill a memory partition: each page filled, moved
 * and checked costs about a millisecond of a TCG guest with KASAN, and
 * three of them filling 64 MiB cost the 6.12 test VM about 40 s.  They
 * use memory partition 0 of @dev under CPX/NPS4 instead, a quarter of
 * its VRAM (16 MiB): the bytes of that partition, 0 on error.
 */
static __u64 quarter_partition(struct hmm_ctx *c, int dev)
{
	if (amdx_commit_modes(c->dev[dev].fd, AMDX_COMPUTE_CPX,
			      AMDX_MEMORY_NPS4, 0, NULL))
		return 0;
	return vram_size(c, dev) / 4;
}

/* Device pages go back asynchronously at most briefly: wait up to 5 s. */
static bool vram_all_free(struct hmm_ctx *c, int dev)
{
	struct timespec ts = { .tv_nsec = 50 * 1000 * 1000 };
	int i;

	for (i = 0; i < 100; i++) {
		if (vram_free(c, dev) == vram_size(c, dev))
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

/* waitpid() and the child's exit code, -1 if it did not exit. */
static int wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#define DEV0	(self->c.dev[0].fd)
#define DEV1	(self->c.dev[1].fd)
#define PAGES(size)	((size) / self->c.page_size)

/* A device fd without ranges; the range query names the process. */
TEST_F(hmm, open_close_no_ranges)
{
	struct amdx_query_hmm_ranges *r;
	int i, fd;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	for (i = 0; i < 20; i++) {
		fd = amdx_device_open(self->c.ctl, self->c.dev[0].id);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, close(fd));
	}
	r = hmm_ranges(DEV0);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(0, r->num_ranges);
	EXPECT_EQ(getpid(), r->pid);
	EXPECT_EQ(sizeof(struct amdx_hmm_range_info), r->entry_size);
	EXPECT_EQ(0, r->total.pages_in + r->total.pages_out);
	free(r);
}

/* The device reads process memory and sees what the CPU wrote. */
TEST_F(hmm, anon_read)
{
	size_t size = HMM_BUF_SIZE;
	__u64 faults = ~0ULL;
	char *p, *mirror;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	mirror = malloc(size);
	ASSERT_NE(NULL, mirror);
	amdx_fill(p, size, 1);
	amdx_fill(mirror, size, 2);
	ASSERT_EQ(0, add_range(DEV0, p, size));

	ASSERT_EQ(0, dev_access(DEV0, AMDX_HMM_ACCESS_READ, p, size, mirror,
				&faults));
	EXPECT_EQ(-1, amdx_check(mirror, size, 1));
	/* every page was present and readable: nothing to fault in */
	EXPECT_EQ(0, faults);
	EXPECT_EQ(-1, amdx_check(p, size, 1));
	free(mirror);
	munmap(p, size);
}

/* Device reads see each new CPU write: no stale mirror. */
TEST_F(hmm, anon_read_multiple)
{
	size_t size = HMM_BUF_SIZE;
	char *p, *mirror;
	int i;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	mirror = malloc(size);
	ASSERT_NE(NULL, mirror);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	for (i = 0; i < 4; i++) {
		amdx_fill(p, size, i);
		ASSERT_EQ(0, dev_access(DEV0, AMDX_HMM_ACCESS_READ, p, size,
					mirror, NULL));
		ASSERT_EQ(-1, amdx_check(mirror, size, i)) TH_LOG("round %d", i);
	}
	free(mirror);
	munmap(p, size);
}

/* A range made PROT_NONE after SET_ATTR: device reads fail, -EFAULT. */
TEST_F(hmm, anon_read_prot_none_efault)
{
	size_t size = HMM_BUF_SIZE;
	char *p, *mirror;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	mirror = malloc(size);
	ASSERT_NE(NULL, mirror);
	amdx_fill(p, size, 1);
	amdx_fill(mirror, size, 2);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	ASSERT_EQ(0, mprotect(p, size, PROT_NONE));

	EXPECT_EQ(-EFAULT, dev_access(DEV0, AMDX_HMM_ACCESS_READ, p, size,
				      mirror, NULL));
	EXPECT_EQ(-1, amdx_check(mirror, size, 2));
	ASSERT_EQ(0, mprotect(p, size, PROT_READ));
	EXPECT_EQ(-1, amdx_check(p, size, 1));
	free(mirror);
	munmap(p, size);
}

/*
 * Read-only memory: the device may read it; a device write needs a write
 * fault hmm_range_fault() refuses on a VMA without VM_WRITE, -EPERM (as
 * test_hmm's anon_write_prot), and the memory stays unchanged.
 */
TEST_F(hmm, anon_read_only_write_eperm)
{
	size_t size = HMM_BUF_SIZE;
	char *p, *mirror;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	mirror = malloc(size);
	ASSERT_NE(NULL, mirror);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, mprotect(p, size, PROT_READ));
	ASSERT_EQ(0, add_range(DEV0, p, size));

	ASSERT_EQ(0, dev_access(DEV0, AMDX_HMM_ACCESS_READ, p, size, mirror,
				NULL));
	EXPECT_EQ(-1, amdx_check(mirror, size, 1));

	amdx_fill(mirror, size, 2);
	EXPECT_EQ(-EPERM, dev_access(DEV0, AMDX_HMM_ACCESS_WRITE, p, size,
				     mirror, NULL));
	EXPECT_EQ(-1, amdx_check(p, size, 1));

	/* writable again: now the write goes through */
	ASSERT_EQ(0, mprotect(p, size, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, dev_access(DEV0, AMDX_HMM_ACCESS_WRITE, p, size, mirror,
				NULL));
	EXPECT_EQ(-1, amdx_check(p, size, 2));
	free(mirror);
	munmap(p, size);
}

/* The device writes never-touched memory; the CPU sees the data. */
TEST_F(hmm, anon_write)
{
	size_t size = HMM_BUF_SIZE;
	__u64 faults = 0;
	char *p, *mirror;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	mirror = malloc(size);
	ASSERT_NE(NULL, mirror);
	amdx_fill(mirror, size, 3);
	ASSERT_EQ(0, add_range(DEV0, p, size));

	ASSERT_EQ(0, dev_access(DEV0, AMDX_HMM_ACCESS_WRITE, p, size, mirror,
				&faults));
	/* nothing was mapped: every page had to be faulted in */
	EXPECT_EQ(PAGES(size), faults);
	EXPECT_EQ(-1, amdx_check(p, size, 3));
	free(mirror);
	munmap(p, size);
}

/*
 * Child of the anon_write_child tests: 0 or the failing step.  The CPU
 * writes the first half, the device (through the child's own fd, the
 * parent's belongs to the parent's mm) the second half, after migrating
 * the child's view to VRAM when @migrate.
 */
static int cow_child(struct hmm_ctx *c, char *p, size_t size, bool migrate)
{
	size_t half = size / 2;
	struct amdx_hmm_migrate m;
	char *mirror;
	int fd;

	/* the parent's data, whether it is in VRAM or not */
	if (amdx_check(p, size, 1) != -1)
		return 1;
	amdx_fill(p, half, 2);
	fd = amdx_device_open(c->ctl, c->dev[0].id);
	if (fd < 0)
		return 2;
	if (add_range(fd, p, size))
		return 3;
	if (migrate && (migrate_to(fd, p, size, 0, &m) ||
			m.moved + m.already + m.skipped != size / c->page_size))
		return 4;
	mirror = malloc(half);
	if (!mirror)
		return 5;
	amdx_fill(mirror, half, 3);
	if (dev_access(fd, AMDX_HMM_ACCESS_WRITE, p + half, half, mirror,
		       NULL))
		return 6;
	if (amdx_check(p, half, 2) != -1 || amdx_check(p + half, half, 3) != -1)
		return 7;
	return 0;
}

/*
 * fork() shares private memory copy-on-write: the child's CPU and device
 * writes must not reach the parent, wherever the pages are.  @where: 0
 * system memory, 1 the parent's pages in VRAM at fork(), 2 the same and
 * the child migrates its (still shared) view to VRAM before writing.
 */
static void cow_test(struct __test_metadata *_metadata, struct hmm_ctx *c,
		     int where)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	char *p, *mirror;
	pid_t pid;

	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	mirror = malloc(size);
	ASSERT_NE(NULL, mirror);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, add_range(c->dev[0].fd, p, size));
	if (where) {
		ASSERT_EQ(0, migrate_to(c->dev[0].fd, p, size, 0, &m));
		ASSERT_EQ(size / c->page_size, m.moved);
	}

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		_exit(cow_child(c, p, size, where == 2));
	ASSERT_EQ(0, wait_child(pid));

	/* the parent's copy, seen by the device and by the CPU */
	ASSERT_EQ(0, dev_access(c->dev[0].fd, AMDX_HMM_ACCESS_READ, p, size,
				mirror, NULL));
	EXPECT_EQ(-1, amdx_check(mirror, size, 1));
	EXPECT_EQ(-1, amdx_check(p, size, 1));
	free(mirror);
	munmap(p, size);
}

TEST_F(hmm, anon_write_child)
{
	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	cow_test(_metadata, &self->c, 0);
}

TEST_F(hmm, anon_write_child_parent_in_vram)
{
	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	cow_test(_metadata, &self->c, 1);
}

TEST_F(hmm, anon_write_child_both_in_vram)
{
	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	cow_test(_metadata, &self->c, 2);
}

/*
 * MAP_SHARED memory cannot be a range (-EINVAL): a shared page cannot be
 * migrated for one process.  The device can still access it (ACCESS needs
 * no range, as test_hmm's mirror), and after fork() the child's device
 * writes reach the parent, as test_hmm's anon_write_child_shared.
 */
TEST_F(hmm, anon_write_child_shared)
{
	size_t size = HMM_BUF_SIZE;
	char *p;
	pid_t pid;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_mmap(size, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1);
	ASSERT_NE(MAP_FAILED, p);
	amdx_fill(p, size, 1);
	EXPECT_EQ(-EINVAL, add_range(DEV0, p, size));

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		char *mirror = malloc(size);
		int fd;

		if (!mirror || amdx_check(p, size, 1) != -1)
			_exit(1);
		fd = amdx_device_open(self->c.ctl, self->c.dev[0].id);
		if (fd < 0)
			_exit(2);
		if (add_range(fd, p, size) != -EINVAL)
			_exit(3);
		amdx_fill(mirror, size, 2);
		if (dev_access(fd, AMDX_HMM_ACCESS_WRITE, p, size, mirror,
			       NULL))
			_exit(4);
		_exit(amdx_check(p, size, 2) == -1 ? 0 : 5);
	}
	ASSERT_EQ(0, wait_child(pid));
	EXPECT_EQ(-1, amdx_check(p, size, 2));
	munmap(p, size);
}

/* A file in /tmp (tmpfs in the VM) holding pattern 1; -1 on error. */
static int hmm_tmpfile(size_t size)
{
	char name[] = "/tmp/amdx_hmm_XXXXXX";
	void *buf;
	int fd;

	fd = mkstemp(name);
	if (fd < 0)
		return -1;
	unlink(name);
	buf = malloc(size);
	if (!buf)
		goto err;
	amdx_fill(buf, size, 1);
	if (pwrite(fd, buf, size, 0) != (ssize_t)size) {
		free(buf);
		goto err;
	}
	free(buf);
	return fd;
err:
	close(fd);
	return -1;
}

/* Private file mapping: the device reads the file's data. */
TEST_F(hmm, file_read)
{
	size_t size = HMM_BUF_SIZE;
	char *p, *mirror;
	int file;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	file = hmm_tmpfile(size);
	ASSERT_GE(file, 0);
	p = hmm_mmap(size, PROT_READ, MAP_PRIVATE, file);
	ASSERT_NE(MAP_FAILED, p);
	mirror = malloc(size);
	ASSERT_NE(NULL, mirror);
	amdx_fill(mirror, size, 2);
	ASSERT_EQ(0, add_range(DEV0, p, size));

	ASSERT_EQ(0, dev_access(DEV0, AMDX_HMM_ACCESS_READ, p, size, mirror,
				NULL));
	EXPECT_EQ(-1, amdx_check(mirror, size, 1));
	free(mirror);
	munmap(p, size);
	close(file);
}

/*
 * Private file mapping: device writes land in the process's COW copies,
 * migrate to VRAM and back; the file keeps its data.
 */
TEST_F(hmm, file_write_private)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	char *p, *mirror;
	int file;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	file = hmm_tmpfile(size);
	ASSERT_GE(file, 0);
	p = hmm_mmap(size, PROT_READ | PROT_WRITE, MAP_PRIVATE, file);
	ASSERT_NE(MAP_FAILED, p);
	mirror = malloc(size);
	ASSERT_NE(NULL, mirror);
	amdx_fill(mirror, size, 2);
	ASSERT_EQ(0, add_range(DEV0, p, size));

	ASSERT_EQ(0, dev_access(DEV0, AMDX_HMM_ACCESS_WRITE, p, size, mirror,
				NULL));
	EXPECT_EQ(-1, amdx_check(p, size, 2));

	/* now anonymous COW pages: they migrate */
	ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
	EXPECT_EQ(PAGES(size), m.moved);
	EXPECT_EQ(PAGES(size), hmm_resident(DEV0, p, size, NULL));
	EXPECT_EQ(-1, amdx_check(p, size, 2));

	ASSERT_EQ((ssize_t)size, pread(file, mirror, size, 0));
	EXPECT_EQ(-1, amdx_check(mirror, size, 1));
	free(mirror);
	munmap(p, size);
	close(file);
}

/*
 * Page-cache pages of a private file mapping not yet COW-copied are the
 * file's, not the process's: they are not migrated, and whatever the
 * kernel does with them, counts add up and the data stays.
 */
TEST_F(hmm, migrate_file_private_unwritten)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	__u8 *snap;
	char *p;
	int file;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	file = hmm_tmpfile(size);
	ASSERT_GE(file, 0);
	p = hmm_mmap(size, PROT_READ | PROT_WRITE, MAP_PRIVATE, file);
	ASSERT_NE(MAP_FAILED, p);
	snap = malloc(PAGES(size));
	ASSERT_NE(NULL, snap);
	ASSERT_EQ(-1, amdx_check(p, size, 1));
	ASSERT_EQ(0, add_range(DEV0, p, size));

	ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
	EXPECT_EQ(PAGES(size), m.moved + m.already + m.skipped);
	EXPECT_EQ(0, m.already);
	ASSERT_EQ(0, dev_snapshot(&self->c, DEV0, p, PAGES(size), snap));
	EXPECT_EQ(m.moved, snap_count(snap, PAGES(size),
				      AMDX_HMM_SNAP_DEV_LOCAL, 0));
	EXPECT_EQ(-1, amdx_check(p, size, 1));
	free(snap);
	munmap(p, size);
	close(file);
}

/*
 * Migrate to partition 0: every page is in this device's VRAM, the range
 * says so, the counters and VRAM accounting agree.
 */
TEST_F(hmm, migrate)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_stats st, total;
	struct amdx_hmm_migrate m;
	__u64 free0;
	__u8 *snap;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	snap = malloc(PAGES(size));
	ASSERT_NE(NULL, snap);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	free0 = vram_free(&self->c, 0);
	ASSERT_EQ(vram_size(&self->c, 0), free0);

	ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
	EXPECT_EQ(PAGES(size), m.moved);
	EXPECT_EQ(0, m.already);
	EXPECT_EQ(0, m.skipped);
	EXPECT_EQ(0, m.skip_reasons);

	ASSERT_EQ(0, dev_snapshot(&self->c, DEV0, p, PAGES(size), snap));
	EXPECT_EQ(PAGES(size), snap_count(snap, PAGES(size),
					  AMDX_HMM_SNAP_DEV_LOCAL |
					  AMDX_HMM_SNAP_WRITE,
					  AMDX_HMM_SNAP_DEV_REMOTE |
					  AMDX_HMM_SNAP_ERROR));
	EXPECT_EQ(PAGES(size), hmm_resident(DEV0, p, size, &st));
	EXPECT_EQ(PAGES(size), st.pages_in);
	EXPECT_EQ(size, st.bytes_in);
	EXPECT_EQ(0, st.pages_out);
	EXPECT_EQ(0, st.cpu_faults);
	ASSERT_EQ(0, hmm_total(DEV0, &total));
	EXPECT_EQ(PAGES(size), total.pages_in);
	EXPECT_EQ(free0 - size, vram_free(&self->c, 0));

	/* again: nothing to do */
	ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
	EXPECT_EQ(0, m.moved);
	EXPECT_EQ(PAGES(size), m.already);
	EXPECT_EQ(0, m.skipped);
	EXPECT_EQ(free0 - size, vram_free(&self->c, 0));

	/* the CPU sees the data (and brings it back) */
	EXPECT_EQ(-1, amdx_check(p, size, 1));
	free(snap);
	munmap(p, size);
}

/*
 * Migrate, then touch from the CPU: every page comes back through
 * migrate_to_ram with its data, and the counters record it.
 */
TEST_F(hmm, migrate_fault)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	struct amdx_hmm_stats st;
	__u8 *snap;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	snap = malloc(PAGES(size));
	ASSERT_NE(NULL, snap);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
	ASSERT_EQ(PAGES(size), m.moved);

	EXPECT_EQ(-1, amdx_check(p, size, 1));
	ASSERT_EQ(0, dev_snapshot(&self->c, DEV0, p, PAGES(size), snap));
	EXPECT_EQ(0, snap_count(snap, PAGES(size), AMDX_HMM_SNAP_DEV_LOCAL, 0));
	EXPECT_EQ(PAGES(size), snap_count(snap, PAGES(size),
					  AMDX_HMM_SNAP_WRITE, 0));
	EXPECT_EQ(0, hmm_resident(DEV0, p, size, &st));
	EXPECT_LT(0, st.cpu_faults);
	EXPECT_EQ(PAGES(size), st.pages_out);
	EXPECT_EQ(size, st.bytes_out);
	EXPECT_TRUE(vram_all_free(&self->c, 0));

	/* and CPU writes after the fault stick */
	amdx_fill(p, size, 2);
	EXPECT_EQ(-1, amdx_check(p, size, 2));
	free(snap);
	munmap(p, size);
}

/* munmap() of a range in VRAM frees the VRAM and removes the range. */
TEST_F(hmm, migrate_release)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_query_hmm_ranges *r;
	struct amdx_hmm_migrate m;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
	ASSERT_EQ(PAGES(size), m.moved);
	ASSERT_EQ(0, munmap(p, size));

	EXPECT_EQ(vram_size(&self->c, 0), vram_free(&self->c, 0));
	r = hmm_ranges(DEV0);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(0, r->num_ranges);
	EXPECT_EQ(PAGES(size), r->total.pages_in);
	free(r);
	EXPECT_EQ(-ENOENT, migrate_to(DEV0, p, size, 0, &m));
}

/*
 * Granularity is the migration unit: a CPU fault on one page brings back
 * that page's granule, no more (granularity 0: one page; 9: 2 MiB).
 */
TEST_F(hmm, migrate_fault_granule)
{
	static const __u32 grans[] = { 0, AMDX_HMM_GRANULARITY_DEFAULT };
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	unsigned long unit;
	char *p;
	int i;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	amdx_fill(p, size, 1);
	for (i = 0; i < 2; i++) {
		unit = 1UL << grans[i];
		ASSERT_EQ(0, set_attr(DEV0, p, size,
				      AMDX_HMM_ATTR_GRANULARITY, 0,
					  grans[i], 0, 0));
		ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
		ASSERT_EQ(PAGES(size), m.moved + m.already);
		ASSERT_EQ(PAGES(size), hmm_resident(DEV0, p, size, NULL));
		/* a read of the first page */
		EXPECT_EQ(-1, amdx_check(p, sizeof(__u32), 1));
		EXPECT_EQ(PAGES(size) - unit, hmm_resident(DEV0, p, size,
							   NULL))
			TH_LOG("granularity %u", grans[i]);
	}
	EXPECT_EQ(-1, amdx_check(p, size, 1));
	munmap(p, size);
}

/* The device reads and writes its own VRAM in place: no migration. */
TEST_F(hmm, migrate_device_access_in_place)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	struct amdx_hmm_stats st;
	__u64 faults = ~0ULL;
	char *p, *mirror;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	mirror = malloc(size);
	ASSERT_NE(NULL, mirror);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
	ASSERT_EQ(PAGES(size), m.moved);

	ASSERT_EQ(0, dev_access(DEV0, AMDX_HMM_ACCESS_READ, p, size, mirror,
				&faults));
	EXPECT_EQ(-1, amdx_check(mirror, size, 1));
	EXPECT_EQ(0, faults);
	amdx_fill(mirror, size, 2);
	ASSERT_EQ(0, dev_access(DEV0, AMDX_HMM_ACCESS_WRITE, p, size, mirror,
				&faults));
	EXPECT_EQ(0, faults);
	EXPECT_EQ(PAGES(size), hmm_resident(DEV0, p, size, &st));
	EXPECT_EQ(0, st.pages_out);

	EXPECT_EQ(-1, amdx_check(p, size, 2));
	free(mirror);
	munmap(p, size);
}

/*
 * Never-touched pages: nothing to copy.  Whether the kernel allocates
 * VRAM for them or skips them (AMDX_HMM_SKIP_NOT_PRESENT), the counts add
 * up and the memory reads as zero.
 */
TEST_F(hmm, migrate_unpopulated)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
	EXPECT_EQ(PAGES(size), m.moved + m.skipped);
	if (m.skipped)
		EXPECT_EQ(AMDX_HMM_SKIP_NOT_PRESENT, m.skip_reasons);
	EXPECT_EQ(m.moved, hmm_resident(DEV0, p, size, NULL));
	EXPECT_EQ(-1, check_zero(p, size));
	munmap(p, size);
}

/*
 * Half the buffer in VRAM, half not; then 1 MiB of each is unmapped: the
 * VRAM under the hole is freed, the rest keeps its place and data.
 */
TEST_F(hmm, migrate_mixed)
{
	size_t size = HMM_BUF_SIZE, half = size / 2;
	struct amdx_hmm_migrate m;
	unsigned long npages = PAGES(size);
	__u64 free0;
	__u8 *snap;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	snap = malloc(npages);
	ASSERT_NE(NULL, snap);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	free0 = vram_free(&self->c, 0);
	ASSERT_EQ(0, migrate_to(DEV0, p, half, 0, &m));
	ASSERT_EQ(PAGES(half), m.moved);

	ASSERT_EQ(0, dev_snapshot(&self->c, DEV0, p, npages, snap));
	EXPECT_EQ(PAGES(half), snap_count(snap, PAGES(half),
					  AMDX_HMM_SNAP_DEV_LOCAL, 0));
	EXPECT_EQ(0, snap_count(snap + PAGES(half), PAGES(half),
				AMDX_HMM_SNAP_DEV_LOCAL, 0));
	EXPECT_EQ(PAGES(half), snap_count(snap + PAGES(half), PAGES(half),
					  AMDX_HMM_SNAP_WRITE, 0));

	/* unmap [1 MiB, 3 MiB): half device, half system memory */
	ASSERT_EQ(0, munmap(p + SZ_1M, half));
	EXPECT_EQ(free0 - SZ_1M, vram_free(&self->c, 0));
	EXPECT_EQ(PAGES(SZ_1M), hmm_resident(DEV0, p, size, NULL));

	ASSERT_EQ(0, dev_snapshot(&self->c, DEV0, p, PAGES(SZ_1M), snap));
	EXPECT_EQ(PAGES(SZ_1M), snap_count(snap, PAGES(SZ_1M),
					   AMDX_HMM_SNAP_DEV_LOCAL, 0));
	EXPECT_EQ(-1, amdx_check(p, SZ_1M, 1));
	EXPECT_EQ(-1, check_at(p, 3 * SZ_1M, SZ_1M, 1));
	EXPECT_TRUE(vram_all_free(&self->c, 0));
	munmap(p, SZ_1M);
	munmap(p + 3 * SZ_1M, SZ_1M);
	free(snap);
}

/* Back and forth, by explicit migration and by CPU fault. */
TEST_F(hmm, migrate_multiple)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	struct amdx_hmm_stats st;
	__u8 *snap;
	char *p;
	int i;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	snap = malloc(PAGES(size));
	ASSERT_NE(NULL, snap);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	for (i = 0; i < 6; i++) {
		amdx_fill(p, size, i);
		ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
		ASSERT_EQ(PAGES(size), m.moved) TH_LOG("round %d", i);
		ASSERT_EQ(0, dev_snapshot(&self->c, DEV0, p, PAGES(size),
					  snap));
		ASSERT_EQ(PAGES(size), snap_count(snap, PAGES(size),
						  AMDX_HMM_SNAP_DEV_LOCAL, 0));
		if (i & 1) {
			ASSERT_EQ(0, migrate_to(DEV0, p, size,
						AMDX_HMM_LOC_SYSTEM, &m));
			ASSERT_EQ(PAGES(size), m.moved);
		}
		ASSERT_EQ(-1, amdx_check(p, size, i)) TH_LOG("round %d", i);
	}
	EXPECT_EQ(0, hmm_resident(DEV0, p, size, &st));
	EXPECT_EQ(6 * PAGES(size), st.pages_in);
	EXPECT_EQ(6 * PAGES(size), st.pages_out);
	EXPECT_LT(0, st.cpu_faults);
	EXPECT_TRUE(vram_all_free(&self->c, 0));
	free(snap);
	munmap(p, size);
}

/* dest AMDX_HMM_LOC_SYSTEM: back without any CPU fault. */
TEST_F(hmm, migrate_to_system)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	struct amdx_hmm_stats st;
	__u8 *snap;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	snap = malloc(PAGES(size));
	ASSERT_NE(NULL, snap);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, add_range(DEV0, p, size));

	/* already there */
	ASSERT_EQ(0, migrate_to(DEV0, p, size, AMDX_HMM_LOC_SYSTEM, &m));
	EXPECT_EQ(0, m.moved);
	EXPECT_EQ(PAGES(size), m.already);

	ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
	ASSERT_EQ(PAGES(size), m.moved);
	ASSERT_EQ(0, migrate_to(DEV0, p, size, AMDX_HMM_LOC_SYSTEM, &m));
	EXPECT_EQ(PAGES(size), m.moved);
	EXPECT_EQ(0, m.skipped);

	ASSERT_EQ(0, dev_snapshot(&self->c, DEV0, p, PAGES(size), snap));
	EXPECT_EQ(0, snap_count(snap, PAGES(size), AMDX_HMM_SNAP_DEV_LOCAL, 0));
	EXPECT_EQ(0, hmm_resident(DEV0, p, size, &st));
	EXPECT_EQ(PAGES(size), st.pages_out);
	EXPECT_EQ(0, st.cpu_faults);
	EXPECT_EQ(vram_size(&self->c, 0), vram_free(&self->c, 0));
	EXPECT_EQ(-1, amdx_check(p, size, 1));
	free(snap);
	munmap(p, size);
}

/* dest AMDX_HMM_LOC_PREFERRED follows the range's preferred_loc. */
TEST_F(hmm, migrate_prefetch_preferred)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_query_hmm_ranges *r;
	struct amdx_hmm_migrate m;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, set_attr(DEV0, p, size, AMDX_HMM_ATTR_PREFERRED_LOC,
			      0, 0, 0, 0));
	r = hmm_ranges(DEV0);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(1, r->num_ranges);
	EXPECT_EQ((uintptr_t)p, range_at(r, 0)->start);
	EXPECT_EQ(size, range_at(r, 0)->size);
	EXPECT_EQ(0, range_at(r, 0)->preferred_loc);
	EXPECT_EQ(AMDX_HMM_GRANULARITY_DEFAULT, range_at(r, 0)->granularity);
	EXPECT_EQ(0, range_at(r, 0)->flags);
	free(r);

	ASSERT_EQ(0, migrate_to(DEV0, p, size, AMDX_HMM_LOC_PREFERRED, &m));
	EXPECT_EQ(PAGES(size), m.moved);
	EXPECT_EQ(PAGES(size), hmm_resident(DEV0, p, size, NULL));

	ASSERT_EQ(0, set_attr(DEV0, p, size, AMDX_HMM_ATTR_PREFERRED_LOC,
			      AMDX_HMM_LOC_SYSTEM, 0, 0, 0));
	ASSERT_EQ(0, migrate_to(DEV0, p, size, AMDX_HMM_LOC_PREFERRED, &m));
	EXPECT_EQ(PAGES(size), m.moved);
	EXPECT_EQ(0, hmm_resident(DEV0, p, size, NULL));
	EXPECT_EQ(-1, amdx_check(p, size, 1));
	munmap(p, size);
}

/* SET_ATTR on part of a range splits it; equal neighbours merge again. */
TEST_F(hmm, ranges_split_merge)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_query_hmm_ranges *r;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	ASSERT_EQ(0, set_attr(DEV0, p + SZ_1M, SZ_2M,
			      AMDX_HMM_ATTR_GRANULARITY, 0, 4, 0, 0));
	r = hmm_ranges(DEV0);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(3, r->num_ranges);
	EXPECT_EQ((uintptr_t)p, range_at(r, 0)->start);
	EXPECT_EQ(SZ_1M, range_at(r, 0)->size);
	EXPECT_EQ(AMDX_HMM_GRANULARITY_DEFAULT, range_at(r, 0)->granularity);
	EXPECT_EQ((uintptr_t)p + SZ_1M, range_at(r, 1)->start);
	EXPECT_EQ(SZ_2M, range_at(r, 1)->size);
	EXPECT_EQ(4, range_at(r, 1)->granularity);
	EXPECT_EQ((uintptr_t)p + 3 * SZ_1M, range_at(r, 2)->start);
	EXPECT_EQ(SZ_1M, range_at(r, 2)->size);
	free(r);

	ASSERT_EQ(0, set_attr(DEV0, p + SZ_1M, SZ_2M,
			      AMDX_HMM_ATTR_GRANULARITY, 0,
				  AMDX_HMM_GRANULARITY_DEFAULT, 0, 0));
	r = hmm_ranges(DEV0);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(1, r->num_ranges);
	EXPECT_EQ((uintptr_t)p, range_at(r, 0)->start);
	EXPECT_EQ(size, range_at(r, 0)->size);
	free(r);
	munmap(p, size);
}

static void *unmap_buffer(void *arg)
{
	char **pp = arg;

	munmap(pp[0], HMM_BUF_SIZE);
	return NULL;
}

/*
 * munmap() racing with migration and with device access: any result from
 * the ioctls, but no crash, no splat, and no VRAM left behind.
 */
TEST_F_TIMEOUT(hmm, migrate_teardown_race, 120)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	char *p, *mirror;
	pthread_t thread;
	int c, ret;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	mirror = malloc(size);
	ASSERT_NE(NULL, mirror);
	for (c = 0; c < HMM_NTIMES; c++) {
		p = hmm_anon(size);
		ASSERT_NE(MAP_FAILED, p);
		amdx_fill(p, size, c);
		ASSERT_EQ(0, add_range(DEV0, p, size));
		if (c & 1)
			ASSERT_EQ(0, migrate_to(DEV0, p, size / 2, 0, &m));
		ASSERT_EQ(0, pthread_create(&thread, NULL, unmap_buffer, &p));
		if (c & 2)
			ret = dev_access(DEV0, AMDX_HMM_ACCESS_READ, p, size,
					 mirror, NULL);
		else
			ret = migrate_to(DEV0, p, size, 0, &m);
		if (ret) {
			EXPECT_TRUE(ret == -EFAULT || ret == -ENOENT ||
				    ret == -EBUSY)
				TH_LOG("round %d: %s", c, strerror(-ret));
		} else if (c & 2) {
			EXPECT_EQ(-1, amdx_check(mirror, size, c));
		} else {
			EXPECT_EQ(PAGES(size), m.moved + m.already + m.skipped);
		}
		pthread_join(thread, NULL);
	}
	EXPECT_TRUE(vram_all_free(&self->c, 0));
	free(mirror);
}

/*
 * What the device sees of each kind of page, without faulting anything:
 *   0 unmapped           ERROR       4 writable           WRITE
 *   1 PROT_NONE          ERROR       5 never touched      NONE
 *   2 read-only zero pg  READ        6 in this VRAM       DEV_LOCAL|WRITE
 *   3 read-only          READ        7 in the other VRAM  DEV_REMOTE
 * READ may accompany WRITE; ranges are made first (SET_ATTR refuses
 * holes and PROT_NONE), then the protections changed.
 */
TEST_F(hmm2, snapshot)
{
	unsigned long ps = self->c.page_size, npages = 8;
	struct amdx_hmm_migrate m;
	__u8 snap[8];
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(npages * ps);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, set_attr(DEV0, p, npages * ps,
			      AMDX_HMM_ATTR_GRANULARITY, 0, 0, 0, 0));
	ASSERT_EQ(0, set_attr(DEV1, p, npages * ps,
			      AMDX_HMM_ATTR_GRANULARITY, 0, 0, 0, 0));
	ASSERT_EQ(0, grant_both(&self->c, p, npages * ps));
	EXPECT_EQ(-1, check_zero(p + 2 * ps, sizeof(__u32)));
	p[3 * ps] = 3;
	p[4 * ps] = 4;
	p[6 * ps] = 6;
	p[7 * ps] = 7;
	ASSERT_EQ(0, migrate_to(DEV0, p + 6 * ps, ps, 0, &m));
	ASSERT_EQ(1, m.moved);
	ASSERT_EQ(0, migrate_to(DEV1, p + 7 * ps, ps, 0, &m));
	ASSERT_EQ(1, m.moved);
	ASSERT_EQ(0, mprotect(p + 2 * ps, 2 * ps, PROT_READ));
	ASSERT_EQ(0, mprotect(p + ps, ps, PROT_NONE));
	ASSERT_EQ(0, munmap(p, ps));

	ASSERT_EQ(0, dev_snapshot(&self->c, DEV0, p, npages, snap));
	EXPECT_EQ(AMDX_HMM_SNAP_ERROR, snap[0]);
	EXPECT_EQ(AMDX_HMM_SNAP_ERROR, snap[1]);
	EXPECT_EQ(AMDX_HMM_SNAP_READ, snap[2]);
	EXPECT_EQ(AMDX_HMM_SNAP_READ, snap[3]);
	EXPECT_EQ(AMDX_HMM_SNAP_WRITE, snap[4] & ~AMDX_HMM_SNAP_READ);
	EXPECT_EQ(AMDX_HMM_SNAP_NONE, snap[5]);
	EXPECT_EQ(AMDX_HMM_SNAP_DEV_LOCAL | AMDX_HMM_SNAP_WRITE,
		  snap[6] & ~AMDX_HMM_SNAP_READ);
	EXPECT_EQ(AMDX_HMM_SNAP_DEV_REMOTE,
		  snap[7] & ~SNAP_RW);

	/* a snapshot moves nothing */
	EXPECT_EQ(1, hmm_resident(DEV0, p + ps, (npages - 1) * ps, NULL));
	EXPECT_EQ(1, hmm_resident(DEV1, p + ps, (npages - 1) * ps, NULL));
	EXPECT_EQ(7, p[7 * ps]);
	EXPECT_EQ(6, p[6 * ps]);
	munmap(p + ps, (npages - 1) * ps);
}

/* vram_pfns: distinct in-range VRAM page indexes for local pages, ~0 else. */
TEST_F(hmm, snapshot_vram_pfns)
{
	size_t size = HMM_BUF_SIZE, half = size / 2;
	unsigned long i, j, npages = PAGES(size);
	struct amdx_hmm_migrate m;
	struct amdx_hmm_access a;
	__u64 *pfns, vpages;
	__u8 *snap;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	snap = malloc(npages);
	pfns = malloc(npages * sizeof(*pfns));
	ASSERT_NE(NULL, snap);
	ASSERT_NE(NULL, pfns);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	ASSERT_EQ(0, migrate_to(DEV0, p + half, half, 0, &m));
	ASSERT_EQ(PAGES(half), m.moved);

	memset(pfns, 0x11, npages * sizeof(*pfns));
	a = (struct amdx_hmm_access) {
		.addr = (uintptr_t)p,
		.size = size,
		.buf = (uintptr_t)snap,
		.op = AMDX_HMM_ACCESS_SNAPSHOT,
		.vram_pfns = (uintptr_t)pfns,
	};
	ASSERT_EQ(0, amdx_ioctl(DEV0, AMDX_IOC_HMM_ACCESS, &a));
	vpages = vram_size(&self->c, 0) / self->c.page_size;
	for (i = 0; i < npages; i++) {
		if (i < PAGES(half)) {
			ASSERT_EQ(~0ULL, pfns[i]) TH_LOG("page %lu", i);
			continue;
		}
		ASSERT_TRUE(snap[i] & AMDX_HMM_SNAP_DEV_LOCAL);
		ASSERT_LT(pfns[i], vpages) TH_LOG("page %lu", i);
	}
	/* distinct: sort-free quadratic check on a sample */
	for (i = PAGES(half); i < npages; i += 37)
		for (j = i + 1; j < npages; j++)
			ASSERT_NE(pfns[i], pfns[j]);
	free(pfns);
	free(snap);
	munmap(p, size);
}

/*
 * Eviction: two 10 MiB ranges, a 16 MiB memory partition.  Migrating the
 * second evicts (part of) the first, whose data stays intact in system
 * memory.
 */
TEST_F_TIMEOUT(hmm, release_eviction, 120)
{
	size_t size = 10 * SZ_1M;
	struct amdx_hmm_stats st, total;
	struct amdx_hmm_migrate m;
	__u64 vpages;
	char *a, *b;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	vpages = quarter_partition(&self->c, 0) / self->c.page_size;
	ASSERT_LT(PAGES(size), vpages);
	ASSERT_GT(2 * PAGES(size), vpages);
	a = hmm_anon(size);
	b = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, a);
	ASSERT_NE(MAP_FAILED, b);
	amdx_fill(a, size, 1);
	amdx_fill(b, size, 2);
	ASSERT_EQ(0, add_range(DEV0, a, size));
	ASSERT_EQ(0, add_range(DEV0, b, size));

	ASSERT_EQ(0, migrate_to(DEV0, a, size, 0, &m));
	ASSERT_EQ(PAGES(size), m.moved);
	ASSERT_EQ(0, migrate_to(DEV0, b, size, 0, &m));
	EXPECT_EQ(PAGES(size), m.moved);
	EXPECT_EQ(0, m.skipped);

	EXPECT_EQ(PAGES(size), hmm_resident(DEV0, b, size, NULL));
	EXPECT_GE(vpages - PAGES(size), hmm_resident(DEV0, a, size, &st));
	EXPECT_LT(0, st.evictions);
	EXPECT_LT(0, st.pages_out);
	ASSERT_EQ(0, hmm_total(DEV0, &total));
	EXPECT_LT(0, total.evictions);

	EXPECT_EQ(-1, amdx_check(a, size, 1));
	EXPECT_EQ(-1, amdx_check(b, size, 2));
	munmap(a, size);
	munmap(b, size);
	EXPECT_TRUE(vram_all_free(&self->c, 0));
}

/*
 * Eviction across processes: a child's migration evicts (what it needs
 * of) the parent's least recently used range, taking the parent's mm
 * from the child.
 */
TEST_F_TIMEOUT(hmm, release_eviction_other_process, 120)
{
	size_t size = 10 * SZ_1M;
	struct amdx_hmm_migrate m;
	struct amdx_hmm_stats st;
	__u64 vpages;
	char *a;
	pid_t pid;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	vpages = quarter_partition(&self->c, 0) / self->c.page_size;
	ASSERT_LT(PAGES(size), vpages);
	ASSERT_GT(2 * PAGES(size), vpages);
	a = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, a);
	amdx_fill(a, size, 1);
	ASSERT_EQ(0, add_range(DEV0, a, size));
	ASSERT_EQ(0, migrate_to(DEV0, a, size, 0, &m));
	ASSERT_EQ(PAGES(size), m.moved);

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		char *b = hmm_anon(size);
		int fd;

		if (b == MAP_FAILED)
			_exit(1);
		amdx_fill(b, size, 2);
		fd = amdx_device_open(self->c.ctl, self->c.dev[0].id);
		if (fd < 0 || add_range(fd, b, size))
			_exit(2);
		if (migrate_to(fd, b, size, 0, &m) || m.moved != PAGES(size))
			_exit(3);
		if (amdx_check(b, size, 2) != -1)
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ(0, wait_child(pid));
	EXPECT_GE(vpages - PAGES(size), hmm_resident(DEV0, a, size, &st));
	EXPECT_LT(0, st.evictions);
	EXPECT_EQ(-1, amdx_check(a, size, 1));
	EXPECT_TRUE(vram_all_free(&self->c, 0));
	munmap(a, size);
}

/*
 * The same with AMDX_HMM_F_PIN on the first range: it stays, and the
 * second range's pages that do not fit are skipped for want of memory.
 */
TEST_F_TIMEOUT(hmm, release_pinned_no_eviction, 120)
{
	/* a uid may pin half of a memory partition: 8 of 16 MiB */
	size_t asize = 8 * SZ_1M, size = 10 * SZ_1M;
	struct amdx_hmm_migrate m;
	struct amdx_hmm_stats st;
	__u64 vpages;
	char *a, *b;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	vpages = quarter_partition(&self->c, 0) / self->c.page_size;
	ASSERT_LT(PAGES(asize + size) - vpages, PAGES(size));
	a = hmm_anon(asize);
	b = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, a);
	ASSERT_NE(MAP_FAILED, b);
	amdx_fill(a, asize, 1);
	amdx_fill(b, size, 2);
	ASSERT_EQ(0, set_attr(DEV0, a, asize, AMDX_HMM_ATTR_FLAGS, 0, 0,
			      AMDX_HMM_F_PIN, 0));
	ASSERT_EQ(0, add_range(DEV0, b, size));

	ASSERT_EQ(0, migrate_to(DEV0, a, asize, 0, &m));
	ASSERT_EQ(PAGES(asize), m.moved);
	ASSERT_EQ(0, migrate_to(DEV0, b, size, 0, &m));
	EXPECT_LT(0, m.skipped);
	EXPECT_TRUE(m.skip_reasons & AMDX_HMM_SKIP_NO_MEMORY);
	EXPECT_EQ(PAGES(size), m.moved + m.skipped);
	EXPECT_GE(vpages - PAGES(asize), m.moved);

	EXPECT_EQ(PAGES(asize), hmm_resident(DEV0, a, asize, &st));
	EXPECT_EQ(0, st.evictions);
	EXPECT_EQ(m.moved, hmm_resident(DEV0, b, size, NULL));

	EXPECT_EQ(-1, amdx_check(a, asize, 1));
	EXPECT_EQ(-1, amdx_check(b, size, 2));
	munmap(a, asize);
	munmap(b, size);
	EXPECT_TRUE(vram_all_free(&self->c, 0));
}

/*
 * Two devices: data in A's VRAM read by B.  B's mirror cannot use A's
 * device-private pages, so they are faulted back to system memory (the
 * test_hmm double_map semantics) and B reads the right data.
 */
TEST_F(hmm2, double_map)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	__u64 faults = 0;
	char *p, *mirror;
	__u8 *snap;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	mirror = malloc(size);
	snap = malloc(PAGES(size));
	ASSERT_NE(NULL, mirror);
	ASSERT_NE(NULL, snap);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	ASSERT_EQ(0, add_range(DEV1, p, size));
	ASSERT_EQ(0, grant_both(&self->c, p, size));

	/* both read system memory */
	ASSERT_EQ(0, dev_access(DEV0, AMDX_HMM_ACCESS_READ, p, size, mirror,
				NULL));
	EXPECT_EQ(-1, amdx_check(mirror, size, 1));
	memset(mirror, 0, size);
	ASSERT_EQ(0, dev_access(DEV1, AMDX_HMM_ACCESS_READ, p, size, mirror,
				NULL));
	EXPECT_EQ(-1, amdx_check(mirror, size, 1));

	ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
	ASSERT_EQ(PAGES(size), m.moved);
	ASSERT_EQ(0, dev_snapshot(&self->c, DEV1, p, PAGES(size), snap));
	EXPECT_EQ(PAGES(size), snap_count(snap, PAGES(size),
					  AMDX_HMM_SNAP_DEV_REMOTE,
					  AMDX_HMM_SNAP_DEV_LOCAL));

	memset(mirror, 0, size);
	ASSERT_EQ(0, dev_access(DEV1, AMDX_HMM_ACCESS_READ, p, size, mirror,
				&faults));
	EXPECT_EQ(-1, amdx_check(mirror, size, 1));
	EXPECT_EQ(PAGES(size), faults);

	ASSERT_EQ(0, dev_snapshot(&self->c, DEV0, p, PAGES(size), snap));
	EXPECT_EQ(0, snap_count(snap, PAGES(size), AMDX_HMM_SNAP_DEV_LOCAL, 0));
	EXPECT_EQ(0, hmm_resident(DEV0, p, size, NULL));
	EXPECT_TRUE(vram_all_free(&self->c, 0));
	EXPECT_EQ(-1, amdx_check(p, size, 1));
	free(snap);
	free(mirror);
	munmap(p, size);
}

/*
 * Migrating to B pages that are in A's VRAM: either they move (through
 * system memory) or they are skipped as AMDX_HMM_SKIP_OTHER_DEVICE; the
 * two devices' accounting agrees with whichever happened.
 */
TEST_F(hmm2, migrate_other_device)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	ASSERT_EQ(0, add_range(DEV1, p, size));
	ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
	ASSERT_EQ(PAGES(size), m.moved);

	ASSERT_EQ(0, migrate_to(DEV1, p, size, 0, &m));
	EXPECT_EQ(PAGES(size), m.moved + m.skipped);
	if (m.skipped)
		EXPECT_EQ(AMDX_HMM_SKIP_OTHER_DEVICE, m.skip_reasons);
	EXPECT_EQ(m.moved, hmm_resident(DEV1, p, size, NULL));
	EXPECT_EQ(m.skipped, hmm_resident(DEV0, p, size, NULL));
	EXPECT_EQ(vram_size(&self->c, 1) - m.moved * self->c.page_size,
		  vram_free(&self->c, 1));
	EXPECT_EQ(-1, amdx_check(p, size, 1));
	EXPECT_TRUE(vram_all_free(&self->c, 0));
	EXPECT_TRUE(vram_all_free(&self->c, 1));
	munmap(p, size);
}

/* A process exits with its data in VRAM: all of it is freed. */
TEST_F(hmm, process_exit_with_data_on_device)
{
	size_t size = HMM_BUF_SIZE;
	pid_t pid;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		struct amdx_hmm_migrate m;
		char *p = hmm_anon(size);
		int fd;

		if (p == MAP_FAILED)
			_exit(1);
		amdx_fill(p, size, 1);
		fd = amdx_device_open(self->c.ctl, self->c.dev[0].id);
		if (fd < 0 || add_range(fd, p, size))
			_exit(2);
		if (migrate_to(fd, p, size, 0, &m) || m.moved != PAGES(size))
			_exit(3);
		if (vram_free(&self->c, 0) != vram_size(&self->c, 0) - size)
			_exit(4);
		_exit(0);	/* with the fd open and the data in VRAM */
	}
	ASSERT_EQ(0, wait_child(pid));
	EXPECT_TRUE(vram_all_free(&self->c, 0));
}

/* Closing the fd brings its ranges' data back and frees the VRAM. */
TEST_F(hmm, close_returns_data)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	__u8 *snap;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	snap = malloc(PAGES(size));
	ASSERT_NE(NULL, snap);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
	ASSERT_EQ(PAGES(size), m.moved);
	ASSERT_EQ(vram_size(&self->c, 0) - size, vram_free(&self->c, 0));

	ASSERT_EQ(0, close(DEV0));
	DEV0 = -1;
	/* before the CPU touches anything */
	EXPECT_EQ(vram_size(&self->c, 0), vram_free(&self->c, 0));
	DEV0 = amdx_device_open(self->c.ctl, self->c.dev[0].id);
	ASSERT_GE(DEV0, 0);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	ASSERT_EQ(0, dev_snapshot(&self->c, DEV0, p, PAGES(size), snap));
	EXPECT_EQ(0, snap_count(snap, PAGES(size), AMDX_HMM_SNAP_DEV_LOCAL, 0));
	EXPECT_EQ(PAGES(size), snap_count(snap, PAGES(size),
					  AMDX_HMM_SNAP_WRITE, 0));
	EXPECT_EQ(-1, amdx_check(p, size, 1));
	free(snap);
	munmap(p, size);
}

/*
 * The device goes away with data in its VRAM: the data comes back to
 * system memory and the fd answers -ENODEV.
 */
TEST_F(hmm, device_remove_with_data_on_device)
{
	size_t size = HMM_BUF_SIZE;
	struct amdx_hmm_migrate m;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(size);
	ASSERT_NE(MAP_FAILED, p);
	amdx_fill(p, size, 1);
	ASSERT_EQ(0, add_range(DEV0, p, size));
	ASSERT_EQ(0, migrate_to(DEV0, p, size, 0, &m));
	ASSERT_EQ(PAGES(size), m.moved);

	ASSERT_EQ(0, amdx_sim_del(self->c.dev[0].sim_id));
	self->c.dev[0].created = false;
	EXPECT_EQ(-1, amdx_check(p, size, 1));
	EXPECT_EQ(-ENODEV, migrate_to(DEV0, p, size, 0, &m));
	EXPECT_EQ(-ENODEV, add_range(DEV0, p, size));
	munmap(p, size);
}

/* ---- validation: each path alone, all other inputs valid ---- */

/* A populated HMM_BUF_SIZE anonymous buffer with a range on @fd. */
static char *valid_buf(struct __test_metadata *_metadata, int fd)
{
	char *p = hmm_anon(HMM_BUF_SIZE);

	ASSERT_NE(MAP_FAILED, p);
	amdx_fill(p, HMM_BUF_SIZE, 1);
	ASSERT_EQ(0, add_range(fd, p, HMM_BUF_SIZE));
	return p;
}

TEST_F(hmm, attr_unaligned_start_einval)
{
	char *p = hmm_anon(HMM_BUF_SIZE);

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-EINVAL, add_range(DEV0, p + 8, self->c.page_size));
	EXPECT_EQ(-EINVAL, add_range(DEV0, p + self->c.page_size / 2,
				     self->c.page_size));
	EXPECT_EQ(0, add_range(DEV0, p, self->c.page_size));
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, attr_unaligned_size_einval)
{
	char *p = hmm_anon(HMM_BUF_SIZE);

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-EINVAL, add_range(DEV0, p, self->c.page_size + 1));
	EXPECT_EQ(-EINVAL, add_range(DEV0, p, 100));
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, attr_size_zero_einval)
{
	char *p = hmm_anon(HMM_BUF_SIZE);

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-EINVAL, add_range(DEV0, p, 0));
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, attr_overflow_einval)
{
	char *p = hmm_anon(HMM_BUF_SIZE);

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	ASSERT_NE(MAP_FAILED, p);
	/* aligned start and size whose sum wraps */
	EXPECT_EQ(-EINVAL, add_range(DEV0, p, -(uintptr_t)p));
	EXPECT_EQ(-EINVAL, add_range(DEV0, p,
				     -(uintptr_t)p + self->c.page_size));
	EXPECT_EQ(-EINVAL, add_range(DEV0, (void *)-self->c.page_size,
				     2 * self->c.page_size));
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, attr_hole_efault)
{
	char *p = hmm_anon(HMM_BUF_SIZE);

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p + SZ_1M, self->c.page_size));
	EXPECT_EQ(-EFAULT, add_range(DEV0, p, HMM_BUF_SIZE));
	/* nothing created */
	EXPECT_EQ(0, hmm_resident(DEV0, p, HMM_BUF_SIZE, NULL));
	EXPECT_EQ(0, add_range(DEV0, p, SZ_1M));
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, attr_prot_none_eacces)
{
	char *p = hmm_anon(HMM_BUF_SIZE);

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, mprotect(p + SZ_1M, SZ_1M, PROT_NONE));
	EXPECT_EQ(-EACCES, add_range(DEV0, p, HMM_BUF_SIZE));
	EXPECT_EQ(-EACCES, add_range(DEV0, p + SZ_1M, SZ_1M));
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, attr_shared_einval)
{
	char *p;
	int file;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_mmap(HMM_BUF_SIZE, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-EINVAL, add_range(DEV0, p, HMM_BUF_SIZE));
	munmap(p, HMM_BUF_SIZE);

	file = hmm_tmpfile(HMM_BUF_SIZE);
	ASSERT_GE(file, 0);
	p = hmm_mmap(HMM_BUF_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, file);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-EINVAL, add_range(DEV0, p, HMM_BUF_SIZE));
	munmap(p, HMM_BUF_SIZE);
	close(file);
}

TEST_F(hmm, attr_unknown_valid_einval)
{
	char *p = hmm_anon(HMM_BUF_SIZE);

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-EINVAL, set_attr(DEV0, p, HMM_BUF_SIZE,
				    AMDX_HMM_ATTR_ALL + 1,
					AMDX_HMM_LOC_SYSTEM, 0, 0, 0));
	EXPECT_EQ(-EINVAL, set_attr(DEV0, p, HMM_BUF_SIZE, 1U << 31,
				    AMDX_HMM_LOC_SYSTEM, 0, 0, 0));
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, attr_unknown_flags_einval)
{
	char *p = hmm_anon(HMM_BUF_SIZE);

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-EINVAL, set_attr(DEV0, p, HMM_BUF_SIZE,
				    AMDX_HMM_ATTR_FLAGS, 0, 0,
					AMDX_HMM_F_PIN << 1, 0));
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, attr_reserved_einval)
{
	char *p = hmm_anon(HMM_BUF_SIZE);
	struct amdx_hmm_attr a;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	ASSERT_NE(MAP_FAILED, p);
	a = (struct amdx_hmm_attr) {
		.start = (uintptr_t)p,
		.size = HMM_BUF_SIZE,
		.valid = AMDX_HMM_ATTR_PREFERRED_LOC,
		.preferred_loc = AMDX_HMM_LOC_SYSTEM,
	};
	a.reserved[1] = 1;
	EXPECT_EQ(-EINVAL, amdx_ioctl(DEV0, AMDX_IOC_HMM_SET_ATTR, &a));
	a.reserved[1] = 0;
	EXPECT_EQ(0, amdx_ioctl(DEV0, AMDX_IOC_HMM_SET_ATTR, &a));
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, attr_granularity_too_big_einval)
{
	char *p = hmm_anon(HMM_BUF_SIZE);

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-EINVAL, set_attr(DEV0, p, HMM_BUF_SIZE,
				    AMDX_HMM_ATTR_GRANULARITY, 0,
					AMDX_HMM_GRANULARITY_MAX + 1, 0, 0));
	EXPECT_EQ(0, set_attr(DEV0, p, HMM_BUF_SIZE,
			      AMDX_HMM_ATTR_GRANULARITY, 0,
				  AMDX_HMM_GRANULARITY_MAX, 0, 0));
	munmap(p, HMM_BUF_SIZE);
}

/* NPS1 at creation: partition 0 only. */
TEST_F(hmm, attr_preferred_loc_bad_partition_einval)
{
	struct amdx_device_info info;
	char *p = hmm_anon(HMM_BUF_SIZE);

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, amdx_device_info(self->c.ctl, self->c.dev[0].id, &info));
	ASSERT_EQ(AMDX_MEMORY_NPS1, info.memory_mode);
	ASSERT_EQ(1, info.num_mem_partitions);
	EXPECT_EQ(-EINVAL, set_attr(DEV0, p, HMM_BUF_SIZE,
				    AMDX_HMM_ATTR_PREFERRED_LOC, 1, 0, 0,
					0));
	EXPECT_EQ(-EINVAL, set_attr(DEV0, p, HMM_BUF_SIZE,
				    AMDX_HMM_ATTR_PREFERRED_LOC,
					AMDX_MAX_MEM_PARTITIONS, 0, 0, 0));
	/* "preferred" is a migration destination, not a location */
	EXPECT_EQ(-EINVAL, set_attr(DEV0, p, HMM_BUF_SIZE,
				    AMDX_HMM_ATTR_PREFERRED_LOC,
					AMDX_HMM_LOC_PREFERRED, 0, 0, 0));
	EXPECT_EQ(0, set_attr(DEV0, p, HMM_BUF_SIZE,
			      AMDX_HMM_ATTR_PREFERRED_LOC, 0, 0, 0, 0));
	munmap(p, HMM_BUF_SIZE);
}

/*
 * Pinned ranges of a device may not exceed 3/4 of its VRAM (48 of 64 MiB):
 * -EDQUOT.  Pinning what is already pinned adds nothing to the total.
 */
TEST_F(hmm, attr_pin_quota_edquot)
{
	size_t big = 52 * SZ_1M, a_size = 32 * SZ_1M, b_size = 20 * SZ_1M;
	char *big_p, *a, *b;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	ASSERT_EQ(64 * SZ_1M, vram_size(&self->c, 0));
	big_p = hmm_anon(big);
	a = hmm_anon(a_size);
	b = hmm_anon(b_size);
	ASSERT_NE(MAP_FAILED, big_p);
	ASSERT_NE(MAP_FAILED, a);
	ASSERT_NE(MAP_FAILED, b);

	EXPECT_EQ(-EDQUOT, set_attr(DEV0, big_p, big, AMDX_HMM_ATTR_FLAGS, 0,
				    0, AMDX_HMM_F_PIN, 0));
	ASSERT_EQ(0, set_attr(DEV0, a, a_size, AMDX_HMM_ATTR_FLAGS, 0, 0,
			      AMDX_HMM_F_PIN, 0));
	EXPECT_EQ(0, set_attr(DEV0, a, a_size, AMDX_HMM_ATTR_FLAGS, 0, 0,
			      AMDX_HMM_F_PIN, 0));
	EXPECT_EQ(-EDQUOT, set_attr(DEV0, b, b_size, AMDX_HMM_ATTR_FLAGS, 0,
				    0, AMDX_HMM_F_PIN, 0));
	/* unpinned, the room is back */
	ASSERT_EQ(0, set_attr(DEV0, a, a_size, AMDX_HMM_ATTR_FLAGS, 0, 0, 0,
			      0));
	EXPECT_EQ(0, set_attr(DEV0, b, b_size, AMDX_HMM_ATTR_FLAGS, 0, 0,
			      AMDX_HMM_F_PIN, 0));
	munmap(big_p, big);
	munmap(a, a_size);
	munmap(b, b_size);
}

/* Bit N set in *@mask: amdx device N exists (AMDX_QUERY_DEVICES). */
static int live_ids(int ctl, __u64 *mask)
{
	struct amdx_query_devices *res;
	struct amdx_device_entry *e;
	__u32 size = 0, i;
	int ret;

	ret = amdx_query(ctl, AMDX_QUERY_DEVICES, 0, NULL, &size);
	if (ret)
		return ret;
	res = calloc(1, size);
	if (!res)
		return -ENOMEM;
	ret = amdx_query(ctl, AMDX_QUERY_DEVICES, 0, res, &size);
	*mask = 0;
	for (i = 0; !ret && i < res->num_devices; i++) {
		e = (void *)((char *)res->devices + (size_t)i * res->entry_size);
		if (e->id >= AMDX_MAX_DEVICES)
			ret = -ERANGE;
		else
			*mask |= 1ULL << e->id;
	}
	free(res);
	return ret;
}

/*
 * Access bits must name existing devices.  Ids are below AMDX_MAX_DEVICES
 * and this test holds one device, so a free id always exists: naming it
 * is -EINVAL, alone or next to this device's bit, and changes nothing.
 */
TEST_F(hmm, attr_access_unknown_device_einval)
{
	__u32 id = self->c.dev[0].id, free_id;
	struct amdx_query_hmm_ranges *r;
	__u64 live = 0;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(HMM_BUF_SIZE);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_GT(AMDX_MAX_DEVICES, id);
	ASSERT_EQ(0, live_ids(self->c.ctl, &live));
	ASSERT_NE(0, live & (1ULL << id));
	ASSERT_NE(~0ULL, live);
	free_id = __builtin_ctzll(~live);

	EXPECT_EQ(-EINVAL, set_attr(DEV0, p, HMM_BUF_SIZE,
				    AMDX_HMM_ATTR_ACCESS, 0, 0, 0,
				    1ULL << free_id));
	EXPECT_EQ(-EINVAL, set_attr(DEV0, p, HMM_BUF_SIZE,
				    AMDX_HMM_ATTR_ACCESS, 0, 0, 0,
				    (1ULL << id) | (1ULL << free_id)));
	r = hmm_ranges(DEV0);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(0, r->num_ranges);
	free(r);

	EXPECT_EQ(0, set_attr(DEV0, p, HMM_BUF_SIZE, AMDX_HMM_ATTR_ACCESS, 0,
			      0, 0, 1ULL << id));
	r = hmm_ranges(DEV0);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(1, r->num_ranges);
	EXPECT_EQ(1ULL << id, range_at(r, 0)->access);
	free(r);
	munmap(p, HMM_BUF_SIZE);
}

/* The access masks of the ranges of @fd, in order; the count or -1. */
static int range_access(int fd, __u64 *access, int max, __u64 *size0)
{
	struct amdx_query_hmm_ranges *r = hmm_ranges(fd);
	int i, n;

	if (!r)
		return -1;
	n = r->num_ranges;
	for (i = 0; i < n && i < max; i++)
		access[i] = range_at(r, i)->access;
	if (n)
		*size0 = range_at(r, 0)->size;
	free(r);
	return n;
}

/*
 * Removing a device takes its bit out of every range, so the device that
 * later gets the same id is granted nothing: device A's ranges that named
 * B lose B's bit when B goes (and merge with their equal neighbour), and
 * stay without it when new devices are created until one has B's id.
 */
TEST_F_TIMEOUT(hmm2, attr_access_forgets_removed_device, 240)
{
	struct hmm_dev *b = &self->c.dev[1];
	__u64 a_bit = 1ULL << self->c.dev[0].id, b_bit = 1ULL << b->id;
	__u64 access[2] = {}, size0 = 0;
	__u32 b_id = b->id, id = ~0U;
	size_t half = HMM_BUF_SIZE / 2;
	char bdf[AMDX_BDF_LEN];
	char *p;
	int i;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = hmm_anon(HMM_BUF_SIZE);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, add_range(DEV0, p, HMM_BUF_SIZE));
	ASSERT_EQ(0, set_attr(DEV0, p, half, AMDX_HMM_ATTR_ACCESS, 0, 0, 0,
			      a_bit | b_bit));
	ASSERT_EQ(2, range_access(DEV0, access, 2, &size0));
	EXPECT_EQ(a_bit | b_bit, access[0]);
	EXPECT_EQ(a_bit, access[1]);

	/* B goes, and its bit with it: the two ranges are equal and merge */
	close(b->fd);
	b->fd = -1;
	ASSERT_EQ(0, amdx_sim_del(b->sim_id));
	b->created = false;
	ASSERT_EQ(1, range_access(DEV0, access, 2, &size0));
	EXPECT_EQ(a_bit, access[0]);
	EXPECT_EQ(HMM_BUF_SIZE, size0);
	EXPECT_EQ(-EINVAL, set_attr(DEV0, p, half, AMDX_HMM_ATTR_ACCESS, 0, 0,
				    0, a_bit | b_bit));

	/* ids are cyclic below AMDX_MAX_DEVICES: B's comes round again */
	amdx_sim_bdf(b->sim_id, bdf, sizeof(bdf));
	for (i = 0; i < AMDX_MAX_DEVICES && id != b_id; i++) {
		if (b->created) {
			ASSERT_EQ(0, amdx_sim_del(b->sim_id));
			b->created = false;
		}
		ASSERT_EQ(0, amdx_sim_new(b->sim_id, HMM_SIM_PARAMS));
		b->created = true;
		ASSERT_EQ(0, amdx_find_device(self->c.ctl, bdf, &id));
		ASSERT_GT(AMDX_MAX_DEVICES, id);
	}
	ASSERT_EQ(b_id, id) TH_LOG("id %u not handed out again in %d devices",
				   b_id, i);
	ASSERT_EQ(1, range_access(DEV0, access, 2, &size0));
	EXPECT_EQ(a_bit, access[0]);

	/* the new device has access once asked for */
	ASSERT_EQ(0, set_attr(DEV0, p, half, AMDX_HMM_ATTR_ACCESS, 0, 0, 0,
			      a_bit | b_bit));
	ASSERT_EQ(2, range_access(DEV0, access, 2, &size0));
	EXPECT_EQ(a_bit | b_bit, access[0]);
	munmap(p, HMM_BUF_SIZE);
}

/* The range query's two-call protocol: too small a buffer, -ENOSPC. */
TEST_F(hmm, query_ranges_small_buffer_enospc)
{
	struct amdx_query_hmm_ranges *r;
	__u32 size = 0, need;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = valid_buf(_metadata, DEV0);
	ASSERT_EQ(0, set_attr(DEV0, p + SZ_1M, SZ_1M,
			      AMDX_HMM_ATTR_GRANULARITY, 0, 0, 0, 0));
	ASSERT_EQ(0, amdx_query(DEV0, AMDX_QUERY_HMM_RANGES, 0, NULL, &size));
	need = sizeof(*r) + 3 * sizeof(r->ranges[0]);
	EXPECT_EQ(need, size);
	r = calloc(1, need);
	ASSERT_NE(NULL, r);
	size = need - 1;
	EXPECT_EQ(-ENOSPC, amdx_query(DEV0, AMDX_QUERY_HMM_RANGES, 0, r,
				      &size));
	EXPECT_EQ(need, size);
	EXPECT_EQ(0, amdx_query(DEV0, AMDX_QUERY_HMM_RANGES, 0, r, &size));
	EXPECT_EQ(3, r->num_ranges);
	free(r);
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, migrate_no_range_enoent)
{
	struct amdx_hmm_migrate m;
	char *p = hmm_anon(HMM_BUF_SIZE);

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	ASSERT_NE(MAP_FAILED, p);
	amdx_fill(p, HMM_BUF_SIZE, 1);
	EXPECT_EQ(-ENOENT, migrate_to(DEV0, p, HMM_BUF_SIZE, 0, &m));
	/* partly covered is not covered */
	ASSERT_EQ(0, add_range(DEV0, p, SZ_1M));
	EXPECT_EQ(-ENOENT, migrate_to(DEV0, p, HMM_BUF_SIZE, 0, &m));
	EXPECT_EQ(0, migrate_to(DEV0, p, SZ_1M, 0, &m));
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, migrate_bad_partition_einval)
{
	struct amdx_hmm_migrate m;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = valid_buf(_metadata, DEV0);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(-EINVAL, migrate_to(DEV0, p, HMM_BUF_SIZE, 1, &m));
	EXPECT_EQ(-EINVAL, migrate_to(DEV0, p, HMM_BUF_SIZE,
				      AMDX_MAX_MEM_PARTITIONS, &m));
	EXPECT_EQ(-EINVAL, migrate_to(DEV0, p, HMM_BUF_SIZE,
				      AMDX_HMM_LOC_PREFERRED - 1, &m));
	EXPECT_EQ(0, hmm_resident(DEV0, p, HMM_BUF_SIZE, NULL));
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, migrate_flags_reserved_einval)
{
	struct amdx_hmm_migrate m;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = valid_buf(_metadata, DEV0);
	ASSERT_NE(NULL, p);
	m = (struct amdx_hmm_migrate) {
		.start = (uintptr_t)p, .size = HMM_BUF_SIZE, .flags = 1,
	};
	EXPECT_EQ(-EINVAL, amdx_ioctl(DEV0, AMDX_IOC_HMM_MIGRATE, &m));
	m.flags = 0;
	m.pad = 1;
	EXPECT_EQ(-EINVAL, amdx_ioctl(DEV0, AMDX_IOC_HMM_MIGRATE, &m));
	m.pad = 0;
	m.reserved[0] = 1;
	EXPECT_EQ(-EINVAL, amdx_ioctl(DEV0, AMDX_IOC_HMM_MIGRATE, &m));
	EXPECT_EQ(0, hmm_resident(DEV0, p, HMM_BUF_SIZE, NULL));
	munmap(p, HMM_BUF_SIZE);
}

/* Output fields must be zero on input (uapi.rst). */
TEST_F(hmm, output_fields_nonzero_einval)
{
	struct amdx_hmm_migrate m;
	struct amdx_hmm_access a;
	char *p, *mirror;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = valid_buf(_metadata, DEV0);
	mirror = malloc(HMM_BUF_SIZE);
	ASSERT_NE(NULL, mirror);
	m = (struct amdx_hmm_migrate) {
		.start = (uintptr_t)p, .size = HMM_BUF_SIZE, .moved = 1,
	};
	EXPECT_EQ(-EINVAL, amdx_ioctl(DEV0, AMDX_IOC_HMM_MIGRATE, &m));
	m.moved = 0;
	m.skip_reasons = AMDX_HMM_SKIP_BUSY;
	EXPECT_EQ(-EINVAL, amdx_ioctl(DEV0, AMDX_IOC_HMM_MIGRATE, &m));
	EXPECT_EQ(0, hmm_resident(DEV0, p, HMM_BUF_SIZE, NULL));
	a = (struct amdx_hmm_access) {
		.addr = (uintptr_t)p,
		.size = HMM_BUF_SIZE,
		.buf = (uintptr_t)mirror,
		.op = AMDX_HMM_ACCESS_READ,
		.faults = 1,
	};
	EXPECT_EQ(-EINVAL, amdx_ioctl(DEV0, AMDX_IOC_HMM_ACCESS, &a));
	free(mirror);
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, migrate_size_zero_unaligned_einval)
{
	struct amdx_hmm_migrate m;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = valid_buf(_metadata, DEV0);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(-EINVAL, migrate_to(DEV0, p, 0, 0, &m));
	EXPECT_EQ(-EINVAL, migrate_to(DEV0, p + 64, self->c.page_size, 0,
				      &m));
	EXPECT_EQ(-EINVAL, migrate_to(DEV0, p, self->c.page_size - 64, 0,
				      &m));
	munmap(p, HMM_BUF_SIZE);
}

TEST_F(hmm, access_bad_args_einval)
{
	struct amdx_hmm_access a;
	char *p, *mirror;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = valid_buf(_metadata, DEV0);
	ASSERT_NE(NULL, p);
	mirror = malloc(HMM_BUF_SIZE);
	ASSERT_NE(NULL, mirror);
	EXPECT_EQ(-EINVAL, dev_access(DEV0, 3, p, HMM_BUF_SIZE, mirror, NULL));
	EXPECT_EQ(-EINVAL, dev_access(DEV0, AMDX_HMM_ACCESS_READ, p, 0,
				      mirror, NULL));
	EXPECT_EQ(-EINVAL, dev_access(DEV0, AMDX_HMM_ACCESS_READ, p + 16,
				      self->c.page_size, mirror, NULL));
	/* more than 64 MiB */
	EXPECT_EQ(-EINVAL, dev_access(DEV0, AMDX_HMM_ACCESS_SNAPSHOT, p,
				      (64UL << 20) + self->c.page_size,
				      mirror, NULL));
	a = (struct amdx_hmm_access) {
		.addr = (uintptr_t)p,
		.size = HMM_BUF_SIZE,
		.buf = (uintptr_t)mirror,
		.op = AMDX_HMM_ACCESS_READ,
		.flags = 1,
	};
	EXPECT_EQ(-EINVAL, amdx_ioctl(DEV0, AMDX_IOC_HMM_ACCESS, &a));
	a.flags = 0;
	a.reserved[0] = 1;
	EXPECT_EQ(-EINVAL, amdx_ioctl(DEV0, AMDX_IOC_HMM_ACCESS, &a));
	/* vram_pfns is for SNAPSHOT only */
	a.reserved[0] = 0;
	a.vram_pfns = (uintptr_t)mirror;
	EXPECT_EQ(-EINVAL, amdx_ioctl(DEV0, AMDX_IOC_HMM_ACCESS, &a));
	a.vram_pfns = 0;
	EXPECT_EQ(0, amdx_ioctl(DEV0, AMDX_IOC_HMM_ACCESS, &a));
	free(mirror);
	munmap(p, HMM_BUF_SIZE);
}

/* The HMM ioctls are device-fd ioctls: unknown on /dev/amdx. */
TEST_F(hmm, control_fd_enotty)
{
	struct amdx_hmm_migrate m;
	char *p;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = valid_buf(_metadata, DEV0);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(-ENOTTY, add_range(self->c.ctl, p, HMM_BUF_SIZE));
	EXPECT_EQ(-ENOTTY, migrate_to(self->c.ctl, p, HMM_BUF_SIZE, 0, &m));
	munmap(p, HMM_BUF_SIZE);
}

/* A device fd used from another address space (a fork() child). */
TEST_F(hmm, other_process_ebadf)
{
	char *p, *mirror;
	pid_t pid;

	if (self->c.skip)
		SKIP(return, HMM_NO_CAP);
	p = valid_buf(_metadata, DEV0);
	ASSERT_NE(NULL, p);
	mirror = malloc(HMM_BUF_SIZE);
	ASSERT_NE(NULL, mirror);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		struct amdx_hmm_migrate m;

		if (add_range(DEV0, p, HMM_BUF_SIZE) != -EBADF)
			_exit(1);
		if (migrate_to(DEV0, p, HMM_BUF_SIZE, 0, &m) != -EBADF)
			_exit(2);
		if (dev_access(DEV0, AMDX_HMM_ACCESS_READ, p, HMM_BUF_SIZE,
			       mirror, NULL) != -EBADF)
			_exit(3);
		_exit(0);
	}
	EXPECT_EQ(0, wait_child(pid));
	/* and the parent still can */
	EXPECT_EQ(0, dev_access(DEV0, AMDX_HMM_ACCESS_READ, p, HMM_BUF_SIZE,
				mirror, NULL));
	free(mirror);
	munmap(p, HMM_BUF_SIZE);
}

TEST_HARNESS_MAIN
