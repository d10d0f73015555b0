// SPDX-License-Identifier: GPL-2.0
/*
 * HAVE_CLASS_CREATE_NO_OWNER: class_create() takes only a name, commit
 * 1aaba11da9aa ("driver core: class: remove module * from class_create()"),
 * v6.4.
 */
#include <linux/device.h>
#include <linux/module.h>

struct class *amdx_probe_fn(void);
struct class *amdx_probe_fn(void)
{
	return class_create("amdx_probe");
}
MODULE_LICENSE("GPL");
