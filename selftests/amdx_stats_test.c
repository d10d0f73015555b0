// SPDX-License-Identifier: GPL-2.0
/*
 * amdx kselftest: %AMDX_QUERY_STATS, a device's cumulative counters.
 *
 * Each test reads the counters, does one kind of thing (migrations, CPU
 * faults, evictions, a drain, VF resets, partition commits, events) and
 * checks that every counter moved by exactly what it did and no other
 * moved (events_emitted only where the test counts the records).  The
 * query's own rules (two-call size protocol, device fds only, id 0) come
 * first.
 *
 * Sim ids 740..741 belong to this test.
 */
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/mman.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

#define SIM_ID		AMDX_SIM_ID(stats, 0)
#define AMDX_DEBUGFS	"/sys/kernel/debug/amdx"
#define MIB		(1ULL << 20)
#define HMM_NO_CAP	"no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)"
/* A delta the test does not predict (the records other actions emit). */
#define ANY		(~0ULL)

#define FIELD(f) { #f, offsetof(struct amdx_device_stats, f) }
static const struct {
	const char *name;
	size_t off;
} fields[] = {
	FIELD(migrations_to_vram), FIELD(bytes_to_vram),
	FIELD(migrations_to_ram), FIELD(bytes_to_ram),
	FIELD(fault_migrations), FIELD(fault_bytes),
	FIELD(evictions), FIELD(evicted_bytes),
	FIELD(drains), FIELD(drained_bytes),
	FIELD(vf_flrs), FIELD(commits), FIELD(rollbacks), FIELD(refusals),
	FIELD(events_emitted), FIELD(events_lost),
};

static __u64 get(const struct amdx_device_stats *s, size_t off)
{
	__u64 v;

	memcpy(&v, (const char *)s + off, sizeof(v));
	return v;
}

static int read_stats(int fd, struct amdx_device_stats *s)
{
	__u32 size = sizeof(*s);
	int ret;

	memset(s, 0xa5, sizeof(*s));
	ret = amdx_query(fd, AMDX_QUERY_STATS, 0, s, &size);
	if (!ret && size != sizeof(*s))
		return -EPROTO;
	return ret;
}

FIXTURE(stats)
{
	int ctl;
	int fd;
	__u32 id;
	bool created;
	struct amdx_device_stats before;
};

FIXTURE_SETUP(stats)
{
	char bdf[AMDX_BDF_LEN];

	self->fd = -1;
	self->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->ctl);
	amdx_sim_del(SIM_ID);	/* left behind by a test that timed out */
	ASSERT_EQ(0, amdx_sim_new(SIM_ID, "model=mi300x vram=256"));
	self->created = true;
	amdx_sim_bdf(SIM_ID, bdf, sizeof(bdf));
	ASSERT_EQ(0, amdx_find_device(self->ctl, bdf, &self->id));
	self->fd = amdx_device_open(self->ctl, self->id);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, read_stats(self->fd, &self->before));
}

FIXTURE_TEARDOWN(stats)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->created)
		amdx_sim_del(SIM_ID);
	close(self->ctl);
}

/*
 * Every counter of @fd moved from @before by its entry in @want (ANY:
 * not checked).  Returns the number of counters that did not.
 */
static int check_deltas(struct __test_metadata *_metadata, int fd,
			const struct amdx_device_stats *before,
			const struct amdx_device_stats *want)
{
	struct amdx_device_stats now;
	int bad = 0;
	size_t i;

	EXPECT_EQ(0, read_stats(fd, &now));
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		__u64 d = get(&now, fields[i].off) - get(before, fields[i].off);
		__u64 w = get(want, fields[i].off);

		if (w == ANY || d == w)
			continue;
		bad++;
		TH_LOG("%s moved by %llu, expected %llu", fields[i].name,
		       (unsigned long long)d, (unsigned long long)w);
	}
	EXPECT_EQ(0, now.reserved[0] | now.reserved[1] | now.reserved[2] |
		     now.reserved[3]);
	return bad;
}

#define EXPECT_DELTAS(...) do {						\
		const struct amdx_device_stats want = { __VA_ARGS__ };	\
									\
		EXPECT_EQ(0, check_deltas(_metadata, self->fd,		\
					  &self->before, &want));	\
	} while (0)

static bool have_hmm(int ctl)
{
	return amdx_caps(ctl) & AMDX_CAP_HMM_MIGRATE;
}

