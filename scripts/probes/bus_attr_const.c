// SPDX-License-Identifier: GPL-2.0
/*
 * HAVE_BUS_ATTR_CONST: struct bus_attribute's show() and store() take a
 * const struct bus_type *, commit 75cff725d956 ("driver core: bus: mark the
 * struct bus_type for sysfs callbacks as constant"), v6.4.
 */
#include <linux/build_bug.h>
#include <linux/device.h>
#include <linux/module.h>

static_assert(__same_type(((struct bus_attribute *)NULL)->store,
			  ssize_t (*)(const struct bus_type *, const char *,
				      size_t)));
MODULE_LICENSE("GPL");
