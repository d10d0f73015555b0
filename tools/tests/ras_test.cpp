// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// RAS calls, the bad-page codec, CRC32, the event stream and the RAS and
// event names, against the fake kernel where a kernel is needed.
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include <amdx/device.hpp>

#include "fake_kernel.hpp"

namespace {

using amdx::BadPage;
using amdx::BadPageCause;
using amdx::Control;
using amdx::Device;
using amdx::EventKind;
using amdx::RasBlock;
using amdx::RasType;
using amdx::test::FakeKernel;

std::span<const std::byte> bytes_of(std::string_view s) {
    return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

// ---- CRC32 and the bad-page codec

TEST(Crc32, KnownVectors) {
    EXPECT_EQ(amdx::crc32({}), 0U);
    EXPECT_EQ(amdx::crc32(bytes_of("123456789")), 0xcbf43926U);
    EXPECT_EQ(amdx::crc32(bytes_of("The quick brown fox jumps over the lazy dog")), 0x414fa339U);
    // Chained calls equal one call.
    const auto first = amdx::crc32(bytes_of("12345"));
    EXPECT_EQ(amdx::crc32(bytes_of("6789"), first), 0xcbf43926U);
}

std::vector<BadPage> sample_pages() {
    return {BadPage{.address = 0x1000,
                    .time = 1700000000,
                    .partition = 0,
                    .cause = BadPageCause::ue,
                    .flags = 0},
            BadPage{.address = 0x7fff000,
                    .time = 1700000100,
                    .partition = 3,
                    .cause = BadPageCause::ce,
                    .flags = 0}};
}

TEST(BadPageCodec, LayoutIsTheUapis) {
    const auto table = amdx::encode_badpages(sample_pages());
    ASSERT_EQ(table.size(), sizeof(amdx_badpage_header) + 2 * sizeof(amdx_badpage_record));
    amdx_badpage_header h{};
    std::memcpy(&h, table.data(), sizeof(h));
    EXPECT_EQ(h.magic, AMDX_BADPAGE_MAGIC);
    EXPECT_EQ(std::memcmp(table.data(), "ABPX", 4), 0);
    EXPECT_EQ(h.version, static_cast<std::uint32_t>(AMDX_BADPAGE_VERSION));
    EXPECT_EQ(h.count, 2U);
    EXPECT_EQ(h.record_size, sizeof(amdx_badpage_record));
    amdx_badpage_record r{};
    std::memcpy(&r, table.data() + sizeof(h) + sizeof(r), sizeof(r));
    EXPECT_EQ(r.address, 0x7fff000U);
    EXPECT_EQ(r.partition, 3U);
    EXPECT_EQ(r.cause, AMDX_BADPAGE_CAUSE_CE);
    // The checksum: CRC32 over the header with the field zero, then records.
    auto copy = table;
    std::memset(copy.data() + offsetof(amdx_badpage_header, checksum), 0, 4);
    EXPECT_EQ(h.checksum, amdx::crc32(copy));
}

TEST(BadPageCodec, RoundTrip) {
    for (const auto& pages : {std::vector<BadPage>{}, sample_pages()}) {
        const auto table = amdx::encode_badpages(pages);
        const auto back = amdx::decode_badpages(table);
        ASSERT_TRUE(back) << back.error().message();
        EXPECT_EQ(*back, pages);
    }
}

struct Corruption {
    const char* name;
    void (*apply)(std::vector<std::byte>&);
    const char* why; // the start of the message
};

void put32(std::vector<std::byte>& t, std::size_t at, std::uint32_t v) {
    std::memcpy(t.data() + at, &v, sizeof(v));
}

TEST(BadPageCodec, EveryCorruptionIsEbadmsgWithAReason) {
    const Corruption cases[] = {
        {"empty", [](auto& t) { t.clear(); }, "truncated: 0 bytes"},
        {"short header", [](auto& t) { t.resize(19); }, "truncated: 19 bytes"},
        {"magic", [](auto& t) { t[0] = std::byte{'X'}; }, "bad magic"},
        {"version", [](auto& t) { put32(t, 4, 2); }, "version 2"},
        {"record size", [](auto& t) { put32(t, 12, 32); }, "record size 32"},
        {"count too large", [](auto& t) { put32(t, 8, AMDX_BADPAGE_MAX_RECORDS + 1); },
         "count 10922 exceeds"},
        {"truncated record", [](auto& t) { t.pop_back(); }, "truncated: 67 bytes"},
        {"count beyond data", [](auto& t) { put32(t, 8, 3); }, "truncated: 68 bytes"},
        {"trailing data", [](auto& t) { t.push_back(std::byte{0}); }, "trailing data: 69"},
        {"flipped record bit", [](auto& t) { t[30] ^= std::byte{0x10}; }, "checksum"},
        {"checksum", [](auto& t) { t[16] ^= std::byte{1}; }, "checksum"},
    };
    for (const auto& c : cases) {
        auto table = amdx::encode_badpages(sample_pages());
        c.apply(table);
        std::string why;
        const auto r = amdx::decode_badpages(table, &why);
        ASSERT_FALSE(r) << c.name;
        EXPECT_EQ(r.error().value(), EBADMSG) << c.name;
        EXPECT_EQ(why.rfind(c.why, 0), 0U) << c.name << ": " << why;
    }
}

// ---- the device calls

class RasTest : public ::testing::Test {
  protected:
    void SetUp() override {
        kernel.add_device(0);
        kernel.devices[0].compute_mode = AMDX_COMPUTE_DPX;
        auto dev = Device::open(control, 0);
        ASSERT_TRUE(dev) << dev.error().message();
        device.emplace(std::move(*dev));
    }

    /// On a module of uapi @minor: subscribes to ERROR records, expects
    /// the library to settle on the record size @flags asks for, injects a
    /// UE of @block and reads its record into @out.
    void error_record_of_minor(std::uint32_t minor, std::uint32_t flags, RasBlock block,
                               amdx::Event& out) {
        kernel.caps.version_minor = minor;
        auto stream = device->subscribe(amdx::event_mask(EventKind::error));
        ASSERT_TRUE(stream) << stream.error().message();
        ASSERT_EQ(kernel.subscribers.size(), 1U);
        EXPECT_EQ(kernel.subscribers[0].flags, AMDX_EVENT_F_NONBLOCK | flags);
        amdx::RasInjection inj;
        inj.block = block;
        inj.type = amdx::RasType::ue;
        ASSERT_TRUE(device->ras_inject(inj));
        std::vector<amdx::Event> raw;
        ASSERT_EQ(stream->read(raw).value_or(0), 1U);
        out = raw[0];
    }

    FakeKernel kernel;
    Control control = Control::adopt(amdx::UniqueFd(::open("/dev/null", O_RDWR | O_CLOEXEC)));
    std::optional<Device> device;
};

TEST_F(RasTest, CountersKeepUnsupportedApartFromZero) {
    const auto st = device->ras_status();
    ASSERT_TRUE(st) << st.error().message();
    EXPECT_FALSE(st->rma);
    ASSERT_EQ(st->counters.size(), 7U * 3U); // total + 2 partitions per block
    const auto& sdma = st->counters[3];
    EXPECT_EQ(sdma.block, RasBlock::sdma);
    EXPECT_EQ(sdma.partition, amdx::kRasPartitionAll);
    EXPECT_FALSE(sdma.supports(RasType::ce));
    EXPECT_FALSE(sdma.count[AMDX_RAS_TYPE_CE].has_value());
    EXPECT_EQ(sdma.count[AMDX_RAS_TYPE_UE], 0U);
    EXPECT_EQ(st->counters[4].partition, 0U);
}

TEST_F(RasTest, InjectCountsPerPartitionAndRetiresUePages) {
    amdx::RasInjection inj;
    inj.block = RasBlock::gfx;
    inj.type = RasType::ue;
    inj.instance = 5; // XCC 5: partition 1 in DPX
    inj.count = 3;
    const auto seq = device->ras_inject(inj);
    ASSERT_TRUE(seq) << seq.error().message();
    EXPECT_EQ(*seq, 1U);
    ASSERT_EQ(kernel.ras_injects.size(), 1U);
    EXPECT_EQ(kernel.ras_injects[0].block, static_cast<std::uint32_t>(AMDX_RAS_BLOCK_GFX));
    EXPECT_EQ(kernel.ras_injects[0].count, 3U);
    const auto st = device->ras_status();
    ASSERT_TRUE(st);
    EXPECT_EQ(st->counters[6].count[AMDX_RAS_TYPE_UE], 3U); // gfx total
    EXPECT_EQ(st->counters[7].count[AMDX_RAS_TYPE_UE], 0U); // gfx partition 0
    EXPECT_EQ(st->counters[8].count[AMDX_RAS_TYPE_UE], 3U); // gfx partition 1

    inj.block = RasBlock::umc;
    inj.instance = 0;
    inj.count = 1;
    inj.address = 0x5000;
    ASSERT_TRUE(device->ras_inject(inj));
    const auto pages = device->badpages();
    ASSERT_TRUE(pages) << pages.error().message();
    ASSERT_EQ(pages->size(), 1U);
    EXPECT_EQ((*pages)[0].address, 0x5000U);
    EXPECT_EQ((*pages)[0].cause, BadPageCause::ue);
    EXPECT_EQ(device->ras_status()->retired_pages, 1U);
    const auto again = device->ras_inject(inj); // refused on a retired page
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error(), std::errc::invalid_argument);
    EXPECT_EQ(again.context().reason, AMDX_RAS_INJECT_REASON_RETIRED);
    EXPECT_EQ(again.context().message(),
              "AMDX_IOC_RAS_INJECT on device 0: rejected as invalid: the address's page is "
              "retired (reason retired) (EINVAL: Invalid argument)");
}

// Every AMDX_RAS_INJECT_REASON_* has a name and a sentence.
TEST(RasNames, InjectReasonsHaveNamesAndSentences) {
    for (std::uint32_t r = 0; r <= AMDX_RAS_INJECT_REASON_NO_INJECT; ++r) {
        const auto reason = static_cast<amdx::RasInjectReason>(r);
        EXPECT_NE(amdx::to_string(reason), "unknown") << r;
        if (r != 0) {
            EXPECT_NE(amdx::reason_text(reason).find(' '), std::string_view::npos) << r;
        }
    }
    EXPECT_EQ(amdx::to_string(amdx::RasInjectReason::no_type), "no_type");
    EXPECT_EQ(amdx::to_string(static_cast<amdx::RasInjectReason>(99)), "unknown");
    EXPECT_EQ(amdx::reason_text(static_cast<amdx::RasInjectReason>(99)),
              "refused for a reason this amdx does not know");
}

TEST_F(RasTest, PolicyShowAndSet) {
    const auto p = device->ras_policy();
    ASSERT_TRUE(p);
    EXPECT_EQ(p->ce_page_threshold, 50U);
    EXPECT_EQ(p->bad_page_threshold, AMDX_RAS_BAD_PAGE_WARN);
    amdx::RasPolicyUpdate u;
    EXPECT_TRUE(u.empty());
    u.ce_page_threshold = 10;
    u.flags = AMDX_RAS_POL_F_RMA_REFUSE;
    ASSERT_TRUE(device->ras_set_policy(u));
    ASSERT_EQ(kernel.ras_policies.size(), 1U);
    EXPECT_EQ(kernel.ras_policies[0].valid,
              static_cast<std::uint32_t>(AMDX_RAS_POL_CE_PAGE_THRESHOLD | AMDX_RAS_POL_FLAGS));
    const auto after = device->ras_policy();
    EXPECT_EQ(after->ce_page_threshold, 10U);
    EXPECT_EQ(after->ce_window_s, 86400U);
    EXPECT_EQ(after->flags, static_cast<std::uint32_t>(AMDX_RAS_POL_F_RMA_REFUSE));
    u = {};
    u.ce_page_threshold = 0;
    EXPECT_EQ(device->ras_set_policy(u).error(), std::errc::invalid_argument);
    EXPECT_EQ(device->ras_policy()->ce_page_threshold, 10U); // unchanged
}

TEST_F(RasTest, BadPagesImportAndMalformedExport) {
    const auto table = amdx::encode_badpages(sample_pages());
    const auto n = device->badpages_import(table);
    ASSERT_TRUE(n) << n.error().message();
    EXPECT_EQ(*n, 2U);
    EXPECT_EQ(*device->badpages_import(table), 0U); // already retired
    ASSERT_EQ(kernel.badpage_imports.size(), 2U);
    EXPECT_EQ(kernel.badpage_imports[0], table);
    const auto pages = device->badpages();
    ASSERT_TRUE(pages);
    ASSERT_EQ(pages->size(), 2U);
    EXPECT_EQ((*pages)[1].address, 0x7fff000U);
    EXPECT_EQ((*pages)[1].cause, BadPageCause::import);

    auto bad = table;
    bad[20] ^= std::byte{1};
    EXPECT_EQ(device->badpages_import(bad).error().value(), EBADMSG);
    kernel.badpage_bytes = bad; // the kernel's own table is corrupt
    EXPECT_EQ(device->badpages().error().value(), EBADMSG);
    EXPECT_EQ(*device->badpage_table(), bad);
}

// ---- events

TEST_F(RasTest, SubscribeSendsMaskRingAndNonblock) {
    auto stream = device->subscribe(amdx::event_mask(EventKind::error), 64);
    ASSERT_TRUE(stream) << stream.error().message();
    ASSERT_EQ(kernel.subscribers.size(), 1U);
    EXPECT_EQ(kernel.subscribers[0].mask, 1ULL << AMDX_EVENT_ERROR);
    EXPECT_EQ(kernel.subscribers[0].ring_size, 64U);
    const int fl = ::fcntl(stream->fd().get(), F_GETFL);
    EXPECT_NE(fl & O_NONBLOCK, 0);
    EXPECT_NE(::fcntl(stream->fd().get(), F_GETFD) & FD_CLOEXEC, 0);
    EXPECT_EQ(device->subscribe(0).error(), std::errc::invalid_argument);
    EXPECT_EQ(device->subscribe(amdx::kEventMaskAll, 100).error(), std::errc::invalid_argument);
}

TEST_F(RasTest, EventsArriveInBatchesWithLost) {
    auto stream = device->subscribe(amdx::event_mask(EventKind::error));
    ASSERT_TRUE(stream);
    auto none = stream->next(0);
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->empty());

