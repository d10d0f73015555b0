// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Control (/dev/amdx) and Device (a device fd) handles.  One ioctl per call;
// every call returns a Result whose error carries the kernel's errno, the
// call and the device (ErrorContext, result.hpp).
//
// Thread safety: Control and Device are handles on a file descriptor and
// hold no other mutable state.  Their const calls may run concurrently from
// any number of threads (the kernel serialises what needs it); moving or
// destroying a handle while another thread uses it is a data race, as for
// any object.  Call results are independent values.
#ifndef AMDX_DEVICE_HPP
#define AMDX_DEVICE_HPP

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <amdx/event.hpp>
#include <amdx/export.hpp>
#include <amdx/hmm.hpp>
#include <amdx/link.hpp>
#include <amdx/partition.hpp>
#include <amdx/ras.hpp>
#include <amdx/result.hpp>
#include <amdx/types.hpp>
#include <amdx/unique_fd.hpp>
#include <linux/amdx.h>

namespace amdx {

/// Default path of the control node.
inline constexpr std::string_view kControlPath = "/dev/" AMDX_DEVICE_NAME;

/// Times a list query (devices, HMM ranges) calls again when the list grows
/// under it.
inline constexpr unsigned kMaxListAttempts = 8;

/// %AMDX_QUERY_CAPS.
struct AMDX_EXPORT Caps {
    std::uint32_t version_major = 0;
    std::uint32_t version_minor = 0;
    std::uint64_t bits = 0; ///< AMDX_CAP_* bits
    std::uint32_t num_devices = 0;

    /// True if every bit of @caps (AMDX_CAP_*) is set.
    [[nodiscard]] bool has(std::uint64_t caps) const noexcept { return (bits & caps) == caps; }
    /// AMDX_CAP_HMM_MIGRATE: the Device::hmm_* calls, migrate() and access_*().
    [[nodiscard]] bool has_hmm_migrate() const noexcept { return has(AMDX_CAP_HMM_MIGRATE); }

    AMDX_LOCAL static Caps from_uapi(const amdx_query_caps& raw) noexcept;
};

/// One entry of %AMDX_QUERY_DEVICES.
struct AMDX_EXPORT DeviceEntry {
    std::uint32_t id = 0;
    Model model = Model::unknown;
    std::string bdf;

    AMDX_LOCAL static DeviceEntry from_uapi(const amdx_device_entry& raw);
};

/// One memory (NPS) partition.
struct MemPartition {
    std::uint32_t index = 0;
    std::uint64_t base = 0;
    std::uint64_t size = 0;
    std::uint64_t free = 0;

    bool operator==(const MemPartition&) const = default;
};

/// %AMDX_QUERY_DEVICE_INFO, decoded.
struct AMDX_EXPORT DeviceInfo {
    std::uint32_t id = 0;
    Model model = Model::unknown;
    std::string bdf;
    std::string serial;
    std::string product;
    std::uint64_t hive_id = 0;
    std::uint64_t vram_size = 0;
    std::uint64_t vram_free = 0;
    std::uint32_t num_xcc = 0;
    std::uint32_t num_sdma = 0;
    std::uint32_t num_vcn = 0;
    ComputeMode compute_mode = ComputeMode::unknown;
    MemoryMode memory_mode = MemoryMode::unknown;
    std::vector<ComputeMode> supported_compute_modes; ///< ascending
    std::vector<MemoryMode> supported_memory_modes;   ///< ascending
    std::vector<MemPartition> memory_partitions;
    std::uint32_t num_vfs = 0;
    std::uint32_t max_vfs = 0;
    std::uint32_t flags = 0; ///< AMDX_DEVICE_F_*
    bool hmm = false;        ///< AMDX_DEVICE_F_HMM

    /// Decodes @raw; strings stop at the first NUL or the field's end.
    AMDX_LOCAL static DeviceInfo from_uapi(const amdx_device_info& raw);
};

/// %AMDX_QUERY_STATS: a device's cumulative counters since it registered
/// (struct amdx_device_stats has what each counts).  Amounts in bytes.
struct AMDX_EXPORT DeviceStats {
    std::uint64_t migrations_to_vram = 0; ///< AMDX_IOC_HMM_MIGRATE calls that moved to VRAM
    std::uint64_t bytes_to_vram = 0;
    std::uint64_t migrations_to_ram = 0; ///< AMDX_IOC_HMM_MIGRATE calls that moved home
    std::uint64_t bytes_to_ram = 0;
    std::uint64_t fault_migrations = 0; ///< CPU faults that moved pages home
    std::uint64_t fault_bytes = 0;
    std::uint64_t evictions = 0; ///< ranges evicted home to make room
    std::uint64_t evicted_bytes = 0;
    std::uint64_t drains = 0; ///< drain passes of partition commits that moved pages
    std::uint64_t drained_bytes = 0;
    std::uint64_t vf_flrs = 0;   ///< VF function-level resets performed
    std::uint64_t commits = 0;   ///< partition commits that committed
    std::uint64_t rollbacks = 0; ///< ... that rolled back
    std::uint64_t refusals = 0;  ///< ... that were refused
    std::uint64_t events_emitted = 0;
    std::uint64_t events_lost = 0; ///< dropped from full rings, summed over subscribers

