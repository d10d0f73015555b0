/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Table-driven ioctl dispatch with size-extensible arguments.
 */
#ifndef _AMDX_IOCTL_H_
#define _AMDX_IOCTL_H_

#include <linux/compiler.h>
#include <linux/types.h>

struct amdx_file;
struct file;

/* Where an ioctl may be issued. */
#define AMDX_IOCTL_F_CONTROL	BIT(0)	/* on /dev/amdx */
#define AMDX_IOCTL_F_DEVICE	BIT(1)	/* on a device fd */
#define AMDX_IOCTL_F_ADMIN	BIT(2)	/* needs CAP_SYS_ADMIN */
/* Copy the argument back to the caller even when the handler fails. */
#define AMDX_IOCTL_F_OUT_ON_ERR	BIT(3)

/* Largest argument structure the dispatcher handles on the stack. */
#define AMDX_IOCTL_MAX_ARG	256

/**
 * struct amdx_ioctl_desc - one entry of an ioctl table
 * @cmd: the command as built with the current uapi header; its size is
 *	the kernel's size of the argument.
 * @min_size: the smallest size a caller may pass: the size of the first
 *	version of the argument.
 * @flags: %AMDX_IOCTL_F_*.
 * @func: the handler; gets the argument zero-extended to the kernel's
 *	size.  Return: 0 or -errno.
 * @open: instead of @func, for commands that create an fd: returns the
 *	new file (not yet in any fd table) or an ERR_PTR().  The dispatcher
 *	stores the fd number at @fd_offset, copies the argument back and
 *	only then installs the file, so a failed copy leaves no fd behind.
 * @fd_offset: with @open, offset of the __s32 fd in the argument, below
 *	@min_size.
 * @name: for logs.
 */
struct amdx_ioctl_desc {
	unsigned int cmd;
	unsigned int min_size;
	unsigned int flags;
	int (*func)(struct amdx_file *file, void *arg);
	struct file *(*open)(struct amdx_file *file, void *arg);
	unsigned int fd_offset;
	const char *name;
};

/**
 * struct amdx_uaccess - how the dispatcher moves arguments
 * @in: copy @usize bytes at @src into the @ksize bytes of @dst with
 *	copy_struct_from_user() semantics.  Return: 0, -EFAULT or -E2BIG.
 * @out: copy @size bytes from @src to @dst.  Return: 0 or -EFAULT.
 *
 * The chardev uses user copies; KUnit uses kernel-memory copies with the
 * same semantics, so the dispatcher is tested without a process.
 */
struct amdx_uaccess {
	int (*in)(void *dst, size_t ksize, const void *src, size_t usize);
	int (*out)(void *dst, const void *src, size_t size);
};

extern const struct amdx_uaccess amdx_uaccess_user;

const struct amdx_ioctl_desc *
amdx_ioctl_find(const struct amdx_ioctl_desc *table, size_t count,
		unsigned int cmd);
long amdx_ioctl_dispatch(const struct amdx_ioctl_desc *table, size_t count,
			 struct amdx_file *file, unsigned int flags,
			 unsigned int cmd, void *uarg,
			 const struct amdx_uaccess *ua);

#endif /* _AMDX_IOCTL_H_ */
