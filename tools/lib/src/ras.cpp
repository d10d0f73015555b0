// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The RAS calls of amdx::Device, CRC32 and the bad-page table codec.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>

#include <amdx/device.hpp>
#include <amdx/ras.hpp>

#include "error.hpp"
#include "query.hpp"
#include "sys.hpp"

namespace amdx {

using detail::user_ptr;

namespace {

/// The reflected IEEE polynomial.
constexpr std::uint32_t kCrcPoly = 0xedb88320U;

constexpr std::array<std::uint32_t, 256> make_crc_table() {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t i = 0; i < table.size(); ++i) {
        std::uint32_t c = i;
        for (int bit = 0; bit < 8; ++bit)
            c = (c & 1U) != 0 ? (c >> 1) ^ kCrcPoly : c >> 1;
        table[i] = c;
    }
    return table;
}

constexpr auto kCrcTable = make_crc_table();

// The table's layout, little-endian, as uapi/linux/amdx.h defines it.
constexpr std::size_t kHeaderSize = 20;
constexpr std::size_t kRecordSize = 24;
constexpr std::size_t kChecksumOffset = 16;
static_assert(sizeof(amdx_badpage_header) == kHeaderSize);
static_assert(sizeof(amdx_badpage_record) == kRecordSize);
static_assert(offsetof(amdx_badpage_header, checksum) == kChecksumOffset);

template <class T>
void put_le(std::vector<std::byte>& out, T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i)
        out.push_back(
            static_cast<std::byte>((static_cast<std::uint64_t>(value) >> (8 * i)) & 0xff));
}

template <class T>
T get_le(std::span<const std::byte> in, std::size_t at) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        v |= static_cast<std::uint64_t>(in[at + i]) << (8 * i);
    return static_cast<T>(v);
}

/// The table's checksum: the header with the checksum field zero, then the
/// records.
std::uint32_t table_checksum(std::span<const std::byte> table) {
    const std::array<std::byte, 4> zero{};
    std::uint32_t crc = crc32(table.first(kChecksumOffset));
    crc = crc32(zero, crc);
    return crc32(table.subspan(kChecksumOffset + zero.size()), crc);
}

std::string hex(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

Unexpected bad_message(std::string* why, std::string text) {
    if (why != nullptr)
        *why = std::move(text);
    return Unexpected(std::error_code(EBADMSG, std::system_category()));
}

} // namespace

std::uint32_t crc32(std::span<const std::byte> bytes, std::uint32_t crc) noexcept {
    crc = ~crc;
    for (const std::byte b : bytes)
        crc = kCrcTable[(crc ^ static_cast<std::uint32_t>(b)) & 0xffU] ^ (crc >> 8);
    return ~crc;
}

std::vector<std::byte> encode_badpages(std::span<const BadPage> pages) {
    std::vector<std::byte> out;
    out.reserve(kHeaderSize + pages.size() * kRecordSize);
    put_le<std::uint32_t>(out, AMDX_BADPAGE_MAGIC);
    put_le<std::uint32_t>(out, AMDX_BADPAGE_VERSION);
    put_le<std::uint32_t>(out, static_cast<std::uint32_t>(pages.size()));
    put_le<std::uint32_t>(out, kRecordSize);
    put_le<std::uint32_t>(out, 0); // checksum, below
    for (const auto& p : pages) {
        put_le<std::uint64_t>(out, p.address);
        put_le<std::uint64_t>(out, p.time);
        put_le<std::uint32_t>(out, p.partition);
        put_le<std::uint16_t>(out, static_cast<std::uint16_t>(p.cause));
        put_le<std::uint16_t>(out, p.flags);
    }
    const std::uint32_t sum = table_checksum(out);
    for (std::size_t i = 0; i < 4; ++i)
        out[kChecksumOffset + i] = static_cast<std::byte>((sum >> (8 * i)) & 0xff);
    return out;
}

