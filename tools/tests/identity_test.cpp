// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Device identity: PCI address parsing, the KFD topology parser against
// fixtures/kfd-6.12 (the format of Linux 6.12's kfd_topology.c), and
// identify() with libdrm on a host without amdgpu (nothing found, nothing
// fails).
#include <gtest/gtest.h>

#include <amdx/identity.hpp>

namespace {

const std::string kFixture = AMDX_TEST_FIXTURES "/kfd-6.12/nodes";

TEST(PciAddress, ParsesWithAndWithoutDomain) {
    EXPECT_EQ(amdx::parse_pci_address("0000:c1:00.0"),
              (amdx::PciAddress{.domain = 0, .bus = 0xc1, .device = 0, .function = 0}));
    EXPECT_EQ(amdx::parse_pci_address("0004:5A:1f.7"),
              (amdx::PciAddress{.domain = 4, .bus = 0x5a, .device = 0x1f, .function = 7}));
    EXPECT_EQ(amdx::parse_pci_address("c1:00.0"),
              (amdx::PciAddress{.domain = 0, .bus = 0xc1, .device = 0, .function = 0}));
    for (const char* bad : {"", "c1", "c1:00", "0000:c1:00.8", "0000:c1:20.0", "x:c1:00.0",
                            "0000:c1:00.0:1", "10000:00:00.0", "0000::00.0"})
        EXPECT_FALSE(amdx::parse_pci_address(bad)) << bad;
}

TEST(KfdTopology, PartitionsOfOneDeviceByPartition) {
    const auto nodes = amdx::kfd_nodes("0000:c1:00.0", kFixture);
    ASSERT_TRUE(nodes) << nodes.context().message();
    ASSERT_EQ(nodes->size(), 2U);
    EXPECT_EQ((*nodes)[0],
              (amdx::KfdNode{.node = 1, .gpu_id = 45337, .partition = 0, .drm_render_minor = 128}));
    EXPECT_EQ((*nodes)[1],
              (amdx::KfdNode{.node = 2, .gpu_id = 45338, .partition = 1, .drm_render_minor = 129}));
}

TEST(KfdTopology, MatchesTheDomain) {
    const auto other = amdx::kfd_nodes("0001:05:00.0", kFixture);
    ASSERT_TRUE(other);
    ASSERT_EQ(other->size(), 1U);
    EXPECT_EQ((*other)[0].gpu_id, 61422U);
    // Same bus and devfn in domain 0: not that device.
    const auto none = amdx::kfd_nodes("0000:05:00.0", kFixture);
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->empty());
}

TEST(KfdTopology, CpuNodesAndUnknownAddressesDoNotMatch) {
    const auto cpu = amdx::kfd_nodes("0000:00:00.0", kFixture); // node 0's location_id is 0
    ASSERT_TRUE(cpu);
    EXPECT_TRUE(cpu->empty());
    const auto sim = amdx::kfd_nodes("0004:5a:00.0", kFixture);
    ASSERT_TRUE(sim);
    EXPECT_TRUE(sim->empty());
}

TEST(KfdTopology, NoKfdIsNoNodesAndABadAddressIsEinval) {
    const auto none = amdx::kfd_nodes("0000:c1:00.0", "/nonexistent/kfd/topology/nodes");
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->empty());
    EXPECT_EQ(amdx::kfd_nodes("gpu0", kFixture).error(), std::errc::invalid_argument);
}

TEST(Identify, KfdFromTheFixtureWithoutDrm) {
    amdx::IdentifyOptions opts;
    opts.kfd_topology = kFixture;
    opts.use_libdrm = false;
    const auto id = amdx::identify("C1:00.0", opts);
    ASSERT_TRUE(id);
    EXPECT_EQ(id->bdf, "0000:c1:00.0");
    EXPECT_EQ(id->kfd_nodes.size(), 2U);
    EXPECT_FALSE(id->drm_card);
    EXPECT_EQ(id->note, "");
}

// The host has no amdgpu: libdrm finds nothing at a simulated address, and
// that is an answer, not a failure.
TEST(Identify, SimulatedDeviceHasNoneAndSaysSo) {
    amdx::IdentifyOptions opts;
    opts.kfd_topology = kFixture;
    const auto id = amdx::identify("0004:5a:00.0", opts);
    ASSERT_TRUE(id) << id.context().message();
    EXPECT_FALSE(id->drm_card);
    EXPECT_FALSE(id->drm_render);
    EXPECT_TRUE(id->kfd_nodes.empty());
    EXPECT_EQ(id->note,
              "no DRM or KFD device at this PCI address (simulated, or not driven by amdgpu)");
    EXPECT_EQ(amdx::identify("nope").error(), std::errc::invalid_argument);
}

} // namespace
