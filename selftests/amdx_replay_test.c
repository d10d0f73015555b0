// SPDX-License-Identifier: GPL-2.0
/*
 * Fault replay, step 1 (Documentation/replay.rst): the loss per fault
 * kind, measured through the real path under each recovery policy.
 *
 * A fleet of simulated MI300X hives (AMDX_REPLAY_HIVES or amdx.replay_hives,
 * default 2, at most 8, of AMDX_REPLAY_DEVS or amdx.replay_devs devices,
 * default 2, at most 8; hive 2N in SPX/NPS1, 2N+1 in CPX/NPS4).  For each
 * fault, every compute partition of the faulted hive holds a workload
 * process, its data (checksummed pages) migrated to that partition's
 * memory partition, and so does a sentinel partition of the next hive.  For
 * each policy (debugfs amdx/recovery_policy) a fresh fleet; for each hive
 * and fault kind, one fault on the hive's first device through the uapi
 * (AMDX_IOC_RAS_INJECT; for poison consumed, a poison the workload's
 * device then reads: rp_consume(); for "ue_not_consumed" the same poison,
 * unread: rp_poison()) or the simulator, for faults the RAS blocks do not
 * model: a hung queue, VF or firmware its own detection finds and reports
 * through the provider API (amdx_device_hang(): rp_hang()), a device
 * reset that fails (rp_reset_failed()), the board past its bad-page
 * threshold (rp_board()); the containment ladder acts, then the action left
 * pending runs (AMDX_IOC_RECOVERY_RUN, stopping holders, others allowed),
 * as an operator's automation would; node and rma, which amdx cannot
 * run, are taken from the plan.  Two more row kinds: "link", an
 * uncorrected error on the link between the hive's first two devices (the
 * simulator's link_fault), which amdx contains on the link and the
 * baselines take as the fabric fault amdgpu sees; and "switch", one
 * scale-up switch failing, an uncorrected error on every port of it, on a
 * fleet of its own (rp_pod_row(): the hive's devices as this host's part
 * of a pod of RP_POD_ACCS accelerators on RP_POD_PLANES planes).
 * Recorded per row: workload processes killed, processes alive whose
 * data no longer checksums, devices reset (DEVICE_RESET_BEGIN), partitions reset
 * (those devices' and PARTITION_QUARANTINED), the estimate of the action
 * (RECOVERY PENDING data[1], the provider's reset_ms figures) and how long
 * the run took here (under TCG: reported, never judged).  Each row is a
 * "# REPLAY {json}" line.  Each hive's first device carries SR-IOV VFs
 * (rp_vfs()), whose partitions' workloads run in the VF: a hung VF is
 * one of the faults.
 *
 * Fails when amdx's policy loses more processes, devices or partitions
 * than a baseline for any fault kind, or when a process that survived
 * under amdx lost its data (loss not reported).
 */
#include <signal.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

#define RP_NONE		0xffffffffU
#define RP_MAX_HIVES	8
#define RP_MAX_DEVS	8
#define RP_MAX_WORKERS	(RP_MAX_HIVES * RP_MAX_DEVS * AMDX_MAX_PARTITIONS)
#define RP_PAGES	2
#define RP_POLICIES	3
#define RP_POLICY_PATH	"/sys/kernel/debug/amdx/recovery_policy"

static const char * const rp_policy[RP_POLICIES] = {
	"amdx", "amdgpu-6.12", "per-gpu",
};

/*
 * The rows: every AMDX_FAULT_*, then a fabric link's uncorrected error,
 * then a scale-up switch's (every port of one plane's switch), then an
 * uncorrectable error in HBM that nothing consumed (rp_poison()).
 */
#define RP_LINK		AMDX_FAULT_COUNT
#define RP_SWITCH	(AMDX_FAULT_COUNT + 1)
#define RP_UE_IDLE	(AMDX_FAULT_COUNT + 2)
#define RP_KINDS	(AMDX_FAULT_COUNT + 3)
/* The switch row's pod: Helios-like, 72 accelerators on 4 planes. */
#define RP_POD_ACCS	72
#define RP_POD_PLANES	4

static const char * const rp_fault[RP_KINDS] = {
	"page_ce", "poison_consumed", "queue_hang", "engine_ue", "vf_hang",
	"device_ue", "firmware", "fabric", "reset_failed", "board", "link",
	"switch", "ue_not_consumed",
};

/* The order measured: node and rma last, nothing clears them. */
static const __u32 rp_order[RP_KINDS] = {
	AMDX_FAULT_PAGE_CE, RP_UE_IDLE, AMDX_FAULT_POISON_CONSUMED,
	AMDX_FAULT_QUEUE_HANG,
	AMDX_FAULT_ENGINE_UE, AMDX_FAULT_VF_HANG, AMDX_FAULT_DEVICE_UE,
	AMDX_FAULT_FIRMWARE, AMDX_FAULT_FABRIC, RP_LINK, RP_SWITCH,
	AMDX_FAULT_RESET_FAILED, AMDX_FAULT_BOARD,
};

struct rp_dev {
	unsigned int sim;
	__u32 id;
	int fd;
	int ev;
	__u32 nparts;
	__u32 mem[AMDX_MAX_PARTITIONS];
	__u32 vf[AMDX_MAX_PARTITIONS];
};

struct rp_worker {
	pid_t pid;
	unsigned int dev;
	__u32 part;
	__u32 seed;
	__u64 pfn;	/* its first page's VRAM page index */
	__u32 lost;	/* bit N: page N poisoned, as amdx recorded it */
};

/* One measured row. */
struct rp_loss {
	bool measured;
	bool ran;
	__u32 action;
	__u32 killed;
	__u32 corrupt;
	__u32 devices;
	__u32 partitions;
	__u32 est_ms;
	__u32 run_ms;
	__u32 workers;
	__u32 outside;
};

FIXTURE(rp) {
	int ctl;
	unsigned int hives;
	unsigned int per_hive;
	bool pod;	/* one hive, a scale-up pod's devices of this host */
	struct rp_dev d[RP_MAX_HIVES * RP_MAX_DEVS];
	unsigned int n;
	struct rp_worker w[RP_MAX_WORKERS];
	unsigned int nw;
	int ready[2];	/* the workloads' reports (struct rp_ready, results) */
	struct rp_loss loss[RP_POLICIES][RP_MAX_HIVES][RP_KINDS];
};

/*
 * A size of the fleet: environment @env, else amdx.@arg=N on the kernel
 * command line (make replay), else @def; @def when out of 1..@max.
 */
static unsigned int rp_param(const char *env, const char *arg,
			     unsigned int def, unsigned int max)
{
	char cmdline[1024] = "", key[48];
	const char *s = getenv(env), *p;
	unsigned int v = def;
	FILE *f;

	if (s) {
		v = strtoul(s, NULL, 10);
	} else {
		f = fopen("/proc/cmdline", "r");
		if (f) {
			if (!fgets(cmdline, sizeof(cmdline), f))
				cmdline[0] = '\0';
			fclose(f);
		}
		snprintf(key, sizeof(key), "amdx.%s=", arg);
		p = strstr(cmdline, key);
		if (p)
			v = strtoul(p + strlen(key), NULL, 10);
	}
	return v >= 1 && v <= max ? v : def;
}