Result<std::vector<BadPage>> decode_badpages(std::span<const std::byte> bytes, std::string* why) {
    if (bytes.size() < kHeaderSize)
        return bad_message(why, "truncated: " + std::to_string(bytes.size()) +
                                    " bytes, shorter than the " + std::to_string(kHeaderSize) +
                                    "-byte header");
    const auto magic = get_le<std::uint32_t>(bytes, 0);
    const auto version = get_le<std::uint32_t>(bytes, 4);
    const auto count = get_le<std::uint32_t>(bytes, 8);
    const auto record_size = get_le<std::uint32_t>(bytes, 12);
    const auto checksum = get_le<std::uint32_t>(bytes, kChecksumOffset);
    if (magic != AMDX_BADPAGE_MAGIC)
        return bad_message(why, "bad magic " + hex(magic) + " (expected " +
                                    hex(AMDX_BADPAGE_MAGIC) + ", \"ABPX\")");
    if (version != AMDX_BADPAGE_VERSION)
        return bad_message(why, "version " + std::to_string(version) + " (expected " +
                                    std::to_string(AMDX_BADPAGE_VERSION) + ")");
    if (record_size != kRecordSize)
        return bad_message(why, "record size " + std::to_string(record_size) + " (expected " +
                                    std::to_string(kRecordSize) + ")");
    if (count > AMDX_BADPAGE_MAX_RECORDS)
        return bad_message(why, "count " + std::to_string(count) + " exceeds the maximum " +
                                    std::to_string(AMDX_BADPAGE_MAX_RECORDS));
    const std::size_t want = kHeaderSize + std::size_t{count} * kRecordSize;
    if (bytes.size() != want)
        return bad_message(why,
                           std::string(bytes.size() < want ? "truncated: " : "trailing data: ") +
                               std::to_string(bytes.size()) + " bytes, but " +
                               std::to_string(count) + " records need " + std::to_string(want));
    if (const std::uint32_t sum = table_checksum(bytes); sum != checksum)
        return bad_message(why, "checksum " + hex(checksum) + " does not match the contents (" +
                                    hex(sum) + ")");
    std::vector<BadPage> pages;
    pages.reserve(count);
    for (std::size_t at = kHeaderSize; at < want; at += kRecordSize)
        pages.push_back(
            BadPage{.address = get_le<std::uint64_t>(bytes, at),
                    .time = get_le<std::uint64_t>(bytes, at + 8),
                    .partition = get_le<std::uint32_t>(bytes, at + 16),
                    .cause = static_cast<BadPageCause>(get_le<std::uint16_t>(bytes, at + 20)),
                    .flags = get_le<std::uint16_t>(bytes, at + 22)});
    return pages;
}

RasCounters RasCounters::from_uapi(const amdx_ras_counters& raw) noexcept {
    RasCounters c;
    c.block = static_cast<RasBlock>(raw.block);
    c.partition = raw.partition;
    c.instances = raw.instances;
    c.supported = raw.supported;
    for (std::size_t i = 0; i < c.count.size(); ++i)
        if (raw.count[i] != AMDX_RAS_UNSUPPORTED)
            c.count[i] = raw.count[i];
    return c;
}

amdx_ras_inject RasInjection::to_uapi() const noexcept {
    amdx_ras_inject raw{};
    raw.block = static_cast<std::uint32_t>(block);
    raw.type = static_cast<std::uint32_t>(type);
    raw.instance = instance;
    raw.count = count;
    raw.address = address;
    return raw;
}

RasPolicy RasPolicy::from_uapi(const amdx_ras_policy& raw) noexcept {
    return RasPolicy{.ce_page_threshold = raw.ce_page_threshold,
                     .ce_window_s = raw.ce_window_s,
                     .bad_page_threshold = raw.bad_page_threshold,
                     .part_reset_limit = raw.part_reset_limit,
                     .part_reset_window_s = raw.part_reset_window_s,
                     .flags = raw.flags};
}

amdx_ras_policy RasPolicyUpdate::to_uapi() const noexcept {
    amdx_ras_policy raw{};
    if (ce_page_threshold) {
        raw.valid |= AMDX_RAS_POL_CE_PAGE_THRESHOLD;
        raw.ce_page_threshold = *ce_page_threshold;
    }
    if (ce_window_s) {
        raw.valid |= AMDX_RAS_POL_CE_WINDOW;
        raw.ce_window_s = *ce_window_s;
    }
    if (bad_page_threshold) {
        raw.valid |= AMDX_RAS_POL_BAD_PAGE_THRESHOLD;
        raw.bad_page_threshold = *bad_page_threshold;
    }
    if (part_reset_limit) {
        raw.valid |= AMDX_RAS_POL_PART_RESET_LIMIT;
        raw.part_reset_limit = *part_reset_limit;
    }
    if (part_reset_window_s) {
        raw.valid |= AMDX_RAS_POL_PART_RESET_WINDOW;
        raw.part_reset_window_s = *part_reset_window_s;
    }
    if (flags) {
        raw.valid |= AMDX_RAS_POL_FLAGS;
        raw.flags = *flags;
    }
    return raw;
}

