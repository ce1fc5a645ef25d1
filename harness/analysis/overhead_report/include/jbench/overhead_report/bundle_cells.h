// A bundle's cells table, read back from it: one line per cell (point and trace mode) in the
// bundle's order (cell_order.h), its runs counted from the manifest and its ok runs' figures from
// their summary.json — the table `jbench run` printed at the end of the session.
#pragma once

#include <string>
#include <vector>

#include "jbench/bundle/bundle_validity.h"
#include "jbench/common/result.h"
#include "jbench/run_summaries/summary.h"

namespace jbench::overhead_report {

struct BundleCells {
  BundleValidity validity;              // judged either way (bundle_runs.h)
  Result<std::vector<CellLine>> lines;  // or why the bundle could not be read
};

BundleCells read_bundle_cells(const std::string& bundle_dir);

}  // namespace jbench::overhead_report
