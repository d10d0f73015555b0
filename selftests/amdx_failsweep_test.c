// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation-failure sweep: for every mutating ioctl, device add and
 * remove, PLAN, the queries, opening /dev/amdx and a sysfs read, fail the
 * Nth allocation of the call (failslab and
 * fail_page_alloc through /proc/thread-self/fail-nth) for N = 1, 2, ...
 * until the call succeeds without an injected failure.  After each failed
 * call:
 *  - the errno is ENOMEM or one the operation documents;
 *  - the state is unchanged: every query `amdx -j dev|partition|vf|ras|hmm
 *    show DEV` issues, and the fd's own HMM ranges, read the same as
 *    before, byte for byte (with AMDX_SWEEP_CLI=1 also the CLI's JSON);
 *  - no fd was installed (the next free fd number is the same).
 * kmemleak (scanned by the rig at the end of the run) must stay silent.
 * Needs CONFIG_FAULT_INJECTION_DEBUG_FS with FAILSLAB and FAIL_PAGE_ALLOC
 * (the test kernel); skips elsewhere.
 */
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

/*
 * The harness keeps a test's verdict in exit_code (KSFT_FAIL) since 6.9
 * and in passed before; XFAIL_ADD() came with that change.
 */
#ifdef XFAIL_ADD
#define TEST_FAILED(m)	((m)->exit_code == KSFT_FAIL)
#define FAIL_TEST(m)	((m)->exit_code = KSFT_FAIL)
#else
#define TEST_FAILED(m)	(!(m)->passed)
#define FAIL_TEST(m)	((m)->passed = 0)
#endif

#define SIM_ID		AMDX_SIM_ID(failsweep, 0)	/* the device under test */
#define SIM_ID2		AMDX_SIM_ID(failsweep, 1)	/* created and removed by the add/remove sweeps */
#define NPAGES		16
#define PAGE		4096UL
#define MAX_N		4000	/* give up: more allocation sites than this */
#define BUDGET_MS	2000	/* every N for this long per operation, then sampled */
#define STRIDE_MAX	64
#define SNAP_MAX	(256 << 10)
#define CLI		"/usr/bin/amdx"

struct ctx {
	int ctl;
	int dev;
	uint32_t id;
	char *mem;
	int failnth;
	int newdev;	/* /sys/bus/amdx_sim/new_device, opened outside the window */
	int deldev;
	int tmpfd;	/* an fd an operation made, closed by its undo */
	unsigned int iter;
};

struct sweep_op {
	const char *name;
	int (*prepare)(struct ctx *c);	/* outside the window: reach the precondition */
	int (*op)(struct ctx *c);	/* the call swept: 0 or -errno */
	void (*undo)(struct ctx *c);	/* after a success */
	int also;			/* an errno documented besides ENOMEM, or 0 */
	uint32_t query;			/* without op: AMDX_QUERY_* of the device fd */
	bool control;			/* ... of the control fd instead */
	bool moves_home;		/* a failure may have moved data home */
};

static int arm(struct ctx *c, unsigned int n)
{
	return amdx_failnth_arm(c->failnth, n);
}

/* Disarm; true when the armed failure was injected. */
static bool disarm(struct ctx *c)
{
	unsigned int left = 1;

	return !amdx_failnth_disarm(c->failnth, &left) && !left;
}

static int next_fd(void)
{
	int fd = dup(0);

	if (fd >= 0)
		close(fd);
	return fd;
}

/*
 * The state, as the queries report it: every query `amdx ... show`
 * issues for the device, the device list, and the fd's own HMM ranges.
 * Binary, one record per query: id, result, size, bytes.  These are
 * exactly the queries the CLI's show commands issue (their only source),
 * compared byte for byte, which is stricter than comparing the JSON made
 * of them; the CLI's `hmm show` cannot see this process's ranges at all
 * (it opens its own fd).  With @cli also that JSON: a process per command
 * takes 2-3 s under TCG with KASAN, five per snapshot, so only with
 * AMDX_SWEEP_CLI=1 and only at the first and last failure of an
 * operation.
 */
static const uint32_t snap_queries[] = {
	AMDX_QUERY_DEVICES, AMDX_QUERY_DEVICE_INFO, AMDX_QUERY_PARTITIONS,
	AMDX_QUERY_VFS, AMDX_QUERY_RAS_COUNTERS, AMDX_QUERY_RAS_POLICY,
	AMDX_QUERY_BADPAGES, AMDX_QUERY_RESET_SCOPE, AMDX_QUERY_HMM_RANGES,
};

static bool want_cli(void)
{
	const char *v = getenv("AMDX_SWEEP_CLI");

	return v && *v == '1';
}

static size_t snapshot(struct ctx *c, const struct sweep_op *o, char *out,
		       size_t len, bool cli)
{
	size_t n = 0;

	cli = cli && want_cli() && !o->moves_home;

	for (size_t i = 0; i < sizeof(snap_queries) / sizeof(snap_queries[0]); i++) {
		uint32_t q = snap_queries[i], size = 16 << 10;
		int fd = q == AMDX_QUERY_DEVICES ? c->ctl : c->dev;
		char *rec = out + n;
		int ret;

		/* Where the data is and the VRAM it takes. */
		if (o->moves_home &&
		    (q == AMDX_QUERY_DEVICE_INFO || q == AMDX_QUERY_HMM_RANGES))
			continue;
		if (n + 12 + size > len)
			break;
		memset(rec + 12, 0, size);
		ret = amdx_query(fd, q, 0, rec + 12, &size);
		if (ret)
			size = 0;
		memcpy(rec, &q, 4);
		memcpy(rec + 4, &ret, 4);
		memcpy(rec + 8, &size, 4);
		n += 12 + size;
	}
	if (cli) {
		char cmd[512];
		FILE *p;

		snprintf(cmd, sizeof(cmd),
			 "for o in dev partition vf ras hmm; do " CLI " -j $o show %u 2>&1; "
			 "echo \"rc=$?\"; done",
			 c->id);
		p = popen(cmd, "r");
		if (p) {
			n += fread(out + n, 1, len - n - 1, p);
			pclose(p);
		}
		/* The CLI reports its own pid in hmm show: not state. */
		out[n] = 0;
		for (char *s = memmem(out, n, "\"pid\":", 6); s;
		     s = memmem(s, out + n - s, "\"pid\":", 6)) {
			s += 6;
			while (*s >= '0' && *s <= '9')
				*s++ = 'N';
		}
	}
	return n;
}

/* Which query (or the CLI's JSON) differs first, and where. */
static void diff(const char *a, size_t na, const char *b, size_t nb,
		 char *msg, size_t len)
{
	size_t i = 0, rec = 0;

	while (i < na && i < nb && a[i] == b[i])
		i++;
	while (rec + 12 <= na) {
		uint32_t q, size, size_b = 0;
		int ra, rb = 0;

		memcpy(&q, a + rec, 4);
		memcpy(&ra, a + rec + 4, 4);
		memcpy(&size, a + rec + 8, 4);
		if (q > AMDX_QUERY_RESET_SCOPE)
			break;		/* the CLI's text */
		if (i < rec + 12 + size) {
			if (rec + 12 <= nb) {
				memcpy(&rb, b + rec + 4, 4);
				memcpy(&size_b, b + rec + 8, 4);
			}
			snprintf(msg, len,
				 "query %u: result %d -> %d, size %u -> %u, first difference at byte %zd",
				 q, ra, rb, size, size_b, (ssize_t)(i - rec) - 12);
			return;
		}
		rec += 12 + size;
	}
	snprintf(msg, len, "CLI JSON differs:\n# before: ...%.100s\n#  after: ...%.100s",
		 a + (i > 40 ? i - 40 : 0), b + (i > 40 ? i - 40 : 0));
}

/* ---- the operations --------------------------------------------------- */

static int new_device_op(struct ctx *c)
{
	char s[32];
	int len = snprintf(s, sizeof(s), "%d model=mi308x vram=64", SIM_ID2);

	return write(c->newdev, s, len) < 0 ? -errno : 0;
}

static void del_second(struct ctx *c)
{
	amdx_sim_del(SIM_ID2);
}

static int make_second(struct ctx *c)
{
	int err = amdx_sim_new(SIM_ID2, "model=mi308x vram=64");

	return err == -EINVAL ? 0 : err;	/* already there */
}

static int del_device_op(struct ctx *c)
{
	static const char s[] = "871";

	return write(c->deldev, s, sizeof(s) - 1) < 0 ? -errno : 0;
}

static int device_open_op(struct ctx *c)
{
	int fd = amdx_device_open(c->ctl, c->id);

	if (fd < 0)
		return fd;
	c->tmpfd = fd;
	return 0;
}

static void close_tmp(struct ctx *c)
{
	if (c->tmpfd >= 0)
		close(c->tmpfd);
	c->tmpfd = -1;
}

static int subscribe_op(struct ctx *c)
{
	struct amdx_event_subscribe s = {
		.mask = AMDX_EVENT_MASK_ALL,
		.ring_size = AMDX_EVENT_RING_DEFAULT,
	};
	int ret = amdx_ioctl(c->dev, AMDX_IOC_EVENT_SUBSCRIBE, &s);

	if (!ret)
		c->tmpfd = s.fd;
	return ret;
}

static int set_attr(struct ctx *c, uint32_t loc)
{
	struct amdx_hmm_attr a = {
		.start = (uintptr_t)c->mem,
		.size = NPAGES * PAGE,
		.valid = AMDX_HMM_ATTR_PREFERRED_LOC | AMDX_HMM_ATTR_ACCESS,
		.preferred_loc = loc,
		.access = 1ULL << c->id,
	};

	return amdx_ioctl(c->dev, AMDX_IOC_HMM_SET_ATTR, &a);
}

static int set_attr_op(struct ctx *c)
{
	return set_attr(c, 0);
}

/* A range goes only with its fd: a fresh device fd has none. */
static int fresh_fd(struct ctx *c)
{
	int fd = amdx_device_open(c->ctl, c->id);

	if (fd < 0)
		return fd;
	close(c->dev);
	c->dev = fd;
	memset(c->mem, 0x5a, NPAGES * PAGE);
	return 0;
}

static void fresh_fd_undo(struct ctx *c)
{
	fresh_fd(c);
}

static int migrate(struct ctx *c, uint32_t dest)
{
	struct amdx_hmm_migrate m = {
		.start = (uintptr_t)c->mem,
		.size = NPAGES * PAGE,
		.dest = dest,
	};

	return amdx_ioctl(c->dev, AMDX_IOC_HMM_MIGRATE, &m);
}

static int migrate_prepare(struct ctx *c)
{
	int ret = fresh_fd(c);

	return ret ? ret : set_attr(c, 0);
}

static int migrate_in_op(struct ctx *c)
{
	return migrate(c, 0);
}

static void migrate_home(struct ctx *c)
{
	migrate(c, AMDX_HMM_LOC_SYSTEM);
}

static int migrate_out_prepare(struct ctx *c)
{
	int ret = migrate_prepare(c);

	return ret ? ret : migrate(c, 0);
}

static int migrate_out_op(struct ctx *c)
{
	return migrate(c, AMDX_HMM_LOC_SYSTEM);
}

/*
 * User buffers the operations pass, touched by the setup: a first touch
 * inside the window faults pages in there, and a failed page allocation
 * of a user fault is retried, not returned, so it would take the sweep's
 * first values of N (the queries then never saw a failure).
 */
static char access_buf[NPAGES * PAGE];
static char query_buf[16 << 10];

static int access_op(struct ctx *c, uint32_t op)
{
	struct amdx_hmm_access a = {
		.addr = (uintptr_t)c->mem,
		.size = NPAGES * PAGE,
		.buf = (uintptr_t)access_buf,
		.op = op,
	};

	memset(access_buf, 0xa5, sizeof(access_buf));
	return amdx_ioctl(c->dev, AMDX_IOC_HMM_ACCESS, &a);
}

static int access_write_op(struct ctx *c)
{
	return access_op(c, AMDX_HMM_ACCESS_WRITE);
}

static int part_cfg(struct ctx *c, uint32_t compute)
{
	struct amdx_partition_config cfg = {
		.compute_mode = compute,
		.flags = AMDX_PART_F_DRAIN,
	};

	return amdx_ioctl(c->dev, AMDX_IOC_PARTITION_COMMIT, &cfg);
}

static int commit_op(struct ctx *c)
{
	return part_cfg(c, AMDX_COMPUTE_DPX);
}

static void commit_undo(struct ctx *c)
{
	part_cfg(c, AMDX_COMPUTE_SPX);
}

static int vf_enable(struct ctx *c)
{
	struct amdx_vf_enable e = { .num_vfs = 1 };

	return amdx_ioctl(c->dev, AMDX_IOC_VF_ENABLE, &e);
}

static int vf_disable(struct ctx *c)
{
	struct amdx_vf_disable d = { 0 };

	return amdx_ioctl(c->dev, AMDX_IOC_VF_DISABLE, &d);
}

static void vf_disable_undo(struct ctx *c)
{
	vf_disable(c);
}

static int vfs_on(struct ctx *c)
{
	vf_disable(c);
	return vf_enable(c);
}

static void vfs_on_undo(struct ctx *c)
{
	vf_enable(c);
}

static int vf_set_op(struct ctx *c)
{
	struct amdx_vf_set s = {
		.vf = 0,
		.valid = AMDX_VF_SET_TIME_SLICE,
		.config.time_slice_us = 2000 + 1000 * (c->iter % 50),
	};

	return amdx_ioctl(c->dev, AMDX_IOC_VF_SET, &s);
}

static int vf_reset_op(struct ctx *c)
{
	struct amdx_vf_reset r = { .vf = 0 };

	return amdx_ioctl(c->dev, AMDX_IOC_VF_RESET, &r);
}

static int ras_inject_op(struct ctx *c)
{
	struct amdx_ras_inject in = {
		.block = AMDX_RAS_BLOCK_UMC,
		.type = AMDX_RAS_TYPE_CE,
		.count = 1,
		.address = (64ULL << 20) + (uint64_t)c->iter * PAGE,
	};

	return amdx_ioctl(c->dev, AMDX_IOC_RAS_INJECT, &in);
}

static int policy(struct ctx *c, uint32_t threshold)
{
	struct amdx_ras_policy p = {
		.valid = AMDX_RAS_POL_CE_PAGE_THRESHOLD,
		.ce_page_threshold = threshold,
	};

	return amdx_ioctl(c->dev, AMDX_IOC_RAS_SET_POLICY, &p);
}

static int policy_op(struct ctx *c)
{
	return policy(c, 77);
}

static void policy_undo(struct ctx *c)
{
	policy(c, 50);
}

static uint32_t crc32_ieee(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--) {
		crc ^= *b++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320U & -(crc & 1));
	}
	return crc;
}

