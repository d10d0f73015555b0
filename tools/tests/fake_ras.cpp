// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The fake kernel's RAS and event log (see fake_kernel.hpp).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <amdx/ras.hpp>

#include "fake_kernel.hpp"

namespace amdx::test {

using fake::fail;
using fake::user_ptr;

namespace {

constexpr std::uint64_t kPage = 4096;

bool power_of_two(std::uint32_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

std::vector<BadPage> to_pages(const std::vector<amdx_badpage_record>& records) {
    std::vector<BadPage> pages;
    pages.reserve(records.size());
    for (const auto& r : records)
        pages.push_back(BadPage{.address = r.address,
                                .time = r.time,
                                .partition = r.partition,
                                .cause = static_cast<BadPageCause>(r.cause),
                                .flags = r.flags});
    return pages;
}

/// Whether the read end of the pipe @fd writes to is closed (a write would
/// raise SIGPIPE).
bool reader_gone(int fd) {
    pollfd p{.fd = fd, .events = POLLOUT, .revents = 0};
    return ::poll(&p, 1, 0) == 1 && (p.revents & POLLERR) != 0;
}

bool retired(const FakeKernel::State& s, std::uint64_t address) {
    return std::any_of(s.badpages.begin(), s.badpages.end(),
                       [address](const auto& r) { return r.address == address / kPage * kPage; });
}

} // namespace

int FakeKernel::ras_query(std::uint32_t id, amdx_query& q) {
    if (find(id) == nullptr)
        return fail(ENODEV);
    auto& s = state(id);
    switch (q.query) {
    case AMDX_QUERY_RAS_COUNTERS: {
        amdx_query_ras h{};
        h.num_entries = static_cast<std::uint32_t>(s.ras.size());
        h.entry_size = sizeof(amdx_ras_counters);
        h.flags = s.ras_flags;
        h.retired_pages = static_cast<std::uint32_t>(s.badpages.size());
        h.pending_pages = s.pending_pages;
        return fake::answer_list(q, &h, sizeof(h), s.ras.data(), s.ras.size(),
                                 sizeof(amdx_ras_counters), sizeof(amdx_ras_counters));
    }
    case AMDX_QUERY_RAS_POLICY:
        return fake::answer_fixed(q, &s.policy, sizeof(s.policy), sizeof(s.policy));
    default: {
        const auto bytes = badpage_bytes.value_or(encode_badpages(to_pages(s.badpages)));
        const auto len = static_cast<std::uint32_t>(bytes.size());
        return fake::answer_fixed(q, bytes.data(), len, len);
    }
    }
}

int FakeKernel::ras_inject(std::uint32_t id, amdx_ras_inject& r) {
    ras_injects.push_back(r);
    const auto* d = find(id);
    auto& s = state(id);
    // The kernel's checks in its order (amdx_ioctl_ras_inject()), each with its reason.
    auto refuse = [&r](std::uint32_t reason, int err) {
        r.reason = reason;
        return fail(err);
    };
    if (r.flags != 0 || r.reason != 0 || r.seq != 0 || r.reserved[0] != 0 || r.reserved[1] != 0)
        return refuse(AMDX_RAS_INJECT_REASON_ARGS, EINVAL);
    if (r.block >= AMDX_RAS_BLOCK_COUNT)
        return refuse(AMDX_RAS_INJECT_REASON_BLOCK, EINVAL);
    if (r.type >= AMDX_RAS_TYPE_COUNT)
        return refuse(AMDX_RAS_INJECT_REASON_TYPE, EINVAL);
    const std::size_t rows = s.partitions.size() + 1;
    auto& total = s.ras[r.block * rows];
    if (total.instances == 0)
        return refuse(AMDX_RAS_INJECT_REASON_NO_BLOCK, EOPNOTSUPP);
    if ((total.supported & (1U << r.type)) == 0)
        return refuse(AMDX_RAS_INJECT_REASON_NO_TYPE, EOPNOTSUPP);
    if (r.instance >= total.instances)
        return refuse(AMDX_RAS_INJECT_REASON_INSTANCE, EINVAL);
    if (r.count == 0 || r.count > 1024)
        return refuse(AMDX_RAS_INJECT_REASON_COUNT_RANGE, EINVAL);
    const bool umc = r.block == AMDX_RAS_BLOCK_UMC;
    if (!umc && r.address != 0)
        return refuse(AMDX_RAS_INJECT_REASON_ADDRESS_BLOCK, EINVAL);
    if (umc && r.address >= d->vram_size)
        return refuse(AMDX_RAS_INJECT_REASON_ADDRESS_RANGE, EINVAL);
    if (umc && retired(s, r.address))
        return refuse(AMDX_RAS_INJECT_REASON_RETIRED, EINVAL);
    const auto part =
        static_cast<std::uint32_t>(r.instance * s.partitions.size() / total.instances);
    total.count[r.type] += r.count;
    s.ras[r.block * rows + 1 + part].count[r.type] += r.count;

    amdx_event ev{};
    ev.kind = AMDX_EVENT_ERROR;
    ev.block = r.block;
    ev.type = r.type;
    ev.instance = r.instance;
    ev.partition = part;
    ev.address = r.address;
    ev.data[0] = r.count;
    const bool consumed = r.type == AMDX_RAS_TYPE_UE &&
                          (r.block == AMDX_RAS_BLOCK_GFX || r.block == AMDX_RAS_BLOCK_SDMA);
    const std::uint64_t event = r.type == AMDX_RAS_TYPE_CE ? 0 : ++ras_driver_events;
    ras_driver_event_type = r.type == AMDX_RAS_TYPE_CE   ? AMDX_DRIVER_EVENT_NONE
                            : r.type == AMDX_RAS_TYPE_DE ? AMDX_DRIVER_EVENT_POISON_CREATION
                            : consumed                   ? AMDX_DRIVER_EVENT_POISON_CONSUMPTION
                                                         : AMDX_DRIVER_EVENT_FATAL;
    r.seq = consumed
                ? emit(id, ev, ras_consumer_pid, ras_consumer_pasid, event, ras_driver_event_type)
                : emit(id, ev, 0, 0, event, ras_driver_event_type);
    if (umc && r.type != AMDX_RAS_TYPE_CE) {
        amdx_badpage_record rec{};
        rec.address = r.address / kPage * kPage;
        rec.time = 1700000000;
        rec.cause = r.type == AMDX_RAS_TYPE_UE ? AMDX_BADPAGE_CAUSE_UE : AMDX_BADPAGE_CAUSE_DE;
        s.badpages.push_back(rec);
        amdx_event retire{};
        retire.kind = AMDX_EVENT_PAGE_RETIRED;
        retire.partition = part;
        retire.address = rec.address;
        retire.data[0] = rec.cause;
        emit(id, retire);
    }
    return 0;
}

int FakeKernel::ras_set_policy(std::uint32_t id, const amdx_ras_policy& p) {
    ras_policies.push_back(p);
    auto& s = state(id);
    if (p.valid == 0 || (p.valid & ~AMDX_RAS_POL_ALL) != 0 || p.pad != 0 || p.reserved[0] != 0 ||
        p.reserved[1] != 0)
        return fail(EINVAL);
    auto check = [&p](std::uint32_t bit, bool ok) { return (p.valid & bit) == 0 || ok; };
    if (!check(AMDX_RAS_POL_CE_PAGE_THRESHOLD,
               p.ce_page_threshold >= 1 && p.ce_page_threshold <= 65535) ||
        !check(AMDX_RAS_POL_CE_WINDOW, p.ce_window_s >= 1 && p.ce_window_s <= 30 * 86400) ||
        !check(AMDX_RAS_POL_BAD_PAGE_THRESHOLD,
               p.bad_page_threshold > 0 || p.bad_page_threshold == AMDX_RAS_BAD_PAGE_WARN ||
                   p.bad_page_threshold == AMDX_RAS_BAD_PAGE_AUTO) ||
        !check(AMDX_RAS_POL_PART_RESET_LIMIT,
               p.part_reset_limit >= 1 && p.part_reset_limit <= 100) ||
        !check(AMDX_RAS_POL_PART_RESET_WINDOW,
               p.part_reset_window_s >= 1 && p.part_reset_window_s <= 86400) ||
        !check(AMDX_RAS_POL_FLAGS, (p.flags & ~AMDX_RAS_POL_F_RMA_REFUSE) == 0))
        return fail(EINVAL);
    if ((p.valid & AMDX_RAS_POL_CE_PAGE_THRESHOLD) != 0)
        s.policy.ce_page_threshold = p.ce_page_threshold;
    if ((p.valid & AMDX_RAS_POL_CE_WINDOW) != 0)
        s.policy.ce_window_s = p.ce_window_s;
    if ((p.valid & AMDX_RAS_POL_BAD_PAGE_THRESHOLD) != 0)
        s.policy.bad_page_threshold = p.bad_page_threshold;
    if ((p.valid & AMDX_RAS_POL_PART_RESET_LIMIT) != 0)
        s.policy.part_reset_limit = p.part_reset_limit;
    if ((p.valid & AMDX_RAS_POL_PART_RESET_WINDOW) != 0)
        s.policy.part_reset_window_s = p.part_reset_window_s;
    if ((p.valid & AMDX_RAS_POL_FLAGS) != 0)
        s.policy.flags = p.flags;
    return 0;
}

int FakeKernel::ras_import(std::uint32_t id, amdx_ras_badpages_import& imp) {
    const auto* d = find(id);
    auto& s = state(id);
    if (imp.pad != 0 || imp.pad2 != 0 || imp.reserved[0] != 0 || imp.reserved[1] != 0)
        return fail(EINVAL);
    const auto* p = static_cast<const std::byte*>(user_ptr(imp.data));
    badpage_imports.emplace_back(p, p + imp.size);
    const auto pages = decode_badpages(badpage_imports.back());
    if (!pages)
        return fail(EBADMSG);
    if (std::any_of(pages->begin(), pages->end(),
                    [d](const BadPage& b) { return b.address >= d->vram_size; }))
        return fail(EINVAL);
    imp.imported = 0;
    for (const auto& b : *pages) {
        if (retired(s, b.address))
            continue;
        amdx_badpage_record rec{};
        rec.address = b.address / kPage * kPage;
        rec.time = b.time;
        rec.partition = b.partition;
        rec.cause = AMDX_BADPAGE_CAUSE_IMPORT;
        s.badpages.push_back(rec);
        ++imp.imported;
    }
    return 0;
}

int FakeKernel::subscribe(std::uint32_t id, amdx_event_subscribe& sub) {
    if (sub.mask == 0 || (sub.mask & ~AMDX_EVENT_MASK_ALL) != 0 ||
        (sub.flags & ~static_cast<std::uint32_t>(AMDX_EVENT_F_ALL)) != 0 || sub.pad != 0 ||
        sub.reserved[0] != 0 || sub.reserved[1] != 0)
        return fail(EINVAL);
    if ((sub.flags & AMDX_EVENT_F_SIZE_VER1) != 0 && caps.version_minor < 3)
        return fail(EINVAL); // a module before minor 3 knows no such flag
    if ((sub.flags & AMDX_EVENT_F_SIZE_VER2) != 0 &&
        (caps.version_minor < 9 || (sub.flags & AMDX_EVENT_F_SIZE_VER1) != 0))
        return fail(EINVAL); // before minor 9 no such flag; one size per fd
    if ((sub.flags & AMDX_EVENT_F_SIZE_VER3) != 0 &&
        (caps.version_minor < 10 ||
         (sub.flags & (AMDX_EVENT_F_SIZE_VER1 | AMDX_EVENT_F_SIZE_VER2)) != 0))
        return fail(EINVAL); // before minor 10 no such flag; one size per fd
    if (sub.ring_size != 0 &&
        (!power_of_two(sub.ring_size) || sub.ring_size < AMDX_EVENT_RING_MIN ||
         sub.ring_size > AMDX_EVENT_RING_MAX))
        return fail(EINVAL);
    int fds[2];
    const int nonblock = (sub.flags & AMDX_EVENT_F_NONBLOCK) != 0 ? O_NONBLOCK : 0;
    if (::pipe2(fds, O_CLOEXEC | nonblock) != 0)
        return -1;
    subscribers.push_back(Subscriber{.device = id,
                                     .mask = sub.mask,
                                     .ring_size = sub.ring_size,
                                     .write_fd = fds[1],
                                     .flags = sub.flags});
    sub.fd = fds[0];
    if (const auto it = backlog.find(id); it != backlog.end()) {
        const auto events = it->second;
        for (const auto& ev : events) { // to this subscriber only
            const auto keep = subscribers;
            subscribers = {keep.back()};
            if (ev.kind == AMDX_EVENT_ERROR)
                emit(id, ev, ras_consumer_pid, ras_consumer_pasid, ras_driver_events,
                     ras_driver_event_type);
            else
                emit(id, ev);
            subscribers = keep;
        }
        if (hang_up_after_backlog) {
            ::close(subscribers.back().write_fd);
            subscribers.back().write_fd = -1;
        }
    }
    return 0;
}

std::uint64_t FakeKernel::emit(std::uint32_t id, amdx_event ev, std::uint32_t pid,
                               std::uint32_t pasid, std::uint64_t driver_event,
                               std::uint32_t driver_event_type) {
    auto& s = state(id);
    if (ev.kind != AMDX_EVENT_LOST)
        ++s.stats.events_emitted;
    if (ev.seq == 0)
        ev.seq = ++s.seq;
    else
        s.seq = std::max<std::uint64_t>(s.seq, ev.seq);
    ev.device = id;
    ev.size = sizeof(ev);
    if (ev.timestamp_ns == 0) {
        timespec ts{};
        ::clock_gettime(CLOCK_MONOTONIC, &ts);
        ev.timestamp_ns = static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL +
                          static_cast<std::uint64_t>(ts.tv_nsec);
    }
    for (auto& sub : subscribers) {
        const bool wanted = ev.kind == AMDX_EVENT_LOST || (sub.mask & (1ULL << ev.kind)) != 0;
        if (sub.device == id && sub.write_fd >= 0 && wanted && reader_gone(sub.write_fd)) {
            ::close(sub.write_fd); // the subscriber closed its stream
            sub.write_fd = -1;
        }
        if (sub.device != id || sub.write_fd < 0 || !wanted)
            continue;
        amdx_event_v3 rec{};
        rec.v2.v1.ev = ev;
        std::size_t len = sizeof(ev);
        if ((sub.flags & AMDX_EVENT_F_SIZE_VER3) != 0)
            len = sizeof(rec);
        else if ((sub.flags & AMDX_EVENT_F_SIZE_VER2) != 0)
            len = sizeof(rec.v2);
        else if ((sub.flags & AMDX_EVENT_F_SIZE_VER1) != 0)
            len = sizeof(rec.v2.v1);
        if (len > sizeof(ev)) {
            rec.v2.v1.ev.size = static_cast<__u16>(len);
            rec.v2.v1.pid = pid;
            rec.v2.v1.pasid = pasid;
            rec.v2.driver_event = driver_event;
            rec.driver_event_type = driver_event_type;
        }
        if (::write(sub.write_fd, &rec, len) != static_cast<ssize_t>(len))
            std::abort(); // the pipe is full: a test emitted more than it reads
    }
    return ev.seq;
}

void FakeKernel::hang_up(std::uint32_t id) {
    for (auto& sub : subscribers) {
        if (sub.device == id && sub.write_fd >= 0) {
            ::close(sub.write_fd);
            sub.write_fd = -1;
        }
    }
}

} // namespace amdx::test
