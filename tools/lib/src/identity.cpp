// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Device identity: libdrm for the DRM nodes, the KFD topology in sysfs for
// the KFD nodes.  The topology format is kfd_topology.c's: a "properties"
// file of "name value" lines per node and a "gpu_id" file holding one
// number; location_id is pci_dev_id() (bus << 8 | devfn), ORed with the
// node's partition index on partitioned devices, and domain is the PCI
// domain.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <xf86drm.h>

#include <amdx/identity.hpp>

#include "error.hpp"

namespace amdx {

namespace {

namespace fs = std::filesystem;

/// Devfn bits KFD may OR a partition index into (node_id < 8 on MI300).
constexpr std::uint32_t kPartitionBits = 0x7;

template <class T>
bool parse_number(std::string_view s, T& out, int base = 10) noexcept {
    const auto* end = s.data() + s.size();
    const auto [p, ec] = std::from_chars(s.data(), end, out, base);
    return ec == std::errc() && p == end;
}

/// The value of "@key N" in a properties file, if present and numeric.
std::optional<std::uint64_t> property(const std::string& text, std::string_view key) {
    std::istringstream in(text);
    std::string name;
    std::string value;
    while (in >> name >> value) {
        std::uint64_t v = 0;
        if (name == key && parse_number(value, v))
            return v;
    }
    return std::nullopt;
}

std::optional<std::string> slurp(const fs::path& p) {
    std::ifstream in(p);
    if (!in)
        return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string format_bdf(const PciAddress& a) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%04x:%02x:%02x.%x", a.domain, a.bus, a.device, a.function);
    return buf;
}

struct DrmNodes {
    std::optional<std::string> card;
    std::optional<std::string> render;
    bool found = false;
};

DrmNodes drm_nodes(const PciAddress& want) {
    DrmNodes out;
    const int n = drmGetDevices2(0, nullptr, 0);
    if (n <= 0)
        return out;
    std::vector<drmDevicePtr> devs(static_cast<std::size_t>(n));
    const int got = drmGetDevices2(0, devs.data(), n);
    for (int i = 0; i < got; ++i) {
        const drmDevice* d = devs[static_cast<std::size_t>(i)];
        if (d->bustype != DRM_BUS_PCI || d->businfo.pci == nullptr)
            continue;
        const auto* pci = d->businfo.pci;
        if (pci->domain != want.domain || pci->bus != want.bus || pci->dev != want.device ||
            pci->func != want.function)
            continue;
        out.found = true;
        if ((d->available_nodes & (1 << DRM_NODE_PRIMARY)) != 0)
            out.card = d->nodes[DRM_NODE_PRIMARY];
        if ((d->available_nodes & (1 << DRM_NODE_RENDER)) != 0)
            out.render = d->nodes[DRM_NODE_RENDER];
        break;
    }
    if (got > 0)
        drmFreeDevices(devs.data(), got);
    return out;
}

} // namespace

std::optional<PciAddress> parse_pci_address(std::string_view text) noexcept {
    PciAddress a;
    std::string_view rest = text;
    auto take = [&rest](char sep, std::uint32_t& out, std::uint32_t max) {
        const auto at = sep == 0 ? rest.size() : rest.find(sep);
        if (at == std::string_view::npos || at == 0)
            return false;
        const auto field = rest.substr(0, at);
        rest = at == rest.size() ? std::string_view{} : rest.substr(at + 1);
        return parse_number(field, out, 16) && out <= max;
    };
    const bool has_domain = std::count(text.begin(), text.end(), ':') == 2;
    if (has_domain && !take(':', a.domain, 0xffff))
        return std::nullopt;
    if (!take(':', a.bus, 0xff) || !take('.', a.device, 0x1f) || !take(0, a.function, 0x7))
        return std::nullopt;
    return a;
}

Result<std::vector<KfdNode>> kfd_nodes(std::string_view bdf, std::string_view topology_dir) {
    const auto want = parse_pci_address(bdf);
    if (!want)
        return detail::fail(std::errc::invalid_argument, "kfd_nodes");
    std::vector<KfdNode> nodes;
    std::error_code ec;
    fs::directory_iterator it(fs::path(topology_dir), ec);
    if (ec) // no KFD (or no topology): no nodes
        return nodes;
    const std::uint32_t devfn = (want->device << 3) | want->function;
    for (const auto& entry : it) {
        std::uint32_t node = 0;
        if (!parse_number(entry.path().filename().string(), node))
            continue;
        const auto gpu_id_text = slurp(entry.path() / "gpu_id");
        const auto props = slurp(entry.path() / "properties");
        if (!gpu_id_text || !props)
            continue;
        std::uint32_t gpu_id = 0;
        std::string trimmed = *gpu_id_text;
        trimmed.erase(trimmed.find_last_not_of(" \n") + 1);
        if (!parse_number(trimmed, gpu_id) || gpu_id == 0)
            continue; // a CPU node
        const auto domain = property(*props, "domain");
        const auto location = property(*props, "location_id");
        if (!domain || !location || *domain != want->domain)
            continue;
        const auto loc = static_cast<std::uint32_t>(*location);
        if ((loc >> 8) != want->bus || (loc & 0xff & ~kPartitionBits) != (devfn & ~kPartitionBits))
            continue;
        const auto render = property(*props, "drm_render_minor");
        nodes.push_back(
            KfdNode{.node = node,
                    .gpu_id = gpu_id,
                    .partition = (loc ^ devfn) & kPartitionBits,
                    .drm_render_minor =
                        render ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*render))
                               : std::nullopt});
    }
    std::sort(nodes.begin(), nodes.end(),
              [](const KfdNode& a, const KfdNode& b) { return a.partition < b.partition; });
    return nodes;
}

Result<DeviceIdentity> identify(std::string_view bdf, const IdentifyOptions& options) {
    const auto addr = parse_pci_address(bdf);
    if (!addr)
        return detail::fail(std::errc::invalid_argument, "identify");
    DeviceIdentity id;
    id.bdf = format_bdf(*addr);
    bool drm_found = false;
    if (options.use_libdrm) {
        const auto drm = drm_nodes(*addr);
        id.drm_card = drm.card;
        id.drm_render = drm.render;
        drm_found = drm.found;
    }
    auto kfd = kfd_nodes(id.bdf, options.kfd_topology);
    if (kfd)
        id.kfd_nodes = std::move(*kfd);
    if (options.use_libdrm && !drm_found && id.kfd_nodes.empty())
        id.note = "no DRM or KFD device at this PCI address (simulated, or not driven by amdgpu)";
    else if (options.use_libdrm && !drm_found)
        id.note = "no DRM device at this PCI address";
    else if (id.kfd_nodes.empty())
        id.note = "no KFD node at this PCI address";
    return id;
}

} // namespace amdx
