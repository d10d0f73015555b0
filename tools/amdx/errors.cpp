// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// errno -> one line naming the cause.  The library reports bare error codes;
// this is where they get context.
#include "errors.hpp"

#include <cerrno>
#include <cstring>

namespace amdx::cli {

namespace {

bool is(std::error_code ec, std::errc e) {
    return ec == std::make_error_condition(e);
}

std::string with_path(std::string_view path, std::string_view text) {
    return std::string(path) + ": " + std::string(text);
}

std::string perm(std::error_code ec) {
    return "permission denied (" + errno_text(ec) + ")";
}

} // namespace

int exit_code(std::error_code ec) {
    if (!ec)
        return kExitOk;
    if (is(ec, std::errc::permission_denied) || is(ec, std::errc::operation_not_permitted))
        return kExitPermission;
    if (is(ec, std::errc::no_such_device))
        return kExitNoDevice;
    if (is(ec, std::errc::device_or_resource_busy) ||
        is(ec, std::errc::resource_unavailable_try_again) || is(ec, std::errc::timed_out))
        return kExitBusy;
    if (is(ec, std::errc::inappropriate_io_control_operation) ||
        is(ec, std::errc::operation_not_supported) || is(ec, std::errc::function_not_supported))
        return kExitNotSupported;
    return kExitError;
}

std::string errno_text(std::error_code ec) {
    if (ec.category() != std::system_category() && ec.category() != std::generic_category())
        return ec.message();
    const char* name = ::strerrorname_np(ec.value());
    return std::string(name != nullptr ? name : "errno " + std::to_string(ec.value())) + ": " +
           ec.message();
}

std::string open_error(std::string_view path, std::error_code ec) {
    if (is(ec, std::errc::no_such_file_or_directory) || is(ec, std::errc::no_such_device) ||
        is(ec, std::errc::no_such_device_or_address))
        return with_path(path,
                         "module not loaded, load it with modprobe amdx (" + errno_text(ec) + ")");
    if (is(ec, std::errc::permission_denied) || is(ec, std::errc::operation_not_permitted))
        return with_path(path, perm(ec));
    return with_path(path, errno_text(ec));
}

std::string request_error(std::string_view path, std::string_view what, std::error_code ec) {
    if (is(ec, std::errc::permission_denied) || is(ec, std::errc::operation_not_permitted))
        return perm(ec);
    if (is(ec, std::errc::inappropriate_io_control_operation))
        return with_path(path, "not an amdx control node (" + errno_text(ec) + ")");
    if (is(ec, std::errc::protocol_error))
        return std::string(what) + ": malformed answer from the kernel (" + errno_text(ec) + ")";
    if (is(ec, std::errc::resource_unavailable_try_again))
        return std::string(what) + ": kept changing, try again (" + errno_text(ec) + ")";
    return std::string(what) + ": " + errno_text(ec);
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
        return perm(ec);
    if (is(ec, std::errc::operation_not_supported) ||
        is(ec, std::errc::inappropriate_io_control_operation))
        return "HMM migration not supported by this kernel (" + errno_text(ec) + ")";
    if (is(ec, std::errc::bad_file_descriptor))
        return prefix + "the device fd belongs to another process (" + errno_text(ec) + ")";
    if (is(ec, std::errc::not_enough_memory) || is(ec, std::errc::no_space_on_device))
        return prefix + "out of memory (" + errno_text(ec) + ")";
    if (is(ec, std::errc::protocol_error))
        return prefix + "malformed answer from the kernel (" + errno_text(ec) + ")";
    if (is(ec, std::errc::resource_unavailable_try_again))
        return prefix + "kept changing, try again (" + errno_text(ec) + ")";
    return prefix + errno_text(ec);
}

} // namespace amdx::cli

namespace amdx::cli {

std::string device_error(std::string_view what, std::error_code ec) {
    const std::string prefix = std::string(what) + ": ";
    if (is(ec, std::errc::permission_denied) || is(ec, std::errc::operation_not_permitted))
        return prefix + "permission denied, changes need CAP_SYS_ADMIN (" + errno_text(ec) + ")";
    if (is(ec, std::errc::inappropriate_io_control_operation))
        return prefix + "not supported by the kernel's amdx module (" + errno_text(ec) + ")";
    if (is(ec, std::errc::no_such_device))
        return prefix + "the device went away (" + errno_text(ec) + ")";
    if (is(ec, std::errc::protocol_error))
        return prefix + "malformed answer from the kernel (" + errno_text(ec) + ")";
    if (is(ec, std::errc::resource_unavailable_try_again))
        return prefix + "kept changing, try again (" + errno_text(ec) + ")";
    if (is(ec, std::errc::invalid_argument))
        return prefix + "rejected by the kernel as invalid (" + errno_text(ec) + ")";
    return prefix + "failed (" + errno_text(ec) + ")";
}

} // namespace amdx::cli
