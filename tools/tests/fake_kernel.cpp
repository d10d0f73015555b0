// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "fake_kernel.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace amdx::test {

namespace {

FakeKernel* g_current = nullptr; // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

template <std::size_t N>
void set_string(__u8 (&field)[N], const std::string& s) {
    std::memset(field, 0, N);
    std::memcpy(field, s.data(), std::min(s.size(), N - 1));
}

using fake::user_ptr;

using fake::fail;

/// Copies @len bytes of a result out under the two-call protocol, truncated
/// to the buffer when that holds at least @min_len bytes.
int answer(amdx_query& q, const void* src, std::uint32_t len, std::uint32_t min_len) {
    const std::uint32_t room = q.size;
    q.size = len;
    if (room == 0)
        return 0;
    if (room < min_len)
        return fail(ENOSPC);
    q.size = std::min(len, room);
    std::memcpy(user_ptr(q.data), src, q.size);
    return 0;
}

/// A list: all of it or -ENOSPC.
int answer(amdx_query& q, const std::vector<unsigned char>& buf) {
    const auto len = static_cast<std::uint32_t>(buf.size());
    return answer(q, buf.data(), len, len);
}

/// @raw as a result of @len bytes: truncated, or extended with 0xa5 bytes
/// (fields of a newer kernel).
template <class Raw>
std::vector<unsigned char> sized(const Raw& raw, std::optional<std::uint32_t> len) {
    std::vector<unsigned char> out(len.value_or(sizeof(raw)), 0xa5);
    std::memcpy(out.data(), &raw, std::min(out.size(), sizeof(raw)));
    return out;
}

/// Appends @raw as an entry of @entry_size bytes (0xa5 beyond the struct).
template <class Raw>
void append_entry(std::vector<unsigned char>& buf, const Raw& raw, std::uint32_t entry_size) {
    const std::size_t at = buf.size();
    buf.resize(at + entry_size, 0xa5);
    std::memcpy(buf.data() + at, &raw, std::min<std::size_t>(entry_size, sizeof(raw)));
}

template <class Header>
std::vector<unsigned char> header_bytes(const Header& header) {
    std::vector<unsigned char> buf(sizeof(header));
    std::memcpy(buf.data(), &header, sizeof(header));
    return buf;
}

std::uint64_t page_size() {
    return static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

bool bad_span(std::uint64_t start, std::uint64_t size) {
    return size == 0 || start % page_size() != 0 || size % page_size() != 0 || start + size < start;
}

/// Pages of [@a, @a + @as) that also lie in [@b, @b + @bs).
std::uint64_t overlap_pages(std::uint64_t a, std::uint64_t as, std::uint64_t b, std::uint64_t bs) {
    const std::uint64_t lo = std::max(a, b);
    const std::uint64_t hi = std::min(a + as, b + bs);
    return hi > lo ? (hi - lo) / page_size() : 0;
}

constexpr std::uint64_t kFakeNsPerPage = 1000;

} // namespace

namespace fake {

int fail(int err) {
    errno = err;
    return -1;
}

void* user_ptr(__u64 data) {
    return reinterpret_cast<void*>( // NOLINT(performance-no-int-to-ptr): it is a user pointer
        static_cast<std::uintptr_t>(data));
}

int answer_fixed(amdx_query& q, const void* src, std::uint32_t len, std::uint32_t min_len) {
    return answer(q, src, len, min_len);
}

int answer_list(amdx_query& q, const void* header, std::size_t header_size, const void* entries,
                std::size_t count, std::size_t raw_entry_size, std::uint32_t entry_size) {
    std::vector<unsigned char> buf(header_size);
    std::memcpy(buf.data(), header, header_size);
    const auto* p = static_cast<const unsigned char*>(entries);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t at = buf.size();
        buf.resize(at + entry_size, 0xa5);
        std::memcpy(buf.data() + at, p + i * raw_entry_size,
                    std::min<std::size_t>(entry_size, raw_entry_size));
    }
    return answer(q, buf);
}

} // namespace fake

