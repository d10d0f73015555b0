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
#include <vector>

#include <nlohmann/json.hpp>

#include <amdx/device.hpp>

namespace amdx::cli {

/// Member order is part of the output, so objects keep insertion order.
using Json = nlohmann::ordered_json;

enum class Format { text, json, json_pretty };

/// Global options.
struct Options {
    Format format = Format::text;
    std::string node{kControlPath};
};

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

/// "hmm" of `hmm show`: which of the AMDX_CAP_* HMM bits the kernel has.
[[nodiscard]] Json hmm_caps_to_json(const Caps& caps);
/// struct amdx_hmm_stats.
[[nodiscard]] Json hmm_stats_to_json(const HmmStats& stats);
/// A device fd's ranges: pid, total and ranges (`hmm show`, `hmm demo`).
[[nodiscard]] Json hmm_ranges_to_json(const HmmRanges& ranges);
/// The outputs of a migration.
[[nodiscard]] Json migrate_to_json(const MigrateResult& result);
/// AMDX_HMM_SKIP_* bits as names ("busy", ...; "unknown" for others).
[[nodiscard]] Json skip_reasons_to_json(std::uint32_t reasons);
/// "system", "preferred" or the partition index in decimal.
[[nodiscard]] std::string hmm_loc_name(std::uint32_t loc);

/// A size argument: decimal bytes with an optional K, M or G suffix
/// (binary: KiB, MiB, GiB, which are accepted too).
[[nodiscard]] std::optional<std::uint64_t> parse_size(std::string_view text);

/// The message for a failed open of the control node at @path.
[[nodiscard]] std::string open_error(std::string_view path, std::error_code ec);
/// The message for a failed request; @what names it ("device list").
[[nodiscard]] std::string request_error(std::string_view path, std::string_view what,
                                        std::error_code ec);

/// The message for a failed HMM request; @what names it ("migration").
[[nodiscard]] std::string hmm_error(std::string_view what, std::error_code ec);
/// Why the kernel cannot migrate, from its capability bits.
[[nodiscard]] std::string hmm_unsupported(const Caps& caps);

/// Prints "amdx: @msg" as the one error line.
void fail(std::ostream& err, const std::string& msg);
/// Opens the control node and checks the uapi version; prints the error.
[[nodiscard]] std::optional<Control> open_control(const Options& opts, std::ostream& err);

/// `amdx hmm show DEV` and `amdx hmm demo DEV ARGS`; ARGS are key=value.
int hmm_show(const Options& opts, const std::string& dev, std::ostream& out, std::ostream& err);
int hmm_demo(const Options& opts, const std::vector<std::string>& args, std::ostream& out,
             std::ostream& err);

/// Runs the CLI: output to @out, one error line to @err; returns the exit code.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

} // namespace amdx::cli

#endif // AMDX_CLI_HPP
