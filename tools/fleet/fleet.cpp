// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Registers `amdx exporter`, `amdx health` and `amdx partition export` with
// the parser (fleet.hpp); the commands are in exporter.cpp, health.cpp and
// partition_export.cpp.
#include "fleet.hpp"

#include "commands.hpp"

namespace amdx::cli {

namespace {

/// --listen's ADDR:PORT: a host name, an IPv4 address or a bracketed IPv6
/// address, and a decimal port up to 65535 (0: a free one).
CLI::Validator listen_validator() {
    return {[](const std::string& text) -> std::string {
                const auto colon = text.rfind(':');
                std::string want =
                    "expected ADDR:PORT (127.0.0.1:9464, [::1]:9464), got '" + text + "'";
                if (colon == std::string::npos || colon == 0)
                    return want;
                const std::string port = text.substr(colon + 1);
                if (port.empty() || port.size() > 5 ||
                    port.find_first_not_of("0123456789") != std::string::npos ||
                    std::stoul(port) > 65535)
                    return want;
                const std::string addr = text.substr(0, colon);
                if (addr.find(':') != std::string::npos &&
                    (addr.front() != '[' || addr.back() != ']'))
                    return want; // an IPv6 address without brackets
                return {};
            },
            "ADDR:PORT", "listen address"};
}

} // namespace

FleetCommands::FleetCommands(CLI::App& app) {
    exporter_ = app.add_subcommand(
        "exporter", "Prometheus metrics: a node-exporter textfile (default) or HTTP /metrics");
    exporter_->fallthrough();
    auto* textfile = exporter_
                         ->add_option("--textfile", textfile_,
                                      "Write the metrics to this file (through a temporary file "
                                      "and a rename); '-' for standard output")
                         ->capture_default_str();
    auto* interval = exporter_
                         ->add_option("--interval", interval_s_,
                                      "Textfile mode: collect again every SEC seconds (0: once)")
                         ->check(CLI::Range(0.0, 86400.0));
    // HTTP or a textfile, not both: one of them would be ignored.  The
    // address is checked here, so a bad one is a usage error.
    exporter_
        ->add_option("--listen", listen_,
                     "Serve /metrics over HTTP on ADDR:PORT (not with --textfile, --interval)")
        ->check(listen_validator())
        ->excludes(textfile)
        ->excludes(interval);
    exporter_
        ->add_option("--iterations", iterations_,
                     "Stop after N collections (--interval) or N seconds (--listen); 0: "
                     "run until SIGTERM")
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{UINT32_MAX}));

    health_ = app.add_subcommand(
        "health", "Health verdict per device and partition (Node Problem Detector exit codes)");
    health_->fallthrough();
    add_dev_option(health_, health_dev_, true);
    health_journal_ =
        health_
            ->add_option("--journal", journal_,
                         "Event journal (JSON lines of amdx-eventd or 'amdx monitor -j')")
            ->capture_default_str();
    health_
        ->add_option("--ue-age", ue_age_s_,
                     "Seconds after which an uncorrected error that did not repeat is stale")
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{366} * 86400))
        ->capture_default_str();
    health_
        ->add_option("--journal-window", journal_window_mib_,
                     "Read only the newest MiB of the journal (bounds a run's time); a window "
                     "shorter than --ue-age is degraded")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{4096}))
        ->capture_default_str();
    health_->add_flag("--strict", strict_, "Exit 1 for degraded too (default: unhealthy only)");

    // `partition export` joins the partition OBJECT's commands.
    if (auto partition = app.get_subcommand_ptr("partition")) {
        export_ = partition->add_subcommand(
            "export", "Partition profiles for schedulers: Kubernetes DRA or Slurm gres.conf");
        export_->fallthrough();
        // Checked at parse time: a usage error never depends on the module.
        add_dev_option(export_, export_dev_, true);
        export_->add_option("--format", format_, "dra (ResourceSlice JSON) or slurm (gres.conf)")
            ->check(CLI::IsMember({"dra", "slurm"}))
            ->capture_default_str();
        export_->add_option("--node", node_, "Node name (default: this host's name)");
        export_->add_option("--driver", driver_, "DRA driver name")->capture_default_str();
        export_->add_option("--files", files_,
                            "slurm: each partition's device file, a path with {device} and "
                            "{partition} (default: its render node, where amdgpu has one)");
    }
    // `monitor --from-journal` replays amdx-eventd's journal (replay.cpp).
    if (auto monitor = app.get_subcommand_ptr("monitor")) {
        monitor_ = monitor.get();
        from_journal_ =
            monitor_
                ->add_option("--from-journal", journal_,
                             "Print the records amdx-eventd journaled in FILE (default " +
                                 journal_ + ") instead of following live ones")
                ->expected(0, 1);
        since_opt_ = monitor_->add_option("--since", since_,
                                          "With --from-journal: only records after seq SEQ");
    }
}

bool FleetCommands::parsed() const {
    return exporter_->parsed() || health_->parsed() ||
           ((export_ != nullptr) && export_->parsed()) ||
           ((monitor_ != nullptr) && monitor_->parsed() &&
            (from_journal_->count() > 0 || since_opt_->count() > 0));
}

int FleetCommands::run(const Options& opts, std::ostream& out, std::ostream& err) const {
    if (exporter_->parsed())
        return exporter(opts, out, err);
    if (health_->parsed())
        return health(opts, out, err);
    if ((export_ != nullptr) && export_->parsed())
        return partition_export(opts, out, err);
    if (since_opt_->count() > 0 && from_journal_->count() == 0) {
        fail(err, "monitor: --since needs --from-journal (the kernel keeps no history)");
        return kExitUsage;
    }
    std::vector<std::string> devs;
    if (const auto* dev = monitor_->get_option_no_throw("DEV");
        (dev != nullptr) && dev->count() > 0)
        devs = dev->as<std::vector<std::string>>();
    return replay(opts, devs, out, err);
}

} // namespace amdx::cli
