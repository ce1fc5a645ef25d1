// What a command line asks that jbench does not know, found before CLI11 parses it: CLI11 stops
// at --help before it says a command or an option is unknown, so `jbench rnu --help` and
// `jbench run --repetitons 3 --help` would print help and exit 0, and a misspelt command in a
// script would pass. An unknown command, or an option the chosen command does not have, is named
// with the nearest valid names.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "jbench/common/result.h"

namespace jbench::cli {

// Whether every command and option word is known; if not the error, e.g.
// "unknown command 'rnu' (did you mean 'run'?)". `args` are argv[1..].
Status check_known_words(CLI::App& app, const std::vector<std::string>& args);

// The valid names within a small edit distance of `word` (or that begin with it), nearest first.
std::vector<std::string> nearest_names(const std::string& word,
                                       const std::vector<std::string>& names);

}  // namespace jbench::cli
