/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the amdx kselftests.
 */
#ifndef _AMDX_SELFTEST_H_
#define _AMDX_SELFTEST_H_

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include <linux/amdx.h>

/* Kernel constants beyond the uapi, generated from drivers/amdx (Makefile). */
#include "amdx_kconsts.h"
#include "lib/amdx_sim_ids.h"

#define AMDX_DEV_PATH "/dev/" AMDX_DEVICE_NAME

/*
 * The provider behind the suites' devices: amdx_sim, or with
 * AMDX_TEST_PROVIDER=amdgpu the fake MI300 devices of the test kernel's
 * amdgpu (drivers/amdx_amdgpu/tests/amdgpu_amdx_fake.c), which the real
 * amdgpu provider registers: amdx_sim's syntax, ids and PCI addresses.
 * What amdx_sim offers and the amdgpu provider does not (a hive, VFs,
 * missing ops, amdx_sim's debugfs knobs) fails with -EOPNOTSUPP there,
 * and the suites skip on it with the reason (AMDX_SKIP_PROVIDER()).
 */
#define AMDX_AMDGPU_FAKE_NEW_DEVICE "/sys/kernel/debug/amdgpu_amdx_fake/new_device"
#define AMDX_AMDGPU_FAKE_DEL_DEVICE "/sys/kernel/debug/amdgpu_amdx_fake/del_device"

static inline bool amdx_provider_is_amdgpu(void)
{
	const char *p = getenv("AMDX_TEST_PROVIDER");

	return p && !strcmp(p, "amdgpu");
}

/*
 * What of amdx_sim's new_device @params the amdgpu provider's fake device
 * cannot be, for a skip's reason.
 */
static inline const char *amdx_amdgpu_lacks(const char *params)
{
	if (strstr(params, "hive="))
		return "an XGMI hive (hive=)";
	if (strstr(params, "max_vfs="))
		return "SR-IOV VFs (max_vfs=)";
	if (strstr(params, "without="))
		return "ops amdx_sim leaves out (without=)";
	return params;
}

/*
 * In a kselftest_harness test or its fixture's setup (it returns, so not
 * in a helper of a test: the test would go on): against the amdgpu
 * provider, skip when @ret is -EOPNOTSUPP, what its fake device answers
 * for something it does not claim (@what), naming it.
 */
#define AMDX_SKIP_PROVIDER(ret, what) do {				\
	if ((ret) == -EOPNOTSUPP && amdx_provider_is_amdgpu())		\
		SKIP(return, "the amdgpu provider does not claim %s",	\
		     (what));						\
} while (0)

/* In a kselftest_harness test: skip against the amdgpu provider. */
#define AMDX_SKIP_AMDGPU(what) AMDX_SKIP_PROVIDER(-EOPNOTSUPP, what)

/*
 * What the amdgpu provider never claims, for AMDX_SKIP_AMDGPU(): it
 * registers no device with %AMDX_DEVICE_F_HMM (KFD SVM owns the VRAM's
 * device-private pages) and has no SR-IOV ops (GIM's job); see
 * Documentation/amdgpu.rst.
 */
#define AMDX_AMDGPU_NO_HMM	"HMM VRAM (no AMDX_DEVICE_F_HMM: KFD SVM owns it)"
#define AMDX_AMDGPU_NO_SRIOV	"SR-IOV host control (no VF ops: GIM's job)"

/* ioctl() returning 0 or -errno. */
static inline int amdx_ioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

static inline int amdx_query(int fd, uint32_t query, uint32_t id, void *buf,
			     uint32_t *size)
{
	struct amdx_query q = {
		.query = query,
		.size = *size,
		.data = (uintptr_t)buf,
		.id = id,
	};
	int ret = amdx_ioctl(fd, AMDX_IOC_QUERY, &q);

	*size = q.size;
	return ret;
}

static inline uint64_t amdx_caps(int fd)
{
	struct amdx_query_caps caps = {};
	uint32_t size = sizeof(caps);

	if (amdx_query(fd, AMDX_QUERY_CAPS, 0, &caps, &size))
		return 0;
	return caps.caps;
}

/*
 * AMDX_IOC_PARTITION_COMMIT of @compute and @memory (0: unchanged) with
 * @flags on device fd @fd: 0 or -errno.  @cfg (may be NULL) is zeroed
 * first and holds the ioctl's result after.
 */
static inline int amdx_commit_modes(int fd, uint32_t compute, uint32_t memory,
				    uint32_t flags,
				    struct amdx_partition_config *cfg)
{
	struct amdx_partition_config local;

	if (!cfg)
		cfg = &local;
	memset(cfg, 0, sizeof(*cfg));
	cfg->compute_mode = compute;
	cfg->memory_mode = memory;
	cfg->flags = flags;
	return amdx_ioctl(fd, AMDX_IOC_PARTITION_COMMIT, cfg);
}

