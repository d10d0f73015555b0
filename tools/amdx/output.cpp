// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The single print path: commands build one Json document and render() it.
// JSON is the documented contract (Documentation/admin-guide/cli.rst); text
// is derived mechanically from the same object, lsblk style:
//  - an array of flat objects (scalar members, arrays of scalars, objects
//    of scalars) is a table, one row per element and one column per key,
//    printed with util-linux's libsmartcols; -o picks columns by their JSON
//    key, --raw prints it unaligned;
//  - any other object is a block: its first member as the title
//    ("device 0:"), then one aligned "key  value" line per scalar member and
//    its arrays of objects as indented tables or blocks;
//  - the top-level "events" array is one "key value" line per element (a
//    stream: monitor prints records as they arrive);
//  - values by key: sizes in binary units, addresses in hex, durations in
//    ms/us, CLOCK_MONOTONIC stamps as wall-clock time beside the stamp, null
//    (not supported, not bound) as "n/a", empty arrays as "none"; nonzero
//    error counters in red when the output is a terminal.
#include <algorithm>
#include <array>
#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <libsmartcols.h>
#include <memory>
#include <optional>
#include <ostream>
#include <set>

#include "cli.hpp"

namespace amdx::cli {

namespace {

// ---- values

enum class Unit { plain, size, hex, duration, monotonic, unix_time, realtime, counter };

Unit unit_of(std::string_view key) {
    static constexpr std::array<std::string_view, 11> kSizes{
        "size",  "free",     "vram_size", "vram_quota", "vram_used", "vram_cleared",
        "bytes", "bytes_in", "bytes_out", "vram_free",  "memory"};
    static constexpr std::array<std::string_view, 5> kHex{"address", "base", "vram_base", "start",
                                                          "fw_version"};
    static constexpr std::array<std::string_view, 12> kCounters{"ce",
                                                                "ue",
                                                                "de",
                                                                "resets",
                                                                "resets_in_window",
                                                                "retired_pages",
                                                                "pending_pages",
                                                                "missed",
                                                                "skipped",
                                                                "bad_words",
                                                                "num_holders",
                                                                "holders"};
    auto in = [key](const auto& set) {
        return std::find(set.begin(), set.end(), key) != set.end();
    };
    if (in(kSizes))
        return Unit::size;
    if (in(kHex))
        return Unit::hex;
    if (in(kCounters))
        return Unit::counter;
    if (key == "timestamp_ns")
        return Unit::monotonic;
    if (key == "time")
        return Unit::unix_time;
    if (key == "realtime_ns")
        return Unit::realtime;
    if (key == "ns" || key.substr(0, 3) == "ns_" ||
        (key.size() > 3 && key.substr(key.size() - 3) == "_ns"))
        return Unit::duration;
    return Unit::plain;
}

std::string duration_text(std::uint64_t ns) {
    char buf[48];
    if (ns < 1000)
        std::snprintf(buf, sizeof(buf), "%" PRIu64 " ns", ns);
    else if (ns < 1000000)
        std::snprintf(buf, sizeof(buf), "%.1f us", static_cast<double>(ns) / 1e3);
    else if (ns < 10000000000ULL)
        std::snprintf(buf, sizeof(buf), "%.1f ms", static_cast<double>(ns) / 1e6);
    else
        std::snprintf(buf, sizeof(buf), "%.1f s", static_cast<double>(ns) / 1e9);
    return buf;
}

/// The one time format: RFC 3339 in UTC, "2026-12-01T10:12:13.123456Z"
/// (without the fraction for whole-second times).
std::string wall_text(std::time_t secs, long usec, bool with_usec) {
    std::tm tm{};
    ::gmtime_r(&secs, &tm);
    char buf[64];
    const std::size_t n = std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
    if (with_usec)
        std::snprintf(buf + n, sizeof(buf) - n, ".%06ldZ", usec);
    else
        std::snprintf(buf + n, sizeof(buf) - n, "Z");
    return buf;
}

/// A CLOCK_REALTIME stamp in ns (a journal's realtime_ns).
std::string realtime_text(std::uint64_t ns) {
    return wall_text(static_cast<std::time_t>(ns / 1000000000),
                     static_cast<long>(ns % 1000000000 / 1000), true);
}

/// A non-negative integer, signed or not as the document holds it (values
/// from the library are unsigned; parsed or hand-built ones may not be).
std::optional<std::uint64_t> as_u64(const Json& v) {
    if (v.is_number_unsigned())
        return v.get<std::uint64_t>();
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0)
        return static_cast<std::uint64_t>(v.get<std::int64_t>());
    return std::nullopt;
}

bool is_scalar_array(const Json& v) {
    return v.is_array() &&
           std::none_of(v.begin(), v.end(), [](const Json& e) { return e.is_structured(); });
}

/// A member a table cell can hold: a scalar, an array of scalars, an
/// object of those.
bool is_cell(const Json& v) {
    if (v.is_object())
        return std::all_of(v.begin(), v.end(),
                           [](const Json& m) { return !m.is_structured() || is_scalar_array(m); });
    return !v.is_structured() || is_scalar_array(v);
}

/// An object one table row can show.  An empty array might be a list of
/// objects (no devices, no pages): such an object is a block.
bool is_row(const Json& obj) {
    return obj.is_object() && std::all_of(obj.begin(), obj.end(), [](const Json& v) {
               return is_cell(v) && !(v.is_array() && v.empty());
           });
}

bool is_table(const Json& v) {
    return v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), is_row);
}

