// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The fleet commands (fleet.hpp) against the fake kernel: the exporter's
// metric contract (Documentation/admin-guide/metrics.rst), the health rules
// (health.rst) and the scheduler export (scheduling.rst).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "fake_kernel.hpp"
#include "fleet.hpp"

namespace {

using amdx::Control;
using amdx::Device;
using amdx::cli::DeviceHealth;
using amdx::cli::EventTallies;
using amdx::cli::HealthRules;
using amdx::cli::JournalRecord;
using amdx::cli::Snapshot;
using amdx::cli::Verdict;
using amdx::test::FakeKernel;

std::vector<Snapshot> snapshots() {
    auto control = Control::open("/dev/null");
    EXPECT_TRUE(control);
    std::string what;
    auto snaps = amdx::cli::collect(*control, what);
    EXPECT_TRUE(snaps) << what;
    return snaps ? *snaps : std::vector<Snapshot>{};
}

std::string metrics_text(const std::map<std::uint32_t, amdx::cli::EventTally>* tallies = nullptr) {
    return amdx::cli::to_text(amdx::cli::to_metrics(snapshots(), "h1", tallies, std::nullopt));
}

/// The value of the one sample of @family whose labels contain all of
/// @labels ("name=\"v\"" fragments); NaN if none, -1 if several.
double sample(const std::string& text, const std::string& family,
              const std::vector<std::string>& labels) {
    std::istringstream in(text);
    std::string line;
    double found = std::nan("");
    int hits = 0;
    while (std::getline(in, line)) {
        if (line.rfind(family + "{", 0) != 0)
            continue;
        bool all = true;
        for (const auto& l : labels)
            all = all && line.find(l) != std::string::npos;
        if (!all)
            continue;
        ++hits;
        found = std::stod(line.substr(line.rfind(' ') + 1));
    }
    return hits > 1 ? -1 : found;
}

int run(const std::vector<std::string>& args, std::string& out, std::string& err) {
    std::vector<const char*> argv{"amdx"};
    if (args.empty() || args[0] != "-d") {
        argv.push_back("-d");
        argv.push_back("/dev/null");
    }
    for (const auto& a : args)
        argv.push_back(a.c_str());
    std::ostringstream o, e;
    const int rc = amdx::cli::run(static_cast<int>(argv.size()), argv.data(), o, e);
    out = o.str();
    err = e.str();
    return rc;
}

// ---- exporter

/// @inj into device @id through libamdx, as `amdx ras inject` would.
void ras_inject(std::uint32_t id, const amdx::RasInjection& inj) {
    auto control = Control::open("/dev/null");
    ASSERT_TRUE(control);
    auto dev = Device::open(*control, id);
    ASSERT_TRUE(dev);
    ASSERT_TRUE(dev->ras_inject(inj));
}

TEST(FleetExporter, InjectedErrorsAreCountersPerDeviceAndPartition) {
    FakeKernel k;
    k.add_device(0);
    k.add_device(1);
    k.devices[1].compute_mode = AMDX_COMPUTE_CPX;
    amdx::RasInjection inj;
    inj.block = amdx::RasBlock::gfx;
    inj.type = amdx::RasType::ue;
    inj.instance = 5; // XCC 5: partition 5 in CPX
    inj.count = 9;
    ras_inject(1, inj);
    const std::string text = metrics_text();
    EXPECT_NE(text.find("# TYPE amdx_ras_errors_total counter"), std::string::npos);
    EXPECT_EQ(
        sample(text, "amdx_ras_errors_total", {"device=\"1\"", "block=\"gfx\"", "type=\"ue\""}), 9);
    EXPECT_EQ(
        sample(text, "amdx_ras_errors_total", {"device=\"0\"", "block=\"gfx\"", "type=\"ue\""}), 0);
    EXPECT_EQ(sample(text, "amdx_partition_ras_errors_total",
                     {"device=\"1\"", "partition=\"5\"", "block=\"gfx\"", "type=\"ue\""}),
              9);
    EXPECT_EQ(sample(text, "amdx_partition_ras_errors_total",
                     {"device=\"1\"", "partition=\"4\"", "block=\"gfx\"", "type=\"ue\""}),
              0);
    // Per-partition series carry the partition in DME's label too.
    EXPECT_EQ(
        sample(text, "amdx_partition_state",
               {"device=\"1\"", "gpu_partition_id=\"7\"", "partition=\"7\"", "state=\"online\""}),
        1);
}

TEST(FleetExporter, EverySeriesCarriesTheIdentityLabels) {
    FakeKernel k;
    k.add_device(0);
    const std::string text = metrics_text();
    std::istringstream in(text);
    int series = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#' || line.rfind("amdx_up", 0) == 0 ||
            line.rfind("amdx_exporter_", 0) == 0)
            continue;
        ++series;
        for (const char* l : {"hostname=\"h1\"", "serial_number=\"SN1000\"", "gpu_partition_id=\"",
                              "device=\"0\"", "bdf=\"0000:c1:00.0\"", "partition=\""})
            EXPECT_NE(line.find(l), std::string::npos) << l << " missing in " << line;
        // What a partition switch or a board's naming changes is on the
        // info series only (metrics.rst, "Labels").
        if (line.rfind("amdx_device_info{", 0) == 0)
            continue;
        for (const char* l :
             {"gpu_compute_partition_type=", "gpu_memory_partition_type=", "card_model="})
            EXPECT_EQ(line.find(l), std::string::npos) << l << " in " << line;
    }
    EXPECT_GT(series, 20);
}

// Versions are info series (metrics.rst, "Labels"): amdx_driver_info and
// one amdx_firmware_info per firmware, value 1, the versions as labels;
// none from a provider that reports no versions, and the rest stays.
TEST(FleetExporter, DriverAndFirmwareVersionsAreInfoSeries) {
    FakeKernel k;
    k.add_device(0);
    std::string text = metrics_text();
    EXPECT_EQ(sample(text, "amdx_driver_info",
                     {"device=\"0\"", "driver_version=\"0.1.0\"", "provider=\"amdx_sim\"",
                      "provider_version=\"0.1.0\""}),
              1);
    EXPECT_EQ(sample(text, "amdx_firmware_info",
                     {"device=\"0\"", "firmware=\"smu\"", "instance=\"0\"",
                      "fw_version=\"0x00557100\"", "feature=\"0\""}),
              1);
    EXPECT_EQ(sample(text, "amdx_firmware_info",
                     {"firmware=\"sdma\"", "instance=\"1\"", "feature=\"60\""}),
              1);
    k.firmware.reset();
    text = metrics_text();
    EXPECT_EQ(text.find("amdx_firmware_info{"), std::string::npos);
    EXPECT_EQ(text.find("amdx_driver_info{"), std::string::npos);
    EXPECT_NE(text.find("amdx_up{hostname=\"h1\"} 1"), std::string::npos) << text;
}

/// The label sets (name and labels, no value) of @family's series.
std::set<std::string> label_sets(const std::string& text, const std::string& family) {
    std::set<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(family + "{", 0) == 0)
            out.insert(line.substr(0, line.rfind(' ')));
    return out;
}

/// Devices 0 and 1 (added) in hive 5, joined by link 0 in @state (port
/// 3 of device 0, port 0 of device 1) with 2 CEs, 1 UE and 30 replays.
void hive_of_two(FakeKernel& k, std::uint32_t state) {
    k.devices[0].hive_id = 5;
    k.devices[1].hive_id = 5;
    amdx_link_info l{};
    l.device[1] = 1;
    l.port[0] = 3;
    l.state = state;
    l.ce = 2;
    l.ue = 1;
    l.replays = 30;
    k.links.push_back(l);
}

// A link is one series however many of its ends are on the host, with both
// ends' identities; a device in no hive has none, and a module without
// AMDX_QUERY_LINKS (EINVAL) still exports everything else.
TEST(FleetExporter, LinksOncePerHiveWithBothEnds) {
    FakeKernel k;
    for (std::uint32_t id = 0; id < 3; ++id)
        k.add_device(id);
    hive_of_two(k, AMDX_LINK_STATE_DOWN);
    const std::string text = metrics_text();
    EXPECT_NE(text.find("# TYPE amdx_link_state gauge"), std::string::npos);
    EXPECT_EQ(label_sets(text, "amdx_link_state").size(), 1U) << text;
    EXPECT_EQ(sample(text, "amdx_link_state",
                     {"hostname=\"h1\"", "hive_id=\"5\"", "link=\"0\"", "kind=\"xgmi\"",
                      "device_a=\"0\"", "bdf_a=\"0000:c1:00.0\"", "serial_number_a=\"SN1000\"",
                      "port_a=\"3\"", "device_b=\"1\"", "port_b=\"0\""}),
              AMDX_LINK_STATE_DOWN);
    EXPECT_EQ(sample(text, "amdx_link_state", {"end_a=\"\"", "fabric_id_a=\"\"", "vpod_a=\"\""}),
              AMDX_LINK_STATE_DOWN); // a module before uapi minor 6
    EXPECT_EQ(sample(text, "amdx_link_errors_total", {"type=\"ce\""}), 2);
    EXPECT_EQ(sample(text, "amdx_link_errors_total", {"type=\"ue\""}), 1);
    EXPECT_EQ(sample(text, "amdx_link_errors_total", {"type=\"replay\""}), 30);
    // A provider that counts no errors per link (AMDX_LINK_F_NO_COUNTERS):
    // no error series, not a 0 that reads as "no errors"; the state stays.
    k.links[0].flags = AMDX_LINK_F_NO_COUNTERS;
    const std::string none = metrics_text();
    EXPECT_EQ(none.find("amdx_link_errors_total{"), std::string::npos) << none;
    EXPECT_EQ(label_sets(none, "amdx_link_state").size(), 1U) << none;
    k.fail_query = AMDX_QUERY_LINKS;
    k.fail_errno = EINVAL;
    const std::string old = metrics_text();
    EXPECT_EQ(old.find("amdx_link_"), std::string::npos);
    EXPECT_NE(old.find("amdx_device_info{"), std::string::npos);
}

// A scale-up pod's ends are labelled by what they are (uapi minor 6 and 7):
// this host's device by id, BDF and serial, a remote accelerator and a
// switch by fabric id, an accelerator by its OS domain and virtual pod;
// never by the kernel's U32_MAX for "no device of this host".
TEST(FleetExporter, PodLinkEndsAreLabelledByIdentity) {
    FakeKernel k;
    k.add_device(0);
    k.devices[0].hive_id = 0x11c1;
    amdx_link_info local{};
    local.kind = AMDX_LINK_KIND_SCALEUP;
    local.device[0] = 0;
    local.device[1] = UINT32_MAX;
    local.port[0] = 2;
    local.port[1] = 3;
    local.end[0] = AMDX_LINK_END_DEVICE;
    local.end[1] = AMDX_LINK_END_SWITCH;
    local.fabric_id[0] = 3;
    local.fabric_id[1] = 2;
    local.vpod[0] = 2;
    amdx_link_info remote = local;
    remote.link = 1;
    remote.device[0] = UINT32_MAX;
    remote.port[1] = 41;
    remote.end[0] = AMDX_LINK_END_REMOTE;
    remote.domain[0] = 10;
    remote.fabric_id[0] = 41;
    remote.vpod[0] = 21;
    remote.state = AMDX_LINK_STATE_PARKED;
    k.links = {local, remote};
    const std::string text = metrics_text();
    EXPECT_EQ(text.find("4294967295"), std::string::npos) << text;
    EXPECT_EQ(label_sets(text, "amdx_link_state").size(), 2U) << text;
    EXPECT_EQ(sample(text, "amdx_link_state",
                     {"link=\"0\"", "kind=\"scaleup\"", "device_a=\"0\"", "bdf_a=\"0000:c1:00.0\"",
                      "end_a=\"device\"", "fabric_id_a=\"3\"", "domain_a=\"0\"", "vpod_a=\"2\"",
                      "device_b=\"\"", "bdf_b=\"\"", "end_b=\"switch\"", "fabric_id_b=\"2\"",
                      "domain_b=\"\"", "vpod_b=\"\""}),
              AMDX_LINK_STATE_UP);
    EXPECT_EQ(sample(text, "amdx_link_state",
                     {"link=\"1\"", "device_a=\"\"", "bdf_a=\"\"", "end_a=\"accelerator\"",
                      "fabric_id_a=\"41\"", "domain_a=\"10\"", "vpod_a=\"21\"", "end_b=\"switch\"",
                      "port_b=\"41\""}),
              AMDX_LINK_STATE_PARKED);
}

