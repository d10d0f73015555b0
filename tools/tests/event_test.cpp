// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Typed events: every kind of struct amdx_event decoded into its struct as
// the uapi's AMDX_EVENT_* comment defines the fields, and the stream's
// typed read against the fake kernel.
#include <cerrno>
#include <fcntl.h>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <amdx/device.hpp>

#include "fake_kernel.hpp"

namespace {

namespace ev = amdx::events;
using amdx::EventKind;
using amdx::TypedEvent;

amdx::Event raw(std::uint16_t kind) {
    amdx::Event e;
    e.seq = 42;
    e.timestamp_ns = 1000;
    e.kind = static_cast<EventKind>(kind);
    e.size = sizeof(amdx_event);
    e.device = 3;
    return e;
}

std::error_code err(int e) {
    return {e, std::system_category()};
}

struct KindCase {
    const char* name;
    amdx::Event in;
    TypedEvent::Data want;
};

std::vector<KindCase> kind_cases() {
    std::vector<KindCase> c;
    auto add = [&c](const char* name, amdx::Event in, TypedEvent::Data want) {
        c.push_back({name, in, std::move(want)});
    };
    {
        auto e = raw(AMDX_EVENT_LOST);
        e.data[0] = 17;
        e.data[1] = 58;
        add("lost", e, ev::Lost{.first_seq = 42, .missed = 17, .last_seq = 58});
    }
    {
        auto e = raw(AMDX_EVENT_ERROR);
        e.block = AMDX_RAS_BLOCK_GFX;
        e.type = AMDX_RAS_TYPE_UE;
        e.instance = 5;
        e.partition = 2;
        e.data[0] = 9;
        add("error", e,
            ev::Error{.block = amdx::RasBlock::gfx,
                      .type = amdx::RasType::ue,
                      .instance = 5,
                      .partition = 2,
                      .address = 0,
                      .count = 9});
    }
    {
        auto e = raw(AMDX_EVENT_ERROR); // device-wide: no partition
        e.block = AMDX_RAS_BLOCK_UMC;
        e.address = 0x1234000;
        e.data[0] = 1;
        add("error_umc", e,
            ev::Error{.block = amdx::RasBlock::umc,
                      .type = amdx::RasType::ce,
                      .instance = 0,
                      .partition = std::nullopt,
                      .address = 0x1234000,
                      .count = 1});
    }
    {
        auto e = raw(AMDX_EVENT_PAGE_PENDING);
        e.partition = 1;
        e.address = 0x8000;
        add("page_pending", e, ev::PagePending{.partition = 1, .address = 0x8000});
    }
    {
        auto e = raw(AMDX_EVENT_PAGE_RETIRED);
        e.address = 0x9000;
        e.data[0] = AMDX_BADPAGE_CAUSE_UE;
        e.data[1] = 4;
        add("page_retired", e,
            ev::PageRetired{.partition = std::nullopt,
                            .address = 0x9000,
                            .cause = amdx::BadPageCause::ue,
                            .moved_pages = 4});
    }
    {
        auto e = raw(AMDX_EVENT_POISON_CONSUMED);
        e.partition = 0;
        e.address = 0xa000;
        e.data[0] = 4242;
        add("poison_consumed", e,
            ev::PoisonConsumed{.partition = 0, .address = 0xa000, .pid = 4242});
    }
    {
        auto e = raw(AMDX_EVENT_ACTION_START);
        e.partition = 3;
        e.data[0] = AMDX_ACTION_PARTITION_RESET;
        add("action_start", e,
            ev::ActionStart{.partition = 3, .action = amdx::RasAction::partition_reset});
    }
    {
        auto e = raw(AMDX_EVENT_ACTION_END);
        e.data[0] = AMDX_ACTION_DEVICE_RESET;
        e.data[1] = static_cast<std::uint64_t>(-EIO);
        e.address = 777;
        add("action_end", e,
            ev::ActionEnd{.partition = std::nullopt,
                          .action = amdx::RasAction::device_reset,
                          .result = err(EIO),
                          .duration_ns = 777});
    }
    {
        auto e = raw(AMDX_EVENT_PARTITION_QUARANTINED);
        e.partition = 1;
        add("partition_quarantined", e, ev::PartitionQuarantined{.partition = 1});
    }
    {
        auto e = raw(AMDX_EVENT_PARTITION_RESTORED);
        e.partition = 2;
        add("partition_restored", e, ev::PartitionRestored{.partition = 2});
    }
    {
        auto e = raw(AMDX_EVENT_PARTITION_OFFLINE);
        e.partition = 3;
        add("partition_offline", e, ev::PartitionOffline{.partition = 3});
    }
    {
        auto e = raw(AMDX_EVENT_VF_RESET); // FLR: address is the VRAM cleared
        e.instance = 2;
        e.type = AMDX_VF_RESET_CAUSE_FLR;
        e.data[0] = AMDX_VF_RESET_ACK_TIMEOUT;
        e.data[1] = AMDX_PART_STATE_ONLINE;
        e.address = 256ULL << 20;
        add("vf_reset_flr", e,
            ev::VfReset{.vf = 2,
                        .cause = amdx::VfResetCause::flr,
                        .partition = std::nullopt,
                        .result = amdx::VfResetOutcome::ack_timeout,
                        .state = amdx::PartitionState::online,
                        .vram_cleared = 256ULL << 20});
    }
    {
        auto e = raw(AMDX_EVENT_VF_RESET); // RAS: the partition, no VRAM figure
        e.instance = 1;
        e.type = AMDX_VF_RESET_CAUSE_RAS;
        e.partition = 1;
        e.data[0] = AMDX_VF_RESET_UNANNOUNCED;
        e.data[1] = AMDX_PART_STATE_QUARANTINED;
        e.address = 0xdead; // not a size for RAS resets
        add("vf_reset_ras", e,
            ev::VfReset{.vf = 1,
                        .cause = amdx::VfResetCause::ras,
                        .partition = 1,
                        .result = amdx::VfResetOutcome::unannounced,
                        .state = amdx::PartitionState::quarantined,
                        .vram_cleared = 0});
    }
    {
        auto e = raw(AMDX_EVENT_DEVICE_RESET_BEGIN);
        e.data[0] = (1ULL << 0) | (1ULL << 5) | (1ULL << 63);
        add("device_reset_begin", e, ev::DeviceResetBegin{.devices = {0, 5, 63}});
    }
    {
        auto e = raw(AMDX_EVENT_DEVICE_RESET_END);
        add("device_reset_end", e, ev::DeviceResetEnd{.result = {}});
    }
    {
        auto e = raw(AMDX_EVENT_RMA);
        e.data[0] = 128;
        add("rma", e, ev::Rma{.retired_pages = 128});
    }
    {
        auto e = raw(AMDX_EVENT_PARTITION_SWITCH);
        e.type = AMDX_PART_STEP_DRAIN;
        e.data[0] = static_cast<std::uint64_t>(-ETIMEDOUT);
        e.address = 5000;
        add("partition_switch", e,
            ev::PartitionSwitch{
                .step = amdx::PartitionStep::drain, .result = err(ETIMEDOUT), .duration_ns = 5000});
    }
    {
        auto e = raw(AMDX_EVENT_MIGRATE);
        e.type = 1;
        e.data[0] = 99;
        e.data[1] = 512;
        add("migrate", e,
            ev::Migrate{.direction = amdx::MigrateDirection::to_system, .pid = 99, .pages = 512});
    }
    {
        auto e = raw(AMDX_EVENT_DRAINED);
        e.partition = 2;
        e.data[0] = 100;
        e.data[1] = 64;
        add("drained", e, ev::Drained{.partition = 2, .pid = 100, .pages = 64});
    }
    {
        auto e = raw(AMDX_EVENT_RECOVERY);
        e.type = AMDX_RECOVERY_EV_ESCALATED;
        e.block = AMDX_FAULT_ENGINE_UE;
        e.partition = 2;
        e.instance = AMDX_VF_NONE;
        e.address = 40; // the fault's record
        e.data[0] = AMDX_RECOVERY_SUM_VALID | AMDX_RECOVER_DEVICE | 2ULL << 8 | 8ULL << 16 |
                    1ULL << 28 | 0xffffULL << 40;
        e.data[1] = static_cast<std::uint64_t>(-EIO);
        add("recovery", e,
            ev::Recovery{.step = amdx::RecoveryStep::escalated,
                         .fault = amdx::RecoveryFault::engine_ue,
                         .partition = 2,
                         .vf = std::nullopt,
                         .action = amdx::RecoveryAction::device,
                         .num_devices = 2,
                         .num_partitions = 8,
                         .num_vfs = 1,
                         .num_processes = 0xffff,
                         .stopped = 0,
                         .estimate_ms = std::nullopt,
                         .cause_seq = 40,
                         .result = err(EIO)});
    }
    {
        auto e = raw(AMDX_EVENT_RECOVERY); // RMA: never
        e.type = AMDX_RECOVERY_EV_PENDING;
        e.block = AMDX_FAULT_BOARD;
        e.instance = AMDX_VF_NONE;
        e.data[0] = AMDX_RECOVERY_SUM_VALID | AMDX_RECOVER_RMA | 1ULL << 8;
        e.data[1] = 0xffffffffU;
        add("recovery_never", e,
            ev::Recovery{.step = amdx::RecoveryStep::pending,
                         .fault = amdx::RecoveryFault::board,
                         .partition = std::nullopt,
                         .vf = std::nullopt,
                         .action = amdx::RecoveryAction::rma,
                         .num_devices = 1,
                         .num_partitions = 0,
                         .num_vfs = 0,
                         .num_processes = 0,
                         .stopped = 0,
                         .estimate_ms = std::nullopt,
                         .cause_seq = 42, // its own
                         .result = {}});
    }
    {
        auto e = raw(AMDX_EVENT_LINK);
        e.type = AMDX_LINK_STATE_REPLAY;
        e.block = AMDX_LINK_STATE_DEGRADED;
        e.instance = 5;
        e.address = 7;
        e.data[0] = AMDX_LINK_CONTAIN_MOVE;
        e.data[1] = 2;
        add("link", e,
            ev::Link{.link = 5,
                     .peer = 7,
                     .state = amdx::LinkState::replay,
                     .previous_state = amdx::LinkState::degraded,
                     .contain = amdx::LinkContain::move,
                     .hops = 2});
    }
    {
        auto e = raw(AMDX_EVENT_KIND_COUNT + 3); // from a newer kernel
        e.data[0] = 1;
        add("unknown", e, ev::Unknown{.raw = e});
    }
    return c;
}

class EventKinds : public ::testing::TestWithParam<KindCase> {};

TEST_P(EventKinds, DecodesToItsStruct) {
    const auto& c = GetParam();
    const TypedEvent t = amdx::decode(c.in);
    EXPECT_EQ(t.seq, 42U);
    EXPECT_EQ(t.timestamp_ns, 1000U);
    EXPECT_EQ(t.device, 3U);
    EXPECT_EQ(t.kind, c.in.kind);
    EXPECT_EQ(t.data.index(), c.want.index());
    EXPECT_TRUE(t.data == c.want) << c.name;
}

INSTANTIATE_TEST_SUITE_P(AllKinds, EventKinds, ::testing::ValuesIn(kind_cases()),
                         [](const auto& info) { return std::string(info.param.name); });

// Every kind this library names has a case above (plus the unknown one).
TEST(EventKindsTable, CoversEveryKind) {
    std::vector<bool> seen(AMDX_EVENT_KIND_COUNT, false);
    for (const auto& c : kind_cases())
        if (static_cast<unsigned>(c.in.kind) < AMDX_EVENT_KIND_COUNT)
            seen[static_cast<unsigned>(c.in.kind)] = true;
    for (unsigned k = 0; k < AMDX_EVENT_KIND_COUNT; ++k)
        EXPECT_TRUE(seen[k]) << "no case for kind " << k;
}

TEST(EventNames, CausesAndDirections) {
    EXPECT_EQ(amdx::to_string(amdx::VfResetCause::flr), "flr");
    EXPECT_EQ(amdx::to_string(amdx::VfResetCause::ras), "ras");
    EXPECT_EQ(amdx::to_string(static_cast<amdx::VfResetCause>(9)), "unknown");
    EXPECT_EQ(amdx::to_string(amdx::MigrateDirection::to_vram), "to_vram");
    EXPECT_EQ(amdx::to_string(amdx::MigrateDirection::to_system), "to_system");
}

/// @ev's rendering (event_fields()) as "name=value" lines.
std::vector<std::string> rendered(const TypedEvent& ev) {
    std::vector<std::string> out;
    for (const auto& f : amdx::event_fields(ev)) {
        std::string v;
        if (const auto* n = std::get_if<std::uint64_t>(&f.value))
            v = std::to_string(*n);
        else if (const auto* s = std::get_if<std::string>(&f.value))
            v = *s;
        out.push_back(std::string(f.name) + "=" + v);
    }
    return out;
}

class TypedStream : public ::testing::Test {
  protected:
    void SetUp() override {
        kernel.add_device(0);
        auto c = amdx::Control::open("/dev/null");
        ASSERT_TRUE(c) << c.context().message();
        control.emplace(std::move(*c));
        auto d = amdx::Device::open(*control, 0);
        ASSERT_TRUE(d);
        device.emplace(std::move(*d));
    }

