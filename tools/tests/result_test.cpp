// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <cerrno>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

#include <gtest/gtest.h>

#include <amdx/result.hpp>

namespace {

using amdx::Result;
using amdx::Unexpected;

struct NoDefault {
    explicit NoDefault(int v) : value(v) {}
    int value;
};

// Conversions follow std::expected: implicit exactly when T's is.
static_assert(std::is_convertible_v<int, Result<long>>);
static_assert(!std::is_convertible_v<std::string_view, Result<std::string>>);
static_assert(std::is_constructible_v<Result<std::string>, std::string_view>);
static_assert(std::is_convertible_v<Unexpected, Result<int>>);
static_assert(!std::is_default_constructible_v<Result<NoDefault>>);
static_assert(std::is_default_constructible_v<Result<void>>);
static_assert(!std::is_copy_constructible_v<Result<std::unique_ptr<int>>>);

Result<int> half(int v) {
    if (v % 2 != 0)
        return Unexpected(std::errc::invalid_argument);
    return v / 2;
}

TEST(Result, HoldsValue) {
    const auto r = half(8);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(static_cast<bool>(r));
    EXPECT_EQ(r.value(), 4);
    EXPECT_EQ(*r, 4);
}

TEST(Result, HoldsError) {
    const auto r = half(3);
    ASSERT_FALSE(r.has_value());
    EXPECT_FALSE(static_cast<bool>(r));
    EXPECT_EQ(r.error(), std::errc::invalid_argument);
    EXPECT_EQ(r.value_or(-1), -1);
}

TEST(Result, ErrnoErrorUsesSystemCategory) {
    const Result<int> r = amdx::errno_error(ENOENT);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().value(), ENOENT);
    EXPECT_EQ(&r.error().category(), &std::system_category());
    EXPECT_EQ(r.error(), std::errc::no_such_file_or_directory);
}

TEST(Result, ArrowAndMoveOnlyValues) {
    Result<std::unique_ptr<std::string>> r = std::make_unique<std::string>("amdx");
    ASSERT_TRUE(r);
    EXPECT_EQ((*r)->size(), 4U);
    EXPECT_EQ(r->get()->front(), 'a');
    const std::unique_ptr<std::string> taken = std::move(r).value();
    EXPECT_EQ(*taken, "amdx");
}

TEST(Result, DefaultConstructsValue) {
    const Result<std::string> r;
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->empty());
}

TEST(Result, NonDefaultConstructibleValue) {
    const Result<NoDefault> r(NoDefault(5));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->value, 5);
}

TEST(Result, InPlace) {
    const Result<std::string> r(std::in_place, 3U, 'x');
    ASSERT_TRUE(r);
    EXPECT_EQ(*r, "xxx");
}

TEST(Result, VoidSuccessAndError) {
    const Result<void> ok;
    EXPECT_TRUE(ok.has_value());
    ok.value();
    const Result<void> bad = Unexpected(std::errc::permission_denied);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error(), std::errc::permission_denied);
}

TEST(ResultDeathTest, ValueOnErrorAborts) {
    const auto r = half(1);
    EXPECT_DEATH((void)r.value(), "");
}

TEST(ResultDeathTest, ErrorOnValueAborts) {
    const auto r = half(2);
    EXPECT_DEATH((void)r.error(), "");
}

} // namespace
