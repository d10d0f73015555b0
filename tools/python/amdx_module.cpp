// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `import amdx`: Python bindings of libamdx (pybind11).  Objects come back
// as dicts with the key names of the CLI's JSON (Documentation/admin-guide/
// cli.rst); failures raise amdx.Error, an OSError with the errno and the
// library's one-line message (ErrorContext::message()).
//
//   ctl = amdx.Control()                  # /dev/amdx, uapi version checked
//   dev = ctl.open(0)
//   dev.plan(compute="DPX"); dev.commit(compute="DPX", drain=True)
//   for ev in dev.events(["error", "page_retired"]): print(ev)
#include <deque>
#include <optional>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <string>
#include <variant>
#include <vector>

#include <amdx/amdx.hpp>
#include <amdx/identity.hpp>

namespace py = pybind11;

namespace {

py::object g_error; // amdx.Error, set at import

/// Raises amdx.Error for @ctx; its report attribute is @report, the
/// kernel's report of a refused change (None when it wrote none).
[[noreturn]] void raise(const amdx::ErrorContext& ctx, const py::object& report = py::none()) {
    py::object exc = g_error(ctx.code.value(), ctx.message());
    exc.attr("report") = report;
    PyErr_SetObject(g_error.ptr(), exc.ptr());
    throw py::error_already_set();
}

template <class T>
T unwrap(amdx::Result<T>&& r) {
    if (!r)
        raise(r.context());
    return std::move(*r);
}

void unwrap(amdx::Result<void>&& r) {
    if (!r)
        raise(r.context());
}

[[noreturn]] void value_error(const std::string& what) {
    throw py::value_error(what);
}

template <class E>
std::vector<std::string> names(const std::vector<E>& v) {
    std::vector<std::string> out;
    out.reserve(v.size());
    for (const auto& e : v)
        out.emplace_back(amdx::to_string(e));
    return out;
}

py::dict info_dict(const amdx::DeviceInfo& i) {
    py::list mem;
    for (const auto& p : i.memory_partitions)
        mem.append(py::dict(py::arg("index") = p.index, py::arg("base") = p.base,
                            py::arg("size") = p.size, py::arg("free") = p.free));
    return py::dict(py::arg("device") = i.id, py::arg("bdf") = i.bdf,
                    py::arg("model") = std::string(amdx::to_string(i.model)),
                    py::arg("product") = i.product, py::arg("serial") = i.serial,
                    py::arg("hive_id") = i.hive_id, py::arg("num_xcc") = i.num_xcc,
                    py::arg("compute_mode") = std::string(amdx::to_string(i.compute_mode)),
                    py::arg("memory_mode") = std::string(amdx::to_string(i.memory_mode)),
                    py::arg("supported_compute_modes") = names(i.supported_compute_modes),
                    py::arg("supported_memory_modes") = names(i.supported_memory_modes),
                    py::arg("vram_size") = i.vram_size, py::arg("vram_free") = i.vram_free,
                    py::arg("memory_partitions") = mem, py::arg("num_vfs") = i.num_vfs,
                    py::arg("max_vfs") = i.max_vfs);
}

py::dict partition_dict(const amdx::PartitionInfo& p) {
    return py::dict(py::arg("id") = p.id, py::arg("state") = std::string(amdx::to_string(p.state)),
                    py::arg("xcc_mask") = p.xcc_mask, py::arg("mem_partition") = p.mem_partition,
                    py::arg("vf") =
                        p.vf == amdx::kVfNone ? py::object(py::none()) : py::object(py::int_(p.vf)),
                    py::arg("vram_base") = p.vram_base, py::arg("vram_size") = p.vram_size);
}

py::dict report_dict(const amdx::PartitionReport& r) {
    py::list steps;
    for (const auto& s : r.steps)
        steps.append(py::dict(
            py::arg("step") = std::string(amdx::to_string(s.step)),
            py::arg("result") =
                s.error == 0 ? std::string("ok")
                             : amdx::errno_name(std::error_code(-s.error, std::system_category())),
            py::arg("duration_ns") = s.duration_ns));
    py::list topology;
    for (const auto& p : r.topology)
        topology.append(partition_dict(p));
    py::list holders;
    for (const auto& h : r.holders)
        holders.append(py::dict(py::arg("pid") = h.pid, py::arg("comm") = h.comm,
                                py::arg("mem_partition") = h.mem_partition,
                                py::arg("pages") = h.pages));
    return py::dict(py::arg("result") = amdx::errno_name(r.error),
                    py::arg("reason") = std::string(amdx::to_string(r.reason)),
                    py::arg("reason_text") = std::string(amdx::reason_text(r.reason)),
                    py::arg("allowed") = r.allowed,
                    py::arg("outcome") = std::string(amdx::to_string(r.outcome)),
                    py::arg("failed_step") = std::string(amdx::to_string(r.failed_step)),
                    py::arg("steps") = steps, py::arg("topology") = topology,
                    py::arg("num_holders") = r.num_holders, py::arg("holders") = holders);
}

amdx::PartitionRequest request(const std::optional<std::string>& compute,
                               const std::optional<std::string>& memory, bool drain,
                               std::uint32_t deadline_ms) {
    amdx::PartitionRequest req;
    if (compute) {
        req.compute = amdx::parse_compute_mode(*compute);
        if (!req.compute)
            value_error("unknown compute mode '" + *compute + "'");
    }
    if (memory) {
        req.memory = amdx::parse_memory_mode(*memory);
        if (!req.memory)
            value_error("unknown memory mode '" + *memory + "'");
    }
    req.drain = drain;
    req.deadline_ms = deadline_ms;
    return req;
}

/// A recovery plan or run as a dict (cli.rst, "recover": the same keys).
py::dict recovery_dict(const amdx::RecoveryPlan& p) {
    py::list procs;
    for (const auto& r : p.processes)
        procs.append(py::dict(
            py::arg("pid") = r.pid == 0 ? py::object(py::none()) : py::object(py::int_(r.pid)),
            py::arg("comm") = r.comm, py::arg("device") = r.device,
            py::arg("mem_partition") = r.mem_partition, py::arg("pages") = r.pages));
    py::dict parts;
    py::dict vfs;
    for (const auto& [id, bits] : p.partitions)
        parts[py::int_(id)] = bits;
    for (const auto& [id, bits] : p.vfs)
        vfs[py::int_(id)] = bits;
    return py::dict(
        py::arg("action") = std::string(amdx::to_string(p.action)),
        py::arg("state") = std::string(amdx::to_string(p.state)), py::arg("fault") = p.fault,
        py::arg("seq") = p.seq, py::arg("devices") = p.devices, py::arg("peers") = p.peers,
        py::arg("partitions") = parts, py::arg("vfs") = vfs,
        py::arg("num_partitions") = p.num_partitions, py::arg("num_vfs") = p.num_vfs,
        py::arg("num_processes") = p.num_processes,
        py::arg("est_ms") =
            p.est_ms == 0xffffffffU ? py::object(py::none()) : py::object(py::int_(p.est_ms)),
        py::arg("processes") = procs, py::arg("outcome") = std::string(amdx::to_string(p.outcome)),
        py::arg("error") =
            p.error ? py::object(py::int_(p.error.value())) : py::object(py::none()));
}

std::optional<amdx::RecoveryAction> recovery_action(const std::optional<std::string>& name) {
    if (!name)
        return std::nullopt;
    const auto a = amdx::parse_recovery_action(*name);
    if (!a)
        value_error("unknown recovery action '" + *name + "'");
    return a;
}

/// A record as a dict: the fields of libamdx's one rendering (event_fields(),
/// the CLI's `monitor -j` objects).
py::dict event_dict(const amdx::TypedEvent& ev) {
    py::dict d;
    for (const auto& f : amdx::event_fields(ev))
        std::visit([&d, &f](const auto& v) { d[py::str(f.name.data(), f.name.size())] = v; },
                   f.value);
    return d;
}

/// An iterable subscription: `for ev in stream` blocks for the next record.
class PyEvents {
  public:
    explicit PyEvents(amdx::EventStream s) : stream_(std::move(s)) {}

