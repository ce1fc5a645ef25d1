// One cell and trace mode: the repetitions' measure-phase accounts pooled into shares with
// intervals, the ranking, the observer and the noise floor. Private to jbench::attribution.
#pragma once

#include <optional>
#include <vector>

#include "jbench/attribution/analysis.h"

namespace jbench::attribution {

struct CellInputs {
  std::string cell;
  std::string mode;
  std::vector<const RunAccount*> runs;  // this cell's ok runs of `mode`
  const overhead_report::ModeOverhead* overhead = nullptr;
  std::vector<double> baseline_throughput;  // the cell's baseline runs
};

CellAttribution analyse_cell(const CellInputs& in);

// The rest's label where the off-CPU parts were traced: what is left was on a CPU.
inline constexpr const char* kRestOnCpu =
    "rest: on a CPU outside traced calls (user code, untraced calls)";
// The rest's share above which the sentence says how much no part names.
inline constexpr double kRestWorthSaying = 0.05;
// The same where the spans took their own time out of it: what is left is outside every span.
inline constexpr const char* kRestOnCpuOutsideSpans =
    "rest: on a CPU outside every span and traced call";

// The per-operation cost of one cell and mode by label, for the scaling: each part, the rest, and
// the scheduler's states (which overlap them).
std::vector<std::pair<std::string, double>> ns_per_op_by_label(const CellAttribution& cell);
inline constexpr const char* kSchedulerOnCpu = "scheduler: on-CPU";
inline constexpr const char* kSchedulerRunnable = "scheduler: runnable (waiting for a CPU)";
inline constexpr const char* kSchedulerBlocked = "scheduler: blocked";

// The plain-words sentence (sentence.cpp).
std::string dominant_sentence(const CellAttribution& cell);

// The cell's line of the overview (overview.cpp).
OverviewRow overview_row(const CellAttribution& cell);

}  // namespace jbench::attribution
