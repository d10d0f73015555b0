// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The C ABI (<amdx/amdx.h>) over the C++ library: the handles wrap Control,
// Device and EventStream; list calls reuse the query layer's size protocol
// and copy the kernel's entries into the caller's buffer by entry_size.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <string>

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

/// Copies a list answer's entries into @buf (at most @cap, each
/// min(entry_size, sizeof(Entry)) bytes of a zeroed Entry); -ENOSPC when
/// @cap is too small.
template <class Header, class Entry>
int copy_list(const amdx::detail::ListAnswer& answer, std::uint32_t num, std::uint32_t entry_size,
              std::uint32_t min_size, Entry* buf, size_t cap, size_t* count, std::string_view call,
              std::uint32_t device) {
    std::size_t i = 0;
    auto ok = amdx::detail::for_each_entry<Header, Entry>(answer, num, entry_size, min_size,
                                                          [&](const Entry& raw) {
                                                              if (i < cap && buf != nullptr)
                                                                  buf[i] = raw;
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

int amdx_ctl_caps(const amdx_ctl* ctl, struct amdx_query_caps* out) {
    if (ctl == nullptr || out == nullptr)
        return fail(EINVAL, "AMDX_QUERY_CAPS");
    const int ret = amdx::detail::query_struct(ctl->control.fd(), AMDX_QUERY_CAPS, 0, *out,
                                               AMDX_QUERY_CAPS_SIZE_VER0);
    return ret < 0 ? fail(-ret, "AMDX_QUERY_CAPS") : 0;
}

int amdx_ctl_devices(const amdx_ctl* ctl, struct amdx_device_entry* buf, size_t cap,
                     size_t* count) {
    constexpr std::string_view kCall = "AMDX_QUERY_DEVICES";
    if (ctl == nullptr)
        return fail(EINVAL, kCall);
    auto answer =
        amdx::detail::fetch_list(ctl->control.fd(), AMDX_QUERY_DEVICES, sizeof(amdx_query_devices));
    if (!answer)
        return fail(amdx::detail::forward(answer, kCall).context());
    const auto h = amdx::detail::list_header<amdx_query_devices>(*answer);
    return copy_list<amdx_query_devices>(*answer, h.num_devices, h.entry_size,
                                         AMDX_DEVICE_ENTRY_SIZE_VER0, buf, cap, count, kCall,
                                         amdx::kNoDevice);
}

int amdx_ctl_device_info(const amdx_ctl* ctl, uint32_t id, struct amdx_device_info* out) {
    if (ctl == nullptr || out == nullptr)
        return fail(EINVAL, "AMDX_QUERY_DEVICE_INFO", id);
    const int ret = amdx::detail::query_struct(ctl->control.fd(), AMDX_QUERY_DEVICE_INFO, id, *out,
                                               AMDX_DEVICE_INFO_SIZE_VER0);
    return ret < 0 ? fail(-ret, "AMDX_QUERY_DEVICE_INFO", id) : 0;
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

int amdx_dev_stats(const amdx_dev* dev, struct amdx_device_stats* out) {
    if (dev == nullptr || out == nullptr)
        return fail(EINVAL, "AMDX_QUERY_STATS");
    const int ret = amdx::detail::query_struct(dev->device.fd(), AMDX_QUERY_STATS, 0, *out,
                                               AMDX_DEVICE_STATS_SIZE_VER0);
    return ret < 0 ? fail(-ret, "AMDX_QUERY_STATS", dev->device.id()) : 0;
}

int amdx_dev_partitions(const amdx_dev* dev, struct amdx_query_partitions* hdr,
                        struct amdx_partition_info* buf, size_t cap, size_t* count) {
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
                                            AMDX_PARTITION_INFO_SIZE_VER0, buf, cap, count, kCall,
                                            id);
}

static int partition_call(const amdx_dev* dev, struct amdx_partition_config* cfg,
                          unsigned long request, std::string_view call) {
    if (dev == nullptr || cfg == nullptr)
        return fail(EINVAL, call);
    const int ret = amdx::detail::ioctl_retry(dev->device.fd().get(), request, cfg);
    if (ret < 0)
        return fail(amdx::errno_error(-ret, call, dev->device.id(), cfg->reason).context());
    return 0;
}

int amdx_dev_partition_plan(const amdx_dev* dev, struct amdx_partition_config* cfg) {
    return partition_call(dev, cfg, AMDX_IOC_PARTITION_PLAN, "AMDX_IOC_PARTITION_PLAN");
}

int amdx_dev_partition_commit(const amdx_dev* dev, struct amdx_partition_config* cfg) {
    return partition_call(dev, cfg, AMDX_IOC_PARTITION_COMMIT, "AMDX_IOC_PARTITION_COMMIT");
}

int amdx_dev_vfs(const amdx_dev* dev, struct amdx_vf_info* buf, size_t cap, size_t* count) {
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
                                     cap, count, kCall, id);
}

int amdx_dev_vf_enable(const amdx_dev* dev, uint32_t num_vfs,
                       const struct amdx_vf_config* configs) {
    if (dev == nullptr)
        return fail(EINVAL, "AMDX_IOC_VF_ENABLE");
    std::vector<amdx::VfConfig> typed;
    if (configs != nullptr)
        for (uint32_t i = 0; i < num_vfs; ++i)
            typed.push_back(amdx::VfConfig::from_uapi(configs[i]));
    const auto r = dev->device.vf_enable(num_vfs, typed);
    return r ? 0 : fail(r.context());
}

int amdx_dev_vf_disable(const amdx_dev* dev) {
    if (dev == nullptr)
        return fail(EINVAL, "AMDX_IOC_VF_DISABLE");
    const auto r = dev->device.vf_disable();
    return r ? 0 : fail(r.context());
}

int amdx_dev_vf_reset(const amdx_dev* dev, uint32_t vf, struct amdx_vf_reset* out) {
    if (dev == nullptr)
        return fail(EINVAL, "AMDX_IOC_VF_RESET");
    const auto r = dev->device.vf_reset(vf);
    if (!r)
        return fail(r.context());
    if (out != nullptr) {
        *out = amdx_vf_reset{};
        out->vf = vf;
        out->result = static_cast<uint32_t>(r->result);
        out->state = static_cast<uint32_t>(r->state);
        out->duration_ns = r->duration_ns;
        out->resets_in_window = r->resets_in_window;
        out->vram_cleared = r->vram_cleared;
    }
    return 0;
}

int amdx_dev_ras_counters(const amdx_dev* dev, struct amdx_query_ras* hdr,
                          struct amdx_ras_counters* buf, size_t cap, size_t* count) {
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
                                     AMDX_RAS_COUNTERS_SIZE_VER0, buf, cap, count, kCall, id);
}

int amdx_dev_ras_inject(const amdx_dev* dev, struct amdx_ras_inject* inj) {
    if (dev == nullptr || inj == nullptr)
        return fail(EINVAL, "AMDX_IOC_RAS_INJECT");
    const int ret = amdx::detail::ioctl_retry(dev->device.fd().get(), AMDX_IOC_RAS_INJECT, inj);
    return ret < 0 ? fail(-ret, "AMDX_IOC_RAS_INJECT", dev->device.id()) : 0;
}

int amdx_dev_badpages(const amdx_dev* dev, struct amdx_badpage_record* buf, size_t cap,
                      size_t* count) {
    if (dev == nullptr)
        return fail(EINVAL, "AMDX_QUERY_BADPAGES");
    const auto pages = dev->device.badpages();
    if (!pages)
        return fail(pages.context());
    for (size_t i = 0; i < pages->size() && i < cap && buf != nullptr; ++i) {
        const auto& p = (*pages)[i];
        buf[i] = amdx_badpage_record{.address = p.address,
                                     .time = p.time,
                                     .partition = p.partition,
                                     .cause = static_cast<__u16>(p.cause),
                                     .flags = p.flags};
    }
    if (count != nullptr)
        *count = pages->size();
    return pages->size() > cap ? fail(ENOSPC, "AMDX_QUERY_BADPAGES", dev->device.id()) : 0;
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

int amdx_events_read(const amdx_events* events, struct amdx_event* buf, size_t cap,
                     int timeout_ms) {
    if (events == nullptr || (buf == nullptr && cap != 0))
        return fail(EINVAL, "read");
    if (cap == 0)
        return 0;
    const auto got = events->stream.next(timeout_ms, std::min<size_t>(cap, 4096));
    if (!got)
        return fail(got.context());
    for (size_t i = 0; i < got->size(); ++i) {
        const auto& e = (*got)[i];
        buf[i] = amdx_event{.seq = e.seq,
                            .timestamp_ns = e.timestamp_ns,
                            .kind = static_cast<__u16>(e.kind),
                            .size = static_cast<__u16>(sizeof(amdx_event)),
                            .device = e.device,
                            .block = e.block,
                            .type = e.type,
                            .instance = e.instance,
                            .partition = e.partition,
                            .address = e.address,
                            .data = {e.data[0], e.data[1]}};
    }
    return static_cast<int>(got->size());
}

} // extern "C"