Result<RasStatus> Device::ras_status() const noexcept {
    auto answer = detail::fetch_list(fd(), AMDX_QUERY_RAS_COUNTERS, sizeof(amdx_query_ras));
    if (!answer)
        return detail::forward(answer, "AMDX_QUERY_RAS_COUNTERS", id_);
    const auto header = detail::list_header<amdx_query_ras>(*answer);
    RasStatus out;
    out.flags = header.flags;
    out.rma = (header.flags & AMDX_RAS_F_RMA) != 0;
    out.retired_pages = header.retired_pages;
    out.pending_pages = header.pending_pages;
    auto ok = detail::for_each_entry<amdx_query_ras, amdx_ras_counters>(
        *answer, header.num_entries, header.entry_size, AMDX_RAS_COUNTERS_SIZE_VER0,
        [&out](const amdx_ras_counters& raw) {
            out.counters.push_back(RasCounters::from_uapi(raw));
        });
    if (!ok)
        return detail::forward(ok, "AMDX_QUERY_RAS_COUNTERS", id_);
    return out;
}

Result<std::uint64_t> Device::ras_inject(const RasInjection& inj) const noexcept {
    amdx_ras_inject arg = inj.to_uapi();
    if (const int ret = detail::ioctl_retry(fd().get(), AMDX_IOC_RAS_INJECT, &arg); ret < 0)
        return errno_error(-ret, "AMDX_IOC_RAS_INJECT", id_, arg.reason);
    return arg.seq;
}

Result<RasPolicy> Device::ras_policy() const noexcept {
    amdx_ras_policy raw{};
    if (const int ret =
            detail::query_struct(fd(), AMDX_QUERY_RAS_POLICY, 0, raw, AMDX_RAS_POLICY_SIZE_VER0);
        ret < 0)
        return errno_error(-ret, "AMDX_QUERY_RAS_POLICY", id_);
    return RasPolicy::from_uapi(raw);
}

Result<void> Device::ras_set_policy(const RasPolicyUpdate& update) const noexcept {
    amdx_ras_policy arg = update.to_uapi();
    if (const int ret = detail::ioctl_retry(fd().get(), AMDX_IOC_RAS_SET_POLICY, &arg); ret < 0)
        return errno_error(-ret, "AMDX_IOC_RAS_SET_POLICY", id_);
    return {};
}

Result<std::vector<std::byte>> Device::badpage_table() const noexcept {
    auto answer = detail::fetch_list(fd(), AMDX_QUERY_BADPAGES, sizeof(amdx_badpage_header));
    if (!answer)
        return detail::forward(answer, "AMDX_QUERY_BADPAGES", id_);
    const auto* p = reinterpret_cast<const std::byte*>(answer->data());
    return std::vector<std::byte>(p, p + answer->bytes);
}

Result<std::vector<BadPage>> Device::badpages() const noexcept {
    const auto table = badpage_table();
    if (!table)
        return detail::forward(table, "AMDX_QUERY_BADPAGES", id_);
    auto pages = decode_badpages(*table);
    if (!pages)
        return detail::forward(pages, "AMDX_QUERY_BADPAGES", id_);
    return pages;
}

Result<std::uint32_t> Device::badpages_import(std::span<const std::byte> table) const noexcept {
    if (table.size() > UINT32_MAX)
        return detail::fail(std::errc::message_size, "AMDX_IOC_RAS_BADPAGES_IMPORT", id_);
    amdx_ras_badpages_import arg{};
    arg.data = user_ptr(table.data());
    arg.size = static_cast<std::uint32_t>(table.size());
    if (const int ret = detail::ioctl_retry(fd().get(), AMDX_IOC_RAS_BADPAGES_IMPORT, &arg);
        ret < 0)
        return errno_error(-ret, "AMDX_IOC_RAS_BADPAGES_IMPORT", id_);
    return arg.imported;
}

