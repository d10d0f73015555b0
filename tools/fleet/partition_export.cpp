// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx partition export [DEV] --format dra|slurm`: what a scheduler needs
// to place work on partitions (Documentation/admin-guide/scheduling.rst).
//
// dra: the ResourceSlices a Kubernetes DRA driver would publish for
// partitionable devices (KEP-4815, resource.k8s.io/v1 as in Kubernetes
// 1.36).  Per device one pool of two slices: one holding the device's
// counter set (one counter per XCC, value 1, and one per memory (NPS)
// domain of the current memory mode, value its bytes), one holding a device
// entry per partition of every compute profile the kernel accepts in that
// memory mode, each consuming its XCCs and its share of its memory domain.
// Allocating any partitions whose counters fit is a placement the hardware
// can take; the numbers come from the kernel's own plan (the what-if of
// AMDX_IOC_PARTITION_PLAN), never from a second model here.
//
// slurm: gres.conf lines, one per current partition (Debian's Slurm has no
// gpu_rsmi plugin, so AutoDetect cannot find them).
#include <algorithm>

#include "commands.hpp"
#include "fleet.hpp"

namespace amdx::cli {

namespace {

bool model_refusal(PartitionReason r) {
    switch (r) {
    case PartitionReason::bad_model:
    case PartitionReason::compute_unsupported:
    case PartitionReason::memory_unsupported:
    case PartitionReason::incompatible:
    case PartitionReason::xcc_not_divisible:
    case PartitionReason::vf_unsupported:
        return true;
    default:
        return false;
    }
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

Json quantity(std::uint64_t v) {
    return Json{{"value", std::to_string(v)}};
}

std::string counter_set_name(const DeviceInfo& info) {
    return "amdx" + std::to_string(info.id);
}

/// Bytes of @p's memory domain each partition sharing it may consume.
std::uint64_t memory_share(const PartitionInfo& p, const std::vector<PartitionInfo>& topo) {
    const auto sharers = std::count_if(topo.begin(), topo.end(), [&p](const PartitionInfo& q) {
        return q.mem_partition == p.mem_partition;
    });
    return p.vram_size / static_cast<std::uint64_t>(sharers > 0 ? sharers : 1);
}

} // namespace

Result<std::vector<Profile>> profiles(const Device& device, const DeviceInfo& info) {
    std::vector<Profile> out;
    auto current = device.partitions();
    if (!current)
        return Unexpected(current.error());
    for (const auto mode : info.supported_compute_modes) {
        Profile p{mode, current->memory_mode, {}};
        if (mode == current->compute_mode) {
            p.topology = current->partitions;
        } else {
            PartitionRequest req;
            req.compute = mode;
            req.memory = current->memory_mode;
            req.max_holders = 0;
            auto plan = device.partition_plan(req);
            if (!plan)
                return Unexpected(plan.error());
            if (model_refusal(plan->reason) || plan->topology.empty())
                continue;
            p.topology = std::move(plan->topology);
        }
        out.push_back(std::move(p));
    }
    return out;
}

Json dra_slice(const DeviceInfo& info, const std::vector<Profile>& profs, const std::string& node,
               const std::string& driver) {
    const std::string set = counter_set_name(info);
    Json counters = Json::object();
    for (std::uint32_t x = 0; x < info.num_xcc; ++x)
        counters["xcc" + std::to_string(x)] = quantity(1);
    for (const auto& mp : info.memory_partitions)
        counters["mem" + std::to_string(mp.index)] = quantity(mp.size);

    Json devices = Json::array();
    for (const auto& prof : profs) {
        const std::string prefix =
            lower(to_string(prof.compute)) + "-" + lower(to_string(prof.memory));
        for (const auto& p : prof.topology) {
            Json consumed = Json::object();
            for (std::uint32_t x = 0; x < 32; ++x)
                if ((p.xcc_mask & (1U << x)) != 0u)
                    consumed["xcc" + std::to_string(x)] = quantity(1);
            const std::uint64_t share = memory_share(p, prof.topology);
            consumed["mem" + std::to_string(p.mem_partition)] = quantity(share);
            devices.push_back(Json{
                {"name", prefix + "-p" + std::to_string(p.id)},
                {"attributes",
                 Json{{"model", Json{{"string", std::string(to_string(info.model))}}},
                      {"productName", Json{{"string", info.product}}},
                      {"serialNumber", Json{{"string", info.serial}}},
                      {"pciBusID", Json{{"string", info.bdf}}},
                      {"computeMode", Json{{"string", std::string(to_string(prof.compute))}}},
                      {"memoryMode", Json{{"string", std::string(to_string(prof.memory))}}},
                      {"partition", Json{{"int", p.id}}},
                      {"memoryPartition", Json{{"int", p.mem_partition}}}}},
                {"capacity", Json{{"memory", quantity(share)},
                                  {"xccs", quantity(static_cast<std::uint64_t>(
                                               __builtin_popcount(p.xcc_mask)))}}},
                {"consumesCounters",
                 Json::array({Json{{"counterSet", set}, {"counters", std::move(consumed)}}})}});
        }
    }
    const std::string pool = node + "-" + set;
    auto slice = [&](const std::string& suffix, const char* key, Json body) {
        return Json{
            {"apiVersion", "resource.k8s.io/v1"},
            {"kind", "ResourceSlice"},
            {"metadata", Json{{"name", pool + "-" + suffix}}},
            {"spec",
             Json{{"driver", driver},
                  {"nodeName", node},
                  {"pool", Json{{"name", pool}, {"generation", 0}, {"resourceSliceCount", 2}}},
                  {key, std::move(body)}}}};
    };
    return Json::array(
        {slice("counters", "sharedCounters",
               Json::array({Json{{"name", set}, {"counters", std::move(counters)}}})),
         slice("devices", "devices", std::move(devices))});
}

std::string slurm_gres(const DeviceInfo& info, const Partitions& parts, const std::string& node) {
    const std::string type = lower(to_string(info.model)) + "_" +
                             lower(to_string(parts.compute_mode)) + "_" +
                             lower(to_string(parts.memory_mode));
    std::string out = "# amdx" + std::to_string(info.id) + " " + info.bdf + " serial " +
                      info.serial + ": " + std::to_string(parts.partitions.size()) + " " +
                      std::string(to_string(parts.compute_mode)) + "/" +
                      std::string(to_string(parts.memory_mode)) + " partitions\n";
    for (const auto& p : parts.partitions) {
        out += "NodeName=";
        out += node;
        out += " Name=gpu Type=";
        out += type;
        out += " Count=1 Flags=amd_gpu_env";
        out += " # partition " + std::to_string(p.id) + ": " +
               std::to_string(__builtin_popcount(p.xcc_mask)) + " XCC, " +
               std::to_string(memory_share(p, parts.partitions) >> 20) +
               " MiB of memory partition " + std::to_string(p.mem_partition) + "\n";
    }
    return out;
}

int FleetCommands::partition_export(const Options& opts, std::ostream& out,
                                    std::ostream& err) const {
    int code = kExitOk;
    const auto sel = select_devices(opts, export_dev_, true, err, code);
    if (!sel)
        return code;
    const std::string node = node_.empty() ? host_name() : node_;
    Json items = Json::array();
    std::string gres;
    for (const auto& e : sel->entries) {
        const auto device = open_device(sel->control, e, err);
        if (!device)
            return kExitError;
        const auto info = device->info();
        if (!info) {
            fail(err, device_error(what_on("partition export", e) + " info", info.error()));
            return kExitError;
        }
        if (format_ == "slurm") {
            const auto parts = device->partitions();
            if (!parts) {
                fail(err,
                     device_error(what_on("partition export", e) + " partitions", parts.error()));
                return kExitError;
            }
            gres += slurm_gres(*info, *parts, node);
            continue;
        }
        const auto profs = profiles(*device, *info);
        if (!profs) {
            fail(err, device_error(what_on("partition export", e) + " plan", profs.error()));
            return kExitError;
        }
        for (auto& s : dra_slice(*info, *profs, node, driver_))
            items.push_back(std::move(s));
    }
    if (format_ == "slurm") {
        out << gres;
        return kExitOk;
    }
    const Json doc{{"apiVersion", "v1"}, {"kind", "List"}, {"items", std::move(items)}};
    out << (opts.format == Format::text ? doc.dump(2)
                                        : doc.dump(opts.format == Format::json_pretty ? 2 : -1))
        << '\n';
    return kExitOk;
}

} // namespace amdx::cli
