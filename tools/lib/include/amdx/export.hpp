// SPDX-License-Identifier: GPL-2.0-only OR MIT
#ifndef AMDX_EXPORT_HPP
#define AMDX_EXPORT_HPP

/// Marks the symbols that form libamdx's ABI; everything else is hidden.
#define AMDX_EXPORT __attribute__((visibility("default")))

#endif // AMDX_EXPORT_HPP
