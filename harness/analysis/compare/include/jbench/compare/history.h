// `jbench history DIR`: a folder of nightly bundles as one series per cell and metric (each
// bundle's median), sorted by when each bundle started (then its source revision), with the
// change points of each series (stats/change_points.h) and the revision range each falls in.
// Bundles that are invalid, or in which a cell measured nothing, are gaps: listed, never points.
// Points of one series share what defines the cell (HistorySeries::definition). A night may also
// be a folder of bundles directly in DIR — interleaved sessions of one build — whose runs are
// pooled into one point, as `jbench compare` pools a folder; folders deeper down are not read.
//
//   History h = read_history("results/", {});
//   exit(exit_code_of(h.outcome));   // 0 no change for the worse, 1 one, 4 no verdict
#pragma once

#include <string>
#include <vector>

#include "jbench/compare/compare.h"
#include "jbench/stats/change_points.h"

namespace jbench::compare {

struct HistoryBundle {
  std::string dir;
  std::string started_utc;
  std::string revision;
  bool usable = false;     // valid, with at least one successful run
  std::string gap_reason;  // why not, when not
};

struct HistoryChange {
  std::size_t bundle = 0;     // index into History::bundles of the first bundle after the shift
  std::string from_revision;  // the last bundle before it
  std::string to_revision;
  double before = 0, after = 0;
  double ratio = 0;  // after / before
  double p = 1;
  bool worse = false;  // in the metric's bad direction
};

struct HistorySeries {
  std::string cell, metric;
  // What defined the cell's runs (the matrix's workload kind, phases and datasets, and the host's
  // class, as compare checks them), as a short hash: a night that changed any of them starts a
  // new series of the same cell and metric, never a point on the old one. Workload parameters
  // are left out: a changed setting is shown as a change point, as a change of code is.
  std::string definition;
  bool higher_is_better = true;
  std::vector<std::size_t> bundles;  // the points' bundles, in order
  std::vector<double> values;        // each bundle's median
  std::vector<HistoryChange> changes;
};

struct History {
  std::string dir;
  std::vector<HistoryBundle> bundles;  // sorted
  std::vector<HistorySeries> series;   // by cell, then metric
  CompareOutcome outcome = CompareOutcome::no_verdict;
  std::string summary;
};

History read_history(const std::string& dir, const stats::ChangePointOptions& options);

std::string history_to_text(const History& h);
nlohmann::json history_to_json(const History& h);

}  // namespace jbench::compare
