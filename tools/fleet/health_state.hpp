// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// What an event journal record means to `amdx health`'s rules
// (Documentation/admin-guide/health.rst), in one place for its two
// readers:
//
//   amdx-eventd                                   amdx health
//   every record it journals --> HealthFold       state file (all the past)
//   FILE.health.json <-- temp + rename            + the journal's newest window
//                                                 --> HealthFold --> evaluate()
//
// The fold keeps, per device, kind and partition, the newest record a rule
// reads (of errors only the fatal ones, of action ends only the successful
// ones), which decides every rule exactly as the whole journal would; its
// size is bounded by AMDX_MAX_DEVICES x kinds x (AMDX_MAX_PARTITIONS + 1),
// whatever the journal's.  amdx-eventd keeps the fold of every record it
// ever wrote in the state file, so a record that rotated out of the
// journal, or out of health's window, still counts.  Libamdx and
// nlohmann-json only: amdx-eventd links none of the CLI's libraries.
#ifndef AMDX_HEALTH_STATE_HPP
#define AMDX_HEALTH_STATE_HPP

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

namespace amdx::cli {

/// One event record as `amdx monitor -j` and amdx-eventd write it (the
/// journal): the fields health reads.
struct JournalRecord {
    std::uint32_t device = 0;
    std::uint64_t seq = 0;
    std::uint64_t timestamp_ns = 0;           ///< CLOCK_MONOTONIC of the emitting host
    std::optional<std::uint64_t> realtime_ns; ///< eventd's stamp, if present
    std::string boot_id;                      ///< eventd's, "" if absent
    std::string kind;                         ///< "error", "action_end", ...
    std::optional<std::uint32_t> partition;
    std::string type;   ///< error: "ce", "ue", "de"
    std::string block;  ///< error
    std::string action; ///< action_start/_end
    std::string result; ///< "ok" or an errno name
};

/// @j as a record; nullopt if it is not one (no device, seq or kind).
[[nodiscard]] std::optional<JournalRecord> parse_record(const nlohmann::ordered_json& j);
/// One journal line as a record; nullopt if it is not JSON or not a record.
[[nodiscard]] std::optional<JournalRecord> parse_record_line(std::string_view line);
/// @r with the journal's field names (what parse_record() reads back).
[[nodiscard]] nlohmann::ordered_json record_to_json(const JournalRecord& r);

/// An uncorrected or deferred error ("ue", "de").
[[nodiscard]] bool is_fatal_error(const JournalRecord& r);

/// Whether @a was written after @b: by seq within one boot (seqs restart
/// with the kernel), by realtime_ns across boots when both have it.
[[nodiscard]] bool later(const JournalRecord& a, const JournalRecord& b);

/// The contents of /proc/sys/kernel/random/boot_id ("" if unreadable).
[[nodiscard]] std::string current_boot_id();

/// The newest record per rule key (device, kind, partition) that a health
/// rule reads; records of no rule, and devices and partitions beyond the
/// uapi's limits, are not kept.
class HealthFold {
  public:
    using Key = std::tuple<std::uint32_t, std::string, std::uint32_t>;

    /// Keeps @r if a rule reads it and it is later() than what its key
    /// holds; true if the fold changed.
    bool add(JournalRecord r);
    /// @r under its key whatever the key holds (a newer window's record
    /// over the state's); false if no rule reads it.
    bool replace(JournalRecord r);
    [[nodiscard]] std::size_t size() const { return newest_.size(); }
    [[nodiscard]] const std::map<Key, JournalRecord>& by_key() const { return newest_; }
    /// The records, by key.
    [[nodiscard]] std::vector<JournalRecord> records() const;

    /// The most keys a fold can hold: AMDX_MAX_DEVICES x the kinds the
    /// rules read x (AMDX_MAX_PARTITIONS + the device-wide key).
    static const std::size_t kMaxKeys;

  private:
    std::map<Key, JournalRecord> newest_;
};

/// The state file of the journal @journal: beside it, its name without a
/// ".jsonl" suffix plus ".health.json" (events.jsonl: events.health.json),
/// so a shipper's "events.jsonl*" does not tail it.
[[nodiscard]] std::string health_state_path(const std::string& journal);

/// The state file's format version ("schema_version").
inline constexpr int kHealthStateVersion = 1;
/// The largest state file read (a full fold is about 0.8 MiB).
inline constexpr std::uintmax_t kHealthStateMaxBytes = 4U << 20;

/// What reading a state file gave.
struct HealthStateRead {
    enum class Status { ok, missing, corrupt } status = Status::missing;
    std::string why; ///< corrupt: the cause; missing: the errno text
};

/// Reads the state file @path into @fold (add(): @fold may hold records
/// already).  A file that does not parse, has another schema_version, is
/// larger than kHealthStateMaxBytes or holds more than kMaxKeys records is
/// corrupt, and nothing of it is added.
[[nodiscard]] HealthStateRead read_health_state(const std::string& path, HealthFold& fold);

/// Writes all of @data to @fd, again after a short write or EINTR; false
/// (errno set) if a write failed.  The journal's appends use it too.
[[nodiscard]] bool write_all(int fd, std::string_view data);

/// Writes @fold to @path crash-safely: PATH.tmp written (and fsync'ed with
/// @sync), then renamed over @path (and the directory fsync'ed with
/// @sync), so a reader sees the old file or the new one, never a part.
[[nodiscard]] std::error_code write_health_state(const std::string& path, const HealthFold& fold,
                                                 bool sync);

} // namespace amdx::cli

#endif // AMDX_HEALTH_STATE_HPP
