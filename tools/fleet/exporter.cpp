// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx exporter`: Prometheus metrics of every device, rendered by
// prometheus-cpp in the text exposition format, either into node-exporter's
// textfile directory (written to a temporary file, then renamed, so
// node-exporter never reads half a file) or served over HTTP (/metrics).
// The names, types, labels and help texts are the contract of
// Documentation/admin-guide/metrics.rst.
//
//   Prometheus / node-exporter      amdx exporter             amdx.ko
//   GET /metrics  ---------------->  collect() (fleet.hpp) --> queries
//                 <----------------  MetricFamily vector       (AMDX_QUERY_STATS:
//                                                               the counters)
//                                    event thread <---------- event fds
//                                    (DeviceMonitor: records by kind,
//                                    long-running modes)
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <prometheus/collectable.h>
#include <prometheus/exposer.h>
#include <prometheus/text_serializer.h>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>
#include <unistd.h>

#include "fleet.hpp"

namespace amdx::cli {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

namespace {

using Labels = std::vector<ClientMetric::Label>;

/// The identity labels of a device's series (metrics.rst, "Labels"):
/// device-metrics-exporter's names first (its values: gpu_partition_id
/// "0" for the device's own series, as it labels an unpartitioned GPU and
/// the partition carrying the device-wide values), then amdx's own.  Only
/// what identifies the series: the modes, which a partition switch
/// changes, are on amdx_device_info, so a switch starts no new series.
Labels identity(const Snapshot& s, const std::string& host, std::optional<std::uint32_t> part) {
    const std::string id = part ? std::to_string(*part) : std::string();
    return Labels{
        {"hostname", host},
        {"serial_number", s.info.serial},
        {"gpu_partition_id", part ? id : "0"},
        {"device", std::to_string(s.info.id)},
        {"bdf", s.info.bdf},
        {"partition", part ? id : "all"},
    };
}

/// @l plus @more, allocated once: a collection makes one label set per
/// series (tens of thousands on a fleet host).
Labels with(const Labels& l, std::initializer_list<ClientMetric::Label> more) {
    Labels out;
    out.reserve(l.size() + more.size());
    out.insert(out.end(), l.begin(), l.end());
    out.insert(out.end(), more);
    return out;
}

/// Families in the order of metrics.rst; each family is created once.
/// Names and help texts are literals: a series costs no string of them,
/// only its labels.
class Builder {
  public:
    MetricFamily& family(std::string_view name, MetricType type, std::string_view help) {
        if (last_ < families_.size() && families_[last_].name == name)
            return families_[last_];
        for (last_ = 0; last_ < families_.size(); ++last_)
            if (families_[last_].name == name)
                return families_[last_];
        families_.push_back(MetricFamily{std::string(name), std::string(help), type, {}});
        return families_.back();
    }
    void gauge(std::string_view name, std::string_view help, Labels labels, double v) {
        ClientMetric m;
        m.label = std::move(labels);
        m.gauge.value = v;
        family(name, MetricType::Gauge, help).metric.push_back(std::move(m));
    }
    void counter(std::string_view name, std::string_view help, Labels labels, double v) {
        ClientMetric m;
        m.label = std::move(labels);
        m.counter.value = v;
        family(name, MetricType::Counter, help).metric.push_back(std::move(m));
    }
    std::vector<MetricFamily> take() { return std::move(families_); }

