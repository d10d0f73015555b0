// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The event log: %AMDX_IOC_EVENT_SUBSCRIBE and the event fd's poll() and
// read().
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <amdx/device.hpp>
#include <amdx/event.hpp>

#include "error.hpp"
#include "query.hpp"
#include "sys.hpp"

namespace amdx {

namespace {

/// The first uapi version of struct amdx_event.
constexpr std::size_t kEventSizeV1 = 64;
static_assert(sizeof(amdx_event) >= kEventSizeV1);
constexpr std::size_t kSizeOffset = offsetof(amdx_event, size);

} // namespace

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
    std::vector<std::uint64_t> buf(max * sizeof(amdx_event) / sizeof(std::uint64_t));
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
        if (total - at < kEventSizeV1)
            return detail::fail(std::errc::protocol_error, "read", device_);
        std::uint16_t size = 0;
        std::memcpy(&size, bytes + at + kSizeOffset, sizeof(size));
        if (size < kEventSizeV1 || size > total - at)
            return detail::fail(std::errc::protocol_error, "read", device_);
        amdx_event raw{};
        std::memcpy(&raw, bytes + at, std::min<std::size_t>(size, sizeof(raw)));
        out.push_back(Event::from_uapi(raw));
        at += size;
    }
    return n;
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
    arg.flags = O_NONBLOCK;
    arg.fd = -1;
    if (const int ret = detail::ioctl_retry(fd().get(), AMDX_IOC_EVENT_SUBSCRIBE, &arg); ret < 0)
        return errno_error(-ret, "AMDX_IOC_EVENT_SUBSCRIBE", id_);
    if (arg.fd < 0)
        return detail::fail(std::errc::protocol_error, "AMDX_IOC_EVENT_SUBSCRIBE", id_);
    return EventStream::adopt(UniqueFd(arg.fd), id_);
}

} // namespace amdx
