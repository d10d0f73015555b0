// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// ErrorContext::message(): the one line an embedder logs, so it need not
// map errno values to causes itself.  The causes are what the uapi says the
// errno means for an amdx call (Documentation/uapi.rst, library.rst).
#include <cerrno>
#include <cstring>
#include <string>

#include <amdx/partition.hpp>
#include <amdx/result.hpp>
#include <amdx/version.hpp>

namespace amdx {

namespace {

bool is_open(std::string_view call) noexcept {
    return call == "open";
}

/// What @err means for @call, or "" where the errno's text says it all.
std::string_view cause(int err, std::string_view call) noexcept {
    switch (err) {
    case ENOENT:
    case ENXIO:
        return is_open(call) ? "module not loaded (modprobe amdx)" : "no such object";
    case ENODEV:
        return is_open(call) ? "module not loaded (modprobe amdx)"
                             : "no such device, or it went away";
    case EPERM:
    case EACCES:
        return is_open(call) ? "permission denied"
                             : "permission denied (changes need CAP_SYS_ADMIN)";
    case ENOTTY:
        return "not an amdx node, or a call this kernel module does not know";
    case EPROTO:
        return "malformed answer from the kernel";
    case EPROTONOSUPPORT:
        return "unsupported uapi version";
    case EAGAIN:
        return "kept changing, try again";
    case EBUSY:
        return "busy, try again later";
    case EINVAL:
        return "rejected as invalid";
    case ETIMEDOUT:
        return "timed out";
    case EOPNOTSUPP:
        return "not supported by this kernel";
    case EBADMSG:
        return "malformed bad-page table";
    case ENOSPC:
    case ENOMEM:
        return "out of memory";
    case EBADF:
        return "the fd belongs to another process or is closed";
    default:
        return "";
    }
}

bool is_partition_call(std::string_view call) noexcept {
    return call == "AMDX_IOC_PARTITION_PLAN" || call == "AMDX_IOC_PARTITION_COMMIT" ||
           call == "AMDX_IOC_VF_ENABLE";
}

} // namespace

std::string ErrorContext::message() const {
    std::string out(call.empty() ? std::string_view("libamdx") : call);
    if (device != kNoDevice)
        out += " on device " + std::to_string(device);
    out += ": ";
    const bool sys =
        code.category() == std::system_category() || code.category() == std::generic_category();
    const std::string_view why = sys ? cause(code.value(), call) : std::string_view{};
    out += why.empty() ? std::string_view("failed") : why;
    if (reason != 0 && is_partition_call(call)) {
        out += ": ";
        out += reason_text(static_cast<PartitionReason>(reason));
        out += " (reason ";
        out += to_string(static_cast<PartitionReason>(reason));
        out += ')';
    }
    if (!detail.empty()) {
        out += ": ";
        out += detail;
    }
    out += " (";
    if (sys) {
        const char* name = ::strerrorname_np(code.value());
        out += name != nullptr ? name : "errno " + std::to_string(code.value());
        out += ": ";
    }
    out += code.message();
    out += ')';
    return out;
}

LibraryVersion version() noexcept {
    return kHeaderVersion; // the headers of this build of the library
}

} // namespace amdx
