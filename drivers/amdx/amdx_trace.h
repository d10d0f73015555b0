/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM amdx

#if !defined(_AMDX_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _AMDX_TRACE_H_

#include <linux/tracepoint.h>
#include <amdx/amdx_compat.h>
#include <linux/types.h>
#include <linux/amdx.h>

TRACE_EVENT(amdx_device_add,
	    TP_PROTO(u32 id, const char *bdf, u32 model),
	    TP_ARGS(id, bdf, model),
	    TP_STRUCT__entry(__field(u32, id)
			     __string(bdf, bdf)
			     __field(u32, model)),
	    TP_fast_assign(__entry->id = id;
			   amdx_assign_str(bdf, bdf);
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

TRACE_EVENT(amdx_hmm_migrate,
	    TP_PROTO(u32 dev, pid_t tgid, u64 start, u64 npages, u32 dest,
		     u64 moved, u64 ns),
	    TP_ARGS(dev, tgid, start, npages, dest, moved, ns),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(pid_t, tgid)
			     __field(u64, start)
			     __field(u64, npages)
			     __field(u32, dest)
			     __field(u64, moved)
			     __field(u64, ns)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->tgid = tgid;
			   __entry->start = start;
			   __entry->npages = npages;
			   __entry->dest = dest;
			   __entry->moved = moved;
			   __entry->ns = ns;),
	    TP_printk("dev=%u tgid=%d start=0x%llx npages=%llu dest=%d moved=%llu ns=%llu",
		      __entry->dev, __entry->tgid, __entry->start,
		      __entry->npages, (int)__entry->dest, __entry->moved,
		      __entry->ns)
);

TRACE_EVENT(amdx_hmm_fault,
	    TP_PROTO(u32 dev, u64 addr, u64 npages, u64 moved),
	    TP_ARGS(dev, addr, npages, moved),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u64, addr)
			     __field(u64, npages)
			     __field(u64, moved)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->addr = addr;
			   __entry->npages = npages;
			   __entry->moved = moved;),
	    TP_printk("dev=%u addr=0x%llx npages=%llu moved=%llu", __entry->dev,
		      __entry->addr, __entry->npages, __entry->moved)
);

TRACE_EVENT(amdx_hmm_evict,
	    TP_PROTO(u32 dev, pid_t tgid, u64 start, u64 moved),
	    TP_ARGS(dev, tgid, start, moved),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(pid_t, tgid)
			     __field(u64, start)
			     __field(u64, moved)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->tgid = tgid;
			   __entry->start = start;
			   __entry->moved = moved;),
	    TP_printk("dev=%u tgid=%d start=0x%llx moved=%llu", __entry->dev,
		      __entry->tgid, __entry->start, __entry->moved)
);

TRACE_EVENT(amdx_event,
	    TP_PROTO(const struct amdx_event *ev),
	    TP_ARGS(ev),
	    TP_STRUCT__entry(__field(u64, seq)
			     __field(u64, timestamp_ns)
			     __field(u16, kind)
			     __field(u16, size)
			     __field(u32, device)
			     __field(u32, block)
			     __field(u32, type)
			     __field(u32, instance)
			     __field(u32, partition)
			     __field(u64, address)
			     __field(u64, data0)
			     __field(u64, data1)),
	    TP_fast_assign(__entry->seq = ev->seq;
			   __entry->timestamp_ns = ev->timestamp_ns;
			   __entry->kind = ev->kind;
			   __entry->size = ev->size;
			   __entry->device = ev->device;
			   __entry->block = ev->block;
			   __entry->type = ev->type;
			   __entry->instance = ev->instance;
			   __entry->partition = ev->partition;
			   __entry->address = ev->address;
			   __entry->data0 = ev->data[0];
			   __entry->data1 = ev->data[1];),
	    TP_printk("dev=%u seq=%llu ts=%llu kind=%u size=%u block=%u type=%u instance=%u partition=%d address=0x%llx data0=%llu data1=%llu",
		      __entry->device, __entry->seq, __entry->timestamp_ns,
		      __entry->kind, __entry->size, __entry->block,
		      __entry->type, __entry->instance,
		      (int)__entry->partition, __entry->address,
		      __entry->data0, __entry->data1)
);

#endif /* _AMDX_TRACE_H_ */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE amdx_trace
#include <trace/define_trace.h>