    amdx::RasInjection inj;
    inj.block = RasBlock::umc;
    inj.address = 0x2000;
    ASSERT_TRUE(device->ras_inject(inj)); // error (seq 1); no page_retired: masked
    amdx_event lost{};
    lost.kind = AMDX_EVENT_LOST;
    lost.seq = 2;
    lost.data[0] = 17;
    kernel.emit(0, lost);
    amdx_event quarantined{};
    quarantined.kind = AMDX_EVENT_PARTITION_QUARANTINED; // filtered out
    kernel.emit(0, quarantined);

    ASSERT_TRUE(*stream->wait(-1));
    std::vector<amdx::Event> events;
    const auto n = stream->read(events, 1); // one at a time
    ASSERT_TRUE(n);
    ASSERT_EQ(*n, 1U);
    ASSERT_EQ(stream->read(events).value_or(0), 1U);
    ASSERT_EQ(events.size(), 2U);
    EXPECT_EQ(events[0].kind, EventKind::error);
    EXPECT_EQ(events[0].seq, 1U);
    EXPECT_EQ(events[0].address, 0x2000U);
    EXPECT_EQ(events[0].size, AMDX_EVENT_SIZE_VER3); // struct amdx_event_v3 records
    EXPECT_EQ(events[1].kind, EventKind::lost);
    EXPECT_EQ(events[1].data[0], 17U);
    EXPECT_EQ(stream->read(events).value_or(99), 0U); // nothing left, no blocking
    EXPECT_FALSE(*stream->wait(0));
}

