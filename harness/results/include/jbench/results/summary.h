// Summaries computed from the raw records of a run (the workers' result messages), so that a
// reader of the bundle can always recompute them and check they match. Pure functions.
//
//   nlohmann::json summary = summarize_run(results, run_doc);
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace jbench {

// One run: operations by type, reads/writes, errors by kind, retries, throughput (summed over
// workers, each over its own measure window), how evenly the workers progressed (fairness.h),
// latency per operation type merged over workers
// (count, p50/p90/p99, exact max), and CPU from the kernel's wait4 accounting of each worker.
nlohmann::json summarize_run(const std::vector<nlohmann::json>& results,
                             const nlohmann::json& run_doc);

// One line per cell over its runs: throughput median and spread (min..max), p50 and p99 latency
// of all operations (median over runs), how many runs were ok, the median of the runs' Jain
// fairness index over workers, and how many workers of the ok runs starved.
struct CellLine {
  std::string cell;
  std::size_t runs = 0;
  std::size_t ok = 0;
  std::vector<double> throughput;  // ops/s, one per ok run
  std::vector<double> p50_ns;
  std::vector<double> p99_ns;
  std::vector<double> fairness;  // Jain's index over workers, one per ok run that has one
  std::size_t worker_runs = 0;   // workers summed over the ok runs
  std::size_t starved_worker_runs = 0;
};
std::string format_cell_table(const std::vector<CellLine>& lines);

}  // namespace jbench