FakeKernel::FakeKernel() : saved_(detail::sys_ioctl) {
    caps.version_major = AMDX_UAPI_VERSION_MAJOR;
    caps.version_minor = AMDX_UAPI_VERSION_MINOR;
    caps.caps = AMDX_CAP_DEVICE_QUERY;
    g_current = this;
    detail::sys_ioctl = &FakeKernel::dispatch;
}

FakeKernel::~FakeKernel() {
    for (const auto& sub : subscribers)
        if (sub.write_fd >= 0)
            ::close(sub.write_fd);
    detail::sys_ioctl = saved_;
    g_current = nullptr;
}

amdx_device_info FakeKernel::make_device(std::uint32_t id) {
    constexpr std::uint64_t kGiB = 1ULL << 30;
    amdx_device_info d{};
    d.id = id;
    d.model = AMDX_MODEL_MI300X;
    char bdf[AMDX_BDF_LEN];
    std::snprintf(bdf, sizeof(bdf), "0000:%02x:00.0", 0xc1 + id);
    set_string(d.bdf, bdf);
    set_string(d.serial, "SN" + std::to_string(1000 + id));
    set_string(d.product, "AMD Instinct MI300X");
    d.vram_size = 192 * kGiB;
    d.vram_free = 190 * kGiB;
    d.num_xcc = 8;
    d.num_sdma = 16;
    d.num_vcn = 4;
    d.compute_mode = AMDX_COMPUTE_SPX;
    d.memory_mode = AMDX_MEMORY_NPS1;
    d.supported_compute_modes = (1U << AMDX_COMPUTE_SPX) | (1U << AMDX_COMPUTE_DPX) |
                                (1U << AMDX_COMPUTE_QPX) | (1U << AMDX_COMPUTE_CPX);
    d.supported_memory_modes =
        (1U << AMDX_MEMORY_NPS1) | (1U << AMDX_MEMORY_NPS2) | (1U << AMDX_MEMORY_NPS4);
    d.num_mem_partitions = 1;
    d.mem_partitions[0] = {.base = 0, .size = d.vram_size, .free = d.vram_free};
    d.max_vfs = 8;
    d.flags = AMDX_DEVICE_F_HMM;
    return d;
}

int FakeKernel::dispatch(int fd, unsigned long request, void* arg) {
    return g_current->handle(fd, request, arg);
}

const amdx_device_info* FakeKernel::find(std::uint32_t id) const {
    const auto it = std::find_if(devices.begin(), devices.end(),
                                 [id](const amdx_device_info& d) { return d.id == id; });
    return it == devices.end() ? nullptr : &*it;
}

bool FakeKernel::is_device_fd(int fd) const {
    struct stat st {};
    return device_fds_.count(fd) != 0 && ::fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) &&
           st.st_rdev == makedev(1, 5); // /dev/zero; a reused number is not a device
}

int FakeKernel::handle(int fd, unsigned long request, void* arg) {
    Call call{.request = request, .query = 0, .size = 0, .id = 0, .fd = fd};
    if (request == AMDX_IOC_QUERY) {
        const auto* q = static_cast<const amdx_query*>(arg);
        call.query = q->query;
        call.size = q->size;
        call.id = q->id;
    }
    calls.push_back(call);
    if (eintr > 0) {
        --eintr;
        return fail(EINTR);
    }

    if (const auto it = fail_ioctl.find(request); it != fail_ioctl.end())
        return fail(it->second);
    if (request == AMDX_IOC_QUERY)
        return query(fd, *static_cast<amdx_query*>(arg));
    if (request == AMDX_IOC_DEVICE_OPEN) {
        auto* op = static_cast<amdx_device_open*>(arg);
        if (is_device_fd(fd))
            return fail(ENOTTY); // control node only
        if (op->flags != 0 || op->vf != 0)
            return fail(EINVAL);
        if (find(op->id) == nullptr)
            return fail(ENODEV);
        op->fd = ::open("/dev/zero", O_RDWR | O_CLOEXEC);
        device_fds_[op->fd] = op->id;
        hmm_.erase(op->fd); // a new fd starts without ranges
        return 0;
    }
    if (request == AMDX_IOC_HMM_SET_ATTR)
        return hmm_set_attr(fd, *static_cast<amdx_hmm_attr*>(arg));
    if (request == AMDX_IOC_HMM_MIGRATE)
        return hmm_migrate(fd, *static_cast<amdx_hmm_migrate*>(arg));
    if (request == AMDX_IOC_HMM_ACCESS)
        return hmm_access(fd, *static_cast<amdx_hmm_access*>(arg));
    return handle_control(fd, request, arg);
}

