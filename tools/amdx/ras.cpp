// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx ras show|inject|policy show|policy set|badpages`.
#include <charconv>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.hpp"

namespace amdx::cli {

namespace {

/// A number in decimal or 0x hex.
std::optional<std::uint64_t> parse_u64(std::string_view s) {
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s.remove_prefix(2);
        base = 16;
    }
    std::uint64_t v = 0;
    const auto* end = s.data() + s.size();
    const auto [ptr, ec] = std::from_chars(s.data(), end, v, base);
    if (ec != std::errc() || ptr != end || s.empty())
        return std::nullopt;
    return v;
}

std::error_code sys_error() {
    return {errno, std::system_category()};
}

std::string hex(std::uint64_t v) {
    char buf[20];
    std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

/// The device-wide row of @block, from a fresh query (nullopt if it fails).
std::optional<RasCounters> block_row(const Device& device, RasBlock block) {
    const auto st = device.ras_status();
    if (!st)
        return std::nullopt;
    for (const auto& c : st->counters)
        if (c.block == block && c.partition == kRasPartitionAll)
            return c;
    return std::nullopt;
}

/// Why the kernel refused @inj (its AMDX_RAS_INJECT_REASON_*), with the
/// values that make it concrete: "sdma has no ce errors on this device (it
/// reports ue)".
std::string inject_refusal(const Device& device, const RasInjection& inj, RasInjectReason reason) {
    const std::string block(to_string(inj.block));
    const std::string type(to_string(inj.type));
    switch (reason) {
    case RasInjectReason::no_block:
        return "the device has no " + block + " block";
    case RasInjectReason::no_type: {
        std::string msg = block + " has no " + type + " errors on this device";
        if (const auto row = block_row(device, inj.block)) {
            std::string has;
            for (std::uint32_t t = 0; t < AMDX_RAS_TYPE_COUNT; ++t)
                if (row->supports(static_cast<RasType>(t)))
                    has +=
                        (has.empty() ? "" : ", ") + std::string(to_string(static_cast<RasType>(t)));
            msg += " (it reports " + (has.empty() ? std::string("none") : has) + ")";
        }
        return msg;
    }
    case RasInjectReason::instance: {
        const auto row = block_row(device, inj.block);
        if (!row || row->instances == 0)
            return block + " has no instance " + std::to_string(inj.instance);
        return block + " has " + std::to_string(row->instances) +
               " instances on this device (0 .. " + std::to_string(row->instances - 1) + "), not " +
               std::to_string(inj.instance);
    }
    case RasInjectReason::address_block:
        return "only umc takes --address, not " + block;
    case RasInjectReason::address_range: {
        const auto info = device.info();
        return "address " + hex(inj.address) + " is beyond the VRAM" +
               (info ? " (" + size_text(info->vram_size) + ")" : std::string());
    }
    case RasInjectReason::retired:
        return "the page of address " + hex(inj.address) + " is retired (see 'amdx ras badpages')";
    default:
        return std::string(reason_text(reason));
    }
}

const std::vector<std::string> kBlocks{"umc",      "sdma", "gfx",      "mmhub",
                                       "pcie_bif", "hdp",  "xgmi_wafl"};
const std::vector<std::string> kTypes{"ce", "ue", "de"};

/// Writes @bytes to @path as a whole or not at all: a temporary file in the
/// same directory, fsync()ed, then rename()d over @path.  "-" is @out,
/// whose failure run() reports, with its errno, as for every command.
std::error_code write_whole(const std::string& path, const std::vector<std::byte>& bytes,
                            std::ostream& out) {
    if (path == "-") {
        out.write(reinterpret_cast<const char*>(bytes.data()),
                  static_cast<std::streamsize>(bytes.size()));
        return {};
    }
    std::string tmp = path + ".XXXXXX";
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0)
        return sys_error();
    std::error_code ec;
    std::size_t done = 0;
    while (done < bytes.size() && !ec) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno != EINTR)
            ec = sys_error();
        else if (n > 0)
            done += static_cast<std::size_t>(n);
    }
    if (!ec && ::fchmod(fd, 0644) != 0) // mkstemp() makes it 0600
        ec = sys_error();
    if (!ec && ::fsync(fd) != 0)
        ec = sys_error();
    if (::close(fd) != 0 && !ec)
        ec = sys_error();
    if (!ec && std::rename(tmp.c_str(), path.c_str()) != 0)
        ec = sys_error();
    if (ec)
        ::unlink(tmp.c_str());
    return ec;
}

} // namespace

