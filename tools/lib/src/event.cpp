// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The event log: %AMDX_IOC_EVENT_SUBSCRIBE and the event fd's poll() and
// read().
#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <poll.h>
#include <unistd.h>

#include <amdx/device.hpp>
#include <amdx/event.hpp>

#include "error.hpp"
#include "query.hpp"
#include "sys.hpp"

namespace amdx {

namespace {

static_assert(sizeof(amdx_event) >= AMDX_EVENT_SIZE_VER0);
static_assert(sizeof(amdx_event_v1) == AMDX_EVENT_SIZE_VER1);
static_assert(sizeof(amdx_event_v2) == AMDX_EVENT_SIZE_VER2);
static_assert(sizeof(amdx_event_v3) == AMDX_EVENT_SIZE_VER3);
constexpr std::size_t kSizeOffset = offsetof(amdx_event, size);

/// A record's partition field: unset for AMDX_RAS_PARTITION_ALL.
std::optional<std::uint32_t> partition_of(const Event& e) noexcept {
    if (e.partition == AMDX_RAS_PARTITION_ALL)
        return std::nullopt;
    return e.partition;
}

/// A 0-or-negative-errno field.
std::error_code result_of(std::uint64_t v) noexcept {
    const auto err = static_cast<std::int64_t>(v);
    if (err == 0)
        return {};
    return {static_cast<int>(err < 0 ? -err : err), std::system_category()};
}

std::vector<std::uint32_t> ids_of(std::uint64_t bitmap) {
    std::vector<std::uint32_t> ids;
    for (std::uint32_t bit = 0; bit < 64; ++bit)
        if ((bitmap & (std::uint64_t{1} << bit)) != 0)
            ids.push_back(bit);
    return ids;
}

/// A RECOVERY record: data[1] is the estimate (PENDING), the processes
/// stopped (STOPPED) or 0 or -errno (the other steps).
events::Recovery recovery_of(const Event& e) {
    const std::uint64_t sum = e.data[0];
    events::Recovery r{.step = static_cast<RecoveryStep>(e.type),
                       .fault = static_cast<RecoveryFault>(e.block),
                       .partition = partition_of(e),
                       .vf = e.instance == AMDX_VF_NONE ? std::nullopt
                                                        : std::optional<std::uint32_t>(e.instance),
                       .action = static_cast<RecoveryAction>(AMDX_RECOVERY_SUM_ACTION(sum)),
                       .num_devices = AMDX_RECOVERY_SUM_DEVICES(sum),
                       .num_partitions = AMDX_RECOVERY_SUM_PARTITIONS(sum),
                       .num_vfs = AMDX_RECOVERY_SUM_VFS(sum),
                       .num_processes = AMDX_RECOVERY_SUM_PROCESSES(sum),
                       .stopped = 0,
                       .estimate_ms = std::nullopt,
                       .cause_seq = e.address != 0 ? e.address : e.seq,
                       .result = {}};
    switch (r.step) {
    case RecoveryStep::pending:
        if (e.data[1] != 0xffffffffU) // never: rma
            r.estimate_ms = static_cast<std::uint32_t>(e.data[1]);
        break;
    case RecoveryStep::stopped:
        r.stopped = static_cast<std::uint32_t>(e.data[1]);
        break;
    default:
        r.result = result_of(e.data[1]);
        break;
    }
    return r;
}

TypedEvent::Data decode_data(const Event& e) {
    using namespace events;
    const auto part = partition_of(e);
    switch (e.kind) {
    case EventKind::lost:
        return Lost{.first_seq = e.seq, .missed = e.data[0], .last_seq = e.data[1]};
    case EventKind::error:
        return Error{.block = static_cast<RasBlock>(e.block),
                     .type = static_cast<RasType>(e.type),
                     .instance = e.instance,
                     .partition = part,
                     .address = e.address,
                     .count = e.data[0],
                     .pid = e.pid,
                     .pasid = e.pasid,
                     .driver_event = e.driver_event,
                     .driver_event_type = static_cast<DriverEventType>(e.driver_event_type)};
    case EventKind::page_pending:
        return PagePending{.partition = part, .address = e.address};
    case EventKind::page_retired:
        return PageRetired{.partition = part,
                           .address = e.address,
                           .cause = static_cast<BadPageCause>(e.data[0]),
                           .moved_pages = e.data[1]};
    case EventKind::poison_consumed:
        return PoisonConsumed{
            .partition = part, .address = e.address, .pid = static_cast<std::uint32_t>(e.data[0])};
    case EventKind::action_start:
        return ActionStart{.partition = part, .action = static_cast<RasAction>(e.data[0])};
    case EventKind::action_end:
        return ActionEnd{.partition = part,
                         .action = static_cast<RasAction>(e.data[0]),
                         .result = result_of(e.data[1]),
                         .duration_ns = e.address};
    case EventKind::partition_quarantined:
        return PartitionQuarantined{.partition = e.partition};
    case EventKind::partition_restored:
        return PartitionRestored{.partition = e.partition};
    case EventKind::partition_offline:
        return PartitionOffline{.partition = e.partition};
    case EventKind::vf_reset: {
        const auto cause = static_cast<VfResetCause>(e.type);
        return VfReset{.vf = e.instance,
                       .cause = cause,
                       .partition = part,
                       .result = static_cast<VfResetOutcome>(e.data[0]),
                       .state = static_cast<PartitionState>(e.data[1]),
                       .vram_cleared = cause == VfResetCause::flr ? e.address : 0};
    }
    case EventKind::device_reset_begin:
        return DeviceResetBegin{.devices = ids_of(e.data[0])};
    case EventKind::device_reset_end:
        return DeviceResetEnd{.result = result_of(e.data[0])};
    case EventKind::rma:
        return Rma{.retired_pages = e.data[0]};
    case EventKind::partition_switch:
        return PartitionSwitch{.step = static_cast<PartitionStep>(e.type),
                               .result = result_of(e.data[0]),
                               .duration_ns = e.address};
    case EventKind::migrate:
        return Migrate{.direction = static_cast<MigrateDirection>(e.type),
                       .pid = static_cast<std::uint32_t>(e.data[0]),
                       .pages = e.data[1]};
    case EventKind::drained:
        return Drained{.partition = e.partition,
                       .pid = static_cast<std::uint32_t>(e.data[0]),
                       .pages = e.data[1]};
    case EventKind::recovery:
        return recovery_of(e);
    case EventKind::link:
        return Link{.link = e.instance,
                    .peer = static_cast<std::uint32_t>(e.address),
                    .state = static_cast<LinkState>(e.type),
                    .previous_state = static_cast<LinkState>(e.block),
                    .contain = static_cast<LinkContain>(e.data[0]),
                    .hops = static_cast<std::uint32_t>(e.data[1])};
    }
    return Unknown{.raw = e};
}

} // namespace

TypedEvent decode(const Event& raw) {
    return TypedEvent{.seq = raw.seq,
                      .timestamp_ns = raw.timestamp_ns,
                      .device = raw.device,
                      .kind = raw.kind,
                      .data = decode_data(raw)};
}

Event Event::from_uapi(const amdx_event& raw) noexcept {
    Event e;
    e.seq = raw.seq;
    e.timestamp_ns = raw.timestamp_ns;
    e.kind = static_cast<EventKind>(raw.kind);
    e.size = raw.size;
    e.device = raw.device;
    e.block = raw.block;
    e.type = raw.type;
    e.instance = raw.instance;
    e.partition = raw.partition;
    e.address = raw.address;
    e.data[0] = raw.data[0];
    e.data[1] = raw.data[1];
    return e;
}

Event Event::from_uapi(const amdx_event_v1& raw) noexcept {
    Event e = from_uapi(raw.ev);
    e.pid = raw.pid;
    e.pasid = raw.pasid;
    return e;
}

Event Event::from_uapi(const amdx_event_v2& raw) noexcept {
    Event e = from_uapi(raw.v1);
    e.driver_event = raw.driver_event;
    return e;
}

Event Event::from_uapi(const amdx_event_v3& raw) noexcept {
    Event e = from_uapi(raw.v2);
    e.driver_event_type = raw.driver_event_type;
    return e;
}

Result<bool> EventStream::wait(int timeout_ms) const noexcept {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
    for (;;) {
        int left = -1;
        if (timeout_ms >= 0) {
            const auto ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
            left = static_cast<int>(std::max<std::int64_t>(ms.count(), 0));
        }
        pollfd p{.fd = fd_.get(), .events = POLLIN, .revents = 0};
        const int ret = ::poll(&p, 1, left);
        if (ret < 0 && errno == EINTR)
            continue;
        if (ret < 0)
            return errno_error(errno, "poll", device_);
        if ((p.revents & POLLNVAL) != 0)
            return errno_error(EBADF, "poll", device_);
        return ret > 0;
    }
}

Result<std::size_t> EventStream::read(std::vector<Event>& out, std::size_t max) const noexcept {
    max = std::clamp<std::size_t>(max, 1, 4096);
    std::vector<std::uint64_t> buf(max * sizeof(amdx_event_v3) / sizeof(std::uint64_t));
    ssize_t got = 0;
    do {
        got = ::read(fd_.get(), buf.data(), buf.size() * sizeof(std::uint64_t));
    } while (got < 0 && errno == EINTR);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return std::size_t{0};
    if (got < 0)
        return errno_error(errno, "read", device_);
    if (got == 0) // end of file: the device is gone
        return errno_error(ENODEV, "read", device_);

    const auto* bytes = reinterpret_cast<const unsigned char*>(buf.data());
    const auto total = static_cast<std::size_t>(got);
    std::size_t n = 0;
    for (std::size_t at = 0; at < total; ++n) {
        if (total - at < AMDX_EVENT_SIZE_VER0)
            return detail::fail(std::errc::protocol_error, "read", device_);
        std::uint16_t size = 0;
        std::memcpy(&size, bytes + at + kSizeOffset, sizeof(size));
        if (size < AMDX_EVENT_SIZE_VER0 || size > total - at)
            return detail::fail(std::errc::protocol_error, "read", device_);
        amdx_event_v3 raw{}; // a shorter record leaves what it lacks 0
        std::memcpy(&raw, bytes + at, std::min<std::size_t>(size, sizeof(raw)));
        out.push_back(Event::from_uapi(raw));
        at += size;
    }
    return n;
}

Result<std::size_t> EventStream::read(std::vector<TypedEvent>& out,
                                      std::size_t max) const noexcept {
    std::vector<Event> raw;
    auto n = read(raw, max);
    if (!n)
        return n;
    out.reserve(out.size() + raw.size());
    for (const auto& e : raw)
        out.push_back(decode(e));
    return n;
}

Result<std::vector<TypedEvent>> EventStream::next_typed(int timeout_ms,
                                                        std::size_t max) const noexcept {
    auto raw = next(timeout_ms, max);
    if (!raw)
        return Unexpected(raw.context());
    std::vector<TypedEvent> out;
    out.reserve(raw->size());
    for (const auto& e : *raw)
        out.push_back(decode(e));
    return out;
}

Result<std::vector<Event>> EventStream::next(int timeout_ms, std::size_t max) const noexcept {
    std::vector<Event> events;
    const auto ready = wait(timeout_ms);
    if (!ready)
        return Unexpected(ready.context());
    if (!*ready)
        return events;
    const auto n = read(events, max);
    if (!n)
        return Unexpected(n.context());
    return events;
}

Result<EventStream> Device::subscribe(std::uint64_t mask, std::uint32_t ring_size) const noexcept {
    amdx_event_subscribe arg{};
    arg.mask = mask;
    arg.ring_size = ring_size;
    int ret = -EINVAL;
    // The longest record the module knows: v3 from uapi minor 10, v2 from
    // minor 9, v1 from minor 3, else 64 bytes; an older module refuses a
    // flag with EINVAL.
    constexpr std::array<std::uint32_t, 4> kSizes{AMDX_EVENT_F_SIZE_VER3, AMDX_EVENT_F_SIZE_VER2,
                                                  AMDX_EVENT_F_SIZE_VER1, 0};
    for (const std::uint32_t size : kSizes) {
        arg.flags = AMDX_EVENT_F_NONBLOCK | size;
        arg.fd = -1;
        ret = detail::ioctl_retry(fd().get(), AMDX_IOC_EVENT_SUBSCRIBE, &arg);
        if (ret != -EINVAL)
            break;
    }
    if (ret < 0)
        return errno_error(-ret, "AMDX_IOC_EVENT_SUBSCRIBE", id_);
    if (arg.fd < 0)
        return detail::fail(std::errc::protocol_error, "AMDX_IOC_EVENT_SUBSCRIBE", id_);
    return EventStream::adopt(UniqueFd(arg.fd), id_);
}

} // namespace amdx
