// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The HMM calls of amdx::Device against the fake kernel: what reaches the
// kernel, what comes back, and errno propagation.
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <amdx/device.hpp>

#include "fake_kernel.hpp"

namespace {

using amdx::Control;
using amdx::Device;
using amdx::test::FakeKernel;

const std::uint64_t kPage = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));

/// Anonymous private pages, unmapped on destruction.
class Mapping {
  public:
    explicit Mapping(std::size_t pages)
        : size_(pages * kPage),
          p_(::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) {}
    ~Mapping() {
        if (p_ != MAP_FAILED)
            ::munmap(p_, size_);
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    Mapping(Mapping&&) = delete;
    Mapping& operator=(Mapping&&) = delete;

    [[nodiscard]] std::uint64_t addr() const { return reinterpret_cast<std::uintptr_t>(p_); }
    [[nodiscard]] std::uint64_t size() const { return size_; }
    [[nodiscard]] auto* bytes() const { return static_cast<unsigned char*>(p_); }

  private:
    std::size_t size_;
    void* p_;
};

/// HmmAttr for [@start, @start + @size) with no attributes (GCC 12 warns
/// about designated initializers that leave members to their defaults).
amdx::HmmAttr attr(std::uint64_t start, std::uint64_t size) {
    amdx::HmmAttr a;
    a.start = start;
    a.size = size;
    return a;
}

class HmmTest : public ::testing::Test {
  protected:
    void SetUp() override {
        kernel.caps.caps |= AMDX_CAP_HMM_MIGRATE;
        kernel.add_device(0);
        kernel.add_device(1);
        auto& d = kernel.devices[1];
        d.num_mem_partitions = 2;
        d.mem_partitions[1] = d.mem_partitions[0];
        auto dev = Device::open(control, 1);
        ASSERT_TRUE(dev) << dev.error().message();
        device.emplace(std::move(*dev));
        ASSERT_NE(mem.bytes(), MAP_FAILED);
    }

    /// A range over all of mem with preferred location @loc.
    void make_range(std::uint32_t loc) {
        auto a = attr(mem.addr(), mem.size());
        a.preferred_loc = loc;
        const auto ok = device->set_attr(a);
        ASSERT_TRUE(ok) << ok.error().message();
    }

    FakeKernel kernel;
    Control control = Control::adopt(amdx::UniqueFd(::open("/dev/null", O_RDWR | O_CLOEXEC)));
    std::optional<Device> device;
    Mapping mem{8};
};

TEST_F(HmmTest, CapsBit) {
    const auto caps = control.caps();
    ASSERT_TRUE(caps);
    EXPECT_TRUE(caps->has_hmm_migrate());
    kernel.caps.caps &= ~AMDX_CAP_HMM_MIGRATE;
    EXPECT_FALSE(control.caps()->has_hmm_migrate());
}

TEST_F(HmmTest, SetAttrSendsOnlyTheAttributesGiven) {
    make_range(1);
    ASSERT_EQ(kernel.hmm_attrs.size(), 1U);
    const auto& a = kernel.hmm_attrs[0];
    EXPECT_EQ(a.start, mem.addr());
    EXPECT_EQ(a.size, mem.size());
    EXPECT_EQ(a.valid, AMDX_HMM_ATTR_PREFERRED_LOC);
    EXPECT_EQ(a.preferred_loc, 1U);
    EXPECT_EQ(a.granularity, 0U);
    EXPECT_EQ(a.flags, 0U);
    EXPECT_EQ(a.access, 0U);
    EXPECT_EQ(a.reserved[0] | a.reserved[1], 0U);
}

TEST_F(HmmTest, SetAttrAllAttributes) {
    auto all = attr(mem.addr(), mem.size());
    all.preferred_loc = amdx::kHmmLocSystem;
    all.granularity = 4;
    all.flags = AMDX_HMM_F_PIN;
    all.access = 0b11;
    const auto ok = device->set_attr(all);
    ASSERT_TRUE(ok) << ok.error().message();
    const auto& a = kernel.hmm_attrs.back();
    EXPECT_EQ(a.valid, AMDX_HMM_ATTR_ALL);
    EXPECT_EQ(a.preferred_loc, AMDX_HMM_LOC_SYSTEM);
    EXPECT_EQ(a.granularity, 4U);
    EXPECT_EQ(a.flags, AMDX_HMM_F_PIN);
    EXPECT_EQ(a.access, 0b11U);
    EXPECT_EQ(kernel.calls.back().fd, device->fd().get());
}

TEST_F(HmmTest, SetAttrNoAttributesIsValidZero) {
    const auto ok = device->set_attr(attr(mem.addr(), mem.size()));
    ASSERT_TRUE(ok) << ok.error().message();
    EXPECT_EQ(kernel.hmm_attrs.back().valid, 0U);
}

TEST_F(HmmTest, SetAttrPropagatesKernelErrors) {
    auto coarse = attr(mem.addr(), mem.size());
    coarse.granularity = AMDX_HMM_GRANULARITY_MAX + 1;
    auto bad = device->set_attr(coarse);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error(), std::errc::invalid_argument);
    bad = device->set_attr(attr(mem.addr() + 1, kPage));
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error(), std::errc::invalid_argument);
    kernel.hmm_foreign = true;
    bad = device->set_attr(attr(mem.addr(), mem.size()));
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error(), std::errc::bad_file_descriptor);
}

