// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <algorithm>
#include <cerrno>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli.hpp"
#include "fake_kernel.hpp"

namespace {

using amdx::cli::Format;
using amdx::cli::Json;
using amdx::cli::Selector;
using amdx::test::FakeKernel;

// ---- selectors

TEST(Selector, ParsesAllIdAndBdf) {
    const auto all = amdx::cli::parse_selector("all");
    ASSERT_TRUE(all);
    EXPECT_EQ(all->kind, Selector::Kind::all);

    const auto id = amdx::cli::parse_selector("12");
    ASSERT_TRUE(id);
    EXPECT_EQ(id->kind, Selector::Kind::id);
    EXPECT_EQ(id->id, 12U);

    const auto bdf = amdx::cli::parse_selector("0000:C1:00.0");
    ASSERT_TRUE(bdf);
    EXPECT_EQ(bdf->kind, Selector::Kind::bdf);
    EXPECT_EQ(bdf->bdf, "0000:c1:00.0");

    const auto short_bdf = amdx::cli::parse_selector("c1:00.3");
    ASSERT_TRUE(short_bdf);
    EXPECT_EQ(short_bdf->bdf, "0000:c1:00.3");
}

TEST(Selector, RejectsJunk) {
    for (const char* bad : {"", "ALL", "-1", "1x", "4294967296", "c1:00", "0000:c1:00.8",
                            "0000:g1:00.0", "00000:c1:00.0", "0000-c1:00.0", "pci/0000:c1:00.0"})
        EXPECT_FALSE(amdx::cli::parse_selector(bad)) << bad;
}

TEST(Selector, Matches) {
    const amdx::DeviceEntry e{.id = 3, .model = amdx::Model::mi300x, .bdf = "0000:c4:00.0"};
    EXPECT_TRUE(amdx::cli::parse_selector("all")->matches(e));
    EXPECT_TRUE(amdx::cli::parse_selector("3")->matches(e));
    EXPECT_FALSE(amdx::cli::parse_selector("4")->matches(e));
    EXPECT_TRUE(amdx::cli::parse_selector("C4:00.0")->matches(e));
    EXPECT_FALSE(amdx::cli::parse_selector("0000:c4:00.1")->matches(e));
}

// ---- the print path

amdx::DeviceInfo fixed_info() {
    return amdx::DeviceInfo::from_uapi(FakeKernel::make_device(0));
}

std::string rendered(const Json& doc, Format format) {
    std::ostringstream out;
    amdx::cli::render(out, doc, format);
    return out.str();
}

const char* const kShowJson =
    R"({"devices":[{"id":0,"bdf":"0000:c1:00.0","model":"mi300x","product":"AMD Instinct MI300X",)"
    R"("serial":"SN1000","hive_id":0,"num_xcc":8,"num_sdma":16,"num_vcn":4,"compute_mode":"SPX",)"
    R"("memory_mode":"NPS1","supported_compute_modes":["SPX","DPX","QPX","CPX"],)"
    R"("supported_memory_modes":["NPS1","NPS2","NPS4"],)"
    R"("vram":{"size":206158430208,"free":204010946560},)"
    R"("memory_partitions":[{"index":0,"base":0,"size":206158430208,"free":204010946560}],)"
    R"("vfs":{"enabled":0,"max":8},"hmm":true}]})"
    "\n";

const char* const kShowText = R"(id 0:
  bdf 0000:c1:00.0
  model mi300x
  product "AMD Instinct MI300X"
  serial SN1000
  hive_id 0
  num_xcc 8
  num_sdma 16
  num_vcn 4
  compute_mode SPX
  memory_mode NPS1
  supported_compute_modes SPX,DPX,QPX,CPX
  supported_memory_modes NPS1,NPS2,NPS4
  vram size 206158430208 free 204010946560
  memory_partitions:
    index 0 base 0 size 206158430208 free 204010946560
  vfs enabled 0 max 8
  hmm true
)";

