// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// amdx [OPTIONS] OBJECT COMMAND [ARGS]; `show` is the default COMMAND.
//
// Everything the command line can get wrong is found while parsing (CLI11
// validators for DEV, enums and ranges), before /dev/amdx is opened, so a
// usage error's exit status never depends on the module.  CLI11's own
// messages are rewritten into the one "amdx: ..." line.
#include "cli.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include <amdx/identity.hpp>
#include <amdx/version.hpp>

#include "commands.hpp"
#include "doctor.hpp"
#include "fleet.hpp"
#include "ps.hpp"
#include "tree.hpp"

namespace amdx::cli {

namespace {

/// The exit status of the one error line (fail() with a code); 0 if the
/// line did not classify its failure.
thread_local int t_status = 0;

bool is_gone(std::error_code ec) {
    return ec == std::errc::no_such_device || ec == std::errc::no_such_file_or_directory;
}

int dev_list(const Options& opts, std::ostream& out, std::ostream& err) {
    const auto control = open_control(opts, err);
    if (!control)
        return kExitError;
    const auto entries = control->devices();
    if (!entries) {
        fail(err, request_error(opts.node, "device list", entries.error()), entries.error());
        return kExitError;
    }
    Json devices = Json::array();
    for (const auto& entry : *entries)
        devices.push_back(entry_to_json(entry));
    render(out, Json{{"devices", std::move(devices)}}, opts);
    return kExitOk;
}

int dev_show(const Options& opts, const std::string& dev, std::ostream& out, std::ostream& err) {
    int code = kExitOk;
    auto sel = select_devices(opts, dev, true, err, code);
    if (!sel)
        return code;
    std::string what;
    const auto gpus = gpus_of(*sel, opts, what);
    if (!gpus) {
        fail(err, request_error(opts.node, what, gpus.error()), gpus.error());
        return kExitError;
    }
    const bool all = parse_selector(dev)->kind == Selector::Kind::all;
    Json devices = Json::array();
    for (const auto& entry : sel->entries) {
        const auto info = sel->control.device_info(entry.id);
        if (!info && is_gone(info.error()) && all)
            continue; // removed since the listing
        if (!info && is_gone(info.error())) {
            fail(err, "no such device: " + std::to_string(entry.id) + " (it went away)",
                 kExitNoDevice);
            return kExitError;
        }
        if (!info) {
            fail(err,
                 request_error(opts.node, "device " + std::to_string(entry.id) + " info",
                               info.error()),
                 info.error());
            return kExitError;
        }
        const auto device = Device::open(sel->control, entry.id);
        devices.push_back(
            dev_show_json(*info, device ? &*device : nullptr, gpus_to_json(**gpus, entry.id)));
    }
    render(out, Json{{"devices", std::move(devices)}}, opts);
    return kExitOk;
}

/// `dev firmware`: per device, the driver's and the firmware's versions;
/// a provider that reads none (the amdgpu provider, a module before uapi
/// minor 4) gives a null list and the reason in "note", not a failure.
int dev_firmware(const Options& opts, const std::string& dev, std::ostream& out,
                 std::ostream& err) {
    return show_devices(
        opts, dev, out, err,
        [](const Device& device, const DeviceEntry& e,
           std::ostream& err_out) -> std::optional<Json> {
            const auto fw = device.firmware();
            if (fw)
                return firmware_show_json(e, *fw);
            Json one{{"device", e.id}, {"bdf", e.bdf}};
            if (fw.error() != std::errc::operation_not_supported &&
                fw.error() != std::errc::invalid_argument) {
                fail(err_out, device_error(what_on("dev firmware", e), fw.error()), fw.error());
                return std::nullopt;
            }
            one["driver"] = nullptr;
            one["firmware"] = nullptr;
            one["note"] = fw.error() == std::errc::invalid_argument
                              ? "the amdx module predates firmware queries (uapi minor 4)"
                              : "the device's provider reports no firmware versions";
            return one;
        });
}

/// The amdx module's own version, from sysfs below @sysfs (MODULE_VERSION:
/// dkms.conf's PACKAGE_VERSION), if it has one.
std::string module_version(const std::string& sysfs) {
    for (const char* file : {"/module/amdx/version", "/module/amdx/srcversion"}) {
        std::ifstream in(sysfs + file);
        std::string v;
        if (in && std::getline(in, v) && !v.empty())
            return v;
    }
    return {};
}

int print_version(const Options& opts, std::ostream& out) {
    out << "amdx " << AMDX_VERSION << '\n';
    out << "libamdx " << amdx::version().text << '\n';
    out << "uapi " << AMDX_UAPI_VERSION_MAJOR << '.' << AMDX_UAPI_VERSION_MINOR << " (built for)\n";
    auto control = Control::open(opts.node);
    const auto caps = control ? control->caps() : Result<Caps>(Unexpected(control.error()));
    if (!caps) {
        out << "module not loaded (" << opts.node << ": " << errno_text(caps.error()) << ")\n";
        return kExitOk;
    }
    const std::string version = module_version(opts.sysfs);
    out << "module amdx " << (version.empty() ? "(no version)" : version) << ", uapi "
        << caps->version_major << '.' << caps->version_minor << '\n';
    return kExitOk;
}

bool is_stdout_buf(const std::streambuf* buf) {
    const auto* fd_buf = dynamic_cast<const FdOutBuf*>(buf);
    return fd_buf != nullptr && fd_buf->fd() == STDOUT_FILENO;
}

/// Levenshtein distance, for "did you mean".
std::size_t distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1] ? 1 : 0)});
            diag = up;
        }
    }
    return row[b.size()];
}

