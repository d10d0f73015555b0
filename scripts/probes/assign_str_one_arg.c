// SPDX-License-Identifier: GPL-2.0
/*
 * HAVE_ASSIGN_STR_ONE_ARG: __assign_str() takes only the field, the source
 * string is the one __string() recorded, commit 2c92ca849fcc
 * ("tracing/treewide: Remove second parameter of __assign_str()"), v6.10.
 *
 * Stringifying the expansion checks the macro's arity without compiling
 * the tracepoint body.
 */
#include <linux/module.h>
#include <linux/stringify.h>
#include <trace/stages/stage6_event_callback.h>

extern const char amdx_probe_str[];
const char amdx_probe_str[] = __stringify(__assign_str(field));
MODULE_LICENSE("GPL");
