// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Typed mirrors of the uapi's RAS structures (struct amdx_ras_*), the
// bad-page table codec and CRC32.  The calls that use them are members of
// amdx::Device (device.hpp).
//
// Thread safety: plain values; the free functions are reentrant and keep
// no state.
#ifndef AMDX_RAS_HPP
#define AMDX_RAS_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <amdx/export.hpp>
#include <amdx/result.hpp>
#include <linux/amdx.h>

namespace amdx {

/// AMDX_RAS_BLOCK_* (amdgpu's names and order).
enum class RasBlock : std::uint32_t {
    umc = AMDX_RAS_BLOCK_UMC,
    sdma = AMDX_RAS_BLOCK_SDMA,
    gfx = AMDX_RAS_BLOCK_GFX,
    mmhub = AMDX_RAS_BLOCK_MMHUB,
    pcie_bif = AMDX_RAS_BLOCK_PCIE_BIF,
    hdp = AMDX_RAS_BLOCK_HDP,
    xgmi_wafl = AMDX_RAS_BLOCK_XGMI_WAFL,
};

/// AMDX_RAS_TYPE_*.
enum class RasType : std::uint32_t {
    ce = AMDX_RAS_TYPE_CE, ///< corrected
    ue = AMDX_RAS_TYPE_UE, ///< uncorrected
    de = AMDX_RAS_TYPE_DE, ///< deferred (poison)
};

/// AMDX_BADPAGE_CAUSE_*.
enum class BadPageCause : std::uint16_t {
    ce = AMDX_BADPAGE_CAUSE_CE,
    ue = AMDX_BADPAGE_CAUSE_UE,
    de = AMDX_BADPAGE_CAUSE_DE,
    import = AMDX_BADPAGE_CAUSE_IMPORT,
};

/// AMDX_ACTION_*: containment actions in ACTION_START/ACTION_END events.
enum class RasAction : std::uint32_t {
    soft_retire = AMDX_ACTION_SOFT_RETIRE,
    poison_retire = AMDX_ACTION_POISON_RETIRE,
    partition_reset = AMDX_ACTION_PARTITION_RESET,
    device_reset = AMDX_ACTION_DEVICE_RESET,
    /// What crossed a bad fabric link moved home (Documentation/fabric.rst).
    link_move = AMDX_ACTION_LINK_MOVE,
    /// A peer lost its access to what it reached across a bad link
    /// (uapi minor 5; Documentation/fabric.rst).
    link_revoke = AMDX_ACTION_LINK_REVOKE,
};

/// AMDX_RAS_INJECT_REASON_*: why %AMDX_IOC_RAS_INJECT was refused (uapi
/// minor 8; ErrorContext::reason of its failure, 0 from an older module).
enum class RasInjectReason : std::uint32_t {
    none = AMDX_RAS_INJECT_REASON_NONE,
    args = AMDX_RAS_INJECT_REASON_ARGS,                   ///< non-zero flags, reserved
    block = AMDX_RAS_INJECT_REASON_BLOCK,                 ///< no such block
    type = AMDX_RAS_INJECT_REASON_TYPE,                   ///< no such type
    no_block = AMDX_RAS_INJECT_REASON_NO_BLOCK,           ///< the device lacks the block
    no_type = AMDX_RAS_INJECT_REASON_NO_TYPE,             ///< the block lacks the type
    instance = AMDX_RAS_INJECT_REASON_INSTANCE,           ///< not below the instances
    count_range = AMDX_RAS_INJECT_REASON_COUNT_RANGE,     ///< count not 1 .. 1024
    address_block = AMDX_RAS_INJECT_REASON_ADDRESS_BLOCK, ///< an address, not umc
    address_range = AMDX_RAS_INJECT_REASON_ADDRESS_RANGE, ///< beyond the VRAM
    retired = AMDX_RAS_INJECT_REASON_RETIRED,             ///< the page is retired
    no_inject = AMDX_RAS_INJECT_REASON_NO_INJECT,         ///< the provider cannot inject
};

/// "umc", "sdma", "gfx", "mmhub", "pcie_bif", "hdp", "xgmi_wafl"; "unknown".
AMDX_EXPORT std::string_view to_string(RasBlock block) noexcept;
/// "none", "no_type", "instance", ...; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(RasInjectReason reason) noexcept;
/// A sentence for operators: why the kernel refused the injection ("the
/// block does not report that error type on this device").
AMDX_EXPORT std::string_view reason_text(RasInjectReason reason) noexcept;
/// "ce", "ue", "de"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(RasType type) noexcept;
/// "ce", "ue", "de", "import"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(BadPageCause cause) noexcept;
/// "soft_retire", "poison_retire", "partition_reset", "device_reset",
/// "link_move", "link_revoke"; "unknown".
AMDX_EXPORT std::string_view to_string(RasAction action) noexcept;

/// AMDX_RECOVER_*: recovery actions, cheapest first (Documentation/ras.rst,
/// "Recovery actions").
enum class RecoveryAction : std::uint32_t {
    none = AMDX_RECOVER_NONE,
    process = AMDX_RECOVER_PROCESS,
    queue = AMDX_RECOVER_QUEUE,
    pipe = AMDX_RECOVER_PIPE,
    partition = AMDX_RECOVER_PARTITION,
    vf = AMDX_RECOVER_VF,
    device = AMDX_RECOVER_DEVICE,
    hive = AMDX_RECOVER_HIVE,
    node = AMDX_RECOVER_NODE,
    rma = AMDX_RECOVER_RMA,
};

/// AMDX_RECOVERY_STATE_*.
enum class RecoveryState : std::uint32_t {
    none = AMDX_RECOVERY_STATE_NONE,
    pending = AMDX_RECOVERY_STATE_PENDING,
    failed = AMDX_RECOVERY_STATE_FAILED, ///< the action failed midway
};

/// AMDX_RECOVERY_OUT_*.
enum class RecoveryOutcome : std::uint32_t {
    none = AMDX_RECOVERY_OUT_NONE, ///< a plan: nothing ran
    cleared = AMDX_RECOVERY_OUT_CLEARED,
    escalated = AMDX_RECOVERY_OUT_ESCALATED,
    failed = AMDX_RECOVERY_OUT_FAILED,
};

/// AMDX_FAULT_*: what a fault left broken, which decides the action it
/// sets (RecoveryPlan::fault, events::Recovery).
enum class RecoveryFault : std::uint32_t {
    page_ce = AMDX_FAULT_PAGE_CE,
    poison_consumed = AMDX_FAULT_POISON_CONSUMED,
    queue_hang = AMDX_FAULT_QUEUE_HANG,
    engine_ue = AMDX_FAULT_ENGINE_UE,
    vf_hang = AMDX_FAULT_VF_HANG,
    device_ue = AMDX_FAULT_DEVICE_UE,
    firmware = AMDX_FAULT_FIRMWARE,
    fabric = AMDX_FAULT_FABRIC,
    reset_failed = AMDX_FAULT_RESET_FAILED,
    board = AMDX_FAULT_BOARD,
};

/// AMDX_RECOVERY_EV_*: what a RECOVERY record reports (events::Recovery).
enum class RecoveryStep : std::uint32_t {
    pending = AMDX_RECOVERY_EV_PENDING,     ///< a fault set the action
    stopped = AMDX_RECOVERY_EV_STOPPED,     ///< a run stopped the holders
    ran = AMDX_RECOVERY_EV_RAN,             ///< the action ran
    self_test = AMDX_RECOVERY_EV_SELFTEST,  ///< the post-recovery self-test
    cleared = AMDX_RECOVERY_EV_CLEARED,     ///< back to none
    escalated = AMDX_RECOVERY_EV_ESCALATED, ///< the self-test failed: the next rung
    failed = AMDX_RECOVERY_EV_FAILED,       ///< the action failed midway
};

/// "none", "process", "queue", "pipe", "partition", "vf", "device", "hive",
/// "node", "rma"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(RecoveryAction action) noexcept;
/// "none", "pending", "failed"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(RecoveryState state) noexcept;
/// "none", "cleared", "escalated", "failed"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(RecoveryOutcome outcome) noexcept;
/// "page_ce", "poison_consumed", "queue_hang", "engine_ue", "vf_hang",
/// "device_ue", "firmware", "fabric", "reset_failed", "board" (the kernel's
/// names); "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(RecoveryFault fault) noexcept;
/// "pending", "stopped", "ran", "self_test", "cleared", "escalated",
/// "failed"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(RecoveryStep step) noexcept;
/// Case-insensitive.
AMDX_EXPORT std::optional<RecoveryAction> parse_recovery_action(std::string_view name) noexcept;

/// The target of a recovery: the device, one compute partition or one VF.
struct AMDX_EXPORT RecoveryTarget {
    std::optional<std::uint32_t> partition;
    std::optional<std::uint32_t> vf;
};

/// One process an action stops (struct amdx_recovery_process).
struct AMDX_EXPORT RecoveryProcess {
    std::uint32_t pid = 0; ///< 0 when the caller may not see it
    std::uint32_t device = 0;
    std::uint32_t mem_partition = 0;
    std::uint64_t pages = 0;
    std::string comm;
};

/// %AMDX_IOC_RECOVERY_PLAN / RUN: an action, its target's state and its
/// exact scope; after a run, how it went.
struct AMDX_EXPORT RecoveryPlan {
    RecoveryAction action = RecoveryAction::none;
    RecoveryState state = RecoveryState::none;
    std::uint32_t fault = 0; ///< AMDX_FAULT_* that set the pending action
    std::uint64_t seq = 0;   ///< the event that set it, 0 for none
    std::uint64_t time_ns = 0;
    std::vector<std::uint32_t> devices; ///< ids reset, ascending
    std::vector<std::uint32_t> peers;   ///< ids draining P2P first
    /// Per device id reset: bit N its compute partition N / VF N.
    std::vector<std::pair<std::uint32_t, std::uint8_t>> partitions;
    std::vector<std::pair<std::uint32_t, std::uint8_t>> vfs;
    std::uint32_t num_partitions = 0;
    std::uint32_t num_vfs = 0;
    std::uint32_t num_processes = 0;
    std::uint32_t est_ms = 0; ///< 0xffffffff: never (rma)
    std::vector<RecoveryProcess> processes;
    RecoveryOutcome outcome = RecoveryOutcome::none;
    std::error_code error; ///< a run's action or self-test error
};

/// RUN flags.
struct AMDX_EXPORT RecoveryRunFlags {
    bool stop = false;   ///< AMDX_RECOVERY_F_STOP: kill the holders first
    bool others = false; ///< AMDX_RECOVERY_F_OTHERS: other devices may reset
};

/// Case-insensitive; never accept "unknown".
AMDX_EXPORT std::optional<RasBlock> parse_ras_block(std::string_view name) noexcept;
AMDX_EXPORT std::optional<RasType> parse_ras_type(std::string_view name) noexcept;

/// struct amdx_ras_counters.partition of device-wide totals.
inline constexpr std::uint32_t kRasPartitionAll = AMDX_RAS_PARTITION_ALL;

/// One row of %AMDX_QUERY_RAS_COUNTERS.
struct AMDX_EXPORT RasCounters {
    RasBlock block = RasBlock::umc;
    std::uint32_t partition = kRasPartitionAll; ///< or a compute partition
    std::uint32_t instances = 0;
    std::uint32_t supported = 0; ///< bit (1 << AMDX_RAS_TYPE_*)
    /// Per AMDX_RAS_TYPE_*: errors, or unset where the block does not
    /// report the type (AMDX_RAS_UNSUPPORTED), which is not zero.
    std::array<std::optional<std::uint64_t>, AMDX_RAS_TYPE_COUNT> count;

