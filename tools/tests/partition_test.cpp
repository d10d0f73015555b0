// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The partition and VF calls of amdx::Device against the fake kernel: what
// reaches the kernel, what comes back, and how refusals are reported.
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <span>
#include <type_traits>

#include <gtest/gtest.h>

#include <amdx/device.hpp>

#include "fake_kernel.hpp"

namespace {

using amdx::ComputeMode;
using amdx::Control;
using amdx::Device;
using amdx::MemoryMode;
using amdx::PartitionReason;
using amdx::PartitionStep;
using amdx::test::FakeKernel;

class PartitionTest : public ::testing::Test {
  protected:
    void SetUp() override {
        kernel.add_device(0);
        kernel.add_device(1);
        auto dev = Device::open(control, 0);
        ASSERT_TRUE(dev) << dev.error().message();
        device.emplace(std::move(*dev));
    }

    static amdx::PartitionRequest to(std::optional<ComputeMode> c,
                                     std::optional<MemoryMode> m = std::nullopt) {
        amdx::PartitionRequest r;
        r.compute = c;
        r.memory = m;
        return r;
    }

    FakeKernel kernel;
    Control control = Control::adopt(amdx::UniqueFd(::open("/dev/null", O_RDWR | O_CLOEXEC)));
    std::optional<Device> device;
};

TEST_F(PartitionTest, QueryAsksSizeThenFetchesOnTheDeviceFd) {
    const auto parts = device->partitions();
    ASSERT_TRUE(parts) << parts.error().message();
    EXPECT_EQ(parts->compute_mode, ComputeMode::spx);
    EXPECT_EQ(parts->memory_mode, MemoryMode::nps1);
    EXPECT_EQ(parts->generation, 1U);
    ASSERT_EQ(parts->partitions.size(), 1U);
    EXPECT_EQ(parts->partitions[0].xcc_mask, 0xffU);
    EXPECT_EQ(parts->partitions[0].vf, amdx::kVfNone);
    ASSERT_EQ(kernel.calls.size(), 3U); // open, size, fetch
    EXPECT_EQ(kernel.calls[1].query, static_cast<std::uint32_t>(AMDX_QUERY_PARTITIONS));
    EXPECT_EQ(kernel.calls[1].size, 0U);
    EXPECT_EQ(kernel.calls[2].size, sizeof(amdx_query_partitions) + sizeof(amdx_partition_info));
    EXPECT_EQ(kernel.calls[2].fd, device->fd().get());
}

TEST_F(PartitionTest, QueryStepsByEntrySize) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_QPX;
    kernel.part_entry_size = sizeof(amdx_partition_info) + 16; // a newer kernel
    const auto parts = device->partitions();
    ASSERT_TRUE(parts) << parts.error().message();
    ASSERT_EQ(parts->partitions.size(), 4U);
    for (std::uint32_t i = 0; i < 4; ++i) {
        EXPECT_EQ(parts->partitions[i].id, i);
        EXPECT_EQ(parts->partitions[i].xcc_mask, 0x3U << (2 * i));
    }
    kernel.part_entry_size = 48; // below the first version
    const auto bad = device->partitions();
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error(), std::errc::protocol_error);
}

TEST_F(PartitionTest, PlanChangesNothingAndReportsTopology) {
    const auto plan = device->partition_plan(to(ComputeMode::cpx, MemoryMode::nps4));
    ASSERT_TRUE(plan) << plan.error().message();
    EXPECT_FALSE(plan->error);
    EXPECT_TRUE(plan->allowed);
    EXPECT_EQ(plan->reason, PartitionReason::none);
    EXPECT_EQ(plan->num_partitions, 8U);
    ASSERT_EQ(plan->topology.size(), 8U);
    EXPECT_EQ(plan->topology[7].xcc_mask, 0x80U);
    EXPECT_EQ(plan->topology[7].mem_partition, 3U);
    ASSERT_EQ(kernel.part_requests.size(), 1U);
    EXPECT_EQ(kernel.part_requests[0].compute_mode, static_cast<std::uint32_t>(AMDX_COMPUTE_CPX));
    EXPECT_EQ(kernel.part_requests[0].memory_mode, static_cast<std::uint32_t>(AMDX_MEMORY_NPS4));
    EXPECT_EQ(kernel.part_requests[0].flags, 0U);
    EXPECT_EQ(kernel.part_requests[0].max_holders, 64U);
    EXPECT_EQ(kernel.devices[0].compute_mode, static_cast<std::uint32_t>(AMDX_COMPUTE_SPX));
}

