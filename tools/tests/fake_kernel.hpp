// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// A fake amdx kernel for host tests, installed through libamdx's ioctl seam
// (amdx::detail::sys_ioctl) for the lifetime of a FakeKernel.  It follows
// uapi/linux/amdx.h: the two-call size protocol with -ENOSPC, -EINVAL for
// non-zero flags/reserved, -ENOTTY for unknown commands, -ENODEV for
// unknown ids, and device fds (real fds on /dev/zero, while control fds
// are anything else, e.g. /dev/null) from DEVICE_OPEN.
#ifndef AMDX_TESTS_FAKE_KERNEL_HPP
#define AMDX_TESTS_FAKE_KERNEL_HPP

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include <linux/amdx.h>

#include "sys.hpp"

namespace amdx::test {

class FakeKernel {
  public:
    struct Call {
        unsigned long request;
        std::uint32_t query; // AMDX_IOC_QUERY only
        std::uint32_t size;  // in
        std::uint32_t id;
        int fd;
    };

    FakeKernel();
    ~FakeKernel();
    FakeKernel(const FakeKernel&) = delete;
    FakeKernel& operator=(const FakeKernel&) = delete;
    FakeKernel(FakeKernel&&) = delete;
    FakeKernel& operator=(FakeKernel&&) = delete;

    /// A plausible MI300X in SPX/NPS1 with id @id.
    static amdx_device_info make_device(std::uint32_t id);
    void add_device(std::uint32_t id) { devices.push_back(make_device(id)); }

    amdx_query_caps caps{};
    std::vector<amdx_device_info> devices;
    std::vector<Call> calls;

    int eintr = 0;                                 ///< fail this many next calls with EINTR
    unsigned grow_on_fetch = 0;                    ///< add a device before this many list fetches
    std::optional<std::uint32_t> fail_query;       ///< fail this AMDX_QUERY_* ...
    int fail_errno = 0;                            ///< ... with this errno
    std::optional<std::uint32_t> forced_list_size; ///< lie about the list size

    [[nodiscard]] std::size_t device_fds() const { return device_fds_.size(); }

  private:
    static int dispatch(int fd, unsigned long request, void* arg);
    int handle(int fd, unsigned long request, void* arg);
    int query(int fd, amdx_query& q);
    const amdx_device_info* find(std::uint32_t id) const;

    [[nodiscard]] bool is_device_fd(int fd) const;

    detail::IoctlFn saved_;
    std::map<int, std::uint32_t> device_fds_; ///< fds on /dev/zero
};

} // namespace amdx::test

#endif // AMDX_TESTS_FAKE_KERNEL_HPP