TEST_F(HmmTest, WithoutTheCapCallsFail) {
    kernel.caps.caps &= ~AMDX_CAP_HMM_MIGRATE;
    const auto ok = device->set_attr(attr(mem.addr(), mem.size()));
    ASSERT_FALSE(ok);
    EXPECT_EQ(ok.error(), std::errc::operation_not_supported);
    const auto ranges = device->hmm_ranges();
    ASSERT_FALSE(ranges);
    EXPECT_EQ(ranges.error(), std::errc::operation_not_supported);
}

TEST_F(HmmTest, MigrateEncodesAndReports) {
    make_range(1);
    const auto to_dev = device->migrate(mem.addr(), mem.size(), 1);
    ASSERT_TRUE(to_dev) << to_dev.error().message();
    EXPECT_EQ(*to_dev, (amdx::MigrateResult{.moved = 8, .already = 0, .skipped = 0}));
    ASSERT_EQ(kernel.hmm_migrates.size(), 1U);
    const auto& m = kernel.hmm_migrates[0];
    EXPECT_EQ(m.start, mem.addr());
    EXPECT_EQ(m.size, mem.size());
    EXPECT_EQ(m.dest, 1U);
    EXPECT_EQ(m.flags | m.pad | m.reserved[0] | m.reserved[1], 0U);
    EXPECT_EQ(m.moved | m.already | m.skipped | m.skip_reasons, 0U); // outputs go in zeroed

    const auto again = device->migrate(mem.addr(), 2 * kPage, 0);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->already, 2U);
    const auto back = device->migrate(mem.addr(), mem.size(), amdx::kHmmLocSystem);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->moved, 8U);
    EXPECT_EQ(kernel.hmm_migrates.back().dest, AMDX_HMM_LOC_SYSTEM);
}

TEST_F(HmmTest, MigrateReportsSkipReasons) {
    make_range(0);
    amdx_hmm_migrate out{};
    out.moved = 5;
    out.skipped = 3;
    out.skip_reasons = AMDX_HMM_SKIP_BUSY | AMDX_HMM_SKIP_NO_MEMORY;
    kernel.hmm_migrate_result = out;
    const auto r = device->migrate(mem.addr(), mem.size(), 0);
    ASSERT_TRUE(r);
    EXPECT_EQ(*r,
              (amdx::MigrateResult{.moved = 5,
                                   .already = 0,
                                   .skipped = 3,
                                   .skip_reasons = AMDX_HMM_SKIP_BUSY | AMDX_HMM_SKIP_NO_MEMORY}));
}

TEST_F(HmmTest, MigratePropagatesErrors) {
    auto r = device->migrate(mem.addr(), mem.size(), 0); // no range set
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), std::errc::invalid_argument);
    make_range(0);
    r = device->migrate(mem.addr(), mem.size(), 2); // the device has two partitions
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), std::errc::invalid_argument);
    kernel.hmm_foreign = true;
    r = device->migrate(mem.addr(), mem.size(), 0);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), std::errc::bad_file_descriptor);
}

