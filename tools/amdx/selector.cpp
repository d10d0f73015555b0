// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <algorithm>
#include <cctype>
#include <charconv>
#include <iterator>

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
        }
        return false;
    });
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
    constexpr std::string_view kSerial = "serial:";
    if (text.substr(0, kSerial.size()) == kSerial && text.size() > kSerial.size() &&
        text.size() - kSerial.size() < AMDX_SERIAL_LEN)
        return Selector::Item{.kind = Kind::serial, .id = 0, .text = std::string(text.substr(7))};
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
                   "needs one (an id, a PCI address or serial:SERIAL)";
    }
    return "invalid device '" + std::string(text) + "' (expected an id, a PCI address, " +
           "serial:SERIAL" + (allow_many ? ", 'all' or a comma-separated list of them)" : ")");
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
                                             "comma-separated, or 'all'"
                                           : "Device: an id, a PCI address or serial:SERIAL");
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
    const auto selector = parse_selector(dev);
    if (!selector || (!allow_all && !selector->is_one())) {
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
    std::vector<DeviceEntry> out;
    std::vector<std::string> serials; // of out's devices, if needed
    for (const auto& e : *entries) {
        std::string serial;
        if (selector->needs_serial()) {
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
        if (selector->matches(e, serial)) {
            out.push_back(e);
            serials.push_back(std::move(serial));
        }
    }
    // Every device a list names must exist: "0,7" with no 7 is an error.
    for (const auto& item : selector->items) {
        if (item.kind == Selector::Kind::all)
            continue;
        Selector one;
        one.items = {item};
        bool found = false;
        for (std::size_t i = 0; i < out.size() && !found; ++i)
            found = one.matches(out[i], serials[i]);
        if (found)
            continue;
        const std::string name = item.kind == Selector::Kind::id       ? std::to_string(item.id)
                                 : item.kind == Selector::Kind::serial ? "serial:" + item.text
                                                                       : item.text;
        fail(err, "no such device: " + name + " (see 'amdx dev list')", kExitNoDevice);
        return std::nullopt;
    }
    code = kExitOk;
    return Selection{std::move(*control), std::move(out)};
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
