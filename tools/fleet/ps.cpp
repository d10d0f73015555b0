// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx ps` (ps.hpp, Documentation/admin-guide/cli.rst "Processes").
#include "ps.hpp"

#include <algorithm>

#include "commands.hpp"

namespace amdx::cli {

DeviceHolders device_holders(const Device& device, const DeviceInfo& info) {
    DeviceHolders out;
    const auto other =
        std::find_if(info.supported_memory_modes.begin(), info.supported_memory_modes.end(),
                     [&info](MemoryMode m) { return m != info.memory_mode; });
    if (other == info.supported_memory_modes.end()) {
        out.why = "one memory mode: the kernel lists holders only for a memory-mode change";
        return out;
    }
    PartitionRequest req;
    req.memory = *other;
    req.max_holders = 256;
    auto plan = device.partition_plan(req);
    if (!plan) {
        out.why = "partition plan: " + plan.context().message();
        return out;
    }
    // Refused before the holders were counted (VFs enabled, a partition
    // not online): the count says nothing.
    if (plan->reason != PartitionReason::none && plan->reason != PartitionReason::busy) {
        out.why = "partition plan refused before counting holders: " +
                  std::string(to_string(plan->reason));
        return out;
    }
    out.report = std::move(*plan);
    return out;
}

Json holders_to_json(const DeviceInfo& info, const Partitions& parts,
                     const PartitionReport& report) {
    Json rows = Json::array();
    for (const auto& h : report.holders) {
        Json compute = Json::array();
        for (const auto& p : parts.partitions)
            if (p.mem_partition == h.mem_partition)
                compute.push_back(p.id);
        const bool hidden = h.pid == 0;
        rows.push_back(Json{{"device", info.id},
                            {"bdf", info.bdf},
                            {"pid", hidden ? Json(nullptr) : Json(h.pid)},
                            {"comm", hidden ? Json(nullptr) : Json(h.comm)},
                            {"mem_partition", h.mem_partition},
                            {"partitions", std::move(compute)},
                            {"pages", h.pages}});
    }
    return rows;
}

PsCommand::PsCommand(CLI::App& app)
    : cmd_(app.add_subcommand("ps", "Processes with data on each device, by memory and compute "
                                    "partition (others' pids need CAP_SYS_ADMIN)")) {
    cmd_->fallthrough();
    add_dev_option(cmd_, dev_, true);
}

int PsCommand::run(const Options& opts, std::ostream& out, std::ostream& err) const {
    int code = kExitOk;
    const auto sel = select_devices(opts, dev_, true, err, code);
    if (!sel)
        return code;
    Json processes = Json::array();
    Json unknown = Json::array();
    for (const auto& entry : sel->entries) {
        auto device = open_device(sel->control, entry, err);
        if (!device)
            return kExitError;
        auto info = device->info();
        auto parts = info ? device->partitions() : Result<Partitions>(Unexpected(info.error()));
        if (!parts) {
            fail(err, what_on("ps", entry) + ": " + parts.context().message(), parts.error());
            return kExitError;
        }
        const DeviceHolders h = device_holders(*device, *info);
        if (!h.report) {
            unknown.push_back(Json{{"device", info->id}, {"bdf", info->bdf}, {"why", h.why}});
            continue;
        }
        for (auto& row : holders_to_json(*info, *parts, *h.report))
            processes.push_back(std::move(row));
        if (h.report->num_holders > h.report->holders.size())
            unknown.push_back(
                Json{{"device", info->id},
                     {"bdf", info->bdf},
                     {"why", std::to_string(h.report->num_holders - h.report->holders.size()) +
                                 " more holders than the kernel returns at once"}});
    }
    render(out, Json{{"processes", std::move(processes)}, {"unknown", std::move(unknown)}}, opts);
    return kExitOk;
}

} // namespace amdx::cli