TEST_F(RasTest, DeviceGoneIsEnodevAndShortRecordsAreEproto) {
    auto stream = device->subscribe();
    ASSERT_TRUE(stream);
    const int wfd = kernel.subscribers[0].write_fd;
    const char junk[10] = {};
    ASSERT_EQ(::write(wfd, junk, sizeof(junk)), 10);
    std::vector<amdx::Event> events;
    EXPECT_EQ(stream->read(events).error(), std::errc::protocol_error);

    amdx_event small{};
    small.size = 32; // below the first version
    ASSERT_EQ(::write(wfd, &small, sizeof(small)), static_cast<ssize_t>(sizeof(small)));
    EXPECT_EQ(stream->read(events).error(), std::errc::protocol_error);

    kernel.hang_up(0);
    ASSERT_TRUE(*stream->wait(1000)); // a hang-up is readable
    EXPECT_EQ(stream->read(events).error(), std::errc::no_such_device);
    EXPECT_TRUE(events.empty());
}

TEST_F(RasTest, LongerRecordsOfANewerKernelAreSteppedBySize) {
    auto stream = device->subscribe();
    ASSERT_TRUE(stream);
    constexpr std::size_t kNewer = AMDX_EVENT_SIZE_VER3 + 8; // a record after v3
    unsigned char rec[2][kNewer] = {};
    for (int i = 0; i < 2; ++i) {
        amdx_event ev{};
        ev.seq = 10 + i;
        ev.kind = AMDX_EVENT_RMA;
        ev.size = kNewer;
        ev.data[0] = 128;
        std::memcpy(rec[i], &ev, sizeof(ev));
        std::memset(rec[i] + sizeof(ev), 0xa5, kNewer - sizeof(ev));
    }
    ASSERT_EQ(::write(kernel.subscribers[0].write_fd, rec, sizeof(rec)),
              static_cast<ssize_t>(sizeof(rec)));
    std::vector<amdx::Event> events;
    ASSERT_EQ(stream->read(events).value_or(0), 2U);
    EXPECT_EQ(events[1].seq, 11U);
    EXPECT_EQ(events[1].data[0], 128U);
}

