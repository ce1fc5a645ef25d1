// The project's own counters of a bundle (run_summaries/project_counters.h): per cell, trace mode
// and counter, the value per measured operation of each successful run that has it, as its
// summary.json holds it (each run's, read with the runs: bundle_runs.h). Pure.
//
//   auto rows = read_project_counters(runs.runs);   // runs: bundle_runs.h
//   if (rows) std::cout << project_counters_to_text(*rows);
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/overhead_report/overhead.h"

namespace jbench::overhead_report {

struct ProjectCounterRow {
  std::string cell;            // the point: "w1.persistent.mixed.small"
  std::string mode;            // its trace mode
  std::string counter;         // "counter:bytes_copied_per_op", "result:bytes_copied_per_op"
  std::size_t ok_runs = 0;     // successful runs of the cell and mode
  std::vector<double> values;  // one per run that has the counter, in the bundle's run order
};

// Cells in the bundle's order, then mode, then counter; or why an ok run's summary could not be
// read.
Result<std::vector<ProjectCounterRow>> read_project_counters(const std::vector<RunFacts>& runs);

// "" when no run reported a counter of its own.
std::string project_counters_to_text(const std::vector<ProjectCounterRow>& rows);
nlohmann::json project_counters_to_json(const std::vector<ProjectCounterRow>& rows);

}  // namespace jbench::overhead_report