static int import_op(struct ctx *c)
{
	struct {
		struct amdx_badpage_header h;
		struct amdx_badpage_record r;
	} __attribute__((packed)) t = {
		.h = {
			.magic = AMDX_BADPAGE_MAGIC,
			.version = AMDX_BADPAGE_VERSION,
			.count = 1,
			.record_size = sizeof(struct amdx_badpage_record),
		},
		.r = {
			/* A new page each time: retired pages stay retired. */
			.address = (128ULL << 20) + (uint64_t)c->iter * PAGE,
			.time = 1700000000,
			.cause = AMDX_BADPAGE_CAUSE_IMPORT,
		},
	};
	struct amdx_ras_badpages_import im = {
		.data = (uintptr_t)&t,
		.size = sizeof(t),
	};

	t.h.checksum = crc32_ieee(~0U, &t, sizeof(t)) ^ ~0U;
	return amdx_ioctl(c->dev, AMDX_IOC_RAS_BADPAGES_IMPORT, &im);
}

/*
 * A memory-mode change without AMDX_PART_F_DRAIN while this process has
 * data in VRAM is refused with EBUSY (reason BUSY): that refusal is this
 * operation's success.  Under an allocation failure it may be ENOMEM
 * instead, never a change made over the data.
 */
static int busy_prepare(struct ctx *c)
{
	struct amdx_partition_config cfg;
	int ret = amdx_commit_modes(c->dev, AMDX_COMPUTE_CPX, 0,
				    AMDX_PART_F_DRAIN, &cfg);

	return ret ? ret : migrate_out_prepare(c);
}

