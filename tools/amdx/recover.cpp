// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx recover plan|run` (Documentation/ras.rst, "Recovery actions").
//
// TARGET is partition=N or vf=N (hmm demo's form), else the device.
// plan prints the exact blast radius of the target's pending action (or of
// --action): the devices, partitions and VFs it resets, the processes it
// stops, the peers that drain first, the estimate.  run executes it with
// the discipline of `partition set`: it prints the plan, refuses while
// processes hold the memory it resets unless --stop, asks (or needs --yes)
// before anything runs and names every other device a hive or switch
// reset takes, then prints every step the kernel recorded.
#include <algorithm>
#include <charconv>

#include "commands.hpp"

namespace amdx::cli {

namespace {

const std::vector<std::string> kActions{"process", "queue", "pipe", "partition", "vf",
                                        "device",  "hive",  "node", "rma",       "pending"};

/// "partition=N" or "vf=N" (N decimal, below 64), as hmm demo's
/// partition=N; "" is the device.
std::optional<RecoveryTarget> parse_target(std::string_view text) {
    RecoveryTarget t;
    if (text.empty())
        return t;
    const auto eq = text.find('=');
    if (eq == std::string_view::npos)
        return std::nullopt;
    const auto key = text.substr(0, eq);
    const auto num = text.substr(eq + 1);
    std::uint32_t n = 0;
    const auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), n);
    if (num.empty() || ec != std::errc() || ptr != num.data() + num.size() || n >= 64)
        return std::nullopt;
    if (key == "partition")
        t.partition = n;
    else if (key == "vf")
        t.vf = n;
    else
        return std::nullopt;
    return t;
}

std::string target_text(const RecoveryTarget& t, std::uint32_t device) {
    std::string s = "device " + std::to_string(device);
    if (t.partition)
        s += " partition " + std::to_string(*t.partition);
    if (t.vf)
        s += " VF " + std::to_string(*t.vf);
    return s;
}

std::string ids_text(const std::vector<std::uint32_t>& ids) {
    std::string out;
    for (const auto id : ids)
        out += (out.empty() ? "" : ",") + std::to_string(id);
    return out;
}

} // namespace

RecoverCommands::RecoverCommands(CLI::App& app) {
    object_ = app.add_subcommand("recover", "Recovery actions: preview and run "
                                            "(COMMAND: plan, run)");
    object_->fallthrough()->require_subcommand(1, 1);
    plan_ = object_->add_subcommand(
        "plan", "What the pending (or a named) action takes down, changing nothing");
    run_ = object_->add_subcommand(
        "run", "Run the pending (or a named) action, then the self-test (needs --yes)");
    for (auto* cmd : {plan_, run_}) {
        cmd->fallthrough();
        add_dev_option(cmd, dev_, false);
        cmd->add_option("TARGET", target_,
                        "partition=N or vf=N: a compute partition or VF (default: the device)")
            ->check(CLI::Validator(
                [](std::string& v) -> std::string {
                    return parse_target(v) ? std::string()
                                           : "invalid target '" + v +
                                                 "' (expected partition=N or vf=N, N below 64)";
                },
                "partition=N|vf=N"));
        cmd->add_option("--action", action_, "The action (default: the target's pending one)")
            ->transform(CLI::IsMember(kActions, CLI::ignore_case));
    }
    run_->add_flag("--stop", stop_, "Stop (SIGKILL) the processes holding the memory it resets");
    run_->add_flag("-y,--yes", yes_, "Confirm: run it, resetting the other devices it names");
}

