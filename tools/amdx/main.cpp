// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <iostream>

#include "cli.hpp"

int main(int argc, char** argv) {
    return amdx::cli::run(argc, argv, std::cout, std::cerr);
}