/*
 * Whether this run measures the loss table: on 6.12 and later in make
 * check, on any kernel asked for a fleet explicitly (make replay's
 * amdx.replay_hives, or AMDX_REPLAY_HIVES).  The table does not depend on
 * the kernel: the paths it drives are the core's, the same on both (KUnit
 * amdx_recovery_policy checks the mapping and amdx_recovery_test the
 * recovery paths, stopping holders included, on both), so a second
 * measurement on 6.1 would add guest time and no coverage
 * (Documentation/testing.rst).
 */
static bool rp_measures_here(void)
{
	unsigned int major = 0, minor = 0;
	char cmdline[1024] = "";
	struct utsname u;
	FILE *f;

	if (getenv("AMDX_REPLAY_HIVES"))
		return true;
	f = fopen("/proc/cmdline", "r");
	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = '\0';
		fclose(f);
	}
	if (strstr(cmdline, "amdx.replay_hives="))
		return true;
	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return true;
	return major > 6 || (major == 6 && minor >= 12);
}

static int rp_policy_set(const char *name)
{
	return amdx_sysfs_write(RP_POLICY_PATH, name);
}

FIXTURE_SETUP(rp)
{
	self->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->ctl, 0);
	self->hives = rp_param("AMDX_REPLAY_HIVES", "replay_hives", 2,
			       RP_MAX_HIVES);
	self->per_hive = rp_param("AMDX_REPLAY_DEVS", "replay_devs", 2,
				  RP_MAX_DEVS);
	self->pod = false;
	self->n = 0;
	self->nw = 0;
	memset(self->loss, 0, sizeof(self->loss));
}

static void rp_fleet_del(FIXTURE_DATA(rp) *self)
{
	unsigned int i;

	for (i = 0; i < self->n; i++) {
		close(self->d[i].ev);
		close(self->d[i].fd);
		amdx_sim_del(self->d[i].sim);
	}
	self->n = 0;
}

FIXTURE_TEARDOWN(rp)
{
	rp_fleet_del(self);
	/* never leave a baseline in force */
	rp_policy_set("amdx");
	close(self->ctl);
}

static bool rp_cpx(unsigned int hive)
{
	return hive & 1;
}

/*
 * SR-IOV VFs on a hive's first device: in SPX one VF of the partition, in
 * CPX four of two partitions each, VF n holding partitions 2n and 2n + 1
 * and so memory partition n alone; each of AMDX_VF_VRAM_MIN.
 */
static int rp_vfs(int fd, bool cpx)
{
	struct amdx_vf_config cfg[4];
	struct amdx_vf_enable en = {
		.num_vfs = cpx ? 4 : 1, .flags = AMDX_VF_ENABLE_F_CUSTOM,
		.configs = (uintptr_t)cfg, .config_size = sizeof(cfg[0]),
	};
	unsigned int v;

	memset(cfg, 0, sizeof(cfg));
	for (v = 0; v < en.num_vfs; v++) {
		cfg[v].partition_mask = cpx ? 3U << (2 * v) : 1;
		cfg[v].time_slice_us = AMDX_VF_TIME_SLICE_DEFAULT_US;
		cfg[v].vram_quota = AMDX_VF_VRAM_MIN;
		cfg[v].priority = AMDX_VF_PRIO_NORMAL;
	}
	return amdx_ioctl(fd, AMDX_IOC_VF_ENABLE, &en);
}

/* Creates the fleet: every hive's devices, partitioned, subscribed. */
static void rp_fleet_new(struct __test_metadata *_metadata,
			 FIXTURE_DATA(rp) *self)
{
	struct amdx_partition_config c;
	char bdf[AMDX_BDF_LEN], params[96];
	union {
		struct amdx_query_partitions q;
		char buf[sizeof(struct amdx_query_partitions) +
			 AMDX_MAX_PARTITIONS *
			 sizeof(struct amdx_partition_info)];
	} l;
	unsigned int h, i, p;
	__u32 size;

	for (h = 0; h < self->hives; h++) {
		for (i = 0; i < self->per_hive; i++) {
			struct amdx_event_subscribe sub = {
				.mask = (1ULL << AMDX_EVENT_DEVICE_RESET_BEGIN) |
					(1ULL << AMDX_EVENT_PARTITION_QUARANTINED) |
					(1ULL << AMDX_EVENT_RECOVERY),
				.flags = AMDX_EVENT_F_NONBLOCK,
			};
			struct rp_dev *d = &self->d[self->n];

			d->sim = AMDX_SIM_ID_MOD(replay, self->n);
			amdx_sim_del(d->sim);
			/*
			 * Room for four VFs of AMDX_VF_VRAM_MIN (rp_vfs());
			 * a pod: domain 0 of RP_POD_ACCS accelerators in
			 * domains of this host's devices (rp_switch_fault()).
			 */
			snprintf(params, sizeof(params),
				 "model=mi300x hive=%x%s", 0x7e90 + h,
				 !i && rp_cpx(h) ? " vram=1024" : "");
			if (self->pod)
				snprintf(params + strlen(params),
					 sizeof(params) - strlen(params),
					 " pod=%u,%u,%u,0,%u",
					 RP_POD_ACCS / self->per_hive,
					 self->per_hive, RP_POD_PLANES, i);
			ASSERT_EQ(0, amdx_sim_new(d->sim, params));
			amdx_sim_bdf(d->sim, bdf, sizeof(bdf));
			ASSERT_EQ(0, amdx_find_device(self->ctl, bdf, &d->id));
			d->fd = amdx_device_open(self->ctl, d->id);
			ASSERT_GE(d->fd, 0);
			self->n++;
			c = (struct amdx_partition_config) {
				.compute_mode = rp_cpx(h) ? AMDX_COMPUTE_CPX :
							    AMDX_COMPUTE_SPX,
				.memory_mode = rp_cpx(h) ? AMDX_MEMORY_NPS4 :
							   AMDX_MEMORY_NPS1,
			};
			ASSERT_EQ(0, amdx_ioctl(d->fd, AMDX_IOC_PARTITION_COMMIT,
						&c));
			ASSERT_EQ(0, amdx_ioctl(d->fd, AMDX_IOC_EVENT_SUBSCRIBE,
						&sub));
			d->ev = sub.fd;
		}
		/*
		 * The VFs once the hive's memory mode is set: a hive-wide
		 * NPS switch refuses a device with VFs.
		 */
		ASSERT_EQ(0, rp_vfs(self->d[h * self->per_hive].fd, rp_cpx(h)));
	}
	for (i = 0; i < self->n; i++) {
		struct rp_dev *d = &self->d[i];

		size = sizeof(l);
		ASSERT_EQ(0, amdx_query(d->fd, AMDX_QUERY_PARTITIONS, 0,
					l.buf, &size));
		d->nparts = l.q.num_partitions;
		ASSERT_GE(d->nparts, 1);
		ASSERT_LE(d->nparts, AMDX_MAX_PARTITIONS);
		for (p = 0; p < d->nparts; p++) {
			d->mem[p] = l.q.partitions[p].mem_partition;
			d->vf[p] = l.q.partitions[p].vf;
		}
	}
}

