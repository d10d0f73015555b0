// SPDX-License-Identifier: GPL-2.0
/*
 * amdx_fuzz: a structure-aware fuzzer of the amdx ioctl uapi.
 *
 * The argument layouts, the role of every member and the constants each
 * member's documentation names come from uapi/linux/amdx.h through the
 * generated tables (gen_uapi.py).  Every call builds an argument by one of
 * a few strategies -- a valid request with a few members mutated, every
 * member from its dictionary or a boundary, random bytes -- at the
 * command's size or shorter or longer, behind a pointer that is good,
 * NULL, unmapped, a kernel address, misaligned, partly mapped, read-only
 * or backed by a userfaultfd page whose fault handler stalls (also every
 * result buffer now and then: a stalled copy-out).  Several threads run
 * as root, one process each as uids 1000 and 1002 (group render: the
 * per-user caps of two users meet), a thread now and then pins, migrates,
 * forks and unmaps in the parent (fork_pin()), while a
 * churn thread creates and removes simulated devices and, with --rmmod,
 * unloads and reloads amdx_sim.
 *
 * The kernel is the oracle (KASAN, lockdep, WARN, kmemleak: the rig
 * scans the console); the fuzzer itself fails on an errno no amdx path
 * returns, on a privileged command succeeding for uid 1000, on a thread
 * that stops making progress (no call finished for 60 s), and on a part
 * of the uapi it never reached (an ioctl never issued, a kind of fd
 * never opened or used, an errno class every run meets never seen).
 * How many calls a second the host manages decides how long the run
 * takes, never its verdict.  Output is KTAP with the counts per ioctl and
 * per errno, and a progress line every 20,000 calls (the rig stops a
 * silent test).
 *
 * usage: amdx_fuzz_test [-n CALLS] [-t SECONDS] [-j THREADS] [-s SEED]
 *                      [-x IOCTL]... [--rmmod] [--no-churn] [--no-unpriv]
 * Defaults: 40000 calls however long they take (-t S: stop after S
 * seconds too), 3 threads.  The guest's kernel command line may set
 * amdx.fuzz_seconds=S (make fuzz): then the fuzzer runs for S seconds
 * with --rmmod, whatever the call count.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "amdx_fuzz.h"
#include "../lib/amdx_sim_ids.h"

#define PAGE		4096UL
#define MAX_THREADS	16
#define ERRNO_MAX	256
#define ARENA		(64UL << 10)	/* argument arena per thread */
#define HMM_PAGES	256		/* HMM region per thread: 1 MiB */
#define SPARSE_SIZE	(1UL << 30)	/* a 1 GiB PROT_READ reservation */
#define MAX_DEVFDS	6
#define MAX_EVFDS	4
/* The fuzzer's simulated devices: its block of lib/amdx_sim_ids.def. */
#define SIM_BASE	AMDX_SIM_ID(fuzz, 0)
#define SIM_STABLE	3		/* SIM_BASE + 0..2 live the whole run */
#define SIM_CHURN	AMDX_SIM_ID(fuzz, 3)	/* created and removed all the time */
#define UNPRIV_UID	1000
#define UNPRIV_UID2	1002		/* a second render user: per-user caps */
#define RENDER_GID	105

/* Row per ioctl of the table, then these pseudo-commands. */
enum {
	OP_MALFORMED = 0,	/* unknown number, wrong direction */
	OP_READ,		/* read() of an event fd */
	OP_POLL,
	OP_FDINFO,
	OP_OPEN_CTL,
	OP_CLOSE,
	OP_NEW_DEVICE,		/* churn: sysfs new_device */
	OP_DEL_DEVICE,
	OP_RMMOD,
	OP_INSMOD,
	OP_FORK_PIN,		/* pin, migrate, fork, munmap in the parent */
	NR_PSEUDO,
};

static const char *const pseudo_names[NR_PSEUDO] = {
	"malformed", "read(event)", "poll(event)", "fdinfo", "open(/dev/amdx)",
	"close", "sysfs new_device", "sysfs del_device", "rmmod amdx_sim",
	"insmod amdx_sim", "fork+munmap+pin",
};

#define NR_ROWS		(32 + NR_PSEUDO)

/* Counters shared with the unprivileged child (MAP_SHARED). */
#define CANARY	0xc3c3c3c3c3c3c3c3ULL

struct stats {
	uint64_t canary_head[8];
	atomic_ulong calls;
	atomic_ulong calls_unpriv;
	atomic_ulong by_errno[NR_ROWS][ERRNO_MAX];	/* [row][0] = success */
	atomic_ulong max_ns[NR_ROWS];
	atomic_ulong uffd_faults;
	atomic_ulong bad_errno;
	atomic_ulong priv_escapes;
	atomic_int stop;
	char first_bad[256];
	atomic_int first_bad_set;
	atomic_int corrupted;
	uint64_t canary_tail[8];
};

/* A private page the fuzzer never writes after setup, and one it never
 * writes at all (reads as the zero page). */
static uint64_t *canary_page, *zero_page;

static struct stats *st;
static unsigned long opt_calls = 40000;
static unsigned int opt_seconds;	/* 0: no time limit */
static unsigned int opt_threads = 3;
static unsigned long long opt_seed;
static bool opt_rmmod, opt_churn = true, opt_unpriv = true;
static bool fixed_duration;
static const char *excluded[16];	/* -x NAME: never issue that ioctl */
static unsigned int nexcluded;
/* AMDX_FUZZ_CTL=/dev/null runs the fuzzer's own code without amdx. */
static const char *ctl_path = "/dev/amdx";

/* errnos some amdx path returns (drivers/amdx, drivers/amdx_sim). */
static const int documented[] = {
	EINVAL, ENOMEM, ENOSPC, ENODEV, EFAULT, EBUSY, EOPNOTSUPP, EIO,
	EDQUOT, ENOENT, EINTR, EPERM, EBADMSG, E2BIG, EBADF, ENOTTY, EMFILE,
	EACCES, ETIMEDOUT, EEXIST, EAGAIN, ENOLINK,
};

/* Commands only CAP_SYS_ADMIN may run (uapi.rst: changes need it). */
static const char *const admin_only[] = {
	"PARTITION_COMMIT", "VF_ENABLE", "VF_DISABLE", "VF_SET", "VF_RESET",
	"RAS_INJECT", "RAS_SET_POLICY", "RAS_BADPAGES_IMPORT",
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* xorshift64* */
struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 2685821657736338717ULL;
}

static uint64_t below(struct rng *r, uint64_t n)
{
	return n ? rnd(r) % n : 0;
}

static bool chance(struct rng *r, unsigned int percent)
{
	return below(r, 100) < percent;
}

/* ---- memory the pointers point to ------------------------------------ */

static char *unmapped;		/* 64 KiB nothing is mapped at, ever */
static char *partial;		/* page 0 rw, page 1 PROT_NONE */
static char *rdonly;		/* one PROT_READ page */
static char *sparse;		/* SPARSE_SIZE, PROT_READ, never touched */
static char *uffd_area;		/* one page per thread, userfaultfd MISSING */
static char *uffd_stage;	/* what each thread's page fills with */
static int uffd = -1;

static const uint64_t kernel_ptrs[] = {
	0xffff888000000000ULL, 0xffffffff81000000ULL, 0xffffffffff600000ULL,
	0xfffffffffffff000ULL, 0x0000800000000000ULL /* non-canonical */,
	0x00007ffffffff000ULL, 0x1000, 1,
};

