/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * A FUSE file system of one file whose reads the test answers when it
 * chooses: memory mapped from that file stalls whoever touches it until
 * amdx_fuse_release().  Unlike a userfaultfd page, such a page also
 * stalls a fault taken without FAULT_FLAG_ALLOW_RETRY (hmm_range_fault(),
 * get_user_pages()), and any user may be handed one (a FUSE daemon needs
 * no privilege on a host that allows user mounts).
 *
 * The server speaks the FUSE protocol directly on /dev/fuse (no libfuse
 * in the busybox guest): INIT, LOOKUP and GETATTR of one regular file,
 * OPEN, FLUSH and RELEASE; READ is held; anything else fails with
 * EOPNOTSUPP (the test needs no other operation).
 */
#ifndef _AMDX_FUSE_H_
#define _AMDX_FUSE_H_

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/fuse.h>

#define AMDX_FUSE_FILE		"stall"
#define AMDX_FUSE_HELD_MAX	64
/* Requests are read into this; READs are answered from as many zeroes. */
#define AMDX_FUSE_BUF		(FUSE_MIN_READ_BUFFER + 4096)
/* Largest file: a READ is never answered short (that would truncate). */
#define AMDX_FUSE_SIZE_MAX	(64 * 1024)

struct amdx_fuse {
	int fd;			/* /dev/fuse */
	char mnt[64];
	unsigned long size;	/* of the one file */
	pthread_t thread;
	bool running;
	atomic_bool stop;
	atomic_int reads;	/* READ requests received */
	pthread_mutex_t lock;	/* held[], nheld, released, replies */
	bool released;		/* answer READs at once */
	unsigned int nheld;
	__u64 held[AMDX_FUSE_HELD_MAX];
	__u32 held_size[AMDX_FUSE_HELD_MAX];
};

static int amdx_fuse_reply(struct amdx_fuse *f, __u64 unique, int error,
			   const void *data, size_t len)
{
	struct fuse_out_header h = {
		.len = sizeof(h) + (error ? 0 : len),
		.error = error,
		.unique = unique,
	};
	struct iovec iov[2] = {
		{ .iov_base = &h, .iov_len = sizeof(h) },
		{ .iov_base = (void *)data, .iov_len = error ? 0 : len },
	};

	return writev(f->fd, iov, 2) == (ssize_t)h.len ? 0 : -errno;
}

static void amdx_fuse_attr(const struct amdx_fuse *f, __u64 ino,
			   struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = ino;
	a->nlink = ino == FUSE_ROOT_ID ? 2 : 1;
	a->mode = ino == FUSE_ROOT_ID ? S_IFDIR | 0755 : S_IFREG | 0600;
	a->size = ino == FUSE_ROOT_ID ? 0 : f->size;
	a->blocks = a->size / 512;
	a->blksize = 4096;
}

/* Answer one READ with zeroes (a short read past the end of the file). */
static int amdx_fuse_answer_read(struct amdx_fuse *f, __u64 unique,
				 __u32 size)
{
	static const char zero[AMDX_FUSE_SIZE_MAX];

	return amdx_fuse_reply(f, unique, 0, zero,
			       size < sizeof(zero) ? size : sizeof(zero));
}

static int amdx_fuse_request(struct amdx_fuse *f, const char *buf, size_t n)
{
	const struct fuse_in_header *in = (const void *)buf;
	const void *arg = in + 1;
	int ret = 0;

	if (n < sizeof(*in))
		return -EPROTO;
	switch (in->opcode) {
	case FUSE_INIT: {
		const struct fuse_init_in *ii = arg;
		struct fuse_init_out o = {
			.major = FUSE_KERNEL_VERSION,
			.minor = ii->minor < FUSE_KERNEL_MINOR_VERSION ?
				 ii->minor : FUSE_KERNEL_MINOR_VERSION,
			.max_readahead = ii->max_readahead,
			.max_write = 4096,
			.time_gran = 1,
		};

		return amdx_fuse_reply(f, in->unique, 0, &o, sizeof(o));
	}
	case FUSE_LOOKUP: {
		struct fuse_entry_out e = {
			.nodeid = 2,
			.entry_valid = 3600,
			.attr_valid = 3600,
		};

		if (in->nodeid != FUSE_ROOT_ID || strcmp(arg, AMDX_FUSE_FILE))
			return amdx_fuse_reply(f, in->unique, -ENOENT, NULL, 0);
		amdx_fuse_attr(f, 2, &e.attr);
		return amdx_fuse_reply(f, in->unique, 0, &e, sizeof(e));
	}
	case FUSE_GETATTR: {
		struct fuse_attr_out a = { .attr_valid = 3600 };

		amdx_fuse_attr(f, in->nodeid, &a.attr);
		return amdx_fuse_reply(f, in->unique, 0, &a, sizeof(a));
	}
	case FUSE_OPEN: {
		struct fuse_open_out o = { .fh = 1 };

		return amdx_fuse_reply(f, in->unique, 0, &o, sizeof(o));
	}
	case FUSE_READ: {
		const struct fuse_read_in *r = arg;

		pthread_mutex_lock(&f->lock);
		atomic_fetch_add(&f->reads, 1);
		if (f->released || f->nheld == AMDX_FUSE_HELD_MAX) {
			ret = amdx_fuse_answer_read(f, in->unique, r->size);
		} else {
			f->held[f->nheld] = in->unique;
			f->held_size[f->nheld++] = r->size;
		}
		pthread_mutex_unlock(&f->lock);
		return ret;
	}
	case FUSE_FLUSH:
	case FUSE_RELEASE:
		return amdx_fuse_reply(f, in->unique, 0, NULL, 0);
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:	/* the held READ is answered on release */
		return 0;
	default:
		return amdx_fuse_reply(f, in->unique, -EOPNOTSUPP, NULL, 0);
	}
}

