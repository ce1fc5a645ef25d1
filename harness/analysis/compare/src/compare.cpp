#include "jbench/compare/compare.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "compatibility.h"
#include "jbench/common/random.h"
#include "jbench/compare/metrics.h"
#include "jbench/stats/bootstrap.h"
#include "jbench/stats/fdr.h"
#include "jbench/stats/median.h"
#include "jbench/stats/paired_test.h"
#include "jbench/stats/power.h"
#include "jbench/stats/rank_test.h"

namespace jbench::compare {

namespace {

constexpr std::size_t kMinRepetitions = 3;  // fewer per side: no verdict, only a count

// A side's values grouped by session (SideCell::sessions; none given: one session).
std::vector<std::vector<double>> by_session(const std::vector<double>& values,
                                            const std::vector<std::size_t>& sessions) {
  std::map<std::size_t, std::vector<double>> groups;
  for (std::size_t i = 0; i < values.size(); ++i) {
    groups[i < sessions.size() ? sessions[i] : 0].push_back(values[i]);
  }
  std::vector<std::vector<double>> out;
  for (auto& [session, v] : groups) out.push_back(std::move(v));
  return out;
}

std::vector<double> session_medians(const std::vector<std::vector<double>>& groups) {
  std::vector<double> out;
  for (const auto& g : groups) out.push_back(*stats::median(g));
  return out;
}

// One side's samples of a metric in a cell, with what each came from (SideCell).
struct Samples {
  const std::vector<double>& values;
  const std::vector<std::size_t>& sessions;
  const std::vector<std::string>& seeds;
  const std::vector<std::pair<std::uint64_t, std::uint64_t>>& windows;
};

// Candidate / base for each base run whose seed a candidate run has (each run used once; a
// pooled side may hold a seed once per session).
std::vector<double> ratios_by_seed(const Samples& base, const Samples& cand) {
  std::vector<double> ratios;
  std::vector<bool> used(cand.values.size(), false);
  for (std::size_t i = 0; i < base.values.size() && i < base.seeds.size(); ++i) {
    if (base.seeds[i].empty() || base.values[i] <= 0) continue;
    for (std::size_t j = 0; j < cand.values.size() && j < cand.seeds.size(); ++j) {
      if (used[j] || cand.seeds[j] != base.seeds[i]) continue;
      used[j] = true;
      ratios.push_back(cand.values[j] / base.values[i]);
      break;
    }
  }
  return ratios;
}

std::uint64_t overlap(std::pair<std::uint64_t, std::uint64_t> a,
                      std::pair<std::uint64_t, std::uint64_t> b) {
  const std::uint64_t start = std::max(a.first, b.first), end = std::min(a.second, b.second);
  return end > start ? end - start : 0;
}

// Candidate / base for each base run that a candidate run measured beside (a duet): the unused
// candidate run whose measure window overlaps the base run's most, by at least half the shorter
// of the two. Both sides on one host read one CLOCK_MONOTONIC.
std::vector<double> ratios_by_time(const Samples& base, const Samples& cand) {
  std::vector<double> ratios;
  std::vector<bool> used(cand.values.size(), false);
  for (std::size_t i = 0; i < base.values.size() && i < base.windows.size(); ++i) {
    const auto b = base.windows[i];
    if (b.second <= b.first || base.values[i] <= 0) continue;
    std::optional<std::size_t> best;
    std::uint64_t best_overlap = 0;
    for (std::size_t j = 0; j < cand.values.size() && j < cand.windows.size(); ++j) {
      const auto c = cand.windows[j];
      if (used[j] || c.second <= c.first) continue;
      const std::uint64_t o = overlap(b, c);
      const std::uint64_t shorter = std::min(b.second - b.first, c.second - c.first);
      if (2 * o >= shorter && o > best_overlap) {
        best = j;
        best_overlap = o;
      }
    }
    if (!best) continue;
    used[*best] = true;
    ratios.push_back(cand.values[*best] / base.values[i]);
  }
  return ratios;
}

// A row's test, interval and reach over its pairs' ratios (see compare.h): a counted metric's
// runs of one seed, or a duet's runs that measured at once.
void compare_pairs(MetricRow& row, const std::vector<double>& ratios, double threshold,
                   const char* by) {
  row.paired = true;
  row.paired_by = by;
  row.threshold = threshold;
  row.units_base = row.units_candidate = ratios.size();
  if (ratios.empty()) {
    row.reason =
        row.paired_by == "seed"
            ? "no candidate run has the seed of a base run: a counted metric compares the runs "
              "of one seed (run both sides from matrices with the same seed)"
            : "no candidate run measured while a base run did: --pair-by-time compares runs "
              "that ran at once (a duet: docs/compare.md)";
    return;
  }
  const stats::PairedTest t = stats::paired_log_ratio_test(ratios);
  row.repetitions_needed = stats::pairs_needed(t.sd_log, threshold);
  if (t.pairs == 0) return;
  row.ratio = t.ratio;
  row.ci_low = t.ci_low;
  row.ci_high = t.ci_high;
  row.p = t.p_two_sided;
  row.exact = false;
  row.base_cv = t.sd_log;  // the noise floor: how much the pairs' ratios spread
  row.detectable = t.detectable;
}

MetricRow compare_metric(const std::string& cell, const MetricInfo& m, const Samples& b,
                         const Samples& c, const CompareOptions& o) {
  const std::vector<double>& base = b.values;
  const std::vector<double>& cand = c.values;
  MetricRow row;
  row.cell = cell;
  const auto own = o.metric_thresholds.find(std::string(m.name));
  row.threshold = own != o.metric_thresholds.end() ? own->second
                  : m.counted                      ? o.counted_threshold
                                                   : o.threshold;
  row.metric = std::string(m.name);
  row.higher_is_better = m.higher_is_better;
  row.n_base = base.size();
  row.base_values = base;
  row.candidate_values = cand;
  row.n_candidate = cand.size();
  if (base.empty() || cand.empty()) {
    row.reason = fmt::format(
        "no run of the {} has this metric (none succeeded, or its collector did not run cleanly)",
        base.empty() ? "base" : "candidate");
    return row;
  }
  auto zero = [](double v) { return v == 0; };
  row.none_observed =
      std::all_of(base.begin(), base.end(), zero) && std::all_of(cand.begin(), cand.end(), zero);
  row.base_median = *stats::median(base);
  row.candidate_median = *stats::median(cand);
  if (m.counted) {
    compare_pairs(row, ratios_by_seed(b, c), row.threshold, "seed");
    return row;
  }
  if (o.pair_by_time) {
    compare_pairs(row, ratios_by_time(b, c), row.threshold, "time");
    return row;
  }
  if (row.base_median != 0) row.ratio = row.candidate_median / row.base_median;
  const auto base_groups = by_session(base, b.sessions), cand_groups = by_session(cand, c.sessions);
  row.by_session = base_groups.size() > 1 || cand_groups.size() > 1;
  // The test's observations: every run, or each session's median (see MetricRow::by_session).
  const std::vector<double> tb = row.by_session ? session_medians(base_groups) : base;
  const std::vector<double> tc = row.by_session ? session_medians(cand_groups) : cand;
  row.units_base = tb.size();
  row.units_candidate = tc.size();
  row.base_cv = stats::coefficient_of_variation(tb.data(), tb.size());
  const double cand_cv = stats::coefficient_of_variation(tc.data(), tc.size());
  const double cv = std::max(row.base_cv, cand_cv);
  stats::RankTest t = stats::mann_whitney_u(tb, tc);
  row.u = t.u;
  row.p = t.p_two_sided;
  row.exact = t.exact;
  if (tb.size() >= 2 && tc.size() >= 2 && row.ratio) {
    const std::uint64_t seed = fnv1a64(cell + "/" + row.metric);
    // Sessions resampled, then runs within them, when a side pools sessions; else runs.
    auto [lo, hi] = stats::median_ratio_interval(base_groups, cand_groups, o.resamples, seed);
    row.ci_low = lo;
    row.ci_high = hi;
    row.detectable = stats::minimum_detectable_change(cv, tb.size(), tc.size());
  }
  row.repetitions_needed = stats::repetitions_needed(cv, row.threshold);
  return row;
}

// The verdict once q is known (see compare.h).
void decide(MetricRow& row, const CompareOptions& o) {
  const char* units = row.paired ? "pairs" : row.by_session ? "sessions" : "runs";
  if (row.units_base < kMinRepetitions || row.units_candidate < kMinRepetitions ||
      (row.ratio && !row.ci_low)) {
    if (row.reason.empty()) {
      row.reason = fmt::format("{} + {} {} with this metric; a verdict needs at least {} per side",
                               row.units_base, row.units_candidate, units, kMinRepetitions);
    }
    row.verdict = Verdict::unknown;
    return;
  }
  // A counter that no run of either side saw move (fsyncs of a reader): measured, and the same.
  if (row.none_observed) {
    row.verdict = Verdict::same;
    row.reason = "no event observed in any run of either side";
    return;
  }
  if (!row.ratio) {
    // The base's median is 0 and the candidate's is not: no ratio, only the rank test.
    const bool rose = row.candidate_median > row.base_median;
    if (row.q <= o.fdr) {
      row.verdict = rose == row.higher_is_better ? Verdict::improved : Verdict::regressed;
      row.reason = "the base's median is 0: judged by the rank test alone";
    } else {
      row.verdict = Verdict::unknown;
      row.reason = "the base's median is 0 (no ratio) and the rank test does not settle it";
    }
    return;
  }
  if (*row.ci_low >= 1.0 - row.threshold && *row.ci_high <= 1.0 + row.threshold && row.detectable &&
      *row.detectable <= row.threshold) {
    row.verdict = Verdict::same;
    return;
  }
  const bool above = *row.ci_low > 1.0, below = *row.ci_high < 1.0;
  const bool large = std::fabs(*row.ratio - 1.0) >= row.threshold;
  if (row.q <= o.fdr && (above || below) && large) {
    const bool better = above == row.higher_is_better;
    row.verdict = better ? Verdict::improved : Verdict::regressed;
    return;
  }
  row.verdict = Verdict::unknown;
  if (row.q <= o.fdr && (above || below)) {
    // Real, by the test, but smaller than what the comparison was asked to care about — and not
    // shown to stay within it either.
    row.reason = fmt::format(
        "a change of {:+.1f}% [{:+.1f}%, {:+.1f}%] is significant (q = {:.3g}) but smaller than "
        "±{:.0f}%, and the interval is not within ±{:.0f}% either; {} {} per side would settle "
        "it",
        (*row.ratio - 1) * 100, (*row.ci_low - 1) * 100, (*row.ci_high - 1) * 100, row.q,
        row.threshold * 100, row.threshold * 100, *row.repetitions_needed, units);
    return;
  }
  row.reason = fmt::format(
      "not enough evidence: the interval [{:.3f}, {:.3f}] is neither clear of 1 at FDR {} nor "
      "within ±{:.0f}%; run more {} ({} per side would see a {:.0f}% change)",
      *row.ci_low, *row.ci_high, o.fdr, row.threshold * 100,
      row.paired       ? "pairs (runs of the same seed on each side)"
      : row.by_session ? "sessions"
                       : "repetitions",
      *row.repetitions_needed, row.threshold * 100);
}

// See Comparison::common_shift.
std::string common_shift(const std::vector<MetricRow>& rows) {
  std::map<std::string, std::pair<std::size_t, std::size_t>> cells;  // cell -> (worse, better)
  std::size_t flagged = 0, tested = 0;
  std::vector<double> ratios;
  for (const MetricRow& r : rows) {
    if (r.n_base == 0 || r.n_candidate == 0) continue;
    ++tested;
    auto& [worse, better] = cells[r.cell];
    if (r.verdict == Verdict::regressed) ++worse;
    if (r.verdict == Verdict::improved) ++better;
    if (r.verdict == Verdict::regressed || r.verdict == Verdict::improved) {
      ++flagged;
      // As a change of speed: a time that grew and a throughput that fell both read below 1.
      if (r.ratio && *r.ratio > 0) ratios.push_back(r.higher_is_better ? *r.ratio : 1 / *r.ratio);
    }
  }
  if (cells.size() < 3 || flagged * 2 <= tested || ratios.empty()) return "";
  std::size_t worse_cells = 0, better_cells = 0;
  for (const auto& [cell, counts] : cells) {
    if (counts.first > 0 && counts.second == 0) ++worse_cells;
    if (counts.second > 0 && counts.first == 0) ++better_cells;
  }
  if (worse_cells != cells.size() && better_cells != cells.size()) return "";
  std::sort(ratios.begin(), ratios.end());
  return fmt::format(
      "every one of the {} cells moved the same way ({} of {} rows {}; speed ×{:.2f} to ×{:.2f}): "
      "a change common to every cell, of the code or of the host between the two sessions; a "
      "same-session baseline tells them apart",
      cells.size(), flagged, tested, worse_cells == cells.size() ? "worse" : "better",
      ratios.front(), ratios.back());
}

// The side's cells in its bundle's order, then any its order does not list (a side built by
// hand), in the map's.
std::vector<std::string> ordered_cells(const CompareSide& side) {
  std::vector<std::string> out;
  for (const auto& cell : side.cell_order) {
    if (side.cells.count(cell)) out.push_back(cell);
  }
  for (const auto& [cell, ignored] : side.cells) {
    if (std::find(out.begin(), out.end(), cell) == out.end()) out.push_back(cell);
  }
  return out;
}

}  // namespace

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::regressed:
      return "regressed";
    case Verdict::improved:
      return "improved";
    case Verdict::same:
      return "same";
    case Verdict::unknown:
      return "unknown";
  }
  return "unknown";
}

