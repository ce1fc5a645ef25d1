#include "jbench/run_summaries/result_rules.h"

#include <fmt/format.h>

#include "jbench/schema/json_schema.h"

namespace jbench::run_summaries {
namespace {

using Json = nlohmann::json;

std::uint64_t count_of(const Json& v) {
  return v.is_number_unsigned() ? v.get<std::uint64_t>() : 0;
}

// Each type's count, summed; and each type's latency histogram holding as many values.
void check_by_type(const Json& r, std::uint64_t operations, std::vector<std::string>& out) {
  std::uint64_t sum = 0;
  for (const auto& [type, n] : r["operations_by_type"].items()) {
    sum += count_of(n);
    const Json* histogram = r["latency_ns"].contains(type) ? &r["latency_ns"][type] : nullptr;
    if (count_of(n) > 0 &&
        (!histogram || count_of(histogram->value("count", Json())) != count_of(n))) {
      out.push_back(fmt::format("latency_ns.{} does not count the {} operations of its type", type,
                                count_of(n)));
    }
  }
  if (sum != operations) {
    out.push_back(
        fmt::format("operations_by_type adds up to {}, operations says {}", sum, operations));
  }
}

}  // namespace

std::vector<std::string> result_problems(const Json& result, const Json& hello,
                                         const Asked& asked) {
  std::vector<std::string> out;
  // Compiled once: jbench run checks every worker's result of every run.
  static const auto schema = JsonSchema::builtin("worker-result.schema.json");
  if (!schema) return {"the result schema cannot be read: " + schema.error().message};
  for (const auto& v : schema->validate(result)) {
    out.push_back(fmt::format("{}: {}", v.pointer.empty() ? "/" : v.pointer, v.message));
    if (out.size() == 5) break;
  }
  if (!out.empty()) return out;  // the checks below read the fields the schema requires
  if (result["status"] != "ok") out.push_back("status is " + result["status"].dump());
  if (result["runtime_id"] != hello.value("runtime_id", Json())) {
    out.push_back("runtime_id is not the hello's");
  }
  if (result["lane"] != asked.lane || result["connection"] != asked.connection) {
    out.push_back(fmt::format("lane and connection are {} and {}, {} and {} were configured",
                              result["lane"].dump(), result["connection"].dump(), asked.lane,
                              asked.connection));
  }
  const std::uint64_t operations = count_of(result["operations"]);
  if (asked.operations && operations != *asked.operations) {
    out.push_back(
        fmt::format("{} operations counted, {} were asked for", operations, *asked.operations));
  }
  if (count_of(result["reads"]) + count_of(result["writes"]) != operations) {
    out.push_back(fmt::format("reads ({}) and writes ({}) do not add up to operations ({})",
                              count_of(result["reads"]), count_of(result["writes"]), operations));
  }
  if (asked.lane == "reader" && count_of(result["writes"]) > 0) {
    out.push_back("a reader counted writes");
  }
  check_by_type(result, operations, out);
  return out;
}

}  // namespace jbench::run_summaries
