// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// amdx_fleet_fake: the amdx CLI against a fake kernel for the fleet tests
// that run it as a process (promtool, a real prometheus server).
//   AMDX_FAKE_DEVICES=N           N MI300X devices (default 2)
//   AMDX_FAKE_VFS=N               every device in CPX with N VFs (the fleet
//                                 host of metrics.rst's scrape cost)
//   AMDX_FAKE_INJECT=D:B:T:N,...  before the CLI runs, inject N errors of
//                                 block B and type T into device D through
//                                 libamdx (Device::ras_inject), as
//                                 `amdx ras inject` would
//   AMDX_FAKE_BAD_PAGE_THRESHOLD=N every device's bad-page threshold N
//                                 (Device::ras_set_policy, as `amdx ras
//                                 policy` would); unset: the fake's default
//   AMDX_FAKE_RECOVERY=D:P:A,...  a fault leaves recovery action A (none,
//                                 partition, device, ...) pending on device
//                                 D's partition P ("all": the device), as
//                                 the kernel's intake would
//   AMDX_FAKE_HOLDERS=PID:COMM:M:PAGES,...  processes with PAGES device
//                                 pages in memory partition M, as a
//                                 partition plan reports them (PID 0: one
//                                 the kernel hides, COMM then empty)
//   AMDX_FAKE_HIVE=1              every device in hive 7, a full mesh of
//                                 links; link 0 in a replay storm with
//                                 counted errors
// Pass "-d /dev/null".
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include <amdx/device.hpp>

#include "cli.hpp"
#include "fake_kernel.hpp"

namespace {

bool inject(const std::string& spec) {
    auto control = amdx::Control::open("/dev/null");
    if (!control)
        return false;
    std::istringstream list(spec);
    std::string one;
    while (std::getline(list, one, ',')) {
        std::istringstream f(one);
        std::string dev, block, type, count;
        if (!std::getline(f, dev, ':') || !std::getline(f, block, ':') ||
            !std::getline(f, type, ':') || !std::getline(f, count))
            return false;
        auto device = amdx::Device::open(*control, static_cast<std::uint32_t>(std::stoul(dev)));
        const auto b = amdx::parse_ras_block(block);
        const auto t = amdx::parse_ras_type(type);
        if (!device || !b || !t)
            return false;
        amdx::RasInjection inj;
        inj.block = *b;
        inj.type = *t;
        inj.count = static_cast<std::uint32_t>(std::stoul(count));
        inj.address = inj.block == amdx::RasBlock::umc ? 0x100000 : 0;
        if (!device->ras_inject(inj))
            return false;
    }
    return true;
}

/// Every device in CPX with @vfs VFs, through libamdx as `amdx partition
/// set` and `amdx vf enable` would.
bool enable_vfs(unsigned devices, std::uint32_t vfs) {
    auto control = amdx::Control::open("/dev/null");
    if (!control)
        return false;
    for (unsigned i = 0; i < devices; ++i) {
        auto device = amdx::Device::open(*control, i);
        amdx::PartitionRequest req;
        req.compute = amdx::ComputeMode::cpx;
        if (!device || !device->partition_commit(req) || !device->vf_enable(vfs))
            return false;
    }
    return true;
}

/// Every device's bad-page threshold to @pages, through libamdx.
bool set_bad_page_threshold(unsigned devices, std::int32_t pages) {
    auto control = amdx::Control::open("/dev/null");
    if (!control)
        return false;
    for (unsigned i = 0; i < devices; ++i) {
        auto device = amdx::Device::open(*control, i);
        amdx::RasPolicyUpdate update;
        update.bad_page_threshold = pages;
        if (!device || !device->ras_set_policy(update))
            return false;
    }
    return true;
}

/// Sets the pending recovery actions of @spec in @k.
bool recovery(amdx::test::FakeKernel& k, const std::string& spec) {
    std::istringstream list(spec);
    std::string one;
    while (std::getline(list, one, ',')) {
        std::istringstream f(one);
        std::string dev, part, action;
        if (!std::getline(f, dev, ':') || !std::getline(f, part, ':') || !std::getline(f, action))
            return false;
        const auto a = amdx::parse_recovery_action(action);
        if (!a)
            return false;
        k.recovery_fault(static_cast<std::uint32_t>(std::stoul(dev)),
                         part == "all" ? AMDX_RAS_PARTITION_ALL
                                       : static_cast<std::uint32_t>(std::stoul(part)),
                         AMDX_VF_NONE, static_cast<std::uint32_t>(*a), AMDX_FAULT_DEVICE_UE);
    }
    return true;
}

/// The partition holders of @spec in @k.
bool holders(amdx::test::FakeKernel& k, const std::string& spec) {
    std::istringstream list(spec);
    std::string one;
    while (std::getline(list, one, ',')) {
        std::istringstream f(one);
        std::string pid, comm, mem, pages;
        if (!std::getline(f, pid, ':') || !std::getline(f, comm, ':') ||
            !std::getline(f, mem, ':') || !std::getline(f, pages) || comm.size() > 15)
            return false;
        amdx_partition_holder h{};
        h.pid = static_cast<std::uint32_t>(std::stoul(pid));
        h.mem_partition = static_cast<std::uint32_t>(std::stoul(mem));
        h.pages = std::stoull(pages);
        comm.copy(reinterpret_cast<char*>(h.comm), comm.size());
        k.part_holders.push_back(h);
    }
    return true;
}

/// Hive 7 of @devices devices, a full mesh; link 0 storms.
void hive(amdx::test::FakeKernel& k, unsigned devices) {
    for (auto& d : k.devices)
        d.hive_id = 7;
    for (std::uint32_t a = 0; a < devices; ++a) {
        for (std::uint32_t b = a + 1; b < devices; ++b) {
            amdx_link_info l{};
            l.link = static_cast<std::uint32_t>(k.links.size());
            l.kind = AMDX_LINK_KIND_XGMI;
            l.device[0] = a;
            l.device[1] = b;
            l.port[0] = static_cast<std::uint8_t>(b - 1);
            l.port[1] = static_cast<std::uint8_t>(a);
            l.width_max = 16;
            l.width = 16;
            l.hops = 1;
            k.links.push_back(l);
        }
    }
    if (k.links.empty())
        return;
    auto& storm = k.links[0];
    storm.state = AMDX_LINK_STATE_REPLAY;
    storm.contain = AMDX_LINK_CONTAIN_MOVE;
    storm.ce = 7;
    storm.ue = 1;
    storm.replays = 4096;
}

} // namespace

