// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The JSON of fabric links (json.hpp): `link show` and its --matrix.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "json.hpp"

namespace amdx::cli {

namespace {

/// What end @e of @l is (LinkInfo::end_name()); null from a module
/// before uapi minor 6.
Json end_kind(const LinkInfo& l, std::size_t e) {
    const std::string_view name = l.end_name(e);
    return name.empty() ? Json() : Json(name);
}

/// End @e's amdx device id; null for an end that is no device of this
/// host (the kernel's U32_MAX, never shown).
Json end_device(const LinkInfo& l, std::size_t e) {
    return l.device[e] == UINT32_MAX ? Json() : Json(l.device[e]);
}

/// @v, or null where the provider declares it does not report it
/// (AMDX_LINK_F_NO_*): absent, never a 0 that reads as "no errors".
Json unless(bool absent, std::uint64_t v) {
    return absent ? Json() : Json(v);
}

/// End @e's OS domain: a pod's accelerators only.
Json end_domain(const LinkInfo& l, std::size_t e) {
    return l.pod_accelerator(e) ? Json(l.domain[e]) : Json();
}

/// End @e's virtual pod, from 1: a pod's accelerators only (0: a switch,
/// a hive, a module before uapi minor 7).
Json end_vpod(const LinkInfo& l, std::size_t e) {
    return l.vpod[e] != 0 ? Json(l.vpod[e]) : Json();
}

} // namespace

Json link_to_json(std::uint64_t hive_id, const LinkInfo& l) {
    Json time = Json::object();
    for (std::uint32_t s = 0; s < l.time_ns.size(); ++s)
        time[std::string(to_string(static_cast<LinkState>(s)))] = l.time_ns[s];
    return Json{{"hive_id", std::to_string(hive_id)}, // beyond 2^53: a string
                {"link", l.link},
                {"kind", to_string(l.kind)},
                {"device_a", end_device(l, 0)},
                {"device_b", end_device(l, 1)},
                {"port_a", l.port[0]},
                {"port_b", l.port[1]},
                {"end_a", end_kind(l, 0)},
                {"end_b", end_kind(l, 1)},
                {"fabric_id_a", l.end[0] != 0 ? Json(l.fabric_id[0]) : Json()},
                {"fabric_id_b", l.end[1] != 0 ? Json(l.fabric_id[1]) : Json()},
                {"domain_a", end_domain(l, 0)},
                {"domain_b", end_domain(l, 1)},
                {"vpod_a", end_vpod(l, 0)},
                {"vpod_b", end_vpod(l, 1)},
                {"state", to_string(l.state)},
                {"contain", to_string(l.contain)},
                {"hops", l.hops},
                {"route_degraded", l.route_degraded()},
                {"width", unless(l.no_width(), l.width)},
                {"width_max", l.width_max},
                {"ce", unless(l.no_counters(), l.ce)},
                {"ue", unless(l.no_counters(), l.ue)},
                {"replays", unless(l.no_counters(), l.replays)},
                {"width_changes", unless(l.no_width(), l.width_changes)},
                {"downs", unless(l.no_state(), l.downs)},
                {"state_changes", unless(l.no_state(), l.state_changes)},
                {"time_ns", l.no_state() ? Json() : std::move(time)}};
}

namespace {

/// Whether @l carries traffic at all: not down, not parked.
bool carries(const LinkInfo& l) {
    return l.state != LinkState::down && l.state != LinkState::parked;
}

/// The cell of the matrix for the links between two devices (one in a
/// hive, one per plane in a pod): the worst state; "/xN" with the lanes
/// that carry traffic when some but not all are lost; "/Nh" with the hops
/// of the route between them when it is not the direct one, "/no-route"
/// when none is left (cli.rst, "Fabric links").
std::string matrix_cell(const std::vector<const LinkInfo*>& pair) {
    LinkState worst = LinkState::up;
    std::uint32_t lanes = 0;
    std::uint32_t lanes_max = 0;
    std::uint32_t hops = pair.front()->hops; // the route between the ends
    for (const LinkInfo* l : pair) {
        worst = std::max(worst, l->state);
        lanes += carries(*l) ? l->width : 0;
        lanes_max += l->width_max;
        hops = std::min(hops, l->hops);
    }
    std::string cell(to_string(worst));
    if (lanes != 0 && lanes < lanes_max)
        cell.append("/x").append(std::to_string(lanes));
    if (hops == 0)
        cell.append("/no-route");
    else if (hops != 1)
        cell.append("/").append(std::to_string(hops)).append("h");
    return cell;
}

constexpr std::uint8_t kDeviceFirst = 0; // an End's kind: sorts devices first

/// An end of a link as the matrix orders and names it: this host's
/// devices by id first ("0"), then a pod's remote accelerators by fabric id
/// ("acc41"), then its switches by plane ("sw1").
struct End {
    std::uint8_t kind = kDeviceFirst; ///< or AMDX_LINK_END_REMOTE, _SWITCH
    std::uint32_t id = 0;             ///< device id, fabric id, plane

