// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// amdx-eventd (tools/eventd) against the fake kernel: every record is
// journaled with its schema fields, a restart reports the seqs it could not
// recover as one LOST record, rotation keeps the order.
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <amdx/device.hpp>

#include "cli.hpp"
#include "eventd.hpp"
#include "fake_kernel.hpp"

namespace {

using amdx::eventd::Daemon;
using amdx::eventd::Json;
using amdx::test::FakeKernel;

class Eventd : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("amdx-eventd-test-" + std::to_string(::getpid()));
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        opts_.node = "/dev/null";
        opts_.journal.path = (dir_ / "events.jsonl").string();
        opts_.journal.sync = false;
        k_.add_device(0);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    Daemon start() {
        std::string why;
        auto d = Daemon::start(opts_, why);
        EXPECT_TRUE(d) << why;
        return std::move(*d);
    }
    std::uint64_t error(std::uint32_t dev = 0) {
        amdx_event ev{};
        ev.kind = AMDX_EVENT_ERROR;
        ev.block = AMDX_RAS_BLOCK_UMC;
        ev.type = AMDX_RAS_TYPE_CE;
        ev.partition = 0;
        ev.data[0] = 1;
        return k_.emit(dev, ev);
    }
    /// Every record of the journal files, oldest first.
    std::vector<Json> records() const {
        std::vector<Json> out;
        for (int n = static_cast<int>(opts_.journal.keep); n >= 0; --n) {
            const std::string p =
                n == 0 ? opts_.journal.path : opts_.journal.path + "." + std::to_string(n);
            std::ifstream in(p);
            for (std::string line; std::getline(in, line);)
                out.push_back(Json::parse(line));
        }
        return out;
    }
    static std::size_t drain(Daemon& d, std::size_t want) {
        std::size_t got = 0;
        for (int i = 0; i < 20 && got < want; ++i) {
            auto n = d.poll_once(50);
            EXPECT_TRUE(n);
            got += n ? *n : 0;
        }
        return got;
    }

    FakeKernel k_;
    Daemon::Options opts_;
    std::filesystem::path dir_;
};

TEST_F(Eventd, RecordsCarryTheSchemaFieldsAndLostRecordsAreKept) {
    Daemon d = start();
    error();
    amdx_event lost{};
    lost.kind = AMDX_EVENT_LOST;
    lost.seq = 2;
    lost.data[0] = 3;
    lost.data[1] = 4;
    k_.emit(0, lost);
    ASSERT_EQ(drain(d, 2), 2U);
    const auto recs = records();
    ASSERT_EQ(recs.size(), 2U);
    EXPECT_EQ(recs[0]["schema_version"], 1);
    EXPECT_EQ(recs[0]["boot_id"], amdx::eventd::boot_id());
    EXPECT_EQ(recs[0]["seq"], 1);
    EXPECT_EQ(recs[0]["kind"], "error");
    EXPECT_TRUE(recs[0]["realtime_ns"].is_number_unsigned());
    EXPECT_GT(recs[0]["realtime_ns"].get<std::uint64_t>(),
              recs[0]["timestamp_ns"].get<std::uint64_t>());
    EXPECT_EQ(recs[1]["kind"], "lost");
    EXPECT_EQ(recs[1]["missed"], 3);
    EXPECT_EQ(recs[1]["last_seq"], 4);
    EXPECT_EQ(recs[1]["source"], "kernel");
}