int main(int argc, char** argv) {
    amdx::test::FakeKernel kernel;
    const char* n = std::getenv("AMDX_FAKE_DEVICES");
    const unsigned devices = n != nullptr ? static_cast<unsigned>(std::strtoul(n, nullptr, 10)) : 2;
    for (unsigned i = 0; i < devices; ++i)
        kernel.add_device(i);
    if (const char* vfs = std::getenv("AMDX_FAKE_VFS");
        (vfs != nullptr) &&
        !enable_vfs(devices, static_cast<std::uint32_t>(std::strtoul(vfs, nullptr, 10)))) {
        std::cerr << "amdx_fleet_fake: cannot enable AMDX_FAKE_VFS=" << vfs << " VFs in CPX\n";
        return 2;
    }
    if (const char* t = std::getenv("AMDX_FAKE_BAD_PAGE_THRESHOLD");
        (t != nullptr) &&
        !set_bad_page_threshold(devices, static_cast<std::int32_t>(std::strtol(t, nullptr, 10)))) {
        std::cerr << "amdx_fleet_fake: cannot set AMDX_FAKE_BAD_PAGE_THRESHOLD=" << t << "\n";
        return 2;
    }
    if (const char* spec = std::getenv("AMDX_FAKE_INJECT"); (spec != nullptr) && !inject(spec)) {
        std::cerr << "amdx_fleet_fake: bad AMDX_FAKE_INJECT '" << spec << "'\n";
        return 2;
    }
    if (const char* spec = std::getenv("AMDX_FAKE_RECOVERY");
        (spec != nullptr) && !recovery(kernel, spec)) {
        std::cerr << "amdx_fleet_fake: bad AMDX_FAKE_RECOVERY '" << spec << "'\n";
        return 2;
    }
    if (const char* spec = std::getenv("AMDX_FAKE_HOLDERS");
        (spec != nullptr) && !holders(kernel, spec)) {
        std::cerr << "amdx_fleet_fake: bad AMDX_FAKE_HOLDERS '" << spec << "'\n";
        return 2;
    }
    if (const char* h = std::getenv("AMDX_FAKE_HIVE"); h != nullptr && std::string(h) == "1")
        hive(kernel, devices);
    return amdx::cli::run_process(argc, argv);
}