int FakeKernel::hmm_check(int fd) const {
    if (!is_device_fd(fd))
        return ENOTTY; // device fds only
    if ((caps.caps & AMDX_CAP_HMM_MIGRATE) == 0)
        return EOPNOTSUPP;
    if (hmm_foreign)
        return EBADF;
    return 0;
}

bool FakeKernel::valid_loc(int fd, std::uint32_t loc) const {
    const auto* d = find(device_fds_.at(fd));
    return loc == AMDX_HMM_LOC_SYSTEM || (d != nullptr && loc < d->num_mem_partitions);
}

int FakeKernel::hmm_set_attr(int fd, amdx_hmm_attr& a) {
    hmm_attrs.push_back(a);
    if (const int err = hmm_check(fd); err != 0)
        return fail(err);
    if ((a.valid & ~AMDX_HMM_ATTR_ALL) != 0 || a.reserved[0] != 0 || a.reserved[1] != 0 ||
        bad_span(a.start, a.size))
        return fail(EINVAL);
    if ((a.valid & AMDX_HMM_ATTR_PREFERRED_LOC) != 0 && !valid_loc(fd, a.preferred_loc))
        return fail(EINVAL);
    if ((a.valid & AMDX_HMM_ATTR_GRANULARITY) != 0 && a.granularity > AMDX_HMM_GRANULARITY_MAX)
        return fail(EINVAL);
    if ((a.valid & AMDX_HMM_ATTR_FLAGS) != 0 && (a.flags & ~AMDX_HMM_F_PIN) != 0)
        return fail(EINVAL);

    auto& ranges = hmm(fd).ranges;
    auto it = std::find_if(ranges.begin(), ranges.end(), [&a](const amdx_hmm_range_info& r) {
        return r.start == a.start && r.size == a.size;
    });
    if (it == ranges.end()) {
        amdx_hmm_range_info r{};
        r.start = a.start;
        r.size = a.size;
        r.preferred_loc = AMDX_HMM_LOC_SYSTEM;
        r.granularity = AMDX_HMM_GRANULARITY_DEFAULT;
        r.access = 1ULL << device_fds_.at(fd);
        it = ranges.insert(
            std::upper_bound(ranges.begin(), ranges.end(), r,
                             [](const auto& x, const auto& y) { return x.start < y.start; }),
            r);
    }
    if ((a.valid & AMDX_HMM_ATTR_PREFERRED_LOC) != 0)
        it->preferred_loc = a.preferred_loc;
    if ((a.valid & AMDX_HMM_ATTR_GRANULARITY) != 0)
        it->granularity = a.granularity;
    if ((a.valid & AMDX_HMM_ATTR_FLAGS) != 0)
        it->flags = a.flags;
    if ((a.valid & AMDX_HMM_ATTR_ACCESS) != 0)
        it->access = a.access;
    return 0;
}