/// The deepest parsed command ("amdx ras policy").
CLI::App* deepest(CLI::App* app, std::string& path) {
    path = "amdx";
    for (bool found = true; found;) {
        found = false;
        for (auto* sub : app->get_subcommands([](CLI::App* s) { return s->parsed(); })) {
            app = sub;
            path += " " + sub->get_name();
            found = true;
            break;
        }
    }
    return app;
}

/// CLI11's message as the one line: what is wrong and what to do.
std::string usage_message(CLI::App& app, const CLI::ParseError& e, int argc,
                          const char* const* argv) {
    std::string path;
    CLI::App* cmd = deepest(&app, path);
    const std::string help = " (see '" + path + " --help')";
    std::string what = e.what();
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
        // "The following argument(s) was/were not expected: a b"
        const auto colon = what.find(": ");
        std::vector<std::string> extras;
        std::string rest = colon == std::string::npos ? what : what.substr(colon + 2);
        for (std::size_t pos = 0; pos < rest.size();) {
            const auto sp = rest.find(' ', pos);
            extras.push_back(rest.substr(pos, sp - pos));
            pos = sp == std::string::npos ? rest.size() : sp + 1;
        }
        std::string first = extras.empty() ? std::string() : extras.front();
        for (int i = 1; i < argc; ++i) // the first in command-line order
            if (std::find(extras.begin(), extras.end(), argv[i]) != extras.end()) {
                first = argv[i];
                break;
            }
        std::string best;
        std::size_t best_d = 3; // at most two edits away
        for (const auto* sub : cmd->get_subcommands({})) {
            const std::size_t d = distance(first, sub->get_name());
            if (d < best_d) {
                best_d = d;
                best = sub->get_name();
            }
        }
        const bool object = cmd == &app;
        std::string msg = "unexpected argument '" + first + "'";
        if (!cmd->get_subcommands({}).empty())
            msg = (object ? "unknown object '" : "unknown command '") + first + "' for '" + path +
                  "'";
        if (!best.empty())
            return msg + ": did you mean '" + path + " " + best + "'?";
        return msg + help;
    }
    return parse_error_text(*cmd, e) + help;
    return what + help;
}

} // namespace

