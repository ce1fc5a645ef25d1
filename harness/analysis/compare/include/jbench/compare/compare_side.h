// One side of a comparison, read from its bundle: whether it is valid evidence (the validator's
// findings when not), what defines its cells (the matrix), where it ran (the host), what ran
// (the workload binaries, the jbench revision), and each cell's samples — one value per
// successful run and metric. Bundle I/O only; compare.h is pure over it.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "jbench/matrix/matrix.h"
#include "jbench/model/documents.h"

namespace jbench::compare {

struct SideCell {
  std::size_t runs = 0;  // planned runs of the cell that ran (ok or not)
  std::size_t ok = 0;
  std::map<std::string, std::vector<double>> metrics;  // metric -> one value per ok run
  // metric -> which session (index into CompareSide::bundles) each value came from, parallel to
  // `metrics`; empty for a single bundle: one session.
  std::map<std::string, std::vector<std::size_t>> sessions;
  // metric -> the seed of the run each value came from, parallel to `metrics`: a counted metric
  // is compared pair by pair, each candidate run with the base run of its seed (compare.h).
  std::map<std::string, std::vector<std::string>> seeds;
  // metric -> the measure window (CLOCK_MONOTONIC ns) of the run each value came from, parallel to
  // `metrics`; (0, 0) when not recorded. With --pair-by-time, runs of the two sides that measured
  // at once are compared pair by pair (a duet, compare.h).
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> windows;
  // The system calls of each run whose syscall collector ran cleanly, by call, per operation
  // (syscall:<call>_per_op), parallel to metrics["traced_syscalls_per_op"]. A call a run did not
  // make is absent here; complete_call_counts turns it into that run's measured zero.
  std::vector<std::map<std::string, double>> calls;
  // What counted its counted runs (summary.json collectors.instructions.source: "callgrind",
  // "perf"): counts of two different counters are never compared.
  std::set<std::string> counter_sources;
};

struct CompareSide {
  std::string dir;
  // A side may be a folder of bundles of one matrix, run by one build on one class of host —
  // sessions interleaved with another build's, say. Their runs are pooled: `bundles` names them
  // (empty for a single bundle). A folder whose bundles differ in any of that is not one side.
  std::vector<std::string> bundles;
  // Why the directory could not be read as a bundle; unset when it could. A side that cannot be
  // read is still a side: the comparison gives no verdict on it and says why.
  std::optional<std::string> unreadable;
  bool valid = false;
  std::vector<std::string> findings;  // the validator's, when not valid
  std::optional<Matrix> matrix;
  model::Host host;                         // manifest.json /host
  std::set<std::string> workload_binaries;  // "sha256 path" of every workload executable
  std::string jbench_revision;
  std::string started_utc;                // manifest.json /started_utc
  std::map<std::string, SideCell> cells;  // by cell ("<point>.<trace>")
  // The same cells in the bundle's order (report/cell_order.h: the matrix's axis order, the
  // baseline first); a side built by hand may leave it empty (then the map's order).
  std::vector<std::string> cell_order;
};

// A bundle directory, or a folder of bundle directories (each with a manifest.json) to pool.
// Its per-call counts are completed with the calls it made (complete_call_counts).
CompareSide read_compare_side(const std::string& dir);

// The per-call metrics (syscall:<call>_per_op) any run of `side` reported.
std::set<std::string> call_count_metrics(const CompareSide& side);
// Gives every cell a sample of each metric in `names` for every run with a clean syscall
// collector: its count, or 0 when it did not make that call — so a call only one side (or one
// run) made is compared against measured zeros, not against nothing. Idempotent; a later call
// with more names (the other side's) adds their rows.
void complete_call_counts(CompareSide& side, const std::set<std::string>& names);

// The bundles directly inside `dir` (directories with a manifest.json, names starting with "."
// — staging and scratch — left out), sorted by path.
std::vector<std::string> bundles_in(const std::string& dir);

}  // namespace jbench::compare
