#include "jbench/overhead_report/bundle_cells.h"

#include <map>

#include "jbench/overhead_report/bundle_runs.h"
#include "jbench/overhead_report/cell_order.h"

namespace jbench::overhead_report {

namespace {

// The cells' lines, or why an ok run's summary could not be read.
Result<std::vector<CellLine>> cell_lines(const std::vector<RunFacts>& runs) {
  std::map<std::pair<std::string, std::string>, CellLine> lines;  // (point, trace) -> its line
  for (const RunFacts& r : runs) {
    CellLine& line = lines[{r.cell, r.trace_name()}];
    line.cell = r.cell + "." + r.trace_name();
    line.point = r.cell;
    line.baseline = r.trace == TraceMode::baseline;
    line.counted = r.trace == TraceMode::counted;
    RunFigures figures;
    if (r.status == RunStatus::ok) {
      if (!r.summary) return r.summary.error();  // an ok run keeps it
      figures = figures_of(**r.summary);
    }
    line.add_run(r.status == RunStatus::ok, figures);
  }
  std::vector<CellLine> out;
  for (const auto& cell : ordered_cells(runs)) out.push_back(std::move(lines[cell]));
  return out;
}

}  // namespace

BundleCells read_bundle_cells(const std::string& dir) {
  const JudgedRuns runs = read_bundle_runs(dir);
  if (!runs.read) return {runs.judgement.get(), runs.read.error()};
  return {runs.judgement.get(), cell_lines(runs.read->runs)};
}

}  // namespace jbench::overhead_report
