// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Typed mirrors of the uapi's compute/memory partition and SR-IOV VF
// structures (struct amdx_partition_*, struct amdx_vf_*).  The calls that
// use them are members of amdx::Device (device.hpp), one per ioctl or
// query.  Values a newer kernel may report are kept as-is; the to_string()
// functions name them "unknown".
//
// Thread safety: plain values; the free functions are reentrant and keep
// no state.
#ifndef AMDX_PARTITION_HPP
#define AMDX_PARTITION_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <amdx/export.hpp>
#include <amdx/types.hpp>
#include <linux/amdx.h>

namespace amdx {

/// No VF (PartitionInfo::vf, VfEnableReport::bad_vf).
inline constexpr std::uint32_t kVfNone = AMDX_VF_NONE;

/// AMDX_PART_STATE_*: of a compute partition and of a VF.
enum class PartitionState : std::uint32_t {
    online = AMDX_PART_STATE_ONLINE,
    quarantined = AMDX_PART_STATE_QUARANTINED,
    offline = AMDX_PART_STATE_OFFLINE,
};

/// AMDX_PART_REASON_*: why a configuration or a VF operation was refused.
enum class PartitionReason : std::uint32_t {
    none = AMDX_PART_REASON_NONE,
    bad_model = AMDX_PART_REASON_BAD_MODEL,
    compute_unsupported = AMDX_PART_REASON_COMPUTE_UNSUPPORTED,
    memory_unsupported = AMDX_PART_REASON_MEMORY_UNSUPPORTED,
    incompatible = AMDX_PART_REASON_INCOMPATIBLE,
    xcc_not_divisible = AMDX_PART_REASON_XCC_NOT_DIVISIBLE,
    vf_unsupported = AMDX_PART_REASON_VF_UNSUPPORTED,
    vf_compute = AMDX_PART_REASON_VF_COMPUTE,
    vf_memory = AMDX_PART_REASON_VF_MEMORY,
    vfs_enabled = AMDX_PART_REASON_VFS_ENABLED,
    hive_memory = AMDX_PART_REASON_HIVE_MEMORY,
    busy = AMDX_PART_REASON_BUSY,
    vf_provision = AMDX_PART_REASON_VF_PROVISION,
    partition_state = AMDX_PART_REASON_PARTITION_STATE,
    no_vf = AMDX_PART_REASON_NO_VF,                   ///< VF reset (uapi minor 8)
    vf_quarantined = AMDX_PART_REASON_VF_QUARANTINED, ///< VF reset (uapi minor 8)
    vf_reset_limit = AMDX_PART_REASON_VF_RESET_LIMIT, ///< VF reset (uapi minor 8)
};

/// AMDX_PART_STEP_*: the steps of a commit, in order.
enum class PartitionStep : std::uint32_t {
    none = 0,
    validate = AMDX_PART_STEP_VALIDATE,
    quiesce = AMDX_PART_STEP_QUIESCE,
    drain = AMDX_PART_STEP_DRAIN,
    compute = AMDX_PART_STEP_COMPUTE,
    memory = AMDX_PART_STEP_MEMORY,
    rebuild = AMDX_PART_STEP_REBUILD,
    resume = AMDX_PART_STEP_RESUME,
};

/// AMDX_PART_OUTCOME_*.
enum class PartitionOutcome : std::uint32_t {
    none = AMDX_PART_OUTCOME_NONE,
    committed = AMDX_PART_OUTCOME_COMMITTED,
    rolled_back = AMDX_PART_OUTCOME_ROLLED_BACK,
    unchanged = AMDX_PART_OUTCOME_UNCHANGED,
};

/// AMDX_VF_PRIO_*.
enum class VfPriority : std::uint32_t {
    low = AMDX_VF_PRIO_LOW,
    normal = AMDX_VF_PRIO_NORMAL,
    high = AMDX_VF_PRIO_HIGH,
};

/// AMDX_VF_RESET_*.
enum class VfResetOutcome : std::uint32_t {
    acked = AMDX_VF_RESET_ACKED,
    ack_timeout = AMDX_VF_RESET_ACK_TIMEOUT,
    unannounced = AMDX_VF_RESET_UNANNOUNCED, ///< events only: RAS reset, guest not asked
};

/// "online", "quarantined", "offline"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(PartitionState state) noexcept;
/// A short name: "none", "incompatible", "busy", ...; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(PartitionReason reason) noexcept;
/// "validate", "quiesce", "drain", "compute", "memory", "rebuild", "resume";
/// "none" for 0, "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(PartitionStep step) noexcept;
/// "none", "committed", "rolled_back", "unchanged"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(PartitionOutcome outcome) noexcept;
/// "low", "normal", "high"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(VfPriority priority) noexcept;
/// "acked", "ack_timeout", "unannounced"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(VfResetOutcome outcome) noexcept;
/// A sentence for operators: why the kernel refused ("the compute and memory
/// modes are incompatible on this model").
AMDX_EXPORT std::string_view reason_text(PartitionReason reason) noexcept;

/// Case-insensitive; never accept "unknown".
AMDX_EXPORT std::optional<PartitionReason> parse_partition_reason(std::string_view name) noexcept;
AMDX_EXPORT std::optional<PartitionStep> parse_partition_step(std::string_view name) noexcept;
AMDX_EXPORT std::optional<VfPriority> parse_vf_priority(std::string_view name) noexcept;

/// struct amdx_partition_info: one compute partition.
struct AMDX_EXPORT PartitionInfo {
    std::uint32_t id = 0;
    PartitionState state = PartitionState::online;
    std::uint32_t xcc_mask = 0;  ///< bit N: XCC N
    std::uint32_t sdma_mask = 0; ///< bit N: SDMA instance N
    std::uint32_t vcn_mask = 0;  ///< bit N: VCN instance N
    std::uint32_t mem_partition = 0;
    std::uint32_t vf = kVfNone; ///< the VF bound to it, or kVfNone
    std::uint32_t resets = 0;
    std::uint64_t vram_base = 0;
    std::uint64_t vram_size = 0;

