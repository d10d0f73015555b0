// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// ErrorContext::message(): the one line an embedder logs, so it need not
// map errno values to causes itself.  The causes are what the uapi says the
// errno means for an amdx call (Documentation/uapi.rst, library.rst).
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include <amdx/partition.hpp>
#include <amdx/ras.hpp>
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

/// Calls whose reason is an AMDX_PART_REASON_*.
bool is_partition_call(std::string_view call) noexcept {
    return call == "AMDX_IOC_PARTITION_PLAN" || call == "AMDX_IOC_PARTITION_COMMIT" ||
           call == "AMDX_IOC_VF_ENABLE" || call == "AMDX_IOC_VF_RESET";
}

/// ": TEXT (reason NAME)" of @reason of @call, "" for none or a call without reasons.
template <class Reason>
std::string reason_part(std::uint32_t reason) {
    const auto r = static_cast<Reason>(reason);
    return ": " + std::string(reason_text(r)) + " (reason " + std::string(to_string(r)) + ')';
}

std::string reason_of(std::string_view call, std::uint32_t reason) {
    if (reason == 0)
        return {};
    if (is_partition_call(call))
        return reason_part<PartitionReason>(reason);
    if (call == "AMDX_IOC_RAS_INJECT")
        return reason_part<RasInjectReason>(reason);
    return {};
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
    out += reason_of(call, reason);
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
