// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Fabric links against the fake kernel: Device::links() (the two-call
// protocol on the device fd, entries stepped by entry_size) and `amdx link
// show` (its JSON rows, which links a DEV selects, the error line).
#include <fcntl.h>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <amdx/device.hpp>

#include "cli.hpp"
#include "fake_kernel.hpp"

namespace {

using amdx::Control;
using amdx::Device;
using amdx::LinkContain;
using amdx::LinkKind;
using amdx::LinkState;
using amdx::cli::Json;
using amdx::test::FakeKernel;

amdx_link_info make_link(std::uint32_t link, std::uint32_t a, std::uint32_t b) {
    amdx_link_info l{};
    l.link = link;
    l.kind = AMDX_LINK_KIND_XGMI;
    l.device[0] = a;
    l.device[1] = b;
    l.port[0] = static_cast<std::uint8_t>(b);
    l.port[1] = static_cast<std::uint8_t>(a);
    l.width_max = 16;
    l.width = 16;
    l.hops = 1;
    l.end[0] = l.end[1] = AMDX_LINK_END_DEVICE;
    l.fabric_id[0] = static_cast<std::uint16_t>(a);
    l.fabric_id[1] = static_cast<std::uint16_t>(b);
    return l;
}

/// A link of a scale-up pod: accelerator @acc (device @dev of this host,
/// or UINT32_MAX for a remote one) of domain @domain to the switch of
/// plane @plane, as the kernel lists it.
amdx_link_info make_pod_link(std::uint32_t link, std::uint32_t dev, std::uint16_t acc,
                             std::uint8_t domain, std::uint8_t plane) {
    amdx_link_info l{};
    l.link = link;
    l.kind = AMDX_LINK_KIND_SCALEUP;
    l.device[0] = dev;
    l.device[1] = UINT32_MAX;
    l.port[0] = plane;
    l.port[1] = static_cast<std::uint8_t>(acc);
    l.end[0] = dev == UINT32_MAX ? AMDX_LINK_END_REMOTE : AMDX_LINK_END_DEVICE;
    l.end[1] = AMDX_LINK_END_SWITCH;
    l.domain[0] = domain;
    l.fabric_id[0] = acc;
    l.fabric_id[1] = plane;
    l.width_max = 4;
    l.width = 4;
    l.hops = 1;
    return l;
}

class LinkTest : public ::testing::Test {
  protected:
    void SetUp() override {
        for (std::uint32_t id = 0; id < 4; ++id)
            kernel.add_device(id);
        for (std::uint32_t id = 0; id < 3; ++id) // device 3 is in no hive
            kernel.devices[id].hive_id = 9;
        kernel.links = {make_link(0, 0, 1), make_link(1, 0, 2), make_link(2, 1, 2)};
        auto& storm = kernel.links[2];
        storm.state = AMDX_LINK_STATE_REPLAY;
        storm.contain = AMDX_LINK_CONTAIN_MOVE;
        storm.hops = 2;
        storm.flags = AMDX_LINK_F_ROUTE_DEGRADED;
        storm.width = 8;
        storm.ce = 5;
        storm.ue = 1;
        storm.replays = 4096;
        storm.width_changes = 1;
        storm.downs = 0;
        storm.state_changes = 2;
        storm.time_ns[AMDX_LINK_STATE_REPLAY] = 1500;
    }

    struct Outcome {
        int code = -1;
        std::string out;
        std::string err;
    };