// A partition switch must not start new device-wide series: rate() over a
// counter whose labels change loses its history.  On dd925ee every series
// carried gpu_compute_partition_type, so SPX -> CPX renamed them all.
TEST(FleetExporter, DeviceSeriesKeepTheirLabelsAcrossAPartitionSwitch) {
    FakeKernel k;
    k.add_device(0);
    const std::string before = metrics_text();
    {
        auto control = Control::open("/dev/null");
        ASSERT_TRUE(control);
        auto dev = Device::open(*control, 0);
        ASSERT_TRUE(dev);
        amdx::PartitionRequest req;
        req.compute = amdx::ComputeMode::cpx;
        ASSERT_TRUE(dev->partition_commit(req));
    }
    const std::string after = metrics_text();
    ASSERT_NE(before, after);
    for (const char* family :
         {"amdx_ras_errors_total", "amdx_device_vram_bytes", "amdx_retired_pages_total",
          "amdx_device_rma", "amdx_partition_commits_total", "amdx_partition_generation"}) {
        const auto b = label_sets(before, family);
        EXPECT_FALSE(b.empty()) << family;
        EXPECT_EQ(b, label_sets(after, family)) << family;
    }
    // The mode is on the info series, in device-metrics-exporter's spelling.
    EXPECT_EQ(sample(before, "amdx_device_info",
                     {"gpu_compute_partition_type=\"spx\"", "gpu_memory_partition_type=\"nps1\""}),
              1);
    EXPECT_EQ(sample(after, "amdx_device_info", {"gpu_compute_partition_type=\"cpx\""}), 1);
}

// device-metrics-exporter labels a device's own series gpu_partition_id
// "0" (an unpartitioned GPU, or the first partition, which carries the
// device-wide values); on dd925ee amdx said "all", which joins nothing.
TEST(FleetExporter, DeviceWideSeriesJoinPartitionZero) {
    FakeKernel k;
    k.add_device(0);
    const std::string text = metrics_text();
    EXPECT_EQ(sample(text, "amdx_device_rma", {"gpu_partition_id=\"0\"", "partition=\"all\""}), 0);
    EXPECT_TRUE(std::isnan(sample(text, "amdx_device_vram_bytes", {"gpu_partition_id=\"all\""})))
        << "no series says gpu_partition_id=\"all\"";
}

TEST(FleetExporter, RetiredPagesByCauseAndRma) {
    FakeKernel k;
    k.add_device(0);
    auto& s = k.state(0);
    for (std::uint16_t cause :
         {AMDX_BADPAGE_CAUSE_UE, AMDX_BADPAGE_CAUSE_UE, AMDX_BADPAGE_CAUSE_IMPORT}) {
        amdx_badpage_record r{};
        r.address = 0x1000 * (s.badpages.size() + 1);
        r.cause = cause;
        s.badpages.push_back(r);
    }
    s.ras_flags = AMDX_RAS_F_RMA;
    const std::string text = metrics_text();
    EXPECT_EQ(sample(text, "amdx_retired_pages_total", {"cause=\"ue\""}), 2);
    EXPECT_EQ(sample(text, "amdx_retired_pages_total", {"cause=\"import\""}), 1);
    EXPECT_EQ(sample(text, "amdx_retired_pages_total", {"cause=\"ce\""}), 0);
    EXPECT_EQ(sample(text, "amdx_device_rma", {"device=\"0\""}), 1);
}

TEST(FleetExporter, EventTalliesCountKindsAndWhatTheSubscriptionMissed) {
    FakeKernel k;
    k.add_device(0);
    EventTallies t;
    auto ev = [](amdx::EventKind kind, std::uint64_t seq) {
        amdx::Event e;
        e.kind = kind;
        e.seq = seq;
        return e;
    };
    t.add(ev(amdx::EventKind::migrate, 1));
    auto lost = ev(amdx::EventKind::lost, 2);
    lost.data[0] = 5;
    lost.data[1] = 6;
    t.add(lost);
    t.add(ev(amdx::EventKind::partition_switch, 7));
    t.add(ev(amdx::EventKind::partition_switch, 8));
    const auto tallies = t.get();
    const std::string text = metrics_text(&tallies);
    EXPECT_EQ(sample(text, "amdx_events_total", {"kind=\"partition_switch\""}), 2);
    EXPECT_EQ(sample(text, "amdx_events_total", {"kind=\"migrate\""}), 1);
    EXPECT_EQ(sample(text, "amdx_events_missed_total", {"device=\"0\""}), 5);
    EXPECT_EQ(sample(text, "amdx_events_last_seq", {"device=\"0\""}), 8);
    // The counters the kernel keeps do not come from the tallies.
    EXPECT_EQ(
        sample(text, "amdx_hmm_migrations_total", {"direction=\"to_vram\"", "cause=\"migrate\""}),
        0);
    EXPECT_EQ(sample(text, "amdx_events_lost_total", {"device=\"0\""}), 0);
}

// The kernel's counters (AMDX_QUERY_STATS) are _total counters in every
// mode, a one-shot textfile run included: no event subscription needed.
TEST(FleetExporter, KernelCountersInEveryMode) {
    FakeKernel k;
    k.add_device(0);
    k.add_device(1);
    k.caps.caps |= AMDX_CAP_HMM_MIGRATE;
    const auto page = static_cast<double>(::sysconf(_SC_PAGESIZE));
    {
        auto control = Control::open("/dev/null");
        ASSERT_TRUE(control);
        auto dev = Device::open(*control, 1);
        ASSERT_TRUE(dev);
        std::vector<char> mem(8 * static_cast<std::size_t>(page) * 2);
        const auto start =
            (reinterpret_cast<std::uintptr_t>(mem.data()) + static_cast<std::uintptr_t>(page) - 1) &
            ~(static_cast<std::uintptr_t>(page) - 1);
        amdx::HmmAttr attr;
        attr.start = start;
        attr.size = 8 * static_cast<std::uint64_t>(page);
        ASSERT_TRUE(dev->set_attr(attr));
        ASSERT_TRUE(dev->migrate(start, attr.size, 0));
        ASSERT_TRUE(dev->migrate(start, attr.size / 2, amdx::kHmmLocSystem));
        amdx::PartitionRequest req;
        req.compute = amdx::ComputeMode::cpx;
        ASSERT_TRUE(dev->partition_commit(req));
        k.part_fail_step = AMDX_PART_STEP_COMPUTE;
        req.compute = amdx::ComputeMode::dpx;
        ASSERT_FALSE(dev->partition_commit(req));
        k.part_fail_step.reset();
        k.part_refuse = AMDX_PART_REASON_INCOMPATIBLE;
        ASSERT_FALSE(dev->partition_commit(req));
        ASSERT_FALSE(dev->partition_commit(req));
    }
    auto& st = k.state(1).stats;
    st.fault_migrations = 3;
    st.fault_bytes = 3ULL * 4096;
    st.evictions = 2;
    st.evicted_bytes = 1 << 20;
    st.drains = 1;
    st.drained_bytes = 8192;
    st.vf_flrs = 4;
    st.events_lost = 17;
    std::string out, err;
    ASSERT_EQ(run({"exporter", "--textfile", "-"}, out, err), 0) << err;
    const std::vector<std::string> d1{"device=\"1\""};
    auto at = [&](const std::string& family, std::vector<std::string> labels) {
        labels.insert(labels.end(), d1.begin(), d1.end());
        return sample(out, family, labels);
    };
    EXPECT_NE(out.find("# TYPE amdx_hmm_migrations_total counter"), std::string::npos);
    EXPECT_EQ(at("amdx_hmm_migrations_total", {"direction=\"to_vram\"", "cause=\"migrate\""}), 1);
    EXPECT_EQ(at("amdx_hmm_migrated_bytes_total", {"direction=\"to_vram\"", "cause=\"migrate\""}),
              8 * page);
    EXPECT_EQ(at("amdx_hmm_migrations_total", {"direction=\"to_system\"", "cause=\"migrate\""}), 1);
    EXPECT_EQ(at("amdx_hmm_migrated_bytes_total", {"direction=\"to_system\"", "cause=\"migrate\""}),
              4 * page);
    EXPECT_EQ(at("amdx_hmm_migrations_total", {"cause=\"cpu_fault\""}), 3);
    EXPECT_EQ(at("amdx_hmm_migrated_bytes_total", {"cause=\"cpu_fault\""}), 3 * 4096);
    EXPECT_EQ(at("amdx_hmm_migrations_total", {"cause=\"eviction\""}), 2);
    EXPECT_EQ(at("amdx_hmm_migrated_bytes_total", {"cause=\"eviction\""}), 1 << 20);
    EXPECT_EQ(at("amdx_hmm_migrations_total", {"cause=\"drain\""}), 1);
    EXPECT_EQ(at("amdx_hmm_migrated_bytes_total", {"cause=\"drain\""}), 8192);
    EXPECT_EQ(at("amdx_partition_commits_total", {"outcome=\"committed\""}), 1);
    EXPECT_EQ(at("amdx_partition_commits_total", {"outcome=\"rolled_back\""}), 1);
    EXPECT_EQ(at("amdx_partition_commits_total", {"outcome=\"refused\""}), 2);
    EXPECT_EQ(at("amdx_vf_flrs_total", {}), 4);
    // one PARTITION_SWITCH record per step of the commit that went through
    EXPECT_EQ(at("amdx_events_emitted_total", {}), static_cast<double>(k.state(1).seq));
    EXPECT_GT(k.state(1).seq, 0U);
    EXPECT_EQ(at("amdx_events_lost_total", {}), 17);
    // device 0 did nothing: every counter is there, at 0
    EXPECT_EQ(sample(out, "amdx_hmm_migrations_total",
                     {"device=\"0\"", "direction=\"to_vram\"", "cause=\"migrate\""}),
              0);
    EXPECT_EQ(sample(out, "amdx_vf_flrs_total", {"device=\"0\""}), 0);
    // a one-shot run has no event-derived series
    EXPECT_EQ(out.find("amdx_events_total"), std::string::npos);
}

TEST(FleetExporter, OneCollectionIsABoundedNumberOfIoctlsPerDevice) {
    // metrics.rst: the device list (2 calls) plus at most 17 per device,
    // whatever the number of retired pages, and one recovery plan per
    // target (the device, 8 partitions, 8 VFs) where the module has them.
    for (const unsigned n : {1U, 8U}) {
        FakeKernel k;
        for (unsigned i = 0; i < n; ++i) {
            k.add_device(i);
            k.devices[i].compute_mode = AMDX_COMPUTE_CPX;
            k.devices[i].num_vfs = 8;
            auto& s = k.state(i);
            for (std::uint32_t v = 0; v < 8; ++v) {
                amdx_vf_info vf{};
                vf.vf = v;
                s.vfs.push_back(vf);
            }
            for (std::uint32_t p = 0; p < 100; ++p) {
                amdx_badpage_record r{};
                r.address = 0x1000ULL * (p + 1);
                r.cause = AMDX_BADPAGE_CAUSE_CE;
                s.badpages.push_back(r);
            }
        }
        auto control = Control::open("/dev/null");
        ASSERT_TRUE(control);
        k.calls.clear();
        std::string what;
        ASSERT_TRUE(amdx::cli::collect(*control, what));
        EXPECT_LE(k.calls.size(), 2U + (17U + 1U + 8U + 8U) * n) << n << " devices";
        EXPECT_GE(k.calls.size(), 1U + 8U * n) << n << " devices";
    }
}

TEST(FleetExporter, ModuleNotLoadedIsOneLineAndExitThree) {
    FakeKernel k;
    std::string out, err;
    // The CLI's exit status for "module not loaded" (cli.rst); standard
    // output, the textfile, says the collection failed.
    EXPECT_EQ(run({"-d", "/nonexistent/amdx", "exporter", "--textfile", "-"}, out, err), 3);
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_NE(err.find("module not loaded"), std::string::npos) << err;
    EXPECT_EQ(sample(out, "amdx_up", {}), 0) << out;
}

// Without /dev/amdx (a module unload, a failed DKMS build) the textfile
// must stop saying amdx_up 1: node-exporter would serve the last
// collection's values as live.  Replaced atomically, as any collection.
TEST(FleetExporter, ModuleNotLoadedReplacesAStaleTextfileWithUpZero) {
    FakeKernel k;
    k.add_device(0);
    const auto dir =
        std::filesystem::temp_directory_path() / ("amdx-textfile-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string file = (dir / "amdx.prom").string();
    auto slurp = [&file] {
        std::ifstream in(file);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    std::string out, err;
    ASSERT_EQ(run({"exporter", "--textfile", file}, out, err), 0) << err;
    ASSERT_EQ(sample(slurp(), "amdx_up", {}), 1);

    EXPECT_EQ(run({"-d", "/nonexistent/amdx", "exporter", "--textfile", file}, out, err), 3);
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    const std::string text = slurp();
    EXPECT_EQ(sample(text, "amdx_up", {}), 0) << text;
    EXPECT_EQ(text.find("amdx_device_info"), std::string::npos) << text;
    // Nothing left beside it (the temporary file was renamed over it).
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir))
        ++files;
    EXPECT_EQ(files, 1U);
    std::filesystem::remove_all(dir);
}

