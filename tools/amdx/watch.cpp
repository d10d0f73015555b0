// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx monitor -i SECONDS [-c COUNT] [DEV...]`: the periodic watch view
// (amd-smi monitor, nvidia-smi dmon): every interval one line per compute
// partition of each selected device, its modes, state, pending recovery
// action and RAS totals.  Text: a table, its header once; --csv: CSV, its
// header once; -j: JSON lines, one object per line.  Watching all devices
// (no DEV, or 'all'), each sample lists them again: one created since the
// last sample has lines from this one on, one that went away has none, and
// stderr says so, as `amdx monitor` does for events.  Watching named
// devices, one that goes away is left out of later lines.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <sstream>
#include <thread>

#include "commands.hpp"
#include "fleet.hpp"

namespace amdx::cli {

namespace {

/// Tests: called between samples instead of waiting for the interval.
std::function<void(std::uint64_t)>& wait_hook() {
    static std::function<void(std::uint64_t)> hook;
    return hook;
}

std::uint64_t monotonic_ns() {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000U +
           static_cast<std::uint64_t>(ts.tv_nsec);
}

/// Sum of @type over the blocks of @ras' rows for @partition (null if no
/// block reports the type).
Json ras_total(const RasStatus& ras, std::uint32_t partition, RasType type) {
    std::optional<std::uint64_t> sum;
    for (const auto& row : ras.counters) {
        const auto& n = row.count[static_cast<std::size_t>(type)];
        if (row.partition == partition && n)
            sum = sum.value_or(0) + *n;
    }
    return sum ? Json(*sum) : Json(nullptr);
}

/// One device's lines of one sample; std::nullopt if it went away.
Result<std::optional<Json>> device_rows(const Control& control, const DeviceEntry& e,
                                        const std::string& time, std::string& what) {
    const auto gone = [](std::error_code ec) { return ec == std::errc::no_such_device; };
    auto device = Device::open(control, e.id);
    if (!device && gone(device.error()))
        return std::optional<Json>();
    what = "device " + std::to_string(e.id);
    if (!device)
        return Unexpected(device.error());
    const auto parts = device->partitions();
    if (!parts && gone(parts.error()))
        return std::optional<Json>();
    if (!parts) {
        what += " partitions";
        return Unexpected(parts.error());
    }
    const auto ras = device->ras_status();
    if (!ras && gone(ras.error()))
        return std::optional<Json>();
    if (!ras) {
        what += " RAS counters";
        return Unexpected(ras.error());
    }
    const auto recovery = read_recovery(*device, *parts, Vfs{}, what);
    if (!recovery && gone(recovery.error()))
        return std::optional<Json>();
    if (!recovery)
        return Unexpected(recovery.error());
    // What each partition faces: its own pending action or the device's,
    // the wider one.
    RecoveryAction dev_action = RecoveryAction::none;
    for (const auto& r : *recovery)
        if (!r.partition && !r.vf)
            dev_action = r.action;
    Json rows = Json::array();
    for (const auto& p : parts->partitions) {
        RecoveryAction action = dev_action;
        for (const auto& r : *recovery)
            if (r.partition == p.id && r.action > action)
                action = r.action;
        rows.push_back(Json{{"time", time},
                            {"device", e.id},
                            {"partition", p.id},
                            {"compute", to_string(parts->compute_mode)},
                            {"memory", to_string(parts->memory_mode)},
                            {"state", to_string(p.state)},
                            {"recovery", to_string(action)},
                            {"ce", ras_total(*ras, p.id, RasType::ce)},
                            {"ue", ras_total(*ras, p.id, RasType::ue)},
                            {"de", ras_total(*ras, p.id, RasType::de)},
                            {"retired_pages", ras->retired_pages},
                            {"rma", ras->rma}});
    }
    return std::optional<Json>(std::move(rows));
}

/// Replaces @now by the node's device list, saying on @err which devices
/// came and went since (an id may come back as another device: its PCI
/// address says).
Result<void> relist(const Control& control, std::vector<DeviceEntry>& now, std::ostream& err) {
    auto listed = control.devices();
    if (!listed)
        return Unexpected(listed.error());
    const auto same = [](const DeviceEntry& a, const DeviceEntry& b) {
        return a.id == b.id && a.bdf == b.bdf;
    };
    for (const auto& e : now)
        if (std::none_of(listed->begin(), listed->end(),
                         [&](const DeviceEntry& l) { return same(l, e); }))
            err << "monitor: device " << e.id << " (" << e.bdf << ") went away\n";
    for (const auto& l : *listed)
        if (std::none_of(now.begin(), now.end(), [&](const DeviceEntry& e) { return same(l, e); }))
            err << "monitor: following device " << l.id << " (" << l.bdf << "), new\n";
    now = std::move(*listed);
    return {};
}

/// @text without its first line (a header printed already).
std::string without_header(const std::string& text) {
    const auto nl = text.find('\n');
    return nl == std::string::npos ? std::string() : text.substr(nl + 1);
}

} // namespace

void set_watch_wait_for_tests(std::function<void(std::uint64_t)> wait) {
    wait_hook() = std::move(wait);
}

int watch(const Options& opts, const std::string& devs, double interval_s, std::uint64_t count,
          std::ostream& out, std::ostream& err) {
    int code = kExitOk;
    auto sel = select_devices(opts, devs, true, err, code);
    if (!sel)
        return code;
    const bool follow_all = parse_selector(devs)->kind == Selector::Kind::all;
    using Clock = std::chrono::steady_clock;
    const auto period =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(interval_s));
    auto next = Clock::now();
    for (std::uint64_t n = 0; count == 0 || n < count; ++n) {
        if (n != 0) {
            if (wait_hook()) {
                wait_hook()(n);
            } else {
                next += period;
                std::this_thread::sleep_until(next);
            }
            if (follow_all) {
                if (auto ok = relist(sel->control, sel->entries, err); !ok) {
                    fail(err, request_error(opts.node, "device list", ok.error()), ok.error());
                    return kExitError;
                }
            }
        }
        const std::string time = monotonic_to_wall(monotonic_ns());
        Json rows = Json::array();
        for (const auto& e : sel->entries) {
            std::string what;
            auto dev = device_rows(sel->control, e, time, what);
            if (!dev) {
                fail(err, request_error(opts.node, what, dev.error()), dev.error());
                return kExitError;
            }
            if (*dev)
                for (auto& row : **dev)
                    rows.push_back(std::move(row));
        }
        if (opts.format == Format::json || opts.format == Format::json_pretty) {
            for (const auto& row : rows)
                render(out, row, Format::json); // JSON lines
        } else {
            std::ostringstream text;
            render(text, Json{{"samples", std::move(rows)}}, opts);
            out << (n == 0 ? text.str() : without_header(text.str()));
        }
        out.flush();
        if (!out)
            return kExitError; // run() names the failed write
    }
    return kExitOk;
}

} // namespace amdx::cli