    /// Up to @max records within @timeout_ms (negative: no limit).
    py::list next(int timeout_ms, std::size_t max) {
        fill(timeout_ms, max);
        py::list out;
        while (!buffer_.empty() && out.size() < max) {
            out.append(event_dict(buffer_.front()));
            buffer_.pop_front();
        }
        return out;
    }

    py::dict next_one() {
        while (buffer_.empty())
            fill(-1, 64);
        auto ev = std::move(buffer_.front());
        buffer_.pop_front();
        return event_dict(ev);
    }

    [[nodiscard]] int fileno() const { return stream_.fd().get(); }

  private:
    void fill(int timeout_ms, std::size_t max) {
        if (!buffer_.empty())
            return;
        amdx::Result<std::vector<amdx::TypedEvent>> got;
        {
            const py::gil_scoped_release unlocked;
            got = stream_.next_typed(timeout_ms, max);
        }
        if (!got && got.error() == std::errc::no_such_device)
            throw py::stop_iteration();
        for (auto& e : unwrap(std::move(got)))
            buffer_.push_back(std::move(e));
    }

    amdx::EventStream stream_;
    std::deque<amdx::TypedEvent> buffer_;
};

std::uint64_t kinds_mask(const std::optional<std::vector<std::string>>& kinds) {
    if (!kinds)
        return amdx::kEventMaskAll;
    std::uint64_t mask = 0;
    for (const auto& k : *kinds) {
        const auto kind = amdx::parse_event_kind(k);
        if (!kind)
            value_error("unknown event kind '" + k + "'");
        mask |= amdx::event_mask(*kind);
    }
    return mask;
}

} // namespace