namespace {

/// The option @name ("--count", "N") of @cmd or, through fallthrough, of
/// its parents.
const CLI::Option* find_option(const CLI::App& cmd, const std::string& name) {
    for (const CLI::App* c = &cmd; c != nullptr; c = c->get_parent())
        if (const auto* o = c->get_option_no_throw(name))
            return o;
    return nullptr;
}

/// "86400" for CLI11's "86400.000000".
std::string trim_number(std::string n) {
    if (n.find('.') == std::string::npos)
        return n;
    while (n.back() == '0')
        n.pop_back();
    if (n.back() == '.')
        n.pop_back();
    return n;
}

/// Whether @value reads as the number @opt takes (its type name's INT,
/// UINT or FLOAT); true for any value of an option of another type.
bool reads_as_number(const CLI::Option* opt, const std::string& value) {
    const std::string type = opt == nullptr ? std::string() : opt->get_type_name();
    if (type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0) {
        const std::size_t digits = value.rfind('-', 0) == 0 ? 1 : 0;
        return value.size() > digits &&
               std::all_of(value.begin() + static_cast<std::ptrdiff_t>(digits), value.end(),
                           [](char c) { return c >= '0' && c <= '9'; });
    }
    if (type.rfind("FLOAT", 0) == 0) {
        char* end = nullptr;
        std::strtod(value.c_str(), &end);
        return !value.empty() && end == value.c_str() + value.size();
    }
    return true;
}

/// "not a whole number: abc", "not a number: abc".
std::string not_a_number(const CLI::Option* opt, const std::string& value) {
    const bool whole = opt != nullptr && opt->get_type_name().rfind("FLOAT", 0) != 0;
    return (whole ? "not a whole number: " : "not a number: ") + value;
}

} // namespace

std::string parse_error_text(const CLI::App& cmd, const CLI::ParseError& e) {
    std::string what = e.what();
    // "DEV: invalid device ..." (our validator names DEV itself).
    if (what.rfind("DEV: ", 0) == 0)
        what.erase(0, 5);
    // Two failed checks of one option: "--x: (first) AND (second)"; the
    // first is the cause.
    if (const auto both = what.find(") AND ("); both != std::string::npos) {
        const auto open = what.rfind(": (", both);
        if (open != std::string::npos)
            what = what.substr(0, open + 2) + what.substr(open + 3, both - open - 3);
    }
    // "--count: Value abc not in range 1 to 1024": a value that is no
    // number says so; bounds without CLI11's float digits.
    if (const auto v = what.find(": Value "); v != std::string::npos) {
        const std::string name = what.substr(0, v);
        const std::string rest = what.substr(v + 8);
        const auto in = rest.find(" not in range ");
        const auto to = rest.find(" to ", in == std::string::npos ? 0 : in);
        if (in != std::string::npos && to != std::string::npos) {
            const std::string value = rest.substr(0, in);
            const std::string range = trim_number(rest.substr(in + 14, to - in - 14)) + " to " +
                                      trim_number(rest.substr(to + 4));
            const CLI::Option* opt = find_option(cmd, name);
            return reads_as_number(opt, value)
                       ? name + ": value " + value + " not in range " + range
                       : name + ": " + not_a_number(opt, value) + " (expected " + range + ")";
        }
        what[v + 2] = 'v';
    }
    // "Could not convert: --since = abc"
    if (what.rfind("Could not convert: ", 0) == 0) {
        const std::string rest = what.substr(19);
        const auto eq = rest.find(" = ");
        if (eq != std::string::npos) {
            const std::string name = rest.substr(0, eq);
            return name + ": " + not_a_number(find_option(cmd, name), rest.substr(eq + 3));
        }
    }
    // "--device-node: At Most 1 required but received 3"
    if (const auto most = what.find(": At Most "); most != std::string::npos) {
        const auto but = what.find(" required but received ", most);
        if (but != std::string::npos)
            return what.substr(0, most) + ": given " + what.substr(but + 23) + " times, at most " +
                   what.substr(most + 10, but - most - 10);
    }
    // "--block: 1 required TEXT:{umc,...} missing"
    if (const auto req = what.find(" required ");
        req != std::string::npos && what.size() > 8 &&
        what.compare(what.size() - 8, 8, " missing") == 0) {
        const auto colon = what.rfind(": ", req);
        if (colon != std::string::npos)
            return what.substr(0, colon) + ": a value is missing";
    }
    return what;
}

/// The tree's parts: the parser and the values and commands it parses into.
struct CommandTree::Parts {
    explicit Parts(Options& opts);

