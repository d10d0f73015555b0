// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// libamdx's DeviceMonitor (monitor.hpp) against the fake kernel: devices
// present and created later are followed, devices that go away are
// dropped, and the added/removed callbacks say so; and event_fields(), the
// one rendering of a record, against the CLI's `monitor -j` object.
#include <algorithm>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include <amdx/monitor.hpp>

#include "cli.hpp"
#include "fake_kernel.hpp"

namespace {

using amdx::DeviceMonitor;

class Monitor : public ::testing::Test {
  protected:
    void SetUp() override { kernel.add_device(0); }

    /// A monitor that rescans at every poll(), recording what came and went.
    DeviceMonitor make(bool follow_reused_ids = true) {
        auto c = amdx::Control::open("/dev/null");
        EXPECT_TRUE(c) << c.context().message();
        DeviceMonitor m(std::move(*c), {.follow_reused_ids = follow_reused_ids,
                                        .rescan_period = std::chrono::milliseconds(0)});
        m.on_added([this](const DeviceMonitor::Followed& f) { added.push_back(f.entry.id); });
        m.on_removed([this](const amdx::DeviceEntry& e) { removed.push_back(e.id); });
        return m;
    }

    void remove_device(std::uint32_t id) {
        kernel.hang_up(id);
        std::erase_if(kernel.devices, [id](const amdx_device_info& d) { return d.id == id; });
    }

    static std::size_t poll(DeviceMonitor& m, std::vector<amdx::Event>& out) {
        const auto n = m.poll(0, out);
        EXPECT_TRUE(n) << n.context().message();
        return n ? *n : 0;
    }

