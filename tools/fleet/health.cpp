// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx health [DEV]`: one verdict per device and per compute partition,
// healthy, degraded or unhealthy, each with its cause, the record it rests
// on (seq and time, from the event journal) and the rule that clears it.
// The rules are in Documentation/admin-guide/health.rst; in short, the
// kernel's current state (RMA flag, partition states, pending pages) is
// authoritative, and a journal record only counts while it is recent and
// not superseded: an uncorrected error older than --ue-age that did not
// repeat, or one a later containment action or partition restore dealt
// with, never keeps a healthy device unhealthy.
//
// Exit codes are Node Problem Detector's custom-plugin contract: 0 OK,
// 1 problem (something unhealthy; with --strict degraded too), 2 unknown
// (the state could not be read).  Text output is the one line NPD and
// Slurm's HealthCheckProgram show; -j the whole verdict.
#include <algorithm>
#include <array>
#include <cerrno>
#include <ctime>
#include <fstream>
#include <map>

#include "commands.hpp"
#include "fleet.hpp"

namespace amdx::cli {

namespace {

constexpr int kExitUnknown = 2;

std::uint64_t clock_ns(clockid_t id) {
    timespec ts{};
    ::clock_gettime(id, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL +
           static_cast<std::uint64_t>(ts.tv_nsec);
}

Verdict worst(Verdict a, Verdict b) {
    return static_cast<int>(a) > static_cast<int>(b) ? a : b;
}

Verdict worst_of(const std::vector<Finding>& f) {
    Verdict v = Verdict::healthy;
    for (const auto& x : f)
        v = worst(v, x.verdict);
    return v;
}

/// A finding resting on @r (or on the kernel's state alone if null).
Finding finding(Verdict v, std::string cause, std::string clears, const JournalRecord* r) {
    Finding f{v, std::move(cause), std::move(clears), std::nullopt, std::nullopt, std::nullopt};
    if (r != nullptr) {
        f.seq = r->seq;
        f.timestamp_ns = r->timestamp_ns;
    }
    return f;
}

/// The newest record of @dev matching @pred (later()), or null.
template <typename Pred>
const JournalRecord* newest(const std::vector<const JournalRecord*>& recs, Pred pred) {
    const JournalRecord* best = nullptr;
    for (const auto* r : recs)
        if (pred(*r) && (!best || later(*r, *best)))
            best = r;
    return best;
}

struct Age {
    std::uint64_t now_mono;
    std::uint64_t now_real;

    /// Seconds since @r, or nullopt if it cannot be told (another boot's
    /// monotonic stamp without a realtime one): such a record is stale.
    [[nodiscard]] std::optional<std::uint64_t> of(const JournalRecord& r) const {
        if (r.realtime_ns)
            return now_real > *r.realtime_ns ? (now_real - *r.realtime_ns) / 1000000000ULL : 0;
        if (r.timestamp_ns > now_mono)
            return std::nullopt;
        return (now_mono - r.timestamp_ns) / 1000000000ULL;
    }
};

/// The uncorrected-error rule for one scope (a partition, or device-wide
/// errors with no partition): the newest recent UE/DE decides.
void ue_rule(std::vector<Finding>& out, const std::vector<const JournalRecord*>& recs,
             std::optional<std::uint32_t> partition, const HealthRules& rules, const Age& age,
             bool recovery_known) {
    const JournalRecord* ue = newest(recs, [&](const JournalRecord& r) {
        return is_fatal_error(r) && r.partition == partition;
    });
    if (ue == nullptr)
        return;
    const auto secs = age.of(*ue);
    if (!secs || *secs >= rules.ue_age_s)
        return; // stale: it did not repeat within ue_age
    const JournalRecord* dealt = newest(recs, [&](const JournalRecord& r) {
        if (!later(r, *ue))
            return false;
        if (r.kind == "action_end" && r.result == "ok")
            return !partition || !r.partition || r.partition == partition;
        return partition && r.kind == "partition_restored" && r.partition == partition;
    });
    const std::string what = "uncorrected " + ue->block + " error (" + ue->type + ")";
    const std::string stale = "no repeat for " + std::to_string(rules.ue_age_s) + " s (" +
                              std::to_string(rules.ue_age_s - *secs) + " s left)";
    if (dealt != nullptr) {
        out.push_back(finding(Verdict::degraded,
                              what + " contained by " +
                                  (dealt->kind == "action_end" ? dealt->action : dealt->kind) +
                                  " at seq " + std::to_string(dealt->seq),
                              stale, ue));
        return;
    }
    if (recovery_known) {
        // The kernel's pending action decides (recovery_finding()): with
        // none pending, what the error broke was recovered or needs nothing.
        out.push_back(
            finding(Verdict::degraded, what + " with no recovery action pending", stale, ue));
        return;
    }
    out.push_back(finding(Verdict::unhealthy, what + " with no containment that succeeded",
                          "a containment action that succeeds, or " + stale, ue));
}

/// What an operator does for @a.
std::string_view action_text(RecoveryAction a) {
    switch (a) {
    case RecoveryAction::none:
        return "nothing";
    case RecoveryAction::process:
        return "restart the consuming process";
    case RecoveryAction::queue:
        return "reset the queue";
    case RecoveryAction::pipe:
        return "reset the pipe";
    case RecoveryAction::partition:
        return "reset the compute partition";
    case RecoveryAction::vf:
        return "reset the VF (FLR)";
    case RecoveryAction::device:
        return "reset the device";
    case RecoveryAction::hive:
        return "reset the XGMI hive";
    case RecoveryAction::node:
        return "reboot the node";
    case RecoveryAction::rma:
        return "replace the board (RMA)";
    }
    return "unknown";
}

/// The finding of @r's pending action, if one is pending; it rests on the
/// event that set it (@r.seq) and names the action to take.
void recovery_finding(std::vector<Finding>& out, std::uint32_t device, const TargetRecovery& r,
                      const std::vector<const JournalRecord*>& recs) {
    const Verdict v = recovery_verdict(r);
    if (v == Verdict::healthy)
        return;
    std::string target;
    if (r.vf)
        target = "VF " + std::to_string(*r.vf) + ": ";
    const std::string action(to_string(r.action));
    std::string cause = target + "recovery action " + action;
    // What runs it (cli.rst, "Recovery"): the plan first, then the run.
    std::string target_args = std::to_string(device);
    if (r.vf)
        target_args += " vf=" + std::to_string(*r.vf);
    else if (r.partition)
        target_args += " partition=" + std::to_string(*r.partition);
    const std::string run =
        " (amdx recover plan " + target_args + ", then amdx recover run " + target_args + ")";
    std::string clears;
    if (r.state == RecoveryState::failed) {
        cause += " failed midway: " + std::string(action_text(r.action)) + " again";
        clears = "the action runs again and its self-test passes" + run;
    } else {
        cause += " pending: " + std::string(action_text(r.action));
        if (r.est_ms != 0 && r.est_ms != UINT32_MAX)
            cause += " (est. " + std::to_string(r.est_ms) + " ms)";
        clears = r.action >= RecoveryAction::node
                     ? "none in amdx: the node or board is dealt with outside it"
                     : "the action runs and its self-test passes" + run;
    }
    Finding f = finding(v, std::move(cause), std::move(clears),
                        newest(recs, [&r](const JournalRecord& j) { return j.seq == r.seq; }));
    if (r.seq != 0)
        f.seq = r.seq;
    f.action = action;
    out.push_back(std::move(f));
}

/// The recovery state of @partition (nullopt: the device's own) in @s.
const TargetRecovery* recovery_of(const Snapshot& s, std::optional<std::uint32_t> partition) {
    for (const auto& r : s.recovery)
        if (!r.vf && r.partition == partition)
            return &r;
    return nullptr;
}

/// A fabric link of @device that is not up (Documentation/fabric.rst): the
/// device is degraded, the link named with what it asks for and the route
/// between its ends now.  The kernel's link state is authoritative, so the
/// finding clears the moment the link is up again.
void link_findings(std::vector<Finding>& out, std::uint32_t device, const Links& links) {
    for (const auto& l : links.links) {
        if (l.state == LinkState::up || (l.device[0] != device && l.device[1] != device))
            continue;
        // The other end: a device, or (uapi minor 6) a pod's switch or
        // remote accelerator, by what the kernel knows of it.
        const std::size_t e = l.device[0] == device ? 1 : 0;
        const std::string peer =
            l.end[e] == AMDX_LINK_END_SWITCH   ? "switch plane " + std::to_string(l.fabric_id[e])
            : l.end[e] == AMDX_LINK_END_REMOTE ? "accelerator " + std::to_string(l.fabric_id[e]) +
                                                     " (domain " + std::to_string(l.domain[e]) + ")"
                                               : "device " + std::to_string(l.device[e]);
        std::string cause = "fabric link " + std::to_string(l.link) + " to " + peer + " " +
                            std::string(to_string(l.state)) + " (" +
                            std::string(to_string(l.contain)) + "; ";
        cause += l.hops == 0
                     ? std::string("no route left)")
                     : "route " + std::to_string(l.hops) + " hop" + (l.hops == 1 ? "" : "s") +
                           (l.route_degraded() ? ", bandwidth degraded)" : ")");
        out.push_back(finding(Verdict::degraded, std::move(cause),
                              "the link is up again (amdx link show)", nullptr));
    }
}

} // namespace

std::string_view to_string(Verdict v) {
    switch (v) {
    case Verdict::healthy:
        return "healthy";
    case Verdict::degraded:
        return "degraded";
    case Verdict::unhealthy:
        return "unhealthy";
    }
    return "unknown";
}

Verdict PartitionHealth::verdict() const {
    return worst_of(findings);
}

Verdict DeviceHealth::verdict() const {
    Verdict v = worst_of(findings);
    for (const auto& p : partitions)
        v = worst(v, p.verdict());
    return v;
}

std::vector<JournalRecord> read_journal(std::istream& in, std::size_t& skipped) {
    std::vector<JournalRecord> out;
    skipped = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.empty())
            continue;
        auto r = parse_record_line(line);
        if (!r) {
            ++skipped;
            continue;
        }
        out.push_back(std::move(*r));
    }
    return out;
}

