// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Internal: %AMDX_IOC_QUERY and the decoding rules every query shares.
//  - fixed-size results (caps, device info) are asked for with the size
//    libamdx was built with; the kernel truncates larger results to it and
//    zero-extension covers smaller ones, but an answer shorter than the
//    result's first uapi version is malformed (EPROTO);
//  - list results use the two-call size protocol and are stepped through by
//    the entry_size the kernel reports, never by sizeof(), so entries can
//    grow; entries shorter than their first version are malformed.
#ifndef AMDX_SRC_QUERY_HPP
#define AMDX_SRC_QUERY_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include <amdx/result.hpp>
#include <amdx/unique_fd.hpp>
#include <linux/amdx.h>

namespace amdx::detail {

// First-version sizes of results and entries: AMDX_*_SIZE_VER0 in the uapi.
static_assert(sizeof(amdx_query_caps) >= AMDX_QUERY_CAPS_SIZE_VER0);
static_assert(sizeof(amdx_device_info) >= AMDX_DEVICE_INFO_SIZE_VER0);
static_assert(sizeof(amdx_device_entry) >= AMDX_DEVICE_ENTRY_SIZE_VER0);
static_assert(sizeof(amdx_hmm_range_info) >= AMDX_HMM_RANGE_INFO_SIZE_VER0);
static_assert(sizeof(amdx_partition_info) >= AMDX_PARTITION_INFO_SIZE_VER0);
static_assert(sizeof(amdx_vf_info) >= AMDX_VF_INFO_SIZE_VER0);
static_assert(sizeof(amdx_ras_counters) >= AMDX_RAS_COUNTERS_SIZE_VER0);
static_assert(sizeof(amdx_ras_policy) >= AMDX_RAS_POLICY_SIZE_VER0);
static_assert(sizeof(amdx_reset_scope) >= AMDX_RESET_SCOPE_SIZE_VER0);
static_assert(sizeof(amdx_device_stats) >= AMDX_DEVICE_STATS_SIZE_VER0);

/// Upper bound on a list answer; anything larger is malformed.
inline constexpr std::uint32_t kMaxListBytes = 64U << 20;

/// One %AMDX_IOC_QUERY; @size is the buffer size in, the kernel's size out.
/// Returns 0 or -errno.
int query(BorrowedFd fd, std::uint32_t what, std::uint32_t id, void* buf,
          std::uint32_t& size) noexcept;

/// A fixed-size result into @out (zeroed first).  Returns 0 or -errno;
/// -EPROTO if the kernel wrote fewer than @min_size or more than sizeof(Raw).
int query_fixed(BorrowedFd fd, std::uint32_t what, std::uint32_t id, void* out,
                std::uint32_t raw_size, std::uint32_t min_size) noexcept;

template <class Raw>
int query_struct(BorrowedFd fd, std::uint32_t what, std::uint32_t id, Raw& out,
                 std::uint32_t min_size) noexcept {
    return query_fixed(fd, what, id, &out, sizeof(Raw), min_size);
}

/// The bytes of a list result: @bytes valid bytes in an 8-byte aligned buffer.
struct ListAnswer {
    std::vector<std::uint64_t> buf;
    std::size_t bytes = 0;

    [[nodiscard]] const unsigned char* data() const noexcept {
        return reinterpret_cast<const unsigned char*>(buf.data());
    }
};

/// A list query with the two-call size protocol, again while the list grows
/// (at most kMaxListAttempts fetches, then EAGAIN).  EPROTO if the size is
/// below @header_size or above kMaxListBytes.
Result<ListAnswer> fetch_list(BorrowedFd fd, std::uint32_t what, std::size_t header_size) noexcept;

/// Calls @fn(const Entry&) for each of @count entries of @entry_size bytes
/// after the @Header at the start of @answer.  Copies min(@entry_size,
/// sizeof(Entry)) bytes of each into a zeroed Entry.  EPROTO if @entry_size
/// is below @min_entry_size or the entries do not fit the answer.
template <class Header, class Entry, class Fn>
Result<void> for_each_entry(const ListAnswer& answer, std::uint32_t count, std::uint32_t entry_size,
                            std::uint32_t min_entry_size, Fn&& fn) {
    if (entry_size < min_entry_size)
        return Unexpected(std::errc::protocol_error);
    if (count > (answer.bytes - sizeof(Header)) / entry_size)
        return Unexpected(std::errc::protocol_error);
    const std::size_t copy = std::min<std::size_t>(entry_size, sizeof(Entry));
    const unsigned char* p = answer.data() + sizeof(Header);
    for (std::uint32_t i = 0; i < count; ++i, p += entry_size) {
        Entry raw{};
        std::memcpy(&raw, p, copy);
        fn(raw);
    }
    return {};
}

/// A NUL-terminated uapi string field; stops at the field's end.
template <std::size_t N>
std::string c_string(const __u8 (&field)[N]) {
    const auto* end = std::find(std::begin(field), std::end(field), 0);
    return {std::begin(field), end};
}

/// A user pointer as the uapi carries it.
inline std::uint64_t user_ptr(const void* p) noexcept {
    return reinterpret_cast<std::uintptr_t>(p);
}

/// The fixed header at the start of @answer (fetch_list() checked its size).
template <class Header>
Header list_header(const ListAnswer& answer) noexcept {
    Header header{};
    std::memcpy(&header, answer.data(), sizeof(header));
    return header;
}

} // namespace amdx::detail

#endif // AMDX_SRC_QUERY_HPP