    amdx::test::FakeKernel kernel;
    std::optional<amdx::Control> control;
    std::optional<amdx::Device> device;
};

TEST_F(TypedStream, ReadsDecodedRecords) {
    auto stream = device->subscribe();
    ASSERT_TRUE(stream);
    EXPECT_EQ(stream->device(), 0U);
    amdx_event retired{};
    retired.kind = AMDX_EVENT_PAGE_RETIRED;
    retired.partition = AMDX_RAS_PARTITION_ALL;
    retired.address = 0x4000;
    retired.data[0] = AMDX_BADPAGE_CAUSE_CE;
    kernel.emit(0, retired);
    amdx_event rma{};
    rma.kind = AMDX_EVENT_RMA;
    rma.partition = AMDX_RAS_PARTITION_ALL;
    rma.data[0] = 7;
    kernel.emit(0, rma);

    const auto got = stream->next_typed(1000);
    ASSERT_TRUE(got) << got.context().message();
    ASSERT_EQ(got->size(), 2U);
    const auto* page = (*got)[0].get<ev::PageRetired>();
    ASSERT_NE(page, nullptr);
    EXPECT_EQ(page->address, 0x4000U);
    EXPECT_EQ(page->cause, amdx::BadPageCause::ce);
    EXPECT_FALSE(page->partition);
    EXPECT_EQ((*got)[0].seq, 1U);
    ASSERT_NE((*got)[1].get<ev::Rma>(), nullptr);
    EXPECT_EQ((*got)[1].get<ev::Rma>()->retired_pages, 7U);
    EXPECT_EQ((*got)[1].get<ev::Lost>(), nullptr);

    kernel.hang_up(0);
    std::vector<TypedEvent> more;
    const auto gone = stream->read(more);
    ASSERT_FALSE(gone);
    EXPECT_EQ(gone.error(), std::errc::no_such_device);
    EXPECT_EQ(gone.context().device, 0U);
    EXPECT_EQ(gone.context().call, "read");
}

// A fabric link's change of state (AMDX_EVENT_LINK, uapi minor 2) as the
// fake kernel delivers it: decoded into events::Link and rendered by name,
// never as an unknown kind's raw fields.
TEST_F(TypedStream, DecodesALinkRecord) {
    const auto kind = amdx::parse_event_kind("link");
    ASSERT_TRUE(kind);
    auto stream = device->subscribe(amdx::event_mask(*kind));
    ASSERT_TRUE(stream);
    amdx_event link{};
    link.kind = AMDX_EVENT_LINK;
    link.partition = AMDX_RAS_PARTITION_ALL;
    link.instance = 5;                     // the link
    link.type = AMDX_LINK_STATE_DOWN;      // now
    link.block = AMDX_LINK_STATE_REPLAY;   // before
    link.address = 1;                      // the device at its other end
    link.data[0] = AMDX_LINK_CONTAIN_PARK; // the containment it asks for
    link.data[1] = 0;                      // no route left
    kernel.emit(0, link);

    const auto got = stream->next_typed(1000);
    ASSERT_TRUE(got) << got.context().message();
    ASSERT_EQ(got->size(), 1U);
    const std::string stamp = "timestamp_ns=" + std::to_string((*got)[0].timestamp_ns);
    EXPECT_EQ(rendered((*got)[0]),
              (std::vector<std::string>{"device=0", "seq=1", stamp, "kind=link", "link=5", "peer=1",
                                        "state=down", "previous_state=replay", "contain=park",
                                        "hops=0"}));
}

// A target's pending recovery action changing (AMDX_EVENT_RECOVERY, uapi
// minor 1) as the kernel's amdx_recovery_event() writes it: decoded into
// events::Recovery and rendered by name, never as an unknown kind's raw
// fields.  data[1] means three things by step: PENDING's estimate,
// STOPPED's count of processes stopped, the others' 0 or -errno.
TEST_F(TypedStream, DecodesRecoveryRecords) {
    const auto kind = amdx::parse_event_kind("recovery");
    ASSERT_TRUE(kind);
    auto stream = device->subscribe(amdx::event_mask(*kind));
    ASSERT_TRUE(stream);
    amdx_event pending{};
    pending.kind = AMDX_EVENT_RECOVERY;
    pending.type = AMDX_RECOVERY_EV_PENDING;
    pending.block = AMDX_FAULT_ENGINE_UE;
    pending.partition = 1;
    pending.instance = AMDX_VF_NONE;
    pending.address = 0; // the record is the fault's own
    pending.data[0] = AMDX_RECOVERY_SUM_VALID | AMDX_RECOVER_PARTITION | 1ULL << 8 | 1ULL << 16 |
                      2ULL << 40; // 1 device, 1 partition, 2 processes
    pending.data[1] = 1500;       // ms
    kernel.emit(0, pending);
    amdx_event stopped{};
    stopped.kind = AMDX_EVENT_RECOVERY;
    stopped.type = AMDX_RECOVERY_EV_STOPPED;
    stopped.block = AMDX_FAULT_VF_HANG;
    stopped.partition = AMDX_RAS_PARTITION_ALL;
    stopped.instance = 2; // VF 2
    stopped.address = 1;
    stopped.data[0] = AMDX_RECOVERY_SUM_VALID;
    stopped.data[1] = 3; // processes stopped
    kernel.emit(0, stopped);
    amdx_event self_test{};
    self_test.kind = AMDX_EVENT_RECOVERY;
    self_test.type = AMDX_RECOVERY_EV_SELFTEST;
    self_test.block = AMDX_FAULT_ENGINE_UE;
    self_test.partition = 1;
    self_test.instance = AMDX_VF_NONE;
    self_test.address = 1;
    self_test.data[0] = AMDX_RECOVERY_SUM_VALID | AMDX_RECOVER_PARTITION;
    self_test.data[1] = static_cast<std::uint64_t>(-EIO);
    kernel.emit(0, self_test);

    const auto got = stream->next_typed(1000);
    ASSERT_TRUE(got) << got.context().message();
    ASSERT_EQ(got->size(), 3U);
    auto stamp = [&got](std::size_t i) {
        return "timestamp_ns=" + std::to_string((*got)[i].timestamp_ns);
    };
    EXPECT_EQ(rendered((*got)[0]),
              (std::vector<std::string>{
                  "device=0", "seq=1", stamp(0), "kind=recovery", "step=pending", "fault=engine_ue",
                  "partition=1", "action=partition", "cause_seq=1", "num_devices=1",
                  "num_partitions=1", "num_vfs=0", "num_processes=2", "estimate_ms=1500"}));
    EXPECT_EQ(rendered((*got)[1]),
              (std::vector<std::string>{"device=0", "seq=2", stamp(1), "kind=recovery",
                                        "step=stopped", "fault=vf_hang", "vf=2", "action=none",
                                        "cause_seq=1", "num_devices=0", "num_partitions=0",
                                        "num_vfs=0", "num_processes=0", "stopped=3"}));
    EXPECT_EQ(
        rendered((*got)[2]),
        (std::vector<std::string>{"device=0", "seq=3", stamp(2), "kind=recovery", "step=self_test",
                                  "fault=engine_ue", "partition=1", "action=partition",
                                  "cause_seq=1", "num_devices=0", "num_partitions=0", "num_vfs=0",
                                  "num_processes=0", "result=EIO"}));
}

} // namespace
