// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// File descriptor ownership.  Thread safety: BorrowedFd is a value; a
// UniqueFd may be read (get(), borrow()) from several threads, but reset(),
// release() and moves need the caller's exclusion, as for any object.
#ifndef AMDX_UNIQUE_FD_HPP
#define AMDX_UNIQUE_FD_HPP

#include <utility>

#include <amdx/export.hpp>

namespace amdx {

/// A non-owning view of a file descriptor: never closes it.
class BorrowedFd {
  public:
    constexpr BorrowedFd() noexcept = default;
    constexpr explicit BorrowedFd(int fd) noexcept : fd_(fd) {}

    [[nodiscard]] constexpr int get() const noexcept { return fd_; }
    [[nodiscard]] constexpr bool valid() const noexcept { return fd_ >= 0; }

  private:
    int fd_ = -1;
};

/// The owner of a file descriptor, closed on destruction.  Move-only.
class AMDX_EXPORT UniqueFd {
  public:
    constexpr UniqueFd() noexcept = default;
    constexpr explicit UniqueFd(int fd) noexcept : fd_(fd) {}
    UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept {
        if (this != &other)
            reset(std::exchange(other.fd_, -1));
        return *this;
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    ~UniqueFd() { reset(); }

    [[nodiscard]] int get() const noexcept { return fd_; }
    [[nodiscard]] bool valid() const noexcept { return fd_ >= 0; }
    explicit operator bool() const noexcept { return valid(); }
    [[nodiscard]] BorrowedFd borrow() const noexcept { return BorrowedFd(fd_); }

    /// Gives up ownership; the caller must close the returned fd.
    [[nodiscard]] int release() noexcept { return std::exchange(fd_, -1); }

    /// Closes the owned fd (if any, and unless it is @fd) and owns @fd.
    void reset(int fd = -1) noexcept;

  private:
    int fd_ = -1;
};

} // namespace amdx

#endif // AMDX_UNIQUE_FD_HPP