TEST_F(RasTest, ErrorRecordsNameTheConsumerPidAndPasid) {
    kernel.ras_consumer_pid = 4242;
    kernel.ras_consumer_pasid = 0x8001;
    auto stream = device->subscribe(amdx::event_mask(EventKind::error));
    ASSERT_TRUE(stream);
    ASSERT_EQ(kernel.subscribers.size(), 1U);
    EXPECT_EQ(kernel.subscribers[0].flags,
              static_cast<std::uint32_t>(AMDX_EVENT_F_NONBLOCK | AMDX_EVENT_F_SIZE_VER3));
    amdx::RasInjection inj;
    inj.block = RasBlock::gfx;
    inj.type = amdx::RasType::ue;
    ASSERT_TRUE(device->ras_inject(inj));
    inj.block = RasBlock::umc; // not consumed: no pid
    inj.type = amdx::RasType::ce;
    inj.address = 0x2000;
    ASSERT_TRUE(device->ras_inject(inj));
    std::vector<amdx::TypedEvent> events;
    ASSERT_EQ(stream->read(events).value_or(0), 2U);
    const auto* gfx = events[0].get<amdx::events::Error>();
    ASSERT_NE(gfx, nullptr);
    EXPECT_EQ(gfx->pid, 4242U);
    EXPECT_EQ(gfx->pasid, 0x8001U);
    const auto* umc = events[1].get<amdx::events::Error>();
    ASSERT_NE(umc, nullptr);
    EXPECT_EQ(umc->pid, 0U);
    EXPECT_EQ(umc->pasid, 0U);

    ASSERT_TRUE(device->ras_inject(inj));
    std::vector<amdx::Event> raw;
    ASSERT_EQ(stream->read(raw).value_or(0), 1U);
    EXPECT_EQ(raw[0].size, AMDX_EVENT_SIZE_VER3);
}

