// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The amdx CLI, as functions: argument parsing and dispatch (cli.cpp),
// device selectors (selector.cpp), the single print path for text and JSON
// (output.cpp) and the one-line error messages (errors.cpp).
#ifndef AMDX_CLI_HPP
#define AMDX_CLI_HPP

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <istream>
#include <optional>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <amdx/device.hpp>
#include <amdx/monitor.hpp>

#include "errors.hpp"
#include "json.hpp"

namespace amdx::cli {

/// csv: the table views as RFC 4180 CSV (render(), cli.rst "CSV output").
enum class Format { text, json, json_pretty, csv };

/// The "schema_version" member every JSON document starts with
/// (Documentation/admin-guide/cli.rst, "JSON output").
inline constexpr int kSchemaVersion = 2;

/// Global options.
struct Options {
    Format format = Format::text;
    std::string node{kControlPath};
    std::vector<std::string> columns; ///< -o: table columns, by JSON key
    bool raw = false;                 ///< --raw: tables without alignment
    bool color = false;               ///< nonzero counters in colour
    std::istream* in = nullptr;       ///< standard input ("-" files, --yes prompt)
    bool interactive = false;         ///< standard input is a terminal
    std::string sysfs = "/sys";       ///< where VFs' PCI addresses are looked up
    /// The command line as run() got it (`amdx exporter` runs it again in
    /// the exporter's own program, exporter_exec.cpp).
    const char* const* argv = nullptr;
    int argc = 0;
};

/// DEV: a comma-separated list of device ids, PCI addresses ("0000:c1:00.0"
/// or "c1:00.0"), serial numbers ("serial:SN1000"), GPU indexes as
/// ROCR_VISIBLE_DEVICES and amd-smi count GPUs ("gpu:3", gpu_table()),
/// ROCr UUIDs ("GPU-4a7c1e0f23b5d698", the KFD node's unique_id) or "all".
struct Selector {
    enum class Kind { all, id, bdf, serial, gpu, uuid };
    struct Item {
        Kind kind = Kind::all;
        std::uint32_t id = 0; ///< the device id, or the GPU index
        std::string text;     ///< bdf normalized (lower case, with domain), the serial, the UUID
        /// gpu and uuid: the devices resolve_gpus() found for it.
        std::vector<std::uint32_t> devices{};
    };
    Kind kind = Kind::all; ///< all if any item is "all", else the first item's kind
    std::uint32_t id = 0;  ///< the first item's id
    std::string bdf;       ///< the first item's bdf
    std::vector<Item> items;

