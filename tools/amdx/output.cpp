// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The single print path: commands build one Json document and render() it.
// JSON is the documented contract (Documentation/admin-guide/cli.rst); text
// is derived mechanically from the same object, devlink style:
//  - an object whose members are all scalars is one line of "key value"
//    pairs, prefixed by its key when nested ("vram size 1 free 1");
//  - any other object starts with its first member ("id 0:") and puts each
//    further member on its own line, indented by two;
//  - an array of objects is "key:" followed by its elements, indented;
//  - arrays of scalars are comma-separated, empty arrays are "none"; strings
//    that are empty or hold blanks are quoted; null (not supported, not
//    bound) is "n/a";
//  - the document's top-level array (e.g. "devices") is just its elements.
#include <algorithm>
#include <array>
#include <cctype>
#include <ostream>

#include "cli.hpp"

namespace amdx::cli {

namespace {

template <class Enum>
Json names(const std::vector<Enum>& modes) {
    Json out = Json::array();
    for (const Enum mode : modes)
        out.push_back(to_string(mode));
    return out;
}

bool is_scalar_array(const Json& v) {
    return v.is_array() &&
           std::none_of(v.begin(), v.end(), [](const Json& e) { return e.is_structured(); });
}

bool is_flat(const Json& obj) {
    return std::all_of(obj.begin(), obj.end(),
                       [](const Json& v) { return !v.is_structured() || is_scalar_array(v); });
}

std::string scalar_text(const Json& v) {
    if (v.is_null()) // a value the device does not have or report
        return "n/a";
    if (!v.is_string())
        return v.dump();
    const auto& s = v.get_ref<const std::string&>();
    const bool blank = std::any_of(s.begin(), s.end(), [](char c) {
        return std::isspace(static_cast<unsigned char>(c)) != 0;
    });
    return s.empty() || blank ? v.dump(-1, ' ', false, Json::error_handler_t::replace) : s;
}

std::string value_text(const Json& v) {
    if (!v.is_array())
        return scalar_text(v);
    if (v.empty())
        return "none";
    std::string out;
    for (const auto& e : v) {
        if (!out.empty())
            out += ',';
        out += scalar_text(e);
    }
    return out;
}

void render_object(std::ostream& out, const Json& obj, std::size_t indent, const std::string& key);

void render_member(std::ostream& out, const std::string& key, const Json& v, std::size_t indent) {
    const std::string pad(indent, ' ');
    if (v.is_object()) {
        render_object(out, v, indent, key);
    } else if (v.is_array() && !is_scalar_array(v)) {
        out << pad << key << ":\n";
        for (const auto& e : v)
            render_object(out, e, indent + 2, {});
    } else {
        out << pad << key << ' ' << value_text(v) << '\n';
    }
}

void render_object(std::ostream& out, const Json& obj, std::size_t indent, const std::string& key) {
    const std::string pad(indent, ' ');
    if (!obj.is_object()) {
        out << pad << value_text(obj) << '\n';
        return;
    }
    if (is_flat(obj)) {
        std::string line = key;
        for (const auto& [k, v] : obj.items())
            line += (line.empty() ? "" : " ") + k + ' ' + value_text(v);
        out << pad << line << '\n';
        return;
    }
    auto it = obj.begin();
    std::size_t inner = indent + 2;
    if (!key.empty()) {
        out << pad << key << ":\n";
    } else if (!it->is_structured()) {
        out << pad << it.key() << ' ' << value_text(*it) << ":\n";
        ++it;
    } else {
        inner = indent;
    }
    for (; it != obj.end(); ++it)
        render_member(out, it.key(), *it, inner);
}

} // namespace

Json entry_to_json(const DeviceEntry& entry) {
    return Json{{"id", entry.id}, {"bdf", entry.bdf}, {"model", to_string(entry.model)}};
}

Json info_to_json(const DeviceInfo& info) {
    Json partitions = Json::array();
    for (const auto& p : info.memory_partitions)
        partitions.push_back(
            Json{{"index", p.index}, {"base", p.base}, {"size", p.size}, {"free", p.free}});
    return Json{
        {"id", info.id},
        {"bdf", info.bdf},
        {"model", to_string(info.model)},
        {"product", info.product},
        {"serial", info.serial},
        {"hive_id", info.hive_id},
        {"num_xcc", info.num_xcc},
        {"num_sdma", info.num_sdma},
        {"num_vcn", info.num_vcn},
        {"compute_mode", to_string(info.compute_mode)},
        {"memory_mode", to_string(info.memory_mode)},
        {"supported_compute_modes", names(info.supported_compute_modes)},
        {"supported_memory_modes", names(info.supported_memory_modes)},
        {"vram", Json{{"size", info.vram_size}, {"free", info.vram_free}}},
        {"memory_partitions", std::move(partitions)},
        {"vfs", Json{{"enabled", info.num_vfs}, {"max", info.max_vfs}}},
        {"hmm", info.hmm},
    };
}

Json hmm_caps_to_json(const Caps& caps) {
    return Json{{"device_private", caps.has(AMDX_CAP_DEVICE_PRIVATE)},
                {"hmm_mirror", caps.has(AMDX_CAP_HMM_MIRROR)},
                {"hmm_migrate", caps.has_hmm_migrate()}};
}

Json hmm_stats_to_json(const HmmStats& stats) {
    return Json{{"pages_in", stats.pages_in},     {"pages_out", stats.pages_out},
                {"cpu_faults", stats.cpu_faults}, {"evictions", stats.evictions},
                {"bytes_in", stats.bytes_in},     {"bytes_out", stats.bytes_out},
                {"ns_in", stats.ns_in},           {"ns_out", stats.ns_out}};
}

std::string hmm_loc_name(std::uint32_t loc) {
    if (loc == kHmmLocSystem)
        return "system";
    if (loc == kHmmLocPreferred)
        return "preferred";
    return std::to_string(loc);
}

namespace {

Json bit_indexes(std::uint64_t mask) {
    Json out = Json::array();
    for (unsigned bit = 0; bit < 64; ++bit)
        if ((mask & (std::uint64_t{1} << bit)) != 0)
            out.push_back(bit);
    return out;
}

template <std::size_t N>
Json bit_names(std::uint64_t mask, const std::array<std::string_view, N>& names) {
    Json out = Json::array();
    bool unknown = false;
    for (unsigned bit = 0; bit < 64; ++bit) {
        if ((mask & (std::uint64_t{1} << bit)) == 0)
            continue;
        if (bit < N)
            out.push_back(names[bit]);
        else
            unknown = true;
    }
    if (unknown)
        out.push_back("unknown");
    return out;
}

constexpr std::array<std::string_view, 1> kHmmFlags{"pin"}; // AMDX_HMM_F_*
constexpr std::array<std::string_view, 4> kSkipReasons{"busy", "no_memory", "not_present",
                                                       "other_device"}; // AMDX_HMM_SKIP_*

Json range_to_json(const HmmRangeInfo& r) {
    return Json{{"start", r.start},
                {"size", r.size},
                {"preferred_loc", hmm_loc_name(r.preferred_loc)},
                {"granularity", r.granularity},
                {"flags", bit_names(r.flags, kHmmFlags)},
                {"access", bit_indexes(r.access)},
                {"resident_pages", r.resident_pages},
                {"stats", hmm_stats_to_json(r.stats)}};
}

} // namespace

Json skip_reasons_to_json(std::uint32_t reasons) {
    return bit_names(reasons, kSkipReasons);
}

Json hmm_ranges_to_json(const HmmRanges& ranges) {
    Json list = Json::array();
    for (const auto& r : ranges.ranges)
        list.push_back(range_to_json(r));
    return Json{{"pid", ranges.pid},
                {"total", hmm_stats_to_json(ranges.total)},
                {"ranges", std::move(list)}};
}

Json migrate_to_json(const MigrateResult& result) {
    return Json{{"moved", result.moved},
                {"already", result.already},
                {"skipped", result.skipped},
                {"skip_reasons", skip_reasons_to_json(result.skip_reasons)}};
}

void render(std::ostream& out, const Json& doc, Format format) {
    switch (format) {
    case Format::json:
        out << doc.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
        return;
    case Format::json_pretty:
        out << doc.dump(4, ' ', false, Json::error_handler_t::replace) << '\n';
        return;
    case Format::text:
        for (const auto& [key, value] : doc.items()) {
            if (value.is_array()) { // the list of objects the command is about
                for (const auto& e : value)
                    render_object(out, e, 0, {});
            } else {
                render_member(out, key, value, 0);
            }
        }
        return;
    }
}

} // namespace amdx::cli
