// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// amdx::Result<T>: a value or a std::error_code, shaped like
// std::expected<T, std::error_code> (C++23).  libamdx never throws; a failure
// is a Result holding the error, with errno values in std::system_category().
//
// This is deliberately always amdx's own type, even where <expected> exists:
// an alias that depended on the consumer's -std would change the layout of
// types crossing the shared-library boundary.
//
// Differences from std::expected: value() and error() on the wrong
// alternative abort instead of throwing; operator* and operator-> check too.
#ifndef AMDX_RESULT_HPP
#define AMDX_RESULT_HPP

#include <concepts>
#include <cstdlib>
#include <system_error>
#include <type_traits>
#include <utility>
#include <variant>

namespace amdx {

/// The error alternative of a Result, like std::unexpected<std::error_code>.
class Unexpected {
  public:
    explicit Unexpected(std::error_code ec) noexcept : ec_(ec) {}
    explicit Unexpected(std::errc e) noexcept : ec_(std::make_error_code(e)) {}

    [[nodiscard]] const std::error_code& error() const noexcept { return ec_; }

  private:
    std::error_code ec_;
};

/// Unexpected for a positive errno value, in std::system_category().
[[nodiscard]] inline Unexpected errno_error(int err) noexcept {
    return Unexpected(std::error_code(err, std::system_category()));
}

template <class T>
class Result;

namespace detail {
[[noreturn]] inline void bad_result_access() noexcept {
    std::abort();
}

/// U can initialise the value of a Result<T> (and is not a Result<T> or a tag).
template <class U, class T>
concept ValueFor =
    std::is_constructible_v<T, U&&> && !std::is_same_v<std::remove_cvref_t<U>, Result<T>> &&
    !std::is_same_v<std::remove_cvref_t<U>, Unexpected> &&
    !std::is_same_v<std::remove_cvref_t<U>, std::in_place_t>;
} // namespace detail

template <class T>
class [[nodiscard]] Result {
    static_assert(std::is_object_v<T> && !std::is_array_v<T>, "Result<T> needs an object type");
    static_assert(!std::is_same_v<std::remove_cv_t<T>, std::error_code> &&
                      !std::is_same_v<std::remove_cv_t<T>, Unexpected>,
                  "Result<T> cannot hold its own error type");

  public:
    using value_type = T;
    using error_type = std::error_code;

    Result() requires std::is_default_constructible_v<T> : v_(std::in_place_index<0>) {}

    // Constrained like std::expected's converting constructor, so it hides neither
    // copy nor move; clang-tidy 14 does not understand explicit(bool).
    // NOLINTBEGIN(bugprone-forwarding-reference-overload,google-explicit-constructor)
    template <detail::ValueFor<T> U = T>
    explicit(!std::is_convertible_v<U&&, T>) Result(U&& v)
        : v_(std::in_place_index<0>, std::forward<U>(v)) {}
    // NOLINTEND(bugprone-forwarding-reference-overload,google-explicit-constructor)

    template <class... Args>
    explicit Result(std::in_place_t /*tag*/, Args&&... args)
        : v_(std::in_place_index<0>, std::forward<Args>(args)...) {}

    // NOLINTNEXTLINE(google-explicit-constructor): implicit like std::expected
    Result(const Unexpected& u) noexcept : v_(std::in_place_index<1>, u.error()) {}

    [[nodiscard]] bool has_value() const noexcept { return v_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    [[nodiscard]] T& value() & { return *get(); }
    [[nodiscard]] const T& value() const& { return *get(); }
    [[nodiscard]] T&& value() && { return std::move(*get()); }

    [[nodiscard]] const std::error_code& error() const noexcept {
        const auto* ec = std::get_if<1>(&v_);
        if (ec == nullptr)
            detail::bad_result_access();
        return *ec;
    }

    T& operator*() & { return *get(); }
    const T& operator*() const& { return *get(); }
    T&& operator*() && { return std::move(*get()); }
    T* operator->() { return get(); }
    const T* operator->() const { return get(); }

    template <class U>
    [[nodiscard]] T value_or(U&& fallback) const& {
        return has_value() ? *get() : static_cast<T>(std::forward<U>(fallback));
    }
    template <class U>
    [[nodiscard]] T value_or(U&& fallback) && {
        return has_value() ? std::move(*get()) : static_cast<T>(std::forward<U>(fallback));
    }

  private:
    T* get() noexcept {
        auto* v = std::get_if<0>(&v_);
        if (v == nullptr)
            detail::bad_result_access();
        return v;
    }
    const T* get() const noexcept {
        const auto* v = std::get_if<0>(&v_);
        if (v == nullptr)
            detail::bad_result_access();
        return v;
    }

    std::variant<T, std::error_code> v_;
};

/// Success or an error, like std::expected<void, std::error_code>.
template <>
class [[nodiscard]] Result<void> {
  public:
    using value_type = void;
    using error_type = std::error_code;

    Result() noexcept = default;
    // NOLINTNEXTLINE(google-explicit-constructor): implicit like std::expected
    Result(const Unexpected& u) noexcept : ec_(u.error()), ok_(false) {}

    [[nodiscard]] bool has_value() const noexcept { return ok_; }
    explicit operator bool() const noexcept { return ok_; }

    void value() const noexcept {
        if (!ok_)
            detail::bad_result_access();
    }
    void operator*() const noexcept { value(); }

    [[nodiscard]] const std::error_code& error() const noexcept {
        if (ok_)
            detail::bad_result_access();
        return ec_;
    }

  private:
    std::error_code ec_;
    bool ok_ = true;
};

} // namespace amdx

#endif // AMDX_RESULT_HPP