static int busy_memory_change_op(struct ctx *c)
{
	struct amdx_partition_config cfg;
	int ret = amdx_commit_modes(c->dev, 0, AMDX_MEMORY_NPS4, 0, &cfg);

	if (ret == -EBUSY && cfg.reason == AMDX_PART_REASON_BUSY &&
	    cfg.num_holders == 1)
		return 0;
	if (!ret || ret == -EBUSY) {
		ksft_print_msg("COMMIT over data in VRAM: %d, reason %u, %u holders\n",
			       ret, cfg.reason, cfg.num_holders);
		return -EXDEV;
	}
	return ret;
}

/*
 * The same change with a drain, watched on the event log: a success told
 * this process that its data went home (AMDX_EVENT_DRAINED).  A failure
 * leaves the modes as they were; what the drain had moved stays home
 * (Documentation/partition.rst), hence moves_home.
 */
static int busy_drain_prepare(struct ctx *c)
{
	struct amdx_event_subscribe sub = {
		.mask = 1U << AMDX_EVENT_DRAINED,
		.flags = AMDX_EVENT_F_NONBLOCK,
	};
	int ret = busy_prepare(c);

	if (ret)
		return ret;
	close_tmp(c);
	ret = amdx_ioctl(c->dev, AMDX_IOC_EVENT_SUBSCRIBE, &sub);
	if (!ret)
		c->tmpfd = sub.fd;
	return ret;
}