TEST_F(HmmTest, PrefetchIsMigrateToPreferred) {
    make_range(1);
    const auto r = device->prefetch(mem.addr(), mem.size());
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->moved, 8U);
    EXPECT_EQ(kernel.hmm_migrates.back().dest, AMDX_HMM_LOC_PREFERRED);
    EXPECT_EQ(kernel.hmm(device->fd().get()).ranges[0].resident_pages, 8U);
}

TEST_F(HmmTest, AccessReadAndWrite) {
    make_range(0);
    std::memset(mem.bytes(), 0x5a, mem.size());
    kernel.hmm_access_faults = 3;
    std::vector<std::byte> buf(2 * kPage);
    const auto faults = device->access_read(mem.addr() + kPage, buf);
    ASSERT_TRUE(faults) << faults.error().message();
    EXPECT_EQ(*faults, 3U);
    EXPECT_EQ(buf[0], std::byte{0x5a});
    const auto& rd = kernel.hmm_accesses.back();
    EXPECT_EQ(rd.op, static_cast<std::uint32_t>(AMDX_HMM_ACCESS_READ));
    EXPECT_EQ(rd.addr, mem.addr() + kPage);
    EXPECT_EQ(rd.size, 2 * kPage);
    EXPECT_EQ(rd.buf, reinterpret_cast<std::uintptr_t>(buf.data()));
    EXPECT_EQ(rd.flags | rd.vram_pfns | rd.faults | rd.reserved[0] | rd.reserved[1], 0U);

    std::fill(buf.begin(), buf.end(), std::byte{0x11});
    const auto wfaults = device->access_write(mem.addr(), buf);
    ASSERT_TRUE(wfaults);
    EXPECT_EQ(kernel.hmm_accesses.back().op, static_cast<std::uint32_t>(AMDX_HMM_ACCESS_WRITE));
    EXPECT_EQ(mem.bytes()[2 * kPage - 1], 0x11);
    EXPECT_EQ(mem.bytes()[2 * kPage], 0x5a);
}

TEST_F(HmmTest, AccessPropagatesErrors) {
    std::vector<std::byte> odd(100);
    const auto r = device->access_read(mem.addr(), odd);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), std::errc::invalid_argument);
    kernel.hmm_foreign = true;
    std::vector<std::byte> buf(kPage);
    const auto w = device->access_write(mem.addr(), buf);
    ASSERT_FALSE(w);
    EXPECT_EQ(w.error(), std::errc::bad_file_descriptor);
}

TEST_F(HmmTest, SnapshotOneBytePerPage) {
    const auto snap = device->access_snapshot(mem.addr(), 4 * kPage);
    ASSERT_TRUE(snap) << snap.error().message();
    ASSERT_EQ(snap->pages.size(), 4U);
    EXPECT_EQ(snap->pages[0], AMDX_HMM_SNAP_READ | AMDX_HMM_SNAP_WRITE | AMDX_HMM_SNAP_DEV_LOCAL);
    EXPECT_EQ(snap->pages[3], AMDX_HMM_SNAP_READ | AMDX_HMM_SNAP_WRITE);
    EXPECT_TRUE(snap->vram_pfns.empty());
    const auto& a = kernel.hmm_accesses.back();
    EXPECT_EQ(a.op, static_cast<std::uint32_t>(AMDX_HMM_ACCESS_SNAPSHOT));
    EXPECT_EQ(a.size, 4 * kPage);
    EXPECT_EQ(a.vram_pfns, 0U);
}

TEST_F(HmmTest, SnapshotWithVramPfns) {
    const auto snap = device->access_snapshot(mem.addr(), 2 * kPage, true);
    ASSERT_TRUE(snap) << snap.error().message();
    EXPECT_EQ(snap->vram_pfns, (std::vector<std::uint64_t>{7, ~0ULL}));
    EXPECT_NE(kernel.hmm_accesses.back().vram_pfns, 0U);
}

TEST_F(HmmTest, SnapshotOfAnUnalignedSizeIsEinvalWithoutACall) {
    const auto snap = device->access_snapshot(mem.addr(), kPage + 1);
    ASSERT_FALSE(snap);
    EXPECT_EQ(snap.error(), std::errc::invalid_argument);
    EXPECT_TRUE(kernel.hmm_accesses.empty());
}

// ---- AMDX_QUERY_HMM_RANGES