    bool operator==(const DeviceStats&) const = default;

    AMDX_LOCAL static DeviceStats from_uapi(const amdx_device_stats& raw) noexcept;
};

/// AMDX_FW_*: a firmware of the device, as amdgpu names its ucode.
enum class FirmwareId : std::uint32_t {
    smu = AMDX_FW_SMU,
    psp_sos = AMDX_FW_PSP_SOS,
    psp_ta_ras = AMDX_FW_PSP_TA_RAS,
    psp_ta_xgmi = AMDX_FW_PSP_TA_XGMI,
    mec = AMDX_FW_MEC,
    rlc = AMDX_FW_RLC,
    sdma = AMDX_FW_SDMA,
    vcn = AMDX_FW_VCN,
};
/// "smu", "psp_sos", "psp_ta_ras", "psp_ta_xgmi", "mec", "rlc", "sdma",
/// "vcn"; "unknown" for an id from a newer kernel.
AMDX_EXPORT std::string_view to_string(FirmwareId id) noexcept;

/// One entry of %AMDX_QUERY_FIRMWARE.
struct Firmware {
    FirmwareId id = FirmwareId::smu;
    std::uint32_t instance = 0; ///< which of several (SDMA, VCN), else 0
    std::uint32_t version = 0;  ///< as the provider reads it (amdgpu's fw_version)
    std::uint32_t feature = 0;  ///< feature version, 0 where there is none
    bool operator==(const Firmware&) const = default;
};

/// %AMDX_QUERY_FIRMWARE (uapi minor 4): the driver's and the firmware's
/// versions where the provider knows them.
struct FirmwareInfo {
    std::string driver_version;   ///< amdx's module version
    std::string provider;         ///< "amdx_sim", "amdgpu"
    std::string provider_version; ///< may be empty
    std::vector<Firmware> firmware;
    bool operator==(const FirmwareInfo&) const = default;
};

/// The control node, /dev/amdx.  Thread-safe (see the top of this file).
class AMDX_EXPORT Control {
  public:
    /// Opens @path O_RDWR|O_CLOEXEC, or O_RDONLY if write access is denied
    /// (queries need no privilege), and checks that the kernel speaks this
    /// library's uapi major version: another major fails with
    /// EPROTONOSUPPORT (call "AMDX_QUERY_CAPS", the versions in the
    /// detail); a failing capability query fails with its errno (ENOTTY:
    /// not an amdx node).
    static Result<Control> open(std::string_view path = kControlPath) noexcept;
    /// Takes ownership of an already open control fd.
    static Control adopt(UniqueFd fd) noexcept;

    [[nodiscard]] BorrowedFd fd() const noexcept { return fd_.borrow(); }

    /// %AMDX_QUERY_CAPS.
    [[nodiscard]] Result<Caps> caps() const noexcept;
    /// %AMDX_QUERY_DEVICES with the two-call size protocol, stepping through
    /// the entries by the kernel's entry_size.  If the list keeps growing for
    /// kMaxListAttempts calls, fails with EAGAIN; a malformed answer (entries
    /// smaller than the first uapi version, a count beyond the size) fails
    /// with EPROTO.
    [[nodiscard]] Result<std::vector<DeviceEntry>> devices() const noexcept;
    /// %AMDX_QUERY_DEVICE_INFO for device @id.
    [[nodiscard]] Result<DeviceInfo> device_info(std::uint32_t id) const noexcept;

  private:
    explicit Control(UniqueFd fd) noexcept : fd_(std::move(fd)) {}
    UniqueFd fd_;
};

/// A device fd from %AMDX_IOC_DEVICE_OPEN; holds a reference on the device.
/// Thread-safe (see the top of this file); the HMM calls act on the address
/// space of the process, whichever thread makes them.
class AMDX_EXPORT Device {
  public:
    static Result<Device> open(const Control& control, std::uint32_t id) noexcept;

    [[nodiscard]] std::uint32_t id() const noexcept { return id_; }
    [[nodiscard]] BorrowedFd fd() const noexcept { return fd_.borrow(); }

