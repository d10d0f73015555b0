// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Fabric links: AMDX_QUERY_LINKS and the names of the link constants.  The
// names are part of the CLI's JSON contract and the exporter's labels
// (Documentation/admin-guide/cli.rst, metrics.rst): never rename one.
#include <algorithm>
#include <array>
#include <utility>

#include <amdx/device.hpp>
#include <amdx/link.hpp>

#include "error.hpp"
#include "names.hpp"
#include "query.hpp"

namespace amdx {

namespace {

using Name = std::string_view;

constexpr std::array kLinkStates{
    std::pair{LinkState::up, Name("up")},         std::pair{LinkState::degraded, Name("degraded")},
    std::pair{LinkState::replay, Name("replay")}, std::pair{LinkState::down, Name("down")},
    std::pair{LinkState::parked, Name("parked")},
};
constexpr std::array kLinkKinds{
    std::pair{LinkKind::xgmi, Name("xgmi")},
    std::pair{LinkKind::scaleup, Name("scaleup")},
};
constexpr std::array kLinkContains{
    std::pair{LinkContain::none, Name("none")},
    std::pair{LinkContain::avoid, Name("avoid")},
    std::pair{LinkContain::move, Name("move")},
    std::pair{LinkContain::park, Name("park")},
};
static_assert(kLinkStates.size() == AMDX_LINK_STATE_COUNT, "a link state has no name");
static_assert(kLinkKinds.size() == AMDX_LINK_KIND_COUNT, "a link kind has no name");
static_assert(kLinkContains.size() == AMDX_LINK_CONTAIN_COUNT, "a containment has no name");

} // namespace

std::string_view to_string(LinkState state) noexcept {
    return detail::name_of(kLinkStates, state);
}
std::string_view to_string(LinkKind kind) noexcept {
    return detail::name_of(kLinkKinds, kind);
}
std::string_view to_string(LinkContain contain) noexcept {
    return detail::name_of(kLinkContains, contain);
}

std::string_view LinkInfo::end_name(std::size_t e) const noexcept {
    switch (e < end.size() ? end[e] : 0) {
    case 0:
        return "";
    case AMDX_LINK_END_DEVICE:
        return "device";
    case AMDX_LINK_END_REMOTE:
        return "accelerator";
    case AMDX_LINK_END_SWITCH:
        return "switch";
    default:
        return "unknown";
    }
}

LinkInfo LinkInfo::from_uapi(const amdx_link_info& raw) noexcept {
    LinkInfo l;
    l.link = raw.link;
    l.kind = static_cast<LinkKind>(raw.kind);
    l.device = {raw.device[0], raw.device[1]};
    l.port = {raw.port[0], raw.port[1]};
    l.width_max = raw.width_max;
    l.width = raw.width;
    l.state = static_cast<LinkState>(raw.state);
    l.contain = static_cast<LinkContain>(raw.contain);
    l.hops = raw.hops;
    l.flags = raw.flags;
    l.ce = raw.ce;
    l.ue = raw.ue;
    l.replays = raw.replays;
    l.width_changes = raw.width_changes;
    l.downs = raw.downs;
    l.state_changes = raw.state_changes;
    std::copy(std::begin(raw.time_ns), std::end(raw.time_ns), l.time_ns.begin());
    l.end = {raw.end[0], raw.end[1]};
    l.domain = {raw.domain[0], raw.domain[1]};
    l.fabric_id = {raw.fabric_id[0], raw.fabric_id[1]};
    l.vpod = {raw.vpod[0], raw.vpod[1]};
    return l;
}

Result<Links> Device::links() const noexcept {
    constexpr std::string_view kCall = "AMDX_QUERY_LINKS";
    auto answer = detail::fetch_list(fd(), AMDX_QUERY_LINKS, sizeof(amdx_query_links));
    if (!answer)
        return detail::forward(answer, kCall, id_);
    const auto header = detail::list_header<amdx_query_links>(*answer);
    Links out;
    out.hive_id = header.hive_id;
    auto ok = detail::for_each_entry<amdx_query_links, amdx_link_info>(
        *answer, header.num_links, header.entry_size, AMDX_LINK_INFO_SIZE_VER0,
        [&out](const amdx_link_info& raw) { out.links.push_back(LinkInfo::from_uapi(raw)); });
    if (!ok)
        return detail::forward(ok, kCall, id_);
    return out;
}

} // namespace amdx