#ifdef AMDX_PY_FAKE
void amdx_py_add_fake(py::module_& m); // fake_module.cpp: tests only
#endif

PYBIND11_MODULE(amdx, m) {
    m.doc() = "amdx: AMD Instinct RAS, partitions, SR-IOV and events (libamdx)";
    g_error = py::reinterpret_borrow<py::object>(PyErr_NewExceptionWithDoc(
        "amdx.Error", "A failed libamdx call: errno, message.", PyExc_OSError, nullptr));
    m.attr("Error") = g_error;
    m.attr("__version__") = std::string(amdx::version().text);
    m.attr("UAPI_VERSION") = py::make_tuple(AMDX_UAPI_VERSION_MAJOR, AMDX_UAPI_VERSION_MINOR);

    py::class_<amdx::Device>(m, "Device")
        .def_property_readonly("id", &amdx::Device::id)
        .def("info", [](const amdx::Device& d) { return info_dict(unwrap(d.info())); })
        .def("identity",
             [](const amdx::Device& d) {
                 const auto info = unwrap(d.info());
                 const auto id = unwrap(amdx::identify(info.bdf));
                 py::list kfd;
                 for (const auto& n : id.kfd_nodes)
                     kfd.append(py::dict(py::arg("node") = n.node, py::arg("gpu_id") = n.gpu_id,
                                         py::arg("partition") = n.partition));
                 return py::dict(py::arg("bdf") = id.bdf, py::arg("drm_card") = id.drm_card,
                                 py::arg("drm_render") = id.drm_render, py::arg("kfd_nodes") = kfd,
                                 py::arg("note") = id.note);
             })
        .def("links",
             [](const amdx::Device& d) {
                 const auto ls = unwrap(d.links());
                 py::list out;
                 for (const auto& l : ls.links) {
                     py::list time;
                     for (const auto t : l.time_ns)
                         time.append(t);
                     out.append(py::dict(
                         py::arg("link") = l.link,
                         py::arg("kind") = std::string(amdx::to_string(l.kind)),
                         py::arg("devices") = py::make_tuple(l.device[0], l.device[1]),
                         py::arg("ports") = py::make_tuple(l.port[0], l.port[1]),
                         py::arg("width_max") = l.width_max, py::arg("width") = l.width,
                         py::arg("state") = std::string(amdx::to_string(l.state)),
                         py::arg("contain") = std::string(amdx::to_string(l.contain)),
                         py::arg("hops") = l.hops, py::arg("route_degraded") = l.route_degraded(),
                         py::arg("ce") = l.ce, py::arg("ue") = l.ue, py::arg("replays") = l.replays,
                         py::arg("width_changes") = l.width_changes, py::arg("downs") = l.downs,
                         py::arg("state_changes") = l.state_changes, py::arg("time_ns") = time));
                 }
                 return py::dict(py::arg("hive_id") = ls.hive_id, py::arg("links") = out);
             })
        .def("partitions",
             [](const amdx::Device& d) {
                 const auto p = unwrap(d.partitions());
                 py::list parts;
                 for (const auto& i : p.partitions)
                     parts.append(partition_dict(i));
                 return py::dict(
                     py::arg("compute_mode") = std::string(amdx::to_string(p.compute_mode)),
                     py::arg("memory_mode") = std::string(amdx::to_string(p.memory_mode)),
                     py::arg("generation") = p.generation, py::arg("partitions") = parts);
             })
        .def(
            "plan",
            [](const amdx::Device& d, const std::optional<std::string>& compute,
               const std::optional<std::string>& memory, bool drain, std::uint32_t deadline_ms) {
                return report_dict(
                    unwrap(d.partition_plan(request(compute, memory, drain, deadline_ms))));
            },
            py::arg("compute") = py::none(), py::arg("memory") = py::none(),
            py::arg("drain") = false, py::arg("deadline_ms") = 0)
        .def(
            "commit",
            [](const amdx::Device& d, const std::optional<std::string>& compute,
               const std::optional<std::string>& memory, bool drain, std::uint32_t deadline_ms) {
                auto r = d.partition_commit(request(compute, memory, drain, deadline_ms));
                if (!r) // refused or rolled back is never a value
                    raise(r.context(), r.has_report() ? py::object(report_dict(r.report()))
                                                      : py::object(py::none()));
                return report_dict(*r);
            },
            py::arg("compute") = py::none(), py::arg("memory") = py::none(),
            py::arg("drain") = false, py::arg("deadline_ms") = 0)
        .def("vfs",
             [](const amdx::Device& d) {
                 py::list out;
                 for (const auto& v : unwrap(d.vfs()).vfs)
                     out.append(py::dict(py::arg("vf") = v.vf,
                                         py::arg("state") = std::string(amdx::to_string(v.state)),
                                         py::arg("partition_mask") = v.config.partition_mask,
                                         py::arg("vram_quota") = v.config.vram_quota,
                                         py::arg("vram_used") = v.vram_used,
                                         py::arg("resets") = v.resets));
                 return out;
             })
        .def("vf_enable",
             [](const amdx::Device& d, std::uint32_t n) {
                 const auto r = d.vf_enable(n);
                 if (!r && r.has_report())
                     raise(r.context(),
                           py::dict(py::arg("reason") = std::string(to_string(r.report().reason)),
                                    py::arg("bad_vf") =
                                        r.report().bad_vf == amdx::kVfNone
                                            ? py::object(py::none())
                                            : py::object(py::int_(r.report().bad_vf))));
                 if (!r)
                     raise(r.context());
             })
        .def("vf_disable", [](const amdx::Device& d) { unwrap(d.vf_disable()); })
        .def("vf_reset",
             [](const amdx::Device& d, std::uint32_t vf) {
                 const auto r = unwrap(d.vf_reset(vf));
                 return py::dict(py::arg("result") = std::string(amdx::to_string(r.result)),
                                 py::arg("state") = std::string(amdx::to_string(r.state)),
                                 py::arg("duration_ns") = r.duration_ns,
                                 py::arg("vram_cleared") = r.vram_cleared);
             })
        .def(
            "recovery_plan",
            [](const amdx::Device& d, std::optional<std::uint32_t> partition,
               std::optional<std::uint32_t> vf, const std::optional<std::string>& action) {
                return recovery_dict(
                    unwrap(d.recovery_plan(amdx::RecoveryTarget{.partition = partition, .vf = vf},
                                           recovery_action(action))));
            },
            py::arg("partition") = py::none(), py::arg("vf") = py::none(),
            py::arg("action") = py::none())
        .def(
            "recovery_run",
            [](const amdx::Device& d, std::optional<std::uint32_t> partition,
               std::optional<std::uint32_t> vf, const std::optional<std::string>& action, bool stop,
               bool others) {
                return recovery_dict(unwrap(d.recovery_run(
                    amdx::RecoveryTarget{.partition = partition, .vf = vf}, recovery_action(action),
                    amdx::RecoveryRunFlags{.stop = stop, .others = others})));
            },
            py::arg("partition") = py::none(), py::arg("vf") = py::none(),
            py::arg("action") = py::none(), py::arg("stop") = false, py::arg("others") = false)
        .def("ras",
             [](const amdx::Device& d) {
                 const auto s = unwrap(d.ras_status());
                 py::list rows;
                 for (const auto& c : s.counters) {
                     py::dict counts;
                     for (auto t : {amdx::RasType::ce, amdx::RasType::ue, amdx::RasType::de}) {
                         const auto& v = c.count[static_cast<std::size_t>(t)];
                         counts[py::str(std::string(amdx::to_string(t)))] =
                             v ? py::object(py::int_(*v)) : py::object(py::none());
                     }
                     rows.append(
                         py::dict(py::arg("block") = std::string(amdx::to_string(c.block)),
                                  py::arg("partition") = c.partition == amdx::kRasPartitionAll
                                                             ? py::object(py::none())
                                                             : py::object(py::int_(c.partition)),
                                  py::arg("counts") = counts));
                 }
                 return py::dict(py::arg("rma") = s.rma, py::arg("retired_pages") = s.retired_pages,
                                 py::arg("pending_pages") = s.pending_pages,
                                 py::arg("counters") = rows);
             })
        .def(
            "inject",
            [](const amdx::Device& d, const std::string& block, const std::string& type,
               std::uint32_t instance, std::uint32_t count, std::uint64_t address) {
                amdx::RasInjection inj;
                const auto b = amdx::parse_ras_block(block);
                const auto t = amdx::parse_ras_type(type);
                if (!b || !t)
                    value_error("unknown RAS block or type '" + block + "', '" + type + "'");
                inj.block = *b;
                inj.type = *t;
                inj.instance = instance;
                inj.count = count;
                inj.address = address;
                return unwrap(d.ras_inject(inj));
            },
            py::arg("block"), py::arg("type"), py::arg("instance") = 0, py::arg("count") = 1,
            py::arg("address") = 0)
        .def("badpages",
             [](const amdx::Device& d) {
                 py::list out;
                 for (const auto& p : unwrap(d.badpages()))
                     out.append(py::dict(py::arg("address") = p.address, py::arg("time") = p.time,
                                         py::arg("partition") = p.partition,
                                         py::arg("cause") = std::string(amdx::to_string(p.cause))));
                 return out;
             })
        .def(
            "events",
            [](const amdx::Device& d, const std::optional<std::vector<std::string>>& kinds,
               std::uint32_t ring_size) {
                return PyEvents(unwrap(d.subscribe(kinds_mask(kinds), ring_size)));
            },
            py::arg("kinds") = py::none(), py::arg("ring_size") = 0);

    py::class_<PyEvents>(m, "EventStream")
        .def("__iter__", [](PyEvents& e) -> PyEvents& { return e; })
        .def("__next__", &PyEvents::next_one)
        .def("next", &PyEvents::next, py::arg("timeout_ms") = -1, py::arg("max") = 64)
        .def("fileno", &PyEvents::fileno);

    py::class_<amdx::Control>(m, "Control")
        .def(py::init([](const std::string& path) { return unwrap(amdx::Control::open(path)); }),
             py::arg("path") = std::string(amdx::kControlPath))
        .def("caps",
             [](const amdx::Control& c) {
                 const auto caps = unwrap(c.caps());
                 return py::dict(
                     py::arg("version") = py::make_tuple(caps.version_major, caps.version_minor),
                     py::arg("caps") = caps.bits, py::arg("num_devices") = caps.num_devices);
             })
        .def("devices",
             [](const amdx::Control& c) {
                 py::list out;
                 for (const auto& e : unwrap(c.devices()))
                     out.append(py::dict(py::arg("device") = e.id, py::arg("bdf") = e.bdf,
                                         py::arg("model") = std::string(amdx::to_string(e.model))));
                 return out;
             })
        .def("device_info", [](const amdx::Control& c,
                               std::uint32_t id) { return info_dict(unwrap(c.device_info(id))); })
        .def("open", [](const amdx::Control& c, std::uint32_t id) {
            return unwrap(amdx::Device::open(c, id));
        });

#ifdef AMDX_PY_FAKE
    amdx_py_add_fake(m);
#endif
}
