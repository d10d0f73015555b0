// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The amdx CLI, as functions: argument parsing and dispatch (cli.cpp),
// device selectors (selector.cpp), the single print path for text and JSON
// (output.cpp) and the one-line error messages (errors.cpp).
#ifndef AMDX_CLI_HPP
#define AMDX_CLI_HPP

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include <nlohmann/json.hpp>

#include <amdx/device.hpp>

namespace amdx::cli {

/// Member order is part of the output, so objects keep insertion order.
using Json = nlohmann::ordered_json;

enum class Format { text, json, json_pretty };

inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;

/// DEV: a device id, a PCI address ("0000:c1:00.0" or "c1:00.0") or "all".
struct Selector {
    enum class Kind { all, id, bdf };
    Kind kind = Kind::all;
    std::uint32_t id = 0;
    std::string bdf; ///< normalized: lower case, with domain

    [[nodiscard]] bool matches(const DeviceEntry& entry) const;
};

[[nodiscard]] std::optional<Selector> parse_selector(std::string_view text);

/// One "devices" element of `dev list`.
[[nodiscard]] Json entry_to_json(const DeviceEntry& entry);
/// One "devices" element of `dev show`.
[[nodiscard]] Json info_to_json(const DeviceInfo& info);
/// Prints @doc as JSON, or as text lines derived from the same object.
void render(std::ostream& out, const Json& doc, Format format);

/// The message for a failed open of the control node at @path.
[[nodiscard]] std::string open_error(std::string_view path, std::error_code ec);
/// The message for a failed request; @what names it ("device list").
[[nodiscard]] std::string request_error(std::string_view path, std::string_view what,
                                        std::error_code ec);

/// Runs the CLI: output to @out, one error line to @err; returns the exit code.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

} // namespace amdx::cli

#endif // AMDX_CLI_HPP