    CLI::App app{"Control AMD Instinct devices through the amdx kernel module.", "amdx"};
    bool json = false;
    bool pretty = false;
    bool csv = false;
    bool version = false;
    std::string color = "auto";
    CLI::App* dev = nullptr;
    CLI::App* list = nullptr;
    std::string selector = "all";
    CLI::App* firmware = nullptr;
    std::string fw_selector = "all";
    CLI::App* hmm = nullptr;
    CLI::App* hmm_demo_cmd = nullptr;
    std::string hmm_selector = "all";
    std::vector<std::string> demo_args;
    // Each registers its commands in the constructor, in this order.
    std::optional<PartitionCommands> partition;
    std::optional<VfCommands> vf;
    std::optional<RasCommands> ras;
    std::optional<RecoverCommands> recover;
    std::optional<LinkCommands> link;
    std::optional<MonitorCommand> monitor;
    std::optional<FleetCommands> fleet; // exporter, health, partition export
    std::optional<DoctorCommand> doctor;
    std::optional<PsCommand> ps;
};

CommandTree::Parts::Parts(Options& opts) {
    app.formatter(help_formatter());
    auto* json_flag = app.add_flag("-j,--json", json, "JSON output");
    auto* pretty_flag =
        app.add_flag("-p,--pretty", pretty, "Pretty-printed JSON output (implies --json)");
    app.add_flag("--csv", csv,
                 "CSV output of the table views (dev, partition show, vf show, ras show, "
                 "link show, ps, monitor -i)")
        ->excludes(json_flag)
        ->excludes(pretty_flag);
    app.add_option("-d,--device-node", opts.node, "The amdx control node")->capture_default_str();
    app.add_option("--sysfs-root", opts.sysfs, "Where sysfs is (tests)")->group(""); // hidden
    app.add_option("-o,--output", opts.columns,
                   "Table columns to print, by their JSON key (comma-separated)")
        ->delimiter(',');
    app.add_flag("--raw", opts.raw, "Tables without alignment, one space between columns");
    app.add_option("--color", color, "Nonzero error counters in colour")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->capture_default_str();
    app.add_flag("-V,--version", version,
                 "Print the versions of amdx, libamdx, the uapi and the "
                 "loaded module, and exit");
    app.require_subcommand(0, 1);

    dev = app.add_subcommand("dev", "AMD Instinct devices (COMMAND: list, show, firmware)");
    dev->fallthrough()->require_subcommand(0, 1);
    list = dev->add_subcommand("list", "List devices: id, PCI address, model");
    list->fallthrough();
    auto* show = dev->add_subcommand("show", "Show device details (the default COMMAND)");
    show->fallthrough();
    add_dev_option(show, selector, true);
    firmware = dev->add_subcommand(
        "firmware", "Driver and firmware versions, where the device's provider knows them");
    firmware->fallthrough();
    add_dev_option(firmware, fw_selector, true);

    hmm = app.add_subcommand("hmm", "HMM migration (COMMAND: show, demo)");
    hmm->fallthrough()->require_subcommand(0, 1);
    auto* hmm_show_cmd = hmm->add_subcommand(
        "show", "HMM capability, VRAM free per partition, this process's ranges (default)");
    hmm_show_cmd->fallthrough();
    add_dev_option(hmm_show_cmd, hmm_selector, true);
    hmm_demo_cmd = hmm->add_subcommand(
        "demo", "Migrate a buffer to VRAM, fault it back with the CPU, verify it");
    hmm_demo_cmd->fallthrough();
    hmm_demo_cmd->add_option("ARGS", demo_args, "[DEV] [size=BYTES] [partition=N]");

    partition.emplace(app);
    vf.emplace(app);
    ras.emplace(app);
    recover.emplace(app);
    link.emplace(app);
    monitor.emplace(app);
    fleet.emplace(app);
    doctor.emplace(app);
    ps.emplace(app);
    list_commands(app);
}

CommandTree::CommandTree(Options& opts) : parts_(std::make_unique<Parts>(opts)) {}

CommandTree::~CommandTree() = default;

CLI::App& CommandTree::app() {
    return parts_->app;
}

