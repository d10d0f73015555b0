// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 *
 * amdx HMM against the core mm's own changes of a process's page tables
 * (Documentation/hmm.rst, "Page tables"): HMM_ACCESS reading page tables
 * while MADV_COLLAPSE turns a PTE table into a huge PMD.  Each test reads
 * the kernel log it caused (/dev/kmsg) and fails on a kernel report.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "amdx_selftest.h"
#include "amdx_harness.h"

#define MM_SIM_ID	760
#define MM_SZ_2M	0x200000UL

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE	25
#endif

/* Iterations of the collapse race: a count, not a duration. */
#define COLLAPSE_ROUNDS	300

FIXTURE(mm)
{
	bool skip;	/* 6.1's harness runs the test after a setup SKIP */
	int ctl;
	int fd;
	int kmsg;
	unsigned long ps;
};

FIXTURE_SETUP(mm)
{
	char bdf[AMDX_BDF_LEN];
	__u32 id;

	self->ps = sysconf(_SC_PAGESIZE);
	self->fd = -1;
	self->kmsg = -1;
	self->skip = true;
	self->ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->ctl, 0);
	if (!(amdx_caps(self->ctl) & AMDX_CAP_HMM_MIGRATE))
		SKIP(return, "no AMDX_CAP_HMM_MIGRATE");
	amdx_sim_del(MM_SIM_ID);
	ASSERT_EQ(0, amdx_sim_new(MM_SIM_ID, "model=mi300x vram=64"));
	amdx_sim_bdf(MM_SIM_ID, bdf, sizeof(bdf));
	ASSERT_EQ(0, amdx_find_device(self->ctl, bdf, &id));
	self->fd = amdx_device_open(self->ctl, id);
	ASSERT_GE(self->fd, 0);
	/* From here on, what the kernel logs is this test's. */
	self->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_GE(self->kmsg, 0);
	ASSERT_GE(lseek(self->kmsg, 0, SEEK_END), 0);
	self->skip = false;
}

FIXTURE_TEARDOWN(mm)
{
	if (self->kmsg >= 0)
		close(self->kmsg);
	if (self->fd >= 0)
		close(self->fd);
	amdx_sim_del(MM_SIM_ID);
	if (self->ctl >= 0)
		close(self->ctl);
}

