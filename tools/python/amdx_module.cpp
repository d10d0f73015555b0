// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// `import amdx`: Python bindings of libamdx (pybind11).  The views' objects
// are the CLI's JSON, made by the CLI's own encoders (amdx_json:
// dev_show_json(), partition_show_json(), ...; Documentation/admin-guide/
// cli.rst) and handed over as dicts and lists (to_py()): one encoder for
// both, the change reports (plan, commit, vf_reset, recovery_plan,
// recovery_run) included.  Failures raise amdx.Error, an OSError with the
// errno and the library's one-line message (ErrorContext::message()).
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

#include "json.hpp"

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

/// The CLI's JSON as Python objects: objects are dicts (in the CLI's key
/// order), arrays lists, null None.
py::object to_py(const amdx::cli::Json& j) {
    using Json = amdx::cli::Json;
    switch (j.type()) {
    case Json::value_t::null:
        return py::none();
    case Json::value_t::boolean:
        return py::bool_(j.get<bool>());
    case Json::value_t::number_unsigned:
        return py::int_(j.get<std::uint64_t>());
    case Json::value_t::number_integer:
        return py::int_(j.get<std::int64_t>());
    case Json::value_t::number_float:
        return py::float_(j.get<double>());
    case Json::value_t::string:
        return py::str(j.get_ref<const std::string&>());
    case Json::value_t::array: {
        py::list out;
        for (const auto& e : j)
            out.append(to_py(e));
        return out;
    }
    case Json::value_t::object: {
        py::dict out;
        for (const auto& [k, v] : j.items())
            out[py::str(k)] = to_py(v);
        return out;
    }
    default: // binary, discarded: the encoders make none
        return py::none();
    }
}

template <class T>
py::object unwrap_py(amdx::Result<T>&& r) {
    return to_py(unwrap(std::move(r)));
}

/// The device's entry (id, model, PCI address), as the CLI's views name it.
amdx::DeviceEntry entry_of(const amdx::Device& d) {
    const auto info = unwrap(d.info());
    return amdx::DeviceEntry{.id = info.id, .model = info.model, .bdf = info.bdf};
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

/// A partition plan (@commit false) or commit of @req on @d: `amdx -j
/// partition plan|set`'s object.  A refused or rolled-back commit raises
/// amdx.Error with that object as its report.
py::object partition_change(const amdx::Device& d, const amdx::PartitionRequest& req, bool commit) {
    const auto before = unwrap(d.partitions());
    const auto resets = unwrap(amdx::cli::partition_resets(d, before, req));
    const auto doc = [&](const amdx::PartitionReport& r) {
        return to_py(amdx::cli::partition_change_json(d.id(), before, req, r, commit, resets));
    };
    if (!commit)
        return doc(unwrap(d.partition_plan(req)));
    auto r = d.partition_commit(req);
    if (!r) // refused or rolled back is never a value
        raise(r.context(), r.has_report() ? doc(r.report()) : py::object(py::none()));
    return doc(*r);
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
        .def("info",
             [](const amdx::Device& d) {
                 // A device alone cannot number the node's GPUs
                 // (Control.device_info() does): "gpus" is None here.
                 return to_py(amdx::cli::dev_show_json(unwrap(d.info()), &d, nullptr));
             })
        .def("firmware",
             [](const amdx::Device& d) {
                 return to_py(amdx::cli::firmware_show_json(entry_of(d), unwrap(d.firmware())));
             })
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
                 std::vector<std::pair<std::uint64_t, amdx::LinkInfo>> found;
                 for (const auto& l : ls.links)
                     found.emplace_back(ls.hive_id, l);
                 return to_py(amdx::cli::link_show_json(found, {d.id()}));
             })
        .def("partitions",
             [](const amdx::Device& d) {
                 return unwrap_py(amdx::cli::partition_show_json(d, entry_of(d)));
             })
        .def(
            "plan",
            [](const amdx::Device& d, const std::optional<std::string>& compute,
               const std::optional<std::string>& memory, bool drain, std::uint32_t deadline_ms) {
                return partition_change(d, request(compute, memory, drain, deadline_ms), false);
            },
            py::arg("compute") = py::none(), py::arg("memory") = py::none(),
            py::arg("drain") = false, py::arg("deadline_ms") = 0)
        .def(
            "commit",
            [](const amdx::Device& d, const std::optional<std::string>& compute,
               const std::optional<std::string>& memory, bool drain, std::uint32_t deadline_ms) {
                return partition_change(d, request(compute, memory, drain, deadline_ms), true);
            },
            py::arg("compute") = py::none(), py::arg("memory") = py::none(),
            py::arg("drain") = false, py::arg("deadline_ms") = 0)
        .def("vfs",
             [](const amdx::Device& d) {
                 return unwrap_py(amdx::cli::vf_show_json(d, entry_of(d), "/sys"));
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
                 return to_py(amdx::cli::vf_reset_json(d.id(), vf, unwrap(d.vf_reset(vf))));
             })
        .def(
            "recovery_plan",
            [](const amdx::Device& d, std::optional<std::uint32_t> partition,
               std::optional<std::uint32_t> vf, const std::optional<std::string>& action) {
                const amdx::RecoveryTarget target{.partition = partition, .vf = vf};
                return to_py(amdx::cli::recovery_plan_json(
                    d.id(), target, unwrap(d.recovery_plan(target, recovery_action(action)))));
            },
            py::arg("partition") = py::none(), py::arg("vf") = py::none(),
            py::arg("action") = py::none())
        .def(
            "recovery_run",
            [](const amdx::Device& d, std::optional<std::uint32_t> partition,
               std::optional<std::uint32_t> vf, const std::optional<std::string>& action, bool stop,
               bool others) {
                // `amdx -j recover run`'s object: the plan of the action run,
                // its outcome and the steps the kernel recorded.
                const amdx::RecoveryTarget target{.partition = partition, .vf = vf};
                const auto a = recovery_action(action);
                auto plan = amdx::cli::recovery_plan_json(d.id(), target,
                                                          unwrap(d.recovery_plan(target, a)));
                const auto run = unwrap(amdx::cli::recovery_run_recorded(
                    d, target, a, amdx::RecoveryRunFlags{.stop = stop, .others = others}));
                return to_py(amdx::cli::recovery_run_json(std::move(plan), run));
            },
            py::arg("partition") = py::none(), py::arg("vf") = py::none(),
            py::arg("action") = py::none(), py::arg("stop") = false, py::arg("others") = false)
        .def("ras",
             [](const amdx::Device& d) {
                 return unwrap_py(amdx::cli::ras_show_json(d, entry_of(d)));
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
                     out.append(to_py(amdx::cli::badpage_to_json(p)));
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
                     out.append(to_py(amdx::cli::entry_to_json(e)));
                 return out;
             })
        .def("device_info",
             [](const amdx::Control& c, std::uint32_t id) {
                 const auto info = unwrap(c.device_info(id));
                 const auto device = amdx::Device::open(c, id);
                 const auto entries = unwrap(c.devices());
                 std::string what;
                 const auto gpus = unwrap(amdx::cli::gpu_table(c, entries, "/sys", what));
                 return to_py(amdx::cli::dev_show_json(info, device ? &*device : nullptr,
                                                       amdx::cli::gpus_to_json(gpus, id)));
             })
        .def("open", [](const amdx::Control& c, std::uint32_t id) {
            return unwrap(amdx::Device::open(c, id));
        });

#ifdef AMDX_PY_FAKE
    amdx_py_add_fake(m);
#endif
}
