// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// amdx::Result<T>: a value or an error, shaped like
// std::expected<T, std::error_code> (C++23).  libamdx never throws; a failure
// is a Result holding an ErrorContext: the std::error_code (errno values in
// std::system_category()) and where it happened (the failing call, the
// device, the kernel's reason code).  error() is the code, context() all of
// it, context().message() one line for a log or an operator.
// amdx::Reported<R> is the result of a change the kernel reports on either
// way: an error when the change did not happen, its report() in both cases.
//
// This is deliberately always amdx's own type, even where <expected> exists:
// an alias that depended on the consumer's -std would change the layout of
// types crossing the shared-library boundary.
//
// Differences from std::expected: value() and error() on the wrong
// alternative abort instead of throwing; operator* and operator-> check too.
//
// Thread safety: a Result is a value; const access from several threads is
// safe, as for any standard library type.
#ifndef AMDX_RESULT_HPP
#define AMDX_RESULT_HPP

#include <concepts>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <variant>

#include <amdx/export.hpp>

namespace amdx {

/// ErrorContext::device when the failure concerns no one device.
inline constexpr std::uint32_t kNoDevice = 0xffffffffU;

/// A failure: the error code and where it happened.
struct AMDX_EXPORT ErrorContext {
    std::error_code code;
    /// The failing call: the ioctl or query ("AMDX_IOC_VF_RESET",
    /// "AMDX_QUERY_PARTITIONS") or system call ("open /dev/amdx" is
    /// "open"); a string literal, empty when unknown.
    std::string_view call;
    std::uint32_t device = kNoDevice; ///< amdx device id, or kNoDevice
    /// The reason code the kernel gave with the refusal (AMDX_PART_REASON_*
    /// for partition and VF calls, AMDX_RAS_INJECT_REASON_* for
    /// AMDX_IOC_RAS_INJECT), 0 for none.
    std::uint32_t reason = 0;
    /// More, when the code alone does not say it ("kernel uapi 2.0, libamdx
    /// speaks 1.x").
    std::string detail;

    /// One line naming the call, the device, the cause and the errno:
    /// "AMDX_IOC_VF_RESET on device 1: busy, try again later (EBUSY: Device
    /// or resource busy)".  The causes are those the uapi documents
    /// (Documentation/library.rst lists them).
    [[nodiscard]] std::string message() const;
};

/// The error alternative of a Result, like std::unexpected<std::error_code>.
class Unexpected {
  public:
    explicit Unexpected(std::error_code ec) noexcept { ctx_.code = ec; }
    explicit Unexpected(std::errc e) noexcept { ctx_.code = std::make_error_code(e); }
    explicit Unexpected(ErrorContext ctx) noexcept : ctx_(std::move(ctx)) {}

    [[nodiscard]] const std::error_code& error() const noexcept { return ctx_.code; }
    [[nodiscard]] const ErrorContext& context() const& noexcept { return ctx_; }
    [[nodiscard]] ErrorContext&& context() && noexcept { return std::move(ctx_); }