TEST_F(PartitionTest, UnsetModesAreZeroInTheRequest) {
    auto req = to(std::nullopt, MemoryMode::nps2);
    req.drain = true;
    req.deadline_ms = 250;
    ASSERT_TRUE(device->partition_plan(req));
    ASSERT_EQ(kernel.part_requests.size(), 1U);
    EXPECT_EQ(kernel.part_requests[0].compute_mode, 0U);
    EXPECT_EQ(kernel.part_requests[0].flags, static_cast<std::uint32_t>(AMDX_PART_F_DRAIN));
    EXPECT_EQ(kernel.part_requests[0].deadline_ms, 250U);
}

TEST_F(PartitionTest, RefusalWithReasonIsAReportNotAFailedCall) {
    kernel.devices[0].supported_compute_modes &= ~(1U << AMDX_COMPUTE_CPX);
    const auto plan = device->partition_plan(to(ComputeMode::cpx));
    ASSERT_TRUE(plan) << plan.error().message();
    EXPECT_EQ(plan->error, std::errc::invalid_argument);
    EXPECT_EQ(plan->reason, PartitionReason::compute_unsupported);
    EXPECT_FALSE(plan->allowed);
}

TEST_F(PartitionTest, ErrorsBeforeTheKernelLookedFailTheCall) {
    kernel.fail_ioctl[AMDX_IOC_PARTITION_COMMIT] = EPERM;
    const auto r = device->partition_commit(to(ComputeMode::cpx));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), std::errc::operation_not_permitted);
    EXPECT_FALSE(r.has_report()); // the kernel wrote none
    EXPECT_FALSE(r.report().error);
}

// Code written for the earlier shape (a Result plus an out-parameter for the
// failure's report) does not compile, rather than losing refusals.
template <class D>
concept CommitTakesFailedOut = requires(const D& d, amdx::PartitionReport* failed) {
    d.partition_commit(amdx::PartitionRequest{}, failed);
};
template <class D>
concept VfEnableTakesFailedOut = requires(const D& d, amdx::VfEnableReport* failed) {
    d.vf_enable(1, std::span<const amdx::VfConfig>{}, failed);
};
static_assert(!CommitTakesFailedOut<amdx::Device>);
static_assert(!VfEnableTakesFailedOut<amdx::Device>);
static_assert(!std::is_convertible_v<amdx::Reported<amdx::PartitionReport>,
                                     amdx::Result<amdx::PartitionReport>>);

amdx_partition_holder holder(std::uint32_t pid, const char* comm) {
    amdx_partition_holder h{};
    h.pid = pid;
    h.pages = 512;
    std::strncpy(reinterpret_cast<char*>(h.comm), comm, sizeof(h.comm) - 1);
    return h;
}

TEST_F(PartitionTest, BusyCommitReportsHolders) {
    kernel.part_holders = {holder(100, "trainer"), holder(200, "infer")};
    const auto r = device->partition_commit(to(ComputeMode::cpx));
    ASSERT_FALSE(r); // a refused commit is no success value
    ASSERT_TRUE(r.has_report());
    const auto& report = r.report();
    EXPECT_EQ(r.error(), std::errc::device_or_resource_busy);
    EXPECT_EQ(r.context().call, "AMDX_IOC_PARTITION_COMMIT");
    EXPECT_EQ(r.context().device, 0U);
    EXPECT_EQ(r.context().reason, static_cast<std::uint32_t>(AMDX_PART_REASON_BUSY));
    EXPECT_EQ(report.error, std::errc::device_or_resource_busy);
    EXPECT_EQ(report.reason, PartitionReason::busy);
    EXPECT_EQ(report.num_holders, 2U);
    ASSERT_EQ(report.holders.size(), 2U);
    EXPECT_EQ(report.holders[1].pid, 200U);
    EXPECT_EQ(report.holders[1].comm, "infer");
    EXPECT_EQ(report.holders[1].pages, 512U);
    EXPECT_EQ(kernel.devices[0].compute_mode, static_cast<std::uint32_t>(AMDX_COMPUTE_SPX));
}