static volatile sig_atomic_t rp_usr1, rp_usr2, rp_lost;

/* SIGUSR1 queued with a value: the pages not to read (rp_workers_end()). */
static void rp_on_signal(int sig, siginfo_t *si, void *uc)
{
	if (sig == SIGUSR1) {
		if (si->si_code == SI_QUEUE)
			rp_lost = si->si_value.sival_int;
		rp_usr1 = 1;
	} else {
		rp_usr2 = 1;
	}
}

/*
 * Whether the @len bytes at @buf hold amdx_fill()'s data of @seed but in
 * the pages of mask @skip, which are not read: a CPU read of a poisoned
 * page is SIGBUS (BUS_MCEERR_AR) for its owner, as it should be.
 */
static bool rp_intact(const __u32 *buf, size_t len, size_t ps, __u32 seed,
		      __u32 skip)
{
	unsigned long i;

	for (i = 0; i < len / sizeof(*buf); i++)
		if (!(skip & (1U << (i * sizeof(*buf) / ps))) &&
		    buf[i] != amdx_pattern(i, seed))
			return false;
	return true;
}

/* What a workload sends once set up: ready or not, its first page's VRAM. */
struct rp_ready {
	__u64 pfn;
	__u32 seed;
	char ok;
};

/*
 * A workload: RP_PAGES pages of data, seed @seed, migrated to memory
 * partition @mem of device @id, in VF @vf (a tenant of the VF: its fd is
 * the VF's) unless RP_NONE.  Sends a struct rp_ready on @ready.  On
 * SIGUSR2 its device reads its first page (the device's access: poison
 * there is consumed, -EIO) and it sends the ioctl's result on @ready; on
 * SIGUSR1 it exits 0 with its data intact, 3 without (but in the pages
 * the signal's value names: rp_intact()).
 */
