// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// One collection: every device's state in a bounded number of queries
// (fleet.hpp).  The cost does not grow with partitions, VFs or bad pages:
// each is one list query (two calls with the size protocol).
#include <cctype>
#include <unistd.h>

#include "fleet.hpp"

namespace amdx::cli {

namespace {

bool gone(std::error_code ec) {
    return ec == std::errc::no_such_device || ec == std::errc::no_such_file_or_directory;
}

/// Reads one device; nullopt with @gone_now set if it went away meanwhile.
Result<Snapshot> read_device(const Control& control, std::uint32_t id, std::string& what) {
    const std::string dev = "device " + std::to_string(id);
    auto device = Device::open(control, id);
    if (!device) {
        what = dev + " open";
        return Unexpected(device.error());
    }
    Snapshot s;
    auto info = device->info();
    if (!info) {
        what = dev + " info";
        return Unexpected(info.error());
    }
    s.info = std::move(*info);
    auto parts = device->partitions();
    if (!parts) {
        what = dev + " partitions";
        return Unexpected(parts.error());
    }
    s.partitions = std::move(*parts);
    auto vfs = device->vfs();
    if (!vfs) {
        what = dev + " VFs";
        return Unexpected(vfs.error());
    }
    s.vfs = std::move(*vfs);
    auto ras = device->ras_status();
    if (!ras) {
        what = dev + " RAS counters";
        return Unexpected(ras.error());
    }
    s.ras = std::move(*ras);
    auto policy = device->ras_policy();
    if (!policy) {
        what = dev + " RAS policy";
        return Unexpected(policy.error());
    }
    s.policy = *policy;
    auto pages = device->badpages();
    if (!pages) {
        what = dev + " bad-page table";
        return Unexpected(pages.error());
    }
    s.badpages = std::move(*pages);
    auto stats = device->stats();
    if (!stats) {
        what = dev + " counters";
        return Unexpected(stats.error());
    }
    s.stats = *stats;
    auto rec = read_recovery(*device, s.partitions, s.vfs, what);
    if (!rec) {
        what = dev + " " + what;
        return Unexpected(rec.error());
    }
    s.recovery = std::move(*rec);
    auto links = device->links();
    // EINVAL: a module before uapi minor 2 knows no AMDX_QUERY_LINKS.
    if (!links && links.error() != std::errc::invalid_argument) {
        what = dev + " links";
        return Unexpected(links.error());
    }
    if (links)
        s.links = std::move(*links);
    auto fw = device->firmware();
    if (!fw && fw.error() != std::errc::invalid_argument &&
        fw.error() != std::errc::operation_not_supported) {
        what = dev + " firmware";
        return Unexpected(fw.error());
    }
    if (fw)
        s.firmware = std::move(*fw);
    return s;
}

} // namespace

Result<std::vector<TargetRecovery>> read_recovery(const Device& device, const Partitions& parts,
                                                  const Vfs& vfs, std::string& what) {
    std::vector<TargetRecovery> out;
    auto one = [&](RecoveryTarget t) -> Result<void> {
        TargetRecovery r{t.partition, t.vf};
        auto plan = device.recovery_plan(t);
        // A partition or VF the kernel no longer has went away since the
        // listing (a switch, VFs disabled): left out, as a removed device.
        if (!plan && plan.error() == std::errc::invalid_argument && (t.partition || t.vf))
            return {};
        if (plan) {
            r.action = plan->action;
            r.state = plan->state;
            r.fault = plan->fault;
            r.seq = plan->seq;
            r.est_ms = plan->est_ms;
        } else if (plan.error() != std::errc::no_such_file_or_directory) {
            return Unexpected(plan.error()); // ENOENT: nothing pending
        }
        out.push_back(r);
        return {};
    };
    if (auto dev = one({}); !dev) {
        if (dev.error() == std::errc::inappropriate_io_control_operation)
            return out; // a module before uapi minor 1: no recovery state
        what = "recovery state";
        return Unexpected(dev.error());
    }
    for (const auto& p : parts.partitions) {
        if (auto r = one({.partition = p.id, .vf = std::nullopt}); !r) {
            what = "partition " + std::to_string(p.id) + " recovery state";
            return Unexpected(r.error());
        }
    }
    for (const auto& v : vfs.vfs) {
        if (auto r = one({.partition = std::nullopt, .vf = v.vf}); !r) {
            what = "VF " + std::to_string(v.vf) + " recovery state";
            return Unexpected(r.error());
        }
    }
    return out;
}

Verdict recovery_verdict(const TargetRecovery& r) {
    if (r.state == RecoveryState::failed || r.action >= RecoveryAction::queue)
        return Verdict::unhealthy;
    return r.action == RecoveryAction::none ? Verdict::healthy : Verdict::degraded;
}

Result<std::vector<Snapshot>> collect(const Control& control, std::string& what) {
    auto entries = control.devices();
    if (!entries) {
        what = "device list";
        return Unexpected(entries.error());
    }
    std::vector<Snapshot> out;
    out.reserve(entries->size());
    for (const auto& e : *entries) {
        auto snap = read_device(control, e.id, what);
        if (!snap && gone(snap.error()))
            continue; // removed since the listing
        if (!snap)
            return Unexpected(snap.error());
        out.push_back(std::move(*snap));
    }
    return out;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string host_name() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof(buf) - 1) != 0)
        return "unknown";
    return buf;
}

} // namespace amdx::cli
