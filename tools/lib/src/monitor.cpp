// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// DeviceMonitor (monitor.hpp): one loop that follows devices' event logs.
#include <algorithm>
#include <cerrno>
#include <poll.h>

#include <amdx/monitor.hpp>

#include "error.hpp"

namespace amdx {

Result<void> DeviceMonitor::add(const DeviceEntry& entry) {
    if (std::any_of(followed_.begin(), followed_.end(),
                    [&entry](const Followed& f) { return f.entry.id == entry.id; }))
        return {};
    auto device = Device::open(control_, entry.id);
    if (!device)
        return Unexpected(device.context());
    auto stream = device->subscribe(opts_.mask, opts_.ring_size);
    if (!stream)
        return Unexpected(stream.context());
    followed_.push_back(Followed{entry, std::move(*device), std::move(*stream)});
    if (added_)
        added_(followed_.back());
    return {};
}

void DeviceMonitor::remove(std::uint32_t id) {
    const auto it = std::find_if(followed_.begin(), followed_.end(),
                                 [id](const Followed& f) { return f.entry.id == id; });
    if (it == followed_.end())
        return;
    const DeviceEntry entry = it->entry;
    followed_.erase(it);
    if (!opts_.follow_reused_ids)
        gone_.push_back(entry.id);
    if (removed_)
        removed_(entry);
}

Result<void> DeviceMonitor::rescan() {
    next_scan_ = Clock::now() + opts_.rescan_period;
    const auto entries = control_.devices();
    if (!entries)
        return Unexpected(entries.context());
    Result<void> first;
    for (const auto& e : *entries) {
        if (std::find(gone_.begin(), gone_.end(), e.id) != gone_.end())
            continue;
        auto ok = add(e);
        if (!ok && ok.error() != std::errc::no_such_device && first) // gone already: no error
            first = std::move(ok);
    }
    return first;
}

Result<std::size_t> DeviceMonitor::poll(int timeout_ms, std::vector<Event>& out, std::size_t max) {
    int left = timeout_ms;
    if (opts_.follow_new) {
        const auto ms = std::chrono::ceil<std::chrono::milliseconds>(next_scan_ - Clock::now());
        const int scan = static_cast<int>(std::max<std::int64_t>(ms.count(), 0));
        if (left < 0 || scan < left)
            left = scan;
    }
    std::vector<pollfd> fds;
    fds.reserve(followed_.size());
    for (const auto& f : followed_)
        fds.push_back(pollfd{.fd = f.stream.fd().get(), .events = POLLIN, .revents = 0});
    const int ready = ::poll(fds.data(), fds.size(), left);
    if (ready < 0 && errno == EINTR)
        return std::size_t{0};
    if (ready < 0)
        return errno_error(errno, "poll");
    std::size_t got = 0;
    std::vector<std::uint32_t> ended;
    Result<void> failed; // the first read that failed
    for (std::size_t i = 0; ready > 0 && i < fds.size(); ++i) {
        if (fds[i].revents == 0 || (max != 0 && got >= max))
            continue;
        const std::size_t room = max == 0 ? opts_.batch : std::min(opts_.batch, max - got);
        const auto n = followed_[i].stream.read(out, room);
        if (!n && n.error() == std::errc::no_such_device) {
            ended.push_back(followed_[i].entry.id);
            continue;
        }
        if (!n && failed)
            failed = Unexpected(n.context());
        if (n)
            got += *n;
    }
    for (const std::uint32_t id : ended)
        remove(id);
    if (!failed)
        return Unexpected(failed.context());
    if (opts_.follow_new && Clock::now() >= next_scan_) {
        if (auto ok = rescan(); !ok)
            return Unexpected(ok.context());
    }
    return got;
}

Result<std::size_t> DeviceMonitor::poll(int timeout_ms, std::vector<TypedEvent>& out,
                                        std::size_t max) {
    std::vector<Event> raw;
    auto n = poll(timeout_ms, raw, max);
    out.reserve(out.size() + raw.size());
    for (const auto& e : raw)
        out.push_back(decode(e));
    return n;
}

} // namespace amdx