static pid_t rp_worker(int ctl, __u32 id, __u32 vf, __u32 mem, __u32 seed,
		       int ready)
{
	struct amdx_device_open o = {
		.id = id, .flags = AMDX_DEVICE_OPEN_F_VF, .vf = vf,
	};
	size_t ps = sysconf(_SC_PAGESIZE), len = RP_PAGES * ps;
	struct amdx_hmm_attr a = {
		.valid = AMDX_HMM_ATTR_PREFERRED_LOC, .preferred_loc = mem,
	};
	struct amdx_hmm_migrate m = { .dest = mem };
	struct amdx_hmm_access rd = { .op = AMDX_HMM_ACCESS_READ, .size = ps };
	struct rp_ready r = { .pfn = ~0ULL, .seed = seed, .ok = 'n' };
	struct sigaction sa = {
		.sa_sigaction = rp_on_signal, .sa_flags = SA_SIGINFO,
	};
	sigset_t both, old;
	char *buf, *tmp;
	pid_t pid;
	int fd, ret;

	pid = fork();
	if (pid)
		return pid;
	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	sigprocmask(SIG_BLOCK, &both, &old);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	if (vf == RP_NONE)
		fd = amdx_device_open(ctl, id);
	else
		fd = amdx_ioctl(ctl, AMDX_IOC_DEVICE_OPEN, &o) ?: o.fd;
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tmp = malloc(ps);
	if (fd >= 0 && buf != MAP_FAILED && tmp) {
		amdx_fill(buf, len, seed);
		a.start = (uintptr_t)buf;
		a.size = len;
		m.start = a.start;
		m.size = len;
		if (!amdx_ioctl(fd, AMDX_IOC_HMM_SET_ATTR, &a) &&
		    !amdx_ioctl(fd, AMDX_IOC_HMM_MIGRATE, &m) &&
		    m.moved == RP_PAGES) {
			r.pfn = amdx_vram_pfn(fd, buf);
			r.ok = r.pfn != ~0ULL ? 'y' : 'n';
		}
	}
	if (write(ready, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	for (;;) {
		while (!rp_usr1 && !rp_usr2)
			sigsuspend(&old);
		if (!rp_usr2)
			break;
		rp_usr2 = 0;
		rd.addr = (uintptr_t)buf;
		rd.buf = (uintptr_t)tmp;
		ret = amdx_ioctl(fd, AMDX_IOC_HMM_ACCESS, &rd);
		if (write(ready, &ret, sizeof(ret)) != sizeof(ret))
			_exit(1);
	}
	_exit(rp_intact((__u32 *)buf, len, ps, seed, rp_lost) ? 0 : 3);
}

/*
 * One workload per compute partition of hive @h's devices, and one on
 * the first partition of the next hive's first device: a sentinel that a
 * fault below a node reboot must leave alone.
 */
static void rp_workers_start(struct __test_metadata *_metadata,
			     FIXTURE_DATA(rp) *self, unsigned int h)
{
	unsigned int i, p, np, first = h * self->per_hive;
	unsigned int sentinel = (h + 1) % self->hives * self->per_hive;
	struct rp_ready r;

	ASSERT_EQ(0, pipe(self->ready));
	self->nw = 0;
	for (i = 0; i < self->n; i++) {
		if (i >= first && i < first + self->per_hive)
			np = self->d[i].nparts;
		else
			np = i == sentinel ? 1 : 0;
		for (p = 0; p < np; p++) {
			struct rp_worker *w = &self->w[self->nw++];

			w->dev = i;
			w->part = p;
			w->lost = 0;
			w->seed = 0x5e00 + self->nw;
			w->pid = rp_worker(self->ctl, self->d[i].id,
					   self->d[i].vf[p], self->d[i].mem[p],
					   w->seed, self->ready[1]);
			ASSERT_GT(w->pid, 0);
		}
	}
	/* each report is one write, whole in the pipe; in any order */
	for (i = 0; i < self->nw; i++) {
		ASSERT_EQ(sizeof(r), read(self->ready[0], &r, sizeof(r)));
		ASSERT_EQ('y', r.ok);
		ASSERT_GE(r.seed, 0x5e01);
		ASSERT_LE(r.seed, 0x5e00 + self->nw);
		self->w[r.seed - 0x5e01].pfn = r.pfn;
	}
}

/* Ends every workload: counts those killed and those whose data changed. */
static void rp_workers_end(struct __test_metadata *_metadata,
			   FIXTURE_DATA(rp) *self, unsigned int h,
			   struct rp_loss *l)
{
	unsigned int i, first = h * self->per_hive;
	bool lost;
	int status;

	for (i = 0; i < self->nw; i++)
		sigqueue(self->w[i].pid, SIGUSR1,
			 (union sigval){ .sival_int = self->w[i].lost });
	for (i = 0; i < self->nw; i++) {
		ASSERT_EQ(self->w[i].pid, waitpid(self->w[i].pid, &status, 0));
		lost = WIFSIGNALED(status) || WEXITSTATUS(status);
		if (WIFSIGNALED(status))
			l->killed++;
		else if (WEXITSTATUS(status))
			l->corrupt++;
		if (lost && (self->w[i].dev < first ||
			     self->w[i].dev >= first + self->per_hive))
			l->outside++;
	}
	l->workers = self->nw;
	self->nw = 0;
	close(self->ready[0]);
	close(self->ready[1]);
}

/* The action a fault set (the ladder may have run it already) and its estimate. */
static void rp_pending(const struct amdx_event *e, struct rp_loss *l)
{
	__u32 action = AMDX_RECOVERY_SUM_ACTION(e->data[0]);

	if ((e->data[0] & AMDX_RECOVERY_SUM_VALID) && action > l->action)
		l->action = action;
	if (e->data[1] < 0xffffffffULL && e->data[1] > l->est_ms)
		l->est_ms = e->data[1];
}

/*
 * Reads every device's records: devices and partitions reset, and the
 * estimate of what is pending on the @ntargets devices from @target.
 */
static void rp_collect(struct __test_metadata *_metadata,
		       FIXTURE_DATA(rp) *self, unsigned int target,
		       unsigned int ntargets, __u64 *devs, __u8 *quar,
		       struct rp_loss *l)
{
	struct amdx_event evs[64];
	unsigned int i, j;
	ssize_t n;

	for (i = 0; i < self->n; i++) {
		for (;;) {
			n = read(self->d[i].ev, evs, sizeof(evs));
			if (n < 0) {
				ASSERT_EQ(EAGAIN, errno);
				break;
			}
			for (j = 0; j < n / sizeof(evs[0]); j++) {
				const struct amdx_event *e = &evs[j];

				if (e->kind == AMDX_EVENT_DEVICE_RESET_BEGIN)
					*devs |= e->data[0];
				else if (e->kind ==
					 AMDX_EVENT_PARTITION_QUARANTINED &&
					 e->partition < AMDX_MAX_PARTITIONS)
					quar[i] |= 1U << e->partition;
				else if (e->kind == AMDX_EVENT_RECOVERY &&
					 e->type == AMDX_RECOVERY_EV_PENDING &&
					 i >= target && i < target + ntargets)
					rp_pending(e, l);
			}
		}
	}
}

/* The workload of device @t's partition @part. */
static struct rp_worker *rp_worker_of(FIXTURE_DATA(rp) *self, unsigned int t,
				      __u32 part)
{
	unsigned int i;

	for (i = 0; i < self->nw; i++)
		if (self->w[i].dev == t && self->w[i].part == part)
			return &self->w[i];
	return NULL;
}

/*
 * A scale-up switch failing: an uncorrected error on every port of plane
 * 0's switch, each reported by the device of this host at its end, the
 * remote accelerators' by the pod's first device (the simulator's
 * link_fault, @FABRIC/PORT).  Fabric id = domain * per-domain + index;
 * this host is domain 0, its devices @t.. the first ids.
 */
static int rp_switch_fault(FIXTURE_DATA(rp) *self, unsigned int t)
{
	unsigned int f, accs = RP_POD_ACCS / self->per_hive * self->per_hive;
	char buf[48];
	int ret;

	for (f = 0; f < accs; f++) {
		snprintf(buf, sizeof(buf), "%u @%u/0 ue",
			 self->d[f < self->per_hive ? t + f : t].sim, f);
		ret = amdx_sysfs_write(AMDX_SIM_DEBUGFS "/link_fault", buf);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A CE storm crossing the page threshold: the device's ce_page_threshold
 * (AMDX_QUERY_RAS_POLICY) corrected errors at the first page of the
 * workload of device @t's partition @part, in one report.  The page is
 * soft-retired; its data, still good, must move off it intact.
 */
static int rp_ce_storm(FIXTURE_DATA(rp) *self, unsigned int t, __u32 part)
{
	struct rp_worker *w = rp_worker_of(self, t, part);
	struct amdx_ras_policy pol;
	__u32 size = sizeof(pol);
	int ret;

	if (!w)
		return -ENOENT;
	ret = amdx_query(self->d[t].fd, AMDX_QUERY_RAS_POLICY, 0, &pol, &size);
	if (ret)
		return ret;
	return amdx_ras_inject(self->d[t].fd, AMDX_RAS_BLOCK_UMC,
			       AMDX_RAS_TYPE_CE, 0, pol.ce_page_threshold,
			       w->pfn * sysconf(_SC_PAGESIZE));
}

/*
 * A hang the simulator detects (rp_inject()): hang knob @knob of device
 * @t set to @val, then the wait for its detection (the simulator's work,
 * one job timeout later) to set fault @kind's action on (@part, @vf).
 */
static int rp_hang(FIXTURE_DATA(rp) *self, unsigned int t, const char *knob,
		   __u32 val, __u32 kind, __u32 part, __u32 vf)
{
	struct amdx_recovery r;
	int ret;

	ret = amdx_sim_knob(self->d[t].sim, knob, val);
	return ret ?: amdx_recovery_wait(self->d[t].fd, part, vf, kind, &r);
}

/*
 * A device reset that fails: the firmware of device @t hangs
 * (rp_hang()), and the reset that action runs (stopping holders, others
 * allowed, as rp_run_pending() runs one) fails midway (the simulator's
 * fail_reset): the core reports reset_failed, whose node reboot is then
 * pending.  -EPROTO when the run did not fail so.
 */
static int rp_reset_failed(FIXTURE_DATA(rp) *self, unsigned int t)
{
	struct amdx_recovery r;
	int ret;

	ret = amdx_sim_knob(self->d[t].sim, "fail_reset", 1);
	if (!ret)
		ret = rp_hang(self, t, "hang_firmware", 1, AMDX_FAULT_FIRMWARE,
			      AMDX_RAS_PARTITION_ALL, RP_NONE);
	if (ret)
		return ret;
	memset(&r, 0, sizeof(r));
	r.partition = AMDX_RAS_PARTITION_ALL;
	r.vf = RP_NONE;
	r.action = AMDX_RECOVER_PENDING;
	r.flags = AMDX_RECOVERY_F_STOP | AMDX_RECOVERY_F_OTHERS;
	ret = amdx_ioctl(self->d[t].fd, AMDX_IOC_RECOVERY_RUN, &r);
	if (ret)
		return ret;
	if (r.outcome != AMDX_RECOVERY_OUT_FAILED)
		return -EPROTO;
	return amdx_recovery_wait(self->d[t].fd, AMDX_RAS_PARTITION_ALL,
				  RP_NONE, AMDX_FAULT_RESET_FAILED, &r);
}

/*
 * The board past its bad-page threshold: device @t's threshold lowered
 * to one page (AMDX_IOC_RAS_SET_POLICY), below the pages the rows before
 * retired on it (page_ce, ue_not_consumed, poison_consumed): the core
 * flags it for RMA.  -ENODATA when no RMA is pending after.
 */
static int rp_board(FIXTURE_DATA(rp) *self, unsigned int t)
{
	struct amdx_ras_policy p = {
		.valid = AMDX_RAS_POL_BAD_PAGE_THRESHOLD,
		.bad_page_threshold = 1,
	};
	struct amdx_recovery r = {
		.partition = AMDX_RAS_PARTITION_ALL,
		.vf = RP_NONE,
		.action = AMDX_RECOVER_PENDING,
	};
	int ret;

	ret = amdx_ioctl(self->d[t].fd, AMDX_IOC_RAS_SET_POLICY, &p);
	if (!ret)
		ret = amdx_ioctl(self->d[t].fd, AMDX_IOC_RECOVERY_PLAN, &r);
	if (!ret && (r.action != AMDX_RECOVER_RMA ||
		     r.fault != AMDX_FAULT_BOARD))
		ret = -ENODATA;
	return ret;
}

/* Reports fault @kind on device @t (partition @part) as the real path does. */
static int rp_inject(FIXTURE_DATA(rp) *self, unsigned int t, __u32 kind,
		     __u32 part)
{
	char buf[48];

	switch (kind) {
	case AMDX_FAULT_PAGE_CE:
		return rp_ce_storm(self, t, part);
	case AMDX_FAULT_ENGINE_UE:
		/* the XCC of partition @part (one per partition in CPX) */
		return amdx_ras_inject(self->d[t].fd, AMDX_RAS_BLOCK_GFX,
				       AMDX_RAS_TYPE_UE, part, 1, 0);
	case AMDX_FAULT_DEVICE_UE:
		return amdx_ras_inject(self->d[t].fd, AMDX_RAS_BLOCK_MMHUB,
				       AMDX_RAS_TYPE_UE, 0, 1, 0);
	case AMDX_FAULT_FABRIC:
		return amdx_ras_inject(self->d[t].fd, AMDX_RAS_BLOCK_XGMI_WAFL,
				       AMDX_RAS_TYPE_UE, 0, 1, 0);
	case RP_SWITCH:
		return rp_switch_fault(self, t);
	case RP_LINK:
		/* on the link to the hive's next device */
		snprintf(buf, sizeof(buf), "%u %u ue", self->d[t].sim,
			 self->d[t + 1].sim);
		return amdx_sysfs_write(AMDX_SIM_DEBUGFS "/link_fault", buf);
	case AMDX_FAULT_QUEUE_HANG:
		/* the queue on the partition's XCC (XCC 0: SPX's partition 0) */
		return rp_hang(self, t, "hang_queue", part, kind, part,
			       RP_NONE);
	case AMDX_FAULT_VF_HANG:
		/* the partition's VF stops answering */
		return rp_hang(self, t, "hang_vf", self->d[t].vf[part], kind,
			       AMDX_RAS_PARTITION_ALL, self->d[t].vf[part]);
	case AMDX_FAULT_FIRMWARE:
		return rp_hang(self, t, "hang_firmware", 1, kind,
			       AMDX_RAS_PARTITION_ALL, RP_NONE);
	case AMDX_FAULT_RESET_FAILED:
		return rp_reset_failed(self, t);
	case AMDX_FAULT_BOARD:
		return rp_board(self, t);
	default:
		return -EINVAL;
	}
}

/*
 * An uncorrectable error in HBM, as MI300's poison mode reports one: a
 * umc deferred error (a poison created) at the first page of the workload
 * of device @t's partition @part.  The core poison-retires the page; the
 * workload's pages amdx recorded as poisoned (its bad-page table: cause
 * DE) are those it does not read at its end.  Nothing reads the page:
 * the error is not consumed.
 */
static void rp_poison(struct __test_metadata *_metadata,
		      FIXTURE_DATA(rp) *self, unsigned int t, __u32 part)
{
	struct rp_worker *w = rp_worker_of(self, t, part);
	size_t ps = sysconf(_SC_PAGESIZE);
	struct amdx_badpage_header *h;
	struct amdx_badpage_record r;
	__u32 size = 0, i;

	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, amdx_ras_inject(self->d[t].fd, AMDX_RAS_BLOCK_UMC,
				     AMDX_RAS_TYPE_DE, 0, 1, w->pfn * ps));
	ASSERT_EQ(0, amdx_query(self->d[t].fd, AMDX_QUERY_BADPAGES, 0, NULL,
				&size));
	h = calloc(1, size);
	ASSERT_NE(NULL, h);
	ASSERT_EQ(0, amdx_query(self->d[t].fd, AMDX_QUERY_BADPAGES, 0, h,
				&size));
	for (i = 0; i < h->count &&
	     sizeof(*h) + (i + 1) * sizeof(r) <= size; i++) {
		memcpy(&r, (char *)(h + 1) + i * sizeof(r), sizeof(r));
		if (r.address == w->pfn * ps &&
		    r.cause == AMDX_BADPAGE_CAUSE_DE)
			w->lost |= 1;
	}
	free(h);
	EXPECT_EQ(1, w->lost);
}

/*
 * Poison a process consumes, through the real path: rp_poison(), then
 * that workload's device reads the page: the
 * device consumes the poison (AMDX_HMM_ACCESS fails -EIO,
 * amdx_ras_poison_consumed()) and the core sets the action a consumption
 * takes under the policy.  The consumer then dies whatever the policy,
 * as a process that read poison does (KFD signals it), before recovery
 * runs: its pages freed under a self-test would read as a leak (waited
 * for, not reaped: rp_workers_end() counts it).
 */
static void rp_consume(struct __test_metadata *_metadata,
		       FIXTURE_DATA(rp) *self, unsigned int t, __u32 part)
{
	struct rp_worker *w = rp_worker_of(self, t, part);
	siginfo_t si = {};
	int ret = 0;

	ASSERT_NE(NULL, w);
	rp_poison(_metadata, self, t, part);
	ASSERT_EQ(0, kill(w->pid, SIGUSR2));
	ASSERT_EQ(sizeof(ret), read(self->ready[0], &ret, sizeof(ret)));
	ASSERT_EQ(-EIO, ret);
	ASSERT_EQ(0, kill(w->pid, SIGKILL));
	ASSERT_EQ(0, waitid(P_PID, w->pid, &si, WEXITED | WNOWAIT));
}

static unsigned int rp_id_index(FIXTURE_DATA(rp) *self, __u32 id)
{
	unsigned int i;

	for (i = 0; i < self->n; i++)
		if (self->d[i].id == id)
			return i;
	return self->n;
}

static const char *rp_action(__u32 action)
{
	static const char * const name[AMDX_RECOVER_COUNT] = {
		"none", "process", "queue", "pipe", "partition", "vf",
		"device", "hive", "node", "rma",
	};

	return action < AMDX_RECOVER_COUNT ? name[action] : "?";
}

/*
 * Where a consumption, or a poison nothing consumed, on device @d's
 * partition @part leaves its action:
 * that partition when it alone uses the poisoned memory partition, else
 * the device (amdx_partition_of_vram(): the core cannot tell which of the
 * partitions sharing the memory read it, and names the consumer instead).
 */
static __u32 rp_consumed_at(const struct rp_dev *d, __u32 part)
{
	unsigned int p, n = 0;

	for (p = 0; p < d->nparts; p++)
		n += d->mem[p] == d->mem[part];
	return n == 1 ? part : AMDX_RAS_PARTITION_ALL;
}

/*
 * The action pending on device @u after fault @kind (partition @part) of
 * hive @h: planned, and run as an operator's automation would (node and
 * rma, which amdx cannot run, by their plan's scope); what it reset into
 * @devs and @quar, the action and the run into @l.
 */
static void rp_run_pending(struct __test_metadata *_metadata,
			   FIXTURE_DATA(rp) *self, unsigned int h,
			   unsigned int u, __u32 kind, __u32 part,
			   struct rp_loss *l, __u64 *devs, __u8 *quar)
{
	struct amdx_recovery_process stopped[RP_MAX_WORKERS];
	struct timespec t0, t1;
	struct amdx_recovery r;
	unsigned int i;
	int ret;

	memset(&r, 0, sizeof(r));
	if (kind == AMDX_FAULT_POISON_CONSUMED || kind == RP_UE_IDLE)
		r.partition = rp_consumed_at(&self->d[u], part);
	else if (kind == AMDX_FAULT_QUEUE_HANG || kind == AMDX_FAULT_ENGINE_UE)
		r.partition = part;
	else
		r.partition = AMDX_RAS_PARTITION_ALL;
	/* a hung VF: that of the partition */
	r.vf = kind == AMDX_FAULT_VF_HANG ? self->d[u].vf[part] : RP_NONE;
	r.action = AMDX_RECOVER_PENDING;
	ASSERT_EQ(0, amdx_ioctl(self->d[u].fd, AMDX_IOC_RECOVERY_PLAN, &r));
	if (r.action > l->action)
		l->action = r.action;
	if (r.action >= AMDX_RECOVER_NODE) {
		/* amdx cannot run these: the plan's scope is the loss */
		*devs |= r.devices;
		for (i = 0; i < self->nw; i++)
			if (r.devices & (1ULL << self->d[self->w[i].dev].id))
				kill(self->w[i].pid, SIGKILL);
	} else if (r.action != AMDX_RECOVER_NONE) {
		r.flags = AMDX_RECOVERY_F_STOP | AMDX_RECOVERY_F_OTHERS;
		r.action = AMDX_RECOVER_PENDING;
		r.num_listed = RP_MAX_WORKERS;
		r.processes = (uintptr_t)stopped;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		ret = amdx_ioctl(self->d[u].fd, AMDX_IOC_RECOVERY_RUN, &r);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ASSERT_EQ(0, ret);
		/* how long the run took here (under TCG): reported, not judged */
		l->run_ms = (t1.tv_sec - t0.tv_sec) * 1000 +
			    (t1.tv_nsec - t0.tv_nsec) / 1000000;
		EXPECT_EQ(AMDX_RECOVERY_OUT_CLEARED, r.outcome) {
			TH_LOG("%s, hive %u: %s ran: outcome %u error %d state %u",
			       rp_fault[kind], h, rp_action(r.action),
			       r.outcome, (int)r.error, r.state);
		}
		/*
		 * The run returns once the processes it stopped are gone: a
		 * reset and a self-test under a dying holder's pages saw
		 * them freed midway (the self-test's count moved: ESCALATED).
		 */
		for (i = 0; i < r.num_listed; i++) {
			siginfo_t si = {};

			EXPECT_EQ(0, waitid(P_PID, stopped[i].pid, &si,
					    WEXITED | WNOHANG | WNOWAIT));
			EXPECT_EQ((pid_t)stopped[i].pid, si.si_pid) {
				TH_LOG("%s: RUN returned before stopped %u exited",
				       rp_fault[kind], stopped[i].pid);
			}
		}
		l->ran = true;
		*devs |= r.devices;
		for (i = 0; i < self->n; i++)
			if (r.partitions[self->d[i].id])
				quar[i] |= r.partitions[self->d[i].id];
	}
}

/* Fault @kind on hive @h's first device; the loss into @l. */
static void rp_measure(struct __test_metadata *_metadata,
		       FIXTURE_DATA(rp) *self, unsigned int h, __u32 kind,
		       struct rp_loss *l)
{
	unsigned int t = h * self->per_hive, i, u;
	/* a link's end may leave the peer a rung: every device of the hive */
	unsigned int ntargets = kind == RP_LINK || kind == RP_SWITCH ?
				self->per_hive : 1;
	__u32 part = self->d[t].nparts > 1 ? 1 : 0;
	__u8 quar[RP_MAX_HIVES * RP_MAX_DEVS] = {};
	__u64 devs = 0;

	memset(l, 0, sizeof(*l));
	if (kind == RP_LINK && self->per_hive < 2)
		return;		/* no link in a hive of one */
	rp_collect(_metadata, self, t, ntargets, &devs, quar, l);
	devs = 0;
	memset(quar, 0, sizeof(quar));
	memset(l, 0, sizeof(*l));
	rp_workers_start(_metadata, self, h);

	if (kind == AMDX_FAULT_POISON_CONSUMED)
		rp_consume(_metadata, self, t, part);
	else if (kind == RP_UE_IDLE)
		rp_poison(_metadata, self, t, part);
	else
		ASSERT_EQ(0, rp_inject(self, t, kind, part));

	for (u = t; u < t + ntargets; u++)
		rp_run_pending(_metadata, self, h, u, kind, part, l, &devs,
			       quar);
	rp_collect(_metadata, self, t, ntargets, &devs, quar, l);
	rp_workers_end(_metadata, self, h, l);
	/* below a node reboot, nothing outside the hive is touched */
	if (l->action < AMDX_RECOVER_NODE)
		EXPECT_EQ(0, l->outside);
	for (i = 0; i < self->n; i++) {
		if (devs & (1ULL << self->d[i].id)) {
			l->devices++;
			l->partitions += self->d[i].nparts;
		} else {
			l->partitions += __builtin_popcount(quar[i]);
		}
	}
	/* a reset device outside the fleet would be a bug of its own */
	for (i = 0; i < 64; i++)
		if (devs & (1ULL << i))
			EXPECT_LT(rp_id_index(self, i), self->n);
	l->measured = true;
}

static void rp_print(FIXTURE_DATA(rp) *self, unsigned int pol, unsigned int h,
		     __u32 kind, const struct rp_loss *l)
{
	printf("# REPLAY {\"policy\": \"%s\", \"layout\": \"%s\", \"hive_devices\": %u, \"partitions_per_device\": %u, \"fault\": \"%s\", \"action\": %u, \"ran\": %s, \"workers\": %u, \"processes_lost\": %u, \"data_lost_unreported\": %u, \"devices_reset\": %u, \"partitions_reset\": %u, \"est_ms\": %u, \"run_ms\": %u}\n",
	       rp_policy[pol], rp_cpx(h) ? "CPX/NPS4" : "SPX/NPS1",
	       self->per_hive, self->d[h * self->per_hive].nparts, rp_fault[kind], l->action,
	       l->ran ? "true" : "false", l->workers, l->killed, l->corrupt,
	       l->devices, l->partitions, l->est_ms, l->run_ms);
	fflush(stdout);
}

/*
 * The switch row under policy @pol, on a fleet of its own: one hive of
 * the same number of devices in SPX/NPS1, this host's part of a scale-up
 * pod (MI300X has no switch: the row stands for the MI400-class pods of
 * Documentation/fabric.rst), measured as the hive rows are.
 */
static void rp_pod_row(struct __test_metadata *_metadata,
		       FIXTURE_DATA(rp) *self, unsigned int pol)
{
	struct rp_loss *l = &self->loss[pol][0][RP_SWITCH];
	unsigned int hives = self->hives;

	self->hives = 1;
	self->pod = true;
	rp_fleet_new(_metadata, self);
	rp_measure(_metadata, self, 0, RP_SWITCH, l);
	rp_print(self, pol, 0, RP_SWITCH, l);
	rp_fleet_del(self);
	self->pod = false;
	self->hives = hives;
}

TEST_F_TIMEOUT(rp, loss_per_fault_kind_per_policy, 3600)
{
	unsigned int pol, h, i, k;

	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE))
		SKIP(return, "no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)");
	if (amdx_provider_is_amdgpu())
		SKIP(return, "simulated fleets only");
	if (!rp_measures_here())
		SKIP(return, "the loss table is measured on 6.12 (make replay: any kernel)");
	for (pol = 0; pol < RP_POLICIES; pol++) {
		ASSERT_EQ(0, rp_policy_set(rp_policy[pol]));
		rp_fleet_new(_metadata, self);
		for (h = 0; h < self->hives; h++) {
			for (i = 0; i < RP_KINDS; i++) {
				k = rp_order[i];
				if (k == RP_SWITCH)
					continue;
				rp_measure(_metadata, self, h, k,
					   &self->loss[pol][h][k]);
				if (self->loss[pol][h][k].measured)
					rp_print(self, pol, h, k,
						 &self->loss[pol][h][k]);
			}
		}
		rp_fleet_del(self);
		rp_pod_row(_metadata, self, pol);
	}
	ASSERT_EQ(0, rp_policy_set("amdx"));

	for (h = 0; h < self->hives; h++) {
		for (k = 0; k < RP_KINDS; k++) {
			const struct rp_loss *a = &self->loss[0][h][k];

			if (!a->measured)
				continue;
			EXPECT_EQ(0, a->corrupt) {
				TH_LOG("%s: amdx lost the data of %u processes it left running",
				       rp_fault[k], a->corrupt);
			}
			for (pol = 1; pol < RP_POLICIES; pol++) {
				const struct rp_loss *b = &self->loss[pol][h][k];

				EXPECT_LE(a->killed, b->killed) {
					TH_LOG("%s hive %u: amdx killed %u, %s %u",
					       rp_fault[k], h, a->killed,
					       rp_policy[pol], b->killed);
				}
				EXPECT_LE(a->devices, b->devices);
				EXPECT_LE(a->partitions, b->partitions);
			}
		}
	}
}

/* The action pending on device @t, as RECOVERY_PLAN says. */
static __u32 rp_pending_action(struct __test_metadata *_metadata,
			       FIXTURE_DATA(rp) *self, unsigned int t)
{
	struct amdx_recovery r = {
		.partition = AMDX_RAS_PARTITION_ALL,
		.vf = RP_NONE,
		.action = AMDX_RECOVER_PENDING,
	};

	EXPECT_EQ(0, amdx_ioctl(self->d[t].fd, AMDX_IOC_RECOVERY_PLAN, &r));
	return r.action;
}

/*
 * A fabric link's uncorrected error, in a hive of two: under amdx the
 * link's containment is the answer: nothing pending on the reporting
 * device, the device rung on the peer it parked (the only link gone, no
 * route is left; the lower device keeps its place).  Under each baseline
 * it is also the fabric fault amdgpu sees in its xgmi_wafl block: the
 * hive pending on the reporting device.  A fresh hive per policy.
 */
TEST_F(rp, link_ue_is_a_fabric_fault_only_under_baselines)
{
	unsigned int pol;

	if (amdx_provider_is_amdgpu())
		SKIP(return, "simulated fleets only");
	self->hives = 1;
	self->per_hive = 2;
	for (pol = 0; pol < RP_POLICIES; pol++) {
		ASSERT_EQ(0, rp_policy_set(rp_policy[pol]));
		rp_fleet_new(_metadata, self);
		ASSERT_EQ(0, rp_inject(self, 0, RP_LINK, 0));
		EXPECT_EQ(pol ? AMDX_RECOVER_HIVE : AMDX_RECOVER_NONE,
			  rp_pending_action(_metadata, self, 0)) {
			TH_LOG("%s", rp_policy[pol]);
		}
		if (!pol)
			EXPECT_EQ(AMDX_RECOVER_DEVICE,
				  rp_pending_action(_metadata, self, 1));
		rp_fleet_del(self);
	}
}

/*
 * A scale-up switch failing (rp_switch_fault(): an uncorrected error on
 * every port of plane 0's switch), in this host's part of a pod, two
 * devices: under amdx the other planes carry everything, nothing is
 * pending anywhere; under each baseline every device of this host took
 * the error on its own link, the fabric fault amdgpu sees, so the hive is
 * pending on each.  A fresh pod per policy.
 */
TEST_F(rp, switch_ue_is_a_fabric_fault_only_under_baselines)
{
	unsigned int pol, u;

	if (amdx_provider_is_amdgpu())
		SKIP(return, "simulated fleets only");
	self->hives = 1;
	self->per_hive = 2;
	self->pod = true;
	for (pol = 0; pol < RP_POLICIES; pol++) {
		ASSERT_EQ(0, rp_policy_set(rp_policy[pol]));
		rp_fleet_new(_metadata, self);
		ASSERT_EQ(0, rp_inject(self, 0, RP_SWITCH, 0));
		for (u = 0; u < self->n; u++)
			EXPECT_EQ(pol ? AMDX_RECOVER_HIVE : AMDX_RECOVER_NONE,
				  rp_pending_action(_metadata, self, u)) {
				TH_LOG("%s, device %u", rp_policy[pol], u);
			}
		rp_fleet_del(self);
	}
}

/* The action pending on device @t's partition @part, as RECOVERY_PLAN says. */
static void rp_plan_part(struct __test_metadata *_metadata,
			 FIXTURE_DATA(rp) *self, unsigned int t, __u32 part,
			 struct amdx_recovery *r)
{
	memset(r, 0, sizeof(*r));
	r->partition = part;
	r->vf = RP_NONE;
	r->action = AMDX_RECOVER_PENDING;
	ASSERT_EQ(0, amdx_ioctl(self->d[t].fd, AMDX_IOC_RECOVERY_PLAN, r));
}

/*
 * For each policy, on a fresh hive of two in SPX: poison at device 0's
 * first workload (partition 0), read by its device for
 * AMDX_FAULT_POISON_CONSUMED (rp_consume()), unread for RP_UE_IDLE
 * (rp_poison()); the action pending there must be @want's; the plan into
 * @r[policy]; then that runs and the workloads end (the loss into the
 * row of @kind), and what is still pending there goes into @after[policy].
 */
static void rp_poison_rows(struct __test_metadata *_metadata,
			   FIXTURE_DATA(rp) *self, __u32 kind,
			   const __u32 *want, struct amdx_recovery *r,
			   __u32 *after)
{
	__u8 quar[RP_MAX_HIVES * RP_MAX_DEVS];
	struct amdx_recovery p;
	unsigned int pol;
	__u64 devs;

	self->hives = 1;
	self->per_hive = 2;
	for (pol = 0; pol < RP_POLICIES; pol++) {
		ASSERT_EQ(0, rp_policy_set(rp_policy[pol]));
		rp_fleet_new(_metadata, self);
		rp_workers_start(_metadata, self, 0);
		if (kind == AMDX_FAULT_POISON_CONSUMED)
			rp_consume(_metadata, self, 0, 0);
		else
			rp_poison(_metadata, self, 0, 0);
		rp_plan_part(_metadata, self, 0, 0, &r[pol]);
		EXPECT_EQ(want[pol], r[pol].action) {
			TH_LOG("%s: %s pending", rp_policy[pol],
			       rp_action(r[pol].action));
		}
		devs = 0;
		memset(quar, 0, sizeof(quar));
		rp_run_pending(_metadata, self, 0, 0, kind, 0,
			       &self->loss[pol][0][kind], &devs, quar);
		rp_workers_end(_metadata, self, 0, &self->loss[pol][0][kind]);
		rp_plan_part(_metadata, self, 0, 0, &p);
		after[pol] = p.action;
		rp_fleet_del(self);
	}
}

/*
 * Poison consumed through the real path (rp_consume()) sets the action
 * of the policy in force: under amdx the process action of the
 * consumer's partition, under amdgpu-6.12 amdgpu's GPU reset (the hive),
 * under per-gpu the device, which the poison's creation set already (an
 * uncorrectable error: ue_not_consumed_sets_the_policys_action), so the
 * fault named is that page_ce.  A fresh hive per policy.
 */
TEST_F(rp, consumption_sets_the_policys_action)
{
	static const __u32 want[RP_POLICIES] = {
		AMDX_RECOVER_PROCESS, AMDX_RECOVER_HIVE, AMDX_RECOVER_DEVICE,
	};
	static const __u32 fault[RP_POLICIES] = {
		AMDX_FAULT_POISON_CONSUMED, AMDX_FAULT_POISON_CONSUMED,
		AMDX_FAULT_PAGE_CE,
	};
	struct amdx_recovery r[RP_POLICIES];
	__u32 after[RP_POLICIES];
	unsigned int pol;

	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE))
		SKIP(return, "no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)");
	if (amdx_provider_is_amdgpu())
		SKIP(return, "simulated fleets only");
	rp_poison_rows(_metadata, self, AMDX_FAULT_POISON_CONSUMED, want, r,
		       after);
	for (pol = 0; pol < RP_POLICIES; pol++)
		EXPECT_EQ(fault[pol], r[pol].fault);
}