namespace {

/// The text view of `ras show`: per block the totals as columns, and with
/// @detail one row per block and partition; the JSON has both always.
Json ras_text_view(const Json& device, bool detail) {
    Json view = Json::object();
    for (const auto& [k, v] : device.items())
        if (k != "blocks")
            view[k] = v;
    Json blocks = Json::array();
    Json parts = Json::array();
    for (const auto& b : device["blocks"]) {
        Json row{
            {"block", b["block"]}, {"instances", b["instances"]}, {"supported", b["supported"]}};
        for (const auto& t : kTypes)
            row[t] = b["total"].is_object() ? b["total"][t] : Json(nullptr);
        blocks.push_back(std::move(row));
        for (const auto& p : b["partitions"]) {
            Json prow{{"block", b["block"]}};
            prow.update(p);
            parts.push_back(std::move(prow));
        }
    }
    view["blocks"] = std::move(blocks);
    if (detail)
        view["by_partition"] = std::move(parts);
    return view;
}

} // namespace

Json ras_policy_to_json(const DeviceEntry& dev, const RasPolicy& p) {
    std::string_view mode = "pages";
    if (p.bad_page_threshold == AMDX_RAS_BAD_PAGE_WARN)
        mode = "warn";
    else if (p.bad_page_threshold == AMDX_RAS_BAD_PAGE_AUTO)
        mode = "auto";
    return Json{{"device", dev.id},
                {"bdf", dev.bdf},
                {"ce_page_threshold", p.ce_page_threshold},
                {"ce_window_s", p.ce_window_s},
                {"bad_page_threshold", p.bad_page_threshold},
                {"bad_page_mode", mode},
                {"part_reset_limit", p.part_reset_limit},
                {"part_reset_window_s", p.part_reset_window_s},
                {"rma_refuse", (p.flags & AMDX_RAS_POL_F_RMA_REFUSE) != 0}};
}

