// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// amdx-eventd (eventd.hpp): the daemon loop.
#include "eventd.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "errors.hpp"

namespace amdx::eventd {

namespace {

std::int64_t mono_to_real() {
    timespec m{}, r{};
    ::clock_gettime(CLOCK_MONOTONIC, &m);
    ::clock_gettime(CLOCK_REALTIME, &r);
    return (static_cast<std::int64_t>(r.tv_sec) - m.tv_sec) * 1000000000LL +
           (static_cast<std::int64_t>(r.tv_nsec) - m.tv_nsec);
}

constexpr std::uint64_t kNoHive = 1ULL << 63;

} // namespace

Result<Daemon> Daemon::start(const Options& opts, std::string& why) {
    auto control = Control::open(opts.node);
    if (!control) {
        why = cli::open_error(opts.node, control.error());
        return Unexpected(control.error());
    }
    auto journal = Journal::open(opts.journal, why);
    if (!journal)
        return Unexpected(journal.error());
    const std::string boot = boot_id();
    auto domains = std::make_unique<Domains>();
    domains->resume_by_device = Journal::last_seqs(opts.journal, boot);
    DeviceMonitor monitor(std::move(*control),
                          {.mask = kEventMaskAll, .ring_size = opts.ring_size, .batch = 512});
    monitor.on_added([d = domains.get()](const DeviceMonitor::Followed& f) { d->added(f); });
    Daemon daemon(std::move(*journal), std::move(monitor), std::move(domains));
    daemon.boot_ = boot;
    // The state of every record written so far: the file, and the journal
    // over it (a batch journaled before a crash let its state be written is in FILE).
    daemon.sync_ = opts.journal.sync;
    daemon.journal_path_ = opts.journal.path;
    daemon.state_path_ = cli::health_state_path(opts.journal.path);
    const auto state = cli::read_health_state(daemon.state_path_, daemon.fold_);
    const bool read = state.status == cli::HealthStateRead::Status::ok;
    Journal::fold(opts.journal, !read, daemon.fold_);
    if (!read)
        daemon.state_note_ =
            daemon.state_path_ + ": " + state.why + ": rebuilt from the journal files kept";
    if (const auto ec = cli::write_health_state(daemon.state_path_, daemon.fold_, daemon.sync_)) {
        why = daemon.state_path_ + ": " + cli::errno_text(ec);
        return Unexpected(ec);
    }
    daemon.rescan();
    return daemon;
}

Result<void> Daemon::save_state() {
    if (const auto ec = cli::write_health_state(state_path_, fold_, sync_))
        return Unexpected(ec);
    return {};
}

void Daemon::Domains::added(const DeviceMonitor::Followed& f) {
    const std::uint32_t id = f.entry.id;
    const auto info = f.device.info();
    const std::uint64_t domain = info && info->hive_id != 0U ? info->hive_id : kNoHive | id;
    of_device[id] = domain;
    // What this boot's journal last holds of the domain: its devices'
    // newest seq (in a hive the seqs are hive-wide).
    if (const auto it = resume_by_device.find(id); it != resume_by_device.end()) {
        auto& last = resume[domain];
        last = std::max(last, it->second);
        resume_by_device.erase(it);
    }
}

std::uint64_t Daemon::Domains::of(std::uint32_t device) const {
    const auto it = of_device.find(device);
    return it != of_device.end() ? it->second : kNoHive | device;
}

void Daemon::rescan() {
    (void)monitor_.rescan(); // a device that cannot be followed now is tried again later
}

Result<std::size_t> Daemon::poll_once(int timeout_ms) {
    std::vector<Event> batch;
    const auto got = monitor_.poll(timeout_ms, batch);
    if (!got && got.context().call == "read")
        monitor_.remove(got.context().device); // followed again if it is listed still
    // Any other failure (poll, the device list): the next turn tries again.
    if (batch.empty())
        return std::size_t{0};
    const std::int64_t offset = mono_to_real();
    std::map<std::uint64_t, std::uint64_t> first_seen; // domain -> lowest seq of this batch
    std::map<std::uint64_t, std::uint32_t> first_dev;
    for (const auto& ev : batch) {
        const std::uint64_t domain = domains_->of(ev.device);
        auto [it, fresh] = first_seen.try_emplace(domain, ev.seq);
        if (fresh || ev.seq < it->second) {
            it->second = ev.seq;
            first_dev[domain] = ev.device;
        }
    }
    std::vector<std::string> lines;
    // A restart's gap: the seqs between the journal's last and the first
    // the kernel delivered now went to nobody who could keep them.
    auto& resume = domains_->resume;
    for (const auto& [domain, seq] : first_seen) {
        const auto it = resume.find(domain);
        if (it == resume.end())
            continue;
        if (seq > it->second + 1)
            lines.push_back(
                restart_lost_record(first_dev[domain], it->second + 1, seq - 1, boot_, offset)
                    .dump());
        resume.erase(it); // seq <= last: a new device under an old id
    }
    bool changed = false;
    for (const auto& ev : batch) {
        const Json rec = to_record(ev, boot_, offset);
        if (auto r = cli::parse_record(rec))
            changed = fold_.add(std::move(*r)) || changed;
        lines.push_back(rec.dump());
    }
    auto ok = journal_.append(lines);
    if (!ok) {
        failed_ = journal_path_;
        return Unexpected(ok.error());
    }
    // After the journal: a crash between the two leaves the batch in FILE,
    // which the next start folds in again.
    if (changed) {
        ok = save_state();
        if (!ok) {
            failed_ = state_path_;
            return Unexpected(ok.error());
        }
    }
    return lines.size();
}

bool notify(std::string_view state) {
    const char* path = std::getenv("NOTIFY_SOCKET");
    if (path == nullptr || (path[0] != '/' && path[0] != '@'))
        return false;
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::size_t len = std::strlen(path);
    if (len >= sizeof(addr.sun_path))
        return false;
    std::memcpy(addr.sun_path, path, len);
    if (addr.sun_path[0] == '@')
        addr.sun_path[0] = '\0'; // abstract namespace
    const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    const auto addr_len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + len);
    const ssize_t n = ::sendto(fd, state.data(), state.size(), MSG_NOSIGNAL,
                               reinterpret_cast<const sockaddr*>(&addr), addr_len);
    ::close(fd);
    return n == static_cast<ssize_t>(state.size());
}