  private:
    std::vector<MetricFamily> families_;
    std::size_t last_ = 0; ///< the family of the previous series
};

constexpr std::array<PartitionState, 3> kStates = {
    PartitionState::online, PartitionState::quarantined, PartitionState::offline};

/// The kernel's cumulative counters (AMDX_QUERY_STATS): in every mode,
/// totals since the device registered.
void stats_metrics(Builder& b, const DeviceStats& st, const Labels& dev) {
    struct Migration {
        const char* direction;
        const char* cause;
        std::uint64_t count;
        std::uint64_t bytes;
    };
    const std::array<Migration, 5> migrations = {{
        {"to_vram", "migrate", st.migrations_to_vram, st.bytes_to_vram},
        {"to_system", "migrate", st.migrations_to_ram, st.bytes_to_ram},
        {"to_system", "cpu_fault", st.fault_migrations, st.fault_bytes},
        {"to_system", "eviction", st.evictions, st.evicted_bytes},
        {"to_system", "drain", st.drains, st.drained_bytes},
    }};
    for (const auto& m : migrations)
        b.counter("amdx_hmm_migrations_total",
                  "HMM migrations that moved pages, by direction and cause.",
                  with(dev, {{"direction", m.direction}, {"cause", m.cause}}),
                  static_cast<double>(m.count));
    for (const auto& m : migrations)
        b.counter("amdx_hmm_migrated_bytes_total",
                  "Bytes HMM migrations moved, by direction and cause.",
                  with(dev, {{"direction", m.direction}, {"cause", m.cause}}),
                  static_cast<double>(m.bytes));
    const std::array<std::pair<const char*, std::uint64_t>, 3> commits = {{
        {"committed", st.commits},
        {"rolled_back", st.rollbacks},
        {"refused", st.refusals},
    }};
    for (const auto& [outcome, n] : commits)
        b.counter("amdx_partition_commits_total", "Partition commits, by outcome.",
                  with(dev, {{"outcome", outcome}}), static_cast<double>(n));
    b.counter("amdx_vf_flrs_total", "VF function-level resets performed (AMDX_IOC_VF_RESET).", dev,
              static_cast<double>(st.vf_flrs));
    b.counter("amdx_events_emitted_total", "Event records the device emitted.", dev,
              static_cast<double>(st.events_emitted));
    b.counter("amdx_events_lost_total",
              "Event records dropped from full subscriber rings, summed over subscribers.", dev,
              static_cast<double>(st.events_lost));
}

void device_metrics(Builder& b, const Snapshot& s, const std::string& host) {
    const Labels dev = identity(s, host, std::nullopt);
    // The identity of each partition, made once, not once per series.
    std::map<std::uint32_t, Labels> part_ids;
    auto part = [&](std::uint32_t id) -> const Labels& {
        auto it = part_ids.find(id);
        if (it == part_ids.end())
            it = part_ids.emplace(id, identity(s, host, id)).first;
        return it->second;
    };
    b.gauge("amdx_device_info",
            "Device identity and modes: 1 per device, with model, product, hive and partition "
            "modes as labels.",
            with(dev, {{"model", std::string(to_string(s.info.model))},
                       {"product", s.info.product},
                       {"hive_id", std::to_string(s.info.hive_id)},
                       {"gpu_compute_partition_type", lower(to_string(s.partitions.compute_mode))},
                       {"gpu_memory_partition_type", lower(to_string(s.partitions.memory_mode))}}),
            1);
    if (s.firmware) {
        b.gauge("amdx_driver_info",
                "The amdx module's and the device provider's versions: 1 per device, the versions "
                "as labels.",
                with(dev, {{"driver_version", s.firmware->driver_version},
                           {"provider", s.firmware->provider},
                           {"provider_version", s.firmware->provider_version}}),
                1);
        for (const auto& f : s.firmware->firmware) {
            char version[16];
            std::snprintf(version, sizeof(version), "0x%08x", f.version);
            b.gauge("amdx_firmware_info",
                    "Firmware versions the device's provider knows: 1 per firmware, the version "
                    "as labels.",
                    with(dev, {{"firmware", std::string(to_string(f.id))},
                               {"instance", std::to_string(f.instance)},
                               {"fw_version", version},
                               {"feature", std::to_string(f.feature)}}),
                    1);
        }
    }
    b.gauge("amdx_device_rma", "1 if the device is flagged for return (bad-page threshold).", dev,
            s.ras.rma ? 1 : 0);
    b.gauge("amdx_device_vram_bytes", "Bytes of VRAM.", dev, static_cast<double>(s.info.vram_size));
    b.gauge("amdx_device_vram_free_bytes", "Bytes of VRAM not allocated.", dev,
            static_cast<double>(s.info.vram_free));
    for (const auto& mp : s.info.memory_partitions) {
        const Labels l = with(dev, {{"mem_partition", std::to_string(mp.index)}});
        b.gauge("amdx_memory_partition_vram_bytes", "Bytes of VRAM of one memory (NPS) partition.",
                l, static_cast<double>(mp.size));
        b.gauge("amdx_memory_partition_vram_free_bytes",
                "Bytes of VRAM not allocated in one memory (NPS) partition.", l,
                static_cast<double>(mp.free));
    }
    b.gauge("amdx_device_partitions", "Compute partitions of the current mode.", dev,
            static_cast<double>(s.partitions.partitions.size()));
    b.gauge("amdx_partition_generation",
            "Partition configuration generation; changes with every committed switch.", dev,
            static_cast<double>(s.partitions.generation));
    b.gauge("amdx_device_vfs", "SR-IOV VFs enabled.", dev, static_cast<double>(s.vfs.vfs.size()));
    b.gauge("amdx_device_max_vfs", "SR-IOV VFs supported.", dev,
            static_cast<double>(s.vfs.max_vfs));
    b.gauge("amdx_pending_pages", "VRAM pages waiting for retirement.", dev,
            static_cast<double>(s.ras.pending_pages));

    // RAS: device totals and per-partition rows are two families, so that
    // sum() over either never counts an error twice.
    for (const auto& row : s.ras.counters) {
        for (std::uint32_t t = 0; t < AMDX_RAS_TYPE_COUNT; ++t) {
            if (!row.count[t])
                continue; // the block does not report this type
            const auto type = static_cast<RasType>(t);
            if (row.partition == kRasPartitionAll) {
                b.counter("amdx_ras_errors_total", "RAS errors of a block and type, device-wide.",
                          with(dev, {{"block", std::string(to_string(row.block))},
                                     {"type", std::string(to_string(type))}}),
                          static_cast<double>(*row.count[t]));
            } else {
                b.counter("amdx_partition_ras_errors_total",
                          "RAS errors of a block and type in one compute partition.",
                          with(part(row.partition), {{"block", std::string(to_string(row.block))},
                                                     {"type", std::string(to_string(type))}}),
                          static_cast<double>(*row.count[t]));
            }
        }
    }
    std::array<std::uint64_t, 5> by_cause{};
    for (const auto& p : s.badpages) {
        const auto c = static_cast<std::size_t>(p.cause);
        if (c < by_cause.size())
            ++by_cause[c];
    }
    for (const auto cause :
         {BadPageCause::ce, BadPageCause::ue, BadPageCause::de, BadPageCause::import})
        b.counter("amdx_retired_pages_total", "VRAM pages retired, by cause.",
                  with(dev, {{"cause", std::string(to_string(cause))}}),
                  static_cast<double>(by_cause[static_cast<std::size_t>(cause)]));
    std::int64_t threshold = s.policy.bad_page_threshold;
    if (threshold == AMDX_RAS_BAD_PAGE_AUTO)
        threshold = static_cast<std::int64_t>(s.info.vram_size / (100ULL << 20));
    if (threshold > 0)
        b.gauge("amdx_bad_page_threshold_pages",
                "Retired pages that flag the device for return (absent: warn only).", dev,
                static_cast<double>(threshold));

    for (const auto& p : s.partitions.partitions) {
        const Labels& l = part(p.id);
        for (const auto st : kStates)
            b.gauge("amdx_partition_state",
                    "1 for the state a compute partition is in (online, quarantined, offline).",
                    with(l, {{"state", std::string(to_string(st))}}), p.state == st ? 1 : 0);
        b.gauge("amdx_partition_xccs", "XCCs of a compute partition.", l,
                static_cast<double>(__builtin_popcount(p.xcc_mask)));
        b.gauge("amdx_partition_vram_bytes", "Bytes of VRAM local to a compute partition.", l,
                static_cast<double>(p.vram_size));
        b.counter("amdx_partition_resets_total", "Resets of a compute partition.", l,
                  static_cast<double>(p.resets));
    }
    for (const auto& vf : s.vfs.vfs) {
        const Labels l = with(dev, {{"vf", std::to_string(vf.vf)}});
        for (const auto st : kStates)
            b.gauge("amdx_vf_state", "1 for the state a VF is in (online, quarantined, offline).",
                    with(l, {{"state", std::string(to_string(st))}}), vf.state == st ? 1 : 0);
        b.gauge("amdx_vf_vram_quota_bytes", "VRAM quota of a VF.", l,
                static_cast<double>(vf.config.vram_quota));
        b.gauge("amdx_vf_vram_used_bytes", "VRAM a VF uses.", l, static_cast<double>(vf.vram_used));
        b.gauge("amdx_vf_time_slice_seconds", "Scheduling time slice of a VF.", l,
                vf.config.time_slice_us / 1e6);
        b.counter("amdx_vf_resets_total", "Resets (FLR or RAS) of a VF.", l,
                  static_cast<double>(vf.resets));
    }
    // One series per target, the action and its state as labels: an
    // enumeration of all ten actions would be ten series per partition.
    for (const auto& r : s.recovery) {
        const Labels target = r.partition ? part(*r.partition)
                              : r.vf      ? with(dev, {{"vf", std::to_string(*r.vf)}})
                                          : dev;
        b.gauge("amdx_recovery_action",
                "1 per device, compute partition and VF, with its pending recovery action "
                "(none: nothing pending) and that action's state as labels.",
                with(target, {{"action", std::string(to_string(r.action))},
                              {"state", std::string(to_string(r.state))}}),
                1);
    }
    stats_metrics(b, s.stats, dev);
}

/// The fabric links of every hive, each once however many of its ends are
/// on this host: both ends' identities as labels (a device of this host by
/// id, BDF and serial; any end by what it is and its fabric id, a pod
/// accelerator by its OS domain and virtual pod too; empty where a label
/// does not apply), the state as the gauge's value (AMDX_LINK_STATE_*,
/// metrics.rst) and the error counters by type.
void link_metrics(Builder& b, const std::vector<Snapshot>& snaps, const std::string& host) {
    std::set<std::pair<std::uint64_t, std::uint32_t>> seen; // (hive, link)
    auto end = [&snaps](const LinkInfo& l, std::size_t e, const char* suffix) {
        const std::uint32_t id = l.device[e];
        const Snapshot* s = nullptr;
        for (const auto& one : snaps)
            s = one.info.id == id ? &one : s;
        const bool device = id != UINT32_MAX; // a device of this host
        const bool pod = l.pod_accelerator(e);
        const std::string sfx(suffix);
        return Labels{
            {"device" + sfx, device ? std::to_string(id) : std::string()},
            {"bdf" + sfx, s != nullptr ? s->info.bdf : std::string()},
            {"serial_number" + sfx, s != nullptr ? s->info.serial : std::string()},
            {"end" + sfx, std::string(l.end_name(e))},
            {"fabric_id" + sfx, l.end[e] != 0 ? std::to_string(l.fabric_id[e]) : std::string()},
            {"domain" + sfx, pod ? std::to_string(l.domain[e]) : std::string()},
            {"vpod" + sfx, l.vpod[e] != 0 ? std::to_string(l.vpod[e]) : std::string()}};
    };
    for (const auto& s : snaps) {
        for (const auto& l : s.links.links) {
            if (!seen.insert({s.links.hive_id, l.link}).second)
                continue;
            Labels labels{{"hostname", host},
                          {"hive_id", std::to_string(s.links.hive_id)},
                          {"link", std::to_string(l.link)},
                          {"kind", std::string(to_string(l.kind))}};
            for (auto&& one : end(l, 0, "_a"))
                labels.push_back(std::move(one));
            labels.push_back({"port_a", std::to_string(l.port[0])});
            for (auto&& one : end(l, 1, "_b"))
                labels.push_back(std::move(one));
            labels.push_back({"port_b", std::to_string(l.port[1])});
            b.gauge("amdx_link_state",
                    "State of a fabric link: 0 up, 1 degraded, 2 replay, 3 down, 4 parked.", labels,
                    static_cast<double>(l.state));
            const std::array<std::pair<const char*, std::uint64_t>, 3> errors = {{
                {"ce", l.ce},
                {"ue", l.ue},
                {"replay", l.replays},
            }};
            // None where the provider declares it counts none per link
            // (AMDX_LINK_F_NO_COUNTERS): no series rather than a 0.
            for (const auto& [type, n] : errors)
                if (!l.no_counters())
                    b.counter("amdx_link_errors_total",
                              "Errors of a fabric link, by type (ce, ue, replay).",
                              with(labels, {{"type", type}}), static_cast<double>(n));
        }
    }
}

void event_metrics(Builder& b, const Snapshot& s, const std::string& host, const EventTally& t) {
    const Labels dev = identity(s, host, std::nullopt);
    for (std::uint16_t k = 0; k < AMDX_EVENT_KIND_COUNT; ++k)
        b.counter("amdx_events_total", "Event records the exporter received, by kind.",
                  with(dev, {{"kind", std::string(to_string(static_cast<EventKind>(k)))}}),
                  static_cast<double>(t.kinds[k]));
    b.counter("amdx_events_missed_total",
              "Event records the exporter's own subscription missed (its LOST records).", dev,
              static_cast<double>(t.lost));
    b.gauge("amdx_events_last_seq", "Sequence number of the newest event record received.", dev,
            static_cast<double>(t.last_seq));
    // Every action a run can carry out (process .. hive) with every
    // outcome, from 0: a first recovery is an increase(), not a new series.
    for (std::uint32_t a = AMDX_RECOVER_PROCESS; a < AMDX_RECOVER_NODE; ++a)
        for (const auto o :
             {RecoveryOutcome::cleared, RecoveryOutcome::escalated, RecoveryOutcome::failed})
            b.counter("amdx_recoveries_total",
                      "Recovery actions run, by action and outcome (cleared, escalated, failed).",
                      with(dev, {{"action", std::string(to_string(static_cast<RecoveryAction>(a)))},
                                 {"outcome", std::string(to_string(o))}}),
                      static_cast<double>(t.recoveries[a][static_cast<std::size_t>(o)]));
}

} // namespace

void EventTallies::add(const Event& ev) {
    const std::lock_guard guard(lock_);
    auto& t = by_device_[ev.device];
    const auto k = static_cast<std::size_t>(ev.kind);
    if (k < t.kinds.size())
        ++t.kinds[k];
    if (ev.kind == EventKind::lost) {
        t.lost += ev.data[0];
        t.last_seq = std::max(t.last_seq, ev.data[1]);
        return;
    }
    t.last_seq = std::max(t.last_seq, ev.seq);
    if (ev.kind != EventKind::recovery)
        return;
    const std::uint32_t action = AMDX_RECOVERY_SUM_ACTION(ev.data[0]);
    auto outcome = RecoveryOutcome::none;
    if (ev.type == AMDX_RECOVERY_EV_SELFTEST)
        outcome = ev.data[1] == 0 ? RecoveryOutcome::cleared : RecoveryOutcome::escalated;
    else if (ev.type == AMDX_RECOVERY_EV_FAILED)
        outcome = RecoveryOutcome::failed;
    if (outcome != RecoveryOutcome::none && action < AMDX_RECOVER_COUNT)
        ++t.recoveries[action][static_cast<std::size_t>(outcome)];
}

std::map<std::uint32_t, EventTally> EventTallies::get() const {
    const std::lock_guard guard(lock_);
    return by_device_;
}

std::vector<MetricFamily> to_metrics(const std::vector<Snapshot>& snaps, const std::string& host,
                                     const std::map<std::uint32_t, EventTally>* tallies,
                                     std::optional<double> collect_seconds) {
    Builder b;
    b.gauge("amdx_up", "1 if the exporter read every device, 0 if the collection failed.",
            {{"hostname", host}}, 1);
    b.gauge("amdx_exporter_devices", "Devices the collection read.", {{"hostname", host}},
            static_cast<double>(snaps.size()));
    if (collect_seconds)
        b.gauge("amdx_exporter_collect_duration_seconds", "Time the collection took.",
                {{"hostname", host}}, *collect_seconds);
    for (const auto& s : snaps)
        device_metrics(b, s, host);
    link_metrics(b, snaps, host);
    if (tallies != nullptr) {
        for (const auto& s : snaps) {
            const auto it = tallies->find(s.info.id);
            event_metrics(b, s, host, it != tallies->end() ? it->second : EventTally{});
        }
    }
    return b.take();
}

namespace {

/// The exposition of @families into @out: prometheus-cpp's serializer,
/// for every mode (the HTTP mode's handler calls it too).  A file or
/// standard output gets it straight, not through a string of it: a fleet
/// host's exposition is megabytes.
void write_text(std::ostream& out, const std::vector<MetricFamily>& families) {
    prometheus::TextSerializer{}.Serialize(out, families);
}

} // namespace

std::string to_text(const std::vector<MetricFamily>& families) {
    std::ostringstream out;
    write_text(out, families);
    return out.str();
}

namespace {

/// The exposition of a failed collection: amdx_up 0 alone.
std::vector<MetricFamily> down_families(const std::string& host) {
    Builder b;
    b.gauge("amdx_up", "1 if the exporter read every device, 0 if the collection failed.",
            {{"hostname", host}}, 0);
    return b.take();
}

/// The metrics of one collection; on failure amdx_up 0, the one error line
/// on @err (with the exit status of a missing module, open_control()) and
/// @ok false.
std::vector<MetricFamily> collect_families(const Options& opts, const std::string& host,
                                           const EventTallies* ev, std::ostream& err, bool& ok) {
    const auto t0 = std::chrono::steady_clock::now();
    ok = false;
    const auto control = open_control(opts, err);
    if (!control)
        return down_families(host);
    std::string what;
    const auto snaps = collect(*control, what);
    if (!snaps) {
        fail(err, "exporter: " + what + ": " + errno_text(snaps.error()));
        return down_families(host);
    }
    ok = true;
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
    std::map<std::uint32_t, EventTally> tallies;
    if (ev != nullptr)
        tallies = ev->get();
    return to_metrics(*snaps, host, ev != nullptr ? &tallies : nullptr, took.count());
}

/// Writes the exposition of @families to @path through @path.tmp.PID,
/// fsync, rename.
bool write_textfile(const std::string& path, const std::vector<MetricFamily>& families,
                    std::string& why) {
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        why = tmp + ": " + errno_text(std::error_code(errno, std::system_category()));
        return false;
    }
    FdOutBuf buf(fd);
    std::ostream out(&buf);
    write_text(out, families);
    out.flush();
    if (!out || buf.error() != 0) {
        why = tmp + ": " +
              errno_text(
                  std::error_code(buf.error() != 0 ? buf.error() : EIO, std::system_category()));
        ::close(fd);
        ::unlink(tmp.c_str());
        return false;
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
        why = path + ": " + errno_text(std::error_code(errno, std::system_category()));
        ::unlink(tmp.c_str());
        return false;
    }
    return true;
}

/// Follows every device's event log into @tallies until @stop (libamdx's
/// DeviceMonitor: devices created later too); waits for the control node
/// to appear.
void follow_events(const std::string& node, EventTallies& tallies, const std::atomic_bool& stop) {
    std::optional<DeviceMonitor> monitor;
    std::vector<Event> batch;
    while (!stop.load()) {
        if (!monitor) {
            auto control = Control::open(node);
            if (!control) {
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
                continue;
            }
            monitor.emplace(std::move(*control), DeviceMonitor::Options{.batch = 256});
        }
        batch.clear();
        const auto got = monitor->poll(200, batch);
        if (!got && got.context().call == "read")
            monitor->remove(got.context().device); // followed again if it is listed still
        for (const auto& ev : batch)
            tallies.add(ev);
    }
}

/// prometheus-cpp calls Collect() for every scrape of /metrics.
class Collector : public prometheus::Collectable {
  public:
    Collector(Options opts, std::string host, const EventTallies& tallies)
        : opts_(std::move(opts)), host_(std::move(host)), tallies_(tallies) {}

