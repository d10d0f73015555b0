// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx ps [DEV]`: the processes with data in each device's memory
// partitions, and the compute partitions of those memory partitions, from
// the holders the kernel reports with a partition plan (the list a
// memory-mode change would have to move; the plan changes nothing and
// needs no privilege).  The kernel's privacy rule holds: a process that
// is not the caller's (same effective uid), or not visible in its pid
// namespace, comes with pid 0 and no name unless the caller has
// CAP_SYS_ADMIN; amdx prints it as such (pid and comm null).
#ifndef AMDX_PS_HPP
#define AMDX_PS_HPP

#include <optional>
#include <ostream>
#include <string>

#include <CLI/CLI.hpp>

#include "cli.hpp"

namespace amdx::cli {

/// The holders of one device: rows for `amdx ps`, or why they are unknown.
struct DeviceHolders {
    std::optional<PartitionReport> report; ///< unset: unknown, @why says why
    std::string why;
};

/// Asks @device's kernel for its holders: a plan of another memory mode
/// than @info's (the kernel lists holders only for a memory-mode change).
[[nodiscard]] DeviceHolders device_holders(const Device& device, const DeviceInfo& info);

/// The rows of `amdx -j ps` for one device.
[[nodiscard]] Json holders_to_json(const DeviceInfo& info, const Partitions& parts,
                                   const PartitionReport& report);

/// `amdx ps [DEV]`.
class PsCommand {
  public:
    explicit PsCommand(CLI::App& app);
    [[nodiscard]] bool parsed() const { return cmd_->parsed(); }
    int run(const Options& opts, std::ostream& out, std::ostream& err) const;

  private:
    CLI::App* cmd_;
    std::string dev_ = "all";
};

} // namespace amdx::cli

#endif // AMDX_PS_HPP