/* Write a string to a sysfs file: 0 or -errno. */
static inline int amdx_sysfs_write(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

/* Read (one read) the file @path into @buf, terminated: 0 or -errno. */
static inline int amdx_file_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	buf[n < 0 ? 0 : n] = 0;
	return err;
}

/* Read /sys/class/amdx/amdx<id>/<name> into @buf: 0 or -errno. */
static inline int amdx_class_read(__u32 id, const char *name, char *buf,
				  size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/amdx/amdx%u/%s", id, name);
	return amdx_file_read(path, buf, len);
}

/*
 * Test data: word @i of a buffer amdx_fill() filled with @seed.  Every
 * word differs from its neighbours and from the same word of another
 * seed, so a page moved to the wrong place or left stale shows.
 */
static inline __u32 amdx_pattern(unsigned long i, __u32 seed)
{
	return (__u32)i * 2654435761U + seed;
}

static inline void amdx_fill(void *p, size_t size, __u32 seed)
{
	__u32 *w = p;
	unsigned long i;

	for (i = 0; i < size / sizeof(*w); i++)
		w[i] = amdx_pattern(i, seed);
}

/* Index of the first word of an amdx_fill() of @seed that differs, or -1. */
static inline long amdx_check(const void *p, size_t size, __u32 seed)
{
	const __u32 *w = p;
	unsigned long i;

	for (i = 0; i < size / sizeof(*w); i++)
		if (w[i] != amdx_pattern(i, seed))
			return i;
	return -1;
}

/* amdx_sim's debugfs knobs of a simulated device (amdx_sim_debugfs.c). */
#define AMDX_SIM_DEBUGFS "/sys/kernel/debug/amdx_sim"

static inline int amdx_sim_knob(unsigned int sim_id, const char *name,
				unsigned int val)
{
	char path[128], buf[16];

	if (amdx_provider_is_amdgpu())
		return -EOPNOTSUPP;
	snprintf(path, sizeof(path), AMDX_SIM_DEBUGFS "/%u/%s", sim_id, name);
	snprintf(buf, sizeof(buf), "%u", val);
	return amdx_sysfs_write(path, buf);
}

/* A number a knob of device @sim_id reads, -errno when it cannot be read. */
static inline long long amdx_sim_knob_read(unsigned int sim_id,
					   const char *name)
{
	char path[128], buf[32] = "";
	ssize_t n;
	int fd;

	if (amdx_provider_is_amdgpu())
		return -EOPNOTSUPP;
	snprintf(path, sizeof(path), AMDX_SIM_DEBUGFS "/%u/%s", sim_id, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtoll(buf, NULL, 10) : -EIO;
}

/*
 * Waits until target (@part, @vf) of device fd @fd has an action that
 * fault @kind set: a fault a provider's detection reports from its own
 * work, not from the write that caused it (amdx_sim's hang_* knobs: one
 * job_timeout_ms later).  Polls RECOVERY_PLAN every 5 ms, at most 30 s,
 * a bound no working detection comes near on any host.  Returns 0 with
 * the plan in @r, -ETIMEDOUT, or the plan's -errno.
 */
static inline int amdx_recovery_wait(int fd, __u32 part, __u32 vf,
				     __u32 kind, struct amdx_recovery *r)
{
	struct timespec t0, t;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		memset(r, 0, sizeof(*r));
		r->partition = part;
		r->vf = vf;
		r->action = AMDX_RECOVER_PENDING;
		ret = amdx_ioctl(fd, AMDX_IOC_RECOVERY_PLAN, r);
		if (ret)
			return ret;
		if (r->action != AMDX_RECOVER_NONE && r->fault == kind)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 30)
			return -ETIMEDOUT;
		usleep(5000);
	}
}

/* %AMDX_IOC_RAS_INJECT of one error. */
static inline int amdx_ras_inject(int fd, __u32 block, __u32 type,
				  __u32 instance, __u32 count, __u64 address)
{
	struct amdx_ras_inject in = {
		.block = block, .type = type, .instance = instance,
		.count = count, .address = address,
	};

	return amdx_ioctl(fd, AMDX_IOC_RAS_INJECT, &in);
}

/*
 * VRAM page index of the page at @addr in @fd's mirror
 * (%AMDX_HMM_ACCESS_SNAPSHOT's vram_pfns); ~0 when it is not in VRAM.
 */
static inline __u64 amdx_vram_pfn(int fd, const void *addr)
{
	__u64 pfn = ~0ULL;
	__u8 snap;
	struct amdx_hmm_access a = {
		.addr = (uintptr_t)addr, .size = sysconf(_SC_PAGESIZE),
		.buf = (uintptr_t)&snap, .op = AMDX_HMM_ACCESS_SNAPSHOT,
		.vram_pfns = (uintptr_t)&pfn,
	};

	return amdx_ioctl(fd, AMDX_IOC_HMM_ACCESS, &a) ? ~0ULL : pfn;
}