static int busy_drain_op(struct ctx *c)
{
	struct amdx_partition_config cfg;
	struct amdx_event ev;
	int ret = amdx_commit_modes(c->dev, 0, AMDX_MEMORY_NPS4,
				    AMDX_PART_F_DRAIN, &cfg);

	if (ret)
		return ret;
	while (read(c->tmpfd, &ev, sizeof(ev)) == sizeof(ev))
		if (ev.kind == AMDX_EVENT_DRAINED && ev.data[0] == (uint64_t)getpid())
			return 0;
	ksft_print_msg("COMMIT with a drain of this process's data: no DRAINED event (%s)\n",
		       strerror(errno));
	return -EXDEV;
}

static void busy_drain_undo(struct ctx *c)
{
	struct amdx_partition_config cfg;

	amdx_commit_modes(c->dev, 0, AMDX_MEMORY_NPS1, 0, &cfg);
	close_tmp(c);
}

/*
 * PLAN of the same change: not allowed (BUSY, one holder: this process),
 * or ENOMEM.  With max_holders, the holders array is allocated for the
 * call too.
 */
#define PLAN_HOLDERS 4

static int busy_memory_plan(struct ctx *c, uint32_t max_holders)
{
	struct amdx_partition_holder h[PLAN_HOLDERS] = {};
	struct amdx_partition_config cfg = {
		.memory_mode = AMDX_MEMORY_NPS4,
		.holders = max_holders ? (uintptr_t)h : 0,
		.max_holders = max_holders,
	};
	int ret = amdx_ioctl(c->dev, AMDX_IOC_PARTITION_PLAN, &cfg);

	if (ret)
		return ret;
	if (!cfg.allowed && cfg.reason == AMDX_PART_REASON_BUSY &&
	    cfg.num_holders == 1 && (!max_holders || h[0].pid == getpid()))
		return 0;
	ksft_print_msg("PLAN over data in VRAM: allowed %u, reason %u, %u holders, holder pid %d\n",
		       cfg.allowed, cfg.reason, cfg.num_holders, h[0].pid);
	return -EXDEV;
}

