// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The rendering of event records (event.hpp, event_fields()): one table of
// field names for every consumer.
#include <cstring>

#include <amdx/event.hpp>
#include <amdx/link.hpp>

namespace amdx {

namespace {

/// std::visit over lambdas, one per event kind.
template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

class Fields {
  public:
    void put(std::string_view name, std::uint64_t v) { out_.push_back({name, v}); }
    void put(std::string_view name, std::string_view v) { out_.push_back({name, std::string(v)}); }
    void put(std::string_view name, std::vector<std::uint64_t> v) {
        out_.push_back({name, std::move(v)});
    }
    void result(const std::error_code& ec) { put("result", errno_name(ec)); }
    /// A partition the record may leave unnamed: absent then.
    void partition(const std::optional<std::uint32_t>& p) {
        if (p)
            put("partition", *p);
    }
    /// A record that names a partition in every kernel, but "none" is
    /// possible (AMDX_RAS_PARTITION_ALL): absent, never 4294967295.
    void partition(std::uint32_t p) {
        if (p != AMDX_RAS_PARTITION_ALL)
            put("partition", p);
    }
    std::vector<EventField> take() { return std::move(out_); }

  private:
    std::vector<EventField> out_;
};

} // namespace

std::string errno_name(std::error_code ec) {
    if (!ec)
        return "ok";
    const char* name = ::strerrorname_np(ec.value());
    return name != nullptr ? name : "errno " + std::to_string(ec.value());
}

std::vector<EventField> event_fields(const TypedEvent& ev) {
    Fields f;
    f.put("device", ev.device);
    f.put("seq", ev.seq);
    f.put("timestamp_ns", ev.timestamp_ns);
    f.put("kind", to_string(ev.kind));
    namespace e = amdx::events;
    std::visit(Overloaded{
                   [&f](const e::Lost& l) { f.put("missed", l.missed); },
                   [&f](const e::Error& r) {
                       f.put("block", to_string(r.block));
                       f.put("type", to_string(r.type));
                       f.put("instance", r.instance);
                       f.partition(r.partition);
                       f.put("address", r.address);
                       f.put("count", r.count);
                       if (r.pid != 0) // the consumer, where the kernel names it
                           f.put("pid", r.pid);
                       if (r.pasid != 0)
                           f.put("pasid", r.pasid);
                       if (r.driver_event != 0) // the driver's RAS event id
                           f.put("driver_event", r.driver_event);
                       if (r.driver_event_type != DriverEventType::none) // and its type
                           f.put("driver_event_type", to_string(r.driver_event_type));
                   },
                   [&f](const e::PagePending& p) {
                       f.partition(p.partition);
                       f.put("address", p.address);
                   },
                   [&f](const e::PageRetired& p) {
                       f.partition(p.partition);
                       f.put("address", p.address);
                       f.put("cause", to_string(p.cause));
                       f.put("moved_pages", p.moved_pages);
                   },
                   [&f](const e::PoisonConsumed& p) {
                       f.partition(p.partition);
                       f.put("address", p.address);
                       f.put("pid", p.pid);
                   },
                   [&f](const e::ActionStart& a) {
                       f.partition(a.partition);
                       f.put("action", to_string(a.action));
                   },
                   [&f](const e::ActionEnd& a) {
                       f.partition(a.partition);
                       f.put("action", to_string(a.action));
                       f.result(a.result);
                       f.put("duration_ns", a.duration_ns);
                   },
                   [&f](const e::PartitionQuarantined& p) { f.partition(p.partition); },
                   [&f](const e::PartitionRestored& p) { f.partition(p.partition); },
                   [&f](const e::PartitionOffline& p) { f.partition(p.partition); },
                   [&f](const e::VfReset& v) {
                       f.put("vf", v.vf);
                       f.put("cause", to_string(v.cause));
                       f.partition(v.partition);
                       f.put("result", to_string(v.result));
                       f.put("state", to_string(v.state));
                       if (v.cause == VfResetCause::flr) // only an FLR clears VRAM
                           f.put("vram_cleared", v.vram_cleared);
                   },
                   [&f](const e::DeviceResetBegin& d) {
                       f.put("devices",
                             std::vector<std::uint64_t>(d.devices.begin(), d.devices.end()));
                   },
                   [&f](const e::DeviceResetEnd& d) { f.result(d.result); },
                   [&f](const e::Rma& r) { f.put("retired_pages", r.retired_pages); },
                   [&f](const e::PartitionSwitch& p) {
                       f.put("step", to_string(p.step));
                       f.result(p.result);
                       f.put("duration_ns", p.duration_ns);
                   },
                   [&f](const e::Migrate& m) {
                       f.put("direction", to_string(m.direction));
                       f.put("pid", m.pid);
                       f.put("pages", m.pages);
                   },
                   [&f](const e::Drained& d) {
                       f.partition(d.partition);
                       f.put("pid", d.pid);
                       f.put("pages", d.pages);
                   },
                   [&f](const e::Link& l) {
                       f.put("link", l.link);
                       f.put("peer", l.peer);
                       f.put("state", to_string(l.state));
                       f.put("previous_state", to_string(l.previous_state));
                       f.put("contain", to_string(l.contain));
                       f.put("hops", l.hops);
                   },
                   [&f](const e::Recovery& r) {
                       f.put("step", to_string(r.step));
                       f.put("fault", to_string(r.fault));
                       f.partition(r.partition);
                       if (r.vf)
                           f.put("vf", *r.vf);
                       f.put("action", to_string(r.action));
                       f.put("cause_seq", r.cause_seq);
                       f.put("num_devices", r.num_devices);
                       f.put("num_partitions", r.num_partitions);
                       f.put("num_vfs", r.num_vfs);
                       f.put("num_processes", r.num_processes);
                       if (r.step == RecoveryStep::pending) {
                           if (r.estimate_ms) // absent: never (rma)
                               f.put("estimate_ms", *r.estimate_ms);
                       } else if (r.step == RecoveryStep::stopped) {
                           f.put("stopped", r.stopped);
                       } else {
                           f.result(r.result);
                       }
                   },
                   [&f](const e::Unknown& u) { // a kind from a newer kernel: the raw fields
                       const Event& r = u.raw;
                       f.put("kind_id", static_cast<std::uint64_t>(r.kind));
                       f.put("block", r.block);
                       f.put("type", r.type);
                       f.put("instance", r.instance);
                       f.put("partition", r.partition);
                       f.put("address", r.address);
                       f.put("data", std::vector<std::uint64_t>{r.data[0], r.data[1]});
                   },
               },
               ev.data);
    return f.take();
}

} // namespace amdx
