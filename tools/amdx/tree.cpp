// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// What is made from the command tree (tree.hpp): the help's footer, the
// bash completion and amdx(1)'s command list.  Each walks the CLI11 app, so
// a command or option added to the tree is in all of them.
#include "tree.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace amdx::cli {

namespace {

bool visible(const CLI::App* cmd) {
    return !cmd->get_group().empty();
}

bool visible(const CLI::Option* opt) {
    return !opt->get_group().empty();
}

const CLI::App& root_of(const CLI::App& cmd) {
    const CLI::App* app = &cmd;
    while (app->get_parent() != nullptr)
        app = app->get_parent();
    return *app;
}

std::vector<const CLI::App*> children(const CLI::App& cmd) {
    return cmd.get_subcommands([](const CLI::App* sub) { return visible(sub); });
}

/// Not a flag: an option with a value (possibly an optional one).
bool takes_value(const CLI::Option* opt) {
    return opt->get_expected_max() > 0;
}

/// Every name of a named option: "-j", "--json".
std::vector<std::string> names(const CLI::Option* opt) {
    std::vector<std::string> out;
    for (const auto& s : opt->get_snames())
        out.push_back("-" + s);
    for (const auto& l : opt->get_lnames())
        out.push_back("--" + l);
    return out;
}

/// An option's type name, split: "UINT" and "UINT in [1 - 1024]",
/// "TEXT" and "{ce,ue,de}", "TEXT" and "DEV".
std::pair<std::string, std::string> type_parts(const CLI::Option* opt) {
    const std::string type = opt->get_type_name();
    const auto colon = type.find(':');
    if (colon == std::string::npos)
        return {type, {}};
    return {type.substr(0, colon), type.substr(colon + 1)};
}

bool is_number(const CLI::Option* opt) {
    const std::string base = type_parts(opt).first;
    return base == "INT" || base == "UINT" || base == "FLOAT" || base == "NUMBER";
}

/// The values a text option takes, from its IsMember check ("{ce,ue,de}")
/// or a check that lists its words beside a placeholder ("{N,warn,auto}":
/// warn and auto); empty if it takes any text.
std::vector<std::string> choices(const CLI::Option* opt) {
    const auto [base, detail] = type_parts(opt);
    if (base != "TEXT" || detail.size() < 2 || detail.front() != '{' || detail.back() != '}')
        return {};
    std::vector<std::string> out;
    std::istringstream in(detail.substr(1, detail.size() - 2));
    for (std::string item; std::getline(in, item, ',');) {
        if (std::all_of(item.begin(), item.end(),
                        [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }))
            continue; // a placeholder
        const bool word = std::all_of(item.begin(), item.end(), [](char c) {
            return std::islower(static_cast<unsigned char>(c)) != 0 ||
                   std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '_';
        });
        if (!word)
            return {};
        out.push_back(item);
    }
    return out;
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
    std::string out;
    for (const auto& item : items)
        out += (out.empty() ? "" : std::string(sep)) + item;
    return out;
}

/// What stands for an option's value in a usage line: its choices if they
/// are few, N for a number, the check's name (DEV, ADDRESS), else the
/// option's name in capitals.
std::string placeholder(const CLI::Option* opt) {
    const auto values = choices(opt);
    if (!values.empty() && join(values, "|").size() <= 24)
        return "{" + join(values, "|") + "}";
    if (is_number(opt))
        return "N";
    std::string detail = type_parts(opt).second;
    if (!detail.empty() && detail.front() != '{')
        return detail;
    std::string name = opt->get_lnames().empty() ? opt->get_name() : opt->get_lnames().front();
    std::transform(name.begin(), name.end(), name.begin(), [](char c) {
        return c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    });
    return name;
}

/// "--count N", "--drain", "DEV", "DEV...".
std::string option_usage(const CLI::Option* opt) {
    if (opt->get_positional())
        return opt->get_name() + (opt->get_expected_max() > 1 ? "..." : "");
    const auto all = names(opt);
    std::string name = opt->get_lnames().empty() ? all.front() : "--" + opt->get_lnames().front();
    if (!takes_value(opt))
        return name;
    const std::string value = placeholder(opt);
    return opt->get_expected_min() == 0 ? name + " [" + value + "]" : name + " " + value;
}

/// The usage of @cmd: "partition set DEV [--compute {...}] ...", its own
/// options (not the parents').
std::vector<std::string> usage_words(const CLI::App& cmd) {
    std::vector<std::string> words{command_path(cmd)};
    const auto opts = cmd.get_options(
        [&](const CLI::Option* o) { return visible(o) && o != cmd.get_help_ptr(); });
    for (const auto* o : opts)
        if (o->get_positional())
            words.push_back(o->get_required() ? option_usage(o) : "[" + option_usage(o) + "]");
    for (const auto* o : opts)
        if (!o->get_positional())
            words.push_back(o->get_required() ? option_usage(o) : "[" + option_usage(o) + "]");
    return words;
}

/// @words on lines of at most @width columns, the first indented by
/// @indent, the others by @indent + 4.
std::string wrap(const std::vector<std::string>& words, std::size_t indent, std::size_t width) {
    std::string out(indent, ' ');
    std::size_t col = indent;
    bool first = true;
    for (const auto& w : words) {
        if (!first && col + 1 + w.size() > width) {
            out += "\n" + std::string(indent + 4, ' ');
            col = indent + 4;
            first = true;
        }
        if (!first) {
            out += ' ';
            ++col;
        }
        out += w;
        col += w.size();
        first = false;
    }
    return out + "\n";
}

/// The commands at and below @cmd that run something (those without
/// commands of their own).
std::vector<const CLI::App*> leaves(const CLI::App& cmd) {
    if (children(cmd).empty())
        return {&cmd};
    std::vector<const CLI::App*> out;
    for (const auto* sub : visible_commands(cmd))
        if (children(*sub).empty())
            out.push_back(sub);
    return out;
}

/// Whether @cmd takes devices: a DEV argument, or "[DEV]" among its ARGS.
bool has_dev(const CLI::App& cmd) {
    return std::ranges::any_of(cmd.get_options(), [](const CLI::Option* o) {
        return o->get_positional() &&
               (o->get_name() == "DEV" || o->get_description().find("[DEV]") != std::string::npos);
    });
}

/// The names of @cmds.
std::vector<std::string> command_names(const std::vector<const CLI::App*>& cmds) {
    std::vector<std::string> out;
    out.reserve(cmds.size());
    for (const auto* c : cmds)
        out.push_back(c->get_name());
    return out;
}

/// The footer of every --help: the options every command takes (for a
/// command), the grammar of the commands at and below it, the exit
/// statuses.
class HelpFormatter : public CLI::Formatter {
  public:
    std::string make_footer(const CLI::App* app) const override {
        std::string out;
        const CLI::App& root = root_of(*app);
        if (app != &root) {
            out += make_group(
                "Options of every command", false, root.get_options([&](const CLI::Option* o) {
                    return visible(o) && !o->get_positional() && o != root.get_help_ptr();
                }));
            if (!out.empty() && out.front() == '\n') // the options' group ends in one
                out.erase(0, 1);
        }
        out += "\nGrammar: amdx [OPTIONS] OBJECT [COMMAND] [ARGS]\n";
        if (app == &root)
            out += "  OBJECT := { " + join(command_names(children(root)), " | ") + " }\n";
        bool dev = false;
        for (const auto* leaf : leaves(*app)) {
            out += wrap(usage_words(*leaf), 2, 100);
            dev = dev || has_dev(*leaf);
        }
        if (dev)
            out += "  DEV := { ID | BDF | serial:SERIAL | all }[,...]   (all is the default)\n";
        out += "Exit status: 0 ok, 1 failed, 2 usage, 3 module not loaded, 4 no such device,\n"
               "  5 permission denied, 6 busy (try again), 7 not supported, 8 rolled back.\n"
               "See amdx(1).\n";
        return out;
    }
};

/// reST inline text: the characters markup would take, escaped.
std::string rst_text(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '*' || c == '`' || c == '|' || c == '_' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

std::string bash_word_list(const std::vector<std::string>& words) {
    return "\"" + join(words, " ") + "\"";
}

/// A case pattern that matches "@path:@word" for each of @words.
std::string bash_patterns(const std::string& path, const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) {
        if (!out.empty())
            out += " | ";
        out += "\"";
        out += path;
        out += ":";
        out += w;
        out += "\"";
    }
    return out;
}

} // namespace