HealthJournal read_health_journal(const std::string& path, std::uint64_t window) {
    HealthJournal hj;
    // The state first: what eventd wrote after it is in the window.
    hj.state_path = health_state_path(path);
    HealthFold fold;
    hj.state = read_health_state(hj.state_path, fold);
    HealthFold in_window;
    auto files = journal_files(path);
    // Newest first: the window holds the newest bytes of the set.
    std::reverse(files.begin(), files.end());
    for (const auto& file : files) {
        std::ifstream in(file, std::ios::binary);
        if (!in) {
            if (file == path)
                hj.error = errno != 0 ? errno : ENOENT;
            continue;
        }
        ++hj.files;
        in.seekg(0, std::ios::end);
        const auto size = static_cast<std::uint64_t>(std::max<std::streamoff>(in.tellg(), 0));
        const std::uint64_t room = window - hj.bytes;
        std::uint64_t start = 0;
        if (size > room) {
            hj.truncated = true;
            start = size - room;
        }
        in.seekg(static_cast<std::streamoff>(start));
        std::string line;
        // Starting inside a line: the part before the next newline is the
        // older record's tail, not read.
        if (start > 0) {
            in.seekg(static_cast<std::streamoff>(start - 1));
            if (in.get() != '\n')
                std::getline(in, line);
        }
        hj.bytes += size - start;
        while (std::getline(in, line)) {
            if (line.empty())
                continue;
            auto r = parse_record_line(line);
            if (!r) {
                ++hj.skipped;
                continue;
            }
            ++hj.read;
            if (r->realtime_ns &&
                (!hj.oldest_realtime_ns || *r->realtime_ns < *hj.oldest_realtime_ns))
                hj.oldest_realtime_ns = r->realtime_ns;
            in_window.add(std::move(*r));
        }
        if (hj.bytes >= window) {
            // Every older file is outside the window.
            hj.truncated = hj.truncated || &file != &files.back();
            break;
        }
    }
    // The window was written after the state's records of a key, or holds
    // the same: its newest wins.
    for (const auto& [key, r] : in_window.by_key())
        fold.replace(r);
    hj.records = fold.records();
    return hj;
}