    amdx::test::FakeKernel kernel;
    std::vector<std::uint32_t> added;
    std::vector<std::uint32_t> removed;
};

amdx_event retired(std::uint64_t address) {
    amdx_event e{};
    e.kind = AMDX_EVENT_PAGE_RETIRED;
    e.partition = AMDX_RAS_PARTITION_ALL;
    e.address = address;
    return e;
}

TEST_F(Monitor, FollowsEveryDeviceAndThoseCreatedLater) {
    auto m = make();
    ASSERT_TRUE(m.rescan());
    EXPECT_EQ(added, (std::vector<std::uint32_t>{0}));
    kernel.add_device(1);
    std::vector<amdx::Event> out;
    EXPECT_EQ(poll(m, out), 0U); // the rescan picks up device 1
    EXPECT_EQ(added, (std::vector<std::uint32_t>{0, 1}));
    ASSERT_EQ(m.followed().size(), 2U);

    kernel.emit(1, retired(0x4000));
    kernel.emit(0, retired(0x8000));
    ASSERT_EQ(poll(m, out), 2U);
    std::sort(out.begin(), out.end(),
              [](const amdx::Event& a, const amdx::Event& b) { return a.device < b.device; });
    EXPECT_EQ(out[0].device, 0U);
    EXPECT_EQ(out[0].address, 0x8000U);
    EXPECT_EQ(out[1].device, 1U);
    EXPECT_EQ(out[1].address, 0x4000U);
    EXPECT_TRUE(removed.empty());
}

TEST_F(Monitor, AtMostMaxRecordsAPoll) {
    auto m = make();
    ASSERT_TRUE(m.rescan());
    for (std::uint64_t i = 1; i <= 3; ++i)
        kernel.emit(0, retired(i << 12));
    std::vector<amdx::TypedEvent> out;
    const auto n = m.poll(1000, out, 2);
    ASSERT_TRUE(n);
    EXPECT_EQ(*n, 2U);
    ASSERT_EQ(out.size(), 2U);
    ASSERT_NE(out[1].get<amdx::events::PageRetired>(), nullptr);
    EXPECT_EQ(out[1].get<amdx::events::PageRetired>()->address, 0x2000U);
}

TEST_F(Monitor, DropsADeviceThatWentAwayAndFollowsAReusedIdOnlyIfAsked) {
    for (const bool reuse : {true, false}) {
        SCOPED_TRACE(reuse ? "follow_reused_ids" : "never again");
        added.clear();
        removed.clear();
        auto m = make(reuse);
        ASSERT_TRUE(m.rescan());
        remove_device(0);
        std::vector<amdx::Event> out;
        EXPECT_EQ(poll(m, out), 0U);
        EXPECT_EQ(removed, (std::vector<std::uint32_t>{0}));
        EXPECT_TRUE(m.followed().empty());

        kernel.add_device(0); // a new device under the old id
        EXPECT_EQ(poll(m, out), 0U);
        EXPECT_EQ(m.followed().size(), reuse ? 1U : 0U);
        EXPECT_EQ(added.size(), reuse ? 2U : 1U);
    }
}

TEST_F(Monitor, AddNamesTheFailedCall) {
    auto m = make();
    amdx::DeviceEntry ghost;
    ghost.id = 9;
    const auto ok = m.add(ghost);
    ASSERT_FALSE(ok);
    EXPECT_EQ(ok.error(), std::errc::no_such_device);
    EXPECT_EQ(ok.context().call, "AMDX_IOC_DEVICE_OPEN");
    EXPECT_TRUE(added.empty());
}

amdx::Event raw(std::uint16_t kind) {
    amdx::Event e;
    e.seq = 7;
    e.timestamp_ns = 1000;
    e.kind = static_cast<amdx::EventKind>(kind);
    e.size = sizeof(amdx_event);
    e.device = 2;
    e.partition = AMDX_RAS_PARTITION_ALL;
    return e;
}

std::vector<std::string_view> names(const amdx::Event& e) {
    std::vector<std::string_view> out;
    for (const auto& f : amdx::event_fields(amdx::decode(e)))
        out.push_back(f.name);
    return out;
}

TEST(EventFields, TheOneRenderingOfEveryKind) {
    using V = std::vector<std::string_view>;
    auto ras_reset = raw(AMDX_EVENT_VF_RESET);
    ras_reset.type = AMDX_VF_RESET_CAUSE_RAS; // only an FLR clears VRAM
    ras_reset.address = 0x1000;
    EXPECT_EQ(names(ras_reset),
              (V{"device", "seq", "timestamp_ns", "kind", "vf", "cause", "result", "state"}));
    auto flr = raw(AMDX_EVENT_VF_RESET);
    flr.type = AMDX_VF_RESET_CAUSE_FLR;
    EXPECT_EQ(names(flr).back(), "vram_cleared");
    // A partition the record does not name is left out.
    EXPECT_EQ(names(raw(AMDX_EVENT_PAGE_PENDING)),
              (V{"device", "seq", "timestamp_ns", "kind", "address"}));
    auto newer = raw(60); // a kind from a newer kernel: its raw fields
    newer.data[1] = 5;
    EXPECT_EQ(names(newer), (V{"device", "seq", "timestamp_ns", "kind", "kind_id", "block", "type",
                               "instance", "partition", "address", "data"}));
    const auto fields = amdx::event_fields(amdx::decode(newer));
    EXPECT_EQ(std::get<std::string>(fields[3].value), "unknown");
    EXPECT_EQ(std::get<std::uint64_t>(fields[4].value), 60U);
    EXPECT_EQ(std::get<std::vector<std::uint64_t>>(fields.back().value),
              (std::vector<std::uint64_t>{0, 5}));
    auto end = raw(AMDX_EVENT_DEVICE_RESET_END);
    end.data[0] = static_cast<std::uint64_t>(-EIO);
    EXPECT_EQ(std::get<std::string>(amdx::event_fields(amdx::decode(end)).back().value), "EIO");
}

TEST(EventFields, AnErrorNamesItsConsumerPidAndPasid) {
    auto e = raw(AMDX_EVENT_ERROR);
    e.pid = 4242;
    e.pasid = 0x8001;
    const auto fields = amdx::event_fields(amdx::decode(e));
    using V = std::vector<std::string_view>;
    EXPECT_EQ(names(e), (V{"device", "seq", "timestamp_ns", "kind", "block", "type", "instance",
                           "address", "count", "pid", "pasid"}));
    EXPECT_EQ(std::get<std::uint64_t>(fields[9].value), 4242U);
    EXPECT_EQ(std::get<std::uint64_t>(fields[10].value), 0x8001U);
    // No consumer known (an older kernel, the privacy rule): left out.
    EXPECT_EQ(names(raw(AMDX_EVENT_ERROR)), (V{"device", "seq", "timestamp_ns", "kind", "block",
                                               "type", "instance", "address", "count"}));
    // The driver's RAS event id (uapi minor 9), where the record has one.
    auto id = raw(AMDX_EVENT_ERROR);
    id.driver_event = 12;
    EXPECT_EQ(names(id), (V{"device", "seq", "timestamp_ns", "kind", "block", "type", "instance",
                            "address", "count", "driver_event"}));
    EXPECT_EQ(std::get<std::uint64_t>(amdx::event_fields(amdx::decode(id)).back().value), 12U);
    // And its type (uapi minor 10), by name.
    id.driver_event_type = AMDX_DRIVER_EVENT_FATAL;
    EXPECT_EQ(names(id), (V{"device", "seq", "timestamp_ns", "kind", "block", "type", "instance",
                            "address", "count", "driver_event", "driver_event_type"}));
    // Other kinds carry no pasid (the kernel writes 0 there).
    auto pc = raw(AMDX_EVENT_POISON_CONSUMED);
    pc.pasid = 7;
    EXPECT_EQ(names(pc), (V{"device", "seq", "timestamp_ns", "kind", "address", "pid"}));
}

TEST(EventFields, AreTheCliJsonOfEveryKind) {
    for (std::uint16_t kind = 0; kind <= AMDX_EVENT_KIND_COUNT; ++kind) {
        auto e = raw(kind);
        e.partition = 1;
        e.data[0] = 3;
        const auto j = amdx::cli::event_to_json(e);
        const auto fields = amdx::event_fields(amdx::decode(e));
        ASSERT_EQ(j.size(), fields.size()) << kind;
        std::size_t i = 0;
        for (const auto& [key, value] : j.items()) {
            EXPECT_EQ(key, fields[i].name) << kind;
            ++i;
        }
    }
}

} // namespace
