// How evenly a run's workers progressed in the measure phase: under lock contention some
// workers starve (commit nothing in the window), and that is a result a user runs 32 workers to
// see, not a broken run. Pure: the runner writes it into summary.json, the validator recomputes.
//
//   nlohmann::json w = worker_fairness(results);   // summary["workers"]
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace jbench {

// Jain's fairness index (sum x)^2 / (n * sum x^2) of non-negative values: 1 when all are equal,
// 1/n when one value holds everything. nullopt for no values or when every value is 0 (nothing
// progressed, so there is nothing to share out).
std::optional<double> jain_index(const std::vector<double>& values);

// From the workers' result messages: each worker's operations, throughput, whether it starved
// (counted no operation), its busy waits and retries; then the count of starved workers, the
// throughput min/max, coefficient of variation (null below two workers) and Jain's index.
struct WorkerFairness {
  nlohmann::json document;  // summary["workers"]
  std::size_t workers = 0;
  std::size_t starved = 0;  // workers that completed no operation
  std::optional<double> jain_fairness_index;
};
WorkerFairness fairness_of(const std::vector<nlohmann::json>& results);
// fairness_of(results).document.
nlohmann::json worker_fairness(const std::vector<nlohmann::json>& results);

}  // namespace jbench
