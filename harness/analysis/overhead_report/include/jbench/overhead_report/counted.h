// The counted cells of a bundle (docs/trace-modes.md, "counted"): per cell, the instructions per
// operation of each successful counted run, as its summary.json holds them, with what counted
// them (each run's summary read with the runs: bundle_runs.h). Pure.
//
//   auto cells = read_counted_cells(runs.runs);   // runs: bundle_runs.h
//   if (cells) std::cout << counted_to_text(*cells);
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/overhead_report/overhead.h"

namespace jbench::overhead_report {

struct CountedCell {
  std::string cell;  // the point: "w1.persistent.mixed.small"
  std::size_t runs = 0;
  std::size_t counted = 0;                  // runs with a count (ok, their counter clean)
  std::vector<double> instructions_per_op;  // one per counted run, in the bundle's run order
  // Parallel: calls into the allocation functions per operation; none where the backend counted
  // none (perf).
  std::vector<std::optional<double>> allocations_per_op;
  std::vector<std::string> seeds;  // parallel: the runs' seeds
  std::string source;              // "callgrind (valgrind-3.19.0)"
};

// In the bundle's cell order (cell_order.h); or why a counted run's summary could not be read.
Result<std::vector<CountedCell>> read_counted_cells(const std::vector<RunFacts>& runs);

// "" when there is no counted cell.
std::string counted_to_text(const std::vector<CountedCell>& cells);
nlohmann::json counted_to_json(const std::vector<CountedCell>& cells);

}  // namespace jbench::overhead_report