TEST_F(Eventd, RestartReportsTheGapAsOneLostRecord) {
    {
        Daemon d = start();
        error();
        error();
        ASSERT_EQ(drain(d, 2), 2U);
    } // killed: its subscription is gone
    k_.hang_up(0);
    error(); // seq 3, 4, 5: nobody subscribed
    error();
    error();
    Daemon d = start();
    const auto next = error(); // seq 6
    ASSERT_EQ(next, 6U);
    ASSERT_EQ(drain(d, 2), 2U);
    const auto recs = records();
    ASSERT_EQ(recs.size(), 4U);
    EXPECT_EQ(recs[2]["kind"], "lost");
    EXPECT_EQ(recs[2]["source"], "eventd");
    EXPECT_EQ(recs[2]["seq"], 3);
    EXPECT_EQ(recs[2]["missed"], 3);
    EXPECT_EQ(recs[2]["last_seq"], 5);
    EXPECT_EQ(recs[3]["seq"], 6);
    // Contiguous: each record starts where the previous one ended.
    std::uint64_t expect = 1;
    for (const auto& r : recs) {
        EXPECT_EQ(r["seq"], expect);
        expect = (r["kind"] == "lost" ? r["last_seq"].get<std::uint64_t>()
                                      : r["seq"].get<std::uint64_t>()) +
                 1;
    }
}

TEST_F(Eventd, RestartWithoutAGapWritesNoLostRecord) {
    {
        Daemon d = start();
        error();
        ASSERT_EQ(drain(d, 1), 1U);
    }
    k_.hang_up(0);
    Daemon d = start();
    error();
    ASSERT_EQ(drain(d, 1), 1U);
    const auto recs = records();
    ASSERT_EQ(recs.size(), 2U);
    EXPECT_EQ(recs[1]["kind"], "error");
    EXPECT_EQ(recs[1]["seq"], 2);
}

TEST_F(Eventd, RotationKeepsTheOrder) {
    opts_.journal.max_bytes = 2048;
    opts_.journal.keep = 8;
    Daemon d = start();
    for (int i = 0; i < 40; ++i) {
        error();
        ASSERT_EQ(drain(d, 1), 1U);
    }
    EXPECT_TRUE(std::filesystem::exists(opts_.journal.path + ".3"));
    const auto recs = records();
    ASSERT_EQ(recs.size(), 40U);
    for (std::size_t i = 0; i < recs.size(); ++i)
        EXPECT_EQ(recs[i]["seq"], i + 1);
    for (const auto& f : std::filesystem::directory_iterator(dir_))
        EXPECT_LE(std::filesystem::file_size(f), 2048U) << f.path();
}

TEST_F(Eventd, RotationDropsTheOldestBeyondKeep) {
    opts_.journal.max_bytes = 1024;
    opts_.journal.keep = 2;
    Daemon d = start();
    for (int i = 0; i < 40; ++i) {
        error();
        ASSERT_EQ(drain(d, 1), 1U);
    }
    EXPECT_FALSE(std::filesystem::exists(opts_.journal.path + ".3"));
    const auto recs = records();
    ASSERT_FALSE(recs.empty());
    EXPECT_EQ(recs.back()["seq"], 40);
    for (std::size_t i = 1; i < recs.size(); ++i)
        EXPECT_EQ(recs[i]["seq"], recs[i - 1]["seq"].get<std::uint64_t>() + 1);
}