int FakeKernel::hmm_migrate(int fd, amdx_hmm_migrate& m) {
    hmm_migrates.push_back(m);
    if (const int err = hmm_check(fd); err != 0)
        return fail(err);
    if (m.flags != 0 || m.pad != 0 || m.reserved[0] != 0 || m.reserved[1] != 0 ||
        bad_span(m.start, m.size))
        return fail(EINVAL);
    if (m.dest != AMDX_HMM_LOC_PREFERRED && !valid_loc(fd, m.dest))
        return fail(EINVAL);
    auto& state = hmm(fd);
    std::uint64_t covered = 0;
    for (const auto& r : state.ranges)
        covered += overlap_pages(m.start, m.size, r.start, r.size);
    if (covered != m.size / page_size())
        return fail(EINVAL); // not all in ranges set before

    m.moved = m.already = m.skipped = 0;
    m.skip_reasons = 0;
    std::uint64_t to_vram = 0, home = 0;
    for (auto& r : state.ranges) {
        const std::uint64_t pages = overlap_pages(m.start, m.size, r.start, r.size);
        if (pages == 0)
            continue;
        const std::uint32_t dest = m.dest == AMDX_HMM_LOC_PREFERRED ? r.preferred_loc : m.dest;
        const std::uint64_t moved =
            dest == AMDX_HMM_LOC_SYSTEM
                ? std::min<std::uint64_t>(pages, r.resident_pages)
                : std::min<std::uint64_t>(pages, (r.size / page_size()) - r.resident_pages);
        m.moved += moved;
        m.already += pages - moved;
        (dest == AMDX_HMM_LOC_SYSTEM ? home : to_vram) += moved;
        const std::uint64_t bytes = moved * page_size();
        for (amdx_hmm_stats* st : {&r.stats, &state.total}) {
            if (dest == AMDX_HMM_LOC_SYSTEM) {
                st->pages_out += moved;
                st->bytes_out += bytes;
                st->ns_out += moved * kFakeNsPerPage;
            } else {
                st->pages_in += moved;
                st->bytes_in += bytes;
                st->ns_in += moved * kFakeNsPerPage;
            }
        }
        if (dest == AMDX_HMM_LOC_SYSTEM)
            r.resident_pages -= moved;
        else
            r.resident_pages += moved;
        if (dest != AMDX_HMM_LOC_SYSTEM && moved != 0 && hmm_corrupt_on_migrate)
            *static_cast<unsigned char*>(user_ptr(std::max(m.start, r.start))) ^= 0xff;
    }
    auto& stats = this->state(device_fds_.at(fd)).stats;
    if (to_vram != 0) {
        ++stats.migrations_to_vram;
        stats.bytes_to_vram += to_vram * page_size();
    }
    if (home != 0) {
        ++stats.migrations_to_ram;
        stats.bytes_to_ram += home * page_size();
    }
    if (hmm_migrate_result) {
        m.moved = hmm_migrate_result->moved;
        m.already = hmm_migrate_result->already;
        m.skipped = hmm_migrate_result->skipped;
        m.skip_reasons = hmm_migrate_result->skip_reasons;
    }
    return 0;
}

int FakeKernel::hmm_access(int fd, amdx_hmm_access& a) {
    hmm_accesses.push_back(a);
    if (const int err = hmm_check(fd); err != 0)
        return fail(err);
    constexpr std::uint64_t kMaxAccess = 64ULL << 20;
    if (a.flags != 0 || a.reserved[0] != 0 || a.reserved[1] != 0 || bad_span(a.addr, a.size) ||
        a.size > kMaxAccess || a.op > AMDX_HMM_ACCESS_SNAPSHOT ||
        (a.vram_pfns != 0 && a.op != AMDX_HMM_ACCESS_SNAPSHOT))
        return fail(EINVAL);
    switch (a.op) {
    case AMDX_HMM_ACCESS_READ:
        std::memcpy(user_ptr(a.buf), user_ptr(a.addr), a.size);
        break;
    case AMDX_HMM_ACCESS_WRITE:
        std::memcpy(user_ptr(a.addr), user_ptr(a.buf), a.size);
        break;
    default: {
        const std::uint64_t pages = a.size / page_size();
        auto* snap = static_cast<std::uint8_t*>(user_ptr(a.buf));
        auto* pfns = static_cast<std::uint64_t*>(user_ptr(a.vram_pfns));
        for (std::uint64_t i = 0; i < pages; ++i) {
            snap[i] = AMDX_HMM_SNAP_READ | AMDX_HMM_SNAP_WRITE;
            if (pfns != nullptr)
                pfns[i] = i == 0 ? 7 : ~0ULL; // page 0 "in VRAM page 7"
        }
        if (pages != 0)
            snap[0] |= AMDX_HMM_SNAP_DEV_LOCAL;
        break;
    }
    }
    a.faults = hmm_access_faults;
    return 0;
}

