#include "jbench/run_summaries/project_counters.h"

namespace jbench::run_summaries {
namespace {

using Json = nlohmann::json;

const Json& member(const Json& j, const char* key) {
  static const Json none;
  if (!j.is_object()) return none;
  const auto it = j.find(key);
  return it == j.end() ? none : *it;
}

}  // namespace

bool is_project_counter(std::string_view metric) {
  const bool prefixed = metric.starts_with("counter:") || metric.starts_with("result:");
  return prefixed && metric.ends_with("_per_op") && metric.find(':') + 1 < metric.size() - 7;
}

std::map<std::string, double> project_counters_per_op(const Json& summary, bool bridge_clean) {
  std::map<std::string, double> out;
  const Json& operations = member(member(summary, "measure"), "operations");
  if (!operations.is_number() || operations.get<double>() <= 0) return out;
  const double ops = operations.get<double>();
  if (const Json& own = member(member(summary, "measure"), "counters"); own.is_object()) {
    for (const auto& [name, value] : own.items()) {
      if (value.is_number()) out["result:" + name + "_per_op"] = value.get<double>() / ops;
    }
  }
  // A clean bridge with no record of a counter gives no figure for it (nothing says it exists).
  if (!bridge_clean) return out;
  std::map<std::string, double> sums;
  for (const Json& cell : member(member(member(summary, "collectors"), "counters"), "cells")) {
    const Json& name = member(cell, "name");
    const Json& sum = member(cell, "sum");
    if (member(cell, "phase") != "measure" || !name.is_string() || !sum.is_number()) continue;
    sums[name.get<std::string>()] += sum.get<double>();
  }
  for (const auto& [name, sum] : sums) out["counter:" + name + "_per_op"] = sum / ops;
  return out;
}

}  // namespace jbench::run_summaries
