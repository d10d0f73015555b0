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

bool Selector::matches(const DeviceEntry& entry) const {
    switch (kind) {
    case Kind::all:
        return true;
    case Kind::id:
        return entry.id == id;
    case Kind::bdf:
        return entry.bdf == bdf;
    }
    return false;
}

std::optional<Selector> parse_selector(std::string_view text) {
    if (text == "all")
        return Selector{};
    std::uint32_t id = 0;
    const auto* end = text.data() + text.size();
    if (auto [ptr, ec] = std::from_chars(text.data(), end, id); ec == std::errc() && ptr == end)
        return Selector{.kind = Selector::Kind::id, .id = id, .bdf = {}};
    if (auto bdf = normalize_bdf(text))
        return Selector{.kind = Selector::Kind::bdf, .id = 0, .bdf = std::move(*bdf)};
    return std::nullopt;
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

std::optional<std::vector<DeviceEntry>> select_devices(const Control& control, const Options& opts,
                                                       const std::string& dev, bool allow_all,
                                                       std::ostream& err, int& code) {
    code = kExitUsage;
    const auto selector = parse_selector(dev);
    if (!selector || (!allow_all && selector->kind == Selector::Kind::all)) {
        fail(err, "invalid device '" + dev + "' (expected an id, a PCI address" +
                      (allow_all ? std::string(" or 'all')") : std::string(")")));
        return std::nullopt;
    }
    code = kExitError;
    const auto entries = control.devices();
    if (!entries) {
        fail(err, request_error(opts.node, "device list", entries.error()));
        return std::nullopt;
    }
    std::vector<DeviceEntry> out;
    std::copy_if(entries->begin(), entries->end(), std::back_inserter(out),
                 [&selector](const DeviceEntry& e) { return selector->matches(e); });
    if (out.empty() && selector->kind != Selector::Kind::all) {
        fail(err, "no such device: " + dev);
        return std::nullopt;
    }
    code = kExitOk;
    return out;
}

std::optional<Device> open_device(const Control& control, const DeviceEntry& entry,
                                  std::ostream& err) {
    auto device = Device::open(control, entry.id);
    if (!device) {
        fail(err,
             device.error() == std::errc::no_such_device
                 ? "no such device: " + std::to_string(entry.id)
                 : device_error("device " + std::to_string(entry.id) + " open", device.error()));
        return std::nullopt;
    }
    return std::move(*device);
}

std::optional<std::pair<DeviceEntry, Device>> select_one(const Control& control,
                                                         const Options& opts,
                                                         const std::string& dev, std::ostream& err,
                                                         int& code) {
    const auto entries = select_devices(control, opts, dev, false, err, code);
    if (!entries)
        return std::nullopt;
    auto device = open_device(control, entries->front(), err);
    if (!device) {
        code = kExitError;
        return std::nullopt;
    }
    return std::pair{entries->front(), std::move(*device)};
}

std::string what_on(std::string_view cmd, const DeviceEntry& e) {
    return std::string(cmd) + " device " + std::to_string(e.id);
}

} // namespace amdx::cli
