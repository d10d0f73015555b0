// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The HMM calls of amdx::Device: one ioctl each.
#include <cerrno>
#include <unistd.h>

#include <amdx/device.hpp>
#include <amdx/hmm.hpp>

#include "error.hpp"
#include "query.hpp"
#include "sys.hpp"

namespace amdx {

using detail::user_ptr;

namespace {

/// One %AMDX_IOC_HMM_ACCESS; fills in @arg's outputs.
Result<void> access(BorrowedFd fd, amdx_hmm_access& arg) noexcept {
    if (const int ret = detail::ioctl_retry(fd.get(), AMDX_IOC_HMM_ACCESS, &arg); ret < 0)
        return errno_error(-ret);
    return {};
}

} // namespace

amdx_hmm_attr HmmAttr::to_uapi() const noexcept {
    amdx_hmm_attr raw{};
    raw.start = start;
    raw.size = size;
    if (preferred_loc) {
        raw.valid |= AMDX_HMM_ATTR_PREFERRED_LOC;
        raw.preferred_loc = *preferred_loc;
    }
    if (granularity) {
        raw.valid |= AMDX_HMM_ATTR_GRANULARITY;
        raw.granularity = *granularity;
    }
    if (flags) {
        raw.valid |= AMDX_HMM_ATTR_FLAGS;
        raw.flags = *flags;
    }
    if (access) {
        raw.valid |= AMDX_HMM_ATTR_ACCESS;
        raw.access = *access;
    }
    return raw;
}

MigrateResult MigrateResult::from_uapi(const amdx_hmm_migrate& raw) noexcept {
    return MigrateResult{.moved = raw.moved,
                         .already = raw.already,
                         .skipped = raw.skipped,
                         .skip_reasons = raw.skip_reasons};
}

HmmStats HmmStats::from_uapi(const amdx_hmm_stats& raw) noexcept {
    return HmmStats{.pages_in = raw.pages_in,
                    .pages_out = raw.pages_out,
                    .cpu_faults = raw.cpu_faults,
                    .evictions = raw.evictions,
                    .bytes_in = raw.bytes_in,
                    .bytes_out = raw.bytes_out,
                    .ns_in = raw.ns_in,
                    .ns_out = raw.ns_out};
}

HmmRangeInfo HmmRangeInfo::from_uapi(const amdx_hmm_range_info& raw) noexcept {
    return HmmRangeInfo{.start = raw.start,
                        .size = raw.size,
                        .preferred_loc = raw.preferred_loc,
                        .granularity = raw.granularity,
                        .flags = raw.flags,
                        .access = raw.access,
                        .resident_pages = raw.resident_pages,
                        .stats = HmmStats::from_uapi(raw.stats)};
}

Result<void> Device::set_attr(const HmmAttr& attr) const noexcept {
    amdx_hmm_attr raw = attr.to_uapi();
    if (const int ret = detail::ioctl_retry(fd().get(), AMDX_IOC_HMM_SET_ATTR, &raw); ret < 0)
        return errno_error(-ret, "AMDX_IOC_HMM_SET_ATTR", id_);
    return {};
}

Result<MigrateResult> Device::migrate(std::uint64_t start, std::uint64_t size,
                                      std::uint32_t dest) const noexcept {
    amdx_hmm_migrate raw{};
    raw.start = start;
    raw.size = size;
    raw.dest = dest;
    if (const int ret = detail::ioctl_retry(fd().get(), AMDX_IOC_HMM_MIGRATE, &raw); ret < 0)
        return errno_error(-ret, "AMDX_IOC_HMM_MIGRATE", id_);
    return MigrateResult::from_uapi(raw);
}

Result<MigrateResult> Device::prefetch(std::uint64_t start, std::uint64_t size) const noexcept {
    return migrate(start, size, kHmmLocPreferred);
}

Result<std::uint64_t> Device::access_read(std::uint64_t addr,
                                          std::span<std::byte> out) const noexcept {
    amdx_hmm_access arg{};
    arg.addr = addr;
    arg.size = out.size();
    arg.buf = user_ptr(out.data());
    arg.op = AMDX_HMM_ACCESS_READ;
    if (auto ok = access(fd(), arg); !ok)
        return detail::forward(ok, "AMDX_IOC_HMM_ACCESS", id_);
    return arg.faults;
}

Result<std::uint64_t> Device::access_write(std::uint64_t addr,
                                           std::span<const std::byte> in) const noexcept {
    amdx_hmm_access arg{};
    arg.addr = addr;
    arg.size = in.size();
    arg.buf = user_ptr(in.data());
    arg.op = AMDX_HMM_ACCESS_WRITE;
    if (auto ok = access(fd(), arg); !ok)
        return detail::forward(ok, "AMDX_IOC_HMM_ACCESS", id_);
    return arg.faults;
}

Result<HmmSnapshot> Device::access_snapshot(std::uint64_t addr, std::uint64_t size,
                                            bool vram_pfns) const noexcept {
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    if (size % page != 0 || size / page > SIZE_MAX / sizeof(std::uint64_t)) // as the kernel says
        return detail::fail(std::errc::invalid_argument, "AMDX_IOC_HMM_ACCESS", id_);
    HmmSnapshot snap;
    snap.pages.assign(size / page, 0);
    if (vram_pfns)
        snap.vram_pfns.assign(size / page, ~std::uint64_t{0});
    amdx_hmm_access arg{};
    arg.addr = addr;
    arg.size = size;
    arg.buf = user_ptr(snap.pages.data());
    arg.op = AMDX_HMM_ACCESS_SNAPSHOT;
    arg.vram_pfns = vram_pfns ? user_ptr(snap.vram_pfns.data()) : 0;
    if (auto ok = access(fd(), arg); !ok)
        return detail::forward(ok, "AMDX_IOC_HMM_ACCESS", id_);
    snap.faults = arg.faults;
    return snap;
}

Result<HmmRanges> Device::hmm_ranges() const noexcept {
    auto answer = detail::fetch_list(fd(), AMDX_QUERY_HMM_RANGES, sizeof(amdx_query_hmm_ranges));
    if (!answer)
        return detail::forward(answer, "AMDX_QUERY_HMM_RANGES", id_);
    const auto header = detail::list_header<amdx_query_hmm_ranges>(*answer);
    HmmRanges out;
    out.pid = header.pid;
    out.total = HmmStats::from_uapi(header.total);
    out.ranges.reserve(
        std::min<std::size_t>(header.num_ranges, answer->bytes / AMDX_HMM_RANGE_INFO_SIZE_VER0));
    auto ok = detail::for_each_entry<amdx_query_hmm_ranges, amdx_hmm_range_info>(
        *answer, header.num_ranges, header.entry_size, AMDX_HMM_RANGE_INFO_SIZE_VER0,
        [&out](const amdx_hmm_range_info& raw) {
            out.ranges.push_back(HmmRangeInfo::from_uapi(raw));
        });
    if (!ok)
        return detail::forward(ok, "AMDX_QUERY_HMM_RANGES", id_);
    return out;
}

} // namespace amdx