// A recovery run's records reach the journal in the kernel's order, each
// with its fields: the fault's PENDING, the holders STOPPED, the reset's
// ACTION_START (device_reset), DEVICE_RESET_BEGIN with the devices,
// DEVICE_RESET_END and ACTION_END with result and duration, then RAN,
// SELFTEST and CLEARED; a failing one says so in ACTION_END and ends
// FAILED.
TEST_F(Eventd, RecoveryRunIsJournaledActionByAction) {
    k_.devices[0].compute_mode = AMDX_COMPUTE_DPX;
    auto control = amdx::Control::adopt(amdx::UniqueFd(::open("/dev/null", O_RDWR | O_CLOEXEC)));
    auto dev = amdx::Device::open(control, 0);
    ASSERT_TRUE(dev) << dev.error().message();
    amdx_recovery_process holder{};
    holder.pid = 100;
    holder.mem_partition = 0;
    holder.pages = 1;
    k_.rec_holders = {holder};
    Daemon d = start();
    const amdx::RecoveryTarget whole{.partition = std::nullopt, .vf = std::nullopt};

    const auto seq = k_.recovery_fault(0, AMDX_RAS_PARTITION_ALL, AMDX_VF_NONE, AMDX_RECOVER_DEVICE,
                                       AMDX_FAULT_DEVICE_UE);
    const auto ran = dev->recovery_run(whole, std::nullopt, {.stop = true, .others = false});
    ASSERT_TRUE(ran) << ran.error().message();
    EXPECT_EQ(ran->outcome, amdx::RecoveryOutcome::cleared);
    ASSERT_EQ(drain(d, 9), 9U);
    auto recs = records();
    ASSERT_EQ(recs.size(), 9U);
    const std::vector<std::string> want = {"recovery",           "recovery",         "action_start",
                                           "device_reset_begin", "device_reset_end", "action_end",
                                           "recovery",           "recovery",         "recovery"};
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(recs[i]["kind"], want[i]) << "record " << i;
        if (i > 0) {
            EXPECT_GT(recs[i]["seq"].get<std::uint64_t>(), recs[i - 1]["seq"].get<std::uint64_t>());
        }
    }
    EXPECT_EQ(recs[0]["seq"], seq);
    // The RECOVERY records by name (events::Recovery), never raw fields.
    std::vector<std::string> steps;
    for (const std::size_t i : {0, 1, 6, 7, 8}) {
        EXPECT_FALSE(recs[i].contains("kind_id")) << recs[i].dump();
        EXPECT_EQ(recs[i]["fault"], "device_ue") << recs[i].dump();
        EXPECT_EQ(recs[i]["cause_seq"], seq) << recs[i].dump();
        steps.push_back(recs[i]["step"]);
    }
    EXPECT_EQ(steps,
              (std::vector<std::string>{"pending", "stopped", "ran", "self_test", "cleared"}));
    EXPECT_EQ(recs[0]["action"], "device");
    EXPECT_EQ(recs[1]["stopped"], 1);
    EXPECT_EQ(recs[7]["result"], "ok");
    EXPECT_EQ(recs[8]["action"], "none");
    EXPECT_EQ(recs[2]["action"], "device_reset");
    EXPECT_FALSE(recs[2].contains("partition"));
    EXPECT_EQ(recs[3]["devices"], Json::array({0}));
    EXPECT_EQ(recs[4]["result"], "ok");
    EXPECT_EQ(recs[5]["action"], "device_reset");
    EXPECT_EQ(recs[5]["result"], "ok");
    EXPECT_EQ(recs[5]["duration_ns"], 5000ULL * 1000000);

    // A partition reset that fails midway: its ACTION_END says how, the
    // partition goes offline, the run ends FAILED.
    k_.rec_fail_errno = EIO;
    k_.recovery_fault(0, 1, AMDX_VF_NONE, AMDX_RECOVER_PARTITION, AMDX_FAULT_ENGINE_UE);
    const amdx::RecoveryTarget part1{.partition = 1, .vf = std::nullopt};
    const auto failed = dev->recovery_run(part1, std::nullopt, {});
    ASSERT_TRUE(failed) << failed.error().message();
    EXPECT_EQ(failed->outcome, amdx::RecoveryOutcome::failed);
    ASSERT_EQ(drain(d, 6), 6U);
    recs = records();
    ASSERT_EQ(recs.size(), 15U);
    const std::vector<std::string> want2 = {
        "recovery",          "action_start", "partition_quarantined",
        "partition_offline", "action_end",   "recovery"};
    for (std::size_t i = 0; i < want2.size(); ++i)
        EXPECT_EQ(recs[9 + i]["kind"], want2[i]) << "record " << 9 + i;
    EXPECT_EQ(recs[10]["action"], "partition_reset");
    EXPECT_EQ(recs[10]["partition"], 1);
    EXPECT_EQ(recs[13]["action"], "partition_reset");
    EXPECT_EQ(recs[13]["partition"], 1);
    EXPECT_EQ(recs[13]["result"], "EIO");
    EXPECT_EQ(recs[14]["step"], "failed");
    EXPECT_EQ(recs[14]["partition"], 1);
    EXPECT_EQ(recs[14]["result"], "EIO");
}