int CommandTree::run(Options& opts, std::ostream& out, std::ostream& err) const {
    const Parts& p = *parts_;
    if (p.version)
        return print_version(opts, out);
    opts.color = p.color == "always" ||
                 (p.color == "auto" && (&out == &std::cout || is_stdout_buf(out.rdbuf())) &&
                  ::isatty(STDOUT_FILENO) == 1 && std::getenv("NO_COLOR") == nullptr);
    if (p.csv) {
        // The views whose output is a list; a change or a stream is not
        // (monitor: only with -i, which monitor checks).
        static const std::set<std::string> kViews = {"amdx dev",
                                                     "amdx dev list",
                                                     "amdx dev show",
                                                     "amdx partition",
                                                     "amdx partition show",
                                                     "amdx vf",
                                                     "amdx vf show",
                                                     "amdx ras",
                                                     "amdx ras show",
                                                     "amdx ps",
                                                     "amdx monitor",
                                                     "amdx link",
                                                     "amdx link show"};
        std::string path;
        deepest(const_cast<CLI::App*>(&p.app), path);
        if (kViews.count(path) == 0) {
            fail(err, "--csv: '" + path +
                          "' is not a table view (dev, partition show, vf show, ras show, "
                          "link show, ps, monitor -i)");
            return kExitUsage;
        }
        opts.format = Format::csv;
    } else if (p.pretty)
        opts.format = Format::json_pretty;
    else if (p.json)
        opts.format = Format::json;

    if (p.dev->parsed() && p.firmware->parsed())
        return dev_firmware(opts, p.fw_selector, out, err);
    if (p.dev->parsed())
        return p.list->parsed() ? dev_list(opts, out, err) : dev_show(opts, p.selector, out, err);
    if (p.hmm->parsed())
        return p.hmm_demo_cmd->parsed() ? hmm_demo(opts, p.demo_args, out, err)
                                        : hmm_show(opts, p.hmm_selector, out, err);
    if (p.fleet->parsed())
        return p.fleet->run(opts, out, err);
    if (p.doctor->parsed())
        return p.doctor->run(opts, out, err);
    if (p.ps->parsed())
        return p.ps->run(opts, out, err);
    if (p.partition->parsed())
        return p.partition->run(opts, out, err);
    if (p.vf->parsed())
        return p.vf->run(opts, out, err);
    if (p.ras->parsed())
        return p.ras->run(opts, out, err);
    if (p.recover->parsed())
        return p.recover->run(opts, out, err);
    if (p.link->parsed())
        return p.link->run(opts, out, err);
    if (p.monitor->parsed())
        return p.monitor->run(opts, out, err);
    fail(err, "missing OBJECT: one of " + object_list(p.app) + " (see 'amdx --help')");
    return kExitUsage;
}

namespace {

int dispatch(int argc, const char* const* argv, Options& opts, std::ostream& out,
             std::ostream& err) {
    CommandTree tree(opts);
    CLI::App& app = tree.app();
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0)
            return app.exit(e, out, err);
        const std::string msg = usage_message(app, e, argc, argv);
        fail(err, msg);
        // Node Problem Detector reads a plugin's standard output: its
        // Unknown (2) needs the reason there too (health.rst).
        std::string path;
        if (deepest(&app, path); path == "amdx health")
            out << "amdx health: unknown: " << msg << '\n';
        return kExitUsage;
    }
    return tree.run(opts, out, err);
}

} // namespace

void fail(std::ostream& err, const std::string& msg) {
    err << "amdx: " << msg << '\n';
}