static size_t pagesz(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* @npages of anonymous memory in one range of @fd with granularity @gran. */
static char *range_new(int fd, unsigned long npages, __u32 gran)
{
	size_t size = npages * pagesz();
	struct amdx_hmm_attr a = {
		.valid = AMDX_HMM_ATTR_GRANULARITY,
		.granularity = gran,
	};
	char *buf;

	buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return NULL;
	memset(buf, 0x5a, size);
	a.start = (uintptr_t)buf;
	a.size = size;
	if (amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a)) {
		munmap(buf, size);
		return NULL;
	}
	return buf;
}

static int migrate(int fd, void *buf, unsigned long npages, __u32 dest,
		   struct amdx_hmm_migrate *m)
{
	memset(m, 0, sizeof(*m));
	m->start = (uintptr_t)buf;
	m->size = npages * pagesz();
	m->dest = dest;
	return amdx_ioctl(fd, AMDX_IOC_HMM_MIGRATE, m);
}

static int commit(int fd, __u32 compute, __u32 memory, __u32 flags,
		  struct amdx_partition_config *c)
{
	memset(c, 0, sizeof(*c));
	c->compute_mode = compute;
	c->memory_mode = memory;
	c->flags = flags;
	return amdx_ioctl(fd, AMDX_IOC_PARTITION_COMMIT, c);
}

TEST_F(stats, query_protocol)
{
	struct amdx_device_stats s;
	__u32 size = 0;
	char small[AMDX_DEVICE_STATS_SIZE_VER0 - 8];

	/* a new device counts nothing yet; reserved is zero */
	EXPECT_EQ(0, check_deltas(_metadata, self->fd,
				  &(struct amdx_device_stats){},
				  &(struct amdx_device_stats){}));
	/* two-call: size 0 asks for the size */
	ASSERT_EQ(0, amdx_query(self->fd, AMDX_QUERY_STATS, 0, NULL, &size));
	EXPECT_EQ(sizeof(s), size);
	/* below the first version: -ENOSPC with the size */
	size = sizeof(small);
	EXPECT_EQ(-ENOSPC, amdx_query(self->fd, AMDX_QUERY_STATS, 0, small,
				      &size));
	EXPECT_EQ(sizeof(s), size);
	/* the first version's size is enough (truncated) */
	size = AMDX_DEVICE_STATS_SIZE_VER0;
	EXPECT_EQ(0, amdx_query(self->fd, AMDX_QUERY_STATS, 0, &s, &size));
	EXPECT_EQ(AMDX_DEVICE_STATS_SIZE_VER0, size);
	/* device fds only, id 0 */
	size = sizeof(s);
	EXPECT_EQ(-EINVAL, amdx_query(self->ctl, AMDX_QUERY_STATS, self->id,
				      &s, &size));
	size = sizeof(s);
	EXPECT_EQ(-EINVAL, amdx_query(self->ctl, AMDX_QUERY_STATS, 0, &s,
				      &size));
	size = sizeof(s);
	EXPECT_EQ(-EINVAL, amdx_query(self->fd, AMDX_QUERY_STATS, 1, &s,
				      &size));
	/* a bad buffer */
	size = sizeof(s);
	EXPECT_EQ(-EFAULT, amdx_query(self->fd, AMDX_QUERY_STATS, 0,
				      (void *)8, &size));
}

/* Explicit migrations count per direction, once per call that moved. */
TEST_F(stats, migrations_per_direction)
{
	const unsigned long n = 64;
	struct amdx_hmm_migrate m;
	char *buf;

	if (!have_hmm(self->ctl))
		SKIP(return, HMM_NO_CAP);
	buf = range_new(self->fd, n, AMDX_HMM_GRANULARITY_DEFAULT);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, migrate(self->fd, buf, n, 0, &m));
	ASSERT_EQ(n, m.moved);
	/* already there: moves nothing, counts nothing */
	ASSERT_EQ(0, migrate(self->fd, buf, n, 0, &m));
	ASSERT_EQ(0, m.moved);
	ASSERT_EQ(0, migrate(self->fd, buf, n / 2, AMDX_HMM_LOC_SYSTEM, &m));
	ASSERT_EQ(n / 2, m.moved);
	EXPECT_DELTAS(.migrations_to_vram = 1, .bytes_to_vram = n * pagesz(),
		      .migrations_to_ram = 1,
		      .bytes_to_ram = n / 2 * pagesz(),
		      .events_emitted = ANY);
	munmap(buf, n * pagesz());
}

