// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <array>
#include <utility>

#include <amdx/types.hpp>

#include "names.hpp"

namespace amdx {

using detail::name_of;
using detail::value_of;

namespace {

constexpr std::array kModels{
    std::pair{Model::mi300x, std::string_view("mi300x")},
    std::pair{Model::mi300a, std::string_view("mi300a")},
    std::pair{Model::mi308x, std::string_view("mi308x")},
};

constexpr std::array kComputeModes{
    std::pair{ComputeMode::spx, std::string_view("SPX")},
    std::pair{ComputeMode::dpx, std::string_view("DPX")},
    std::pair{ComputeMode::tpx, std::string_view("TPX")},
    std::pair{ComputeMode::qpx, std::string_view("QPX")},
    std::pair{ComputeMode::cpx, std::string_view("CPX")},
};

constexpr std::array kMemoryModes{
    std::pair{MemoryMode::nps1, std::string_view("NPS1")},
    std::pair{MemoryMode::nps2, std::string_view("NPS2")},
    std::pair{MemoryMode::nps4, std::string_view("NPS4")},
    std::pair{MemoryMode::nps8, std::string_view("NPS8")},
};

} // namespace

std::string_view to_string(Model model) noexcept {
    return name_of(kModels, model);
}
std::string_view to_string(ComputeMode mode) noexcept {
    return name_of(kComputeModes, mode);
}
std::string_view to_string(MemoryMode mode) noexcept {
    return name_of(kMemoryModes, mode);
}

std::optional<Model> parse_model(std::string_view name) noexcept {
    return value_of(kModels, name);
}

std::optional<ComputeMode> parse_compute_mode(std::string_view name) noexcept {
    return value_of(kComputeModes, name);
}

std::optional<MemoryMode> parse_memory_mode(std::string_view name) noexcept {
    return value_of(kMemoryModes, name);
}

} // namespace amdx
