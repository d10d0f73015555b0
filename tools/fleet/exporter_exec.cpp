// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx exporter` in the amdx program: the command line parsed (so usage
// errors and --help are amdx's own), it runs again in amdx-exporter, the
// same CLI with the exporter (exporter.cpp) linked in.  Only the exporter
// needs prometheus-cpp and civetweb; every other command starts without
// loading them (ctest cli.links_no_exporter_libraries).
//
//   amdx exporter ARGS  --execv-->  amdx-exporter exporter ARGS
//   (bin/amdx)                      (beside it in the build tree and the
//                                    test VM, libexec/amdx/ installed)
#include <cerrno>
#include <climits>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>

#include "fleet.hpp"

namespace amdx::cli {

namespace {

/// The directory of this program, "" if /proc does not say.
std::string own_dir() {
    std::string path(PATH_MAX, '\0');
    const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
    if (n <= 0 || static_cast<std::size_t>(n) >= path.size())
        return {};
    path.resize(static_cast<std::size_t>(n));
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string{} : path.substr(0, slash);
}

} // namespace

int FleetCommands::exporter(const Options& opts, std::ostream& out, std::ostream& err) const {
    const std::string dir = own_dir();
    if (dir.empty() || opts.argv == nullptr || opts.argc < 1) {
        fail(err, "exporter: cannot find amdx-exporter (no /proc/self/exe)", kExitError);
        return kExitError;
    }
    std::vector<const char*> argv(opts.argv, opts.argv + opts.argc);
    argv.push_back(nullptr);
    out.flush();
    std::error_code first;
    std::string tried;
    for (const std::string& path : {dir + "/amdx-exporter", dir + "/" AMDX_EXPORTER_FROM_BINDIR}) {
        ::execv(path.c_str(), const_cast<char* const*>(argv.data()));
        if (!first || errno != ENOENT)
            first = std::error_code(errno, std::system_category());
        tried += (tried.empty() ? "" : ", ") + path;
    }
    fail(err, "exporter: cannot run amdx-exporter (" + tried + "): " + errno_text(first),
         kExitError);
    return kExitError;
}

} // namespace amdx::cli