std::optional<std::string> read_input(const std::string& path, const Options& opts,
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

void keep_exit_status() noexcept {
    t_status = 0;
}

void fail(std::ostream& err, const std::string& msg, int code) {
    fail(err, msg);
    t_status = code;
}

void fail(std::ostream& err, const std::string& msg, std::error_code ec) {
    fail(err, msg, exit_code(ec));
}

std::optional<Control> open_control(const Options& opts, std::ostream& err) {
    auto control = Control::open(opts.node);
    if (!control) {
        const auto ec = control.error();
        const bool missing = ec == std::errc::no_such_file_or_directory ||
                             ec == std::errc::no_such_device ||
                             ec == std::errc::no_such_device_or_address;
        const bool foreign = ec == std::errc::inappropriate_io_control_operation;
        if (ec == std::errc::protocol_not_supported) // the uapi major version
            fail(err, control.context().detail, kExitNotSupported);
        else if (control.context().call == "AMDX_QUERY_CAPS")
            fail(err, request_error(opts.node, "capability query", ec),
                 foreign ? kExitNoModule : exit_code(ec));
        else
            fail(err, open_error(opts.node, ec), missing ? kExitNoModule : exit_code(ec));
        return std::nullopt;
    }
    auto caps = control->caps();
    if (!caps) {
        const bool foreign = caps.error() == std::errc::inappropriate_io_control_operation;
        fail(err, request_error(opts.node, "capability query", caps.error()),
             foreign ? kExitNoModule : exit_code(caps.error()));
        return std::nullopt;
    }
    if (!caps->has(AMDX_CAP_DEVICE_QUERY)) {
        fail(err, "kernel amdx does not support device queries", kExitNotSupported);
        return std::nullopt;
    }
    return std::move(*control);
}

int run(int argc, const char* const* argv, std::istream& in, bool interactive, std::ostream& out,
        std::ostream& err) {
    t_status = 0;
    Options opts;
    opts.in = &in;
    opts.interactive = interactive;
    opts.argc = argc;
    opts.argv = argv;
    int rc = kExitOk;
    try {
        rc = dispatch(argc, argv, opts, out, err);
    } catch (const ColumnError& e) {
        fail(err, e.what(), kExitUsage);
        rc = kExitUsage;
    } catch (const std::exception& e) { // e.g. std::bad_alloc; still one line
        fail(err, e.what());
        rc = kExitError;
    }
    // Output that did not reach its file is a failure (a full disk, a
    // closed descriptor): `amdx -j dev show > /dev/full` must not exit 0.
    out.flush();
    if (!out) {
        const auto* fd_buf = dynamic_cast<const FdOutBuf*>(out.rdbuf());
        const int e = fd_buf != nullptr ? fd_buf->error() : 0;
        fail(err,
             e != 0 ? "writing standard output: " +
                          errno_text(std::error_code(e, std::system_category()))
                    : std::string("writing standard output failed"),
             kExitError);
        if (rc == kExitOk)
            rc = kExitError;
    }
    // The one error line says why; its classification is the exit status.
    return rc != kExitOk && t_status != 0 ? t_status : rc;
}

int run_process(int argc, const char* const* argv) {
    // A closed standard descriptor would be reused by the next open
    // (/dev/amdx as standard output); hold it with /dev/null opened
    // read-only, so that writes to it fail with EBADF as they would have.
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
        if (::fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
            continue;
        const int held = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (held >= 0 && held != fd) {
            ::dup2(held, fd);
            ::close(held);
        }
    }
    FdOutBuf buf(STDOUT_FILENO);
    std::ostream out(&buf);
    return run(argc, argv, std::cin, ::isatty(STDIN_FILENO) == 1, out, std::cerr);
}

FdOutBuf::FdOutBuf(int fd)
    : fd_(fd), line_(::isatty(fd) == 1), buf_(line_ ? std::size_t{4096} : std::size_t{64} * 1024) {
    setp(buf_.data(), buf_.data() + buf_.size());
}

FdOutBuf::int_type FdOutBuf::overflow(int_type c) {
    if (sync() != 0)
        return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
        *pptr() = traits_type::to_char_type(c);
        pbump(1);
    }
    return traits_type::not_eof(c);
}

std::streamsize FdOutBuf::xsputn(const char* s, std::streamsize n) {
    if (line_ || n > epptr() - pptr())
        return put_slow(s, n);
    // What fits is copied here, one character without a call:
    // prometheus-cpp's serializer writes every character of a label value
    // on its own (metrics.rst, "Scrape cost").
    char* to = pptr();
    pbump(static_cast<int>(n)); // at most the buffer's 64 KiB
    if (n == 1)
        *to = *s;
    else
        traits_type::copy(to, s, static_cast<std::size_t>(n));
    return n;
}

std::streamsize FdOutBuf::put_slow(const char* s, std::streamsize n) {
    const std::streamsize put = std::streambuf::xsputn(s, n);
    if (line_ && put > 0 &&
        std::string_view(s, static_cast<std::size_t>(put)).find('\n') != std::string_view::npos)
        return sync() == 0 ? put : 0;
    return put;
}

int FdOutBuf::sync() {
    const char* p = pbase();
    while (p < pptr()) {
        const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            if (error_ == 0)
                error_ = errno;
            setp(buf_.data(), buf_.data() + buf_.size()); // drop what cannot be written
            return -1;
        }
        p += n;
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return 0;
}

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    return run(argc, argv, std::cin, false, out, err);
}

} // namespace amdx::cli
