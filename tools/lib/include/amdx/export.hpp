// SPDX-License-Identifier: GPL-2.0-only OR MIT
#ifndef AMDX_EXPORT_HPP
#define AMDX_EXPORT_HPP

// Every public header includes this one, so this is the one place to say it.
#if !defined(__cplusplus) || __cplusplus < 202002L
#error "libamdx needs C++20 or later (-std=c++20); C programs use <amdx/amdx.h>"
#endif

/// Marks the symbols that form libamdx's ABI; everything else is hidden.
/// The linker version script (tools/lib/libamdx.map) decides what is
/// exported in the end; Documentation/library.rst has the ABI rules.
#define AMDX_EXPORT __attribute__((visibility("default")))
/// Marks members of exported classes that are not ABI: the decoders of raw
/// uapi structures (from_uapi()), which only the library itself calls.
#define AMDX_LOCAL __attribute__((visibility("hidden")))

#endif // AMDX_EXPORT_HPP
