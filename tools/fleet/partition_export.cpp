// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx partition export [DEV] --format dra|slurm`: what a scheduler needs
// to place work on partitions (Documentation/admin-guide/scheduling.rst).
//
// dra: the ResourceSlices a Kubernetes DRA driver would publish for
// partitionable devices (KEP-4815, resource.k8s.io/v1 as in Kubernetes
// 1.36).  Per device one pool of two slices: one holding the device's
// counter sets, one holding a device entry per partition of every compute
// profile the kernel accepts in the current memory mode, and one per
// enabled VF.  The counters:
//
// - one per XCC, value 1, and one per memory (NPS) domain of the current
//   memory mode, value its bytes: a partition consumes its XCCs and its
//   share of its memory domain;
// - the mode mutex (set "...-modes"): a device runs one compute mode, but
//   XCC counters alone admit partitions of two modes on disjoint XCCs
//   (DPX p0 on XCCs 0-3 with CPX p4..p7).  Partition P gets a counter of
//   value N, the number of partitions of other modes whose XCCs are
//   disjoint from P's, plus 0; P consumes N and each of those others 1:
//   P with any of them exceeds N, and they fit with each other as far as
//   this counter goes.  Every partition of every mode but the one with the
//   most partitions gets one, which covers every pair of modes.
//
// So a set of partitions fits the counters exactly when they are
// partitions of one compute mode, a placement the hardware can take; the
// numbers come from the kernel's own plan (the what-if of
// AMDX_IOC_PARTITION_PLAN), never from a second model here.  A VF consumes
// what the partitions it holds consume together, so it fits exactly where
// they would, and never beside one of them.  A device with VFs enabled
// keeps its compute mode until they are disabled (the kernel refuses the
// switch, AMDX_PART_REASON_VFS_ENABLED): its slices have the current
// mode's partitions and the VFs only.  Pools and counter sets are named by
// the board's serial number (the PCI address without one), not by amdx's
// cyclic device id; the pool's generation is the device's partition
// generation, which every committed change bumps.
//
// Taints (KEP-5055): an entry carries the strongest pending recovery
// action of the targets whose hardware it uses: the device, its
// partitions of the current mode, the VFs holding them (a VF's entry: the
// VF and its partitions).
//
// slurm: gres.conf lines of the current partitions, one per partition
// whose device file is known, one Count= line for those whose file is not
// (Debian's Slurm has no gpu_rsmi plugin, so AutoDetect cannot find them).
#include <algorithm>
#include <array>
#include <filesystem>
#include <map>

#include <amdx/identity.hpp>

#include "commands.hpp"
#include "fleet.hpp"
#include "json.hpp"

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

Json quantity(std::uint64_t v) {
    return Json{{"value", std::to_string(v)}};
}

bool dns_label_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

/// A DNS label naming the board: its serial number, lower case, when that
/// is one; else its PCI address with '-' for ':' and '.'.
std::string stable_key(const DeviceInfo& info) {
    std::string key = lower(info.serial);
    const bool ok = !key.empty() && key.size() <= 40 &&
                    std::all_of(key.begin(), key.end(), dns_label_char) && key.front() != '-' &&
                    key.back() != '-';
    if (ok)
        return key;
    key = lower(info.bdf);
    std::replace_if(
        key.begin(), key.end(), [](char c) { return !dns_label_char(c); }, '-');
    return key;
}

bool disjoint(const PartitionInfo& a, const PartitionInfo& b) {
    return (a.xcc_mask & b.xcc_mask) == 0U;
}

std::string device_name(const Profile& prof, const PartitionInfo& p) {
    return lower(to_string(prof.compute)) + "-" + lower(to_string(prof.memory)) + "-p" +
           std::to_string(p.id);
}

/// Bytes of @p's memory domain each partition sharing it may consume.
std::uint64_t memory_share(const PartitionInfo& p, const std::vector<PartitionInfo>& topo) {
    const auto sharers = std::count_if(topo.begin(), topo.end(), [&p](const PartitionInfo& q) {
        return q.mem_partition == p.mem_partition;
    });
    return p.vram_size / static_cast<std::uint64_t>(sharers > 0 ? sharers : 1);
}

} // namespace

