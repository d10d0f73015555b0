// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for trinity: opening a victim file named amdx-ctl*,
 * amdx-device* or amdx-event* in the victim directory (AMDX_SHIM_DIR)
 * yields /dev/amdx, a device fd of a random amdx device
 * (AMDX_IOC_DEVICE_OPEN) or an event fd of one (AMDX_IOC_EVENT_SUBSCRIBE).
 * With AMDX_SHIM_KIND set (amdx-ctl, amdx-device or amdx-event), every
 * victim file opens as that kind: the test's runs for a kind of fd not
 * reached yet, with the directory trinity sees unchanged.
 * Trinity only fuzzes fds it opened itself from paths; device and event
 * fds have no path, so this is how it gets them.  Trinity opens its files
 * with open() or, half of the time, fopen(), whose open glibc makes
 * internally (no PLT call a preload can catch): both are wrapped.  Any
 * other open goes to the kernel unchanged.
 *
 * Each amdx fd is moved to a number of its own range (control 700-799,
 * device 800-899, event 900-999), and trinity's syscall() -- how it
 * issues every call -- is wrapped to count the ioctls on each range and
 * their results in a file shared by all of trinity's processes
 * (AMDX_SHIM_COUNT, struct amdx_shim_count).  strace -f counted the same
 * but slowed trinity's children a hundredfold under TCG, and they are not
 * dumpable, so it could not name their fds either.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/amdx.h>

/*
 * The counts, 64-bit each, in this order in the file (the test reads
 * them with od): ioctls on control, device and event fds, on any other
 * fd; of those on amdx fds: succeeded, ENOTTY, EINVAL, EFAULT, EPERM,
 * another errno.
 */
enum { C_CTL, C_DEV, C_EV, C_OTHER, C_OK, C_NOTTY, C_INVAL, C_FAULT,
       C_PERM, C_ERR, C_NR };

static uint64_t *counts;

static uint64_t *count_map(void)
{
	const char *path = getenv("AMDX_SHIM_COUNT");
	void *p;
	int fd;

	if (!path)
		return NULL;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	p = mmap(NULL, C_NR * sizeof(uint64_t), PROT_READ | PROT_WRITE,
		 MAP_SHARED, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

static void count(int what)
{
	__atomic_fetch_add(&counts[what], 1, __ATOMIC_RELAXED);
}

static long (*real_syscall)(long, ...);

static long raw_syscall(long nr, long a1, long a2, long a3, long a4, long a5,
			long a6)
{
	if (!real_syscall)
		real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real_syscall(nr, a1, a2, a3, a4, a5, a6);
}

long syscall(long nr, ...)
{
	long a[6], ret;
	int fd, err;
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr != SYS_ioctl || !counts)
		return raw_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	fd = (int)a[0];
	ret = raw_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	err = ret < 0 ? errno : 0;
	if (fd < 700 || fd >= 1000) {
		count(C_OTHER);
	} else {
		count(fd < 800 ? C_CTL : fd < 900 ? C_DEV : C_EV);
		count(!err ? C_OK : err == ENOTTY ? C_NOTTY :
		      err == EINVAL ? C_INVAL : err == EFAULT ? C_FAULT :
		      err == EPERM ? C_PERM : C_ERR);
	}
	errno = err;
	return ret;
}

__attribute__((constructor)) static void shim_init(void)
{
	counts = count_map();
}

static int real_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	return raw_syscall(SYS_openat, dirfd, (long)path, flags, mode, 0, 0);
}

/* Move @fd to the first free number at or above @base. */
static int relocate(int fd, int base)
{
	int nfd;

	if (fd < 0)
		return fd;
	nfd = fcntl(fd, F_DUPFD, base);
	close(fd);
	return nfd;
}

static int amdx_open(const char *kind)
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
	struct amdx_device_open o = { 0 };
	struct amdx_event_subscribe s = {
		.mask = AMDX_EVENT_MASK_ALL,
		.ring_size = AMDX_EVENT_RING_MIN,
		.flags = AMDX_EVENT_F_NONBLOCK,
	};
	const char *force = getenv("AMDX_SHIM_KIND");
	int ctl, err;

	if (force)
		kind = force;
	ctl = real_openat(AT_FDCWD, "/dev/" AMDX_DEVICE_NAME, O_RDWR, 0);
	if (ctl < 0 || !strncmp(kind, "amdx-ctl", 8))
		return relocate(ctl, 700);
	if (ioctl(ctl, AMDX_IOC_QUERY, &q) || !res.h.num_devices ||
	    !res.h.entry_size) {
		err = errno ? errno : ENODEV;
		goto fail;
	}
	o.id = ((struct amdx_device_entry *)((char *)res.h.devices +
		(size_t)(rand() % res.h.num_devices) * res.h.entry_size))->id;
	if (ioctl(ctl, AMDX_IOC_DEVICE_OPEN, &o)) {
		err = errno;
		goto fail;
	}
	close(ctl);
	if (!strncmp(kind, "amdx-device", 11))
		return relocate(o.fd, 800);
	err = ioctl(o.fd, AMDX_IOC_EVENT_SUBSCRIBE, &s) ? errno : 0;
	close(o.fd);
	if (err) {
		errno = err;
		return -1;
	}
	return relocate(s.fd, 900);