/* Paths of the amdx_sim bus's control files (amdx_sim_bus.c). */
#define AMDX_SIM_NEW_DEVICE "/sys/bus/amdx_sim/new_device"
#define AMDX_SIM_DEL_DEVICE "/sys/bus/amdx_sim/del_device"

/* The BDF amdx_sim gives simulated device @sim_id (amdx_sim_dev.c). */
static inline void amdx_sim_bdf(unsigned int sim_id, char *bdf, size_t len)
{
	unsigned int bus = 0xc1 + sim_id;

	snprintf(bdf, len, "%04x:%02x:00.0", bus >> 8, bus & 0xff);
}

/*
 * Create simulated device @sim_id; @params: "model=... vram=..." or "".
 * Against the amdgpu provider AMDX_TEST_AMDGPU_FAKE's keys follow
 * @params (later keys win): "aca=1 vram=65536" makes the fakes MI300Xs
 * with their firmware, amdgpu's ACA and UMC 12 in the loop; "kfd=1"
 * brings their KFD up, so that a partition switch runs amdgpu's KFD
 * bracket (Documentation/amdgpu.rst, "The fake device, user-visible").
 */
static inline int amdx_sim_new(unsigned int sim_id, const char *params)
{
	const char *more = amdx_provider_is_amdgpu() ?
			   getenv("AMDX_TEST_AMDGPU_FAKE") : NULL;
	char buf[192];

	snprintf(buf, sizeof(buf), "%u %s%s%s", sim_id, params, more ? " " : "",
		 more ?: "");
	return amdx_sysfs_write(amdx_provider_is_amdgpu() ?
				AMDX_AMDGPU_FAKE_NEW_DEVICE :
				AMDX_SIM_NEW_DEVICE, buf);
}

static inline int amdx_sim_del(unsigned int sim_id)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", sim_id);
	return amdx_sysfs_write(amdx_provider_is_amdgpu() ?
				AMDX_AMDGPU_FAKE_DEL_DEVICE :
				AMDX_SIM_DEL_DEVICE, buf);
}

/* Look up the amdx device id of the device at @bdf: 0 or -errno. */
static inline int amdx_find_device(int fd, const char *bdf, uint32_t *id)
{
	struct amdx_query_devices *res;
	struct amdx_device_entry *e;
	uint32_t size = 0, i;
	int ret;

	ret = amdx_query(fd, AMDX_QUERY_DEVICES, 0, NULL, &size);
	if (ret)
		return ret;
	res = calloc(1, size);
	if (!res)
		return -ENOMEM;
	ret = amdx_query(fd, AMDX_QUERY_DEVICES, 0, res, &size);
	if (ret)
		goto out;
	ret = -ENODEV;
	for (i = 0; i < res->num_devices; i++) {
		e = (void *)((char *)res->devices + (size_t)i * res->entry_size);
		if (!strncmp((char *)e->bdf, bdf, sizeof(e->bdf))) {
			*id = e->id;
			ret = 0;
			break;
		}
	}
out:
	free(res);
	return ret;
}

/* AMDX_IOC_DEVICE_OPEN on the control fd: a device fd or -errno. */
static inline int amdx_device_open(int fd, uint32_t id)
{
	struct amdx_device_open o = { .id = id };
	int ret = amdx_ioctl(fd, AMDX_IOC_DEVICE_OPEN, &o);

	return ret ? ret : o.fd;
}

static inline int amdx_device_info(int fd, uint32_t id,
				   struct amdx_device_info *info)
{
	uint32_t size = sizeof(*info);

	memset(info, 0, sizeof(*info));
	return amdx_query(fd, AMDX_QUERY_DEVICE_INFO, id, info, &size);
}

/*
 * Fault injection (Documentation/fault-injection/fault-injection.rst):
 * after amdx_failnth_setup(), writing N to the calling thread's fail-nth
 * file makes its Nth slab or page allocation from then on fail, sleeping
 * and order-0 ones included, without a stack trace per failure.
 */
#define AMDX_FAILNTH "/proc/thread-self/fail-nth"
#define AMDX_FAULT_DEBUGFS "/sys/kernel/debug"

static inline bool amdx_failnth_available(void)
{
	return !access(AMDX_FAILNTH, F_OK) &&
	       !access(AMDX_FAULT_DEBUGFS "/failslab", F_OK) &&
	       !access(AMDX_FAULT_DEBUGFS "/fail_page_alloc", F_OK);
}

