// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// amdx_eventd_fake: amdx-eventd against a fake kernel whose two devices'
// logs hold one record of every kind (a LOST one included), for the
// journal schema test.  Pass "-d /dev/null --count N".
#include <cerrno>

#include "eventd.hpp"
#include "fake_kernel.hpp"

int main(int argc, char** argv) {
    amdx::test::FakeKernel kernel;
    kernel.add_device(0);
    kernel.add_device(1);
    kernel.devices[1].hive_id = 0x2a;
    for (std::uint32_t dev = 0; dev < 2; ++dev) {
        for (std::uint16_t kind = 0; kind < AMDX_EVENT_KIND_COUNT; ++kind) {
            amdx_event ev{};
            ev.kind = kind;
            ev.partition = kind % 2 == 0 ? AMDX_RAS_PARTITION_ALL : 1;
            ev.address = 0x1000;
            ev.data[0] = kind == AMDX_EVENT_ACTION_END ? 3 : 1;
            ev.data[1] = kind == AMDX_EVENT_ACTION_END ? static_cast<std::uint64_t>(-EIO) : 0;
            if (kind == AMDX_EVENT_LOST) {
                ev.data[0] = 2;
                ev.data[1] = 2;
            }
            kernel.backlog[dev].push_back(ev);
        }
    }
    return amdx::eventd::main(argc, argv);
}