TEST(Render, ShowJsonIsTheContract) {
    const Json doc{{"devices", Json::array({amdx::cli::info_to_json(fixed_info())})}};
    EXPECT_EQ(rendered(doc, Format::json), kShowJson);
}

TEST(Render, ShowTextComesFromTheSameObject) {
    const Json doc{{"devices", Json::array({amdx::cli::info_to_json(fixed_info())})}};
    EXPECT_EQ(rendered(doc, Format::text), kShowText);
}

TEST(Render, PrettyJsonParsesToTheSameDocument) {
    const Json doc{{"devices", Json::array({amdx::cli::info_to_json(fixed_info())})}};
    const std::string pretty = rendered(doc, Format::json_pretty);
    EXPECT_NE(pretty.find("\n    \"devices\""), std::string::npos);
    EXPECT_EQ(Json::parse(pretty), doc);
}

TEST(Render, ListJsonAndText) {
    const amdx::DeviceEntry e{.id = 0, .model = amdx::Model::mi300x, .bdf = "0000:c1:00.0"};
    const Json doc{{"devices", Json::array({amdx::cli::entry_to_json(e)})}};
    EXPECT_EQ(rendered(doc, Format::json),
              "{\"devices\":[{\"id\":0,\"bdf\":\"0000:c1:00.0\",\"model\":\"mi300x\"}]}\n");
    EXPECT_EQ(rendered(doc, Format::text), "id 0 bdf 0000:c1:00.0 model mi300x\n");
}

TEST(Render, EdgeValues) {
    amdx::DeviceInfo info = fixed_info();
    info.serial.clear();
    info.product = "bad \xff utf8";
    info.model = static_cast<amdx::Model>(42);
    info.supported_memory_modes.clear();
    info.memory_partitions.clear();
    const Json doc{{"devices", Json::array({amdx::cli::info_to_json(info)})}};
    const std::string text = rendered(doc, Format::text);
    EXPECT_NE(text.find("  serial \"\"\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  model unknown\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  supported_memory_modes none\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  memory_partitions none\n"), std::string::npos) << text;
    const Json back = Json::parse(rendered(doc, Format::json)); // invalid UTF-8 is replaced
    EXPECT_EQ(back["devices"][0]["product"], "bad \xef\xbf\xbd utf8");
    EXPECT_EQ(back["devices"][0]["memory_partitions"], Json::array());
}

TEST(Render, EmptyList) {
    const Json doc{{"devices", Json::array()}};
    EXPECT_EQ(rendered(doc, Format::json), "{\"devices\":[]}\n");
    EXPECT_EQ(rendered(doc, Format::text), "");
}

// ---- error messages

std::error_code err(int e) {
    return {e, std::system_category()};
}

TEST(Errors, OpenMessages) {
    EXPECT_EQ(amdx::cli::open_error("/dev/amdx", err(ENOENT)),
              "/dev/amdx: module not loaded (No such file or directory)");
    EXPECT_EQ(amdx::cli::open_error("/dev/amdx", err(ENXIO)),
              "/dev/amdx: module not loaded (No such device or address)");
    EXPECT_EQ(amdx::cli::open_error("/dev/amdx", err(EACCES)), "/dev/amdx: permission denied");
    EXPECT_EQ(amdx::cli::open_error("/dev/amdx", err(EMFILE)), "/dev/amdx: Too many open files");
}

TEST(Errors, RequestMessages) {
    EXPECT_EQ(amdx::cli::request_error("/dev/amdx", "device list", err(EPERM)),
              "permission denied");
    EXPECT_EQ(amdx::cli::request_error("/dev/amdx", "device list", err(ENOTTY)),
              "/dev/amdx: not an amdx control node (Inappropriate ioctl for device)");
    EXPECT_EQ(amdx::cli::request_error("/dev/amdx", "device list", err(EPROTO)),
              "device list: malformed answer from the kernel (Protocol error)");
    EXPECT_EQ(amdx::cli::request_error("/dev/amdx", "device list", err(EIO)),
              "device list: Input/output error");
}

