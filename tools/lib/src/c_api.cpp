// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The C ABI (<amdx/amdx.h>) over the C++ library: the handles wrap Control,
// Device and EventStream; list calls reuse the query layer's size protocol
// and copy the kernel's entries into the caller's buffer by entry_size.
// Every structure a caller exchanges is size-versioned (amdx.h): check_size()
// bounds the caller's size, get() reads an input as copy_struct_from_user()
// does, put() writes an output truncated to it.
#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <amdx/amdx.h>
#include <amdx/device.hpp>
#include <amdx/version.hpp>

#include "error.hpp"
#include "query.hpp"
#include "sys.hpp"

struct amdx_ctl {
    amdx::Control control;
};
struct amdx_dev {
    amdx::Device device;
};
struct amdx_events {
    amdx::EventStream stream;
};

namespace {

thread_local std::string g_last_error; // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

int fail(const amdx::ErrorContext& ctx) {
    g_last_error = ctx.message();
    const int e = ctx.code.value();
    return e > 0 ? -e : -EIO;
}

int fail(int err, std::string_view call, std::uint32_t device = amdx::kNoDevice) {
    return fail(amdx::errno_error(err, call, device).context());
}

int fail(int err, std::string_view call, std::uint32_t device, std::string detail) {
    auto ctx = amdx::errno_error(err, call, device).context();
    ctx.detail = std::move(detail);
    return fail(ctx);
}

/// What the C ABI knows of a uapi structure a caller exchanges with it:
/// its name and first-version size (the uapi's AMDX_*_SIZE_VER0).
struct Layout {
    std::string_view name;
    std::size_t ver0 = 0;
};

template <class T>
constexpr Layout kLayout{};
// One line a structure, named by its own type.
#define AMDX_C_LAYOUT(type, ver0)                                                                  \
    template <>                                                                                    \
    constexpr Layout kLayout<type> {                                                               \
        "struct " #type, (ver0)                                                                    \
    }
AMDX_C_LAYOUT(amdx_query_caps, AMDX_QUERY_CAPS_SIZE_VER0);
AMDX_C_LAYOUT(amdx_device_entry, AMDX_DEVICE_ENTRY_SIZE_VER0);
AMDX_C_LAYOUT(amdx_device_info, AMDX_DEVICE_INFO_SIZE_VER0);
AMDX_C_LAYOUT(amdx_device_stats, AMDX_DEVICE_STATS_SIZE_VER0);
AMDX_C_LAYOUT(amdx_partition_info, AMDX_PARTITION_INFO_SIZE_VER0);
AMDX_C_LAYOUT(amdx_partition_config, AMDX_PARTITION_CONFIG_SIZE_VER0);
AMDX_C_LAYOUT(amdx_vf_info, AMDX_VF_INFO_SIZE_VER0);
AMDX_C_LAYOUT(amdx_vf_config, AMDX_VF_CONFIG_SIZE_VER0);
AMDX_C_LAYOUT(amdx_vf_reset, AMDX_VF_RESET_SIZE_VER0);
AMDX_C_LAYOUT(amdx_ras_counters, AMDX_RAS_COUNTERS_SIZE_VER0);
AMDX_C_LAYOUT(amdx_ras_inject, AMDX_RAS_INJECT_SIZE_VER0);
// The bad-page record has no _SIZE_VER0: it is versioned with the table
// (AMDX_BADPAGE_VERSION 1 records are 24 bytes).
AMDX_C_LAYOUT(amdx_badpage_record, 24);
AMDX_C_LAYOUT(amdx_event, AMDX_EVENT_SIZE_VER0);
AMDX_C_LAYOUT(amdx_recovery, AMDX_RECOVERY_SIZE_VER0);
AMDX_C_LAYOUT(amdx_link_info, AMDX_LINK_INFO_SIZE_VER0);
AMDX_C_LAYOUT(amdx_firmware_info, AMDX_FIRMWARE_INFO_SIZE_VER0);
#undef AMDX_C_LAYOUT

/// 0 if the caller's T of @size bytes can be exchanged: at least T's first
/// version (else -EINVAL) and at most AMDX_C_STRUCT_SIZE_MAX (else -E2BIG).
template <class T>
int check_size(std::size_t size, std::string_view call, std::uint32_t device) {
    static_assert(kLayout<T>.ver0 != 0 && kLayout<T>.ver0 <= sizeof(T));
    if (size < kLayout<T>.ver0)
        return fail(EINVAL, call, device,
                    std::string(kLayout<T>.name) + " of " + std::to_string(size) +
                        " bytes: below its first version (" + std::to_string(kLayout<T>.ver0) +
                        " bytes)");
    if (size > AMDX_C_STRUCT_SIZE_MAX)
        return fail(E2BIG, call, device,
                    std::string(kLayout<T>.name) + " of " + std::to_string(size) +
                        " bytes: above AMDX_C_STRUCT_SIZE_MAX (" +
                        std::to_string(AMDX_C_STRUCT_SIZE_MAX) + ")");
    return 0;
}

/// Writes @src to the caller's T of @size bytes at @dst (size checked):
/// truncated to @size, the caller's bytes past sizeof(T) zeroed.
template <class T>
void put(void* dst, std::size_t size, const T& src) {
    std::memcpy(dst, &src, std::min(size, sizeof(T)));
    if (size > sizeof(T))
        std::memset(static_cast<unsigned char*>(dst) + sizeof(T), 0, size - sizeof(T));
}

/// Reads the caller's T of @size bytes at @src into @dst as the kernel's
/// copy_struct_from_user(): checks the size, zero-extends a shorter one,
/// and refuses (-E2BIG) a longer one with non-zero bytes past sizeof(T).
template <class T>
int get(T& dst, const void* src, std::size_t size, std::string_view call, std::uint32_t device) {
    if (const int ret = check_size<T>(size, call, device); ret < 0)
        return ret;
    const auto* bytes = static_cast<const unsigned char*>(src);
    for (std::size_t i = sizeof(T); i < size; ++i)
        if (bytes[i] != 0)
            return fail(E2BIG, call, device,
                        std::string(kLayout<T>.name) + ": byte " + std::to_string(i) +
                            " is not zero, and this libamdx knows only " +
                            std::to_string(sizeof(T)) + " bytes");
    dst = T{};
    std::memcpy(&dst, src, std::min(size, sizeof(T)));
    return 0;
}

/// get() with a null check: -EINVAL for a null @src.
template <class T>
int get_arg(T& dst, const void* src, std::size_t size, std::string_view call,
            std::uint32_t device) {
    if (src == nullptr)
        return fail(EINVAL, call, device, std::string(kLayout<T>.name) + " is NULL");
    return get(dst, src, size, call, device);
}

/// 0 if the caller's @out of @size bytes can receive a T (NULL: -EINVAL).
template <class T>
int check_out(const T* out, std::size_t size, std::string_view call, std::uint32_t device) {
    if (out == nullptr)
        return fail(EINVAL, call, device, std::string(kLayout<T>.name) + " is NULL");
    return check_size<T>(size, call, device);
}

/// Copies a list answer's entries into @buf (at most @cap entries of
/// @entry_size bytes, each a zeroed Entry read by the kernel's
/// entry_size and written as put() does); -ENOSPC when @cap is too small.
template <class Header, class Entry>
int copy_list(const amdx::detail::ListAnswer& answer, std::uint32_t num, std::uint32_t kernel_size,
              std::uint32_t min_size, Entry* buf, std::size_t entry_size, size_t cap, size_t* count,
              std::string_view call, std::uint32_t device) {
    if (cap > 0 && buf == nullptr)
        return fail(EINVAL, call, device, "a capacity without a buffer");
    if (cap > 0)
        if (const int ret = check_size<Entry>(entry_size, call, device); ret < 0)
            return ret;
    auto* out = reinterpret_cast<unsigned char*>(buf);
    std::size_t i = 0;
    auto ok = amdx::detail::for_each_entry<Header, Entry>(
        answer, num, kernel_size, min_size, [&](const Entry& raw) {
            if (i < cap)
                put(out + i * entry_size, entry_size, raw);
            ++i;
        });
    if (!ok)
        return fail(amdx::detail::forward(ok, call, device).context());
    if (count != nullptr)
        *count = num;
    if (num > cap)
        return fail(ENOSPC, call, device);
    return 0;
}

/// An ioctl with an in/out argument, the caller's T of @size bytes at
/// @arg: read as get() does, passed to the kernel as this library's T, and
/// written back as put() does in every case (the kernel copies its outputs
/// back even when it refuses; a refusal's reason goes into the error).
template <class T>
int inout_ioctl(const amdx_dev* dev, T* arg, size_t size, unsigned long request,
                std::string_view call) {
    if (dev == nullptr)
        return fail(EINVAL, call);
    const auto id = dev->device.id();
    T raw{};
    if (const int ret = get_arg(raw, arg, size, call, id); ret < 0)
        return ret;
    const int ret = amdx::detail::ioctl_retry(dev->device.fd().get(), request, &raw);
    put(arg, size, raw);
    if (ret < 0) {
        std::uint32_t reason = 0;
        if constexpr (requires { raw.reason; })
            reason = raw.reason;
        return fail(amdx::errno_error(-ret, call, id, reason).context());
    }
    return 0;
}

} // namespace