// --listen serves HTTP, --textfile and --interval are the textfile mode:
// given together one of them would be ignored silently, so it is a usage
// error, before anything is opened.
TEST(FleetExporter, ListenWithTextfileOrIntervalIsAUsageError) {
    FakeKernel k;
    for (const auto* other : {"--textfile", "--interval"}) {
        std::string out, err;
        const std::string value = std::string(other) == "--textfile" ? "/nonexistent/f" : "5";
        EXPECT_EQ(run({"exporter", "--listen", "127.0.0.1:0", other, value, "--iterations", "1"},
                      out, err),
                  2)
            << other << ": " << err;
        EXPECT_EQ(err.rfind("amdx: " + std::string(other) + " excludes --listen", 0), 0) << err;
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
        EXPECT_TRUE(out.empty()) << out;
        EXPECT_TRUE(k.calls.empty()) << other << ": the node was opened";
    }
}

// A --listen that is not ADDR:PORT (a port above 65535, no port at all)
// is a usage error found by the parser, not a failure to listen (exit 1).
TEST(FleetExporter, BadListenAddressIsAUsageError) {
    FakeKernel k;
    for (const auto* bad : {"127.0.0.1:65536", "localhost", "127.0.0.1:", ":9464x", "[::1]"}) {
        std::string out, err;
        EXPECT_EQ(run({"exporter", "--listen", bad, "--iterations", "1"}, out, err), 2)
            << bad << ": " << err;
        EXPECT_NE(err.find("--listen: "), std::string::npos) << err;
        EXPECT_NE(err.find("expected ADDR:PORT"), std::string::npos) << err;
        EXPECT_TRUE(out.empty()) << out;
    }
}

/// @text without @family's HELP, TYPE and series lines.
std::string without_family(const std::string& text, const std::string& family) {
    std::istringstream in(text);
    std::string out;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(family + "{", 0) == 0 || line.rfind("# HELP " + family + " ", 0) == 0 ||
            line.rfind("# TYPE " + family + " ", 0) == 0)
            continue;
        out += line + '\n';
    }
    return out;
}

/// Device @id in CPX with @vfs VFs, through libamdx as `amdx partition
/// set` and `amdx vf enable` would.
void cpx_with_vfs(std::uint32_t id, std::uint32_t vfs) {
    auto control = Control::open("/dev/null");
    ASSERT_TRUE(control);
    auto dev = Device::open(*control, id);
    ASSERT_TRUE(dev);
    amdx::PartitionRequest req;
    req.compute = amdx::ComputeMode::cpx;
    ASSERT_TRUE(dev->partition_commit(req));
    ASSERT_TRUE(dev->vf_enable(vfs));
}

/// Two devices in hive 5 joined by a link with counted errors; device 1 in
/// CPX with 2 VFs, a gfx UE in partition 5 and a retired page, partition 3
/// and VF 1 with a recovery pending: a state in which every family of
/// metrics.rst has series.
void fleet_host(FakeKernel& k) {
    k.add_device(0);
    k.add_device(1);
    hive_of_two(k, AMDX_LINK_STATE_REPLAY);
    cpx_with_vfs(1, 2);
    amdx::RasInjection inj;
    inj.block = amdx::RasBlock::gfx;
    inj.type = amdx::RasType::ue;
    inj.instance = 5;
    inj.count = 9;
    ras_inject(1, inj);
    inj = amdx::RasInjection{};
    inj.block = amdx::RasBlock::umc;
    inj.type = amdx::RasType::ue;
    inj.address = 0x100000;
    inj.count = 1;
    ras_inject(1, inj);
    k.recovery_fault(1, 3, AMDX_VF_NONE, AMDX_RECOVER_PARTITION, AMDX_FAULT_DEVICE_UE);
    k.recovery_fault(1, AMDX_RAS_PARTITION_ALL, 1, AMDX_RECOVER_VF, AMDX_FAULT_DEVICE_UE);
}

// The exposition, byte for byte, of fleet_host() with event tallies and a
// collection time: what the exporter renders is a contract
// (metrics.rst), and the cost of rendering it ("Scrape cost") is cut
// without changing one byte.  The fixture was written by main's exporter
// before that work; after an intended change of the exposition, rewrite
// it with AMDX_WRITE_FIXTURE=1 (the test then fails once, saying so) and
// review its diff.
TEST(FleetExporter, ExpositionIsTheFixtureByteForByte) {
    FakeKernel k;
    fleet_host(k);
    EventTallies t;
    amdx::Event e;
    e.kind = amdx::EventKind::partition_switch;
    e.seq = 7;
    t.add(e);
    e.kind = amdx::EventKind::recovery;
    e.type = AMDX_RECOVERY_EV_SELFTEST;
    e.seq = 8;
    e.data[0] = AMDX_RECOVERY_SUM_VALID | AMDX_RECOVER_PARTITION;
    t.add(e);
    const auto tallies = t.get();
    const std::string text =
        amdx::cli::to_text(amdx::cli::to_metrics(snapshots(), "h1", &tallies, 0.25));
    const std::string fixture = AMDX_TEST_FIXTURES "/exporter/fleet-host.prom";
    if (std::getenv("AMDX_WRITE_FIXTURE") != nullptr) {
        std::ofstream(fixture, std::ios::binary) << text;
        FAIL() << "wrote " << fixture << ": review its diff, then run without AMDX_WRITE_FIXTURE";
    }
    std::ifstream in(fixture, std::ios::binary);
    ASSERT_TRUE(in) << fixture;
    const std::string want(std::istreambuf_iterator<char>(in), {});
    EXPECT_GT(want.size(), 20000U);
    EXPECT_EQ(text, want);
}

// A one-shot --textfile run writes what the serializer renders into a
// string, byte for byte, for a fleet host's exposition of many times the
// output buffer (FdOutBuf, 64 KiB): the file is written straight from the
// serializer, not from a string of it.
TEST(FleetExporter, TextfileIsTheExpositionOfALargeFleet) {
    FakeKernel k;
    for (std::uint32_t id = 0; id < 8; ++id) {
        k.add_device(id);
        cpx_with_vfs(id, 8);
    }
    const auto dir =
        std::filesystem::temp_directory_path() / ("amdx-large-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string file = (dir / "amdx.prom").string();
    std::string out, err;
    ASSERT_EQ(run({"exporter", "--textfile", file}, out, err), 0) << err;
    std::ifstream in(file, std::ios::binary);
    const std::string written(std::istreambuf_iterator<char>(in), {});
    std::filesystem::remove_all(dir);
    EXPECT_GT(written.size(), 4U * 64 * 1024);
    // The one line that differs between two collections: their time.
    const std::string want = amdx::cli::to_text(
        amdx::cli::to_metrics(snapshots(), amdx::cli::host_name(), nullptr, std::nullopt));
    EXPECT_EQ(without_family(written, "amdx_exporter_collect_duration_seconds"), want);
    ASSERT_EQ(run({"exporter", "--textfile", "-"}, out, err), 0) << err;
    EXPECT_EQ(without_family(out, "amdx_exporter_collect_duration_seconds"), want);
}

// ---- health

Snapshot one_snapshot(FakeKernel& /*k: must be alive*/) {
    auto s = snapshots();
    EXPECT_EQ(s.size(), 1U);
    return s.empty() ? Snapshot{} : s.front();
}

JournalRecord rec(std::uint64_t seq, std::string kind, std::uint64_t ts_ns,
                  std::optional<std::uint32_t> partition = std::nullopt) {
    JournalRecord r;
    r.seq = seq;
    r.kind = std::move(kind);
    r.timestamp_ns = ts_ns;
    r.partition = partition;
    return r;
}

constexpr std::uint64_t kSec = 1000000000ULL;

TEST(FleetHealth, HealthyDeviceWithoutRecords) {
    FakeKernel k;
    k.add_device(0);
    const DeviceHealth h = amdx::cli::evaluate(one_snapshot(k), {}, HealthRules{});
    EXPECT_EQ(h.verdict(), Verdict::healthy);
    EXPECT_TRUE(h.findings.empty());
    ASSERT_EQ(h.partitions.size(), 1U);
}

// The journal's UE rules as a module without recovery (before uapi minor
// 1: RECOVERY_PLAN is ENOTTY) has them; with recovery the pending action
// decides (FleetRecovery.*).
void without_recovery(FakeKernel& k) {
    k.fail_ioctl[AMDX_IOC_RECOVERY_PLAN] = ENOTTY;
}

TEST(FleetHealth, RecentUncontainedUeIsUnhealthyAndStaleUeIsNot) {
    FakeKernel k;
    k.add_device(0);
    without_recovery(k);
    const Snapshot s = one_snapshot(k);
    auto ue = rec(10, "error", 1000 * kSec);
    ue.type = "ue";
    ue.block = "umc";
    HealthRules rules;
    rules.ue_age_s = 3600;
    rules.now_mono_ns = 1000 * kSec + 60 * kSec; // a minute later
    DeviceHealth h = amdx::cli::evaluate(s, {ue}, rules);
    EXPECT_EQ(h.verdict(), Verdict::unhealthy);
    ASSERT_EQ(h.findings.size(), 1U);
    EXPECT_EQ(h.findings[0].seq, 10U);
    EXPECT_EQ(h.findings[0].timestamp_ns, 1000 * kSec);
    EXPECT_NE(h.findings[0].clears.find("no repeat for 3600 s"), std::string::npos);

    // The same fatal record an hour and a bit later: stale, the device is
    // healthy again (device-metrics-exporter #506 kept it cordoned).
    rules.now_mono_ns = 1000 * kSec + 3601 * kSec;
    h = amdx::cli::evaluate(s, {ue}, rules);
    EXPECT_EQ(h.verdict(), Verdict::healthy);

    // A record from another boot (monotonic stamp ahead of now) is stale.
    rules.now_mono_ns = 10 * kSec;
    EXPECT_EQ(amdx::cli::evaluate(s, {ue}, rules).verdict(), Verdict::healthy);
}

TEST(FleetHealth, ContainedUeIsDegradedNotUnhealthy) {
    FakeKernel k;
    k.add_device(0);
    without_recovery(k);
    const Snapshot s = one_snapshot(k);
    auto ue = rec(10, "error", 1000 * kSec, 0);
    ue.type = "ue";
    ue.block = "gfx";
    auto done = rec(12, "action_end", 1001 * kSec, 0);
    done.action = "partition_reset";
    done.result = "ok";
    auto failed = done;
    failed.result = "EIO";
    HealthRules rules;
    rules.now_mono_ns = 1002 * kSec;
    EXPECT_EQ(amdx::cli::evaluate(s, {ue, failed}, rules).verdict(), Verdict::unhealthy);
    const DeviceHealth h = amdx::cli::evaluate(s, {ue, done}, rules);
    EXPECT_EQ(h.verdict(), Verdict::degraded);
    ASSERT_EQ(h.partitions[0].findings.size(), 1U);
    EXPECT_NE(h.partitions[0].findings[0].cause.find("contained by partition_reset at seq 12"),
              std::string::npos);
    // A containment before the error does not count.
    done.seq = 9;
    EXPECT_EQ(amdx::cli::evaluate(s, {ue, done}, rules).verdict(), Verdict::unhealthy);
}

TEST(FleetHealth, PartitionStatesAndRma) {
    FakeKernel k;
    k.add_device(0);
    k.devices[0].compute_mode = AMDX_COMPUTE_DPX;
    auto& st = k.state(0);
    ASSERT_EQ(st.partitions.size(), 2U);
    st.partitions[0].state = AMDX_PART_STATE_QUARANTINED;
    st.partitions[1].state = AMDX_PART_STATE_OFFLINE;
    st.partitions[1].resets = 3;
    auto off = rec(20, "partition_offline", 5 * kSec, 1);
    DeviceHealth h = amdx::cli::evaluate(one_snapshot(k), {off}, HealthRules{});
    EXPECT_EQ(h.partitions[0].verdict(), Verdict::degraded);
    EXPECT_EQ(h.partitions[1].verdict(), Verdict::unhealthy);
    EXPECT_EQ(h.partitions[1].findings[0].seq, 20U);
    EXPECT_EQ(h.verdict(), Verdict::unhealthy);

    // Restored: the kernel's state is authoritative, the old record is not.
    st.partitions[0].state = AMDX_PART_STATE_ONLINE;
    st.partitions[1].state = AMDX_PART_STATE_ONLINE;
    EXPECT_EQ(amdx::cli::evaluate(one_snapshot(k), {off}, HealthRules{}).verdict(),
              Verdict::healthy);

    st.ras_flags = AMDX_RAS_F_RMA;
    h = amdx::cli::evaluate(one_snapshot(k), {}, HealthRules{});
    EXPECT_EQ(h.verdict(), Verdict::unhealthy);
    EXPECT_NE(h.findings[0].cause.find("flagged for return"), std::string::npos);
}

// A fabric link that is not up degrades both its ends and names itself;
// the other devices and an up link say nothing; up again, it clears.
TEST(FleetHealth, LinkNotUpDegradesItsEndsAndNamesIt) {
    FakeKernel k;
    k.add_device(0);
    Snapshot s = one_snapshot(k);
    amdx::LinkInfo up;
    up.link = 0;
    up.device = {0, 1};
    up.hops = 1;
    amdx::LinkInfo storm = up;
    storm.link = 7;
    storm.device = {2, 0};
    storm.state = amdx::LinkState::replay;
    storm.contain = amdx::LinkContain::move;
    storm.hops = 2;
    storm.flags = AMDX_LINK_F_ROUTE_DEGRADED;
    amdx::LinkInfo cut = storm;
    cut.link = 9;
    cut.device = {3, 4};
    cut.state = amdx::LinkState::parked;
    cut.hops = 0;
    s.links.hive_id = 0x11c0;
    s.links.links = {up, storm, cut};

    DeviceHealth h = amdx::cli::evaluate(s, {}, HealthRules{});
    EXPECT_EQ(h.verdict(), Verdict::degraded);
    ASSERT_EQ(h.findings.size(), 1U);
    EXPECT_EQ(h.findings[0].cause,
              "fabric link 7 to device 2 replay (move; route 2 hops, bandwidth degraded)");
    EXPECT_FALSE(h.findings[0].seq);

    s.info.id = 3;
    h = amdx::cli::evaluate(s, {}, HealthRules{});
    ASSERT_EQ(h.findings.size(), 1U);
    EXPECT_EQ(h.findings[0].cause, "fabric link 9 to device 4 parked (move; no route left)");

    // A pod's link to a switch plane names the plane, not U32_MAX.
    amdx::LinkInfo plane = cut;
    plane.device = {3, UINT32_MAX};
    plane.end = {AMDX_LINK_END_DEVICE, AMDX_LINK_END_SWITCH};
    plane.fabric_id = {14, 2};
    plane.state = amdx::LinkState::down;
    plane.hops = 1;
    plane.flags = 0;
    s.links.links = {plane};
    h = amdx::cli::evaluate(s, {}, HealthRules{});
    ASSERT_EQ(h.findings.size(), 1U);
    EXPECT_EQ(h.findings[0].cause, "fabric link 9 to switch plane 2 down (move; route 1 hop)");
    s.links.links = {up, storm, cut};

    s.info.id = 5;
    EXPECT_EQ(amdx::cli::evaluate(s, {}, HealthRules{}).verdict(), Verdict::healthy);
    s.info.id = 0;
    s.links.links[1].state = amdx::LinkState::up;
    EXPECT_EQ(amdx::cli::evaluate(s, {}, HealthRules{}).verdict(), Verdict::healthy);
}

TEST(FleetHealth, JournalParsesMonitorLinesAndSkipsJunk) {
    std::istringstream in(
        R"({"device":0,"seq":3,"timestamp_ns":99,"kind":"error","block":"umc","type":"ue","instance":0,"partition":0,"address":4096,"count":1})"
        "\nnot json\n"
        R"({"device":0,"kind":"error"})"
        "\n"
        R"({"device":1,"seq":4,"timestamp_ns":100,"realtime_ns":5,"kind":"action_end","action":"soft_retire","result":"ok","duration_ns":1})"
        "\n");
    std::size_t skipped = 0;
    const auto recs = amdx::cli::read_journal(in, skipped);
    EXPECT_EQ(skipped, 2U);
    ASSERT_EQ(recs.size(), 2U);
    EXPECT_EQ(recs[0].type, "ue");
    EXPECT_EQ(recs[0].partition, 0U);
    EXPECT_EQ(recs[1].realtime_ns, 5U);
    EXPECT_EQ(recs[1].result, "ok");
}

/// A journal directory of its own: FILE and the rotated FILE.N.
struct TempJournal {
    std::string dir;
    std::string path;
    TempJournal() {
        char tmpl[] = "/tmp/amdx-journal-XXXXXX";
        dir = ::mkdtemp(tmpl);
        path = dir + "/events.jsonl";
        std::ofstream(path).flush();
    }
    ~TempJournal() { std::filesystem::remove_all(dir); }
    void write(const std::string& file, const std::string& text) const {
        std::ofstream(file) << text;
    }
};

std::string ue_line(std::uint32_t dev, std::uint64_t seq, std::uint64_t realtime_ns) {
    return R"({"device":)" + std::to_string(dev) + R"(,"seq":)" + std::to_string(seq) +
           R"(,"timestamp_ns":1,"realtime_ns":)" + std::to_string(realtime_ns) +
           R"(,"kind":"error","block":"umc","type":"ue","instance":0,"count":1})" + "\n";
}

std::uint64_t realtime_now_ns() {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::system_clock::now().time_since_epoch())
                                          .count());
}