// What `amdx health` needs of the past outlives the journal: an
// uncontained UE followed by more records than health's window, and by
// rotations that drop its file, is still unhealthy (exit 1, Node Problem
// Detector's problem), from the state file eventd keeps beside the
// journal.  On 01d88b2 (no state) the run said "journal degraded: its
// newest 1 MiB reach back 0 s" and exited 0.
TEST_F(Eventd, HealthRemembersAnUncontainedUeBeyondTheWindowAndRotation) {
    opts_.journal.max_bytes = 256U << 10;
    opts_.journal.keep = 4;                         // 1.25 MiB kept at most
    k_.fail_ioctl[AMDX_IOC_RECOVERY_PLAN] = ENOTTY; // the containment rule decides
    Daemon d = start();
    amdx_event ue{};
    ue.kind = AMDX_EVENT_ERROR;
    ue.block = AMDX_RAS_BLOCK_UMC;
    ue.type = AMDX_RAS_TYPE_UE;
    ue.partition = AMDX_RAS_PARTITION_ALL;
    ue.data[0] = 1;
    const auto ue_seq = k_.emit(0, ue);
    ASSERT_EQ(drain(d, 1), 1U);
    // CEs after it until the UE's file rotated away and more than a 1 MiB
    // window is kept.
    const auto oldest_seq = [this] {
        for (unsigned n = opts_.journal.keep; n >= 1; --n) {
            std::ifstream in(opts_.journal.path + "." + std::to_string(n));
            std::string line;
            if (std::getline(in, line))
                return Json::parse(line)["seq"].get<std::uint64_t>();
        }
        return std::uint64_t{0};
    };
    const auto kept = [this] {
        std::uintmax_t sum = 0;
        for (const auto& f : std::filesystem::directory_iterator(dir_))
            sum += f.path().extension() == ".json" ? 0 : std::filesystem::file_size(f);
        return sum;
    };
    for (int batch = 0; batch < 100 && (oldest_seq() <= ue_seq || kept() < (9U << 17)); ++batch) {
        for (int i = 0; i < 256; ++i)
            error();
        ASSERT_EQ(drain(d, 256), 256U);
    }
    ASSERT_GT(oldest_seq(), ue_seq);
    ASSERT_GE(kept(), 9U << 17);
    for (const auto& r : records())
        ASSERT_NE(r["seq"], ue_seq) << "the UE's file was kept";
    const std::string state = (dir_ / "events.health.json").string();
    ASSERT_TRUE(std::filesystem::exists(state));
    EXPECT_FALSE(std::filesystem::exists(state + ".tmp"));
    // Bounded: the newest record per device, kind and partition a rule
    // reads; CEs are none of them.
    const Json st = Json::parse(std::ifstream(state));
    EXPECT_EQ(st["schema_version"], 1);
    ASSERT_EQ(st["records"].size(), 1U) << st.dump();
    EXPECT_EQ(st["records"][0]["seq"], ue_seq);

    const std::string path = opts_.journal.path;
    const auto health = [&path](std::vector<const char*> extra, std::string& out) {
        std::vector<const char*> argv{"amdx",      "-d",         "/dev/null",        "health",
                                      "--journal", path.c_str(), "--journal-window", "1"};
        argv.insert(argv.begin() + 1, extra.begin(), extra.end());
        std::ostringstream o, e;
        const int rc = amdx::cli::run(static_cast<int>(argv.size()), argv.data(), o, e);
        out = o.str();
        return rc;
    };
    std::string out;
    EXPECT_EQ(health({}, out), 1) << out;
    EXPECT_EQ(out.rfind("amdx health: unhealthy: device 0 unhealthy: uncorrected umc error (ue) "
                        "with no containment that succeeded (seq " +
                            std::to_string(ue_seq) + ")",
                        0),
              0U)
        << out;
    EXPECT_EQ(health({"-j"}, out), 1) << out;
    const Json doc = Json::parse(out);
    EXPECT_EQ(doc["journal"]["truncated"], true);
    EXPECT_EQ(doc["journal"]["state"]["status"], "ok");
    ASSERT_EQ(doc["devices"][0]["findings"].size(), 1U) << out;
    EXPECT_EQ(doc["devices"][0]["findings"][0]["seq"], ue_seq);

    // A state file torn by hand: the window alone, and the run says so
    // (degraded, exit 0; 1 with --strict), never a silent healthy.
    std::ofstream(state) << R"({"schema_version":1,"records":[{"dev)";
    EXPECT_EQ(health({}, out), 0) << out;
    EXPECT_NE(out.find("journal state " + state +
                       " unreadable (not a JSON object): read the "
                       "journal's newest 1 MiB alone"),
              std::string::npos)
        << out;
    EXPECT_EQ(out.rfind("amdx health: degraded: ", 0), 0U) << out;
    // Missing: the window's own rule (it does not reach back --ue-age).
    std::filesystem::remove(state);
    EXPECT_EQ(health({}, out), 0) << out;
    EXPECT_EQ(out.rfind("amdx health: degraded: journal degraded: its newest 1 MiB", 0), 0U) << out;
    // eventd restarted without its state rebuilds it from the files kept
    // (the UE's is gone: nothing can bring it back) and says so.
    Daemon again = start();
    EXPECT_NE(again.state_note().find("events.health.json: No such file or directory: rebuilt "
                                      "from the journal files kept"),
              std::string::npos)
        << again.state_note();
    EXPECT_TRUE(std::filesystem::exists(state));
}

