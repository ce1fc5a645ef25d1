#include "jbench/overhead_report/bundle_cells.h"

#include <map>

#include "jbench/overhead_report/bundle_runs.h"
#include "jbench/overhead_report/cell_order.h"

namespace jbench::overhead_report {

namespace {

// The cells' lines, or why an ok run's summary could not be read.
std::string cell_lines(const BundleRuns& runs, std::vector<CellLine>& out) {
  std::map<std::pair<std::string, std::string>, CellLine> lines;  // (point, trace) -> its line
  for (const RunFacts& r : runs.runs) {
    CellLine& line = lines[{r.cell, r.trace_name()}];
    line.cell = r.cell + "." + r.trace_name();
    line.point = r.cell;
    line.baseline = r.trace == TraceMode::baseline;
    line.counted = r.trace == TraceMode::counted;
    RunFigures figures;
    if (r.status == RunStatus::ok) {
      if (!r.summary) return r.summary_error;  // an ok run keeps its summary
      figures = figures_of(*r.summary);
    }
    line.add_run(r.status == RunStatus::ok, figures);
  }
  for (const auto& cell : ordered_cells(runs.runs)) out.push_back(std::move(lines[cell]));
  return "";
}

}  // namespace

BundleCells read_bundle_cells(const std::string& dir) {
  BundleCells out;
  const BundleRuns runs = read_bundle_runs(dir);
  out.error = runs.error.empty() ? cell_lines(runs, out.lines) : runs.error;
  out.validity = runs.judgement.get();
  return out;
}

}  // namespace jbench::overhead_report
