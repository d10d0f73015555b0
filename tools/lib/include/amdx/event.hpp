// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The event log: Device::subscribe() (device.hpp) returns an EventStream
// owning the event fd of %AMDX_IOC_EVENT_SUBSCRIBE.  Records are read in
// batches; a subscriber that fell behind receives a LOST record carrying
// the number of records it missed.
//
//   EventStream          amdx.ko
//   wait(timeout)  --->  poll: EPOLLIN when a record waits
//   read(max)      --->  read(): whole struct amdx_event records
#ifndef AMDX_EVENT_HPP
#define AMDX_EVENT_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>
#include <vector>

#include <amdx/export.hpp>
#include <amdx/link.hpp>
#include <amdx/partition.hpp>
#include <amdx/ras.hpp>
#include <amdx/result.hpp>
#include <amdx/unique_fd.hpp>
#include <linux/amdx.h>

namespace amdx {

/// AMDX_EVENT_*.
enum class EventKind : std::uint16_t {
    lost = AMDX_EVENT_LOST,
    error = AMDX_EVENT_ERROR,
    page_pending = AMDX_EVENT_PAGE_PENDING,
    page_retired = AMDX_EVENT_PAGE_RETIRED,
    poison_consumed = AMDX_EVENT_POISON_CONSUMED,
    action_start = AMDX_EVENT_ACTION_START,
    action_end = AMDX_EVENT_ACTION_END,
    partition_quarantined = AMDX_EVENT_PARTITION_QUARANTINED,
    partition_restored = AMDX_EVENT_PARTITION_RESTORED,
    partition_offline = AMDX_EVENT_PARTITION_OFFLINE,
    vf_reset = AMDX_EVENT_VF_RESET,
    device_reset_begin = AMDX_EVENT_DEVICE_RESET_BEGIN,
    device_reset_end = AMDX_EVENT_DEVICE_RESET_END,
    rma = AMDX_EVENT_RMA,
    partition_switch = AMDX_EVENT_PARTITION_SWITCH,
    migrate = AMDX_EVENT_MIGRATE,
    drained = AMDX_EVENT_DRAINED,
    recovery = AMDX_EVENT_RECOVERY,
    link = AMDX_EVENT_LINK,
};

/// The kind's name in lower case ("lost", "error", "page_retired", ...);
/// "unknown" for kinds this library does not know.
AMDX_EXPORT std::string_view to_string(EventKind kind) noexcept;
/// Case-insensitive; never accepts "unknown".
AMDX_EXPORT std::optional<EventKind> parse_event_kind(std::string_view name) noexcept;

/// The subscription mask bit of @kind.
[[nodiscard]] constexpr std::uint64_t event_mask(EventKind kind) noexcept {
    return std::uint64_t{1} << static_cast<unsigned>(kind);
}
/// Every kind this library knows.
inline constexpr std::uint64_t kEventMaskAll = AMDX_EVENT_MASK_ALL;

/// One struct amdx_event_v3 (struct amdx_event and, from uapi minor 3,
/// pid and pasid, from minor 9 driver_event, from minor 10
/// driver_event_type); the meaning of block .. data depends on @kind (see
/// the uapi).  Known-size prefix of a longer record from a newer kernel.
struct AMDX_EXPORT Event {
    std::uint64_t seq = 0;
    std::uint64_t timestamp_ns = 0; ///< CLOCK_MONOTONIC
    EventKind kind = EventKind::lost;
    std::uint16_t size = 0; ///< record size as the kernel wrote it
    std::uint32_t device = 0;
    std::uint32_t block = 0;
    std::uint32_t type = 0;
    std::uint32_t instance = 0;
    std::uint32_t partition = AMDX_RAS_PARTITION_ALL;
    std::uint64_t address = 0;
    std::uint64_t data[2] = {0, 0};
    /// ERROR: the process that consumed the error and its PASID (struct
    /// amdx_event_v1); 0 when the record names none, the kernel is older
    /// than uapi minor 3 (64-byte records) or the pid rule hides it.
    std::uint32_t pid = 0;
    std::uint32_t pasid = 0;
    /// ERROR: the device driver's own id of the RAS event the error belongs
    /// to (struct amdx_event_v2; amdgpu: the "{id}" of its kernel log
    /// lines); 0 for none or from a kernel older than uapi minor 9.
    std::uint64_t driver_event = 0;
    /// ERROR: that event's type, AMDX_DRIVER_EVENT_* (struct amdx_event_v3,
    /// DriverEventType); 0 (none) for none or from a kernel older than uapi
    /// minor 10.
    std::uint32_t driver_event_type = 0;

