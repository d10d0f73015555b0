// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx monitor [DEV...]`: follows the event logs of the selected devices,
// one line per record (text, or JSON lines with -j), as they arrive.
// Following all devices (no DEV, or 'all'), it also picks up devices created
// after it started: libamdx's DeviceMonitor (monitor.hpp) follows them,
// rescanning every second; the records print as libamdx renders them
// (event_fields()).
#include <algorithm>
#include <charconv>
#include <chrono>
#include <limits>

#include "commands.hpp"

namespace amdx::cli {

namespace {

/// The error line of a device @monitor could not follow, from the call
/// that failed (DEVICE_OPEN or EVENT_SUBSCRIBE).
std::string follow_error(const ErrorContext& ctx, std::uint32_t id) {
    if (ctx.call != "AMDX_IOC_EVENT_SUBSCRIBE")
        return ctx.code == std::errc::no_such_device
                   ? "no such device: " + std::to_string(id)
                   : device_error("device " + std::to_string(id) + " open", ctx.code);
    const std::string what = "monitor: subscribing to device " + std::to_string(id);
    return ctx.code == std::errc::invalid_argument
               ? what + ": the ring size must be a power of two in " +
                     std::to_string(AMDX_EVENT_RING_MIN) + " .. " +
                     std::to_string(AMDX_EVENT_RING_MAX) + " (" + errno_text(ctx.code) + ")"
               : device_error(what, ctx.code);
}

/// Whether @devs selects every device, present and future.
bool follows_all(const std::vector<std::string>& devs) {
    return devs.empty() || std::find(devs.begin(), devs.end(), "all") != devs.end();
}

} // namespace

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
    object_ = app.add_subcommand(
        "monitor", "Follow the event logs, one line per event; with -i, watch the devices' "
                   "states and counters, one line per partition every interval");
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
    object_
        ->add_option("-c,--count", count_,
                     "Stop after N records, or with -i N intervals (0: no limit)")
        ->check(CLI::Range(std::uint64_t{0}, kMaxCount));
    object_
        ->add_option("-i,--interval", interval_,
                     "Watch instead: every SECONDS (0.1 to 86400), one line per partition of "
                     "each device: modes, state, pending recovery, RAS totals")
        ->check(CLI::Range(0.1, 86400.0));
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
    // The DEVs as one list: each device once, however often they name it.
    std::string list;
    for (const auto& dev : devs_)
        list.append(list.empty() ? "" : ",").append(dev);
    if (object_->get_option("--interval")->count() != 0) {
        for (const char* event_only : {"--kinds", "--timeout-ms", "--ring-size"})
            if (object_->get_option(event_only)->count() != 0) {
                fail(err,
                     std::string("monitor: ") + event_only +
                         " follows events; -i watches counters (give one or the other)",
                     kExitUsage);
                return kExitUsage;
            }
        return watch(opts, list.empty() ? "all" : list, interval_, count_, out, err);
    }
    if (opts.format == Format::csv) {
        fail(err,
             "--csv: 'amdx monitor' follows events, a stream (use -j, or -i for the watch "
             "view)",
             kExitUsage);
        return kExitUsage;
    }
    std::string bad;
    const auto mask = parse_event_kinds(kinds_, bad);
    if (!mask) {
        fail(err, "invalid event kind '" + bad + "' in --kinds (expected kind names as " +
                      "'amdx monitor --help' lists them, or 'all')");
        return kExitUsage;
    }
    int code = kExitOk;
    auto sel = select_devices(opts, list.empty() ? "all" : list, true, err, code);
    if (!sel)
        return code;
    const auto& selected = sel->entries;
    const bool follow_new = follows_all(devs_);
    if (selected.empty() && !follow_new) {
        fail(err, "monitor: no devices to follow");
        return kExitError;
    }
    // An id that went away is not followed again, under any device.
    DeviceMonitor monitor(std::move(sel->control), {.mask = *mask,
                                                    .ring_size = ring_size_,
                                                    .follow_new = follow_new,
                                                    .follow_reused_ids = false});
    for (const auto& e : selected) {
        if (auto ok = monitor.add(e); !ok) {
            fail(err, follow_error(ok.context(), e.id));
            return kExitError;
        }
    }
    // From here on: stderr says which devices come and go, stdout stays
    // events only.
    monitor.on_added([&err](const DeviceMonitor::Followed& f) {
        err << "monitor: following device " << f.entry.id << " (" << f.entry.bdf << "), new\n";
    });
    std::vector<std::uint32_t> gone;
    monitor.on_removed([&err, &gone, follow_new](const DeviceEntry& e) {
        gone.push_back(e.id);
        if (follow_new) // not an error: devices come and go
            err << "monitor: device " << e.id << " (" << e.bdf << ") went away\n";
    });

    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(std::max(timeout_ms_, 0));
    std::uint64_t seen = 0;
    std::vector<TypedEvent> events;
    while (follow_new || !monitor.followed().empty()) {
        int left = -1; // --timeout-ms
        if (timeout_ms_ >= 0) {
            const auto ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
            left = static_cast<int>(std::max<std::int64_t>(ms.count(), 0));
        }
        events.clear();
        const auto n = monitor.poll(left, events, count_ == 0 ? 0 : count_ - seen);
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
        if (!n) {
            const auto& ctx = n.context();
            if (ctx.call == "poll")
                fail(err, "monitor: poll: " + errno_text(ctx.code));
            else if (ctx.call == "read")
                fail(err, device_error("monitor: reading device " + std::to_string(ctx.device) +
                                           "'s events",
                                       ctx.code));
            else if (ctx.call == "AMDX_QUERY_DEVICES")
                fail(err, request_error(opts.node, "device list", ctx.code));
            else
                fail(err, follow_error(ctx, ctx.device));
            return kExitError;
        }
        if (count_ != 0 && seen >= count_)
            return kExitOk;
        if (events.empty() && timeout_ms_ >= 0 && Clock::now() >= deadline)
            return kExitOk; // the timeout
    }
    fail(err, "monitor: device " + std::to_string(gone.back()) +
                  (gone.size() > 1 ? " and the others" : std::string()) + " went away (" +
                  errno_text(std::error_code(ENODEV, std::system_category())) + ")");
    return kExitError;
}

} // namespace amdx::cli