static void *amdx_fuse_serve(void *arg)
{
	struct amdx_fuse *f = arg;
	static char buf[AMDX_FUSE_BUF];
	struct pollfd p = { .fd = f->fd, .events = POLLIN };
	ssize_t n;

	/* Polled, so that a stop never waits for a request. */
	while (!atomic_load(&f->stop)) {
		if (poll(&p, 1, 100) != 1)
			continue;
		n = read(f->fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN ||
			      errno == ENOENT))
			continue;
		if (n < 0)
			break;	/* ENODEV: unmounted */
		amdx_fuse_request(f, buf, n);
	}
	return NULL;
}

/* Answer every held READ and all later ones at once. */
static void amdx_fuse_release(struct amdx_fuse *f)
{
	unsigned int i;

	pthread_mutex_lock(&f->lock);
	f->released = true;
	for (i = 0; i < f->nheld; i++)
		amdx_fuse_answer_read(f, f->held[i], f->held_size[i]);
	f->nheld = 0;
	pthread_mutex_unlock(&f->lock);
}

/* Wait up to @ms for a READ to be held: 0, or -ETIMEDOUT. */
static int amdx_fuse_wait_read(struct amdx_fuse *f, int ms)
{
	for (; ms > 0; ms -= 10) {
		if (atomic_load(&f->reads))
			return 0;
		usleep(10000);
	}
	return -ETIMEDOUT;
}

static void amdx_fuse_stop(struct amdx_fuse *f)
{
	if (f->running) {
		amdx_fuse_release(f);
		umount2(f->mnt, MNT_DETACH);
		atomic_store(&f->stop, true);
		pthread_join(f->thread, NULL);
		f->running = false;
	}
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	rmdir(f->mnt);
}

/*
 * Mount the file system on a new directory under /tmp and serve it:
 * 0, -ENODEV when the kernel has no FUSE, or another -errno.
 */
static int amdx_fuse_start(struct amdx_fuse *f, unsigned long size)
{
	char opts[128];
	int ret;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	if (size > AMDX_FUSE_SIZE_MAX)
		return -EINVAL;
	f->size = size;
	pthread_mutex_init(&f->lock, NULL);
	snprintf(f->mnt, sizeof(f->mnt), "/tmp/amdx-fuse-%d", getpid());
	f->fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (f->fd < 0)
		return errno == ENOENT ? -ENODEV : -errno;
	if (mkdir(f->mnt, 0700) && errno != EEXIST) {
		ret = -errno;
		goto err;
	}
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0", f->fd);
	if (mount("amdx-stall", f->mnt, "fuse", MS_NOSUID | MS_NODEV, opts)) {
		ret = errno == ENODEV ? -ENODEV : -errno;
		goto err;
	}
	ret = -pthread_create(&f->thread, NULL, amdx_fuse_serve, f);
	if (ret) {
		umount2(f->mnt, MNT_DETACH);
		goto err;
	}
	f->running = true;
	return 0;
err:
	amdx_fuse_stop(f);
	return ret;
}

/* Map the file, @prot, privately: -errno, or 0 and *@p. */
static int amdx_fuse_map(struct amdx_fuse *f, int prot, char **p)
{
	char path[96];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/" AMDX_FUSE_FILE, f->mnt);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*p = mmap(NULL, f->size, prot, MAP_PRIVATE, fd, 0);
	if (*p == MAP_FAILED)
		ret = -errno;
	close(fd);
	return ret;
}

#endif /* _AMDX_FUSE_H_ */
