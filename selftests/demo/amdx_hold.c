// SPDX-License-Identifier: GPL-2.0
/*
 * amdx_hold: a process that keeps patterned data in a device's VRAM, for
 * the demo (make demo).  Not a test.
 *
 * usage: amdx_hold DEVICE PARTITION KIB BYTE
 *
 * Fills KIB KiB with BYTE, places the buffer on memory partition PARTITION
 * of amdx device DEVICE, prints the VRAM address of its first page and its
 * pid, then sleeps until SIGUSR1.  On SIGUSR1 it reads the whole buffer
 * back through the CPU (faulting it home) and reports whether every byte
 * is intact.  A SIGBUS while reading is reported with its si_code.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../amdx_selftest.h"

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	go = 1;
}

static void on_bus(int sig, siginfo_t *si, void *uc)
{
	char msg[128];
	int n;

	n = snprintf(msg, sizeof(msg),
		     "amdx_hold[%d]: SIGBUS si_code=%d%s at %p\n", getpid(),
		     si->si_code,
		     si->si_code == BUS_MCEERR_AR ? " (BUS_MCEERR_AR)" : "",
		     si->si_addr);
	if (write(1, msg, n) < 0)
		_exit(2);
	_exit(7);
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "amdx_hold: %s: %s\n", what, strerror(-err));
	return 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_sigaction = on_bus, .sa_flags = SA_SIGINFO };
	struct amdx_device_open op = {};
	struct amdx_hmm_attr attr = {};
	struct amdx_hmm_migrate mig = {};
	struct amdx_hmm_access acc = {};
	unsigned long kib, i, bad = 0;
	uint64_t pfn = ~0ULL;
	unsigned char byte, *buf;
	unsigned char snap[1];
	size_t size;
	int ctl, ret;

	if (argc != 5) {
		fprintf(stderr, "usage: amdx_hold DEVICE PARTITION KIB BYTE\n");
		return 2;
	}
	op.id = strtoul(argv[1], NULL, 0);
	kib = strtoul(argv[3], NULL, 0);
	byte = strtoul(argv[4], NULL, 0);
	size = kib << 10;

	ctl = open(AMDX_DEV_PATH, O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return fail("open " AMDX_DEV_PATH, -errno);
	ret = amdx_ioctl(ctl, AMDX_IOC_DEVICE_OPEN, &op);
	if (ret)
		return fail("DEVICE_OPEN", ret);

	buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return fail("mmap", -errno);
	memset(buf, byte, size);

	attr.start = (uintptr_t)buf;
	attr.size = size;
	attr.valid = AMDX_HMM_ATTR_PREFERRED_LOC;
	attr.preferred_loc = strtoul(argv[2], NULL, 0);
	ret = amdx_ioctl(op.fd, AMDX_IOC_HMM_SET_ATTR, &attr);
	if (ret)
		return fail("HMM_SET_ATTR", ret);

	mig.start = (uintptr_t)buf;
	mig.size = size;
	mig.dest = AMDX_HMM_LOC_PREFERRED;
	ret = amdx_ioctl(op.fd, AMDX_IOC_HMM_MIGRATE, &mig);
	if (ret)
		return fail("HMM_MIGRATE", ret);

	acc.addr = (uintptr_t)buf;
	acc.size = 4096;
	acc.buf = (uintptr_t)snap;
	acc.op = AMDX_HMM_ACCESS_SNAPSHOT;
	acc.vram_pfns = (uintptr_t)&pfn;
	ret = amdx_ioctl(op.fd, AMDX_IOC_HMM_ACCESS, &acc);
	if (ret)
		return fail("HMM_ACCESS snapshot", ret);

	signal(SIGUSR1, on_usr1);
	sigaction(SIGBUS, &sa, NULL);
	printf("amdx_hold[%d]: %lu KiB of 0x%02x on device %u partition %s, %llu pages moved, first page at VRAM 0x%llx\n",
	       getpid(), kib, byte, op.id, argv[2],
	       (unsigned long long)mig.moved,
	       (unsigned long long)(pfn * 4096));
	fflush(stdout);

	while (!go)
		pause();

	for (i = 0; i < size; i++)
		bad += buf[i] != byte;
	if (bad) {
		printf("amdx_hold[%d]: %lu of %zu bytes CORRUPT\n", getpid(),
		       bad, size);
		return 1;
	}
	printf("amdx_hold[%d]: all %zu bytes intact\n", getpid(), size);
	return 0;
}
