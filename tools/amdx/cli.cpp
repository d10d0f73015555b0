// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// amdx [OPTIONS] OBJECT COMMAND [ARGS]; `show` is the default COMMAND.
#include "cli.hpp"

#include <exception>
#include <ostream>

#include <CLI/CLI.hpp>

#include <amdx/identity.hpp>

#include "commands.hpp"
#include "fleet.hpp"

namespace amdx::cli {

namespace {

bool is_gone(std::error_code ec) {
    return ec == std::errc::no_such_device || ec == std::errc::no_such_file_or_directory;
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

int dev_list(const Options& opts, std::ostream& out, std::ostream& err) {
    const auto control = open_control(opts, err);
    if (!control)
        return kExitError;
    const auto entries = control->devices();
    if (!entries) {
        fail(err, request_error(opts.node, "device list", entries.error()));
        return kExitError;
    }
    Json devices = Json::array();
    for (const auto& entry : *entries)
        devices.push_back(entry_to_json(entry));
    render(out, Json{{"devices", std::move(devices)}}, opts.format);
    return kExitOk;
}

int dev_show(const Options& opts, const std::string& dev, std::ostream& out, std::ostream& err) {
    const auto selector = parse_selector(dev);
    if (!selector) {
        fail(err, "invalid device '" + dev + "' (expected an id, a PCI address or 'all')");
        return kExitUsage;
    }
    const auto control = open_control(opts, err);
    if (!control)
        return kExitError;
    const auto entries = control->devices();
    if (!entries) {
        fail(err, request_error(opts.node, "device list", entries.error()));
        return kExitError;
    }
    Json devices = Json::array();
    for (const auto& entry : *entries) {
        if (!selector->matches(entry))
            continue;
        const auto info = control->device_info(entry.id);
        if (!info && is_gone(info.error()) && selector->kind == Selector::Kind::all)
            continue; // removed since the listing
        if (!info && is_gone(info.error())) {
            fail(err, "no such device: " + dev);
            return kExitError;
        }
        if (!info) {
            fail(err, request_error(opts.node, "device " + std::to_string(entry.id) + " info",
                                    info.error()));
            return kExitError;
        }
        Json one = info_to_json(*info);
        one["identity"] = identity_to_json(info->bdf);
        devices.push_back(std::move(one));
    }
    if (devices.empty() && selector->kind != Selector::Kind::all) {
        fail(err, "no such device: " + dev);
        return kExitError;
    }
    render(out, Json{{"devices", std::move(devices)}}, opts.format);
    return kExitOk;
}

int dispatch(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    CLI::App app{"Control AMD Instinct devices through the amdx kernel module.", "amdx"};
    Options opts;
    bool json = false;
    bool pretty = false;
    bool version = false;
    app.add_flag("-j,--json", json, "JSON output");
    app.add_flag("-p,--pretty", pretty, "Pretty-printed JSON output (implies --json)");
    app.add_option("-d,--device-node", opts.node, "The amdx control node")->capture_default_str();
    app.add_flag("-V,--version", version, "Print the version and exit");
    app.require_subcommand(0, 1);
    app.footer(
        "Grammar: amdx [OPTIONS] OBJECT [COMMAND] [ARGS]\n"
        "  OBJECT := { dev | hmm | partition | vf | ras | monitor }\n"
        "  dev COMMAND := { list | show [DEV] }   (show is the default)\n"
        "  hmm COMMAND := { show [DEV] | demo [DEV] [size=BYTES] [partition=N] }\n"
        "  partition COMMAND := { show [DEV] | plan DEV CHANGE | set DEV CHANGE [--drain]\n"
        "                         [--deadline-ms N] }   CHANGE := [--compute M] [--memory M]\n"
        "  vf COMMAND := { show [DEV] | enable DEV N [--config FILE] | disable DEV\n"
        "                  | set DEV VF [--vram-mib N] [--time-slice-us N] [--priority P]\n"
        "                    [--evict | --no-evict] | reset DEV VF }\n"
        "  ras COMMAND := { show [DEV] | inject DEV --block B --type T [--instance N]\n"
        "                   [--address A] [--count N] | policy { show [DEV] | set DEV KNOBS }\n"
        "                   | badpages [DEV] [--export FILE | --import FILE] }\n"
        "  monitor [DEV...] [--kinds K,...] [--count N] [--timeout-ms N] [--ring-size N]\n"
        "  DEV := { ID | BDF | all }               (all is the default)");

    auto* dev = app.add_subcommand("dev", "AMD Instinct devices (COMMAND: list, show)");
    dev->fallthrough()->require_subcommand(0, 1);
    auto* list = dev->add_subcommand("list", "List devices: id, PCI address, model");
    list->fallthrough();
    std::string selector = "all";
    auto* show = dev->add_subcommand("show", "Show device details (the default COMMAND)");
    show->fallthrough();
    show->add_option("DEV", selector, "Device id, PCI address or 'all'")->capture_default_str();

    auto* hmm = app.add_subcommand("hmm", "HMM migration (COMMAND: show, demo)");
    hmm->fallthrough()->require_subcommand(0, 1);
    std::string hmm_selector = "all";
    auto* hmm_show_cmd = hmm->add_subcommand(
        "show", "HMM capability, VRAM free per partition, this process's ranges (default)");
    hmm_show_cmd->fallthrough();
    hmm_show_cmd->add_option("DEV", hmm_selector, "Device id, PCI address or 'all'")
        ->capture_default_str();
    std::vector<std::string> demo_args;
    auto* hmm_demo_cmd = hmm->add_subcommand(
        "demo", "Migrate a buffer to VRAM, fault it back with the CPU, verify it");
    hmm_demo_cmd->fallthrough();
    hmm_demo_cmd->add_option("ARGS", demo_args, "[DEV] [size=BYTES] [partition=N]");

    const PartitionCommands partition(app);
    const VfCommands vf(app);
    const RasCommands ras(app);
    const MonitorCommand monitor(app);
    const FleetCommands fleet(app); // exporter, health, partition export

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0)
            return app.exit(e, out, err);
        fail(err, e.what());
        return kExitUsage;
    }

