// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The CLI's exit statuses and one-line error messages (errors.cpp), shared
// with amdx-eventd and the fleet services, which link only these and not
// the rest of the CLI.
#ifndef AMDX_CLI_ERRORS_HPP
#define AMDX_CLI_ERRORS_HPP

#include <string>
#include <string_view>
#include <system_error>

#include <amdx/device.hpp>

namespace amdx::cli {

// Exit status (the table in Documentation/admin-guide/cli.rst).
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;        ///< any other failure
inline constexpr int kExitUsage = 2;        ///< the command line is wrong
inline constexpr int kExitNoModule = 3;     ///< /dev/amdx missing or not amdx's
inline constexpr int kExitNoDevice = 4;     ///< DEV selects no device, or it went away
inline constexpr int kExitPermission = 5;   ///< EPERM, EACCES
inline constexpr int kExitBusy = 6;         ///< EBUSY, EAGAIN: try again later
inline constexpr int kExitNotSupported = 7; ///< the kernel lacks it (ENOTTY, EOPNOTSUPP)
inline constexpr int kExitRolledBack = 8;   ///< a transaction failed and was rolled back

/// The exit status of a request that failed with @ec.
[[nodiscard]] int exit_code(std::error_code ec);

/// "EBUSY: Device or resource busy": the errno's name and text.
[[nodiscard]] std::string errno_text(std::error_code ec);
/// The message for a failed device request; @what names it ("partition set
/// device 0"): the cause, then the errno.
[[nodiscard]] std::string device_error(std::string_view what, std::error_code ec);

/// The message for a failed open of the control node at @path.
[[nodiscard]] std::string open_error(std::string_view path, std::error_code ec);
/// The message for a failed request; @what names it ("device list").
[[nodiscard]] std::string request_error(std::string_view path, std::string_view what,
                                        std::error_code ec);

/// The message for a failed HMM request; @what names it ("migration").
[[nodiscard]] std::string hmm_error(std::string_view what, std::error_code ec);
/// Why the kernel cannot migrate, from its capability bits.
[[nodiscard]] std::string hmm_unsupported(const Caps& caps);

} // namespace amdx::cli

#endif // AMDX_CLI_ERRORS_HPP
