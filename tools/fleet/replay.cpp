// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `amdx monitor --from-journal [FILE] [--since SEQ] [DEV...]`: the records
// amdx-eventd journaled (Documentation/admin-guide/eventd.rst), in the
// order it wrote them, rotated files first, printed as `amdx monitor`
// prints live ones, so a reader that was not subscribed when an event
// happened still sees it.  Records of the selected devices with a seq
// above SEQ; LOST records count by their last seq.
#include <algorithm>
#include <fstream>

#include "fleet.hpp"

namespace amdx::cli {

std::vector<std::string> journal_files(const std::string& path) {
    std::vector<std::string> out;
    for (unsigned n = 64; n >= 1; --n) {
        const std::string p = path + "." + std::to_string(n);
        if (std::ifstream(p))
            out.push_back(p);
    }
    out.push_back(path);
    return out;
}

int FleetCommands::replay(const Options& opts, const std::vector<std::string>& devs,
                          std::ostream& out, std::ostream& err) const {
    std::vector<Selector> selectors;
    for (const auto& d : devs) {
        const auto s = parse_selector(d);
        if (!s) {
            fail(err, selector_error(d, true));
            return kExitUsage;
        }
        selectors.push_back(*s);
    }
    const auto wanted = [&selectors](std::uint32_t dev, const Json& rec) {
        if (selectors.empty())
            return true;
        const std::string bdf = rec.value("bdf", "");
        return std::ranges::any_of(selectors, [&](const auto& s) {
            return s.kind == Selector::Kind::all || (s.kind == Selector::Kind::id && s.id == dev) ||
                   (s.kind == Selector::Kind::bdf && s.bdf == bdf);
        });
    };
    std::ifstream first(journal_);
    if (!first) {
        fail(err, "monitor: " + journal_ + ": " +
                      errno_text(std::error_code(errno, std::system_category())));
        return kExitError;
    }
    std::size_t skipped = 0;
    for (const auto& file : journal_files(journal_)) {
        std::ifstream in(file);
        for (std::string line; std::getline(in, line);) {
            const Json rec = Json::parse(line, nullptr, false);
            if (rec.is_discarded() || !rec.is_object() || !rec.contains("device") ||
                !rec["device"].is_number_unsigned() || !rec.contains("seq") ||
                !rec["seq"].is_number_unsigned()) {
                ++skipped;
                continue;
            }
            const auto dev = rec["device"].get<std::uint32_t>();
            auto last = rec["seq"].get<std::uint64_t>();
            if (rec.value("kind", "") == "lost" && rec.contains("last_seq") &&
                rec["last_seq"].is_number_unsigned())
                last = rec["last_seq"].get<std::uint64_t>();
            if (last <= since_ || !wanted(dev, rec))
                continue;
            if (opts.format == Format::text)
                render(out, Json{{"events", Json::array({rec})}}, opts.format);
            else
                render(out, rec, opts.format);
        }
    }
    if (skipped != 0u)
        fail(err, "monitor: " + std::to_string(skipped) + " malformed lines in " + journal_ +
                      " skipped");
    return kExitOk;
}

} // namespace amdx::cli
