// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx partition show|plan|set` and `amdx vf show|enable|disable|set|reset`.
//
// plan and set print the kernel's report (resulting partitions, holders,
// steps) even when the kernel refused; the refusal is then the one error
// line after it, naming the reason or the failed step and the errno.
#include <charconv>
#include <climits>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "commands.hpp"

namespace amdx::cli {

namespace {

constexpr std::uint64_t kMiB = 1ULL << 20;

std::string modes_text(ComputeMode c, MemoryMode m) {
    return std::string(to_string(c)) + "/" + std::string(to_string(m));
}

Json holder_to_json(const PartitionHolder& h) {
    return Json{
        {"pid", h.pid}, {"comm", h.comm}, {"mem_partition", h.mem_partition}, {"pages", h.pages}};
}

Json step_to_json(const PartitionStepResult& s) {
    return Json{{"step", to_string(s.step)},
                {"result", errno_result(s.error)},
                {"duration_ns", s.duration_ns}};
}

std::optional<ComputeMode> parse_compute_arg(const std::string& s, std::ostream& err) {
    if (s.empty())
        return ComputeMode::unknown;
    const auto mode = parse_compute_mode(s);
    if (!mode)
        fail(err, "invalid compute mode '" + s + "' (expected spx, dpx, tpx, qpx or cpx)");
    return mode;
}

std::optional<MemoryMode> parse_memory_arg(const std::string& s, std::ostream& err) {
    if (s.empty())
        return MemoryMode::unknown;
    const auto mode = parse_memory_mode(s);
    if (!mode)
        fail(err, "invalid memory mode '" + s + "' (expected nps1, nps2, nps4 or nps8)");
    return mode;
}

std::optional<std::string> read_file(const std::string& path, const Options& opts,
                                     std::ostream& err) {
    if (path == "-" && opts.in != nullptr) { // standard input
        std::ostringstream s;
        s << opts.in->rdbuf();
        return s.str();
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const std::error_code ec(errno, std::system_category());
        fail(err, path + ": cannot open (" + errno_text(ec) + ")", ec);
        return std::nullopt;
    }
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
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

std::string partition_report_error(std::string_view what, const Partitions& before,
                                   const PartitionRequest& req, const PartitionReport& report,
                                   bool commit) {
    const std::string prefix = std::string(what) + ": ";
    const std::string target = modes_text(req.compute.value_or(before.compute_mode),
                                          req.memory.value_or(before.memory_mode));
    if (!report.error) {
        if (commit || report.allowed)
            return {};
        return prefix + target + " not allowed now: " + std::string(reason_text(report.reason)) +
               " (reason " + std::string(to_string(report.reason)) + ")";
    }
    const std::string why = " (" + errno_text(report.error) + ")";
    if (report.error == std::errc::device_or_resource_busy && report.num_holders != 0)
        return prefix + std::to_string(report.num_holders) +
               (report.num_holders == 1 ? " process holds" : " processes hold") +
               " memory in partitions that would change; stop " +
               (report.num_holders == 1 ? "it" : "them") + " or pass --drain" + why;
    if (report.error == std::errc::timed_out)
        return prefix + "the drain missed its deadline, rolled back to " +
               modes_text(before.compute_mode, before.memory_mode) + why;
    if (report.failed_step != PartitionStep::none)
        return prefix + "step " + std::string(to_string(report.failed_step)) +
               " failed, rolled back to " + modes_text(before.compute_mode, before.memory_mode) +
               why;
    if (report.reason != PartitionReason::none)
        return prefix + target + " refused: " + std::string(reason_text(report.reason)) + why;
    return device_error(what, report.error);
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

std::optional<std::vector<VfConfig>> parse_vf_configs(const Json& doc, std::string& why) {
    const Json* list = &doc;
    if (doc.is_object() && doc.contains("devices")) { // `amdx -j vf show DEV`
        const Json& devs = doc["devices"];
        if (!devs.is_array() || devs.size() != 1 || !devs[0].is_object() ||
            !devs[0].contains("vfs")) {
            why = "a `vf show` document must hold exactly one device (amdx -j vf show DEV)";
            return std::nullopt;
        }
        list = &devs[0]["vfs"];
    } else if (doc.is_object() && doc.contains("vfs")) {
        list = &doc["vfs"];
    }
    if (!list->is_array() || list->empty()) {
        why = "expected {\"vfs\": [...]}, the output of 'amdx -j vf show DEV' or a non-empty "
              "array of VF objects";
        return std::nullopt;
    }
    std::vector<VfConfig> out;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const Json& e = (*list)[i];
        const std::string at = "VF " + std::to_string(i) + ": ";
        if (!e.is_object()) {
            why = at + "not an object";
            return std::nullopt;
        }
        VfConfig c;
        for (const auto& [key, v] : e.items()) {
            const bool number = v.is_number_unsigned();
            if (key == "partitions" && v.is_array()) {
                for (const auto& p : v) {
                    if (!p.is_number_unsigned() || p.get<std::uint64_t>() >= 32) {
                        why = at + "partitions: expected partition ids below 32";
                        return std::nullopt;
                    }
                    c.partition_mask |= 1U << p.get<std::uint32_t>();
                }
            } else if (key == "vram_quota" && number) {
                c.vram_quota = v.get<std::uint64_t>();
            } else if (key == "vram_mib" && number && v.get<std::uint64_t>() < (1ULL << 44)) {
                c.vram_quota = v.get<std::uint64_t>() * kMiB;
            } else if (key == "time_slice_us" && number && v.get<std::uint64_t>() <= UINT32_MAX) {
                c.time_slice_us = v.get<std::uint32_t>();
            } else if (key == "priority" && v.is_string() &&
                       parse_vf_priority(v.get<std::string>())) {
                c.priority = *parse_vf_priority(v.get<std::string>());
            } else if (key == "evict" && v.is_boolean()) {
                c.flags = v.get<bool>() ? AMDX_VF_F_EVICT : 0;
            } else if (key == "vf" || key == "bdf" || key == "state" || key == "vram_used" ||
                       key == "resets" || key == "resets_in_window") {
                continue; // `vf show` output may be fed back
            } else {
                why = at + R"(invalid key or value: ")";
                why += key + "\": " + v.dump();
                return std::nullopt;
            }
        }
        if (c.partition_mask == 0 || c.vram_quota == 0) {
            why = at + R"(needs "partitions" and "vram_quota" or "vram_mib")";
            return std::nullopt;
        }
        out.push_back(c);
    }
    return out;
}

// ---- partition

namespace {

const std::vector<std::string> kComputeModes{"spx", "dpx", "tpx", "qpx", "cpx"};
const std::vector<std::string> kMemoryModes{"nps1", "nps2", "nps4", "nps8"};
const std::vector<std::string> kPriorities{"low", "normal", "high"};

/// The exit status of a refused or failed plan/commit (after its message).
int report_status(const PartitionReport& report, bool commit) {
    if (!report.error)
        return report.reason == PartitionReason::busy ? kExitBusy : kExitError;
    if (commit && report.outcome == PartitionOutcome::rolled_back)
        return kExitRolledBack;
    if (report.error == std::errc::timed_out || report.failed_step != PartitionStep::none)
        return kExitRolledBack;
    if (report.error == std::errc::device_or_resource_busy)
        return kExitBusy;
    return exit_code(report.error) == kExitError ? kExitError : exit_code(report.error);
}

std::string id_list(const std::vector<std::uint32_t>& ids) {
    std::string out;
    for (const auto id : ids) {
        if (!out.empty())
            out += ',';
        out += std::to_string(id);
    }
    return out;
}

} // namespace

PartitionCommands::PartitionCommands(CLI::App& app) {
    object_ = app.add_subcommand("partition", "Compute and memory partitions "
                                              "(COMMAND: show, plan, set)");
    object_->fallthrough()->require_subcommand(0, 1);
    auto* show = object_->add_subcommand("show", "Modes and partitions (the default COMMAND)");
    show->fallthrough();
    add_dev_option(show, dev_, true);
    plan_ = object_->add_subcommand("plan", "What a change would do, changing nothing");
    set_ = object_->add_subcommand("set", "Change the partition modes (transactional)");
    for (auto* cmd : {plan_, set_}) {
        cmd->fallthrough();
        add_dev_option(cmd, dev_, false);
        cmd->add_option("--compute", compute_, "Compute mode")
            ->transform(CLI::IsMember(kComputeModes, CLI::ignore_case));
        cmd->add_option("--memory", memory_, "Memory mode")
            ->transform(CLI::IsMember(kMemoryModes, CLI::ignore_case));
        cmd->add_flag("--drain", drain_, "Move resident data out of changing partitions");
        cmd->add_option("--deadline-ms", deadline_ms_, "Drain deadline (0: the kernel's default)")
            ->check(CLI::Range(0U, 3600U * 1000U));
    }
    set_->add_flag("-y,--yes", yes_,
                   "Confirm a memory-mode change that resets every device of the hive");
}

int PartitionCommands::run(const Options& opts, std::ostream& out, std::ostream& err) const {
    if (plan_->parsed())
        return change(opts, false, out, err);
    if (set_->parsed())
        return change(opts, true, out, err);
    return show(opts, out, err);
}

int PartitionCommands::show(const Options& opts, std::ostream& out, std::ostream& err) const {
    return show_query(
        opts, dev_, out, err, "partitions of", [](const Device& d) { return d.partitions(); },
        [](const DeviceEntry& e, const Partitions& p) { return partitions_to_json(e, p); });
}

int PartitionCommands::change(const Options& opts, bool commit, std::ostream& out,
                              std::ostream& err) const {
    const std::string cmd = commit ? "partition set" : "partition plan";
    const auto compute = parse_compute_arg(compute_, err);
    if (!compute)
        return kExitUsage;
    const auto memory = parse_memory_arg(memory_, err);
    if (!memory)
        return kExitUsage;
    if (compute_.empty() && memory_.empty()) {
        fail(err, cmd + " needs --compute and/or --memory (see 'amdx " + cmd + " --help')");
        return kExitUsage;
    }
    int code = kExitOk;
    const auto target = select_one(opts, dev_, err, code);
    if (!target)
        return code;
    const auto& [entry, device] = *target;
    const std::string what = what_on(cmd, entry);

    const auto before = device.partitions();
    if (!before) {
        fail(err, device_error(what_on("partitions of", entry), before.error()), before.error());
        return kExitError;
    }
    PartitionRequest req;
    if (!compute_.empty())
        req.compute = *compute;
    if (!memory_.empty())
        req.memory = *memory;
    req.drain = drain_;
    req.deadline_ms = deadline_ms_;
    const bool memory_change = req.memory && *req.memory != before->memory_mode;
    std::vector<std::uint32_t> resets;
    if (memory_change) {
        const auto scope = device.reset_scope();
        if (!scope) {
            fail(err, device_error(what_on("reset scope of", entry), scope.error()), scope.error());
            return kExitError;
        }
        resets = scope->devices;
    }
    // A memory-mode change resets every device of the hive: ask first.
    const bool hive_wide = resets.size() > 1;
    bool confirmed = yes_;
    if (commit && hive_wide && !confirmed && opts.interactive && opts.in != nullptr) {
        err << "amdx: " << what << ": the memory-mode change resets devices " << id_list(resets)
            << " (the whole hive). Proceed? [y/N] " << std::flush;
        std::string answer;
        std::getline(*opts.in, answer);
        confirmed = answer == "y" || answer == "Y" || answer == "yes";
        if (!confirmed) {
            fail(err, what + ": not confirmed, nothing changed");
            return kExitUsage;
        }
    }
    const bool dry = commit && hive_wide && !confirmed; // print the plan, refuse
    PartitionReport refused;
    auto report =
        commit && !dry ? device.partition_commit(req, &refused) : device.partition_plan(req);
    if (!report && refused.error) // a refusal or rollback the kernel explained
        report = std::move(refused);
    if (!report) {
        fail(err, device_error(what, report.error()), report.error());
        return kExitError;
    }
    Json doc = partition_report_to_json(entry.id, *before, req, *report, commit && !dry);
    if (!commit || dry) {
        Json ids = Json::array();
        for (const auto id : resets)
            ids.push_back(id);
        doc["reset_devices"] = std::move(ids);
    }
    render(out, Json{{commit && !dry ? "commit" : "plan", std::move(doc)}}, opts);
    if (dry) {
        fail(err,
             what + ": the memory-mode change resets devices " + id_list(resets) +
                 " (the whole hive, plan above); nothing changed: pass --yes to proceed",
             kExitUsage);
        return kExitUsage;
    }
    const std::string msg = partition_report_error(what, *before, req, *report, commit);
    if (msg.empty())
        return kExitOk;
    fail(err, msg, report_status(*report, commit));
    return kExitError;
}

// ---- vf

VfCommands::VfCommands(CLI::App& app) {
    object_ = app.add_subcommand("vf", "SR-IOV virtual functions "
                                       "(COMMAND: show, enable, disable, set, reset)");
    object_->fallthrough()->require_subcommand(0, 1);
    auto* show = object_->add_subcommand("show", "Enabled VFs, their PCI addresses and resources "
                                                 "(default)");
    show->fallthrough();
    add_dev_option(show, dev_, true);
    enable_ = object_->add_subcommand("enable", "Enable N VFs, auto-provisioned or from --config");
    enable_->fallthrough();
    add_dev_option(enable_, dev_, false);
    enable_->add_option("N", num_vfs_, "VFs to enable")
        ->required()
        ->check(CLI::Range(1U, static_cast<unsigned>(AMDX_MAX_VFS)));
    enable_->add_option("--config", config_,
                        "JSON file with one object per VF, or the output of 'amdx -j vf show "
                        "DEV' ('-': standard input)");
    disable_ = object_->add_subcommand("disable", "Disable every VF");
    disable_->fallthrough();
    add_dev_option(disable_, dev_, false);
    set_ = object_->add_subcommand("set", "Change one VF's resources");
    set_->fallthrough();
    add_dev_option(set_, dev_, false);
    set_->add_option("VF", vf_, "VF index")
        ->required()
        ->check(CLI::Range(0U, static_cast<unsigned>(AMDX_MAX_VFS - 1)));
    set_->add_option("--vram-mib", vram_mib_, "VRAM quota in MiB (16 MiB steps, >= 256)")
        ->check(CLI::Validator( // one check, one cause (not CLI11's "(...) AND (...)")
            [](std::string& v) -> std::string {
                constexpr std::uint64_t lo = AMDX_VF_VRAM_MIN >> 20;
                constexpr std::uint64_t hi = std::uint64_t{1} << 44;
                std::uint64_t n = 0;
                const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
                if (v.empty() || ec != std::errc() || ptr != v.data() + v.size())
                    return "not a number of MiB: " + v;
                if (n < lo || n > hi)
                    return "value " + v + " not in range " + std::to_string(lo) + " to " +
                           std::to_string(hi);
                return n % 16 == 0 ? std::string() : "not a multiple of 16 MiB: " + v;
            },
            "[" + std::to_string(AMDX_VF_VRAM_MIN >> 20) + " - " +
                std::to_string(std::uint64_t{1} << 44) + "] in 16 MiB steps"));
    set_->add_option("--time-slice-us", time_slice_us_, "Time slice in microseconds")
        ->check(CLI::Range(static_cast<unsigned>(AMDX_VF_TIME_SLICE_MIN_US),
                           static_cast<unsigned>(AMDX_VF_TIME_SLICE_MAX_US)));
    set_->add_option("--priority", priority_, "Scheduling priority")
        ->transform(CLI::IsMember(kPriorities, CLI::ignore_case));
    auto* evict = set_->add_flag("--evict", evict_, "At the quota, evict the VF's own data");
    auto* no_evict =
        set_->add_flag("--no-evict", no_evict_, "At the quota, fail allocations (ENOSPC)");
    evict->excludes(no_evict);
    reset_ = object_->add_subcommand("reset", "Reset (FLR) one VF");
    reset_->fallthrough();
    add_dev_option(reset_, dev_, false);
    reset_->add_option("VF", vf_, "VF index")
        ->required()
        ->check(CLI::Range(0U, static_cast<unsigned>(AMDX_MAX_VFS - 1)));
}

int VfCommands::run(const Options& opts, std::ostream& out, std::ostream& err) const {
    if (enable_->parsed())
        return enable(opts, out, err);
    if (disable_->parsed())
        return disable(opts, out, err);
    if (set_->parsed())
        return set(opts, out, err);
    if (reset_->parsed())
        return reset(opts, out, err);
    return show(opts, out, err);
}

namespace {

/// Renders the VFs of @entry ({"devices": [...]}, as `vf show`); prints the
/// error.
int print_vfs(const Options& opts, const Device& device, const DeviceEntry& entry,
              std::optional<std::uint32_t> only, std::ostream& out, std::ostream& err) {
    const auto vfs = device.vfs();
    if (!vfs) {
        fail(err, device_error(what_on("VFs of", entry), vfs.error()), vfs.error());
        return kExitError;
    }
    Json doc = vfs_to_json(entry, *vfs, opts.sysfs);
    if (only) {
        Json list = Json::array();
        for (const auto& v : doc["vfs"])
            if (v["vf"] == *only)
                list.push_back(v);
        doc["vfs"] = std::move(list);
    }
    render(out, Json{{"devices", Json::array({std::move(doc)})}}, opts);
    return kExitOk;
}

} // namespace

int VfCommands::show(const Options& opts, std::ostream& out, std::ostream& err) const {
    return show_query(
        opts, dev_, out, err, "VFs of", [](const Device& d) { return d.vfs(); },
        [&opts](const DeviceEntry& e, const Vfs& v) { return vfs_to_json(e, v, opts.sysfs); });
}

int VfCommands::enable(const Options& opts, std::ostream& out, std::ostream& err) const {
    std::vector<VfConfig> configs;
    if (!config_.empty()) {
        const auto text = read_file(config_, opts, err);
        if (!text)
            return kExitError;
        const Json doc = Json::parse(*text, nullptr, false);
        std::string why = "not JSON";
        const auto parsed = doc.is_discarded() ? std::nullopt : parse_vf_configs(doc, why);
        if (!parsed) {
            fail(err, config_ + ": invalid VF configuration: " + why);
            return kExitUsage;
        }
        if (parsed->size() != num_vfs_) {
            fail(err, config_ + ": has " + std::to_string(parsed->size()) +
                          " VF configurations, but N is " + std::to_string(num_vfs_));
            return kExitUsage;
        }
        configs = *parsed;
    }
    int code = kExitOk;
    const auto target = select_one(opts, dev_, err, code);
    if (!target)
        return code;
    const auto& [entry, device] = *target;
    const std::string what = what_on("vf enable", entry);
    VfEnableReport refused;
    auto report = device.vf_enable(num_vfs_, configs, &refused);
    if (!report && refused.error) // the kernel's refusal, with its reason
        report = refused;
    if (!report) {
        fail(err, device_error(what, report.error()), report.error());
        return kExitError;
    }
    if (report->error) {
        std::string msg = what + ": ";
        if (report->bad_vf != kVfNone)
            msg += "VF " + std::to_string(report->bad_vf) + ": ";
        fail(err,
             msg + std::string(reason_text(report->reason)) + " (reason " +
                 std::string(to_string(report->reason)) + ", " + errno_text(report->error) + ")",
             report->error);
        return kExitError;
    }
    return print_vfs(opts, device, entry, std::nullopt, out, err);
}

int VfCommands::disable(const Options& opts, std::ostream& out, std::ostream& err) const {
    int code = kExitOk;
    const auto target = select_one(opts, dev_, err, code);
    if (!target)
        return code;
    if (auto ok = target->device.vf_disable(); !ok) {
        fail(err,
             ok.error() == std::errc::invalid_argument
                 ? what_on("vf disable", target->entry) + ": no VF is enabled (" +
                       errno_text(ok.error()) + ")"
                 : device_error(what_on("vf disable", target->entry), ok.error()),
             ok.error());
        return kExitError;
    }
    return print_vfs(opts, target->device, target->entry, std::nullopt, out, err);
}

int VfCommands::set(const Options& opts, std::ostream& out, std::ostream& err) const {
    VfSettings settings;
    if (vram_mib_)
        settings.vram_quota = *vram_mib_ * kMiB; // CLI::Range bounds it
    settings.time_slice_us = time_slice_us_;
    if (!priority_.empty())
        settings.priority = parse_vf_priority(priority_);
    if (evict_ || no_evict_)
        settings.flags = evict_ ? AMDX_VF_F_EVICT : 0;
    if (settings.to_uapi(vf_).valid == 0) {
        fail(err, "vf set needs --vram-mib, --time-slice-us, --priority, --evict or --no-evict "
                  "(see 'amdx vf set --help')");
        return kExitUsage;
    }
    int code = kExitOk;
    const auto target = select_one(opts, dev_, err, code);
    if (!target)
        return code;
    const auto& [entry, device] = *target;
    const std::string what = what_on("vf set", entry) + " VF " + std::to_string(vf_);
    if (auto ok = device.vf_set(vf_, settings); !ok) {
        fail(err, device_error(what, ok.error()), ok.error());
        return kExitError;
    }
    return print_vfs(opts, device, entry, vf_, out, err);
}

int VfCommands::reset(const Options& opts, std::ostream& out, std::ostream& err) const {
    int code = kExitOk;
    const auto target = select_one(opts, dev_, err, code);
    if (!target)
        return code;
    const auto& [entry, device] = *target;
    const std::string what = what_on("vf reset", entry) + " VF " + std::to_string(vf_);
    const auto r = device.vf_reset(vf_);
    if (!r) {
        fail(err,
             r.error() == std::errc::device_or_resource_busy
                 ? what + ": more than " + std::to_string(AMDX_VF_RESET_LIMIT) + " resets in " +
                       std::to_string(AMDX_VF_RESET_WINDOW_S) +
                       " s, the VF is quarantined until VFs are disabled (" +
                       errno_text(r.error()) + ")"
                 : device_error(what, r.error()),
             r.error());
        return kExitError;
    }
    render(out,
           Json{{"vf_reset", Json{{"device", entry.id},
                                  {"vf", vf_},
                                  {"result", to_string(r->result)},
                                  {"state", to_string(r->state)},
                                  {"duration_ns", r->duration_ns},
                                  {"resets_in_window", r->resets_in_window},
                                  {"vram_cleared", r->vram_cleared}}}},
           opts);
    return kExitOk;
}

} // namespace amdx::cli
