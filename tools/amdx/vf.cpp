// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx vf show|enable|disable|set|reset`: SR-IOV VFs.
//
// enable prints the kernel's report of the VFs it made; a refusal is the one
// error line after it, naming the reason, the refused VF and the errno.
#include <charconv>

#include "commands.hpp"

namespace amdx::cli {

namespace {

constexpr std::uint64_t kMiB = 1ULL << 20;
const std::vector<std::string> kPriorities{"low", "normal", "high"};

} // namespace

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
                       key == "resets" || key == "resets_in_window" || key == "recovery") {
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
    return show_devices(opts, dev_, out, err,
                        [&opts](const Device& d, const DeviceEntry& e,
                                std::ostream& err_out) -> std::optional<Json> {
                            auto doc = vf_show_json(d, e, opts.sysfs);
                            if (!doc) {
                                fail(err_out, device_error(what_on("VFs of", e), doc.error()),
                                     doc.error());
                                return std::nullopt;
                            }
                            return std::move(*doc);
                        });
}

int VfCommands::enable(const Options& opts, std::ostream& out, std::ostream& err) const {
    std::vector<VfConfig> configs;
    if (!config_.empty()) {
        const auto text = read_input(config_, opts, err);
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
    const auto done = device.vf_enable(num_vfs_, configs);
    if (!done && !done.has_report()) {
        fail(err, device_error(what, done.error()), done.error());
        return kExitError;
    }
    if (!done) { // the kernel's refusal, with its reason
        const auto& report = done.report();
        std::string msg = what + ": ";
        if (report.bad_vf != kVfNone)
            msg += "VF " + std::to_string(report.bad_vf) + ": ";
        fail(err,
             msg + std::string(reason_text(report.reason)) + " (reason " +
                 std::string(to_string(report.reason)) + ", " + errno_text(done.error()) + ")",
             done.error());
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
    if (!r) { // the kernel's reason (uapi minor 8; none from an older module)
        const auto reason = static_cast<PartitionReason>(r.context().reason);
        const std::string tail =
            " (reason " + std::string(to_string(reason)) + ", " + errno_text(r.error()) + ")";
        std::string msg;
        if (reason == PartitionReason::none) {
            msg = device_error(what, r.error());
        } else if (reason == PartitionReason::no_vf) {
            const auto vfs = device.vfs();
            const auto n = vfs ? vfs->vfs.size() : 0;
            msg = what + ": not enabled";
            if (vfs && n == 0)
                msg += " (the device has no VF enabled)";
            else if (vfs && n == 1)
                msg += " (the device has 1 VF: 0)";
            else if (vfs)
                msg += " (the device has " + std::to_string(n) + " VFs: 0 .. " +
                       std::to_string(n - 1) + ")";
            msg += tail;
        } else if (reason == PartitionReason::vf_reset_limit) {
            msg = what + ": " + std::to_string(AMDX_VF_RESET_LIMIT) + " resets in " +
                  std::to_string(AMDX_VF_RESET_WINDOW_S) +
                  " s already, the VF is quarantined until VFs are disabled" + tail;
        } else {
            msg = what + ": " + std::string(reason_text(reason)) + tail;
        }
        fail(err, msg, r.error());
        return kExitError;
    }
    render(out, Json{{"vf_reset", vf_reset_json(entry.id, vf_, *r)}}, opts);
    return kExitOk;
}

} // namespace amdx::cli
