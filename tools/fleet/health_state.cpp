// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The health rules' reading of journal records and the state file
// amdx-eventd keeps of them (health_state.hpp).
#include "health_state.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

#include <linux/amdx.h>

namespace amdx::cli {

namespace {

using Json = nlohmann::ordered_json;

/// The kinds a rule reads (health.cpp, evaluate()): of errors the fatal
/// ones, of action ends the successful ones.
constexpr std::array<std::string_view, 8> kKinds = {"error",
                                                    "rma",
                                                    "device_reset_end",
                                                    "page_pending",
                                                    "partition_offline",
                                                    "action_end",
                                                    "partition_quarantined",
                                                    "partition_restored"};

/// The key under which the rules read @r; nullopt if no rule reads it.
std::optional<HealthFold::Key> health_key(const JournalRecord& r) {
    if (std::find(kKinds.begin(), kKinds.end(), r.kind) == kKinds.end())
        return std::nullopt;
    if ((r.kind == "error" && !is_fatal_error(r)) || (r.kind == "action_end" && r.result != "ok"))
        return std::nullopt;
    // Only the kernel's ids: what a rule can ask for, and the fold's bound.
    if (r.device >= AMDX_MAX_DEVICES || (r.partition && *r.partition >= AMDX_MAX_PARTITIONS))
        return std::nullopt;
    return HealthFold::Key{r.device, r.kind, r.partition ? *r.partition + 1 : 0};
}

std::error_code last_error() {
    return {errno, std::system_category()};
}

} // namespace

bool write_all(int fd, std::string_view data) {
    std::size_t off = 0;
    while (off < data.size()) {
        const ssize_t n = ::write(fd, data.data() + off, data.size() - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return false;
        off += static_cast<std::size_t>(n);
    }
    return true;
}

const std::size_t HealthFold::kMaxKeys =
    std::size_t{AMDX_MAX_DEVICES} * kKinds.size() * (AMDX_MAX_PARTITIONS + 1);

std::optional<JournalRecord> parse_record(const Json& j) {
    if (!j.is_object() || !j.contains("device") || !j.contains("seq") || !j.contains("kind") ||
        !j["device"].is_number_unsigned() || !j["seq"].is_number_unsigned() ||
        !j["kind"].is_string() || j["device"].get<std::uint64_t>() > UINT32_MAX)
        return std::nullopt;
    JournalRecord r;
    r.device = j["device"].get<std::uint32_t>();
    r.seq = j["seq"].get<std::uint64_t>();
    r.kind = j["kind"].get<std::string>();
    if (j.contains("timestamp_ns") && j["timestamp_ns"].is_number_unsigned())
        r.timestamp_ns = j["timestamp_ns"].get<std::uint64_t>();
    if (j.contains("realtime_ns") && j["realtime_ns"].is_number_unsigned())
        r.realtime_ns = j["realtime_ns"].get<std::uint64_t>();
    if (j.contains("partition") && j["partition"].is_number_unsigned() &&
        j["partition"].get<std::uint64_t>() <= UINT32_MAX)
        r.partition = j["partition"].get<std::uint32_t>();
    auto str = [&j](const char* key) {
        return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
    };
    r.boot_id = str("boot_id");
    r.type = str("type");
    r.block = str("block");
    r.action = str("action");
    r.result = str("result");
    return r;
}

std::optional<JournalRecord> parse_record_line(std::string_view line) {
    const Json j = Json::parse(line, nullptr, false);
    if (j.is_discarded())
        return std::nullopt;
    return parse_record(j);
}

Json record_to_json(const JournalRecord& r) {
    Json j{{"device", r.device}, {"seq", r.seq}, {"timestamp_ns", r.timestamp_ns}};
    if (r.realtime_ns)
        j["realtime_ns"] = *r.realtime_ns;
    if (!r.boot_id.empty())
        j["boot_id"] = r.boot_id;
    j["kind"] = r.kind;
    if (r.partition)
        j["partition"] = *r.partition;
    for (const auto& [key, value] :
         {std::pair{"type", &r.type}, std::pair{"block", &r.block}, std::pair{"action", &r.action},
          std::pair{"result", &r.result}})
        if (!value->empty())
            j[key] = *value;
    return j;
}

std::string current_boot_id() {
    std::ifstream in("/proc/sys/kernel/random/boot_id");
    std::string id;
    std::getline(in, id);
    return id;
}

bool is_fatal_error(const JournalRecord& r) {
    return r.kind == "error" && (r.type == "ue" || r.type == "de");
}

bool later(const JournalRecord& a, const JournalRecord& b) {
    if (a.boot_id != b.boot_id && a.realtime_ns && b.realtime_ns)
        return *a.realtime_ns > *b.realtime_ns;
    return a.seq > b.seq;
}

bool HealthFold::add(JournalRecord r) {
    const auto key = health_key(r);
    if (!key)
        return false;
    const auto it = newest_.find(*key);
    if (it == newest_.end()) {
        newest_.emplace(*key, std::move(r));
        return true;
    }
    if (!later(r, it->second))
        return false;
    it->second = std::move(r);
    return true;
}

bool HealthFold::replace(JournalRecord r) {
    const auto key = health_key(r);
    if (!key)
        return false;
    newest_.insert_or_assign(*key, std::move(r));
    return true;
}

std::vector<JournalRecord> HealthFold::records() const {
    std::vector<JournalRecord> out;
    out.reserve(newest_.size());
    for (const auto& [key, r] : newest_)
        out.push_back(r);
    return out;
}

std::string health_state_path(const std::string& journal) {
    std::string base = journal;
    constexpr std::string_view kSuffix = ".jsonl";
    if (base.size() > kSuffix.size() && base.ends_with(kSuffix))
        base.resize(base.size() - kSuffix.size());
    return base + ".health.json";
}

HealthStateRead read_health_state(const std::string& path, HealthFold& fold) {
    using Status = HealthStateRead::Status;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int e = errno != 0 ? errno : ENOENT;
        return {e == ENOENT ? Status::missing : Status::corrupt,
                std::generic_category().message(e)};
    }
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > kHealthStateMaxBytes)
        return {Status::corrupt, std::to_string(size) + " bytes, more than a state can hold (" +
                                     std::to_string(kHealthStateMaxBytes) + ")"};
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const Json j = Json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return {Status::corrupt, "not a JSON object"};
    if (j.value("schema_version", 0) != kHealthStateVersion)
        return {Status::corrupt, "schema_version is not " + std::to_string(kHealthStateVersion)};
    if (!j.contains("records") || !j["records"].is_array())
        return {Status::corrupt, "no records array"};
    const Json& recs = j["records"];
    if (recs.size() > HealthFold::kMaxKeys)
        return {Status::corrupt, std::to_string(recs.size()) + " records, more than " +
                                     std::to_string(HealthFold::kMaxKeys) + " keys"};
    HealthFold read;
    for (const auto& e : recs) {
        auto r = parse_record(e);
        if (!r || !read.add(std::move(*r)))
            return {Status::corrupt, "a record no rule reads: " + e.dump()};
    }
    for (const auto& [key, r] : read.by_key())
        fold.add(r);
    return {Status::ok, ""};
}

std::error_code write_health_state(const std::string& path, const HealthFold& fold, bool sync) {
    Json recs = Json::array();
    for (const auto& [key, r] : fold.by_key())
        recs.push_back(record_to_json(r));
    std::string text =
        Json{{"schema_version", kHealthStateVersion}, {"records", std::move(recs)}}.dump();
    text += '\n';
    const std::string tmp = path + ".tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
    if (fd < 0)
        return last_error();
    if (!write_all(fd, text) || (sync && ::fdatasync(fd) != 0)) {
        const auto ec = last_error();
        ::close(fd);
        ::unlink(tmp.c_str());
        return ec;
    }
    if (::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
        const auto ec = last_error();
        ::unlink(tmp.c_str());
        return ec;
    }
    if (sync) {
        const auto dir = std::filesystem::path(path).parent_path();
        const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0)
            return last_error();
        const int rc = ::fsync(dfd);
        const auto ec = rc != 0 ? last_error() : std::error_code{};
        ::close(dfd);
        return ec;
    }
    return {};
}

} // namespace amdx::cli
