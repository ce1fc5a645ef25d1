// Summaries computed from the raw records of a run (the workers' result messages), so that a
// reader of the bundle can always recompute them and check they match. Pure functions.
//
//   RunSummary s = summarize(results, run_doc);   // s.document is summary.json
//   line.add_ok_run(s.figures);                    // the cell table reads the typed figures
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jbench/common/table.h"
#include "jbench/model/summary.h"

namespace jbench {

// One run: operations by type, reads/writes, errors by kind, retries, throughput (summed over
// workers, each over its own measure window), how evenly the workers progressed (fairness.h),
// latency per operation type merged over workers
// (count, p50/p90/p99, exact max), and CPU from the kernel's wait4 accounting of each worker.
// The figures of a run the session's cell table shows, as they were computed for the document.
struct RunFigures {
  double throughput_ops_per_s = 0;
  std::optional<std::uint64_t> p50_ns;  // all operations
  std::optional<std::uint64_t> p99_ns;
  std::optional<double> jain_fairness_index;
  std::size_t workers = 0;
  std::size_t starved = 0;
};
struct RunSummary {
  nlohmann::json document;  // summary.json (without "collectors", which the run loop adds)
  RunFigures figures;
};
RunSummary summarize(const std::vector<nlohmann::json>& results, const nlohmann::json& run_doc);
// The figures of a summary.json read (jbench/model/summary.h), as summarize() computed them with
// it: what a report reads back from a bundle. A figure the document lacks reads as absent, or 0.
RunFigures figures_of(const model::Summary& summary);
// summarize(results, run_doc).document.
nlohmann::json summarize_run(const std::vector<nlohmann::json>& results,
                             const nlohmann::json& run_doc);

// One line per cell over its runs: throughput median and spread (min..max), p50 and p99 latency
// of all operations (median over runs), how many runs were ok, the median of the runs' Jain
// fairness index over workers, and how many workers of the ok runs starved.
struct CellLine {
  std::string cell;
  std::string point;      // the cell without its trace mode: its traced rows' baseline is here
  bool baseline = false;  // the untraced run of its point
  // A counted cell: its times are the counting runtime's, so the table shows only their cost
  // against the baseline (`vs base`), never them as performance.
  bool counted = false;
  std::size_t runs = 0;
  std::size_t ok = 0;
  std::vector<double> throughput;  // ops/s, one per ok run
  std::vector<double> p50_ns;
  std::vector<double> p99_ns;
  std::vector<double> fairness;  // Jain's index over workers, one per ok run that has one
  std::size_t worker_runs = 0;   // workers summed over the ok runs
  std::size_t starved_worker_runs = 0;

  // Counts one run of the cell; only an ok run's figures enter the medians.
  void add_run(bool ok, const RunFigures& figures);
};
// The table `jbench run` prints, one row per line in the order given; a traced row's `vs base` is
// its point's baseline median throughput over its own (×1.20: 20% slower), "-" without one.
std::string format_cell_table(const std::vector<CellLine>& lines);
// The same rows as figures, for --format csv|markdown (docs/report.md, "The cells table"): units in
// the column names, the throughput's spread as two columns, nothing left out for want of width.
Table cell_table(const std::vector<CellLine>& lines);

}  // namespace jbench
