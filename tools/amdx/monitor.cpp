// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx monitor [DEV...]`: follows the event logs of the selected devices,
// one line per record (text, or JSON lines with -j), as they arrive.
// Following all devices (no DEV, or 'all'), it also picks up devices created
// after it started: the device list is queried again every second.
//
//   amdx                         amdx.ko
//   SUBSCRIBE per device   -->   an event fd each (own ring)
//   poll(all fds, <= 1 s)  <--   EPOLLIN
//   read() batch per fd    <--   struct amdx_event records, LOST included
//   every 1 s (all):
//   QUERY_DEVICES          -->   SUBSCRIBE to the ids not seen before
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstring>
#include <limits>
#include <poll.h>

#include "commands.hpp"

namespace amdx::cli {

namespace {

/// std::visit over lambdas, one per event kind.
template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

void put_partition(Json& j, const std::optional<std::uint32_t>& partition) {
    if (partition)
        j["partition"] = *partition;
}

/// A record that names a partition in every kernel, but "none" is possible
/// (AMDX_RAS_PARTITION_ALL): absent, never 4294967295.
void put_partition(Json& j, std::uint32_t partition) {
    if (partition != AMDX_RAS_PARTITION_ALL)
        j["partition"] = partition;
}

/// "ok", or the errno's name.
std::string result_name(const std::error_code& ec) {
    return ec ? errno_result(-static_cast<std::int64_t>(ec.value())) : "ok";
}

struct Followed {
    DeviceEntry entry;
    Device device;
    EventStream stream;
};

/// How often a monitor of all devices looks for new ones.
constexpr std::chrono::milliseconds kRescanPeriod{1000};

/// Subscribes to @e's events; prints the error.  With @vanish_ok a device
/// that is gone already (a race with its removal) is no error: nullopt and
/// @vanished set.
std::optional<Followed> follow(const Control& control, const DeviceEntry& e, std::uint64_t mask,
                               std::uint32_t ring_size, std::ostream& err, bool vanish_ok,
                               bool& vanished) {
    vanished = false;
    auto device = Device::open(control, e.id);
    if (!device && vanish_ok && device.error() == std::errc::no_such_device) {
        vanished = true;
        return std::nullopt;
    }
    if (!device) {
        fail(err, device.error() == std::errc::no_such_device
                      ? "no such device: " + std::to_string(e.id)
                      : device_error("device " + std::to_string(e.id) + " open", device.error()));
        return std::nullopt;
    }
    auto stream = device->subscribe(mask, ring_size);
    if (!stream && vanish_ok && stream.error() == std::errc::no_such_device) {
        vanished = true;
        return std::nullopt;
    }
    if (!stream) {
        const std::string what = "monitor: subscribing to device " + std::to_string(e.id);
        fail(err, stream.error() == std::errc::invalid_argument
                      ? what + ": the ring size must be a power of two in " +
                            std::to_string(AMDX_EVENT_RING_MIN) + " .. " +
                            std::to_string(AMDX_EVENT_RING_MAX) + " (" +
                            errno_text(stream.error()) + ")"
                      : device_error(what, stream.error()));
        return std::nullopt;
    }
    return Followed{e, std::move(*device), std::move(*stream)};
}

/// Whether @devs selects every device, present and future.
bool follows_all(const std::vector<std::string>& devs) {
    return devs.empty() || std::find(devs.begin(), devs.end(), "all") != devs.end();
}

} // namespace

std::string errno_result(std::int64_t value) {
    if (value == 0)
        return "ok";
    const int e = static_cast<int>(value < 0 ? -value : value);
    const char* name = ::strerrorname_np(e);
    return name != nullptr ? name : "errno " + std::to_string(e);
}

std::optional<std::uint64_t> parse_event_kinds(std::string_view list, std::string& bad) {
    std::uint64_t mask = 0;
    while (!list.empty()) {
        const auto comma = list.find(',');
        const std::string_view name = list.substr(0, comma);
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
        if (name == "all") {
            mask |= kEventMaskAll;
            continue;
        }
        const auto kind = parse_event_kind(name);
        if (!kind) {
            bad = std::string(name);
            return std::nullopt;
        }
        mask |= event_mask(*kind);
    }
    if (mask == 0) {
        bad = "";
        return std::nullopt;
    }
    return mask;
}

Json event_to_json(const Event& ev) {
    return event_to_json(decode(ev));
}

Json event_to_json(const TypedEvent& ev) {
    Json j{{"device", ev.device},
           {"seq", ev.seq},
           {"timestamp_ns", ev.timestamp_ns},
           {"kind", to_string(ev.kind)}};
    namespace e = amdx::events;
    std::visit(Overloaded{
                   [&j](const e::Lost& l) { j["missed"] = l.missed; },
                   [&j](const e::Error& r) {
                       j["block"] = to_string(r.block);
                       j["type"] = to_string(r.type);
                       j["instance"] = r.instance;
                       put_partition(j, r.partition);
                       j["address"] = r.address;
                       j["count"] = r.count;
                   },
                   [&j](const e::PagePending& p) {
                       put_partition(j, p.partition);
                       j["address"] = p.address;
                   },
                   [&j](const e::PageRetired& p) {
                       put_partition(j, p.partition);
                       j["address"] = p.address;
                       j["cause"] = to_string(p.cause);
                       j["moved_pages"] = p.moved_pages;
                   },
                   [&j](const e::PoisonConsumed& p) {
                       put_partition(j, p.partition);
                       j["address"] = p.address;
                       j["pid"] = p.pid;
                   },
                   [&j](const e::ActionStart& a) {
                       put_partition(j, a.partition);
                       j["action"] = to_string(a.action);
                   },
                   [&j](const e::ActionEnd& a) {
                       put_partition(j, a.partition);
                       j["action"] = to_string(a.action);
                       j["result"] = result_name(a.result);
                       j["duration_ns"] = a.duration_ns;
                   },
                   [&j](const e::PartitionQuarantined& p) { put_partition(j, p.partition); },
                   [&j](const e::PartitionRestored& p) { put_partition(j, p.partition); },
                   [&j](const e::PartitionOffline& p) { put_partition(j, p.partition); },
                   [&j](const e::VfReset& v) {
                       j["vf"] = v.vf;
                       j["cause"] = to_string(v.cause);
                       put_partition(j, v.partition);
                       j["result"] = to_string(v.result);
                       j["state"] = to_string(v.state);
                       if (v.cause == VfResetCause::flr)
                           j["vram_cleared"] = v.vram_cleared;
                   },
                   [&j](const e::DeviceResetBegin& d) { j["devices"] = d.devices; },
                   [&j](const e::DeviceResetEnd& d) { j["result"] = result_name(d.result); },
                   [&j](const e::Rma& r) { j["retired_pages"] = r.retired_pages; },
                   [&j](const e::PartitionSwitch& p) {
                       j["step"] = to_string(p.step);
                       j["result"] = result_name(p.result);
                       j["duration_ns"] = p.duration_ns;
                   },
                   [&j](const e::Migrate& m) {
                       j["direction"] = to_string(m.direction);
                       j["pid"] = m.pid;
                       j["pages"] = m.pages;
                   },
                   [&j](const e::Drained& d) {
                       put_partition(j, d.partition);
                       j["pid"] = d.pid;
                       j["pages"] = d.pages;
                   },
                   [&j](const e::Unknown& u) { // a kind from a newer kernel: the raw fields
                       const Event& r = u.raw;
                       j["kind_id"] = static_cast<std::uint32_t>(r.kind);
                       j["block"] = r.block;
                       j["type"] = r.type;
                       j["instance"] = r.instance;
                       j["partition"] = r.partition;
                       j["address"] = r.address;
                       j["data"] = Json::array({r.data[0], r.data[1]});
                   },
               },
               ev.data);
    return j;
}

namespace {

/// The largest --count: more records than any log holds is a typo.
constexpr std::uint64_t kMaxCount = std::numeric_limits<std::uint32_t>::max();

/// --kinds' choices as --help lists them: "{all,lost,error,...}".
std::string kinds_choices() {
    std::string out = "{all";
    for (unsigned bit = 0; bit < 64; ++bit)
        if ((kEventMaskAll & (std::uint64_t{1} << bit)) != 0)
            out.append(",").append(to_string(static_cast<EventKind>(bit)));
    return out + "}";
}

} // namespace

MonitorCommand::MonitorCommand(CLI::App& app) {
    object_ = app.add_subcommand("monitor", "Follow the event logs, one line per event");
    object_->fallthrough();
    // Each DEV is checked at parse time, like every other command's: a usage
    // error's exit status never depends on the module.
    object_
        ->add_option("DEV", devs_,
                     "Devices: ids, PCI addresses, serial:SERIAL, comma-separated, or 'all' "
                     "(the default)")
        ->check(device_validator(true));
    object_->add_option("--kinds", kinds_, "Comma-separated event kinds, or 'all'")
        ->check(CLI::Validator(
            [](std::string& v) -> std::string {
                std::string bad;
                if (parse_event_kinds(v, bad))
                    return {};
                return "invalid event kind '" + bad + "' (expected " + kinds_choices() + ")";
            },
            kinds_choices()))
        ->capture_default_str();
    // Ranges are checked at parse time (usage error, exit 2): a negative
    // count would otherwise wrap to a count that never ends.
    object_->add_option("--count", count_, "Stop after N records (0: no limit)")
        ->check(CLI::Range(std::uint64_t{0}, kMaxCount));
    object_->add_option("--timeout-ms", timeout_ms_, "Stop after N ms (-1: no limit)")
        ->check(CLI::Range(-1, std::numeric_limits<int>::max()));
    object_
        ->add_option("--ring-size", ring_size_,
                     "Records each subscription's ring holds (a power of two, 0: default)")
        ->check(CLI::Validator(
            [](std::string& v) -> std::string {
                std::uint32_t n = 0;
                const auto* end = v.data() + v.size();
                const auto [ptr, ec] = std::from_chars(v.data(), end, n);
                const bool pow2 = (n & (n - 1)) == 0;
                return ec == std::errc() && ptr == end && !v.empty() &&
                               (n == 0 ||
                                (pow2 && n >= AMDX_EVENT_RING_MIN && n <= AMDX_EVENT_RING_MAX))
                           ? std::string()
                           : "expected 0 or a power of two in " +
                                 std::to_string(AMDX_EVENT_RING_MIN) + ".." +
                                 std::to_string(AMDX_EVENT_RING_MAX) + ": " + v;
            },
            "{0," + std::to_string(AMDX_EVENT_RING_MIN) + ".." +
                std::to_string(AMDX_EVENT_RING_MAX) + "}"));
}

int MonitorCommand::run(const Options& opts, std::ostream& out, std::ostream& err) const {
    std::string bad;
    const auto mask = parse_event_kinds(kinds_, bad);
    if (!mask) {
        fail(err, "invalid event kind '" + bad + "' in --kinds (expected kind names as " +
                      "'amdx monitor --help' lists them, or 'all')");
        return kExitUsage;
    }
    const auto control = open_control(opts, err);
    if (!control)
        return kExitError;
    std::vector<DeviceEntry> selected;
    for (const auto& dev : devs_.empty() ? std::vector<std::string>{"all"} : devs_) {
        int code = kExitOk;
        const auto entries = select_devices(*control, opts, dev, true, err, code);
        if (!entries)
            return code;
        for (const auto& e : *entries)
            if (std::none_of(selected.begin(), selected.end(),
                             [&e](const DeviceEntry& s) { return s.id == e.id; }))
                selected.push_back(e);
    }
    const bool follow_new = follows_all(devs_);
    if (selected.empty() && !follow_new) {
        fail(err, "monitor: no devices to follow");
        return kExitError;
    }
    std::vector<Followed> followed;
    std::vector<std::uint32_t> known; // every id followed, gone ones included
    bool vanished = false;
    for (const auto& e : selected) {
        auto f = follow(*control, e, *mask, ring_size_, err, false, vanished);
        if (!f)
            return kExitError;
        known.push_back(e.id);
        followed.push_back(std::move(*f));
    }

    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(std::max(timeout_ms_, 0));
    auto next_scan = Clock::now() + kRescanPeriod;
    auto ms_until = [](Clock::time_point t) {
        const auto ms = std::chrono::ceil<std::chrono::milliseconds>(t - Clock::now());
        return static_cast<int>(std::max<std::int64_t>(ms.count(), 0));
    };
    std::uint64_t seen = 0;
    std::vector<std::uint32_t> gone;
    while (follow_new || !followed.empty()) {
        // Wait for the deadline (--timeout-ms) or, following all, the next scan.
        int left = timeout_ms_ >= 0 ? ms_until(deadline) : -1;
        bool deadline_first = timeout_ms_ >= 0;
        if (follow_new && (left < 0 || ms_until(next_scan) < left)) {
            left = ms_until(next_scan);
            deadline_first = false;
        }
        std::vector<pollfd> fds;
        fds.reserve(followed.size());
        for (const auto& f : followed)
            fds.push_back(pollfd{.fd = f.stream.fd().get(), .events = POLLIN, .revents = 0});
        const int ready = ::poll(fds.data(), fds.size(), left);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0) {
            fail(err,
                 "monitor: poll: " + errno_text(std::error_code(errno, std::system_category())));
            return kExitError;
        }
        if (ready == 0 && deadline_first)
            return kExitOk; // the timeout
        std::vector<std::size_t> ended;
        for (std::size_t i = 0; ready > 0 && i < fds.size(); ++i) {
            if (fds[i].revents == 0)
                continue;
            std::vector<TypedEvent> events;
            const std::uint64_t room =
                count_ == 0 ? 64 : std::min<std::uint64_t>(64, count_ - seen);
            const auto n = followed[i].stream.read(events, room);
            if (!n && n.error() == std::errc::no_such_device) {
                ended.push_back(i);
                continue;
            }
            if (!n) {
                fail(err, device_error("monitor: reading device " +
                                           std::to_string(followed[i].entry.id) + "'s events",
                                       n.error()));
                return kExitError;
            }
            for (const auto& ev : events) {
                if (opts.format == Format::text) // one line: the flat object
                    render(out, Json{{"events", Json::array({event_to_json(ev)})}}, opts.format);
                else // JSON lines
                    render(out, event_to_json(ev), opts.format);
                ++seen;
            }
            out.flush();
            if (!out)
                return kExitError; // run() names the failed write
            if (count_ != 0 && seen >= count_)
                return kExitOk;
        }
        std::reverse(ended.begin(), ended.end()); // erase from the back
        for (const std::size_t i : ended) {
            gone.push_back(followed[i].entry.id);
            if (follow_new) // not an error: devices come and go
                err << "monitor: device " << followed[i].entry.id << " (" << followed[i].entry.bdf
                    << ") went away\n";
            followed.erase(followed.begin() + static_cast<std::ptrdiff_t>(i));
        }
        if (!follow_new || Clock::now() < next_scan)
            continue;
        // Devices created since the last look; stdout stays events only.
        next_scan = Clock::now() + kRescanPeriod;
        const auto entries = control->devices();
        if (!entries) {
            fail(err, request_error(opts.node, "device list", entries.error()));
            return kExitError;
        }
        for (const auto& e : *entries) {
            if (std::find(known.begin(), known.end(), e.id) != known.end())
                continue;
            auto f = follow(*control, e, *mask, ring_size_, err, true, vanished);
            if (!f && vanished)
                continue;
            if (!f)
                return kExitError;
            known.push_back(e.id);
            err << "monitor: following device " << e.id << " (" << e.bdf << "), new\n";
            followed.push_back(std::move(*f));
        }
    }
    fail(err, "monitor: device " + std::to_string(gone.back()) +
                  (gone.size() > 1 ? " and the others" : std::string()) + " went away (" +
                  errno_text(std::error_code(ENODEV, std::system_category())) + ")");
    return kExitError;
}

} // namespace amdx::cli