TEST_F(HmmTest, RangesAsksSizeThenFetches) {
    make_range(1);
    ASSERT_TRUE(device->migrate(mem.addr(), mem.size(), 1));
    kernel.calls.clear();
    const auto r = device->hmm_ranges();
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->pid, static_cast<std::uint32_t>(::getpid()));
    ASSERT_EQ(r->ranges.size(), 1U);
    const auto& range = r->ranges[0];
    EXPECT_EQ(range.start, mem.addr());
    EXPECT_EQ(range.size, mem.size());
    EXPECT_EQ(range.preferred_loc, 1U);
    EXPECT_EQ(range.granularity, static_cast<std::uint32_t>(AMDX_HMM_GRANULARITY_DEFAULT));
    EXPECT_EQ(range.access, 1U << 1);
    EXPECT_EQ(range.resident_pages, 8U);
    EXPECT_EQ(range.stats.pages_in, 8U);
    EXPECT_EQ(range.stats.bytes_in, 8 * kPage);
    EXPECT_EQ(r->total, range.stats);

    ASSERT_EQ(kernel.calls.size(), 2U);
    for (const auto& call : kernel.calls) {
        EXPECT_EQ(call.query, static_cast<std::uint32_t>(AMDX_QUERY_HMM_RANGES));
        EXPECT_EQ(call.fd, device->fd().get());
        EXPECT_EQ(call.id, 0U);
    }
    EXPECT_EQ(kernel.calls[0].size, 0U);
    EXPECT_EQ(kernel.calls[1].size, sizeof(amdx_query_hmm_ranges) + sizeof(amdx_hmm_range_info));
}

TEST_F(HmmTest, RangesEmpty) {
    kernel.hmm_pid = 4242;
    const auto r = device->hmm_ranges();
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->pid, 4242U);
    EXPECT_TRUE(r->ranges.empty());
    EXPECT_EQ(r->total, amdx::HmmStats{});
}

TEST_F(HmmTest, RangesStepByEntrySize) {
    Mapping other(2);
    make_range(0);
    auto pinned = attr(other.addr(), other.size());
    pinned.flags = AMDX_HMM_F_PIN;
    ASSERT_TRUE(device->set_attr(pinned));
    kernel.hmm_entry_size = sizeof(amdx_hmm_range_info) + 40;
    const auto r = device->hmm_ranges();
    ASSERT_TRUE(r) << r.error().message();
    ASSERT_EQ(r->ranges.size(), 2U);
    const auto& second = r->ranges[mem.addr() < other.addr() ? 1 : 0];
    EXPECT_EQ(second.start, other.addr());
    EXPECT_EQ(second.size, other.size());
    EXPECT_EQ(second.flags, AMDX_HMM_F_PIN);
    EXPECT_EQ(second.stats, amdx::HmmStats{}); // no 0xa5 junk leaked in
    EXPECT_EQ(kernel.calls.back().size,
              sizeof(amdx_query_hmm_ranges) + 2 * (sizeof(amdx_hmm_range_info) + 40));
}

TEST_F(HmmTest, RangesRejectEntriesSmallerThanV1) {
    make_range(0);
    kernel.hmm_entry_size = 120;
    const auto r = device->hmm_ranges();
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), std::errc::protocol_error);
}

TEST_F(HmmTest, RangesRetryWhileTheListGrows) {
    kernel.hmm_grow_on_fetch = 2;
    const auto r = device->hmm_ranges();
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(r->ranges.size(), 2U);
    EXPECT_EQ(kernel.calls.size(), 5U); // open, ask, ENOSPC, ENOSPC, fetch
}

TEST_F(HmmTest, RangesGiveUpAfterBoundedAttempts) {
    kernel.hmm_grow_on_fetch = 1000;
    const auto r = device->hmm_ranges();
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), std::errc::resource_unavailable_try_again);
}

TEST_F(HmmTest, RangesRetryEintr) {
    kernel.eintr = 2;
    const auto r = device->hmm_ranges();
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_EQ(kernel.calls.size(), 5U); // open, EINTR, ask, EINTR, fetch
}

TEST_F(HmmTest, RangesPropagateErrno) {
    kernel.hmm_foreign = true;
    const auto r = device->hmm_ranges();
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), std::errc::bad_file_descriptor);
}

} // namespace