int FakeKernel::hmm_query(int fd, amdx_query& q) {
    if (!is_device_fd(fd) || q.id != 0)
        return fail(EINVAL);
    if ((caps.caps & AMDX_CAP_HMM_MIGRATE) == 0)
        return fail(EOPNOTSUPP);
    if (hmm_foreign)
        return fail(EBADF);
    auto& state = hmm(fd);
    if (q.size != 0 && hmm_grow_on_fetch > 0) {
        --hmm_grow_on_fetch;
        amdx_hmm_range_info r{};
        r.start = (state.ranges.empty() ? 1ULL << 32 : state.ranges.back().start + (1ULL << 30));
        r.size = page_size();
        r.preferred_loc = AMDX_HMM_LOC_SYSTEM;
        state.ranges.push_back(r);
    }
    amdx_query_hmm_ranges header{};
    header.num_ranges = static_cast<std::uint32_t>(state.ranges.size());
    header.entry_size = hmm_entry_size;
    header.pid = static_cast<std::uint32_t>(hmm_pid != 0 ? hmm_pid : ::getpid());
    header.total = state.total;
    auto buf = header_bytes(header);
    for (const auto& r : state.ranges)
        append_entry(buf, r, hmm_entry_size);
    return answer(q, buf);
}

FakeKernel::Firmware FakeKernel::make_firmware() {
    Firmware fw{.driver_version = "0.1.0",
                .provider = "amdx_sim",
                .provider_version = "0.1.0",
                .entries = {}};
    fw.entries = {
        {.id = AMDX_FW_SMU, .instance = 0, .version = 0x00557100, .feature = 0, .reserved = 0},
        {.id = AMDX_FW_PSP_SOS, .instance = 0, .version = 0x0036003b, .feature = 0, .reserved = 0},
        {.id = AMDX_FW_MEC, .instance = 0, .version = 0x99, .feature = 50, .reserved = 0},
        {.id = AMDX_FW_SDMA, .instance = 1, .version = 0x15, .feature = 60, .reserved = 0},
    };
    return fw;
}

