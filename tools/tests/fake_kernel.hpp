// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// A fake amdx kernel for host tests, installed through libamdx's ioctl seam
// (amdx::detail::sys_ioctl) for the lifetime of a FakeKernel.  It follows
// uapi/linux/amdx.h: the two-call size protocol with -ENOSPC, -EINVAL for
// non-zero flags/reserved, -ENOTTY for unknown commands, -ENODEV for
// unknown ids, and device fds (real fds on /dev/zero, while control fds
// are anything else, e.g. /dev/null) from DEVICE_OPEN.  Fixed-size results
// are truncated to a buffer that holds their first version; lists carry
// entry_size.
//
// HMM (with AMDX_CAP_HMM_MIGRATE in caps, else -EOPNOTSUPP): argument
// checks as the uapi states them, and a deliberately small model: SET_ATTR
// on exactly an existing range changes it, anything else adds a range (no
// splitting or merging); MIGRATE counts resident pages per range; ACCESS
// reads and writes this process's memory directly.
#ifndef AMDX_TESTS_FAKE_KERNEL_HPP
#define AMDX_TESTS_FAKE_KERNEL_HPP

#include <cstdint>
#include <map>
#include <optional>
#include <sys/types.h>
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

    /// Size of a device list entry as the fake writes it (bytes beyond the
    /// real entry are 0xa5 junk a newer kernel might send).
    std::uint32_t device_entry_size = sizeof(amdx_device_entry);
    /// Length of the caps and device info results as the fake kernel knows
    /// them (bytes beyond the real struct are 0xa5, a newer kernel's fields).
    std::optional<std::uint32_t> caps_len;
    std::optional<std::uint32_t> info_len;

    /// The HMM state of one device fd.
    struct Hmm {
        std::vector<amdx_hmm_range_info> ranges; ///< sorted by start
        amdx_hmm_stats total{};
    };
    std::vector<amdx_hmm_attr> hmm_attrs;               ///< SET_ATTR arguments as received
    std::vector<amdx_hmm_migrate> hmm_migrates;         ///< MIGRATE arguments as received
    std::vector<amdx_hmm_access> hmm_accesses;          ///< ACCESS arguments as received
    bool hmm_foreign = false;                           ///< HMM calls come from another mm: -EBADF
    std::optional<amdx_hmm_migrate> hmm_migrate_result; ///< report its outputs instead
    bool hmm_corrupt_on_migrate = false;                ///< flip a byte when migrating to VRAM
    std::uint32_t hmm_entry_size = sizeof(amdx_hmm_range_info);
    unsigned hmm_grow_on_fetch = 0;      ///< add a range before this many range fetches
    std::uint64_t hmm_access_faults = 0; ///< ACCESS reports this many faults
    pid_t hmm_pid = 0;                   ///< reported pid, 0: getpid()

    /// The HMM state of device fd @fd (created on first use).
    Hmm& hmm(int fd) { return hmm_[fd]; }

    [[nodiscard]] std::size_t device_fds() const { return device_fds_.size(); }

  private:
    static int dispatch(int fd, unsigned long request, void* arg);
    int handle(int fd, unsigned long request, void* arg);
    int query(int fd, amdx_query& q);
    int hmm_check(int fd) const;
    int hmm_set_attr(int fd, amdx_hmm_attr& a);
    int hmm_migrate(int fd, amdx_hmm_migrate& m);
    int hmm_access(int fd, amdx_hmm_access& a);
    int hmm_query(int fd, amdx_query& q);
    [[nodiscard]] bool valid_loc(int fd, std::uint32_t loc) const;
    const amdx_device_info* find(std::uint32_t id) const;

    [[nodiscard]] bool is_device_fd(int fd) const;

    detail::IoctlFn saved_;
    std::map<int, std::uint32_t> device_fds_; ///< fds on /dev/zero
    std::map<int, Hmm> hmm_;
};

} // namespace amdx::test

#endif // AMDX_TESTS_FAKE_KERNEL_HPP