const char* to_string(CompareOutcome o) {
  switch (o) {
    case CompareOutcome::no_regression:
      return "no_regression";
    case CompareOutcome::regression:
      return "regression";
    case CompareOutcome::no_verdict:
      return "no_verdict";
    case CompareOutcome::refused:
      return "refused";
  }
  return "no_verdict";
}

ExitCode exit_code_of(CompareOutcome o) {
  switch (o) {
    case CompareOutcome::no_regression:
      return kExitOk;
    case CompareOutcome::regression:
      return kExitCheckFailed;
    case CompareOutcome::refused:
      return kExitUsage;
    case CompareOutcome::no_verdict:
      return kExitNoVerdict;
  }
  return kExitNoVerdict;
}

namespace {

// Evidence first: why a side is not valid evidence, if it is not.
std::vector<std::string> invalid_sides(const CompareSide& base, const CompareSide& cand) {
  std::vector<std::string> invalid;
  for (const CompareSide* s : {&base, &cand}) {
    const char* which = s == &base ? "base" : "candidate";
    if (s->unreadable) {
      invalid.push_back(fmt::format("the {} {} cannot be read: {}", which, s->dir, *s->unreadable));
    } else if (!s->valid) {
      std::string first = s->findings.empty() ? "" : ": " + s->findings.front();
      invalid.push_back(fmt::format("the {} {} is invalid ({} findings){}", which, s->dir,
                                    s->findings.size(), first));
    } else if (!s->matrix) {
      invalid.push_back(fmt::format("the {} {} has no readable matrix.yaml", which, s->dir));
    }
  }
  return invalid;
}

// What defines the cells must agree (workload settings may differ when allowed), and so must
// the data sets: differences are refusals, or setting differences.
void compare_definitions(const Matrix& base, const Matrix& cand, const CompareOptions& o,
                         Comparison& c) {
  auto defs_b = cell_definition(base), defs_c = cell_definition(cand);
  std::map<std::string, std::string> data_b, data_c;
  for (auto* pair : {&defs_b, &defs_c}) {
    auto& data = pair == &defs_b ? data_b : data_c;
    for (auto it = pair->begin(); it != pair->end();) {
      if (it->first.starts_with("datasets.")) {
        data.insert(*it);
        it = pair->erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& d : differing(defs_b, defs_c)) {
    if (o.allow_different_settings && d.starts_with("workload.params.")) {
      c.setting_differences.push_back(d);
    } else {
      c.refusals.push_back("matrix: " + d);
    }
  }
  for (auto& d : differing(data_b, data_c, true)) c.refusals.push_back("matrix: " + d);
}

// What ran: the workload binaries by content and jbench's revision; a difference refuses the
// comparison unless a different build is allowed.
void compare_builds(const CompareSide& base, const CompareSide& cand, const CompareOptions& o,
                    Comparison& c) {
  if (base.workload_binaries == cand.workload_binaries) return;
  for (const auto& b : base.workload_binaries) {
    if (!cand.workload_binaries.count(b)) c.build_differences.push_back("base:      " + b);
  }
  for (const auto& b : cand.workload_binaries) {
    if (!base.workload_binaries.count(b)) c.build_differences.push_back("candidate: " + b);
  }
  if (base.jbench_revision != cand.jbench_revision) {
    c.build_differences.push_back("jbench revision: " + base.jbench_revision + " -> " +
                                  cand.jbench_revision);
  }
  if (!o.allow_different_build) {
    c.refusals.push_back(
        "build: the workload binaries differ (below); --allow-different-build compares them "
        "anyway, which is what a proposal does");
  }
}

// A side's samples of one metric in one cell; empty where it has none.
Samples samples_of(const SideCell& side, const std::string& name) {
  static const std::vector<double> none;
  static const std::vector<std::size_t> one_session;
  static const std::vector<std::string> no_seeds;
  static const std::vector<std::pair<std::uint64_t, std::uint64_t>> no_windows;
  const auto values = side.metrics.find(name);
  const auto sessions = side.sessions.find(name);
  const auto seeds = side.seeds.find(name);
  const auto windows = side.windows.find(name);
  return Samples{values == side.metrics.end() ? none : values->second,
                 sessions == side.sessions.end() ? one_session : sessions->second,
                 seeds == side.seeds.end() ? no_seeds : seeds->second,
                 windows == side.windows.end() ? no_windows : windows->second};
}

// A counted metric whose sides were counted by different counters (callgrind and the
// processor's): both count instructions, but not the same ones (the loader, skid), so the row
// has no test and says why.
MetricRow counted_by_other_counters(const std::string& cell, const MetricInfo& m,
                                    const SideCell& base, const SideCell& cand,
                                    const CompareOptions& o) {
  static const SideCell none;
  MetricRow row = compare_metric(cell, m, samples_of(none, std::string(m.name)),
                                 samples_of(none, std::string(m.name)), o);
  row.reason = fmt::format(
      "counted by {} on the base and {} on the candidate: counts of different counters are not "
      "compared (choose one: collectors.counter.backend)",
      fmt::join(base.counter_sources, "+"), fmt::join(cand.counter_sources, "+"));
  return row;
}

// A row per cell both sides measured and metric either reports, in the base's cell order.
std::vector<MetricRow> metric_rows(const CompareSide& base, const CompareSide& cand,
                                   const CompareOptions& o) {
  // The calls and the project's own counters are named by the runs that reported them.
  std::set<std::string> seen;
  for (const auto* side : {&base, &cand}) {
    for (const auto& [cell, s] : side->cells) {
      for (const auto& [metric, values] : s.metrics) seen.insert(metric);
    }
  }
  const std::vector<MetricInfo> metrics = metrics_with_named_counters(seen);
  std::vector<MetricRow> rows;
  for (const std::string& cell : ordered_cells(base)) {
    const SideCell& b = base.cells.at(cell);
    auto it = cand.cells.find(cell);
    if (it == cand.cells.end()) continue;
    for (const MetricInfo& m : metrics) {
      const std::string name(m.name);
      // A metric neither side reports (a workload without latency) is no row at all; one side
      // without it is a row that says so.
      if (!b.metrics.count(name) && !it->second.metrics.count(name) && b.ok + it->second.ok > 0) {
        continue;
      }
      if (m.counted && !b.counter_sources.empty() && !it->second.counter_sources.empty() &&
          b.counter_sources != it->second.counter_sources) {
        rows.push_back(counted_by_other_counters(cell, m, b, it->second, o));
        continue;
      }
      rows.push_back(compare_metric(cell, m, samples_of(b, name), samples_of(it->second, name), o));
    }
  }
  return rows;
}

// One family: every cell × metric with samples on both sides (a row without any has no test and
// keeps q = 1); then each row's verdict.
void adjust_and_decide(std::vector<MetricRow>& rows, const CompareOptions& o) {
  std::vector<double> p;
  std::vector<std::size_t> tested;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].n_base == 0 || rows[i].n_candidate == 0) continue;
    tested.push_back(i);
    p.push_back(rows[i].p);
  }
  std::vector<double> q = stats::bh_adjust(p);
  for (std::size_t k = 0; k < tested.size(); ++k) rows[tested[k]].q = q[k];
  for (MetricRow& r : rows) decide(r, o);
}

