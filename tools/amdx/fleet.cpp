// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Registers `amdx exporter`, `amdx health` and `amdx partition export` with
// the parser (fleet.hpp); the commands are in exporter.cpp, health.cpp and
// partition_export.cpp.
#include "fleet.hpp"

namespace amdx::cli {

FleetCommands::FleetCommands(CLI::App& app) {
    exporter_ = app.add_subcommand(
        "exporter", "Prometheus metrics: a node-exporter textfile (default) or HTTP /metrics");
    exporter_->fallthrough();
    exporter_->add_option("--textfile", textfile_,
                          "Write the metrics to this file (through a temporary file and a "
                          "rename); '-' for standard output")
        ->capture_default_str();
    exporter_->add_option("--listen", listen_, "Serve /metrics over HTTP on ADDR:PORT");
    exporter_->add_option("--interval", interval_s_,
                          "Textfile mode: collect again every SEC seconds (0: once)")
        ->check(CLI::NonNegativeNumber);
    exporter_->add_option("--iterations", iterations_,
                          "Stop after N collections (--interval) or N seconds (--listen); 0: "
                          "run until SIGTERM");

    health_ = app.add_subcommand(
        "health", "Health verdict per device and partition (Node Problem Detector exit codes)");
    health_->fallthrough();
    health_->add_option("DEV", health_dev_, "Device id, PCI address or 'all'")
        ->capture_default_str();
    health_->add_option("--journal", journal_,
                        "Event journal (JSON lines of amdx-eventd or 'amdx monitor -j')")
        ->capture_default_str();
    health_->add_option("--ue-age", ue_age_s_,
                        "Seconds after which an uncorrected error that did not repeat is stale")
        ->capture_default_str();
    health_->add_flag("--strict", strict_, "Exit 1 for degraded too (default: unhealthy only)");

    // `partition export` joins the partition OBJECT's commands.
    if (auto partition = app.get_subcommand_ptr("partition")) {
        export_ = partition->add_subcommand(
            "export", "Partition profiles for schedulers: Kubernetes DRA or Slurm gres.conf");
        export_->fallthrough();
        export_->add_option("DEV", export_dev_, "Device id, PCI address or 'all'")
            ->capture_default_str();
        export_->add_option("--format", format_, "dra (ResourceSlice JSON) or slurm (gres.conf)")
            ->check(CLI::IsMember({"dra", "slurm"}))
            ->capture_default_str();
        export_->add_option("--node", node_, "Node name (default: this host's name)");
        export_->add_option("--driver", driver_, "DRA driver name")->capture_default_str();
    }
    app.footer(app.get_footer() +
               "\n  exporter [--textfile PATH|-] [--listen ADDR:PORT] [--interval SEC]\n"
               "  health [DEV] [--journal FILE] [--ue-age SEC] [--strict]\n"
               "  partition export [DEV] [--format dra|slurm] [--node NAME]");
}

bool FleetCommands::parsed() const {
    return exporter_->parsed() || health_->parsed() || (export_ && export_->parsed());
}

int FleetCommands::run(const Options& opts, std::ostream& out, std::ostream& err) const {
    if (exporter_->parsed())
        return exporter(opts, out, err);
    if (health_->parsed())
        return health(opts, out, err);
    return partition_export(opts, out, err);
}

} // namespace amdx::cli
