// SPDX-License-Identifier: GPL-2.0
/*
 * HAVE_LINUX_UNALIGNED_H: the unaligned access helpers live in
 * <linux/unaligned.h>, <asm/unaligned.h> is gone, commit 5f60d5f6bbc1
 * ("move asm/unaligned.h to linux/unaligned.h"), v6.12.
 */
#include <linux/module.h>
#include <linux/unaligned.h>

u32 amdx_probe_fn(const void *p);
u32 amdx_probe_fn(const void *p)
{
	return get_unaligned_le32(p);
}
MODULE_LICENSE("GPL");
