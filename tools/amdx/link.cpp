// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx link show [DEV]` (Documentation/fabric.rst): the fabric links of the
// hives of the devices DEV selects, one row per link with at least one end
// among them (with every device selected, every link of those hives: a
// scale-up pod's links between a remote accelerator and a switch too),
// each link once however many of its ends are selected; with
// --matrix one N x N table per hive, as `amd-smi topology` and `nvidia-smi
// topo -m` print theirs.
#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "commands.hpp"

namespace amdx::cli {

LinkCommands::LinkCommands(CLI::App& app) {
    object_ = app.add_subcommand("link", "Fabric links between the devices of a hive "
                                         "(COMMAND: show)");
    object_->fallthrough()->require_subcommand(0, 1);
    auto* show = object_->add_subcommand(
        "show", "Each link with an end on DEV (every link of their hives for 'all'): its "
                "ends, state, containment, hops and error counters (default)");
    show->fallthrough();
    show->add_flag("--matrix", matrix_,
                   "One table per hive: a row per selected device, a column per device of "
                   "the hive, each cell the links between the two");
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
    render(out, link_show_json(found, selected, matrix_, dev_ == "all"), opts);
    return kExitOk;
}

} // namespace amdx::cli