    /// %AMDX_QUERY_DEVICE_INFO on the device fd (id 0).
    [[nodiscard]] Result<DeviceInfo> info() const noexcept;
    /// %AMDX_QUERY_STATS: the device's cumulative counters.
    [[nodiscard]] Result<DeviceStats> stats() const noexcept;
    /// %AMDX_QUERY_FIRMWARE with the two-call size protocol: the driver's
    /// and the firmware's versions.  EOPNOTSUPP from a provider that reads
    /// none; EINVAL from a module before uapi minor 4.
    [[nodiscard]] Result<FirmwareInfo> firmware() const noexcept;

    // HMM (needs Caps::has_hmm_migrate()).  The fd belongs to the address
    // space of the process that opened it: from any other these fail with
    // EBADF.  Ranges are owned by the fd; closing it (destroying the Device)
    // returns their data to system memory.

    /// %AMDX_IOC_HMM_SET_ATTR: creates, changes, splits or merges ranges.
    [[nodiscard]] Result<void> set_attr(const HmmAttr& attr) const noexcept;
    /// %AMDX_IOC_HMM_MIGRATE of [@start, @start + @size) to @dest: a memory
    /// partition index, kHmmLocSystem or kHmmLocPreferred.
    [[nodiscard]] Result<MigrateResult> migrate(std::uint64_t start, std::uint64_t size,
                                                std::uint32_t dest) const noexcept;
    /// migrate() to each range's preferred location.
    [[nodiscard]] Result<MigrateResult> prefetch(std::uint64_t start,
                                                 std::uint64_t size) const noexcept;
    /// %AMDX_IOC_HMM_ACCESS READ: the device reads @out.size() bytes at
    /// @addr into @out.  Returns the pages it had to fault in.
    [[nodiscard]] Result<std::uint64_t> access_read(std::uint64_t addr,
                                                    std::span<std::byte> out) const noexcept;
    /// %AMDX_IOC_HMM_ACCESS WRITE: the device writes @in to @addr.  Returns
    /// the pages it had to fault in.
    [[nodiscard]] Result<std::uint64_t> access_write(std::uint64_t addr,
                                                     std::span<const std::byte> in) const noexcept;
    /// %AMDX_IOC_HMM_ACCESS SNAPSHOT of @size bytes at @addr: one
    /// AMDX_HMM_SNAP_* byte per page and, if @vram_pfns, the VRAM page index
    /// of each device-local page (~0 for others).
    [[nodiscard]] Result<HmmSnapshot> access_snapshot(std::uint64_t addr, std::uint64_t size,
                                                      bool vram_pfns = false) const noexcept;
    /// %AMDX_QUERY_HMM_RANGES with the two-call size protocol; EAGAIN and
    /// EPROTO as for Control::devices().
    [[nodiscard]] Result<HmmRanges> hmm_ranges() const noexcept;

    // Partitions and SR-IOV VFs (Documentation/partition.rst).  Changes need
    // CAP_SYS_ADMIN (EPERM otherwise); queries and plans do not.

    /// %AMDX_QUERY_PARTITIONS with the two-call size protocol.
    [[nodiscard]] Result<Partitions> partitions() const noexcept;
    /// %AMDX_IOC_PARTITION_PLAN: what @req would do, changing nothing.  If
    /// more holders exist than @req.max_holders, asks once more with room
    /// for all of them.  A refusal the kernel explains (a reason, holders)
    /// is a PartitionReport with its error set.
    [[nodiscard]] Result<PartitionReport>
    partition_plan(const PartitionRequest& req) const noexcept;
    /// %AMDX_IOC_PARTITION_COMMIT: applies @req.  A value only when the
    /// change was committed or not needed (outcome committed or unchanged).
    /// Everything else fails: refusals (EINVAL with the reason in the
    /// context), holders without drain (EBUSY), a missed drain deadline
    /// (ETIMEDOUT), a failed step that rolled back (its errno, the step in
    /// the context's detail).  The kernel's report of such a failure (steps,
    /// holders; its error set) is the result's report() when the kernel
    /// wrote one.
    [[nodiscard]] Reported<PartitionReport>
    partition_commit(const PartitionRequest& req) const noexcept;
    /// %AMDX_QUERY_VFS with the two-call size protocol.
    [[nodiscard]] Result<Vfs> vfs() const noexcept;
    /// %AMDX_IOC_VF_ENABLE of @num_vfs VFs: auto-provisioned if @configs is
    /// empty, else with one config per VF (EINVAL if the counts differ).
    /// A refusal fails with the kernel's errno and reason (in the context;
    /// the refused VF in its detail), and its report() is the kernel's.
    [[nodiscard]] Reported<VfEnableReport>
    vf_enable(std::uint32_t num_vfs, std::span<const VfConfig> configs = {}) const noexcept;
    /// %AMDX_IOC_VF_DISABLE.
    [[nodiscard]] Result<void> vf_disable() const noexcept;
    /// %AMDX_IOC_VF_SET of VF @vf.
    [[nodiscard]] Result<void> vf_set(std::uint32_t vf, const VfSettings& settings) const noexcept;
    /// %AMDX_IOC_VF_RESET of VF @vf; EBUSY when the rate limit quarantined it.
    [[nodiscard]] Result<VfResetResult> vf_reset(std::uint32_t vf) const noexcept;
    /// %AMDX_QUERY_RESET_SCOPE.
    [[nodiscard]] Result<ResetScope> reset_scope() const noexcept;