// uapi minor 9: the driver's id of the error's RAS event (amdgpu's "{id}")
// in struct amdx_event_v2 records; the fake hands ids out as amdx_sim
// does (a UE or DE the next, from 1; a CE none).
TEST_F(RasTest, ErrorRecordsCarryTheDriversEventId) {
    auto stream = device->subscribe(amdx::event_mask(EventKind::error));
    ASSERT_TRUE(stream);
    amdx::RasInjection inj;
    inj.block = RasBlock::gfx;
    inj.type = amdx::RasType::ue;
    ASSERT_TRUE(device->ras_inject(inj));
    inj.type = amdx::RasType::ce;
    ASSERT_TRUE(device->ras_inject(inj));
    inj.block = RasBlock::sdma;
    inj.type = amdx::RasType::ue;
    ASSERT_TRUE(device->ras_inject(inj));
    std::vector<amdx::TypedEvent> events;
    ASSERT_EQ(stream->read(events).value_or(0), 3U);
    std::vector<std::uint64_t> ids;
    for (const auto& e : events) {
        const auto* err = e.get<amdx::events::Error>();
        ASSERT_NE(err, nullptr);
        ids.push_back(err->driver_event);
    }
    EXPECT_EQ(ids, (std::vector<std::uint64_t>{1, 0, 2}));
}

