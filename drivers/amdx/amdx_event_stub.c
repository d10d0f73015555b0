// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 *
 * TEMPORARY: stands in for the event log (amdx_event.c, branch "events")
 * until it is merged; delete this file and its Kbuild line then.
 */
#include "amdx_event.h"

/**
 * amdx_event_emit() - placeholder: records nothing
 * @adev: the device.
 * @ev: the record.
 */
void amdx_event_emit(struct amdx_device *adev, struct amdx_event *ev)
{
}
