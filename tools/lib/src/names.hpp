// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Internal: lookups in constexpr tables of {value, name} pairs, shared by
// every to_string() / parse_*() of libamdx.
#ifndef AMDX_SRC_NAMES_HPP
#define AMDX_SRC_NAMES_HPP

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>
#include <utility>

namespace amdx::detail {

inline constexpr std::string_view kUnknownName = "unknown";

/// The name of @value in @table, or "unknown".
template <class Table, class E>
std::string_view name_of(const Table& table, E value) noexcept {
    const auto* it = std::find_if(table.begin(), table.end(),
                                  [value](const auto& entry) { return entry.first == value; });
    return it == table.end() ? kUnknownName : it->second;
}

inline bool iequals(std::string_view a, std::string_view b) noexcept {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) ==
               std::tolower(static_cast<unsigned char>(y));
    });
}

/// The value named @name (case-insensitive) in @table.
template <class Table>
auto value_of(const Table& table, std::string_view name) noexcept
    -> std::optional<typename Table::value_type::first_type> {
    const auto* it = std::find_if(table.begin(), table.end(), [name](const auto& entry) {
        return iequals(entry.second, name);
    });
    if (it == table.end())
        return std::nullopt;
    return it->first;
}

} // namespace amdx::detail

#endif // AMDX_SRC_NAMES_HPP