static int busy_memory_plan_op(struct ctx *c)
{
	return busy_memory_plan(c, 0);
}

static int busy_memory_plan_holders_op(struct ctx *c)
{
	return busy_memory_plan(c, PLAN_HOLDERS);
}

/*
 * What reads state allocates too: the queries, opening /dev/amdx, a
 * sysfs attribute.  They must fail with ENOMEM and change nothing.
 */
static int query_op(struct ctx *c, const struct sweep_op *o)
{
	uint32_t size = sizeof(query_buf);

	if (!o->control)
		return amdx_query(c->dev, o->query, 0, query_buf, &size);
	return amdx_query(c->ctl, o->query,
			  o->query == AMDX_QUERY_DEVICES ? 0 : c->id,
			  query_buf, &size);
}

static int control_open_op(struct ctx *c)
{
	int fd = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	c->tmpfd = fd;
	return 0;
}

static int sysfs_read_op(struct ctx *c)
{
	char buf[256];

	return pread(c->tmpfd, buf, sizeof(buf), 0) < 0 ? -errno : 0;
}

/*
 * Open the attribute and read it once outside the window: the first read
 * allocates the seq_file buffer, which stays, so only amdx's allocation
 * is left in the window.
 */
static int sysfs_open(struct ctx *c)
{
	char path[96];

	if (c->tmpfd < 0) {
		snprintf(path, sizeof(path),
			 "/sys/class/amdx/amdx%u/partitions/state", c->id);
		c->tmpfd = open(path, O_RDONLY | O_CLOEXEC);
		if (c->tmpfd < 0)
			return -errno;
	}
	return sysfs_read_op(c);
}