    if (version) {
        out << "amdx " << AMDX_VERSION << " (uapi " << AMDX_UAPI_VERSION_MAJOR << '.'
            << AMDX_UAPI_VERSION_MINOR << ")\n";
        return kExitOk;
    }
    if (pretty)
        opts.format = Format::json_pretty;
    else if (json)
        opts.format = Format::json;

    if (dev->parsed())
        return list->parsed() ? dev_list(opts, out, err) : dev_show(opts, selector, out, err);
    if (hmm->parsed())
        return hmm_demo_cmd->parsed() ? hmm_demo(opts, demo_args, out, err)
                                      : hmm_show(opts, hmm_selector, out, err);
    if (fleet.parsed())
        return fleet.run(opts, out, err);
    if (partition.parsed())
        return partition.run(opts, out, err);
    if (vf.parsed())
        return vf.run(opts, out, err);
    if (ras.parsed())
        return ras.run(opts, out, err);
    if (monitor.parsed())
        return monitor.run(opts, out, err);
    fail(err, "missing OBJECT (try 'amdx --help')");
    return kExitUsage;
}

} // namespace

void fail(std::ostream& err, const std::string& msg) {
    err << "amdx: " << msg << '\n';
}

std::optional<Control> open_control(const Options& opts, std::ostream& err) {
    auto control = Control::open(opts.node);
    if (!control && control.error() == std::errc::protocol_not_supported)
        fail(err, control.context().detail); // the uapi major version
    else if (!control && control.context().call == "AMDX_QUERY_CAPS")
        fail(err, request_error(opts.node, "capability query", control.error()));
    else if (!control)
        fail(err, open_error(opts.node, control.error()));
    if (!control)
        return std::nullopt;
    auto caps = control->caps();
    if (!caps) {
        fail(err, request_error(opts.node, "capability query", caps.error()));
        return std::nullopt;
    }
    if (caps->version_major != AMDX_UAPI_VERSION_MAJOR) {
        fail(err, "kernel amdx uapi " + std::to_string(caps->version_major) + "." +
                      std::to_string(caps->version_minor) + " is not supported (amdx speaks " +
                      std::to_string(AMDX_UAPI_VERSION_MAJOR) + ".x)");
        return std::nullopt;
    }
    if (!caps->has(AMDX_CAP_DEVICE_QUERY)) {
        fail(err, "kernel amdx does not support device queries");
        return std::nullopt;
    }
    return std::move(*control);
}

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    try {
        return dispatch(argc, argv, out, err);
    } catch (const std::exception& e) { // e.g. std::bad_alloc; still one line
        fail(err, e.what());
        return kExitError;
    }
}

} // namespace amdx::cli
