// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: ioctl dispatch
 *
 * Every amdx ioctl goes through one table (amdx_chardev.c).  The number a caller passes
 * encodes the size of the argument structure it was compiled with.  The
 * dispatcher matches on type and number only, then:
 *
 *  - a size below the entry's @min_size (the first uapi version) is -EINVAL;
 *  - a shorter argument is zero-extended to the kernel's size, so fields
 *    added later read as "not requested";
 *  - a longer argument is accepted when the bytes the kernel does not know
 *    are zero, otherwise -E2BIG (copy_struct_from_user());
 *  - the result is copied back truncated to the caller's size;
 *  - a command that creates an fd (@open) gets its file made by the
 *    handler and its fd number reserved here; the file enters the fd
 *    table only once the copy back succeeded (else the number is returned
 *    and the file released), so no caller ever gets an fd it was not told
 *    about.
 *
 * ::
 *
 *    process              amdx_ioctl_dispatch()              handler
 *       | ioctl(cmd, arg)        |                               |
 *       |----------------------->| find nr, check fd kind, cap  |
 *       |                        | copy in (zero-extend)         |
 *       |                        | device fd: device lock (read),|
 *       |                        |   -ENODEV once removed        |
 *       |                        |------------------------------>|
 *       |                        |<------------- 0 / -errno -----|
 *       |                        | device lock dropped           |
 *       |<-- copy out (trunc.) --|                               |
 *       |      fd_install (@open)|                               |
 *
 * No copy from or to the caller's memory happens under the device lock:
 * such a copy can block for as long as the memory's owner wants (a page
 * behind userfaultfd or FUSE), and removal must not wait for it.  The
 * dispatcher copies the argument before taking the lock and after
 * dropping it; handlers that copy arrays drop the lock around the copy
 * (amdx_device_copy_from_user() and friends) and fail with -ENODEV when
 * the device went away meanwhile.
 */
#include <linux/capability.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/ioctl.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/amdx.h>

#include "amdx_core.h"
#include "amdx_ioctl.h"
#include "amdx_kunit.h"

static int amdx_user_in(void *dst, size_t ksize, const void *src,
			size_t usize)
{
	return copy_struct_from_user(dst, ksize, (__force const void __user *)src,
				     usize);
}

static int amdx_user_out(void *dst, const void *src, size_t size)
{
	return copy_to_user((__force void __user *)dst, src, size) ? -EFAULT : 0;
}

const struct amdx_uaccess amdx_uaccess_user = {
	.in = amdx_user_in,
	.out = amdx_user_out,
};

/*
 * Same type, number and direction: the same command at any size.  A hole
 * of an indexed table (@k 0) matches nothing.
 */
static bool amdx_ioctl_same(unsigned int k, unsigned int cmd)
{
	return k && _IOC_TYPE(k) == _IOC_TYPE(cmd) &&
	       _IOC_NR(k) == _IOC_NR(cmd) && _IOC_DIR(k) == _IOC_DIR(cmd);
}

/**
 * amdx_ioctl_find() - look up a command in an ioctl table
 * @table: the table.
 * @count: entries in @table.
 * @cmd: the command the caller passed.
 *
 * Matches type, number and direction; the size may differ (see DOC).
 * A table indexed by command number (holes have @cmd 0) is looked up
 * directly; others are searched.
 *
 * Return: the entry, or NULL if the command is unknown.
 */
