/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * The event log (amdx_event.c): every producer in amdx reports through
 * amdx_event_emit(); subscribers read records from their own ring.
 */
#ifndef _AMDX_EVENT_H_
#define _AMDX_EVENT_H_

#include <linux/types.h>
#include <linux/amdx.h>

struct amdx_device;

/**
 * amdx_event_emit() - append an event to every subscriber of a device
 * @adev: the device.
 * @ev: the record; the caller fills kind, block, type, instance,
 *	partition, address and data.  seq, timestamp_ns, size and device are
 *	filled here (and written back to @ev).
 *
 * Never sleeps, callable from any context including under spinlocks.
 * Also fires the amdx_event tracepoint.
 */
void amdx_event_emit(struct amdx_device *adev, struct amdx_event *ev);

#endif /* _AMDX_EVENT_H_ */