DeviceHealth evaluate(const Snapshot& snap, const std::vector<JournalRecord>& journal,
                      const HealthRules& rules) {
    const Age age{rules.now_mono_ns != 0u ? rules.now_mono_ns : clock_ns(CLOCK_MONOTONIC),
                  rules.now_real_ns != 0u ? rules.now_real_ns : clock_ns(CLOCK_REALTIME)};
    std::vector<const JournalRecord*> recs;
    for (const auto& r : journal)
        if (r.device == snap.info.id)
            recs.push_back(&r);

    DeviceHealth h;
    h.id = snap.info.id;
    h.bdf = snap.info.bdf;
    h.serial = snap.info.serial;

    if (snap.ras.rma) {
        h.findings.push_back(finding(
            Verdict::unhealthy,
            "flagged for return: " + std::to_string(snap.ras.retired_pages) + " retired pages",
            "none on this board: replace it (the flag is kept in its bad-page table)",
            newest(recs, [](const JournalRecord& r) { return r.kind == "rma"; })));
    }
    const JournalRecord* reset_end =
        newest(recs, [](const JournalRecord& r) { return r.kind == "device_reset_end"; });
    // A failed reset of another boot: the device was initialised since.
    if ((reset_end != nullptr) && reset_end->result != "ok" &&
        (rules.boot_id.empty() || reset_end->boot_id.empty() ||
         reset_end->boot_id == rules.boot_id))
        h.findings.push_back(finding(Verdict::unhealthy,
                                     "device reset failed: " + reset_end->result,
                                     "a device reset that succeeds", reset_end));
    const auto& parts = snap.partitions.partitions;
    if (!parts.empty() && std::all_of(parts.begin(), parts.end(), [](const PartitionInfo& p) {
            return p.state == PartitionState::offline;
        }))
        h.findings.push_back(finding(Verdict::unhealthy, "every compute partition is offline",
                                     "the device is initialised again (driver reload)", nullptr));
    if (snap.ras.pending_pages > 0)
        h.findings.push_back(
            finding(Verdict::degraded,
                    std::to_string(snap.ras.pending_pages) + " VRAM pages wait for retirement",
                    "the pages are retired (pending 0)",
                    newest(recs, [](const JournalRecord& r) { return r.kind == "page_pending"; })));
    std::int64_t threshold = snap.policy.bad_page_threshold;
    if (threshold == AMDX_RAS_BAD_PAGE_AUTO)
        threshold = static_cast<std::int64_t>(snap.info.vram_size / (100ULL << 20));
    if (!snap.ras.rma && threshold > 0 &&
        static_cast<std::uint64_t>(snap.ras.retired_pages) * 100 >=
            static_cast<std::uint64_t>(threshold) * rules.retired_warn_pct)
        h.findings.push_back(
            finding(Verdict::degraded,
                    std::to_string(snap.ras.retired_pages) + " retired pages of the " +
                        std::to_string(threshold) + " that flag the board for return",
                    "none: retired pages stay retired; plan the board's replacement", nullptr));
    const bool recovery_known = !snap.recovery.empty();
    ue_rule(h.findings, recs, std::nullopt, rules, age, recovery_known);
    for (const auto& r : snap.recovery)
        if (!r.partition)
            recovery_finding(h.findings, snap.info.id, r, recs);
    link_findings(h.findings, snap.info.id, snap.links);

    for (const auto& p : parts) {
        PartitionHealth ph;
        ph.id = p.id;
        const auto of_part = [&p](const char* kind) {
            return [&p, kind](const JournalRecord& r) {
                return r.kind == kind && r.partition == p.id;
            };
        };
        if (p.state == PartitionState::offline)
            ph.findings.push_back(
                finding(Verdict::unhealthy,
                        "offline after " + std::to_string(p.resets) + " resets (limit " +
                            std::to_string(snap.policy.part_reset_limit) + " in " +
                            std::to_string(snap.policy.part_reset_window_s) + " s)",
                        "the device is initialised again (driver reload): an offline partition "
                        "stays offline across device resets, and partition switches are refused",
                        newest(recs, of_part("partition_offline"))));
        else if (p.state == PartitionState::quarantined)
            ph.findings.push_back(
                finding(Verdict::degraded, "quarantined: no new work or allocations",
                        "containment ends with the partition restored (partition_restored)",
                        newest(recs, of_part("partition_quarantined"))));
        if (p.state != PartitionState::offline)
            ue_rule(ph.findings, recs, p.id, rules, age, recovery_known);
        if (const auto* r = recovery_of(snap, p.id))
            recovery_finding(ph.findings, snap.info.id, *r, recs);
        h.partitions.push_back(std::move(ph));
    }
    return h;
}

