// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The fleet commands: `amdx exporter` (Prometheus metrics, exporter.cpp),
// `amdx health` (node health verdicts, health.cpp) and `amdx partition
// export` (Kubernetes DRA ResourceSlices and Slurm gres.conf lines,
// partition_export.cpp).  All three read one Snapshot per device
// (snapshot.cpp): a bounded number of queries, whatever the number of
// partitions, VFs or retired pages.
//
//   amdx                              amdx.ko
//   QUERY_DEVICES             -->     the device list
//   per device: DEVICE_OPEN,  -->     info, partitions, VFs, RAS counters,
//     6 queries (2-call)              RAS policy, bad-page table, counters
//   render                    <--     one MetricFamily vector / verdicts
#ifndef AMDX_FLEET_HPP
#define AMDX_FLEET_HPP

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <prometheus/metric_family.h>
#include <string>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "health_state.hpp"

namespace amdx::cli {

enum class Verdict { healthy, degraded, unhealthy };

/// One target's pending recovery action (Device::recovery_plan() of the
/// pending action): the device's own, a compute partition's or a VF's.
struct TargetRecovery {
    std::optional<std::uint32_t> partition; ///< set for a compute partition
    std::optional<std::uint32_t> vf;        ///< set for a VF
    RecoveryAction action = RecoveryAction::none;
    RecoveryState state = RecoveryState::none;
    std::uint32_t fault = 0; ///< AMDX_FAULT_* that set it
    std::uint64_t seq = 0;   ///< the event that set it, 0 for none
    std::uint32_t est_ms = 0;
};

/// The pending actions of @device's targets: the device's, then each
/// partition's of @parts, then each VF's of @vfs (one RECOVERY_PLAN each);
/// empty when the module has no AMDX_IOC_RECOVERY_PLAN (before uapi
/// minor 1).  ENOENT from a plan is "none".  @what names a failed step.
[[nodiscard]] Result<std::vector<TargetRecovery>>
read_recovery(const Device& device, const Partitions& parts, const Vfs& vfs, std::string& what);

/// The health verdict a target's recovery state stands for (health.rst):
/// none healthy; a process restart degraded; any reset or wider, or an
/// action that failed midway, unhealthy.
[[nodiscard]] Verdict recovery_verdict(const TargetRecovery& r);

/// One device's state as one collection read it.
struct Snapshot {
    DeviceInfo info;
    Partitions partitions;
    Vfs vfs;
    RasStatus ras;
    RasPolicy policy;
    std::vector<BadPage> badpages;
    DeviceStats stats;                    ///< the kernel's cumulative counters (AMDX_QUERY_STATS)
    std::vector<TargetRecovery> recovery; ///< read_recovery()
    Links links; ///< the links of its hive; none from a module before uapi minor 2
    /// Driver and firmware versions; none from a provider that reads none
    /// or a module before uapi minor 4.
    std::optional<FirmwareInfo> firmware;
};

/// Every device's snapshot, in id order.  A device removed while it is read
/// is left out; any other failure is the error, with @what naming the step
/// ("device 3 RAS counters").
[[nodiscard]] Result<std::vector<Snapshot>> collect(const Control& control, std::string& what);

/// What the exporter's own subscription saw of the event log since it
/// subscribed (exporter modes that keep running: --listen, --interval):
/// records by kind, counted from the exporter's start (a counter reset to
/// Prometheus when it restarts).  Totals the kernel keeps (migrations,
/// commits, FLRs, records emitted and lost) come from Snapshot::stats.
struct EventTally {
    std::array<std::uint64_t, AMDX_EVENT_KIND_COUNT> kinds{}; ///< records by kind
    std::uint64_t lost = 0;                                   ///< records the subscription missed
    std::uint64_t last_seq = 0;                               ///< the newest seq seen
    /// Recovery runs by the action run and its outcome (RecoveryOutcome:
    /// cleared, escalated, failed), from RECOVERY records: a SELFTEST
    /// record ends a run that completed, a FAILED record one that did not.
    std::array<std::array<std::uint64_t, 4>, AMDX_RECOVER_COUNT> recoveries{};
};

/// Event tallies per device id, shared by the event thread and scrapes.
class EventTallies {
  public:
    void add(const Event& ev);
    [[nodiscard]] std::map<std::uint32_t, EventTally> get() const;

