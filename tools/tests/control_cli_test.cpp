// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// amdx partition, vf, ras and monitor against the fake kernel: the JSON
// contract, the text derived from it, what reaches the kernel, exit codes
// and the one error line.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "cli.hpp"
#include "fake_kernel.hpp"

namespace {

using amdx::cli::Json;
using amdx::test::FakeKernel;

struct Outcome {
    int code = -1;
    std::string out;
    std::string err;
};

Outcome run(const std::vector<std::string>& args) {
    std::vector<const char*> argv{"amdx", "-d", "/dev/null"};
    for (const auto& a : args)
        argv.push_back(a.c_str());
    std::ostringstream out;
    std::ostringstream err;
    Outcome r;
    r.code = amdx::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

/// Exactly one line on stderr, "amdx: " + @line.
void expect_error(const Outcome& r, int code, const std::string& line) {
    EXPECT_EQ(r.code, code);
    EXPECT_EQ(r.err, "amdx: " + line + "\n");
}

/// @text with the wall-clock times monitor prints ("time 2026-12-01T10:12:13.123456Z")
/// replaced by "time T": they depend on when the test runs.
std::string without_wall_times(const std::string& text) {
    return std::regex_replace(text, std::regex("time [0-9-]+T[0-9:.]+Z "), "time T ");
}

/// A file removed on destruction.
class TempFile {
  public:
    TempFile() {
        char name[] = "/tmp/amdx_cli_test.XXXXXX";
        const int fd = ::mkstemp(name);
        if (fd >= 0)
            ::close(fd);
        path_ = name;
    }
    ~TempFile() { std::remove(path_.c_str()); }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    TempFile(TempFile&&) = delete;
    TempFile& operator=(TempFile&&) = delete;

    [[nodiscard]] const std::string& path() const { return path_; }
    void write(const std::string& text) const { std::ofstream(path_, std::ios::binary) << text; }
    [[nodiscard]] std::string read() const {
        std::ifstream in(path_, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), {}};
    }

  private:
    std::string path_;
};

class ControlCli : public ::testing::Test {
  protected:
    void SetUp() override {
        kernel.add_device(0);
        kernel.add_device(1);
    }
    FakeKernel kernel;
};

// ---- recover

amdx_recovery_process rec_holder(std::uint32_t pid, std::uint32_t dev, std::uint32_t mem,
                                 const char* comm) {
    amdx_recovery_process p{};
    p.pid = pid;
    p.device = dev;
    p.mem_partition = mem;
    p.pages = 64;
    std::strncpy(reinterpret_cast<char*>(p.comm), comm, sizeof(p.comm) - 1);
    return p;
}

class RecoverCli : public ControlCli {
  protected:
    void SetUp() override {
        ControlCli::SetUp();
        // DPX/NPS2: each compute partition has its own memory partition.
        kernel.devices[0].compute_mode = AMDX_COMPUTE_DPX;
        kernel.devices[0].memory_mode = AMDX_MEMORY_NPS2;
        kernel.rec_holders = {rec_holder(100, 0, 0, "bystander"), rec_holder(200, 0, 1, "trainer")};
        seq =
            kernel.recovery_fault(0, 1, AMDX_VF_NONE, AMDX_RECOVER_PARTITION, AMDX_FAULT_ENGINE_UE);
    }
    std::uint64_t seq = 0;
};

TEST_F(RecoverCli, PlanShowsTheBlastRadiusAndChangesNothing) {
    const auto r = run({"-j", "recover", "plan", "0", "partition=1"});
    EXPECT_EQ(r.code, 0) << r.err;
    const Json plan = Json::parse(r.out)["plan"];
    EXPECT_EQ(plan["action"], "partition");
    EXPECT_EQ(plan["state"], "pending");
    EXPECT_EQ(plan["fault"], "engine_ue");
    EXPECT_EQ(plan["seq"], seq);
    EXPECT_EQ(plan["partition"], 1);
    EXPECT_EQ(plan["vf"], nullptr);
    EXPECT_EQ(plan["num_devices"], 0);
    EXPECT_EQ(plan["num_partitions"], 1);
    EXPECT_EQ(plan["num_processes"], 1);
    EXPECT_EQ(plan["estimate_ms"], 1000);
    EXPECT_EQ(plan["reset_devices"], Json::array());
    EXPECT_EQ(plan["scope"], Json::parse(R"([{"device":0,"reset":"partitions",)"
                                         R"("partitions":[1],"vfs":[]}])"));
    EXPECT_EQ(plan["processes"],
              Json::parse(R"([{"pid":200,"comm":"trainer","device":0,"mem_partition":1,)"
                          R"("pages":64}])"));
    EXPECT_EQ(kernel.rec_requests.size(), 1U);
    EXPECT_TRUE(kernel.rec_stopped.empty());
    // The text is a table of the same processes.
    const auto text = run({"recover", "plan", "0", "partition=1"});
    EXPECT_NE(text.out.find("  processes:\n"
                            "    PID COMM    DEVICE MEM_PARTITION PAGES\n"
                            "    200 trainer      0             1    64\n"),
              std::string::npos)
        << text.out;
    // Nothing pending on the device itself; a named action is previewed.
    const auto dev = run({"-j", "recover", "plan", "0"});
    EXPECT_EQ(Json::parse(dev.out)["plan"]["action"], "none");
    const auto named = run({"-j", "recover", "plan", "0", "--action", "device"});
    EXPECT_EQ(Json::parse(named.out)["plan"]["reset_devices"], Json::array({0}));
    EXPECT_EQ(Json::parse(named.out)["plan"]["num_processes"], 2);
}

TEST_F(RecoverCli, RunNeedsYesThenStopThenPrintsEveryStep) {
    const auto no = run({"recover", "run", "0", "partition=1"});
    expect_error(no, amdx::cli::kExitUsage,
                 "recover run device 0 partition 1: partition (plan above); nothing ran: pass "
                 "--yes to proceed");
    EXPECT_NE(no.out.find("action "), std::string::npos) << no.out;
    ASSERT_EQ(kernel.rec_requests.size(), 1U); // the plan only

    const auto busy = run({"recover", "run", "0", "partition=1", "--yes"});
    expect_error(busy, amdx::cli::kExitBusy,
                 "recover run device 0 partition 1: 1 process holds memory it resets; stop it or "
                 "pass --stop (EBUSY: Device or resource busy)");
    EXPECT_TRUE(kernel.rec_stopped.empty());

    const auto ok = run({"-j", "recover", "run", "0", "partition=1", "--yes", "--stop"});
    EXPECT_EQ(ok.code, 0) << ok.err;
    EXPECT_EQ(kernel.rec_requests.back().flags,
              static_cast<std::uint32_t>(AMDX_RECOVERY_F_STOP | AMDX_RECOVERY_F_OTHERS));
    const Json ran = Json::parse(ok.out)["run"];
    EXPECT_EQ(ran["outcome"], "cleared");
    EXPECT_EQ(ran["result"], "ok");
    EXPECT_EQ(ran["pending_after"], "none");
    ASSERT_EQ(ran["steps"].size(), 4U) << ran.dump();
    EXPECT_EQ(ran["steps"][0]["step"], "stopped");
    EXPECT_EQ(ran["steps"][0]["result"], "1 stopped");
    EXPECT_EQ(ran["steps"][1]["step"], "ran");
    EXPECT_EQ(ran["steps"][1]["action"], "partition");
    EXPECT_EQ(ran["steps"][2]["step"], "self_test");
    EXPECT_EQ(ran["steps"][2]["result"], "ok");
    EXPECT_EQ(ran["steps"][3]["step"], "cleared");
    // The plan named exactly the process the run stopped; the bystander runs.
    EXPECT_EQ(kernel.rec_stopped, std::vector<std::uint32_t>{200});
    ASSERT_EQ(kernel.rec_holders.size(), 1U);
    EXPECT_EQ(kernel.rec_holders[0].pid, 100U);
    const auto again = run({"recover", "run", "0", "partition=1", "--yes"});
    EXPECT_EQ(again.code, 1);
    EXPECT_NE(again.err.find("nothing pending"), std::string::npos) << again.err;
}

TEST_F(RecoverCli, AHiveResetNamesTheOtherDevicesAndNeedsYes) {
    kernel.devices[0].hive_id = 9;
    kernel.devices[1].hive_id = 9;
    kernel.recovery_fault(0, AMDX_RAS_PARTITION_ALL, AMDX_VF_NONE, AMDX_RECOVER_DEVICE,
                          AMDX_FAULT_DEVICE_UE);
    const auto no = run({"-j", "recover", "run", "0"});
    expect_error(no, amdx::cli::kExitUsage,
                 "recover run device 0: device; it also resets devices 1 (the hive or switch) "
                 "(plan above); nothing ran: pass --yes to proceed");
    const Json plan = Json::parse(no.out)["plan"];
    EXPECT_EQ(plan["reset_devices"], Json::array({0, 1}));
    EXPECT_EQ(plan["scope"][1]["device"], 1);
    EXPECT_EQ(plan["scope"][1]["reset"], "device");
    kernel.rec_self_test_errno = EIO;
    const auto yes = run({"-j", "recover", "run", "0", "--yes", "--stop"});
    expect_error(yes, amdx::cli::kExitError,
                 "recover run device 0: the self-test failed (EIO: Input/output error); "
                 "escalated to hive, now pending");
    EXPECT_EQ(Json::parse(yes.out)["run"]["outcome"], "escalated");
    EXPECT_EQ(Json::parse(yes.out)["run"]["pending_after"], "hive");
}

TEST_F(RecoverCli, RecoverErrors) {
    expect_error(run({"recover", "run", "0", "--action", "node", "--yes"}),
                 amdx::cli::kExitNotSupported,
                 "recover run device 0: this device (or amdx) cannot node; it is the operator's "
                 "to do (EOPNOTSUPP: Operation not supported)");
    // A reset the device does not declare: the plan is refused as the run.
    kernel.rec_caps[0] = 1U << AMDX_RECOVER_DEVICE;
    expect_error(run({"recover", "plan", "0", "partition=1", "--action", "partition"}),
                 amdx::cli::kExitNotSupported,
                 "recover plan device 0 partition 1: this device does not declare a partition "
                 "reset (EOPNOTSUPP: Operation not supported)");
    EXPECT_EQ(run({"recover", "plan", "0", "--action", "device"}).code, amdx::cli::kExitOk);
    kernel.rec_caps.erase(0);
    expect_error(run({"recover", "plan", "0", "partition=7"}), amdx::cli::kExitError,
                 "recover plan device 0 partition 7: the action does not apply to this target, "
                 "or it does not exist (EINVAL: Invalid argument)");
    EXPECT_EQ(run({"recover", "plan", "0", "partition=1", "vf=0"}).code, amdx::cli::kExitUsage);
    EXPECT_EQ(run({"recover", "plan", "0", "--action", "reboot"}).code, amdx::cli::kExitUsage);
    expect_error(run({"recover", "plan", "0", "queue=1"}), amdx::cli::kExitUsage,
                 "TARGET: invalid target 'queue=1' (expected partition=N or vf=N, N below 64) "
                 "(see 'amdx recover plan --help')");
    EXPECT_EQ(run({"recover", "plan"}).code, amdx::cli::kExitUsage);
}

TEST_F(RecoverCli, ShowCommandsCarryThePendingAction) {
    const auto parts = run({"-j", "partition", "show", "0"});
    EXPECT_EQ(parts.code, 0) << parts.err;
    const Json p = Json::parse(parts.out)["devices"][0]["partitions"];
    EXPECT_EQ(p[0]["recovery"], "none");
    EXPECT_EQ(p[1]["recovery"], "partition");
    const auto dev = run({"-j", "dev", "show", "0"});
    EXPECT_EQ(Json::parse(dev.out)["devices"][0]["recovery"], "none");
    kernel.recovery_fault(0, AMDX_RAS_PARTITION_ALL, AMDX_VF_NONE, AMDX_RECOVER_DEVICE,
                          AMDX_FAULT_FIRMWARE);
    EXPECT_EQ(Json::parse(run({"-j", "dev", "show", "0"}).out)["devices"][0]["recovery"], "device");
    ASSERT_EQ(run({"vf", "enable", "0", "2"}).code, 0);
    kernel.recovery_fault(0, AMDX_RAS_PARTITION_ALL, 1, AMDX_RECOVER_VF, AMDX_FAULT_VF_HANG);
    const Json vfs = Json::parse(run({"-j", "vf", "show", "0"}).out)["devices"][0]["vfs"];
    EXPECT_EQ(vfs[0]["recovery"], "none");
    EXPECT_EQ(vfs[1]["recovery"], "vf");
    // A module without RECOVERY_PLAN: the column is null, show still works.
    kernel.fail_ioctl[AMDX_IOC_RECOVERY_PLAN] = ENOTTY;
    const auto old = run({"-j", "partition", "show", "0"});
    EXPECT_EQ(old.code, 0) << old.err;
    EXPECT_EQ(Json::parse(old.out)["devices"][0]["partitions"][1]["recovery"], nullptr);
}

// ---- partition

const char* const kPartitionShowJson =
    R"({"schema_version":2,"devices":[{"device":0,"bdf":"0000:c1:00.0","compute_mode":"DPX",)"
    R"("memory_mode":"NPS1",)"
    R"("generation":1,"partitions":[)"
    R"({"id":0,"state":"online","xccs":[0,1,2,3],"sdma":[0,1,2,3,4,5,6,7],"vcn":[0,1],)"
    R"("mem_partition":0,"vram_base":0,"vram_size":206158430208,"vf":null,"resets":0,)"
    R"("recovery":"none"},)"
    R"({"id":1,"state":"online","xccs":[4,5,6,7],"sdma":[8,9,10,11,12,13,14,15],"vcn":[2,3],)"
    R"("mem_partition":0,"vram_base":0,"vram_size":206158430208,"vf":null,"resets":0,)"
    R"("recovery":"none"}]}]})"
    "\n";

TEST_F(ControlCli, PartitionShowJsonIsTheContract) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_DPX;
    const auto r = run({"-j", "partition", "show", "0"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, kPartitionShowJson);
}

TEST_F(ControlCli, PartitionShowTextAndDefaultCommand) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_DPX;
    const auto r = run({"partition", "show", "0"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "device 0:\n"
                     "  bdf           0000:c1:00.0\n"
                     "  compute_mode  DPX\n"
                     "  memory_mode   NPS1\n"
                     "  generation    1\n"
                     "  partitions:\n"
                     "    ID STATE  XCCS    SDMA                  VCN MEM_PARTITION VRAM_BASE "
                     "VRAM_SIZE VF  RESETS RECOVERY\n"
                     "     0 online 0,1,2,3 0,1,2,3,4,5,6,7       0,1             0       0x0   "
                     "192 GiB n/a      0 none\n"
                     "     1 online 4,5,6,7 8,9,10,11,12,13,14,15 2,3             0       0x0   "
                     "192 GiB n/a      0 none\n");
    const auto all = run({"-j", "partition"});
    EXPECT_EQ(Json::parse(all.out)["devices"].size(), 2U);
}

TEST_F(ControlCli, PlanShowsTopologyAndResetScopeAndChangesNothing) {
    kernel.devices[1].hive_id = 9;
    kernel.devices[0].hive_id = 9;
    const auto r = run({"-j", "partition", "plan", "0", "--compute", "cpx", "--memory", "NPS4"});
    EXPECT_EQ(r.code, 0) << r.err;
    const Json plan = Json::parse(r.out)["plan"];
    EXPECT_EQ(plan["from"], Json::parse(R"({"compute_mode":"SPX","memory_mode":"NPS1"})"));
    EXPECT_EQ(plan["to"], Json::parse(R"({"compute_mode":"CPX","memory_mode":"NPS4"})"));
    EXPECT_EQ(plan["allowed"], true);
    EXPECT_EQ(plan["result"], "ok");
    EXPECT_EQ(plan["reason"], "none");
    EXPECT_EQ(plan["num_partitions"], 8);
    EXPECT_EQ(plan["partitions"][7]["xccs"], Json::array({7}));
    EXPECT_EQ(plan["partitions"][7]["mem_partition"], 3);
    EXPECT_EQ(plan["holders"], Json::array());
    EXPECT_EQ(plan["reset_devices"], Json::array({0, 1}));
    EXPECT_EQ(kernel.devices[0].compute_mode, static_cast<std::uint32_t>(AMDX_COMPUTE_SPX));
    ASSERT_EQ(kernel.part_requests.size(), 1U);
    EXPECT_EQ(kernel.part_requests[0].memory_mode, static_cast<std::uint32_t>(AMDX_MEMORY_NPS4));
}

amdx_partition_holder holder(std::uint32_t pid, const char* comm) {
    amdx_partition_holder h{};
    h.pid = pid;
    h.mem_partition = 0;
    h.pages = 256;
    std::strncpy(reinterpret_cast<char*>(h.comm), comm, sizeof(h.comm) - 1);
    return h;
}

TEST_F(ControlCli, PlanNotAllowedPrintsThePlanThenTheReason) {
    kernel.part_holders = {holder(4242, "trainer")};
    const auto r = run({"partition", "plan", "0", "--compute", "cpx"});
    EXPECT_NE(r.out.find("  allowed         false\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  holders:\n"
                         "     PID COMM    MEM_PARTITION PAGES\n"
                         "    4242 trainer             0   256\n"),
              std::string::npos)
        << r.out;
    expect_error(r, amdx::cli::kExitBusy,
                 "partition plan device 0: CPX/NPS1 not allowed now: processes hold memory in "
                 "partitions that would change (reason busy)");
}

TEST_F(ControlCli, SetBusyListsHoldersAndNamesEbusy) {
    kernel.part_holders = {holder(100, "trainer"), holder(200, "infer")};
    const auto r = run({"-j", "partition", "set", "0", "--compute", "cpx"});
    const Json commit = Json::parse(r.out)["commit"];
    EXPECT_EQ(commit["result"], "EBUSY");
    EXPECT_EQ(commit["reason"], "busy");
    EXPECT_EQ(commit["outcome"], "none");
    EXPECT_EQ(commit["num_holders"], 2);
    EXPECT_EQ(commit["holders"][1],
              Json::parse(R"({"pid":200,"comm":"infer","mem_partition":0,"pages":256})"));
    expect_error(r, amdx::cli::kExitBusy,
                 "partition set device 0: 2 processes hold memory in partitions that would "
                 "change; stop them or pass --drain (EBUSY: Device or resource busy)");
    EXPECT_EQ(kernel.devices[0].compute_mode, static_cast<std::uint32_t>(AMDX_COMPUTE_SPX));
}

TEST_F(ControlCli, SetWithDrainPrintsStepsWithDurations) {
    kernel.part_holders = {holder(100, "trainer")};
    const auto r =
        run({"partition", "set", "0", "--compute", "dpx", "--drain", "--deadline-ms", "300"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(r.err.empty());
    for (const char* line :
         {"commit:\n  device          0\n", "  outcome         committed\n",
          "  failed_step     none\n", "  total_ns        23.0 us\n",
          "  steps:\n    STEP     RESULT DURATION_NS\n    validate ok          1.0 us\n",
          "    drain    ok          3.0 us\n",
          "    resume   ok          7.0 us\n  num_partitions  2\n"})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << " in\n" << r.out;
    ASSERT_EQ(kernel.part_requests.size(), 1U);
    EXPECT_EQ(kernel.part_requests[0].flags, static_cast<std::uint32_t>(AMDX_PART_F_DRAIN));
    EXPECT_EQ(kernel.part_requests[0].deadline_ms, 300U);
    EXPECT_EQ(kernel.devices[0].compute_mode, static_cast<std::uint32_t>(AMDX_COMPUTE_DPX));
}

TEST_F(ControlCli, SetRollbackNamesTheStepAndErrno) {
    kernel.part_fail_step = AMDX_PART_STEP_COMPUTE;
    kernel.part_fail_errno = EIO;
    const auto r = run({"-j", "partition", "set", "0", "--compute", "qpx"});
    const Json commit = Json::parse(r.out)["commit"];
    EXPECT_EQ(commit["outcome"], "rolled_back");
    EXPECT_EQ(commit["failed_step"], "compute");
    EXPECT_EQ(commit["steps"].back(),
              Json::parse(R"({"step":"compute","result":"EIO","duration_ns":4000})"));
    expect_error(r, amdx::cli::kExitRolledBack,
                 "partition set device 0: step compute failed, rolled back to SPX/NPS1 "
                 "(EIO: Input/output error)");
}

TEST_F(ControlCli, SetDrainTimeout) {
    kernel.part_holders = {holder(100, "trainer")};
    kernel.part_drain_timeout = true;
    const auto r = run({"partition", "set", "0", "--compute", "cpx", "--drain"});
    expect_error(r, amdx::cli::kExitRolledBack,
                 "partition set device 0: the drain missed its deadline, rolled back to SPX/NPS1 "
                 "(ETIMEDOUT: Connection timed out)");
}

TEST_F(ControlCli, SetRefusedNamesTheReason) {
    const auto r = run({"partition", "set", "0", "--compute", "tpx"});
    expect_error(r, 1,
                 "partition set device 0: TPX/NPS1 refused: the model does not support that "
                 "compute mode (EINVAL: Invalid argument)");
    kernel.part_refuse = AMDX_PART_REASON_INCOMPATIBLE;
    expect_error(run({"partition", "set", "0", "--compute", "cpx", "--memory", "nps2"}), 1,
                 "partition set device 0: CPX/NPS2 refused: the compute mode is incompatible "
                 "with the memory mode (EINVAL: Invalid argument)");
}

TEST_F(ControlCli, PartitionErrors) {
    kernel.fail_ioctl[AMDX_IOC_PARTITION_COMMIT] = EPERM;
    const auto perm = run({"partition", "set", "0", "--compute", "cpx"});
    expect_error(perm, amdx::cli::kExitPermission,
                 "partition set device 0: permission denied, changes need CAP_SYS_ADMIN "
                 "(EPERM: Operation not permitted)");
    EXPECT_TRUE(perm.out.empty());
    kernel.fail_query = AMDX_QUERY_PARTITIONS;
    kernel.fail_errno = ENOTTY;
    expect_error(run({"partition", "show", "1"}), amdx::cli::kExitNotSupported,
                 "partitions of device 1: not supported by the kernel's amdx module "
                 "(ENOTTY: Inappropriate ioctl for device)");
    expect_error(run({"partition", "show", "5"}), amdx::cli::kExitNoDevice,
                 "no such device: 5 (see 'amdx dev list')");
}

TEST_F(ControlCli, PartitionUsageErrors) {
    expect_error(run({"partition", "set", "0"}), 2,
                 "partition set needs --compute and/or --memory (see 'amdx partition set "
                 "--help')");
    expect_error(run({"partition", "plan", "0", "--compute", "hpx"}), 2,
                 "--compute: hpx not in {spx,dpx,tpx,qpx,cpx} (see 'amdx partition plan --help')");
    expect_error(run({"partition", "plan", "0", "--memory", "nps3"}), 2,
                 "--memory: nps3 not in {nps1,nps2,nps4,nps8} (see 'amdx partition plan --help')");
    expect_error(
        run({"partition", "set", "all", "--compute", "cpx"}), 2,
        "'all' selects more than one device; this command needs one (an id, a PCI "
        "address, serial:SERIAL, gpu:INDEX or GPU-UUID) (see 'amdx partition set --help')");
    expect_error(run({"partition", "set", "0", "--compute", "cpx", "--deadline-ms", "-1"}), 2,
                 "--deadline-ms: value -1 not in range 0 to 3600000 (see 'amdx partition set "
                 "--help')");
    const auto missing = run({"partition", "set"});
    EXPECT_EQ(missing.code, 2);
    EXPECT_TRUE(kernel.part_requests.empty());
}

// ---- vf

TEST_F(ControlCli, VfEnableAutoPrintsTheVfs) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_CPX;
    const auto r = run({"-j", "vf", "enable", "0", "4"});
    EXPECT_EQ(r.code, 0) << r.err;
    const Json dev = Json::parse(r.out)["devices"][0];
    EXPECT_EQ(dev["max_vfs"], 8);
    ASSERT_EQ(dev["vfs"].size(), 4U);
    EXPECT_EQ(dev["vfs"][1],
              Json::parse(R"({"vf":1,"bdf":null,"state":"online","partitions":[1,5],)"
                          R"("vram_quota":51539607552,"time_slice_us":6000,"priority":"normal",)"
                          R"("evict":false,"vram_used":0,"resets":0,"resets_in_window":0})"));
    const auto text = run({"vf", "show", "0"});
    EXPECT_NE(text.out.find("     3 n/a online 3,7            48 GiB          6000 normal   "
                            "false       0 B      0                0 none\n"),
              std::string::npos)
        << text.out;
}

TEST_F(ControlCli, VfEnableFromConfigFile) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_DPX;
    TempFile f;
    f.write(R"({"vfs":[{"partitions":[0],"vram_mib":1024,"priority":"high","evict":true},)"
            R"({"partitions":[1],"vram_quota":536870912,"time_slice_us":2000}]})");
    const auto r = run({"vf", "enable", "0", "2", "--config", f.path()});
    EXPECT_EQ(r.code, 0) << r.err;
    ASSERT_EQ(kernel.vf_configs.size(), 2U);
    EXPECT_EQ(kernel.vf_configs[0].vram_quota, 1ULL << 30);
    EXPECT_EQ(kernel.vf_configs[0].priority, static_cast<std::uint32_t>(AMDX_VF_PRIO_HIGH));
    EXPECT_EQ(kernel.vf_configs[0].flags, static_cast<std::uint32_t>(AMDX_VF_F_EVICT));
    EXPECT_EQ(kernel.vf_configs[0].time_slice_us, 6000U);
    EXPECT_EQ(kernel.vf_configs[1].partition_mask, 2U);
    EXPECT_EQ(kernel.vf_configs[1].time_slice_us, 2000U);
}

TEST_F(ControlCli, VfConfigFileErrorsAreUsageErrors) {
    TempFile f;
    f.write("{not json");
    expect_error(run({"vf", "enable", "0", "1", "--config", f.path()}), 2,
                 f.path() + ": invalid VF configuration: not JSON");
    f.write(R"([{"partitions":[0],"vram_mib":512,"colour":"red"}])");
    expect_error(run({"vf", "enable", "0", "1", "--config", f.path()}), 2,
                 f.path() + ": invalid VF configuration: VF 0: invalid key or value: "
                            "\"colour\": \"red\"");
    f.write(R"([{"partitions":[0]}])");
    expect_error(run({"vf", "enable", "0", "1", "--config", f.path()}), 2,
                 f.path() + ": invalid VF configuration: VF 0: needs \"partitions\" and "
                            "\"vram_quota\" or \"vram_mib\"");
    f.write(R"([{"partitions":[0],"vram_mib":512}])");
    expect_error(run({"vf", "enable", "0", "2", "--config", f.path()}), 2,
                 f.path() + ": has 1 VF configurations, but N is 2");
    expect_error(run({"vf", "enable", "0", "1", "--config", "/nonexistent/vf.json"}), 1,
                 "/nonexistent/vf.json: cannot open (ENOENT: No such file or directory)");
    EXPECT_TRUE(kernel.vf_enables.empty());
}

TEST_F(ControlCli, VfEnableRefusedNamesVfAndReason) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_DPX;
    TempFile f;
    f.write(R"([{"partitions":[0],"vram_mib":512},{"partitions":[1],"vram_mib":100}])");
    expect_error(run({"vf", "enable", "0", "2", "--config", f.path()}), 1,
                 "vf enable device 0: VF 1: the VF resources are invalid or do not fit "
                 "(reason vf_provision, EINVAL: Invalid argument)");
    expect_error(run({"vf", "enable", "0", "4"}), 1,
                 "vf enable device 0: that VF count is not possible in the compute mode "
                 "(reason vf_compute, EINVAL: Invalid argument)");
}