const struct amdx_ioctl_desc *
amdx_ioctl_find(const struct amdx_ioctl_desc *table, size_t count,
		unsigned int cmd)
{
	size_t i, nr = _IOC_NR(cmd);

	if (nr < count && amdx_ioctl_same(table[nr].cmd, cmd))
		return &table[nr];
	for (i = 0; i < count; i++)
		if (amdx_ioctl_same(table[i].cmd, cmd))
			return &table[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ioctl_find);

/*
 * A command that creates an fd: the number is reserved before the file
 * exists and handed out only once the caller has been told about it.
 */
static long amdx_ioctl_open(const struct amdx_ioctl_desc *desc,
			    struct amdx_file *file, void *kbuf, void *uarg,
			    size_t usize, size_t ksize,
			    const struct amdx_uaccess *ua)
{
	struct file *filp = NULL;
	int fd, err;

	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd >= 0)
		filp = desc->open(file, kbuf);
	/* The result goes back without the device lock (see the DOC above). */
	if (file->adev)
		up_read(&file->adev->lock);
	if (fd < 0)
		return fd;
	if (IS_ERR(filp)) {
		put_unused_fd(fd);
		return PTR_ERR(filp);
	}
	*(s32 *)((u8 *)kbuf + desc->fd_offset) = fd;
	err = ua->out(uarg, kbuf, min(usize, ksize));
	if (err) {
		pr_debug("amdx: %s: result not copied back (%pe), no fd\n",
			 desc->name, ERR_PTR(err));
		put_unused_fd(fd);
		fput(filp);
		return err;
	}
	fd_install(fd, filp);
	return 0;
}

/**
 * amdx_ioctl_dispatch() - run one ioctl from a table
 * @table: the table.
 * @count: entries in @table.
 * @file: the open file the ioctl came in on.
 * @flags: %AMDX_IOCTL_F_CONTROL or %AMDX_IOCTL_F_DEVICE: the kind of fd.
 * @cmd: the command.
 * @uarg: the caller's argument.
 * @ua: how to copy the argument in and out.
 *
 * Return: the handler's result; -ENOTTY for a command unknown or not valid
 * on this kind of fd, -EINVAL for a too-short argument, -EPERM without
 * CAP_SYS_ADMIN for changes, -EFAULT or -E2BIG from copying, -ENODEV on
 * a device fd whose device is removed.
 */
long amdx_ioctl_dispatch(const struct amdx_ioctl_desc *table, size_t count,
			 struct amdx_file *file, unsigned int flags,
			 unsigned int cmd, void *uarg,
			 const struct amdx_uaccess *ua)
{
	const struct amdx_ioctl_desc *desc;
	struct amdx_device *adev;
	size_t usize = _IOC_SIZE(cmd);
	/* Filled by ua->in (copy_struct_from_user() zeroes the tail). */
	u64 kbuf[AMDX_IOCTL_MAX_ARG / sizeof(u64)] __uninitialized;
	size_t ksize;
	int ret, err;

	desc = amdx_ioctl_find(table, count, cmd);
	if (!desc || !(desc->flags & flags))
		return -ENOTTY;
	ksize = _IOC_SIZE(desc->cmd);
	if (WARN_ON_ONCE(ksize > sizeof(kbuf)))
		return -ENOTTY;
	if (usize < desc->min_size)
		return -EINVAL;
	if ((desc->flags & AMDX_IOCTL_F_ADMIN) && !capable(CAP_SYS_ADMIN))
		return -EPERM;

	/* In before the device lock: the copy may block indefinitely. */
	ret = ua->in(kbuf, ksize, uarg, usize);
	if (ret)
		return ret;

	adev = file->adev;
	if (adev) {
		/*
		 * Held while the handler runs: removal waits for it before
		 * it moves the device's pages home and lets the provider go.
		 * Handlers drop it around their own user copies
		 * (amdx_device_copy_from_user()).
		 */
		down_read(&adev->lock);
		if (adev->dead) {
			up_read(&adev->lock);
			return -ENODEV;
		}
	}
	if (desc->open)
		return amdx_ioctl_open(desc, file, kbuf, uarg, usize, ksize, ua);
	ret = desc->func(file, kbuf);
	if (adev)
		up_read(&adev->lock);
	if (ret && !(desc->flags & AMDX_IOCTL_F_OUT_ON_ERR))
		return ret;
	if (_IOC_DIR(desc->cmd) & _IOC_READ) {
		err = ua->out(uarg, kbuf, min(usize, ksize));
		if (err)
			return err;
	}
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(amdx_ioctl_dispatch);
