// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx doctor` (fleet/doctor.hpp) against the fake kernel and a sysfs tree
// written the way Debian's 6.12.118 amdgpu writes its files (doctor.cpp).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "doctor.hpp"
#include "fake_kernel.hpp"

namespace {

namespace fs = std::filesystem;
using amdx::test::FakeKernel;

/// A host's sysfs with one amdgpu PCI function matching FakeKernel's
/// device @id in SPX/NPS1, no retired page, RAS counters at zero.
class Doctor : public ::testing::Test {
  protected:
    void SetUp() override {
        kernel.add_device(1);
        root = fs::temp_directory_path() /
               ("amdx-doctor-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root);
        dev = root / "bus/pci/devices/0000:c2:00.0";
        fs::create_directories(dev / "ras");
        fs::create_directories(root / "bus/pci/drivers/amdgpu");
        fs::create_directory_symlink(root / "bus/pci/drivers/amdgpu", dev / "driver");
        write("serial_number", "SN1001\n");
        write("product_name", "AMD Instinct MI300X\n");
        write("current_compute_partition", "SPX\n");
        write("current_memory_partition", "NPS1\n");
        write("ras/gpu_vram_bad_pages", "");
        write("ras/umc_err_count", "ue: 0\nce: 0\nde: 0\n");
    }
    void TearDown() override { fs::remove_all(root); }

    void write(const std::string& name, const std::string& text) const {
        std::ofstream(dev / name) << text;
    }

    int run(const std::vector<std::string>& args, nlohmann::json& doc) {
        std::vector<const char*> argv{"amdx",   "-d",      "/dev/null", "-j",
                                      "doctor", "--sysfs", root.c_str()};
        for (const auto& a : args)
            argv.push_back(a.c_str());
        std::ostringstream o, e;
        const int rc = amdx::cli::run(static_cast<int>(argv.size()), argv.data(), o, e);
        err = e.str();
        doc = nlohmann::json::parse(o.str(), nullptr, false);
        return rc;
    }

    /// The verdict of @check in @doc ("" if it is not there).
    static std::string verdict(const nlohmann::json& doc, const std::string& check) {
        if (doc.is_discarded())
            return "";
        for (const auto& c : doc["doctor"]["checks"])
            if (c["check"] == check)
                return c["verdict"];
        return "";
    }

    FakeKernel kernel;
    fs::path root, dev;
    std::string err;
};

TEST_F(Doctor, MatchingHostIsOkAndNeedsNoCounterRead) {
    nlohmann::json doc;
    EXPECT_EQ(run({}, doc), 0) << err;
    for (const char* c :
         {"driver", "serial", "product", "compute_partition", "memory_partition", "bad_pages"})
        EXPECT_EQ(verdict(doc, c), "ok") << c;
    // Reading ras/*_err_count has side effects in amdgpu: only on request.
    EXPECT_EQ(verdict(doc, "ras_counters"), "skipped");
    EXPECT_EQ(doc["doctor"]["verdict"], "ok");
}

TEST_F(Doctor, ModeMismatchIsReportedAndFails) {
    write("current_compute_partition", "CPX\n");
    nlohmann::json doc;
    EXPECT_EQ(run({}, doc), 1);
    EXPECT_EQ(verdict(doc, "compute_partition"), "mismatch");
    EXPECT_EQ(verdict(doc, "memory_partition"), "ok");
    EXPECT_EQ(doc["doctor"]["verdict"], "mismatch");
    EXPECT_NE(err.find("differs from amdgpu"), std::string::npos) << err;
}

TEST_F(Doctor, BadPagesAreComparedByPage) {
    // amdgpu retired page frame 0x1234 (R) that amdx does not know.
    write("ras/gpu_vram_bad_pages", "0x00001234 : 0x00001000 : R\n");
    nlohmann::json doc;
    EXPECT_EQ(run({}, doc), 1);
    EXPECT_EQ(verdict(doc, "bad_pages"), "mismatch");
    bool named = false;
    for (const auto& c : doc["doctor"]["checks"])
        if (c["check"] == "bad_pages")
            named = c["detail"].get<std::string>().find("0x1234000") != std::string::npos;
    EXPECT_TRUE(named) << doc.dump();

    // The same page in amdx's table: they agree.
    amdx_badpage_record rec{};
    rec.address = 0x1234000;
    rec.cause = AMDX_BADPAGE_CAUSE_UE;
    kernel.state(1).badpages.push_back(rec);
    EXPECT_EQ(run({}, doc), 0) << err;
    EXPECT_EQ(verdict(doc, "bad_pages"), "ok");
}

TEST_F(Doctor, MissingFilesAreAbsentNotOk) {
    fs::remove(dev / "current_memory_partition");
    nlohmann::json doc;
    EXPECT_EQ(run({}, doc), 0) << err;
    EXPECT_EQ(verdict(doc, "memory_partition"), "absent");
}

TEST_F(Doctor, NotAnAmdgpuDeviceIsSkipped) {
    fs::remove(dev / "driver");
    nlohmann::json doc;
    EXPECT_EQ(run({}, doc), 0) << err;
    EXPECT_EQ(verdict(doc, "driver"), "skipped");
    EXPECT_EQ(verdict(doc, "serial"), "");
}

TEST_F(Doctor, RasCountersOnRequest) {
    kernel.state(1); // the fake's counter rows
    nlohmann::json doc;
    EXPECT_EQ(run({"--ras-counters"}, doc), 0) << err;
    EXPECT_EQ(verdict(doc, "ras_umc"), "ok");
    write("ras/umc_err_count", "ue: 3\nce: 0\nde: 0\n");
    EXPECT_EQ(run({"--ras-counters"}, doc), 1);
    EXPECT_EQ(verdict(doc, "ras_umc"), "mismatch");
}

} // namespace
