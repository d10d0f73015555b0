// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <cerrno>

#include <gtest/gtest.h>

#include "sys.hpp"

namespace {

using amdx::detail::IoctlFn;

int g_calls = 0;      // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)
int g_eintr_left = 0; // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)
int g_final = 0;      // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

int scripted(int /*fd*/, unsigned long /*request*/, void* /*arg*/) {
    ++g_calls;
    if (g_eintr_left > 0) {
        --g_eintr_left;
        errno = EINTR;
        return -1;
    }
    if (g_final < 0) {
        errno = -g_final;
        return -1;
    }
    return g_final;
}

class IoctlRetry : public ::testing::Test {
  protected:
    void SetUp() override {
        saved_ = amdx::detail::sys_ioctl;
        amdx::detail::sys_ioctl = scripted;
        g_calls = 0;
    }
    void TearDown() override { amdx::detail::sys_ioctl = saved_; }

  private:
    IoctlFn saved_ = nullptr;
};

TEST_F(IoctlRetry, RetriesEintrUntilSuccess) {
    g_eintr_left = 3;
    g_final = 7;
    EXPECT_EQ(amdx::detail::ioctl_retry(0, 0, nullptr), 7);
    EXPECT_EQ(g_calls, 4);
}

TEST_F(IoctlRetry, ReturnsNegativeErrno) {
    g_eintr_left = 1;
    g_final = -ENOSPC;
    EXPECT_EQ(amdx::detail::ioctl_retry(0, 0, nullptr), -ENOSPC);
    EXPECT_EQ(g_calls, 2);
}

TEST_F(IoctlRetry, SuccessIsNotRetried) {
    g_eintr_left = 0;
    g_final = 0;
    EXPECT_EQ(amdx::detail::ioctl_retry(0, 0, nullptr), 0);
    EXPECT_EQ(g_calls, 1);
}

TEST(IoctlReal, BadFdIsEbadf) {
    EXPECT_EQ(amdx::detail::ioctl_retry(-1, 0, nullptr), -EBADF);
}

} // namespace
