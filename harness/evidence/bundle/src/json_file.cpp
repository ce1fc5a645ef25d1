#include "jbench/bundle/json_file.h"

#include <fmt/format.h>

#include <fstream>

#include "jbench/stats/decimal.h"

namespace jbench {

Result<nlohmann::json> read_json_object(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error{fmt::format("cannot read {}", path), 0, ErrorKind::input};
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return Error{fmt::format("{} is not a JSON object", path), 0, ErrorKind::input};
  }
  return j;
}

std::optional<std::uint64_t> decimal_value(const nlohmann::json& value) {
  if (!value.is_string()) return std::nullopt;
  return stats::parse_decimal_u64(value.get_ref<const std::string&>());
}

std::optional<std::uint64_t> decimal_at(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  const auto it = object.find(key);
  return it == object.end() ? std::nullopt : decimal_value(*it);
}

const nlohmann::json* collector_entry(const nlohmann::json& run, std::string_view name) {
  const auto mode = run.find("trace_mode");
  if (mode == run.end() || !mode->is_object()) return nullptr;
  const auto collectors = mode->find("collectors");
  if (collectors == mode->end() || !collectors->is_array()) return nullptr;
  for (const nlohmann::json& c : *collectors) {
    if (!c.is_object()) continue;
    const auto n = c.find("name");
    if (n != c.end() && n->is_string() && n->get_ref<const std::string&>() == name) return &c;
  }
  return nullptr;
}

}  // namespace jbench
