/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM amdx

#if !defined(_AMDX_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _AMDX_TRACE_H_

#include <linux/tracepoint.h>
#include <linux/types.h>

TRACE_EVENT(amdx_device_add,
	    TP_PROTO(u32 id, const char *bdf, u32 model),
	    TP_ARGS(id, bdf, model),
	    TP_STRUCT__entry(__field(u32, id)
			     __string(bdf, bdf)
			     __field(u32, model)),
	    TP_fast_assign(__entry->id = id;
			   __assign_str(bdf, bdf);
			   __entry->model = model;),
	    TP_printk("id=%u bdf=%s model=%u", __entry->id, __get_str(bdf),
		      __entry->model)
);

TRACE_EVENT(amdx_device_remove,
	    TP_PROTO(u32 id),
	    TP_ARGS(id),
	    TP_STRUCT__entry(__field(u32, id)),
	    TP_fast_assign(__entry->id = id;),
	    TP_printk("id=%u", __entry->id)
);

#endif /* _AMDX_TRACE_H_ */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE amdx_trace
#include <trace/define_trace.h>