  private:
    mutable std::mutex lock_;
    std::map<std::uint32_t, EventTally> by_device_;
};

/// The metrics of @snaps, in the contract of Documentation/admin-guide/
/// metrics.rst.  @tallies adds the event-derived counters when given;
/// @collect_seconds (if set) the collection's duration.
[[nodiscard]] std::vector<prometheus::MetricFamily>
to_metrics(const std::vector<Snapshot>& snaps, const std::string& hostname,
           const std::map<std::uint32_t, EventTally>* tallies,
           std::optional<double> collect_seconds);

/// The Prometheus text exposition of @families.
[[nodiscard]] std::string to_text(const std::vector<prometheus::MetricFamily>& families);

/// This host's name (the `hostname` label).
[[nodiscard]] std::string host_name();
/// @s in lower case (ASCII).
[[nodiscard]] std::string lower(std::string_view s);

// ---- health (health.cpp)

/// "healthy", "degraded", "unhealthy".
[[nodiscard]] std::string_view to_string(Verdict v);

/// Parses JSON lines of @in (unknown or malformed lines are skipped and
/// counted in @skipped).
[[nodiscard]] std::vector<JournalRecord> read_journal(std::istream& in, std::size_t& skipped);

/// The journal files amdx-eventd rotates, oldest first: FILE.N .. FILE.1
/// (those that exist, N at most 64), then FILE.
[[nodiscard]] std::vector<std::string> journal_files(const std::string& path);

/// What the health rules need of a journal: per device, kind and partition
/// the newest record (HealthFold), which decides every rule exactly as the
/// whole journal would.  Its size is bounded by the devices and
/// partitions, not by the journal's.  It is amdx-eventd's state file
/// (health_state_path(): the fold of every record it wrote, rotated away
/// or not) with the newest @window bytes of the journal files over it
/// (records eventd wrote after the state, and journals no eventd keeps a
/// state of); a run's time is bounded by the window.
struct HealthJournal {
    std::vector<JournalRecord> records; ///< the newest per key
    std::size_t read = 0;               ///< records read in the window
    std::size_t skipped = 0;            ///< lines that are not records
    std::size_t files = 0;              ///< journal files that existed
    int error = 0;                      ///< errno of opening FILE itself, 0 if it opened
    std::uint64_t bytes = 0;            ///< bytes read, at most the window
    bool truncated = false;             ///< older bytes than the window's were not read
    std::optional<std::uint64_t> oldest_realtime_ns; ///< of the records read
    std::string state_path;                          ///< health_state_path() of the journal
    HealthStateRead state; ///< ok: the records older than the window are in the state
};

/// The default journal window of `amdx health` (--journal-window, MiB).
inline constexpr std::uint64_t kHealthJournalWindowMiB = 16;

/// Reads the state file of @path and the newest @window bytes of the
/// journal files of @path (journal_files(), newest first) into a
/// HealthJournal: the window's newest record of a key over the state's.
[[nodiscard]] HealthJournal
read_health_journal(const std::string& path, std::uint64_t window = kHealthJournalWindowMiB << 20);

/// The knobs of the health rules.
struct HealthRules {
    std::uint64_t ue_age_s = 3600; ///< an uncorrected error older than this, not repeated, is stale
    unsigned retired_warn_pct = 90; ///< retired pages at this % of bad_page_threshold: degraded
    std::uint64_t now_mono_ns = 0;  ///< CLOCK_MONOTONIC now (0: read the clock)
    std::uint64_t now_real_ns = 0;  ///< CLOCK_REALTIME now (0: read the clock)
    /// This boot's boot_id: a failed device reset journaled in another
    /// boot no longer counts (the device was initialised again); "": every
    /// one counts.
    std::string boot_id;
};

/// One verdict with its cause, the record it rests on and its clearing rule.
struct Finding {
    Verdict verdict = Verdict::healthy;
    std::string cause;  ///< "" when healthy
    std::string clears; ///< the rule that clears it
    std::optional<std::uint64_t> seq;
    std::optional<std::uint64_t> timestamp_ns;
    std::optional<std::string> action; ///< the recovery action to take, if one is pending
};

struct PartitionHealth {
    std::uint32_t id = 0;
    std::vector<Finding> findings; ///< empty: healthy
    [[nodiscard]] Verdict verdict() const;
};

struct DeviceHealth {
    std::uint32_t id = 0;
    std::string bdf;
    std::string serial;
    std::vector<Finding> findings; ///< device-wide
    std::vector<PartitionHealth> partitions;
    /// The worst of the device's and its partitions' findings.
    [[nodiscard]] Verdict verdict() const;
};

/// The verdicts of @snap from its state and @journal's records of it.
[[nodiscard]] DeviceHealth evaluate(const Snapshot& snap, const std::vector<JournalRecord>& journal,
                                    const HealthRules& rules);
[[nodiscard]] Json health_to_json(const DeviceHealth& h);
/// The problem of a journal window (@window_mib, --journal-window) that
/// left older bytes unread and does not reach back @rules.ue_age_s from
/// @rules.now_real_ns (0: the clock), without a state file to hold what is
/// older: an older uncorrected error may not be seen.  nullopt when @hj's
/// state was read, or its window read whole or reaches back far enough.
[[nodiscard]] std::optional<std::string>
journal_window_problem(const HealthJournal& hj, std::uint64_t window_mib, const HealthRules& rules);

// ---- partition export (partition_export.cpp)

/// A partition profile: the compute partitions one compute mode gives in
/// the device's current memory mode, from the kernel's plan (what-if).
struct Profile {
    ComputeMode compute = ComputeMode::unknown;
    MemoryMode memory = MemoryMode::unknown;
    std::vector<PartitionInfo> topology;
    std::uint64_t generation = 0; ///< the device's partition generation when read
    bool current = false;         ///< the device's current compute mode
};

/// The profiles of @device: every supported compute mode the kernel would
/// accept with the current memory mode.
[[nodiscard]] Result<std::vector<Profile>> profiles(const Device& device, const DeviceInfo& info);
/// Why @name is not a Kubernetes DNS subdomain (RFC 1123, at most @max
/// characters), or empty if it is one.
[[nodiscard]] std::string dns_subdomain_error(std::string_view name, std::size_t max);
/// The PCIe root complex of the PCI device @bdf as the attribute
/// resource.kubernetes.io/pcieRoot names it ("pci0000:00": the first
/// component of its device path under @sysfs/devices, which
/// @sysfs/bus/pci/devices/@bdf links to), or empty when @sysfs does not
/// have the device (a simulated one).
[[nodiscard]] std::string pcie_root(const std::string& sysfs, const std::string& bdf);
/// The KEP-4815 ResourceSlices of one device (@node and @driver checked
/// by dns_subdomain_error()): its partitions of @profs and its VFs of
/// @vfs (their PCI addresses and the PCIe root from @sysfs); the pending
/// actions of @recovery (read_recovery()) taint the entries they take
/// down (KEP-5055).
[[nodiscard]] Json dra_slice(const DeviceInfo& info, const std::vector<Profile>& profs,
                             const std::string& node, const std::string& driver,
                             const std::vector<TargetRecovery>& recovery = {}, const Vfs& vfs = {},
                             const std::string& sysfs = "/sys");
/// The KEP-5055 device taint of @r under @driver ("DRIVER/recovery", the
/// action as its value): effect None for a process restart, NoSchedule
/// for a pending reset, NoExecute for a reboot, an RMA or an action that
/// failed midway; null when nothing is pending.
[[nodiscard]] Json recovery_taint(const TargetRecovery& r, const std::string& driver);
/// gres.conf lines of one device (its current partitions), each with
/// the device file of @files[partition id] as File= when it is known.
[[nodiscard]] std::string slurm_gres(const DeviceInfo& info, const Partitions& parts,
                                     const std::string& node,
                                     const std::vector<std::string>& files = {});
/// The device file of each partition by id: @pattern with {device} and
/// {partition} replaced when given; else the render node amdgpu gives
/// each partition (identify(): the KFD node's drm_render_minor), or the
/// device's render node when it has one partition; "" when unknown.
[[nodiscard]] std::vector<std::string>
partition_files(const DeviceInfo& info, const Partitions& parts, const std::string& pattern);

/// `amdx exporter`, `amdx health`, `amdx partition export` and
/// `amdx monitor --from-journal`.
class FleetCommands {
  public:
    explicit FleetCommands(CLI::App& app);
    [[nodiscard]] bool parsed() const;
    int run(const Options& opts, std::ostream& out, std::ostream& err) const;