// eventd rotated right after an uncontained UE: the UE is in FILE.1, FILE
// holds only later CEs.  On dd925ee health read FILE alone and said healthy.
TEST(FleetHealth, UncontainedUeSurvivesARotation) {
    FakeKernel k;
    k.add_device(0);
    without_recovery(k);
    const TempJournal j;
    const auto now = realtime_now_ns();
    j.write(j.path + ".1", ue_line(0, 7, now - 60ULL * 1000000000ULL));
    std::string ces;
    for (std::uint64_t seq = 8; seq < 20; ++seq)
        ces +=
            R"({"device":0,"seq":)" + std::to_string(seq) +
            R"(,"timestamp_ns":1,"kind":"error","block":"umc","type":"ce","instance":0,"count":1})"
            "\n";
    j.write(j.path, ces);
    std::string out, err;
    EXPECT_EQ(run({"health", "--journal", j.path}, out, err), 1) << out;
    EXPECT_EQ(out.rfind("amdx health: unhealthy: device 0 unhealthy: uncorrected umc error", 0), 0U)
        << out;
    EXPECT_EQ(run({"-j", "health", "--journal", j.path}, out, err), 1);
    const auto doc = amdx::cli::Json::parse(out);
    EXPECT_EQ(doc["journal"]["files"], 2);
    EXPECT_EQ(doc["journal"]["records"], 13);
    EXPECT_EQ(doc["devices"][0]["findings"][0]["seq"], 7);
}

// What health keeps of a journal is bounded by the devices and partitions
// and decides as the whole journal does: 20,000 records of two devices
// keep one record per device, kind and partition.
TEST(FleetHealth, HealthJournalKeepsTheNewestPerRuleKey) {
    const TempJournal j;
    std::ostringstream text;
    std::uint64_t seq = 1;
    for (int i = 0; i < 5000; ++i)
        for (std::uint32_t dev : {0U, 1U}) {
            text << ue_line(dev, seq++, 1);
            text << R"({"device":)" << dev << R"(,"seq":)" << seq++
                 << R"(,"timestamp_ns":1,"kind":"error","block":"gfx","type":"ue","partition":)"
                 << (i % 4) << "}\n";
        }
    j.write(j.path, text.str());
    const auto hj = amdx::cli::read_health_journal(j.path);
    EXPECT_EQ(hj.read, 20000U);
    // Per device: the device-wide UE and one per partition 0..3.
    ASSERT_EQ(hj.records.size(), 2U * 5U);
    for (const auto& r : hj.records)
        EXPECT_GT(r.seq, 20000U - 16U) << r.device << " " << r.seq;
}

// A run reads only the newest --journal-window MiB (default 16), across
// rotation, so its time is bounded whatever the journal's size; a window
// that does not reach back --ue-age is degraded, never a silent healthy
// (on 03f2597 health parsed every byte of every file: 0.97 s of CPU per
// 64 MiB).
TEST(FleetHealth, HealthReadsOnlyTheNewestWindow) {
    FakeKernel k;
    k.add_device(0);
    without_recovery(k);
    const TempJournal j;
    const auto now = realtime_now_ns();
    const auto ce = [](std::uint64_t seq, std::uint64_t realtime_ns) {
        return R"({"device":0,"seq":)" + std::to_string(seq) +
               R"(,"timestamp_ns":1,"realtime_ns":)" + std::to_string(realtime_ns) +
               R"(,"kind":"error","block":"umc","type":"ce","instance":0,"count":1})" + "\n";
    };
    // FILE.1: an uncontained UE 60 s ago, then 1.5 MiB of CEs 50 s ago;
    // FILE: 0.5 MiB of CEs 10 s ago.
    std::uint64_t seq = 1;
    std::string older = ue_line(0, seq++, now - 60ULL * 1000000000ULL);
    while (older.size() < (3U << 19))
        older += ce(seq++, now - 50ULL * 1000000000ULL);
    std::string newer;
    while (newer.size() < (1U << 19))
        newer += ce(seq++, now - 10ULL * 1000000000ULL);
    j.write(j.path + ".1", older);
    j.write(j.path, newer);

    const auto hj = amdx::cli::read_health_journal(j.path, 1U << 20);
    EXPECT_TRUE(hj.truncated);
    EXPECT_EQ(hj.bytes, 1U << 20);
    EXPECT_EQ(hj.files, 2U);
    EXPECT_EQ(hj.skipped, 0U) << "the cut line's tail was parsed";
    EXPECT_LT(hj.read, seq - 1);
    for (const auto& r : hj.records)
        EXPECT_NE(r.seq, 1U) << "the UE outside the window was read";
    ASSERT_TRUE(hj.oldest_realtime_ns);
    EXPECT_EQ(*hj.oldest_realtime_ns, now - 50ULL * 1000000000ULL);
    // The whole set in a window that holds it.
    const auto all = amdx::cli::read_health_journal(j.path, 4U << 20);
    EXPECT_FALSE(all.truncated);
    EXPECT_EQ(all.read, seq - 1);
    // How far the window reaches back, on a clock the test holds: `now`,
    // the records' base.  The CLI below reads the real clock, so later
    // than `now` by however long this host took to get there.
    amdx::cli::HealthRules rules;
    rules.now_real_ns = now;
    EXPECT_EQ(amdx::cli::journal_window_problem(hj, 1, rules),
              "journal degraded: its newest 1 MiB reach back 50 s, less than --ue-age 3600 s: "
              "an older uncorrected error is not seen");
    EXPECT_EQ(amdx::cli::journal_window_problem(all, 4, rules), std::nullopt) << "read whole";
    rules.ue_age_s = 50;
    EXPECT_EQ(amdx::cli::journal_window_problem(hj, 1, rules), std::nullopt) << "reaches back";
    rules.ue_age_s = 51;
    EXPECT_NE(amdx::cli::journal_window_problem(hj, 1, rules), std::nullopt);

    std::string out, err;
    // The default window holds the UE: unhealthy.
    EXPECT_EQ(run({"health", "--journal", j.path}, out, err), 1) << out;
    EXPECT_EQ(out.rfind("amdx health: unhealthy: device 0 unhealthy: uncorrected umc error", 0), 0U)
        << out;
    // A 1 MiB window reaches back 50 s (and however long this took),
    // less than --ue-age: degraded, not healthy, and --strict makes that a
    // problem.
    EXPECT_EQ(run({"health", "--journal", j.path, "--journal-window", "1"}, out, err), 0) << out;
    EXPECT_EQ(out.rfind("amdx health: degraded: journal degraded: its newest 1 MiB reach back ", 0),
              0U)
        << out;
    EXPECT_NE(out.find(" s, less than --ue-age 3600 s"), std::string::npos) << out;
    EXPECT_EQ(run({"health", "--journal", j.path, "--journal-window", "1", "--strict"}, out, err),
              1);
    EXPECT_EQ(run({"-j", "health", "--journal", j.path, "--journal-window", "1"}, out, err), 0);
    const auto doc = amdx::cli::Json::parse(out);
    EXPECT_EQ(doc["status"], "degraded");
    EXPECT_EQ(doc["journal"]["truncated"], true);
    EXPECT_EQ(doc["journal"]["bytes"], 1U << 20);
    // A window that reaches back --ue-age is complete for the UE rule: the
    // 60 s old UE is stale at --ue-age 30, and nothing is missed.
    EXPECT_EQ(
        run({"health", "--journal", j.path, "--journal-window", "1", "--ue-age", "30"}, out, err),
        0);
    EXPECT_EQ(out, "amdx health: healthy: 1 devices healthy\n");
    // A window of 0 or beyond 4096 MiB is a usage error.
    EXPECT_EQ(run({"health", "--journal-window", "0"}, out, err), 2);
    EXPECT_NE(out.find("--journal-window"), std::string::npos) << out;
}

