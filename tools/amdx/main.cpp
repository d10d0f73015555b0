// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "cli.hpp"

int main(int argc, char** argv) {
    return amdx::cli::run_process(argc, argv);
}