/* ---- the sweep -------------------------------------------------------- */

FIXTURE(sweep)
{
	bool skip;	/* 6.1's harness runs the test after a setup SKIP */
	struct ctx c;
	char *before, *after;
};

FIXTURE_VARIANT(sweep)
{
	struct sweep_op op;
};

/*
 * amdx.sweep_every=OP[,OP...] (or =all) on the kernel command line: those
 * operations are swept at every N up to the last allocation site, with no
 * sampling, by every_allocation_fails_cleanly; elsewhere it skips (a few
 * minutes for device creation under TCG; Documentation/testing.rst).
 */
static bool sweep_every(const char *name)
{
	static const char key[] = "amdx.sweep_every=";
	char cmdline[4096], *p, *tok, *save;
	ssize_t n;
	int fd;

	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, cmdline, sizeof(cmdline) - 1);
	close(fd);
	if (n <= 0)
		return false;
	cmdline[n] = '\0';
	p = strstr(cmdline, key);
	if (!p)
		return false;
	p += strlen(key);
	p[strcspn(p, " \n")] = '\0';
	for (tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!strcmp(tok, "all") || !strcmp(tok, name))
			return true;
	return false;
}

FIXTURE_SETUP(sweep)
{
	struct ctx *c = &self->c;
	char bdf[AMDX_BDF_LEN];

	memset(c, 0, sizeof(*c));
	c->ctl = c->dev = c->failnth = c->newdev = c->deldev = c->tmpfd = -1;
	self->skip = true;
	if (!strcmp(_metadata->name, "every_allocation_fails_cleanly") &&
	    !sweep_every(variant->op.name))
		SKIP(return, "exhaustive sweep: boot with amdx.sweep_every=%s",
		     variant->op.name);
	if (!amdx_failnth_available())
		SKIP(return, "no failslab/fail_page_alloc with fail-nth");
	if (access(CLI, X_OK))
		SKIP(return, "no %s", CLI);
	self->skip = false;
	ASSERT_EQ(0, amdx_failnth_setup());

	amdx_sim_del(SIM_ID);
	amdx_sim_del(SIM_ID2);
	ASSERT_EQ(0, amdx_sim_new(SIM_ID, "model=mi300x vram=256 max_vfs=4"));
	c->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, c->ctl);
	amdx_sim_bdf(SIM_ID, bdf, sizeof(bdf));
	ASSERT_EQ(0, amdx_find_device(c->ctl, bdf, &c->id));
	c->dev = amdx_device_open(c->ctl, c->id);
	ASSERT_LE(0, c->dev);
	c->mem = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, c->mem);
	memset(c->mem, 0x5a, NPAGES * PAGE);
	c->newdev = open(AMDX_SIM_NEW_DEVICE, O_WRONLY | O_CLOEXEC);
	c->deldev = open(AMDX_SIM_DEL_DEVICE, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, c->newdev);
	ASSERT_LE(0, c->deldev);
	c->failnth = open(AMDX_FAILNTH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, c->failnth);
	self->before = malloc(SNAP_MAX);
	self->after = malloc(SNAP_MAX);
	ASSERT_TRUE(self->before && self->after);
	memset(access_buf, 0, sizeof(access_buf));
	memset(query_buf, 0, sizeof(query_buf));
}

FIXTURE_TEARDOWN(sweep)
{
	struct ctx *c = &self->c;

	if (c->failnth >= 0)
		pwrite(c->failnth, "0", 1, 0);
	if (c->tmpfd >= 0)
		close(c->tmpfd);
	if (c->dev >= 0)
		close(c->dev);
	if (c->ctl >= 0)
		close(c->ctl);
	amdx_sim_del(SIM_ID2);
	amdx_sim_del(SIM_ID);
}

