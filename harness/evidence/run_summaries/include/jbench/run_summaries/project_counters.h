// A project's own counters in one run, per measured operation: what the project counts of its
// own work, beside what jbench's collectors count (docs/compare.md, "The project's counters").
//
//   counter:<name>_per_op   the measure phase's jb_counter values through the trace bridge,
//                           summed over the incarnations (full runs; a clean bridge only)
//   result:<name>_per_op    a worker's `result.counters.<name>`, summed over the workers
//                           (every trace mode: the worker counts it itself)
//
// Read from the run's summary.json (typed, jbench/model/summary.h), which the validator
// recomputes from the raw records and the results, so a figure here is as good as the bundle. Pure.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "jbench/model/summary.h"

namespace jbench::run_summaries {

// metric name -> per measured operation; empty when the run measured no operation.
std::map<std::string, double> project_counters_per_op(const model::Summary& summary,
                                                      bool bridge_clean);

// Whether `metric` names a project counter: "counter:<name>_per_op" or "result:<name>_per_op".
bool is_project_counter(std::string_view metric);

}  // namespace jbench::run_summaries
