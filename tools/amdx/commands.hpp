// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The OBJECTs partition, vf, ras and monitor: each registers its commands
// and options with the parser and runs the one that was parsed.
#ifndef AMDX_COMMANDS_HPP
#define AMDX_COMMANDS_HPP

#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli.hpp"

namespace amdx::cli {

/// The cause a CLI11 parse error of @cmd names, in amdx's words: one
/// cause of "(...) AND (...)", "not a whole number: abc (expected 1 to
/// 1024)" for a number that is none, ranges without float digits, "given 2
/// times, at most 1", "a value is missing".
[[nodiscard]] std::string parse_error_text(const CLI::App& cmd, const CLI::ParseError& e);

/// The control node and the devices DEV selected, in id order.
struct Selection {
    Control control;
    std::vector<DeviceEntry> entries;
    /// The node's GPUs (gpu_table() over every listed device), if
    /// selecting needed them; gpus_of() fills it otherwise.
    std::optional<std::vector<GpuSlot>> gpus;
};
/// @sel's gpus, computed once (gpu_table() over the node's device list)
/// the first time; fails with the first failed request (what in @what).
[[nodiscard]] Result<const std::vector<GpuSlot>*> gpus_of(Selection& sel, const Options& opts,
                                                          std::string& what);
/// The preamble of every device command: checks @dev (an id, a BDF, a
/// serial, a comma-separated list of them, or with @allow_all "all"; a
/// usage error never depends on the module), opens the control node and
/// selects the devices.  On failure prints the one error line and sets
/// @code (usage errors 2, others 1).
[[nodiscard]] std::optional<Selection> select_devices(const Options& opts, const std::string& dev,
                                                      bool allow_all, std::ostream& err, int& code);
/// A CLI11 check of a DEV argument (parse_selector(); with !@allow_many one
/// device), so a bad DEV is a usage error before anything is opened.
[[nodiscard]] CLI::Validator device_validator(bool allow_many);
/// Adds the DEV positional of @cmd: optional ("all") if @allow_many, else
/// required.
CLI::Option* add_dev_option(CLI::App* cmd, std::string& dev, bool allow_many);

/// Opens @entry's device fd; prints the error.
[[nodiscard]] std::optional<Device> open_device(const Control& control, const DeviceEntry& entry,
                                                std::ostream& err);

/// The one device a command acts on, opened.
struct Target {
    DeviceEntry entry;
    Device device;
};
/// select_devices() of the one device @dev names, opened; prints the error and
/// sets @code.
[[nodiscard]] std::optional<Target> select_one(const Options& opts, const std::string& dev,
                                               std::ostream& err, int& code);
/// "@cmd device ID", the start of an error line.
[[nodiscard]] std::string what_on(std::string_view cmd, const DeviceEntry& e);

/// Every device @dev selects (select_devices()), opened in id order:
/// @each(device, entry) returns std::nullopt to go on with the next one, or
/// the exit status to stop with (having printed any error line).  Returns
/// that status, or std::nullopt once every device was done.
template <typename Each>
[[nodiscard]] std::optional<int> for_each_device(const Options& opts, const std::string& dev,
                                                 bool allow_all, std::ostream& err, Each&& each) {
    int code = kExitOk;
    const auto sel = select_devices(opts, dev, allow_all, err, code);
    if (!sel)
        return code;
    for (const auto& e : sel->entries) {
        const auto device = open_device(sel->control, e, err);
        if (!device)
            return kExitError;
        if (const std::optional<int> stop = each(*device, e))
            return stop;
    }
    return std::nullopt;
}

/// A `show` command: for every device @dev selects, @each(device, entry,
/// err) returns its JSON object or, having printed the error line,
/// std::nullopt, which ends the command; renders {"devices": [...]}.
template <typename Each>
[[nodiscard]] int show_devices(const Options& opts, const std::string& dev, std::ostream& out,
                               std::ostream& err, Each&& each) {
    Json devices = Json::array();
    const auto stop =
        for_each_device(opts, dev, true, err,
                        [&](const Device& device, const DeviceEntry& e) -> std::optional<int> {
                            std::optional<Json> one = each(device, e, err);
                            if (!one)
                                return kExitError;
                            devices.push_back(std::move(*one));
                            return std::nullopt;
                        });
    if (stop)
        return *stop;
    render(out, Json{{"devices", std::move(devices)}}, opts);
    return kExitOk;
}

/// show_devices() of one query per device: @query(device) is a Result whose
/// value @to_json(entry, value) shows; a failed query is the error line
/// "@what device N: ...".
template <typename Query, typename ToJson>
[[nodiscard]] int show_query(const Options& opts, const std::string& dev, std::ostream& out,
                             std::ostream& err, std::string_view what, Query&& query,
                             ToJson&& to_json) {
    return show_devices(opts, dev, out, err,
                        [&](const Device& device, const DeviceEntry& e,
                            std::ostream& err_out) -> std::optional<Json> {
                            const auto value = query(device);
                            if (!value) {
                                fail(err_out, device_error(what_on(what, e), value.error()),
                                     value.error());
                                return std::nullopt;
                            }
                            return to_json(e, *value);
                        });
}

/// `amdx partition show|plan|set`.
class PartitionCommands {
  public:
    explicit PartitionCommands(CLI::App& app);
    [[nodiscard]] bool parsed() const { return object_->parsed(); }
    int run(const Options& opts, std::ostream& out, std::ostream& err) const;

