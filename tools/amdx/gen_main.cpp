// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// amdx-gen bash-completion|man-commands FILE: what the build makes from the
// CLI's command tree (tree.hpp).
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include "tree.hpp"

int main(int argc, char** argv) {
    amdx::cli::Options opts;
    amdx::cli::CommandTree tree(opts);
    const std::string_view what = argc == 3 ? argv[1] : "";
    std::string text;
    if (what == "bash-completion")
        text = amdx::cli::bash_completion(tree.app());
    else if (what == "man-commands")
        text = amdx::cli::man_commands(tree.app());
    else {
        std::cerr << "usage: amdx-gen bash-completion|man-commands FILE\n";
        return 2;
    }
    std::ofstream out(argv[2], std::ios::binary);
    out << text;
    out.close();
    if (!out) {
        std::cerr << "amdx-gen: " << argv[2] << ": cannot write\n";
        return 1;
    }
    return 0;
}