    bool operator==(const PartitionInfo&) const = default;
    AMDX_LOCAL static PartitionInfo from_uapi(const amdx_partition_info& raw) noexcept;
};

/// %AMDX_QUERY_PARTITIONS.
struct Partitions {
    ComputeMode compute_mode = ComputeMode::unknown;
    MemoryMode memory_mode = MemoryMode::unknown;
    std::uint64_t generation = 0; ///< incremented by every committed change
    std::vector<PartitionInfo> partitions;
};

/// struct amdx_partition_holder: a process with data where a change lands.
struct AMDX_EXPORT PartitionHolder {
    std::uint32_t pid = 0;
    std::uint32_t mem_partition = 0;
    std::uint64_t pages = 0;
    std::string comm;

    bool operator==(const PartitionHolder&) const = default;
    AMDX_LOCAL static PartitionHolder from_uapi(const amdx_partition_holder& raw);
};

/// struct amdx_partition_step: how one commit step went.
struct PartitionStepResult {
    PartitionStep step = PartitionStep::none;
    std::int32_t error = 0; ///< 0 or a negative errno
    std::uint64_t duration_ns = 0;

    bool operator==(const PartitionStepResult&) const = default;
};

/// The inputs of %AMDX_IOC_PARTITION_PLAN and %AMDX_IOC_PARTITION_COMMIT.
struct PartitionRequest {
    std::optional<ComputeMode> compute; ///< unset: keep the current mode
    std::optional<MemoryMode> memory;   ///< unset: keep the current mode
    bool drain = false;                 ///< AMDX_PART_F_DRAIN
    std::uint32_t deadline_ms = 0;      ///< 0: AMDX_PART_DEADLINE_DEFAULT_MS
    std::uint32_t max_holders = 64;     ///< room for holders