std::vector<const CLI::App*> visible_commands(const CLI::App& app) {
    std::vector<const CLI::App*> out;
    for (const auto* sub : children(app)) {
        out.push_back(sub);
        const auto below = visible_commands(*sub);
        out.insert(out.end(), below.begin(), below.end());
    }
    return out;
}

std::string command_path(const CLI::App& cmd) {
    std::string path;
    for (const CLI::App* c = &cmd; c->get_parent() != nullptr; c = c->get_parent())
        path.insert(0, path.empty() ? c->get_name() : c->get_name() + " ");
    return path;
}

std::vector<const CLI::Option*> visible_options(const CLI::App& cmd) {
    std::vector<const CLI::Option*> out;
    for (const CLI::App* c = &cmd; c != nullptr; c = c->get_parent()) {
        for (const auto* o : c->get_options())
            if (visible(o) && !o->get_positional() && (c == &cmd || o != c->get_help_ptr()))
                out.push_back(o);
        if (!c->get_fallthrough())
            break;
    }
    return out;
}

std::string object_list(const CLI::App& app) {
    return join(command_names(children(app)), ", ");
}

void list_commands(CLI::App& app) {
    for (auto* sub : app.get_subcommands([](const CLI::App* s) { return visible(s); })) {
        list_commands(*sub);
        const std::string desc = sub->get_description();
        const auto at = desc.find(" (COMMAND: ");
        if (at != std::string::npos)
            sub->description(desc.substr(0, at) +
                             " (COMMAND: " + join(command_names(children(*sub)), ", ") + ")");
    }
}

