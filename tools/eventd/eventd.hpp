// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// amdx-eventd: follows every amdx device's event log and appends each
// record, LOST records included, to a durable JSON-lines journal
// (Documentation/admin-guide/eventd.rst).
//
//   amdx.ko                 amdx-eventd                     consumers
//   event fd per device --> Daemon::poll_once()
//                           Journal::append(batch) -------> events.jsonl
//                           fdatasync per batch             (Vector, Fluent Bit,
//                           rotate at max_bytes:             Promtail, amdx health,
//                           events.jsonl.1 .. .keep          amdx monitor --from-journal)
//                           HealthFold::add(record)
//                           events.health.json ------------> amdx health
//                           (temp + rename, on change)
//
// On start the journal's newest records say the last seq written per seq
// domain (a hive, or a device outside any hive) in this boot; the first
// records after resubscribing show what the kernel emitted meanwhile, and
// that range, which no new subscriber can get back, is written as a LOST
// record.
#ifndef AMDX_EVENTD_HPP
#define AMDX_EVENTD_HPP

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <amdx/device.hpp>
#include <amdx/monitor.hpp>

#include "health_state.hpp"

namespace amdx::eventd {

using Json = nlohmann::ordered_json;

/// The journal's record format version (schema_version).
inline constexpr int kSchemaVersion = 1;

/// The contents of /proc/sys/kernel/random/boot_id ("" if unreadable).
[[nodiscard]] std::string boot_id();

/// One journal line for @ev: schema_version, boot_id, the fields of
/// `amdx monitor -j` and realtime_ns (@ev's CLOCK_MONOTONIC stamp moved to
/// CLOCK_REALTIME by @mono_to_real_ns).
[[nodiscard]] Json to_record(const Event& ev, const std::string& boot,
                             std::int64_t mono_to_real_ns);
/// The LOST record eventd writes for seqs [@first, @last] of @device that
/// it could not recover after a restart.
[[nodiscard]] Json restart_lost_record(std::uint32_t device, std::uint64_t first,
                                       std::uint64_t last, const std::string& boot,
                                       std::int64_t mono_to_real_ns);

/// The append-only journal with size-based rotation.
class Journal {
  public:
    struct Options {
        std::string path = "/var/log/amdx/events.jsonl";
        std::uint64_t max_bytes = 64ULL << 20; ///< rotate before exceeding this
        unsigned keep = 4;                     ///< rotated files kept: path.1 .. path.keep
        bool sync = true;                      ///< fdatasync after every batch
    };

    /// Opens (creates) the journal; the error names the path.
    static Result<Journal> open(const Options& opts, std::string& why);
    Journal(Journal&&) noexcept;
    Journal& operator=(Journal&&) noexcept;
    ~Journal();

    /// Writes @lines (one record each) and syncs them; rotates first if
    /// they would take the file past max_bytes.
    [[nodiscard]] Result<void> append(const std::vector<std::string>& lines);

    [[nodiscard]] std::uint64_t size() const { return size_; }

    /// The newest seq per device written in boot @boot, from the journal
    /// files (newest file first, stopping at the first that has any).
    [[nodiscard]] static std::map<std::uint32_t, std::uint64_t> last_seqs(const Options& opts,
                                                                          const std::string& boot);

    /// Adds the records of the journal files to @fold: FILE alone with
    /// @all false, else every kept file (FILE.keep .. FILE.1, FILE).
    static void fold(const Options& opts, bool all, cli::HealthFold& fold);

  private:
    Journal(Options opts, int fd, std::uint64_t size)
        : opts_(std::move(opts)), fd_(fd), size_(size) {}
    [[nodiscard]] Result<void> rotate();

    Options opts_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
};

/// The daemon: a DeviceMonitor of every device and the journal.
class Daemon {
  public:
    struct Options {
        std::string node{kControlPath};
        Journal::Options journal;
        std::uint32_t ring_size = AMDX_EVENT_RING_MAX;
    };

    /// Subscribes to every device and opens the journal; reads the
    /// health state file (cli::health_state_path()) and folds the journal
    /// into it (the current file after a state that read, every kept file
    /// without one) and writes it.
    static Result<Daemon> start(const Options& opts, std::string& why);

    /// Subscribes to devices not followed yet (poll_once() does it every
    /// second).
    void rescan();
    /// Waits up to @timeout_ms for records, journals them; returns how many
    /// records (synthetic LOST ones included) it wrote.
    [[nodiscard]] Result<std::size_t> poll_once(int timeout_ms);

    /// What start() made of the state file: "" if it read, else what was
    /// wrong and that the journal rebuilt it.
    [[nodiscard]] const std::string& state_note() const { return state_note_; }
    /// The file poll_once()'s error is about: the journal or the state file.
    [[nodiscard]] const std::string& failed() const { return failed_; }

  private:
    /// The seq domains, filled as the monitor adds devices (on the heap:
    /// the monitor's callback keeps its address when a Daemon moves).
    struct Domains {
        std::map<std::uint32_t, std::uint64_t> of_device; ///< hive id, or (1 << 63) | device id
        /// Per seq domain, the last seq journaled before this start and
        /// not yet compared with the kernel's (erased once the first batch
        /// of the domain arrived).
        std::map<std::uint64_t, std::uint64_t> resume;
        std::map<std::uint32_t, std::uint64_t> resume_by_device;
        void added(const DeviceMonitor::Followed& f);
        [[nodiscard]] std::uint64_t of(std::uint32_t device) const;
    };
    Daemon(Journal journal, DeviceMonitor monitor, std::unique_ptr<Domains> domains)
        : journal_(std::move(journal)), monitor_(std::move(monitor)), domains_(std::move(domains)) {
    }

    /// Writes the state file if a batch changed the fold.
    [[nodiscard]] Result<void> save_state();

    Journal journal_;
    DeviceMonitor monitor_;
    std::unique_ptr<Domains> domains_;
    std::string boot_;
    /// What health's rules read of every record written (the state file).
    cli::HealthFold fold_;
    std::string journal_path_;
    std::string state_path_;
    std::string state_note_;
    std::string failed_;
    bool sync_ = true;
};

/// Tells the service manager @state ("READY=1", "WATCHDOG=1", ...) over
/// $NOTIFY_SOCKET, the sd_notify(3) protocol (one datagram; a path, or an
/// abstract name after '@').  False if there is no socket or the send
/// failed; a daemon not run by systemd just goes on.
bool notify(std::string_view state);

/// amdx-eventd's main(): options, signals, the loop.
int main(int argc, char** argv);

} // namespace amdx::eventd

#endif // AMDX_EVENTD_HPP