    [[nodiscard]] bool matches(const DeviceEntry& entry, std::string_view serial = {}) const;
    /// Whether matching needs the devices' serial numbers.
    [[nodiscard]] bool needs_serial() const;
    /// Whether matching needs gpu_table() (a gpu or uuid item).
    [[nodiscard]] bool needs_gpus() const;
    /// Whether it names exactly one device (one item, not "all").
    [[nodiscard]] bool is_one() const { return kind != Kind::all && items.size() == 1; }
};

[[nodiscard]] std::optional<Selector> parse_selector(std::string_view text);
/// How an item names itself in messages: "3", "0000:c1:00.0",
/// "serial:SN1000", "gpu:3", "GPU-4a7c1e0f23b5d698".
[[nodiscard]] std::string item_name(const Selector::Item& item);

/// Fills the devices of @sel's gpu and uuid items from @gpus.
void resolve_gpus(Selector& sel, const std::vector<GpuSlot>& gpus);
/// The message for a DEV that does not parse.
[[nodiscard]] std::string selector_error(std::string_view text, bool allow_many);

/// -o named a column the output does not have (a usage error).
class ColumnError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// Prints @doc as JSON (with "schema_version" first), or as text derived
/// from the same object: tables (libsmartcols) for arrays of flat objects,
/// "key value" blocks for the rest, sizes in binary units, addresses in
/// hex, times as wall-clock beside the monotonic stamp.
void render(std::ostream& out, const Json& doc, const Options& opts);
void render(std::ostream& out, const Json& doc, Format format);
/// The -o names no table of @doc has ("" if all are known), for the error.
[[nodiscard]] std::string unknown_columns(const Json& doc, const std::vector<std::string>& cols);
/// A size in binary units: "512 B", "256 MiB", "1.5 GiB".
[[nodiscard]] std::string size_text(std::uint64_t bytes);
/// A CLOCK_MONOTONIC stamp as wall-clock time, RFC 3339 UTC:
/// "2026-12-01T10:12:13.123456Z".
[[nodiscard]] std::string monotonic_to_wall(std::uint64_t ns);

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

/// The bytes of the file @path, or of standard input (Options::in) for
/// "-"; prints the error ("PATH: cannot open (...)") and sets the exit status.
[[nodiscard]] std::optional<std::string> read_input(const std::string& path, const Options& opts,
                                                    std::ostream& err);
/// Prints "amdx: @msg" as the one error line.
void fail(std::ostream& err, const std::string& msg);
/// fail() that sets the run's exit status to @code (kExit*).
void fail(std::ostream& err, const std::string& msg, int code);
/// The command's own exit status stands over the last fail()'s code (for
/// commands with an exit-status contract of their own: health's NPD codes).
void keep_exit_status() noexcept;
/// fail() with the exit status of @ec.
void fail(std::ostream& err, const std::string& msg, std::error_code ec);
/// Opens the control node and checks the uapi version; prints the error.
[[nodiscard]] std::optional<Control> open_control(const Options& opts, std::ostream& err);

/// `amdx hmm show DEV` and `amdx hmm demo DEV ARGS`; ARGS are key=value.
int hmm_show(const Options& opts, const std::string& dev, std::ostream& out, std::ostream& err);
int hmm_demo(const Options& opts, const std::vector<std::string>& args, std::ostream& out,
             std::ostream& err);

// ---- partitions, VFs, RAS and events (their JSON: json.hpp)

/// The error line of a refused or failed plan/commit ("" if it succeeded
/// and, for a plan, is allowed).
[[nodiscard]] std::string partition_report_error(std::string_view what, const Partitions& before,
                                                 const PartitionRequest& req,
                                                 const PartitionReport& report, bool commit);
/// Parses a `vf enable --config` document: {"vfs": [...]} or [...], each
/// element {"partitions": [N..], "vram_quota": BYTES or "vram_mib": MIB,
/// "time_slice_us": N, "priority": "low|normal|high", "evict": BOOL}.
/// Fails with a message naming the element and key.
[[nodiscard]] std::optional<std::vector<VfConfig>> parse_vf_configs(const Json& doc,
                                                                    std::string& why);
/// `ras policy show`.
[[nodiscard]] Json ras_policy_to_json(const DeviceEntry& dev, const RasPolicy& policy);
/// A comma-separated list of event kind names ("all" for every kind) as a
/// subscription mask; nullopt names the first unknown kind in @bad.
[[nodiscard]] std::optional<std::uint64_t> parse_event_kinds(std::string_view list,
                                                             std::string& bad);

/// Tests: `amdx monitor -i` calls @wait(n) before its sample n (n >= 1)
/// instead of waiting for the interval; an empty function restores that.
void set_watch_wait_for_tests(std::function<void(std::uint64_t)> wait);

/// Runs the CLI: output to @out, one error line to @err; returns the exit
/// code.  Output that could not be written (@out failed) is an error.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);
/// run() reading "-" files and answers from @in; @interactive: @in is a terminal.
int run(int argc, const char* const* argv, std::istream& in, bool interactive, std::ostream& out,
        std::ostream& err);

/// An output buffer over a file descriptor that keeps the errno of the
/// first failed write (a stream only knows that one failed): standard
/// output, the exporter's textfile.  64 KiB at a time; each line on a
/// terminal.
class FdOutBuf : public std::streambuf {
  public:
    explicit FdOutBuf(int fd);
    [[nodiscard]] int fd() const { return fd_; }
    /// The errno of the first failed write, 0 if none.
    [[nodiscard]] int error() const { return error_; }

  protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

  private:
    /// xsputn() of what does not fit, and on a terminal: each line
    /// written as it ends.
    std::streamsize put_slow(const char* s, std::streamsize n);
    int fd_;
    int error_ = 0;
    bool line_ = false; ///< a terminal: write each line
    std::vector<char> buf_;
};

/// run() as the process: standard output through an FdOutBuf (a failed
/// write names its errno), a closed standard descriptor held by /dev/null
/// read-only (so writes to it still fail and /dev/amdx never becomes
/// standard output).
int run_process(int argc, const char* const* argv);

} // namespace amdx::cli

#endif // AMDX_CLI_HPP