  private:
    ErrorContext ctx_;
};

/// Unexpected for a positive errno value, in std::system_category().
[[nodiscard]] inline Unexpected errno_error(int err) noexcept {
    return Unexpected(std::error_code(err, std::system_category()));
}

/// Unexpected for a positive errno value from @call on @device.
[[nodiscard]] inline Unexpected errno_error(int err, std::string_view call,
                                            std::uint32_t device = kNoDevice,
                                            std::uint32_t reason = 0) noexcept {
    ErrorContext ctx;
    ctx.code = std::error_code(err, std::system_category());
    ctx.call = call;
    ctx.device = device;
    ctx.reason = reason;
    return Unexpected(std::move(ctx));
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
                      !std::is_same_v<std::remove_cv_t<T>, ErrorContext> &&
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

    // NOLINTBEGIN(google-explicit-constructor): implicit like std::expected
    Result(const Unexpected& u) noexcept : v_(std::in_place_index<1>, u.context()) {}
    Result(Unexpected&& u) noexcept : v_(std::in_place_index<1>, std::move(u).context()) {}
    // NOLINTEND(google-explicit-constructor)

    [[nodiscard]] bool has_value() const noexcept { return v_.index() == 0; }
    explicit operator bool() const noexcept { return has_value(); }

    [[nodiscard]] T& value() & { return *get(); }
    [[nodiscard]] const T& value() const& { return *get(); }
    [[nodiscard]] T&& value() && { return std::move(*get()); }

    [[nodiscard]] const std::error_code& error() const noexcept { return context().code; }
    /// The error with its context; aborts on a value.
    [[nodiscard]] const ErrorContext& context() const noexcept {
        const auto* ctx = std::get_if<1>(&v_);
        if (ctx == nullptr)
            detail::bad_result_access();
        return *ctx;
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

    std::variant<T, ErrorContext> v_;
};

/// Success or an error, like std::expected<void, std::error_code>.
template <>
class [[nodiscard]] Result<void> {
  public:
    using value_type = void;
    using error_type = std::error_code;

    Result() noexcept = default;
    // NOLINTBEGIN(google-explicit-constructor): implicit like std::expected
    Result(const Unexpected& u) noexcept : ctx_(u.context()), ok_(false) {}
    Result(Unexpected&& u) noexcept : ctx_(std::move(u).context()), ok_(false) {}
    // NOLINTEND(google-explicit-constructor)

    [[nodiscard]] bool has_value() const noexcept { return ok_; }
    explicit operator bool() const noexcept { return ok_; }

    void value() const noexcept {
        if (!ok_)
            detail::bad_result_access();
    }
    void operator*() const noexcept { value(); }

    [[nodiscard]] const std::error_code& error() const noexcept { return context().code; }
    [[nodiscard]] const ErrorContext& context() const noexcept {
        if (ok_)
            detail::bad_result_access();
        return ctx_;
    }

  private:
    ErrorContext ctx_;
    bool ok_ = true;
};

/// The result of a change the kernel reports on whether it happened or not
/// (a partition commit, a VF enable).  Like Result<R>, it holds a value only
/// when the change happened: `if (!r)` sees every refusal and rollback.
/// Unlike Result<R>, a failure keeps the kernel's report beside its error
/// (the reason, the steps, the holders): report() returns it, has_report()
/// says whether the kernel wrote one (not when the call failed before it,
/// e.g. EPERM or ENOTTY; report() is then a default R).
///
/// It is deliberately not a Result<R>: code written for the earlier shape
/// (a Result plus an out-parameter for the failure's report) does not
/// compile against it rather than losing the report.
template <class R>
class [[nodiscard]] Reported {
    static_assert(std::is_object_v<R> && std::is_default_constructible_v<R>,
                  "Reported<R> needs a default-constructible report type");

  public:
    using value_type = R;
    using error_type = std::error_code;

    // NOLINTBEGIN(google-explicit-constructor): implicit like Result's
    /// The change happened; @report is the value.
    Reported(R report) noexcept(std::is_nothrow_move_constructible_v<R>)
        : report_(std::move(report)), has_report_(true), ok_(true) {}
    /// A failure without a report from the kernel.
    Reported(Unexpected u) noexcept : ctx_(std::move(u).context()) {}
    // NOLINTEND(google-explicit-constructor)
    /// A failure, with the kernel's @report of it.
    Reported(Unexpected u, R report) noexcept(std::is_nothrow_move_constructible_v<R>)
        : report_(std::move(report)), ctx_(std::move(u).context()), has_report_(true) {}

    [[nodiscard]] bool has_value() const noexcept { return ok_; }
    explicit operator bool() const noexcept { return ok_; }

    /// The value: the report of the change that happened; aborts on a failure.
    [[nodiscard]] const R& value() const& noexcept { return *get(); }
    [[nodiscard]] R&& value() && noexcept { return std::move(*get()); }
    const R& operator*() const& noexcept { return *get(); }
    R&& operator*() && noexcept { return std::move(*get()); }
    const R* operator->() const noexcept { return get(); }

    [[nodiscard]] const std::error_code& error() const noexcept { return context().code; }
    /// The error with its context; aborts on a value.
    [[nodiscard]] const ErrorContext& context() const noexcept {
        if (ok_)
            detail::bad_result_access();
        return ctx_;
    }

    /// The kernel wrote a report (always, on a value).
    [[nodiscard]] bool has_report() const noexcept { return has_report_; }
    /// The kernel's report, of a success or of a failure.
    [[nodiscard]] const R& report() const& noexcept { return report_; }
    [[nodiscard]] R&& report() && noexcept { return std::move(report_); }

  private:
    const R* get() const noexcept {
        if (!ok_)
            detail::bad_result_access();
        return &report_;
    }

    R report_{};
    ErrorContext ctx_;
    bool has_report_ = false;
    bool ok_ = false;
};

} // namespace amdx

#endif // AMDX_RESULT_HPP
