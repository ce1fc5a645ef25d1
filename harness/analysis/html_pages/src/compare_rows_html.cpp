// The compare page's rows: per metric a forest plot of the ratios, then one table of every row
// with its statistics and verdict, and for an unknown one what would settle it.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "compare_sections.h"
#include "format.h"
#include "html_escape.h"
#include "metric_text.h"
#include "plots.h"

namespace jbench::html_pages {

using nlohmann::json;

namespace {

constexpr const char* kAbsent = "–";

std::string cell_of(const json& row) {
  const std::string cell = text(field(row, "cell"));
  return cell.empty() ? "(unnamed cell)" : cell;
}

std::string verdict_text(const json& row) {
  const std::string v = text(field(row, "verdict"));
  return v.empty() ? "no verdict given" : v;
}

// "×0.073 [0.065–0.081]"; "no interval" without both ends; without a ratio, why: a counter
// that saw no event on either side, a base median of 0, or nothing said.
std::string ratio_text(const json& row, int decimals) {
  const auto r = number(field(row, "ratio"));
  if (!r && field(row, "none_observed") == true) return "no event observed on either side";
  const auto n_base = number(field(row, "n_base"));
  if (!r && n_base && *n_base > 0 && number(field(row, "base_median")) == 0.0) {
    return "no ratio (the base median is 0)";
  }
  if (!r) return "no ratio";
  const auto low = number(field(row, "ci_low")), high = number(field(row, "ci_high"));
  std::string out = fmt::format("×{:.{}f}", *r, decimals);
  if (low && high) return out + fmt::format(" [{:.{}f}–{:.{}f}]", *low, decimals, *high, decimals);
  return out + ", no interval";
}

// A side's median, or why there is none: that side measured nothing.
std::string median_text(const json& row, std::string_view n_key, std::string_view median_key) {
  const auto n = number(field(row, n_key));
  if (n && *n == 0) return "not measured";
  const auto v = number(field(row, median_key));
  return v ? metric_value(text(field(row, "metric")), *v) : kAbsent;
}

std::string count_text(const json& value) {
  const auto n = number(value);
  return n ? fmt::format("{:.0f}", *n) : "?";
}

std::string number_text(const json& value) {
  const auto v = number(value);
  return v ? plain(*v) : kAbsent;
}

std::string share_text(const json& value, std::string_view absent) {
  const auto v = number(value);
  return v ? percent(*v) : std::string(absent);
}

// For an unknown row, the repetitions per side that would see a change of the threshold; for
// the others nothing (their verdict is settled).
std::string repetitions_text(const json& row) {
  const auto needed = number(field(row, "repetitions_needed"));
  if (!needed || verdict_class(row) != "unknown") return "";
  return fmt::format("{:.0f}", *needed);
}

}  // namespace

std::string_view verdict_class(const json& row) {
  constexpr std::array<std::string_view, 4> kVerdicts = {"regressed", "improved", "same",
                                                         "unknown"};
  const std::string v = text(field(row, "verdict"));
  for (const std::string_view known : kVerdicts) {
    if (v == known) return known;
  }
  return "unstated";
}

std::string ratio_plots_section(const json& rows) {
  std::string out =
      "<section id=\"ratios\">\n<h2>Candidate against base</h2>\n"
      "<p class=\"explain\">Per cell: the ratio of the candidate's median to the base's (the "
      "square, coloured by the verdict) and its 95% bootstrap interval (the whisker). The "
      "dashed line at ×1.00 is the candidate as the base.</p>\n";
  std::vector<std::string> metrics;  // in the order the rows first name them
  for (const json& row : array_or_empty(rows)) {
    const std::string metric = text(field(row, "metric"));
    if (std::find(metrics.begin(), metrics.end(), metric) == metrics.end()) {
      metrics.push_back(metric);
    }
  }
  if (metrics.empty()) return out + "<p class=\"empty\">No cell was compared.</p>\n</section>\n";
  for (const std::string& metric : metrics) {
    std::vector<ForestRow> plot;
    bool higher_is_better = true;
    for (const json& row : array_or_empty(rows)) {
      if (text(field(row, "metric")) != metric) continue;
      higher_is_better = field(row, "higher_is_better") != false;
      ForestRow r;
      r.label = cell_of(row);
      r.point = number(field(row, "ratio"));
      r.low = number(field(row, "ci_low"));
      r.high = number(field(row, "ci_high"));
      if (!r.low || !r.high) r.low.reset(), r.high.reset();  // half an interval is drawn as none
      r.note = ratio_text(row, 2) + " " + verdict_text(row);
      r.kind = verdict_class(row);
      plot.push_back(std::move(r));
    }
    out += fmt::format(
        "<figure class=\"ratios\" data-metric=\"{}\">\n<figcaption>{} <span class=\"note\">({} "
        "is better)</span></figcaption>\n",
        escape(metric), escape(metric_label(metric)), higher_is_better ? "higher" : "lower");
    out += forest_plot(plot, "ratio of medians, " + metric_label(metric),
                       "×1.00: candidate as the base");
    out += "</figure>\n";
  }
  return out + "</section>\n";
}

std::string rows_table_section(const json& report) {
  const json& rows = field(report, "rows");
  std::string out = "<section id=\"rows\">\n<h2>Every cell and metric</h2>\n";
  if (array_or_empty(rows).empty()) {
    return out + "<p class=\"empty\">No rows: nothing was compared.</p>\n</section>\n";
  }
  const auto fdr = number(field(report, "fdr"));
  const auto threshold = number(field(report, "threshold"));
  bool sessions = false, paired = false;
  for (const json& row : array_or_empty(rows)) {
    sessions |= field(row, "by_session") == true;
    paired |= field(row, "paired") == true;
  }
  out += fmt::format(
      "<p class=\"explain\">ratio = candidate median / base median, with its 95% bootstrap "
      "interval; p: the Mann–Whitney rank test{}; q: Benjamini–Hochberg over all {} rows{}. A "
      "verdict of same needs the interval within ±{}; unknown means these runs cannot tell. The "
      "noise floor is the base's coefficient of variation.</p>\n",
      sessions ? " over each session's median (a side pools sessions: runs of one session share "
                 "its state of the host, so the session is the unit, and the interval resamples "
                 "sessions, then runs within them)"
               : "",
      array_or_empty(rows).size(), fdr ? " (at a false discovery rate of " + plain(*fdr) + ")" : "",
      threshold ? percent(*threshold) : "the threshold");
  if (paired) {
    out +=
        "<p class=\"explain\">Rows marked <em>paired</em> compare run by run: a counted metric "
        "each candidate run with the base run of its seed, a duet each with the run that measured "
        "beside it. Their ratio is the geometric mean of the pairs' ratios, p is Student's t on "
        "their logarithms, n counts pairs, and the noise floor is the spread of the pairs' log "
        "ratios (docs/compare.md).</p>\n";
  }
  out +=
      "<div class=\"table-scroll\"><table "
      "class=\"compare-rows\">\n<thead><tr><th>cell</th><th>metric</th>"
      "<th>n (base + candidate)</th><th>base median</th><th>candidate median</th>"
      "<th>ratio [95%]</th><th>p</th><th>q</th><th>detectable change</th>"
      "<th>noise floor (cv)</th><th>verdict</th><th>why</th>"
      "<th>per side to settle it (runs, or sessions when pooled)</th></tr></thead>\n<tbody>\n";
  for (const json& row : array_or_empty(rows)) {
    const std::string metric = text(field(row, "metric"));
    const std::string_view css = verdict_class(row);
    out += fmt::format(
        "<tr class=\"row {0}\" data-cell=\"{1}\" data-metric=\"{2}\" data-verdict=\"{3}\">"
        "<td>{1}</td><td>{4}</td><td>{5} + {6}</td><td>{7}</td><td>{8}</td><td>{9}</td>"
        "<td>{10}</td><td>{11}</td><td>{12}</td><td>{13}</td>"
        "<td class=\"verdict {0}\">{14}</td><td class=\"note\">{15}</td>"
        "<td class=\"repetitions\">{16}</td></tr>\n",
        css, escape(cell_of(row)), escape(metric), escape(text(field(row, "verdict"))),
        escape(metric_label(metric)) +
            (field(row, "paired") == true
                 ? " <em>paired by " + escape(text(field(row, "paired_by"))) + "</em>"
                 : std::string()),
        count_text(field(row, "n_base")), count_text(field(row, "n_candidate")),
        escape(median_text(row, "n_base", "base_median")),
        escape(median_text(row, "n_candidate", "candidate_median")), escape(ratio_text(row, 3)),
        number_text(field(row, "p")), number_text(field(row, "q")),
        share_text(field(row, "detectable_change"), "not estimable"),
        share_text(field(row, "base_cv"), kAbsent), escape(verdict_text(row)),
        escape(text(field(row, "reason"))), repetitions_text(row));
  }
  return out + "</tbody>\n</table></div>\n</section>\n";
}

}  // namespace jbench::html_pages