    static Outcome run(const std::vector<std::string>& args) {
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

    [[nodiscard]] Device open(std::uint32_t id) const {
        auto dev = Device::open(control, id);
        EXPECT_TRUE(dev) << dev.error().message();
        return std::move(*dev);
    }

    FakeKernel kernel;
    Control control = Control::adopt(amdx::UniqueFd(::open("/dev/null", O_RDWR | O_CLOEXEC)));
};

TEST_F(LinkTest, QueryAsksSizeThenFetchesTheHiveOnTheDeviceFd) {
    const Device device = open(2);
    kernel.calls.clear();
    const auto links = device.links();
    ASSERT_TRUE(links) << links.error().message();
    EXPECT_EQ(links->hive_id, 9U);
    ASSERT_EQ(links->links.size(), 3U);
    const auto& l = links->links[2];
    EXPECT_EQ(l.link, 2U);
    EXPECT_EQ(l.kind, LinkKind::xgmi);
    EXPECT_EQ(l.device[0], 1U);
    EXPECT_EQ(l.device[1], 2U);
    EXPECT_EQ(l.port[0], 2U);
    EXPECT_EQ(l.port[1], 1U);
    EXPECT_EQ(l.state, LinkState::replay);
    EXPECT_EQ(l.contain, LinkContain::move);
    EXPECT_EQ(l.hops, 2U);
    EXPECT_TRUE(l.route_degraded());
    EXPECT_EQ(l.width, 8U);
    EXPECT_EQ(l.width_max, 16U);
    EXPECT_EQ(l.replays, 4096U);
    EXPECT_EQ(l.time_ns[AMDX_LINK_STATE_REPLAY], 1500U);
    ASSERT_EQ(kernel.calls.size(), 2U); // size, fetch
    EXPECT_EQ(kernel.calls[0].query, static_cast<std::uint32_t>(AMDX_QUERY_LINKS));
    EXPECT_EQ(kernel.calls[0].size, 0U);
    EXPECT_EQ(kernel.calls[1].size, sizeof(amdx_query_links) + 3 * sizeof(amdx_link_info));
    EXPECT_EQ(kernel.calls[1].fd, device.fd().get());
}

TEST_F(LinkTest, OutsideAHiveThereAreNoLinks) {
    const auto links = open(3).links();
    ASSERT_TRUE(links) << links.error().message();
    EXPECT_EQ(links->hive_id, 0U);
    EXPECT_TRUE(links->links.empty());
}

TEST_F(LinkTest, QueryStepsByEntrySize) {
    static_assert(sizeof(amdx_link_info) == AMDX_LINK_INFO_SIZE_VER0);
    const Device device = open(0);
    kernel.link_entry_size = sizeof(amdx_link_info) + 24; // a newer kernel
    const auto links = device.links();
    ASSERT_TRUE(links) << links.error().message();
    ASSERT_EQ(links->links.size(), 3U);
    for (std::uint32_t i = 0; i < 3; ++i)
        EXPECT_EQ(links->links[i].link, i);
    EXPECT_EQ(links->links[2].replays, 4096U);
    kernel.link_entry_size = AMDX_LINK_INFO_SIZE_VER0 - 8; // below the first version
    const auto bad = device.links();
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error(), std::errc::protocol_error);
}

TEST_F(LinkTest, NamesOfTheConstants) {
    EXPECT_EQ(amdx::to_string(LinkState::parked), "parked");
    EXPECT_EQ(amdx::to_string(static_cast<LinkState>(AMDX_LINK_STATE_COUNT)), "unknown");
    EXPECT_EQ(amdx::to_string(LinkKind::scaleup), "scaleup");
    EXPECT_EQ(amdx::to_string(LinkContain::avoid), "avoid");
    EXPECT_EQ(amdx::to_string(static_cast<LinkContain>(AMDX_LINK_CONTAIN_COUNT)), "unknown");
}

TEST_F(LinkTest, ShowListsEachLinkOnceWithBothEnds) {
    const auto r = run({"-j", "link", "show"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["links"].size(), 3U); // three devices of hive 9 list them, once
    const Json& storm = doc["links"][2];
    EXPECT_EQ(storm, Json::parse(R"({"hive_id":"9","link":2,"kind":"xgmi","device_a":1,
        "device_b":2,"port_a":2,"port_b":1,"end_a":"device","end_b":"device",
        "fabric_id_a":1,"fabric_id_b":2,"domain_a":null,"domain_b":null,
        "vpod_a":null,"vpod_b":null,"state":"replay","contain":"move","hops":2,
        "route_degraded":true,"width":8,"width_max":16,"ce":5,"ue":1,"replays":4096,
        "width_changes":1,"downs":0,"state_changes":2,
        "time_ns":{"up":0,"degraded":0,"replay":1500,"down":0,"parked":0}})"));
    EXPECT_EQ(doc["links"][0]["state"], "up");
    EXPECT_EQ(doc["links"][0]["route_degraded"], false);
}

TEST_F(LinkTest, ShowOfADeviceListsOnlyItsLinks) {
    const auto r = run({"-j", "link", "show", "1"});
    ASSERT_EQ(r.code, 0) << r.err;
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["links"].size(), 2U);
    EXPECT_EQ(doc["links"][0]["link"], 0);
    EXPECT_EQ(doc["links"][1]["link"], 2);
    const auto lone = run({"-j", "link", "show", "3"});
    ASSERT_EQ(lone.code, 0) << lone.err;
    EXPECT_EQ(Json::parse(lone.out)["links"], Json::array());
}

TEST_F(LinkTest, ShowTableHasOneRowPerLink) {
    const auto r = run({"link", "show", "-o", "link,device_a,device_b,state,contain,hops"});
    ASSERT_EQ(r.code, 0) << r.err;
    std::istringstream lines(r.out);
    std::vector<std::string> rows;
    for (std::string line; std::getline(lines, line);)
        rows.push_back(line);
    ASSERT_EQ(rows.size(), 4U) << r.out; // a header and three links
    EXPECT_NE(rows[0].find("DEVICE_A"), std::string::npos) << r.out;
    EXPECT_NE(rows[3].find("replay"), std::string::npos) << r.out;
    EXPECT_NE(rows[3].find("move"), std::string::npos) << r.out;
}

TEST_F(LinkTest, MatrixIsOneTablePerHive) {
    const auto r = run({"-j", "link", "show", "--matrix"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["hives"].size(), 1U) << r.out; // device 3 is in no hive
    EXPECT_EQ(doc["hives"][0], Json::parse(R"({"hive_id":"9","links":3,"links_up":2,
        "lanes":40,"lanes_max":48,"matrix":[
        {"device":0,"0":"X","1":"up","2":"up"},
        {"device":1,"0":"up","1":"X","2":"replay/x8/2h"},
        {"device":2,"0":"up","1":"replay/x8/2h","2":"X"}]})"));
}

TEST_F(LinkTest, MatrixOfADeviceIsItsRowWithEveryColumn) {
    const auto r = run({"-j", "link", "show", "--matrix", "2"});
    ASSERT_EQ(r.code, 0) << r.err;
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["hives"].size(), 1U);
    EXPECT_EQ(doc["hives"][0]["matrix"], Json::parse(R"([
        {"device":2,"0":"up","1":"replay/x8/2h","2":"X"}])"));
    const auto lone = run({"-j", "link", "show", "--matrix", "3"});
    ASSERT_EQ(lone.code, 0) << lone.err;
    EXPECT_EQ(Json::parse(lone.out)["hives"], Json::array());
}

// A link down with no route left; two planes between 0 and 2, one parked:
// the worst state, the lanes left, the route.
TEST_F(LinkTest, MatrixCellsSayStateLanesLeftAndRoute) {
    kernel.links[0].state = AMDX_LINK_STATE_DOWN;
    kernel.links[0].hops = 0;
    kernel.links[1].state = AMDX_LINK_STATE_PARKED;
    kernel.links.push_back(make_link(3, 2, 0)); // a second plane, up
    kernel.devices[3].hive_id = 9;              // a member with no link
    const auto r = run({"-j", "link", "show", "--matrix", "0"});
    ASSERT_EQ(r.code, 0) << r.err;
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["hives"].size(), 1U) << r.out;
    const Json& h = doc["hives"][0];
    EXPECT_EQ(h["links"], 4);
    EXPECT_EQ(h["links_up"], 1);
    EXPECT_EQ(h["lanes"], 24); // 8 storming, 16 of the plane up
    EXPECT_EQ(h["lanes_max"], 64);
    EXPECT_EQ(h["matrix"], Json::parse(R"([
        {"device":0,"0":"X","1":"down/no-route","2":"parked/x16"}])"));
}

