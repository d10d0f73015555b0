// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The fake kernel for C and Python tests: C functions that create one and
// give it devices, records and knobs.
#include "fake_c_hook.h"

#include <cstdint>

#include "fake_kernel.hpp"

using amdx::test::FakeKernel;

extern "C" {

void* amdx_fake_new(void) {
    return new FakeKernel();
}

void amdx_fake_free(void* fake) {
    delete static_cast<FakeKernel*>(fake);
}

void amdx_fake_add_device(void* fake, uint32_t id) {
    static_cast<FakeKernel*>(fake)->add_device(id);
}

void amdx_fake_set_major(void* fake, uint32_t major) {
    static_cast<FakeKernel*>(fake)->caps.version_major = major;
}

void amdx_fake_add_link(void* fake, uint32_t a, uint32_t b, uint32_t state) {
    auto* k = static_cast<FakeKernel*>(fake);
    amdx_link_info l{};
    l.link = static_cast<std::uint32_t>(k->links.size());
    l.device[0] = a;
    l.device[1] = b;
    l.width_max = 16;
    l.width = 16;
    l.state = state;
    l.hops = state == AMDX_LINK_STATE_UP ? 1 : 2;
    k->devices[a].hive_id = 9;
    k->devices[b].hive_id = 9;
    k->links.push_back(l);
}

void amdx_fake_fail_step(void* fake, uint32_t step, int err) {
    auto* k = static_cast<FakeKernel*>(fake);
    k->part_fail_step = step;
    k->part_fail_errno = err;
}

uint64_t amdx_fake_recovery_fault(void* fake, uint32_t id, uint32_t partition, uint32_t vf,
                                  uint32_t action, uint32_t fault) {
    return static_cast<FakeKernel*>(fake)->recovery_fault(id, partition, vf, action, fault);
}

void amdx_fake_set_consumer(void* fake, uint32_t pid, uint32_t pasid) {
    static_cast<FakeKernel*>(fake)->ras_consumer_pid = pid;
    static_cast<FakeKernel*>(fake)->ras_consumer_pasid = pasid;
}

uint64_t amdx_fake_emit(void* fake, uint32_t id, uint16_t kind, uint64_t address, uint64_t data0) {
    amdx_event ev{};
    ev.kind = kind;
    ev.partition = AMDX_RAS_PARTITION_ALL;
    ev.address = address;
    ev.data[0] = data0;
    return static_cast<FakeKernel*>(fake)->emit(id, ev);
}

} // extern "C"