// amdx-eventd's state file holds what the window no longer does, and the
// same records that clear a finding in the window clear it there: a UE the
// state holds is unhealthy behind a window of CEs; a containment that
// succeeded after it (in the state or in the window) makes it degraded.
// The window's record of a key wins over the state's.
TEST(FleetHealth, StateFileKeepsWhatTheWindowLostAndClearsAsTheWindowDoes) {
    FakeKernel k;
    k.add_device(0);
    without_recovery(k);
    const TempJournal j;
    const auto now = realtime_now_ns();
    std::string ces;
    for (std::uint64_t seq = 10; ces.size() < (3U << 19); ++seq)
        ces += R"({"device":0,"seq":)" + std::to_string(seq) +
               R"(,"timestamp_ns":1,"kind":"error","block":"umc","type":"ce"})" + "\n";
    j.write(j.path, ces);
    auto ue = amdx::cli::parse_record_line(ue_line(0, 7, now - 60ULL * kSec));
    ASSERT_TRUE(ue);
    amdx::cli::HealthFold fold;
    EXPECT_TRUE(fold.add(*ue));
    const std::string state = amdx::cli::health_state_path(j.path);
    EXPECT_EQ(state, j.dir + "/events.health.json");
    ASSERT_FALSE(amdx::cli::write_health_state(state, fold, true));
    std::string out, err;
    EXPECT_EQ(run({"health", "--journal", j.path, "--journal-window", "1"}, out, err), 1) << out;
    EXPECT_EQ(out.rfind("amdx health: unhealthy: device 0 unhealthy: uncorrected umc error", 0), 0U)
        << out;

    // Contained: the successful action_end after it, in the state.
    JournalRecord done = rec(8, "action_end", 2);
    done.action = "device_reset";
    done.result = "ok";
    JournalRecord failed = done;
    failed.result = "EIO";
    EXPECT_FALSE(fold.add(failed)) << "no rule reads a failed action's end";
    EXPECT_TRUE(fold.add(done));
    ASSERT_FALSE(amdx::cli::write_health_state(state, fold, true));
    EXPECT_EQ(run({"health", "--journal", j.path, "--journal-window", "1"}, out, err), 0) << out;
    EXPECT_EQ(out.rfind("amdx health: degraded: device 0 degraded: uncorrected umc error (ue) "
                        "contained by device_reset at seq 8",
                        0),
              0U)
        << out;

    // The UE again in the window (seq 9000, a repeat): the window's wins,
    // and nothing after it contained it.
    j.write(j.path, ces + ue_line(0, 9000, now - kSec));
    EXPECT_EQ(run({"health", "--journal", j.path, "--journal-window", "1"}, out, err), 1) << out;
    EXPECT_NE(out.find("(seq 9000)"), std::string::npos) << out;
}

// The fold is bounded by the uapi's limits whatever a journal holds, and
// orders records across boots by their wall clock (seqs restart with the
// kernel): a new boot's low seq is newer than the last boot's high one.
TEST(FleetHealth, HealthFoldIsBoundedAndOrdersAcrossBoots) {
    amdx::cli::HealthFold fold;
    JournalRecord r = rec(1, "error", 1);
    r.type = "ue";
    for (std::uint32_t dev = 0; dev < 1000; ++dev)
        for (std::uint32_t part = 0; part < 20; ++part) {
            r.device = dev;
            r.partition = part;
            fold.add(r);
        }
    EXPECT_EQ(fold.size(), std::size_t{AMDX_MAX_DEVICES} * AMDX_MAX_PARTITIONS);
    EXPECT_LE(fold.size(), amdx::cli::HealthFold::kMaxKeys);

    amdx::cli::HealthFold boots;
    JournalRecord old_boot = rec(5000, "device_reset_end", 1, std::nullopt);
    old_boot.result = "EIO";
    old_boot.boot_id = "a";
    old_boot.realtime_ns = 100 * kSec;
    JournalRecord new_boot = old_boot;
    new_boot.seq = 3;
    new_boot.result = "ok";
    new_boot.boot_id = "b";
    new_boot.realtime_ns = 200 * kSec;
    EXPECT_TRUE(boots.add(old_boot));
    EXPECT_TRUE(boots.add(new_boot));
    ASSERT_EQ(boots.records().size(), 1U);
    EXPECT_EQ(boots.records()[0].result, "ok");
    EXPECT_FALSE(boots.add(old_boot));
}

// A failed device reset counts in the boot it happened in; after a reboot
// the device was initialised again.  The state file keeps it across
// boots, so this is what clears it without a reset that succeeds.
TEST(FleetHealth, FailedDeviceResetOfAnotherBootDoesNotCount) {
    FakeKernel k;
    k.add_device(0);
    JournalRecord r = rec(4, "device_reset_end", 1);
    r.result = "EIO";
    r.boot_id = "a";
    HealthRules rules;
    rules.boot_id = "a";
    EXPECT_EQ(amdx::cli::evaluate(one_snapshot(k), {r}, rules).verdict(), Verdict::unhealthy);
    rules.boot_id = "b";
    EXPECT_EQ(amdx::cli::evaluate(one_snapshot(k), {r}, rules).verdict(), Verdict::healthy);
    r.boot_id.clear(); // amdx monitor -j's lines: no boot_id, counts
    EXPECT_EQ(amdx::cli::evaluate(one_snapshot(k), {r}, rules).verdict(), Verdict::unhealthy);
}

// A state file is read whole or not at all: a torn, oversized or foreign
// one is corrupt with its cause, and the fold is left as it was.
TEST(FleetHealth, StateFileReadsWholeOrNotAtAll) {
    const TempJournal j;
    const std::string state = amdx::cli::health_state_path(j.path);
    amdx::cli::HealthFold fold;
    using Status = amdx::cli::HealthStateRead::Status;
    EXPECT_EQ(amdx::cli::read_health_state(state, fold).status, Status::missing);
    const auto corrupt = [&](const std::string& text) {
        j.write(state, text);
        const auto got = amdx::cli::read_health_state(state, fold);
        EXPECT_EQ(got.status, Status::corrupt) << text;
        EXPECT_EQ(fold.size(), 0U) << text;
        return got.why;
    };
    EXPECT_EQ(corrupt(R"({"schema_version":1,"records":[{"dev)"), "not a JSON object");
    EXPECT_EQ(corrupt(R"({"schema_version":2,"records":[]})"), "schema_version is not 1");
    EXPECT_EQ(corrupt(R"({"schema_version":1})"), "no records array");
    EXPECT_NE(corrupt(R"({"schema_version":1,"records":[)" + ue_line(0, 1, 1) +
                      R"(,{"device":0,"seq":2,"kind":"error","type":"ce"}]})")
                  .find("a record no rule reads"),
              std::string::npos);
    EXPECT_NE(corrupt(std::string(5U << 20, ' ')).find("more than a state can hold"),
              std::string::npos);
    j.write(state, R"({"schema_version":1,"records":[)" + ue_line(0, 1, 1) + "]}");
    EXPECT_EQ(amdx::cli::read_health_state(state, fold).status, Status::ok);
    EXPECT_EQ(fold.size(), 1U);
}

// --journal names a file that is not there: Unknown with the reason, as
// NPD shows it (on dd925ee: healthy, the journal silently ignored).
// The default journal missing (no amdx-eventd) is still no error.
TEST(FleetHealth, MissingJournalGivenIsUnknown) {
    FakeKernel k;
    k.add_device(0);
    std::string out, err;
    EXPECT_EQ(run({"health", "--journal", "/nonexistent"}, out, err), 2);
    EXPECT_EQ(out,
              "amdx health: unknown: journal /nonexistent: ENOENT: No such file or directory\n");
}

// A usage error reaches NPD as a message on standard output (on dd925ee
// stdout was empty: an Unknown without a reason).
TEST(FleetHealth, UsageErrorIsAnUnknownWithItsReason) {
    FakeKernel k;
    k.add_device(0);
    std::string out, err;
    EXPECT_EQ(run({"health", "--ue-age", "x"}, out, err), 2);
    EXPECT_EQ(out.rfind("amdx health: unknown: ", 0), 0U) << out;
    EXPECT_NE(out.find("--ue-age"), std::string::npos) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1);
    EXPECT_EQ(run({"health", "--bogus"}, out, err), 2);
    EXPECT_EQ(out.rfind("amdx health: unknown: ", 0), 0U) << out;
    // Other commands keep standard output empty.
    EXPECT_EQ(run({"exporter", "--bogus"}, out, err), 2);
    EXPECT_TRUE(out.empty()) << out;
}

// DEV takes every selector (serial, GPU index, UUID) and the help says so
// in the words every other command's DEV uses (on 01d88b2: "Device id,
// PCI address or 'all'"), in health and in partition export alike.
TEST(FleetHealth, DevHelpIsTheSelectorsOwn) {
    FakeKernel k;
    k.add_device(0);
    std::string out, err;
    for (const auto& cmd : {std::vector<std::string>{"health", "--help"},
                            std::vector<std::string>{"partition", "export", "--help"}}) {
        EXPECT_EQ(run(cmd, out, err), 0);
        EXPECT_NE(out.find("Devices: ids, PCI addresses, serial:SERIAL, gpu:INDEX, GPU-UUID, "
                           "comma-separated, or 'all'"),
                  std::string::npos)
            << out;
        EXPECT_EQ(out.find("Device id, PCI address or 'all'"), std::string::npos) << out;
    }
    const TempJournal j;
    EXPECT_EQ(run({"health", "serial:SN1000", "--journal", j.path}, out, err), 0) << out << err;
    EXPECT_EQ(run({"health", "x:y", "--journal", j.path}, out, err), 2);
    EXPECT_NE(out.find("serial:SERIAL, gpu:INDEX, GPU-UUID"), std::string::npos) << out;
}

TEST(FleetHealth, ExitCodesFollowNodeProblemDetector) {
    FakeKernel k;
    k.add_device(0);
    std::string out, err;
    const TempJournal journal;
    EXPECT_EQ(run({"health", "--journal", journal.path}, out, err), 0);
    EXPECT_EQ(out, "amdx health: healthy: 1 devices healthy\n");
    k.state(0).pending_pages = 2;
    EXPECT_EQ(run({"health", "--journal", journal.path}, out, err), 0);
    EXPECT_EQ(out.rfind("amdx health: degraded: device 0 degraded: 2 VRAM pages", 0), 0U) << out;
    EXPECT_EQ(run({"health", "--strict", "--journal", journal.path}, out, err), 1);
    k.state(0).ras_flags = AMDX_RAS_F_RMA;
    EXPECT_EQ(run({"-j", "health", "--journal", journal.path}, out, err), 1);
    const auto j = amdx::cli::Json::parse(out);
    EXPECT_EQ(j["status"], "unhealthy");
    EXPECT_EQ(j["devices"][0]["verdict"], "unhealthy");
    // The state cannot be read: unknown (2), still one line on stdout.
    EXPECT_EQ(run({"-d", "/nonexistent/amdx", "health"}, out, err), 2);
    EXPECT_EQ(out.rfind("amdx health: unknown: ", 0), 0U) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1);
}

// ---- partition export

/// Sum of what the devices of one profile consume, per counter.
std::map<std::string, std::uint64_t> consumed(const amdx::cli::Json& devices,
                                              const std::string& prefix) {
    std::map<std::string, std::uint64_t> sum;
    for (const auto& d : devices) {
        if (d["name"].get<std::string>().rfind(prefix, 0) != 0)
            continue;
        for (const auto& [name, c] : d["consumesCounters"][0]["counters"].items())
            sum[name] += std::stoull(c["value"].get<std::string>());
    }
    return sum;
}

TEST(FleetExport, DraCountersAddUpForEveryProfile) {
    FakeKernel k;
    k.add_device(0);
    k.devices[0].memory_mode = AMDX_MEMORY_NPS4;
    k.devices[0].num_mem_partitions = 4;
    for (unsigned i = 0; i < 4; ++i)
        k.devices[0].mem_partitions[i] = {
            .base = i * (48ULL << 30), .size = 48ULL << 30, .free = 48ULL << 30};
    std::string out, err;
    ASSERT_EQ(run({"-j", "partition", "export", "0", "--node", "n1"}, out, err), 0) << err;
    const auto doc = amdx::cli::Json::parse(out);
    ASSERT_EQ(doc["items"].size(), 2U);
    const auto& shared = doc["items"][0]["spec"]["sharedCounters"][0];
    EXPECT_EQ(shared["name"], "amdx-sn1000");
    EXPECT_FALSE(doc["items"][0]["spec"].contains("devices")); // one of the two per slice
    std::map<std::string, std::uint64_t> capacity;
    for (const auto& [name, c] : shared["counters"].items())
        capacity[name] = std::stoull(c["value"].get<std::string>());
    ASSERT_EQ(capacity.size(), 8U + 4U);
    const auto& devices = doc["items"][1]["spec"]["devices"];
    // Every profile, fully allocated, uses every XCC once and every memory
    // domain up to its size.
    for (const char* prof : {"spx-nps4-", "dpx-nps4-", "qpx-nps4-", "cpx-nps4-"}) {
        const auto sum = consumed(devices, prof);
        for (unsigned x = 0; x < 8; ++x)
            EXPECT_EQ(sum.at("xcc" + std::to_string(x)), 1U) << prof << x;
        std::uint64_t mem = 0;
        for (const auto& [name, v] : sum)
            if (name.rfind("mem", 0) == 0) {
                EXPECT_LE(v, capacity.at(name)) << prof << name;
                mem += v;
            }
        EXPECT_LE(mem, 192ULL << 30) << prof;
    }
    EXPECT_EQ(devices.size(), 1U + 2U + 4U + 8U);
    EXPECT_EQ(doc["items"][1]["spec"]["pool"]["resourceSliceCount"], 2);
}

