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

}  // namespace jbench
