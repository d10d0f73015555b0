// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include <amdx/identity.hpp>

#include "cli.hpp"
#include "commands.hpp"

namespace amdx::cli {

namespace {

bool is_hex(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) != 0;
    });
}

/// "dddd:bb:dd.f" or "bb:dd.f", hex, function 0-7.
std::optional<std::string> normalize_bdf(std::string_view s) {
    std::string bdf(s);
    std::transform(bdf.begin(), bdf.end(), bdf.begin(), [](char c) {
        return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    });
    if (bdf.size() == std::string_view("bb:dd.f").size())
        bdf.insert(0, "0000:");
    const std::string_view v(bdf);
    if (v.size() != std::string_view("dddd:bb:dd.f").size() || v[4] != ':' || v[7] != ':' ||
        v[10] != '.' || !is_hex(v.substr(0, 4)) || !is_hex(v.substr(5, 2)) ||
        !is_hex(v.substr(8, 2)) || v[11] < '0' || v[11] > '7')
        return std::nullopt;
    return bdf;
}

} // namespace

bool Selector::matches(const DeviceEntry& entry, std::string_view serial) const {
    return std::any_of(items.begin(), items.end(), [&](const Item& item) {
        switch (item.kind) {
        case Kind::all:
            return true;
        case Kind::id:
            return entry.id == item.id;
        case Kind::bdf:
            return entry.bdf == item.text;
        case Kind::serial:
            return !serial.empty() && serial == item.text;
        case Kind::gpu:
        case Kind::uuid:
            return std::find(item.devices.begin(), item.devices.end(), entry.id) !=
                   item.devices.end();
        }
        return false;
    });
}

bool Selector::needs_gpus() const {
    return std::any_of(items.begin(), items.end(), [](const Item& item) {
        return item.kind == Kind::gpu || item.kind == Kind::uuid;
    });
}

std::string item_name(const Selector::Item& item) {
    switch (item.kind) {
    case Selector::Kind::all:
        return "all";
    case Selector::Kind::id:
        return std::to_string(item.id);
    case Selector::Kind::serial:
        return "serial:" + item.text;
    case Selector::Kind::gpu:
        return "gpu:" + std::to_string(item.id);
    case Selector::Kind::bdf:
    case Selector::Kind::uuid:
        break;
    }
    return item.text;
}

void resolve_gpus(Selector& sel, const std::vector<GpuSlot>& gpus) {
    for (auto& item : sel.items) {
        if (item.kind != Selector::Kind::gpu && item.kind != Selector::Kind::uuid)
            continue;
        item.devices.clear();
        for (const auto& g : gpus) {
            const bool hit = item.kind == Selector::Kind::gpu
                                 ? g.index == item.id
                                 : g.unique_id && rocr_uuid(*g.unique_id) == item.text;
            if (hit &&
                std::find(item.devices.begin(), item.devices.end(), g.device) == item.devices.end())
                item.devices.push_back(g.device);
        }
    }
}

bool Selector::needs_serial() const {
    return std::any_of(items.begin(), items.end(),
                       [](const Item& item) { return item.kind == Kind::serial; });
}

namespace {

std::optional<Selector::Item> parse_item(std::string_view text) {
    using Kind = Selector::Kind;
    if (text == "all")
        return Selector::Item{};
    std::uint32_t id = 0;
    const auto* end = text.data() + text.size();
    if (auto [ptr, ec] = std::from_chars(text.data(), end, id); ec == std::errc() && ptr == end)
        return Selector::Item{.kind = Kind::id, .id = id, .text = {}};
    if (auto bdf = normalize_bdf(text))
        return Selector::Item{.kind = Kind::bdf, .id = 0, .text = std::move(*bdf)};
    constexpr std::string_view kGpu = "gpu:";
    if (text.substr(0, kGpu.size()) == kGpu) {
        const auto index = text.substr(kGpu.size());
        std::uint32_t n = 0;
        const auto* iend = index.data() + index.size();
        if (auto [ptr, ec] = std::from_chars(index.data(), iend, n);
            ec == std::errc() && ptr == iend && !index.empty())
            return Selector::Item{.kind = Kind::gpu, .id = n, .text = {}};
        return std::nullopt;
    }
    // ROCr's "GPU-" and 16 hex digits, in either case.
    constexpr std::string_view kUuid = "GPU-";
    if (text.size() == kUuid.size() + 16 && (text.substr(0, 4) == kUuid) &&
        is_hex(text.substr(kUuid.size()))) {
        std::string uuid(text);
        std::transform(uuid.begin() + 4, uuid.end(), uuid.begin() + 4, [](char c) {
            return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        });
        return Selector::Item{.kind = Kind::uuid, .id = 0, .text = std::move(uuid)};
    }
    constexpr std::string_view kSerial = "serial:";
    if (text.substr(0, kSerial.size()) == kSerial && text.size() > kSerial.size() &&
        text.size() - kSerial.size() < AMDX_SERIAL_LEN)
        return Selector::Item{
            .kind = Kind::serial, .id = 0, .text = std::string(text.substr(kSerial.size()))};
    return std::nullopt;
}

} // namespace

