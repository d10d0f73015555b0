// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The JSON of partitions and VFs (json.hpp): `partition show`, the
// reports of `partition plan`/`set`, `vf show` and `vf reset`.
#include <climits>
#include <unistd.h>

#include "json.hpp"

namespace amdx::cli {

namespace {

Json holder_to_json(const PartitionHolder& h) {
    return Json{
        {"pid", h.pid}, {"comm", h.comm}, {"mem_partition", h.mem_partition}, {"pages", h.pages}};
}

Json step_to_json(const PartitionStepResult& s) {
    return Json{{"step", to_string(s.step)},
                {"result", errno_result(s.error)},
                {"duration_ns", s.duration_ns}};
}

} // namespace

Json bit_list(std::uint64_t mask) {
    Json out = Json::array();
    for (unsigned bit = 0; bit < 64; ++bit)
        if ((mask & (std::uint64_t{1} << bit)) != 0)
            out.push_back(bit);
    return out;
}

Json partition_to_json(const PartitionInfo& p) {
    return Json{{"id", p.id},
                {"state", to_string(p.state)},
                {"xccs", bit_list(p.xcc_mask)},
                {"sdma", bit_list(p.sdma_mask)},
                {"vcn", bit_list(p.vcn_mask)},
                {"mem_partition", p.mem_partition},
                {"vram_base", p.vram_base},
                {"vram_size", p.vram_size},
                {"vf", p.vf == kVfNone ? Json(nullptr) : Json(p.vf)},
                {"resets", p.resets}};
}

Json partitions_to_json(const DeviceEntry& dev, const Partitions& parts) {
    Json list = Json::array();
    for (const auto& p : parts.partitions)
        list.push_back(partition_to_json(p));
    return Json{{"device", dev.id},
                {"bdf", dev.bdf},
                {"compute_mode", to_string(parts.compute_mode)},
                {"memory_mode", to_string(parts.memory_mode)},
                {"generation", parts.generation},
                {"partitions", std::move(list)}};
}

Json partition_report_to_json(std::uint32_t device, const Partitions& before,
                              const PartitionRequest& req, const PartitionReport& report,
                              bool commit) {
    Json doc{{"device", device},
             {"from", Json{{"compute_mode", to_string(before.compute_mode)},
                           {"memory_mode", to_string(before.memory_mode)}}},
             {"to", Json{{"compute_mode", to_string(req.compute.value_or(before.compute_mode))},
                         {"memory_mode", to_string(req.memory.value_or(before.memory_mode))}}},
             {"result", report.error ? errno_result(-report.error.value()) : "ok"},
             {"reason", to_string(report.reason)},
             {"reason_text", reason_text(report.reason)}};
    if (commit) {
        Json steps = Json::array();
        for (const auto& s : report.steps)
            steps.push_back(step_to_json(s));
        doc["outcome"] = to_string(report.outcome);
        doc["failed_step"] = to_string(report.failed_step);
        doc["total_ns"] = report.total_ns;
        doc["steps"] = std::move(steps);
    } else {
        doc["allowed"] = report.allowed;
    }
    Json parts = Json::array();
    for (const auto& p : report.topology)
        parts.push_back(partition_to_json(p));
    Json holders = Json::array();
    for (const auto& h : report.holders)
        holders.push_back(holder_to_json(h));
    doc["num_partitions"] = report.num_partitions;
    doc["partitions"] = std::move(parts);
    doc["num_holders"] = report.num_holders;
    doc["holders"] = std::move(holders);
    return doc;
}

Json partition_change_json(std::uint32_t device, const Partitions& before,
                           const PartitionRequest& req, const PartitionReport& report, bool commit,
                           const std::vector<std::uint32_t>& resets) {
    Json doc = partition_report_to_json(device, before, req, report, commit);
    if (!commit) {
        Json ids = Json::array();
        for (const auto id : resets)
            ids.push_back(id);
        doc["reset_devices"] = std::move(ids);
    }
    return doc;
}

Result<std::vector<std::uint32_t>> partition_resets(const Device& device, const Partitions& before,
                                                    const PartitionRequest& req) {
    if (!req.memory || *req.memory == before.memory_mode)
        return std::vector<std::uint32_t>{};
    auto scope = device.reset_scope();
    if (!scope)
        return Unexpected(scope.context());
    return std::move(scope->devices);
}

Result<Json> partition_show_json(const Device& d, const DeviceEntry& e) {
    const auto p = d.partitions();
    if (!p)
        return Unexpected(p.context());
    Json doc = partitions_to_json(e, *p);
    for (auto& part : doc["partitions"])
        part["recovery"] =
            recovery_json(d, {.partition = part["id"].get<std::uint32_t>(), .vf = std::nullopt});
    return doc;
}

std::optional<std::string> vf_pci_address(const std::string& sysfs, const std::string& pf,
                                          std::uint32_t vf) {
    const std::string link = sysfs + "/bus/pci/devices/" + pf + "/virtfn" + std::to_string(vf);
    char target[PATH_MAX];
    const ssize_t n = ::readlink(link.c_str(), target, sizeof(target) - 1);
    if (n <= 0)
        return std::nullopt;
    const std::string_view t(target, static_cast<std::size_t>(n));
    const auto slash = t.rfind('/');
    return std::string(slash == std::string_view::npos ? t : t.substr(slash + 1));
}

Json vf_to_json(const VfInfo& vf, const std::optional<std::string>& bdf) {
    return Json{{"vf", vf.vf},
                {"bdf", bdf ? Json(*bdf) : Json(nullptr)},
                {"state", to_string(vf.state)},
                {"partitions", bit_list(vf.config.partition_mask)},
                {"vram_quota", vf.config.vram_quota},
                {"time_slice_us", vf.config.time_slice_us},
                {"priority", to_string(vf.config.priority)},
                {"evict", (vf.config.flags & AMDX_VF_F_EVICT) != 0},
                {"vram_used", vf.vram_used},
                {"resets", vf.resets},
                {"resets_in_window", vf.resets_in_window}};
}

Json vfs_to_json(const DeviceEntry& dev, const Vfs& vfs, const std::string& sysfs) {
    Json list = Json::array();
    for (const auto& v : vfs.vfs)
        list.push_back(vf_to_json(v, vf_pci_address(sysfs, dev.bdf, v.vf)));
    return Json{{"device", dev.id}, {"bdf", dev.bdf}, {"max_vfs", vfs.max_vfs}, {"vfs", list}};
}

Result<Json> vf_show_json(const Device& d, const DeviceEntry& e, const std::string& sysfs) {
    const auto v = d.vfs();
    if (!v)
        return Unexpected(v.context());
    Json doc = vfs_to_json(e, *v, sysfs);
    for (auto& vf : doc["vfs"])
        vf["recovery"] =
            recovery_json(d, {.partition = std::nullopt, .vf = vf["vf"].get<std::uint32_t>()});
    return doc;
}

Json vf_reset_json(std::uint32_t device, std::uint32_t vf, const VfResetResult& r) {
    return Json{{"device", device},
                {"vf", vf},
                {"result", to_string(r.result)},
                {"state", to_string(r.state)},
                {"duration_ns", r.duration_ns},
                {"resets_in_window", r.resets_in_window},
                {"vram_cleared", r.vram_cleared}};
}

} // namespace amdx::cli
