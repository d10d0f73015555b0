// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx link show [DEV]` (Documentation/fabric.rst): the fabric links of the
// hives of the devices DEV selects, one row per link with at least one end
// among them, each link once however many of its ends are selected.
#include <set>
#include <utility>

#include "commands.hpp"

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

LinkCommands::LinkCommands(CLI::App& app) {
    object_ = app.add_subcommand("link", "Fabric links between the devices of a hive "
                                         "(COMMAND: show)");
    object_->fallthrough()->require_subcommand(0, 1);
    auto* show = object_->add_subcommand(
        "show", "Each link with an end on DEV: its ends, state, containment, hops and "
                "error counters (default)");
    show->fallthrough();
    add_dev_option(show, dev_, true);
}

int LinkCommands::run(const Options& opts, std::ostream& out, std::ostream& err) const {
    std::set<std::uint32_t> selected;
    std::vector<std::pair<std::uint64_t, LinkInfo>> found;
    const auto stop = for_each_device(
        opts, dev_, true, err,
        [&](const Device& device, const DeviceEntry& e) -> std::optional<int> {
            selected.insert(e.id);
            const auto links = device.links();
            if (!links) {
                fail(err, device_error(what_on("links of", e), links.error()), links.error());
                return kExitError;
            }
            for (const auto& l : links->links)
                found.emplace_back(links->hive_id, l);
            return std::nullopt;
        });
    if (stop)
        return *stop;
    render(out, link_show_json(found, selected), opts);
    return kExitOk;
}

Json link_show_json(const std::vector<std::pair<std::uint64_t, LinkInfo>>& found,
                    const std::set<std::uint32_t>& selected) {
    std::set<std::pair<std::uint64_t, std::uint32_t>> seen; // (hive, link)
    Json rows = Json::array();
    for (const auto& [hive, l] : found) {
        if (!selected.contains(l.device[0]) && !selected.contains(l.device[1]))
            continue;
        if (!seen.insert({hive, l.link}).second)
            continue;
        rows.push_back(link_to_json(hive, l));
    }
    return Json{{"links", std::move(rows)}};
}

} // namespace amdx::cli