    [[nodiscard]] bool supports(RasType type) const noexcept {
        return (supported & (1U << static_cast<std::uint32_t>(type))) != 0;
    }
    bool operator==(const RasCounters&) const = default;
    AMDX_LOCAL static RasCounters from_uapi(const amdx_ras_counters& raw) noexcept;
};

/// %AMDX_QUERY_RAS_COUNTERS.
struct RasStatus {
    std::uint32_t flags = 0; ///< AMDX_RAS_F_*
    bool rma = false;        ///< AMDX_RAS_F_RMA: flagged for return
    std::uint32_t retired_pages = 0;
    std::uint32_t pending_pages = 0;
    /// Per block, the device total then one row per compute partition.
    std::vector<RasCounters> counters;
};

/// The inputs of %AMDX_IOC_RAS_INJECT.
struct AMDX_EXPORT RasInjection {
    RasBlock block = RasBlock::umc;
    RasType type = RasType::ce;
    std::uint32_t instance = 0;
    std::uint32_t count = 1;   ///< 1 .. 1024
    std::uint64_t address = 0; ///< umc: VRAM byte address; else 0

    [[nodiscard]] amdx_ras_inject to_uapi() const noexcept;
};

/// struct amdx_ras_policy as %AMDX_QUERY_RAS_POLICY reports it.
struct AMDX_EXPORT RasPolicy {
    std::uint32_t ce_page_threshold = 0;
    std::uint32_t ce_window_s = 0;
    std::int32_t bad_page_threshold = 0; ///< N, AMDX_RAS_BAD_PAGE_WARN or _AUTO
    std::uint32_t part_reset_limit = 0;
    std::uint32_t part_reset_window_s = 0;
    std::uint32_t flags = 0; ///< AMDX_RAS_POL_F_*

