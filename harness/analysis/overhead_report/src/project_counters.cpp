#include "jbench/overhead_report/project_counters.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "jbench/overhead_report/cell_order.h"
#include "jbench/run_summaries/project_counters.h"
#include "jbench/stats/median.h"

namespace jbench::overhead_report {

using Json = nlohmann::json;

Result<std::vector<ProjectCounterRow>> read_project_counters(const std::vector<RunFacts>& runs) {
  // (cell, mode) -> counter -> row; and the ok runs of each (cell, mode).
  std::map<std::pair<std::string, std::string>, std::map<std::string, ProjectCounterRow>> found;
  std::map<std::pair<std::string, std::string>, std::size_t> ok_runs;
  for (const RunFacts& r : runs) {
    if (r.status != RunStatus::ok) continue;
    ++ok_runs[{r.cell, r.trace_name()}];
    if (!r.summary) return r.summary.error();
    const bool bridge_clean = r.clean_collectors.count("bridge") > 0;
    for (const auto& [counter, value] :
         run_summaries::project_counters_per_op(**r.summary, bridge_clean)) {
      ProjectCounterRow& row = found[{r.cell, r.trace_name()}][counter];
      row.cell = r.cell;
      row.mode = r.trace_name();
      row.counter = counter;
      row.values.push_back(value);
    }
  }
  std::vector<ProjectCounterRow> out;
  for (const auto& cell_mode : ordered_cells(runs)) {
    const auto it = found.find(cell_mode);
    if (it == found.end()) continue;
    for (auto& [counter, row] : it->second) {
      row.ok_runs = ok_runs[cell_mode];
      out.push_back(std::move(row));
    }
  }
  return out;
}

std::string project_counters_to_text(const std::vector<ProjectCounterRow>& rows) {
  if (rows.empty()) return {};
  std::string out = fmt::format(
      "\nThe project's own counters, per measured operation (docs/report.md, \"Counters\")\n"
      "counter: its jb_counter calls through the trace bridge (full runs); result: what its "
      "workers reported\n\n{:<44} {:<12} {:<36} {:>7} {:>12} {:>24}\n",
      "cell", "mode", "counter", "runs", "median", "min..max");
  for (const ProjectCounterRow& r : rows) {
    const auto [lo, hi] = std::minmax_element(r.values.begin(), r.values.end());
    out += fmt::format("{:<44} {:<12} {:<36} {:>7} {:>12.4g} {:>24}\n", r.cell, r.mode, r.counter,
                       fmt::format("{}/{}", r.values.size(), r.ok_runs), *stats::median(r.values),
                       fmt::format("{:.4g}..{:.4g}", *lo, *hi));
  }
  return out;
}

Json project_counters_to_json(const std::vector<ProjectCounterRow>& rows) {
  Json out = Json::array();
  for (const ProjectCounterRow& r : rows) {
    out.push_back({{"cell", r.cell},
                   {"mode", r.mode},
                   {"counter", r.counter},
                   {"ok_runs", r.ok_runs},
                   {"per_op", r.values},
                   {"median_per_op", *stats::median(r.values)}});
  }
  return out;
}

}  // namespace jbench::overhead_report