static inline int amdx_failnth_setup(void)
{
	static const char * const attrs[][2] = {
		{ "failslab/ignore-gfp-wait", "N" },
		{ "failslab/verbose", "0" },
		{ "fail_page_alloc/ignore-gfp-wait", "N" },
		{ "fail_page_alloc/ignore-gfp-highmem", "N" },
		{ "fail_page_alloc/min-order", "0" },
		{ "fail_page_alloc/verbose", "0" },
	};
	char path[128];
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(path, sizeof(path), AMDX_FAULT_DEBUGFS "/%s",
			 attrs[i][0]);
		ret = amdx_sysfs_write(path, attrs[i][1]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Arm @fd (an open AMDX_FAILNTH): the @nth allocation from now fails. */
static inline int amdx_failnth_arm(int fd, unsigned int nth)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", nth);

	return pwrite(fd, buf, len, 0) == len ? 0 : -errno;
}

/*
 * Disarm @fd; *@left is what remained of the count, 0 once the armed
 * failure was injected.
 */
static inline int amdx_failnth_disarm(int fd, unsigned int *left)
{
	char buf[16] = "";

	if (pread(fd, buf, sizeof(buf) - 1, 0) < 0 ||
	    pwrite(fd, "0", 1, 0) != 1)
		return -errno;
	*left = strtoul(buf, NULL, 10);
	return 0;
}

/*
 * Whether a record logged since @kmsg (/dev/kmsg, opened O_NONBLOCK and
 * sought to its end) was last read contains @s; reads to the end.
 */
static inline bool amdx_kmsg_has(int kmsg, const char *s)
{
	char rec[1024];
	bool found = false;
	ssize_t n;

	for (;;) {
		n = read(kmsg, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten: go on */
			continue;
		if (n <= 0)
			return found;
		rec[n] = '\0';
		if (strstr(rec, s))
			found = true;
	}
}

/*
 * The first kernel report (KASAN, lockdep, WARN, BUG, oops) logged since
 * @kmsg (/dev/kmsg, opened O_NONBLOCK and sought to its end) was last
 * read, copied to @line; false when there is none.
 */
static inline bool amdx_kmsg_report(int kmsg, char *line, size_t len)
{
	static const char *const splats[] = {
		"WARNING:", "BUG:", "Oops", "KASAN", "kernel BUG",
		"INFO: possible", "general protection fault",
	};
	char rec[2048];
	ssize_t n;
	size_t i;

	for (;;) {
		n = read(kmsg, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten: go on */
			continue;
		if (n <= 0)
			return false;
		rec[n] = '\0';
		for (i = 0; i < sizeof(splats) / sizeof(splats[0]); i++) {
			if (strstr(rec, splats[i])) {
				snprintf(line, len, "%s", rec);
				return true;
			}
		}
	}
}

/*
 * Wait until thread @tid sleeps in the kernel inside @fn, a function its
 * /proc/@tid/stack names (root only): a test orders itself against the
 * kernel by what a thread is doing, not by how long things take.  At most
 * @polls looks, 10 ms apart, bound a wait that never ends.
 *
 * Return: 0, -ETIMEDOUT (the last stack read is printed as diagnostics),
 * or -errno when the stack cannot be read.
 */
static inline int amdx_wait_in_kernel(pid_t tid, const char *fn, int polls)
{
	char path[64], buf[4096], *line, *save;
	ssize_t n = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stack", (int)tid);
	while (polls-- > 0) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n < 0)
			return -errno;
		buf[n] = '\0';
		if (strstr(buf, fn))
			return 0;
		usleep(10000);
	}
	printf("# thread %d never slept in %s; its stack:\n", (int)tid, fn);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("#   %s\n", line);
	return -ETIMEDOUT;
}

/* The caller's thread id, published for amdx_wait_in_kernel(). */
static inline void amdx_publish_tid(int *tid)
{
	__atomic_store_n(tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
}

/* Thread id another thread published with amdx_publish_tid(). */
static inline pid_t amdx_await_tid(const int *tid)
{
	int t;

	while (!(t = __atomic_load_n(tid, __ATOMIC_ACQUIRE)))
		usleep(1000);
	return t;
}

/*
 * insmod @dir/@name.ko.  A new amdx.ko makes a new /dev/amdx, root:root
 * 0660: the test VM has no udev, so this gives it the group
 * udev/70-amdx.rules names, as guest-init.sh's amdx_udev does at boot.
 */
static inline int amdx_module_load(const char *dir, const char *name)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "insmod %s/%s.ko && { [ %s != amdx ] || chgrp \"$(sed -n "
		 "'/^[^#]/s/.*GROUP=\"\\([^\"]*\\)\".*/\\1/p' "
		 "/lib/udev/rules.d/70-amdx.rules)\" /dev/amdx; }",
		 dir, name, name);
	return system(cmd) == 0 ? 0 : -1;
}

#endif /* _AMDX_SELFTEST_H_ */