int RecoverCommands::run(const Options& opts, std::ostream& out, std::ostream& err) const {
    int code = kExitOk;
    const bool run = run_->parsed();
    const std::string cmd = run ? "recover run" : "recover plan";
    const auto target_dev = select_one(opts, dev_, err, code);
    if (!target_dev)
        return code;
    const auto& [entry, device] = *target_dev;
    const RecoveryTarget target = parse_target(target_).value_or(RecoveryTarget{});
    const std::string what = cmd + " " + target_text(target, entry.id);
    std::optional<RecoveryAction> action;
    if (!action_.empty() && action_ != "pending")
        action = parse_recovery_action(action_);

    const auto plan = device.recovery_plan(target, action);
    if (!plan) {
        const auto ec = plan.error();
        const std::string named = action ? std::string(to_string(*action)) : "the action";
        std::string msg = device_error(what, ec);
        if (ec == std::errc::invalid_argument)
            msg = what + ": " + named + " does not apply to this target, or it does not exist (" +
                  errno_text(ec) + ")";
        else if (ec == std::errc::operation_not_supported)
            msg = what + ": this device does not declare a " + named + " reset (" + errno_text(ec) +
                  ")";
        fail(err, msg, ec);
        return kExitError;
    }
    Json doc = recovery_plan_json(entry.id, target, *plan);
    if (!run) {
        render(out, Json{{"plan", std::move(doc)}}, opts);
        return kExitOk;
    }
    if (plan->action == RecoveryAction::none) {
        render(out, Json{{"plan", std::move(doc)}}, opts);
        fail(err, what + ": nothing pending (name one with --action)", kExitError);
        return kExitError;
    }
    std::vector<std::uint32_t> others;
    for (const auto id : plan->devices)
        if (id != entry.id)
            others.push_back(id);
    const std::string others_text =
        others.empty() ? std::string()
                       : "; it also resets devices " + ids_text(others) + " (the hive or switch)";
    bool confirmed = yes_;
    if (!confirmed && opts.interactive && opts.in != nullptr) {
        render(out, Json{{"plan", doc}}, opts);
        out.flush();
        err << "amdx: " << what << ": run " << to_string(plan->action) << others_text
            << ", stopping " << plan->num_processes << " processes? [y/N] " << std::flush;
        std::string answer;
        std::getline(*opts.in, answer);
        confirmed = answer == "y" || answer == "Y" || answer == "yes";
        if (!confirmed) {
            fail(err, what + ": not confirmed, nothing ran", kExitUsage);
            return kExitUsage;
        }
    } else if (!confirmed) {
        render(out, Json{{"plan", std::move(doc)}}, opts);
        fail(err,
             what + ": " + std::string(to_string(plan->action)) + others_text +
                 " (plan above); nothing ran: pass --yes to proceed",
             kExitUsage);
        return kExitUsage;
    }

    const auto ran =
        recovery_run_recorded(device, target, action, {.stop = stop_, .others = confirmed});
    if (!ran) {
        const auto ec = ran.error();
        std::string msg = device_error(what, ec);
        if (ec == std::errc::device_or_resource_busy)
            msg = what + ": " + std::to_string(plan->num_processes) +
                  (plan->num_processes == 1 ? " process holds" : " processes hold") +
                  " memory it resets; stop " + (plan->num_processes == 1 ? "it" : "them") +
                  " or pass --stop (" + errno_text(ec) + ")";
        else if (ec == std::errc::operation_not_supported)
            msg = what + ": this device (or amdx) cannot " + std::string(to_string(plan->action)) +
                  "; it is the operator's to do (" + errno_text(ec) + ")";
        else if (ec == std::errc::no_such_file_or_directory)
            msg = what + ": nothing pending (" + errno_text(ec) + ")";
        render(out, Json{{"plan", std::move(doc)}}, opts);
        fail(err, msg, ec);
        return kExitError;
    }
    render(out, Json{{"run", recovery_run_json(std::move(doc), *ran)}}, opts);
    switch (ran->result.outcome) {
    case RecoveryOutcome::cleared:
        return kExitOk;
    case RecoveryOutcome::none:
        fail(err,
             what + ": the device's driver is resetting it on its own already; that reset stands " +
                 "for the " + std::string(to_string(plan->action)) +
                 ", still pending until it ends (" + errno_text(ran->result.error) + ")",
             kExitError);
        return kExitError;
    case RecoveryOutcome::escalated:
        fail(err,
             what + ": the self-test failed (" + errno_text(ran->result.error) +
                 "); escalated to " + std::string(to_string(ran->result.action)) + ", now pending",
             kExitError);
        return kExitError;
    default:
        fail(err,
             what + ": " + std::string(to_string(plan->action)) + " failed midway (" +
                 errno_text(ran->result.error) + "); state failed",
             kExitError);
        return kExitError;
    }
}

} // namespace amdx::cli
