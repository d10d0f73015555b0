// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <unistd.h>
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

// gpu:INDEX and ROCr's GPU-UUID (16 hex digits, either case, kept lower).
TEST(Selector, ParsesGpuIndexAndUuid) {
    const auto gpu = amdx::cli::parse_selector("gpu:12");
    ASSERT_TRUE(gpu);
    EXPECT_EQ(gpu->kind, Selector::Kind::gpu);
    EXPECT_EQ(gpu->id, 12U);
    EXPECT_TRUE(gpu->is_one());
    EXPECT_TRUE(gpu->needs_gpus());
    EXPECT_EQ(amdx::cli::item_name(gpu->items[0]), "gpu:12");
    const auto uuid = amdx::cli::parse_selector("GPU-4A7C1E0F23B5D698");
    ASSERT_TRUE(uuid);
    EXPECT_EQ(uuid->kind, Selector::Kind::uuid);
    EXPECT_EQ(uuid->items[0].text, "GPU-4a7c1e0f23b5d698");
    EXPECT_EQ(amdx::cli::rocr_uuid(0x4a7c1e0f23b5d698ULL), "GPU-4a7c1e0f23b5d698");
    EXPECT_EQ(amdx::cli::rocr_uuid(0x1), "GPU-0000000000000001");
    const auto list = amdx::cli::parse_selector("0,gpu:3,GPU-0000000000000001");
    ASSERT_TRUE(list);
    EXPECT_EQ(list->items.size(), 3U);
    EXPECT_FALSE(list->is_one());
    EXPECT_FALSE(amdx::cli::parse_selector("3")->needs_gpus());
    for (const char* bad : {"gpu:", "gpu:-1", "gpu:x", "gpu:1x", "gpu:4294967296", "GPU:1", "gpu-1",
                            "GPU-4a7c1e0f23b5d69", "GPU-4a7c1e0f23b5d6988", "GPU-4a7c1e0f23b5d69g",
                            "gpu-4a7c1e0f23b5d698"})
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
    R"({"schema_version":2,"devices":[{"device":0,"bdf":"0000:c1:00.0","model":"mi300x","product":"AMD Instinct MI300X",)"
    R"("serial":"SN1000","hive_id":"0","num_xcc":8,"num_sdma":16,"num_vcn":4,"compute_mode":"SPX",)"
    R"("memory_mode":"NPS1","supported_compute_modes":["SPX","DPX","QPX","CPX"],)"
    R"("supported_memory_modes":["NPS1","NPS2","NPS4"],)"
    R"("vram":{"size":206158430208,"free":204010946560},)"
    R"("memory_partitions":[{"index":0,"base":0,"size":206158430208,"free":204010946560}],)"
    R"("vfs":{"enabled":0,"max":8},"hmm":true}]})"
    "\n";

// Sizes in binary units, addresses in hex, tables with headers.
const char* const kShowText = R"(device 0:
  bdf                      0000:c1:00.0
  model                    mi300x
  product                  AMD Instinct MI300X
  serial                   SN1000
  hive_id                  0
  num_xcc                  8
  num_sdma                 16
  num_vcn                  4
  compute_mode             SPX
  memory_mode              NPS1
  supported_compute_modes  SPX,DPX,QPX,CPX
  supported_memory_modes   NPS1,NPS2,NPS4
  vram                     size 192 GiB, free 190 GiB
  memory_partitions:
    INDEX BASE    SIZE    FREE
        0  0x0 192 GiB 190 GiB
  vfs                      enabled 0, max 8
  hmm                      true
)";

/// @doc as render() prints it in JSON: "schema_version" first.
Json versioned(const Json& doc) {
    Json out{{"schema_version", amdx::cli::kSchemaVersion}};
    for (const auto& [k, v] : doc.items())
        out[k] = v;
    return out;
}

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
    EXPECT_EQ(Json::parse(pretty), versioned(doc));
}

TEST(Render, ListJsonAndText) {
    const amdx::DeviceEntry e{.id = 0, .model = amdx::Model::mi300x, .bdf = "0000:c1:00.0"};
    const Json doc{{"devices", Json::array({amdx::cli::entry_to_json(e)})}};
    EXPECT_EQ(rendered(doc, Format::json),
              "{\"schema_version\":2,\"devices\":[{\"device\":0,\"bdf\":\"0000:c1:00.0\","
              "\"model\":\"mi300x\"}]}\n");
    EXPECT_EQ(rendered(doc, Format::text), "DEVICE BDF          MODEL\n"
                                           "     0 0000:c1:00.0 mi300x\n");
}

// --raw: one space between columns, so no cell may hold one (libsmartcols
// escaped it, "48\x20GiB"): a number and its unit are joined, other blanks
// become '_'.
TEST(Render, RawCellsHoldNoBlanks) {
    const Json doc{
        {"partitions",
         Json::array(
             {Json{{"id", 0}, {"size", 48ULL << 30}, {"duration_ns", 4100}, {"name", "a b"}}})}};
    amdx::cli::Options opts;
    opts.raw = true;
    std::ostringstream out;
    amdx::cli::render(out, doc, opts);
    EXPECT_EQ(out.str(), "ID SIZE DURATION_NS NAME\n0 48GiB 4.1us a_b\n");
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
    EXPECT_NE(text.find("  serial                   \"\"\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  model                    unknown\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  supported_memory_modes   none\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  memory_partitions        none\n"), std::string::npos) << text;
    const Json back = Json::parse(rendered(doc, Format::json)); // invalid UTF-8 is replaced
    EXPECT_EQ(back["devices"][0]["product"], "bad \xef\xbf\xbd utf8");
    EXPECT_EQ(back["devices"][0]["memory_partitions"], Json::array());
}

// Values by key: addresses in hex, sizes in binary units, durations
// scaled, unix times as RFC 3339 UTC whatever the local zone, null as n/a.
TEST(Render, UnitsByKey) {
    const char* tz = std::getenv("TZ");
    const std::string old_tz = tz != nullptr ? tz : "";
    ::setenv("TZ", "XST5", 1); // five hours west of UTC, no tzdata needed
    ::tzset();
    const Json doc{{"page", Json{{"address", 12288},
                                 {"size", 1536},
                                 {"vram_size", 206158430208ULL},
                                 {"duration_ns", 2000000},
                                 {"time", 1700000000},
                                 {"vf", nullptr},
                                 {"count", 12288}}}};
    const std::string text = rendered(doc, Format::text);
    if (tz != nullptr)
        ::setenv("TZ", old_tz.c_str(), 1);
    else
        ::unsetenv("TZ");
    ::tzset();
    EXPECT_EQ(text, "page:\n"
                    "  address      0x3000\n"
                    "  size         1.5 KiB\n"
                    "  vram_size    192 GiB\n"
                    "  duration_ns  2.0 ms\n"
                    "  time         2023-11-14T22:13:20Z\n"
                    "  vf           n/a\n"
                    "  count        12288\n");
    EXPECT_EQ(amdx::cli::size_text(0), "0 B");
    EXPECT_EQ(amdx::cli::size_text(1023), "1023 B");
    EXPECT_EQ(amdx::cli::size_text(256ULL << 20), "256 MiB");
}

