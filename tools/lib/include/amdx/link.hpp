// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Typed mirrors of the uapi's fabric links (struct amdx_link_info,
// Documentation/fabric.rst).  Device::links() queries them.  Values a newer
// kernel may report are kept as-is; the to_string() functions name them
// "unknown".
//
// Thread safety: plain values; the free functions are reentrant and keep
// no state.
#ifndef AMDX_LINK_HPP
#define AMDX_LINK_HPP

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include <amdx/export.hpp>
#include <linux/amdx.h>

namespace amdx {

/// AMDX_LINK_STATE_*: a link's state, mildest first.
enum class LinkState : std::uint32_t {
    up = AMDX_LINK_STATE_UP,
    degraded = AMDX_LINK_STATE_DEGRADED,
    replay = AMDX_LINK_STATE_REPLAY,
    down = AMDX_LINK_STATE_DOWN,
    parked = AMDX_LINK_STATE_PARKED,
};

/// AMDX_LINK_KIND_*: what a link is.
enum class LinkKind : std::uint32_t {
    xgmi = AMDX_LINK_KIND_XGMI,
    scaleup = AMDX_LINK_KIND_SCALEUP,
};

/// AMDX_LINK_CONTAIN_*: the containment a link's state asks for, smallest
/// first.
enum class LinkContain : std::uint32_t {
    none = AMDX_LINK_CONTAIN_NONE,
    avoid = AMDX_LINK_CONTAIN_AVOID,
    move = AMDX_LINK_CONTAIN_MOVE,
    park = AMDX_LINK_CONTAIN_PARK,
};

/// "up", "degraded", "replay", "down", "parked"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(LinkState state) noexcept;
/// "xgmi", "scaleup"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(LinkKind kind) noexcept;
/// "none", "avoid", "move", "park"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(LinkContain contain) noexcept;

/// struct amdx_link_info: one link of a hive.
struct AMDX_EXPORT LinkInfo {
    std::uint32_t link = 0; ///< index in the hive's list (AMDX_EVENT_LINK's instance)
    LinkKind kind = LinkKind::xgmi;
    std::array<std::uint32_t, 2> device{}; ///< the amdx device ids of its ends
    std::array<std::uint8_t, 2> port{};    ///< the port of each end
    std::uint8_t width_max = 0;            ///< lanes at full width
    std::uint8_t width = 0;                ///< lanes now
    LinkState state = LinkState::up;
    LinkContain contain = LinkContain::none;
    std::uint32_t hops = 0;  ///< of the route between its ends; 0: no route left
    std::uint32_t flags = 0; ///< AMDX_LINK_F_*
    std::uint64_t ce = 0;
    std::uint64_t ue = 0;
    std::uint64_t replays = 0;
    std::uint64_t width_changes = 0;
    std::uint64_t downs = 0;
    std::uint64_t state_changes = 0;
    std::array<std::uint64_t, AMDX_LINK_STATE_COUNT> time_ns{}; ///< per LinkState
    /// AMDX_LINK_END_* of each end; 0 from a module before uapi minor 6
    std::array<std::uint8_t, 2> end{};
    std::array<std::uint8_t, 2> domain{};     ///< OS domain of each pod accelerator end
    std::array<std::uint16_t, 2> fabric_id{}; ///< pod fabric id, switch plane, hive device id
    /// virtual pod of each pod accelerator end, from 1; 0 for a switch, in
    /// a hive, and from a module before uapi minor 7
    std::array<std::uint8_t, 2> vpod{};

    /// AMDX_LINK_F_ROUTE_DEGRADED: the route avoids the link or is longer.
    [[nodiscard]] bool route_degraded() const noexcept {
        return (flags & AMDX_LINK_F_ROUTE_DEGRADED) != 0;
    }
    /// AMDX_LINK_F_NO_STATE: the provider reports no state of this link.
    [[nodiscard]] bool no_state() const noexcept { return (flags & AMDX_LINK_F_NO_STATE) != 0; }
    /// AMDX_LINK_F_NO_WIDTH: the provider reports no width of this link.
    [[nodiscard]] bool no_width() const noexcept { return (flags & AMDX_LINK_F_NO_WIDTH) != 0; }
    /// What end @e (0 or 1) is: "device" (of this host), "accelerator" (a
    /// scale-up pod's remote one), "switch"; "" from a module before uapi
    /// minor 6, "unknown" for a value it does not know.
    [[nodiscard]] std::string_view end_name(std::size_t e) const noexcept;
    /// End @e is an accelerator of a scale-up pod (this host's or a remote
    /// one): its domain and vpod mean something.
    [[nodiscard]] bool pod_accelerator(std::size_t e) const noexcept {
        return kind == LinkKind::scaleup && e < end.size() &&
               (end[e] == AMDX_LINK_END_DEVICE || end[e] == AMDX_LINK_END_REMOTE);
    }
    /// AMDX_LINK_F_NO_COUNTERS: the provider counts no errors per link.
    [[nodiscard]] bool no_counters() const noexcept {
        return (flags & AMDX_LINK_F_NO_COUNTERS) != 0;
    }

    bool operator==(const LinkInfo&) const = default;
    AMDX_LOCAL static LinkInfo from_uapi(const amdx_link_info& raw) noexcept;
};

/// %AMDX_QUERY_LINKS.
struct Links {
    std::uint64_t hive_id = 0; ///< 0: the device is in no hive (then no links)
    std::vector<LinkInfo> links;
};

} // namespace amdx

#endif // AMDX_LINK_HPP
