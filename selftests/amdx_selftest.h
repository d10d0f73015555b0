/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the amdx kselftests.
 */
#ifndef _AMDX_SELFTEST_H_
#define _AMDX_SELFTEST_H_

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/amdx.h>

#define AMDX_DEV_PATH "/dev/" AMDX_DEVICE_NAME

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

#endif /* _AMDX_SELFTEST_H_ */
