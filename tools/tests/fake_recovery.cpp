// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The fake kernel's recovery actions (see fake_kernel.hpp).
#include <algorithm>
#include <bit>
#include <cstring>
#include <ctime>

#include "fake_kernel.hpp"

namespace amdx::test {

using fake::fail;
using fake::user_ptr;

namespace {

/// amdx_recovery_default_ms[] and the node's figure (amdx_recovery.c).
std::uint32_t est_ms(std::uint32_t action) {
    switch (action) {
    case AMDX_RECOVER_QUEUE:
        return 10;
    case AMDX_RECOVER_PIPE:
        return 100;
    case AMDX_RECOVER_PARTITION:
        return 1000;
    case AMDX_RECOVER_VF:
        return 500;
    case AMDX_RECOVER_DEVICE:
        return 5000;
    case AMDX_RECOVER_HIVE:
        return 20000;
    case AMDX_RECOVER_NODE:
        return 300000;
    case AMDX_RECOVER_RMA:
        return 0xffffffffU;
    default:
        return 0;
    }
}

std::uint64_t now_ns() {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL +
           static_cast<std::uint64_t>(ts.tv_nsec);
}

/// What one action takes down (struct amdx_recovery_scope), by device id.
struct Scope {
    std::uint64_t devices = 0;
    std::uint64_t peers = 0;
    std::uint8_t partitions[64] = {};
    std::uint8_t vfs[64] = {};
    /// Per device id, the memory partitions whose holders stop.
    std::uint64_t mem[64] = {};
    std::uint32_t num_partitions = 0;
    std::uint32_t num_vfs = 0;
};

std::uint64_t summary(std::uint32_t action, const amdx_recovery& r) {
    return AMDX_RECOVERY_SUM_VALID | action | std::uint64_t{std::min(r.num_devices, 0xffU)} << 8 |
           std::uint64_t{std::min(r.num_partitions, 0xfffU)} << 16 |
           std::uint64_t{std::min(r.num_vfs, 0xfffU)} << 28 |
           std::uint64_t{std::min(r.num_processes, 0xffffU)} << 40;
}

} // namespace

FakeKernel::RecoverySlot& FakeKernel::recovery_slot(std::uint32_t id, std::uint32_t partition,
                                                    std::uint32_t vf) {
    return state(id).recovery[{vf != AMDX_VF_NONE ? AMDX_RAS_PARTITION_ALL : partition, vf}];
}

std::uint64_t FakeKernel::recovery_fault(std::uint32_t id, std::uint32_t partition,
                                         std::uint32_t vf, std::uint32_t action,
                                         std::uint32_t fault) {
    auto& slot = recovery_slot(id, partition, vf);
    amdx_event ev{};
    ev.kind = AMDX_EVENT_RECOVERY;
    ev.type = AMDX_RECOVERY_EV_PENDING;
    ev.block = fault;
    ev.partition = vf != AMDX_VF_NONE ? AMDX_RAS_PARTITION_ALL : partition;
    ev.instance = vf;
    ev.data[0] = AMDX_RECOVERY_SUM_VALID | action;
    ev.timestamp_ns = now_ns();
    slot = {.action = action,
            .fault = fault,
            .state = AMDX_RECOVERY_STATE_PENDING,
            .seq = 0,
            .time_ns = ev.timestamp_ns};
    slot.seq = emit(id, ev);
    return slot.seq;
}

int FakeKernel::recovery(std::uint32_t id, amdx_recovery& r, bool run) {
    rec_requests.push_back(r);
    if ((r.flags & ~(run ? AMDX_RECOVERY_F_ALL : 0U)) != 0 || r.reserved[0] != 0 ||
        r.reserved[1] != 0 ||
        (r.action != AMDX_RECOVER_PENDING && r.action >= AMDX_RECOVER_COUNT) ||
        (r.partition != AMDX_RAS_PARTITION_ALL && r.vf != AMDX_VF_NONE) ||
        r.num_listed > AMDX_RECOVERY_PROCESSES_MAX || (r.num_listed != 0 && r.processes == 0))
        return fail(EINVAL);
    auto& s = state(id);
    const auto* d = find(id);
    if ((r.partition != AMDX_RAS_PARTITION_ALL && r.partition >= s.partitions.size()) ||
        (r.vf != AMDX_VF_NONE && r.vf >= s.vfs.size()))
        return fail(EINVAL);
    const std::uint32_t num_listed = r.num_listed;
    const amdx_recovery in = r;
    r = amdx_recovery{};
    r.action = in.action;
    r.flags = in.flags;
    r.partition = in.partition;
    r.vf = in.vf;
    r.processes = in.processes;
    auto& slot = recovery_slot(id, r.partition, r.vf);
    r.state = slot.state;
    r.fault = slot.fault;
    r.seq = slot.seq;
    r.time_ns = slot.time_ns;
    const std::uint32_t action = r.action == AMDX_RECOVER_PENDING ? slot.action : r.action;
    r.action = action;
    if (action == AMDX_RECOVER_NONE)
        return run ? fail(ENOENT) : 0;

    // The scope, as amdx_recovery_scope() draws it.
    Scope sc;
    const auto all_parts = [](const State& st) {
        return static_cast<std::uint8_t>((1U << st.partitions.size()) - 1);
    };
    const auto vfs_of = [](const State& st, std::uint8_t parts) {
        std::uint8_t vfs = 0;
        for (std::uint32_t p = 0; p < st.partitions.size(); ++p)
            if ((parts & (1U << p)) != 0 && st.partitions[p].vf < st.vfs.size())
                vfs |= 1U << st.partitions[p].vf;
        return vfs;
    };
    const auto take = [&sc](std::uint32_t dev, const State& st, std::uint8_t parts,
                            std::uint8_t vfs) {
        sc.partitions[dev] = parts;
        sc.vfs[dev] = vfs;
        sc.num_partitions += std::popcount(parts);
        sc.num_vfs += std::popcount(vfs);
        for (std::uint32_t p = 0; p < st.partitions.size(); ++p)
            if ((parts & (1U << p)) != 0)
                sc.mem[dev] |= 1ULL << st.partitions[p].mem_partition;
    };
    std::uint8_t target = r.partition != AMDX_RAS_PARTITION_ALL ? 1U << r.partition : all_parts(s);
    if (r.vf != AMDX_VF_NONE) {
        target = 0;
        for (std::uint32_t p = 0; p < s.partitions.size(); ++p)
            if (s.partitions[p].vf == r.vf)
                target |= 1U << p;
    }
    const auto hive = [this, d]() {
        std::uint64_t mask = 1ULL << d->id;
        for (const auto& o : devices)
            if (d->hive_id != 0 && o.hive_id == d->hive_id && o.id < 64)
                mask |= 1ULL << o.id;
        return mask;
    };
    std::uint64_t whole = 0;
    switch (action) {
    case AMDX_RECOVER_PROCESS:
    case AMDX_RECOVER_QUEUE:
    case AMDX_RECOVER_PIPE:
        for (std::uint32_t p = 0; p < s.partitions.size(); ++p)
            if ((target & (1U << p)) != 0)
                sc.mem[id] |= 1ULL << s.partitions[p].mem_partition;
        break;
    case AMDX_RECOVER_PARTITION:
        if (r.partition == AMDX_RAS_PARTITION_ALL)
            return fail(EINVAL);
        take(id, s, target, vfs_of(s, target));
        break;
    case AMDX_RECOVER_VF: {
        const std::uint8_t vfs = vfs_of(s, target);
        if (r.vf == AMDX_VF_NONE && (r.partition == AMDX_RAS_PARTITION_ALL || vfs == 0))
            return fail(EINVAL);
        take(id, s, target, r.vf != AMDX_VF_NONE ? 1U << r.vf : vfs);
        break;
    }
    case AMDX_RECOVER_DEVICE:
    case AMDX_RECOVER_HIVE:
        whole = hive(); // a device reset in a hive resets the hive
        break;
    default:
        for (const auto& o : devices)
            if (o.id < 64)
                whole |= 1ULL << o.id;
        break;
    }
    std::uint32_t est = est_ms(action);
    if (whole != 0) {
        std::uint64_t hives = 0;
        for (const auto& o : devices) {
            if (o.id >= 64 || (whole & (1ULL << o.id)) == 0)
                continue;
            const auto& st = state(o.id);
            take(o.id, st, all_parts(st), static_cast<std::uint8_t>((1U << st.vfs.size()) - 1));
            sc.mem[o.id] = ~0ULL;
            if (o.hive_id != 0)
                for (const auto& h : devices)
                    if (h.hive_id == o.hive_id && h.id < 64)
                        hives |= 1ULL << h.id;
        }
        sc.devices = whole;
        sc.peers = hives & ~whole;
    }
    std::vector<amdx_recovery_process> stops;
    for (const auto& h : rec_holders)
        if (h.device < 64 && (sc.mem[h.device] & (1ULL << h.mem_partition)) != 0)
            stops.push_back(h);

    r.devices = sc.devices;
    r.peers = sc.peers;
    std::memcpy(r.partitions, sc.partitions, sizeof(r.partitions));
    std::memcpy(r.vfs, sc.vfs, sizeof(r.vfs));
    r.num_devices = static_cast<std::uint32_t>(std::popcount(sc.devices));
    r.num_partitions = sc.num_partitions;
    r.num_vfs = sc.num_vfs;
    r.num_processes = static_cast<std::uint32_t>(stops.size());
    r.est_ms = est;
    const auto list = [&r, &stops, num_listed]() {
        r.num_listed =
            std::min<std::uint32_t>(num_listed, static_cast<std::uint32_t>(stops.size()));
        if (r.num_listed != 0)
            std::memcpy(user_ptr(r.processes), stops.data(), r.num_listed * sizeof(stops[0]));
        return 0;
    };
    // amdx_recovery_refuse(): a reset the device does not declare, named
    // to a plan or run; node and rma only to a run.
    const auto can = [this, d](std::uint32_t a) {
        const auto it = rec_caps.find(d->id);
        const std::uint32_t caps = it == rec_caps.end() ? ~0U : it->second;
        if (a == AMDX_RECOVER_PROCESS || a >= AMDX_RECOVER_NODE)
            return true;
        return (caps & (1U << a)) != 0 && (a != AMDX_RECOVER_HIVE || d->hive_id != 0);
    };
    if ((run || in.action != AMDX_RECOVER_PENDING) && !can(action))
        return fail(EOPNOTSUPP);
    if (!run)
        return list();
    if (action >= AMDX_RECOVER_NODE)
        return fail(EOPNOTSUPP);
    if ((sc.devices & ~(1ULL << id)) != 0 && (r.flags & AMDX_RECOVERY_F_OTHERS) == 0)
        return fail(EXDEV);
    if (!stops.empty() && (r.flags & AMDX_RECOVERY_F_STOP) == 0)
        return fail(EBUSY);

    amdx_event ev{};
    ev.kind = AMDX_EVENT_RECOVERY;
    ev.block = slot.fault;
    ev.partition = r.partition;
    ev.instance = r.vf;
    ev.address = slot.seq;
    const auto record = [this, id, &ev](std::uint32_t type, std::uint64_t d0, std::uint64_t d1) {
        ev.type = type;
        ev.data[0] = d0;
        ev.data[1] = d1;
        ev.seq = 0;
        ev.timestamp_ns = 0;
        emit(id, ev);
    };
    if (!stops.empty()) {
        for (const auto& h : stops) {
            rec_stopped.push_back(h.pid);
            std::erase_if(rec_holders, [&h](const amdx_recovery_process& x) {
                return x.pid == h.pid && x.device == h.device;
            });
        }
        record(AMDX_RECOVERY_EV_STOPPED, AMDX_RECOVERY_SUM_VALID, stops.size());
    }
    // The action's own records, around it, as the kernel's: a partition
    // reset's (amdx_ras_partition_contain()), a device or hive reset's
    // (amdx_recovery_device_reset()).  ACTION_END carries the action's
    // result and its duration, here its estimate.
    const std::uint32_t ras_action = action == AMDX_RECOVER_PARTITION ? AMDX_ACTION_PARTITION_RESET
                                     : action == AMDX_RECOVER_DEVICE || action == AMDX_RECOVER_HIVE
                                         ? AMDX_ACTION_DEVICE_RESET
                                         : 0;
    const auto own = [this, id](std::uint16_t kind, std::uint32_t partition, std::uint64_t d0,
                                std::uint64_t d1, std::uint64_t address) {
        amdx_event a{};
        a.kind = kind;
        a.partition = partition;
        a.address = address;
        a.data[0] = d0;
        a.data[1] = d1;
        emit(id, a);
    };
    if (ras_action != 0) {
        const auto result = static_cast<std::uint64_t>(-static_cast<std::int64_t>(rec_fail_errno));
        const std::uint32_t part =
            action == AMDX_RECOVER_PARTITION ? r.partition : AMDX_RAS_PARTITION_ALL;
        own(AMDX_EVENT_ACTION_START, part, ras_action, 0, 0);
        if (action == AMDX_RECOVER_PARTITION) {
            own(AMDX_EVENT_PARTITION_QUARANTINED, part, 0, 0, 0);
            own(rec_fail_errno != 0 ? AMDX_EVENT_PARTITION_OFFLINE : AMDX_EVENT_PARTITION_RESTORED,
                part, 0, 0, 0);
        } else {
            own(AMDX_EVENT_DEVICE_RESET_BEGIN, part, sc.devices, 0, 0);
            own(AMDX_EVENT_DEVICE_RESET_END, part, result, 0, 0);
        }
        own(AMDX_EVENT_ACTION_END, part, ras_action, result, std::uint64_t{r.est_ms} * 1000000);
    }
    const std::uint64_t sum = summary(action, r);
    if (rec_fail_errno != 0) {
        slot.state = AMDX_RECOVERY_STATE_FAILED;
        slot.action = std::max(slot.action, action);
        r.outcome = AMDX_RECOVERY_OUT_FAILED;
        r.error = -rec_fail_errno;
        record(AMDX_RECOVERY_EV_FAILED, sum, static_cast<std::uint64_t>(-rec_fail_errno));
    } else {
        record(AMDX_RECOVERY_EV_RAN, sum, 0);
        record(AMDX_RECOVERY_EV_SELFTEST, AMDX_RECOVERY_SUM_VALID | action,
               static_cast<std::uint64_t>(-rec_self_test_errno));
        if (rec_self_test_errno != 0) {
            std::uint32_t next = action + 1;
            while (next < AMDX_RECOVER_RMA && !can(next))
                ++next;
            slot.action = std::max(next, slot.action);
            slot.state = AMDX_RECOVERY_STATE_PENDING;
            r.outcome = AMDX_RECOVERY_OUT_ESCALATED;
            r.error = -rec_self_test_errno;
            record(AMDX_RECOVERY_EV_ESCALATED, AMDX_RECOVERY_SUM_VALID | slot.action,
                   static_cast<std::uint64_t>(-rec_self_test_errno));
        } else {
            r.outcome = AMDX_RECOVERY_OUT_CLEARED;
            if (slot.action <= action) {
                record(AMDX_RECOVERY_EV_CLEARED, AMDX_RECOVERY_SUM_VALID, 0);
                slot = {};
            }
            // A device or hive reset covers the device's other targets.
            if (action >= AMDX_RECOVER_DEVICE)
                for (auto& [key, other] : s.recovery)
                    if (other.action != AMDX_RECOVER_NONE && other.action <= action) {
                        ev.partition = key.first;
                        ev.instance = key.second;
                        ev.block = other.fault;
                        ev.address = other.seq;
                        record(AMDX_RECOVERY_EV_CLEARED, AMDX_RECOVERY_SUM_VALID, 0);
                        other = {};
                    }
        }
    }
    r.state = slot.state;
    r.action = slot.action != AMDX_RECOVER_NONE ? slot.action : action;
    return list();
}

} // namespace amdx::test
