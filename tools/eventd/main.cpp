// SPDX-License-Identifier: GPL-2.0-only OR MIT
#include "eventd.hpp"

int main(int argc, char** argv) {
    return amdx::eventd::main(argc, argv);
}