// eventd's start folds what a crash left out of the state: a batch
// journaled whose state was not written (here: a UE appended to FILE by
// hand behind a state without it).
TEST_F(Eventd, StartFoldsTheJournalIntoTheState) {
    {
        Daemon d = start();
        error();
        ASSERT_EQ(drain(d, 1), 1U);
    }
    const std::string state = (dir_ / "events.health.json").string();
    EXPECT_EQ(Json::parse(std::ifstream(state))["records"].size(), 0U);
    std::ofstream(opts_.journal.path, std::ios::app)
        << R"({"device":0,"seq":2,"timestamp_ns":1,"kind":"error","block":"umc","type":"ue"})"
        << '\n';
    k_.hang_up(0);
    Daemon d = start();
    EXPECT_EQ(d.state_note(), "");
    const Json st = Json::parse(std::ifstream(state));
    ASSERT_EQ(st["records"].size(), 1U) << st.dump();
    EXPECT_EQ(st["records"][0]["seq"], 2);
    EXPECT_EQ(st["records"][0]["type"], "ue");
}

TEST_F(Eventd, FollowsDevicesThatAppear) {
    Daemon d = start();
    k_.add_device(1);
    d.rescan();
    error(1);
    ASSERT_EQ(drain(d, 1), 1U);
    EXPECT_EQ(records().at(0)["device"], 1);
}

} // namespace

