// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx doctor`: bring-up checks on a real host (Documentation/amdgpu.rst,
// "Bring-up").  For each amdx device it reads amdgpu's own sysfs files of
// the same PCI function and says, check by check, whether amdx's view
// matches amdgpu's; it changes nothing (amdgpu's RAS counter files are
// read only on request: reading them makes amdgpu query the hardware and
// clear its error status registers).
//
//   amdx                       amdx.ko                 amdgpu's sysfs
//   DEVICE_INFO, partitions,   -->  amdx's view
//   RAS counters, bad pages
//                                                      /sys/bus/pci/devices/BDF/
//   compare, one verdict   <--------------------------  serial_number, product_name,
//   per check                                          current_{compute,memory}_partition,
//                                                      ras/gpu_vram_bad_pages,
//                                                      ras/<block>_err_count (--ras-counters)
#ifndef AMDX_DOCTOR_HPP
#define AMDX_DOCTOR_HPP

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli.hpp"

namespace amdx::cli {

/// What one check found.
enum class DoctorVerdict {
    ok,       ///< amdx and amdgpu agree
    mismatch, ///< they disagree: a bug to report, with the JSON report
    absent,   ///< amdgpu has no such file here (an older amdgpu, no RAS)
    skipped,  ///< not an amdgpu device, or not asked for
};
/// "ok", "mismatch", "absent", "skipped".
[[nodiscard]] std::string_view to_string(DoctorVerdict v);

/// One check of one device.
struct DoctorCheck {
    std::string check; ///< "driver", "serial", "compute_partition", ...
    DoctorVerdict verdict = DoctorVerdict::skipped;
    std::string amdx;   ///< what amdx says
    std::string amdgpu; ///< what amdgpu's file says
    std::string detail; ///< the file read, or why not
};

/// amdx's view of one device, as the checks compare it.
struct DoctorView {
    DeviceInfo info;
    RasStatus ras;
    std::vector<BadPage> badpages;
};

/// The checks of one device against amdgpu's files below @sysfs (normally
/// "/sys"); with @ras_counters, the RAS counter files too.
[[nodiscard]] std::vector<DoctorCheck>
doctor_checks(const DoctorView& view, const std::filesystem::path& sysfs, bool ras_counters);

/// `amdx doctor [DEV] [--sysfs DIR] [--ras-counters]`.
class DoctorCommand {
  public:
    explicit DoctorCommand(CLI::App& app);
    [[nodiscard]] bool parsed() const { return cmd_->parsed(); }
    int run(const Options& opts, std::ostream& out, std::ostream& err) const;

  private:
    CLI::App* cmd_;
    std::string dev_ = "all";
    std::string sysfs_ = "/sys";
    bool ras_counters_ = false;
};

} // namespace amdx::cli

#endif // AMDX_DOCTOR_HPP