TEST_F(LinkTest, MatrixAsTextAndCsv) {
    const auto text = run({"link", "show", "--matrix"});
    ASSERT_EQ(text.code, 0) << text.err;
    std::istringstream lines(text.out);
    std::vector<std::string> rows;
    for (std::string line; std::getline(lines, line);)
        rows.push_back(line);
    ASSERT_EQ(rows.size(), 10U) << text.out; // title, 4 sums, "matrix:", header, 3 rows
    EXPECT_EQ(rows[0], "hive_id 9:") << text.out;
    EXPECT_EQ(rows[5], "  matrix:") << text.out;
    EXPECT_EQ(rows[6].find("DEVICE"), 4U) << text.out;
    EXPECT_NE(rows[8].find("replay/x8/2h"), std::string::npos) << text.out;

    const auto csv = run({"--csv", "link", "show", "--matrix"});
    ASSERT_EQ(csv.code, 0) << csv.err;
    EXPECT_EQ(csv.out, "hive_id,links,links_up,lanes,lanes_max,device,0,1,2\n"
                       "9,3,2,40,48,0,X,up,up\n"
                       "9,3,2,40,48,1,up,X,replay/x8/2h\n"
                       "9,3,2,40,48,2,up,replay/x8/2h,X\n");
}

// A pod's ends that are no device of this host are shown by what the
// kernel knows of them (uapi minor 6), never by its U32_MAX: in the rows,
// the matrix (a column per switch plane) and the JSON of a remote link.
TEST_F(LinkTest, PodEndsAreShownByTheirIdentity) {
    kernel.devices[0].hive_id = 0x11c1;
    kernel.links = {make_pod_link(0, 0, 0, 0, 0), make_pod_link(1, 0, 0, 0, 1),
                    make_pod_link(2, UINT32_MAX, 41, 10, 0)};
    kernel.links[1].state = AMDX_LINK_STATE_DOWN;
    const auto r = run({"-j", "link", "show", "0"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.find("4294967295"), std::string::npos) << r.out;
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["links"].size(), 2U) << r.out; // the remote link has no end on 0
    const Json& l = doc["links"][1];
    EXPECT_EQ(l["device_a"], 0);
    EXPECT_EQ(l["device_b"], nullptr);
    EXPECT_EQ(l["end_a"], "device");
    EXPECT_EQ(l["end_b"], "switch");
    EXPECT_EQ(l["fabric_id_a"], 0);
    EXPECT_EQ(l["fabric_id_b"], 1);
    EXPECT_EQ(l["domain_a"], 0);
    EXPECT_EQ(l["domain_b"], nullptr);

    // Every device selected: every link of the pod, the remote one too.
    kernel.devices[1].hive_id = 0;
    kernel.devices[2].hive_id = 0;
    const auto all = run({"-j", "link", "show"});
    ASSERT_EQ(all.code, 0) << all.err;
    const Json every = Json::parse(all.out);
    ASSERT_EQ(every["links"].size(), 3U) << all.out;
    EXPECT_EQ(every["links"][2]["end_a"], "accelerator") << all.out;
    EXPECT_EQ(every["links"][2]["fabric_id_a"], 41) << all.out;

    const Json remote = amdx::cli::link_to_json(0x11c1, amdx::LinkInfo::from_uapi(kernel.links[2]));
    EXPECT_EQ(remote["device_a"], nullptr);
    EXPECT_EQ(remote["end_a"], "accelerator");
    EXPECT_EQ(remote["fabric_id_a"], 41);
    EXPECT_EQ(remote["domain_a"], 10);

    const auto m = run({"-j", "link", "show", "--matrix", "0"});
    ASSERT_EQ(m.code, 0) << m.err;
    EXPECT_EQ(m.out.find("4294967295"), std::string::npos) << m.out;
    EXPECT_EQ(Json::parse(m.out)["hives"][0]["matrix"],
              Json::parse(R"([{"device":0,"0":"X","sw0":"up","sw1":"down"}])"))
        << m.out;

    const auto t = run({"link", "show", "0", "-o", "link,device_b,end_b,fabric_id_b"});
    ASSERT_EQ(t.code, 0) << t.err;
    EXPECT_EQ(t.out.find("4294967295"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("switch"), std::string::npos) << t.out;
}

// Each accelerator end of a pod says its virtual pod (uapi minor 7, from
// 1); a switch, which serves every one, and a module before minor 7 (0)
// say none: null in the JSON, empty in the table.
TEST_F(LinkTest, PodAcceleratorsSayTheirVirtualPod) {
    kernel.devices[0].hive_id = 0x11c1;
    kernel.devices[1].hive_id = 0;
    kernel.devices[2].hive_id = 0;
    kernel.links = {make_pod_link(0, 0, 0, 0, 0), make_pod_link(1, UINT32_MAX, 41, 10, 0)};
    kernel.links[0].vpod[0] = 1;
    kernel.links[1].vpod[0] = 21;
    const auto r = run({"-j", "link", "show"});
    ASSERT_EQ(r.code, 0) << r.err;
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["links"].size(), 2U) << r.out;
    EXPECT_EQ(doc["links"][0]["vpod_a"], 1) << r.out;
    EXPECT_EQ(doc["links"][1]["vpod_a"], 21) << r.out;
    EXPECT_EQ(doc["links"][1]["vpod_b"], nullptr) << r.out;
    EXPECT_EQ(amdx::LinkInfo::from_uapi(kernel.links[1]).vpod[0], 21);

    const auto t = run({"link", "show", "-o", "link,fabric_id_a,vpod_a,vpod_b"});
    ASSERT_EQ(t.code, 0) << t.err;
    EXPECT_NE(t.out.find("41"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("21"), std::string::npos) << t.out;

    kernel.links[1].vpod[0] = 0; // a module before minor 7
    const auto old = run({"-j", "link", "show"});
    ASSERT_EQ(old.code, 0) << old.err;
    EXPECT_EQ(Json::parse(old.out)["links"][1]["vpod_a"], nullptr) << old.out;
}

// What the provider declares it does not report (AMDX_LINK_F_NO_*) is
// absent: null in the JSON, "n/a" in the table, never a 0 that reads as "no
// errors"; what it does report stays.
TEST_F(LinkTest, WhatTheProviderDoesNotReportIsAbsent) {
    kernel.links[0].flags = AMDX_LINK_F_NO_STATE | AMDX_LINK_F_NO_WIDTH | AMDX_LINK_F_NO_COUNTERS;
    kernel.links[1].flags = AMDX_LINK_F_NO_COUNTERS;
    const auto r = run({"-j", "link", "show"});
    ASSERT_EQ(r.code, 0) << r.err;
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["links"].size(), 3U);
    const Json& none = doc["links"][0];
    for (const char* k :
         {"ce", "ue", "replays", "width", "width_changes", "downs", "state_changes", "time_ns"})
        EXPECT_EQ(none[k], nullptr) << k;
    EXPECT_EQ(none["state"], "up");
    EXPECT_EQ(none["width_max"], 16);
    const Json& counters = doc["links"][1];
    for (const char* k : {"ce", "ue", "replays"})
        EXPECT_EQ(counters[k], nullptr) << k;
    EXPECT_EQ(counters["width"], 16);
    EXPECT_EQ(counters["downs"], 0);
    EXPECT_EQ(doc["links"][2]["replays"], 4096); // its provider counts

    const auto t = run({"link", "show", "-o", "link,ce,replays"});
    ASSERT_EQ(t.code, 0) << t.err;
    std::istringstream lines(t.out);
    std::vector<std::string> rows;
    for (std::string line; std::getline(lines, line);)
        rows.push_back(line);
    ASSERT_EQ(rows.size(), 4U) << t.out;
    EXPECT_NE(rows[1].find("n/a"), std::string::npos) << t.out;
    EXPECT_EQ(rows[3].find("n/a"), std::string::npos) << t.out;
    EXPECT_NE(rows[3].find("4096"), std::string::npos) << t.out;
}

TEST_F(LinkTest, AModuleWithoutLinksIsOneErrorLine) {
    kernel.fail_query = AMDX_QUERY_LINKS;
    kernel.fail_errno = EINVAL;
    const auto r = run({"link", "show", "0"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("amdx: links of device 0: ", 0), 0U) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

} // namespace
