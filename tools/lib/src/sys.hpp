// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Internal: the one ioctl helper, and the seam host tests use to fake the
// kernel.  Not installed; the symbols are hidden in libamdx.so.
#ifndef AMDX_SRC_SYS_HPP
#define AMDX_SRC_SYS_HPP

namespace amdx::detail {

/// ioctl(2)-shaped: returns >= 0, or -1 with errno set.
using IoctlFn = int (*)(int fd, unsigned long request, void* arg);

/// What ioctl_retry() calls; ::ioctl unless a test replaced it.
extern IoctlFn sys_ioctl;

/// Calls sys_ioctl, again while it fails with EINTR.  Returns its
/// non-negative result or -errno.
int ioctl_retry(int fd, unsigned long request, void* arg) noexcept;

} // namespace amdx::detail

#endif // AMDX_SRC_SYS_HPP