/* A CPU fault on a device page counts as a fault, not as a migration. */
TEST_F(stats, cpu_fault_migrations)
{
	const unsigned long n = 16;
	struct amdx_hmm_migrate m;
	volatile char *buf;

	if (!have_hmm(self->ctl))
		SKIP(return, HMM_NO_CAP);
	/* granularity 0: each fault moves exactly its page home */
	buf = range_new(self->fd, n, 0);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, migrate(self->fd, (void *)buf, n, 0, &m));
	ASSERT_EQ(n, m.moved);
	EXPECT_EQ(0x5a, buf[0]);
	EXPECT_EQ(0x5a, buf[3 * pagesz()]);
	buf[5 * pagesz()] = 1;
	EXPECT_DELTAS(.migrations_to_vram = 1, .bytes_to_vram = n * pagesz(),
		      .fault_migrations = 3, .fault_bytes = 3 * pagesz(),
		      .events_emitted = ANY);
	munmap((void *)buf, n * pagesz());
}

/*
 * A migration into a full partition evicts from the least recently used
 * range what it needs plus the documented slack (Documentation/hmm.rst,
 * "Residency": AMDX_HMM_EVICT_SLACK, 512 pages, 2 MiB): one eviction, and
 * no explicit migration home.  In NPS4 of 256 MiB, partition 0 has 64 MiB: 40 MiB, then 32 MiB
 * more, 8 MiB short.
 */
TEST_F_TIMEOUT(stats, evictions, 120)
{
	const unsigned long a_pages = 40 * MIB / pagesz();
	const unsigned long b_pages = 32 * MIB / pagesz();
	struct amdx_partition_config c;
	struct amdx_hmm_migrate m;
	char *a, *b;

	if (!have_hmm(self->ctl))
		SKIP(return, HMM_NO_CAP);
	ASSERT_EQ(0, commit(self->fd, AMDX_COMPUTE_CPX, AMDX_MEMORY_NPS4, 0,
			    &c));
	ASSERT_EQ(0, read_stats(self->fd, &self->before));
	a = range_new(self->fd, a_pages, AMDX_HMM_GRANULARITY_DEFAULT);
	ASSERT_NE(NULL, a);
	b = range_new(self->fd, b_pages, AMDX_HMM_GRANULARITY_DEFAULT);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, migrate(self->fd, a, a_pages, 0, &m));
	ASSERT_EQ(a_pages, m.moved);
	ASSERT_EQ(0, migrate(self->fd, b, b_pages, 0, &m));
	ASSERT_EQ(b_pages, m.moved);
	EXPECT_DELTAS(.migrations_to_vram = 2,
		      .bytes_to_vram = (a_pages + b_pages) * pagesz(),
		      .evictions = 1,
		      .evicted_bytes = (a_pages + b_pages + AMDX_HMM_EVICT_SLACK) *
				       pagesz() - 64 * MIB,
		      .events_emitted = ANY);
	munmap(a, a_pages * pagesz());
	munmap(b, b_pages * pagesz());
}

/* A memory-mode commit with AMDX_PART_F_DRAIN drains the data home. */
TEST_F(stats, drain_and_commit)
{
	const unsigned long n = 64;
	struct amdx_partition_config c;
	struct amdx_hmm_migrate m;
	char *buf;

	if (!have_hmm(self->ctl))
		SKIP(return, HMM_NO_CAP);
	buf = range_new(self->fd, n, AMDX_HMM_GRANULARITY_DEFAULT);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, migrate(self->fd, buf, n, 0, &m));
	ASSERT_EQ(n, m.moved);
	ASSERT_EQ(0, commit(self->fd, AMDX_COMPUTE_CPX, AMDX_MEMORY_NPS4,
			    AMDX_PART_F_DRAIN, &c));
	ASSERT_EQ(AMDX_PART_OUTCOME_COMMITTED, c.outcome);
	EXPECT_DELTAS(.migrations_to_vram = 1, .bytes_to_vram = n * pagesz(),
		      .drains = 1, .drained_bytes = n * pagesz(),
		      .commits = 1, .events_emitted = ANY);
	munmap(buf, n * pagesz());
}

