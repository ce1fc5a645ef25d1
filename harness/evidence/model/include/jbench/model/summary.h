// runs/<id>/summary.json as a type: the figures the readers of bundles take from a run's summary
// (the cells table, the counted cells, the project's counters), read once per run by one
// function that checks each field it takes. The validator recomputes a summary from the run's raw
// records, so these figures are as good as the bundle; manifests/summary.schema.json says the
// rest of the document's shape, and a test holds every field read here to it (tests/model/).
//
//   auto summary = read_summary(json, "runs/r1/summary.json");
//   if (!summary) fail(summary.error().message);  // ".../summary.json /measure/operations: ..."
//   if (summary->operations) per_op = *summary->counted->measure_instructions / *operations;
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/model/fields.h"

namespace jbench::model {

// collectors.instructions: what counted a counted run, and its measure phase's totals.
struct CountedTotals {
  std::string source;  // "callgrind", "perf"; empty where not given
  std::optional<std::uint64_t> measure_instructions;
  // Absent where some record did not count allocation calls (older records, perf).
  std::optional<std::uint64_t> measure_allocations;
};

// collectors.counters.cells[]: one jb_counter's records in one incarnation and phase.
struct CounterCell {
  std::string phase;
  std::string name;
  double sum = 0;
};

struct Summary {
  // The run's own figures; absent in a document that lacks them (a hand-made one).
  std::optional<double> throughput_ops_per_s;
  std::optional<std::uint64_t> p50_ns;  // latency of all operations
  std::optional<std::uint64_t> p99_ns;
  std::optional<std::uint64_t> workers;  // how many workers reported
  std::optional<std::uint64_t> starved;  // of them, how many counted no operation
  std::optional<double> jain_fairness_index;
  // measure: the measured operations, the engine's own count of its work (vm_steps) and the
  // workers' own counters (result.counters), summed over the workers.
  std::optional<double> operations;
  std::optional<double> vm_steps;
  std::vector<std::pair<std::string, double>> own_counters;
  std::optional<CountedTotals> counted;    // a counted run's instructions collector
  std::vector<CounterCell> counter_cells;  // the trace bridge's jb_counter records
};

// Reads one parsed summary.json; `file` names it in errors, `log` collects the pointers read.
Result<Summary> read_summary(const nlohmann::json& doc, const std::string& file,
                             FieldLog* log = nullptr);

}  // namespace jbench::model
