// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// libamdx: C++20 access to the amdx uapi (<linux/amdx.h>).
// Documentation/library.rst: the API, its thread safety and the ABI rules.
//
// Thread safety in short: the value types (DeviceInfo, PartitionReport,
// Event, ...) are plain values; Control and Device are handles whose const
// calls may run concurrently; an EventStream hands each record to one
// reader.  Each header says it per class.
#ifndef AMDX_AMDX_HPP
#define AMDX_AMDX_HPP

#include <amdx/device.hpp>
#include <amdx/event.hpp>
#include <amdx/hmm.hpp>
#include <amdx/link.hpp>
#include <amdx/monitor.hpp>
#include <amdx/partition.hpp>
#include <amdx/ras.hpp>
#include <amdx/result.hpp>
#include <amdx/types.hpp>
#include <amdx/unique_fd.hpp>
#include <amdx/version.hpp>

#endif // AMDX_AMDX_HPP
