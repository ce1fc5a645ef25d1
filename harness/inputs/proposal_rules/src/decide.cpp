#include "jbench/proposal_rules/decide.h"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>

namespace jbench::proposal_rules {
namespace {

using Json = nlohmann::json;

// How many times better the candidate is, and the interval, in the metric's better direction.
struct Gain {
  double g = 1, low = 1, high = 1;
};

std::optional<Gain> gain_of(const RowFigures& r) {
  if (!r.ratio || !r.ci_low || !r.ci_high || *r.ratio <= 0 || *r.ci_low <= 0 || *r.ci_high <= 0) {
    return std::nullopt;
  }
  if (r.higher_is_better) return Gain{*r.ratio, *r.ci_low, *r.ci_high};
  return Gain{1 / *r.ratio, 1 / *r.ci_high, 1 / *r.ci_low};
}

std::string percent(double x) { return fmt::format("{:.1f}%", x * 100); }

std::string primary_status(const RowFigures* row, const DecisionRule& rule,
                           std::optional<Gain>& gain) {
  if (!row) return "not_measured";
  gain = gain_of(*row);
  if (!gain) return row->none_observed ? "falls_short" : "open";
  const double need = 1 + rule.improvement_at_least;
  if (row->q <= rule.fdr && gain->low > 1 && gain->g >= need) return "clears";
  if (gain->high < need) return "falls_short";
  return "open";
}

std::string counter_status(const RowFigures* row, const ProposalCounter& c, double fdr) {
  if (!row) return "not_measured";
  if (row->none_observed) return "not_moved";
  if (!row->ratio || !row->ci_low || !row->ci_high) return "not_moved";
  const bool down = c.expect == CounterDirection::decrease;
  const double bound = down ? 1 - c.by_at_least : 1 + c.by_at_least;
  if (row->q <= fdr) {
    if (down ? *row->ci_high < bound : *row->ci_low > bound) return "moved";
    if (down ? *row->ci_low > 1 : *row->ci_high < 1) return "against";
  }
  return "not_moved";
}

}  // namespace

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::accepted:
      return "accepted";
    case Verdict::rejected:
      return "rejected";
    case Verdict::inconclusive:
      return "inconclusive";
  }
  return "inconclusive";
}