/// Every set of devices the slices of device 0 admit (what a DRA
/// scheduler may allocate together: within every counter of every counter
/// set) must be partitions of one compute mode that the kernel's own plan
/// for that mode has, with the same XCCs and memory partition, a VF
/// standing for the partitions it holds and none of them twice; and every
/// such set must be admitted.  On dd925ee the XCC counters alone admitted
/// e.g. dpx-nps1-p0 with cpx-nps1-p4.  With @vfs VFs enabled (in
/// @compute) the device keeps its mode, so only that mode's partitions and
/// the VFs may be offered.
void expect_admitted_allocations_realisable(std::uint32_t memory, unsigned nps,
                                            std::uint32_t compute = AMDX_COMPUTE_SPX,
                                            std::uint32_t vfs = 0) {
    FakeKernel k;
    k.add_device(0);
    k.devices[0].memory_mode = memory;
    k.devices[0].num_mem_partitions = nps;
    for (unsigned i = 0; i < nps; ++i) {
        const std::uint64_t size = (192ULL << 30) / nps;
        k.devices[0].mem_partitions[i] = {.base = i * size, .size = size, .free = size};
    }
    auto control = Control::open("/dev/null");
    ASSERT_TRUE(control);
    auto dev = Device::open(*control, 0);
    ASSERT_TRUE(dev);
    if (vfs != 0) {
        amdx::PartitionRequest req;
        req.compute = static_cast<amdx::ComputeMode>(compute);
        req.memory = static_cast<amdx::MemoryMode>(memory);
        ASSERT_TRUE(dev->partition_commit(req));
        ASSERT_TRUE(dev->vf_enable(vfs));
    }
    std::string out, err;
    ASSERT_EQ(run({"-j", "partition", "export", "0", "--node", "n1"}, out, err), 0) << err;
    const auto doc = amdx::cli::Json::parse(out);
    std::map<std::string, std::uint64_t> capacity; // "set/counter"
    amdx::cli::Json devices = amdx::cli::Json::array();
    for (const auto& item : doc["items"]) {
        const auto& spec = item["spec"];
        for (const auto& set : spec.value("sharedCounters", amdx::cli::Json::array()))
            for (const auto& [name, c] : set["counters"].items())
                capacity[set["name"].get<std::string>() + "/" + name] =
                    std::stoull(c["value"].get<std::string>());
        for (const auto& d : spec.value("devices", amdx::cli::Json::array()))
            devices.push_back(d);
    }
    const std::size_t n = devices.size();
    ASSERT_EQ(n, vfs != 0 ? (compute == AMDX_COMPUTE_CPX ? 8U : 1U) + vfs : 1U + 2U + 4U + 8U);
    ASSERT_LE(n, 20U);
    std::vector<std::map<std::string, std::uint64_t>> uses(n);
    // Each device's partitions (a VF's: those it holds) and mode.
    std::vector<std::vector<std::uint32_t>> parts(n);
    std::vector<std::string> modes(n);
    for (std::size_t i = 0; i < n; ++i) {
        for (const auto& cc : devices[i]["consumesCounters"])
            for (const auto& [name, c] : cc["counters"].items()) {
                const auto key = cc["counterSet"].get<std::string>() + "/" + name;
                ASSERT_TRUE(capacity.contains(key)) << key;
                uses[i][key] = std::stoull(c["value"].get<std::string>());
            }
        const auto& attrs = devices[i]["attributes"];
        modes[i] = attrs["computeMode"]["string"].get<std::string>();
        if (attrs.contains("vf")) {
            std::istringstream ids(attrs["partitions"]["string"].get<std::string>());
            for (std::string id; std::getline(ids, id, ',');)
                parts[i].push_back(static_cast<std::uint32_t>(std::stoul(id)));
        } else {
            parts[i].push_back(attrs["partition"]["int"].get<std::uint32_t>());
        }
    }

    std::map<std::string, std::vector<amdx::PartitionInfo>> plans; // the kernel's, per mode
    std::size_t admitted = 0;
    std::size_t realisable = 0;
    std::size_t with_vf = 0;
    unsigned failures = 0;
    for (std::uint32_t set = 0; set < (1U << n); ++set) {
        std::string names, mode;
        bool one_mode = true;
        std::multiset<std::uint32_t> held;
        bool vf = false;
        for (std::size_t i = 0; i < n; ++i) {
            if ((set & (1U << i)) == 0U)
                continue;
            names += devices[i]["name"].get<std::string>() + " ";
            one_mode = one_mode && (mode.empty() || modes[i] == mode);
            mode = modes[i];
            held.insert(parts[i].begin(), parts[i].end());
            vf = vf || devices[i]["attributes"].contains("vf");
        }
        const bool twice = std::adjacent_find(held.begin(), held.end()) != held.end();
        if (one_mode && !twice)
            ++realisable;
        std::map<std::string, std::uint64_t> sum;
        bool fits = true;
        for (std::size_t i = 0; i < n && fits; ++i)
            if ((set & (1U << i)) != 0U)
                for (const auto& [key, v] : uses[i])
                    fits = (sum[key] += v) <= capacity[key] && fits;
        if (!fits)
            continue;
        ++admitted;
        with_vf += vf ? 1U : 0U;
        if (!one_mode || twice) {
            if (++failures <= 3)
                ADD_FAILURE() << "the slices admit what the device cannot take: " << names;
            continue;
        }
        if (mode.empty())
            continue; // the empty allocation
        if (!plans.contains(mode)) {
            amdx::PartitionRequest req;
            req.compute = amdx::parse_compute_mode(mode);
            ASSERT_TRUE(req.compute) << mode;
            req.max_holders = 0;
            auto plan = dev->partition_plan(req);
            ASSERT_TRUE(plan) << mode;
            ASSERT_TRUE(plan->allowed) << mode << ": " << plan->error.message();
            plans[mode] = plan->topology;
        }
        for (std::size_t i = 0; i < n; ++i) {
            if ((set & (1U << i)) == 0U || devices[i]["attributes"].contains("vf"))
                continue;
            const auto& attrs = devices[i]["attributes"];
            const auto id = attrs["partition"]["int"].get<std::uint32_t>();
            const auto& topo = plans[mode];
            const auto p = std::find_if(topo.begin(), topo.end(),
                                        [id](const amdx::PartitionInfo& q) { return q.id == id; });
            ASSERT_NE(p, topo.end()) << names;
            EXPECT_EQ(p->mem_partition, attrs["memoryPartition"]["int"].get<std::uint32_t>());
            EXPECT_EQ(static_cast<std::uint64_t>(__builtin_popcount(p->xcc_mask)),
                      std::stoull(devices[i]["capacity"]["xccs"]["value"].get<std::string>()));
        }
        for (const auto id : held)
            EXPECT_TRUE(std::any_of(plans[mode].begin(), plans[mode].end(),
                                    [id](const amdx::PartitionInfo& q) { return q.id == id; }))
                << names;
    }
    EXPECT_EQ(failures, 0U) << "unrealisable allocations admitted";
    // Nothing the hardware can take is refused.
    EXPECT_EQ(admitted, realisable);
    EXPECT_EQ(with_vf != 0U, vfs != 0U);
}

TEST(FleetExport, EveryAllocationTheSlicesAdmitIsOneModesPlanNps1) {
    expect_admitted_allocations_realisable(AMDX_MEMORY_NPS1, 1);
}

TEST(FleetExport, EveryAllocationTheSlicesAdmitIsOneModesPlanNps4) {
    expect_admitted_allocations_realisable(AMDX_MEMORY_NPS4, 4);
}

// VFs enabled: CPX/NPS1, 4 VFs of 2 partitions each (round robin: VF 0
// holds 0 and 4); SPX/NPS1, one VF of the one partition.  Before the VFs
// were devices the export offered every mode while the kernel refused to
// switch (AMDX_PART_REASON_VFS_ENABLED).
TEST(FleetExport, EveryAllocationTheSlicesAdmitIsOneModesPlanWithVfs) {
    expect_admitted_allocations_realisable(AMDX_MEMORY_NPS1, 1, AMDX_COMPUTE_CPX, 4);
}

TEST(FleetExport, EveryAllocationTheSlicesAdmitIsOneModesPlanSpxVf) {
    expect_admitted_allocations_realisable(AMDX_MEMORY_NPS1, 1, AMDX_COMPUTE_SPX, 1);
}

/// A scratch sysfs: @pf below root complex pci0000:00, its VF @vf0 as
/// virtfn0 (what Linux's drivers/pci/iov.c links), a PCI device outside
/// any root complex, and none for the simulated 0000:c2:00.0.
struct FakeSysfs {
    std::filesystem::path root;
    FakeSysfs() {
        root =
            std::filesystem::temp_directory_path() / ("amdx-sysfs-" + std::to_string(::getpid()));
        std::filesystem::remove_all(root);
        const auto dev = root / "devices/pci0000:00/0000:00:01.0";
        std::filesystem::create_directories(dev / "0000:c1:00.0");
        std::filesystem::create_directories(dev / "0000:c1:02.0");
        std::filesystem::create_directories(root / "devices/platform/0000:d1:00.0");
        std::filesystem::create_directories(root / "bus/pci/devices");
        for (const char* bdf : {"0000:c1:00.0", "0000:c1:02.0"})
            std::filesystem::create_directory_symlink(
                std::string("../../../devices/pci0000:00/0000:00:01.0/") + bdf,
                root / "bus/pci/devices" / bdf);
        std::filesystem::create_directory_symlink("../../../devices/platform/0000:d1:00.0",
                                                  root / "bus/pci/devices/0000:d1:00.0");
        std::filesystem::create_directory_symlink("../0000:c1:02.0", dev / "0000:c1:00.0/virtfn0");
    }
    ~FakeSysfs() { std::filesystem::remove_all(root); }
    FakeSysfs(const FakeSysfs&) = delete;
    FakeSysfs& operator=(const FakeSysfs&) = delete;
};

TEST(FleetExport, PcieRootIsTheRootComplexOfTheSysfsPath) {
    const FakeSysfs sys;
    EXPECT_EQ(amdx::cli::pcie_root(sys.root, "0000:c1:00.0"), "pci0000:00");
    EXPECT_EQ(amdx::cli::pcie_root(sys.root, "0000:c1:02.0"), "pci0000:00"); // a VF: its PF's
    EXPECT_EQ(amdx::cli::pcie_root(sys.root, "0000:c2:00.0"), "");           // simulated
    EXPECT_EQ(amdx::cli::pcie_root(sys.root, "0000:d1:00.0"), "");           // not below pciD:B
    EXPECT_EQ(amdx::cli::pcie_root(sys.root / "none", "0000:c1:00.0"), "");
}

/// Device 0 in DPX with @vfs VFs enabled through libamdx, as `amdx vf
/// enable` would (auto-provisioned: VF N holds partition N).
void dpx_with_vfs(FakeKernel& k, std::uint32_t vfs) {
    k.add_device(0);
    k.devices[0].compute_mode = AMDX_COMPUTE_DPX;
    auto control = Control::open("/dev/null");
    ASSERT_TRUE(control);
    auto dev = Device::open(*control, 0);
    ASSERT_TRUE(dev);
    ASSERT_TRUE(dev->vf_enable(vfs));
}

/// The VFs of a device in DPX (two, one partition each) as DRA devices:
/// the standard PCI attributes from sysfs, the partitions they hold, and
/// what those consume.
TEST(FleetExport, VfsAreDevicesConsumingTheirPartitions) {
    FakeKernel k;
    dpx_with_vfs(k, 2);
    auto control = Control::open("/dev/null");
    ASSERT_TRUE(control);
    auto dev = Device::open(*control, 0);
    ASSERT_TRUE(dev);
    const Snapshot s = snapshots().at(0);
    ASSERT_EQ(s.vfs.vfs.size(), 2U);
    const auto profs = amdx::cli::profiles(*dev, s.info);
    ASSERT_TRUE(profs);
    ASSERT_EQ(profs->size(), 1U); // VFs enabled: the current mode only
    const FakeSysfs sys;
    const auto slices =
        amdx::cli::dra_slice(s.info, *profs, "n1", "gpu.amdx.io", s.recovery, s.vfs, sys.root);
    std::map<std::string, amdx::cli::Json> by_name;
    for (const auto& d : slices[1]["spec"]["devices"])
        by_name[d["name"].get<std::string>()] = d;
    ASSERT_EQ(by_name.size(), 4U);
    const auto& vf0 = by_name.at("vf0")["attributes"];
    EXPECT_EQ(vf0["resource.kubernetes.io/pciBusID"]["string"], "0000:c1:02.0");
    EXPECT_EQ(vf0["resource.kubernetes.io/pcieRoot"]["string"], "pci0000:00");
    EXPECT_EQ(vf0["physicalFunction"]["string"], "0000:c1:00.0");
    EXPECT_EQ(vf0["vf"]["int"], 0);
    EXPECT_EQ(vf0["partitions"]["string"], "0");
    EXPECT_EQ(vf0["computeMode"]["string"], "DPX");
    const auto& vf1 = by_name.at("vf1");
    EXPECT_FALSE(vf1["attributes"].contains("resource.kubernetes.io/pciBusID")); // no virtfn1
    EXPECT_EQ(vf1["attributes"]["partitions"]["string"], "1");
    EXPECT_EQ(vf1["consumesCounters"], by_name.at("dpx-nps1-p1")["consumesCounters"]);
    EXPECT_EQ(vf1["capacity"]["memory"]["value"], std::to_string(s.vfs.vfs[1].config.vram_quota));
    EXPECT_EQ(vf1["capacity"]["xccs"]["value"], "4");
    EXPECT_EQ(by_name.at("dpx-nps1-p0")["attributes"]["resource.kubernetes.io/pciBusID"]["string"],
              "0000:c1:00.0");
}

