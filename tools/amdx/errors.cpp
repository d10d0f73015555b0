// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// errno -> one line naming the cause.  The library reports bare error codes;
// this is where they get context.
#include <cerrno>

#include "cli.hpp"

namespace amdx::cli {

namespace {

bool is(std::error_code ec, std::errc e) {
    return ec == std::make_error_condition(e);
}

std::string with_path(std::string_view path, std::string_view text) {
    return std::string(path) + ": " + std::string(text);
}

} // namespace

std::string open_error(std::string_view path, std::error_code ec) {
    if (is(ec, std::errc::no_such_file_or_directory) || is(ec, std::errc::no_such_device) ||
        is(ec, std::errc::no_such_device_or_address))
        return with_path(path, "module not loaded (" + ec.message() + ")");
    if (is(ec, std::errc::permission_denied) || is(ec, std::errc::operation_not_permitted))
        return with_path(path, "permission denied");
    return with_path(path, ec.message());
}

std::string request_error(std::string_view path, std::string_view what, std::error_code ec) {
    if (is(ec, std::errc::permission_denied) || is(ec, std::errc::operation_not_permitted))
        return "permission denied";
    if (is(ec, std::errc::inappropriate_io_control_operation))
        return with_path(path, "not an amdx control node (" + ec.message() + ")");
    if (is(ec, std::errc::protocol_error))
        return std::string(what) + ": malformed answer from the kernel (" + ec.message() + ")";
    if (is(ec, std::errc::resource_unavailable_try_again))
        return std::string(what) + ": kept changing, try again (" + ec.message() + ")";
    return std::string(what) + ": " + ec.message();
}

std::string hmm_unsupported(const Caps& caps) {
    std::string why = "HMM migration not supported by this kernel";
    if (!caps.has(AMDX_CAP_DEVICE_PRIVATE))
        return why + " (no CONFIG_DEVICE_PRIVATE)";
    if (!caps.has(AMDX_CAP_HMM_MIRROR))
        return why + " (no CONFIG_HMM_MIRROR)";
    return why + " (the amdx module lacks it)";
}

std::string hmm_error(std::string_view what, std::error_code ec) {
    const std::string prefix = std::string(what) + ": ";
    if (is(ec, std::errc::permission_denied) || is(ec, std::errc::operation_not_permitted))
        return "permission denied";
    if (is(ec, std::errc::operation_not_supported) ||
        is(ec, std::errc::inappropriate_io_control_operation))
        return "HMM migration not supported by this kernel (" + ec.message() + ")";
    if (is(ec, std::errc::bad_file_descriptor))
        return prefix + "the device fd belongs to another process (" + ec.message() + ")";
    if (is(ec, std::errc::not_enough_memory) || is(ec, std::errc::no_space_on_device))
        return prefix + "out of memory (" + ec.message() + ")";
    if (is(ec, std::errc::protocol_error))
        return prefix + "malformed answer from the kernel (" + ec.message() + ")";
    if (is(ec, std::errc::resource_unavailable_try_again))
        return prefix + "kept changing, try again (" + ec.message() + ")";
    return prefix + ec.message();
}

} // namespace amdx::cli