std::string scalar_text(const Json& v) {
    if (v.is_null()) // a value the device does not have or report
        return "n/a";
    if (!v.is_string())
        return v.dump();
    const auto& s = v.get_ref<const std::string&>();
    return s.empty() ? "\"\"" : v.get<std::string>();
}

std::string value_text(std::string_view key, const Json& v);

std::string object_text(const Json& obj) {
    std::string out;
    for (const auto& [k, m] : obj.items()) {
        if (!out.empty())
            out += ", ";
        out += k + ' ' + value_text(k, m);
    }
    return out.empty() ? "none" : out;
}

std::string value_text(std::string_view key, const Json& v) {
    if (v.is_object())
        return object_text(v);
    if (v.is_array()) {
        if (v.empty())
            return "none";
        std::string out;
        for (const auto& e : v) {
            if (!out.empty())
                out += ',';
            out += value_text(key, e);
        }
        return out;
    }
    const auto u = as_u64(v);
    if (!u)
        return scalar_text(v);
    const std::uint64_t n = *u;
    char buf[32];
    switch (unit_of(key)) {
    case Unit::size:
        return size_text(n);
    case Unit::hex:
        std::snprintf(buf, sizeof(buf), "0x%" PRIx64, n);
        return buf;
    case Unit::duration:
        return duration_text(n);
    case Unit::monotonic:
        std::snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64, n / 1000000000,
                      n % 1000000000 / 1000);
        return monotonic_to_wall(n) + " (" + buf + ")";
    case Unit::unix_time:
        return wall_text(static_cast<std::time_t>(n), 0, false);
    case Unit::realtime:
        return realtime_text(n);
    case Unit::plain:
    case Unit::counter:
        break;
    }
    return v.dump();
}

bool stands_out(std::string_view key, const Json& v) {
    if (key == "rma")
        return v.is_boolean() && v.get<bool>();
    return unit_of(key) == Unit::counter && as_u64(v).value_or(0) != 0;
}

constexpr std::string_view kRed = "\033[1;31m";
constexpr std::string_view kNormal = "\033[0m";

// ---- tables

struct TableFree {
    void operator()(libscols_table* t) const { scols_unref_table(t); }
};

struct Column {
    std::string key;    ///< JSON key, "vram.size" for a member of an object
    std::string header; ///< upper case
    bool right = false; ///< numbers
};

/// The columns of @rows in first-seen order; objects flatten to "key.member".
std::vector<Column> columns_of(const Json& rows) {
    std::vector<Column> cols;
    auto add = [&cols](const std::string& key, const Json& v) {
        if (std::any_of(cols.begin(), cols.end(), [&](const Column& c) { return c.key == key; }))
            return;
        std::string header = key;
        std::transform(header.begin(), header.end(), header.begin(), [](char c) {
            return static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        });
        cols.push_back(Column{key, header, v.is_number() || unit_of(key) != Unit::plain});
    };
    for (const auto& row : rows)
        for (const auto& [k, v] : row.items()) {
            if (v.is_object())
                for (const auto& [mk, mv] : v.items())
                    add(std::string(k).append(".").append(mk), mv);
            else
                add(k, v);
        }
    return cols;
}

