#include "output_format.h"

#include <iostream>

namespace jbench::cli {

void add_format_options(CLI::App& app, OutputFormat& f, const std::string& json_help,
                        const std::string& format_help) {
  app.add_flag("--json", f.json, json_help);
  app.add_option("--format", f.format, format_help)
      ->check(CLI::IsMember({"text", "json", "csv", "markdown"}));
}

std::optional<std::string> chosen_format(const OutputFormat& f) {
  if (f.json && f.format != "text" && f.format != "json") {
    std::cerr << "jbench: error: --json and --format " << f.format << " ask for two formats\n";
    return std::nullopt;
  }
  return f.json ? std::string("json") : f.format;
}

}  // namespace jbench::cli