/// Pools are named by the board, not amdx's cyclic id; the standard PCI
/// attribute; the generation is the kernel's partition generation.
TEST(FleetExport, DraNamesAndGeneration) {
    FakeKernel k;
    k.add_device(0);
    k.add_device(1);
    k.state(1).generation = 7;
    std::string out, err;
    ASSERT_EQ(run({"-j", "partition", "export", "1", "--node", "n1"}, out, err), 0) << err;
    const auto doc = amdx::cli::Json::parse(out);
    ASSERT_EQ(doc["items"].size(), 2U);
    for (const auto& item : doc["items"]) {
        EXPECT_EQ(item["spec"]["pool"]["name"], "n1-sn1001");
        EXPECT_EQ(item["spec"]["pool"]["generation"], 7);
    }
    const auto& dev = doc["items"][1]["spec"]["devices"][0];
    EXPECT_EQ(dev["attributes"]["resource.kubernetes.io/pciBusID"]["string"], "0000:c2:00.0");
    EXPECT_FALSE(dev["attributes"].contains("pciBusID"));
    EXPECT_EQ(run({"partition", "export", "--node", "Bad Name"}, out, err), 2);
    EXPECT_EQ(err.rfind("amdx: partition export: node name 'Bad Name' has characters", 0), 0U)
        << err;
    EXPECT_TRUE(out.empty());
}

/// Without device files gres/gpu cannot tell a device's partitions apart:
/// one Count= line per device and type, each partition in a comment.
TEST(FleetExport, SlurmOneCountLinePerDeviceWithoutFiles) {
    FakeKernel k;
    k.add_device(0);
    k.add_device(1);
    k.devices[0].compute_mode = AMDX_COMPUTE_QPX;
    std::string out, err;
    ASSERT_EQ(run({"partition", "export", "--format", "slurm", "--node", "n1"}, out, err), 0);
    std::istringstream in(out);
    std::vector<std::string> lines;
    int partitions = 0;
    for (std::string l; std::getline(in, l);) {
        if (l.rfind("NodeName=", 0) == 0)
            lines.push_back(l);
        partitions += l.rfind("# partition ", 0) == 0 ? 1 : 0;
    }
    EXPECT_EQ(lines, (std::vector<std::string>{
                         "NodeName=n1 Name=gpu Type=mi300x_qpx_nps1 Count=4 Flags=amd_gpu_env",
                         "NodeName=n1 Name=gpu Type=mi300x_spx_nps1 Count=1 Flags=amd_gpu_env"}))
        << out;
    EXPECT_EQ(partitions, 4 + 1) << out;
    EXPECT_NE(out.find("# partition 3: 2 XCC, 49152 MiB of memory partition 0\n"),
              std::string::npos)
        << out;
    // No render node known (the fake has none): the lines say why Slurm
    // would drop them.
    EXPECT_NE(out.find("\n# no device file known"), std::string::npos) << out;
}

TEST(FleetExport, SlurmLinesNameEachPartitionsDeviceFile) {
    FakeKernel k;
    k.add_device(0);
    k.add_device(1);
    k.devices[1].compute_mode = AMDX_COMPUTE_DPX;
    std::string out, err;
    ASSERT_EQ(run({"partition", "export", "--format", "slurm", "--node", "n1", "--files",
                   "/dev/x/d{device}p{partition}"},
                  out, err),
              0)
        << err;
    EXPECT_NE(out.find("NodeName=n1 Name=gpu Type=mi300x_spx_nps1 File=/dev/x/d0p0 "
                       "Flags=amd_gpu_env # partition 0:"),
              std::string::npos)
        << out;
    for (const char* f : {"File=/dev/x/d1p0 ", "File=/dev/x/d1p1 "})
        EXPECT_NE(out.find(std::string("Type=mi300x_dpx_nps1 ") + f), std::string::npos) << out;
    EXPECT_EQ(out.find("Count="), std::string::npos) << out;
    EXPECT_EQ(out.find("# no device file known"), std::string::npos) << out;
}

// ---- recovery (issue 32): the pending action through exporter, health
// and the DRA taints.  The snapshots are the fake kernel's with the
// recovery state a module of uapi minor 1 reports set in them.

amdx::cli::TargetRecovery pending(std::optional<std::uint32_t> partition,
                                  std::optional<std::uint32_t> vf, amdx::RecoveryAction action,
                                  amdx::RecoveryState state = amdx::RecoveryState::pending,
                                  std::uint64_t seq = 40) {
    amdx::cli::TargetRecovery r;
    r.partition = partition;
    r.vf = vf;
    r.action = action;
    r.state = action == amdx::RecoveryAction::none ? amdx::RecoveryState::none : state;
    r.seq = action == amdx::RecoveryAction::none ? 0 : seq;
    r.est_ms = action == amdx::RecoveryAction::none ? 0 : 1500;
    return r;
}

/// Device 0 in DPX with one VF, every target's action none.
Snapshot recovery_snapshot(FakeKernel& k) {
    k.add_device(0);
    k.devices[0].compute_mode = AMDX_COMPUTE_DPX;
    Snapshot s = one_snapshot(k);
    s.recovery = {pending(std::nullopt, std::nullopt, amdx::RecoveryAction::none),
                  pending(0, std::nullopt, amdx::RecoveryAction::none),
                  pending(1, std::nullopt, amdx::RecoveryAction::none),
                  pending(std::nullopt, 0, amdx::RecoveryAction::none)};
    return s;
}

std::string recovery_metrics(const Snapshot& s,
                             const std::map<std::uint32_t, amdx::cli::EventTally>* t = nullptr) {
    return amdx::cli::to_text(amdx::cli::to_metrics({s}, "h1", t, std::nullopt));
}

TEST(FleetRecovery, ModuleWithoutRecoveryPlanHasNoRecoverySeries) {
    FakeKernel k;
    k.add_device(0);
    without_recovery(k);
    const Snapshot s = one_snapshot(k);
    EXPECT_TRUE(s.recovery.empty()); // ENOTTY: a module before uapi minor 1
    EXPECT_EQ(recovery_metrics(s).find("amdx_recovery_action"), std::string::npos);
}

TEST(FleetRecovery, ActionGaugeIsOneSeriesPerTargetFollowingTheAction) {
    FakeKernel k;
    Snapshot s = recovery_snapshot(k);
    std::string text = recovery_metrics(s);
    EXPECT_NE(text.find("# TYPE amdx_recovery_action gauge"), std::string::npos);
    EXPECT_EQ(sample(text, "amdx_recovery_action",
                     {"partition=\"all\"", "action=\"none\"", "state=\"none\""}),
              -1); // the device and its VF
    EXPECT_EQ(sample(text, "amdx_recovery_action",
                     {"partition=\"all\"", "vf=\"0\"", "action=\"none\"", "state=\"none\""}),
              1);
    EXPECT_EQ(sample(text, "amdx_recovery_action",
                     {"partition=\"1\"", "gpu_partition_id=\"1\"", "action=\"none\""}),
              1);
    // Injected: partition 1 has a reset pending, the VF an FLR.
    s.recovery[2] = pending(1, std::nullopt, amdx::RecoveryAction::partition);
    s.recovery[3] = pending(std::nullopt, 0, amdx::RecoveryAction::vf);
    text = recovery_metrics(s);
    EXPECT_EQ(sample(text, "amdx_recovery_action",
                     {"partition=\"1\"", "action=\"partition\"", "state=\"pending\""}),
              1);
    EXPECT_TRUE(
        std::isnan(sample(text, "amdx_recovery_action", {"partition=\"1\"", "action=\"none\""})));
    EXPECT_EQ(sample(text, "amdx_recovery_action", {"vf=\"0\"", "action=\"vf\""}), 1);
    // One series per target, whatever its action.
    std::size_t series = 0;
    for (std::size_t at = 0; (at = text.find("\namdx_recovery_action{", at)) != std::string::npos;
         ++at)
        ++series;
    EXPECT_EQ(series, s.recovery.size());
    // Failed midway: the state says so, never none.
    s.recovery[2] =
        pending(1, std::nullopt, amdx::RecoveryAction::partition, amdx::RecoveryState::failed);
    EXPECT_EQ(sample(recovery_metrics(s), "amdx_recovery_action",
                     {"partition=\"1\"", "action=\"partition\"", "state=\"failed\""}),
              1);
    // Cleared.
    s.recovery[2] = pending(1, std::nullopt, amdx::RecoveryAction::none);
    EXPECT_EQ(sample(recovery_metrics(s), "amdx_recovery_action",
                     {"partition=\"1\"", "action=\"none\"", "state=\"none\""}),
              1);
}

TEST(FleetRecovery, RecoveriesTotalCountsRunsByActionAndOutcome) {
    FakeKernel k;
    const Snapshot s = recovery_snapshot(k);
    EventTallies t;
    auto ev = [](std::uint32_t type, amdx::RecoveryAction a, std::uint64_t d1) {
        amdx::Event e;
        e.kind = amdx::EventKind::recovery;
        e.type = type;
        e.data[0] = AMDX_RECOVERY_SUM_VALID | static_cast<std::uint64_t>(a);
        e.data[1] = d1;
        return e;
    };
    using A = amdx::RecoveryAction;
    t.add(ev(AMDX_RECOVERY_EV_PENDING, A::partition, 1500)); // not a run
    t.add(ev(AMDX_RECOVERY_EV_RAN, A::partition, 0));        // its end follows
    t.add(ev(AMDX_RECOVERY_EV_SELFTEST, A::partition, static_cast<std::uint64_t>(-EIO)));
    t.add(ev(AMDX_RECOVERY_EV_ESCALATED, A::device, static_cast<std::uint64_t>(-EIO)));
    t.add(ev(AMDX_RECOVERY_EV_SELFTEST, A::device, 0));
    t.add(ev(AMDX_RECOVERY_EV_CLEARED, A::none, 0));
    t.add(ev(AMDX_RECOVERY_EV_FAILED, A::hive, static_cast<std::uint64_t>(-ETIMEDOUT)));
    const auto tallies = t.get();
    const std::string text = recovery_metrics(s, &tallies);
    EXPECT_NE(text.find("# TYPE amdx_recoveries_total counter"), std::string::npos);
    EXPECT_EQ(
        sample(text, "amdx_recoveries_total", {"action=\"partition\"", "outcome=\"escalated\""}),
        1);
    EXPECT_EQ(
        sample(text, "amdx_recoveries_total", {"action=\"partition\"", "outcome=\"cleared\""}), 0);
    EXPECT_EQ(sample(text, "amdx_recoveries_total", {"action=\"device\"", "outcome=\"cleared\""}),
              1);
    EXPECT_EQ(sample(text, "amdx_recoveries_total", {"action=\"hive\"", "outcome=\"failed\""}), 1);
    // Every runnable action and outcome from 0; none, node and rma never run.
    EXPECT_EQ(sample(text, "amdx_recoveries_total", {"action=\"queue\"", "outcome=\"failed\""}), 0);
    EXPECT_TRUE(std::isnan(sample(text, "amdx_recoveries_total", {"action=\"rma\""})));
    EXPECT_TRUE(std::isnan(sample(text, "amdx_recoveries_total", {"action=\"none\""})));
}