  private:
    int exporter(const Options& opts, std::ostream& out, std::ostream& err) const;
    int health(const Options& opts, std::ostream& out, std::ostream& err) const;
    int partition_export(const Options& opts, std::ostream& out, std::ostream& err) const;
    int replay(const Options& opts, const std::vector<std::string>& devs, std::ostream& out,
               std::ostream& err) const;

    CLI::App* exporter_;
    CLI::App* health_;
    CLI::App* export_ = nullptr;
    CLI::App* monitor_ = nullptr;
    CLI::Option* from_journal_ = nullptr;
    CLI::Option* since_opt_ = nullptr;
    CLI::Option* health_journal_ = nullptr;
    // exporter
    std::string textfile_ = "/var/lib/prometheus/node-exporter/amdx.prom";
    std::string listen_;
    double interval_s_ = 0;
    std::uint64_t iterations_ = 0;
    // health
    std::string health_dev_ = "all";
    std::string journal_ = "/var/log/amdx/events.jsonl";
    std::uint64_t ue_age_s_ = 3600;
    std::uint64_t journal_window_mib_ = kHealthJournalWindowMiB;
    bool strict_ = false;
    // partition export
    std::string export_dev_ = "all";
    std::string format_ = "dra";
    std::string node_;
    std::string driver_ = "gpu.amdx.io";
    std::string files_;
    // monitor --from-journal (replay.cpp)
    std::uint64_t since_ = 0;
};

} // namespace amdx::cli

#endif // AMDX_FLEET_HPP
