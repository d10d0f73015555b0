// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The JSON of fabric links (json.hpp): `link show` and its --matrix.
#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "json.hpp"

namespace amdx::cli {

Json link_to_json(std::uint64_t hive_id, const LinkInfo& l) {
    Json time = Json::object();
    for (std::uint32_t s = 0; s < l.time_ns.size(); ++s)
        time[std::string(to_string(static_cast<LinkState>(s)))] = l.time_ns[s];
    return Json{{"hive_id", std::to_string(hive_id)}, // beyond 2^53: a string
                {"link", l.link},
                {"kind", to_string(l.kind)},
                {"device_a", l.device[0]},
                {"device_b", l.device[1]},
                {"port_a", l.port[0]},
                {"port_b", l.port[1]},
                {"state", to_string(l.state)},
                {"contain", to_string(l.contain)},
                {"hops", l.hops},
                {"route_degraded", l.route_degraded()},
                {"width", l.width},
                {"width_max", l.width_max},
                {"ce", l.ce},
                {"ue", l.ue},
                {"replays", l.replays},
                {"width_changes", l.width_changes},
                {"downs", l.downs},
                {"state_changes", l.state_changes},
                {"time_ns", std::move(time)}};
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

/// One hive of `link show --matrix`: a row per end among @selected, a
/// column per end of the hive's @links.
Json matrix_to_json(std::uint64_t hive_id, const std::vector<const LinkInfo*>& links,
                    const std::set<std::uint32_t>& selected) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<const LinkInfo*>> pairs;
    std::set<std::uint32_t> ends;
    std::uint64_t up = 0;
    std::uint64_t lanes = 0;
    std::uint64_t lanes_max = 0;
    for (const LinkInfo* l : links) {
        const auto [a, b] = std::minmax(l->device[0], l->device[1]);
        pairs[{a, b}].push_back(l);
        ends.insert({a, b});
        up += l->state == LinkState::up ? 1 : 0;
        lanes += carries(*l) ? l->width : 0;
        lanes_max += l->width_max;
    }
    Json rows = Json::array();
    for (const std::uint32_t r : ends) {
        if (!selected.contains(r))
            continue;
        Json row{{"device", r}};
        for (const std::uint32_t c : ends) {
            const auto it = pairs.find(std::minmax(r, c));
            row[std::to_string(c)] = r == c              ? "X"
                                     : it == pairs.end() ? "-"
                                                         : matrix_cell(it->second);
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
                    const std::set<std::uint32_t>& selected, bool matrix) {
    std::set<std::pair<std::uint64_t, std::uint32_t>> seen; // (hive, link)
    std::map<std::uint64_t, std::vector<const LinkInfo*>> hives;
    Json rows = Json::array();
    for (const auto& [hive, l] : found) {
        if (!seen.insert({hive, l.link}).second)
            continue;
        hives[hive].push_back(&l); // the matrix's columns: every end
        if (selected.contains(l.device[0]) || selected.contains(l.device[1]))
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