TEST(FleetRecovery, HealthFollowsThePendingActionAndNamesIt) {
    FakeKernel k;
    Snapshot s = recovery_snapshot(k);
    HealthRules rules;
    rules.now_mono_ns = 1002 * kSec;
    // none: healthy.
    DeviceHealth h = amdx::cli::evaluate(s, {}, rules);
    EXPECT_EQ(h.verdict(), Verdict::healthy);

    // Injected: a UE in partition 1's engines set a partition reset.
    auto ue = rec(40, "error", 1000 * kSec, 1);
    ue.type = "ue";
    ue.block = "gfx";
    s.recovery[2] = pending(1, std::nullopt, amdx::RecoveryAction::partition);
    h = amdx::cli::evaluate(s, {ue}, rules);
    EXPECT_EQ(h.verdict(), Verdict::unhealthy);
    EXPECT_EQ(h.partitions[0].verdict(), Verdict::healthy);
    ASSERT_EQ(h.partitions[1].verdict(), Verdict::unhealthy);
    const auto& fs = h.partitions[1].findings;
    const auto it = std::find_if(fs.begin(), fs.end(), [](const auto& f) { return f.action; });
    ASSERT_NE(it, fs.end());
    EXPECT_EQ(*it->action, "partition");
    EXPECT_NE(it->cause.find("reset the compute partition"), std::string::npos) << it->cause;
    EXPECT_EQ(it->clears, "the action runs and its self-test passes (amdx recover plan 0 "
                          "partition=1, then amdx recover run 0 partition=1)");
    EXPECT_EQ(it->seq, 40U);
    EXPECT_EQ(it->timestamp_ns, 1000 * kSec); // the journal's record of it
    EXPECT_EQ(amdx::cli::health_to_json(h)["partitions"][1]["findings"].back()["action"],
              "partition");

    // Failed midway: still unhealthy, and says so.
    s.recovery[2] =
        pending(1, std::nullopt, amdx::RecoveryAction::partition, amdx::RecoveryState::failed);
    h = amdx::cli::evaluate(s, {ue}, rules);
    EXPECT_EQ(h.partitions[1].verdict(), Verdict::unhealthy);
    EXPECT_NE(h.partitions[1].findings.back().cause.find("failed midway"), std::string::npos);

    // Cleared (ran, self-test passed): the recent UE alone is degraded,
    // where without recovery state it would be unhealthy.
    s.recovery[2] = pending(1, std::nullopt, amdx::RecoveryAction::none);
    h = amdx::cli::evaluate(s, {ue}, rules);
    EXPECT_EQ(h.verdict(), Verdict::degraded);
    EXPECT_FALSE(h.partitions[1].findings.back().action);
    Snapshot old = s;
    old.recovery.clear();
    EXPECT_EQ(amdx::cli::evaluate(old, {ue}, rules).verdict(), Verdict::unhealthy);
    // ... and healthy once the UE is stale.
    rules.now_mono_ns = 1000 * kSec + 3601 * kSec;
    EXPECT_EQ(amdx::cli::evaluate(s, {ue}, rules).verdict(), Verdict::healthy);

    // A process restart degrades; a VF's FLR, the device's or a wider
    // reset, an RMA make the device unhealthy, naming the action.
    s.recovery[0] = pending(std::nullopt, std::nullopt, amdx::RecoveryAction::process);
    h = amdx::cli::evaluate(s, {}, rules);
    EXPECT_EQ(h.verdict(), Verdict::degraded);
    EXPECT_NE(h.findings.at(0).cause.find("restart the consuming process"), std::string::npos);
    for (const auto a : {amdx::RecoveryAction::queue, amdx::RecoveryAction::device,
                         amdx::RecoveryAction::hive, amdx::RecoveryAction::rma}) {
        s.recovery[0] = pending(std::nullopt, std::nullopt, a);
        h = amdx::cli::evaluate(s, {}, rules);
        EXPECT_EQ(h.verdict(), Verdict::unhealthy) << to_string(a);
        EXPECT_EQ(h.findings.at(0).action, std::string(to_string(a)));
    }
    s.recovery[0] = pending(std::nullopt, std::nullopt, amdx::RecoveryAction::none);
    s.recovery[3] = pending(std::nullopt, 0, amdx::RecoveryAction::vf);
    h = amdx::cli::evaluate(s, {}, rules);
    EXPECT_EQ(h.verdict(), Verdict::unhealthy);
    EXPECT_EQ(h.findings.at(0).cause.rfind("VF 0: recovery action vf pending", 0), 0U)
        << h.findings.at(0).cause;
}

/// The taints of device 0's DRA entries, by entry name ("" for none).
std::map<std::string, std::string> taints(const Snapshot& s, FakeKernel& /*alive*/) {
    auto control = Control::open("/dev/null");
    EXPECT_TRUE(control);
    auto dev = Device::open(*control, 0);
    EXPECT_TRUE(dev);
    const auto profs = amdx::cli::profiles(*dev, s.info);
    EXPECT_TRUE(profs);
    const auto slices =
        amdx::cli::dra_slice(s.info, *profs, "n1", "gpu.amdx.io", s.recovery, s.vfs);
    std::map<std::string, std::string> out;
    for (const auto& d : slices[1]["spec"]["devices"]) {
        std::string t;
        if (d.contains("taints")) {
            EXPECT_EQ(d["taints"].size(), 1U);
            EXPECT_EQ(d["taints"][0]["key"], "gpu.amdx.io/recovery");
            t = d["taints"][0]["value"].get<std::string>() + ":" +
                d["taints"][0]["effect"].get<std::string>();
        }
        out[d["name"].get<std::string>()] = t;
    }
    return out;
}

TEST(FleetRecovery, DraTaintsFollowThePendingActionAndClear) {
    FakeKernel k;
    Snapshot s = recovery_snapshot(k);
    auto t = taints(s, k);
    ASSERT_TRUE(t.contains("dpx-nps1-p1"));
    for (const auto& [name, taint] : t)
        EXPECT_EQ(taint, "") << name;

    // A partition reset pending on DPX partition 1: that entry only.
    s.recovery[2] = pending(1, std::nullopt, amdx::RecoveryAction::partition);
    t = taints(s, k);
    for (const auto& [name, taint] : t)
        EXPECT_EQ(taint, name == "dpx-nps1-p1" ? "partition:NoSchedule" : "") << name;

    // Failed midway: NoExecute.  A device reset: every entry, the worse
    // effect where both apply.
    s.recovery[2] =
        pending(1, std::nullopt, amdx::RecoveryAction::partition, amdx::RecoveryState::failed);
    s.recovery[0] = pending(std::nullopt, std::nullopt, amdx::RecoveryAction::device);
    t = taints(s, k);
    for (const auto& [name, taint] : t)
        EXPECT_EQ(taint, name == "dpx-nps1-p1" ? "partition:NoExecute" : "device:NoSchedule")
            << name;

    // A process restart: effect None; an RMA: NoExecute.
    s.recovery[2] = pending(1, std::nullopt, amdx::RecoveryAction::none);
    s.recovery[0] = pending(std::nullopt, std::nullopt, amdx::RecoveryAction::process);
    EXPECT_EQ(taints(s, k)["spx-nps1-p0"], "process:None");
    s.recovery[0] = pending(std::nullopt, std::nullopt, amdx::RecoveryAction::rma);
    EXPECT_EQ(taints(s, k)["cpx-nps1-p7"], "rma:NoExecute");

    // Back to none: every taint gone (NVIDIA's DRA driver had to learn it).
    s.recovery[0] = pending(std::nullopt, std::nullopt, amdx::RecoveryAction::none);
    for (const auto& [name, taint] : taints(s, k))
        EXPECT_EQ(taint, "") << name;
}

/// Per-VF taints, by the rule of the partitions': device 0 in DPX with two
/// VFs, VF N holding partition N; an entry is tainted by the actions of
/// the device, of the partitions it uses and of the VFs holding them.
TEST(FleetRecovery, DraTaintsOfVfsFollowTheirRecoveryTarget) {
    FakeKernel k;
    dpx_with_vfs(k, 2);
    Snapshot s = one_snapshot(k);
    ASSERT_EQ(s.vfs.vfs.size(), 2U);
    s.recovery = {pending(std::nullopt, std::nullopt, amdx::RecoveryAction::none),
                  pending(0, std::nullopt, amdx::RecoveryAction::none),
                  pending(1, std::nullopt, amdx::RecoveryAction::none),
                  pending(std::nullopt, 0, amdx::RecoveryAction::none),
                  pending(std::nullopt, 1, amdx::RecoveryAction::none)};
    auto t = taints(s, k);
    ASSERT_EQ(t.size(), 4U); // dpx-nps1-p0, -p1, vf0, vf1: the current mode only
    for (const auto& [name, taint] : t)
        EXPECT_EQ(taint, "") << name;

    // A hung VF: its FLR pending taints the VF and the partition it holds.
    s.recovery[3] = pending(std::nullopt, 0, amdx::RecoveryAction::vf);
    t = taints(s, k);
    for (const auto& [name, taint] : t)
        EXPECT_EQ(taint, name == "vf0" || name == "dpx-nps1-p0" ? "vf:NoSchedule" : "") << name;

    // Partition 1's reset takes VF 1 down with it; failed midway VF 0's
    // FLR is NoExecute.
    s.recovery[3] = pending(std::nullopt, 0, amdx::RecoveryAction::vf, amdx::RecoveryState::failed);
    s.recovery[2] = pending(1, std::nullopt, amdx::RecoveryAction::partition);
    t = taints(s, k);
    EXPECT_EQ(t["vf0"], "vf:NoExecute");
    EXPECT_EQ(t["dpx-nps1-p0"], "vf:NoExecute");
    EXPECT_EQ(t["vf1"], "partition:NoSchedule");
    EXPECT_EQ(t["dpx-nps1-p1"], "partition:NoSchedule");

    // A process restart on VF 1 (None) under the device's reset: the
    // stronger.
    s.recovery[3] = pending(std::nullopt, 0, amdx::RecoveryAction::none);
    s.recovery[2] = pending(1, std::nullopt, amdx::RecoveryAction::none);
    s.recovery[4] = pending(std::nullopt, 1, amdx::RecoveryAction::process);
    EXPECT_EQ(taints(s, k)["vf1"], "process:None");
    s.recovery[0] = pending(std::nullopt, std::nullopt, amdx::RecoveryAction::device);
    t = taints(s, k);
    for (const auto& [name, taint] : t)
        EXPECT_EQ(taint, "device:NoSchedule") << name;

    // Back to none: every taint gone.
    s.recovery[0] = pending(std::nullopt, std::nullopt, amdx::RecoveryAction::none);
    s.recovery[4] = pending(std::nullopt, 1, amdx::RecoveryAction::none);
    for (const auto& [name, taint] : taints(s, k))
        EXPECT_EQ(taint, "") << name;
}

TEST(FleetRecovery, SeriesHealthAndTaintsFollowAFaultThroughRunAndClear) {
    // Through libamdx and the fake kernel's RECOVERY_PLAN/RUN: the
    // collection, not a hand-made snapshot.
    FakeKernel k;
    k.add_device(0);
    k.devices[0].compute_mode = AMDX_COMPUTE_DPX;
    const HealthRules rules;
    auto taint_of = [&](const std::string& entry) {
        std::string out, err;
        EXPECT_EQ(run({"-j", "partition", "export", "0", "--node", "n1"}, out, err), 0) << err;
        const auto doc = amdx::cli::Json::parse(out);
        for (const auto& d : doc["items"][1]["spec"]["devices"])
            if (d["name"] == entry)
                return d.contains("taints") ? d["taints"][0]["effect"].get<std::string>()
                                            : std::string("none");
        return std::string("no such entry");
    };

    std::string text = metrics_text();
    EXPECT_EQ(sample(text, "amdx_recovery_action",
                     {"partition=\"1\"", "action=\"none\"", "state=\"none\""}),
              1);
    EXPECT_EQ(amdx::cli::evaluate(one_snapshot(k), {}, rules).verdict(), Verdict::healthy);
    EXPECT_EQ(taint_of("dpx-nps1-p1"), "none");

    // Injected: an engine UE in partition 1 leaves a partition reset.
    const auto seq =
        k.recovery_fault(0, 1, AMDX_VF_NONE, AMDX_RECOVER_PARTITION, AMDX_FAULT_ENGINE_UE);
    text = metrics_text();
    EXPECT_EQ(sample(text, "amdx_recovery_action",
                     {"partition=\"1\"", "action=\"partition\"", "state=\"pending\""}),
              1);
    EXPECT_EQ(sample(text, "amdx_recovery_action", {"partition=\"0\"", "action=\"none\""}), 1);
    DeviceHealth h = amdx::cli::evaluate(one_snapshot(k), {}, rules);
    EXPECT_EQ(h.partitions.at(0).verdict(), Verdict::healthy);
    ASSERT_EQ(h.partitions.at(1).verdict(), Verdict::unhealthy);
    EXPECT_EQ(h.partitions[1].findings.back().seq, seq);
    EXPECT_EQ(h.partitions[1].findings.back().action, "partition");
    EXPECT_EQ(taint_of("dpx-nps1-p1"), "NoSchedule");
    EXPECT_EQ(taint_of("dpx-nps1-p0"), "none");
    std::string out, err;
    EXPECT_EQ(run({"health", "--journal", "/dev/null"}, out, err), 1) << out << err;
    EXPECT_NE(out.find("partition 1 unhealthy: recovery action partition pending"),
              std::string::npos)
        << out;

    // Run: the self-test passes and the kernel clears the action.
    {
        auto control = Control::open("/dev/null");
        ASSERT_TRUE(control);
        auto dev = Device::open(*control, 0);
        ASSERT_TRUE(dev);
        const auto r = dev->recovery_run({.partition = 1, .vf = std::nullopt}, std::nullopt, {});
        ASSERT_TRUE(r);
        EXPECT_EQ(r->outcome, amdx::RecoveryOutcome::cleared);
    }
    text = metrics_text();
    EXPECT_EQ(sample(text, "amdx_recovery_action",
                     {"partition=\"1\"", "action=\"none\"", "state=\"none\""}),
              1);
    EXPECT_TRUE(std::isnan(sample(text, "amdx_recovery_action", {"action=\"partition\""})));
    EXPECT_EQ(amdx::cli::evaluate(one_snapshot(k), {}, rules).verdict(), Verdict::healthy);
    EXPECT_EQ(taint_of("dpx-nps1-p1"), "none");
    EXPECT_EQ(run({"health", "--journal", "/dev/null"}, out, err), 0) << out << err;
}

} // namespace
