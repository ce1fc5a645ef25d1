#include "jbench/compare/aa_thresholds.h"

#include <fmt/format.h>

#include <algorithm>

namespace jbench::compare {
namespace {

using Json = nlohmann::json;

// Why `doc` cannot be read as A/A noise; "" when it can.
std::string not_aa(const Json& doc) {
  if (!doc.is_object() || doc.value("schema", "") != "jbench.compare_report") {
    return "not a jbench compare report (jbench compare --json)";
  }
  if (!doc.contains("rows") || !doc["rows"].is_array()) return "a compare report without rows";
  for (const char* key : {"build_differences", "setting_differences"}) {
    if (doc.contains(key) && doc[key].is_array() && !doc[key].empty()) {
      return fmt::format("its two sides differ ({}: {}): not an A/A comparison", key,
                         doc[key][0].is_string() ? doc[key][0].get<std::string>() : "...");
    }
  }
  return {};
}

}  // namespace

AaThresholds thresholds_from_aa(const std::vector<std::pair<std::string, Json>>& reports,
                                double floor) {
  AaThresholds out;
  for (const auto& [file, doc] : reports) {
    if (const std::string why = not_aa(doc); !why.empty()) {
      out.problems.push_back(fmt::format("{}: {}", file, why));
      continue;
    }
    for (const Json& row : doc["rows"]) {
      if (!row.is_object() || !row.contains("metric") || !row["metric"].is_string()) continue;
      const Json& lo = row.contains("ci_low") ? row["ci_low"] : Json();
      const Json& hi = row.contains("ci_high") ? row["ci_high"] : Json();
      if (!lo.is_number() || !hi.is_number()) continue;  // too few runs for an interval
      const double strayed = std::max(1.0 - lo.get<double>(), hi.get<double>() - 1.0);
      double& t = out.thresholds.try_emplace(row["metric"].get<std::string>(), floor).first->second;
      t = std::max(t, strayed);
      ++out.rows;
    }
  }
  return out;
}

}  // namespace jbench::compare