std::optional<Selector> parse_selector(std::string_view text) {
    Selector sel;
    if (text.empty())
        return std::nullopt;
    while (true) {
        const auto comma = text.find(',');
        auto item = parse_item(text.substr(0, comma));
        if (!item || sel.items.size() >= AMDX_MAX_DEVICES)
            return std::nullopt;
        sel.items.push_back(std::move(*item));
        if (comma == std::string_view::npos)
            break;
        text.remove_prefix(comma + 1);
    }
    const auto& first = sel.items.front();
    const bool all = std::any_of(sel.items.begin(), sel.items.end(), [](const Selector::Item& i) {
        return i.kind == Selector::Kind::all;
    });
    sel.kind = all ? Selector::Kind::all : first.kind;
    sel.id = first.id;
    if (first.kind == Selector::Kind::bdf)
        sel.bdf = first.text;
    return sel;
}

std::string selector_error(std::string_view text, bool allow_many) {
    if (!allow_many) {
        const auto sel = parse_selector(text);
        if (sel && !sel->is_one())
            return "'" + std::string(text) + "' selects more than one device; this command " +
                   "needs one (an id, a PCI address, serial:SERIAL, gpu:INDEX or GPU-UUID)";
    }
    return "invalid device '" + std::string(text) + "' (expected an id, a PCI address, " +
           "serial:SERIAL, gpu:INDEX, GPU-UUID" +
           (allow_many ? ", 'all' or a comma-separated list of them)" : ")");
}

CLI::Validator device_validator(bool allow_many) {
    return {[allow_many](std::string& value) -> std::string {
                const auto sel = parse_selector(value);
                if (sel && (allow_many || sel->is_one()))
                    return {};
                return selector_error(value, allow_many);
            },
            allow_many ? "DEV[,DEV...]" : "DEV"};
}

CLI::Option* add_dev_option(CLI::App* cmd, std::string& dev, bool allow_many) {
    auto* opt = cmd->add_option("DEV", dev,
                                allow_many ? "Devices: ids, PCI addresses, serial:SERIAL, "
                                             "gpu:INDEX, GPU-UUID, comma-separated, or 'all'"
                                           : "Device: an id, a PCI address, serial:SERIAL, "
                                             "gpu:INDEX or GPU-UUID");
    opt->check(device_validator(allow_many));
    if (allow_many)
        opt->capture_default_str();
    else
        opt->required();
    return opt;
}

std::optional<std::uint64_t> parse_size(std::string_view text) {
    std::uint64_t value = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr == text.data())
        return std::nullopt;
    std::string unit(ptr, end);
    std::transform(unit.begin(), unit.end(), unit.begin(), [](char c) {
        return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    });
    if (unit.size() == 3 && unit.substr(1) == "IB")
        unit.resize(1);
    unsigned shift = 0;
    if (unit == "K")
        shift = 10;
    else if (unit == "M")
        shift = 20;
    else if (unit == "G")
        shift = 30;
    else if (!unit.empty())
        return std::nullopt;
    if (value > (UINT64_MAX >> shift))
        return std::nullopt;
    return value << shift;
}

