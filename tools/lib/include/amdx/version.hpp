// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The libamdx version.  AMDX_LIB_VERSION_* are the headers' version, seen
// at compile time; amdx::version() is the version of the shared library
// loaded at run time.  They differ when a program built against one release
// runs with another of the same major version (SONAME libamdx.so.MAJOR,
// Documentation/library.rst).  tools/lib/CMakeLists.txt checks that these
// agree with the project's version.
#ifndef AMDX_VERSION_HPP
#define AMDX_VERSION_HPP

#include <cstdint>
#include <string_view>

#include <amdx/export.hpp>

#define AMDX_LIB_VERSION_MAJOR 8
#define AMDX_LIB_VERSION_MINOR 0
#define AMDX_LIB_VERSION_PATCH 0
#define AMDX_LIB_VERSION_STRING "8.0.0"

namespace amdx {

/// A library version.
struct LibraryVersion {
    std::uint32_t major = 0;
    std::uint32_t minor = 0;
    std::uint32_t patch = 0;
    std::string_view text; ///< "3.0.0"

    bool operator==(const LibraryVersion&) const = default;
};

/// The version the headers in use describe.
inline constexpr LibraryVersion kHeaderVersion{AMDX_LIB_VERSION_MAJOR, AMDX_LIB_VERSION_MINOR,
                                               AMDX_LIB_VERSION_PATCH, AMDX_LIB_VERSION_STRING};

/// The version of the libamdx the program runs with.  Thread-safe.
AMDX_EXPORT LibraryVersion version() noexcept;

} // namespace amdx

#endif // AMDX_VERSION_HPP
