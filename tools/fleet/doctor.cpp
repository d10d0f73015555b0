// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx doctor` (doctor.hpp).  The files and formats are amdgpu's, as
// Debian's 6.12.118 writes them (drivers/gpu/drm/amd/amdgpu/):
//   serial_number, product_name     amdgpu_fru_eeprom.c, "%s\n"
//   current_compute_partition       amdgpu_gfx.c, "SPX\n" ... "CPX\n"
//   current_memory_partition        amdgpu_gmc.c, "NPS1\n" ... "NPS8\n"
//   ras/gpu_vram_bad_pages          amdgpu_ras.c, "0x%08x : 0x%08x : %1s\n"
//                                   (page frame, size, R/P/F) per page
//   ras/<block>_err_count           amdgpu_ras.c, "ue: N\nce: N\n" (UMC
//                                   adds "de: N\n"); reading it queries the
//                                   hardware and resets the block's error
//                                   status registers (amdgpu_ras.c:630-634)
#include "doctor.hpp"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <system_error>

#include "commands.hpp"
#include "errors.hpp"

namespace amdx::cli {

namespace fs = std::filesystem;

namespace {

/// amdgpu's GPU page (AMDGPU_GPU_PAGE_SHIFT).
constexpr unsigned kGpuPageShift = 12;

std::optional<std::string> read_text(const fs::path& p) {
    std::ifstream in(p);
    if (!in)
        return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// The first line of @p without its end, or nullopt if it cannot be read.
std::optional<std::string> read_line(const fs::path& p) {
    auto text = read_text(p);
    if (!text)
        return std::nullopt;
    return text->substr(0, text->find('\n'));
}

std::string upper(std::string s) {
    std::ranges::transform(s, s.begin(), [](unsigned char c) { return std::toupper(c); });
    return s;
}

std::string hex(std::uint64_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

DoctorCheck compare(std::string check, const std::string& ours, const fs::path& file,
                    bool case_blind) {
    DoctorCheck c{std::move(check), DoctorVerdict::absent, ours, "", file.string()};
    const auto theirs = read_line(file);
    if (!theirs)
        return c;
    c.amdgpu = *theirs;
    const bool same = case_blind ? upper(ours) == upper(*theirs) : ours == *theirs;
    c.verdict = same ? DoctorVerdict::ok : DoctorVerdict::mismatch;
    return c;
}

/// The VRAM byte addresses gpu_vram_bad_pages lists (every flag: reserved,
/// pending and failed to reserve are all retired in amdgpu's table).
std::optional<std::set<std::uint64_t>> amdgpu_bad_pages(const fs::path& file) {
    auto text = read_text(file);
    if (!text)
        return std::nullopt;
    std::set<std::uint64_t> out;
    std::istringstream in(*text);
    std::string line;
    while (std::getline(in, line)) {
        std::uint64_t page = 0;
        if (std::sscanf(line.c_str(), "%" SCNx64, &page) == 1) // NOLINT(cert-err34-c)
            out.insert(page << kGpuPageShift);
    }
    return out;
}

DoctorCheck bad_pages(const DoctorView& v, const fs::path& file) {
    DoctorCheck c{"bad_pages", DoctorVerdict::absent, std::to_string(v.badpages.size()) + " pages",
                  "", file.string()};
    const auto theirs = amdgpu_bad_pages(file);
    if (!theirs)
        return c;
    std::set<std::uint64_t> ours;
    for (const auto& p : v.badpages)
        ours.insert(p.address & ~((std::uint64_t{1} << kGpuPageShift) - 1));
    c.amdgpu = std::to_string(theirs->size()) + " pages";
    std::vector<std::uint64_t> only_amdgpu, only_amdx;
    std::ranges::set_difference(*theirs, ours, std::back_inserter(only_amdgpu));
    std::ranges::set_difference(ours, *theirs, std::back_inserter(only_amdx));
    if (only_amdgpu.empty() && only_amdx.empty()) {
        c.verdict = DoctorVerdict::ok;
        return c;
    }
    c.verdict = DoctorVerdict::mismatch;
    if (!only_amdgpu.empty())
        c.detail = std::to_string(only_amdgpu.size()) + " only in amdgpu's table (first " +
                   hex(only_amdgpu.front()) + ")";
    if (!only_amdx.empty())
        c.detail += std::string(c.detail.empty() ? "" : ", ") + std::to_string(only_amdx.size()) +
                    " only in amdx's (first " + hex(only_amdx.front()) + ")";
    return c;
}

/// "ue: 1\nce: 2\n" as type name -> count.
std::map<std::string, std::uint64_t> err_counts(const std::string& text) {
    std::map<std::string, std::uint64_t> out;
    std::istringstream in(text);
    std::string name;
    std::uint64_t n = 0;
    while (in >> name >> n) {
        if (!name.empty() && name.back() == ':')
            name.pop_back();
        out[name] = n;
    }
    return out;
}

void ras_counters(const DoctorView& v, const fs::path& dir, std::vector<DoctorCheck>& out) {
    for (const auto& row : v.ras.counters) {
        if (row.partition != kRasPartitionAll)
            continue;
        const std::string block(to_string(row.block));
        const fs::path file = dir / (block + "_err_count");
        DoctorCheck c{"ras_" + block, DoctorVerdict::absent, "", "", file.string()};
        const auto text = read_text(file);
        const auto theirs = text ? err_counts(*text) : std::map<std::string, std::uint64_t>{};
        bool same = true;
        for (const auto type : {RasType::ue, RasType::ce, RasType::de}) {
            const auto& ours = row.count.at(static_cast<std::size_t>(type));
            if (!ours)
                continue;
            const std::string t(to_string(type));
            c.amdx += (c.amdx.empty() ? "" : " ") + t + " " + std::to_string(*ours);
            const auto it = theirs.find(t);
            if (it == theirs.end())
                continue; // amdgpu does not report the type for this block
            c.amdgpu += (c.amdgpu.empty() ? "" : " ") + t + " " + std::to_string(it->second);
            same = same && it->second == *ours;
        }
        if (text)
            c.verdict = same ? DoctorVerdict::ok : DoctorVerdict::mismatch;
        out.push_back(std::move(c));
    }
}

Json check_to_json(const DeviceInfo& info, const DoctorCheck& c) {
    return Json{{"device", info.id}, {"bdf", info.bdf},
                {"check", c.check},  {"verdict", to_string(c.verdict)},
                {"amdx", c.amdx},    {"amdgpu", c.amdgpu},
                {"detail", c.detail}};
}

} // namespace

std::string_view to_string(DoctorVerdict v) {
    switch (v) {
    case DoctorVerdict::ok:
        return "ok";
    case DoctorVerdict::mismatch:
        return "mismatch";
    case DoctorVerdict::absent:
        return "absent";
    case DoctorVerdict::skipped:
        return "skipped";
    }
    return "unknown";
}

std::vector<DoctorCheck> doctor_checks(const DoctorView& v, const fs::path& sysfs,
                                       bool ras_counters_too) {
    const fs::path dev = sysfs / "bus/pci/devices" / v.info.bdf;
    std::vector<DoctorCheck> out;
    std::error_code ec;
    const auto driver = fs::read_symlink(dev / "driver", ec);
    DoctorCheck drv{"driver", DoctorVerdict::ok, "amdgpu", driver.filename().string(),
                    (dev / "driver").string()};
    if (ec || drv.amdgpu != "amdgpu") {
        drv.verdict = DoctorVerdict::skipped;
        drv.detail = ec ? "no PCI device " + v.info.bdf + " bound to a driver under " +
                              sysfs.string() + ": not an amdgpu device (the simulator's have none)"
                        : "bound to " + drv.amdgpu + ", not amdgpu";
        out.push_back(std::move(drv));
        return out;
    }
    out.push_back(std::move(drv));
    out.push_back(compare("serial", v.info.serial, dev / "serial_number", false));
    out.push_back(compare("product", v.info.product, dev / "product_name", false));
    out.push_back(compare("compute_partition", std::string(to_string(v.info.compute_mode)),
                          dev / "current_compute_partition", true));
    out.push_back(compare("memory_partition", std::string(to_string(v.info.memory_mode)),
                          dev / "current_memory_partition", true));
    out.push_back(bad_pages(v, dev / "ras/gpu_vram_bad_pages"));
    if (ras_counters_too)
        ras_counters(v, dev / "ras", out);
    else
        out.push_back(DoctorCheck{"ras_counters", DoctorVerdict::skipped, "", "",
                                  "not read: reading ras/*_err_count resets amdgpu's error "
                                  "status registers (--ras-counters reads them)"});
    return out;
}

DoctorCommand::DoctorCommand(CLI::App& app)
    : cmd_(app.add_subcommand("doctor",
                              "Check that amdx's view of each device matches amdgpu's sysfs "
                              "(changes nothing)")) {
    cmd_->fallthrough();
    add_dev_option(cmd_, dev_, true);
    cmd_->add_option("--sysfs", sysfs_,
                     "Where sysfs is (a copy of a host's tree, for a bug report)")
        ->capture_default_str();
    cmd_->add_flag("--ras-counters", ras_counters_,
                   "Compare amdgpu's ras/*_err_count too (reading them resets the hardware's "
                   "error status registers)");
}

int DoctorCommand::run(const Options& opts, std::ostream& out, std::ostream& err) const {
    int code = kExitOk;
    const auto sel = select_devices(opts, dev_, true, err, code);
    if (!sel)
        return code;
    Json rows = Json::array();
    bool mismatch = false;
    for (const auto& entry : sel->entries) {
        auto device = open_device(sel->control, entry, err);
        if (!device)
            return kExitError;
        DoctorView v;
        auto info = device->info();
        auto ras = info ? device->ras_status() : Result<RasStatus>(Unexpected(info.error()));
        auto pages =
            ras ? device->badpages() : Result<std::vector<BadPage>>(Unexpected(ras.error()));
        if (!pages) {
            fail(err, what_on("doctor", entry) + ": " + pages.context().message(), pages.error());
            return kExitError;
        }
        v.info = std::move(*info);
        v.ras = std::move(*ras);
        v.badpages = std::move(*pages);
        for (const auto& c : doctor_checks(v, sysfs_, ras_counters_)) {
            mismatch = mismatch || c.verdict == DoctorVerdict::mismatch;
            rows.push_back(check_to_json(v.info, c));
        }
    }
    render(out,
           Json{{"doctor", Json{{"sysfs", sysfs_},
                                {"verdict", mismatch ? "mismatch" : "ok"},
                                {"checks", std::move(rows)}}}},
           opts);
    if (mismatch) {
        fail(err,
             "amdx's view differs from amdgpu's (the checks above; attach 'amdx -j doctor' "
             "to the report)",
             kExitError);
        return kExitError;
    }
    return kExitOk;
}

} // namespace amdx::cli