#define SWEEP(_name, ...) \
	FIXTURE_VARIANT_ADD(sweep, _name) { .op = { .name = #_name, __VA_ARGS__ } }

/*
 * Device creation: every slab and page allocation of the writing task.
 * The simulator's memremap_pages() runs on a worker, out of the sweep's
 * reach: x86's add_pages() WARNs on any failure inside it (the core
 * kernel's, not amdx's), and the rig fails on every WARN.
 */
SWEEP(new_device, .op = new_device_op, .undo = del_second);
SWEEP(del_device, .prepare = make_second, .op = del_device_op,
      .undo = NULL);
SWEEP(device_open, .op = device_open_op, .undo = close_tmp);
SWEEP(event_subscribe, .op = subscribe_op, .undo = close_tmp);
SWEEP(hmm_set_attr, .prepare = fresh_fd, .op = set_attr_op,
      .undo = fresh_fd_undo);
SWEEP(hmm_migrate_to_vram, .prepare = migrate_prepare, .op = migrate_in_op,
      .undo = migrate_home);
SWEEP(hmm_migrate_to_system, .prepare = migrate_out_prepare,
      .op = migrate_out_op);
SWEEP(hmm_access_write, .prepare = migrate_out_prepare, .op = access_write_op,
      .undo = migrate_home);
SWEEP(partition_commit, .op = commit_op, .undo = commit_undo);
SWEEP(vf_enable, .prepare = NULL, .op = vf_enable, .undo = vf_disable_undo);
SWEEP(vf_disable, .prepare = vfs_on, .op = vf_disable, .undo = vfs_on_undo);
SWEEP(vf_set, .prepare = vfs_on, .op = vf_set_op);
SWEEP(vf_reset, .prepare = vfs_on, .op = vf_reset_op);
SWEEP(ras_inject, .op = ras_inject_op);
SWEEP(ras_set_policy, .op = policy_op, .undo = policy_undo);
SWEEP(ras_badpages_import, .op = import_op);
SWEEP(busy_memory_change, .prepare = busy_prepare,
      .op = busy_memory_change_op);
SWEEP(busy_memory_plan, .prepare = busy_prepare, .op = busy_memory_plan_op);
SWEEP(busy_memory_drain, .prepare = busy_drain_prepare, .op = busy_drain_op,
	.undo = busy_drain_undo, .moves_home = true);
SWEEP(busy_memory_plan_holders, .prepare = busy_prepare,
      .op = busy_memory_plan_holders_op);
SWEEP(query_devices, .query = AMDX_QUERY_DEVICES, .control = true);
SWEEP(query_device_info_control, .query = AMDX_QUERY_DEVICE_INFO, .control = true);
SWEEP(query_device_info_device, .query = AMDX_QUERY_DEVICE_INFO);
SWEEP(query_partitions, .query = AMDX_QUERY_PARTITIONS);
SWEEP(query_vfs, .prepare = vfs_on, .query = AMDX_QUERY_VFS);
SWEEP(query_ras_counters, .query = AMDX_QUERY_RAS_COUNTERS);
SWEEP(query_badpages, .query = AMDX_QUERY_BADPAGES);
SWEEP(query_hmm_ranges, .prepare = migrate_prepare, .query = AMDX_QUERY_HMM_RANGES);
SWEEP(control_open, .op = control_open_op, .undo = close_tmp);
SWEEP(sysfs_partition_state, .prepare = sysfs_open, .op = sysfs_read_op);

enum { STEP_FAILED, STEP_ABSORBED, STEP_DONE, STEP_STOP };

/*
 * One call with its Nth allocation failing, checked.  The harness's
 * EXPECT/ASSERT need _metadata, hence the macro-style parameters.
 */
static int step(struct __test_metadata *_metadata, FIXTURE_DATA(sweep) *self,
		const struct sweep_op *o, unsigned int n, bool cli)
{
	struct ctx *c = &self->c;
	char msg[512] = "";
	size_t nb, na;
	int ret, fd_before;
	bool injected, same;

	c->iter = n;
	if (o->prepare && o->prepare(c)) {
		TH_LOG("%s: cannot reach the precondition (N=%u)", o->name, n);
		FAIL_TEST(_metadata);
		return STEP_STOP;
	}
	nb = snapshot(c, o, self->before, SNAP_MAX, cli);
	fd_before = next_fd();

	if (arm(c, n)) {
		FAIL_TEST(_metadata);
		return STEP_STOP;
	}
	ret = o->op ? o->op(c) : query_op(c, o);
	injected = disarm(c);

	if (!ret) {
		if (o->undo)
			o->undo(c);
		return injected ? STEP_ABSORBED : STEP_DONE;
	}
	EXPECT_TRUE(injected)
		TH_LOG("%s failed with %s and no allocation failed (N=%u)",
		       o->name, strerror(-ret), n);
	EXPECT_TRUE(ret == -ENOMEM || (o->also && ret == -o->also))
		TH_LOG("%s: allocation %u failed: %s, not ENOMEM", o->name, n,
		       strerror(-ret));
	EXPECT_EQ(fd_before, next_fd())
		TH_LOG("%s: allocation %u failed (%s), an fd was installed",
		       o->name, n, strerror(-ret));
	na = snapshot(c, o, self->after, SNAP_MAX, cli);
	same = na == nb && !memcmp(self->before, self->after, na);
	if (!same)
		diff(self->before, nb, self->after, na, msg, sizeof(msg));
	EXPECT_TRUE(same)
		TH_LOG("%s: allocation %u failed (%s) and the state changed: %s",
		       o->name, n, strerror(-ret), msg);
	return TEST_FAILED(_metadata) ? STEP_STOP : STEP_FAILED;
}

static uint64_t ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * N = 1, 2, ... while the operation is within its time budget, then every
 * 2nd, 4th, ... up to every STRIDE_MAX-th (device creation has hundreds of
 * allocation sites and takes a second under TCG); once a call succeeds
 * without an injected failure, a bisection between the last N that
 * injected one and that N finds the last allocation site, and that N is
 * swept too.  With @every, every N and no bisection.
 */
static void sweep(struct __test_metadata *_metadata, FIXTURE_DATA(sweep) *self,
		  const struct sweep_op *o, bool every)
{
	unsigned int n, failures = 0, silent = 0, steps = 0, stride = 1;
	unsigned int lo = 0, hi, last = 0;
	struct timespec t0;
	int r = STEP_FAILED;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (n = 1; n <= MAX_N; n += stride) {
		if (!every && ms_since(&t0) >= BUDGET_MS && stride < STRIDE_MAX)
			stride *= 2;
		r = step(_metadata, self, o, n, failures == 0);
		steps++;
		if (r == STEP_STOP)
			return;		/* one reproducer is enough */
		if (r == STEP_DONE)
			break;
		lo = n;
		if (r == STEP_FAILED) {
			failures++;
			last = n;
		} else {
			silent++;
		}
	}
	ASSERT_EQ(STEP_DONE, r) TH_LOG("%s never succeeded", o->name);
	/* The call has fewer than hi allocations and at least lo. */
	hi = n;
	while (hi - lo > 1) {
		unsigned int mid = lo + (hi - lo) / 2;

		r = step(_metadata, self, o, mid, false);
		steps++;
		if (r == STEP_STOP)
			return;
		if (r == STEP_DONE) {
			hi = mid;
			continue;
		}
		lo = mid;
		if (r == STEP_FAILED) {
			failures++;
			last = last > mid ? last : mid;
		} else {
			silent++;
		}
	}
	/* And at the last failure, again, with the CLI's JSON. */
	if (last > 1 && want_cli() &&
	    step(_metadata, self, o, last, true) == STEP_STOP)
		return;
	ksft_print_msg("%s: %u allocation sites, %u values of N (%s) in %llu ms: the call failed %u times, absorbed the failure %u times\n",
		       o->name, hi - 1, steps,
		       stride > 1 ? "every N, then sampled" : "every N",
		       (unsigned long long)ms_since(&t0), failures, silent);
}

TEST_F_TIMEOUT(sweep, nth_allocation_fails_cleanly, 120)
{
	if (self->skip)
		SKIP(return, "setup skipped");
	sweep(_metadata, self, &variant->op, false);
}

TEST_F_TIMEOUT(sweep, every_allocation_fails_cleanly, 7200)
{
	if (self->skip)
		SKIP(return, "setup skipped");
	sweep(_metadata, self, &variant->op, true);
}

TEST_HARNESS_MAIN
