// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// amdx_fake_cli: the amdx CLI against a fake kernel with two devices that
// differ in every optional part, on a kernel with HMM migration (device 1
// has no HMM-capable VRAM).  Pass "-d /dev/null" (any openable file).
#include <iostream>

#include "cli.hpp"
#include "fake_kernel.hpp"

int main(int argc, char** argv) {
    amdx::test::FakeKernel kernel;
    kernel.caps.caps |= AMDX_CAP_DEVICE_PRIVATE | AMDX_CAP_HMM_MIRROR | AMDX_CAP_HMM_MIGRATE;
    kernel.add_device(0);
    kernel.add_device(1);
    auto& d = kernel.devices[1];
    d.model = AMDX_MODEL_MI300A;
    d.hive_id = 0x2a;
    d.compute_mode = AMDX_COMPUTE_CPX;
    d.memory_mode = AMDX_MEMORY_NPS4;
    d.num_mem_partitions = 4;
    for (unsigned i = 0; i < 4; ++i)
        d.mem_partitions[i] = {.base = i * (48ULL << 30), .size = 48ULL << 30, .free = 1ULL << 30};
    d.num_vfs = 4;
    d.flags = 0;
    d.product[0] = 0;
    return amdx::cli::run(argc, argv, std::cout, std::cerr);
}