  private:
    int show(const Options& opts, std::ostream& out, std::ostream& err) const;
    int change(const Options& opts, bool commit, std::ostream& out, std::ostream& err) const;

    CLI::App* object_;
    CLI::App* plan_;
    CLI::App* set_;
    std::string dev_ = "all";
    std::string compute_;
    std::string memory_;
    bool drain_ = false;
    bool yes_ = false;
    std::uint32_t deadline_ms_ = 0;
};

/// `amdx vf show|enable|disable|set|reset`.
class VfCommands {
  public:
    explicit VfCommands(CLI::App& app);
    [[nodiscard]] bool parsed() const { return object_->parsed(); }
    int run(const Options& opts, std::ostream& out, std::ostream& err) const;

  private:
    int show(const Options& opts, std::ostream& out, std::ostream& err) const;
    int enable(const Options& opts, std::ostream& out, std::ostream& err) const;
    int disable(const Options& opts, std::ostream& out, std::ostream& err) const;
    int set(const Options& opts, std::ostream& out, std::ostream& err) const;
    int reset(const Options& opts, std::ostream& out, std::ostream& err) const;

    CLI::App* object_;
    CLI::App* enable_;
    CLI::App* disable_;
    CLI::App* set_;
    CLI::App* reset_;
    std::string dev_ = "all";
    std::uint32_t num_vfs_ = 0;
    std::string config_;
    std::uint32_t vf_ = 0;
    std::optional<std::uint64_t> vram_mib_;
    std::optional<std::uint32_t> time_slice_us_;
    std::string priority_;
    bool evict_ = false;
    bool no_evict_ = false;
};

/// `amdx ras show|inject|policy show|policy set|badpages`.
class RasCommands {
  public:
    explicit RasCommands(CLI::App& app);
    [[nodiscard]] bool parsed() const { return object_->parsed(); }
    int run(const Options& opts, std::ostream& out, std::ostream& err) const;

  private:
    int show(const Options& opts, std::ostream& out, std::ostream& err) const;
    int inject(const Options& opts, std::ostream& out, std::ostream& err) const;
    int policy_show(const Options& opts, std::ostream& out, std::ostream& err) const;
    int policy_set(const Options& opts, std::ostream& out, std::ostream& err) const;
    int badpages(const Options& opts, std::ostream& out, std::ostream& err) const;

    CLI::App* object_;
    CLI::App* inject_;
    CLI::App* policy_;
    CLI::App* policy_set_;
    CLI::App* badpages_;
    std::string dev_ = "all";
    bool detail_ = false;
    std::string block_;
    std::string type_;
    std::uint32_t instance_ = 0;
    std::string address_ = "0";
    std::uint32_t count_ = 1;
    std::optional<std::uint32_t> ce_page_threshold_;
    std::optional<std::uint32_t> ce_window_s_;
    std::string bad_page_threshold_;
    std::optional<std::uint32_t> part_reset_limit_;
    std::optional<std::uint32_t> part_reset_window_s_;
    bool rma_refuse_ = false;
    bool no_rma_refuse_ = false;
    std::string export_;
    std::string import_;
};

/// `amdx recover plan|run DEV [partition=N | vf=N] [--action A]`.
class RecoverCommands {
  public:
    explicit RecoverCommands(CLI::App& app);
    [[nodiscard]] bool parsed() const { return object_->parsed(); }
    int run(const Options& opts, std::ostream& out, std::ostream& err) const;

  private:
    CLI::App* object_;
    CLI::App* plan_;
    CLI::App* run_;
    std::string dev_;
    std::string target_;
    std::string action_;
    bool stop_ = false;
    bool yes_ = false;
};

/// `amdx link show [DEV]`.
class LinkCommands {
  public:
    explicit LinkCommands(CLI::App& app);
    [[nodiscard]] bool parsed() const { return object_->parsed(); }
    int run(const Options& opts, std::ostream& out, std::ostream& err) const;

  private:
    CLI::App* object_;
    std::string dev_ = "all";
    bool matrix_ = false; ///< --matrix: one N x N table per hive
};

/// `amdx monitor [DEV...]`.
class MonitorCommand {
  public:
    explicit MonitorCommand(CLI::App& app);
    [[nodiscard]] bool parsed() const { return object_->parsed(); }
    int run(const Options& opts, std::ostream& out, std::ostream& err) const;

  private:
    CLI::App* object_;
    std::vector<std::string> devs_;
    std::string kinds_ = "all";
    std::uint64_t count_ = 0;
    int timeout_ms_ = -1;
    std::uint32_t ring_size_ = 0;
    double interval_ = 0; ///< -i: the watch view (watch.cpp) every this many seconds
};

/// `amdx monitor -i SECONDS [-c COUNT] [DEV...]`: @count samples (0: no
/// end) of the devices @devs selects, @interval_s apart.
int watch(const Options& opts, const std::string& devs, double interval_s, std::uint64_t count,
          std::ostream& out, std::ostream& err);

} // namespace amdx::cli

#endif // AMDX_COMMANDS_HPP