std::string pcie_root(const std::string& sysfs, const std::string& bdf) {
    std::error_code ec;
    const auto path = std::filesystem::canonical(sysfs + "/bus/pci/devices/" + bdf, ec);
    if (ec)
        return {};
    const auto devices = std::filesystem::canonical(sysfs + "/devices", ec);
    if (ec)
        return {};
    const auto rel = path.lexically_relative(devices);
    if (rel.empty() || rel.begin()->string().rfind("pci", 0) != 0)
        return {};
    return rel.begin()->string();
}

std::string dns_subdomain_error(std::string_view name, std::size_t max) {
    if (name.empty())
        return "is empty";
    if (name.size() > max)
        return "is longer than " + std::to_string(max) + " characters";
    std::size_t start = 0;
    while (start <= name.size()) {
        auto end = name.find('.', start);
        if (end == std::string_view::npos)
            end = name.size();
        const auto label = name.substr(start, end - start);
        if (label.empty() || label.size() > 63)
            return "has an empty label or one longer than 63 characters";
        if (!std::all_of(label.begin(), label.end(), dns_label_char))
            return "has characters other than a-z, 0-9, '-' and '.'";
        if (label.front() == '-' || label.back() == '-')
            return "has a label that starts or ends with '-'";
        start = end + 1;
    }
    return {};
}

Result<std::vector<Profile>> profiles(const Device& device, const DeviceInfo& info) {
    std::vector<Profile> out;
    auto current = device.partitions();
    if (!current)
        return Unexpected(current.error());
    for (const auto mode : info.supported_compute_modes) {
        Profile p{
            mode, current->memory_mode, {}, current->generation, mode == current->compute_mode};
        if (p.current) {
            p.topology = current->partitions;
        } else {
            PartitionRequest req;
            req.compute = mode;
            req.memory = current->memory_mode;
            req.max_holders = 0;
            auto plan = device.partition_plan(req);
            if (!plan)
                return Unexpected(plan.error());
            // Refused by the model, or VFs enabled: not a placement
            // the device can take while they are.
            if (model_refusal(plan->reason) || plan->reason == PartitionReason::vfs_enabled ||
                plan->topology.empty())
                continue;
            p.topology = std::move(plan->topology);
        }
        out.push_back(std::move(p));
    }
    return out;
}

namespace {

/// The taint effects of recovery_taint(), weakest first (0: no taint).
constexpr std::array<const char*, 4> kEffects = {nullptr, "None", "NoSchedule", "NoExecute"};

std::size_t taint_rank(const TargetRecovery& r) {
    if (r.state == RecoveryState::failed || r.action >= RecoveryAction::node)
        return 3;
    if (r.action >= RecoveryAction::queue)
        return 2;
    return r.action == RecoveryAction::process ? 1 : 0;
}

} // namespace

Json recovery_taint(const TargetRecovery& r, const std::string& driver) {
    const std::size_t rank = taint_rank(r);
    if (rank == 0)
        return nullptr;
    return Json{{"key", driver + "/recovery"},
                {"value", std::string(to_string(r.action))},
                {"effect", kEffects[rank]}};
}

namespace {

/// The hardware one device entry of the slices uses: partitions of one
/// profile (bit N: partition N) and the VF they belong to, if any.
struct Footprint {
    const Profile* prof = nullptr;
    std::uint32_t partitions = 0;
    std::optional<std::uint32_t> vf;
};

/// Whether pending action @r takes down what @f uses: the device's own
/// action everything; a partition's or a VF's, the entries of the current
/// mode that use that partition or VF (another mode's entries need a
/// switch first, which resets the device anyway).
bool takes_down(const TargetRecovery& r, const Footprint& f) {
    if (!r.partition && !r.vf)
        return true;
    if (!f.prof->current)
        return false;
    if (r.partition)
        return *r.partition < 32 && (f.partitions & (1U << *r.partition)) != 0U;
    return f.vf == r.vf;
}

/// Counter name -> value, per counter set.
using Consumption = std::map<std::string, std::map<std::string, std::uint64_t>>;

Json consumption_json(const Consumption& c) {
    Json out = Json::array();
    for (const auto& [set, counters] : c) {
        Json cs = Json::object();
        for (const auto& [name, v] : counters)
            cs[name] = quantity(v);
        if (!cs.empty())
            out.push_back(Json{{"counterSet", set}, {"counters", std::move(cs)}});
    }
    return out;
}

} // namespace

