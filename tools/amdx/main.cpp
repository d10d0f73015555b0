// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include <iostream>
#include <unistd.h>

#include "cli.hpp"

int main(int argc, char** argv) {
    return amdx::cli::run(argc, argv, std::cin, ::isatty(STDIN_FILENO) == 1, std::cout, std::cerr);
}
