/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The amdx fuzzer's model of the uapi.  The tables are generated from
 * uapi/linux/amdx.h by gen_uapi.py at build time (amdx_fuzz_uapi.c).
 */
#ifndef _AMDX_FUZZ_H_
#define _AMDX_FUZZ_H_

#include <stddef.h>
#include <stdint.h>
#include <linux/amdx.h>

/* What a member is, read from its kernel-doc. */
enum fz_role {
	FZ_IN,		/* an input value */
	FZ_OUT,		/* written by the kernel only */
	FZ_ZERO,	/* pad or reserved: must be zero */
	FZ_PTR,		/* a user pointer (__u64) */
	FZ_ADDR,	/* an address in process memory (HMM) */
};

struct fz_const {
	const char *name;
	uint64_t value;
};

struct fz_field {
	const char *name;	/* designator, "config.vram_quota" */
	uint16_t off;		/* offsetof() */
	uint16_t size;		/* element size */
	uint16_t count;		/* elements (1 unless an array) */
	uint8_t role;		/* enum fz_role */
	const uint64_t *dict;	/* constants its documentation names */
	uint16_t ndict;
};

struct fz_struct {
	const char *name;
	uint32_t size;
	const struct fz_field *fields;
	unsigned int nfields;
};

#define FZ_FD_CTL	1	/* valid on /dev/amdx */
#define FZ_FD_DEV	2	/* valid on a device fd */

struct fz_ioctl {
	const char *name;
	unsigned long cmd;
	const struct fz_struct *arg;
	unsigned int fds;
};

extern const struct fz_const fz_consts[];
extern const unsigned int fz_nconsts;
extern const struct fz_struct fz_structs[];
extern const unsigned int fz_nstructs;
extern const struct fz_ioctl fz_ioctls[];
extern const unsigned int fz_nioctls;

#endif /* _AMDX_FUZZ_H_ */