std::vector<RowFigures> rows_from_json(const Json& report) {
  std::vector<RowFigures> out;
  if (!report.is_object() || !report.contains("rows") || !report["rows"].is_array()) return out;
  const auto number = [](const Json& row, const char* key) -> std::optional<double> {
    auto it = row.find(key);
    if (it == row.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
  };
  for (const Json& row : report["rows"]) {
    if (!row.is_object() || !row.contains("cell") || !row["cell"].is_string() ||
        !row.contains("metric") || !row["metric"].is_string()) {
      continue;
    }
    RowFigures r;
    r.cell = row["cell"].get<std::string>();
    r.metric = row["metric"].get<std::string>();
    r.higher_is_better = row.value("higher_is_better", true);
    r.ratio = number(row, "ratio");
    r.ci_low = number(row, "ci_low");
    r.ci_high = number(row, "ci_high");
    r.q = number(row, "q").value_or(1);
    r.none_observed = row.value("none_observed", false);
    out.push_back(std::move(r));
  }
  return out;
}

namespace {

using ByCell = std::map<std::string, std::map<std::string, const RowFigures*>>;

// The rule applied cell by cell: what each cell says, and the tallies the verdict is made of.
class Decider {
 public:
  Decider(const DecisionRule& rule, const std::vector<ProposalCounter>& counters,
          const ByCell& by_cell)
      : rule_(rule), counters_(counters), by_cell_(by_cell) {}

  void cell(const std::string& name, bool accepting) {
    CellDecision c;
    c.cell = name;
    c.accepting = accepting;
    guards(c);
    if (accepting) {
      primary(c);
      counters(c);
    }
    d_.cells.push_back(std::move(c));
  }

  Decision verdict(const std::set<std::string>& accept_cells) &&;

 private:
  const RowFigures* row(const std::string& cell, const std::string& metric) const {
    const auto& metrics = by_cell_.at(cell);
    auto it = metrics.find(metric);
    return it == metrics.end() ? nullptr : it->second;
  }
  // A counter may be measured only in a traced mode of the same point (fsyncs need the syscall
  // collector): it is read from this cell, else from the point's other cells.
  const RowFigures* counter_row(const std::string& cell, const std::string& metric) const {
    if (const RowFigures* own = row(cell, metric)) return own;
    const std::string point = cell.substr(0, cell.rfind('.'));
    for (const auto& [other, other_metrics] : by_cell_) {
      if (other.substr(0, other.rfind('.')) != point) continue;
      if (auto it = other_metrics.find(metric); it != other_metrics.end()) return it->second;
    }
    return nullptr;
  }
  void guards(CellDecision& c);
  void primary(CellDecision& c);
  void counters(CellDecision& c);

  const DecisionRule& rule_;
  const std::vector<ProposalCounter>& counters_;
  const ByCell& by_cell_;
  Decision d_;
  std::size_t clears_ = 0, falls_short_ = 0, missing_ = 0, regressions_ = 0;
  bool counters_hold_ = true;
  std::vector<std::string> counter_notes_;
};

// A guarded metric worse beyond what the rule allows, with confidence, is a regression.
void Decider::guards(CellDecision& c) {
  for (const auto& metric : rule_.guard_metrics) {
    const RowFigures* r = row(c.cell, metric);
    if (!r) continue;
    auto g = gain_of(*r);
    if (g && r->q <= rule_.fdr && g->high < 1 && 1 / g->g > 1 + rule_.regression_at_most) {
      c.regressions.push_back(metric);
      ++regressions_;
      d_.reasons.push_back(
          fmt::format("{}: {} is worse by {} (interval of the gain {:.3f}-{:.3f}, "
                      "q = {:.3g}), beyond the {} the rule allows",
                      c.cell, metric, percent(1 / g->g - 1), g->low, g->high, r->q,
                      percent(rule_.regression_at_most)));
    }
  }
}

// An accepting cell's primary metric: clears the rule, falls short of it, is open, or missing.
void Decider::primary(CellDecision& c) {
  std::optional<Gain> g;
  c.primary = primary_status(row(c.cell, rule_.primary), rule_, g);
  if (g) {
    c.gain = g->g;
    c.gain_low = g->low;
    c.gain_high = g->high;
  }
  if (c.primary == "clears") ++clears_;
  if (c.primary == "falls_short") {
    ++falls_short_;
    d_.reasons.push_back(
        g ? fmt::format("{}: {} gains ×{:.3f} [{:.3f}-{:.3f}]; the rule asks for at least "
                        "×{:.3f}, which the interval excludes",
                        c.cell, rule_.primary, g->g, g->low, g->high,
                        1 + rule_.improvement_at_least)
          : fmt::format("{}: {} observed nothing on either side", c.cell, rule_.primary));
  }
  if (c.primary == "not_measured") {
    ++missing_;
    d_.reasons.push_back(
        fmt::format("{}: no {} was measured on both sides, so the rule cannot be applied", c.cell,
                    rule_.primary));
  }
}

// Each counter the change is meant to move, and whether it moved as predicted.
void Decider::counters(CellDecision& c) {
  for (const auto& counter : counters_) {
    const std::string s = counter_status(counter_row(c.cell, counter.metric), counter, rule_.fdr);
    c.counters.emplace_back(counter.metric, s);
    if (s == "moved") continue;
    counters_hold_ = false;
    counter_notes_.push_back(fmt::format("{}: the counter {} ({} predicted) {}", c.cell,
                                         counter.metric, to_string(counter.expect),
                                         s == "against"        ? "moved against the prediction"
                                         : s == "not_measured" ? "was not measured"
                                                               : "did not move"));
  }
}

Decision Decider::verdict(const std::set<std::string>& accept_cells) && {
  if (regressions_ > 0 || falls_short_ > 0) {
    d_.verdict = Verdict::rejected;
    return std::move(d_);
  }
  if (!accept_cells.empty() && clears_ == accept_cells.size()) {
    if (counters_hold_) {
      d_.verdict = Verdict::accepted;
      d_.reasons.insert(d_.reasons.begin(),
                        fmt::format("{} improves by at least {} in every accepting cell ({}), no "
                                    "guarded metric regresses beyond {}, and every counter moved "
                                    "as predicted",
                                    rule_.primary, percent(rule_.improvement_at_least), clears_,
                                    percent(rule_.regression_at_most)));
      return std::move(d_);
    }
    d_.unexplained = true;
    d_.reasons.push_back(fmt::format(
        "unexplained: {} improves as the rule asks, but the counters the change is meant to move "
        "do not show it",
        rule_.primary));
    d_.reasons.insert(d_.reasons.end(), counter_notes_.begin(), counter_notes_.end());
    return std::move(d_);
  }
  if (accept_cells.empty()) d_.reasons.push_back("no accepting cell was measured");
  if (missing_ == 0) {
    d_.reasons.push_back(fmt::format(
        "not enough evidence: {} of {} accepting cells clear the rule and none falls short of it",
        clears_, accept_cells.size()));
  }
  d_.reasons.insert(d_.reasons.end(), counter_notes_.begin(), counter_notes_.end());
  return std::move(d_);
}

}  // namespace

Decision decide(const DecisionRule& rule, const std::vector<ProposalCounter>& counters,
                const std::vector<RowFigures>& rows, const std::set<std::string>& accept_cells) {
  ByCell by_cell;
  for (const auto& r : rows) by_cell[r.cell][r.metric] = &r;
  for (const auto& cell : accept_cells) by_cell[cell];  // an accepting cell with no row counts
  Decider decider(rule, counters, by_cell);
  for (const auto& [cell, metrics] : by_cell) decider.cell(cell, accept_cells.count(cell) > 0);
  return std::move(decider).verdict(accept_cells);
}

Decision decision_without_timing(Verdict verdict, std::string reason) {
  Decision d;
  d.verdict = verdict;
  d.reasons.push_back(std::move(reason));
  return d;
}

Json decision_to_json(const Decision& d) {
  Json cells = Json::array();
  const auto opt = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
  for (const auto& c : d.cells) {
    Json counters = Json::object();
    for (const auto& [metric, status] : c.counters) counters[metric] = status;
    Json cell = {{"cell", c.cell}, {"accepting", c.accepting}, {"regressions", c.regressions}};
    if (c.accepting) {
      cell["primary"] = c.primary;
      cell["gain"] = opt(c.gain);
      cell["gain_low"] = opt(c.gain_low);
      cell["gain_high"] = opt(c.gain_high);
      cell["counters"] = counters;
    }
    cells.push_back(std::move(cell));
  }
  return {{"verdict", to_string(d.verdict)},
          {"unexplained", d.unexplained},
          {"reasons", d.reasons},
          {"cells", cells}};
}

}  // namespace jbench::proposal_rules