TEST_F(PartitionTest, PlanAsksAgainWhenHoldersDidNotFit) {
    for (std::uint32_t i = 0; i < 5; ++i)
        kernel.part_holders.push_back(holder(1000 + i, "p"));
    auto req = to(ComputeMode::dpx);
    req.max_holders = 2;
    const auto plan = device->partition_plan(req);
    ASSERT_TRUE(plan);
    EXPECT_FALSE(plan->allowed);
    EXPECT_EQ(plan->reason, PartitionReason::busy);
    ASSERT_EQ(plan->holders.size(), 5U);
    EXPECT_EQ(plan->holders[4].pid, 1004U);
    ASSERT_EQ(kernel.part_requests.size(), 2U);
    EXPECT_EQ(kernel.part_requests[1].max_holders, 5U);
}

TEST_F(PartitionTest, CommitWithDrainReportsStepsAndChanges) {
    kernel.part_holders = {holder(100, "trainer")};
    auto req = to(ComputeMode::cpx, MemoryMode::nps4);
    req.drain = true;
    const auto r = device->partition_commit(req);
    ASSERT_TRUE(r);
    EXPECT_FALSE(r->error);
    EXPECT_EQ(r->outcome, amdx::PartitionOutcome::committed);
    std::vector<PartitionStep> steps;
    for (const auto& s : r->steps) {
        steps.push_back(s.step);
        EXPECT_EQ(s.error, 0);
        EXPECT_EQ(s.duration_ns, 1000U * static_cast<std::uint32_t>(s.step));
    }
    EXPECT_EQ(steps, (std::vector<PartitionStep>{PartitionStep::validate, PartitionStep::quiesce,
                                                 PartitionStep::drain, PartitionStep::compute,
                                                 PartitionStep::memory, PartitionStep::rebuild,
                                                 PartitionStep::resume}));
    EXPECT_EQ(r->total_ns, 28000U);
    EXPECT_EQ(r->topology.size(), 8U);
    const auto after = device->partitions();
    ASSERT_TRUE(after);
    EXPECT_EQ(after->compute_mode, ComputeMode::cpx);
    EXPECT_EQ(after->generation, 2U);
}

TEST_F(PartitionTest, FailedStepRollsBackAndIsReported) {
    kernel.part_fail_step = AMDX_PART_STEP_MEMORY;
    kernel.part_fail_errno = EIO;
    const auto r = device->partition_commit(to(ComputeMode::dpx, MemoryMode::nps2));
    ASSERT_FALSE(r); // a rolled-back transaction is no success value
    ASSERT_TRUE(r.has_report());
    const auto& report = r.report();
    EXPECT_EQ(r.error(), std::errc::io_error);
    EXPECT_EQ(r.context().detail, "step memory failed, rolled back");
    EXPECT_EQ(r.context().message(), "AMDX_IOC_PARTITION_COMMIT on device 0: failed: step memory "
                                     "failed, rolled back (EIO: Input/output error)");
    EXPECT_EQ(report.error, std::errc::io_error);
    EXPECT_EQ(report.outcome, amdx::PartitionOutcome::rolled_back);
    EXPECT_EQ(report.failed_step, PartitionStep::memory);
    ASSERT_FALSE(report.steps.empty());
    EXPECT_EQ(report.steps.back().step, PartitionStep::memory);
    EXPECT_EQ(report.steps.back().error, -EIO);
    const auto after = device->partitions();
    ASSERT_TRUE(after);
    EXPECT_EQ(after->compute_mode, ComputeMode::spx);
    EXPECT_EQ(after->generation, 1U);
}

