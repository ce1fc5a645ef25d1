#include "jbench/overhead_report/bundle_cells.h"

#include <map>

#include "jbench/overhead_report/bundle_runs.h"
#include "jbench/overhead_report/cell_order.h"

namespace jbench::overhead_report {

BundleCells read_bundle_cells(const std::string& dir) {
  BundleCells out;
  const BundleRuns runs = read_bundle_runs(dir);
  if (!runs.error.empty()) {
    out.error = runs.error;
    return out;
  }
  std::map<std::pair<std::string, std::string>, CellLine> lines;  // (point, trace) -> its line
  for (const RunFacts& r : runs.runs) {
    CellLine& line = lines[{r.cell, r.trace_name()}];
    line.cell = r.cell + "." + r.trace_name();
    line.point = r.cell;
    line.baseline = r.trace == TraceMode::baseline;
    line.counted = r.trace == TraceMode::counted;
    RunFigures figures;
    if (r.status == RunStatus::ok) {
      if (!r.summary) {  // an ok run keeps its summary: a bundle without it is broken
        out.error = r.summary_error;
        return out;
      }
      figures = figures_of(*r.summary);
    }
    line.add_run(r.status == RunStatus::ok, figures);
  }
  for (const auto& cell : ordered_cells(runs.runs)) out.lines.push_back(std::move(lines[cell]));
  return out;
}

}  // namespace jbench::overhead_report
