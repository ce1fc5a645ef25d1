#include "jbench/run_summaries/fairness.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "jbench/stats/power.h"

namespace jbench {
namespace {

using Json = nlohmann::json;

Json optional_number(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

std::uint64_t count_at(const Json& r, const char* key) {
  const auto it = r.find(key);
  return it != r.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : 0;
}

}  // namespace

std::optional<double> jain_index(const std::vector<double>& values) {
  double sum = 0;
  double squares = 0;
  for (double v : values) {
    sum += v;
    squares += v * v;
  }
  if (values.empty() || squares == 0) return std::nullopt;
  return sum * sum / (static_cast<double>(values.size()) * squares);
}

Json worker_fairness(const std::vector<Json>& results) { return fairness_of(results).document; }

WorkerFairness fairness_of(const std::vector<Json>& results) {
  Json per_worker = Json::array();
  std::vector<double> throughput;
  std::size_t starved = 0;
  for (const Json& r : results) {
    const std::uint64_t operations = count_at(r, "operations");
    const auto tp = r.find("throughput_ops_per_s");
    const double ops_per_s = tp != r.end() && tp->is_number() ? tp->get<double>() : 0.0;
    throughput.push_back(ops_per_s);
    if (operations == 0) ++starved;
    Json w = {{"worker_index", r.value("worker_index", Json(nullptr))},
              {"operations", operations},
              {"throughput_ops_per_s", ops_per_s},
              {"starved", operations == 0},
              {"retries", count_at(r, "retries")}};
    // Lock waits exist only where a worker can wait on a lock (the SQLite worker).
    if (r.contains("busy_waits")) w["busy_waits"] = r["busy_waits"];
    if (r.contains("busy_wait_ns")) w["busy_wait_ns"] = r["busy_wait_ns"];
    per_worker.push_back(std::move(w));
  }
  std::optional<double> lo, hi, cv;
  if (!throughput.empty()) {
    const auto [a, b] = std::minmax_element(throughput.begin(), throughput.end());
    lo = *a;
    hi = *b;
  }
  double sum = 0;
  for (double v : throughput) sum += v;
  if (throughput.size() >= 2 && sum > 0) {
    cv = stats::coefficient_of_variation(throughput.data(), throughput.size());
  }
  const std::optional<double> jain = jain_index(throughput);
  Json document = {{"count", results.size()},
                   {"starved", starved},
                   {"throughput_min_ops_per_s", optional_number(lo)},
                   {"throughput_max_ops_per_s", optional_number(hi)},
                   {"throughput_cv", optional_number(cv)},
                   {"jain_fairness_index", optional_number(jain)},
                   {"per_worker", std::move(per_worker)}};
  return {std::move(document), results.size(), starved, jain};
}

}  // namespace jbench
