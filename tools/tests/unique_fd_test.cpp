// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <array>
#include <cerrno>
#include <fcntl.h>
#include <type_traits>
#include <unistd.h>
#include <utility>

#include <gtest/gtest.h>

#include <amdx/unique_fd.hpp>

namespace {

using amdx::UniqueFd;

bool is_open(int fd) {
    return ::fcntl(fd, F_GETFD) != -1;
}

struct Pipe {
    Pipe() { EXPECT_EQ(::pipe2(fds.data(), O_CLOEXEC), 0); }
    std::array<int, 2> fds{-1, -1};
};

static_assert(!std::is_copy_constructible_v<UniqueFd> && !std::is_copy_assignable_v<UniqueFd>);
static_assert(std::is_nothrow_move_constructible_v<UniqueFd> &&
              std::is_nothrow_move_assignable_v<UniqueFd>);

TEST(UniqueFd, DefaultIsInvalid) {
    const UniqueFd fd;
    EXPECT_FALSE(fd.valid());
    EXPECT_FALSE(static_cast<bool>(fd));
    EXPECT_EQ(fd.get(), -1);
}

TEST(UniqueFd, ClosesOnDestroy) {
    const Pipe p;
    {
        const UniqueFd r(p.fds[0]);
        EXPECT_TRUE(is_open(p.fds[0]));
    }
    EXPECT_FALSE(is_open(p.fds[0]));
    EXPECT_EQ(errno, EBADF);
    ::close(p.fds[1]);
}

TEST(UniqueFd, MoveTransfersOwnership) {
    const Pipe p;
    UniqueFd a(p.fds[0]);
    UniqueFd b(std::move(a));
    EXPECT_FALSE(a.valid()); // NOLINT(bugprone-use-after-move): checking the moved-from state
    EXPECT_EQ(b.get(), p.fds[0]);
    EXPECT_TRUE(is_open(p.fds[0]));

    UniqueFd c(p.fds[1]);
    c = std::move(b); // closes c's old fd, takes b's
    EXPECT_FALSE(is_open(p.fds[1]));
    EXPECT_EQ(c.get(), p.fds[0]);
    EXPECT_TRUE(is_open(p.fds[0]));
}

TEST(UniqueFd, ReleaseGivesUpOwnership) {
    const Pipe p;
    int raw = -1;
    {
        UniqueFd fd(p.fds[0]);
        raw = fd.release();
        EXPECT_FALSE(fd.valid());
    }
    EXPECT_EQ(raw, p.fds[0]);
    EXPECT_TRUE(is_open(raw));
    ::close(raw);
    ::close(p.fds[1]);
}

TEST(UniqueFd, ResetClosesOldAndKeepsSame) {
    const Pipe p;
    UniqueFd fd(p.fds[0]);
    fd.reset(p.fds[0]); // resetting to the owned fd must not close it
    EXPECT_TRUE(is_open(p.fds[0]));
    fd.reset(p.fds[1]);
    EXPECT_FALSE(is_open(p.fds[0]));
    EXPECT_TRUE(is_open(p.fds[1]));
    fd.reset();
    EXPECT_FALSE(is_open(p.fds[1]));
}

TEST(BorrowedFd, DoesNotClose) {
    const Pipe p;
    const UniqueFd owner(p.fds[0]);
    {
        const amdx::BorrowedFd view = owner.borrow();
        EXPECT_EQ(view.get(), p.fds[0]);
        EXPECT_TRUE(view.valid());
    }
    EXPECT_TRUE(is_open(p.fds[0]));
    EXPECT_FALSE(amdx::BorrowedFd().valid());
    ::close(p.fds[1]);
}

} // namespace
