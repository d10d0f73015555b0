// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The fake kernel's partitions and VFs (see fake_kernel.hpp).
#include <algorithm>
#include <cstring>

#include "fake_kernel.hpp"

namespace amdx::test {

using fake::fail;
using fake::user_ptr;

namespace {

constexpr std::uint32_t kRasBlocks = AMDX_RAS_BLOCK_COUNT;

std::uint32_t partitions_of(std::uint32_t compute_mode, std::uint32_t num_xcc) {
    switch (compute_mode) {
    case AMDX_COMPUTE_DPX:
        return 2;
    case AMDX_COMPUTE_TPX:
        return 3;
    case AMDX_COMPUTE_QPX:
        return 4;
    case AMDX_COMPUTE_CPX:
        return num_xcc;
    default:
        return 1;
    }
}

std::uint32_t nps_of(std::uint32_t memory_mode) {
    switch (memory_mode) {
    case AMDX_MEMORY_NPS2:
        return 2;
    case AMDX_MEMORY_NPS4:
        return 4;
    case AMDX_MEMORY_NPS8:
        return 8;
    default:
        return 1;
    }
}

std::uint32_t slice(std::uint32_t i, std::uint32_t n, std::uint32_t count) {
    const std::uint32_t per = std::max<std::uint32_t>(count / n, 1);
    const std::uint32_t first = (i * count) / n;
    return per >= 32 ? ~0U : ((1U << per) - 1) << first;
}

/// Even partitions of @d in @compute/@memory mode.
std::vector<amdx_partition_info> build(const amdx_device_info& d, std::uint32_t compute,
                                       std::uint32_t memory) {
    const std::uint32_t n = partitions_of(compute, d.num_xcc);
    const std::uint32_t nps = nps_of(memory);
    std::vector<amdx_partition_info> out(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        auto& p = out[i];
        p.id = i;
        p.state = AMDX_PART_STATE_ONLINE;
        p.xcc_mask = slice(i, n, d.num_xcc);
        p.sdma_mask = slice(i, n, d.num_sdma);
        p.vcn_mask = slice(i, n, d.num_vcn);
        p.mem_partition = i * nps / n;
        p.vf = AMDX_VF_NONE;
        p.vram_size = d.vram_size / nps;
        p.vram_base = p.mem_partition * p.vram_size;
    }
    return out;
}

void rebuild_ras(FakeKernel::State& s, const amdx_device_info& d) {
    static constexpr std::uint32_t kSupported[kRasBlocks] = {
        0x7, // umc: ce ue de
        0x2, // sdma: ue
        0x3, // gfx: ce ue
        0x2, // mmhub: ue
        0x2, // pcie_bif: ue
        0x2, // hdp: ue
        0x3, // xgmi_wafl: ce ue
    };
    const std::uint32_t instances[kRasBlocks] = {8, d.num_sdma, d.num_xcc, 1, 1, 1, 8};
    s.ras.clear();
    for (std::uint32_t b = 0; b < kRasBlocks; ++b) {
        for (std::uint32_t part = 0; part <= s.partitions.size(); ++part) {
            amdx_ras_counters c{};
            c.block = b;
            c.partition = part == 0 ? AMDX_RAS_PARTITION_ALL : part - 1;
            c.instances = instances[b];
            c.supported = kSupported[b];
            for (std::uint32_t t = 0; t < AMDX_RAS_TYPE_COUNT; ++t)
                c.count[t] = (kSupported[b] & (1U << t)) != 0 ? 0 : AMDX_RAS_UNSUPPORTED;
            s.ras.push_back(c);
        }
    }
}

} // namespace

FakeKernel::State& FakeKernel::state(std::uint32_t id) {
    const auto it = state_.find(id);
    if (it != state_.end())
        return it->second;
    State& s = state_[id];
    const auto* d = find(id);
    if (d == nullptr)
        return s;
    s.partitions = build(*d, d->compute_mode, d->memory_mode);
    rebuild_ras(s, *d);
    s.policy.ce_page_threshold = 50;
    s.policy.ce_window_s = 86400;
    s.policy.bad_page_threshold = AMDX_RAS_BAD_PAGE_WARN;
    s.policy.part_reset_limit = 3;
    s.policy.part_reset_window_s = 3600;
    s.scope.hive_id = d->hive_id;
    s.scope.num_devices = 1;
    s.scope.devices[0] = id;
    if (d->hive_id != 0) {
        for (const auto& other : devices)
            if (other.id != id && other.hive_id == d->hive_id && s.scope.num_devices < 15)
                s.scope.devices[s.scope.num_devices++] = other.id;
    }
    return s;
}

int FakeKernel::part_query(std::uint32_t id, amdx_query& q) {
    auto& s = state(id);
    const auto* d = find(id);
    if (d == nullptr)
        return fail(ENODEV);
    switch (q.query) {
    case AMDX_QUERY_PARTITIONS: {
        amdx_query_partitions h{};
        h.compute_mode = d->compute_mode;
        h.memory_mode = d->memory_mode;
        h.num_partitions = static_cast<std::uint32_t>(s.partitions.size());
        h.entry_size = part_entry_size;
        h.generation = s.generation;
        return fake::answer_list(q, &h, sizeof(h), s.partitions.data(), s.partitions.size(),
                                 sizeof(amdx_partition_info), part_entry_size);
    }
    case AMDX_QUERY_VFS: {
        amdx_query_vfs h{};
        h.num_vfs = static_cast<std::uint32_t>(s.vfs.size());
        h.entry_size = sizeof(amdx_vf_info);
        h.max_vfs = d->max_vfs;
        return fake::answer_list(q, &h, sizeof(h), s.vfs.data(), s.vfs.size(), sizeof(amdx_vf_info),
                                 sizeof(amdx_vf_info));
    }
    default:
        return fake::answer_fixed(q, &s.scope, sizeof(s.scope), sizeof(s.scope));
    }
}

int FakeKernel::part_config(std::uint32_t id, amdx_partition_config& c, bool commit) {
    part_requests.push_back(c);
    auto* d = const_cast<amdx_device_info*>(find(id));
    if (d == nullptr)
        return fail(ENODEV);
    auto& s = state(id);
    if ((c.flags & ~AMDX_PART_F_DRAIN) != 0 || c.pad != 0 || c.reserved != 0)
        return fail(EINVAL);
    const std::uint32_t compute = c.compute_mode != 0 ? c.compute_mode : d->compute_mode;
    const std::uint32_t memory = c.memory_mode != 0 ? c.memory_mode : d->memory_mode;
    c.reason = AMDX_PART_REASON_NONE;
    c.allowed = 0;
    c.outcome = AMDX_PART_OUTCOME_NONE;
    c.num_steps = 0;
    c.failed_step = 0;
    c.num_holders = 0;
    auto refuse = [&c, &s, commit](std::uint32_t reason, int err) {
        c.reason = reason;
        if (commit)
            ++s.stats.refusals;
        return fail(err);
    };
    if ((d->supported_compute_modes & (1U << compute)) == 0)
        return refuse(AMDX_PART_REASON_COMPUTE_UNSUPPORTED, EINVAL);
    if ((d->supported_memory_modes & (1U << memory)) == 0)
        return refuse(AMDX_PART_REASON_MEMORY_UNSUPPORTED, EINVAL);
    if (part_refuse)
        return refuse(*part_refuse, EINVAL);
    const auto topology = build(*d, compute, memory);
    c.num_partitions = static_cast<std::uint32_t>(topology.size());
    if (c.topology != 0)
        std::memcpy(user_ptr(c.topology), topology.data(),
                    topology.size() * sizeof(amdx_partition_info));
    const bool changes = compute != d->compute_mode || memory != d->memory_mode;
    const bool busy = changes && !part_holders.empty();
    if (busy) {
        c.num_holders = static_cast<std::uint32_t>(part_holders.size());
        const std::size_t n = std::min<std::size_t>(c.max_holders, part_holders.size());
        if (c.holders != 0 && n != 0)
            std::memcpy(user_ptr(c.holders), part_holders.data(),
                        n * sizeof(amdx_partition_holder));
    }
    if (!s.vfs.empty() && changes)
        return refuse(AMDX_PART_REASON_VFS_ENABLED, EINVAL);
    if (!commit) {
        c.allowed = busy && (c.flags & AMDX_PART_F_DRAIN) == 0 ? 0 : 1;
        if (c.allowed == 0)
            c.reason = AMDX_PART_REASON_BUSY;
        return 0;
    }
    if (busy && (c.flags & AMDX_PART_F_DRAIN) == 0)
        return refuse(AMDX_PART_REASON_BUSY, EBUSY);
    if (!changes) {
        c.outcome = AMDX_PART_OUTCOME_UNCHANGED;
        return 0;
    }
    std::vector<std::uint32_t> steps{AMDX_PART_STEP_VALIDATE, AMDX_PART_STEP_QUIESCE};
    if (busy)
        steps.push_back(AMDX_PART_STEP_DRAIN);
    if (compute != d->compute_mode)
        steps.push_back(AMDX_PART_STEP_COMPUTE);
    if (memory != d->memory_mode)
        steps.push_back(AMDX_PART_STEP_MEMORY);
    steps.push_back(AMDX_PART_STEP_REBUILD);
    steps.push_back(AMDX_PART_STEP_RESUME);
    int err = 0;
    for (const std::uint32_t step : steps) {
        auto& out = c.steps[c.num_steps++];
        out.step = step;
        out.duration_ns = 1000ULL * step;
        c.total_ns += out.duration_ns;
        if (step == AMDX_PART_STEP_DRAIN && part_drain_timeout)
            err = ETIMEDOUT;
        else if (part_fail_step && *part_fail_step == step)
            err = part_fail_errno;
        if (err != 0) {
            out.error = -err;
            c.failed_step = step;
            c.outcome = AMDX_PART_OUTCOME_ROLLED_BACK;
            ++s.stats.rollbacks;
            return fail(err);
        }
    }
    d->compute_mode = compute;
    d->memory_mode = memory;
    d->num_mem_partitions = nps_of(memory);
    for (std::uint32_t i = 0; i < d->num_mem_partitions; ++i)
        d->mem_partitions[i] = {.base = i * (d->vram_size / d->num_mem_partitions),
                                .size = d->vram_size / d->num_mem_partitions,
                                .free = d->vram_free / d->num_mem_partitions};
    s.partitions = topology;
    rebuild_ras(s, *d);
    ++s.generation;
    c.outcome = AMDX_PART_OUTCOME_COMMITTED;
    ++s.stats.commits;
    for (const std::uint32_t step : steps) {
        amdx_event ev{};
        ev.kind = AMDX_EVENT_PARTITION_SWITCH;
        ev.type = step;
        ev.partition = AMDX_RAS_PARTITION_ALL;
        ev.address = 1000ULL * step;
        emit(id, ev);
    }
    return 0;
}

int FakeKernel::vf_enable(std::uint32_t id, amdx_vf_enable& e) {
    vf_enables.push_back(e);
    const auto* d = find(id);
    if (d == nullptr)
        return fail(ENODEV);
    auto& s = state(id);
    e.reason = AMDX_PART_REASON_NONE;
    e.bad_vf = AMDX_VF_NONE;
    if ((e.flags & ~AMDX_VF_ENABLE_F_CUSTOM) != 0 || e.pad != 0)
        return fail(EINVAL);
    if (!s.vfs.empty())
        return fail(EBUSY);
    if (d->max_vfs == 0) {
        e.reason = AMDX_PART_REASON_VF_UNSUPPORTED;
        return fail(EINVAL);
    }
    if (e.num_vfs == 0 || e.num_vfs > d->max_vfs || e.num_vfs > s.partitions.size()) {
        e.reason = AMDX_PART_REASON_VF_COMPUTE;
        return fail(EINVAL);
    }
    std::vector<amdx_vf_config> configs(e.num_vfs);
    if ((e.flags & AMDX_VF_ENABLE_F_CUSTOM) != 0) {
        if (e.config_size != sizeof(amdx_vf_config) || e.configs == 0)
            return fail(EINVAL);
        std::memcpy(configs.data(), user_ptr(e.configs), configs.size() * sizeof(amdx_vf_config));
        vf_configs = configs;
        std::uint64_t total = 0;
        for (std::uint32_t i = 0; i < e.num_vfs; ++i) {
            const auto& c = configs[i];
            total += c.vram_quota;
            if (c.vram_quota % AMDX_VF_VRAM_ALIGN != 0 || c.vram_quota < AMDX_VF_VRAM_MIN ||
                c.time_slice_us < AMDX_VF_TIME_SLICE_MIN_US ||
                c.time_slice_us > AMDX_VF_TIME_SLICE_MAX_US || c.priority > AMDX_VF_PRIO_HIGH ||
                c.partition_mask == 0 || total > d->vram_size) {
                e.reason = AMDX_PART_REASON_VF_PROVISION;
                e.bad_vf = i;
                return fail(EINVAL);
            }
        }
    } else {
        const std::uint64_t quota =
            d->vram_size / e.num_vfs / AMDX_VF_VRAM_ALIGN * AMDX_VF_VRAM_ALIGN;
        for (std::uint32_t i = 0; i < e.num_vfs; ++i) {
            configs[i].time_slice_us = AMDX_VF_TIME_SLICE_DEFAULT_US;
            configs[i].vram_quota = quota;
            configs[i].priority = AMDX_VF_PRIO_NORMAL;
        }
        for (std::uint32_t p = 0; p < s.partitions.size(); ++p)
            configs[p % e.num_vfs].partition_mask |= 1U << p;
    }
    for (std::uint32_t i = 0; i < e.num_vfs; ++i) {
        amdx_vf_info v{};
        v.vf = i;
        v.state = AMDX_PART_STATE_ONLINE;
        v.config = configs[i];
        s.vfs.push_back(v);
        for (std::uint32_t p = 0; p < s.partitions.size(); ++p)
            if ((configs[i].partition_mask & (1U << p)) != 0)
                s.partitions[p].vf = i;
    }
    const_cast<amdx_device_info*>(d)->num_vfs = e.num_vfs;
    return 0;
}

int FakeKernel::vf_disable(std::uint32_t id, const amdx_vf_disable& dis) {
    auto& s = state(id);
    if (dis.flags != 0 || dis.pad != 0 || s.vfs.empty())
        return fail(EINVAL);
    s.vfs.clear();
    for (auto& p : s.partitions)
        p.vf = AMDX_VF_NONE;
    if (auto* d = const_cast<amdx_device_info*>(find(id)); d != nullptr)
        d->num_vfs = 0;
    return 0;
}

int FakeKernel::vf_set(std::uint32_t id, const amdx_vf_set& set) {
    vf_sets.push_back(set);
    auto& s = state(id);
    constexpr std::uint32_t kAll =
        AMDX_VF_SET_TIME_SLICE | AMDX_VF_SET_VRAM_QUOTA | AMDX_VF_SET_PRIORITY | AMDX_VF_SET_FLAGS;
    if (set.vf >= s.vfs.size() || set.valid == 0 || (set.valid & ~kAll) != 0)
        return fail(EINVAL);
    const auto& c = set.config;
    auto& v = s.vfs[set.vf].config;
    if ((set.valid & AMDX_VF_SET_TIME_SLICE) != 0 && (c.time_slice_us < AMDX_VF_TIME_SLICE_MIN_US ||
                                                      c.time_slice_us > AMDX_VF_TIME_SLICE_MAX_US))
        return fail(EINVAL);
    if ((set.valid & AMDX_VF_SET_VRAM_QUOTA) != 0 &&
        (c.vram_quota % AMDX_VF_VRAM_ALIGN != 0 || c.vram_quota < AMDX_VF_VRAM_MIN))
        return fail(EINVAL);
    if ((set.valid & AMDX_VF_SET_PRIORITY) != 0 && c.priority > AMDX_VF_PRIO_HIGH)
        return fail(EINVAL);
    if ((set.valid & AMDX_VF_SET_FLAGS) != 0 && (c.flags & ~AMDX_VF_F_EVICT) != 0)
        return fail(EINVAL);
    if ((set.valid & AMDX_VF_SET_TIME_SLICE) != 0)
        v.time_slice_us = c.time_slice_us;
    if ((set.valid & AMDX_VF_SET_VRAM_QUOTA) != 0)
        v.vram_quota = c.vram_quota;
    if ((set.valid & AMDX_VF_SET_PRIORITY) != 0)
        v.priority = c.priority;
    if ((set.valid & AMDX_VF_SET_FLAGS) != 0)
        v.flags = c.flags;
    return 0;
}

int FakeKernel::vf_reset(std::uint32_t id, amdx_vf_reset& r) {
    auto& s = state(id);
    // The kernel's checks in its order (amdx_ioctl_vf_reset()), each with its reason.
    auto refuse = [&r](std::uint32_t reason, int err) {
        r.reason = reason;
        return fail(err);
    };
    if (r.flags != 0 || r.reason != 0 || r.reserved != 0)
        return refuse(AMDX_PART_REASON_NONE, EINVAL);
    if (find(id)->max_vfs == 0)
        return refuse(AMDX_PART_REASON_VF_UNSUPPORTED, EOPNOTSUPP);
    if (r.vf >= s.vfs.size())
        return refuse(AMDX_PART_REASON_NO_VF, EINVAL);
    auto& v = s.vfs[r.vf];
    r.state = v.state;
    if (v.state == AMDX_PART_STATE_QUARANTINED)
        return refuse(AMDX_PART_REASON_VF_QUARANTINED, EBUSY);
    if (v.resets_in_window >= AMDX_VF_RESET_LIMIT) {
        v.state = AMDX_PART_STATE_QUARANTINED;
        r.state = v.state;
        return refuse(AMDX_PART_REASON_VF_RESET_LIMIT, EBUSY);
    }
    ++v.resets;
    ++v.resets_in_window;
    ++s.stats.vf_flrs;
    r.result = vf_ack_timeout ? AMDX_VF_RESET_ACK_TIMEOUT : AMDX_VF_RESET_ACKED;
    r.state = v.state;
    r.duration_ns = vf_ack_timeout ? 10000000 : 2000000;
    r.resets_in_window = v.resets_in_window;
    r.vram_cleared = v.vram_used;
    amdx_event ev{};
    ev.kind = AMDX_EVENT_VF_RESET;
    ev.instance = r.vf;
    ev.partition = AMDX_RAS_PARTITION_ALL;
    ev.data[0] = r.result;
    ev.data[1] = r.state;
    emit(id, ev);
    return 0;
}

int FakeKernel::handle_control(int fd, unsigned long request, void* arg) {
    if (!is_device_fd(fd))
        return fail(ENOTTY); // device fds only
    const std::uint32_t id = device_fds_.at(fd);
    if (find(id) == nullptr)
        return fail(ENODEV);
    switch (request) {
    case AMDX_IOC_PARTITION_PLAN:
        return part_config(id, *static_cast<amdx_partition_config*>(arg), false);
    case AMDX_IOC_PARTITION_COMMIT:
        return part_config(id, *static_cast<amdx_partition_config*>(arg), true);
    case AMDX_IOC_VF_ENABLE:
        return vf_enable(id, *static_cast<amdx_vf_enable*>(arg));
    case AMDX_IOC_VF_DISABLE:
        return vf_disable(id, *static_cast<amdx_vf_disable*>(arg));
    case AMDX_IOC_VF_SET:
        return vf_set(id, *static_cast<amdx_vf_set*>(arg));
    case AMDX_IOC_VF_RESET:
        return vf_reset(id, *static_cast<amdx_vf_reset*>(arg));
    case AMDX_IOC_RAS_INJECT:
        return ras_inject(id, *static_cast<amdx_ras_inject*>(arg));
    case AMDX_IOC_RAS_SET_POLICY:
        return ras_set_policy(id, *static_cast<amdx_ras_policy*>(arg));
    case AMDX_IOC_RAS_BADPAGES_IMPORT:
        return ras_import(id, *static_cast<amdx_ras_badpages_import*>(arg));
    case AMDX_IOC_EVENT_SUBSCRIBE:
        return subscribe(id, *static_cast<amdx_event_subscribe*>(arg));
    case AMDX_IOC_RECOVERY_PLAN:
        return recovery(id, *static_cast<amdx_recovery*>(arg), false);
    case AMDX_IOC_RECOVERY_RUN:
        return recovery(id, *static_cast<amdx_recovery*>(arg), true);
    default:
        return fail(ENOTTY);
    }
}

} // namespace amdx::test