/*
 * An uncorrectable error in HBM that nothing consumed (rp_poison(): a umc
 * deferred error at a workload's page, no read) sets the action of the
 * policy in force: nothing under amdx and amdgpu-6.12 (the page is
 * poison-retired, no more), the device under per-gpu (NVML's row remap
 * pending after an uncorrectable memory error: reset that GPU).  What is
 * pending runs and leaves nothing for the next fault; every workload
 * alive has its data but in the poisoned page, and none is stopped where
 * nothing is reset.  A fresh hive per policy.
 */
TEST_F(rp, ue_not_consumed_sets_the_policys_action)
{
	static const __u32 want[RP_POLICIES] = {
		AMDX_RECOVER_NONE, AMDX_RECOVER_NONE, AMDX_RECOVER_DEVICE,
	};
	struct amdx_recovery r[RP_POLICIES];
	__u32 after[RP_POLICIES];
	const struct rp_loss *l;
	unsigned int pol;

	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE))
		SKIP(return, "no AMDX_CAP_HMM_MIGRATE (kernel without DEVICE_PRIVATE)");
	if (amdx_provider_is_amdgpu())
		SKIP(return, "simulated fleets only");
	rp_poison_rows(_metadata, self, RP_UE_IDLE, want, r, after);
	for (pol = 0; pol < RP_POLICIES; pol++) {
		l = &self->loss[pol][0][RP_UE_IDLE];
		if (r[pol].action != AMDX_RECOVER_NONE)
			EXPECT_EQ(AMDX_FAULT_PAGE_CE, r[pol].fault);
		EXPECT_EQ(AMDX_RECOVER_NONE, after[pol]) {
			TH_LOG("%s: %s left for the next fault",
			       rp_policy[pol], rp_action(after[pol]));
		}
		EXPECT_EQ(0, l->corrupt);
		if (want[pol] == AMDX_RECOVER_NONE)
			EXPECT_EQ(0, l->killed);
	}
}

