/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The interface of amdx_bench.ko's migration floor, /dev/amdx_bench_floor,
 * for selftests/bench/amdx_hmm_bench.c only.  Not ABI (uapi/linux/amdx.h is
 * amdx's only ABI): it changes with the benchmark.
 */
#ifndef _AMDX_BENCH_FLOOR_H_
#define _AMDX_BENCH_FLOOR_H_

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/* The phases of &struct amdx_bench_floor_migrate.ns, in order. */
#define AMDX_BENCH_FLOOR_SETUP		0	/* migrate_vma_setup() */
#define AMDX_BENCH_FLOOR_ALLOC		1	/* destination pages */
#define AMDX_BENCH_FLOOR_COPY		2	/* one copy_highpage() each */
#define AMDX_BENCH_FLOOR_PAGES		3	/* migrate_vma_pages() */
#define AMDX_BENCH_FLOOR_FINALIZE	4	/* migrate_vma_finalize() */
#define AMDX_BENCH_FLOOR_NPHASES	5

/* &struct amdx_bench_floor_migrate.flags: to the device, else home. */
#define AMDX_BENCH_FLOOR_TO_DEV		_BITUL(0)

/**
 * struct amdx_bench_floor_migrate - AMDX_BENCH_FLOOR_MIGRATE
 * @start: first byte of the caller's memory, page aligned.
 * @size: bytes, a non-zero multiple of the page size.
 * @flags: %AMDX_BENCH_FLOOR_TO_DEV, or 0 to move device pages home.
 * @pad: must be zero.
 * @moved: out: pages moved.
 * @ns: out: nanoseconds spent per phase (AMDX_BENCH_FLOOR_*), summed over
 *	the batches.
 */
struct amdx_bench_floor_migrate {
	__u64 start;
	__u64 size;
	__u32 flags;
	__u32 pad;
	__u64 moved;
	__u64 ns[AMDX_BENCH_FLOOR_NPHASES];
};

#define AMDX_BENCH_FLOOR_MIGRATE \
	_IOWR(0xb3, 0x01, struct amdx_bench_floor_migrate)

#endif /* _AMDX_BENCH_FLOOR_H_ */
