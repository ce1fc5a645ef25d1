// `jbench compare`: is the candidate bundle faster, slower, the same as the base — or is there
// not enough evidence to say? Pure over two CompareSides (compare_side.h reads them).
//
//   Comparison c = compare_bundles(read_compare_side(base), read_compare_side(cand), {});
//   exit(exit_code_of(c.outcome));   // 0 no regression, 1 a regression, 4 no verdict, 2 refused
//
// Per cell (a point of the matrix, trace mode included) and metric (throughput, p50, p99, and the
// attribution account's counters per operation where a collector recorded them: metrics.h):
// the ratio of the candidate's median to the base's with a 2000-resample bootstrap interval
// (both sides resampled, seeded per cell), the Mann–Whitney rank test, the base's coefficient
// of variation (the noise floor) and the smallest change these repetitions can see. The
// p-values of every cell × metric are adjusted together (Benjamini–Hochberg), then each gets
// one verdict:
// - regressed / improved: the adjusted p is at most `fdr`, the interval excludes 1, and the
//   change is at least `threshold` (a real but smaller shift is no verdict: it says so);
// - same: the interval lies within ±`threshold` and the smallest detectable change is within it
//   too — evidence of no change that matters, not the absence of evidence;
// - unknown: neither; the row says how many repetitions would settle it.
// A counter at 0 in every run of both sides is `same` ("no event observed"); one whose base
// median is 0 has no ratio and is judged by the rank test alone.
// A counted metric (instructions per operation of counted runs: the same seed executes the same
// operations) is compared pair by pair instead: each candidate run against the base run of its
// seed, Student's t on the pairs' log ratios, its interval, against `counted_threshold`.
// What cannot be compared is refused, with the keys that differ: a different workload or phase
// or dataset definition, another class of host, another workload binary or other workload
// parameters unless allowed.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "jbench/common/exit_code.h"
#include "jbench/common/table.h"
#include "jbench/compare/compare_side.h"

namespace jbench::compare {

enum class Verdict { regressed, improved, same, unknown };
const char* to_string(Verdict v);

struct CompareOptions {
  double fdr = 0.05;        // the false discovery rate across all cells × metrics
  double threshold = 0.03;  // a change smaller than this (relative) is "the same"
  // The same for counted metrics (MetricInfo::counted), compared pair by pair: a count the same
  // seed reproduces to the instruction can decide far below wall time's threshold.
  double counted_threshold = 0.005;
  // A duet: the two sides ran at once (on disjoint CPUs, docs/compare.md "Duet"), and each base
  // run is compared with the candidate run that measured beside it, pair by pair, so that what the
  // host did to both cancels. Rows without such pairs say so.
  bool pair_by_time = false;
  // A metric's own threshold, over `threshold` and `counted_threshold` for that metric: its
  // measured A/A noise (aa_thresholds.h), so that a quiet count can decide below wall time's.
  std::map<std::string, double> metric_thresholds;
  bool allow_different_build = false;
  // Workload parameters may differ (two settings of one workload, as a proposal compares); the
  // differences are listed. Phases and datasets must still be the same.
  bool allow_different_settings = false;
  std::size_t resamples = 2000;
};

struct MetricRow {
  std::string cell;    // "w1.persistent.writer.small.baseline"
  std::string metric;  // "throughput_ops_per_s", "p50_ns", … (metrics.h)
  bool higher_is_better = true;
  std::size_t n_base = 0, n_candidate = 0;  // runs with the metric
  // What one observation of the test is. A side that pools sessions (compare_side.h) is compared
  // session by session — each session's median is one observation, and the interval resamples
  // sessions, then runs within them — because runs of one session share its state of the host:
  // counted as independent, they would make a session's shift look like evidence. Otherwise
  // each run is one. `units_*` count them.
  bool by_session = false;
  // A counted metric: each candidate run paired with the base run of the same seed, and the test,
  // the interval and the detectable change are over the pairs' ratios (stats/paired_test.h);
  // units_* then count pairs.
  bool paired = false;
  std::string paired_by;  // "seed" (a counted metric) or "time" (--pair-by-time: a duet)
  std::size_t units_base = 0, units_candidate = 0;
  double threshold = 0;  // the threshold this row was judged against
  // The samples themselves, one per run with the metric, in the bundle's run order: the row's
  // evidence, so that a reader (or a later simulation) need not reopen the bundles.
  std::vector<double> base_values, candidate_values;
  double base_median = 0, candidate_median = 0;
  std::optional<double> ratio;  // candidate median / base median
  std::optional<double> ci_low, ci_high;
  double u = 0;
  double p = 1;  // the rank test's two-sided p
  double q = 1;  // adjusted across the comparison
  bool exact = false;
  bool none_observed = false;        // a counter at 0 in every run of both sides
  double base_cv = 0;                // the noise floor: the base's spread
  std::optional<double> detectable;  // the smallest relative change these runs can see
  Verdict verdict = Verdict::unknown;
  std::string reason;                             // why unknown, in words
  std::optional<std::size_t> repetitions_needed;  // units per side, to see `threshold`
};

enum class CompareOutcome { no_regression, regression, no_verdict, refused };
const char* to_string(CompareOutcome o);
// What `jbench compare` (and history) exits with: 0, 1, 4 (no verdict) or 2 (refused).
ExitCode exit_code_of(CompareOutcome o);

struct Comparison {
  std::string base, candidate;
  std::vector<std::string> base_bundles, candidate_bundles;  // pooled sides' members
  CompareOptions options;
  std::vector<std::string> refusals;      // why nothing was compared (keys named)
  std::vector<std::string> invalid;       // per side, why it is not evidence
  std::vector<std::string> only_in_base;  // cells one side has and the other not
  std::vector<std::string> only_in_candidate;
  std::vector<std::string> build_differences;    // the workload binaries' provenance diff
  std::vector<std::string> setting_differences;  // workload parameters, when allowed
  std::vector<MetricRow> rows;                   // by cell, then metric
  CompareOutcome outcome = CompareOutcome::no_verdict;
  std::string summary;  // one sentence
  // Set when every cell moved the same way: most rows of at least three cells have a verdict and
  // all of those say the same thing (all worse, or all better), unplanted lanes included. A
  // change of code can do that, but so can the host between two sessions (docs/nightly.md,
  // "Calibration"): the note says so, and the verdicts stand.
  std::string common_shift;
};

Comparison compare_bundles(const CompareSide& base, const CompareSide& candidate,
                           const CompareOptions& options);

std::string comparison_to_text(const Comparison& c);
nlohmann::json comparison_to_json(const Comparison& c);

// One row per cell × metric, in the comparison's order, for --format csv|markdown: the metric's
// unit, both medians, the ratio with its interval as two columns, p and q, the verdict and the
// smallest change these runs could see (docs/compare.md).
Table comparison_table(const Comparison& c);

}  // namespace jbench::compare