RasCommands::RasCommands(CLI::App& app) {
    object_ = app.add_subcommand("ras", "RAS errors and containment "
                                        "(COMMAND: show, inject, policy, badpages)");
    object_->fallthrough()->require_subcommand(0, 1);
    auto* show = object_->add_subcommand("show", "Error counters, RMA flag, retired pages "
                                                 "(the default COMMAND)");
    show->fallthrough();
    add_dev_option(show, dev_, true);
    show->add_flag("--detail", detail_, "Text: the counters per compute partition too");

    inject_ = object_->add_subcommand("inject", "Inject errors (as hardware would report them)");
    inject_->fallthrough();
    add_dev_option(inject_, dev_, false);
    inject_->add_option("--block", block_, "The block")
        ->required()
        ->transform(CLI::IsMember(kBlocks, CLI::ignore_case));
    inject_->add_option("--type", type_, "Error type")
        ->required()
        ->transform(CLI::IsMember(kTypes, CLI::ignore_case));
    inject_->add_option("--instance", instance_, "Block instance (XCC, SDMA engine)")
        ->check(CLI::Range(0U, 63U));
    inject_->add_option("--address", address_, "umc: VRAM byte address (decimal or 0x hex)")
        ->check(CLI::Validator(
            [](std::string& v) -> std::string {
                return parse_u64(v) ? std::string() : "not a number (decimal or 0x hex): " + v;
            },
            "ADDRESS"));
    inject_->add_option("--count", count_, "Errors to inject")->check(CLI::Range(1U, 1024U));

    policy_ = object_->add_subcommand("policy", "Containment policy (COMMAND: show, set)");
    policy_->fallthrough()->require_subcommand(0, 1);
    auto* pshow = policy_->add_subcommand("show", "The policy (the default COMMAND)");
    pshow->fallthrough();
    add_dev_option(pshow, dev_, true);
    policy_set_ = policy_->add_subcommand("set", "Change policy knobs");
    policy_set_->fallthrough();
    add_dev_option(policy_set_, dev_, false);
    policy_set_
        ->add_option("--ce-page-threshold", ce_page_threshold_,
                     "CEs on one page within the window that soft-retire it")
        ->check(CLI::Range(1U, static_cast<unsigned>(AMDX_RAS_CE_PAGE_THRESHOLD_MAX)));
    policy_set_->add_option("--ce-window-s", ce_window_s_, "Window of the CE threshold")
        ->check(CLI::Range(1U, static_cast<unsigned>(AMDX_RAS_CE_WINDOW_MAX_S)));
    policy_set_
        ->add_option("--bad-page-threshold", bad_page_threshold_,
                     "Retired pages that flag the device for RMA: N, warn or auto")
        ->check(CLI::Validator(
            [](std::string& v) -> std::string {
                const auto n = parse_u64(v);
                return v == "warn" || v == "auto" || (n && *n != 0 && *n <= INT32_MAX)
                           ? std::string()
                           : "expected a page count, warn or auto: " + v;
            },
            "{N,warn,auto}"));
    policy_set_
        ->add_option("--part-reset-limit", part_reset_limit_,
                     "Partition resets within the window that leave it offline")
        ->check(CLI::Range(1U, static_cast<unsigned>(AMDX_RAS_PART_RESET_LIMIT_MAX)));
    policy_set_
        ->add_option("--part-reset-window-s", part_reset_window_s_,
                     "Window of the partition reset limit")
        ->check(CLI::Range(1U, static_cast<unsigned>(AMDX_RAS_PART_RESET_WINDOW_MAX_S)));
    auto* refuse = policy_set_->add_flag("--rma-refuse", rma_refuse_,
                                         "At the bad-page threshold refuse VRAM allocations");
    auto* no_refuse = policy_set_->add_flag("--no-rma-refuse", no_rma_refuse_,
                                            "At the bad-page threshold only warn");
    refuse->excludes(no_refuse);

    badpages_ = object_->add_subcommand("badpages", "Retired VRAM pages; export or import the "
                                                    "bad-page table");
    badpages_->fallthrough();
    add_dev_option(badpages_, dev_, true);
    auto* exp = badpages_->add_option("--export", export_,
                                      "Write the table to FILE, whole or not at all "
                                      "('-': standard output; needs one DEV)");
    auto* imp = badpages_->add_option("--import", import_,
                                      "Retire the pages of FILE's table ('-': standard input; "
                                      "needs one DEV)");
    exp->excludes(imp);
}

int RasCommands::run(const Options& opts, std::ostream& out, std::ostream& err) const {
    if (inject_->parsed())
        return inject(opts, out, err);
    if (policy_set_->parsed())
        return policy_set(opts, out, err);
    if (policy_->parsed())
        return policy_show(opts, out, err);
    if (badpages_->parsed())
        return badpages(opts, out, err);
    return show(opts, out, err);
}

int RasCommands::show(const Options& opts, std::ostream& out, std::ostream& err) const {
    return show_devices(
        opts, dev_, out, err,
        [&opts, this](const Device& device, const DeviceEntry& e,
                      std::ostream& err_out) -> std::optional<Json> {
            auto doc = ras_show_json(device, e);
            if (!doc) {
                const bool scope = doc.context().call == "AMDX_QUERY_RESET_SCOPE";
                fail(err_out,
                     device_error(what_on(scope ? "reset scope of" : "RAS counters of", e),
                                  doc.error()),
                     doc.error());
                return std::nullopt;
            }
            return opts.format == Format::text ? ras_text_view(*doc, detail_) : std::move(*doc);
        });
}

