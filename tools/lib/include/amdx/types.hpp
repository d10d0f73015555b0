// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Typed mirrors of the uapi's AMDX_MODEL_*, AMDX_COMPUTE_* and AMDX_MEMORY_*
// values.  Values a newer kernel may report are kept as-is; to_string() names
// them "unknown".  parse_*() are case-insensitive and never accept "unknown".
//
// Thread safety: plain values; the free functions are reentrant and keep
// no state.
#ifndef AMDX_TYPES_HPP
#define AMDX_TYPES_HPP

#include <cstdint>
#include <optional>
#include <string_view>

#include <amdx/export.hpp>
#include <linux/amdx.h>

namespace amdx {

enum class Model : std::uint32_t {
    unknown = AMDX_MODEL_UNKNOWN,
    mi300x = AMDX_MODEL_MI300X,
    mi300a = AMDX_MODEL_MI300A,
    mi308x = AMDX_MODEL_MI308X,
};

enum class ComputeMode : std::uint32_t {
    unknown = AMDX_COMPUTE_UNKNOWN,
    spx = AMDX_COMPUTE_SPX,
    dpx = AMDX_COMPUTE_DPX,
    tpx = AMDX_COMPUTE_TPX,
    qpx = AMDX_COMPUTE_QPX,
    cpx = AMDX_COMPUTE_CPX,
};

enum class MemoryMode : std::uint32_t {
    unknown = AMDX_MEMORY_UNKNOWN,
    nps1 = AMDX_MEMORY_NPS1,
    nps2 = AMDX_MEMORY_NPS2,
    nps4 = AMDX_MEMORY_NPS4,
    nps8 = AMDX_MEMORY_NPS8,
};

/// "mi300x", "mi300a", "mi308x"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(Model model) noexcept;
/// "SPX", "DPX", "TPX", "QPX", "CPX"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(ComputeMode mode) noexcept;
/// "NPS1", "NPS2", "NPS4", "NPS8"; "unknown" otherwise.
AMDX_EXPORT std::string_view to_string(MemoryMode mode) noexcept;

AMDX_EXPORT std::optional<Model> parse_model(std::string_view name) noexcept;
AMDX_EXPORT std::optional<ComputeMode> parse_compute_mode(std::string_view name) noexcept;
AMDX_EXPORT std::optional<MemoryMode> parse_memory_mode(std::string_view name) noexcept;

} // namespace amdx

#endif // AMDX_TYPES_HPP