const Json* cell_of(const Json& row, const std::string& key) {
    if (row.contains(key))
        return &row[key];
    const auto dot = key.find('.');
    if (dot == std::string::npos || !row.contains(key.substr(0, dot)))
        return nullptr;
    const Json& obj = row[key.substr(0, dot)];
    return obj.is_object() && obj.contains(key.substr(dot + 1)) ? &obj[key.substr(dot + 1)]
                                                                : nullptr;
}

std::string leaf(const std::string& key) {
    const auto dot = key.find('.');
    return dot == std::string::npos ? key : key.substr(dot + 1);
}

/// A --raw cell: one space separates columns, so a cell holds none (it
/// would be escaped as "\x20"): a number and its unit are joined ("48GiB",
/// "4.1us"), other blanks become '_'.
std::string raw_cell(std::string text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != ' ') {
            out += text[i];
            continue;
        }
        const bool unit = i > 0 && i + 1 < text.size() &&
                          std::isdigit(static_cast<unsigned char>(text[i - 1])) != 0 &&
                          std::isalpha(static_cast<unsigned char>(text[i + 1])) != 0;
        if (!unit)
            out += '_';
    }
    return out;
}

void print_table(std::ostream& out, const Json& rows, std::size_t indent, const Options& opts) {
    std::vector<Column> cols = columns_of(rows);
    if (!opts.columns.empty()) {
        std::vector<Column> picked;
        for (const auto& name : opts.columns)
            for (const auto& c : cols)
                if (c.key == name)
                    picked.push_back(c);
        if (!picked.empty()) // -o names none of this table's columns: all of them
            cols = std::move(picked);
    }
    std::unique_ptr<libscols_table, TableFree> tb(scols_new_table());
    if (!tb)
        throw std::bad_alloc();
    scols_table_set_termforce(tb.get(), SCOLS_TERMFORCE_NEVER);
    scols_table_enable_raw(tb.get(), opts.raw ? 1 : 0);
    scols_table_enable_colors(tb.get(), opts.color ? 1 : 0);
    for (const auto& c : cols)
        if (scols_table_new_column(tb.get(), c.header.c_str(), 0, c.right ? SCOLS_FL_RIGHT : 0) ==
            nullptr)
            throw std::bad_alloc();
    for (const auto& row : rows) {
        libscols_line* ln = scols_table_new_line(tb.get(), nullptr);
        if (ln == nullptr)
            throw std::bad_alloc();
        for (std::size_t i = 0; i < cols.size(); ++i) {
            const Json* v = cell_of(row, cols[i].key);
            const std::string k = leaf(cols[i].key);
            const std::string text =
                v != nullptr ? (opts.raw ? raw_cell(value_text(k, *v)) : value_text(k, *v)) : "-";
            scols_line_set_data(ln, i, text.c_str());
            if (opts.color && v != nullptr && stands_out(k, *v))
                scols_cell_set_color(scols_line_get_cell(ln, i), "red");
        }
    }
    char* data = nullptr;
    if (scols_print_table_to_string(tb.get(), &data) != 0 || data == nullptr)
        throw std::bad_alloc();
    const std::unique_ptr<char, decltype(&std::free)> owned(data, &std::free);
    const std::string pad(indent, ' ');
    std::string_view rest(data);
    while (!rest.empty()) {
        const auto nl = rest.find('\n');
        out << pad << rest.substr(0, nl) << '\n';
        rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    }
}

// ---- blocks

void print_block(std::ostream& out, const Json& obj, std::size_t indent, const Options& opts);

void print_members(std::ostream& out, const Json& obj, Json::const_iterator it, std::size_t indent,
                   const Options& opts) {
    // -o naming members of this block: only those.
    auto picked = [&opts](const std::string& key) {
        return std::find(opts.columns.begin(), opts.columns.end(), key) != opts.columns.end();
    };
    const bool filter = !opts.columns.empty(); // cells: only those named
    std::size_t width = 0;
    for (auto j = it; j != obj.end(); ++j)
        if (is_cell(*j) && (!filter || picked(j.key())))
            width = std::max(width, j.key().size());
    const std::string pad(indent, ' ');
    for (; it != obj.end(); ++it) {
        const std::string& key = it.key();
        const Json& v = *it;
        if (filter && is_cell(v) && !picked(key))
            continue;
        if (is_cell(v)) {
            std::string text = value_text(key, v);
            if (opts.color && stands_out(key, v))
                text = std::string(kRed).append(text).append(kNormal);
            out << pad << key << std::string(width - key.size() + 2, ' ') << text << '\n';
        } else if (is_table(v)) {
            out << pad << key << ":\n";
            print_table(out, v, indent + 2, opts);
        } else if (v.is_array()) {
            out << pad << key << ":\n";
            for (const auto& e : v)
                print_block(out, e, indent + 2, opts);
        } else { // an object with structure: a block under its key
            out << pad << key << ":\n";
            print_members(out, v, v.begin(), indent + 2, opts);
        }
    }
}