namespace {

Json finding_to_json(const Finding& f) {
    return Json{{"verdict", to_string(f.verdict)},
                {"cause", f.cause},
                {"clears", f.clears},
                {"seq", f.seq ? Json(*f.seq) : Json(nullptr)},
                {"timestamp_ns", f.timestamp_ns ? Json(*f.timestamp_ns) : Json(nullptr)},
                {"action", f.action ? Json(*f.action) : Json(nullptr)}};
}

Json findings_to_json(const std::vector<Finding>& fs) {
    Json a = Json::array();
    for (const auto& f : fs)
        a.push_back(finding_to_json(f));
    return a;
}

std::string_view state_status(const HealthStateRead& s) {
    switch (s.status) {
    case HealthStateRead::Status::ok:
        return "ok";
    case HealthStateRead::Status::missing:
        return "missing";
    case HealthStateRead::Status::corrupt:
        return "corrupt";
    }
    return "corrupt";
}

/// "device 0 partition 2: offline after ... (seq 17)".
std::string finding_line(const DeviceHealth& h, const PartitionHealth* p, const Finding& f) {
    std::string s = "device " + std::to_string(h.id);
    if (p != nullptr)
        s += " partition " + std::to_string(p->id);
    s += " " + std::string(to_string(f.verdict)) + ": " + f.cause;
    if (f.seq)
        s += " (seq " + std::to_string(*f.seq) + ")";
    return s;
}

} // namespace