namespace {

/// One RECOVERY_PLAN or RECOVERY_RUN with room for every process.
Result<RecoveryPlan> recovery_call(BorrowedFd fd, std::uint32_t id, unsigned long cmd,
                                   const char* what, const RecoveryTarget& target,
                                   std::optional<RecoveryAction> action, std::uint32_t flags) {
    std::vector<amdx_recovery_process> procs(16);
    amdx_recovery arg{};
    for (int round = 0; round < 2; ++round) {
        arg = amdx_recovery{};
        arg.action = action ? static_cast<std::uint32_t>(*action) : AMDX_RECOVER_PENDING;
        arg.flags = flags;
        arg.partition = target.partition.value_or(AMDX_RAS_PARTITION_ALL);
        arg.vf = target.vf.value_or(AMDX_VF_NONE);
        arg.processes = reinterpret_cast<std::uintptr_t>(procs.data());
        arg.num_listed = static_cast<std::uint32_t>(procs.size());
        if (const int ret = detail::ioctl_retry(fd.get(), cmd, &arg); ret < 0)
            return errno_error(-ret, what, id);
        // A plan found more than there was room for: once more with room.
        if (cmd != AMDX_IOC_RECOVERY_PLAN || arg.num_processes <= procs.size())
            break;
        procs.resize(std::min<std::uint32_t>(arg.num_processes, AMDX_RECOVERY_PROCESSES_MAX));
    }
    if (arg.num_listed > procs.size())
        return detail::fail(std::errc::protocol_error, what, id);
    RecoveryPlan p;
    p.action = static_cast<RecoveryAction>(arg.action);
    p.state = static_cast<RecoveryState>(arg.state);
    p.fault = arg.fault;
    p.seq = arg.seq;
    p.time_ns = arg.time_ns;
    for (std::uint32_t i = 0; i < 64; ++i) {
        if (((arg.devices >> i) & 1U) != 0)
            p.devices.push_back(i);
        if (((arg.peers >> i) & 1U) != 0)
            p.peers.push_back(i);
        if (arg.partitions[i] != 0)
            p.partitions.emplace_back(i, arg.partitions[i]);
        if (arg.vfs[i] != 0)
            p.vfs.emplace_back(i, arg.vfs[i]);
    }
    p.num_partitions = arg.num_partitions;
    p.num_vfs = arg.num_vfs;
    p.num_processes = arg.num_processes;
    p.est_ms = arg.est_ms;
    p.outcome = static_cast<RecoveryOutcome>(arg.outcome);
    if (arg.error < 0)
        p.error = std::error_code(-arg.error, std::system_category());
    for (std::uint32_t i = 0; i < arg.num_listed; ++i) {
        const auto& r = procs[i];
        p.processes.push_back(RecoveryProcess{
            .pid = r.pid,
            .device = r.device,
            .mem_partition = r.mem_partition,
            .pages = r.pages,
            .comm = std::string(reinterpret_cast<const char*>(r.comm),
                                ::strnlen(reinterpret_cast<const char*>(r.comm), sizeof(r.comm)))});
    }
    return p;
}

} // namespace

Result<RecoveryPlan> Device::recovery_plan(const RecoveryTarget& target,
                                           std::optional<RecoveryAction> action) const noexcept {
    return recovery_call(fd(), id_, AMDX_IOC_RECOVERY_PLAN, "AMDX_IOC_RECOVERY_PLAN", target,
                         action, 0);
}

Result<RecoveryPlan> Device::recovery_run(const RecoveryTarget& target,
                                          std::optional<RecoveryAction> action,
                                          RecoveryRunFlags flags) const noexcept {
    const std::uint32_t f =
        (flags.stop ? AMDX_RECOVERY_F_STOP : 0U) | (flags.others ? AMDX_RECOVERY_F_OTHERS : 0U);
    return recovery_call(fd(), id_, AMDX_IOC_RECOVERY_RUN, "AMDX_IOC_RECOVERY_RUN", target, action,
                         f);
}

} // namespace amdx