void print_block(std::ostream& out, const Json& obj, std::size_t indent, const Options& opts) {
    const std::string pad(indent, ' ');
    if (!obj.is_object()) {
        out << pad << value_text({}, obj) << '\n';
        return;
    }
    auto it = obj.begin();
    if (it != obj.end() && !it->is_structured()) { // the title: "device 0:"
        out << pad << it.key() << ' ' << value_text(it.key(), *it) << ":\n";
        ++it;
        print_members(out, obj, it, indent + 2, opts);
        return;
    }
    print_members(out, obj, it, indent, opts);
}

/// One line of "key value" pairs (monitor's records).
void print_line(std::ostream& out, const Json& obj) {
    // A journaled record (amdx-eventd) says when it happened in realtime_ns:
    // its monotonic stamp may be of another boot.
    std::optional<std::uint64_t> real;
    if (const auto it = obj.find("realtime_ns"); it != obj.end())
        real = as_u64(*it);
    std::string line;
    for (const auto& [k, v] : obj.items()) {
        if (k == "realtime_ns" && real)
            continue; // the time word
        // The journal's envelope (eventd.rst, "Records"): the JSON
        // document's, not the event's; the time word says when.
        if (k == "schema_version" || k == "boot_id")
            continue;
        if (unit_of(k) == Unit::monotonic && as_u64(v)) { // two words, no blanks
            const std::uint64_t ns = *as_u64(v);
            const std::string wall = real ? realtime_text(*real) : monotonic_to_wall(ns);
            char mono[32];
            std::snprintf(mono, sizeof(mono), "%" PRIu64 ".%06" PRIu64, ns / 1000000000,
                          ns % 1000000000 / 1000);
            line += (line.empty() ? "time " : " time ") + wall + " mono " + mono;
            continue;
        }
        if (k == "partition" && as_u64(v) == std::uint64_t{AMDX_RAS_PARTITION_ALL})
            continue; // none (a newer kernel's kind, as its raw fields)
        std::string text = value_text(k, v);
        if (!v.is_object()) // one word: "4.1us"
            text = raw_cell(std::move(text));
        if (!line.empty())
            line += ' ';
        line.append(k).append(1, ' ').append(text);
    }
    out << line << '\n';
}

// ---- CSV

/// One RFC 4180 field of @v: the JSON value itself, not its text (sizes
/// in bytes, stamps in ns), null empty, an array of scalars joined by ';';
/// quoted when it holds a comma, a quote or a line break.
std::string csv_field(const Json& v) {
    std::string s;
    if (v.is_null())
        s.clear();
    else if (v.is_string())
        s = v.get<std::string>();
    else if (v.is_array())
        for (const auto& e : v)
            s.append(s.empty() ? "" : ";").append(e.is_string() ? e.get<std::string>() : e.dump());
    else
        s = v.dump();
    if (s.find_first_of(",\"\r\n") == std::string::npos)
        return s;
    std::string q = "\"";
    for (const char c : s)
        q.append(c == '"' ? 2 : 1, c);
    return q + "\"";
}