Json health_to_json(const DeviceHealth& h) {
    Json parts = Json::array();
    for (const auto& p : h.partitions)
        parts.push_back(Json{{"partition", p.id},
                             {"verdict", to_string(p.verdict())},
                             {"findings", findings_to_json(p.findings)}});
    return Json{{"device", h.id},
                {"bdf", h.bdf},
                {"serial", h.serial},
                {"verdict", to_string(h.verdict())},
                {"findings", findings_to_json(h.findings)},
                {"partitions", std::move(parts)}};
}

std::optional<std::string> journal_window_problem(const HealthJournal& hj, std::uint64_t window_mib,
                                                  const HealthRules& rules) {
    if (!hj.truncated || hj.state.status == HealthStateRead::Status::ok)
        return std::nullopt;
    const std::uint64_t now =
        rules.now_real_ns != 0u ? rules.now_real_ns : clock_ns(CLOCK_REALTIME);
    const std::uint64_t horizon = rules.ue_age_s * 1000000000ULL;
    if (hj.oldest_realtime_ns && now - std::min(now, *hj.oldest_realtime_ns) >= horizon)
        return std::nullopt;
    const std::string back =
        hj.oldest_realtime_ns
            ? std::to_string((now - std::min(now, *hj.oldest_realtime_ns)) / 1000000000ULL) + " s"
            : "an unknown time";
    return "journal degraded: its newest " + std::to_string(window_mib) + " MiB reach back " +
           back + ", less than --ue-age " + std::to_string(rules.ue_age_s) +
           " s: an older uncorrected error is not seen";
}