std::optional<Selection> select_devices(const Options& opts, const std::string& dev, bool allow_all,
                                        std::ostream& err, int& code) {
    code = kExitUsage;
    const auto parsed = parse_selector(dev);
    if (!parsed || (!allow_all && !parsed->is_one())) {
        fail(err, selector_error(dev, allow_all));
        return std::nullopt;
    }
    code = kExitError;
    auto control = open_control(opts, err);
    if (!control)
        return std::nullopt;
    const auto entries = control->devices();
    if (!entries) {
        fail(err, request_error(opts.node, "device list", entries.error()), entries.error());
        return std::nullopt;
    }
    auto selector = *parsed;
    std::size_t num_gpus = 0;
    std::optional<std::vector<GpuSlot>> table;
    if (selector.needs_gpus()) {
        std::string what;
        auto gpus = gpu_table(*control, *entries, opts.sysfs, what);
        if (!gpus) {
            fail(err, request_error(opts.node, what, gpus.error()), gpus.error());
            return std::nullopt;
        }
        resolve_gpus(selector, *gpus);
        num_gpus = gpus->size();
        table = std::move(*gpus);
    }
    std::vector<DeviceEntry> out;
    std::vector<std::string> serials; // of out's devices, if needed
    for (const auto& e : *entries) {
        std::string serial;
        if (selector.needs_serial()) {
            const auto info = control->device_info(e.id);
            if (!info && info.error() == std::errc::no_such_device)
                continue; // removed since the listing
            if (!info) {
                fail(err,
                     request_error(opts.node, "device " + std::to_string(e.id) + " info",
                                   info.error()),
                     info.error());
                return std::nullopt;
            }
            serial = info->serial;
        }
        if (selector.matches(e, serial)) {
            out.push_back(e);
            serials.push_back(std::move(serial));
        }
    }
    // Every device a list names must exist: "0,7" with no 7 is an error;
    // and each names one device: a serial or UUID two devices share is
    // ambiguous.
    for (const auto& item : selector.items) {
        if (item.kind == Selector::Kind::all)
            continue;
        Selector one;
        one.items = {item};
        std::vector<std::uint32_t> hits;
        for (std::size_t i = 0; i < out.size(); ++i)
            if (one.matches(out[i], serials[i]))
                hits.push_back(out[i].id);
        if (hits.size() > 1) {
            std::string ids;
            for (const auto id : hits)
                ids.append(ids.empty() ? "" : ", ").append(std::to_string(id));
            fail(err,
                 "ambiguous device '" + item_name(item) + "': it names devices " + ids +
                     " (name one by its id or PCI address)",
                 kExitUsage);
            code = kExitUsage;
            return std::nullopt;
        }
        if (!hits.empty())
            continue;
        std::string why = " (see 'amdx dev list')";
        if (item.kind == Selector::Kind::gpu)
            why = num_gpus == 0 ? std::string(" (the node has no GPU)")
                                : " (the node has " + std::to_string(num_gpus) +
                                      " GPUs: gpu:0 .. gpu:" + std::to_string(num_gpus - 1) + ")";
        else if (item.kind == Selector::Kind::uuid)
            why = " (no KFD node of an amdx device has this unique_id; simulated devices have "
                  "none)";
        fail(err, "no such device: " + item_name(item) + why, kExitNoDevice);
        return std::nullopt;
    }
    code = kExitOk;
    return Selection{
        .control = std::move(*control), .entries = std::move(out), .gpus = std::move(table)};
}

Result<const std::vector<GpuSlot>*> gpus_of(Selection& sel, const Options& opts,
                                            std::string& what) {
    if (!sel.gpus) {
        const auto entries = sel.control.devices();
        if (!entries) {
            what = "device list";
            return Unexpected(entries.error());
        }
        auto gpus = gpu_table(sel.control, *entries, opts.sysfs, what);
        if (!gpus)
            return Unexpected(gpus.error());
        sel.gpus = std::move(*gpus);
    }
    return &*sel.gpus;
}

std::optional<Device> open_device(const Control& control, const DeviceEntry& entry,
                                  std::ostream& err) {
    auto device = Device::open(control, entry.id);
    if (!device) {
        fail(err,
             device.error() == std::errc::no_such_device
                 ? "no such device: " + std::to_string(entry.id) + " (it went away)"
                 : device_error("device " + std::to_string(entry.id) + " open", device.error()),
             device.error());
        return std::nullopt;
    }
    return std::move(*device);
}

std::optional<Target> select_one(const Options& opts, const std::string& dev, std::ostream& err,
                                 int& code) {
    const auto sel = select_devices(opts, dev, false, err, code);
    if (!sel)
        return std::nullopt;
    auto device = open_device(sel->control, sel->entries.front(), err);
    if (!device) {
        code = kExitError;
        return std::nullopt;
    }
    return Target{sel->entries.front(), std::move(*device)};
}

std::string what_on(std::string_view cmd, const DeviceEntry& e) {
    return std::string(cmd) + " device " + std::to_string(e.id);
}

} // namespace amdx::cli