Json dra_slice(const DeviceInfo& info, const std::vector<Profile>& profs, const std::string& node,
               const std::string& driver, const std::vector<TargetRecovery>& recovery,
               const Vfs& vfs, const std::string& sysfs) {
    // The VF holding each partition of the current mode.
    std::map<std::uint32_t, std::uint32_t> holder;
    for (const auto& v : vfs.vfs)
        for (std::uint32_t b = 0; b < 32; ++b)
            if ((v.config.partition_mask & (1U << b)) != 0U)
                holder.emplace(b, v.vf);
    auto taint_of = [&](const Footprint& f) {
        const TargetRecovery* worst = nullptr;
        for (const auto& r : recovery) {
            if (!takes_down(r, f))
                continue;
            if (worst == nullptr || taint_rank(r) > taint_rank(*worst) ||
                (taint_rank(r) == taint_rank(*worst) && r.action > worst->action))
                worst = &r;
        }
        return worst != nullptr ? recovery_taint(*worst, driver) : Json(nullptr);
    };
    const std::string key = stable_key(info);
    const std::string set = "amdx-" + key;
    const std::string modes = set + "-modes";
    const std::string root = pcie_root(sysfs, info.bdf);
    std::uint64_t generation = 0;
    Json counters = Json::object();
    for (std::uint32_t x = 0; x < info.num_xcc; ++x)
        counters["xcc" + std::to_string(x)] = quantity(1);
    for (const auto& mp : info.memory_partitions)
        counters["mem" + std::to_string(mp.index)] = quantity(mp.size);

    // The mode mutex: a counter for each partition of every profile but
    // the largest that shares no XCC with some partition of another one.
    std::size_t largest = 0;
    for (std::size_t i = 0; i < profs.size(); ++i)
        if (profs[i].topology.size() > profs[largest].topology.size())
            largest = i;
    Json mutex = Json::object();
    // (i, p) -> its counter's name and the partitions of other modes it excludes.
    std::map<std::string, std::uint64_t> excluders;
    for (std::size_t i = 0; i < profs.size(); ++i) {
        if (i == largest)
            continue;
        for (const auto& p : profs[i].topology) {
            std::uint64_t n = 0;
            for (std::size_t j = 0; j < profs.size(); ++j)
                if (j != i)
                    n += static_cast<std::uint64_t>(
                        std::count_if(profs[j].topology.begin(), profs[j].topology.end(),
                                      [&p](const PartitionInfo& q) { return disjoint(p, q); }));
            if (n == 0)
                continue; // the XCC counters already exclude every other mode
            const std::string name = device_name(profs[i], p);
            mutex[name] = quantity(n);
            excluders[name] = n;
        }
    }
    // What partition @p of profile @i consumes.
    auto consumption = [&](std::size_t i, const PartitionInfo& p) {
        Consumption c;
        auto& own = c[set];
        for (std::uint32_t x = 0; x < 32; ++x)
            if ((p.xcc_mask & (1U << x)) != 0u)
                own["xcc" + std::to_string(x)] = 1;
        own["mem" + std::to_string(p.mem_partition)] = memory_share(p, profs[i].topology);
        const std::string name = device_name(profs[i], p);
        if (auto ex = excluders.find(name); ex != excluders.end())
            c[modes][name] = ex->second;
        for (std::size_t j = 0; j < profs.size(); ++j)
            for (const auto& q : profs[j].topology)
                if (j != i && disjoint(p, q) && excluders.contains(device_name(profs[j], q)))
                    c[modes][device_name(profs[j], q)] = 1;
        return c;
    };
    auto attributes = [&](const Profile& prof) {
        Json attrs{{"model", Json{{"string", std::string(to_string(info.model))}}},
                   {"productName", Json{{"string", info.product}}},
                   {"serialNumber", Json{{"string", info.serial}}},
                   {"computeMode", Json{{"string", std::string(to_string(prof.compute))}}},
                   {"memoryMode", Json{{"string", std::string(to_string(prof.memory))}}}};
        if (!root.empty())
            attrs["resource.kubernetes.io/pcieRoot"] = Json{{"string", root}};
        return attrs;
    };
    auto entry = [&](const std::string& name, Json attrs, std::uint64_t memory, std::uint32_t xccs,
                     const Consumption& c, const Footprint& f) {
        Json e{{"name", name},
               {"attributes", std::move(attrs)},
               {"capacity", Json{{"memory", quantity(memory)}, {"xccs", quantity(xccs)}}},
               {"consumesCounters", consumption_json(c)}};
        if (Json taint = taint_of(f); !taint.is_null())
            e["taints"] = Json::array({std::move(taint)});
        return e;
    };

    Json devices = Json::array();
    const Profile* current = nullptr;
    std::size_t current_index = 0;
    for (std::size_t i = 0; i < profs.size(); ++i) {
        const auto& prof = profs[i];
        generation = std::max(generation, prof.generation);
        if (prof.current) {
            current = &prof;
            current_index = i;
        }
        for (const auto& p : prof.topology) {
            Json attrs = attributes(prof);
            attrs["resource.kubernetes.io/pciBusID"] = Json{{"string", info.bdf}};
            attrs["partition"] = Json{{"int", p.id}};
            attrs["memoryPartition"] = Json{{"int", p.mem_partition}};
            Footprint f{&prof, p.id < 32 ? 1U << p.id : 0U, std::nullopt};
            if (auto h = holder.find(p.id); prof.current && h != holder.end())
                f.vf = h->second;
            devices.push_back(entry(
                device_name(prof, p), std::move(attrs), memory_share(p, prof.topology),
                static_cast<std::uint32_t>(__builtin_popcount(p.xcc_mask)), consumption(i, p), f));
        }
    }
    // A VF: what its partitions consume together, so that it and any of
    // them never fit one allocation.
    for (const auto& v : vfs.vfs) {
        if (current == nullptr)
            break; // VFs hold partitions of the current mode only
        Consumption c;
        std::uint32_t held = 0;
        std::uint32_t xccs = 0;
        std::string ids;
        for (const auto& p : current->topology) {
            if (p.id >= 32 || (v.config.partition_mask & (1U << p.id)) == 0U)
                continue;
            held |= 1U << p.id;
            xccs += static_cast<std::uint32_t>(__builtin_popcount(p.xcc_mask));
            ids += (ids.empty() ? "" : ",") + std::to_string(p.id);
            for (const auto& [cs, values] : consumption(current_index, p))
                for (const auto& [name, value] : values)
                    c[cs][name] += value;
        }
        if (held == 0)
            continue; // nothing of the device behind it
        Json attrs = attributes(*current);
        if (const auto bdf = vf_pci_address(sysfs, info.bdf, v.vf))
            attrs["resource.kubernetes.io/pciBusID"] = Json{{"string", *bdf}};
        attrs["physicalFunction"] = Json{{"string", info.bdf}};
        attrs["vf"] = Json{{"int", v.vf}};
        attrs["partitions"] = Json{{"string", ids}};
        devices.push_back(entry("vf" + std::to_string(v.vf), std::move(attrs), v.config.vram_quota,
                                xccs, c, Footprint{current, held, v.vf}));
    }
    const std::string pool = node + "-" + key;
    auto slice = [&](const std::string& suffix, const char* field, Json body) {
        return Json{{"apiVersion", "resource.k8s.io/v1"},
                    {"kind", "ResourceSlice"},
                    {"metadata", Json{{"name", pool + "-" + suffix}}},
                    {"spec", Json{{"driver", driver},
                                  {"nodeName", node},
                                  {"pool", Json{{"name", pool},
                                                {"generation", generation},
                                                {"resourceSliceCount", 2}}},
                                  {field, std::move(body)}}}};
    };
    Json sets = Json::array({Json{{"name", set}, {"counters", std::move(counters)}}});
    if (!mutex.empty())
        sets.push_back(Json{{"name", modes}, {"counters", std::move(mutex)}});
    return Json::array({slice("counters", "sharedCounters", std::move(sets)),
                        slice("devices", "devices", std::move(devices))});
}