    // Spelled out: clang-tidy 14 takes a defaulted operator<=> for a
    // literal 0 compared with a pointer (modernize-use-nullptr).
    friend bool operator<(const End& a, const End& b) {
        return std::tie(a.kind, a.id) < std::tie(b.kind, b.id);
    }
    friend bool operator==(const End& a, const End& b) { return a.kind == b.kind && a.id == b.id; }

    [[nodiscard]] std::string name() const {
        return (kind == AMDX_LINK_END_SWITCH   ? "sw"
                : kind == AMDX_LINK_END_REMOTE ? "acc"
                                               : "") +
               std::to_string(id);
    }
};

/// End @e of @l; a module before uapi minor 6 names every end a device.
End end_of(const LinkInfo& l, std::size_t e) {
    if (l.end[e] == AMDX_LINK_END_SWITCH || l.end[e] == AMDX_LINK_END_REMOTE)
        return End{l.end[e], l.fabric_id[e]};
    return End{kDeviceFirst, l.device[e]};
}

/// One hive of `link show --matrix`: a row per end among @selected, a
/// column per end of the hive's @links that is a row or linked to one.
Json matrix_to_json(std::uint64_t hive_id, const std::vector<const LinkInfo*>& links,
                    const std::set<std::uint32_t>& selected) {
    std::map<std::pair<End, End>, std::vector<const LinkInfo*>> pairs;
    std::set<End> ends;
    std::set<End> columns;
    std::uint64_t up = 0;
    std::uint64_t lanes = 0;
    std::uint64_t lanes_max = 0;
    auto is_row = [&selected](const End& e) {
        return e.kind == kDeviceFirst && selected.contains(e.id);
    };
    for (const LinkInfo* l : links) {
        const End x = end_of(*l, 0);
        const End y = end_of(*l, 1);
        const auto [a, b] = std::minmax(x, y);
        pairs[{a, b}].push_back(l);
        ends.insert({a, b});
        if (is_row(a) || is_row(b))
            columns.insert({a, b});
        up += l->state == LinkState::up ? 1 : 0;
        lanes += carries(*l) ? l->width : 0;
        lanes_max += l->width_max;
    }
    for (const End& e : ends)
        if (is_row(e))
            columns.insert(e);
    Json rows = Json::array();
    for (const End& r : ends) {
        if (!is_row(r))
            continue;
        Json row{{"device", r.id}};
        for (const End& c : columns) {
            const auto it = pairs.find(std::minmax(r, c));
            row[c.name()] = r == c ? "X" : it == pairs.end() ? "-" : matrix_cell(it->second);
        }
        rows.push_back(std::move(row));
    }
    return Json{{"hive_id", std::to_string(hive_id)},
                {"links", links.size()},
                {"links_up", up},
                {"lanes", lanes},
                {"lanes_max", lanes_max},
                {"matrix", std::move(rows)}};
}

} // namespace

Json link_show_json(const std::vector<std::pair<std::uint64_t, LinkInfo>>& found,
                    const std::set<std::uint32_t>& selected, bool matrix, bool every) {
    std::set<std::pair<std::uint64_t, std::uint32_t>> seen; // (hive, link)
    std::map<std::uint64_t, std::vector<const LinkInfo*>> hives;
    Json rows = Json::array();
    for (const auto& [hive, l] : found) {
        if (!seen.insert({hive, l.link}).second)
            continue;
        hives[hive].push_back(&l); // the matrix's columns: every end
        if (every || selected.contains(l.device[0]) || selected.contains(l.device[1]))
            rows.push_back(link_to_json(hive, l));
    }
    if (!matrix)
        return Json{{"links", std::move(rows)}};
    Json matrices = Json::array();
    for (const auto& [hive, links] : hives)
        matrices.push_back(matrix_to_json(hive, links, selected));
    return Json{{"hives", std::move(matrices)}};
}

} // namespace amdx::cli
