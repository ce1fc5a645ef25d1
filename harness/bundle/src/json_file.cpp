#include "jbench/bundle/json_file.h"

#include <fmt/format.h>

#include <fstream>

namespace jbench {

std::optional<nlohmann::json> read_json_object(const std::string& path, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = fmt::format("cannot read {}", path);
    return std::nullopt;
  }
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = fmt::format("{} is not a JSON object", path);
    return std::nullopt;
  }
  return j;
}

}  // namespace jbench