/* A 2 MiB-aligned reservation of 2 MiB, PROT_NONE. */
static char *reserve_2m(void)
{
	char *res, *p;

	res = mmap(NULL, 2 * MM_SZ_2M, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (res == MAP_FAILED)
		return NULL;
	p = (char *)(((uintptr_t)res + MM_SZ_2M - 1) & ~(MM_SZ_2M - 1));
	if (p > res)
		munmap(res, p - res);
	munmap(p + MM_SZ_2M, res + MM_SZ_2M - p);
	return p;
}

struct collapse_race {
	char *area;
	unsigned long ps;
	atomic_bool stop;
	/* results */
	int collapsed;
	int collapse_err;	/* first MADV_COLLAPSE errno, 0 if none */
	int snapshots;
	int snap_ok;		/* of them, succeeded */
	int snap_busy;		/* of them, EBUSY: invalidations kept racing */
	int snap_err;		/* first other SNAPSHOT errno, 0 if none */
	int bad_byte;		/* first impossible snapshot byte, -1 if none */
	int fd;
	long sum;	/* of the bytes read: makes the reads happen */
};

/*
 * Each round maps a new tmpfs file of 2 MiB read-only at the same
 * aligned address, faults in the first half through PTEs and collapses
 * it (MADV_COLLAPSE: a huge page in the page cache, then the PTE table
 * replaced by a PMD mapping it, on 6.12 under the mmap read lock).
 */
static int collapse_round(struct collapse_race *r, char *buf)
{
	unsigned long half = MM_SZ_2M / 2, i;
	int mfd, ret = 0;
	char *p;

	mfd = memfd_create("amdx-collapse", MFD_CLOEXEC);
	if (mfd < 0)
		return -errno;
	if (ftruncate(mfd, MM_SZ_2M) || pwrite(mfd, buf, half, 0) != half) {
		ret = -errno;
		goto out;
	}
	p = mmap(r->area, MM_SZ_2M, PROT_READ, MAP_SHARED | MAP_FIXED, mfd, 0);
	if (p == MAP_FAILED) {
		ret = -errno;
		goto out;
	}
	for (i = 0; i < half; i += r->ps)
		r->sum += *(const char *)(p + i);
	if (!madvise(p, MM_SZ_2M, MADV_COLLAPSE))
		r->collapsed++;
	else if (!r->collapse_err)
		r->collapse_err = errno;
	/* Back to an inaccessible reservation for the next round. */
	if (mmap(r->area, MM_SZ_2M, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1,
		 0) == MAP_FAILED)
		ret = -errno;
out:
	close(mfd);
	return ret;
}

static void *snapshot_fn(void *arg)
{
	struct collapse_race *r = arg;
	unsigned long n = MM_SZ_2M / r->ps, i;
	__u8 *snap = calloc(n, 1);
	struct amdx_hmm_access a = {
		.addr = (uintptr_t)r->area,
		.size = MM_SZ_2M,
		.buf = (uintptr_t)snap,
		.op = AMDX_HMM_ACCESS_SNAPSHOT,
	};
	int ret;

	if (!snap) {
		r->snap_err = ENOMEM;
		return NULL;
	}
	while (!atomic_load(&r->stop)) {
		a.faults = 0;
		ret = amdx_ioctl(r->fd, AMDX_IOC_HMM_ACCESS, &a);
		/*
		 * EBUSY is the uapi's answer when invalidations keep racing
		 * for HMM's timeout (1 s): a starved thread under TCG meets
		 * it; it is no failure of the walk.
		 */
		if (ret == -EBUSY)
			r->snap_busy++;
		else if (ret && !r->snap_err)
			r->snap_err = -ret;
		r->snap_ok += !ret;
		r->snapshots++;
		/* Read-only file pages, absent, or no VMA: nothing else. */
		for (i = 0; !ret && i < n && r->bad_byte < 0; i++)
			if (snap[i] != AMDX_HMM_SNAP_NONE &&
			    snap[i] != AMDX_HMM_SNAP_READ &&
			    snap[i] != AMDX_HMM_SNAP_ERROR)
				r->bad_byte = snap[i];
	}
	free(snap);
	return NULL;
}

/*
 * HMM_ACCESS SNAPSHOT reads the page tables of a span (which device page
 * an absent entry is) while another thread collapses it, a bounded number
 * of times: every snapshot succeeds (or, the race lasting HMM's timeout
 * on a starved host, fails with the uapi's EBUSY, counted), describes
 * only what can be there, and the kernel logs nothing.  Before, the walker went through
 * apply_to_existing_page_range(), which WARNs when it meets the huge PMD
 * that replaced the PTE table it was sent into.
 */
TEST_F_TIMEOUT(mm, snapshot_races_collapse, 600)
{
	struct collapse_race r = { .ps = self->ps, .bad_byte = -1 };
	char line[2048], *buf;
	pthread_t t;
	int i, ret = 0;

	if (self->skip)
		SKIP(return, "setup skipped");
	r.fd = self->fd;
	r.area = reserve_2m();
	ASSERT_NE(NULL, r.area);
	buf = malloc(MM_SZ_2M / 2);
	ASSERT_NE(NULL, buf);
	memset(buf, 0x5a, MM_SZ_2M / 2);

	/* The test kernels are tinyconfig-based: madvise() may be absent. */
	if (madvise(r.area, MM_SZ_2M, MADV_NORMAL)) {
		ret = errno;
		munmap(r.area, MM_SZ_2M);
		SKIP(return, "no madvise() (CONFIG_ADVISE_SYSCALLS=n?): %s",
		     strerror(ret));
	}
	ASSERT_EQ(0, pthread_create(&t, NULL, snapshot_fn, &r));
	for (i = 0; i < COLLAPSE_ROUNDS && !ret; i++)
		ret = collapse_round(&r, buf);
	atomic_store(&r.stop, true);
	pthread_join(t, NULL);
	free(buf);
	munmap(r.area, MM_SZ_2M);

	ASSERT_EQ(0, ret) TH_LOG("round %d: %s", i, strerror(-ret));
	TH_LOG("%d rounds, %d collapsed (first failure: %s), %d snapshots, %d EBUSY",
	       i, r.collapsed, strerror(r.collapse_err), r.snapshots,
	       r.snap_busy);
	EXPECT_EQ(0, r.snap_err) TH_LOG("SNAPSHOT: %s", strerror(r.snap_err));
	EXPECT_LT(0, r.snap_ok);
	EXPECT_EQ(-1, r.bad_byte);
	EXPECT_FALSE(amdx_kmsg_report(self->kmsg, line, sizeof(line)))
		TH_LOG("kernel report: %s", line);
	/* 6.1's tinyconfig: CONFIG_BASE_SMALL, no PMD-sized page cache folio */
	if (!r.collapsed)
		SKIP(return, "MADV_COLLAPSE collapsed nothing here: %s",
		     strerror(r.collapse_err));
}

TEST_HARNESS_MAIN