/* Commits by outcome; PLAN and unchanged commits count nowhere. */
TEST_F(stats, commit_outcomes)
{
	struct amdx_partition_config c;

	/* committed */
	ASSERT_EQ(0, commit(self->fd, AMDX_COMPUTE_DPX, 0, 0, &c));
	ASSERT_EQ(AMDX_PART_OUTCOME_COMMITTED, c.outcome);
	/* unchanged */
	ASSERT_EQ(0, commit(self->fd, AMDX_COMPUTE_DPX, 0, 0, &c));
	ASSERT_EQ(AMDX_PART_OUTCOME_UNCHANGED, c.outcome);
	/* refused: SPX has NPS1 only */
	ASSERT_EQ(-EINVAL, commit(self->fd, AMDX_COMPUTE_SPX, AMDX_MEMORY_NPS4,
				  0, &c));
	ASSERT_EQ(AMDX_PART_REASON_INCOMPATIBLE, c.reason);
	/* refused twice more: an unsupported mode */
	ASSERT_EQ(-EINVAL, commit(self->fd, AMDX_COMPUTE_TPX, 0, 0, &c));
	ASSERT_EQ(-EINVAL, commit(self->fd, AMDX_COMPUTE_TPX, 0, 0, &c));
	/* a plan of a refused change is not a commit */
	memset(&c, 0, sizeof(c));
	c.compute_mode = AMDX_COMPUTE_TPX;
	ASSERT_EQ(0, amdx_ioctl(self->fd, AMDX_IOC_PARTITION_PLAN, &c));
	ASSERT_EQ(0, c.allowed);
	/* rolled back: the compute step fails */
	ASSERT_EQ(0, amdx_sim_knob(SIM_ID, "fail_partition_step", AMDX_PART_STEP_COMPUTE));
	ASSERT_EQ(-EIO, commit(self->fd, AMDX_COMPUTE_CPX, 0, 0, &c));
	ASSERT_EQ(AMDX_PART_OUTCOME_ROLLED_BACK, c.outcome);
	EXPECT_DELTAS(.commits = 1, .refusals = 3, .rollbacks = 1,
		      .events_emitted = ANY);
}

/* Performed FLRs count; refused resets (quarantine, no such VF) do not. */
TEST_F(stats, vf_flrs)
{
	struct amdx_vf_enable e = { .num_vfs = 1 };
	struct amdx_vf_reset r;
	int i;

	ASSERT_EQ(0, amdx_ioctl(self->fd, AMDX_IOC_VF_ENABLE, &e));
	for (i = 0; i < AMDX_VF_RESET_LIMIT; i++) {
		r = (struct amdx_vf_reset){ .vf = 0 };
		ASSERT_EQ(0, amdx_ioctl(self->fd, AMDX_IOC_VF_RESET, &r));
	}
	r = (struct amdx_vf_reset){ .vf = 0 };
	ASSERT_EQ(-EBUSY, amdx_ioctl(self->fd, AMDX_IOC_VF_RESET, &r));
	r = (struct amdx_vf_reset){ .vf = 3 };
	ASSERT_EQ(-EINVAL, amdx_ioctl(self->fd, AMDX_IOC_VF_RESET, &r));
	EXPECT_DELTAS(.vf_flrs = AMDX_VF_RESET_LIMIT, .events_emitted = ANY);
}

static int subscribe(int fd, __u32 ring)
{
	struct amdx_event_subscribe s = {
		.mask = AMDX_EVENT_MASK_ALL, .ring_size = ring,
		.flags = AMDX_EVENT_F_NONBLOCK,
	};
	int ret = amdx_ioctl(fd, AMDX_IOC_EVENT_SUBSCRIBE, &s);

	return ret ? ret : s.fd;
}

static int emit(__u32 id, unsigned int kind, unsigned int count)
{
	char path[128], s[32];

	snprintf(path, sizeof(path), AMDX_DEBUGFS "/amdx%u/emit_events", id);
	snprintf(s, sizeof(s), "%u %u", kind, count);
	return amdx_sysfs_write(path, s);
}

/* Records an event fd lost, by its LOST records (read to the end). */
static __u64 lost_records(int efd)
{
	struct amdx_event ev;
	__u64 lost = 0;

	while (read(efd, &ev, sizeof(ev)) == sizeof(ev))
		if (ev.kind == AMDX_EVENT_LOST)
			lost += ev.data[0];
	return lost;
}

/*
 * Emitted counts every record, subscribers or not; lost sums what the
 * subscribers' full rings dropped, as their LOST records report it.
 */
TEST_F(stats, events_emitted_and_lost)
{
	int a, b;

	ASSERT_EQ(0, emit(self->id, AMDX_EVENT_ERROR, 5));
	a = subscribe(self->fd, 16);
	ASSERT_LE(0, a);
	b = subscribe(self->fd, 32);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, emit(self->id, AMDX_EVENT_ERROR, 40));
	EXPECT_DELTAS(.events_emitted = 45, .events_lost = 24 + 8);
	EXPECT_EQ(24, lost_records(a));
	EXPECT_EQ(8, lost_records(b));
	/* read rings lose nothing more */
	ASSERT_EQ(0, emit(self->id, AMDX_EVENT_ERROR, 3));
	EXPECT_DELTAS(.events_emitted = 48, .events_lost = 32);
	close(a);
	close(b);
}

TEST_HARNESS_MAIN
