// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx partition show|plan|set` (the VFs: vf.cpp).
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

std::string modes_text(ComputeMode c, MemoryMode m) {
    return std::string(to_string(c)) + "/" + std::string(to_string(m));
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

} // namespace

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

// ---- partition

namespace {

const std::vector<std::string> kComputeModes{"spx", "dpx", "tpx", "qpx", "cpx"};
const std::vector<std::string> kMemoryModes{"nps1", "nps2", "nps4", "nps8"};

/// The kernel's report of a plan, or of a commit whether it happened or
/// not: a refusal or rollback the kernel explained is shown as its report.
Result<PartitionReport> plan_or_commit(const Device& device, const PartitionRequest& req,
                                       bool commit) {
    if (!commit)
        return device.partition_plan(req);
    auto done = device.partition_commit(req);
    if (!done && !done.has_report())
        return Unexpected(done.context());
    return std::move(done).report();
}

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
    return show_devices(
        opts, dev_, out, err,
        [](const Device& d, const DeviceEntry& e, std::ostream& err_out) -> std::optional<Json> {
            auto doc = partition_show_json(d, e);
            if (!doc) {
                fail(err_out, device_error(what_on("partitions of", e), doc.error()), doc.error());
                return std::nullopt;
            }
            return std::move(*doc);
        });
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
    const auto scope = partition_resets(device, *before, req);
    if (!scope) {
        fail(err, device_error(what_on("reset scope of", entry), scope.error()), scope.error());
        return kExitError;
    }
    const std::vector<std::uint32_t>& resets = *scope;
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
    const auto report = plan_or_commit(device, req, commit && !dry);
    if (!report) {
        fail(err, device_error(what, report.error()), report.error());
        return kExitError;
    }
    render(out,
           Json{{commit && !dry ? "commit" : "plan",
                 partition_change_json(entry.id, *before, req, *report, commit && !dry, resets)}},
           opts);
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

} // namespace amdx::cli
