// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fcntl.h>

#include <amdx/device.hpp>

#include "error.hpp"
#include "query.hpp"
#include "sys.hpp"

namespace amdx {

using detail::c_string;

namespace {

template <class Enum>
std::vector<Enum> modes_from_mask(std::uint32_t mask) {
    std::vector<Enum> modes;
    for (std::uint32_t bit = 1; bit < 32; ++bit) // bit 0 is the "unknown" mode
        if ((mask & (1U << bit)) != 0)
            modes.push_back(static_cast<Enum>(bit));
    return modes;
}

Result<std::vector<DeviceEntry>> decode_devices(const detail::ListAnswer& answer) {
    const auto header = detail::list_header<amdx_query_devices>(answer);
    std::vector<DeviceEntry> entries;
    entries.reserve(
        std::min<std::size_t>(header.num_devices, answer.bytes / AMDX_DEVICE_ENTRY_SIZE_VER0));
    auto ok = detail::for_each_entry<amdx_query_devices, amdx_device_entry>(
        answer, header.num_devices, header.entry_size, AMDX_DEVICE_ENTRY_SIZE_VER0,
        [&entries](const amdx_device_entry& raw) {
            entries.push_back(DeviceEntry::from_uapi(raw));
        });
    if (!ok)
        return detail::forward(ok, "AMDX_QUERY_DEVICES");
    return entries;
}

Result<DeviceInfo> info_query(BorrowedFd fd, std::uint32_t query_id, std::uint32_t expect_id) {
    amdx_device_info raw{};
    if (const int ret = detail::query_struct(fd, AMDX_QUERY_DEVICE_INFO, query_id, raw,
                                             AMDX_DEVICE_INFO_SIZE_VER0);
        ret < 0)
        return errno_error(-ret, "AMDX_QUERY_DEVICE_INFO", expect_id);
    if (raw.id != expect_id)
        return detail::fail(std::errc::protocol_error, "AMDX_QUERY_DEVICE_INFO", expect_id);
    return DeviceInfo::from_uapi(raw);
}

} // namespace

Caps Caps::from_uapi(const amdx_query_caps& raw) noexcept {
    return Caps{.version_major = raw.version_major,
                .version_minor = raw.version_minor,
                .bits = raw.caps,
                .num_devices = raw.num_devices};
}

DeviceEntry DeviceEntry::from_uapi(const amdx_device_entry& raw) {
    return DeviceEntry{
        .id = raw.id, .model = static_cast<Model>(raw.model), .bdf = c_string(raw.bdf)};
}

DeviceInfo DeviceInfo::from_uapi(const amdx_device_info& raw) {
    DeviceInfo info;
    info.id = raw.id;
    info.model = static_cast<Model>(raw.model);
    info.bdf = c_string(raw.bdf);
    info.serial = c_string(raw.serial);
    info.product = c_string(raw.product);
    info.hive_id = raw.hive_id;
    info.vram_size = raw.vram_size;
    info.vram_free = raw.vram_free;
    info.num_xcc = raw.num_xcc;
    info.num_sdma = raw.num_sdma;
    info.num_vcn = raw.num_vcn;
    info.compute_mode = static_cast<ComputeMode>(raw.compute_mode);
    info.memory_mode = static_cast<MemoryMode>(raw.memory_mode);
    info.supported_compute_modes = modes_from_mask<ComputeMode>(raw.supported_compute_modes);
    info.supported_memory_modes = modes_from_mask<MemoryMode>(raw.supported_memory_modes);
    const std::uint32_t parts =
        std::min<std::uint32_t>(raw.num_mem_partitions, AMDX_MAX_MEM_PARTITIONS);
    for (std::uint32_t i = 0; i < parts; ++i) {
        const auto& p = raw.mem_partitions[i];
        info.memory_partitions.push_back(
            {.index = i, .base = p.base, .size = p.size, .free = p.free});
    }
    info.num_vfs = raw.num_vfs;
    info.max_vfs = raw.max_vfs;
    info.flags = raw.flags;
    info.hmm = (raw.flags & AMDX_DEVICE_F_HMM) != 0;
    return info;
}

DeviceStats DeviceStats::from_uapi(const amdx_device_stats& raw) noexcept {
    return DeviceStats{.migrations_to_vram = raw.migrations_to_vram,
                       .bytes_to_vram = raw.bytes_to_vram,
                       .migrations_to_ram = raw.migrations_to_ram,
                       .bytes_to_ram = raw.bytes_to_ram,
                       .fault_migrations = raw.fault_migrations,
                       .fault_bytes = raw.fault_bytes,
                       .evictions = raw.evictions,
                       .evicted_bytes = raw.evicted_bytes,
                       .drains = raw.drains,
                       .drained_bytes = raw.drained_bytes,
                       .vf_flrs = raw.vf_flrs,
                       .commits = raw.commits,
                       .rollbacks = raw.rollbacks,
                       .refusals = raw.refusals,
                       .events_emitted = raw.events_emitted,
                       .events_lost = raw.events_lost};
}

Result<Control> Control::open(std::string_view path) noexcept {
    const std::string p(path);
    int fd = ::open(p.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0 && (errno == EACCES || errno == EPERM))
        fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno_error(errno, "open");
    Control control{UniqueFd(fd)};
    const auto caps = control.caps();
    if (!caps)
        return Unexpected(caps.context());
    if (caps->version_major != AMDX_UAPI_VERSION_MAJOR) {
        ErrorContext ctx;
        ctx.code = std::make_error_code(std::errc::protocol_not_supported);
        ctx.call = "AMDX_QUERY_CAPS";
        ctx.detail = "kernel amdx uapi " + std::to_string(caps->version_major) + "." +
                     std::to_string(caps->version_minor) + " is not supported (amdx speaks " +
                     std::to_string(AMDX_UAPI_VERSION_MAJOR) +
                     ".x; install the matching amdx tools)";
        return Unexpected(std::move(ctx));
    }
    return control;
}

Control Control::adopt(UniqueFd fd) noexcept {
    return Control(std::move(fd));
}

Result<Caps> Control::caps() const noexcept {
    amdx_query_caps raw{};
    if (const int ret =
            detail::query_struct(fd(), AMDX_QUERY_CAPS, 0, raw, AMDX_QUERY_CAPS_SIZE_VER0);
        ret < 0)
        return errno_error(-ret, "AMDX_QUERY_CAPS");
    return Caps::from_uapi(raw);
}

Result<std::vector<DeviceEntry>> Control::devices() const noexcept {
    auto answer = detail::fetch_list(fd(), AMDX_QUERY_DEVICES, sizeof(amdx_query_devices));
    if (!answer)
        return detail::forward(answer, "AMDX_QUERY_DEVICES");
    return decode_devices(*answer);
}

Result<DeviceInfo> Control::device_info(std::uint32_t id) const noexcept {
    return info_query(fd(), id, id);
}

Result<Device> Device::open(const Control& control, std::uint32_t id) noexcept {
    amdx_device_open arg{};
    arg.id = id;
    if (const int ret = detail::ioctl_retry(control.fd().get(), AMDX_IOC_DEVICE_OPEN, &arg);
        ret < 0)
        return errno_error(-ret, "AMDX_IOC_DEVICE_OPEN", id);
    if (arg.fd < 0)
        return detail::fail(std::errc::protocol_error, "AMDX_IOC_DEVICE_OPEN", id);
    return Device(UniqueFd(arg.fd), id);
}

Result<DeviceInfo> Device::info() const noexcept {
    return info_query(fd(), 0, id_);
}

Result<DeviceStats> Device::stats() const noexcept {
    amdx_device_stats raw{};
    if (const int ret =
            detail::query_struct(fd(), AMDX_QUERY_STATS, 0, raw, AMDX_DEVICE_STATS_SIZE_VER0);
        ret < 0)
        return errno_error(-ret, "AMDX_QUERY_STATS", id_);
    return DeviceStats::from_uapi(raw);
}

std::string_view to_string(FirmwareId id) noexcept {
    // Indexed by AMDX_FW_* - 1; part of the CLI's JSON and the exporter's
    // labels: never rename one.
    static constexpr std::string_view kNames[] = {"smu", "psp_sos", "psp_ta_ras", "psp_ta_xgmi",
                                                  "mec", "rlc",     "sdma",       "vcn"};
    static_assert(std::size(kNames) == AMDX_FW_COUNT - 1, "a firmware has no name");
    const auto i = static_cast<std::uint32_t>(id);
    return i >= 1 && i < AMDX_FW_COUNT ? kNames[i - 1] : "unknown";
}

Result<FirmwareInfo> Device::firmware() const noexcept {
    constexpr std::string_view kCall = "AMDX_QUERY_FIRMWARE";
    auto answer = detail::fetch_list(fd(), AMDX_QUERY_FIRMWARE, sizeof(amdx_query_firmware));
    if (!answer)
        return detail::forward(answer, kCall, id_);
    const auto header = detail::list_header<amdx_query_firmware>(*answer);
    FirmwareInfo out;
    out.driver_version = c_string(header.driver_version);
    out.provider = c_string(header.provider);
    out.provider_version = c_string(header.provider_version);
    auto ok = detail::for_each_entry<amdx_query_firmware, amdx_firmware_info>(
        *answer, header.num_firmware, header.entry_size, AMDX_FIRMWARE_INFO_SIZE_VER0,
        [&out](const amdx_firmware_info& raw) {
            out.firmware.push_back(Firmware{.id = static_cast<FirmwareId>(raw.id),
                                            .instance = raw.instance,
                                            .version = raw.version,
                                            .feature = raw.feature});
        });
    if (!ok)
        return detail::forward(ok, kCall, id_);
    return out;
}

} // namespace amdx