TEST_F(ControlCli, VfSetResetDisable) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_CPX;
    ASSERT_EQ(run({"vf", "enable", "0", "2"}).code, 0);
    const auto set =
        run({"-j", "vf", "set", "0", "1", "--vram-mib", "512", "--priority", "low", "--evict"});
    EXPECT_EQ(set.code, 0) << set.err;
    ASSERT_EQ(kernel.vf_sets.size(), 1U);
    EXPECT_EQ(kernel.vf_sets[0].vf, 1U);
    EXPECT_EQ(kernel.vf_sets[0].valid,
              static_cast<std::uint32_t>(AMDX_VF_SET_VRAM_QUOTA | AMDX_VF_SET_PRIORITY |
                                         AMDX_VF_SET_FLAGS));
    const Json vfs = Json::parse(set.out)["devices"][0]["vfs"];
    ASSERT_EQ(vfs.size(), 1U);
    EXPECT_EQ(vfs[0]["vram_quota"], 512ULL << 20);
    EXPECT_EQ(vfs[0]["priority"], "low");
    EXPECT_EQ(vfs[0]["evict"], true);
    expect_error(run({"vf", "set", "0", "1"}), 2,
                 "vf set needs --vram-mib, --time-slice-us, --priority, --evict or --no-evict "
                 "(see 'amdx vf set --help')");
    expect_error(run({"vf", "set", "0", "1", "--evict", "--no-evict"}), 2,
                 "--evict excludes --no-evict (see 'amdx vf set --help')");

    const auto reset = run({"vf", "reset", "0", "1"});
    EXPECT_EQ(reset.code, 0) << reset.err;
    EXPECT_EQ(reset.out, "vf_reset:\n"
                         "  device            0\n"
                         "  vf                1\n"
                         "  result            acked\n"
                         "  state             online\n"
                         "  duration_ns       2.0 ms\n"
                         "  resets_in_window  1\n"
                         "  vram_cleared      0 B\n");
    ASSERT_EQ(run({"vf", "reset", "0", "1"}).code, 0);
    ASSERT_EQ(run({"vf", "reset", "0", "1"}).code, 0);
    expect_error(run({"vf", "reset", "0", "1"}), amdx::cli::kExitBusy,
                 "vf reset device 0 VF 1: 3 resets in 60 s already, the VF is quarantined "
                 "until VFs are disabled (reason vf_reset_limit, EBUSY: Device or resource busy)");
    expect_error(run({"vf", "reset", "0", "1"}), amdx::cli::kExitBusy,
                 "vf reset device 0 VF 1: the VF is quarantined until VFs are disabled (reason "
                 "vf_quarantined, EBUSY: Device or resource busy)");
    EXPECT_NE(run({"vf", "show", "0"}).out.find("     1 n/a quarantined"), std::string::npos);

    // -j: one object, the (now empty) VF list.
    const auto off = run({"-j", "vf", "disable", "0"});
    EXPECT_EQ(off.code, 0) << off.err;
    EXPECT_EQ(Json::parse(off.out)["devices"][0]["vfs"], Json::array()) << off.out;
    expect_error(run({"vf", "disable", "0"}), 1,
                 "vf disable device 0: no VF is enabled (EINVAL: Invalid argument)");
}