std::string utc_time(std::time_t t) {
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
    return buf;
}

std::time_t utc_seconds(const std::string& rfc3339) {
    std::tm tm{};
    const char* end = ::strptime(rfc3339.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
    return end != nullptr ? ::timegm(&tm) : static_cast<std::time_t>(-1);
}

// CLOCK_REALTIME's seconds (time() may read the coarse clock, a tick behind
// the clock the conversion reads).
std::time_t realtime_seconds() {
    timespec real{};
    ::clock_gettime(CLOCK_REALTIME, &real);
    return real.tv_sec;
}

// A CLOCK_MONOTONIC stamp is shown as the wall-clock time it happened at,
// RFC 3339 in UTC whatever the local zone: now is now, an hour ago an hour
// ago, to the second.  The wall clock is read before the monotonic sample
// and after the conversion, so the answer lies between the two however
// long the host takes in between (a loaded host once put a second
// boundary between the sample and a wall clock read after it).
TEST(Render, MonotonicStampsAsWallClock) {
    const char* tz = std::getenv("TZ");
    const std::string old_tz = tz != nullptr ? tz : "";
    ::setenv("TZ", "XST5", 1);
    ::tzset();
    for (const std::uint64_t want : {0ULL, 3600ULL}) {
        const std::time_t wall_before = realtime_seconds();
        timespec mono{};
        ::clock_gettime(CLOCK_MONOTONIC, &mono);
        // No further back than the boot (a young test VM).
        const std::uint64_t ago = std::min(want, static_cast<std::uint64_t>(mono.tv_sec));
        const std::uint64_t stamp = static_cast<std::uint64_t>(mono.tv_sec) * 1000000000ULL +
                                    static_cast<std::uint64_t>(mono.tv_nsec) - ago * 1000000000ULL;
        const std::string wall = amdx::cli::monotonic_to_wall(stamp);
        const std::time_t wall_after = realtime_seconds();
        ASSERT_EQ(wall.size(), std::string("2026-12-01T10:12:13.123456Z").size()) << wall;
        EXPECT_EQ(wall.back(), 'Z') << wall;
        EXPECT_EQ(wall[19], '.') << wall;
        const std::time_t secs = utc_seconds(wall.substr(0, 19));
        const auto back = static_cast<std::time_t>(ago);
        EXPECT_GE(secs, wall_before - back)
            << ago << " s ago: " << wall << ", not before " << utc_time(wall_before - back);
        EXPECT_LE(secs, wall_after - back)
            << ago << " s ago: " << wall << ", not after " << utc_time(wall_after - back);
    }
    if (tz != nullptr)
        ::setenv("TZ", old_tz.c_str(), 1);
    else
        ::unsetenv("TZ");
    ::tzset();
}

TEST(Render, EmptyList) {
    const Json doc{{"devices", Json::array()}};
    EXPECT_EQ(rendered(doc, Format::json), "{\"schema_version\":2,\"devices\":[]}\n");
    EXPECT_EQ(rendered(doc, Format::text), "");
}

// ---- error messages

std::error_code err(int e) {
    return {e, std::system_category()};
}

TEST(Errors, OpenMessages) {
    EXPECT_EQ(amdx::cli::open_error("/dev/amdx", err(ENOENT)),
              "/dev/amdx: module not loaded, load it with modprobe amdx (ENOENT: No such file or "
              "directory)");
    EXPECT_EQ(amdx::cli::open_error("/dev/amdx", err(ENXIO)),
              "/dev/amdx: module not loaded, load it with modprobe amdx (ENXIO: No such device or "
              "address)");
    EXPECT_EQ(amdx::cli::open_error("/dev/amdx", err(EACCES)),
              "/dev/amdx: permission denied (EACCES: Permission denied)");
    EXPECT_EQ(amdx::cli::open_error("/dev/amdx", err(EMFILE)),
              "/dev/amdx: EMFILE: Too many open files");
}

TEST(Errors, RequestMessages) {
    EXPECT_EQ(amdx::cli::request_error("/dev/amdx", "device list", err(EPERM)),
              "permission denied (EPERM: Operation not permitted)");
    EXPECT_EQ(amdx::cli::request_error("/dev/amdx", "device list", err(ENOTTY)),
              "/dev/amdx: not an amdx control node (ENOTTY: Inappropriate ioctl for device)");
    EXPECT_EQ(amdx::cli::request_error("/dev/amdx", "device list", err(EPROTO)),
              "device list: malformed answer from the kernel (EPROTO: Protocol error)");
    EXPECT_EQ(amdx::cli::request_error("/dev/amdx", "device list", err(EIO)),
              "device list: EIO: Input/output error");
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
    EXPECT_EQ(r.out, "{\"schema_version\":2,"
                     "\"devices\":[{\"device\":0,\"bdf\":\"0000:c1:00.0\",\"model\":\"mi300x\"},"
                     "{\"device\":1,\"bdf\":\"0000:c2:00.0\",\"model\":\"mi300x\"}]}\n");
    EXPECT_TRUE(r.err.empty());
}

// --csv: the table views as CSV, a header of JSON keys and the JSON
// values (bytes, not "192 GiB"); a list of blocks gives one row per
// element of each block's table, the block's cells first; -o picks
// columns; a change or a stream, and --csv with -j, are usage errors.
TEST_F(CliRun, CsvOfTheTableViews) {
    CliOutcome r = run({"-d", "/dev/null", "--csv", "dev", "list"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "device,bdf,model\n0,0000:c1:00.0,mi300x\n1,0000:c2:00.0,mi300x\n");
    r = run({"-d", "/dev/null", "partition", "set", "1", "--compute", "cpx"});
    ASSERT_EQ(r.code, 0) << r.err;
    r = run({"-d", "/dev/null", "--csv", "-o", "device,id,state,vram_size", "partition"});
    EXPECT_EQ(r.code, 0) << r.err;
    std::istringstream lines(r.out);
    std::vector<std::string> rows;
    for (std::string l; std::getline(lines, l);)
        rows.push_back(l);
    ASSERT_EQ(rows.size(), 1U + 1U + 8U) << r.out;
    EXPECT_EQ(rows[0], "device,id,state,vram_size");
    EXPECT_EQ(rows[1], "0,0,online,206158430208");
    EXPECT_EQ(rows[9].rfind("1,7,online,", 0), 0U) << rows[9];
    // A field with a comma is quoted (RFC 4180).
    r = run({"-d", "/dev/null", "--csv", "-o", "device,identity.note", "dev", "show", "0"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "device,identity.note\n0,\"no DRM or KFD device at this PCI address "
                     "(simulated, or not driven by amdgpu)\"\n");
    // Not a table view, or not CSV alone: exit 2 before anything runs.
    const std::size_t requests = kernel.part_requests.size();
    r = run({"-d", "/dev/null", "--csv", "partition", "set", "0", "--compute", "dpx"});
    EXPECT_EQ(r.code, 2);
    expect_one_error_line(r, "amdx: --csv: 'amdx partition set' is not a table view (dev, "
                             "partition show, vf show, ras show, link show, ps, monitor -i)");
    EXPECT_EQ(kernel.part_requests.size(), requests);
    r = run({"-d", "/dev/null", "--csv", "-j", "dev"});
    EXPECT_EQ(r.code, 2);
    r = run({"-d", "/dev/null", "--csv", "-o", "nope", "dev", "list"});
    EXPECT_EQ(r.code, 2);
    expect_one_error_line(r, "amdx: -o: no column nope in this CSV (columns: device,bdf,model)");
}

TEST_F(CliRun, OptionsAfterTheCommand) {
    const CliOutcome r = run({"dev", "list", "--json", "--device-node", "/dev/null"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(Json::parse(r.out)["devices"].size(), 2U);
}

TEST_F(CliRun, ShowIsTheDefaultCommand) {
    const CliOutcome r = run({"-d", "/dev/null", "dev"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("device 0:\n"), std::string::npos);
    EXPECT_NE(r.out.find("device 1:\n"), std::string::npos);
}

TEST_F(CliRun, ShowById) {
    const CliOutcome r = run({"-d", "/dev/null", "-j", "dev", "show", "1"});
    EXPECT_EQ(r.code, 0) << r.err;
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["devices"].size(), 1U);
    EXPECT_EQ(doc["devices"][0]["device"], 1);
    EXPECT_EQ(doc["devices"][0]["bdf"], "0000:c2:00.0");
}

TEST_F(CliRun, ShowByBdfPretty) {
    const CliOutcome r = run({"-d", "/dev/null", "-p", "dev", "show", "C2:00.0"});
    EXPECT_EQ(r.code, 0) << r.err;
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["devices"].size(), 1U);
    EXPECT_EQ(doc["devices"][0]["device"], 1);
    EXPECT_NE(r.out.find('\n'), r.out.size() - 1); // multi-line
}

TEST_F(CliRun, ShowAllJsonMatchesLibrary) {
    const CliOutcome r = run({"-d", "/dev/null", "-j", "dev", "show", "all"});
    EXPECT_EQ(r.code, 0) << r.err;
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["devices"].size(), 2U);
    Json first = doc["devices"][0];
    EXPECT_TRUE(first["identity"]["drm_card"].is_null()); // dev show adds it (identity.hpp)
    first.erase("identity");
    EXPECT_EQ(first["recovery"], "none"); // dev show adds it (RECOVERY_PLAN)
    first.erase("recovery");
    EXPECT_EQ(first["gpus"].size(), 1U); // dev show adds it (gpu_table())
    first.erase("gpus");
    EXPECT_EQ(first["driver"]["provider"], "amdx_sim"); // and these (QUERY_FIRMWARE)
    EXPECT_EQ(first["firmware"][0]["name"], "smu");
    first.erase("driver");
    first.erase("firmware");
    EXPECT_EQ(first, amdx::cli::info_to_json(fixed_info()));
}

// `dev firmware`: the driver's and the firmware's versions, fw_version in
// hex in text; a provider without versions is a note, not a failure.
TEST_F(CliRun, DevFirmwareShowsDriverAndFirmwareVersions) {
    CliOutcome r = run({"-d", "/dev/null", "-j", "dev", "firmware", "0"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(
        Json::parse(r.out)["devices"][0],
        Json::parse(R"({"device":0,"bdf":"0000:c1:00.0",)"
                    R"("driver":{"amdx":"0.1.0","provider":"amdx_sim","provider_version":"0.1.0"},)"
                    R"("firmware":[{"name":"smu","instance":0,"fw_version":5599488,"feature":0},)"
                    R"({"name":"psp_sos","instance":0,"fw_version":3539003,"feature":0},)"
                    R"({"name":"mec","instance":0,"fw_version":153,"feature":50},)"
                    R"({"name":"sdma","instance":1,"fw_version":21,"feature":60}]})"));
    r = run({"-d", "/dev/null", "dev", "firmware", "0"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("driver"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("0x557100"), std::string::npos) << r.out;
    kernel.firmware.reset();
    r = run({"-d", "/dev/null", "-j", "dev", "firmware"});
    EXPECT_EQ(r.code, 0) << r.err;
    const Json none = Json::parse(r.out)["devices"];
    ASSERT_EQ(none.size(), 2U);
    EXPECT_TRUE(none[1]["firmware"].is_null());
    EXPECT_EQ(none[1]["note"], "the device's provider reports no firmware versions");
    r = run({"-d", "/dev/null", "-j", "dev", "show", "0"});
    EXPECT_TRUE(Json::parse(r.out)["devices"][0]["driver"].is_null());
    kernel.firmware_entry_size = 4; // a malformed answer is an error
    kernel.firmware = FakeKernel::make_firmware();
    r = run({"-d", "/dev/null", "dev", "firmware", "0"});
    EXPECT_EQ(r.code, amdx::cli::kExitError);
}

TEST_F(CliRun, NoSuchDevice) {
    const CliOutcome r = run({"-d", "/dev/null", "dev", "show", "7"});
    EXPECT_EQ(r.code, amdx::cli::kExitNoDevice);
    expect_one_error_line(r, "amdx: no such device: 7 (see 'amdx dev list')");
}

TEST_F(CliRun, DeviceRemovedWhileShowingAll) {
    kernel.fail_query = AMDX_QUERY_DEVICE_INFO;
    kernel.fail_errno = ENODEV;
    const CliOutcome all = run({"-d", "/dev/null", "-j", "dev", "show"});
    EXPECT_EQ(all.code, 0) << all.err;
    EXPECT_EQ(all.out, "{\"schema_version\":2,\"devices\":[]}\n");
    const CliOutcome one = run({"-d", "/dev/null", "dev", "show", "0"});
    EXPECT_EQ(one.code, amdx::cli::kExitNoDevice);
    expect_one_error_line(one, "amdx: no such device: 0 (it went away)");
}

TEST_F(CliRun, InvalidSelectorIsUsageError) {
    const CliOutcome r = run({"-d", "/dev/null", "dev", "show", "gpu0"});
    EXPECT_EQ(r.code, 2);
    expect_one_error_line(r, "amdx: invalid device 'gpu0' (expected an id, a PCI address, "
                             "serial:SERIAL, gpu:INDEX, GPU-UUID, 'all' or a comma-separated "
                             "list of them) (see 'amdx dev show --help')");
}

TEST_F(CliRun, ModuleNotLoaded) {
    const CliOutcome r = run({"-d", "/nonexistent/amdx", "dev", "list"});
    EXPECT_EQ(r.code, amdx::cli::kExitNoModule);
    expect_one_error_line(r, "amdx: /nonexistent/amdx: module not loaded, load it with modprobe "
                             "amdx (ENOENT: No such file or directory)");
    // JSON output changes nothing: the error is one line on stderr.
    const CliOutcome j = run({"-j", "-d", "/nonexistent/amdx", "dev", "show"});
    EXPECT_EQ(j.code, amdx::cli::kExitNoModule);
    expect_one_error_line(j, "amdx: /nonexistent/amdx: module not loaded, load it with modprobe "
                             "amdx (ENOENT: No such file or directory)");
}

TEST_F(CliRun, NotAnAmdxNode) {
    kernel.fail_query = AMDX_QUERY_CAPS;
    kernel.fail_errno = ENOTTY;
    const CliOutcome r = run({"-d", "/dev/null", "dev", "list"});
    EXPECT_EQ(r.code, amdx::cli::kExitNoModule);
    expect_one_error_line(
        r, "amdx: /dev/null: not an amdx control node (ENOTTY: Inappropriate ioctl for device)");
}

TEST_F(CliRun, PermissionDenied) {
    kernel.fail_query = AMDX_QUERY_DEVICES;
    kernel.fail_errno = EPERM;
    const CliOutcome r = run({"-d", "/dev/null", "dev", "list"});
    EXPECT_EQ(r.code, amdx::cli::kExitPermission);
    expect_one_error_line(r, "amdx: permission denied (EPERM: Operation not permitted)");
}

TEST_F(CliRun, NewerMajorVersionIsRefused) {
    kernel.caps.version_major = AMDX_UAPI_VERSION_MAJOR + 1;
    kernel.caps.version_minor = 3;
    const CliOutcome r = run({"-d", "/dev/null", "dev", "list"});
    EXPECT_EQ(r.code, amdx::cli::kExitNotSupported);
    expect_one_error_line(
        r, "amdx: kernel amdx uapi " + std::to_string(AMDX_UAPI_VERSION_MAJOR + 1) +
               ".3 is not supported (amdx speaks " + std::to_string(AMDX_UAPI_VERSION_MAJOR) +
               ".x; install the matching amdx tools)");
}

// Numbers outside an option's range are usage errors found at parse time:
// exit 2, one line, nothing opened (a negative --count once ran forever).
TEST_F(CliRun, OutOfRangeNumbersAreUsageErrors) {
    for (const auto& args : std::vector<std::vector<const char*>>{
             {"monitor", "--count", "-1"},
             {"monitor", "--count", "99999999999"},
             {"monitor", "--timeout-ms", "-2"},
             {"monitor", "--ring-size", "3"},
             {"monitor", "--ring-size", "8"},
             {"monitor", "--ring-size", "131072"},
             {"exporter", "--iterations", "-1"},
             {"exporter", "--interval", "-1"},
             {"health", "--ue-age", "-5"},
             {"ras", "policy", "set", "0", "--ce-page-threshold", "0"},
             {"ras", "policy", "set", "0", "--ce-page-threshold", "65536"},
             {"ras", "policy", "set", "0", "--ce-window-s", "2592001"},
             {"ras", "policy", "set", "0", "--part-reset-limit", "101"},
             {"ras", "policy", "set", "0", "--part-reset-window-s", "86401"},
         }) {
        kernel.calls.clear();
        std::vector<const char*> argv{"amdx", "-d", "/dev/null"};
        argv.insert(argv.end(), args.begin(), args.end());
        std::ostringstream out, err;
        const int code = amdx::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
        const std::string e = err.str();
        EXPECT_EQ(code, amdx::cli::kExitUsage) << args.back() << ": " << e;
        EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 1) << e;
        EXPECT_EQ(e.rfind("amdx: ", 0), 0U) << e;
        EXPECT_TRUE(kernel.calls.empty()) << args.back();
    }
    // the limits themselves are accepted
    const CliOutcome ok = run(
        {"-d", "/dev/null", "monitor", "--count", "1", "--timeout-ms", "0", "--ring-size", "16"});
    EXPECT_EQ(ok.code, 0) << ok.err;
}

// gpu:INDEX counts partitions: without KFD, device by device in list
// order; one past the last is no device (exit 4) and says how many there are.
TEST_F(CliRun, GpuIndexSelectsThePartitionsDevice) {
    ASSERT_EQ(run({"-d", "/dev/null", "partition", "set", "0", "--compute", "cpx"}).code, 0);
    char root[] = "/tmp/amdx_gpus.XXXXXX"; // no KFD topology below it
    ASSERT_NE(::mkdtemp(root), nullptr);
    CliOutcome r = run({"-d", "/dev/null", "--sysfs-root", root, "-j", "dev", "list", "gpu:7"});
    EXPECT_EQ(r.code, 2); // `dev list` takes no DEV
    for (const auto& [sel, dev] :
         std::vector<std::pair<const char*, int>>{{"gpu:0", 0}, {"gpu:7", 0}, {"gpu:8", 1}}) {
        r = run({"-d", "/dev/null", "--sysfs-root", root, "-j", "dev", "show", sel});
        ASSERT_EQ(r.code, 0) << sel << ": " << r.err;
        const Json devs = Json::parse(r.out)["devices"];
        ASSERT_EQ(devs.size(), 1U) << sel;
        EXPECT_EQ(devs[0]["device"], dev) << sel;
    }
    // Wherever a command takes one device.
    r = run({"-d", "/dev/null", "--sysfs-root", root, "-j", "partition", "show", "gpu:8"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(Json::parse(r.out)["devices"][0]["device"], 1);
    // health takes it too (it reads the devices its own way).
    r = run({"-d", "/dev/null", "--sysfs-root", root, "-j", "health", "gpu:8", "--journal",
             "/dev/null"});
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    ASSERT_EQ(Json::parse(r.out)["devices"].size(), 1U) << r.out;
    EXPECT_EQ(Json::parse(r.out)["devices"][0]["device"], 1);
    r = run({"-d", "/dev/null", "--sysfs-root", root, "ras", "show", "gpu:9"});
    EXPECT_EQ(r.code, 4);
    expect_one_error_line(r, "amdx: no such device: gpu:9 (the node has 9 GPUs: gpu:0 .. gpu:8)");
    // `dev show` names each device's GPUs with the same indexes: device 0's
    // eight CPX partitions gpu:0 .. gpu:7, device 1 gpu:8; no KFD, no UUID.
    r = run({"-d", "/dev/null", "--sysfs-root", root, "-j", "dev", "show"});
    ASSERT_EQ(r.code, 0) << r.err;
    Json devs = Json::parse(r.out)["devices"];
    ASSERT_EQ(devs.size(), 2U);
    ASSERT_EQ(devs[0]["gpus"].size(), 8U) << r.out;
    for (std::uint32_t p = 0; p < 8; ++p)
        EXPECT_EQ(devs[0]["gpus"][p], (Json{{"index", p}, {"partition", p}, {"uuid", nullptr}}));
    EXPECT_EQ(devs[1]["gpus"], Json::parse(R"([{"index":8,"partition":0,"uuid":null}])"));
    // The text view: a table in each device's block; -o picks its columns.
    r = run(
        {"-d", "/dev/null", "--sysfs-root", root, "-o", "device,index,uuid", "dev", "show", "1"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "device 1:\n  memory_partitions:\n    INDEX\n        0\n"
                     "  firmware:\n    NAME    INSTANCE FW_VERSION FEATURE\n"
                     "    smu            0   0x557100       0\n"
                     "    psp_sos        0   0x36003b       0\n"
                     "    mec            0       0x99      50\n"
                     "    sdma           1       0x15      60\n"
                     "  gpus:\n    INDEX UUID\n        8 n/a\n");
    EXPECT_EQ(std::system(("rm -rf " + std::string(root)).c_str()), 0);
}

// With a KFD topology, ROCr's order (the GPU nodes by node number) and its
// UUIDs (the nodes' unique_id); a UUID two devices share is ambiguous
// (exit 2), one no node has is no device (exit 4).
TEST_F(CliRun, GpuIndexAndUuidFollowTheKfdTopology) {
    char root[] = "/tmp/amdx_kfd.XXXXXX";
    ASSERT_NE(::mkdtemp(root), nullptr);
    const std::string nodes = std::string(root) + "/class/kfd/kfd/topology/nodes/";
    // node 0 the CPU, 1 device 1 (c2:00.0), 2 device 0 (c1:00.0).
    const auto node = [&nodes](int n, int gpu_id, std::uint32_t location, std::uint64_t unique_id) {
        const std::string dir = nodes + std::to_string(n);
        std::filesystem::create_directories(dir);
        std::ofstream(dir + "/gpu_id") << gpu_id << "\n";
        std::ofstream(dir + "/properties") << "cpu_cores_count 0\nlocation_id " << location
                                           << "\ndomain 0\nunique_id " << unique_id << "\n";
    };
    node(0, 0, 0, 0);
    node(1, 4242, 0xc200, 0x4a7c1e0f23b5d698ULL);
    node(2, 4243, 0xc100, 0x11);
    CliOutcome r = run({"-d", "/dev/null", "--sysfs-root", root, "-j", "dev", "show", "gpu:0"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(Json::parse(r.out)["devices"][0]["device"], 1);
    r = run({"-d", "/dev/null", "--sysfs-root", root, "-j", "dev", "show",
             "GPU-0000000000000011,GPU-4A7C1E0F23B5D698"});
    ASSERT_EQ(r.code, 0) << r.err;
    const Json devs = Json::parse(r.out)["devices"];
    ASSERT_EQ(devs.size(), 2U);
    EXPECT_EQ(devs[0]["device"], 0);
    EXPECT_EQ(devs[1]["device"], 1);
    r = run({"-d", "/dev/null", "--sysfs-root", root, "ras", "show", "GPU-0000000000000012"});
    EXPECT_EQ(r.code, 4);
    expect_one_error_line(r, "amdx: no such device: GPU-0000000000000012 (no KFD node of an amdx "
                             "device has this unique_id; simulated devices have none)");
    // `dev show` says which index and UUID select each device.
    r = run({"-d", "/dev/null", "--sysfs-root", root, "-j", "dev", "show"});
    ASSERT_EQ(r.code, 0) << r.err;
    const Json shown = Json::parse(r.out)["devices"];
    ASSERT_EQ(shown.size(), 2U);
    EXPECT_EQ(shown[0]["gpus"],
              Json::parse(R"([{"index":1,"partition":0,"uuid":"GPU-0000000000000011"}])"));
    EXPECT_EQ(shown[1]["gpus"],
              Json::parse(R"([{"index":0,"partition":0,"uuid":"GPU-4a7c1e0f23b5d698"}])"));
    node(2, 4243, 0xc100, 0x4a7c1e0f23b5d698ULL);
    r = run({"-d", "/dev/null", "--sysfs-root", root, "ras", "show", "GPU-4a7c1e0f23b5d698"});
    EXPECT_EQ(r.code, 2);
    expect_one_error_line(r, "amdx: ambiguous device 'GPU-4a7c1e0f23b5d698': it names devices 0, "
                             "1 (name one by its id or PCI address)");
    EXPECT_EQ(std::system(("rm -rf " + std::string(root)).c_str()), 0);
}

// `monitor -i -c 3`: three samples, one line per partition each (device 0
// DPX: two), the header once; a CE injected before the third sample shows
// in that sample's line of the partition it hit and nowhere else.  The
// interval is not waited for: the hook stands for it.
TEST_F(CliRun, MonitorWatchViewCountsSamplesAndSeesAnInjectedCe) {
    ASSERT_EQ(run({"-d", "/dev/null", "partition", "set", "0", "--compute", "dpx"}).code, 0);
    std::vector<std::uint64_t> waits;
    amdx::cli::set_watch_wait_for_tests([&waits](std::uint64_t n) {
        waits.push_back(n);
        if (n != 2)
            return;
        const auto control = amdx::Control::open("/dev/null");
        ASSERT_TRUE(control);
        const auto device = amdx::Device::open(*control, 0);
        ASSERT_TRUE(device);
        // The last XCC: partition 1 of DPX.
        EXPECT_TRUE(device->ras_inject(
            {.block = amdx::RasBlock::gfx, .type = amdx::RasType::ce, .instance = 7, .count = 3}));
    });
    CliOutcome r = run({"-d", "/dev/null", "--csv", "-o", "device,partition,compute,state,ce,ue",
                        "monitor", "-i", "1", "-c", "3", "0"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(waits, (std::vector<std::uint64_t>{1, 2}));
    EXPECT_EQ(r.out, "device,partition,compute,state,ce,ue\n"
                     "0,0,DPX,online,0,0\n0,1,DPX,online,0,0\n"
                     "0,0,DPX,online,0,0\n0,1,DPX,online,0,0\n"
                     "0,0,DPX,online,0,0\n0,1,DPX,online,3,0\n");
    // JSON lines: one object per partition and sample, all devices.
    r = run({"-d", "/dev/null", "-j", "monitor", "-i", "0.5", "--count", "2"});
    EXPECT_EQ(r.code, 0) << r.err;
    std::istringstream lines(r.out);
    std::vector<Json> objs;
    for (std::string l; std::getline(lines, l);)
        objs.push_back(Json::parse(l));
    ASSERT_EQ(objs.size(), 2U * 3U) << r.out; // device 0: 2, device 1: 1
    EXPECT_EQ(objs[1]["ce"], 3);
    EXPECT_EQ(objs[2]["device"], 1);
    EXPECT_EQ(objs[2]["recovery"], "none");
    EXPECT_TRUE(objs[0]["time"].get<std::string>().ends_with("Z"));
    // Text: a table, its header once.
    r = run({"-d", "/dev/null", "-o", "device,partition,ce", "monitor", "-i", "1", "-c", "2", "1"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "DEVICE PARTITION CE\n     1         0  0\n     1         0  0\n");
    amdx::cli::set_watch_wait_for_tests({});
    // Event options with -i, an interval out of range, --csv of the event
    // stream: usage errors.
    r = run({"-d", "/dev/null", "monitor", "-i", "1", "--kinds", "error"});
    EXPECT_EQ(r.code, 2);
    expect_one_error_line(
        r, "amdx: monitor: --kinds follows events; -i watches counters (give one or the other)");
    EXPECT_EQ(run({"-d", "/dev/null", "monitor", "-i", "0"}).code, 2);
    EXPECT_EQ(run({"-d", "/dev/null", "--csv", "monitor", "--count", "1"}).code, 2);
}

// `monitor -i` over all devices lists them again each interval: a device
// created between two samples has lines from the next one on, one removed
// has none, and stderr says which came and went.  Named devices are only
// ever those named.  The hook stands for the interval and changes the
// fake kernel's device list.
TEST_F(CliRun, MonitorWatchViewFollowsDevicesThatComeAndGo) {
    amdx::cli::set_watch_wait_for_tests([this](std::uint64_t n) {
        if (n == 1)
            kernel.add_device(2);
        if (n == 2)
            kernel.devices.erase(kernel.devices.begin()); // device 0
    });
    CliOutcome r = run({"-d", "/dev/null", "--csv", "-o", "device,partition,state", "monitor", "-i",
                        "1", "-c", "3"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "device,partition,state\n"
                     "0,0,online\n1,0,online\n"
                     "0,0,online\n1,0,online\n2,0,online\n"
                     "1,0,online\n2,0,online\n");
    EXPECT_EQ(r.err, "monitor: following device 2 (0000:c3:00.0), new\n"
                     "monitor: device 0 (0000:c1:00.0) went away\n");
    // Named: device 2 (back again) is not one of them; 0 going is no news.
    kernel.devices.erase(kernel.devices.begin() + 1); // device 2
    kernel.devices.insert(kernel.devices.begin(), FakeKernel::make_device(0));
    amdx::cli::set_watch_wait_for_tests([this](std::uint64_t n) {
        if (n == 1)
            kernel.add_device(2);
        if (n == 2)
            kernel.devices.erase(kernel.devices.begin()); // device 0
    });
    r = run({"-d", "/dev/null", "--csv", "-o", "device", "monitor", "-i", "1", "-c", "3", "0,1"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "device\n0\n1\n0\n1\n1\n");
    EXPECT_EQ(r.err, "");
    amdx::cli::set_watch_wait_for_tests({});
}

TEST_F(CliRun, UsageErrors) {
    const CliOutcome unknown_opt = run({"--frobnicate", "dev", "list"});
    EXPECT_EQ(unknown_opt.code, 2);
    EXPECT_EQ(std::count(unknown_opt.err.begin(), unknown_opt.err.end(), '\n'), 1);
    EXPECT_EQ(unknown_opt.err.rfind("amdx: ", 0), 0U);

    const CliOutcome no_object = run({});
    EXPECT_EQ(no_object.code, 2);
    expect_one_error_line(no_object,
                          "amdx: missing OBJECT: one of dev, hmm, partition, vf, ras, "
                          "recover, link, monitor, exporter, health, doctor, ps (see 'amdx "
                          "--help')");

    const CliOutcome bad_object = run({"bus", "list"});
    EXPECT_EQ(bad_object.code, 2);
    EXPECT_EQ(std::count(bad_object.err.begin(), bad_object.err.end(), '\n'), 1);
    EXPECT_TRUE(kernel.calls.empty()); // nothing reached the kernel
}

// Output that did not reach its file is a failure: one line naming it, exit
// 1, whatever the command (`amdx -j dev list > /dev/full` exited 0).
TEST_F(CliRun, FailedWritesToStandardOutputAreAnError) {
    for (const auto& args : std::vector<std::vector<const char*>>{
             {"-j", "dev", "list"},
             {"dev", "show", "0"},
             {"--version"},
             {"exporter", "--textfile", "-"},
             {"ras", "badpages", "0", "--export", "-"}, // said EIO, in two lines
             {"partition", "export", "--node", "n"},
             {"vf", "--help"},
         }) {
        std::vector<const char*> argv{"amdx", "-d", "/dev/null"};
        argv.insert(argv.end(), args.begin(), args.end());
        const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
        ASSERT_GE(fd, 0);
        amdx::cli::FdOutBuf full(fd);
        std::ostream out(&full);
        std::ostringstream err;
        const int code = amdx::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
        ::close(fd);
        EXPECT_EQ(code, amdx::cli::kExitError) << args.back();
        EXPECT_EQ(err.str(), "amdx: writing standard output: ENOSPC: No space left on device\n")
            << args.back();
    }
}

TEST_F(CliRun, VersionAndHelp) {
    const CliOutcome v = run({"-V", "-d", "/nonexistent/amdx"});
    EXPECT_EQ(v.code, 0);
    EXPECT_EQ(v.out.rfind("amdx ", 0), 0U);
    EXPECT_NE(v.out.find("\nlibamdx "), std::string::npos) << v.out;
    EXPECT_NE(v.out.find("\nuapi " + std::to_string(AMDX_UAPI_VERSION_MAJOR) + "." +
                         std::to_string(AMDX_UAPI_VERSION_MINOR) + " (built for)\n"),
              std::string::npos)
        << v.out;
    EXPECT_NE(v.out.find("\nmodule not loaded (/nonexistent/amdx: ENOENT"), std::string::npos)
        << v.out;
    kernel.caps.version_minor = 7; // the module's own uapi, from the caps query
    const CliOutcome loaded = run({"--version", "-d", "/dev/null"});
    EXPECT_EQ(loaded.code, 0);
    EXPECT_NE(loaded.out.find(", uapi " + std::to_string(AMDX_UAPI_VERSION_MAJOR) + ".7\n"),
              std::string::npos)
        << loaded.out;
    // The loaded module's MODULE_VERSION, from sysfs.
    const auto sys =
        std::filesystem::temp_directory_path() / ("amdx-version-" + std::to_string(::getpid()));
    std::filesystem::create_directories(sys / "module/amdx");
    std::ofstream(sys / "module/amdx/version") << "0.1.0\n";
    const std::string root = sys.string();
    const CliOutcome with_version =
        run({"--version", "-d", "/dev/null", "--sysfs-root", root.c_str()});
    std::filesystem::remove_all(sys);
    EXPECT_EQ(with_version.code, 0);
    EXPECT_NE(with_version.out.find("\nmodule amdx 0.1.0, uapi "), std::string::npos)
        << with_version.out;
    kernel.calls.clear();
    const CliOutcome h = run({"--help"});
    EXPECT_EQ(h.code, 0);
    EXPECT_NE(h.out.find("dev"), std::string::npos);
    EXPECT_TRUE(kernel.calls.empty());
}

// ---- hmm show / hmm demo

TEST(Render, HmmRangesJsonIsTheContract) {
    amdx::HmmRanges r;
    r.pid = 42;
    r.total.pages_in = 2;
    r.ranges.push_back(amdx::HmmRangeInfo{.start = 4096,
                                          .size = 8192,
                                          .preferred_loc = amdx::kHmmLocSystem,
                                          .granularity = 9,
                                          .flags = AMDX_HMM_F_PIN | (1U << 7),
                                          .access = 0b101,
                                          .resident_pages = 1,
                                          .stats = {}});
    EXPECT_EQ(
        amdx::cli::hmm_ranges_to_json(r).dump(),
        R"({"pid":42,"total":{"pages_in":2,"pages_out":0,"cpu_faults":0,"evictions":0,)"
        R"("bytes_in":0,"bytes_out":0,"ns_in":0,"ns_out":0},"ranges":[{"start":4096,)"
        R"("size":8192,"preferred_loc":"system","granularity":9,"flags":["pin","unknown"],)"
        R"("access":[0,2],"resident_pages":1,"stats":{"pages_in":0,"pages_out":0,)"
        R"("cpu_faults":0,"evictions":0,"bytes_in":0,"bytes_out":0,"ns_in":0,"ns_out":0}}]})");
    EXPECT_EQ(amdx::cli::skip_reasons_to_json(AMDX_HMM_SKIP_NO_MEMORY | AMDX_HMM_SKIP_OTHER_DEVICE),
              Json::parse(R"(["no_memory","other_device"])"));
    EXPECT_EQ(amdx::cli::hmm_loc_name(3), "3");
}

TEST(Args, ParseSize) {
    EXPECT_EQ(amdx::cli::parse_size("4096"), 4096U);
    EXPECT_EQ(amdx::cli::parse_size("64K"), 64U << 10);
    EXPECT_EQ(amdx::cli::parse_size("8m"), 8U << 20);
    EXPECT_EQ(amdx::cli::parse_size("1GiB"), 1ULL << 30);
    for (const char* bad : {"", "M", "-1", "1T", "1.5M", "1 M", "99999999999999999999G"})
        EXPECT_FALSE(amdx::cli::parse_size(bad)) << bad;
}

TEST(Errors, HmmMessages) {
    amdx::Caps caps;
    EXPECT_EQ(amdx::cli::hmm_unsupported(caps),
              "HMM migration not supported by this kernel (no CONFIG_DEVICE_PRIVATE)");
    caps.bits = AMDX_CAP_DEVICE_PRIVATE;
    EXPECT_EQ(amdx::cli::hmm_unsupported(caps),
              "HMM migration not supported by this kernel (no CONFIG_HMM_MIRROR)");
    EXPECT_EQ(amdx::cli::hmm_error("migration", err(EBADF)),
              "migration: the device fd belongs to another process (EBADF: Bad file descriptor)");
    EXPECT_EQ(amdx::cli::hmm_error("migration", err(EPERM)),
              "permission denied (EPERM: Operation not permitted)");
}

class HmmCli : public CliRun {
  protected:
    void SetUp() override {
        CliRun::SetUp();
        kernel.caps.caps |= AMDX_CAP_DEVICE_PRIVATE | AMDX_CAP_HMM_MIRROR | AMDX_CAP_HMM_MIGRATE;
        kernel.devices[1].flags = 0;
    }
};

TEST_F(HmmCli, ShowJson) {
    const CliOutcome r = run({"-d", "/dev/null", "-j", "hmm", "show"});
    EXPECT_EQ(r.code, 0) << r.err;
    const Json doc = Json::parse(r.out);
    EXPECT_EQ(doc["caps"], Json::parse(R"({"device_private":true,"hmm_mirror":true,)"
                                       R"("hmm_migrate":true})"));
    ASSERT_EQ(doc["devices"].size(), 2U);
    const Json& d0 = doc["devices"][0];
    EXPECT_EQ(d0["hmm"], true);
    EXPECT_EQ(d0["memory_partitions"][0]["free"], 190ULL << 30);
    EXPECT_EQ(d0["process"]["pid"], ::getpid());
    EXPECT_EQ(d0["process"]["ranges"], Json::array());
    EXPECT_EQ(doc["devices"][1]["hmm"], false);
    // Ranges are asked of device 0's fd only: device 1 cannot have any.
    const auto asks = std::count_if(kernel.calls.begin(), kernel.calls.end(), [](const auto& c) {
        return c.query == AMDX_QUERY_HMM_RANGES && c.request == AMDX_IOC_QUERY;
    });
    EXPECT_EQ(asks, 2); // the size, then the list
}

TEST_F(HmmCli, ShowWithoutHmmKernelStillSucceeds) {
    kernel.caps.caps = AMDX_CAP_DEVICE_QUERY;
    const CliOutcome r = run({"-d", "/dev/null", "hmm", "show", "0"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("caps:\n"
                          "  device_private  false\n"
                          "  hmm_mirror      false\n"
                          "  hmm_migrate     false\n",
                          0),
              0U)
        << r.out;
    EXPECT_NE(r.out.find("    ranges  none\n"), std::string::npos) << r.out;
}

TEST_F(HmmCli, ShowForeignFdIsOneLine) {
    kernel.hmm_foreign = true;
    const CliOutcome r = run({"-d", "/dev/null", "hmm", "show", "0"});
    EXPECT_EQ(r.code, 1);
    expect_one_error_line(r, "amdx: device 0 HMM ranges: the device fd belongs to another "
                             "process (EBADF: Bad file descriptor)");
}

TEST_F(HmmCli, DemoMigratesFaultsBackAndVerifies) {
    const CliOutcome r = run({"-d", "/dev/null", "-j", "hmm", "demo", "size=64K"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(r.err.empty());
    const Json doc = Json::parse(r.out);
    const std::uint64_t pages = (64U << 10) / static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    EXPECT_EQ(doc["demo"]["device"], 0);
    EXPECT_EQ(doc["demo"]["pages"], pages);
    EXPECT_EQ(doc["migrate"]["moved"], pages);
    EXPECT_EQ(doc["after_migrate"]["ranges"][0]["resident_pages"], pages);
    EXPECT_EQ(doc["after_migrate"]["ranges"][0]["preferred_loc"], "0");
    EXPECT_EQ(doc["after_cpu_touch"]["total"]["bytes_in"], 64U << 10);
    EXPECT_EQ(doc["verify"]["ok"], true);
    ASSERT_EQ(kernel.hmm_attrs.size(), 1U);
    EXPECT_EQ(kernel.hmm_attrs[0].valid, AMDX_HMM_ATTR_PREFERRED_LOC);
    EXPECT_EQ(kernel.hmm_attrs[0].size, 64U << 10);
    ASSERT_EQ(kernel.hmm_migrates.size(), 1U);
    EXPECT_EQ(kernel.hmm_migrates[0].dest, 0U);
    EXPECT_EQ(kernel.hmm_migrates[0].start, kernel.hmm_attrs[0].start);
}

TEST_F(HmmCli, DemoTextPrintsEachStage) {
    const CliOutcome r = run({"-d", "/dev/null", "hmm", "demo", "0", "size=16K", "partition=0"});
    EXPECT_EQ(r.code, 0) << r.err;
    for (const char* line :
         {"demo:\n  device     0\n", "\nmigrate:\n  moved  ", "\nafter_migrate:\n",
          "\ncpu_touch:\n  pages  ", "\nafter_cpu_touch:\n", "\nverify:\n  ok         true\n"})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << " in\n" << r.out;
}

TEST_F(HmmCli, DemoDetectsLostData) {
    kernel.hmm_corrupt_on_migrate = true;
    const CliOutcome r = run({"-d", "/dev/null", "-j", "hmm", "demo", "size=16K"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(Json::parse(r.out)["verify"]["ok"], false); // the report is still printed
    EXPECT_EQ(r.err, "amdx: hmm demo: data lost: 1 of 2048 words differ, the first at offset 0\n");
}

TEST_F(HmmCli, DemoFailsWhenNothingMoved) {
    amdx_hmm_migrate none{};
    none.skipped = 4;
    none.skip_reasons = AMDX_HMM_SKIP_NO_MEMORY;
    kernel.hmm_migrate_result = none;
    const CliOutcome r = run({"-d", "/dev/null", "-j", "hmm", "demo", "size=16K"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "amdx: hmm demo: no page reached partition 0 (skipped 4: no_memory)\n");
}

TEST_F(HmmCli, DemoRefusals) {
    kernel.caps.caps = AMDX_CAP_DEVICE_QUERY;
    const CliOutcome unsupported = run({"-d", "/dev/null", "hmm", "demo"});
    EXPECT_EQ(unsupported.code, amdx::cli::kExitNotSupported); // cli.rst's exit status 7
    expect_one_error_line(unsupported, "amdx: HMM migration not supported by this kernel "
                                       "(no CONFIG_DEVICE_PRIVATE)");
    kernel.caps.caps |= AMDX_CAP_DEVICE_PRIVATE | AMDX_CAP_HMM_MIRROR | AMDX_CAP_HMM_MIGRATE;
    expect_one_error_line(run({"-d", "/dev/null", "hmm", "demo", "1"}),
                          "amdx: device 1: VRAM is not device-private memory HMM can migrate to");
    expect_one_error_line(run({"-d", "/dev/null", "hmm", "demo", "partition=2"}),
                          "amdx: device 0 has no memory partition 2 (it has 1)");
    expect_one_error_line(run({"-d", "/dev/null", "hmm", "demo", "size=256G"}),
                          "amdx: device 0 partition 0 has 190 GiB free, the demo needs 256 GiB "
                          "(pass a smaller size=)");
    expect_one_error_line(run({"-d", "/dev/null", "hmm", "demo", "7"}),
                          "amdx: no such device: 7 (see 'amdx dev list')");
    EXPECT_TRUE(kernel.hmm_attrs.empty());
}

TEST_F(HmmCli, DemoUsageErrors) {
    for (auto args : {std::vector<const char*>{"hmm", "demo", "all"},
                      {"hmm", "demo", "size=100"},
                      {"hmm", "demo", "size=0"},
                      {"hmm", "demo", "partition=x"},
                      {"hmm", "demo", "colour=red"},
                      {"hmm", "demo", "0", "1"}}) {
        std::vector<const char*> argv{"amdx"};
        argv.insert(argv.end(), args.begin(), args.end());
        std::ostringstream out;
        std::ostringstream err;
        EXPECT_EQ(amdx::cli::run(static_cast<int>(argv.size()), argv.data(), out, err), 2)
            << args.back();
        const std::string msg = err.str();
        EXPECT_EQ(std::count(msg.begin(), msg.end(), '\n'), 1) << msg;
    }
    EXPECT_TRUE(kernel.calls.empty());
}

} // namespace
