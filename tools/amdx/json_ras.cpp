// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The JSON of RAS and recovery (json.hpp): `ras show`, `ras badpages`,
// `recover plan`/`run` and the `recovery` column of the views.
#include <algorithm>
#include <array>

#include "json.hpp"

namespace amdx::cli {

namespace {

/// The counters of one row by type name; null where unsupported ("n/a").
Json counts_to_json(const RasCounters& c) {
    Json out = Json::object();
    for (std::uint32_t t = 0; t < AMDX_RAS_TYPE_COUNT; ++t) {
        const auto& v = c.count[t];
        out[std::string(to_string(static_cast<RasType>(t)))] = v ? Json(*v) : Json(nullptr);
    }
    return out;
}

Json type_names(std::uint32_t mask) {
    Json out = Json::array();
    for (std::uint32_t t = 0; t < AMDX_RAS_TYPE_COUNT; ++t)
        if ((mask & (1U << t)) != 0)
            out.push_back(to_string(static_cast<RasType>(t)));
    return out;
}

Json ids_json(const std::vector<std::uint32_t>& ids) {
    Json out = Json::array();
    for (const auto id : ids)
        out.push_back(id);
    return out;
}

/// The figure the estimate comes from (ras.rst, "Estimates").
std::string estimate_source(RecoveryAction a) {
    switch (a) {
    case RecoveryAction::process:
        return "none: the caller restarts the process";
    case RecoveryAction::node:
        return "amdx: a node reboot";
    case RecoveryAction::rma:
        return "never: the board is out until replaced";
    default:
        return "the device's reset timings (its provider's, else amdx's defaults)";
    }
}

} // namespace

Json ras_to_json(const DeviceEntry& dev, const RasStatus& status, const ResetScope& scope) {
    Json blocks = Json::array();
    for (const auto& row : status.counters) {
        if (row.partition == kRasPartitionAll) {
            blocks.push_back(Json{{"block", to_string(row.block)},
                                  {"instances", row.instances},
                                  {"supported", type_names(row.supported)},
                                  {"total", counts_to_json(row)},
                                  {"partitions", Json::array()}});
            continue;
        }
        Json part{{"partition", row.partition}};
        part.update(counts_to_json(row));
        if (blocks.empty() || blocks.back()["block"] != to_string(row.block)) // no total row
            blocks.push_back(Json{{"block", to_string(row.block)},
                                  {"instances", row.instances},
                                  {"supported", type_names(row.supported)},
                                  {"total", nullptr},
                                  {"partitions", Json::array()}});
        blocks.back()["partitions"].push_back(std::move(part));
    }
    Json reset = Json::array();
    for (const auto id : scope.devices)
        reset.push_back(id);
    return Json{{"device", dev.id},
                {"bdf", dev.bdf},
                {"rma", status.rma},
                {"retired_pages", status.retired_pages},
                {"pending_pages", status.pending_pages},
                {"reset_scope",
                 Json{{"hive_id", std::to_string(scope.hive_id)}, {"devices", std::move(reset)}}},
                {"blocks", std::move(blocks)}};
}

Json badpage_to_json(const BadPage& page) {
    return Json{{"address", page.address},
                {"partition", page.partition},
                {"cause", to_string(page.cause)},
                {"time", page.time},
                {"flags", page.flags}};
}

Result<Json> ras_show_json(const Device& device, const DeviceEntry& e) {
    const auto status = device.ras_status();
    if (!status)
        return Unexpected(status.context());
    const auto scope = device.reset_scope();
    if (!scope)
        return Unexpected(scope.context());
    return ras_to_json(e, *status, *scope);
}

Json recovery_json(const Device& device, const RecoveryTarget& target) {
    const auto plan = device.recovery_plan(target);
    return plan ? Json(to_string(plan->action)) : Json(nullptr);
}

Json recovery_plan_json(std::uint32_t device, const RecoveryTarget& target, const RecoveryPlan& p) {
    Json scope = Json::array(); // one row per device touched: partitions and VFs
    std::vector<std::uint32_t> touched = p.devices;
    for (const auto& [id, bits] : p.partitions)
        touched.push_back(id);
    for (const auto& [id, bits] : p.vfs)
        touched.push_back(id);
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (const auto id : touched) {
        std::uint8_t parts = 0;
        std::uint8_t vfs = 0;
        for (const auto& [i, bits] : p.partitions)
            parts = i == id ? bits : parts;
        for (const auto& [i, bits] : p.vfs)
            vfs = i == id ? bits : vfs;
        scope.push_back(
            Json{{"device", id},
                 {"reset", std::find(p.devices.begin(), p.devices.end(), id) != p.devices.end()
                               ? "device"
                               : "partitions"},
                 {"partitions", bit_list(parts)},
                 {"vfs", bit_list(vfs)}});
    }
    Json procs = Json::array();
    for (const auto& pr : p.processes)
        procs.push_back(Json{{"pid", pr.pid == 0 ? Json(nullptr) : Json(pr.pid)},
                             {"comm", pr.comm},
                             {"device", pr.device},
                             {"mem_partition", pr.mem_partition},
                             {"pages", pr.pages}});
    const bool never = p.est_ms == 0xffffffffU;
    return Json{{"device", device},
                {"partition", target.partition ? Json(*target.partition) : Json(nullptr)},
                {"vf", target.vf ? Json(*target.vf) : Json(nullptr)},
                {"action", to_string(p.action)},
                {"state", to_string(p.state)},
                {"fault",
                 p.seq != 0 ? Json(to_string(static_cast<RecoveryFault>(p.fault))) : Json(nullptr)},
                {"seq", p.seq},
                {"num_devices", p.devices.size()},
                {"num_partitions", p.num_partitions},
                {"num_vfs", p.num_vfs},
                {"num_processes", p.num_processes},
                {"estimate_ms", never ? Json(nullptr) : Json(p.est_ms)},
                {"estimate_source", estimate_source(p.action)},
                {"reset_devices", ids_json(p.devices)},
                {"drain_peers", ids_json(p.peers)},
                {"scope", std::move(scope)},
                {"processes", std::move(procs)}};
}

Result<RecoveryRun> recovery_run_recorded(const Device& device, const RecoveryTarget& target,
                                          std::optional<RecoveryAction> action,
                                          RecoveryRunFlags flags) {
    // Every step the kernel records is a RECOVERY event: subscribe first.
    const auto events = device.subscribe(event_mask(EventKind::recovery));
    auto ran = device.recovery_run(target, action, flags);
    if (!ran)
        return Unexpected(ran.context());
    RecoveryRun run{.result = std::move(*ran), .steps = {}};
    while (events) {
        const auto n = events->read(run.steps);
        if (!n || *n == 0)
            break;
    }
    return run;
}

Json recovery_run_json(Json plan, const RecoveryRun& run) {
    Json steps = Json::array();
    for (const auto& ev : run.steps)
        steps.push_back(Json{
            {"seq", ev.seq},
            {"step", to_string(static_cast<RecoveryStep>(ev.type))},
            {"partition", ev.partition == kRasPartitionAll ? Json(nullptr) : Json(ev.partition)},
            {"vf", ev.instance == kVfNone ? Json(nullptr) : Json(ev.instance)},
            {"action", to_string(static_cast<RecoveryAction>(ev.data[0] & 0xffU))},
            {"result", ev.type == AMDX_RECOVERY_EV_STOPPED
                           ? std::to_string(ev.data[1]) + " stopped"
                           : errno_result(std::min<std::int64_t>(
                                 static_cast<std::int64_t>(ev.data[1]), 0))}});
    const RecoveryPlan& ran = run.result;
    plan["outcome"] = to_string(ran.outcome);
    plan["result"] = ran.error ? errno_result(-ran.error.value()) : "ok";
    plan["pending_after"] =
        to_string(ran.state == RecoveryState::none ? RecoveryAction::none : ran.action);
    plan["steps"] = std::move(steps);
    return plan;
}

} // namespace amdx::cli
