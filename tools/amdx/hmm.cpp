// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx hmm show` and `amdx hmm demo`.
//
// A device fd's HMM ranges belong to the process that opened it, so `show`
// can only report what the kernel offers (capability bits, the device's HMM
// flag, VRAM free per partition) and the ranges of its own fresh fd, which
// are normally none.  `demo` is a process with ranges of its own:
//
//   amdx (CPU)                     amdx.ko                      VRAM
//   mmap + fill pattern
//   SET_ATTR preferred_loc=P  -->  range created
//   MIGRATE dest=P            -->  migrate_vma (system -> P)  --> pages
//   QUERY_HMM_RANGES          <--  counters
//   read every page           -->  migrate_to_ram fault        <-- pages
//   verify pattern, QUERY_HMM_RANGES again
#include <algorithm>
#include <chrono>
#include <cstring>
#include <ostream>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.hpp"
#include "commands.hpp"

namespace amdx::cli {

namespace {

/// Default `hmm demo` buffer: 8 MiB.
constexpr std::uint64_t kDemoDefaultSize = 8ULL << 20;

std::uint64_t page_size() {
    return static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

/// The demo's pattern: distinct and position-dependent in every word.
std::uint64_t pattern(std::uint64_t word) {
    return ((word + 1) * 0x9e3779b97f4a7c15ULL) ^ 0xa5a5a5a5a5a5a5a5ULL;
}

/// Anonymous private memory, unmapped on destruction.
class Buffer {
  public:
    explicit Buffer(std::uint64_t size)
        : size_(size),
          p_(::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) {}
    ~Buffer() {
        if (ok())
            ::munmap(p_, size_);
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    Buffer(Buffer&&) = delete;
    Buffer& operator=(Buffer&&) = delete;

    [[nodiscard]] bool ok() const { return p_ != MAP_FAILED; }
    [[nodiscard]] std::uint64_t addr() const { return reinterpret_cast<std::uintptr_t>(p_); }
    [[nodiscard]] std::uint64_t size() const { return size_; }
    [[nodiscard]] std::uint64_t* words() const { return static_cast<std::uint64_t*>(p_); }

  private:
    std::uint64_t size_;
    void* p_;
};

/// The demo's output: in text each stage is printed as it completes; in
/// JSON the stages are members of one document printed at the end.
class Report {
  public:
    Report(std::ostream& out, const Options& opts) : out_(out), opts_(opts) {}

    void stage(const std::string& key, Json value) {
        if (opts_.format == Format::text)
            render(out_, Json{{key, value}}, opts_);
        doc_[key] = std::move(value);
    }
    void finish() {
        if (opts_.format != Format::text)
            render(out_, doc_, opts_);
    }

  private:
    std::ostream& out_;
    const Options& opts_;
    Json doc_ = Json::object();
};

std::uint64_t ns_since(std::chrono::steady_clock::time_point t0) {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
            .count());
}

Json partitions_to_json(const DeviceInfo& info) {
    Json parts = Json::array();
    for (const auto& p : info.memory_partitions)
        parts.push_back(Json{{"index", p.index}, {"size", p.size}, {"free", p.free}});
    return parts;
}

/// The calling process's view of @info's device: its own fresh fd's ranges.
Result<Json> process_view(const Control& control, const Caps& caps, const DeviceInfo& info) {
    if (!caps.has_hmm_migrate() || !info.hmm) { // nothing can have been migrated
        HmmRanges none;
        none.pid = static_cast<std::uint32_t>(::getpid());
        return hmm_ranges_to_json(none);
    }
    auto device = Device::open(control, info.id);
    if (!device)
        return Unexpected(device.error());
    auto ranges = device->hmm_ranges();
    if (!ranges)
        return Unexpected(ranges.error());
    return hmm_ranges_to_json(*ranges);
}

struct DemoArgs {
    std::optional<Selector> selector; ///< unset: the first device
    std::string dev;
    std::uint64_t size = kDemoDefaultSize;
    std::uint32_t partition = 0;
};

/// `hmm demo`'s ARGS, [DEV] [size=BYTES] [partition=N], parsed by CLI11 as
/// the positional DEV and the options --size and --partition (each
/// KEY=VALUE is --KEY=VALUE to it); prints the one error line.
std::optional<DemoArgs> parse_demo_args(const std::vector<std::string>& args, std::ostream& err) {
    DemoArgs out;
    CLI::App app{"hmm demo", "hmm demo"};
    app.add_option("DEV", out.dev)->check(device_validator(false));
    app.add_option("--size", out.size)
        ->transform(CLI::Validator(
            [](std::string& v) -> std::string {
                const auto size = parse_size(v);
                if (!size || *size == 0 || *size % page_size() != 0)
                    return "invalid size '" + v + "' (a non-zero multiple of the " +
                           std::to_string(page_size()) + "-byte page, e.g. 8M)";
                v = std::to_string(*size);
                return {};
            },
            "BYTES"));
    app.add_option("--partition", out.partition)
        ->check(CLI::Validator(
            [](std::string& v) -> std::string {
                const auto index = parse_selector(v); // a decimal id parses the same way
                return index && index->kind == Selector::Kind::id
                           ? std::string()
                           : "invalid partition '" + v + "' (expected an index)";
            },
            "N"));
    std::vector<std::string> argv;
    argv.reserve(args.size());
    for (const auto& arg : args)
        argv.push_back(arg.find('=') == std::string::npos ? arg : "--" + arg);
    std::reverse(argv.begin(), argv.end()); // CLI11 takes them last first
    try {
        app.parse(argv);
    } catch (const CLI::ParseError& e) {
        // In the words of the command line: size=, not --size.
        std::string what = parse_error_text(app, e);
        if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
            const auto colon = what.find(": ");
            std::string arg = colon == std::string::npos ? what : what.substr(colon + 2);
            if (arg.rfind("--", 0) == 0)
                arg.erase(0, 2);
            what = "unexpected argument '" + arg + "'";
        }
        for (const std::string key : {"--size: ", "--partition: "})
            if (what.rfind(key, 0) == 0)
                what.erase(0, key.size());
        fail(err, "hmm demo: " + what + " (expected [DEV] [size=BYTES] [partition=N])");
        return std::nullopt;
    }
    if (!out.dev.empty())
        out.selector = parse_selector(out.dev);
    return out;
}

/// The device the demo runs on (the first of @sel), with its info; prints
/// the error.
std::optional<DeviceInfo> demo_device(const Selection& sel, const Options& opts,
                                      const DemoArgs& args, std::ostream& err) {
    if (sel.entries.empty()) {
        fail(err, "no devices", kExitNoDevice);
        return std::nullopt;
    }
    const DeviceEntry& entry = sel.entries.front();
    auto info = sel.control.device_info(entry.id);
    if (!info) {
        const bool gone = info.error() == std::errc::no_such_device;
        fail(err,
             gone ? "no such device: " + std::to_string(entry.id) + " (it went away)"
                  : request_error(opts.node, "device info", info.error()),
             info.error());
        return std::nullopt;
    }
    const std::string name = "device " + std::to_string(info->id);
    if (!info->hmm) {
        fail(err, name + ": VRAM is not device-private memory HMM can migrate to");
        return std::nullopt;
    }
    if (args.partition >= info->memory_partitions.size()) {
        fail(err, name + " has no memory partition " + std::to_string(args.partition) +
                      " (it has " + std::to_string(info->memory_partitions.size()) + ")");
        return std::nullopt;
    }
    const auto free = info->memory_partitions[args.partition].free;
    if (free < args.size) {
        fail(err, name + " partition " + std::to_string(args.partition) + " has " +
                      size_text(free) + " free, the demo needs " + size_text(args.size) +
                      " (pass a smaller size=)");
        return std::nullopt;
    }
    return std::move(*info);
}

} // namespace

int hmm_show(const Options& opts, const std::string& dev, std::ostream& out, std::ostream& err) {
    int code = kExitOk;
    const auto sel = select_devices(opts, dev, true, err, code);
    if (!sel)
        return code;
    const auto selector = parse_selector(dev);
    const auto caps = sel->control.caps();
    if (!caps) {
        fail(err, request_error(opts.node, "capability query", caps.error()), caps.error());
        return kExitError;
    }
    Json devices = Json::array();
    for (const auto& entry : sel->entries) {
        const auto info = sel->control.device_info(entry.id);
        Result<Json> view = info ? process_view(sel->control, *caps, *info)
                                 : Result<Json>(Unexpected(info.error()));
        const bool gone = !view && view.error() == std::errc::no_such_device;
        if (gone && selector->kind == Selector::Kind::all)
            continue; // removed since the listing
        if (gone) {
            fail(err, "no such device: " + dev + " (see 'amdx dev list')", kExitNoDevice);
            return kExitError;
        }
        if (!view) {
            fail(err,
                 info
                     ? hmm_error("device " + std::to_string(entry.id) + " HMM ranges", view.error())
                     : request_error(opts.node, "device " + std::to_string(entry.id) + " info",
                                     view.error()));
            return kExitError;
        }
        devices.push_back(Json{{"device", info->id},
                               {"bdf", info->bdf},
                               {"hmm", info->hmm},
                               {"vram", Json{{"size", info->vram_size}, {"free", info->vram_free}}},
                               {"memory_partitions", partitions_to_json(*info)},
                               {"process", std::move(*view)}});
    }
    if (devices.empty() && selector->kind != Selector::Kind::all) {
        fail(err, "no such device: " + dev + " (see 'amdx dev list')", kExitNoDevice);
        return kExitError;
    }
    render(out, Json{{"caps", hmm_caps_to_json(*caps)}, {"devices", std::move(devices)}}, opts);
    return kExitOk;
}

int hmm_demo(const Options& opts, const std::vector<std::string>& raw_args, std::ostream& out,
             std::ostream& err) {
    const auto args = parse_demo_args(raw_args, err);
    if (!args)
        return kExitUsage;
    int code = kExitOk;
    const auto sel = select_devices(opts, args->selector ? args->dev : "all", true, err, code);
    if (!sel)
        return code;
    const auto caps = sel->control.caps();
    if (!caps) {
        fail(err, request_error(opts.node, "capability query", caps.error()), caps.error());
        return kExitError;
    }
    if (!caps->has_hmm_migrate()) {
        fail(err, hmm_unsupported(*caps), kExitNotSupported);
        return kExitError;
    }
    const auto info = demo_device(*sel, opts, *args, err);
    if (!info)
        return kExitError;

    Buffer buf(args->size);
    if (!buf.ok()) {
        fail(err, "mmap of " + std::to_string(args->size) + " bytes: " + std::strerror(errno));
        return kExitError;
    }
    const auto device = Device::open(sel->control, info->id);
    if (!device) {
        fail(err, request_error(opts.node, "device open", device.error()), device.error());
        return kExitError;
    }
    const std::uint64_t words = buf.size() / sizeof(std::uint64_t);
    for (std::uint64_t i = 0; i < words; ++i)
        buf.words()[i] = pattern(i);

    HmmAttr attr;
    attr.start = buf.addr();
    attr.size = buf.size();
    attr.preferred_loc = args->partition;
    if (auto ok = device->set_attr(attr); !ok) {
        fail(err, hmm_error("setting HMM attributes", ok.error()), ok.error());
        return kExitError;
    }

    Report report(out, opts);
    const std::uint64_t pages = buf.size() / page_size();
    report.stage("demo", Json{{"device", info->id},
                              {"bdf", info->bdf},
                              {"partition", args->partition},
                              {"size", buf.size()},
                              {"pages", pages}});

    auto t0 = std::chrono::steady_clock::now();
    const auto moved = device->migrate(buf.addr(), buf.size(), args->partition);
    const std::uint64_t migrate_ns = ns_since(t0);
    if (!moved) {
        report.finish();
        fail(err, hmm_error("migration", moved.error()), moved.error());
        return kExitError;
    }
    Json migrate = migrate_to_json(*moved);
    migrate["ns"] = migrate_ns;
    report.stage("migrate", std::move(migrate));

    auto ranges = device->hmm_ranges();
    if (!ranges) {
        report.finish();
        fail(err, hmm_error("HMM ranges", ranges.error()), ranges.error());
        return kExitError;
    }
    report.stage("after_migrate", hmm_ranges_to_json(*ranges));

    // Touch every page from the CPU: device pages fault back to system memory.
    t0 = std::chrono::steady_clock::now();
    std::uint64_t sum = 0;
    const std::uint64_t words_per_page = page_size() / sizeof(std::uint64_t);
    for (std::uint64_t i = 0; i < words; i += words_per_page)
        sum += static_cast<const volatile std::uint64_t*>(buf.words())[i];
    const std::uint64_t touch_ns = ns_since(t0);
    report.stage("cpu_touch", Json{{"pages", pages}, {"ns", touch_ns}});

    std::uint64_t bad = 0;
    std::uint64_t first_bad = 0;
    for (std::uint64_t i = 0; i < words; ++i) {
        if (buf.words()[i] != pattern(i) && bad++ == 0)
            first_bad = i * sizeof(std::uint64_t);
    }
    ranges = device->hmm_ranges();
    if (!ranges) {
        report.finish();
        fail(err, hmm_error("HMM ranges", ranges.error()), ranges.error());
        return kExitError;
    }
    report.stage("after_cpu_touch", hmm_ranges_to_json(*ranges));
    report.stage("verify", Json{{"ok", bad == 0}, {"bad_words", bad}});
    report.finish();
    (void)sum;

    if (bad != 0) {
        fail(err, "hmm demo: data lost: " + std::to_string(bad) + " of " + std::to_string(words) +
                      " words differ, the first at offset " + std::to_string(first_bad));
        return kExitError;
    }
    if (moved->moved + moved->already == 0) {
        std::string reasons;
        for (const auto& r : skip_reasons_to_json(moved->skip_reasons))
            reasons += (reasons.empty() ? "" : ",") + r.get<std::string>();
        fail(err, "hmm demo: no page reached partition " + std::to_string(args->partition) +
                      " (skipped " + std::to_string(moved->skipped) + ": " +
                      (reasons.empty() ? "no reason given" : reasons) + ")");
        return kExitError;
    }
    return kExitOk;
}

} // namespace amdx::cli