    bool operator==(const Event&) const = default;
    AMDX_LOCAL static Event from_uapi(const amdx_event& raw) noexcept;
    AMDX_LOCAL static Event from_uapi(const amdx_event_v1& raw) noexcept;
    AMDX_LOCAL static Event from_uapi(const amdx_event_v2& raw) noexcept;
    AMDX_LOCAL static Event from_uapi(const amdx_event_v3& raw) noexcept;
};

/// AMDX_DRIVER_EVENT_*: what the device driver's RAS event an error belongs
/// to was (uapi minor 10).
enum class DriverEventType : std::uint32_t {
    none = AMDX_DRIVER_EVENT_NONE,                             ///< no event
    fatal = AMDX_DRIVER_EVENT_FATAL,                           ///< the device is reset
    poison_creation = AMDX_DRIVER_EVENT_POISON_CREATION,       ///< a poison stored
    poison_consumption = AMDX_DRIVER_EVENT_POISON_CONSUMPTION, ///< a poison read
};
/// "none", "fatal", "poison_creation", "poison_consumption"; "unknown"
/// otherwise.
AMDX_EXPORT std::string_view to_string(DriverEventType type) noexcept;

/// AMDX_VF_RESET_CAUSE_*: what reset a VF.
enum class VfResetCause : std::uint32_t {
    flr = AMDX_VF_RESET_CAUSE_FLR, ///< %AMDX_IOC_VF_RESET
    ras = AMDX_VF_RESET_CAUSE_RAS, ///< RAS reset its partition
};
/// "flr", "ras"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(VfResetCause cause) noexcept;

/// The direction of an HMM migration (AMDX_EVENT_MIGRATE.type).
enum class MigrateDirection : std::uint32_t {
    to_vram = 0,
    to_system = 1,
};
/// "to_vram", "to_system"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(MigrateDirection direction) noexcept;

/// The records of the event log, one struct per kind, decoded from struct
/// amdx_event as the uapi's AMDX_EVENT_* comment defines each field.
/// Partitions are unset where the record names none (AMDX_RAS_PARTITION_ALL);
/// results are empty or the errno the kernel reported.
namespace events {

/// LOST: the subscriber's ring overflowed.
struct Lost {
    std::uint64_t first_seq = 0; ///< seq of the first record missed
    std::uint64_t missed = 0;    ///< records missed
    std::uint64_t last_seq = 0;  ///< seq of the last one missed
    bool operator==(const Lost&) const = default;
};
/// ERROR: a hardware error report.
struct Error {
    RasBlock block = RasBlock::umc;
    RasType type = RasType::ce;
    std::uint32_t instance = 0;
    std::optional<std::uint32_t> partition;
    std::uint64_t address = 0; ///< umc: VRAM byte address
    std::uint64_t count = 0;   ///< errors reported
    /// The process that consumed the error (uapi minor 3: the amdgpu
    /// provider's KFD poison consumption, amdx_sim's gfx/sdma UE injector)
    /// and its PASID on the device; 0 when unknown or hidden by the pid rule
    /// (Documentation/events.rst).
    std::uint32_t pid = 0;
    std::uint32_t pasid = 0;
    /// The driver's id of the RAS event the error belongs to (uapi minor 9;
    /// amdgpu: the "{id}" its kernel log prints); 0 for none.
    std::uint64_t driver_event = 0;
    /// That event's type (uapi minor 10); none for none.
    DriverEventType driver_event_type = DriverEventType::none;
    bool operator==(const Error&) const = default;
};
/// PAGE_PENDING: a page waits for retirement.
struct PagePending {
    std::optional<std::uint32_t> partition;
    std::uint64_t address = 0;
    bool operator==(const PagePending&) const = default;
};
/// PAGE_RETIRED.
struct PageRetired {
    std::optional<std::uint32_t> partition;
    std::uint64_t address = 0;
    BadPageCause cause = BadPageCause::ce;
    std::uint64_t moved_pages = 0; ///< pages of process data moved off it
    bool operator==(const PageRetired&) const = default;
};
/// POISON_CONSUMED.
struct PoisonConsumed {
    std::optional<std::uint32_t> partition;
    std::uint64_t address = 0;
    std::uint32_t pid = 0; ///< the consumer
    bool operator==(const PoisonConsumed&) const = default;
};
/// ACTION_START: a containment action begins.
struct ActionStart {
    std::optional<std::uint32_t> partition;
    RasAction action = RasAction::soft_retire;
    bool operator==(const ActionStart&) const = default;
};
/// ACTION_END: how it went.
struct ActionEnd {
    std::optional<std::uint32_t> partition;
    RasAction action = RasAction::soft_retire;
    std::error_code result; ///< empty: it worked
    std::uint64_t duration_ns = 0;
    bool operator==(const ActionEnd&) const = default;
};
/// PARTITION_QUARANTINED.
struct PartitionQuarantined {
    std::uint32_t partition = 0;
    bool operator==(const PartitionQuarantined&) const = default;
};
/// PARTITION_RESTORED.
struct PartitionRestored {
    std::uint32_t partition = 0;
    bool operator==(const PartitionRestored&) const = default;
};
/// PARTITION_OFFLINE.
struct PartitionOffline {
    std::uint32_t partition = 0;
    bool operator==(const PartitionOffline&) const = default;
};
/// VF_RESET.
struct VfReset {
    std::uint32_t vf = 0;
    VfResetCause cause = VfResetCause::flr;
    std::optional<std::uint32_t> partition; ///< RAS: the compute partition reset
    VfResetOutcome result = VfResetOutcome::acked;
    PartitionState state = PartitionState::online; ///< the VF's, afterwards
    std::uint64_t vram_cleared = 0;                ///< FLR: bytes of the VF's VRAM cleared
    bool operator==(const VfReset&) const = default;
};
/// DEVICE_RESET_BEGIN.
struct DeviceResetBegin {
    std::vector<std::uint32_t> devices; ///< ids of the devices affected, ascending
    bool operator==(const DeviceResetBegin&) const = default;
};
/// DEVICE_RESET_END.
struct DeviceResetEnd {
    std::error_code result;
    bool operator==(const DeviceResetEnd&) const = default;
};
/// RMA: the device reached its bad-page threshold.
struct Rma {
    std::uint64_t retired_pages = 0;
    bool operator==(const Rma&) const = default;
};
/// PARTITION_SWITCH: one step of a partition commit.
struct PartitionSwitch {
    PartitionStep step = PartitionStep::none;
    std::error_code result;
    std::uint64_t duration_ns = 0;
    bool operator==(const PartitionSwitch&) const = default;
};
/// MIGRATE: an HMM migration.
struct Migrate {
    MigrateDirection direction = MigrateDirection::to_vram;
    std::uint32_t pid = 0;
    std::uint64_t pages = 0;
    bool operator==(const Migrate&) const = default;
};
/// DRAINED: a partition switch moved a holder's data home.
struct Drained {
    std::uint32_t partition = 0; ///< the memory partition
    std::uint32_t pid = 0;
    std::uint64_t pages = 0; ///< its pages there before the drain
    bool operator==(const Drained&) const = default;
};
/// A kind from a newer kernel: the record as it came.
struct Unknown {
    Event raw;
    bool operator==(const Unknown&) const = default;
};
/// LINK (uapi minor 2): a fabric link of the device's hive changed state;
/// both ends' devices receive it (Documentation/fabric.rst).
struct Link {
    std::uint32_t link = 0;                   ///< its index in the hive's list (Device::links())
    std::uint32_t peer = 0;                   ///< the device at its other end
    LinkState state = LinkState::up;          ///< now
    LinkState previous_state = LinkState::up; ///< before the change
    LinkContain contain = LinkContain::none;  ///< the containment its state asks for
    std::uint32_t hops = 0;                   ///< hops between its ends now; 0: no route is left
    bool operator==(const Link&) const = default;
};

/// RECOVERY (uapi minor 1): a target's pending recovery action changed
/// (Documentation/ras.rst, "Recovery actions"), one record per step.
struct Recovery {
    RecoveryStep step = RecoveryStep::pending;
    RecoveryFault fault = RecoveryFault::page_ce; ///< the fault that set the action
    std::optional<std::uint32_t> partition;       ///< the target: a compute partition,
    std::optional<std::uint32_t> vf;              ///< a VF, or (neither) the device
    /// The action the step is about, as the kernel's scope summary names
    /// it (AMDX_RECOVERY_SUM_ACTION): pending, escalated, failed: the one
    /// now pending; ran, self_test: the one run; stopped, cleared: none.
    RecoveryAction action = RecoveryAction::none;
    /// Its scope (AMDX_RECOVERY_SUM_*): devices, compute partitions and VFs
    /// it resets, processes it stops (saturated at 0xffff).
    std::uint32_t num_devices = 0;
    std::uint32_t num_partitions = 0;
    std::uint32_t num_vfs = 0;
    std::uint32_t num_processes = 0;
    std::uint32_t stopped = 0; ///< stopped: the processes stopped
    /// pending: the action's estimated time; unset for never (rma).
    std::optional<std::uint32_t> estimate_ms;
    /// The seq of the record that set the action (the fault's, or this
    /// record's own when the fault has no other).
    std::uint64_t cause_seq = 0;
    /// ran, self_test, cleared, escalated, failed: empty, or the errno the
    /// action or its self-test failed with.
    std::error_code result;
    bool operator==(const Recovery&) const = default;
};

} // namespace events

/// One decoded record: the common fields and the kind's struct.
struct TypedEvent {
    using Data =
        std::variant<events::Lost, events::Error, events::PagePending, events::PageRetired,
                     events::PoisonConsumed, events::ActionStart, events::ActionEnd,
                     events::PartitionQuarantined, events::PartitionRestored,
                     events::PartitionOffline, events::VfReset, events::DeviceResetBegin,
                     events::DeviceResetEnd, events::Rma, events::PartitionSwitch, events::Migrate,
                     events::Drained, events::Unknown, events::Link, events::Recovery>;

