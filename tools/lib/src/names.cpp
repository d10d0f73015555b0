// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Names of the partition, VF, RAS and event constants of the uapi.  The
// names are part of the CLI's JSON contract (Documentation/admin-guide/
// cli.rst): never rename one.
#include "names.hpp"

#include <array>
#include <utility>

#include <amdx/event.hpp>
#include <amdx/partition.hpp>
#include <amdx/ras.hpp>

namespace amdx {

using detail::name_of;
using detail::value_of;

namespace {

using Name = std::string_view;

constexpr std::array kStates{
    std::pair{PartitionState::online, Name("online")},
    std::pair{PartitionState::quarantined, Name("quarantined")},
    std::pair{PartitionState::offline, Name("offline")},
};

// {reason, short name, sentence}: a family of the kernel's reason codes.
template <class Reason>
struct ReasonEntry {
    Reason reason;
    Name name;
    Name text;
};

using PartReasonEntry = ReasonEntry<PartitionReason>;
using InjectReasonEntry = ReasonEntry<RasInjectReason>;

constexpr std::array kReasons{
    PartReasonEntry{PartitionReason::none, "none", "allowed"},
    PartReasonEntry{PartitionReason::bad_model, "bad_model",
                    "the device model does not support partitioning"},
    PartReasonEntry{PartitionReason::compute_unsupported, "compute_unsupported",
                    "the model does not support that compute mode"},
    PartReasonEntry{PartitionReason::memory_unsupported, "memory_unsupported",
                    "the model does not support that memory mode"},
    PartReasonEntry{PartitionReason::incompatible, "incompatible",
                    "the compute mode is incompatible with the memory mode"},
    PartReasonEntry{PartitionReason::xcc_not_divisible, "xcc_not_divisible",
                    "the XCCs do not divide evenly over the memory partitions"},
    PartReasonEntry{PartitionReason::vf_unsupported, "vf_unsupported",
                    "the model has no SR-IOV virtual functions"},
    PartReasonEntry{PartitionReason::vf_compute, "vf_compute",
                    "that VF count is not possible in the compute mode"},
    PartReasonEntry{PartitionReason::vf_memory, "vf_memory",
                    "that VF count is not possible in the memory mode"},
    PartReasonEntry{PartitionReason::vfs_enabled, "vfs_enabled",
                    "VFs are enabled; disable them first"},
    PartReasonEntry{PartitionReason::hive_memory, "hive_memory",
                    "the memory mode is hive-wide and differs from the hive's"},
    PartReasonEntry{PartitionReason::busy, "busy",
                    "processes hold memory in partitions that would change"},
    PartReasonEntry{PartitionReason::vf_provision, "vf_provision",
                    "the VF resources are invalid or do not fit"},
    PartReasonEntry{PartitionReason::partition_state, "partition_state",
                    "a partition is not online (quarantined or offline)"},
    PartReasonEntry{PartitionReason::no_vf, "no_vf", "no such VF is enabled"},
    PartReasonEntry{PartitionReason::vf_quarantined, "vf_quarantined",
                    "the VF is quarantined until VFs are disabled"},
    PartReasonEntry{
        PartitionReason::vf_reset_limit, "vf_reset_limit",
        "the VF reached its reset rate limit and is quarantined until VFs are disabled"},
};

constexpr std::array kInjectReasons{
    InjectReasonEntry{RasInjectReason::none, "none", "injected"},
    InjectReasonEntry{RasInjectReason::args, "args",
                      "flags, reason, seq or reserved fields are not zero"},
    InjectReasonEntry{RasInjectReason::block, "block", "no such RAS block"},
    InjectReasonEntry{RasInjectReason::type, "type", "no such RAS error type"},
    InjectReasonEntry{RasInjectReason::no_block, "no_block", "the device has no such block"},
    InjectReasonEntry{RasInjectReason::no_type, "no_type",
                      "the block does not report that error type on this device"},
    InjectReasonEntry{RasInjectReason::instance, "instance",
                      "the instance is not below the block's instance count"},
    InjectReasonEntry{RasInjectReason::count_range, "count_range",
                      "the count is outside 1 .. 1024"},
    InjectReasonEntry{RasInjectReason::address_block, "address_block", "only umc takes an address"},
    InjectReasonEntry{RasInjectReason::address_range, "address_range",
                      "the address is beyond the VRAM"},
    InjectReasonEntry{RasInjectReason::retired, "retired", "the address's page is retired"},
    InjectReasonEntry{RasInjectReason::no_inject, "no_inject",
                      "the device's provider cannot inject errors"},
};

constexpr std::array kSteps{
    std::pair{PartitionStep::none, Name("none")},
    std::pair{PartitionStep::validate, Name("validate")},
    std::pair{PartitionStep::quiesce, Name("quiesce")},
    std::pair{PartitionStep::drain, Name("drain")},
    std::pair{PartitionStep::compute, Name("compute")},
    std::pair{PartitionStep::memory, Name("memory")},
    std::pair{PartitionStep::rebuild, Name("rebuild")},
    std::pair{PartitionStep::resume, Name("resume")},
};

constexpr std::array kOutcomes{
    std::pair{PartitionOutcome::none, Name("none")},
    std::pair{PartitionOutcome::committed, Name("committed")},
    std::pair{PartitionOutcome::rolled_back, Name("rolled_back")},
    std::pair{PartitionOutcome::unchanged, Name("unchanged")},
};

constexpr std::array kPriorities{
    std::pair{VfPriority::low, Name("low")},
    std::pair{VfPriority::normal, Name("normal")},
    std::pair{VfPriority::high, Name("high")},
};

constexpr std::array kVfResets{
    std::pair{VfResetOutcome::acked, Name("acked")},
    std::pair{VfResetOutcome::ack_timeout, Name("ack_timeout")},
    std::pair{VfResetOutcome::unannounced, Name("unannounced")},
};

constexpr std::array kBlocks{
    std::pair{RasBlock::umc, Name("umc")},
    std::pair{RasBlock::sdma, Name("sdma")},
    std::pair{RasBlock::gfx, Name("gfx")},
    std::pair{RasBlock::mmhub, Name("mmhub")},
    std::pair{RasBlock::pcie_bif, Name("pcie_bif")},
    std::pair{RasBlock::hdp, Name("hdp")},
    std::pair{RasBlock::xgmi_wafl, Name("xgmi_wafl")},
};

constexpr std::array kTypes{
    std::pair{RasType::ce, Name("ce")},
    std::pair{RasType::ue, Name("ue")},
    std::pair{RasType::de, Name("de")},
};

constexpr std::array kCauses{
    std::pair{BadPageCause::ce, Name("ce")},
    std::pair{BadPageCause::ue, Name("ue")},
    std::pair{BadPageCause::de, Name("de")},
    std::pair{BadPageCause::import, Name("import")},
};

constexpr std::array kActions{
    std::pair{RasAction::soft_retire, Name("soft_retire")},
    std::pair{RasAction::poison_retire, Name("poison_retire")},
    std::pair{RasAction::partition_reset, Name("partition_reset")},
    std::pair{RasAction::device_reset, Name("device_reset")},
    std::pair{RasAction::link_move, Name("link_move")},
    std::pair{RasAction::link_revoke, Name("link_revoke")},
};

constexpr std::array kRecoveryActions{
    std::pair{RecoveryAction::none, Name("none")},
    std::pair{RecoveryAction::process, Name("process")},
    std::pair{RecoveryAction::queue, Name("queue")},
    std::pair{RecoveryAction::pipe, Name("pipe")},
    std::pair{RecoveryAction::partition, Name("partition")},
    std::pair{RecoveryAction::vf, Name("vf")},
    std::pair{RecoveryAction::device, Name("device")},
    std::pair{RecoveryAction::hive, Name("hive")},
    std::pair{RecoveryAction::node, Name("node")},
    std::pair{RecoveryAction::rma, Name("rma")},
};
static_assert(kRecoveryActions.size() == AMDX_RECOVER_COUNT, "a recovery action has no name");

constexpr std::array kRecoveryStates{
    std::pair{RecoveryState::none, Name("none")},
    std::pair{RecoveryState::pending, Name("pending")},
    std::pair{RecoveryState::failed, Name("failed")},
};

constexpr std::array kRecoveryFaults{
    std::pair{RecoveryFault::page_ce, Name("page_ce")},
    std::pair{RecoveryFault::poison_consumed, Name("poison_consumed")},
    std::pair{RecoveryFault::queue_hang, Name("queue_hang")},
    std::pair{RecoveryFault::engine_ue, Name("engine_ue")},
    std::pair{RecoveryFault::vf_hang, Name("vf_hang")},
    std::pair{RecoveryFault::device_ue, Name("device_ue")},
    std::pair{RecoveryFault::firmware, Name("firmware")},
    std::pair{RecoveryFault::fabric, Name("fabric")},
    std::pair{RecoveryFault::reset_failed, Name("reset_failed")},
    std::pair{RecoveryFault::board, Name("board")},
};
static_assert(kRecoveryFaults.size() == AMDX_FAULT_COUNT, "a fault has no name");

constexpr std::array kRecoverySteps{
    std::pair{RecoveryStep::pending, Name("pending")},
    std::pair{RecoveryStep::stopped, Name("stopped")},
    std::pair{RecoveryStep::ran, Name("ran")},
    std::pair{RecoveryStep::self_test, Name("self_test")},
    std::pair{RecoveryStep::cleared, Name("cleared")},
    std::pair{RecoveryStep::escalated, Name("escalated")},
    std::pair{RecoveryStep::failed, Name("failed")},
};

constexpr std::array kRecoveryOutcomes{
    std::pair{RecoveryOutcome::none, Name("none")},
    std::pair{RecoveryOutcome::cleared, Name("cleared")},
    std::pair{RecoveryOutcome::escalated, Name("escalated")},
    std::pair{RecoveryOutcome::failed, Name("failed")},
};

constexpr std::array kEventKinds{
    std::pair{EventKind::lost, Name("lost")},
    std::pair{EventKind::error, Name("error")},
    std::pair{EventKind::page_pending, Name("page_pending")},
    std::pair{EventKind::page_retired, Name("page_retired")},
    std::pair{EventKind::poison_consumed, Name("poison_consumed")},
    std::pair{EventKind::action_start, Name("action_start")},
    std::pair{EventKind::action_end, Name("action_end")},
    std::pair{EventKind::partition_quarantined, Name("partition_quarantined")},
    std::pair{EventKind::partition_restored, Name("partition_restored")},
    std::pair{EventKind::partition_offline, Name("partition_offline")},
    std::pair{EventKind::vf_reset, Name("vf_reset")},
    std::pair{EventKind::device_reset_begin, Name("device_reset_begin")},
    std::pair{EventKind::device_reset_end, Name("device_reset_end")},
    std::pair{EventKind::rma, Name("rma")},
    std::pair{EventKind::partition_switch, Name("partition_switch")},
    std::pair{EventKind::migrate, Name("migrate")},
    std::pair{EventKind::drained, Name("drained")},
    std::pair{EventKind::recovery, Name("recovery")},
    std::pair{EventKind::link, Name("link")},
};
static_assert(kEventKinds.size() == AMDX_EVENT_KIND_COUNT, "an event kind has no name");

constexpr std::array kVfResetCauses{
    std::pair{VfResetCause::flr, Name("flr")},
    std::pair{VfResetCause::ras, Name("ras")},
};

constexpr std::array kDriverEventTypes{
    std::pair{DriverEventType::none, Name("none")},
    std::pair{DriverEventType::fatal, Name("fatal")},
    std::pair{DriverEventType::poison_creation, Name("poison_creation")},
    std::pair{DriverEventType::poison_consumption, Name("poison_consumption")},
};
static_assert(kDriverEventTypes.size() == AMDX_DRIVER_EVENT_POISON_CONSUMPTION + 1,
              "a driver event type has no name");

constexpr std::array kMigrateDirections{
    std::pair{MigrateDirection::to_vram, Name("to_vram")},
    std::pair{MigrateDirection::to_system, Name("to_system")},
};
static_assert(kBlocks.size() == AMDX_RAS_BLOCK_COUNT, "a RAS block has no name");
static_assert(kTypes.size() == AMDX_RAS_TYPE_COUNT, "a RAS type has no name");
static_assert(kSteps.size() == AMDX_PART_STEP_MAX + 1, "a partition step has no name");

/// The entry of @reason in @table, or nullptr.
template <class Table, class Reason>
const ReasonEntry<Reason>* find_reason(const Table& table, Reason reason) noexcept {
    const auto* it = std::find_if(table.begin(), table.end(),
                                  [reason](const auto& e) { return e.reason == reason; });
    return it == table.end() ? nullptr : it;
}

/// The short name of @reason in @table, or "unknown".
template <class Table, class Reason>
std::string_view reason_name(const Table& table, Reason reason) noexcept {
    const auto* e = find_reason(table, reason);
    return e == nullptr ? detail::kUnknownName : e->name;
}

/// The sentence of @reason in @table.
template <class Table, class Reason>
std::string_view reason_sentence(const Table& table, Reason reason) noexcept {
    const auto* e = find_reason(table, reason);
    return e == nullptr ? "refused for a reason this amdx does not know" : e->text;
}

} // namespace

std::string_view to_string(PartitionState state) noexcept {
    return name_of(kStates, state);
}

std::string_view to_string(PartitionReason reason) noexcept {
    return reason_name(kReasons, reason);
}

std::string_view reason_text(PartitionReason reason) noexcept {
    return reason_sentence(kReasons, reason);
}

std::string_view to_string(RasInjectReason reason) noexcept {
    return reason_name(kInjectReasons, reason);
}

std::string_view reason_text(RasInjectReason reason) noexcept {
    return reason_sentence(kInjectReasons, reason);
}

std::string_view to_string(PartitionStep step) noexcept {
    return name_of(kSteps, step);
}
std::string_view to_string(PartitionOutcome outcome) noexcept {
    return name_of(kOutcomes, outcome);
}
std::string_view to_string(VfPriority priority) noexcept {
    return name_of(kPriorities, priority);
}
std::string_view to_string(VfResetOutcome outcome) noexcept {
    return name_of(kVfResets, outcome);
}
std::string_view to_string(RasBlock block) noexcept {
    return name_of(kBlocks, block);
}
std::string_view to_string(RasType type) noexcept {
    return name_of(kTypes, type);
}
std::string_view to_string(BadPageCause cause) noexcept {
    return name_of(kCauses, cause);
}
std::string_view to_string(RasAction action) noexcept {
    return name_of(kActions, action);
}
std::string_view to_string(RecoveryAction action) noexcept {
    return name_of(kRecoveryActions, action);
}
std::string_view to_string(RecoveryState state) noexcept {
    return name_of(kRecoveryStates, state);
}
std::string_view to_string(RecoveryOutcome outcome) noexcept {
    return name_of(kRecoveryOutcomes, outcome);
}
std::string_view to_string(RecoveryFault fault) noexcept {
    return name_of(kRecoveryFaults, fault);
}
std::string_view to_string(RecoveryStep step) noexcept {
    return name_of(kRecoverySteps, step);
}
std::optional<RecoveryAction> parse_recovery_action(std::string_view name) noexcept {
    const auto* it =
        std::find_if(kRecoveryActions.begin(), kRecoveryActions.end(),
                     [name](const auto& e) { return detail::iequals(e.second, name); });
    if (it == kRecoveryActions.end())
        return std::nullopt;
    return it->first;
}
std::string_view to_string(EventKind kind) noexcept {
    return name_of(kEventKinds, kind);
}
std::string_view to_string(VfResetCause cause) noexcept {
    return name_of(kVfResetCauses, cause);
}
std::string_view to_string(DriverEventType type) noexcept {
    return name_of(kDriverEventTypes, type);
}
std::string_view to_string(MigrateDirection direction) noexcept {
    return name_of(kMigrateDirections, direction);
}

std::optional<PartitionReason> parse_partition_reason(std::string_view name) noexcept {
    const auto* it = std::find_if(kReasons.begin(), kReasons.end(),
                                  [name](const auto& e) { return detail::iequals(e.name, name); });
    if (it == kReasons.end())
        return std::nullopt;
    return it->reason;
}

std::optional<PartitionStep> parse_partition_step(std::string_view name) noexcept {
    const auto step = value_of(kSteps, name);
    if (step == PartitionStep::none)
        return std::nullopt; // not a step one can name
    return step;
}

std::optional<VfPriority> parse_vf_priority(std::string_view name) noexcept {
    return value_of(kPriorities, name);
}
std::optional<RasBlock> parse_ras_block(std::string_view name) noexcept {
    return value_of(kBlocks, name);
}
std::optional<RasType> parse_ras_type(std::string_view name) noexcept {
    return value_of(kTypes, name);
}
std::optional<EventKind> parse_event_kind(std::string_view name) noexcept {
    return value_of(kEventKinds, name);
}

} // namespace amdx