int FleetCommands::health(const Options& opts, std::ostream& out, std::ostream& err) const {
    auto unknown = [&](const std::string& why) {
        keep_exit_status(); // Node Problem Detector's 2, not the CLI's cause code
        if (opts.format == Format::text)
            out << "amdx health: unknown: " << why << '\n';
        else
            render(out, Json{{"status", "unknown"}, {"message", why}, {"devices", Json::array()}},
                   opts.format);
        return kExitUnknown;
    };
    auto selector = parse_selector(health_dev_);
    if (!selector) {
        fail(err, selector_error(health_dev_, true));
        return kExitUsage;
    }
    std::ostringstream why;
    const auto control = open_control(opts, why);
    if (!control)
        return unknown(why.str().substr(6, why.str().size() - 7)); // strip "amdx: " and '\n'
    std::string what;
    const auto snaps = collect(*control, what);
    if (!snaps)
        return unknown(what + ": " + errno_text(snaps.error()));

    // eventd's state (every record it wrote, rotated away or not) and the
    // newest window of the files; only the newest record per rule key is
    // kept.
    const HealthJournal hj = read_health_journal(journal_, journal_window_mib_ << 20);
    if (hj.files == 0 && health_journal_->count() > 0)
        return unknown("journal " + journal_ + ": " +
                       errno_text(std::error_code(hj.error, std::system_category())));
    const std::vector<JournalRecord>& journal = hj.records;
    if (selector->needs_gpus()) { // gpu:INDEX, GPU-UUID: the GPUs of the devices read
        std::vector<DeviceEntry> entries;
        for (const auto& s : *snaps)
            entries.push_back(DeviceEntry{s.info.id, s.info.model, s.info.bdf});
        const auto gpus = gpu_table(*control, entries, opts.sysfs, what);
        if (!gpus)
            return unknown(what + ": " + errno_text(gpus.error()));
        resolve_gpus(*selector, *gpus);
    }
    HealthRules rules;
    rules.ue_age_s = ue_age_s_;
    // One reading of each clock for every rule of this run.
    rules.now_mono_ns = clock_ns(CLOCK_MONOTONIC);
    rules.now_real_ns = clock_ns(CLOCK_REALTIME);
    rules.boot_id = current_boot_id();

    Json devices = Json::array();
    Verdict overall = Verdict::healthy;
    std::vector<std::string> problems;
    bool matched = false;
    for (const auto& s : *snaps) {
        if (!selector->matches(DeviceEntry{s.info.id, s.info.model, s.info.bdf}, s.info.serial))
            continue;
        matched = true;
        const DeviceHealth h = evaluate(s, journal, rules);
        overall = worst(overall, h.verdict());
        for (const auto& f : h.findings)
            problems.push_back(finding_line(h, nullptr, f));
        for (const auto& p : h.partitions)
            for (const auto& f : p.findings)
                problems.push_back(finding_line(h, &p, f));
        devices.push_back(health_to_json(h));
    }
    if (!matched && selector->kind != Selector::Kind::all) {
        fail(err, "no such device: " + health_dev_);
        return kExitError;
    }
    // A state file eventd did not leave so (it writes a whole one or none):
    // what it held is lost to this run, the window alone is read.
    if (hj.state.status == HealthStateRead::Status::corrupt) {
        overall = worst(overall, Verdict::degraded);
        problems.push_back("journal state " + hj.state_path + " unreadable (" + hj.state.why +
                           "): read the journal's newest " + std::to_string(journal_window_mib_) +
                           " MiB alone");
    }
    // A window that does not reach back --ue-age may hide an uncorrected
    // error that still counts: say so rather than call the node healthy.
    if (auto problem = journal_window_problem(hj, journal_window_mib_, rules)) {
        overall = worst(overall, Verdict::degraded);
        problems.push_back(std::move(*problem));
    }
    std::string message;
    if (problems.empty()) {
        message = std::to_string(devices.size()) + " devices healthy";
    } else {
        message = problems.front();
        if (problems.size() > 1)
            message += " (+" + std::to_string(problems.size() - 1) + " more)";
    }
    if (opts.format == Format::text)
        out << "amdx health: " << to_string(overall) << ": " << message << '\n';
    else
        render(out,
               Json{{"status", to_string(overall)},
                    {"message", message},
                    {"journal",
                     Json{{"path", journal_},
                          {"files", hj.files},
                          {"records", hj.read},
                          {"bytes", hj.bytes},
                          {"truncated", hj.truncated},
                          {"skipped", hj.skipped},
                          {"state", Json{{"path", hj.state_path},
                                         {"status", state_status(hj.state)},
                                         {"reason", hj.state.why.empty() ? Json(nullptr)
                                                                         : Json(hj.state.why)}}}}},
                    {"devices", std::move(devices)}},
               opts.format);
    const bool problem = overall == Verdict::unhealthy || (strict_ && overall == Verdict::degraded);
    return problem ? kExitError : kExitOk;
}

} // namespace amdx::cli