void summarize_comparison(Comparison& c) {
  std::size_t regressed = 0, known = 0;
  for (const MetricRow& r : c.rows) {
    regressed += r.verdict == Verdict::regressed;
    known += r.verdict != Verdict::unknown;
  }
  if (regressed > 0) {
    c.outcome = CompareOutcome::regression;
    c.summary =
        fmt::format("regression: {} of {} cell metrics regressed", regressed, c.rows.size());
  } else if (known == 0) {
    c.outcome = CompareOutcome::no_verdict;
    c.summary = c.rows.empty() ? "no verdict: the bundles have no cell in common"
                               : "no verdict: every cell is unknown (not enough evidence)";
  } else {
    c.outcome = CompareOutcome::no_regression;
    c.summary = fmt::format("no regression among {} measured cell metrics ({} unknown)", known,
                            c.rows.size() - known);
  }
}

}  // namespace

Comparison compare_bundles(const CompareSide& base, const CompareSide& cand,
                           const CompareOptions& o) {
  Comparison c;
  c.base = base.dir;
  c.candidate = cand.dir;
  c.base_bundles = base.bundles;
  c.candidate_bundles = cand.bundles;
  c.options = o;
  c.invalid = invalid_sides(base, cand);
  if (!c.invalid.empty()) {
    c.outcome = CompareOutcome::no_verdict;
    c.summary = "no verdict: a bundle is not valid evidence";
    return c;
  }
  // What defines the cells, where they ran, and what ran must agree.
  compare_definitions(*base.matrix, *cand.matrix, o, c);
  for (auto& d : differing(base.host.host_class(), cand.host.host_class())) {
    c.refusals.push_back("host: " + d);
  }
  if (auto m = memory_difference(base.host, cand.host)) c.refusals.push_back("host: " + *m);
  compare_builds(base, cand, o, c);
  if (!c.refusals.empty()) {
    c.outcome = CompareOutcome::refused;
    c.summary = "refused: the bundles do not measure the same thing";
    return c;
  }
  for (const auto& [cell, s] : base.cells) {
    if (!cand.cells.count(cell)) c.only_in_base.push_back(cell);
  }
  for (const auto& [cell, s] : cand.cells) {
    if (!base.cells.count(cell)) c.only_in_candidate.push_back(cell);
  }
  // A call only one side made is a row of measured zeros on the other.
  std::set<std::string> calls = call_count_metrics(base);
  calls.merge(call_count_metrics(cand));
  CompareSide base_calls = base, cand_calls = cand;
  complete_call_counts(base_calls, calls);
  complete_call_counts(cand_calls, calls);
  c.rows = metric_rows(base_calls, cand_calls, o);
  adjust_and_decide(c.rows, o);
  c.common_shift = common_shift(c.rows);
  summarize_comparison(c);
  return c;
}

}  // namespace jbench::compare