std::shared_ptr<CLI::Formatter> help_formatter() {
    return std::make_shared<HelpFormatter>();
}

std::string bash_completion(const CLI::App& app) {
    std::vector<const CLI::App*> cmds{&app};
    const auto below = visible_commands(app);
    cmds.insert(cmds.end(), below.begin(), below.end());

    std::string walk;    // the command path and the words options take
    std::string values;  // an option's value
    std::string words;   // the commands and options at a path
    std::string devices; // the paths with a DEV argument
    std::vector<std::string> files;
    std::vector<std::string> numbers;
    for (const auto* cmd : cmds) {
        const std::string path = command_path(*cmd);
        std::vector<std::string> value_opts;
        std::vector<std::string> offered;
        for (const auto* sub : children(*cmd)) {
            offered.push_back(sub->get_name());
            walk += "\t\t" + bash_patterns(path, {sub->get_name()}) + ") path=\"" +
                    command_path(*sub) + "\" ;;\n";
        }
        for (const auto* o : visible_options(*cmd)) {
            const auto n = names(o);
            offered.insert(offered.end(), n.begin(), n.end());
            if (!takes_value(o))
                continue;
            value_opts.insert(value_opts.end(), n.begin(), n.end());
            if (const auto vs = choices(o); !vs.empty())
                values += "\t" + bash_patterns(path, n) + ")\n\t\tCOMPREPLY=($(compgen -W " +
                          bash_word_list(vs) + " -- \"$cur\"))\n\t\treturn\n\t\t;;\n";
            else if (is_number(o))
                numbers.push_back(bash_patterns(path, n));
            else
                files.push_back(bash_patterns(path, n));
        }
        for (const auto* o : cmd->get_options()) { // key=value arguments ("size=")
            if (!o->get_positional())
                continue;
            const std::string d = o->get_description();
            for (std::size_t at = d.find('='); at != std::string::npos; at = d.find('=', at + 1)) {
                std::size_t b = at;
                while (b > 0 &&
                       (std::islower(static_cast<unsigned char>(d[b - 1])) != 0 || d[b - 1] == '_'))
                    --b;
                if (b < at)
                    offered.push_back(d.substr(b, at - b + 1));
            }
        }
        if (!value_opts.empty())
            walk += "\t\t" + bash_patterns(path, value_opts) + ") ((i++)) ;;\n";
        words += "\t\"" + path + "\") opts=" + bash_word_list(offered) + " ;;\n";
        if (has_dev(*cmd))
            devices += (devices.empty() ? "" : " | ") + ("\"" + path + "\"");
    }
    // Options first: "-j" is an option at every path, whatever follows.
    std::istringstream lines(walk);
    std::string opt_arms;
    std::string cmd_arms;
    for (std::string line; std::getline(lines, line);)
        (line.find("((i++))") != std::string::npos ? opt_arms : cmd_arms) += line + "\n";

    std::string out = "# SPDX-License-Identifier: GPL-2.0-only OR MIT\n"
                      "# bash completion for amdx(1), generated from amdx's command tree\n"
                      "# (tools/amdx/tree.cpp); installed into share/bash-completion/completions.\n"
                      "_amdx_devices()\n"
                      "{\n"
                      "\tlocal ids\n"
                      "\tids=$(amdx -j dev list 2>/dev/null |\n"
                      "\t\tgrep -o '\"\\(device\\|bdf\\)\":[^,}]*' | sed 's/^[^:]*://; s/\"//g')\n"
                      "\techo \"all $ids\"\n"
                      "}\n"
                      "\n"
                      "_amdx()\n"
                      "{\n"
                      "\tlocal cur prev words cword\n"
                      "\tif declare -F _init_completion > /dev/null; then\n"
                      "\t\t_init_completion || return\n"
                      "\telse\n"
                      "\t\tcur=${COMP_WORDS[COMP_CWORD]}\n"
                      "\t\tprev=${COMP_WORDS[COMP_CWORD - 1]}\n"
                      "\t\twords=(\"${COMP_WORDS[@]}\")\n"
                      "\t\tcword=$COMP_CWORD\n"
                      "\tfi\n"
                      "\n"
                      "\t# The command typed so far (\"ras policy\"), skipping options and the\n"
                      "\t# values they take.\n"
                      "\tlocal path=\"\" i\n"
                      "\tfor ((i = 1; i < cword; i++)); do\n"
                      "\t\tcase \"$path:${words[i]}\" in\n" +
                      opt_arms + "\t\t*:-*) ;;\n" + cmd_arms +
                      "\t\tesac\n"
                      "\tdone\n"
                      "\n"
                      "\tcase \"$path:$prev\" in\n" +
                      values;
    for (const auto& f : files)
        out += "\t" + f + ") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n";
    for (const auto& n : numbers)
        out += "\t" + n + ") return ;;\n";
    out += "\tesac\n"
           "\n"
           "\tlocal opts=\"\"\n"
           "\tcase $path in\n" +
           words + "\tesac\n";
    if (!devices.empty())
        out += "\tif [[ $cur != -* ]]; then\n"
               "\t\tcase $path in\n"
               "\t\t" +
               devices + ") opts=\"$opts $(_amdx_devices)\" ;;\n" +
               "\t\tesac\n"
               "\tfi\n";
    out += "\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
           "}\n"
           "complete -F _amdx amdx\n";
    return out;
}

std::string man_commands(const CLI::App& app) {
    std::string out = "Command summary\n===============\n\n"
                      "Every command, with its arguments and options, as ``amdx COMMAND --help``\n"
                      "prints them; the options above apply to all of them.  ``exporter``,\n"
                      "``health`` and ``partition export`` are described in the admin guide's\n"
                      "``metrics.rst``, ``health.rst`` and ``scheduling.rst``.\n\n";
    for (const auto* cmd : visible_commands(app)) {
        out += "``amdx " + join(usage_words(*cmd), " ") + "``\n";
        out += "    " + rst_text(cmd->get_description()) + "\n\n";
        const auto opts = cmd->get_options(
            [&](const CLI::Option* o) { return visible(o) && o != cmd->get_help_ptr(); });
        for (const auto* o : opts)
            out += "    ``" + (o->get_positional() ? o->get_name() : join(names(o), ", ")) +
                   "``\n        " + rst_text(o->get_description()) + "\n\n";
    }
    return out;
}

} // namespace amdx::cli