TEST_F(PartitionTest, VfAutoProvisioning) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_CPX;
    const auto r = device->vf_enable(4);
    ASSERT_TRUE(r) << r.error().message();
    EXPECT_FALSE(r->error);
    EXPECT_TRUE(r.has_report());
    ASSERT_EQ(kernel.vf_enables.size(), 1U);
    EXPECT_EQ(kernel.vf_enables[0].flags, 0U);
    EXPECT_EQ(kernel.vf_enables[0].configs, 0U);
    const auto vfs = device->vfs();
    ASSERT_TRUE(vfs);
    EXPECT_EQ(vfs->max_vfs, 8U);
    ASSERT_EQ(vfs->vfs.size(), 4U);
    EXPECT_EQ(vfs->vfs[1].config.partition_mask, 0x22U); // partitions 1 and 5
    EXPECT_EQ(vfs->vfs[1].config.vram_quota, 48ULL << 30);
    EXPECT_EQ(vfs->vfs[1].config.priority, amdx::VfPriority::normal);
    const auto parts = device->partitions();
    ASSERT_TRUE(parts);
    EXPECT_EQ(parts->partitions[5].vf, 1U);
}

TEST_F(PartitionTest, VfCustomProvisioningAndRefusal) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_DPX;
    std::vector<amdx::VfConfig> configs(2);
    configs[0].partition_mask = 1;
    configs[0].vram_quota = 1ULL << 30;
    configs[0].priority = amdx::VfPriority::high;
    configs[1].partition_mask = 2;
    configs[1].vram_quota = (1ULL << 30) + 4096; // not in 16 MiB steps
    const auto r = device->vf_enable(2, configs);
    ASSERT_FALSE(r);
    ASSERT_TRUE(r.has_report());
    const auto& report = r.report();
    EXPECT_EQ(r.error(), std::errc::invalid_argument);
    EXPECT_EQ(r.context().reason, static_cast<std::uint32_t>(AMDX_PART_REASON_VF_PROVISION));
    EXPECT_EQ(r.context().message(),
              "AMDX_IOC_VF_ENABLE on device 0: rejected as invalid: the VF resources are invalid "
              "or do not fit (reason vf_provision): VF 1 (EINVAL: Invalid argument)");
    EXPECT_EQ(report.error, std::errc::invalid_argument);
    EXPECT_EQ(report.reason, PartitionReason::vf_provision);
    EXPECT_EQ(report.bad_vf, 1U);
    ASSERT_EQ(kernel.vf_configs.size(), 2U);
    EXPECT_EQ(kernel.vf_enables[0].flags, static_cast<std::uint32_t>(AMDX_VF_ENABLE_F_CUSTOM));
    EXPECT_EQ(kernel.vf_enables[0].config_size, sizeof(amdx_vf_config));
    EXPECT_EQ(kernel.vf_configs[0].priority, static_cast<std::uint32_t>(AMDX_VF_PRIO_HIGH));
    EXPECT_TRUE(device->vfs()->vfs.empty());

    configs[1].vram_quota = 1ULL << 30;
    const auto ok = device->vf_enable(2, configs);
    ASSERT_TRUE(ok);
    EXPECT_FALSE(ok->error);
    EXPECT_EQ(device->vfs()->vfs.size(), 2U);

    const auto mismatch = device->vf_enable(3, configs);
    ASSERT_FALSE(mismatch);
    EXPECT_EQ(mismatch.error(), std::errc::invalid_argument);
    EXPECT_FALSE(mismatch.has_report()); // refused before the kernel
}

TEST_F(PartitionTest, VfSetSendsOnlyTheGivenFields) {
    amdx::VfSettings s;
    s.priority = amdx::VfPriority::low;
    s.flags = AMDX_VF_F_EVICT;
    const amdx_vf_set raw = s.to_uapi(3);
    EXPECT_EQ(raw.vf, 3U);
    EXPECT_EQ(raw.valid, static_cast<std::uint32_t>(AMDX_VF_SET_PRIORITY | AMDX_VF_SET_FLAGS));
    EXPECT_EQ(raw.config.priority, static_cast<std::uint32_t>(AMDX_VF_PRIO_LOW));
    EXPECT_EQ(raw.config.vram_quota, 0U);

    kernel.devices[0].compute_mode = AMDX_COMPUTE_CPX;
    ASSERT_TRUE(device->vf_enable(2));
    ASSERT_TRUE(device->vf_set(1, s));
    EXPECT_EQ(device->vfs()->vfs[1].config.flags, static_cast<std::uint32_t>(AMDX_VF_F_EVICT));
    const auto bad = device->vf_set(5, s);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error(), std::errc::invalid_argument);
}