    bool operator==(const RasPolicy&) const = default;
    AMDX_LOCAL static RasPolicy from_uapi(const amdx_ras_policy& raw) noexcept;
};

/// The fields %AMDX_IOC_RAS_SET_POLICY changes; unset ones keep their value.
struct AMDX_EXPORT RasPolicyUpdate {
    std::optional<std::uint32_t> ce_page_threshold;
    std::optional<std::uint32_t> ce_window_s;
    std::optional<std::int32_t> bad_page_threshold;
    std::optional<std::uint32_t> part_reset_limit;
    std::optional<std::uint32_t> part_reset_window_s;
    std::optional<std::uint32_t> flags;

    [[nodiscard]] bool empty() const noexcept { return to_uapi().valid == 0; }
    [[nodiscard]] amdx_ras_policy to_uapi() const noexcept;
};

/// CRC-32 (IEEE 802.3, reflected, as zlib's crc32() and the kernel's
/// crc32_le(~0, ...) ^ ~0).  Chain calls by passing the previous result.
AMDX_EXPORT std::uint32_t crc32(std::span<const std::byte> bytes, std::uint32_t crc = 0) noexcept;

/// One record of the bad-page table (struct amdx_badpage_record).
struct BadPage {
    std::uint64_t address = 0;
    std::uint64_t time = 0; ///< CLOCK_REALTIME seconds
    std::uint32_t partition = 0;
    BadPageCause cause = BadPageCause::import;
    std::uint16_t flags = 0;

    bool operator==(const BadPage&) const = default;
};

/// The bad-page table as bytes: header (magic, version, count, record
/// size, checksum) and records, little-endian, as the uapi defines it.
AMDX_EXPORT std::vector<std::byte> encode_badpages(std::span<const BadPage> pages);

/// Parses a bad-page table.  Fails with EBADMSG when the size, magic,
/// version, record size, count or checksum is wrong (as the kernel's import
/// does) and, if @why is given, says which and what was found.
AMDX_EXPORT Result<std::vector<BadPage>> decode_badpages(std::span<const std::byte> bytes,
                                                         std::string* why = nullptr);

} // namespace amdx

#endif // AMDX_RAS_HPP
