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
    return s;
}

} // namespace

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
