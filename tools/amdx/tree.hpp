// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// The CLI's command tree: every object, command and option amdx parses,
// built in one place (cli.cpp), and everything made from it (tree.cpp): the
// help's grammar and global options, the bash completion and the command
// list of amdx(1).  Nothing lists the commands a second time.
#ifndef AMDX_TREE_HPP
#define AMDX_TREE_HPP

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli.hpp"

namespace amdx::cli {

/// The parser of run() with the commands it dispatches to; its options
/// store into @opts and the tree's own members.
class CommandTree {
  public:
    explicit CommandTree(Options& opts);
    ~CommandTree();
    CommandTree(const CommandTree&) = delete;
    CommandTree& operator=(const CommandTree&) = delete;
    CommandTree(CommandTree&&) = delete;
    CommandTree& operator=(CommandTree&&) = delete;

    [[nodiscard]] CLI::App& app();
    /// Runs the command the app parsed.
    int run(Options& opts, std::ostream& out, std::ostream& err) const;

  private:
    struct Parts;
    std::unique_ptr<Parts> parts_;
};

/// The commands of @app's tree below @app that a user can type (hidden ones,
/// in group "", left out), depth first in the order they were added.
[[nodiscard]] std::vector<const CLI::App*> visible_commands(const CLI::App& app);
/// "partition set": the names from below the root down to @cmd.
[[nodiscard]] std::string command_path(const CLI::App& cmd);
/// The options @cmd accepts that a user can type: its own and, through
/// fallthrough, its parents', --help included.
[[nodiscard]] std::vector<const CLI::Option*> visible_options(const CLI::App& cmd);
/// "dev, hmm, ...": the objects (the root's visible commands).
[[nodiscard]] std::string object_list(const CLI::App& app);

/// Makes the "(COMMAND: show, plan, ...)" of each description below @app
/// name the commands the tree has (commands.hpp's objects and fleet.hpp's
/// add to each other's).
void list_commands(CLI::App& app);

/// The help formatter of the tree: every command's --help ends with the
/// options every command takes (the root's), the grammar of its commands
/// and the exit statuses.
[[nodiscard]] std::shared_ptr<CLI::Formatter> help_formatter();

/// bash completion for the tree rooted at @app: objects, commands,
/// options, enum choices, files and devices.
[[nodiscard]] std::string bash_completion(const CLI::App& app);
/// amdx(1)'s COMMANDS section (reST): every command with its arguments,
/// options and description.
[[nodiscard]] std::string man_commands(const CLI::App& app);

} // namespace amdx::cli

#endif // AMDX_TREE_HPP