/* Only root writes the policy; unknown names are refused. */
TEST_F(rp, policy_switch_refuses_bad_names)
{
	char buf[64] = "";
	int fd, status;
	pid_t pid;

	EXPECT_EQ(-EINVAL, rp_policy_set("amdgpu-5.0"));
	EXPECT_EQ(-EINVAL, rp_policy_set("amdx amdgpu"));
	ASSERT_EQ(0, rp_policy_set("per-gpu"));
	fd = open(RP_POLICY_PATH, O_RDONLY);
	ASSERT_GE(fd, 0);
	ASSERT_GT(read(fd, buf, sizeof(buf) - 1), 0);
	close(fd);
	EXPECT_STREQ("amdx amdgpu-6.12 [per-gpu]\n", buf);
	ASSERT_EQ(0, rp_policy_set("amdx\n"));

	/* a user without privilege cannot change it */
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(2);
		_exit(rp_policy_set("per-gpu") == -EACCES ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	fd = open(RP_POLICY_PATH, O_RDONLY);
	ASSERT_GE(fd, 0);
	memset(buf, 0, sizeof(buf));
	ASSERT_GT(read(fd, buf, sizeof(buf) - 1), 0);
	close(fd);
	EXPECT_STREQ("[amdx] amdgpu-6.12 per-gpu\n", buf);
}

TEST_HARNESS_MAIN