int RasCommands::inject(const Options& opts, std::ostream& out, std::ostream& err) const {
    RasInjection inj;
    const auto block = parse_ras_block(block_); // the parser checked all three
    const auto type = parse_ras_type(type_);
    const auto address = parse_u64(address_);
    if (!block || !type || !address) {
        fail(err, "invalid --block, --type or --address (see 'amdx ras inject --help')");
        return kExitUsage;
    }
    inj.block = *block;
    inj.type = *type;
    inj.instance = instance_;
    inj.count = count_;
    inj.address = *address;
    int code = kExitOk;
    const auto target = select_one(opts, dev_, err, code);
    if (!target)
        return code;
    const auto& [entry, device] = *target;
    const auto seq = device.ras_inject(inj);
    if (!seq) { // the kernel's reason (uapi minor 8; none from an older module)
        const std::string what = what_on("ras inject", entry);
        const auto reason = static_cast<RasInjectReason>(seq.context().reason);
        fail(err,
             reason == RasInjectReason::none
                 ? device_error(what, seq.error())
                 : what + ": " + inject_refusal(device, inj, reason) + " (reason " +
                       std::string(to_string(reason)) + ", " + errno_text(seq.error()) + ")",
             seq.error());
        return kExitError;
    }
    render(out,
           Json{{"inject", Json{{"device", entry.id},
                                {"block", to_string(inj.block)},
                                {"type", to_string(inj.type)},
                                {"instance", inj.instance},
                                {"count", inj.count},
                                {"address", inj.address},
                                {"seq", *seq}}}},
           opts);
    return kExitOk;
}

int RasCommands::policy_show(const Options& opts, std::ostream& out, std::ostream& err) const {
    return show_query(
        opts, dev_, out, err, "RAS policy of", [](const Device& d) { return d.ras_policy(); },
        [](const DeviceEntry& e, const RasPolicy& p) { return ras_policy_to_json(e, p); });
}

int RasCommands::policy_set(const Options& opts, std::ostream& out, std::ostream& err) const {
    RasPolicyUpdate update;
    update.ce_page_threshold = ce_page_threshold_;
    update.ce_window_s = ce_window_s_;
    update.part_reset_limit = part_reset_limit_;
    update.part_reset_window_s = part_reset_window_s_;
    if (bad_page_threshold_ == "warn") {
        update.bad_page_threshold = AMDX_RAS_BAD_PAGE_WARN;
    } else if (bad_page_threshold_ == "auto") {
        update.bad_page_threshold = AMDX_RAS_BAD_PAGE_AUTO;
    } else if (!bad_page_threshold_.empty()) {
        const auto n = parse_u64(bad_page_threshold_);
        if (!n || *n == 0 || *n > INT32_MAX) {
            fail(err, "invalid --bad-page-threshold '" + bad_page_threshold_ +
                          "' (expected a page count, warn or auto)");
            return kExitUsage;
        }
        update.bad_page_threshold = static_cast<std::int32_t>(*n);
    }
    if (rma_refuse_ && no_rma_refuse_) {
        fail(err, "--rma-refuse and --no-rma-refuse exclude each other");
        return kExitUsage;
    }
    if (rma_refuse_ || no_rma_refuse_)
        update.flags = rma_refuse_ ? AMDX_RAS_POL_F_RMA_REFUSE : 0;
    if (update.empty()) {
        fail(err, "ras policy set needs at least one knob (see 'amdx ras policy set --help')");
        return kExitUsage;
    }
    int code = kExitOk;
    const auto target = select_one(opts, dev_, err, code);
    if (!target)
        return code;
    const auto& [entry, device] = *target;
    if (auto ok = device.ras_set_policy(update); !ok) {
        const std::string what = what_on("ras policy set", entry);
        fail(err,
             ok.error() == std::errc::invalid_argument
                 ? what + ": a value is out of range (see Documentation/ras.rst) (" +
                       errno_text(ok.error()) + ")"
                 : device_error(what, ok.error()),
             ok.error());
        return kExitError;
    }
    const auto policy = device.ras_policy();
    if (!policy) {
        fail(err, device_error(what_on("RAS policy of", entry), policy.error()), policy.error());
        return kExitError;
    }
    render(out, Json{{"devices", Json::array({ras_policy_to_json(entry, *policy)})}}, opts);
    return kExitOk;
}