namespace {

// A journaled record happened at its realtime_ns (written by eventd, in
// the boot it names), not at its monotonic stamp read against this boot's
// clock: replay prints that time, RFC 3339 UTC, and realtime_ns is not a
// duration.  The journal's envelope (schema_version, boot_id) is the JSON
// document's: the text line is the line `amdx monitor` prints live, its
// time word already saying when (on 01d88b2 it began "schema_version 2
// boot_id b0").  -j keeps the record's boot_id.
TEST(EventdReplay, TextShowsTheJournaledWallClockTime) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("amdx-replay-" + std::to_string(::getpid()) + ".jsonl");
    {
        std::ofstream f(path);
        f << R"({"schema_version":2,"boot_id":"b0","device":0,"bdf":"0000:c1:00.0","seq":7,)"
          << R"("timestamp_ns":25202015004,"realtime_ns":1796448600123000000,)"
          << R"("kind":"action_end","action":"partition_reset","result":"EIO",)"
          << R"("duration_ns":4100})" << '\n';
    }
    const std::string p = path.string();
    std::vector<const char*> argv{"amdx",           "-d",     "/dev/null", "monitor",
                                  "--from-journal", p.c_str()};
    std::ostringstream out, err;
    ASSERT_EQ(amdx::cli::run(static_cast<int>(argv.size()), argv.data(), out, err), 0) << err.str();
    const std::string text = out.str();
    EXPECT_NE(text.find(" time 2026-12-05T05:30:00.123000Z "), std::string::npos) << text;
    EXPECT_EQ(text.find("realtime_ns"), std::string::npos) << text;
    // The journal's envelope is JSON's: a text line is the live line.
    EXPECT_EQ(text.find("schema_version"), std::string::npos) << text;
    EXPECT_EQ(text.find("boot_id"), std::string::npos) << text;
    EXPECT_EQ(text.rfind("device 0 ", 0), 0U) << text;
    EXPECT_NE(text.find(" duration_ns 4.1us"), std::string::npos) << text;
    argv.insert(argv.begin() + 1, "-j");
    std::ostringstream json;
    ASSERT_EQ(amdx::cli::run(static_cast<int>(argv.size()), argv.data(), json, err), 0)
        << err.str();
    std::filesystem::remove(path);
    EXPECT_EQ(Json::parse(json.str())["boot_id"], "b0") << json.str();
}

TEST_F(Eventd, MonitorFromJournalReplaysAfterSinceAcrossRotations) {
    opts_.journal.max_bytes = 1024;
    opts_.journal.keep = 8;
    k_.add_device(1);
    Daemon d = start();
    for (int i = 0; i < 12; ++i) {
        error(0);
        error(1);
        ASSERT_EQ(drain(d, 2), 2U);
    }
    ASSERT_TRUE(std::filesystem::exists(opts_.journal.path + ".1"));
    const std::string path = opts_.journal.path;
    std::vector<const char*> argv{"amdx",           "-d",         "/dev/null", "-j", "monitor", "0",
                                  "--from-journal", path.c_str(), "--since",   "9"};
    std::ostringstream out, err;
    ASSERT_EQ(amdx::cli::run(static_cast<int>(argv.size()), argv.data(), out, err), 0) << err.str();
    std::istringstream in(out.str());
    std::uint64_t expect = 10;
    for (std::string line; std::getline(in, line); ++expect) {
        const auto j = Json::parse(line);
        EXPECT_EQ(j["device"], 0);
        EXPECT_EQ(j["seq"], expect);
    }
    EXPECT_EQ(expect, 13U); // 10, 11, 12
    // --since alone is refused: the kernel keeps no history.
    std::vector<const char*> bad{"amdx", "-d", "/dev/null", "monitor", "--since", "3"};
    EXPECT_EQ(amdx::cli::run(static_cast<int>(bad.size()), bad.data(), out, err), 2);
}

// Type=notify: the sd_notify(3) datagram reaches $NOTIFY_SOCKET, a path
// or an abstract name; without the variable nothing is sent.
TEST(EventdNotify, SendsTheStateToNotifySocket) {
    for (const bool abstract : {false, true}) {
        const std::string name =
            (std::filesystem::temp_directory_path() / ("amdx-notify-" + std::to_string(::getpid())))
                .string();
        ::unlink(name.c_str());
        const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        ASSERT_GE(fd, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::memcpy(addr.sun_path + (abstract ? 1 : 0), name.c_str(), name.size());
        const auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name.size() +
                                                (abstract ? 1 : 0));
        ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), len), 0);
        ::setenv("NOTIFY_SOCKET", ((abstract ? "@" : "") + name).c_str(), 1);
        EXPECT_TRUE(amdx::eventd::notify("READY=1"));
        char buf[64] = {};
        EXPECT_EQ(::recv(fd, buf, sizeof(buf), MSG_DONTWAIT), 7);
        EXPECT_STREQ(buf, "READY=1");
        ::unsetenv("NOTIFY_SOCKET");
        EXPECT_FALSE(amdx::eventd::notify("READY=1"));
        ::close(fd);
        ::unlink(name.c_str());
    }
}

} // namespace
