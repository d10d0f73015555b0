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

void* user_ptr(__u64 data) {
    return reinterpret_cast<void*>( // NOLINT(performance-no-int-to-ptr): it is a user pointer
        static_cast<std::uintptr_t>(data));
}

int fail(int err) {
    errno = err;
    return -1;
}

/// Copies @len bytes of a result out under the two-call protocol.
int answer(amdx_query& q, const void* src, std::uint32_t len) {
    const std::uint32_t room = q.size;
    q.size = len;
    if (room == 0)
        return 0;
    if (room < len)
        return fail(ENOSPC);
    std::memcpy(user_ptr(q.data), src, len);
    return 0;
}

} // namespace

FakeKernel::FakeKernel() : saved_(detail::sys_ioctl) {
    caps.version_major = AMDX_UAPI_VERSION_MAJOR;
    caps.version_minor = AMDX_UAPI_VERSION_MINOR;
    caps.caps = AMDX_CAP_DEVICE_QUERY;
    g_current = this;
    detail::sys_ioctl = &FakeKernel::dispatch;
}

FakeKernel::~FakeKernel() {
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

    if (request == AMDX_IOC_QUERY)
        return query(fd, *static_cast<amdx_query*>(arg));
    if (request == AMDX_IOC_DEVICE_OPEN) {
        auto* op = static_cast<amdx_device_open*>(arg);
        if (is_device_fd(fd))
            return fail(ENOTTY); // control node only
        if (op->flags != 0 || op->pad != 0)
            return fail(EINVAL);
        if (find(op->id) == nullptr)
            return fail(ENODEV);
        op->fd = ::open("/dev/zero", O_RDWR | O_CLOEXEC);
        device_fds_[op->fd] = op->id;
        return 0;
    }
    return fail(ENOTTY);
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
        return answer(q, &c, sizeof(c));
    }
    case AMDX_QUERY_DEVICES: {
        if (q.id != 0)
            return fail(EINVAL);
        if (q.size != 0 && grow_on_fetch > 0) {
            --grow_on_fetch;
            add_device(devices.empty() ? 0 : devices.back().id + 1);
        }
        std::vector<unsigned char> buf(sizeof(amdx_query_devices) +
                                       devices.size() * sizeof(amdx_device_entry));
        amdx_query_devices header{};
        header.num_devices = static_cast<std::uint32_t>(devices.size());
        std::memcpy(buf.data(), &header, sizeof(header));
        for (std::size_t i = 0; i < devices.size(); ++i) {
            amdx_device_entry e{};
            e.id = devices[i].id;
            e.model = devices[i].model;
            std::memcpy(e.bdf, devices[i].bdf, sizeof(e.bdf));
            std::memcpy(buf.data() + sizeof(header) + (i * sizeof(e)), &e, sizeof(e));
        }
        if (forced_list_size) { // real bytes, wrong size
            if (q.size != 0)
                std::memcpy(user_ptr(q.data), buf.data(),
                            std::min<std::size_t>(q.size, buf.size()));
            q.size = *forced_list_size;
            return 0;
        }
        return answer(q, buf.data(), static_cast<std::uint32_t>(buf.size()));
    }
    case AMDX_QUERY_DEVICE_INFO: {
        if (on_device && q.id != 0)
            return fail(EINVAL);
        const auto* d = find(on_device ? device_fds_.at(fd) : q.id);
        if (d == nullptr)
            return fail(ENODEV);
        return answer(q, d, sizeof(*d));
    }
    default:
        return fail(EINVAL);
    }
}

} // namespace amdx::test
