// --json and --format text|json|csv|markdown, as the commands that print tables take them
// (docs/cli.md): --json is --format json; both with another format is bad usage.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace jbench::cli {

struct OutputFormat {
  bool json = false;
  std::string format = "text";
};

void add_format_options(CLI::App& app, OutputFormat& f, const std::string& json_help,
                        const std::string& format_help);

// The format asked for; nullopt, having said why on stderr, when --json meets another --format.
std::optional<std::string> chosen_format(const OutputFormat& f);

}  // namespace jbench::cli