static void *uffd_handler(void *arg)
{
	struct rng r = { .s = opt_seed ^ 0x5eed };
	struct uffd_msg msg;
	struct pollfd p = { .fd = uffd, .events = POLLIN };

	(void)arg;
	for (;;) {
		if (poll(&p, 1, 200) <= 0)
			continue;
		if (read(uffd, &msg, sizeof(msg)) != sizeof(msg))
			continue;
		if (msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		uint64_t addr = msg.arg.pagefault.address & ~(PAGE - 1);
		uint64_t slot = (addr - (uint64_t)uffd_area) / PAGE;
		/* Stall: mostly short, sometimes long enough to race removal. */
		unsigned int us = chance(&r, 90) ? below(&r, 2000) :
						   below(&r, 200000);

		atomic_fetch_add(&st->uffd_faults, 1);
		usleep(us);
		struct uffdio_copy c = {
			.dst = addr,
			.src = (uint64_t)(uffd_stage + slot * PAGE),
			.len = PAGE,
		};
		if (ioctl(uffd, UFFDIO_COPY, &c) && errno != EEXIST) {
			struct uffdio_range wr = { .start = addr, .len = PAGE };

			ioctl(uffd, UFFDIO_WAKE, &wr);
		}
	}
	return NULL;
}

/*
 * @len bytes followed by a PROT_NONE page: whatever the kernel writes past
 * a buffer the fuzzer handed it (a size larger than the buffer) faults
 * there instead of overwriting the fuzzer.
 */
static char *guarded(size_t len)
{
	char *p = mmap(NULL, len + PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	mprotect(p + len, PAGE, PROT_NONE);
	return p;
}

/* The shared counters, with a PROT_NONE page on either side. */
static void *shared_guarded(size_t len)
{
	size_t n = (len + PAGE - 1) & ~(PAGE - 1);
	char *p = mmap(NULL, n + 2 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	mprotect(p, PAGE, PROT_NONE);
	mprotect(p + PAGE + n, PAGE, PROT_NONE);
	return p + PAGE;
}

/*
 * An address range nothing will ever be mapped at: far below where mmap()
 * places anything (top down from below the stack) and far above the brk
 * heap of this static binary.  A hole left by munmap() would not do: the
 * next mapping of that size or smaller fills it, and a "bad" pointer into
 * it would then point at the fuzzer's own memory (the shared counters:
 * the kernel would rightly write there).
 */
#define UNMAPPED_ADDR	0x200000000UL	/* 8 GiB */

static bool is_unmapped(void *p, size_t len)
{
	return msync(p, len, MS_ASYNC) && errno == ENOMEM;
}

static int setup_memory(void)
{
	unmapped = (char *)UNMAPPED_ADDR;
	if (!is_unmapped(unmapped, 16 * PAGE))
		return -1;
	/* Every region the kernel may write ends in a PROT_NONE page. */
	partial = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	rdonly = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	sparse = mmap(NULL, SPARSE_SIZE, PROT_READ,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (partial == MAP_FAILED || rdonly == MAP_FAILED || sparse == MAP_FAILED)
		return -1;
	mprotect(partial + PAGE, PAGE, PROT_NONE);

	uffd_area = guarded(MAX_THREADS * PAGE);
	uffd_stage = mmap(NULL, MAX_THREADS * PAGE, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!uffd_area || uffd_stage == MAP_FAILED)
		return -1;
	return 0;
}

static int uffd_setup(void)
{
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd >= 0) {
		struct uffdio_api api = { .api = UFFD_API };
		struct uffdio_register reg = {
			.range = { (uint64_t)uffd_area, MAX_THREADS * PAGE },
			.mode = UFFDIO_REGISTER_MODE_MISSING,
		};

		if (ioctl(uffd, UFFDIO_API, &api) ||
		    ioctl(uffd, UFFDIO_REGISTER, &reg)) {
			close(uffd);
			uffd = -1;
		}
	}
	printf("# userfaultfd: %s\n", uffd >= 0 ? "yes" : strerror(errno));
	return uffd >= 0 ? 0 : -1;
}

static void canaries_init(void)
{
	for (int i = 0; i < 8; i++)
		st->canary_head[i] = st->canary_tail[i] = CANARY;
	canary_page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	zero_page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (size_t i = 0; i < PAGE / 8; i++)
		canary_page[i] = CANARY;
}

/* Memory the kernel must never write: a write there is a kernel bug. */
static const char *canary_broken(void)
{
	for (int i = 0; i < 8; i++)
		if (st->canary_head[i] != CANARY || st->canary_tail[i] != CANARY)
			return "the shared counters";
	for (size_t i = 0; i < PAGE / 8; i += 61)
		if (canary_page[i] != CANARY)
			return "a private page";
	for (size_t i = 0; i < PAGE / 8; i += 61)
		if (zero_page[i])
			return "a never written (zero-page) mapping";
	return NULL;
}

/* ---- per-thread state ------------------------------------------------ */

struct devfd {
	int fd;
	uint32_t id;
	uint64_t vram;
	uint32_t parts;		/* memory partitions */
	uint32_t max_vfs;
};

struct thread {
	unsigned int idx;
	pthread_t tid;
	struct rng r;
	int ctl;
	char *arena;		/* ARENA bytes */
	char *hmm;		/* HMM_PAGES, touched, private anonymous */
	char *buf;		/* HMM_PAGES * PAGE: ACCESS buffers */
	struct devfd dev[MAX_DEVFDS];
	int ev[MAX_EVFDS];
	uint32_t ids[AMDX_MAX_DEVICES];
	unsigned int nids;
	bool unpriv;
	atomic_ulong progress;
	atomic_int in_row;
};

static struct thread threads[MAX_THREADS];
static unsigned int nthreads;

static void count(struct thread *t, unsigned int row, int err, uint64_t ns)
{
	unsigned long old;

	if (err < 0 || err >= ERRNO_MAX)
		err = ERRNO_MAX - 1;
	atomic_fetch_add(&st->by_errno[row][err], 1);
	atomic_fetch_add(&st->calls, 1);
	if (t && t->unpriv)
		atomic_fetch_add(&st->calls_unpriv, 1);
	old = atomic_load(&st->max_ns[row]);
	while (ns > old && !atomic_compare_exchange_weak(&st->max_ns[row], &old, ns))
		;
	if (t)
		atomic_fetch_add(&t->progress, 1);
}

static const char *row_name(unsigned int row)
{
	return row < fz_nioctls ? fz_ioctls[row].name :
				  pseudo_names[row - 32];
}

static void bad(const char *fmt, const char *a, int err)
{
	int expect = 0;

	atomic_fetch_add(&st->bad_errno, 1);
	if (atomic_compare_exchange_strong(&st->first_bad_set, &expect, 1))
		snprintf(st->first_bad, sizeof(st->first_bad), fmt, a, err);
}

static bool is_documented(int err)
{
	for (size_t i = 0; i < sizeof(documented) / sizeof(documented[0]); i++)
		if (documented[i] == err)
			return true;
	return false;
}

static bool is_admin_only(const char *name)
{
	for (size_t i = 0; i < sizeof(admin_only) / sizeof(admin_only[0]); i++)
		if (!strcmp(admin_only[i], name))
			return true;
	return false;
}

/* ---- devices --------------------------------------------------------- */

static int sysfs_write(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static const char *const stable_params[SIM_STABLE] = {
	"model=mi300x vram=256 hive=f22",
	"model=mi308x vram=128 max_vfs=4",
	"model=mi300a vram=64",
};

static void sim_new(struct thread *t, unsigned int id, const char *params)
{
	char buf[128];
	uint64_t t0 = now_ns();
	int err;

	snprintf(buf, sizeof(buf), "%u %s", id, params);
	err = sysfs_write("/sys/bus/amdx_sim/new_device", buf);
	count(t, 32 + OP_NEW_DEVICE, -err, now_ns() - t0);
}

static void sim_del(struct thread *t, unsigned int id)
{
	char buf[16];
	uint64_t t0 = now_ns();
	int err;

	snprintf(buf, sizeof(buf), "%u", id);
	err = sysfs_write("/sys/bus/amdx_sim/del_device", buf);
	count(t, 32 + OP_DEL_DEVICE, -err, now_ns() - t0);
}

static void refresh_ids(struct thread *t)
{
	struct {
		struct amdx_query_devices h;
		struct amdx_device_entry e[AMDX_MAX_DEVICES];
	} res;
	struct amdx_query q = {
		.query = AMDX_QUERY_DEVICES,
		.size = sizeof(res),
		.data = (uintptr_t)&res,
	};

	t->nids = 0;
	if (ioctl(t->ctl, AMDX_IOC_QUERY, &q) || !res.h.entry_size)
		return;
	for (uint32_t i = 0; i < res.h.num_devices && i < AMDX_MAX_DEVICES; i++)
		t->ids[t->nids++] = ((struct amdx_device_entry *)
				     ((char *)res.h.devices +
				      (size_t)i * res.h.entry_size))->id;
}

static void open_dev(struct thread *t, struct devfd *d)
{
	struct amdx_device_info info = { 0 };
	struct amdx_device_open o = { 0 };
	struct amdx_query q = {
		.query = AMDX_QUERY_DEVICE_INFO,
		.size = sizeof(info),
		.data = (uintptr_t)&info,
	};

	d->fd = -1;
	if (!t->nids)
		return;
	o.id = t->ids[below(&t->r, t->nids)];
	if (ioctl(t->ctl, AMDX_IOC_DEVICE_OPEN, &o))
		return;
	d->fd = o.fd;
	d->id = o.id;
	d->vram = 64ULL << 20;
	d->parts = 1;
	d->max_vfs = 0;
	if (!ioctl(d->fd, AMDX_IOC_QUERY, &q)) {
		d->vram = info.vram_size;
		d->parts = info.num_mem_partitions ? info.num_mem_partitions : 1;
		d->max_vfs = info.max_vfs;
	}
}

/* ---- values ---------------------------------------------------------- */

static uint64_t boundary(struct rng *r, unsigned int size)
{
	uint64_t max = size >= 8 ? ~0ULL : (1ULL << (8 * size)) - 1;
	uint64_t sign = 1ULL << (8 * size - 1);
	static const uint64_t small[] = {
		0, 1, 2, 3, 7, 8, 15, 16, 63, 64, 255, 256, 1023, 1024, 4095,
		4096, 4097, 65535, 65536, 1 << 20, 1 << 30,
	};

	switch (below(r, 8)) {
	case 0:
		return max - below(r, 3);
	case 1:
		return sign - below(r, 2);
	case 2:
		return (1ULL << below(r, 8 * size)) & max;
	case 3:
		return (max - small[below(r, 21)]) & max;
	case 4:
		return ((1ULL << below(r, 8 * size)) + below(r, 3) - 1) & max;
	default:
		return small[below(r, 21)] & max;
	}
}

static uint64_t field_value(struct thread *t, const struct fz_field *f)
{
	struct rng *r = &t->r;
	uint64_t mask = f->size >= 8 ? ~0ULL : (1ULL << (8 * f->size)) - 1;
	uint64_t v;

	switch (below(r, 10)) {
	case 0: case 1: case 2:
		if (f->ndict) {
			v = f->dict[below(r, f->ndict)];
			if (chance(r, 30))	/* flags: several bits */
				v |= f->dict[below(r, f->ndict)];
			if (chance(r, 10))	/* one past the last */
				v += 1;
			return v & mask;
		}
		/* fall through */
	case 3:
		return fz_consts[below(r, fz_nconsts)].value & mask;
	case 4: case 5: case 6:
		return boundary(r, f->size);
	case 7:
		return rnd(r) & mask;
	default:
		return below(r, 16);
	}
}

static void put(char *base, const struct fz_field *f, unsigned int i,
		uint64_t v)
{
	char *p = base + f->off + (size_t)i * f->size;

	switch (f->size) {
	case 1: *(uint8_t *)p = v; break;
	case 2: *(uint16_t *)p = v; break;
	case 4: *(uint32_t *)p = v; break;
	case 8: *(uint64_t *)p = v; break;
	default:
		for (unsigned int k = 0; k < f->size; k++)
			p[k] = v >> (8 * (k % 8));
	}
}

/* A pointer of a random class to @len bytes (contents at @good). */
/*
 * This thread's userfaultfd page, holding a copy of @len bytes of @good at
 * its start or its end: the kernel's first touch of it, a copy-in or a
 * copy-out, stalls in uffd_handler(); 0 where there is none (no
 * userfaultfd, an unprivileged thread, more than a page).
 */
static uint64_t uffd_ptr(struct thread *t, const char *good, size_t len)
{
	char *page, *stage;
	size_t off;

	if (uffd < 0 || t->unpriv || len > PAGE)
		return 0;
	page = uffd_area + t->idx * PAGE;
	stage = uffd_stage + t->idx * PAGE;
	off = below(&t->r, 2) ? 0 : PAGE - len;
	memset(stage, 0, PAGE);
	memcpy(stage + off, good, len);
	madvise(page, PAGE, MADV_DONTNEED);
	return (uint64_t)page + off;
}

static uint64_t pick_ptr(struct thread *t, char *good, size_t len)
{
	struct rng *r = &t->r;
	uint64_t p;

	switch (below(r, 20)) {
	case 0:
		return 0;
	case 1:
		return (uint64_t)unmapped + below(r, 16) * PAGE;
	case 2:
		return kernel_ptrs[below(r, sizeof(kernel_ptrs) / 8)];
	case 3:
		return (uint64_t)good + 1 + below(r, 7);
	case 4:	/* straddles into PROT_NONE */
		if (len > PAGE)
			len = PAGE;
		memcpy(partial + PAGE - len / 2, good, len / 2);
		return (uint64_t)partial + PAGE - len / 2;
	case 5:
		return (uint64_t)rdonly;
	case 6:
		return (uint64_t)sparse + below(r, SPARSE_SIZE / PAGE) * PAGE;
	case 7:
		p = uffd_ptr(t, good, len);
		if (p)
			return p;
		/* fall through */
	default:
		return (uint64_t)good;
	}
}

/* ---- valid requests, per command --------------------------------------- */

static uint64_t hmm_addr(struct thread *t, __u64 *size)
{
	struct rng *r = &t->r;
	uint64_t first = below(r, HMM_PAGES);
	uint64_t n = 1 + below(r, HMM_PAGES - first);

	if (chance(r, 3)) {	/* a large sparse span */
		*size = (1 + below(r, SPARSE_SIZE / PAGE)) * PAGE;
		return (uint64_t)sparse;
	}
	*size = n * PAGE;
	return (uint64_t)t->hmm + first * PAGE;
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

static uint32_t random_loc(struct thread *t, struct devfd *d)
{
	switch (below(&t->r, 4)) {
	case 0: return AMDX_HMM_LOC_SYSTEM;
	case 1: return AMDX_HMM_LOC_PREFERRED;
	default: return below(&t->r, d ? d->parts + 1 : 2);
	}
}

static uint64_t access_mask(struct thread *t)
{
	uint64_t m = 0;

	for (unsigned int i = 0; i < t->nids; i++)
		if (chance(&t->r, 50))
			m |= 1ULL << (t->ids[i] & 63);
	return m;
}

/* Payload buffers behind pointer members live after the argument. */
#define PAYLOAD(t)	((t)->arena + 8192)

static void seed(struct thread *t, const struct fz_ioctl *io, char *a,
		 struct devfd *d)
{
	struct rng *r = &t->r;
	char *pl = PAYLOAD(t);
	const char *n = io->name;

	if (!strcmp(n, "QUERY")) {
		struct amdx_query *q = (void *)a;

		q->query = below(r, AMDX_QUERY_FIRMWARE + 1);
		q->size = chance(r, 30) ? 0 : below(r, 4096);
		q->data = (uintptr_t)pl;
		if (q->query == AMDX_QUERY_DEVICE_INFO && !d && t->nids)
			q->id = t->ids[below(r, t->nids)];
	} else if (!strcmp(n, "DEVICE_OPEN")) {
		struct amdx_device_open *o = (void *)a;

		o->id = t->nids ? t->ids[below(r, t->nids)] : 0;
		if (chance(r, 20)) {
			o->flags = AMDX_DEVICE_OPEN_F_VF;
			o->vf = below(r, AMDX_MAX_VFS + 1);
		}
	} else if (!strcmp(n, "HMM_SET_ATTR")) {
		struct amdx_hmm_attr *h = (void *)a;

		h->start = hmm_addr(t, &h->size);
		h->valid = below(r, AMDX_HMM_ATTR_ALL + 1);
		h->preferred_loc = random_loc(t, d);
		h->granularity = below(r, AMDX_HMM_GRANULARITY_MAX + 1);
		h->flags = chance(r, 20) ? AMDX_HMM_F_PIN : 0;
		h->access = d && chance(r, 70) ? 1ULL << d->id : access_mask(t);
	} else if (!strcmp(n, "HMM_MIGRATE")) {
		struct amdx_hmm_migrate *m = (void *)a;

		m->start = hmm_addr(t, &m->size);
		m->dest = random_loc(t, d);
	} else if (!strcmp(n, "HMM_ACCESS")) {
		struct amdx_hmm_access *h = (void *)a;

		h->addr = hmm_addr(t, &h->size);
		if (h->addr == (uint64_t)sparse && h->size > HMM_PAGES * PAGE)
			h->size = HMM_PAGES * PAGE;
		h->op = below(r, 3);
		h->buf = (uintptr_t)t->buf;
		if (h->op == AMDX_HMM_ACCESS_SNAPSHOT && chance(r, 50))
			h->vram_pfns = (uintptr_t)t->buf + HMM_PAGES * PAGE / 2;
	} else if (!strcmp(n, "PARTITION_PLAN") ||
		   !strcmp(n, "PARTITION_COMMIT")) {
		struct amdx_partition_config *c = (void *)a;

		c->compute_mode = below(r, AMDX_COMPUTE_CPX + 2);
		c->memory_mode = chance(r, 80) ? 0 : below(r, AMDX_MEMORY_NPS8 + 2);
		c->flags = chance(r, 50) ? AMDX_PART_F_DRAIN : 0;
		c->deadline_ms = 1 + below(r, 100);
		if (chance(r, 50))
			c->topology = (uintptr_t)pl;
		if (chance(r, 50)) {
			c->holders = (uintptr_t)pl + 4096;
			c->max_holders = below(r, 32);
		}
	} else if (!strcmp(n, "VF_ENABLE")) {
		struct amdx_vf_enable *e = (void *)a;
		struct amdx_vf_config *cfg = (void *)pl;

		e->num_vfs = below(r, (d ? d->max_vfs : 8) + 2);
		if (chance(r, 50)) {
			e->flags = AMDX_VF_ENABLE_F_CUSTOM;
			e->configs = (uintptr_t)pl;
			e->config_size = chance(r, 80) ? sizeof(*cfg) :
					 boundary(r, 2);
			memset(cfg, 0, 8 * sizeof(*cfg));
			for (unsigned int i = 0; i < 8; i++) {
				cfg[i].partition_mask = 1U << i;
				cfg[i].time_slice_us = AMDX_VF_TIME_SLICE_DEFAULT_US;
				cfg[i].vram_quota = AMDX_VF_VRAM_MIN;
				cfg[i].priority = below(r, 3);
			}
		}
	} else if (!strcmp(n, "VF_SET")) {
		struct amdx_vf_set *s = (void *)a;

		s->vf = below(r, 9);
		s->valid = below(r, 16);
		s->config.time_slice_us = AMDX_VF_TIME_SLICE_MIN_US +
			below(r, AMDX_VF_TIME_SLICE_MAX_US);
		s->config.vram_quota = AMDX_VF_VRAM_MIN +
			below(r, 8) * AMDX_VF_VRAM_ALIGN;
		s->config.priority = below(r, 4);
		s->config.flags = below(r, 2);
	} else if (!strcmp(n, "VF_RESET")) {
		((struct amdx_vf_reset *)a)->vf = below(r, 9);
	} else if (!strcmp(n, "RAS_INJECT")) {
		struct amdx_ras_inject *in = (void *)a;

		in->block = below(r, AMDX_RAS_BLOCK_COUNT + 1);
		in->type = below(r, AMDX_RAS_TYPE_COUNT + 1);
		in->instance = below(r, 34);
		in->count = chance(r, 90) ? 1 + below(r, 4) : below(r, 1026);
		if (in->block == AMDX_RAS_BLOCK_UMC)
			in->address = below(r, (d ? d->vram : 1 << 26) / PAGE) * PAGE;
	} else if (!strcmp(n, "RAS_SET_POLICY")) {
		struct amdx_ras_policy *p = (void *)a;

		p->valid = below(r, AMDX_RAS_POL_ALL + 1);
		p->ce_page_threshold = 1 + below(r, 65535);
		p->ce_window_s = 1 + below(r, 30 * 86400);
		p->bad_page_threshold = (int)below(r, 300) - 2;
		p->part_reset_limit = 1 + below(r, 100);
		p->part_reset_window_s = 1 + below(r, 86400);
		p->flags = below(r, 2);
		/* fields valid does not name must be 0: mostly keep them so */
		if (chance(r, 90)) {
			if (!(p->valid & AMDX_RAS_POL_CE_PAGE_THRESHOLD))
				p->ce_page_threshold = 0;
			if (!(p->valid & AMDX_RAS_POL_CE_WINDOW))
				p->ce_window_s = 0;
			if (!(p->valid & AMDX_RAS_POL_BAD_PAGE_THRESHOLD))
				p->bad_page_threshold = 0;
			if (!(p->valid & AMDX_RAS_POL_PART_RESET_LIMIT))
				p->part_reset_limit = 0;
			if (!(p->valid & AMDX_RAS_POL_PART_RESET_WINDOW))
				p->part_reset_window_s = 0;
			if (!(p->valid & AMDX_RAS_POL_FLAGS))
				p->flags = 0;
		}
	} else if (!strcmp(n, "RAS_BADPAGES_IMPORT")) {
		struct amdx_ras_badpages_import *im = (void *)a;
		struct amdx_badpage_header *h = (void *)pl;
		struct amdx_badpage_record *rec = (void *)(pl + sizeof(*h));
		uint32_t cnt = below(r, 16), crc;

		h->magic = AMDX_BADPAGE_MAGIC;
		h->version = AMDX_BADPAGE_VERSION;
		h->count = cnt;
		h->record_size = sizeof(*rec);
		h->checksum = 0;
		for (uint32_t i = 0; i < cnt; i++) {
			rec[i].address = below(r, (d ? d->vram : 1 << 26) / PAGE) *
					 PAGE;
			rec[i].time = 1700000000 + i;
			rec[i].partition = 0;
			rec[i].cause = 1 + below(r, 4);
			rec[i].flags = 0;
		}
		crc = crc32_ieee(~0U, h, sizeof(*h));
		crc = crc32_ieee(crc, rec, cnt * sizeof(*rec)) ^ ~0U;
		if (chance(r, 85))
			h->checksum = crc;
		im->data = (uintptr_t)pl;
		im->size = sizeof(*h) + cnt * sizeof(*rec);
	} else if (!strcmp(n, "EVENT_SUBSCRIBE")) {
		struct amdx_event_subscribe *s = (void *)a;

		s->mask = chance(r, 50) ? AMDX_EVENT_MASK_ALL :
					  rnd(r) & AMDX_EVENT_MASK_ALL;
		s->ring_size = chance(r, 50) ? 0 : 1U << (4 + below(r, 9));
		s->flags = chance(r, 50) ? AMDX_EVENT_F_NONBLOCK : 0;
		if (chance(r, 50))
			s->flags |= AMDX_EVENT_F_SIZE_VER1 << below(r, 3);
	}
}

static bool inside(uint64_t p, const void *base, size_t len)
{
	return p >= (uint64_t)base && p < (uint64_t)base + len;
}

/*
 * May the kernel write at @p on this thread's behalf?  Below mmap_min_addr
 * and kernel addresses fault; the thread's guarded buffers and the bad
 * regions are its own.  Anything else (a random value that happens to land
 * in the fuzzer's heap, stack or the shared counters) would let a correct
 * kernel corrupt the fuzzer, which finds nothing.
 */
static bool harmless(struct thread *t, uint64_t p)
{
	return p < 65536 || p >= (1ULL << 47) ||
	       inside(p, t->arena, ARENA) || inside(p, t->buf, HMM_PAGES * PAGE) ||
	       inside(p, t->hmm, HMM_PAGES * PAGE) ||
	       inside(p, sparse, SPARSE_SIZE) || inside(p, rdonly, PAGE) ||
	       inside(p, partial, 2 * PAGE) || inside(p, unmapped, 16 * PAGE) ||
	       inside(p, uffd_area + t->idx * PAGE, PAGE);
}

static void sanitize(struct thread *t, const struct fz_ioctl *io, char *a)
{
	const struct fz_struct *s = io->arg;

	for (unsigned int i = 0; i < s->nfields; i++) {
		const struct fz_field *f = &s->fields[i];
		uint64_t *p = (uint64_t *)(a + f->off);

		if (f->role == FZ_PTR && f->size == 8 && !harmless(t, *p))
			*p = (uint64_t)PAYLOAD(t);
	}
	/* The device writes process memory only in the thread's own region. */
	if (!strcmp(io->name, "HMM_ACCESS")) {
		struct amdx_hmm_access *h = (void *)a;

		if (h->op != AMDX_HMM_ACCESS_READ &&
		    h->op != AMDX_HMM_ACCESS_SNAPSHOT &&
		    !inside(h->addr, t->hmm, HMM_PAGES * PAGE) &&
		    !inside(h->addr, sparse, SPARSE_SIZE) && h->addr >= 65536 &&
		    h->addr < (1ULL << 47))
			h->addr = (uint64_t)t->hmm;
	}
}

/* Fill @a (at least @size bytes) for @io; returns the size to encode. */
static size_t build(struct thread *t, const struct fz_ioctl *io, char *a,
		    struct devfd *d)
{
	struct rng *r = &t->r;
	const struct fz_struct *s = io->arg;
	size_t size = s->size;
	unsigned int strategy = below(r, 100), k;

	memset(a, 0, 4096);
	memset(PAYLOAD(t), 0, 8192);
	if (strategy < 55) {
		/* A valid request, then a few members mutated. */
		seed(t, io, a, d);
		for (k = below(r, 3); k; k--) {
			const struct fz_field *f = &s->fields[below(r, s->nfields)];

			if (f->role == FZ_ZERO && chance(r, 70))
				continue;
			put(a, f, below(r, f->count), field_value(t, f));
		}
	} else if (strategy < 85) {
		/* Every member from its dictionary, a boundary or random. */
		for (unsigned int i = 0; i < s->nfields; i++) {
			const struct fz_field *f = &s->fields[i];

			if (f->role == FZ_ZERO && chance(r, 90))
				continue;
			if (f->role == FZ_OUT && chance(r, 70))
				continue;
			put(a, f, below(r, f->count), field_value(t, f));
		}
	} else if (strategy < 93) {
		for (size_t i = 0; i < size; i += 8)
			*(uint64_t *)(a + i) = rnd(r);
	} else {
		seed(t, io, a, d);
	}

	/* Pointer members: keep, or point somewhere bad. */
	for (unsigned int i = 0; i < s->nfields; i++) {
		const struct fz_field *f = &s->fields[i];
		uint64_t *p = (uint64_t *)(a + f->off);

		if (f->role == FZ_PTR && *p && chance(r, 30)) {
			char *good = (char *)(uintptr_t)*p;

			/* Only copy from memory this thread owns. */
			if (good < t->arena || good >= t->arena + ARENA - 64)
				good = PAYLOAD(t);
			*p = pick_ptr(t, good, 64);
		} else if (f->role == FZ_PTR && *p && uffd >= 0 &&
			   !t->unpriv && chance(r, 5)) {
			/*
			 * A result buffer (QUERY data, ranges, holders) on a
			 * page whose fault stalls: every copy-out meets one.
			 */
			char *good = (char *)(uintptr_t)*p;

			if (good < t->arena || good >= t->arena + ARENA - 64)
				good = PAYLOAD(t);
			*p = uffd_ptr(t, good, 64);
		}
		else if (f->role == FZ_ADDR && chance(r, 10))
			*p = kernel_ptrs[below(r, sizeof(kernel_ptrs) / 8)];
	}

	sanitize(t, io, a);

	/* The size in the command: as compiled, or shorter, or longer. */
	if (chance(r, 12)) {
		static const int delta[] = { -1, -8, -16, 8, 16, 64, 4096 };

		size = s->size + delta[below(r, 7)];
		if (chance(r, 20))
			size = below(r, _IOC_SIZEMASK + 1);
		if (size > _IOC_SIZEMASK)
			size = _IOC_SIZEMASK;
		if (size > 4096) {
			memset(a + 4096, 0, 4096);
			size = 4096 + below(r, 4096);
		}
		if (size > s->size && chance(r, 30))
			a[size - 1] = 1;	/* non-zero tail: -E2BIG */
	}
	return size;
}

/* ---- the calls ------------------------------------------------------- */

static int pick_fd(struct thread *t, const struct fz_ioctl *io,
		   struct devfd **dp)
{
	struct rng *r = &t->r;
	struct devfd *d = &t->dev[below(r, MAX_DEVFDS)];

	*dp = NULL;
	if (chance(r, 3))	/* the wrong kind of fd */
		return chance(r, 50) ? t->ev[below(r, MAX_EVFDS)] : t->ctl;
	if ((io->fds & FZ_FD_DEV) && (!(io->fds & FZ_FD_CTL) || chance(r, 70))) {
		if (d->fd < 0 || chance(r, 1)) {
			if (d->fd >= 0)
				close(d->fd);
			open_dev(t, d);
		}
		*dp = d;
		return d->fd;
	}
	return t->ctl;
}

/* Whether @cmd is @want at any size (how the kernel matches commands). */
static bool same_cmd(unsigned long cmd, unsigned long want)
{
	return _IOC_TYPE(cmd) == _IOC_TYPE(want) && _IOC_NR(cmd) == _IOC_NR(want) &&
	       _IOC_DIR(cmd) == _IOC_DIR(want);
}

/*
 * After a successful @cmd: take the fd a DEVICE_OPEN or EVENT_SUBSCRIBE
 * wrote back, wherever @argp pointed (the argument, a misaligned copy
 * of it, the uffd page) and whatever the row (a "malformed"
 * command may be one of the two at another size).  The copy back
 * succeeded, so @argp is mapped and writable, and the size is at least
 * the command's first version, which holds the fd.
 */
static void adopt_fd(struct thread *t, unsigned long cmd, uintptr_t argp)
{
	bool ev = same_cmd(cmd, AMDX_IOC_EVENT_SUBSCRIBE);
	int fd;

	if (ev)
		fd = ((struct amdx_event_subscribe *)argp)->fd;
	else if (same_cmd(cmd, AMDX_IOC_DEVICE_OPEN))
		fd = ((struct amdx_device_open *)argp)->fd;
	else
		return;
	if (fd <= 2 || fd == t->ctl)
		return;
	if (ev) {
		int *slot = &t->ev[below(&t->r, MAX_EVFDS)];

		if (*slot >= 0)
			close(*slot);
		fcntl(fd, F_SETFL, O_NONBLOCK);
		*slot = fd;
	} else {
		close(fd);
	}
}

static atomic_int corrupted_here;

static void corruption_check(struct thread *t, unsigned int row,
			     unsigned long cmd, uintptr_t argp, size_t size,
			     int err)
{
	const char *what = canary_broken();
	char line[1024];
	int expect = 0, len;

	/* Once per process, in private memory: st may be garbage now. */
	if (!what || !atomic_compare_exchange_strong(&corrupted_here, &expect, 1))
		return;
	st->corrupted = 1;
	/* Counters may be garbage now: write the reproducer directly. */
	len = snprintf(line, sizeof(line),
		       "# CORRUPTION of %s seen after %s (cmd %#lx, size %zu, "
		       "errno %d) by thread %u%s; argument:\n#  ",
		       what, row_name(row), cmd, size, err, t->idx,
		       t->unpriv ? " (uid 1000)" : "");
	/* The argument as built (argp may point elsewhere: a copy of it). */
	for (size_t i = 0; i < size && i < 160; i++)
		len += snprintf(line + len, sizeof(line) - len, "%02x%s",
				((unsigned char *)t->arena)[i],
				i % 32 == 31 ? "\n#  " : "");
	len += snprintf(line + len, sizeof(line) - len, "\n");
	if (write(1, line, len) < 0)
		return;
	atomic_store(&st->stop, 1);
}

static bool is_excluded(const char *name)
{
	for (unsigned int i = 0; i < nexcluded; i++)
		if (!strcmp(excluded[i], name))
			return true;
	return false;
}

static void do_ioctl(struct thread *t)
{
	struct rng *r = &t->r;
	unsigned int row = below(r, fz_nioctls);
	const struct fz_ioctl *io = &fz_ioctls[row];
	struct devfd *d;
	char *a = t->arena;
	unsigned long cmd = io->cmd;
	uintptr_t argp;
	size_t size;
	uint64_t t0;
	int fd, ret, err;

	if (is_excluded(io->name))
		io = &fz_ioctls[row = 0];
	/* Keep the slow, state-wrecking commands rarer. */
	if ((!strcmp(io->name, "RAS_INJECT") || !strcmp(io->name, "VF_RESET") ||
	     !strcmp(io->name, "PARTITION_COMMIT")) && chance(r, 60))
		io = &fz_ioctls[row = 0];

	fd = pick_fd(t, io, &d);
	size = build(t, io, a, d);
	cmd = (cmd & ~((unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
	      ((unsigned long)size << _IOC_SIZESHIFT);
	if (chance(r, 3)) {	/* unknown number or wrong direction */
		row = 32 + OP_MALFORMED;
		if (chance(r, 50))
			cmd = _IOC(below(r, 4), AMDX_IOCTL_BASE, below(r, 0x40),
				   below(r, 512));
		else
			cmd ^= (unsigned long)(1 + below(r, 3)) << _IOC_DIRSHIFT;
	}
	argp = chance(r, 8) ? pick_ptr(t, a, size < PAGE ? size : PAGE) :
			      (uintptr_t)a;
	/*
	 * RECOVERY_RUN with AMDX_RECOVERY_F_STOP SIGKILLs the processes
	 * holding the VRAM it resets, and the fuzzer holds VRAM: never ask
	 * for that, whatever number and size the command got above.
	 */
	if (_IOC_TYPE(cmd) == AMDX_IOCTL_BASE &&
	    _IOC_NR(cmd) == _IOC_NR(AMDX_IOC_RECOVERY_RUN)) {
		((struct amdx_recovery *)a)->flags &= ~AMDX_RECOVERY_F_STOP;
		argp = (uintptr_t)a;
	}

	atomic_store(&t->in_row, row);
	t0 = now_ns();
	ret = ioctl(fd, cmd, argp);
	err = ret ? errno : 0;
	count(t, row, err, now_ns() - t0);
	atomic_store(&t->in_row, -1);
	corruption_check(t, row, cmd, argp, size, err);

	if (err && !is_documented(err) && !(err == EBADF && fd < 0))
		bad("%s: undocumented errno %d", row_name(row), err);
	if (!err && t->unpriv && row < fz_nioctls && is_admin_only(io->name)) {
		atomic_fetch_add(&st->priv_escapes, 1);
		bad("%s succeeded for an unprivileged caller (%d)", io->name, 0);
	}
	if (!err)
		adopt_fd(t, cmd, argp);
}

/*
 * Pinning is a property of the pinned pages (issue 31): pin the first page
 * of half this thread's HMM region, migrate that half to VRAM, fork a
 * child that keeps the pages a moment, and unmap the unpinned part in
 * the parent (fresh memory mapped back) with the fd left open.  The pages
 * only the child maps then stay evictable by the other threads' and
 * users' migrations, and go home when the child exits or the fd closes.
 * Returns 0 or the -errno of the step that failed.
 */
static int fork_pin(struct thread *t)
{
	struct devfd *d = &t->dev[below(&t->r, MAX_DEVFDS)];
	size_t half = HMM_PAGES / 2 * PAGE;
	char *rest = t->hmm + PAGE;
	struct amdx_hmm_attr pin = {
		.start = (uintptr_t)t->hmm, .size = PAGE,
		.valid = AMDX_HMM_ATTR_FLAGS, .flags = AMDX_HMM_F_PIN,
	};
	struct amdx_hmm_attr plain = {
		.start = (uintptr_t)rest, .size = half - PAGE,
		.valid = AMDX_HMM_ATTR_FLAGS,
	};
	struct amdx_hmm_migrate m = {
		.start = (uintptr_t)t->hmm, .size = half,
		.dest = below(&t->r, d->parts ? d->parts : 1),
	};
	unsigned int us = below(&t->r, 20000);
	int err = 0;
	pid_t pid;

	if (d->fd < 0)
		return -EBADF;
	if (ioctl(d->fd, AMDX_IOC_HMM_SET_ATTR, &pin) ||
	    ioctl(d->fd, AMDX_IOC_HMM_SET_ATTR, &plain) ||
	    ioctl(d->fd, AMDX_IOC_HMM_MIGRATE, &m))
		return -errno;
	pid = fork();
	if (pid == 0) {		/* only async-signal-safe calls here */
		usleep(us);
		_exit(0);
	}
	if (pid < 0)
		return -errno;
	if (munmap(rest, half - PAGE) ||
	    mmap(rest, half - PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		err = -errno;
	else
		memset(rest, 0x5a, half - PAGE);
	waitpid(pid, NULL, 0);
	return err;
}

static void do_other(struct thread *t)
{
	struct rng *r = &t->r;
	int ev = t->ev[below(r, MAX_EVFDS)];
	unsigned int op = below(r, 6);
	uint64_t t0 = now_ns();
	int err = 0;
	char path[64];

	switch (op) {
	case 0: {
		static const size_t sizes[] = { 0, 1, 63, 64, 65, 128, 4096 };
		size_t n = sizes[below(r, 7)];
		uint64_t p = pick_ptr(t, t->arena, n < PAGE ? n : PAGE);

		if (read(ev, (void *)(uintptr_t)p, n) < 0)
			err = errno;
		count(t, 32 + OP_READ, err == EAGAIN ? 0 : err, now_ns() - t0);
		break;
	}
	case 1: {
		struct pollfd p = { .fd = ev, .events = POLLIN };

		if (poll(&p, 1, 0) < 0)
			err = errno;
		count(t, 32 + OP_POLL, err, now_ns() - t0);
		break;
	}
	case 2: {
		char buf[512];
		int fd;

		snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", ev);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
			err = errno;
		if (fd >= 0)
			close(fd);
		count(t, 32 + OP_FDINFO, err, now_ns() - t0);
		break;
	}
	case 3: {	/* close an fd */
		unsigned int i = below(r, MAX_DEVFDS + MAX_EVFDS);
		int *fdp = i < MAX_DEVFDS ? &t->dev[i].fd : &t->ev[i - MAX_DEVFDS];

		if (*fdp >= 0 && close(*fdp))
			err = errno;
		*fdp = -1;
		count(t, 32 + OP_CLOSE, err, now_ns() - t0);
		break;
	}
	case 4:
		err = -fork_pin(t);
		count(t, 32 + OP_FORK_PIN, err, now_ns() - t0);
		break;
	default: {	/* a fresh control fd now and then */
		int fd = open(ctl_path, O_RDWR | O_CLOEXEC);

		if (fd < 0) {
			err = errno;
		} else {
			close(t->ctl);
			t->ctl = fd;
		}
		count(t, 32 + OP_OPEN_CTL, err, now_ns() - t0);
		refresh_ids(t);
		break;
	}
	}
}

static void *fuzz_thread(void *arg)
{
	struct thread *t = arg;
	unsigned long n = 0;

	while (!atomic_load(&st->stop)) {
		if ((n++ & 255) == 0)
			refresh_ids(t);
		if (chance(&t->r, 4))
			do_other(t);
		else
			do_ioctl(t);
	}
	return NULL;
}

static int thread_init(struct thread *t, unsigned int idx, bool unpriv)
{
	memset(t, 0, sizeof(*t));
	t->idx = idx;
	t->unpriv = unpriv;
	t->r.s = opt_seed * 0x9e3779b97f4a7c15ULL + idx + 1;
	t->in_row = -1;
	t->ctl = open(ctl_path, O_RDWR | O_CLOEXEC);
	t->arena = guarded(ARENA);
	t->hmm = guarded(HMM_PAGES * PAGE);
	t->buf = guarded(HMM_PAGES * PAGE);
	if (t->ctl < 0 || !t->arena || !t->hmm || !t->buf)
		return -1;
	memset(t->hmm, 0x5a, HMM_PAGES * PAGE);
	memset(t->buf, 0, HMM_PAGES * PAGE);
	for (unsigned int i = 0; i < MAX_DEVFDS; i++)
		t->dev[i].fd = -1;
	for (unsigned int i = 0; i < MAX_EVFDS; i++)
		t->ev[i] = -1;
	return 0;
}

static int run_threads(unsigned int n, unsigned int first, bool unpriv)
{
	for (unsigned int i = 0; i < n; i++) {
		if (thread_init(&threads[first + i], first + i, unpriv))
			return -1;
		if (pthread_create(&threads[first + i].tid, NULL, fuzz_thread,
				   &threads[first + i]))
			return -1;
	}
	nthreads = first + n;
	return 0;
}

/* ---- device churn and module reload ------------------------------------ */

static const char *const churn_params[] = {
	"model=mi300x vram=64", "model=mi308x vram=64 max_vfs=2",
	"model=mi300a vram=64", "model=mi300x vram=64 hive=f22",
	"vram=63", "model=mi999", "max_vfs=99", "vram=64 vram=64", "",
};

static int mod_load(const char *name)
{
	char path[64];
	int fd, ret;

	snprintf(path, sizeof(path), "/lib/amdx/%s.ko", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, "", 0) ? -errno : 0;
	close(fd);
	return ret;
}

static void create_stable(struct thread *t)
{
	for (unsigned int i = 0; i < SIM_STABLE; i++)
		sim_new(t, SIM_BASE + i, stable_params[i]);
}

static void *churn_thread(void *arg)
{
	struct rng r = { .s = opt_seed ^ 0xc4u };
	uint64_t last_rmmod = now_ns();

	(void)arg;
	while (!atomic_load(&st->stop)) {
		sim_new(NULL, SIM_CHURN,
			churn_params[below(&r, sizeof(churn_params) / sizeof(char *))]);
		usleep(below(&r, 20000));
		sim_del(NULL, SIM_CHURN);
		if (chance(&r, 5)) {	/* a stable device goes and comes back */
			unsigned int i = below(&r, SIM_STABLE);

			sim_del(NULL, SIM_BASE + i);
			sim_new(NULL, SIM_BASE + i, stable_params[i]);
		}
		if (opt_rmmod && now_ns() - last_rmmod > 3000000000ULL) {
			uint64_t t0 = now_ns();
			int err = syscall(SYS_delete_module, "amdx_sim",
					  O_NONBLOCK) ? errno : 0;

			count(NULL, 32 + OP_RMMOD, err, now_ns() - t0);
			t0 = now_ns();
			err = -mod_load("amdx_sim");
			count(NULL, 32 + OP_INSMOD, err == EEXIST ? 0 : err,
			      now_ns() - t0);
			create_stable(NULL);
			last_rmmod = now_ns();
		}
		usleep(below(&r, 20000));
	}
	return NULL;
}

/* ---- report ---------------------------------------------------------- */

static void report(double secs)
{
	unsigned long total = atomic_load(&st->calls);

	if (canary_broken()) {
		printf("# the counters were overwritten (see CORRUPTION above): no counts\n");
		return;
	}
	printf("# calls %lu in %.1f s (%.0f/s), %lu as uid %d, %lu userfaultfd stalls\n",
	       total, secs, total / secs, atomic_load(&st->calls_unpriv),
	       UNPRIV_UID, atomic_load(&st->uffd_faults));
	printf("# %-20s %9s %9s %8s  errnos\n", "call", "calls", "ok",
	       "max_ms");
	for (unsigned int row = 0; row < NR_ROWS; row++) {
		unsigned long n = 0;
		char line[1024];
		int len = 0;

		if (row >= fz_nioctls && row < 32)
			continue;
		for (int e = 0; e < ERRNO_MAX; e++)
			n += atomic_load(&st->by_errno[row][e]);
		if (!n)
			continue;
		for (int e = 1; e < ERRNO_MAX && len < 900; e++) {
			unsigned long c = atomic_load(&st->by_errno[row][e]);

			if (c)
				len += snprintf(line + len, sizeof(line) - len,
						" %s:%lu", e == ERRNO_MAX - 1 ? "?" :
						strerrorname_np(e) ?: "?", c);
		}
		line[len] = 0;
		printf("# %-20s %9lu %9lu %8.1f %s\n", row_name(row), n,
		       atomic_load(&st->by_errno[row][0]),
		       atomic_load(&st->max_ns[row]) / 1e6, line);
	}
	printf("# per errno:");
	for (int e = 0; e < ERRNO_MAX; e++) {
		unsigned long c = 0;

		for (unsigned int row = 0; row < NR_ROWS; row++)
			c += atomic_load(&st->by_errno[row][e]);
		if (c)
			printf(" %s:%lu", e ? strerrorname_np(e) ?: "?" : "OK", c);
	}
	printf("\n");
}

static unsigned long row_calls(unsigned int row)
{
	unsigned long n = 0;

	for (int e = 0; e < ERRNO_MAX; e++)
		n += atomic_load(&st->by_errno[row][e]);
	return n;
}

/*
 * The harness's own check: what the run reached, not how fast.  Every
 * ioctl of the table was issued (but those -x excludes), each kind of fd
 * was opened and used (device fds and event fds handed out, an event fd
 * read and polled, fdinfo read, /dev/amdx opened and fds closed), the
 * churn thread made and removed devices, and the errno classes every run
 * meets were seen (EINVAL, EFAULT, ENOTTY; EPERM from uid 1000).  A
 * "# not reached:" line names each gap.
 */
static bool reached_everything(bool hang)
{
	static const int common[] = { EINVAL, EFAULT, ENOTTY, EPERM };
	static const unsigned int used[] = {
		OP_READ, OP_POLL, OP_FDINFO, OP_OPEN_CTL, OP_CLOSE,
	};
	bool ok = !hang;

	if (canary_broken())
		return false;
	for (unsigned int row = 0; row < fz_nioctls; row++) {
		if (is_excluded(fz_ioctls[row].name) || row_calls(row))
			continue;
		printf("# not reached: ioctl %s\n", fz_ioctls[row].name);
		ok = false;
	}
	for (unsigned int row = 0; row < fz_nioctls; row++) {
		const char *n = fz_ioctls[row].name;

		if ((!strcmp(n, "DEVICE_OPEN") || !strcmp(n, "EVENT_SUBSCRIBE")) &&
		    !is_excluded(n) && !atomic_load(&st->by_errno[row][0])) {
			printf("# not reached: %s never handed out an fd\n", n);
			ok = false;
		}
	}
	for (size_t i = 0; i < sizeof(used) / sizeof(used[0]); i++) {
		if (row_calls(32 + used[i]))
			continue;
		printf("# not reached: %s\n", pseudo_names[used[i]]);
		ok = false;
	}
	if (opt_churn && (!row_calls(32 + OP_NEW_DEVICE) ||
			  !row_calls(32 + OP_DEL_DEVICE))) {
		printf("# not reached: device churn\n");
		ok = false;
	}
	for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++) {
		unsigned long c = 0;

		if (common[i] == EPERM && !opt_unpriv)
			continue;
		for (unsigned int row = 0; row < NR_ROWS; row++)
			c += atomic_load(&st->by_errno[row][common[i]]);
		if (c)
			continue;
		printf("# not reached: errno %s\n", strerrorname_np(common[i]));
		ok = false;
	}
	return ok;
}

static char cmdline[4096];

/* amdx.fuzz_seconds=S and amdx.fuzz_exclude=IOCTL,IOCTL (make fuzz). */
static unsigned int cmdline_seconds(void)
{
	FILE *f = fopen("/proc/cmdline", "r");
	char *p;

	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = 0;
		fclose(f);
	}
	p = strstr(cmdline, "amdx.fuzz_exclude=");
	if (p) {
		p += strlen("amdx.fuzz_exclude=");
		p[strcspn(p, " \n")] = 0;
		for (char *tok = strtok(p, ","); tok && nexcluded < 16;
		     tok = strtok(NULL, ","))
			excluded[nexcluded++] = tok;
	}
	p = strstr(cmdline, "amdx.fuzz_seconds=");
	return p ? strtoul(p + strlen("amdx.fuzz_seconds="), NULL, 10) : 0;
}

static void dump_stuck(void)
{
	for (unsigned int i = 0; i < nthreads; i++) {
		int row = atomic_load(&threads[i].in_row);

		if (row >= 0)
			printf("# thread %u still in %s\n", i, row_name(row));
	}
	fflush(stdout);
	system("for s in /proc/[0-9]*/task/*/stack; do "
	       "grep -q amdx $s 2>/dev/null && { echo \"# $s\"; sed 's/^/#   /' $s; }; "
	       "done");
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* The plan says 6: every result, skipped. */
static void skip_all(const char *why)
{
	for (int i = 1; i <= 6; i++)
		printf("ok %d # SKIP %s\n", i, why);
}

/* A process of render user @uid running fuzzing thread @slot; its pid. */
static pid_t unpriv_process(uid_t uid, unsigned int slot)
{
	gid_t render = RENDER_GID;
	pid_t pid = fork();

	if (pid)
		return pid;
	if (setgroups(1, &render) || setgid(uid) || setuid(uid))
		_exit(3);
	if (run_threads(1, slot, true))
		_exit(4);
	while (!atomic_load(&st->stop))
		usleep(100000);
	pthread_join(threads[slot].tid, NULL);
	_exit(0);
}

/* Whether the unprivileged process @pid (none: -1) of @uid ended well. */
static bool unpriv_wait(pid_t pid, uid_t uid)
{
	int status = 0;

	if (pid < 0)		/* not started */
		return true;
	if (waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    !WEXITSTATUS(status))
		return true;
	printf("# uid %d process: status %#x\n", uid, status);
	return false;
}

static void usage(void)
{
	fprintf(stderr, "usage: amdx_fuzz_test [-n CALLS] [-t SECONDS] [-j THREADS] "
		"[-s SEED] [-x IOCTL]... [--rmmod] [--no-churn] [--no-unpriv]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "rmmod", no_argument, NULL, 'R' },
		{ "no-churn", no_argument, NULL, 'C' },
		{ "no-unpriv", no_argument, NULL, 'U' },
		{ 0 },
	};
	pthread_t churn, uh;
	pid_t child = -1, child2 = -1;
	uint64_t start, last_progress;
	unsigned long last_calls = 0;
	bool hang = false, child_ok = true;
	int fds_base, fds_left;
	int c;

	opt_seed = now_ns();
	while ((c = getopt_long(argc, argv, "n:t:j:s:x:", lopts, NULL)) != -1) {
		switch (c) {
		case 'n': opt_calls = strtoul(optarg, NULL, 0); break;
		case 't': opt_seconds = strtoul(optarg, NULL, 0); break;
		case 'j': opt_threads = strtoul(optarg, NULL, 0); break;
		case 's': opt_seed = strtoull(optarg, NULL, 0); break;
		case 'x':
			if (nexcluded < 16)
				excluded[nexcluded++] = optarg;
			break;
		case 'R': opt_rmmod = true; break;
		case 'C': opt_churn = false; break;
		case 'U': opt_unpriv = false; break;
		default: usage();
		}
	}
	c = cmdline_seconds();
	if (c) {
		opt_seconds = c;
		fixed_duration = opt_rmmod = true;
	}

	if (!opt_threads || opt_threads > MAX_THREADS - 2)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..6\n");
	printf("# amdx_fuzz: seed %llu, %u threads, %s, %lu calls, %u s (0: no limit)%s%s%s\n",
	       opt_seed, opt_threads, fixed_duration ? "fixed duration" : "call budget",
	       opt_calls, opt_seconds, opt_churn ? ", device churn" : "",
	       opt_rmmod ? ", rmmod/insmod amdx_sim" : "",
	       opt_unpriv ? ", uids 1000 and 1002" : "");
	printf("# uapi: %u ioctls, %u structs, %u constants\n", fz_nioctls,
	       fz_nstructs, fz_nconsts);
	for (unsigned int i = 0; i < nexcluded; i++)
		printf("# not issued: %s\n", excluded[i]);

	st = shared_guarded(sizeof(*st));
	if (!st || setup_memory()) {
		printf("Bail out! no memory\n");
		return 1;
	}
	canaries_init();
	if (getenv("AMDX_FUZZ_CTL")) {
		ctl_path = getenv("AMDX_FUZZ_CTL");
	} else if (access("/dev/amdx", F_OK) || access("/sys/bus/amdx_sim", F_OK)) {
		skip_all("amdx or amdx_sim not loaded");
		return 4;
	} else if (getenv("AMDX_VM_MODE") &&
		   !strcmp(getenv("AMDX_VM_MODE"), "stock")) {
		/* No KASAN, lockdep or kmemleak there to judge the calls. */
		skip_all("a stock kernel: the test kernels run the fuzzer");
		return 4;
	}
	signal(SIGPIPE, SIG_IGN);
	create_stable(NULL);

	/*
	 * The unprivileged processes fork before any thread exists: two
	 * render users, so that one user's share of a per-user cap meets
	 * the other's.
	 */
	if (opt_unpriv) {
		child = unpriv_process(UNPRIV_UID, MAX_THREADS - 1);
		child2 = unpriv_process(UNPRIV_UID2, MAX_THREADS - 2);
	}
	if (uffd_setup() == 0)
		pthread_create(&uh, NULL, uffd_handler, NULL);
	/*
	 * Before any thread: the fuzzing threads open fds from their first
	 * call on, and counting after they started took some of those into
	 * the base, which then hid as many leaked ones.
	 */
	fds_base = count_fds();
	if (run_threads(opt_threads, 0, false)) {
		printf("Bail out! cannot start threads\n");
		atomic_store(&st->stop, 1);
		return 1;
	}
	if (opt_churn)
		pthread_create(&churn, NULL, churn_thread, NULL);

	start = last_progress = now_ns();
	for (;;) {
		uint64_t now = now_ns();
		unsigned long calls = atomic_load(&st->calls);

		usleep(100000);
		if (!fixed_duration && calls >= opt_calls)
			break;
		if (opt_seconds && now - start >= opt_seconds * 1000000000ULL)
			break;
		if (calls / 20000 != last_calls / 20000)
			printf("# calls %lu after %.0f s\n", calls,
			       (now - start) / 1e9);
		if (calls != last_calls) {
			last_calls = calls;
			last_progress = now;
		} else if (now - last_progress > 60000000000ULL) {
			printf("# no call finished for 60 s\n");
			hang = true;
			dump_stuck();
			break;
		}
	}
	atomic_store(&st->stop, 1);
	for (unsigned int i = 0; i < nthreads; i++) {
		struct timespec ts;

		if (!threads[i].tid || threads[i].unpriv)
			continue;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 60;
		if (pthread_timedjoin_np(threads[i].tid, NULL, &ts)) {
			printf("# thread %u did not stop\n", i);
			hang = true;
		}
	}
	if (hang)
		dump_stuck();
	if (opt_churn && !hang)
		pthread_join(churn, NULL);
	child_ok = unpriv_wait(child, UNPRIV_UID) &&
		   unpriv_wait(child2, UNPRIV_UID2);
	report((now_ns() - start) / 1e9);

	for (unsigned int i = 0; i < nthreads && !hang; i++) {
		struct thread *t = &threads[i];

		for (unsigned int k = 0; k < MAX_DEVFDS; k++)
			if (t->dev[k].fd >= 0)
				close(t->dev[k].fd);
		for (unsigned int k = 0; k < MAX_EVFDS; k++)
			if (t->ev[k] >= 0)
				close(t->ev[k]);
	}
	for (unsigned int i = 0; i < nthreads && !hang; i++)
		if (!threads[i].unpriv)
			close(threads[i].ctl);
	fds_left = count_fds() - fds_base;
	if (!access("/sys/module/amdx_sim", F_OK)) {
		for (unsigned int i = 0; i <= SIM_CHURN - SIM_BASE; i++)
			sim_del(NULL, SIM_BASE + i);
	} else if (mod_load("amdx_sim")) {
		printf("# amdx_sim is not loaded any more and does not load\n");
		hang = true;
	}

	unsigned long total = atomic_load(&st->calls);
	bool ok_calls = reached_everything(hang);
	bool ok_errno = !atomic_load(&st->bad_errno);
	bool ok_unpriv = !opt_unpriv ||
		(child_ok && !atomic_load(&st->priv_escapes) &&
		 atomic_load(&st->calls_unpriv) > 0);

	printf("# fds left open after closing every fd the fuzzer knows: %d\n",
	       fds_left);
	printf("%sok 1 every ioctl, kind of fd and common errno reached in %lu calls\n",
	       ok_calls ? "" : "not ", total);
	if (!ok_errno)
		printf("# %lu bad results, first: %s\n",
		       atomic_load(&st->bad_errno), st->first_bad);
	printf("%sok 2 every errno is one amdx documents\n", ok_errno ? "" : "not ");
	printf("%sok 3 every call returned\n", hang ? "not " : "");
	printf("%sok 4 uid %d: privileged commands refused\n",
	       ok_unpriv ? "" : "not ", UNPRIV_UID);
	printf("%sok 5 no fd installed that the caller was not told of\n",
	       fds_left <= 0 || hang ? "" : "not ");
	printf("%sok 6 no write to memory the calls did not name\n",
	       corrupted_here || canary_broken() ? "not " : "");
	fflush(stdout);
	if (hang)
		_exit(1);
	return ok_calls && ok_errno && ok_unpriv && fds_left <= 0 &&
	       !corrupted_here && !canary_broken() ? 0 : 1;
}