// uapi minor 10: the type of the error's RAS event in struct amdx_event_v3
// records; the fake types them as amdx_sim does (a consumed UE a poison
// consumption, a DE a poison creation, another UE fatal, a CE none).
TEST_F(RasTest, ErrorRecordsCarryTheDriversEventType) {
    using amdx::DriverEventType;
    auto stream = device->subscribe(amdx::event_mask(EventKind::error));
    ASSERT_TRUE(stream);
    amdx::RasInjection inj;
    inj.block = RasBlock::gfx;
    inj.type = amdx::RasType::ue;
    ASSERT_TRUE(device->ras_inject(inj));
    inj.type = amdx::RasType::ce;
    ASSERT_TRUE(device->ras_inject(inj));
    inj.block = RasBlock::umc;
    inj.type = amdx::RasType::de;
    inj.address = 0x2000;
    ASSERT_TRUE(device->ras_inject(inj));
    inj.type = amdx::RasType::ue;
    inj.address = 0x5000;
    ASSERT_TRUE(device->ras_inject(inj));
    std::vector<amdx::TypedEvent> events;
    ASSERT_EQ(stream->read(events).value_or(0), 4U);
    std::vector<DriverEventType> types;
    for (const auto& e : events) {
        const auto* err = e.get<amdx::events::Error>();
        ASSERT_NE(err, nullptr);
        types.push_back(err->driver_event_type);
    }
    EXPECT_EQ(types, (std::vector<DriverEventType>{
                         DriverEventType::poison_consumption, DriverEventType::none,
                         DriverEventType::poison_creation, DriverEventType::fatal}));
    EXPECT_EQ(amdx::to_string(DriverEventType::poison_creation), "poison_creation");
    EXPECT_EQ(amdx::to_string(static_cast<DriverEventType>(4)), "unknown");
}

// A module of uapi minor 9 refuses AMDX_EVENT_F_SIZE_VER3 (EINVAL): the
// library asks again for v2 records, which keep the event id.
TEST_F(RasTest, AModuleOfMinor9KeepsV2RecordsWithoutEventType) {
    amdx::Event ev;
    ASSERT_NO_FATAL_FAILURE(error_record_of_minor(9, AMDX_EVENT_F_SIZE_VER2, RasBlock::sdma, ev));
    EXPECT_EQ(ev.size, AMDX_EVENT_SIZE_VER2);
    EXPECT_EQ(ev.driver_event, 1U);
    EXPECT_EQ(ev.driver_event_type, 0U);
}

// A module of uapi minors 3 to 8 refuses AMDX_EVENT_F_SIZE_VER2 (EINVAL):
// the library asks again for v1 records, which keep pid and pasid.
TEST_F(RasTest, AModuleBeforeMinor9KeepsV1RecordsWithoutEventId) {
    kernel.ras_consumer_pid = 4242;
    amdx::Event ev;
    ASSERT_NO_FATAL_FAILURE(error_record_of_minor(8, AMDX_EVENT_F_SIZE_VER1, RasBlock::gfx, ev));
    EXPECT_EQ(ev.size, AMDX_EVENT_SIZE_VER1);
    EXPECT_EQ(ev.pid, 4242U);
    EXPECT_EQ(ev.driver_event, 0U);
}

TEST_F(RasTest, AModuleBeforeMinor3Keeps64ByteRecordsWithoutPid) {
    kernel.ras_consumer_pid = 4242;
    amdx::Event ev; // minor 2 refuses AMDX_EVENT_F_SIZE_VER1 (EINVAL)
    ASSERT_NO_FATAL_FAILURE(error_record_of_minor(2, 0, RasBlock::sdma, ev));
    EXPECT_EQ(ev.size, AMDX_EVENT_SIZE_VER0);
    EXPECT_EQ(ev.pid, 0U);
    EXPECT_EQ(amdx::decode(ev).get<amdx::events::Error>()->pid, 0U);
    // A bad argument is still refused, not retried into success.
    EXPECT_EQ(device->subscribe(0).error(), std::errc::invalid_argument);
}