// ---- ras

TEST_F(ControlCli, RasShowKeepsUnsupportedApartFromZero) {
    const auto r = run({"-j", "ras", "show", "0"});
    EXPECT_EQ(r.code, 0) << r.err;
    const Json dev = Json::parse(r.out)["devices"][0];
    EXPECT_EQ(dev["rma"], false);
    EXPECT_EQ(dev["retired_pages"], 0);
    EXPECT_EQ(dev["reset_scope"], Json::parse(R"({"hive_id":"0","devices":[0]})"));
    ASSERT_EQ(dev["blocks"].size(), 7U);
    EXPECT_EQ(dev["blocks"][1],
              Json::parse(R"({"block":"sdma","instances":16,"supported":["ue"],)"
                          R"("total":{"ce":null,"ue":0,"de":null},)"
                          R"("partitions":[{"partition":0,"ce":null,"ue":0,"de":null}]})"));
    // Text: totals per block by default, per partition with --detail.
    const auto text = run({"ras", "show", "0"});
    EXPECT_NE(text.out.find("  blocks:\n"
                            "    BLOCK     INSTANCES SUPPORTED  CE UE  DE\n"
                            "    umc               8 ce,ue,de    0  0   0\n"
                            "    sdma             16 ue        n/a  0 n/a\n"),
              std::string::npos)
        << text.out;
    EXPECT_EQ(text.out.find("PARTITION"), std::string::npos) << text.out;
    const auto detail = run({"ras", "show", "0", "--detail"});
    EXPECT_NE(detail.out.find("  by_partition:\n"
                              "    BLOCK     PARTITION  CE UE  DE\n"
                              "    umc               0   0  0   0\n"),
              std::string::npos)
        << detail.out;
    EXPECT_EQ(run({"-j", "ras", "show", "0", "--detail"}).out, r.out); // JSON has both
}