int RasCommands::badpages(const Options& opts, std::ostream& out, std::ostream& err) const {
    const bool one = !export_.empty() || !import_.empty();
    if (one && !parse_selector(dev_)->is_one()) { // before anything is opened
        fail(err, std::string(export_.empty() ? "--import" : "--export") +
                      " needs one device: ras badpages DEV " +
                      (export_.empty() ? "--import FILE" : "--export FILE"));
        return kExitUsage;
    }
    std::vector<std::byte> table;
    std::size_t table_pages = 0;
    if (!import_.empty()) { // check the file before anything reaches the kernel
        const auto text = read_input(import_, opts, err);
        if (!text)
            return kExitError;
        const std::string& bytes = *text;
        const auto* p = reinterpret_cast<const std::byte*>(bytes.data());
        table.assign(p, p + bytes.size());
        std::string why;
        const auto ok = decode_badpages(table, &why);
        if (!ok) {
            fail(err, import_ + ": not a valid bad-page table: " + why + " (" +
                          errno_text(ok.error()) + ")");
            return kExitError;
        }
        table_pages = ok->size();
    }
    Json devices = Json::array();
    const auto stop = for_each_device(
        opts, dev_, !one, err,
        [&](const Device& device, const DeviceEntry& e) -> std::optional<int> {
            if (!import_.empty()) {
                const auto n = device.badpages_import(table);
                if (!n) {
                    const std::string what = what_on("ras badpages import", e);
                    fail(err,
                         n.error() == std::errc::invalid_argument
                             ? what + ": a page lies outside the device's VRAM (" +
                                   errno_text(n.error()) + ")"
                             : device_error(what, n.error()),
                         n.error());
                    return kExitError;
                }
                render(out,
                       Json{{"import", Json{{"device", e.id},
                                            {"file", import_},
                                            {"pages", table_pages},
                                            {"imported", *n}}}},
                       opts);
                return kExitOk;
            }
            const auto raw = device.badpage_table();
            if (!raw) {
                fail(err, device_error(what_on("bad-page table of", e), raw.error()), raw.error());
                return kExitError;
            }
            std::string why;
            const auto pages = decode_badpages(*raw, &why);
            if (!pages) {
                fail(err, what_on("bad-page table of", e) + ": malformed answer from the kernel: " +
                              why + " (" + errno_text(pages.error()) + ")");
                return kExitError;
            }
            if (!export_.empty()) {
                if (const auto ec = write_whole(export_, *raw, out)) {
                    fail(err, export_ + ": cannot write, left unchanged (" + errno_text(ec) + ")",
                         ec);
                    return kExitError;
                }
                if (export_ == "-") // standard output holds the table, nothing else
                    return kExitOk;
                render(out,
                       Json{{"export", Json{{"device", e.id},
                                            {"file", export_},
                                            {"pages", pages->size()},
                                            {"bytes", raw->size()}}}},
                       opts);
                return kExitOk;
            }
            Json list = Json::array();
            for (const auto& p : *pages)
                list.push_back(badpage_to_json(p));
            devices.push_back(Json{{"device", e.id}, {"bdf", e.bdf}, {"pages", std::move(list)}});
            return std::nullopt;
        });
    if (stop)
        return *stop;
    render(out, Json{{"devices", std::move(devices)}}, opts);
    return kExitOk;
}

} // namespace amdx::cli