std::string slurm_gres(const DeviceInfo& info, const Partitions& parts, const std::string& node,
                       const std::vector<std::string>& files) {
    const std::string type = lower(to_string(info.model)) + "_" +
                             lower(to_string(parts.compute_mode)) + "_" +
                             lower(to_string(parts.memory_mode));
    std::string out = "# amdx" + std::to_string(info.id) + " " + info.bdf + " serial " +
                      info.serial + ": " + std::to_string(parts.partitions.size()) + " " +
                      std::string(to_string(parts.compute_mode)) + "/" +
                      std::string(to_string(parts.memory_mode)) + " partitions\n";
    // One line per partition whose device file is known; the others,
    // which gres/gpu cannot tell apart, as one Count= line.
    auto about = [&](const PartitionInfo& p) {
        return "partition " + std::to_string(p.id) + ": " +
               std::to_string(__builtin_popcount(p.xcc_mask)) + " XCC, " +
               std::to_string(memory_share(p, parts.partitions) >> 20) +
               " MiB of memory partition " + std::to_string(p.mem_partition);
    };
    const std::string line = "NodeName=" + node + " Name=gpu Type=" + type;
    std::size_t fileless = 0;
    for (const auto& p : parts.partitions) {
        const std::string file = p.id < files.size() ? files[p.id] : std::string();
        if (file.empty()) {
            if (fileless++ == 0)
                out += "# no device file known for these partitions (no render node: "
                       "simulated, or not driven by amdgpu; --files names them): Slurm's "
                       "gres/gpu drops GPUs without File=\n";
            out.append("# ").append(about(p)).append("\n");
            continue;
        }
        out.append(line).append(" File=").append(file).append(" Flags=amd_gpu_env # ");
        out.append(about(p)).append("\n");
    }
    if (fileless != 0)
        out.append(line)
            .append(" Count=")
            .append(std::to_string(fileless))
            .append(" Flags=amd_gpu_env\n");
    return out;
}

