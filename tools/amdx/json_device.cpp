// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The JSON of a device (json.hpp): `dev list`, `dev show`, `dev firmware`
// and the node's GPUs as ROCr and amd-smi count them.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>

#include <amdx/identity.hpp>

#include "json.hpp"

namespace amdx::cli {

namespace {

template <class Enum>
Json names(const std::vector<Enum>& modes) {
    Json out = Json::array();
    for (const Enum mode : modes)
        out.push_back(to_string(mode));
    return out;
}

/// "identity" of `dev show`: DRM and KFD nodes (libamdx identify()).
Json identity_to_json(const std::string& bdf) {
    const auto id = identify(bdf);
    if (!id)
        return Json{{"drm_card", nullptr},
                    {"drm_render", nullptr},
                    {"kfd_nodes", Json::array()},
                    {"note", id.context().message()}};
    Json kfd = Json::array();
    for (const auto& n : id->kfd_nodes)
        kfd.push_back(Json{{"node", n.node}, {"gpu_id", n.gpu_id}, {"partition", n.partition}});
    return Json{{"drm_card", id->drm_card ? Json(*id->drm_card) : Json(nullptr)},
                {"drm_render", id->drm_render ? Json(*id->drm_render) : Json(nullptr)},
                {"kfd_nodes", std::move(kfd)},
                {"note", id->note}};
}

/// unique_id of KFD node @node's properties ("unique_id N", decimal, as
/// kfd_topology.c prints it); nullopt if absent or 0 (no ID from the SMU).
std::optional<std::uint64_t> kfd_unique_id(const std::string& topology, std::uint32_t node) {
    std::ifstream in(topology + "/" + std::to_string(node) + "/properties");
    std::string name;
    std::string value;
    while (in >> name >> value) {
        if (name != "unique_id")
            continue;
        std::uint64_t v = 0;
        const auto* end = value.data() + value.size();
        const auto [ptr, ec] = std::from_chars(value.data(), end, v);
        if (ec == std::errc() && ptr == end && v != 0)
            return v;
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace

Json entry_to_json(const DeviceEntry& entry) {
    return Json{{"device", entry.id}, {"bdf", entry.bdf}, {"model", to_string(entry.model)}};
}

Json info_to_json(const DeviceInfo& info) {
    Json partitions = Json::array();
    for (const auto& p : info.memory_partitions)
        partitions.push_back(
            Json{{"index", p.index}, {"base", p.base}, {"size", p.size}, {"free", p.free}});
    return Json{
        {"device", info.id},
        {"bdf", info.bdf},
        {"model", to_string(info.model)},
        {"product", info.product},
        {"serial", info.serial},
        {"hive_id", std::to_string(info.hive_id)}, // beyond 2^53: a string
        {"num_xcc", info.num_xcc},
        {"num_sdma", info.num_sdma},
        {"num_vcn", info.num_vcn},
        {"compute_mode", to_string(info.compute_mode)},
        {"memory_mode", to_string(info.memory_mode)},
        {"supported_compute_modes", names(info.supported_compute_modes)},
        {"supported_memory_modes", names(info.supported_memory_modes)},
        {"vram", Json{{"size", info.vram_size}, {"free", info.vram_free}}},
        {"memory_partitions", std::move(partitions)},
        {"vfs", Json{{"enabled", info.num_vfs}, {"max", info.max_vfs}}},
        {"hmm", info.hmm},
    };
}

Json driver_to_json(const FirmwareInfo& fw) {
    return Json{{"amdx", fw.driver_version},
                {"provider", fw.provider},
                {"provider_version", fw.provider_version}};
}

Json firmware_to_json(const FirmwareInfo& fw) {
    Json rows = Json::array();
    for (const auto& f : fw.firmware)
        rows.push_back(Json{{"name", to_string(f.id)},
                            {"instance", f.instance},
                            {"fw_version", f.version},
                            {"feature", f.feature}});
    return rows;
}

Json dev_show_json(const DeviceInfo& info, const Device* device, Json gpus) {
    Json one = info_to_json(info);
    one["identity"] = identity_to_json(info.bdf);
    one["recovery"] = device != nullptr ? recovery_json(*device, {}) : Json(nullptr);
    // Versions where the provider knows them (uapi minor 4), else null.
    const auto fw = device != nullptr ? device->firmware()
                                      : Result<FirmwareInfo>(Unexpected(std::errc::no_such_device));
    one["driver"] = fw ? driver_to_json(*fw) : Json(nullptr);
    one["firmware"] = fw ? firmware_to_json(*fw) : Json(nullptr);
    one["gpus"] = std::move(gpus);
    return one;
}

Json firmware_show_json(const DeviceEntry& e, const FirmwareInfo& fw) {
    return Json{{"device", e.id},
                {"bdf", e.bdf},
                {"driver", driver_to_json(fw)},
                {"firmware", firmware_to_json(fw)}};
}

std::string rocr_uuid(std::uint64_t unique_id) {
    char buf[24];
    std::snprintf(buf, sizeof(buf), "GPU-%016llx", static_cast<unsigned long long>(unique_id));
    return buf;
}

Result<std::vector<GpuSlot>> gpu_table(const Control& control,
                                       const std::vector<DeviceEntry>& entries,
                                       const std::string& sysfs, std::string& what) {
    const std::string topology = sysfs + "/class/kfd/kfd/topology/nodes";
    struct Node {
        std::uint32_t node;
        GpuSlot slot;
    };
    std::vector<Node> nodes;
    for (const auto& e : entries) {
        const auto kfd = kfd_nodes(e.bdf, topology);
        if (!kfd)
            continue; // a malformed bdf: not a GPU ROCr sees
        for (const auto& n : *kfd)
            nodes.push_back({n.node, GpuSlot{.index = 0,
                                             .device = e.id,
                                             .partition = n.partition,
                                             .unique_id = kfd_unique_id(topology, n.node)}});
    }
    std::vector<GpuSlot> out;
    if (!nodes.empty()) {
        std::sort(nodes.begin(), nodes.end(),
                  [](const Node& a, const Node& b) { return a.node < b.node; });
        for (auto& n : nodes) {
            n.slot.index = static_cast<std::uint32_t>(out.size());
            out.push_back(n.slot);
        }
        return out;
    }
    for (const auto& e : entries) {
        auto device = Device::open(control, e.id);
        auto parts = device ? device->partitions() : Result<Partitions>(Unexpected(device.error()));
        if (!parts && parts.error() == std::errc::no_such_device)
            continue; // removed since the listing
        if (!parts) {
            what = "device " + std::to_string(e.id) + " partitions";
            return Unexpected(parts.error());
        }
        for (const auto& p : parts->partitions)
            out.push_back(GpuSlot{.index = static_cast<std::uint32_t>(out.size()),
                                  .device = e.id,
                                  .partition = p.id,
                                  .unique_id = std::nullopt});
    }
    return out;
}

Json gpus_to_json(const std::vector<GpuSlot>& gpus, std::uint32_t id) {
    Json out = Json::array();
    for (const auto& g : gpus)
        if (g.device == id)
            out.push_back(
                Json{{"index", g.index},
                     {"partition", g.partition},
                     {"uuid", g.unique_id ? Json(rocr_uuid(*g.unique_id)) : Json(nullptr)}});
    return out;
}

} // namespace amdx::cli
