// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The partition and SR-IOV calls of amdx::Device: one ioctl or query each.
#include <algorithm>
#include <cerrno>

#include <amdx/device.hpp>
#include <amdx/partition.hpp>

#include "error.hpp"
#include "query.hpp"
#include "sys.hpp"

namespace amdx {

using detail::c_string;
using detail::user_ptr;

namespace {

/// Most holders a plan asks for when the first answer did not fit.
constexpr std::uint32_t kMaxHolders = 4096;

/// The kernel looked at the request and copied its outputs back.
bool outputs_filled(const amdx_partition_config& raw) noexcept {
    return raw.reason != 0 || raw.outcome != 0 || raw.num_steps != 0 || raw.num_holders != 0 ||
           raw.allowed != 0 || raw.num_partitions != 0;
}

/// A refused or failed commit as an error: the errno, the call, the device,
/// the kernel's reason and, in the detail, the step that failed.
Unexpected commit_error(const PartitionReport& report, std::string_view call,
                        std::uint32_t device) {
    ErrorContext ctx;
    ctx.code = report.error ? report.error : std::make_error_code(std::errc::io_error);
    ctx.call = call;
    ctx.device = device;
    ctx.reason = static_cast<std::uint32_t>(report.reason);
    if (report.failed_step != PartitionStep::none)
        ctx.detail =
            "step " + std::string(to_string(report.failed_step)) + " failed, " +
            (report.outcome == PartitionOutcome::rolled_back ? "rolled back" : "not applied");
    else if (report.num_holders != 0)
        ctx.detail = std::to_string(report.num_holders) + " process(es) hold memory there";
    return Unexpected(std::move(ctx));
}

Result<PartitionReport> config_call(BorrowedFd fd, std::uint32_t device, unsigned long request,
                                    std::string_view call, const PartitionRequest& req,
                                    bool grow_holders) noexcept {
    std::uint32_t room = std::min(req.max_holders, kMaxHolders);
    for (;;) {
        std::vector<amdx_partition_info> topology(AMDX_MAX_PARTITIONS);
        std::vector<amdx_partition_holder> holders(room);
        amdx_partition_config raw = req.to_uapi();
        raw.topology = user_ptr(topology.data());
        raw.holders = room == 0 ? 0 : user_ptr(holders.data());
        raw.max_holders = room;
        const int ret = detail::ioctl_retry(fd.get(), request, &raw);
        if (ret < 0 && !outputs_filled(raw))
            return errno_error(-ret, call, device);
        if (grow_holders && raw.num_holders > room && room < kMaxHolders) {
            grow_holders = false; // once: the list may keep changing
            room = std::min(raw.num_holders, kMaxHolders);
            continue;
        }
        auto report = PartitionReport::from_uapi(raw, topology, holders);
        if (ret < 0)
            report.error = std::error_code(-ret, std::system_category());
        return report;
    }
}

} // namespace

PartitionInfo PartitionInfo::from_uapi(const amdx_partition_info& raw) noexcept {
    return PartitionInfo{.id = raw.id,
                         .state = static_cast<PartitionState>(raw.state),
                         .xcc_mask = raw.xcc_mask,
                         .sdma_mask = raw.sdma_mask,
                         .vcn_mask = raw.vcn_mask,
                         .mem_partition = raw.mem_partition,
                         .vf = raw.vf,
                         .resets = raw.resets,
                         .vram_base = raw.vram_base,
                         .vram_size = raw.vram_size};
}

PartitionHolder PartitionHolder::from_uapi(const amdx_partition_holder& raw) {
    return PartitionHolder{.pid = raw.pid,
                           .mem_partition = raw.mem_partition,
                           .pages = raw.pages,
                           .comm = c_string(raw.comm)};
}

amdx_partition_config PartitionRequest::to_uapi() const noexcept {
    amdx_partition_config raw{};
    raw.compute_mode = static_cast<std::uint32_t>(compute.value_or(ComputeMode::unknown));
    raw.memory_mode = static_cast<std::uint32_t>(memory.value_or(MemoryMode::unknown));
    raw.flags = drain ? AMDX_PART_F_DRAIN : 0;
    raw.deadline_ms = deadline_ms;
    return raw;
}

PartitionReport PartitionReport::from_uapi(const amdx_partition_config& raw,
                                           const std::vector<amdx_partition_info>& topology,
                                           const std::vector<amdx_partition_holder>& holders) {
    PartitionReport r;
    r.reason = static_cast<PartitionReason>(raw.reason);
    r.allowed = raw.allowed != 0;
    r.outcome = static_cast<PartitionOutcome>(raw.outcome);
    r.num_partitions = raw.num_partitions;
    r.failed_step = static_cast<PartitionStep>(raw.failed_step);
    const std::uint32_t steps = std::min<std::uint32_t>(raw.num_steps, AMDX_PART_STEP_MAX);
    for (std::uint32_t i = 0; i < steps; ++i)
        r.steps.push_back({.step = static_cast<PartitionStep>(raw.steps[i].step),
                           .error = raw.steps[i].error,
                           .duration_ns = raw.steps[i].duration_ns});
    r.total_ns = raw.total_ns;
    const std::size_t parts = std::min<std::size_t>(raw.num_partitions, topology.size());
    for (std::size_t i = 0; i < parts; ++i)
        r.topology.push_back(PartitionInfo::from_uapi(topology[i]));
    r.num_holders = raw.num_holders;
    const auto found = std::min<std::size_t>({raw.num_holders, raw.max_holders, holders.size()});
    for (std::size_t i = 0; i < found; ++i)
        r.holders.push_back(PartitionHolder::from_uapi(holders[i]));
    return r;
}

amdx_vf_config VfConfig::to_uapi() const noexcept {
    amdx_vf_config raw{};
    raw.partition_mask = partition_mask;
    raw.time_slice_us = time_slice_us;
    raw.vram_quota = vram_quota;
    raw.priority = static_cast<std::uint32_t>(priority);
    raw.flags = flags;
    return raw;
}

VfConfig VfConfig::from_uapi(const amdx_vf_config& raw) noexcept {
    return VfConfig{.partition_mask = raw.partition_mask,
                    .time_slice_us = raw.time_slice_us,
                    .vram_quota = raw.vram_quota,
                    .priority = static_cast<VfPriority>(raw.priority),
                    .flags = raw.flags};
}

VfInfo VfInfo::from_uapi(const amdx_vf_info& raw) noexcept {
    return VfInfo{.vf = raw.vf,
                  .state = static_cast<PartitionState>(raw.state),
                  .config = VfConfig::from_uapi(raw.config),
                  .vram_used = raw.vram_used,
                  .resets = raw.resets,
                  .resets_in_window = raw.resets_in_window};
}

amdx_vf_set VfSettings::to_uapi(std::uint32_t vf) const noexcept {
    amdx_vf_set raw{};
    raw.vf = vf;
    if (time_slice_us) {
        raw.valid |= AMDX_VF_SET_TIME_SLICE;
        raw.config.time_slice_us = *time_slice_us;
    }
    if (vram_quota) {
        raw.valid |= AMDX_VF_SET_VRAM_QUOTA;
        raw.config.vram_quota = *vram_quota;
    }
    if (priority) {
        raw.valid |= AMDX_VF_SET_PRIORITY;
        raw.config.priority = static_cast<std::uint32_t>(*priority);
    }
    if (flags) {
        raw.valid |= AMDX_VF_SET_FLAGS;
        raw.config.flags = *flags;
    }
    return raw;
}

Result<Partitions> Device::partitions() const noexcept {
    auto answer = detail::fetch_list(fd(), AMDX_QUERY_PARTITIONS, sizeof(amdx_query_partitions));
    if (!answer)
        return detail::forward(answer, "AMDX_QUERY_PARTITIONS", id_);
    const auto header = detail::list_header<amdx_query_partitions>(*answer);
    Partitions out;
    out.compute_mode = static_cast<ComputeMode>(header.compute_mode);
    out.memory_mode = static_cast<MemoryMode>(header.memory_mode);
    out.generation = header.generation;
    auto ok = detail::for_each_entry<amdx_query_partitions, amdx_partition_info>(
        *answer, header.num_partitions, header.entry_size, AMDX_PARTITION_INFO_SIZE_VER0,
        [&out](const amdx_partition_info& raw) {
            out.partitions.push_back(PartitionInfo::from_uapi(raw));
        });
    if (!ok)
        return detail::forward(ok, "AMDX_QUERY_PARTITIONS", id_);
    return out;
}

Result<PartitionReport> Device::partition_plan(const PartitionRequest& req) const noexcept {
    return config_call(fd(), id_, AMDX_IOC_PARTITION_PLAN, "AMDX_IOC_PARTITION_PLAN", req, true);
}

Reported<PartitionReport> Device::partition_commit(const PartitionRequest& req) const noexcept {
    constexpr std::string_view kCall = "AMDX_IOC_PARTITION_COMMIT";
    auto report = config_call(fd(), id_, AMDX_IOC_PARTITION_COMMIT, kCall, req, false);
    if (!report)
        return Unexpected(report.context());
    // Only a change that happened (or was not needed) is a value.
    if (!report->error && (report->outcome == PartitionOutcome::committed ||
                           report->outcome == PartitionOutcome::unchanged))
        return std::move(*report);
    if (!report->error) // outputs that contradict the return value
        report->error = std::make_error_code(std::errc::io_error);
    auto error = commit_error(*report, kCall, id_);
    return {std::move(error), std::move(*report)};
}

Result<Vfs> Device::vfs() const noexcept {
    auto answer = detail::fetch_list(fd(), AMDX_QUERY_VFS, sizeof(amdx_query_vfs));
    if (!answer)
        return detail::forward(answer, "AMDX_QUERY_VFS", id_);
    const auto header = detail::list_header<amdx_query_vfs>(*answer);
    Vfs out;
    out.max_vfs = header.max_vfs;
    auto ok = detail::for_each_entry<amdx_query_vfs, amdx_vf_info>(
        *answer, header.num_vfs, header.entry_size, AMDX_VF_INFO_SIZE_VER0,
        [&out](const amdx_vf_info& raw) { out.vfs.push_back(VfInfo::from_uapi(raw)); });
    if (!ok)
        return detail::forward(ok, "AMDX_QUERY_VFS", id_);
    return out;
}

Reported<VfEnableReport> Device::vf_enable(std::uint32_t num_vfs,
                                           std::span<const VfConfig> configs) const noexcept {
    if (!configs.empty() && configs.size() != num_vfs)
        return detail::fail(std::errc::invalid_argument, "AMDX_IOC_VF_ENABLE", id_);
    std::vector<amdx_vf_config> raw_configs;
    raw_configs.reserve(configs.size());
    for (const auto& c : configs)
        raw_configs.push_back(c.to_uapi());
    amdx_vf_enable arg{};
    arg.num_vfs = num_vfs;
    if (!raw_configs.empty()) {
        arg.flags = AMDX_VF_ENABLE_F_CUSTOM;
        arg.configs = user_ptr(raw_configs.data());
        arg.config_size = sizeof(amdx_vf_config);
    }
    const int ret = detail::ioctl_retry(fd().get(), AMDX_IOC_VF_ENABLE, &arg);
    if (ret < 0 && arg.reason == AMDX_PART_REASON_NONE)
        return errno_error(-ret, "AMDX_IOC_VF_ENABLE", id_);
    VfEnableReport report{.error = {},
                          .reason = static_cast<PartitionReason>(arg.reason),
                          .bad_vf = ret < 0 ? arg.bad_vf : kVfNone};
    if (ret >= 0)
        return report;
    report.error = std::error_code(-ret, std::system_category());
    ErrorContext ctx;
    ctx.code = report.error;
    ctx.call = "AMDX_IOC_VF_ENABLE";
    ctx.device = id_;
    ctx.reason = arg.reason;
    if (report.bad_vf != kVfNone)
        ctx.detail = "VF " + std::to_string(report.bad_vf);
    return {Unexpected(std::move(ctx)), report};
}

Result<void> Device::vf_disable() const noexcept {
    amdx_vf_disable arg{};
    if (const int ret = detail::ioctl_retry(fd().get(), AMDX_IOC_VF_DISABLE, &arg); ret < 0)
        return errno_error(-ret, "AMDX_IOC_VF_DISABLE", id_);
    return {};
}

Result<void> Device::vf_set(std::uint32_t vf, const VfSettings& settings) const noexcept {
    amdx_vf_set arg = settings.to_uapi(vf);
    if (const int ret = detail::ioctl_retry(fd().get(), AMDX_IOC_VF_SET, &arg); ret < 0)
        return errno_error(-ret, "AMDX_IOC_VF_SET", id_);
    return {};
}

Result<VfResetResult> Device::vf_reset(std::uint32_t vf) const noexcept {
    amdx_vf_reset arg{};
    arg.vf = vf;
    if (const int ret = detail::ioctl_retry(fd().get(), AMDX_IOC_VF_RESET, &arg); ret < 0)
        return errno_error(-ret, "AMDX_IOC_VF_RESET", id_, arg.reason);
    return VfResetResult{.result = static_cast<VfResetOutcome>(arg.result),
                         .state = static_cast<PartitionState>(arg.state),
                         .duration_ns = arg.duration_ns,
                         .resets_in_window = arg.resets_in_window,
                         .vram_cleared = arg.vram_cleared};
}

Result<ResetScope> Device::reset_scope() const noexcept {
    amdx_reset_scope raw{};
    if (const int ret =
            detail::query_struct(fd(), AMDX_QUERY_RESET_SCOPE, 0, raw, AMDX_RESET_SCOPE_SIZE_VER0);
        ret < 0)
        return errno_error(-ret, "AMDX_QUERY_RESET_SCOPE", id_);
    if (raw.num_devices > std::size(raw.devices))
        return detail::fail(std::errc::protocol_error, "AMDX_QUERY_RESET_SCOPE", id_);
    ResetScope scope;
    scope.hive_id = raw.hive_id;
    scope.devices.assign(raw.devices, raw.devices + raw.num_devices);
    return scope;
}

} // namespace amdx