TEST_F(PartitionTest, VfResetRateLimitQuarantines) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_CPX;
    ASSERT_TRUE(device->vf_enable(2));
    kernel.state(kernel.devices[0].id).vfs[1].vram_used = 3 << 20;
    for (std::uint32_t i = 1; i <= AMDX_VF_RESET_LIMIT; ++i) {
        const auto r = device->vf_reset(1);
        ASSERT_TRUE(r) << i;
        EXPECT_EQ(r->resets_in_window, i);
        EXPECT_EQ(r->vram_cleared, 3U << 20);
        EXPECT_EQ(r->result, amdx::VfResetOutcome::acked);
    }
    const auto limited = device->vf_reset(1);
    ASSERT_FALSE(limited);
    EXPECT_EQ(limited.error(), std::errc::device_or_resource_busy);
    EXPECT_EQ(limited.context().reason, AMDX_PART_REASON_VF_RESET_LIMIT);
    EXPECT_EQ(limited.context().message(),
              "AMDX_IOC_VF_RESET on device 0: busy, try again later: the VF reached its reset "
              "rate limit and is quarantined until VFs are disabled (reason vf_reset_limit) "
              "(EBUSY: Device or resource busy)");
    EXPECT_EQ(device->vf_reset(1).context().reason, AMDX_PART_REASON_VF_QUARANTINED);
    EXPECT_EQ(device->vf_reset(2).context().reason, AMDX_PART_REASON_NO_VF);
    EXPECT_EQ(device->vfs()->vfs[1].state, amdx::PartitionState::quarantined);
    ASSERT_TRUE(device->vf_disable());
    EXPECT_TRUE(device->vfs()->vfs.empty());
    EXPECT_EQ(device->vf_disable().error(), std::errc::invalid_argument);
}

TEST_F(PartitionTest, ResetScopeListsTheHive) {
    kernel.devices[0].hive_id = 7;
    kernel.devices[1].hive_id = 7;
    const auto scope = device->reset_scope();
    ASSERT_TRUE(scope) << scope.error().message();
    EXPECT_EQ(scope->hive_id, 7U);
    EXPECT_EQ(scope->devices, (std::vector<std::uint32_t>{0, 1}));
}

TEST(PartitionNames, RoundTripAndUnknown) {
    for (std::uint32_t r = 0; r <= AMDX_PART_REASON_VF_RESET_LIMIT; ++r) {
        const auto reason = static_cast<PartitionReason>(r);
        EXPECT_NE(amdx::to_string(reason), "unknown") << r;
        EXPECT_EQ(amdx::parse_partition_reason(amdx::to_string(reason)), reason);
        if (r != 0) {
            EXPECT_NE(amdx::reason_text(reason).find(' '), std::string_view::npos) << r;
        }
    }
    EXPECT_EQ(amdx::to_string(PartitionReason::incompatible), "incompatible");
    EXPECT_EQ(amdx::to_string(static_cast<PartitionReason>(99)), "unknown");
    for (std::uint32_t s = 1; s <= AMDX_PART_STEP_MAX; ++s)
        EXPECT_EQ(amdx::parse_partition_step(amdx::to_string(static_cast<PartitionStep>(s))),
                  static_cast<PartitionStep>(s));
    EXPECT_EQ(amdx::to_string(PartitionStep::drain), "drain");
    EXPECT_FALSE(amdx::parse_partition_step("none"));
    EXPECT_EQ(amdx::to_string(amdx::PartitionOutcome::rolled_back), "rolled_back");
    EXPECT_EQ(amdx::to_string(amdx::PartitionState::quarantined), "quarantined");
    EXPECT_EQ(amdx::parse_vf_priority("HIGH"), amdx::VfPriority::high);
    EXPECT_FALSE(amdx::parse_vf_priority("unknown"));
    EXPECT_EQ(amdx::parse_compute_mode("cpx"), ComputeMode::cpx);
    EXPECT_EQ(amdx::parse_memory_mode("nps4"), MemoryMode::nps4);
}

} // namespace
