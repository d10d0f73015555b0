// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The JSON of event records (json.hpp): `monitor -j`, libamdx's one
// rendering (event_fields()) as an object.
#include "json.hpp"

namespace amdx::cli {

std::string errno_result(std::int64_t value) {
    const int e = static_cast<int>(value < 0 ? -value : value);
    return errno_name(std::error_code(e, std::system_category()));
}

Json event_to_json(const Event& ev) {
    return event_to_json(decode(ev));
}

Json event_to_json(const TypedEvent& ev) {
    Json j = Json::object();
    for (auto& f : event_fields(ev))
        std::visit([&j, &f](auto& v) { j[std::string(f.name)] = std::move(v); }, f.value);
    return j;
}

} // namespace amdx::cli