    std::uint64_t seq = 0;
    std::uint64_t timestamp_ns = 0; ///< CLOCK_MONOTONIC
    std::uint32_t device = 0;
    EventKind kind = EventKind::lost;
    Data data;

    /// The kind's struct, or nullptr for another kind.
    template <class T>
    [[nodiscard]] const T* get() const noexcept {
        return std::get_if<T>(&data);
    }
    bool operator==(const TypedEvent&) const = default;
};

/// Decodes @raw by its kind (events::Unknown for kinds this library does
/// not know).
AMDX_EXPORT TypedEvent decode(const Event& raw);

/// One field of a rendered record: its name and its value (a number, a
/// name, or a list of numbers).
struct AMDX_EXPORT EventField {
    using Value = std::variant<std::uint64_t, std::string, std::vector<std::uint64_t>>;
    std::string_view name; ///< a string literal
    Value value;
    bool operator==(const EventField&) const = default;
};

/// The one rendering of a record, shared by `amdx monitor`, amdx-eventd,
/// the exporter and the Python module: device, seq, timestamp_ns, kind,
/// then the kind's fields in the order Documentation/admin-guide/cli.rst
/// gives them (`amdx monitor -j` writes one JSON object of exactly these).
/// A partition the record does not name is left out; a result is "ok" or
/// the errno's name (errno_name()); a kind from a newer kernel gives
/// kind_id and its raw fields.
AMDX_EXPORT std::vector<EventField> event_fields(const TypedEvent& ev);

/// "ok" for an empty @ec, else the errno's name ("EIO"; "errno N" for one
/// without a name).
AMDX_EXPORT std::string errno_name(std::error_code ec);

/// The event fd of one subscription; move-only, closed on destruction.
/// The fd is always O_CLOEXEC and O_NONBLOCK; it may be added to an epoll
/// set by the caller (fd()).
///
/// Thread safety: wait() may run in several threads, but each record goes
/// to exactly one read(): readers in several threads share the stream's
/// records between them, in no defined order.  One reader thread per
/// stream (or one subscription per thread) keeps the order.
class AMDX_EXPORT EventStream {
  public:
    /// Takes ownership of an event fd of device @device.
    static EventStream adopt(UniqueFd fd, std::uint32_t device = kNoDevice) noexcept {
        return {std::move(fd), device};
    }