// ---- names

// ---- recovery plan and run (the fake's model of amdx_recovery.c)

amdx_recovery_process holder(std::uint32_t pid, std::uint32_t dev, std::uint32_t mem) {
    amdx_recovery_process p{};
    p.pid = pid;
    p.device = dev;
    p.mem_partition = mem;
    p.pages = 16;
    std::memcpy(p.comm, "worker", 7);
    return p;
}

TEST_F(RasTest, RecoveryPlanNamesTheHoldersTheRunStops) {
    // DPX/NPS1 has one memory partition: make it NPS2 so each compute
    // partition has its own, and a bystander on partition 0.
    kernel.devices[0].memory_mode = AMDX_MEMORY_NPS2;
    kernel.rec_holders = {holder(100, 0, 0), holder(200, 0, 1)};
    const amdx::RecoveryTarget part1{.partition = 1, .vf = std::nullopt};
    auto none = device->recovery_plan(part1);
    ASSERT_TRUE(none) << none.error().message();
    EXPECT_EQ(none->action, amdx::RecoveryAction::none);
    EXPECT_EQ(device->recovery_run(part1, std::nullopt, {}).error().value(), ENOENT);

    const auto seq =
        kernel.recovery_fault(0, 1, AMDX_VF_NONE, AMDX_RECOVER_PARTITION, AMDX_FAULT_ENGINE_UE);
    const auto plan = device->recovery_plan(part1);
    ASSERT_TRUE(plan) << plan.error().message();
    EXPECT_EQ(plan->action, amdx::RecoveryAction::partition);
    EXPECT_EQ(plan->state, amdx::RecoveryState::pending);
    EXPECT_EQ(plan->seq, seq);
    EXPECT_EQ(plan->fault, AMDX_FAULT_ENGINE_UE);
    EXPECT_TRUE(plan->devices.empty());
    ASSERT_EQ(plan->partitions.size(), 1U);
    EXPECT_EQ(plan->partitions[0], (std::pair<std::uint32_t, std::uint8_t>{0, 0x2}));
    EXPECT_EQ(plan->est_ms, 1000U);
    ASSERT_EQ(plan->processes.size(), 1U);
    EXPECT_EQ(plan->processes[0].pid, 200U);
    EXPECT_EQ(plan->processes[0].comm, "worker");

    EXPECT_EQ(device->recovery_run(part1, std::nullopt, {}).error().value(), EBUSY);
    EXPECT_TRUE(kernel.rec_stopped.empty());
    const auto ran = device->recovery_run(part1, std::nullopt, {.stop = true, .others = false});
    ASSERT_TRUE(ran) << ran.error().message();
    EXPECT_EQ(ran->outcome, amdx::RecoveryOutcome::cleared);
    EXPECT_EQ(ran->state, amdx::RecoveryState::none);
    EXPECT_EQ(kernel.rec_stopped, std::vector<std::uint32_t>{200});
    ASSERT_EQ(kernel.rec_holders.size(), 1U); // the bystander
    EXPECT_EQ(kernel.rec_holders[0].pid, 100U);
    EXPECT_EQ(device->recovery_plan(part1)->action, amdx::RecoveryAction::none);
}