namespace {

std::atomic_bool g_stop{false};

/// Half of systemd's WatchdogSec= (WATCHDOG_USEC), or 0 without one.
std::chrono::microseconds watchdog_period() {
    const char* usec = std::getenv("WATCHDOG_USEC");
    const char* pid = std::getenv("WATCHDOG_PID");
    if (usec == nullptr || (pid != nullptr && std::strtol(pid, nullptr, 10) != ::getpid()))
        return std::chrono::microseconds(0);
    return std::chrono::microseconds(std::strtoull(usec, nullptr, 10) / 2);
}

void on_term(int /*sig*/) {
    g_stop.store(true);
}

int run_daemon(int argc, char** argv) {
    CLI::App app{"Journal every amdx device's event records as JSON lines.", "amdx-eventd"};
    Daemon::Options opts;
    std::uint64_t max_mib = opts.journal.max_bytes >> 20;
    std::uint64_t count = 0;
    bool no_sync = false;
    app.add_option("-d,--device-node", opts.node, "The amdx control node")->capture_default_str();
    app.add_option("--journal", opts.journal.path, "The journal file")->capture_default_str();
    app.add_option("--max-mib", max_mib, "Rotate the journal before it exceeds this size")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--keep", opts.journal.keep, "Rotated files to keep (FILE.1 .. FILE.N)")
        ->capture_default_str();
    app.add_option("--max-bytes", opts.journal.max_bytes, "Rotation size in bytes (tests)");
    app.add_flag("--no-sync", no_sync, "Do not fdatasync after each batch");
    app.add_option("--count", count, "Exit after journaling N records (0: run until SIGTERM)");
    app.add_option("--ring-size", opts.ring_size, "Records each subscription's ring holds")
        ->capture_default_str();
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    if (app.count("--max-bytes") == 0)
        opts.journal.max_bytes = max_mib << 20;
    opts.journal.sync = !no_sync;

    struct sigaction sa = {};
    sa.sa_handler = on_term;
    ::sigaction(SIGTERM, &sa, nullptr);
    ::sigaction(SIGINT, &sa, nullptr);

    std::string why;
    auto daemon = Daemon::start(opts, why);
    if (!daemon) {
        std::cerr << "amdx-eventd: " << why << '\n';
        return 1;
    }
    if (!daemon->state_note().empty())
        std::cerr << "amdx-eventd: " << daemon->state_note() << '\n';
    std::cout << "amdx-eventd: journaling to " << opts.journal.path << std::endl;
    // Subscribed and the journal open: systemd's Type=notify start is done.
    notify("READY=1\nSTATUS=journaling to " + opts.journal.path);
    const auto watchdog = watchdog_period();
    auto last_ping = std::chrono::steady_clock::now();
    std::uint64_t written = 0;
    while (!g_stop.load() && (count == 0 || written < count)) {
        auto n = daemon->poll_once(200);
        if (!n) {
            std::cerr << "amdx-eventd: " << daemon->failed() << ": " << cli::errno_text(n.error())
                      << '\n';
            return 1;
        }
        written += *n;
        const auto now = std::chrono::steady_clock::now();
        if (watchdog.count() > 0 && now - last_ping >= watchdog) {
            notify("WATCHDOG=1"); // the loop turns: poll, journal, rescan
            last_ping = now;
        }
    }
    notify("STOPPING=1");
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run_daemon(argc, argv);
    } catch (const std::exception& e) { // e.g. std::bad_alloc: one line
        std::cerr << "amdx-eventd: " << e.what() << '\n';
    } catch (...) {
        std::cerr << "amdx-eventd: unknown exception\n";
    }
    return 1;
}

} // namespace amdx::eventd
