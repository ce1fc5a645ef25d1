// The JSON of phase outcomes: the counts sent with warmup_done and measure_done, the full
// `result` message, and the statement classification that ready and result carry. Nanosecond values
// are decimal strings; counts are JSON integers.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "jbench/sqlite_workload/phase.h"

namespace jbench::sqlite_workload {

// Something that makes a measure phase's numbers unusable as what the run claims to be.
struct Condition {
  std::string kind;  // "lane_violation" or "phase_aborted"
  std::string message;
};

// A lane must have done what its name says: writer only writes (and did write), reader only
// reads (and did read), mixed did at least one of each. Counted operations only.
std::vector<Condition> conditions_of(const WorkerConfig& config, const PhaseStats& phase);

// Window, counts, errors and retries of a phase (no histograms): warmup_done carries these.
nlohmann::json phase_counts_json(const PhaseStats& phase);

// Every statement with its SQL, plan and classification (op_type, subquery, plan_class — the
// class its trace spans are named after): sent with ready and again in the result.
nlohmann::json statements_json(const QueryCatalog& catalog);

// The `result` message for the measure phase.
nlohmann::json result_json(const Workload& workload, const PhaseStats& measure,
                           const std::string& runtime_id);

}  // namespace jbench::sqlite_workload
