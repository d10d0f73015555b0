// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Where an amdx device sits in the rest of the GPU stack: its DRM card and
// render node (libdrm's drmGetDevices2()) and its KFD nodes (the KFD
// topology in sysfs), found by PCI address.  A device amdgpu does not drive
// (an amdx_sim device, a GPU without amdgpu) has none of them; that is not
// an error, and DeviceIdentity::note says why they are absent.
//
//   identify(bdf)
//     drmGetDevices2()                       -> card, render node
//     /sys/class/kfd/kfd/topology/nodes/N/   -> gpu_id per KFD node
//       properties: domain, location_id      (= PCI bus << 8 | devfn,
//                                               | the partition on
//                                               partitioned devices)
//
// Thread safety: the functions keep no state and may run concurrently.
#ifndef AMDX_IDENTITY_HPP
#define AMDX_IDENTITY_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <amdx/export.hpp>
#include <amdx/result.hpp>

namespace amdx {

/// Default root of the KFD topology.
inline constexpr std::string_view kKfdTopologyPath = "/sys/class/kfd/kfd/topology/nodes";

/// One KFD node of a device: one per compute partition.
struct KfdNode {
    std::uint32_t node = 0;      ///< the directory name: topology/nodes/<node>
    std::uint32_t gpu_id = 0;    ///< what KFD ioctls and ROCm name the GPU by
    std::uint32_t partition = 0; ///< low bits of location_id KFD adds per partition
    std::optional<std::uint32_t> drm_render_minor;

    bool operator==(const KfdNode&) const = default;
};

/// A device's place in the DRM and KFD world.
struct DeviceIdentity {
    std::string bdf;                       ///< "dddd:bb:dd.f", lower case
    std::optional<std::string> drm_card;   ///< "/dev/dri/card0"
    std::optional<std::string> drm_render; ///< "/dev/dri/renderD128"
    std::vector<KfdNode> kfd_nodes;        ///< by partition
    /// Why fields are absent, "" when all were found: "no DRM device at
    /// this PCI address (simulated, or not driven by amdgpu)", ...
    std::string note;
};

/// Where to look; the defaults are the live system.
struct IdentifyOptions {
    std::string kfd_topology{kKfdTopologyPath};
    bool use_libdrm = true; ///< false: skip DRM (tests of the KFD part)
};

/// Parses a PCI address "dddd:bb:dd.f" or "bb:dd.f" (domain 0) into
/// domain, bus, device and function.  nullopt if malformed.
struct PciAddress {
    std::uint32_t domain = 0;
    std::uint32_t bus = 0;
    std::uint32_t device = 0;
    std::uint32_t function = 0;

    bool operator==(const PciAddress&) const = default;
};
AMDX_EXPORT std::optional<PciAddress> parse_pci_address(std::string_view text) noexcept;

/// The KFD nodes of the GPU at @bdf in the topology under @topology_dir
/// (nodes/<N>/gpu_id and nodes/<N>/properties, as
/// drivers/gpu/drm/amd/amdkfd/kfd_topology.c writes them), sorted by
/// partition.  CPU nodes (gpu_id 0) never match.  A missing topology
/// directory is an empty list (no KFD); EINVAL for a malformed @bdf.
AMDX_EXPORT Result<std::vector<KfdNode>>
kfd_nodes(std::string_view bdf, std::string_view topology_dir = kKfdTopologyPath);

/// DRM nodes and KFD nodes of the device at @bdf.  Fails only for a
/// malformed @bdf; everything not found is absent, with a note.
AMDX_EXPORT Result<DeviceIdentity> identify(std::string_view bdf,
                                            const IdentifyOptions& options = {});

} // namespace amdx

#endif // AMDX_IDENTITY_HPP
