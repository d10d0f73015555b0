// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// What is made from the CLI's command tree, checked against the tree for
// every command in it: each command's --help (the options of every command,
// the grammar), the bash completion the build generates, amdx(1).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "cli.hpp"
#include "tree.hpp"

namespace {

using amdx::cli::command_path;

/// A command with everything a user can type there.
struct Command {
    std::string path;                  ///< "partition set"; "" for amdx itself
    std::vector<std::string> commands; ///< the commands below it, by name
    std::vector<std::string> options;  ///< every name of its options, parents' too
    /// An option with a fixed set of values, and those values.
    std::vector<std::pair<std::string, std::set<std::string>>> choices;
};

/// The values an IsMember check lists in the option's type name, as in
/// "TEXT:{ce,ue,de}" (placeholders in capitals aside: "{N,warn,auto}").
std::set<std::string> member_values(const CLI::Option* opt) {
    const std::string type = opt->get_type_name();
    const auto open = type.find(":{");
    if (type.rfind("TEXT", 0) != 0 || open == std::string::npos || type.back() != '}')
        return {};
    std::set<std::string> out;
    std::istringstream in(type.substr(open + 2, type.size() - open - 3));
    for (std::string v; std::getline(in, v, ',');)
        if (std::any_of(v.begin(), v.end(), [](char c) { return c < 'A' || c > 'Z'; }))
            out.insert(v);
    return out;
}

/// Every command of the tree, amdx itself first, walked here (not by the
/// generators under test).
std::vector<Command> all_commands() {
    amdx::cli::Options opts;
    amdx::cli::CommandTree tree(opts);
    std::vector<const CLI::App*> todo{&tree.app()};
    std::vector<Command> out;
    while (!todo.empty()) {
        const CLI::App* app = todo.front();
        todo.erase(todo.begin());
        Command c;
        c.path = command_path(*app);
        for (const auto* sub : app->get_subcommands({})) {
            if (sub->get_group().empty()) // hidden
                continue;
            c.commands.push_back(sub->get_name());
            todo.push_back(sub);
        }
        // Every command falls through to its parents: their options too.
        for (const CLI::App* a = app; a != nullptr; a = a->get_parent())
            for (const auto* o : a->get_options()) {
                if (o->get_group().empty() || o->get_positional())
                    continue;
                std::vector<std::string> names;
                for (const auto& s : o->get_snames())
                    names.push_back("-" + s);
                for (const auto& l : o->get_lnames())
                    names.push_back("--" + l);
                c.options.insert(c.options.end(), names.begin(), names.end());
                if (const auto values = member_values(o); !values.empty())
                    c.choices.emplace_back(names.back(), values);
            }
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<std::string> words_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

/// amdx::cli::run() of @args (without "amdx"): exit status, stdout, stderr.
struct Outcome {
    int code = 0;
    std::string out;
    std::string err;
};

Outcome run(const std::vector<std::string>& args) {
    std::vector<const char*> argv{"amdx"};
    argv.reserve(args.size() + 1);
    for (const auto& a : args)
        argv.push_back(a.c_str());
    std::ostringstream out;
    std::ostringstream err;
    Outcome r;
    r.code = amdx::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

TEST(CliTree, HasTheFleetCommands) {
    std::set<std::string> paths;
    for (const auto& c : all_commands())
        paths.insert(c.path);
    for (const char* p : {"exporter", "health", "partition export", "doctor", "ras policy set"})
        EXPECT_TRUE(paths.count(p) == 1) << p;
}

// `amdx COMMAND --help` shows the options every command takes (-j, -o,
// -d, ...) and the grammar of the commands at and below it.
TEST(CliTree, EveryHelpShowsTheGlobalOptionsAndItsCommands) {
    const auto commands = all_commands();
    const Command& root = commands.front();
    for (const auto& c : commands) {
        auto args = words_of(c.path);
        args.emplace_back("--help");
        const Outcome r = run(args);
        EXPECT_EQ(r.code, 0) << c.path;
        const std::string& help = r.out;
        for (const auto& opt : root.options)
            EXPECT_NE(help.find(opt), std::string::npos)
                << "'" << c.path << " --help' lacks " << opt;
        if (!c.path.empty() && !c.commands.empty()) { // "dev ... (COMMAND: list, show)"
            std::string list;
            for (const auto& sub : c.commands)
                list += (list.empty() ? "" : ", ") + sub;
            EXPECT_NE(help.find("(COMMAND: " + list + ")"), std::string::npos)
                << "'" << c.path << " --help' does not list " << list;
        }
        for (const auto& sub : c.commands) {
            const std::string line = "\n  " + (c.path.empty() ? "" : c.path + " ") + sub;
            EXPECT_NE(help.find(line), std::string::npos)
                << "'" << c.path << " --help' lacks the grammar of" << line;
        }
        EXPECT_EQ(r.err, "");
    }
}

/// What the completion offers after @words (the word being completed is
/// empty), one line per query, by running @script in bash.
std::vector<std::set<std::string>> complete(const std::string& script,
                                            const std::vector<std::vector<std::string>>& queries) {
    const auto dir =
        std::filesystem::temp_directory_path() / ("amdx-completion-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto driver = dir / "driver.sh";
    {
        std::ofstream d(driver);
        // amdx is not on PATH: devices complete to "all".
        d << "PATH=" << dir.string() << ":/usr/bin:/bin\n. '" << script << "'\n";
        for (const auto& q : queries) {
            d << "COMP_WORDS=(amdx";
            for (const auto& w : q)
                d << " '" << w << "'";
            d << " '')\nCOMP_CWORD=" << q.size() + 1 << "\nCOMPREPLY=()\n_amdx\n"
              << "echo \"${COMPREPLY[*]}\"\n";
        }
    }
    const std::string cmd = "bash --norc --noprofile '" + driver.string() + "' 2>&1";
    FILE* p = ::popen(cmd.c_str(), "r");
    std::vector<std::set<std::string>> out;
    if (p == nullptr)
        return out;
    std::string text;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
        text.append(buf, n);
    ::pclose(p);
    std::filesystem::remove_all(dir);
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const auto w = words_of(line);
        out.emplace_back(w.begin(), w.end());
    }
    return out;
}

// The installed completion (generated by the build) offers, for every
// command, its commands and every option it takes, and an enum option's
// values after it.
TEST(CliTree, BashCompletionOffersEveryCommandAndOption) {
    const auto commands = all_commands();
    std::vector<std::vector<std::string>> queries;
    for (const auto& c : commands) {
        queries.push_back(words_of(c.path));
        for (const auto& [opt, values] : c.choices) {
            queries.push_back(words_of(c.path));
            queries.back().push_back(opt);
        }
    }
    const auto replies = complete(AMDX_BASH_COMPLETION, queries);
    ASSERT_EQ(replies.size(), queries.size()) << "bash failed on " << AMDX_BASH_COMPLETION;
    std::size_t q = 0;
    for (const auto& c : commands) {
        const auto& offered = replies[q++];
        for (const auto& sub : c.commands)
            EXPECT_TRUE(offered.count(sub) == 1)
                << "'amdx " << c.path << " <TAB>' does not offer " << sub;
        for (const auto& opt : c.options)
            EXPECT_TRUE(offered.count(opt) == 1)
                << "'amdx " << c.path << " <TAB>' does not offer " << opt;
        for (const auto& [opt, values] : c.choices)
            EXPECT_EQ(replies[q++], values) << "'amdx " << c.path << " " << opt << " <TAB>'";
    }
}

/// amdx(1) as text: roff's font changes and escapes undone.
std::string man_text(const std::string& roff) {
    std::string out;
    for (std::size_t i = 0; i < roff.size(); ++i) {
        if (roff[i] != '\\' || i + 1 == roff.size()) {
            out += roff[i];
            continue;
        }
        const char next = roff[i + 1];
        if (next == 'f') { // \fB, \fP, \f[B]
            i += roff.compare(i + 2, 1, "[") == 0 ? roff.find(']', i) - i : 2;
        } else if (next == '-' || next == '\\' || next == '.') {
            out += next;
            ++i;
        } else if (next == '(' && i + 3 < roff.size()) { // \(aq
            out += roff.compare(i + 2, 2, "aq") == 0 ? '\'' : ' ';
            i += 3;
        } else if (next == '&') {
            ++i;
        } else {
            out += roff[i];
        }
    }
    return out;
}

/// The text lines of section @name (".SH NAME" up to the next ".SH"),
/// without roff's requests and comments.
std::string man_section(const std::string& roff, const std::string& name) {
    const auto start = roff.find("\n.SH " + name + "\n");
    if (start == std::string::npos)
        return {};
    const auto body = start + name.size() + 6;
    std::istringstream lines(roff.substr(body, roff.find("\n.SH ", body) - body));
    std::string out;
    for (std::string line; std::getline(lines, line);)
        if (line.rfind('.', 0) != 0)
            out += line + "\n";
    return out;
}

// amdx(1): NAME is the one line, neither it nor DESCRIPTION tells how the
// tool is built, and every command is there with its options.
TEST(CliTree, ManPageListsEveryCommand) {
    const std::string page = AMDX_MAN_PAGE;
    if (page.empty())
        GTEST_SKIP() << "rst2man not found: amdx(1) not built";
    std::ifstream in(page);
    ASSERT_TRUE(in) << page;
    std::stringstream s;
    s << in.rdbuf();
    const std::string roff = s.str();
    const std::string name = man_text(man_section(roff, "NAME"));
    EXPECT_EQ(name, "amdx - control AMD Instinct devices through the amdx kernel module\n");
    const std::string description = man_text(man_section(roff, "DESCRIPTION"));
    EXPECT_FALSE(description.empty());
    for (const char* build : {"tools/", "cmake", "rst2man", "build.sh"}) {
        EXPECT_EQ(name.find(build), std::string::npos) << build;
        EXPECT_EQ(description.find(build), std::string::npos) << build;
    }
    const std::string text = man_text(roff);
    for (const auto& c : all_commands()) {
        if (c.path.empty())
            continue;
        EXPECT_NE(text.find("amdx " + c.path), std::string::npos) << "amdx(1) lacks " << c.path;
        for (const auto& opt : c.options)
            EXPECT_NE(text.find(opt), std::string::npos) << "amdx(1) lacks " << opt;
    }
}

} // namespace

namespace {

// Every option and argument of every command, given a value it does not
// take, is the one usage line in amdx's words: exit 2, "amdx: ...", and
// nothing of CLI11's composition
// ("(...) AND (...)", "Value", float bounds as "0.000000", "At Most 1
// required but received 2"; a word no number called a value out of range).
TEST(CliTree, EveryBadValueIsOneUsageLine) {
    amdx::cli::Options opts;
    amdx::cli::CommandTree tree(opts);
    std::vector<const CLI::App*> cmds{&tree.app()};
    const auto below = amdx::cli::visible_commands(tree.app());
    cmds.insert(cmds.end(), below.begin(), below.end());
    std::size_t checked = 0;
    for (const auto* cmd : cmds) {
        const auto path = words_of(command_path(*cmd));
        std::vector<std::string> before; // the positionals before this one
        for (const auto* o : cmd->get_options()) {
            if (o->get_group().empty() || o->get_expected_max() == 0)
                continue;
            for (const char* bad :
                 {"abc", "-5", "99999999999999999999999", "1.5", "size=abc", "colour=red"}) {
                std::vector<std::string> args{"-d", "/nonexistent/amdx"};
                args.insert(args.end(), path.begin(), path.end());
                if (o->get_positional()) {
                    args.insert(args.end(), before.begin(), before.end());
                    args.emplace_back(bad);
                } else {
                    args.push_back(o->get_name(false, false));
                    args.emplace_back(bad);
                }
                const Outcome r = run(args);
                const int code = r.code;
                const std::string& line = r.err;
                std::string what;
                for (std::size_t i = 2; i < args.size(); ++i)
                    what += " " + args[i];
                // A value the option takes, or (health) status 2 as Node
                // Problem Detector's "unknown", on standard output.
                if (code != amdx::cli::kExitUsage || line.empty())
                    continue;
                ++checked;
                EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << what << ": " << line;
                EXPECT_EQ(line.rfind("amdx: ", 0), 0U) << what << ": " << line;
                for (const char* leak : {" AND ", " OR ", "Value ", ".000000", "Could not convert",
                                         "At Most", "required but", "required TEXT", "value abc",
                                         "value 1.5", "--size", "--partition"})
                    EXPECT_EQ(line.find(leak), std::string::npos)
                        << what << ": " << line << "(has '" << leak << "')";
            }
            if (o->get_positional())
                before.emplace_back("0");
        }
    }
    EXPECT_GT(checked, 40U);
}

} // namespace