    std::vector<MetricFamily> Collect() const override {
        const auto t0 = std::chrono::steady_clock::now();
        auto control = Control::open(opts_.node);
        std::string what = "open";
        if (control) {
            auto snaps = collect(*control, what);
            if (snaps) {
                const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
                const auto t = tallies_.get();
                return to_metrics(*snaps, host_, &t, took.count());
            }
        }
        return down_families(host_);
    }

  private:
    Options opts_;
    std::string host_;
    const EventTallies& tallies_;
};

std::atomic_bool g_stop{false};

void on_term(int /*sig*/) {
    g_stop.store(true);
}

} // namespace

int FleetCommands::exporter(const Options& opts, std::ostream& out, std::ostream& err) const {
    const std::string host = host_name();
    // Serving HTTP, a missing module is one line and exit 3 (Prometheus
    // then records the target down).  Writing a textfile, it is a file
    // saying amdx_up 0, so that node-exporter never serves the last
    // collection's values as live (metrics.rst).
    if (!listen_.empty() && !open_control(opts, err))
        return kExitError;
    g_stop.store(false);
    struct sigaction sa = {};
    sa.sa_handler = on_term;
    ::sigaction(SIGTERM, &sa, nullptr);
    ::sigaction(SIGINT, &sa, nullptr);

    EventTallies tallies;
    const bool keeps_running = !listen_.empty() || interval_s_ > 0;
    std::thread events;
    if (keeps_running)
        events = std::thread(follow_events, opts.node, std::ref(tallies), std::cref(g_stop));
    auto join = [&events] {
        g_stop.store(true);
        if (events.joinable())
            events.join();
    };

    if (!listen_.empty()) {
        std::unique_ptr<prometheus::Exposer> exposer;
        try {
            exposer = std::make_unique<prometheus::Exposer>(listen_, 2);
        } catch (const std::exception& e) {
            join();
            fail(err, "exporter: cannot listen on " + listen_ + ": " + e.what());
            return kExitError;
        }
        auto collector = std::make_shared<Collector>(opts, host, tallies);
        exposer->RegisterCollectable(collector);
        const auto ports = exposer->GetListeningPorts();
        const auto colon = listen_.rfind(':');
        out << "amdx exporter: serving http://" << listen_.substr(0, colon) << ':'
            << (ports.empty() ? 0 : ports.front()) << "/metrics" << std::endl;
        std::uint64_t ticks = 0;
        while (!g_stop.load() && (iterations_ == 0 || ticks < iterations_ * 10)) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            ++ticks;
        }
        join();
        return kExitOk;
    }

    std::uint64_t done = 0;
    int code = kExitOk;
    for (;;) {
        bool ok = false;
        const auto families =
            collect_families(opts, host, keeps_running ? &tallies : nullptr, err, ok);
        std::string why;
        if (textfile_ == "-") {
            write_text(out, families);
            out.flush();
            if (!out) {
                code = kExitError; // run() names the failed write
                break;
            }
        } else if (!write_textfile(textfile_, families, why)) {
            fail(err, "exporter: " + why, kExitError);
            code = kExitError;
            break;
        }
        if (!keeps_running) {
            code = ok ? kExitOk : kExitError;
            break;
        }
        if (++done == iterations_ || g_stop.load())
            break;
        const auto until =
            std::chrono::steady_clock::now() + std::chrono::duration<double>(interval_s_);
        while (!g_stop.load() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    join();
    return code;
}

} // namespace amdx::cli
