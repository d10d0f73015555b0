// SPDX-License-Identifier: GPL-2.0
/*
 * amdx_hmm_bench: migration throughput of amdx against the kernel's own
 * floor (amdx_bench.ko), the kernel's HMM test driver (test_hmm.ko) and
 * plain memcpy, in one run.
 *
 * For each size (4 KiB .. 256 MiB, skipping what does not fit memory
 * partition 0 of the first amdx device) and each of N repetitions:
 *
 *   amdx      mmap + fill, SET_ATTR (preferred partition 0), then timed:
 *             MIGRATE to partition 0 ("to-dev"), MIGRATE to system
 *             ("to-sys"); then MIGRATE to partition 0 again untimed and
 *             read one word per page from the CPU ("fault": the first read
 *             of each 2 MiB is a migrate_to_ram fault that moves it home).
 *   floor     /dev/amdx_bench_floor: the same three moves of the same size
 *             by a driver that does only what migrate_vma requires
 *             (drivers/amdx_bench/amdx_bench_floor.c), with the time of
 *             each of its phases; amdx and the floor alternate which goes
 *             first.
 *   test_hmm  /dev/hmm_dmirror0: HMM_DMIRROR_MIGRATE_TO_DEV ("to-dev"),
 *             HMM_DMIRROR_MIGRATE_TO_SYS ("back").  Note that 6.1's
 *             MIGRATE_TO_DEV also reads the whole range back through the
 *             device mirror into cmd.ptr (dmirror_migrate_to_device() in
 *             lib/test_hmm.c), so its to-dev time includes that copy.
 *   memcpy    between two pre-faulted buffers of the same size.
 *
 * Reports the best (shortest) of MAX_REPS repetitions (-n sets fewer; 3
 * at 256 MiB), or with -s median their median: on a shared host the best
 * is the one other load disturbed least, and amdx and the floor alternate
 * going first, so neither is favoured.
 * This is a benchmark, not a test:
 * it exits non-zero only if it cannot run at all or data was corrupted.
 *
 * Before timing, both devices are warmed (warm_up(); -w skips it).
 *
 * usage: amdx_hmm_bench [-n REPS] [-s best|median] [-w] [-d /dev/amdx]
 *                       [-m /dev/hmm_dmirror0] [-f /dev/amdx_bench_floor]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/amdx.h>

#include "amdx_bench_floor.h"

/*
 * From the Linux 6.1 uapi of test_hmm, lib/test_hmm_uapi.h (GPL-2.0 WITH
 * Linux-syscall-note): only what this benchmark uses.
 */
struct hmm_dmirror_cmd {
	__u64 addr;
	__u64 ptr;
	__u64 npages;
	__u64 cpages;
	__u64 faults;
};

#define HMM_DMIRROR_MIGRATE_TO_DEV	_IOWR('H', 0x02, struct hmm_dmirror_cmd)
#define HMM_DMIRROR_MIGRATE_TO_SYS	_IOWR('H', 0x03, struct hmm_dmirror_cmd)
/* end of test_hmm_uapi.h */

#define MAX_REPS	15
#define NSIZES		6

static const uint64_t sizes[NSIZES] = {
	4ULL << 10, 64ULL << 10, 2ULL << 20, 16ULL << 20, 64ULL << 20, 256ULL << 20,
};

enum col {
	AMDX_DEV, AMDX_SYS, AMDX_FAULT, FLR_DEV, FLR_SYS, FLR_FAULT,
	HMM_DEV, HMM_SYS, MEMCPY, NCOLS
};

/* The floor's phase times of one repetition: [to-dev, home][phase]. */
struct phases {
	uint64_t ns[2][AMDX_BENCH_FLOOR_NPHASES];
};

static const char *const phase_names[AMDX_BENCH_FLOOR_NPHASES] = {
	"setup", "alloc", "copy", "pages", "finalize",
};

static long page;
static int corrupt;
/* The CPU reads of the fault-back loop go here so they are not elided. */
uint64_t amdx_bench_sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do
		ret = ioctl(fd, req, arg);
	while (ret < 0 && errno == EINTR);
	return ret;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int use_median;
static int no_warm;