int FakeKernel::query(int fd, amdx_query& q) {
    if (q.flags != 0 || q.reserved[0] != 0 || q.reserved[1] != 0)
        return fail(EINVAL);
    if (fail_query && *fail_query == q.query)
        return fail(fail_errno);
    const bool on_device = is_device_fd(fd);

    switch (q.query) {
    case AMDX_QUERY_CAPS: {
        if (q.id != 0)
            return fail(EINVAL);
        amdx_query_caps c = caps;
        c.num_devices = static_cast<std::uint32_t>(devices.size());
        const auto buf = sized(c, caps_len);
        return answer(q, buf.data(), static_cast<std::uint32_t>(buf.size()),
                      AMDX_QUERY_CAPS_SIZE_VER0);
    }
    case AMDX_QUERY_DEVICES: {
        if (q.id != 0)
            return fail(EINVAL);
        if (q.size != 0 && appear_on_fetch > 0 && --appear_on_fetch == 0)
            add_device(devices.empty() ? 0 : devices.back().id + 1);
        if (q.size != 0 && grow_on_fetch > 0) {
            --grow_on_fetch;
            add_device(devices.empty() ? 0 : devices.back().id + 1);
        }
        amdx_query_devices header{};
        header.num_devices = static_cast<std::uint32_t>(devices.size());
        header.entry_size = device_entry_size;
        auto buf = header_bytes(header);
        for (const auto& d : devices) {
            amdx_device_entry e{};
            e.id = d.id;
            e.model = d.model;
            std::memcpy(e.bdf, d.bdf, sizeof(e.bdf));
            append_entry(buf, e, device_entry_size);
        }
        if (forced_list_size) { // real bytes, wrong size
            if (q.size != 0)
                std::memcpy(user_ptr(q.data), buf.data(),
                            std::min<std::size_t>(q.size, buf.size()));
            q.size = *forced_list_size;
            return 0;
        }
        return answer(q, buf);
    }
    case AMDX_QUERY_DEVICE_INFO: {
        if (on_device && q.id != 0)
            return fail(EINVAL);
        const auto* d = find(on_device ? device_fds_.at(fd) : q.id);
        if (d == nullptr)
            return fail(ENODEV);
        const auto buf = sized(*d, info_len);
        return answer(q, buf.data(), static_cast<std::uint32_t>(buf.size()),
                      AMDX_DEVICE_INFO_SIZE_VER0);
    }
    case AMDX_QUERY_HMM_RANGES:
        return hmm_query(fd, q);
    case AMDX_QUERY_PARTITIONS:
    case AMDX_QUERY_VFS:
    case AMDX_QUERY_RESET_SCOPE:
        if (!on_device || q.id != 0)
            return fail(EINVAL);
        return part_query(device_fds_.at(fd), q);
    case AMDX_QUERY_RAS_COUNTERS:
    case AMDX_QUERY_RAS_POLICY:
    case AMDX_QUERY_BADPAGES:
        if (!on_device || q.id != 0)
            return fail(EINVAL);
        return ras_query(device_fds_.at(fd), q);
    case AMDX_QUERY_LINKS: {
        if (!on_device || q.id != 0)
            return fail(EINVAL);
        const auto* d = find(device_fds_.at(fd));
        if (d == nullptr)
            return fail(ENODEV);
        amdx_query_links header{};
        header.hive_id = d->hive_id;
        header.entry_size = link_entry_size;
        std::vector<const amdx_link_info*> hive;
        for (const auto& l : links) {
            const auto* end = find(l.device[0]);
            // A pod's link with no end on this host: in every hive.
            const bool remote = l.device[0] == UINT32_MAX && l.device[1] == UINT32_MAX;
            if (d->hive_id != 0 && (remote || (end != nullptr && end->hive_id == d->hive_id)))
                hive.push_back(&l);
        }
        header.num_links = static_cast<std::uint32_t>(hive.size());
        auto buf = header_bytes(header);
        for (const auto* l : hive)
            append_entry(buf, *l, link_entry_size);
        return answer(q, buf);
    }
    case AMDX_QUERY_STATS: {
        if (!on_device || q.id != 0)
            return fail(EINVAL);
        const auto& st = state(device_fds_.at(fd)).stats;
        return answer(q, &st, sizeof(st), AMDX_DEVICE_STATS_SIZE_VER0);
    }
    case AMDX_QUERY_FIRMWARE: {
        if (!on_device || q.id != 0 || caps.version_minor < 4)
            return fail(EINVAL);
        if (!firmware)
            return fail(EOPNOTSUPP);
        amdx_query_firmware header{};
        auto put = [](__u8* dst, std::size_t len, const std::string& src) { // NUL-terminated
            src.copy(reinterpret_cast<char*>(dst), len - 1);
        };
        put(header.driver_version, sizeof(header.driver_version), firmware->driver_version);
        put(header.provider, sizeof(header.provider), firmware->provider);
        put(header.provider_version, sizeof(header.provider_version), firmware->provider_version);
        header.num_firmware = static_cast<std::uint32_t>(firmware->entries.size());
        header.entry_size = firmware_entry_size;
        auto buf = header_bytes(header);
        for (const auto& f : firmware->entries)
            append_entry(buf, f, firmware_entry_size);
        return answer(q, buf);
    }
    default:
        return fail(EINVAL);
    }
}

} // namespace amdx::test
