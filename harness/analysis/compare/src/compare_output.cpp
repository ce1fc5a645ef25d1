// The comparison for people (a table) and for programs (JSON,
// manifests/compare-report.schema.json).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "jbench/compare/compare.h"

namespace jbench::compare {

namespace {

std::string value_text(const std::string& metric, double v) {
  if (metric == "throughput_ops_per_s") return fmt::format("{:.0f} ops/s", v);
  if (metric.ends_with("_per_op") && !metric.ends_with("_ns_per_op")) {
    return fmt::format("{:.4g}/op", v);
  }
  const char* per = metric.ends_with("_per_op") ? "/op" : "";
  if (v >= 1e6) return fmt::format("{:.2f} ms{}", v / 1e6, per);
  if (v >= 1e3) return fmt::format("{:.1f} us{}", v / 1e3, per);
  return fmt::format("{:.0f} ns{}", v, per);
}

// The smallest change a row's runs could see (80% power, MetricRow::detectable), in percent.
std::string sees_text(const std::optional<double>& detectable) {
  if (!detectable) return "-";
  const double pct = *detectable * 100;
  return pct < 1 ? fmt::format("{:.2f}%", pct) : fmt::format("{:.0f}%", pct);
}

nlohmann::json optional_number(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace

std::string comparison_to_text(const Comparison& c) {
  std::string out = fmt::format("compare {} -> {}\n", c.base, c.candidate);
  for (const auto* side : {&c.base_bundles, &c.candidate_bundles}) {
    if (side->empty()) continue;
    out += fmt::format("  the {} pools {} bundles:", side == &c.base_bundles ? "base" : "candidate",
                       side->size());
    for (const auto& b : *side) out += " " + b;
    out += "\n";
  }
  for (const auto& s : c.invalid) out += "  " + s + "\n";
  for (const auto& s : c.refusals) out += "  refused: " + s + "\n";
  if (!c.build_differences.empty()) {
    out += "  the workload binaries (sha256 path):\n";
    for (const auto& s : c.build_differences) out += "    " + s + "\n";
  }
  for (const auto& s : c.setting_differences) out += "  compared across settings: " + s + "\n";
  for (const auto& s : c.only_in_base) out += "  only in the base (not compared): " + s + "\n";
  for (const auto& s : c.only_in_candidate) {
    out += "  only in the candidate (not compared): " + s + "\n";
  }
  if (!c.rows.empty()) {
    out +=
        fmt::format("\n{:<44} {:<23} {:>7} {:>14} {:>14} {:>24} {:>8} {:>8} {:>7}  {}\n", "cell",
                    "metric", "n", "base", "candidate", "ratio [95%]", "p", "q", "sees", "verdict");
    for (const MetricRow& r : c.rows) {
      std::string ratio = r.ratio ? fmt::format("{:.3f}", *r.ratio) : "-";
      if (r.ci_low) ratio += fmt::format(" [{:.3f}-{:.3f}]", *r.ci_low, *r.ci_high);
      out += fmt::format(
          "{:<44} {:<23} {:>3}+{:<3} {:>14} {:>14} {:>24} {:>8.4f} {:>8.4f} {:>7}  {}\n", r.cell,
          r.metric, r.n_base, r.n_candidate, r.n_base ? value_text(r.metric, r.base_median) : "-",
          r.n_candidate ? value_text(r.metric, r.candidate_median) : "-", ratio, r.p, r.q,
          sees_text(r.detectable), to_string(r.verdict));
    }
    for (const MetricRow& r : c.rows) {
      if (r.verdict == Verdict::unknown && !r.reason.empty()) {
        out += fmt::format("  unknown: {} {}: {}\n", r.cell, r.metric, r.reason);
      }
    }
    const bool sessions =
        std::any_of(c.rows.begin(), c.rows.end(), [](const MetricRow& r) { return r.by_session; });
    out += fmt::format(
        "\nratio = candidate median / base median; p: Mann-Whitney{}, q: Benjamini-Hochberg over "
        "all {} rows; sees = the smallest change these runs could see (80% power); same = the "
        "interval within +-{:.0f}%.\n",
        sessions ? fmt::format(" over each session's median ({}+{} sessions: a pooled side is "
                               "compared session by session, its interval resamples sessions)",
                               c.base_bundles.empty() ? 1 : c.base_bundles.size(),
                               c.candidate_bundles.empty() ? 1 : c.candidate_bundles.size())
                 : std::string(),
        c.rows.size(), c.options.threshold * 100);
    if (!c.options.metric_thresholds.empty()) {
      std::vector<std::string> own;
      for (const auto& [metric, t] : c.options.metric_thresholds) {
        own.push_back(fmt::format("{} {:.1f}%", metric, t * 100));
      }
      out += fmt::format(
          "each metric's own threshold, its measured A/A noise (--thresholds-from), for same and "
          "for a verdict: {}.\n",
          fmt::join(own, ", "));
    }
    if (std::any_of(c.rows.begin(), c.rows.end(),
                    [](const MetricRow& r) { return r.paired_by == "time"; })) {
      out +=
          "--pair-by-time (a duet): each base run paired with the candidate run that measured "
          "beside it; ratio = geometric mean of the pairs' ratios, p: Student's t on their logs.\n";
    }
    if (std::any_of(c.rows.begin(), c.rows.end(),
                    [](const MetricRow& r) { return r.paired_by == "seed"; })) {
      out += fmt::format(
          "counted metrics (instructions_per_op, allocations_per_op): each candidate run paired "
          "with the base run of "
          "its seed; ratio = geometric mean of the pairs' ratios, p: Student's t on their logs, "
          "same = within +-{:.1f}%.\n",
          c.options.counted_threshold * 100);
    }
  }
  if (!c.common_shift.empty()) out += "note: " + c.common_shift + "\n";
  out += c.summary + "\n";
  return out;
}

nlohmann::json comparison_to_json(const Comparison& c) {
  nlohmann::json rows = nlohmann::json::array();
  for (const MetricRow& r : c.rows) {
    rows.push_back(
        {{"cell", r.cell},
         {"metric", r.metric},
         {"higher_is_better", r.higher_is_better},
         {"n_base", r.n_base},
         {"n_candidate", r.n_candidate},
         {"by_session", r.by_session},
         {"paired", r.paired},
         {"paired_by", r.paired ? nlohmann::json(r.paired_by) : nlohmann::json(nullptr)},
         {"threshold", r.threshold},
         {"units_base", r.units_base},
         {"units_candidate", r.units_candidate},
         {"base_median", r.base_median},
         {"candidate_median", r.candidate_median},
         {"ratio", optional_number(r.ratio)},
         {"ci_low", optional_number(r.ci_low)},
         {"ci_high", optional_number(r.ci_high)},
         {"u", r.u},
         {"p", r.p},
         {"q", r.q},
         {"exact", r.exact},
         {"base_cv", r.base_cv},
         {"detectable_change", optional_number(r.detectable)},
         {"none_observed", r.none_observed},
         {"base_values", r.base_values},
         {"candidate_values", r.candidate_values},
         {"verdict", to_string(r.verdict)},
         {"reason", r.reason},
         {"repetitions_needed",
          r.repetitions_needed ? nlohmann::json(*r.repetitions_needed) : nlohmann::json(nullptr)}});
  }
  return {{"schema", "jbench.compare_report"},
          {"schema_version", 1},
          {"base", c.base},
          {"candidate", c.candidate},
          {"base_bundles", c.base_bundles},
          {"candidate_bundles", c.candidate_bundles},
          {"fdr", c.options.fdr},
          {"threshold", c.options.threshold},
          {"counted_threshold", c.options.counted_threshold},
          {"metric_thresholds", c.options.metric_thresholds},
          {"pair_by_time", c.options.pair_by_time},
          {"allow_different_build", c.options.allow_different_build},
          {"allow_different_settings", c.options.allow_different_settings},
          {"outcome", to_string(c.outcome)},
          {"exit_code", exit_code_of(c.outcome)},
          {"summary", c.summary},
          {"common_shift", c.common_shift},
          {"invalid", c.invalid},
          {"refusals", c.refusals},
          {"build_differences", c.build_differences},
          {"setting_differences", c.setting_differences},
          {"only_in_base", c.only_in_base},
          {"only_in_candidate", c.only_in_candidate},
          {"rows", rows}};
}

}  // namespace jbench::compare

namespace jbench::compare {
namespace {

// The unit a metric's name ends in: "throughput_ops_per_s" is in ops/s, "p50_ns" in ns.
std::string metric_unit(std::string_view metric) {
  if (metric.ends_with("_ops_per_s")) return "ops/s";
  if (metric.ends_with("_ns")) return "ns";
  if (metric.ends_with("_per_op")) return "per op";
  return "";
}

std::string figure(std::optional<double> v) {
  return v ? fmt::format("{:.6g}", *v) : std::string();
}

}  // namespace

Table comparison_table(const Comparison& c) {
  Table t;
  t.columns = {"cell",        "metric",           "unit",
               "base_median", "candidate_median", "ratio",
               "ratio_low",   "ratio_high",       "p",
               "q",           "verdict",          "detectable_change_pct",
               "base_runs",   "candidate_runs",   "reason"};
  for (const MetricRow& r : c.rows) {
    t.rows.push_back({r.cell, r.metric, metric_unit(r.metric), figure(r.base_median),
                      figure(r.candidate_median), figure(r.ratio), figure(r.ci_low),
                      figure(r.ci_high), figure(r.p), figure(r.q), to_string(r.verdict),
                      r.detectable ? fmt::format("{:.4f}", *r.detectable * 100) : "",
                      std::to_string(r.n_base), std::to_string(r.n_candidate), r.reason});
  }
  return t;
}

}  // namespace jbench::compare