extern "C" {

const char* amdx_version(void) {
    return AMDX_LIB_VERSION_STRING;
}

size_t amdx_last_error(char* buf, size_t len) {
    if (buf != nullptr && len > 0) {
        const size_t n = std::min(len - 1, g_last_error.size());
        std::memcpy(buf, g_last_error.data(), n);
        buf[n] = '\0';
    }
    return g_last_error.size();
}

int amdx_ctl_open(const char* path, amdx_ctl** out) {
    if (out == nullptr)
        return fail(EINVAL, "amdx_ctl_open");
    *out = nullptr;
    auto control = amdx::Control::open(path != nullptr ? path : amdx::kControlPath);
    if (!control)
        return fail(control.context());
    *out = new (std::nothrow) amdx_ctl{std::move(*control)};
    return *out == nullptr ? fail(ENOMEM, "amdx_ctl_open") : 0;
}

void amdx_ctl_close(amdx_ctl* ctl) {
    delete ctl;
}

int amdx_ctl_caps(const amdx_ctl* ctl, struct amdx_query_caps* out, size_t size) {
    constexpr std::string_view kCall = "AMDX_QUERY_CAPS";
    if (ctl == nullptr)
        return fail(EINVAL, kCall);
    if (const int ret = check_out(out, size, kCall, amdx::kNoDevice); ret < 0)
        return ret;
    amdx_query_caps caps{};
    const int ret = amdx::detail::query_struct(ctl->control.fd(), AMDX_QUERY_CAPS, 0, caps,
                                               AMDX_QUERY_CAPS_SIZE_VER0);
    if (ret < 0)
        return fail(-ret, kCall);
    put(out, size, caps);
    return 0;
}

int amdx_ctl_devices(const amdx_ctl* ctl, struct amdx_device_entry* buf, size_t entry_size,
                     size_t cap, size_t* count) {
    constexpr std::string_view kCall = "AMDX_QUERY_DEVICES";
    if (ctl == nullptr)
        return fail(EINVAL, kCall);
    auto answer =
        amdx::detail::fetch_list(ctl->control.fd(), AMDX_QUERY_DEVICES, sizeof(amdx_query_devices));
    if (!answer)
        return fail(amdx::detail::forward(answer, kCall).context());
    const auto h = amdx::detail::list_header<amdx_query_devices>(*answer);
    return copy_list<amdx_query_devices>(*answer, h.num_devices, h.entry_size,
                                         AMDX_DEVICE_ENTRY_SIZE_VER0, buf, entry_size, cap, count,
                                         kCall, amdx::kNoDevice);
}

int amdx_ctl_device_info(const amdx_ctl* ctl, uint32_t id, struct amdx_device_info* out,
                         size_t size) {
    constexpr std::string_view kCall = "AMDX_QUERY_DEVICE_INFO";
    if (ctl == nullptr)
        return fail(EINVAL, kCall, id);
    if (const int ret = check_out(out, size, kCall, id); ret < 0)
        return ret;
    amdx_device_info info{};
    const int ret = amdx::detail::query_struct(ctl->control.fd(), AMDX_QUERY_DEVICE_INFO, id, info,
                                               AMDX_DEVICE_INFO_SIZE_VER0);
    if (ret < 0)
        return fail(-ret, kCall, id);
    put(out, size, info);
    return 0;
}

int amdx_dev_open(const amdx_ctl* ctl, uint32_t id, amdx_dev** out) {
    if (ctl == nullptr || out == nullptr)
        return fail(EINVAL, "AMDX_IOC_DEVICE_OPEN", id);
    *out = nullptr;
    auto device = amdx::Device::open(ctl->control, id);
    if (!device)
        return fail(device.context());
    *out = new (std::nothrow) amdx_dev{std::move(*device)};
    return *out == nullptr ? fail(ENOMEM, "AMDX_IOC_DEVICE_OPEN", id) : 0;
}

void amdx_dev_close(amdx_dev* dev) {
    delete dev;
}

uint32_t amdx_dev_id(const amdx_dev* dev) {
    return dev == nullptr ? amdx::kNoDevice : dev->device.id();
}

int amdx_dev_stats(const amdx_dev* dev, struct amdx_device_stats* out, size_t size) {
    constexpr std::string_view kCall = "AMDX_QUERY_STATS";
    if (dev == nullptr)
        return fail(EINVAL, kCall);
    const auto id = dev->device.id();
    if (const int ret = check_out(out, size, kCall, id); ret < 0)
        return ret;
    amdx_device_stats stats{};
    const int ret = amdx::detail::query_struct(dev->device.fd(), AMDX_QUERY_STATS, 0, stats,
                                               AMDX_DEVICE_STATS_SIZE_VER0);
    if (ret < 0)
        return fail(-ret, kCall, id);
    put(out, size, stats);
    return 0;
}

int amdx_dev_partitions(const amdx_dev* dev, struct amdx_query_partitions* hdr,
                        struct amdx_partition_info* buf, size_t entry_size, size_t cap,
                        size_t* count) {
    constexpr std::string_view kCall = "AMDX_QUERY_PARTITIONS";
    if (dev == nullptr)
        return fail(EINVAL, kCall);
    const auto id = dev->device.id();
    auto answer = amdx::detail::fetch_list(dev->device.fd(), AMDX_QUERY_PARTITIONS,
                                           sizeof(amdx_query_partitions));
    if (!answer)
        return fail(amdx::detail::forward(answer, kCall, id).context());
    const auto h = amdx::detail::list_header<amdx_query_partitions>(*answer);
    if (hdr != nullptr)
        *hdr = h;
    return copy_list<amdx_query_partitions>(*answer, h.num_partitions, h.entry_size,
                                            AMDX_PARTITION_INFO_SIZE_VER0, buf, entry_size, cap,
                                            count, kCall, id);
}

int amdx_dev_partition_plan(const amdx_dev* dev, struct amdx_partition_config* cfg, size_t size) {
    return inout_ioctl(dev, cfg, size, AMDX_IOC_PARTITION_PLAN, "AMDX_IOC_PARTITION_PLAN");
}

int amdx_dev_partition_commit(const amdx_dev* dev, struct amdx_partition_config* cfg, size_t size) {
    return inout_ioctl(dev, cfg, size, AMDX_IOC_PARTITION_COMMIT, "AMDX_IOC_PARTITION_COMMIT");
}

int amdx_dev_recovery_plan(const amdx_dev* dev, struct amdx_recovery* r, size_t size) {
    return inout_ioctl(dev, r, size, AMDX_IOC_RECOVERY_PLAN, "AMDX_IOC_RECOVERY_PLAN");
}

int amdx_dev_recovery_run(const amdx_dev* dev, struct amdx_recovery* r, size_t size) {
    return inout_ioctl(dev, r, size, AMDX_IOC_RECOVERY_RUN, "AMDX_IOC_RECOVERY_RUN");
}

int amdx_dev_vfs(const amdx_dev* dev, struct amdx_vf_info* buf, size_t entry_size, size_t cap,
                 size_t* count) {
    constexpr std::string_view kCall = "AMDX_QUERY_VFS";
    if (dev == nullptr)
        return fail(EINVAL, kCall);
    const auto id = dev->device.id();
    auto answer =
        amdx::detail::fetch_list(dev->device.fd(), AMDX_QUERY_VFS, sizeof(amdx_query_vfs));
    if (!answer)
        return fail(amdx::detail::forward(answer, kCall, id).context());
    const auto h = amdx::detail::list_header<amdx_query_vfs>(*answer);
    return copy_list<amdx_query_vfs>(*answer, h.num_vfs, h.entry_size, AMDX_VF_INFO_SIZE_VER0, buf,
                                     entry_size, cap, count, kCall, id);
}

int amdx_dev_vf_enable(const amdx_dev* dev, uint32_t num_vfs, const struct amdx_vf_config* configs,
                       size_t config_size) {
    constexpr std::string_view kCall = "AMDX_IOC_VF_ENABLE";
    if (dev == nullptr)
        return fail(EINVAL, kCall);
    if (configs != nullptr && num_vfs > AMDX_MAX_VFS)
        return fail(EINVAL, kCall, dev->device.id(),
                    std::to_string(num_vfs) + " VF configurations: above AMDX_MAX_VFS");
    std::vector<amdx::VfConfig> typed;
    const auto* bytes = reinterpret_cast<const unsigned char*>(configs);
    for (uint32_t i = 0; configs != nullptr && i < num_vfs; ++i) {
        amdx_vf_config raw{};
        if (const int ret = get(raw, bytes + i * config_size, config_size, kCall, dev->device.id());
            ret < 0)
            return ret;
        typed.push_back(amdx::VfConfig::from_uapi(raw));
    }
    const auto r = dev->device.vf_enable(num_vfs, typed);
    return r ? 0 : fail(r.context());
}

int amdx_dev_vf_disable(const amdx_dev* dev) {
    if (dev == nullptr)
        return fail(EINVAL, "AMDX_IOC_VF_DISABLE");
    const auto r = dev->device.vf_disable();
    return r ? 0 : fail(r.context());
}

int amdx_dev_vf_reset(const amdx_dev* dev, uint32_t vf, struct amdx_vf_reset* out, size_t size) {
    constexpr std::string_view kCall = "AMDX_IOC_VF_RESET";
    if (dev == nullptr)
        return fail(EINVAL, kCall);
    if (out != nullptr)
        if (const int ret = check_out(out, size, kCall, dev->device.id()); ret < 0)
            return ret;
    const auto r = dev->device.vf_reset(vf);
    if (!r) {
        if (out != nullptr) { // the refusal's reason (uapi minor 8), as the kernel copies it back
            amdx_vf_reset raw{};
            raw.vf = vf;
            raw.reason = r.context().reason;
            put(out, size, raw);
        }
        return fail(r.context());
    }
    if (out != nullptr) {
        amdx_vf_reset raw{};
        raw.vf = vf;
        raw.result = static_cast<uint32_t>(r->result);
        raw.state = static_cast<uint32_t>(r->state);
        raw.duration_ns = r->duration_ns;
        raw.resets_in_window = r->resets_in_window;
        raw.vram_cleared = r->vram_cleared;
        put(out, size, raw);
    }
    return 0;
}

int amdx_dev_ras_counters(const amdx_dev* dev, struct amdx_query_ras* hdr,
                          struct amdx_ras_counters* buf, size_t entry_size, size_t cap,
                          size_t* count) {
    constexpr std::string_view kCall = "AMDX_QUERY_RAS_COUNTERS";
    if (dev == nullptr)
        return fail(EINVAL, kCall);
    const auto id = dev->device.id();
    auto answer =
        amdx::detail::fetch_list(dev->device.fd(), AMDX_QUERY_RAS_COUNTERS, sizeof(amdx_query_ras));
    if (!answer)
        return fail(amdx::detail::forward(answer, kCall, id).context());
    const auto h = amdx::detail::list_header<amdx_query_ras>(*answer);
    if (hdr != nullptr)
        *hdr = h;
    return copy_list<amdx_query_ras>(*answer, h.num_entries, h.entry_size,
                                     AMDX_RAS_COUNTERS_SIZE_VER0, buf, entry_size, cap, count,
                                     kCall, id);
}

int amdx_dev_links(const amdx_dev* dev, struct amdx_query_links* hdr, struct amdx_link_info* buf,
                   size_t entry_size, size_t cap, size_t* count) {
    constexpr std::string_view kCall = "AMDX_QUERY_LINKS";
    if (dev == nullptr)
        return fail(EINVAL, kCall);
    const auto id = dev->device.id();
    auto answer =
        amdx::detail::fetch_list(dev->device.fd(), AMDX_QUERY_LINKS, sizeof(amdx_query_links));
    if (!answer)
        return fail(amdx::detail::forward(answer, kCall, id).context());
    const auto h = amdx::detail::list_header<amdx_query_links>(*answer);
    if (hdr != nullptr)
        *hdr = h;
    return copy_list<amdx_query_links>(*answer, h.num_links, h.entry_size, AMDX_LINK_INFO_SIZE_VER0,
                                       buf, entry_size, cap, count, kCall, id);
}

int amdx_dev_firmware(const amdx_dev* dev, struct amdx_query_firmware* hdr,
                      struct amdx_firmware_info* buf, size_t entry_size, size_t cap,
                      size_t* count) {
    constexpr std::string_view kCall = "AMDX_QUERY_FIRMWARE";
    if (dev == nullptr)
        return fail(EINVAL, kCall);
    const auto id = dev->device.id();
    auto answer = amdx::detail::fetch_list(dev->device.fd(), AMDX_QUERY_FIRMWARE,
                                           sizeof(amdx_query_firmware));
    if (!answer)
        return fail(amdx::detail::forward(answer, kCall, id).context());
    const auto h = amdx::detail::list_header<amdx_query_firmware>(*answer);
    if (hdr != nullptr)
        *hdr = h;
    return copy_list<amdx_query_firmware>(*answer, h.num_firmware, h.entry_size,
                                          AMDX_FIRMWARE_INFO_SIZE_VER0, buf, entry_size, cap, count,
                                          kCall, id);
}

int amdx_dev_ras_inject(const amdx_dev* dev, struct amdx_ras_inject* inj, size_t size) {
    return inout_ioctl(dev, inj, size, AMDX_IOC_RAS_INJECT, "AMDX_IOC_RAS_INJECT");
}

int amdx_dev_badpages(const amdx_dev* dev, struct amdx_badpage_record* buf, size_t entry_size,
                      size_t cap, size_t* count) {
    constexpr std::string_view kCall = "AMDX_QUERY_BADPAGES";
    if (dev == nullptr)
        return fail(EINVAL, kCall);
    const auto id = dev->device.id();
    if (cap > 0 && buf == nullptr)
        return fail(EINVAL, kCall, id, "a capacity without a buffer");
    if (cap > 0)
        if (const int ret = check_size<amdx_badpage_record>(entry_size, kCall, id); ret < 0)
            return ret;
    const auto pages = dev->device.badpages();
    if (!pages)
        return fail(pages.context());
    auto* out = reinterpret_cast<unsigned char*>(buf);
    for (size_t i = 0; i < pages->size() && i < cap; ++i) {
        const auto& p = (*pages)[i];
        put(out + i * entry_size, entry_size,
            amdx_badpage_record{.address = p.address,
                                .time = p.time,
                                .partition = p.partition,
                                .cause = static_cast<__u16>(p.cause),
                                .flags = p.flags});
    }
    if (count != nullptr)
        *count = pages->size();
    return pages->size() > cap ? fail(ENOSPC, kCall, id) : 0;
}

int amdx_dev_subscribe(const amdx_dev* dev, uint64_t mask, uint32_t ring_size, amdx_events** out) {
    if (dev == nullptr || out == nullptr)
        return fail(EINVAL, "AMDX_IOC_EVENT_SUBSCRIBE");
    *out = nullptr;
    auto stream = dev->device.subscribe(mask, ring_size);
    if (!stream)
        return fail(stream.context());
    *out = new (std::nothrow) amdx_events{std::move(*stream)};
    return *out == nullptr ? fail(ENOMEM, "AMDX_IOC_EVENT_SUBSCRIBE") : 0;
}

void amdx_events_close(amdx_events* events) {
    delete events;
}

int amdx_events_fd(const amdx_events* events) {
    return events == nullptr ? -EBADF : events->stream.fd().get();
}

int amdx_events_read(const amdx_events* events, struct amdx_event* buf, size_t entry_size,
                     size_t cap, int timeout_ms) {
    if (events == nullptr || (buf == nullptr && cap != 0))
        return fail(EINVAL, "read");
    if (cap == 0)
        return 0;
    if (const int ret = check_size<amdx_event>(entry_size, "read", amdx::kNoDevice); ret < 0)
        return ret;
    auto* out = reinterpret_cast<unsigned char*>(buf);
    const auto got = events->stream.next(timeout_ms, std::min<size_t>(cap, 4096));
    if (!got)
        return fail(got.context());
    // Each record as struct amdx_event_v3 cut to the caller's entry_size:
    // an old caller's 64 bytes end before pid and pasid, 72 before the
    // driver's event id, 80 before its type.
    const auto written = static_cast<__u16>(std::min(entry_size, sizeof(amdx_event_v3)));
    for (size_t i = 0; i < got->size(); ++i) {
        const auto& e = (*got)[i];
        put(out + i * entry_size, entry_size,
            amdx_event_v3{.v2 = {.v1 = {.ev = {.seq = e.seq,
                                               .timestamp_ns = e.timestamp_ns,
                                               .kind = static_cast<__u16>(e.kind),
                                               .size = written,
                                               .device = e.device,
                                               .block = e.block,
                                               .type = e.type,
                                               .instance = e.instance,
                                               .partition = e.partition,
                                               .address = e.address,
                                               .data = {e.data[0], e.data[1]}},
                                        .pid = e.pid,
                                        .pasid = e.pasid},
                                 .driver_event = e.driver_event},
                          .driver_event_type = e.driver_event_type,
                          .reserved = 0});
    }
    return static_cast<int>(got->size());
}

} // extern "C"
