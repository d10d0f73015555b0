// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: tracepoints
 *
 * The amdx tracepoints (amdx_trace.h) are instantiated here, in a leaf of
 * their own as xe_trace.c does, so that the files that fire them call
 * down into this object and never up into the module entry.
 */
#define CREATE_TRACE_POINTS
#include "amdx_trace.h"
