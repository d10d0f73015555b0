// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Typed mirrors of the uapi's HMM structures (struct amdx_hmm_*).  The calls
// that use them are members of amdx::Device (device.hpp), one per ioctl.
// Addresses are process virtual addresses as integers, like the uapi's;
// sizes are bytes and must be page aligned (the kernel checks).
//
// Thread safety: plain values; the free functions are reentrant and keep
// no state.
#ifndef AMDX_HMM_HPP
#define AMDX_HMM_HPP

#include <cstdint>
#include <optional>
#include <vector>

#include <amdx/export.hpp>
#include <linux/amdx.h>

namespace amdx {

/// Locations: a memory partition index of the device, or one of these.
inline constexpr std::uint32_t kHmmLocSystem = AMDX_HMM_LOC_SYSTEM;
inline constexpr std::uint32_t kHmmLocPreferred = AMDX_HMM_LOC_PREFERRED;

/// Argument of %AMDX_IOC_HMM_SET_ATTR.  The uapi's @valid mask is derived
/// from which optionals are set; unset attributes keep their value.
struct AMDX_EXPORT HmmAttr {
    std::uint64_t start = 0;                    ///< page aligned
    std::uint64_t size = 0;                     ///< page aligned, non-zero
    std::optional<std::uint32_t> preferred_loc; ///< partition or kHmmLocSystem
    std::optional<std::uint32_t> granularity;   ///< log2 pages, <= AMDX_HMM_GRANULARITY_MAX
    std::optional<std::uint32_t> flags;         ///< AMDX_HMM_F_*
    std::optional<std::uint64_t> access;        ///< bit N: amdx device N may access

    [[nodiscard]] amdx_hmm_attr to_uapi() const noexcept;
};

/// Outputs of %AMDX_IOC_HMM_MIGRATE.
struct AMDX_EXPORT MigrateResult {
    std::uint64_t moved = 0;        ///< pages migrated
    std::uint64_t already = 0;      ///< pages already at the destination
    std::uint64_t skipped = 0;      ///< pages not migrated
    std::uint32_t skip_reasons = 0; ///< AMDX_HMM_SKIP_* for @skipped

    bool operator==(const MigrateResult&) const = default;
    AMDX_LOCAL static MigrateResult from_uapi(const amdx_hmm_migrate& raw) noexcept;
};

/// Outputs of %AMDX_IOC_HMM_ACCESS with op SNAPSHOT.
struct HmmSnapshot {
    std::vector<std::uint8_t> pages;      ///< AMDX_HMM_SNAP_* per page
    std::vector<std::uint64_t> vram_pfns; ///< per page if asked for, else empty
    std::uint64_t faults = 0;
};

/// struct amdx_hmm_stats.
struct AMDX_EXPORT HmmStats {
    std::uint64_t pages_in = 0;
    std::uint64_t pages_out = 0;
    std::uint64_t cpu_faults = 0;
    std::uint64_t evictions = 0;
    std::uint64_t bytes_in = 0;
    std::uint64_t bytes_out = 0;
    std::uint64_t ns_in = 0;
    std::uint64_t ns_out = 0;

    bool operator==(const HmmStats&) const = default;
    AMDX_LOCAL static HmmStats from_uapi(const amdx_hmm_stats& raw) noexcept;
};

/// One range of %AMDX_QUERY_HMM_RANGES.
struct AMDX_EXPORT HmmRangeInfo {
    std::uint64_t start = 0;
    std::uint64_t size = 0;
    std::uint32_t preferred_loc = kHmmLocSystem;
    std::uint32_t granularity = 0;
    std::uint32_t flags = 0; ///< AMDX_HMM_F_*
    std::uint64_t access = 0;
    std::uint64_t resident_pages = 0; ///< in this device's VRAM
    HmmStats stats;

    bool operator==(const HmmRangeInfo&) const = default;
    AMDX_LOCAL static HmmRangeInfo from_uapi(const amdx_hmm_range_info& raw) noexcept;
};

/// %AMDX_QUERY_HMM_RANGES: the ranges of a device fd.
struct HmmRanges {
    std::uint32_t pid = 0;            ///< the process the fd belongs to
    HmmStats total;                   ///< the fd's counters, removed ranges included
    std::vector<HmmRangeInfo> ranges; ///< sorted by address
};

} // namespace amdx

#endif // AMDX_HMM_HPP
