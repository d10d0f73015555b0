// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fcntl.h>

#include <amdx/device.hpp>

#include "sys.hpp"

namespace amdx {

namespace {

/// Upper bound on a device list answer; anything larger is malformed.
constexpr std::uint32_t kMaxListBytes = 16U << 20;

template <std::size_t N>
std::string c_string(const __u8 (&field)[N]) {
    const auto* end = std::find(std::begin(field), std::end(field), 0);
    return {std::begin(field), end};
}

template <class Enum>
std::vector<Enum> modes_from_mask(std::uint32_t mask) {
    std::vector<Enum> modes;
    for (std::uint32_t bit = 1; bit < 32; ++bit) // bit 0 is the "unknown" mode
        if ((mask & (1U << bit)) != 0)
            modes.push_back(static_cast<Enum>(bit));
    return modes;
}

/// One %AMDX_IOC_QUERY; @size is the buffer size in, the kernel's size out.
int query(BorrowedFd fd, std::uint32_t what, std::uint32_t id, void* buf,
          std::uint32_t& size) noexcept {
    amdx_query q{};
    q.query = what;
    q.size = size;
    q.data = reinterpret_cast<std::uintptr_t>(buf);
    q.id = id;
    const int ret = detail::ioctl_retry(fd.get(), AMDX_IOC_QUERY, &q);
    size = q.size;
    return std::min(ret, 0);
}

template <class Raw>
int query_struct(BorrowedFd fd, std::uint32_t what, std::uint32_t id, Raw& out) noexcept {
    out = Raw{};
    std::uint32_t size = sizeof(Raw);
    return query(fd, what, id, &out, size);
}

Result<std::vector<DeviceEntry>> decode_devices(const std::vector<std::uint64_t>& buf,
                                                std::size_t valid) {
    amdx_query_devices header{};
    if (valid < sizeof(header))
        return Unexpected(std::errc::protocol_error);
    std::memcpy(&header, buf.data(), sizeof(header));
    if (header.num_devices > (valid - sizeof(header)) / sizeof(amdx_device_entry))
        return Unexpected(std::errc::protocol_error);

    std::vector<DeviceEntry> entries;
    entries.reserve(header.num_devices);
    const auto* bytes = reinterpret_cast<const unsigned char*>(buf.data()) + sizeof(header);
    for (std::uint32_t i = 0; i < header.num_devices; ++i) {
        amdx_device_entry raw{};
        std::memcpy(&raw, bytes + (i * sizeof(raw)), sizeof(raw));
        entries.push_back(DeviceEntry::from_uapi(raw));
    }
    return entries;
}

Result<DeviceInfo> info_query(BorrowedFd fd, std::uint32_t query_id, std::uint32_t expect_id) {
    amdx_device_info raw{};
    if (const int ret = query_struct(fd, AMDX_QUERY_DEVICE_INFO, query_id, raw); ret < 0)
        return errno_error(-ret);
    if (raw.id != expect_id)
        return Unexpected(std::errc::protocol_error);
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

Result<Control> Control::open(std::string_view path) noexcept {
    const std::string p(path);
    int fd = ::open(p.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0 && (errno == EACCES || errno == EPERM))
        fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno_error(errno);
    return Control(UniqueFd(fd));
}

Control Control::adopt(UniqueFd fd) noexcept {
    return Control(std::move(fd));
}

Result<Caps> Control::caps() const noexcept {
    amdx_query_caps raw{};
    if (const int ret = query_struct(fd(), AMDX_QUERY_CAPS, 0, raw); ret < 0)
        return errno_error(-ret);
    return Caps::from_uapi(raw);
}

Result<std::vector<DeviceEntry>> Control::devices() const noexcept {
    std::uint32_t size = 0; // first call: ask for the size
    int ret = query(fd(), AMDX_QUERY_DEVICES, 0, nullptr, size);
    if (ret < 0 && ret != -ENOSPC)
        return errno_error(-ret);

    std::vector<std::uint64_t> buf; // 8-byte aligned, like the uapi structs
    for (unsigned attempt = 0; attempt < kMaxListAttempts; ++attempt) {
        if (size < sizeof(amdx_query_devices) || size > kMaxListBytes)
            return Unexpected(std::errc::protocol_error);
        buf.assign((size + sizeof(std::uint64_t) - 1) / sizeof(std::uint64_t), 0);
        std::uint32_t answer = size;
        ret = query(fd(), AMDX_QUERY_DEVICES, 0, buf.data(), answer);
        if (ret == -ENOSPC) { // the list grew between the calls
            if (answer <= size)
                return Unexpected(std::errc::protocol_error);
            size = answer;
            continue;
        }
        if (ret < 0)
            return errno_error(-ret);
        return decode_devices(buf, std::min(answer, size));
    }
    return Unexpected(std::errc::resource_unavailable_try_again);
}

Result<DeviceInfo> Control::device_info(std::uint32_t id) const noexcept {
    return info_query(fd(), id, id);
}

Result<Device> Device::open(const Control& control, std::uint32_t id) noexcept {
    amdx_device_open arg{};
    arg.id = id;
    if (const int ret = detail::ioctl_retry(control.fd().get(), AMDX_IOC_DEVICE_OPEN, &arg);
        ret < 0)
        return errno_error(-ret);
    if (arg.fd < 0)
        return Unexpected(std::errc::protocol_error);
    return Device(UniqueFd(arg.fd), id);
}

Result<DeviceInfo> Device::info() const noexcept {
    return info_query(fd(), 0, id_);
}

} // namespace amdx