    // Fabric links (Documentation/fabric.rst).

    /// %AMDX_QUERY_LINKS with the two-call size protocol: every link of the
    /// device's hive (none, with hive_id 0, outside a hive).  EINVAL from
    /// a module before uapi minor 2, which has no links.
    [[nodiscard]] Result<Links> links() const noexcept;
    /// %AMDX_IOC_RECOVERY_PLAN of @action (nullopt: the pending one) on
    /// @target, with every process it stops.
    [[nodiscard]] Result<RecoveryPlan>
    recovery_plan(const RecoveryTarget& target,
                  std::optional<RecoveryAction> action = std::nullopt) const noexcept;
    /// %AMDX_IOC_RECOVERY_RUN: a value when the action ran (its outcome and
    /// error say how); EBUSY (holders, no stop), EXDEV (other devices, no
    /// others), ENOENT (nothing pending), EOPNOTSUPP otherwise.
    [[nodiscard]] Result<RecoveryPlan> recovery_run(const RecoveryTarget& target,
                                                    std::optional<RecoveryAction> action,
                                                    RecoveryRunFlags flags) const noexcept;

    // RAS (Documentation/ras.rst).  Injection, policy changes and imports
    // need CAP_SYS_ADMIN.

    /// %AMDX_QUERY_RAS_COUNTERS with the two-call size protocol.
    [[nodiscard]] Result<RasStatus> ras_status() const noexcept;
    /// %AMDX_IOC_RAS_INJECT; returns the sequence number of the first error
    /// event.
    [[nodiscard]] Result<std::uint64_t> ras_inject(const RasInjection& inj) const noexcept;
    /// %AMDX_QUERY_RAS_POLICY.
    [[nodiscard]] Result<RasPolicy> ras_policy() const noexcept;
    /// %AMDX_IOC_RAS_SET_POLICY.
    [[nodiscard]] Result<void> ras_set_policy(const RasPolicyUpdate& update) const noexcept;
    /// %AMDX_QUERY_BADPAGES: the bad-page table as the kernel exports it
    /// (decode_badpages() parses it).
    [[nodiscard]] Result<std::vector<std::byte>> badpage_table() const noexcept;
    /// badpage_table(), decoded; EBADMSG if the kernel's table is malformed.
    [[nodiscard]] Result<std::vector<BadPage>> badpages() const noexcept;
    /// %AMDX_IOC_RAS_BADPAGES_IMPORT of a table; returns the pages newly
    /// retired.  EBADMSG for a malformed table, nothing applied.
    [[nodiscard]] Result<std::uint32_t>
    badpages_import(std::span<const std::byte> table) const noexcept;

    // Events.

    /// %AMDX_IOC_EVENT_SUBSCRIBE for the kinds in @mask (event_mask() bits,
    /// non-zero) with a ring of @ring_size records (a power of two, 0 for the
    /// default).  Needs no privilege.  Asks for struct amdx_event_v3
    /// records (AMDX_EVENT_F_SIZE_VER3: ERROR's pid, pasid, the driver's
    /// event id and its type); a module before uapi minor 10 refuses the
    /// flag with EINVAL and is asked for struct amdx_event_v2 records, one
    /// before minor 9 for struct amdx_event_v1 records, one before minor 3
    /// then for 64-byte records (no type, then no event id, then no pid).
    [[nodiscard]] Result<EventStream> subscribe(std::uint64_t mask = kEventMaskAll,
                                                std::uint32_t ring_size = 0) const noexcept;

  private:
    Device(UniqueFd fd, std::uint32_t id) noexcept : fd_(std::move(fd)), id_(id) {}
    UniqueFd fd_;
    std::uint32_t id_;
};

} // namespace amdx

#endif // AMDX_DEVICE_HPP
