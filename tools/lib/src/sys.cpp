// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "sys.hpp"

#include <cerrno>
#include <sys/ioctl.h>

namespace amdx::detail {

namespace {
int real_ioctl(int fd, unsigned long request, void* arg) {
    return ::ioctl(fd, request, arg);
}
} // namespace

IoctlFn sys_ioctl = real_ioctl; // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

int ioctl_retry(int fd, unsigned long request, void* arg) noexcept {
    for (;;) {
        const int ret = sys_ioctl(fd, request, arg);
        if (ret >= 0)
            return ret;
        if (errno != EINTR)
            return errno > 0 ? -errno : -EIO;
    }
}

} // namespace amdx::detail