/// The rows the CSV of @doc prints: its first list; a list of blocks
/// ("device 0:") gives one row per element of each block's first table,
/// the block's own cells first (a nested key the block has too gets the
/// table's name as prefix), or one row per block without a table.
Json csv_rows(const Json& doc) {
    const Json* list = nullptr;
    for (const auto& [k, v] : doc.items())
        if (v.is_array()) {
            list = &v;
            break;
        }
    if (list == nullptr)
        throw ColumnError("--csv: this output has no list (use -j)");
    if (list->empty() || is_table(*list))
        return *list;
    Json rows = Json::array();
    for (const auto& block : *list) {
        if (!block.is_object())
            throw ColumnError("--csv: this output has no table (use -j)");
        Json base = Json::object();
        const Json* nested = nullptr;
        std::string name;
        for (const auto& [k, v] : block.items()) {
            if (is_cell(v))
                base[k] = v;
            else if (nested == nullptr && is_table(v)) {
                nested = &v;
                name = k;
            }
        }
        if (nested == nullptr) {
            rows.push_back(std::move(base));
            continue;
        }
        for (const auto& r : *nested) {
            Json row = base;
            for (const auto& [k, v] : r.items())
                row[base.contains(k) ? std::string(name).append(".").append(k) : k] = v;
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

void print_csv(std::ostream& out, const Json& doc, const Options& opts) {
    const Json rows = csv_rows(doc);
    std::vector<Column> cols = columns_of(rows);
    if (!opts.columns.empty()) {
        std::vector<Column> picked;
        for (const auto& name : opts.columns) {
            const auto c = std::find_if(cols.begin(), cols.end(),
                                        [&name](const Column& x) { return x.key == name; });
            if (c == cols.end()) {
                std::string known;
                for (const auto& x : cols)
                    known.append(known.empty() ? "" : ",").append(x.key);
                throw ColumnError("-o: no column " + name + " in this CSV (columns: " +
                                  (known.empty() ? "none" : known) + ")");
            }
            picked.push_back(*c);
        }
        cols = std::move(picked);
    }
    if (cols.empty())
        return;
    std::string line;
    for (const auto& c : cols)
        line.append(line.empty() ? "" : ",").append(csv_field(c.key));
    out << line << '\n';
    for (const auto& row : rows) {
        line.clear();
        for (std::size_t i = 0; i < cols.size(); ++i) {
            const Json* v = cell_of(row, cols[i].key);
            if (i != 0)
                line += ',';
            line += v != nullptr ? csv_field(*v) : std::string();
        }
        out << line << '\n';
    }
}

/// The names -o may use: table columns and block members.
void collect_columns(const Json& v, std::set<std::string>& names) {
    if (is_table(v))
        for (const auto& c : columns_of(v))
            names.insert(c.key);
    if (v.is_object())
        for (const auto& [k, m] : v.items())
            if (is_cell(m))
                names.insert(k);
    if (v.is_structured())
        for (const auto& e : v)
            collect_columns(e, names);
}

} // namespace

std::string size_text(std::uint64_t bytes) {
    static constexpr std::array<std::string_view, 6> kUnits{"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    std::size_t u = 0;
    auto v = static_cast<double>(bytes);
    while (v >= 1024.0 && u + 1 < kUnits.size()) {
        v /= 1024.0;
        ++u;
    }
    char buf[32];
    if (u == 0 || std::fabs(v - std::round(v)) < 0.05)
        std::snprintf(buf, sizeof(buf), "%.0f %s", v, kUnits[u].data());
    else
        std::snprintf(buf, sizeof(buf), "%.1f %s", v, kUnits[u].data());
    return buf;
}

std::string monotonic_to_wall(std::uint64_t ns) {
    timespec mono{};
    timespec real{};
    ::clock_gettime(CLOCK_MONOTONIC, &mono);
    ::clock_gettime(CLOCK_REALTIME, &real);
    const auto now_mono = static_cast<std::int64_t>(mono.tv_sec) * 1000000000 + mono.tv_nsec;
    const auto now_real = static_cast<std::int64_t>(real.tv_sec) * 1000000000 + real.tv_nsec;
    const std::int64_t wall = now_real - (now_mono - static_cast<std::int64_t>(ns));
    return wall_text(static_cast<std::time_t>(wall / 1000000000),
                     static_cast<long>(wall % 1000000000 / 1000), true);
}

std::string unknown_columns(const Json& doc, const std::vector<std::string>& cols) {
    std::set<std::string> names;
    collect_columns(doc, names);
    std::string bad;
    for (const auto& c : cols)
        if (names.count(c) == 0)
            bad += (bad.empty() ? std::string() : std::string(",")) + c;
    return bad;
}

Json hmm_caps_to_json(const Caps& caps) {
    return Json{{"device_private", caps.has(AMDX_CAP_DEVICE_PRIVATE)},
                {"hmm_mirror", caps.has(AMDX_CAP_HMM_MIRROR)},
                {"hmm_migrate", caps.has_hmm_migrate()}};
}

Json hmm_stats_to_json(const HmmStats& stats) {
    return Json{{"pages_in", stats.pages_in},     {"pages_out", stats.pages_out},
                {"cpu_faults", stats.cpu_faults}, {"evictions", stats.evictions},
                {"bytes_in", stats.bytes_in},     {"bytes_out", stats.bytes_out},
                {"ns_in", stats.ns_in},           {"ns_out", stats.ns_out}};
}

std::string hmm_loc_name(std::uint32_t loc) {
    if (loc == kHmmLocSystem)
        return "system";
    if (loc == kHmmLocPreferred)
        return "preferred";
    return std::to_string(loc);
}

namespace {

Json bit_indexes(std::uint64_t mask) {
    Json out = Json::array();
    for (unsigned bit = 0; bit < 64; ++bit)
        if ((mask & (std::uint64_t{1} << bit)) != 0)
            out.push_back(bit);
    return out;
}

template <std::size_t N>
Json bit_names(std::uint64_t mask, const std::array<std::string_view, N>& names) {
    Json out = Json::array();
    bool unknown = false;
    for (unsigned bit = 0; bit < 64; ++bit) {
        if ((mask & (std::uint64_t{1} << bit)) == 0)
            continue;
        if (bit < N)
            out.push_back(names[bit]);
        else
            unknown = true;
    }
    if (unknown)
        out.push_back("unknown");
    return out;
}

constexpr std::array<std::string_view, 1> kHmmFlags{"pin"}; // AMDX_HMM_F_*
constexpr std::array<std::string_view, 4> kSkipReasons{"busy", "no_memory", "not_present",
                                                       "other_device"}; // AMDX_HMM_SKIP_*

Json range_to_json(const HmmRangeInfo& r) {
    return Json{{"start", r.start},
                {"size", r.size},
                {"preferred_loc", hmm_loc_name(r.preferred_loc)},
                {"granularity", r.granularity},
                {"flags", bit_names(r.flags, kHmmFlags)},
                {"access", bit_indexes(r.access)},
                {"resident_pages", r.resident_pages},
                {"stats", hmm_stats_to_json(r.stats)}};
}

} // namespace

Json skip_reasons_to_json(std::uint32_t reasons) {
    return bit_names(reasons, kSkipReasons);
}

Json hmm_ranges_to_json(const HmmRanges& ranges) {
    Json list = Json::array();
    for (const auto& r : ranges.ranges)
        list.push_back(range_to_json(r));
    return Json{{"pid", ranges.pid},
                {"total", hmm_stats_to_json(ranges.total)},
                {"ranges", std::move(list)}};
}

Json migrate_to_json(const MigrateResult& result) {
    return Json{{"moved", result.moved},
                {"already", result.already},
                {"skipped", result.skipped},
                {"skip_reasons", skip_reasons_to_json(result.skip_reasons)}};
}

void render(std::ostream& out, const Json& doc, const Options& opts) {
    if (opts.format == Format::csv) {
        print_csv(out, doc, opts);
        return;
    }
    if (opts.format != Format::text) {
        Json versioned{{"schema_version", kSchemaVersion}};
        for (const auto& [key, value] : doc.items())
            if (key != "schema_version")
                versioned[key] = value;
        out << versioned.dump(opts.format == Format::json_pretty ? 4 : -1, ' ', false,
                              Json::error_handler_t::replace)
            << '\n';
        return;
    }
    if (!opts.columns.empty() && !doc.contains("events")) {
        const std::string bad = unknown_columns(doc, opts.columns);
        if (!bad.empty()) {
            std::set<std::string> names;
            collect_columns(doc, names);
            std::string known;
            for (const auto& n : names)
                known += (known.empty() ? std::string() : std::string(",")) + n;
            throw ColumnError("-o: no column " + bad + " in this output (columns: " +
                              (known.empty() ? "none" : known) + ")");
        }
    }
    for (const auto& [key, value] : doc.items()) {
        if (key == "events" && value.is_array()) { // a stream of records
            for (const auto& e : value)
                print_line(out, e);
        } else if (value.is_array() && is_table(value)) { // the list the command is about
            print_table(out, value, 0, opts);
        } else if (value.is_array()) {
            for (const auto& e : value)
                print_block(out, e, 0, opts);
        } else if (value.is_object()) {
            out << key << ":\n";
            print_members(out, value, value.begin(), 2, opts);
        } else {
            out << key << ' ' << value_text(key, value) << '\n';
        }
    }
}

void render(std::ostream& out, const Json& doc, Format format) {
    Options opts;
    opts.format = format;
    render(out, doc, opts);
}

} // namespace amdx::cli
