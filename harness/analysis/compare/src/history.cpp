#include "jbench/compare/history.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "compatibility.h"
#include "jbench/common/random.h"
#include "jbench/compare/metrics.h"
#include "jbench/overhead_report/overhead.h"
#include "jbench/stats/median.h"

namespace jbench::compare {

namespace {

namespace fs = std::filesystem;

// The nights in `dir`: each bundle directly in it, and each folder directly in it that holds
// bundles — the interleaved sessions of one night, pooled as `jbench compare` pools a folder
// (compare_side.h). Deeper folders are not read: a night's base/ replay of the previous build,
// or the planted/ nights, sit one level down and are never points.
std::vector<std::string> nights_in(const std::string& dir) {
  std::vector<std::string> out = bundles_in(dir);
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().filename().string().starts_with(".") || !e.is_directory(ec)) continue;
    if (fs::exists(e.path() / "manifest.json", ec)) continue;  // a bundle: listed already
    if (!bundles_in(e.path().string()).empty()) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A night as history lists it: usable, or the gap it leaves and why.
HistoryBundle night_entry(const CompareSide& s) {
  HistoryBundle b{s.dir, s.started_utc, s.jbench_revision, false, ""};
  if (s.unreadable) {
    b.gap_reason = "unreadable: " + *s.unreadable;
  } else if (!s.valid) {
    b.gap_reason = "invalid: " +
                   (s.findings.empty() ? std::string("see jbench validate") : s.findings.front());
  } else {
    std::size_t ok = 0;
    for (const auto& [cell, c] : s.cells) ok += c.ok;
    if (ok == 0) {
      b.gap_reason = "measured nothing: no run succeeded";
    } else {
      b.usable = true;
    }
  }
  return b;
}

// What makes two nights' figures one series: the cells' definition but the workload's settings
// (a changed setting is shown as a change, as a change of code is; another phase, dataset or
// workload is another measurement), and the host's class; as a short hash.
std::string series_definition(const CompareSide& s) {
  std::string facts;
  if (s.matrix) {
    for (const auto& [k, v] : cell_definition(*s.matrix)) {
      if (!k.starts_with("workload.params.")) facts += k + "=" + v + "\n";
    }
  }
  for (const auto& [k, v] : s.host.host_class()) facts += k + "=" + v + "\n";
  return fmt::format("{:012x}", fnv1a64(facts) >> 16);
}

using SeriesMap = std::map<std::tuple<std::string, std::string, std::string>, HistorySeries>;

// Night `i`'s median of every metric of every cell, each added to its series.
void add_night(const CompareSide& s, std::size_t i, SeriesMap& series) {
  const std::string definition = series_definition(s);
  for (const auto& [cell, c] : s.cells) {
    for (const auto& [metric, values] : c.metrics) {
      if (values.empty()) continue;  // a cell that measured nothing here: a gap in it
      HistorySeries& hs = series[{cell, metric, definition}];
      hs.cell = cell;
      hs.definition = definition;
      hs.metric = metric;
      hs.higher_is_better = higher_is_better(metric);
      hs.bundles.push_back(i);
      hs.values.push_back(*stats::median(values));
    }
  }
}

void summarize_history(History& h, std::size_t searched, std::size_t worse, std::size_t changes,
                       const stats::ChangePointOptions& options) {
  if (searched == 0) {
    h.outcome = CompareOutcome::no_verdict;
    h.summary = fmt::format("no verdict: no series has the {} usable bundles a change point needs",
                            2 * options.min_segment);
  } else if (worse > 0) {
    h.outcome = CompareOutcome::regression;
    h.summary = fmt::format("{} change points for the worse ({} in all) over {} series", worse,
                            changes, searched);
  } else {
    h.outcome = CompareOutcome::no_regression;
    h.summary = fmt::format("no change for the worse over {} series ({} change points in all)",
                            searched, changes);
  }
}

}  // namespace

History read_history(const std::string& dir, const stats::ChangePointOptions& options) {
  History h;
  h.dir = dir;
  std::vector<CompareSide> sides;
  for (const std::string& bundle : nights_in(dir)) sides.push_back(read_compare_side(bundle));
  // A call one night made and another did not is that night's measured zero.
  std::set<std::string> calls;
  for (const CompareSide& s : sides) calls.merge(call_count_metrics(s));
  for (CompareSide& s : sides) complete_call_counts(s, calls);
  std::sort(sides.begin(), sides.end(), [](const CompareSide& a, const CompareSide& b) {
    return std::tie(a.started_utc, a.jbench_revision, a.dir) <
           std::tie(b.started_utc, b.jbench_revision, b.dir);
  });
  SeriesMap series;
  for (std::size_t i = 0; i < sides.size(); ++i) {
    h.bundles.push_back(night_entry(sides[i]));
    if (h.bundles.back().usable) add_night(sides[i], i, series);
  }
  std::size_t searched = 0, worse = 0, changes = 0;
  for (auto& [key, hs] : series) {
    if (hs.values.size() >= 2 * options.min_segment) ++searched;
    for (const stats::ChangePoint& cp : stats::find_change_points(hs.values, options)) {
      HistoryChange c;
      c.bundle = hs.bundles[cp.index];
      c.from_revision = h.bundles[hs.bundles[cp.index - 1]].revision;
      c.to_revision = h.bundles[c.bundle].revision;
      c.before = cp.before_median;
      c.after = cp.after_median;
      c.ratio = cp.before_median != 0 ? cp.after_median / cp.before_median : 0;
      c.p = cp.p;
      c.worse = hs.higher_is_better ? c.ratio < 1 : c.ratio > 1;
      worse += c.worse;
      ++changes;
      hs.changes.push_back(c);
    }
    h.series.push_back(std::move(hs));
  }
  summarize_history(h, searched, worse, changes, options);
  return h;
}

std::string history_to_text(const History& h) {
  std::string out = fmt::format("history of {}: {} bundles\n", h.dir, h.bundles.size());
  for (const HistoryBundle& b : h.bundles) {
    if (!b.usable) out += fmt::format("  gap: {} ({})\n", b.dir, b.gap_reason);
  }
  // A cell and metric whose definition changed over the nights has one series per definition.
  std::set<std::pair<std::string, std::string>> seen, redefined;
  for (const HistorySeries& s : h.series) {
    if (!seen.insert({s.cell, s.metric}).second) redefined.insert({s.cell, s.metric});
  }
  for (const HistorySeries& s : h.series) {
    out +=
        fmt::format("{} {}{}: {} points", s.cell, s.metric,
                    redefined.count({s.cell, s.metric}) ? " (definition " + s.definition + ")" : "",
                    s.values.size());
    if (s.changes.empty()) {
      out += ", no change point\n";
      continue;
    }
    out += "\n";
    for (const HistoryChange& c : s.changes) {
      out +=
          fmt::format("  change at {} (revisions {}..{}): {:.4g} -> {:.4g} (x{:.3f}, p {:.2g}){}\n",
                      h.bundles[c.bundle].dir, c.from_revision, c.to_revision, c.before, c.after,
                      c.ratio, c.p, c.worse ? ", worse" : ", better");
    }
  }
  return out + h.summary + "\n";
}

nlohmann::json history_to_json(const History& h) {
  nlohmann::json bundles = nlohmann::json::array(), series = nlohmann::json::array();
  for (const HistoryBundle& b : h.bundles) {
    bundles.push_back({{"dir", b.dir},
                       {"started_utc", b.started_utc},
                       {"revision", b.revision},
                       {"usable", b.usable},
                       {"gap_reason", b.gap_reason}});
  }
  for (const HistorySeries& s : h.series) {
    nlohmann::json changes = nlohmann::json::array();
    for (const HistoryChange& c : s.changes) {
      changes.push_back({{"bundle", c.bundle},
                         {"from_revision", c.from_revision},
                         {"to_revision", c.to_revision},
                         {"before", c.before},
                         {"after", c.after},
                         {"ratio", c.ratio},
                         {"p", c.p},
                         {"worse", c.worse}});
    }
    series.push_back({{"cell", s.cell},
                      {"metric", s.metric},
                      {"definition", s.definition},
                      {"higher_is_better", s.higher_is_better},
                      {"bundles", s.bundles},
                      {"values", s.values},
                      {"changes", changes}});
  }
  return {{"schema", "jbench.history"},
          {"schema_version", 1},
          {"dir", h.dir},
          {"outcome", to_string(h.outcome)},
          {"exit_code", exit_code_of(h.outcome)},
          {"summary", h.summary},
          {"bundles", bundles},
          {"series", series}};
}

}  // namespace jbench::compare
