// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// Tests only: amdx._fake, the host tests' fake kernel (tools/tests/
// fake_kernel.hpp) in the test build of the module, so Python tests run
// without the kernel module.
#include <memory>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "fake_kernel.hpp"

namespace py = pybind11;

void amdx_py_add_fake(py::module_& m) {
    auto fake = m.def_submodule("_fake", "The fake kernel of the host tests");
    py::class_<amdx::test::FakeKernel>(fake, "Kernel")
        .def(py::init<>())
        .def("add_device", &amdx::test::FakeKernel::add_device)
        .def("set_major",
             [](amdx::test::FakeKernel& k, std::uint32_t major) { k.caps.version_major = major; })
        .def("fail_step",
             [](amdx::test::FakeKernel& k, std::uint32_t step, int err) {
                 k.part_fail_step = step;
                 k.part_fail_errno = err;
             })
        .def("recovery_fault",
             [](amdx::test::FakeKernel& k, std::uint32_t id, std::uint32_t partition,
                std::uint32_t action, std::uint32_t fault) {
                 return k.recovery_fault(id, partition, AMDX_VF_NONE, action, fault);
             })
        .def("add_link",
             [](amdx::test::FakeKernel& k, std::uint32_t a, std::uint32_t b, std::uint32_t state) {
                 amdx_link_info l{};
                 l.link = static_cast<std::uint32_t>(k.links.size());
                 l.device[0] = a;
                 l.device[1] = b;
                 l.width_max = 16;
                 l.width = 16;
                 l.state = state;
                 l.hops = state == AMDX_LINK_STATE_UP ? 1 : 2;
                 l.flags = state == AMDX_LINK_STATE_UP ? 0 : AMDX_LINK_F_ROUTE_DEGRADED;
                 k.devices[a].hive_id = 9;
                 k.devices[b].hive_id = 9;
                 k.links.push_back(l);
             })
        .def("set_consumer",
             [](amdx::test::FakeKernel& k, std::uint32_t pid, std::uint32_t pasid) {
                 k.ras_consumer_pid = pid;
                 k.ras_consumer_pasid = pasid;
             })
        .def("no_firmware", [](amdx::test::FakeKernel& k) { k.firmware.reset(); })
        .def(
            "emit",
            [](amdx::test::FakeKernel& k, std::uint32_t id, std::uint16_t kind,
               std::uint64_t address, std::uint64_t data0, std::uint64_t data1, std::uint32_t block,
               std::uint32_t type, std::uint32_t instance, std::uint32_t partition) {
                amdx_event ev{};
                ev.kind = kind;
                ev.partition = partition;
                ev.address = address;
                ev.data[0] = data0;
                ev.data[1] = data1;
                ev.block = block;
                ev.type = type;
                ev.instance = instance;
                return k.emit(id, ev);
            },
            py::arg("id"), py::arg("kind"), py::arg("address"), py::arg("data0"),
            py::arg("data1") = 0, py::arg("block") = 0, py::arg("type") = 0,
            py::arg("instance") = 0, py::arg("partition") = AMDX_RAS_PARTITION_ALL);
    // The CLI in this process, against the same fake kernel: (exit code,
    // stdout), for comparing the module's objects with `amdx -j`.
    fake.def("cli", [](const std::vector<std::string>& args) {
        std::vector<const char*> argv;
        argv.reserve(args.size());
        for (const auto& a : args)
            argv.push_back(a.c_str());
        std::ostringstream out;
        std::ostringstream err;
        const int code = amdx::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
        return py::make_tuple(code, code == 0 ? out.str() : err.str());
    });
}