    [[nodiscard]] BorrowedFd fd() const noexcept { return fd_.borrow(); }
    /// The device subscribed to, kNoDevice if adopt() was not told.
    [[nodiscard]] std::uint32_t device() const noexcept { return device_; }

    /// Waits until a record is waiting: true, or false once @timeout_ms
    /// passed (negative: no limit).  Restarts after signals with the time
    /// left.  A hang-up (the device went away) counts as readable: the next
    /// read() reports it.
    [[nodiscard]] Result<bool> wait(int timeout_ms) const noexcept;

    /// Reads the records waiting, at most @max (>= 1), in one read(2), and
    /// appends them to @out.  Returns how many were appended: 0 if none was
    /// waiting.  ENODEV when the device went away (also on end of file);
    /// EPROTO for a record shorter than struct amdx_event's first version or
    /// running past what read() returned.  Records are stepped by their
    /// size: 64 bytes, 72 (struct amdx_event_v1), 80 (struct amdx_event_v2)
    /// or 88 (struct amdx_event_v3), as the kernel took subscribe()'s flag.
    [[nodiscard]] Result<std::size_t> read(std::vector<Event>& out,
                                           std::size_t max = 64) const noexcept;

    /// read(), decoded: appends TypedEvents to @out.
    [[nodiscard]] Result<std::size_t> read(std::vector<TypedEvent>& out,
                                           std::size_t max = 64) const noexcept;

    /// wait() then read(): up to @max records, empty on timeout.
    [[nodiscard]] Result<std::vector<Event>> next(int timeout_ms,
                                                  std::size_t max = 64) const noexcept;
    /// next(), decoded.
    [[nodiscard]] Result<std::vector<TypedEvent>> next_typed(int timeout_ms,
                                                             std::size_t max = 64) const noexcept;

  private:
    EventStream(UniqueFd fd, std::uint32_t device) noexcept : fd_(std::move(fd)), device_(device) {}
    UniqueFd fd_;
    std::uint32_t device_;
};

} // namespace amdx

#endif // AMDX_EVENT_HPP