/* The best or the median of @n samples; 0 if there are none (a failed column). */
static uint64_t stat(uint64_t *v, int n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	if (!use_median)
		return v[0];
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void *map(uint64_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void fill(uint64_t *w, uint64_t size, uint64_t seed)
{
	for (uint64_t i = 0; i < size / 8; i++)
		w[i] = (i + seed) * 0x9e3779b97f4a7c15ULL;
}

static void check(const uint64_t *w, uint64_t size, uint64_t seed,
		  const char *who)
{
	for (uint64_t i = 0; i < size / 8; i += 61) {
		if (w[i] != (i + seed) * 0x9e3779b97f4a7c15ULL) {
			fprintf(stderr, "%s: data corrupted at offset %llu\n",
				who, (unsigned long long)(i * 8));
			corrupt = 1;
			return;
		}
	}
}

/* ---- amdx: the first device with HMM, partition 0 */

static int amdx_query(int fd, __u32 what, __u32 id, void *buf, __u32 *size)
{
	struct amdx_query q = {
		.query = what, .size = *size,
		.data = (uintptr_t)buf, .id = id,
	};
	int ret = xioctl(fd, AMDX_IOC_QUERY, &q);

	*size = q.size;
	return ret;
}

/* Returns a device fd and the free bytes of its partition 0, or -1. */
static int amdx_open(const char *node, uint64_t *part_free)
{
	struct amdx_query_caps caps = { 0 };
	struct amdx_device_info info = { 0 };
	struct amdx_device_open op = { 0 };
	struct amdx_query_devices *list = NULL;
	__u32 size = sizeof(caps);
	int ctl, ret = -1;

	ctl = open(node, O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		fprintf(stderr, "amdx: %s: %s\n", node, strerror(errno));
		return -1;
	}
	if (amdx_query(ctl, AMDX_QUERY_CAPS, 0, &caps, &size) < 0 ||
	    !(caps.caps & AMDX_CAP_HMM_MIGRATE)) {
		fprintf(stderr, "amdx: no AMDX_CAP_HMM_MIGRATE\n");
		goto out;
	}
	size = 0;
	if (amdx_query(ctl, AMDX_QUERY_DEVICES, 0, NULL, &size) < 0)
		goto out_err;
	list = calloc(1, size);
	if (!list || amdx_query(ctl, AMDX_QUERY_DEVICES, 0, list, &size) < 0)
		goto out_err;
	if (!list->num_devices || list->entry_size < 40) {
		fprintf(stderr, "amdx: no devices\n");
		goto out;
	}
	/* Devices are sorted by id; the first one's id is at offset 0. */
	op.id = list->devices[0].id;
	size = sizeof(info);
	if (amdx_query(ctl, AMDX_QUERY_DEVICE_INFO, op.id, &info, &size) < 0)
		goto out_err;
	if (!(info.flags & AMDX_DEVICE_F_HMM) || !info.num_mem_partitions) {
		fprintf(stderr, "amdx: device %u has no HMM VRAM\n", op.id);
		goto out;
	}
	*part_free = info.mem_partitions[0].free;
	if (xioctl(ctl, AMDX_IOC_DEVICE_OPEN, &op) < 0)
		goto out_err;
	ret = op.fd;
	printf("# amdx device %u (%s), partition 0: %llu MiB free\n", op.id,
	       (char *)info.bdf, (unsigned long long)(*part_free >> 20));
	goto out;
out_err:
	fprintf(stderr, "amdx: %s\n", strerror(errno));
out:
	free(list);
	close(ctl);
	return ret;
}

static int amdx_migrate(int fd, void *p, uint64_t size, __u32 dest,
			uint64_t *ns)
{
	struct amdx_hmm_migrate m = {
		.start = (uintptr_t)p, .size = size, .dest = dest,
	};
	uint64_t t0 = now_ns();

	if (xioctl(fd, AMDX_IOC_HMM_MIGRATE, &m) < 0) {
		fprintf(stderr, "amdx: migrate %llu bytes to %#x: %s\n",
			(unsigned long long)size, dest, strerror(errno));
		return -1;
	}
	*ns = now_ns() - t0;
	if (m.moved != size / page) {
		fprintf(stderr,
			"amdx: migrate to %#x moved %llu of %llu pages (skip reasons %#x)\n",
			dest, (unsigned long long)m.moved,
			(unsigned long long)(size / page), m.skip_reasons);
		return -1;
	}
	return 0;
}

/* One repetition; fills t[AMDX_*] with ns, or returns -1. */
static int amdx_rep(int fd, uint64_t size, uint64_t *t)
{
	struct amdx_hmm_attr attr = {
		.start = 0, .size = size,
		.valid = AMDX_HMM_ATTR_PREFERRED_LOC, .preferred_loc = 0,
	};
	uint64_t *p = map(size), t0, ns, sum = 0;
	int ret = -1;

	if (!p)
		return -1;
	fill(p, size, size);
	attr.start = (uintptr_t)p;
	if (xioctl(fd, AMDX_IOC_HMM_SET_ATTR, &attr) < 0) {
		fprintf(stderr, "amdx: set_attr: %s\n", strerror(errno));
		goto out;
	}
	if (amdx_migrate(fd, p, size, 0, &t[AMDX_DEV]) ||
	    amdx_migrate(fd, p, size, AMDX_HMM_LOC_SYSTEM, &t[AMDX_SYS]) ||
	    amdx_migrate(fd, p, size, 0, &ns))
		goto out;
	t0 = now_ns();
	for (uint64_t i = 0; i < size / 8; i += page / 8)
		sum += p[i];
	t[AMDX_FAULT] = now_ns() - t0;
	amdx_bench_sink += sum;
	check(p, size, size, "amdx");
	ret = 0;
out:
	munmap(p, size);
	return ret;
}

/* ---- the floor: amdx_bench.ko */

static int floor_migrate(int fd, void *p, uint64_t size, int to_dev,
			 uint64_t *ns, uint64_t *phase_ns)
{
	struct amdx_bench_floor_migrate m = {
		.start = (uintptr_t)p, .size = size,
		.flags = to_dev ? AMDX_BENCH_FLOOR_TO_DEV : 0,
	};
	uint64_t t0 = now_ns();

	if (xioctl(fd, AMDX_BENCH_FLOOR_MIGRATE, &m) < 0) {
		fprintf(stderr, "floor: migrate %llu bytes %s: %s\n",
			(unsigned long long)size, to_dev ? "to device" : "home",
			strerror(errno));
		return -1;
	}
	*ns = now_ns() - t0;
	if (m.moved != size / page) {
		fprintf(stderr, "floor: moved %llu of %llu pages %s\n",
			(unsigned long long)m.moved,
			(unsigned long long)(size / page),
			to_dev ? "to device" : "home");
		return -1;
	}
	if (phase_ns)
		memcpy(phase_ns, m.ns, sizeof(m.ns));
	return 0;
}

/* One repetition, the moves of amdx_rep(); fills t[FLR_*] and @ph. */
static int floor_rep(int fd, uint64_t size, uint64_t *t, struct phases *ph)
{
	uint64_t *p = map(size), t0, ns, sum = 0;
	int ret = -1;

	if (!p)
		return -1;
	fill(p, size, size + 1);
	if (floor_migrate(fd, p, size, 1, &t[FLR_DEV], ph->ns[0]) ||
	    floor_migrate(fd, p, size, 0, &t[FLR_SYS], ph->ns[1]) ||
	    floor_migrate(fd, p, size, 1, &ns, NULL))
		goto out;
	t0 = now_ns();
	for (uint64_t i = 0; i < size / 8; i += page / 8)
		sum += p[i];
	t[FLR_FAULT] = now_ns() - t0;
	amdx_bench_sink += sum;
	check(p, size, size + 1, "floor");
	ret = 0;
out:
	munmap(p, size);
	return ret;
}

/* ---- test_hmm */

static int hmm_rep(int fd, uint64_t size, uint64_t *t)
{
	struct hmm_dmirror_cmd cmd = { 0 };
	uint64_t *p = map(size), *bounce = map(size), t0;
	int ret = -1;

	if (!p || !bounce)
		goto out;
	fill(p, size, ~size);
	cmd.addr = (uintptr_t)p;
	cmd.ptr = (uintptr_t)bounce;
	cmd.npages = size / page;
	t0 = now_ns();
	if (xioctl(fd, HMM_DMIRROR_MIGRATE_TO_DEV, &cmd) < 0) {
		fprintf(stderr, "test_hmm: migrate to device: %s\n", strerror(errno));
		goto out;
	}
	t[HMM_DEV] = now_ns() - t0;
	check(bounce, size, ~size, "test_hmm (device copy)");
	memset(&cmd, 0, sizeof(cmd));
	cmd.addr = (uintptr_t)p;
	cmd.ptr = (uintptr_t)bounce;
	cmd.npages = size / page;
	t0 = now_ns();
	if (xioctl(fd, HMM_DMIRROR_MIGRATE_TO_SYS, &cmd) < 0) {
		fprintf(stderr, "test_hmm: migrate to system: %s\n", strerror(errno));
		goto out;
	}
	t[HMM_SYS] = now_ns() - t0;
	check(p, size, ~size, "test_hmm");
	ret = 0;
out:
	if (p)
		munmap(p, size);
	if (bounce)
		munmap(bounce, size);
	return ret;
}

static int memcpy_rep(uint64_t size, uint64_t *t)
{
	uint64_t *src = map(size), *dst = map(size), t0;
	int ret = -1;

	if (!src || !dst)
		goto out;
	fill(src, size, 1);
	memset(dst, 0, size);
	t0 = now_ns();
	memcpy(dst, src, size);
	t[MEMCPY] = now_ns() - t0;
	check(dst, size, 1, "memcpy");
	ret = 0;
out:
	if (src)
		munmap(src, size);
	if (dst)
		munmap(dst, size);
	return ret;
}

/*
 * Give every device page its contents page before timing: amdx_sim and the
 * floor allocate the system page behind a VRAM page at its first use (real
 * VRAM has none), and amdx's allocator walks the whole partition (next
 * fit) where the floor's reuses the last page freed (a stack).  Once
 * warmed, both measure migration, not the simulator's first touch.
 */
static void warm_up(int amdx, int flr, uint64_t amdx_bytes, uint64_t flr_bytes)
{
	struct amdx_hmm_attr attr = {
		.size = amdx_bytes,
		.valid = AMDX_HMM_ATTR_PREFERRED_LOC, .preferred_loc = 0,
	};
	uint64_t ns, t0 = now_ns();
	void *p;

	p = map(amdx_bytes);
	if (p) {
		memset(p, 1, amdx_bytes);
		attr.start = (uintptr_t)p;
		if (!xioctl(amdx, AMDX_IOC_HMM_SET_ATTR, &attr) &&
		    !amdx_migrate(amdx, p, amdx_bytes, 0, &ns))
			amdx_migrate(amdx, p, amdx_bytes, AMDX_HMM_LOC_SYSTEM, &ns);
		munmap(p, amdx_bytes);
	}
	p = flr >= 0 ? map(flr_bytes) : NULL;
	if (p) {
		memset(p, 1, flr_bytes);
		if (!floor_migrate(flr, p, flr_bytes, 1, &ns, NULL))
			floor_migrate(flr, p, flr_bytes, 0, &ns, NULL);
		munmap(p, flr_bytes);
	}
	printf("# warm-up: %llu MiB to amdx, %llu MiB to the floor and back, %.1f s\n",
	       (unsigned long long)(amdx_bytes >> 20),
	       (unsigned long long)(flr >= 0 ? flr_bytes >> 20 : 0),
	       (double)(now_ns() - t0) / 1e9);
}

/* ---- report */

static void col(double bytes, uint64_t ns)
{
	if (ns)
		printf(" %8.3f", bytes / (double)ns);	/* bytes/ns = GB/s */
	else
		printf(" %8s", "-");
}

static void ratio(uint64_t num_ns, uint64_t den_ns)
{
	/* Throughput ratio a/b = time b / time a. */
	if (num_ns && den_ns)
		printf(" %8.2f", (double)den_ns / (double)num_ns);
	else
		printf(" %8s", "-");
}

static void size_label(char *buf, size_t len, uint64_t size)
{
	if (size >= (1ULL << 20))
		snprintf(buf, len, "%lluM", (unsigned long long)(size >> 20));
	else
		snprintf(buf, len, "%lluK", (unsigned long long)(size >> 10));
}

/* The statistic of each column of one size, for the tables at the end. */
struct result {
	uint64_t size;
	uint64_t val[NCOLS];
	uint64_t phase[2][AMDX_BENCH_FLOOR_NPHASES];
};

static void print_tables(const struct result *res, int nres)
{
	char label[16];

	printf("%-6s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "size",
	       "amdx-dev", "flr-dev", "amdx-sys", "flr-sys", "amdx-flt",
	       "flr-flt", "hmm-dev", "hmm-sys", "memcpy");
	for (int r = 0; r < nres; r++) {
		const uint64_t *val = res[r].val;
		double size = (double)res[r].size;

		size_label(label, sizeof(label), res[r].size);
		printf("%-6s", label);
		col(size, val[AMDX_DEV]);
		col(size, val[FLR_DEV]);
		col(size, val[AMDX_SYS]);
		col(size, val[FLR_SYS]);
		col(size, val[AMDX_FAULT]);
		col(size, val[FLR_FAULT]);
		col(size, val[HMM_DEV]);
		col(size, val[HMM_SYS]);
		col(size, val[MEMCPY]);
		printf("\n");
	}
	printf("\n# throughput ratios (amdx over the floor, test_hmm, memcpy)\n");
	printf("%-6s %8s %8s %8s %8s %8s %8s\n", "size", "dev/flr", "sys/flr",
	       "flt/flr", "dev/hmm", "sys/hmm", "dev/cpy");
	for (int r = 0; r < nres; r++) {
		const uint64_t *val = res[r].val;

		size_label(label, sizeof(label), res[r].size);
		printf("%-6s", label);
		ratio(val[AMDX_DEV], val[FLR_DEV]);
		ratio(val[AMDX_SYS], val[FLR_SYS]);
		ratio(val[AMDX_FAULT], val[FLR_FAULT]);
		ratio(val[AMDX_DEV], val[HMM_DEV]);
		ratio(val[AMDX_SYS], val[HMM_SYS]);
		ratio(val[AMDX_DEV], val[MEMCPY]);
		printf("\n");
	}
	printf("\n# the floor's phases, ns per page (%s per phase)\n",
	       use_median ? "median" : "best");
	printf("%-6s %-4s", "size", "to");
	for (int ph = 0; ph < AMDX_BENCH_FLOOR_NPHASES; ph++)
		printf(" %8s", phase_names[ph]);
	printf(" %8s\n", "total");
	for (int r = 0; r < nres; r++) {
		uint64_t pages = res[r].size / page;

		if (!res[r].val[FLR_DEV])
			continue;
		size_label(label, sizeof(label), res[r].size);
		for (int d = 0; d < 2; d++) {
			uint64_t sum = 0;

			printf("%-6s %-4s", label, d ? "sys" : "dev");
			for (int ph = 0; ph < AMDX_BENCH_FLOOR_NPHASES; ph++) {
				printf(" %8llu", (unsigned long long)
				       (res[r].phase[d][ph] / pages));
				sum += res[r].phase[d][ph];
			}
			printf(" %8llu\n", (unsigned long long)(sum / pages));
		}
	}
	printf("# columns: GB/s of amdx, the floor (amdx_bench.ko) and test_hmm:\n"
	       "# -dev to partition 0 / the device, -sys home, -flt CPU faults\n"
	       "# home (2 MiB each); hmm-dev/-sys test_hmm MIGRATE_TO_DEV/_TO_SYS;\n"
	       "# memcpy of the same size.  dev/cpy is information only.\n");
}

int main(int argc, char **argv)
{
	const char *amdx_node = "/dev/amdx", *hmm_node = "/dev/hmm_dmirror0";
	const char *floor_node = "/dev/amdx_bench_floor";
	struct result res[NSIZES];
	int reps = MAX_REPS, amdx, hmm, flr, opt, nres = 0;
	uint64_t part_free = 0;

	while ((opt = getopt(argc, argv, "n:s:wd:m:f:")) != -1) {
		switch (opt) {
		case 'n':
			reps = atoi(optarg);
			break;
		case 's':
			use_median = !strcmp(optarg, "median");
			if (!use_median && strcmp(optarg, "best")) {
				fprintf(stderr, "-s: best or median\n");
				return 2;
			}
			break;
		case 'w':
			no_warm = 1;
			break;
		case 'd':
			amdx_node = optarg;
			break;
		case 'm':
			hmm_node = optarg;
			break;
		case 'f':
			floor_node = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-n REPS] [-s best|median] [-w] [-d AMDX] [-m DMIRROR] [-f FLOOR]\n",
				argv[0]);
			return 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "-n: 1..%d\n", MAX_REPS);
		return 2;
	}
	page = sysconf(_SC_PAGESIZE);
	amdx = amdx_open(amdx_node, &part_free);
	if (amdx < 0)
		return 1;
	hmm = open(hmm_node, O_RDWR | O_CLOEXEC);
	if (hmm < 0)
		fprintf(stderr, "# %s: %s: test_hmm columns empty\n", hmm_node, strerror(errno));
	flr = open(floor_node, O_RDWR | O_CLOEXEC);
	if (flr < 0)
		fprintf(stderr, "# %s: %s: floor columns empty\n", floor_node, strerror(errno));

	printf("# %s of %d repetitions (3 at 256 MiB); GB/s = 1e9 bytes/s\n",
	       use_median ? "median" : "best", reps);
	printf("# test_hmm to-dev includes its read-back of the range into cmd.ptr\n");
	if (!no_warm)
		warm_up(amdx, flr, part_free, sizes[NSIZES - 1]);
	for (int s = 0; s < NSIZES; s++) {
		uint64_t size = sizes[s], samples[NCOLS][MAX_REPS];
		uint64_t psamples[2][AMDX_BENCH_FLOOR_NPHASES][MAX_REPS];
		int n[NCOLS] = { 0 }, r_max = size >= (256ULL << 20) && reps > 3 ? 3 : reps;
		struct result *out = &res[nres];
		int np = 0;

		if (size > part_free) {
			printf("# %llu KiB: skipped, partition 0 has %llu KiB free\n",
			       (unsigned long long)(size >> 10),
			       (unsigned long long)(part_free >> 10));
			continue;
		}
		for (int r = 0; r < r_max; r++) {
			uint64_t t[NCOLS] = { 0 };
			struct phases ph;
			int amdx_ok, floor_ok = -1;

			/* Alternate who goes first: neither always finds the caches cold. */
			if (r % 2 && flr >= 0)
				floor_ok = floor_rep(flr, size, t, &ph);
			amdx_ok = amdx_rep(amdx, size, t);
			if (!(r % 2) && flr >= 0)
				floor_ok = floor_rep(flr, size, t, &ph);
			if (!amdx_ok) {
				samples[AMDX_DEV][n[AMDX_DEV]++] = t[AMDX_DEV];
				samples[AMDX_SYS][n[AMDX_SYS]++] = t[AMDX_SYS];
				samples[AMDX_FAULT][n[AMDX_FAULT]++] = t[AMDX_FAULT];
			}
			if (!floor_ok) {
				samples[FLR_DEV][n[FLR_DEV]++] = t[FLR_DEV];
				samples[FLR_SYS][n[FLR_SYS]++] = t[FLR_SYS];
				samples[FLR_FAULT][n[FLR_FAULT]++] = t[FLR_FAULT];
				for (int d = 0; d < 2; d++)
					for (int p = 0; p < AMDX_BENCH_FLOOR_NPHASES; p++)
						psamples[d][p][np] = ph.ns[d][p];
				np++;
			}
			if (hmm >= 0 && !hmm_rep(hmm, size, t)) {
				samples[HMM_DEV][n[HMM_DEV]++] = t[HMM_DEV];
				samples[HMM_SYS][n[HMM_SYS]++] = t[HMM_SYS];
			}
			if (!memcpy_rep(size, t))
				samples[MEMCPY][n[MEMCPY]++] = t[MEMCPY];
		}
		out->size = size;
		for (int c = 0; c < NCOLS; c++)
			out->val[c] = stat(samples[c], n[c]);
		for (int d = 0; d < 2; d++)
			for (int p = 0; p < AMDX_BENCH_FLOOR_NPHASES; p++)
				out->phase[d][p] = stat(psamples[d][p], np);
		nres++;
		printf("# %llu KiB done\n", (unsigned long long)(size >> 10));
		fflush(stdout);
	}
	print_tables(res, nres);
	if (flr >= 0)
		close(flr);
	if (hmm >= 0)
		close(hmm);
	close(amdx);
	if (corrupt)
		fprintf(stderr, "amdx_hmm_bench: data corrupted (see above)\n");
	return corrupt ? 1 : 0;
}