    [[nodiscard]] amdx_partition_config to_uapi() const noexcept;
};

/// The outputs of a plan or commit.  The kernel copies them back even when
/// it refuses (EINVAL with a reason, EBUSY with holders, ETIMEDOUT, a failed
/// step's errno): then @error holds that errno.  A plan's report is its
/// value either way; a commit's is its value only when the change happened,
/// and the report() of its failure otherwise (Device::partition_commit()).
struct AMDX_EXPORT PartitionReport {
    std::error_code error; ///< the ioctl's errno; clear if it succeeded
    PartitionReason reason = PartitionReason::none;
    bool allowed = false; ///< plan: may be committed now
    PartitionOutcome outcome = PartitionOutcome::none;
    std::uint32_t num_partitions = 0;
    PartitionStep failed_step = PartitionStep::none;
    std::vector<PartitionStepResult> steps;
    std::uint64_t total_ns = 0;
    std::vector<PartitionInfo> topology; ///< the partitions after the change
    std::uint32_t num_holders = 0;       ///< holders found, may exceed holders.size()
    std::vector<PartitionHolder> holders;

    /// Decodes the outputs of @raw; @topology and @holders are the arrays
    /// the kernel filled (the first num_partitions and min(num_holders,
    /// max_holders) entries are used).
    AMDX_LOCAL static PartitionReport from_uapi(const amdx_partition_config& raw,
                                                const std::vector<amdx_partition_info>& topology,
                                                const std::vector<amdx_partition_holder>& holders);
};

/// struct amdx_vf_config: the resources of one VF.
struct AMDX_EXPORT VfConfig {
    std::uint32_t partition_mask = 0; ///< bit N: compute partition N
    std::uint32_t time_slice_us = AMDX_VF_TIME_SLICE_DEFAULT_US;
    std::uint64_t vram_quota = 0; ///< bytes, multiple of AMDX_VF_VRAM_ALIGN
    VfPriority priority = VfPriority::normal;
    std::uint32_t flags = 0; ///< AMDX_VF_F_*

    bool operator==(const VfConfig&) const = default;
    [[nodiscard]] amdx_vf_config to_uapi() const noexcept;
    AMDX_LOCAL static VfConfig from_uapi(const amdx_vf_config& raw) noexcept;
};

/// struct amdx_vf_info: one enabled VF.
struct AMDX_EXPORT VfInfo {
    std::uint32_t vf = 0;
    PartitionState state = PartitionState::online;
    VfConfig config;
    std::uint64_t vram_used = 0;
    std::uint32_t resets = 0;
    std::uint32_t resets_in_window = 0;

    bool operator==(const VfInfo&) const = default;
    AMDX_LOCAL static VfInfo from_uapi(const amdx_vf_info& raw) noexcept;
};

/// %AMDX_QUERY_VFS.
struct Vfs {
    std::uint32_t max_vfs = 0;
    std::vector<VfInfo> vfs; ///< by index
};

/// The outputs of %AMDX_IOC_VF_ENABLE; a refusal is a failed call whose
/// report() (Device::vf_enable()) has @error set.
struct VfEnableReport {
    std::error_code error;
    PartitionReason reason = PartitionReason::none;
    std::uint32_t bad_vf = kVfNone;
};

/// The fields %AMDX_IOC_VF_SET applies; unset ones keep their value.
struct AMDX_EXPORT VfSettings {
    std::optional<std::uint32_t> time_slice_us;
    std::optional<std::uint64_t> vram_quota;
    std::optional<VfPriority> priority;
    std::optional<std::uint32_t> flags; ///< AMDX_VF_F_*

    [[nodiscard]] amdx_vf_set to_uapi(std::uint32_t vf) const noexcept;
};

/// The outputs of %AMDX_IOC_VF_RESET.
struct VfResetResult {
    VfResetOutcome result = VfResetOutcome::acked;
    PartitionState state = PartitionState::online;
    std::uint64_t duration_ns = 0;
    std::uint32_t resets_in_window = 0;
    std::uint64_t vram_cleared = 0; ///< bytes of the VF's VRAM the FLR cleared
};

/// %AMDX_QUERY_RESET_SCOPE: what a device reset would reset.
struct ResetScope {
    std::uint64_t hive_id = 0;
    std::vector<std::uint32_t> devices; ///< ids, the device itself included
};

} // namespace amdx

#endif // AMDX_PARTITION_HPP
