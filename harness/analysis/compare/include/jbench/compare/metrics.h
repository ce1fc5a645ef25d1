// What `jbench compare` and `jbench history` compare: one value per successful run and metric.
//
// The run's figures (throughput, latency percentiles) come from every run. The counters of the
// attribution account come per measured operation, from the collectors that recorded them, and
// only from a run in which that collector ran cleanly (status "ok", nothing dropped): a run whose
// collector was not requested, not available, failed or lost records gives no value, so that
// "not measured" never reads as zero, while a clean collector that saw no event gives a real 0.
#pragma once

#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/model/summary.h"

namespace jbench::compare {

struct MetricInfo {
  std::string_view name;
  bool higher_is_better;
  // A count that the same seed reproduces (instructions of a counted run): compared pair by pair,
  // each candidate run with the base run of its seed, against CompareOptions::counted_threshold.
  bool counted = false;
};

// The count of every system call a run made (calls only), and the same by call:
// syscall:<call>_per_op (is_call_count_metric), a row for each call either side made.
inline constexpr const char* kTracedSyscallsPerOp = "traced_syscalls_per_op";
bool is_call_count_metric(std::string_view metric);

// Every metric jbench names, in the order rows are written.
std::span<const MetricInfo> all_metrics();

// all_metrics(), then each call count (syscall:<call>_per_op) and each project counter among
// `seen` by name (counter:<name>_per_op, result:<name>_per_op: results/project_counters.h),
// lower is better unless a proposal says otherwise: the rows of a comparison whose runs reported
// those. The names point into `seen`, which must outlive the result.
std::vector<MetricInfo> metrics_with_named_counters(const std::set<std::string>& seen);
// Known metric names have their direction; an unknown one (a newer bundle) is lower-is-better
// only if it ends in _ns or _per_op.
bool higher_is_better(std::string_view metric);
// Whether only counted runs measure it (MetricInfo::counted): instructions_per_op,
// allocations_per_op.
bool is_counted_metric(std::string_view metric);

// metric -> value, for one run: its summary.json (typed: jbench/model/summary.h) and the
// collectors that ran cleanly in it (overhead_report::clean_collectors of its run.json). Values
// the run does not support (see above) are absent.
std::map<std::string, double> run_metrics(const model::Summary& summary,
                                          const std::set<std::string>& clean_collectors);

}  // namespace jbench::compare
