// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "query.hpp"

#include <algorithm>
#include <cerrno>

#include <amdx/device.hpp>

#include "sys.hpp"

namespace amdx::detail {

int query(BorrowedFd fd, std::uint32_t what, std::uint32_t id, void* buf,
          std::uint32_t& size) noexcept {
    amdx_query q{};
    q.query = what;
    q.size = size;
    q.data = reinterpret_cast<std::uintptr_t>(buf);
    q.id = id;
    const int ret = ioctl_retry(fd.get(), AMDX_IOC_QUERY, &q);
    size = q.size;
    return std::min(ret, 0);
}

int query_fixed(BorrowedFd fd, std::uint32_t what, std::uint32_t id, void* out,
                std::uint32_t raw_size, std::uint32_t min_size) noexcept {
    std::memset(out, 0, raw_size);
    std::uint32_t size = raw_size;
    if (const int ret = query(fd, what, id, out, size); ret < 0)
        return ret;
    if (size < min_size || size > raw_size)
        return -EPROTO;
    return 0;
}

Result<ListAnswer> fetch_list(BorrowedFd fd, std::uint32_t what, std::size_t header_size) noexcept {
    std::uint32_t size = 0; // first call: ask for the size
    int ret = query(fd, what, 0, nullptr, size);
    if (ret < 0 && ret != -ENOSPC)
        return errno_error(-ret);

    ListAnswer answer;
    for (unsigned attempt = 0; attempt < kMaxListAttempts; ++attempt) {
        if (size < header_size || size > kMaxListBytes)
            return Unexpected(std::errc::protocol_error);
        answer.buf.assign((size + sizeof(std::uint64_t) - 1) / sizeof(std::uint64_t), 0);
        std::uint32_t written = size;
        ret = query(fd, what, 0, answer.buf.data(), written);
        if (ret == -ENOSPC) { // the list grew between the calls
            if (written <= size)
                return Unexpected(std::errc::protocol_error);
            size = written;
            continue;
        }
        if (ret < 0)
            return errno_error(-ret);
        answer.bytes = std::min(written, size);
        if (answer.bytes < header_size)
            return Unexpected(std::errc::protocol_error);
        return answer;
    }
    return Unexpected(std::errc::resource_unavailable_try_again);
}

} // namespace amdx::detail
