// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The journal file: records as JSON lines, appended in batches, each batch
// fdatasync'ed; rotated by size (path -> path.1 -> ... -> path.keep, the
// oldest dropped), so reading path.keep .. path.1, path in that order gives
// every kept record in the order it was written.
#include <cerrno>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>
#include <variant>

#include "errors.hpp"
#include "eventd.hpp"
#include "health_state.hpp"

namespace amdx::eventd {

namespace {

std::error_code last_error() {
    return {errno, std::system_category()};
}

std::string rotated(const std::string& path, unsigned n) {
    return path + "." + std::to_string(n);
}

std::uint64_t clock_ns(clockid_t id) {
    timespec ts{};
    ::clock_gettime(id, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL +
           static_cast<std::uint64_t>(ts.tv_nsec);
}

Json header(const std::string& boot) {
    return Json{{"schema_version", kSchemaVersion}, {"boot_id", boot}};
}

} // namespace

std::string boot_id() {
    return cli::current_boot_id();
}

Json to_record(const Event& ev, const std::string& boot, std::int64_t mono_to_real_ns) {
    Json j = header(boot);
    for (auto& f : event_fields(decode(ev))) {
        std::visit([&j, &f](auto& v) { j[std::string(f.name)] = std::move(v); }, f.value);
        if (f.name == "timestamp_ns")
            j["realtime_ns"] = static_cast<std::uint64_t>(
                static_cast<std::int64_t>(ev.timestamp_ns) + mono_to_real_ns);
    }
    if (ev.kind == EventKind::lost) {
        j["last_seq"] = ev.data[1];
        j["source"] = "kernel";
    }
    return j;
}

Json restart_lost_record(std::uint32_t device, std::uint64_t first, std::uint64_t last,
                         const std::string& boot, std::int64_t mono_to_real_ns) {
    const std::uint64_t now = clock_ns(CLOCK_MONOTONIC);
    Json j = header(boot);
    j["device"] = device;
    j["seq"] = first;
    j["timestamp_ns"] = now;
    j["realtime_ns"] = static_cast<std::uint64_t>(static_cast<std::int64_t>(now) + mono_to_real_ns);
    j["kind"] = "lost";
    j["missed"] = last - first + 1;
    j["last_seq"] = last;
    j["source"] = "eventd";
    return j;
}

Result<Journal> Journal::open(const Options& opts, std::string& why) {
    const int fd = ::open(opts.path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
    if (fd < 0) {
        const auto ec = last_error();
        why = opts.path + ": " + cli::errno_text(ec);
        return Unexpected(ec);
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const auto ec = last_error();
        ::close(fd);
        why = opts.path + ": " + cli::errno_text(ec);
        return Unexpected(ec);
    }
    return Journal(opts, fd, static_cast<std::uint64_t>(st.st_size));
}

Journal::Journal(Journal&& o) noexcept
    : opts_(std::move(o.opts_)), fd_(std::exchange(o.fd_, -1)), size_(o.size_) {}

Journal& Journal::operator=(Journal&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0)
            ::close(fd_);
        opts_ = std::move(o.opts_);
        fd_ = std::exchange(o.fd_, -1);
        size_ = o.size_;
    }
    return *this;
}

Journal::~Journal() {
    if (fd_ >= 0)
        ::close(fd_);
}

Result<void> Journal::rotate() {
    if (opts_.keep == 0) {
        if (::ftruncate(fd_, 0) != 0)
            return Unexpected(last_error());
        size_ = 0;
        return {};
    }
    for (unsigned n = opts_.keep; n > 1; --n) {
        const auto from = rotated(opts_.path, n - 1);
        if (::rename(from.c_str(), rotated(opts_.path, n).c_str()) != 0 && errno != ENOENT)
            return Unexpected(last_error());
    }
    if (::rename(opts_.path.c_str(), rotated(opts_.path, 1).c_str()) != 0)
        return Unexpected(last_error());
    const int fd = ::open(opts_.path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
    if (fd < 0)
        return Unexpected(last_error());
    ::close(fd_);
    fd_ = fd;
    size_ = 0;
    return {};
}

Result<void> Journal::append(const std::vector<std::string>& lines) {
    std::string buf;
    for (const auto& l : lines) {
        buf += l;
        buf += '\n';
    }
    if (buf.empty())
        return {};
    if (size_ > 0 && size_ + buf.size() > opts_.max_bytes) {
        auto r = rotate();
        if (!r)
            return r;
    }
    if (!cli::write_all(fd_, buf))
        return Unexpected(last_error());
    size_ += buf.size();
    if (opts_.sync && ::fdatasync(fd_) != 0)
        return Unexpected(last_error());
    return {};
}

std::map<std::uint32_t, std::uint64_t> Journal::last_seqs(const Options& opts,
                                                          const std::string& boot) {
    std::map<std::uint32_t, std::uint64_t> out;
    for (unsigned n = 0; n <= opts.keep && out.empty(); ++n) {
        std::ifstream in(n == 0 ? opts.path : rotated(opts.path, n));
        if (!in)
            continue;
        for (std::string line; std::getline(in, line);) {
            const Json j = Json::parse(line, nullptr, false);
            if (j.is_discarded() || !j.is_object() || j.value("boot_id", "") != boot ||
                !j.contains("device") || !j["device"].is_number_unsigned() || !j.contains("seq") ||
                !j["seq"].is_number_unsigned())
                continue;
            auto seq = j["seq"].get<std::uint64_t>();
            if (j.value("kind", "") == "lost" && j.contains("last_seq") &&
                j["last_seq"].is_number_unsigned())
                seq = j["last_seq"].get<std::uint64_t>();
            auto& last = out[j["device"].get<std::uint32_t>()];
            last = std::max(last, seq);
        }
    }
    return out;
}

void Journal::fold(const Options& opts, bool all, cli::HealthFold& fold) {
    for (unsigned n = all ? opts.keep : 0;; --n) {
        std::ifstream in(n == 0 ? opts.path : rotated(opts.path, n));
        for (std::string line; in && std::getline(in, line);)
            if (auto r = cli::parse_record_line(line))
                fold.add(std::move(*r));
        if (n == 0)
            break;
    }
}

} // namespace amdx::eventd
