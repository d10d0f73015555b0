// SPDX-License-Identifier: GPL-2.0
/*
 * amdx_hmm_bench: migration throughput of amdx against the kernel's own
 * HMM test driver (test_hmm.ko) and plain memcpy, in one run.
 *
 * For each size (4 KiB .. 256 MiB, skipping what does not fit memory
 * partition 0 of the first amdx device) and each of N repetitions:
 *
 *   amdx      mmap + fill, SET_ATTR (preferred partition 0), then timed:
 *             MIGRATE to partition 0 ("to-dev"), MIGRATE to system
 *             ("to-sys"); then MIGRATE to partition 0 again untimed and
 *             read one word per page from the CPU ("fault": every read is a
 *             migrate_to_ram fault back to system memory).
 *   test_hmm  /dev/hmm_dmirror0: HMM_DMIRROR_MIGRATE_TO_DEV ("to-dev"),
 *             HMM_DMIRROR_MIGRATE_TO_SYS ("back").  Note that 6.1's
 *             MIGRATE_TO_DEV also reads the whole range back through the
 *             device mirror into cmd.ptr (dmirror_migrate_to_device() in
 *             lib/test_hmm.c), so its to-dev time includes that copy.
 *   memcpy    between two pre-faulted buffers of the same size.
 *
 * Reports the median of the repetitions.  This is a benchmark, not a test:
 * it exits non-zero only if it cannot run at all or data was corrupted.
 *
 * usage: amdx_hmm_bench [-n REPS] [-d /dev/amdx] [-m /dev/hmm_dmirror0]
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

enum col { AMDX_DEV, AMDX_SYS, AMDX_FAULT, HMM_DEV, HMM_SYS, MEMCPY, NCOLS };

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

/* Median of @n samples; 0 if there are none (a failed column). */
static uint64_t median(uint64_t *v, int n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
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

/* ---- report */

static void col(double bytes, uint64_t ns)
{
	if (ns)
		printf(" %9.3f", bytes / (double)ns);	/* bytes/ns = GB/s */
	else
		printf(" %9s", "-");
}

static void ratio(uint64_t num_ns, uint64_t den_ns)
{
	/* Throughput ratio a/b = time b / time a. */
	if (num_ns && den_ns)
		printf(" %8.2f", (double)den_ns / (double)num_ns);
	else
		printf(" %8s", "-");
}

int main(int argc, char **argv)
{
	const char *amdx_node = "/dev/amdx", *hmm_node = "/dev/hmm_dmirror0";
	uint64_t part_free = 0;
	int reps = 5, amdx, hmm, opt;

	while ((opt = getopt(argc, argv, "n:d:m:")) != -1) {
		switch (opt) {
		case 'n':
			reps = atoi(optarg);
			break;
		case 'd':
			amdx_node = optarg;
			break;
		case 'm':
			hmm_node = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-n REPS] [-d AMDX] [-m DMIRROR]\n", argv[0]);
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

	printf("# median of %d repetitions (fewer for 256 MiB); GB/s = 1e9 bytes/s\n", reps);
	printf("# test_hmm to-dev includes its read-back of the range into cmd.ptr\n");
	printf("%-9s %9s %9s %9s %9s %9s %9s %9s %8s %8s\n", "size",
	       "amdx-dev", "us/page", "amdx-sys", "amdx-flt", "hmm-dev", "hmm-sys",
	       "memcpy", "amdx/hmm", "amdx/cpy");
	for (int s = 0; s < NSIZES; s++) {
		uint64_t size = sizes[s], samples[NCOLS][MAX_REPS], med[NCOLS];
		int n[NCOLS] = { 0 }, r_max = size >= (256ULL << 20) && reps > 3 ? 3 : reps;
		char label[16];

		if (size > part_free) {
			printf("# %llu KiB: skipped, partition 0 has %llu KiB free\n",
			       (unsigned long long)(size >> 10),
			       (unsigned long long)(part_free >> 10));
			continue;
		}
		for (int r = 0; r < r_max; r++) {
			uint64_t t[NCOLS] = { 0 };

			if (!amdx_rep(amdx, size, t)) {
				samples[AMDX_DEV][n[AMDX_DEV]++] = t[AMDX_DEV];
				samples[AMDX_SYS][n[AMDX_SYS]++] = t[AMDX_SYS];
				samples[AMDX_FAULT][n[AMDX_FAULT]++] = t[AMDX_FAULT];
			}
			if (hmm >= 0 && !hmm_rep(hmm, size, t)) {
				samples[HMM_DEV][n[HMM_DEV]++] = t[HMM_DEV];
				samples[HMM_SYS][n[HMM_SYS]++] = t[HMM_SYS];
			}
			if (!memcpy_rep(size, t))
				samples[MEMCPY][n[MEMCPY]++] = t[MEMCPY];
		}
		for (int c = 0; c < NCOLS; c++)
			med[c] = median(samples[c], n[c]);

		if (size >= (1ULL << 20))
			snprintf(label, sizeof(label), "%lluM", (unsigned long long)(size >> 20));
		else
			snprintf(label, sizeof(label), "%lluK", (unsigned long long)(size >> 10));
		printf("%-9s", label);
		col((double)size, med[AMDX_DEV]);
		if (med[AMDX_DEV])
			printf(" %9.3f", (double)med[AMDX_DEV] / 1000.0 / (double)(size / page));
		else
			printf(" %9s", "-");
		col((double)size, med[AMDX_SYS]);
		col((double)size, med[AMDX_FAULT]);
		col((double)size, med[HMM_DEV]);
		col((double)size, med[HMM_SYS]);
		col((double)size, med[MEMCPY]);
		ratio(med[AMDX_DEV], med[HMM_DEV]);
		ratio(med[AMDX_DEV], med[MEMCPY]);
		printf("\n");
		fflush(stdout);
	}
	printf("# columns: amdx-dev/-sys MIGRATE to partition 0 / to system; amdx-flt CPU\n"
	       "# faults back; hmm-dev/-sys test_hmm MIGRATE_TO_DEV / _TO_SYS; ratios are\n"
	       "# amdx-dev throughput over hmm-dev and over memcpy\n");
	if (hmm >= 0)
		close(hmm);
	close(amdx);
	if (corrupt)
		fprintf(stderr, "amdx_hmm_bench: data corrupted (see above)\n");
	return corrupt ? 1 : 0;
}
