// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// libamdx: C++20 access to the amdx uapi (<linux/amdx.h>).
#ifndef AMDX_AMDX_HPP
#define AMDX_AMDX_HPP

#include <amdx/device.hpp>
#include <amdx/event.hpp>
#include <amdx/hmm.hpp>
#include <amdx/partition.hpp>
#include <amdx/ras.hpp>
#include <amdx/result.hpp>
#include <amdx/types.hpp>
#include <amdx/unique_fd.hpp>

#endif // AMDX_AMDX_HPP
