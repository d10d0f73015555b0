// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Internal: building the ErrorContext of a failed call.  Every public call
// names itself (the ioctl or query) and its device; helpers below it report
// bare codes, which the public call completes with forward().
#ifndef AMDX_SRC_ERROR_HPP
#define AMDX_SRC_ERROR_HPP

#include <cstdint>
#include <string_view>
#include <system_error>
#include <utility>

#include <amdx/result.hpp>

namespace amdx::detail {

/// @code from @call on @device.
inline Unexpected fail(std::errc code, std::string_view call, std::uint32_t device = kNoDevice) {
    ErrorContext ctx;
    ctx.code = std::make_error_code(code);
    ctx.call = call;
    ctx.device = device;
    return Unexpected(std::move(ctx));
}

/// The error of @r, with @call and @device filled in where it named none.
template <class T>
Unexpected forward(const Result<T>& r, std::string_view call, std::uint32_t device = kNoDevice) {
    ErrorContext ctx = r.context();
    if (ctx.call.empty())
        ctx.call = call;
    if (ctx.device == kNoDevice)
        ctx.device = device;
    return Unexpected(std::move(ctx));
}

} // namespace amdx::detail

#endif // AMDX_SRC_ERROR_HPP