std::vector<std::string> partition_files(const DeviceInfo& info, const Partitions& parts,
                                         const std::string& pattern) {
    std::vector<std::string> files;
    std::uint32_t max_id = 0;
    for (const auto& p : parts.partitions)
        max_id = std::max(max_id, p.id + 1);
    files.resize(max_id);
    if (!pattern.empty()) {
        for (const auto& p : parts.partitions) {
            std::string f = pattern;
            for (const auto& [key, value] :
                 {std::pair<std::string, std::string>{"{device}", std::to_string(info.id)},
                  {"{partition}", std::to_string(p.id)}})
                for (auto at = f.find(key); at != std::string::npos; at = f.find(key, at))
                    f.replace(at, key.size(), value);
            files[p.id] = f;
        }
        return files;
    }
    // amdgpu gives each compute partition a KFD node and a render node.
    const auto id = identify(info.bdf);
    if (!id)
        return files;
    for (const auto& n : id->kfd_nodes)
        if (n.drm_render_minor && n.partition < files.size())
            files[n.partition] = "/dev/dri/renderD" + std::to_string(*n.drm_render_minor);
    if (parts.partitions.size() == 1 && files[parts.partitions.front().id].empty() &&
        id->drm_render)
        files[parts.partitions.front().id] = *id->drm_render;
    return files;
}

int FleetCommands::partition_export(const Options& opts, std::ostream& out,
                                    std::ostream& err) const {
    const std::string node = node_.empty() ? lower(host_name()) : node_;
    if (format_ == "dra") {
        if (const auto why = dns_subdomain_error(node, 253); !why.empty()) {
            fail(err, "partition export: node name '" + node + "' " + why +
                          " (a Kubernetes node name is a DNS subdomain; give --node)");
            return kExitUsage;
        }
        if (const auto why = dns_subdomain_error(driver_, 63); !why.empty()) {
            fail(err, "partition export: driver name '" + driver_ + "' " + why +
                          " (a DRA driver name is a DNS subdomain of at most 63 characters)");
            return kExitUsage;
        }
    }
    int code = kExitOk;
    const auto sel = select_devices(opts, export_dev_, true, err, code);
    if (!sel)
        return code;
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
            gres += slurm_gres(*info, *parts, node, partition_files(*info, *parts, files_));
            continue;
        }
        const auto profs = profiles(*device, *info);
        if (!profs) {
            fail(err, device_error(what_on("partition export", e) + " plan", profs.error()));
            return kExitError;
        }
        const auto current =
            std::find_if(profs->begin(), profs->end(), [](const Profile& p) { return p.current; });
        Partitions parts;
        if (current != profs->end())
            parts.partitions = current->topology;
        const auto vfs = device->vfs();
        if (!vfs) {
            fail(err, device_error(what_on("partition export", e) + " VFs", vfs.error()));
            return kExitError;
        }
        std::string what;
        const auto recovery = read_recovery(*device, parts, *vfs, what);
        if (!recovery) {
            fail(err, device_error(what_on("partition export", e) + " " + what, recovery.error()));
            return kExitError;
        }
        for (auto& s : dra_slice(*info, *profs, node, driver_, *recovery, *vfs))
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