// ---- the whole CLI against the fake kernel

struct CliOutcome {
    int code = -1;
    std::string out;
    std::string err;
};

CliOutcome run(std::initializer_list<const char*> args) {
    std::vector<const char*> argv{"amdx"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::ostringstream out;
    std::ostringstream err;
    CliOutcome r;
    r.code = amdx::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

void expect_one_error_line(const CliOutcome& r, const std::string& line) {
    EXPECT_EQ(r.err, line + "\n");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
    EXPECT_TRUE(r.out.empty()) << r.out;
}

class CliRun : public ::testing::Test {
  protected:
    void SetUp() override {
        kernel.add_device(0);
        kernel.add_device(1);
    }
    FakeKernel kernel;
};

TEST_F(CliRun, DevListJson) {
    const CliOutcome r = run({"-d", "/dev/null", "-j", "dev", "list"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "{\"devices\":[{\"id\":0,\"bdf\":\"0000:c1:00.0\",\"model\":\"mi300x\"},"
                     "{\"id\":1,\"bdf\":\"0000:c2:00.0\",\"model\":\"mi300x\"}]}\n");
    EXPECT_TRUE(r.err.empty());
}

TEST_F(CliRun, OptionsAfterTheCommand) {
    const CliOutcome r = run({"dev", "list", "--json", "--device-node", "/dev/null"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(Json::parse(r.out)["devices"].size(), 2U);
}

TEST_F(CliRun, ShowIsTheDefaultCommand) {
    const CliOutcome r = run({"-d", "/dev/null", "dev"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("id 0:\n"), std::string::npos);
    EXPECT_NE(r.out.find("id 1:\n"), std::string::npos);
}

TEST_F(CliRun, ShowById) {
    const CliOutcome r = run({"-d", "/dev/null", "-j", "dev", "show", "1"});
    EXPECT_EQ(r.code, 0) << r.err;
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["devices"].size(), 1U);
    EXPECT_EQ(doc["devices"][0]["id"], 1);
    EXPECT_EQ(doc["devices"][0]["bdf"], "0000:c2:00.0");
}

TEST_F(CliRun, ShowByBdfPretty) {
    const CliOutcome r = run({"-d", "/dev/null", "-p", "dev", "show", "C2:00.0"});
    EXPECT_EQ(r.code, 0) << r.err;
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["devices"].size(), 1U);
    EXPECT_EQ(doc["devices"][0]["id"], 1);
    EXPECT_NE(r.out.find('\n'), r.out.size() - 1); // multi-line
}

TEST_F(CliRun, ShowAllJsonMatchesLibrary) {
    const CliOutcome r = run({"-d", "/dev/null", "-j", "dev", "show", "all"});
    EXPECT_EQ(r.code, 0) << r.err;
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["devices"].size(), 2U);
    EXPECT_EQ(doc["devices"][0], amdx::cli::info_to_json(fixed_info()));
}

TEST_F(CliRun, NoSuchDevice) {
    const CliOutcome r = run({"-d", "/dev/null", "dev", "show", "7"});
    EXPECT_EQ(r.code, 1);
    expect_one_error_line(r, "amdx: no such device: 7");
}

TEST_F(CliRun, DeviceRemovedWhileShowingAll) {
    kernel.fail_query = AMDX_QUERY_DEVICE_INFO;
    kernel.fail_errno = ENODEV;
    const CliOutcome all = run({"-d", "/dev/null", "-j", "dev", "show"});
    EXPECT_EQ(all.code, 0) << all.err;
    EXPECT_EQ(all.out, "{\"devices\":[]}\n");
    const CliOutcome one = run({"-d", "/dev/null", "dev", "show", "0"});
    EXPECT_EQ(one.code, 1);
    expect_one_error_line(one, "amdx: no such device: 0");
}

TEST_F(CliRun, InvalidSelectorIsUsageError) {
    const CliOutcome r = run({"-d", "/dev/null", "dev", "show", "gpu0"});
    EXPECT_EQ(r.code, 2);
    expect_one_error_line(r,
                          "amdx: invalid device 'gpu0' (expected an id, a PCI address or 'all')");
}

TEST_F(CliRun, ModuleNotLoaded) {
    const CliOutcome r = run({"-d", "/nonexistent/amdx", "dev", "list"});
    EXPECT_EQ(r.code, 1);
    expect_one_error_line(r,
                          "amdx: /nonexistent/amdx: module not loaded (No such file or directory)");
}

TEST_F(CliRun, NotAnAmdxNode) {
    kernel.fail_query = AMDX_QUERY_CAPS;
    kernel.fail_errno = ENOTTY;
    const CliOutcome r = run({"-d", "/dev/null", "dev", "list"});
    EXPECT_EQ(r.code, 1);
    expect_one_error_line(
        r, "amdx: /dev/null: not an amdx control node (Inappropriate ioctl for device)");
}

TEST_F(CliRun, PermissionDenied) {
    kernel.fail_query = AMDX_QUERY_DEVICES;
    kernel.fail_errno = EPERM;
    const CliOutcome r = run({"-d", "/dev/null", "dev", "list"});
    EXPECT_EQ(r.code, 1);
    expect_one_error_line(r, "amdx: permission denied");
}

TEST_F(CliRun, NewerMajorVersionIsRefused) {
    kernel.caps.version_major = AMDX_UAPI_VERSION_MAJOR + 1;
    kernel.caps.version_minor = 3;
    const CliOutcome r = run({"-d", "/dev/null", "dev", "list"});
    EXPECT_EQ(r.code, 1);
    expect_one_error_line(r, "amdx: kernel amdx uapi " +
                                 std::to_string(AMDX_UAPI_VERSION_MAJOR + 1) +
                                 ".3 is not supported (amdx speaks " +
                                 std::to_string(AMDX_UAPI_VERSION_MAJOR) + ".x)");
}

TEST_F(CliRun, UsageErrors) {
    const CliOutcome unknown_opt = run({"--frobnicate", "dev", "list"});
    EXPECT_EQ(unknown_opt.code, 2);
    EXPECT_EQ(std::count(unknown_opt.err.begin(), unknown_opt.err.end(), '\n'), 1);
    EXPECT_EQ(unknown_opt.err.rfind("amdx: ", 0), 0U);

    const CliOutcome no_object = run({});
    EXPECT_EQ(no_object.code, 2);
    expect_one_error_line(no_object, "amdx: missing OBJECT (try 'amdx --help')");

    const CliOutcome bad_object = run({"bus", "list"});
    EXPECT_EQ(bad_object.code, 2);
    EXPECT_EQ(std::count(bad_object.err.begin(), bad_object.err.end(), '\n'), 1);
    EXPECT_TRUE(kernel.calls.empty()); // nothing reached the kernel
}

TEST_F(CliRun, VersionAndHelp) {
    const CliOutcome v = run({"-V"});
    EXPECT_EQ(v.code, 0);
    EXPECT_EQ(v.out.rfind("amdx ", 0), 0U);
    EXPECT_NE(v.out.find("(uapi " + std::to_string(AMDX_UAPI_VERSION_MAJOR) + "." +
                         std::to_string(AMDX_UAPI_VERSION_MINOR) + ")"),
              std::string::npos);
    const CliOutcome h = run({"--help"});
    EXPECT_EQ(h.code, 0);
    EXPECT_NE(h.out.find("dev"), std::string::npos);
    EXPECT_TRUE(kernel.calls.empty());
}

} // namespace
