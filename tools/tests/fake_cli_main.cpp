// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// amdx_fake_cli: the amdx CLI against a fake kernel with two devices that
// differ in every optional part, on a kernel with HMM migration (device 1
// has no HMM-capable VRAM).  Device 1 has 4 VFs, a retired page and
// counted errors; both are in hive 42, whose one link is in a replay
// storm; each device's event log holds one event of every kind
// (monitor sees them, then times out).  Pass "-d /dev/null".
#include <cerrno>

#include "cli.hpp"
#include "fake_kernel.hpp"

int main(int argc, char** argv) {
    amdx::test::FakeKernel kernel;
    kernel.caps.caps |= AMDX_CAP_DEVICE_PRIVATE | AMDX_CAP_HMM_MIRROR | AMDX_CAP_HMM_MIGRATE;
    kernel.add_device(0);
    kernel.add_device(1);
    auto& d = kernel.devices[1];
    d.model = AMDX_MODEL_MI300A;
    d.hive_id = 0x2a;
    d.compute_mode = AMDX_COMPUTE_CPX;
    d.memory_mode = AMDX_MEMORY_NPS4;
    d.num_mem_partitions = 4;
    for (unsigned i = 0; i < 4; ++i)
        d.mem_partitions[i] = {.base = i * (48ULL << 30), .size = 48ULL << 30, .free = 1ULL << 30};
    d.num_vfs = 4;
    d.flags = 0;
    d.product[0] = 0;
    kernel.devices[0].hive_id = 0x2a;
    amdx_link_info link{};
    link.kind = AMDX_LINK_KIND_XGMI;
    link.device[1] = 1;
    link.port[0] = 1;
    link.width_max = 16;
    link.width = 16;
    link.state = AMDX_LINK_STATE_REPLAY;
    link.contain = AMDX_LINK_CONTAIN_MOVE;
    link.hops = 2;
    link.flags = AMDX_LINK_F_ROUTE_DEGRADED;
    link.ce = 12;
    link.replays = 4096;
    link.state_changes = 1;
    link.time_ns[AMDX_LINK_STATE_UP] = 5000000000ULL;
    link.time_ns[AMDX_LINK_STATE_REPLAY] = 250000000ULL;
    kernel.links.push_back(link);
    auto& s = kernel.state(1);
    for (std::uint32_t i = 0; i < 4; ++i) {
        amdx_vf_info v{};
        v.vf = i;
        v.state = i == 3 ? AMDX_PART_STATE_QUARANTINED : AMDX_PART_STATE_ONLINE;
        v.config.partition_mask = 0x11U << i;
        v.config.time_slice_us = AMDX_VF_TIME_SLICE_DEFAULT_US;
        v.config.vram_quota = 48ULL << 30;
        v.config.priority = AMDX_VF_PRIO_NORMAL;
        v.config.flags = i == 0 ? AMDX_VF_F_EVICT : 0;
        v.resets = i;
        s.vfs.push_back(v);
        s.partitions[i].vf = i;
        s.partitions[i + 4].vf = i;
    }
    s.partitions[2].state = AMDX_PART_STATE_QUARANTINED;
    s.ras_flags = AMDX_RAS_F_RMA;
    s.ras[0].count[AMDX_RAS_TYPE_CE] = 120;
    amdx_badpage_record page{};
    page.address = 0x40000;
    page.time = 1700000000;
    page.cause = AMDX_BADPAGE_CAUSE_CE;
    s.badpages.push_back(page);
    for (std::uint32_t dev = 0; dev < 2; ++dev) {
        for (std::uint16_t kind = 0; kind <= AMDX_EVENT_KIND_COUNT; ++kind) { // one unknown
            amdx_event ev{};
            ev.kind = kind;
            ev.partition = kind % 2 == 0 ? AMDX_RAS_PARTITION_ALL : 1;
            ev.address = 0x1000;
            ev.data[0] = kind == AMDX_EVENT_ACTION_END ? 3 : 1;
            ev.data[1] = kind == AMDX_EVENT_ACTION_END ? static_cast<std::uint64_t>(-EIO) : 0;
            kernel.backlog[dev].push_back(ev);
        }
    }
    return amdx::cli::run_process(argc, argv);
}
