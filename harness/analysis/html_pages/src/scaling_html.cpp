// The scaling section: for each group of cells that differ only in their worker count, the
// throughput against workers with its interval band, the efficiency at each point, and the
// per-operation costs that grow with the workers.
#include <fmt/format.h>

#include "format.h"
#include "html_escape.h"
#include "plots.h"
#include "sections.h"

namespace jbench::html_pages {

using nlohmann::json;

namespace {

std::string efficiency_note(const json& point) {
  const auto e = number(field(point, "efficiency"));
  if (!e) return {};
  const auto lo = number(field(point, "efficiency_low"));
  const auto hi = number(field(point, "efficiency_high"));
  return "eff " + percent(*e) + (lo && hi ? " " + percent_interval(*lo, *hi) : "");
}

std::string growing_costs_table(const json& costs) {
  if (array_or_empty(costs).empty()) return {};
  std::string out =
      "<table class=\"growing\"><thead><tr><th>cost that grows</th><th>per op, fewest "
      "workers</th><th>per op, most workers</th><th>growth</th></tr></thead><tbody>\n";
  for (const json& c : costs) {
    const auto first = number(field(c, "ns_per_op_first"));
    const auto last = number(field(c, "ns_per_op_last"));
    const auto growth = number(field(c, "growth"));
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       escape(text(field(c, "label"))), first ? duration(*first) : "—",
                       last ? duration(*last) : "—", growth ? ratio(*growth) : "—");
  }
  return out + "</tbody></table>\n";
}

}  // namespace

std::string scaling_section(const json& scaling) {
  std::string out =
      "<section id=\"scaling\">\n<h2>Scaling</h2>\n"
      "<p class=\"explain\">Throughput (operations per second, median over the runs) against "
      "the worker count; the shaded band is its 95% interval, and each point is labelled with "
      "its efficiency: throughput per worker against the fewest workers'.</p>\n";
  if (array_or_empty(scaling).empty()) {
    out +=
        "<p class=\"empty\">No scaling group: the report has no cells that differ only in "
        "their worker count.</p>\n";
  }
  for (const json& group : array_or_empty(scaling)) {
    std::string axis = text(field(group, "axis"));
    if (axis.empty()) axis = "workers";
    const std::string cell = text(field(group, "cell"));
    std::vector<CurvePoint> points;
    std::string unplaced;  // points the curve leaves out, said below it rather than dropped
    for (const json& p : array_or_empty(field(group, "points"))) {
      const auto x = number(field(p, axis)), y = number(field(p, "throughput"));
      if (!x || !y) {
        if (!unplaced.empty()) unplaced += "; ";
        unplaced += (x ? plain(*x) + " " + axis : "a point without " + axis) + ": no throughput";
        if (auto runs = number(field(p, "runs"))) unplaced += " (" + count_of(*runs, "run") + ")";
        continue;
      }
      points.push_back(
          {*x, *y, number(field(p, "low")), number(field(p, "high")), efficiency_note(p)});
    }
    out += fmt::format("<figure class=\"scaling\" data-cell=\"{}\"><figcaption>{}</figcaption>\n",
                       escape(cell), escape(cell.empty() ? "(unnamed group)" : cell));
    if (auto sentence = text(field(group, "sentence")); !sentence.empty()) {
      out += "<p class=\"scaling-sentence\">" + escape(sentence) + "</p>\n";
    }
    out += points.empty() ? "<p class=\"empty\">No points with a throughput.</p>\n"
                          : scaling_curve(points, axis, "throughput /s", "scaling of " + cell);
    if (!unplaced.empty()) out += "<p class=\"note\">Not drawn: " + escape(unplaced) + ".</p>\n";
    out += growing_costs_table(field(group, "growing_costs")) + "</figure>\n";
  }
  return out + "</section>\n";
}

}  // namespace jbench::html_pages
