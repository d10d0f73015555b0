// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// List amdx devices with libamdx: build against the installed package with
// Documentation/examples/CMakeLists.txt, or with
//   c++ -std=c++20 list_devices.cpp $(pkg-config --cflags --libs amdx)
// Usage: list_devices [CONTROL_NODE]
#include <cstdio>
#include <string_view>

#include <amdx/amdx.hpp>

int main(int argc, char** argv) {
    const std::string_view path = argc > 1 ? argv[1] : amdx::kControlPath;

    auto control = amdx::Control::open(path);
    if (!control) {
        std::fprintf(stderr, "list_devices: %.*s: %s\n", static_cast<int>(path.size()), path.data(),
                     control.error().message().c_str());
        return 1;
    }
    const auto devices = control->devices();
    if (!devices) {
        std::fprintf(stderr, "list_devices: device list: %s\n", devices.error().message().c_str());
        return 1;
    }
    for (const auto& entry : *devices) {
        const auto info = control->device_info(entry.id);
        if (!info) {
            std::fprintf(stderr, "list_devices: device %u: %s\n", entry.id,
                         info.error().message().c_str());
            continue;
        }
        std::printf("%u %s %.*s %.*s/%.*s vram %llu MiB\n", info->id, info->bdf.c_str(),
                    static_cast<int>(amdx::to_string(info->model).size()),
                    amdx::to_string(info->model).data(),
                    static_cast<int>(amdx::to_string(info->compute_mode).size()),
                    amdx::to_string(info->compute_mode).data(),
                    static_cast<int>(amdx::to_string(info->memory_mode).size()),
                    amdx::to_string(info->memory_mode).data(),
                    static_cast<unsigned long long>(info->vram_size >> 20));
    }
    return 0;
}