TEST_F(ControlCli, RasInject) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_DPX;
    const auto r = run({"-j", "ras", "inject", "0", "--block", "gfx", "--type", "ue", "--instance",
                        "5", "--count", "2"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(
        r.out,
        R"({"schema_version":2,"inject":{"device":0,"block":"gfx","type":"ue","instance":5,"count":2,)"
        R"("address":0,"seq":1}})"
        "\n");
    ASSERT_EQ(kernel.ras_injects.size(), 1U);
    EXPECT_EQ(kernel.ras_injects[0].instance, 5U);
    const Json st = Json::parse(run({"-j", "ras", "show", "0"}).out)["devices"][0];
    EXPECT_EQ(st["blocks"][2]["total"]["ue"], 2);
    EXPECT_EQ(st["blocks"][2]["partitions"][1]["ue"], 2);

    const auto umc =
        run({"ras", "inject", "0", "--block", "UMC", "--type", "ce", "--address", "0x10000"});
    EXPECT_EQ(umc.code, 0) << umc.err;
    EXPECT_EQ(kernel.ras_injects.back().address, 0x10000U);
    expect_error(run({"ras", "inject", "0", "--block", "l2", "--type", "ce"}), 2,
                 "--block: l2 not in {umc,sdma,gfx,mmhub,pcie_bif,hdp,xgmi_wafl} (see 'amdx ras "
                 "inject --help')");
    expect_error(run({"ras", "inject", "0", "--block", "umc", "--type", "fatal"}), 2,
                 "--type: fatal not in {ce,ue,de} (see 'amdx ras inject --help')");
    expect_error(
        run({"ras", "inject", "0", "--block", "umc", "--type", "ce", "--address", "0xzz"}), 2,
        "--address: not a number (decimal or 0x hex): 0xzz (see 'amdx ras inject --help')");
    expect_error(run({"ras", "inject", "0", "--block", "umc", "--type", "ce", "--count", "1025"}),
                 2, "--count: value 1025 not in range 1 to 1024 (see 'amdx ras inject --help')");
    expect_error(run({"ras", "inject", "0", "--block", "umc", "--type", "ce", "--count", "0"}), 2,
                 "--count: value 0 not in range 1 to 1024 (see 'amdx ras inject --help')");
    kernel.fail_ioctl[AMDX_IOC_RAS_INJECT] = EPERM;
    expect_error(run({"ras", "inject", "1", "--block", "umc", "--type", "ce"}),
                 amdx::cli::kExitPermission,
                 "ras inject device 1: permission denied, changes need CAP_SYS_ADMIN "
                 "(EPERM: Operation not permitted)");
}

// Each refusal is the kernel's one reason (uapi minor 8), with the values
// that make it concrete, its errno and its exit status; never a list of
// every possible cause.
TEST_F(ControlCli, RasInjectRefusalNamesTheKernelsReason) {
    expect_error(run({"ras", "inject", "0", "--block", "sdma", "--type", "ce"}),
                 amdx::cli::kExitNotSupported,
                 "ras inject device 0: sdma has no ce errors on this device (it reports ue) "
                 "(reason no_type, EOPNOTSUPP: Operation not supported)");
    expect_error(run({"ras", "inject", "0", "--block", "gfx", "--type", "ce", "--instance", "9"}),
                 amdx::cli::kExitError,
                 "ras inject device 0: gfx has 8 instances on this device (0 .. 7), not 9 "
                 "(reason instance, EINVAL: Invalid argument)");
    expect_error(
        run({"ras", "inject", "0", "--block", "gfx", "--type", "ce", "--address", "0x1000"}),
        amdx::cli::kExitError,
        "ras inject device 0: only umc takes --address, not gfx (reason address_block, EINVAL: "
        "Invalid argument)");
    const auto vram = kernel.devices[0].vram_size;
    std::array<char, 20> hex{};
    std::snprintf(hex.data(), hex.size(), "%llx", static_cast<unsigned long long>(vram));
    expect_error(run({"ras", "inject", "0", "--block", "umc", "--type", "ce", "--address",
                      std::to_string(vram)}),
                 amdx::cli::kExitError,
                 "ras inject device 0: address 0x" + std::string(hex.data()) +
                     " is beyond the VRAM (" + amdx::cli::size_text(vram) +
                     ") (reason address_range, EINVAL: Invalid argument)");
    ASSERT_EQ(
        run({"ras", "inject", "0", "--block", "umc", "--type", "ue", "--address", "0x3000"}).code,
        0);
    expect_error(
        run({"ras", "inject", "0", "--block", "umc", "--type", "ce", "--address", "0x3008"}),
        amdx::cli::kExitError,
        "ras inject device 0: the page of address 0x3008 is retired (see 'amdx ras badpages') "
        "(reason retired, EINVAL: Invalid argument)");
    // An older module gives no reason: the errno's own words.
    kernel.fail_ioctl[AMDX_IOC_RAS_INJECT] = EINVAL;
    expect_error(run({"ras", "inject", "0", "--block", "gfx", "--type", "ce"}),
                 amdx::cli::kExitError,
                 "ras inject device 0: rejected by the kernel as invalid (EINVAL: Invalid "
                 "argument)");
}

TEST_F(ControlCli, VfResetRefusalNamesTheKernelsReason) {
    kernel.devices[1].compute_mode = AMDX_COMPUTE_CPX;
    expect_error(run({"vf", "reset", "1", "5"}), amdx::cli::kExitError,
                 "vf reset device 1 VF 5: not enabled (the device has no VF enabled) (reason "
                 "no_vf, EINVAL: Invalid argument)");
    ASSERT_EQ(run({"vf", "enable", "1", "2"}).code, 0);
    expect_error(run({"vf", "reset", "1", "5"}), amdx::cli::kExitError,
                 "vf reset device 1 VF 5: not enabled (the device has 2 VFs: 0 .. 1) (reason "
                 "no_vf, EINVAL: Invalid argument)");
    kernel.devices[1].max_vfs = 0;
    expect_error(run({"vf", "reset", "1", "0"}), amdx::cli::kExitNotSupported,
                 "vf reset device 1 VF 0: the model has no SR-IOV virtual functions (reason "
                 "vf_unsupported, EOPNOTSUPP: Operation not supported)");
}

TEST_F(ControlCli, RasPolicyShowAndSet) {
    const auto show = run({"ras", "policy", "show", "0"});
    EXPECT_EQ(show.code, 0) << show.err;
    EXPECT_EQ(show.out, "DEVICE BDF          CE_PAGE_THRESHOLD CE_WINDOW_S BAD_PAGE_THRESHOLD "
                        "BAD_PAGE_MODE PART_RESET_LIMIT PART_RESET_WINDOW_S RMA_REFUSE\n"
                        "     0 0000:c1:00.0                50       86400                 -1 "
                        "warn                         3                3600 false\n");
    const auto set = run({"-j", "ras", "policy", "set", "0", "--ce-page-threshold", "10",
                          "--bad-page-threshold", "auto", "--rma-refuse"});
    EXPECT_EQ(set.code, 0) << set.err;
    EXPECT_EQ(set.out, R"({"schema_version":2,"devices":[{"device":0,"bdf":"0000:c1:00.0",)"
                       R"("ce_page_threshold":10,)"
                       R"("ce_window_s":86400,"bad_page_threshold":-2,"bad_page_mode":"auto",)"
                       R"("part_reset_limit":3,"part_reset_window_s":3600,"rma_refuse":true}]})"
                       "\n");
    ASSERT_EQ(kernel.ras_policies.size(), 1U);
    EXPECT_EQ(kernel.ras_policies[0].valid,
              static_cast<std::uint32_t>(AMDX_RAS_POL_CE_PAGE_THRESHOLD |
                                         AMDX_RAS_POL_BAD_PAGE_THRESHOLD | AMDX_RAS_POL_FLAGS));
    const auto n = run({"-j", "ras", "policy", "set", "0", "--bad-page-threshold", "128"});
    EXPECT_EQ(Json::parse(n.out)["devices"][0]["bad_page_mode"], "pages");
    expect_error(run({"ras", "policy", "set", "0"}), 2,
                 "ras policy set needs at least one knob (see 'amdx ras policy set --help')");
    expect_error(run({"ras", "policy", "set", "0", "--bad-page-threshold", "lots"}), 2,
                 "--bad-page-threshold: expected a page count, warn or auto: lots (see 'amdx ras "
                 "policy set --help')");
    // Ranges are the uapi's, checked before anything is opened.
    expect_error(run({"ras", "policy", "set", "0", "--ce-window-s", "0"}), 2,
                 "--ce-window-s: value 0 not in range 1 to 2592000 (see 'amdx ras policy set "
                 "--help')");
}

TEST_F(ControlCli, BadPagesListExportImport) {
    ASSERT_EQ(
        run({"ras", "inject", "0", "--block", "umc", "--type", "ue", "--address", "0x3000"}).code,
        0);
    const auto list = run({"-j", "ras", "badpages"});
    EXPECT_EQ(list.code, 0) << list.err;
    EXPECT_EQ(list.out, R"({"schema_version":2,"devices":[{"device":0,"bdf":"0000:c1:00.0",)"
                        R"("pages":[{"address":12288,)"
                        R"("partition":0,"cause":"ue","time":1700000000,"flags":0}]},)"
                        R"({"device":1,"bdf":"0000:c2:00.0","pages":[]}]})"
                        "\n");
    TempFile f;
    const auto exp = run({"ras", "badpages", "0", "--export", f.path()});
    EXPECT_EQ(exp.code, 0) << exp.err;
    EXPECT_EQ(exp.out,
              "export:\n  device  0\n  file    " + f.path() + "\n  pages   1\n  bytes   44 B\n");
    const std::string table = f.read();
    ASSERT_EQ(table.size(), 44U);
    EXPECT_EQ(table.substr(0, 4), "ABPX");

    const auto imp = run({"-j", "ras", "badpages", "1", "--import", f.path()});
    EXPECT_EQ(imp.code, 0) << imp.err;
    EXPECT_EQ(Json::parse(imp.out)["import"]["imported"], 1);
    ASSERT_EQ(kernel.badpage_imports.size(), 1U);
    EXPECT_EQ(kernel.badpage_imports[0].size(), table.size());
    EXPECT_EQ(std::memcmp(kernel.badpage_imports[0].data(), table.data(), table.size()), 0);

    std::string bad = table;
    bad[40] = static_cast<char>(bad[40] ^ 1);
    f.write(bad);
    const auto corrupt = run({"ras", "badpages", "1", "--import", f.path()});
    EXPECT_EQ(corrupt.code, 1);
    EXPECT_EQ(
        corrupt.err.rfind("amdx: " + f.path() + ": not a valid bad-page table: checksum 0x", 0), 0U)
        << corrupt.err;
    EXPECT_NE(corrupt.err.find("(EBADMSG: Bad message)\n"), std::string::npos) << corrupt.err;
    f.write(table.substr(0, 30));
    expect_error(run({"ras", "badpages", "1", "--import", f.path()}), 1,
                 f.path() + ": not a valid bad-page table: truncated: 30 bytes, but 1 records "
                            "need 44 (EBADMSG: Bad message)");
    EXPECT_EQ(kernel.badpage_imports.size(), 1U); // nothing more reached the kernel
    expect_error(run({"ras", "badpages", "all", "--export", f.path()}), 2,
                 "--export needs one device: ras badpages DEV --export FILE");
}

// ---- monitor and events

amdx_event event(std::uint16_t kind, std::uint64_t seq) {
    amdx_event ev{};
    ev.kind = kind;
    ev.seq = seq;
    ev.timestamp_ns = 1000 + seq;
    ev.partition = AMDX_RAS_PARTITION_ALL;
    return ev;
}

TEST(EventJson, EveryKindByName) {
    auto ev = [](std::uint16_t kind) {
        amdx_event raw = event(kind, 7);
        raw.device = 2;
        return amdx::Event::from_uapi(raw);
    };
    auto dump = [](const amdx::Event& e) { return amdx::cli::event_to_json(e).dump(); };
    const std::string base = R"({"device":2,"seq":7,"timestamp_ns":1007,"kind":)";

    auto e = ev(AMDX_EVENT_ERROR);
    e.block = AMDX_RAS_BLOCK_UMC;
    e.type = AMDX_RAS_TYPE_DE;
    e.partition = 1;
    e.address = 4096;
    e.data[0] = 3;
    EXPECT_EQ(dump(e), base + R"("error","block":"umc","type":"de","instance":0,)"
                              R"("partition":1,"address":4096,"count":3})");
    e = ev(AMDX_EVENT_LOST);
    e.data[0] = 17;
    EXPECT_EQ(dump(e), base + R"("lost","missed":17})");
    e = ev(AMDX_EVENT_PAGE_RETIRED);
    e.address = 8192;
    e.data[0] = AMDX_BADPAGE_CAUSE_CE;
    e.data[1] = 4;
    EXPECT_EQ(dump(e), base + R"("page_retired","address":8192,"cause":"ce","moved_pages":4})");
    e = ev(AMDX_EVENT_ACTION_END);
    e.partition = 0;
    e.data[0] = AMDX_ACTION_PARTITION_RESET;
    e.data[1] = static_cast<std::uint64_t>(-EIO);
    e.address = 5000;
    EXPECT_EQ(dump(e), base + R"("action_end","partition":0,"action":"partition_reset",)"
                              R"("result":"EIO","duration_ns":5000})");
    e = ev(AMDX_EVENT_VF_RESET);
    e.instance = 3;
    e.data[0] = AMDX_VF_RESET_ACK_TIMEOUT;
    e.data[1] = AMDX_PART_STATE_QUARANTINED;
    e.address = 1U << 20;
    EXPECT_EQ(dump(e), base + R"("vf_reset","vf":3,"cause":"flr","result":"ack_timeout",)"
                              R"("state":"quarantined","vram_cleared":1048576})");
    e = ev(AMDX_EVENT_VF_RESET);
    e.instance = 1;
    e.type = AMDX_VF_RESET_CAUSE_RAS;
    e.partition = 5;
    e.data[0] = AMDX_VF_RESET_UNANNOUNCED;
    e.data[1] = AMDX_PART_STATE_ONLINE;
    EXPECT_EQ(dump(e), base + R"("vf_reset","vf":1,"cause":"ras","partition":5,)"
                              R"("result":"unannounced","state":"online"})");
    e = ev(AMDX_EVENT_DEVICE_RESET_BEGIN);
    e.data[0] = 0b1010;
    EXPECT_EQ(dump(e), base + R"("device_reset_begin","devices":[1,3]})");
    e = ev(AMDX_EVENT_PARTITION_SWITCH);
    e.type = AMDX_PART_STEP_DRAIN;
    e.address = 900;
    EXPECT_EQ(dump(e), base + R"("partition_switch","step":"drain","result":"ok",)"
                              R"("duration_ns":900})");
    e = ev(AMDX_EVENT_MIGRATE);
    e.type = 1;
    e.data[0] = 55;
    e.data[1] = 512;
    EXPECT_EQ(dump(e), base + R"("migrate","direction":"to_system","pid":55,"pages":512})");
    e = ev(AMDX_EVENT_PARTITION_QUARANTINED);
    e.partition = 2;
    EXPECT_EQ(dump(e), base + R"("partition_quarantined","partition":2})");
    e = ev(42); // a newer kernel's kind
    e.data[1] = 9;
    EXPECT_EQ(dump(e), base + R"("unknown","kind_id":42,"block":0,"type":0,"instance":0,)"
                              R"("partition":4294967295,"address":0,"data":[0,9]})");
}

TEST(EventJson, ParseKinds) {
    std::string bad;
    EXPECT_EQ(amdx::cli::parse_event_kinds("error,LOST", bad),
              (1ULL << AMDX_EVENT_ERROR) | (1ULL << AMDX_EVENT_LOST));
    EXPECT_EQ(amdx::cli::parse_event_kinds("all", bad), AMDX_EVENT_MASK_ALL);
    EXPECT_FALSE(amdx::cli::parse_event_kinds("error,bogus", bad));
    EXPECT_EQ(bad, "bogus");
    EXPECT_FALSE(amdx::cli::parse_event_kinds("", bad));
}

TEST_F(ControlCli, MonitorPrintsOneLinePerEventWithLost) {
    amdx_event err = event(AMDX_EVENT_ERROR, 1);
    err.block = AMDX_RAS_BLOCK_GFX;
    err.type = AMDX_RAS_TYPE_UE;
    err.instance = 2;
    err.partition = 0;
    err.data[0] = 1;
    amdx_event lost = event(AMDX_EVENT_LOST, 2);
    lost.data[0] = 40;
    kernel.backlog[0] = {err, lost, event(AMDX_EVENT_RMA, 42)};
    const auto r = run({"monitor", "0", "--count", "3"});
    EXPECT_EQ(r.code, 0) << r.err;
    // The CLOCK_MONOTONIC stamp, and the wall-clock time it was.
    EXPECT_EQ(without_wall_times(r.out),
              "device 0 seq 1 time T mono 0.000001 kind error block gfx type ue instance 2 "
              "partition 0 address 0x0 count 1\n"
              "device 0 seq 2 time T mono 0.000001 kind lost missed 40\n"
              "device 0 seq 42 time T mono 0.000001 kind rma retired_pages 0\n");
    ASSERT_EQ(kernel.subscribers.size(), 1U);
    EXPECT_EQ(kernel.subscribers[0].mask, AMDX_EVENT_MASK_ALL);
}

// An ERROR record of a kernel with uapi minor 3 names the process that
// consumed the error (struct amdx_event_v1), with minor 9 the driver's
// RAS event id (struct amdx_event_v2), with minor 10 its type (struct
// amdx_event_v3): text and JSON carry pid, pasid, driver_event and
// driver_event_type.
TEST_F(ControlCli, MonitorNamesTheErrorsConsumer) {
    amdx_event err = event(AMDX_EVENT_ERROR, 1);
    err.block = AMDX_RAS_BLOCK_SDMA;
    err.type = AMDX_RAS_TYPE_UE;
    err.partition = 0;
    err.data[0] = 1;
    kernel.backlog[0] = {err};
    kernel.ras_consumer_pid = 4242;
    kernel.ras_consumer_pasid = 0x8001;
    kernel.ras_driver_events = 12; // uapi minor 9: amdgpu's "{12}"
    kernel.ras_driver_event_type = AMDX_DRIVER_EVENT_POISON_CONSUMPTION;
    auto r = run({"monitor", "0", "--count", "1", "--timeout-ms", "5000"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(without_wall_times(r.out),
              "device 0 seq 1 time T mono 0.000001 kind error block sdma type ue instance 0 "
              "partition 0 address 0x0 count 1 pid 4242 pasid 32769 driver_event 12 "
              "driver_event_type poison_consumption\n");
    r = run({"-j", "monitor", "0", "--count", "1", "--timeout-ms", "5000"});
    EXPECT_EQ(r.code, 0) << r.err;
    const auto j = Json::parse(r.out);
    EXPECT_EQ(j.at("pid"), 4242);
    EXPECT_EQ(j.at("pasid"), 0x8001);
    EXPECT_EQ(j.at("driver_event"), 12);
    EXPECT_EQ(j.at("driver_event_type"), "poison_consumption");
}

// A text line is "key value" pairs: values carry no blanks (no quoted
// "4.1 us") and no sentinel (the kernel's "no partition" was printed as
// "partition 4294967295").
TEST_F(ControlCli, MonitorTextHasNoQuotesOrSentinels) {
    amdx_event end = event(AMDX_EVENT_ACTION_END, 1);
    end.data[0] = AMDX_ACTION_DEVICE_RESET;
    end.address = 4100; // duration_ns
    amdx_event restored = event(AMDX_EVENT_PARTITION_RESTORED, 2);
    amdx_event drained = event(AMDX_EVENT_DRAINED, 3);
    drained.data[1] = 7;
    kernel.backlog[0] = {end, restored, drained};
    const auto r = run({"monitor", "0", "--count", "3", "--timeout-ms", "5000"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(without_wall_times(r.out),
              "device 0 seq 1 time T mono 0.000001 kind action_end action device_reset "
              "result ok duration_ns 4.1us\n"
              "device 0 seq 2 time T mono 0.000001 kind partition_restored\n"
              "device 0 seq 3 time T mono 0.000001 kind drained pid 0 pages 7\n");
    // A newer kernel's kind (the fake delivers only known ones): its raw
    // fields, the partition left out when it is none.
    std::ostringstream newer;
    amdx::cli::render(
        newer,
        Json{{"events",
              Json::array({amdx::cli::event_to_json(amdx::Event::from_uapi(event(42, 4)))})}},
        amdx::cli::Format::text);
    EXPECT_EQ(without_wall_times(newer.str()),
              "device 0 seq 4 time T mono 0.000001 kind unknown kind_id 42 block 0 type 0 "
              "instance 0 address 0x0 data 0,0\n");
    // JSON omits the partition of known kinds the same way.
    kernel.backlog[0] = {end, restored, drained};
    const auto j = run({"-j", "monitor", "0", "--count", "3", "--timeout-ms", "5000"});
    EXPECT_EQ(j.code, 0) << j.err;
    EXPECT_EQ(j.out.find("\"partition\""), std::string::npos) << j.out;
}

TEST_F(ControlCli, MonitorJsonLinesKindsAndCount) {
    kernel.backlog[0] = {event(AMDX_EVENT_PARTITION_OFFLINE, 1), event(AMDX_EVENT_RMA, 2),
                         event(AMDX_EVENT_RMA, 3), event(AMDX_EVENT_RMA, 4)};
    const auto r =
        run({"-j", "monitor", "--kinds", "rma", "--count", "2", "--ring-size", "64", "0"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, R"({"schema_version":2,"device":0,"seq":2,"timestamp_ns":1002,"kind":"rma",)"
                     R"("retired_pages":0})"
                     "\n"
                     R"({"schema_version":2,"device":0,"seq":3,"timestamp_ns":1003,"kind":"rma",)"
                     R"("retired_pages":0})"
                     "\n");
    ASSERT_EQ(kernel.subscribers.size(), 1U);
    EXPECT_EQ(kernel.subscribers[0].mask, 1ULL << AMDX_EVENT_RMA);
    EXPECT_EQ(kernel.subscribers[0].ring_size, 64U);
}

TEST_F(ControlCli, MonitorFollowsEveryDevice) {
    kernel.backlog[0] = {event(AMDX_EVENT_RMA, 1)};
    kernel.backlog[1] = {event(AMDX_EVENT_RMA, 5)};
    const auto r = run({"-j", "monitor", "--count", "2"});
    EXPECT_EQ(r.code, 0) << r.err;
    std::istringstream lines(r.out);
    std::vector<std::uint32_t> devices;
    for (std::string line; std::getline(lines, line);)
        devices.push_back(Json::parse(line)["device"].get<std::uint32_t>());
    std::sort(devices.begin(), devices.end());
    EXPECT_EQ(devices, (std::vector<std::uint32_t>{0, 1}));
    EXPECT_EQ(kernel.subscribers.size(), 2U);
}

TEST_F(ControlCli, MonitorPicksUpNewDevices) {
    // Device 1 appears at the monitor's second look at the list (a second
    // after it started); its event is printed like the others.
    kernel.devices = {FakeKernel::make_device(0)};
    kernel.appear_on_fetch = 2;
    kernel.backlog[0] = {event(AMDX_EVENT_RMA, 1)};
    kernel.backlog[1] = {event(AMDX_EVENT_RMA, 5)};
    const auto r = run({"-j", "monitor", "--count", "2"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, R"({"schema_version":2,"device":0,"seq":1,"timestamp_ns":1001,"kind":"rma",)"
                     R"("retired_pages":0})"
                     "\n"
                     R"({"schema_version":2,"device":1,"seq":5,"timestamp_ns":1005,"kind":"rma",)"
                     R"("retired_pages":0})"
                     "\n");
    EXPECT_NE(r.err.find("monitor: following device 1 ("), std::string::npos) << r.err;
    EXPECT_EQ(kernel.subscribers.size(), 2U);

    // Named devices only: nobody new is followed, the timeout ends it.
    kernel.appear_on_fetch = 2;
    const auto named = run({"-j", "monitor", "0", "--timeout-ms", "1200"});
    EXPECT_EQ(named.code, 0) << named.err;
    EXPECT_EQ(named.err.find("following"), std::string::npos) << named.err;
}

TEST_F(ControlCli, MonitorTimeoutAndGoneDevice) {
    const auto quiet = run({"monitor", "0", "--timeout-ms", "20"});
    EXPECT_EQ(quiet.code, 0) << quiet.err;
    EXPECT_TRUE(quiet.out.empty());
    EXPECT_TRUE(quiet.err.empty());

    kernel.backlog[1] = {event(AMDX_EVENT_DEVICE_RESET_BEGIN, 1)};
    kernel.hang_up_after_backlog = true;
    const auto gone = run({"monitor", "1"});
    EXPECT_EQ(without_wall_times(gone.out),
              "device 1 seq 1 time T mono 0.000001 kind device_reset_begin devices none\n");
    expect_error(gone, 1, "monitor: device 1 went away (ENODEV: No such device)");
}

TEST_F(ControlCli, MonitorErrors) {
    expect_error(run({"monitor", "--kinds", "error,oops"}), 2,
                 "--kinds: invalid event kind 'oops' (expected {all,lost,error,page_pending,"
                 "page_retired,poison_consumed,action_start,action_end,partition_quarantined,"
                 "partition_restored,partition_offline,vf_reset,device_reset_begin,"
                 "device_reset_end,rma,partition_switch,migrate,drained,recovery,link}) "
                 "(see 'amdx monitor --help')");
    expect_error(run({"monitor", "gpu0"}), 2,
                 "invalid device 'gpu0' (expected an id, a PCI address, serial:SERIAL, "
                 "gpu:INDEX, GPU-UUID, 'all' or a comma-separated list of them) (see 'amdx "
                 "monitor --help')");
    // A bad ring size is a usage error now, before anything is opened.
    expect_error(run({"monitor", "0", "--ring-size", "100"}), 2,
                 "--ring-size: expected 0 or a power of two in 16..65536: 100 (see 'amdx "
                 "monitor --help')");
    expect_error(run({"monitor", "7"}), amdx::cli::kExitNoDevice,
                 "no such device: 7 (see 'amdx dev list')");
}

} // namespace

namespace {

// ---- what issue 15 asked of the CLI

Outcome run_with_input(const std::vector<std::string>& args, const std::string& input,
                       bool interactive) {
    std::vector<const char*> argv{"amdx", "-d", "/dev/null"};
    for (const auto& a : args)
        argv.push_back(a.c_str());
    std::istringstream in(input);
    std::ostringstream out;
    std::ostringstream err;
    Outcome r;
    r.code = amdx::cli::run(static_cast<int>(argv.size()), argv.data(), in, interactive, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

TEST_F(ControlCli, UsageErrorsComeBeforeTheModule) {
    TempFile not_json;
    not_json.write("not json");
    // Every kind of usage error, in every command that takes one: exit 2
    // with and without a module, one line, nothing reaches the kernel.
    const std::vector<std::vector<std::string>> cases{
        {"partition", "show", "gpu0"},
        {"partiton", "show"},
        {"dev", "show", "0", "1"},
        {"--color", "sometimes", "dev", "list"},
        {"monitor", "gpu0"},
        {"monitor", "0", "0,gpu0"},
        {"monitor", "--kinds", "error,oops"},
        {"monitor", "--count", "-1"},
        {"health", "gpu0"},
        {"partition", "export", "gpu0"},
        {"partition", "set", "0"},
        {"partition", "plan", "0", "--compute", "xpx"},
        {"partition", "set", "all", "--compute", "cpx"},
        {"vf", "set", "0", "0"},
        {"vf", "set", "0", "0", "--vram-mib", "100"},
        {"vf", "enable", "0", "2", "--config", not_json.path()},
        {"vf", "reset", "0,1", "0"},
        {"ras", "policy", "set", "0"},
        {"ras", "badpages", "all", "--export", "/tmp/unused.abpx"},
        {"ras", "inject", "0", "--block", "l2", "--type", "ue"},
        {"hmm", "demo", "size=100"},
    };
    for (const char* node : {"/dev/null", "/nonexistent/amdx"}) {
        for (const auto& args : cases) {
            std::vector<const char*> argv{"amdx", "-d", node};
            for (const auto& a : args)
                argv.push_back(a.c_str());
            std::ostringstream out;
            std::ostringstream err;
            const int code = amdx::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
            const std::string e = err.str();
            EXPECT_EQ(code, amdx::cli::kExitUsage)
                << node << ' ' << args[0] << ' ' << args[1] << ": " << e;
            EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 1) << e;
            EXPECT_EQ(e.rfind("amdx: ", 0), 0U) << e;
            // health's usage errors also reach Node Problem Detector, which
            // reads standard output (health.rst); nothing else prints there.
            if (args[0] == "health")
                EXPECT_EQ(out.str(), "amdx health: unknown: " + e.substr(6)) << out.str();
            else
                EXPECT_TRUE(out.str().empty()) << out.str();
        }
    }
    EXPECT_TRUE(kernel.calls.empty());
    std::vector<const char*> argv{"amdx", "-d", "/nonexistent/amdx", "partition", "show", "0"};
    std::ostringstream out;
    Outcome mod;
    std::ostringstream err;
    mod.code = amdx::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
    mod.err = err.str();
    expect_error(mod, amdx::cli::kExitNoModule,
                 "/nonexistent/amdx: module not loaded, load it with modprobe amdx (ENOENT: No "
                 "such file or directory)");
}

// An option with two checks gave CLI11's compound text, "(Value 100 not in
// range ...) AND (not a multiple of 16 MiB: 100)": one cause, the one line.
TEST_F(ControlCli, UsageErrorsNameOneCause) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"vf", "set", "0", "0", "--vram-mib", "100"},
         "amdx: --vram-mib: value 100 not in range 256 to 17592186044416 (see 'amdx vf set "
         "--help')"},
        {{"vf", "set", "0", "0", "--vram-mib", "300"},
         "amdx: --vram-mib: not a multiple of 16 MiB: 300 (see 'amdx vf set --help')"},
        {{"vf", "set", "0", "0", "--vram-mib", "lots"},
         "amdx: --vram-mib: not a number of MiB: lots (see 'amdx vf set --help')"},
    };
    for (const auto& [args, line] : cases) {
        std::vector<const char*> argv{"amdx", "-d", "/dev/null"};
        for (const auto& a : args)
            argv.push_back(a.c_str());
        std::ostringstream out;
        std::ostringstream err;
        const int code = amdx::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
        EXPECT_EQ(code, amdx::cli::kExitUsage) << args.back();
        EXPECT_EQ(err.str(), line + "\n");
    }
}

TEST_F(ControlCli, MisspeltObjectOrCommandGetsASuggestion) {
    expect_error(run({"partiton", "show"}), 2,
                 "unknown object 'partiton' for 'amdx': did you mean 'amdx partition'?");
    expect_error(run({"ras", "shwo", "0"}), 2,
                 "unknown command 'shwo' for 'amdx ras': did you mean 'amdx ras show'?");
    expect_error(run({"gizmo"}), 2, "unknown object 'gizmo' for 'amdx' (see 'amdx --help')");
    expect_error(run({"dev", "show", "0", "1"}), 2,
                 "unexpected argument '1' (see 'amdx dev show --help')");
    EXPECT_TRUE(kernel.calls.empty());
}

TEST_F(ControlCli, HelpListsTheChoices) {
    const auto r = run({"partition", "set", "--help"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("{spx,dpx,tpx,qpx,cpx}"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("{nps1,nps2,nps4,nps8}"), std::string::npos) << r.out;
    const auto inj = run({"ras", "inject", "--help"});
    EXPECT_NE(inj.out.find("{umc,sdma,gfx,mmhub,pcie_bif,hdp,xgmi_wafl}"), std::string::npos)
        << inj.out;
    EXPECT_NE(inj.out.find("[1 - 1024]"), std::string::npos) << inj.out;
    // --kinds lists every kind the library knows, and is checked at parse time.
    const auto mon = run({"monitor", "--help"});
    EXPECT_NE(mon.out.find("{all,lost,error,page_pending,page_retired,"), std::string::npos)
        << mon.out;
    EXPECT_NE(mon.out.find(",migrate,drained,recovery,link}"), std::string::npos) << mon.out;
}

// Nonzero error counters stand out (red) where a person reads them, zeros
// and n/a do not; --color never (and a pipe, by default) prints no escapes.
TEST_F(ControlCli, NonzeroCountersStandOut) {
    ASSERT_EQ(run({"ras", "inject", "0", "--block", "umc", "--type", "ce", "--count", "3"}).code,
              0);
    const auto red = run({"--color", "always", "ras", "show", "0"});
    EXPECT_EQ(red.code, 0) << red.err;
    const std::regex umc_row(R"(\n    umc +8 ce,ue,de +\x1b\[[0-9;]*m *3 *\x1b\[0m +0 +0\n)");
    EXPECT_TRUE(std::regex_search(red.out, umc_row)) << red.out;
    // The RMA flag and retired pages are block members: false and 0 are plain.
    EXPECT_NE(red.out.find("  rma            false\n"), std::string::npos) << red.out;
    EXPECT_NE(red.out.find("  retired_pages  0\n"), std::string::npos) << red.out;
    // Only the one nonzero counter is coloured.
    std::size_t escapes = 0;
    for (auto pos = red.out.find("\x1b["); pos != std::string::npos;
         pos = red.out.find("\x1b[", pos + 1))
        ++escapes;
    EXPECT_EQ(escapes, 2U) << red.out; // on and off
    for (const char* when : {"never", "auto"}) {
        const auto plain = run({"--color", when, "ras", "show", "0"});
        EXPECT_EQ(plain.out.find('\x1b'), std::string::npos) << when << ":\n" << plain.out;
        EXPECT_NE(plain.out.find("\n    umc               8 ce,ue,de    3  0   0\n"),
                  std::string::npos)
            << plain.out;
    }
}

TEST_F(ControlCli, SelectorsTakeListsAndSerials) {
    kernel.add_device(2);
    auto ids = [](const Outcome& r) {
        std::vector<int> out;
        const Json doc = Json::parse(r.out);
        for (const auto& d : doc["devices"])
            out.push_back(d["device"].get<int>());
        return out;
    };
    EXPECT_EQ(ids(run({"-j", "dev", "show", "2,0"})), (std::vector<int>{0, 2}));
    EXPECT_EQ(ids(run({"-j", "partition", "show", "serial:SN1001"})), (std::vector<int>{1}));
    EXPECT_EQ(ids(run({"-j", "ras", "show", "c3:00.0,serial:SN1000"})), (std::vector<int>{0, 2}));
    EXPECT_EQ(ids(run({"-j", "vf", "show", "0,all"})), (std::vector<int>{0, 1, 2}));
    expect_error(run({"dev", "show", "0,7"}), amdx::cli::kExitNoDevice,
                 "no such device: 7 (see 'amdx dev list')");
    expect_error(run({"dev", "show", "serial:NOPE"}), amdx::cli::kExitNoDevice,
                 "no such device: serial:NOPE (see 'amdx dev list')");
    const auto one = run({"-j", "vf", "reset", "serial:SN1001", "0"});
    EXPECT_NE(one.err.find("vf reset device 1 VF 0"), std::string::npos) << one.err;
    expect_error(run({"vf", "reset", "0,1", "0"}), 2,
                 "'0,1' selects more than one device; this command needs one (an id, a PCI "
                 "address, serial:SERIAL, gpu:INDEX or GPU-UUID) (see 'amdx vf reset --help')");
}

TEST_F(ControlCli, ColumnsAndRawTables) {
    const auto cols = run({"-o", "bdf,model", "dev", "list"});
    EXPECT_EQ(cols.code, 0) << cols.err;
    EXPECT_EQ(cols.out, "BDF          MODEL\n0000:c1:00.0 mi300x\n0000:c2:00.0 mi300x\n");
    const auto raw = run({"--raw", "dev", "list"});
    EXPECT_EQ(raw.out, "DEVICE BDF MODEL\n0 0000:c1:00.0 mi300x\n1 0000:c2:00.0 mi300x\n");
    const auto parts = run({"partition", "show", "0", "-o", "id,vram_size"});
    EXPECT_EQ(parts.out, "device 0:\n  partitions:\n    ID VRAM_SIZE\n     0   192 GiB\n");
    expect_error(run({"dev", "list", "-o", "bdf,colour"}), 2,
                 "-o: no column colour in this output (columns: bdf,device,model)");
}

TEST_F(ControlCli, VfShowOutputFeedsVfEnable) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_CPX;
    kernel.devices[1].compute_mode = AMDX_COMPUTE_CPX;
    ASSERT_EQ(run({"vf", "enable", "0", "4"}).code, 0);
    ASSERT_EQ(run({"vf", "set", "0", "2", "--vram-mib", "1024", "--priority", "high"}).code, 0);
    const auto shown = run({"-j", "vf", "show", "0"});
    ASSERT_EQ(shown.code, 0) << shown.err;
    TempFile f;
    f.write(shown.out);
    const auto r = run({"vf", "enable", "1", "4", "--config", f.path()});
    EXPECT_EQ(r.code, 0) << r.err;
    ASSERT_EQ(kernel.vf_configs.size(), 4U);
    EXPECT_EQ(kernel.vf_configs[2].vram_quota, 1ULL << 30);
    EXPECT_EQ(kernel.vf_configs[2].priority, static_cast<std::uint32_t>(AMDX_VF_PRIO_HIGH));
    // "-" is standard input.
    ASSERT_EQ(run({"vf", "disable", "1"}).code, 0);
    const auto piped =
        run_with_input({"-j", "vf", "enable", "1", "4", "--config", "-"}, shown.out, false);
    EXPECT_EQ(piped.code, 0) << piped.err;
    ASSERT_EQ(kernel.vf_configs.size(), 4U);
    EXPECT_EQ(kernel.vf_configs[2].vram_quota, 1ULL << 30);
    // Two devices' VFs are no single configuration.
    f.write(run({"-j", "vf", "show", "0,1"}).out);
    expect_error(run({"vf", "enable", "1", "4", "--config", f.path()}), 2,
                 f.path() + ": invalid VF configuration: a `vf show` document must hold exactly "
                            "one device (amdx -j vf show DEV)");
}

TEST_F(ControlCli, VfShowGivesThePciAddressFromSysfs) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_DPX;
    ASSERT_EQ(run({"vf", "enable", "0", "2"}).code, 0);
    char root[] = "/tmp/amdx_sysfs.XXXXXX";
    ASSERT_NE(::mkdtemp(root), nullptr);
    const std::string pf = std::string(root) + "/bus/pci/devices/0000:c1:00.0";
    ASSERT_EQ(std::system(("mkdir -p " + pf).c_str()), 0);
    ASSERT_EQ(::symlink("../0000:c1:00.1", (pf + "/virtfn0").c_str()), 0);
    const auto r = run({"-j", "--sysfs-root", root, "vf", "show", "0"});
    EXPECT_EQ(r.code, 0) << r.err;
    const Json vfs = Json::parse(r.out)["devices"][0]["vfs"];
    EXPECT_EQ(vfs[0]["bdf"], "0000:c1:00.1");
    EXPECT_EQ(vfs[1]["bdf"], nullptr); // no virtfn1
    EXPECT_EQ(std::system(("rm -rf " + std::string(root)).c_str()), 0);
}

TEST_F(ControlCli, BadPageExportIsWholeOrNothing) {
    ASSERT_EQ(
        run({"ras", "inject", "0", "--block", "umc", "--type", "ue", "--address", "0x3000"}).code,
        0);
    // To standard output: the table and nothing else.
    const auto out = run({"ras", "badpages", "0", "--export", "-"});
    EXPECT_EQ(out.code, 0) << out.err;
    ASSERT_EQ(out.out.size(), 44U);
    EXPECT_EQ(out.out.substr(0, 4), "ABPX");
    // A file that exists is replaced, not truncated in place: a reader that
    // holds it open still sees the old contents, and no temporary is left.
    char dir[] = "/tmp/amdx_export.XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    const std::string path = std::string(dir) + "/board0.abpx";
    std::ofstream(path) << "old contents";
    std::ifstream held(path);
    const auto exp = run({"ras", "badpages", "0", "--export", path});
    EXPECT_EQ(exp.code, 0) << exp.err;
    std::string old((std::istreambuf_iterator<char>(held)), {});
    EXPECT_EQ(old, "old contents");
    std::ifstream fresh(path, std::ios::binary);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(fresh)), {}), out.out);
    EXPECT_EQ(std::system(("test $(ls " + std::string(dir) + " | wc -l) = 1").c_str()), 0);
    // A directory that cannot be written leaves the file as it was.
    ASSERT_EQ(::chmod(dir, 0500), 0);
    const auto denied = run({"ras", "badpages", "0", "--export", path});
    if (::geteuid() != 0) { // root writes anyway
        EXPECT_EQ(denied.code, amdx::cli::kExitPermission);
        EXPECT_NE(denied.err.find(path + ": cannot write, left unchanged (EACCES"),
                  std::string::npos)
            << denied.err;
    }
    ::chmod(dir, 0700);
    EXPECT_EQ(std::system(("rm -rf " + std::string(dir)).c_str()), 0);
    // --import - reads standard input.
    const auto imp =
        run_with_input({"-j", "ras", "badpages", "1", "--import", "-"}, out.out, false);
    EXPECT_EQ(imp.code, 0) << imp.err;
    EXPECT_EQ(Json::parse(imp.out)["import"]["imported"], 1);
}

TEST_F(ControlCli, HiveWideMemoryChangeNeedsYes) {
    kernel.add_device(2);
    // A device alone resets only itself: no question.
    EXPECT_EQ(run({"partition", "set", "2", "--memory", "nps4"}).code, 0);
    kernel.devices[0].hive_id = 7;
    kernel.devices[1].hive_id = 7;
    const auto r = run({"partition", "set", "0", "--memory", "nps4"});
    EXPECT_NE(r.out.find("plan:\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  reset_devices   0,1\n"), std::string::npos) << r.out;
    expect_error(r, amdx::cli::kExitUsage,
                 "partition set device 0: the memory-mode change resets devices 0,1 (the whole "
                 "hive, plan above); nothing changed: pass --yes to proceed");
    EXPECT_EQ(kernel.devices[0].memory_mode, static_cast<std::uint32_t>(AMDX_MEMORY_NPS1));
    // Asked on a terminal: "n" changes nothing, "y" proceeds.
    const auto no = run_with_input({"partition", "set", "0", "--memory", "nps4"}, "n\n", true);
    EXPECT_EQ(no.code, amdx::cli::kExitUsage);
    EXPECT_NE(no.err.find("Proceed? [y/N]"), std::string::npos) << no.err;
    EXPECT_EQ(kernel.devices[0].memory_mode, static_cast<std::uint32_t>(AMDX_MEMORY_NPS1));
    const auto yes = run_with_input({"partition", "set", "0", "--memory", "nps4"}, "y\n", true);
    EXPECT_EQ(yes.code, 0) << yes.err;
    EXPECT_EQ(kernel.devices[0].memory_mode, static_cast<std::uint32_t>(AMDX_MEMORY_NPS4));
    const auto flag = run({"-j", "partition", "set", "0", "--memory", "nps1", "--yes"});
    EXPECT_EQ(flag.code, 0) << flag.err;
    EXPECT_EQ(Json::parse(flag.out)["commit"]["outcome"], "committed");
}

TEST_F(ControlCli, EveryJsonCommandPrintsOneObject) {
    kernel.devices[0].compute_mode = AMDX_COMPUTE_CPX;
    TempFile table;
    // Every command but monitor (one object per record, MonitorJsonLines...)
    // and ras badpages --export - (the table itself), in an order that works.
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"-j", "dev", "list"},
             {"-j", "dev", "show"},
             {"-j", "hmm", "show"},
             {"-j", "partition", "show"},
             {"-j", "partition", "plan", "1", "--compute", "dpx"},
             {"-j", "partition", "set", "1", "--compute", "dpx"},
             {"-j", "vf", "enable", "0", "2"},
             {"-j", "vf", "show"},
             {"-j", "vf", "set", "0", "1", "--priority", "high"},
             {"-j", "vf", "reset", "0", "1"},
             {"-j", "vf", "disable", "0"},
             {"-j", "ras", "inject", "0", "--block", "umc", "--type", "ue", "--address", "0x3000"},
             {"-j", "ras", "show"},
             {"-j", "ras", "policy", "show"},
             {"-j", "ras", "policy", "set", "0", "--ce-window-s", "60"},
             {"-j", "ras", "badpages"},
             {"-j", "ras", "badpages", "0", "--export", table.path()},
             {"-j", "ras", "badpages", "1", "--import", table.path()},
             {"-j", "partition", "plan", "0", "--compute", "dpx"}}) {
        const auto r = run(args);
        EXPECT_EQ(r.code, 0) << args[1] << ' ' << args[2] << ": " << r.err;
        EXPECT_TRUE(r.err.empty()) << r.err;
        EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
        const Json doc = Json::parse(r.out, nullptr, false);
        ASSERT_TRUE(doc.is_object()) << r.out;
        EXPECT_EQ(doc.begin().key(), "schema_version");
    }
}

} // namespace