TEST_F(RasTest, RecoveryRunRefusesOtherDevicesAndUnsupportedActions) {
    kernel.add_device(1);
    kernel.devices[0].hive_id = 7;
    kernel.devices[1].hive_id = 7;
    kernel.rec_caps[0] = 1U << AMDX_RECOVER_DEVICE;
    const amdx::RecoveryTarget dev{};
    const auto plan = device->recovery_plan(dev, amdx::RecoveryAction::device);
    ASSERT_TRUE(plan) << plan.error().message();
    EXPECT_EQ(plan->devices, (std::vector<std::uint32_t>{0, 1}));
    EXPECT_EQ(device->recovery_run(dev, amdx::RecoveryAction::device, {}).error().value(), EXDEV);
    EXPECT_EQ(device->recovery_run(dev, amdx::RecoveryAction::pipe, {}).error().value(),
              EOPNOTSUPP);
    // The plan refuses it as the run does (amdx_recovery_refuse()).
    EXPECT_EQ(
        device->recovery_plan({.partition = 0, .vf = std::nullopt}, amdx::RecoveryAction::pipe)
            .error()
            .value(),
        EOPNOTSUPP);
    EXPECT_EQ(device->recovery_run(dev, amdx::RecoveryAction::node, {}).error().value(),
              EOPNOTSUPP);
    // Partition and VF at once, a partition the device lacks.
    EXPECT_EQ(device->recovery_plan({.partition = 0, .vf = 0}).error().value(), EINVAL);
    EXPECT_EQ(device->recovery_plan({.partition = 5, .vf = std::nullopt}).error().value(), EINVAL);
    EXPECT_EQ(device->recovery_plan(dev, amdx::RecoveryAction::partition).error().value(), EINVAL);
    kernel.rec_self_test_errno = EIO;
    const auto ran =
        device->recovery_run(dev, amdx::RecoveryAction::device, {.stop = false, .others = true});
    ASSERT_TRUE(ran) << ran.error().message();
    EXPECT_EQ(ran->outcome, amdx::RecoveryOutcome::escalated);
    EXPECT_EQ(ran->error.value(), EIO);
    EXPECT_EQ(ran->state, amdx::RecoveryState::pending);
    EXPECT_GT(static_cast<std::uint32_t>(ran->action), AMDX_RECOVER_DEVICE);
}

TEST(RasNames, BlocksTypesKindsRoundTrip) {
    const char* blocks[] = {"umc", "sdma", "gfx", "mmhub", "pcie_bif", "hdp", "xgmi_wafl"};
    for (std::uint32_t b = 0; b < AMDX_RAS_BLOCK_COUNT; ++b) {
        EXPECT_EQ(amdx::to_string(static_cast<RasBlock>(b)), blocks[b]);
        EXPECT_EQ(amdx::parse_ras_block(blocks[b]), static_cast<RasBlock>(b));
    }
    EXPECT_EQ(amdx::parse_ras_block("XGMI_WAFL"), RasBlock::xgmi_wafl);
    EXPECT_FALSE(amdx::parse_ras_block("unknown"));
    EXPECT_EQ(amdx::to_string(static_cast<RasBlock>(AMDX_RAS_BLOCK_COUNT)), "unknown");
    const char* types[] = {"ce", "ue", "de"};
    for (std::uint32_t t = 0; t < AMDX_RAS_TYPE_COUNT; ++t)
        EXPECT_EQ(amdx::parse_ras_type(types[t]), static_cast<RasType>(t));
    EXPECT_FALSE(amdx::parse_ras_type("fatal"));
    for (std::uint32_t k = 0; k < AMDX_EVENT_KIND_COUNT; ++k) {
        const auto kind = static_cast<EventKind>(k);
        EXPECT_NE(amdx::to_string(kind), "unknown") << k;
        EXPECT_EQ(amdx::parse_event_kind(amdx::to_string(kind)), kind);
    }
    EXPECT_EQ(amdx::to_string(EventKind::page_retired), "page_retired");
    EXPECT_EQ(amdx::to_string(static_cast<EventKind>(AMDX_EVENT_KIND_COUNT)), "unknown");
    EXPECT_EQ(amdx::to_string(BadPageCause::import), "import");
    EXPECT_EQ(amdx::to_string(amdx::RasAction::partition_reset), "partition_reset");
    EXPECT_EQ(amdx::to_string(amdx::RasAction::link_move), "link_move");
    EXPECT_EQ(amdx::to_string(amdx::RasAction::link_revoke), "link_revoke");
    EXPECT_EQ(amdx::to_string(static_cast<amdx::RasAction>(AMDX_ACTION_LINK_REVOKE + 1)),
              "unknown");
    EXPECT_EQ(amdx::event_mask(EventKind::rma), 1ULL << AMDX_EVENT_RMA);
}

} // namespace