fail:
	close(ctl);
	errno = err;
	return -1;
}

/* The victim's kind ("amdx-ctl3"), or NULL for any other path. */
static const char *victim(const char *path)
{
	const char *dir = getenv("AMDX_SHIM_DIR");
	size_t n = dir ? strlen(dir) : 0;

	if (n && path && !strncmp(path, dir, n) && path[n] == '/' &&
	    !strncmp(path + n + 1, "amdx-", 5))
		return path + n + 1;
	return NULL;
}

/* @fd is the victim directory or a file in it. */
static bool in_victim_dir(int fd)
{
	const char *dir = getenv("AMDX_SHIM_DIR");
	char link[32], path[4096];
	size_t n = dir ? strlen(dir) : 0;
	ssize_t len;

	if (!n)
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len < 0)
		return false;
	path[len] = '\0';
	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
}

#ifndef AMDX_SHIM_NO_FSTAT
/*
 * Trinity's ioctl sanitiser, find_ioctl_group() (its only fstat() call),
 * offers the fd to each of its ioctl groups in turn.  Its socket group's
 * test walks trinity's list of socket objects, which is NULL until a
 * socket was made -- never, with the file fd provider alone -- and the
 * child dies of the NULL dereference: trinity 2023.01 (ioctls/socket.c,
 * socket_fd_test()).  No trinity group knows amdx's commands anyway, so
 * for amdx fds and the rest of the victim directory fstat() fails here,
 * find_ioctl_group() returns NULL, and trinity takes its generic path
 * (random command and argument), as it does when a group does not match.
 */
int fstat(int fd, struct stat *st)
{
	if ((fd >= 700 && fd < 1000) || in_victim_dir(fd)) {
		errno = EBADF;
		return -1;
	}
	return raw_syscall(SYS_fstat, fd, (long)st, 0, 0, 0, 0);
}

int fstat64(int fd, struct stat64 *st)
{
	return fstat(fd, (struct stat *)st);
}
#endif

static int shim(int dirfd, const char *path, int flags, mode_t mode)
{
	const char *kind = victim(path);

	if (kind)
		return amdx_open(kind);
	return real_openat(dirfd, path, flags, mode);
}

FILE *fopen(const char *path, const char *mode)
{
	const char *kind = victim(path);
	int fd, flags = 0;
	FILE *f;

	if (!kind) {
		if (strchr(mode, '+'))
			flags = O_RDWR;
		else if (*mode != 'r')
			flags = O_WRONLY;
		if (*mode == 'w')
			flags |= O_CREAT | O_TRUNC;
		else if (*mode == 'a')
			flags |= O_CREAT | O_APPEND;
		if (strchr(mode, 'e'))
			flags |= O_CLOEXEC;
		fd = real_openat(AT_FDCWD, path, flags, 0666);
	} else {
		fd = amdx_open(kind);
	}
	if (fd < 0)
		return NULL;
	f = fdopen(fd, mode);
	if (!f)
		close(fd);
	return f;
}

FILE *fopen64(const char *path, const char *mode)
{
	return fopen(path, mode);
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & (O_CREAT | __O_TMPFILE)) ? va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t m;

	va_start(ap, flags);
	m = mode_arg(flags, ap);
	va_end(ap);
	return shim(AT_FDCWD, path, flags, m);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t m;

	va_start(ap, flags);
	m = mode_arg(flags, ap);
	va_end(ap);
	return shim(AT_FDCWD, path, flags, m);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t m;

	va_start(ap, flags);
	m = mode_arg(flags, ap);
	va_end(ap);
	return shim(dirfd, path, flags, m);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t m;

	va_start(ap, flags);
	m = mode_arg(flags, ap);
	va_end(ap);
	return shim(dirfd, path, flags, m);
}
