// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for trinity: opening a victim file named amdx-ctl,
 * amdx-device or amdx-event in the victim directory (AMDX_SHIM_DIR) yields
 * /dev/amdx, a device fd of a random amdx device (AMDX_IOC_DEVICE_OPEN) or
 * an event fd of one (AMDX_IOC_EVENT_SUBSCRIBE).  Trinity only fuzzes fds
 * it opened itself from paths; device and event fds have no path, so this
 * is how it gets them.  Any other open() goes to the kernel unchanged.
 *
 * Each amdx fd is moved to a number of its own range (control 700-799,
 * device 800-899, event 900-999) so that a trace of trinity's ioctls tells
 * which reached amdx by the fd number alone: trinity's children are not
 * dumpable, so strace cannot resolve their fds to paths.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/amdx.h>

static int real_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	return syscall(SYS_openat, dirfd, path, flags, mode);
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
		.flags = O_NONBLOCK,
	};
	int ctl, err;

	ctl = real_openat(AT_FDCWD, "/dev/" AMDX_DEVICE_NAME, O_RDWR, 0);
	if (ctl < 0 || !strcmp(kind, "amdx-ctl"))
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
	if (!strcmp(kind, "amdx-device"))
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

static int shim(int dirfd, const char *path, int flags, mode_t mode)
{
	const char *dir = getenv("AMDX_SHIM_DIR");
	size_t n = dir ? strlen(dir) : 0;

	if (n && path && !strncmp(path, dir, n) && path[n] == '/' &&
	    !strncmp(path + n + 1, "amdx-", 5))
		return amdx_open(path + n + 1);
	return real_openat(dirfd, path, flags, mode);
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
