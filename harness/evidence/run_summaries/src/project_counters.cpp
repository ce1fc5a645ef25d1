#include "jbench/run_summaries/project_counters.h"

namespace jbench::run_summaries {

bool is_project_counter(std::string_view metric) {
  const bool prefixed = metric.starts_with("counter:") || metric.starts_with("result:");
  return prefixed && metric.ends_with("_per_op") && metric.find(':') + 1 < metric.size() - 7;
}

std::map<std::string, double> project_counters_per_op(const model::Summary& summary,
                                                      bool bridge_clean) {
  std::map<std::string, double> out;
  if (!summary.operations || *summary.operations <= 0) return out;
  const double ops = *summary.operations;
  for (const auto& [name, value] : summary.own_counters)
    out["result:" + name + "_per_op"] = value / ops;
  // A clean bridge with no record of a counter gives no figure for it (nothing says it exists).
  if (!bridge_clean) return out;
  std::map<std::string, double> sums;
  for (const model::CounterCell& cell : summary.counter_cells) {
    if (cell.phase == "measure") sums[cell.name] += cell.sum;
  }
  for (const auto& [name, sum] : sums) out["counter:" + name + "_per_op"] = sum / ops;
  return out;
}

}  // namespace jbench::run_summaries
