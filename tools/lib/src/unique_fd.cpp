// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <unistd.h>

#include <amdx/unique_fd.hpp>

namespace amdx {

void UniqueFd::reset(int fd) noexcept {
    const int old = std::exchange(fd_, fd);
    // close(2) is not retried: on Linux the fd is gone even on EINTR.
    if (old >= 0 && old != fd)
        ::close(old);
}

} // namespace amdx
