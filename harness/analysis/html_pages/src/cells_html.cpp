// The per-cell sections that lead the page: the dominant-cost sentences and the stacked bars.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "format.h"
#include "html_escape.h"
#include "plots.h"
#include "sections.h"

namespace jbench::html_pages {

using nlohmann::json;

std::string cell_name(const json& cell) {
  std::string name = text(field(cell, "cell"));
  const std::string mode = text(field(cell, "mode"));
  if (name.empty()) name = "(unnamed cell)";
  return mode.empty() ? name : name + " · " + mode;
}

std::string share_interval(const json& low, const json& high, const json& repetitions) {
  const auto lo = number(low), hi = number(high);
  if (lo && hi) return percent_interval(*lo, *hi);
  return number(repetitions) == 1.0 ? "no interval (1 repetition)" : "no interval";
}

std::vector<const json*> ranked_parts(const json& cell) {
  std::vector<const json*> parts;
  for (const json& p : array_or_empty(field(cell, "parts"))) parts.push_back(&p);
  std::stable_sort(parts.begin(), parts.end(), [](const json* a, const json* b) {
    const auto ra = number(field(*a, "rank")), rb = number(field(*b, "rank"));
    if (ra && rb) return *ra < *rb;
    return ra.has_value() && !rb.has_value();
  });
  return parts;
}

std::string dominant_cost_section(const json& cells) {
  std::string out = "<section id=\"dominant-costs\">\n<h2>Dominant costs</h2>\n";
  if (array_or_empty(cells).empty()) {
    out += "<p class=\"empty\">No cell has a cost account in this report.</p>\n";
  }
  for (const json& cell : array_or_empty(cells)) {
    std::string sentence = text(field(cell, "sentence"));
    if (sentence.empty()) sentence = cell_name(cell) + ": not enough evidence for a dominant cost.";
    out += fmt::format("<p class=\"dominant-cost\" data-cell=\"{}\" data-mode=\"{}\">{}</p>\n",
                       escape(text(field(cell, "cell"))), escape(text(field(cell, "mode"))),
                       escape(sentence));
  }
  return out + "</section>\n";
}

std::string cost_bars_section(const json& cells) {
  std::string out =
      "<section id=\"cost-bars\">\n<h2>Where the time went</h2>\n"
      "<p class=\"explain\">One bar per cell and trace mode: each part's share of the phase's "
      "attributed time, largest first; the hatched grey segment is the rest (on-CPU elsewhere "
      "and untraced waiting). Hover over a segment for its interval.</p>\n";
  int id = 0;
  std::size_t index = 0;  // the cell's place in report["cells"]: its account links here
  for (const json& cell : array_or_empty(cells)) {
    const json& reps = field(cell, "repetitions");
    std::vector<BarSegment> segments;
    for (const json* part : ranked_parts(cell)) {
      BarSegment s;
      s.label = text(field(*part, "label"));
      if (s.label.empty()) s.label = "(unlabelled part)";
      s.share = number(field(*part, "share")).value_or(0);
      s.detail = share_interval(field(*part, "share_low"), field(*part, "share_high"), reps);
      s.rest = text(field(*part, "kind")) == "rest";
      segments.push_back(std::move(s));
    }
    std::string caption = cell_name(cell);
    const std::string phase = text(field(cell, "phase"));
    if (!phase.empty()) caption += ", " + phase + " phase";
    if (const auto f = number(field(cell, "attributed_fraction")); f && *f < 1.0) {
      caption += ": shares of the " + percent(*f) + " of the time that was attributed";
    }
    out += fmt::format(
        "<figure class=\"cost-bar\" id=\"bar-{}\" data-cell=\"{}\"><figcaption>{}</figcaption>\n",
        index++, escape(text(field(cell, "cell"))), escape(caption));
    out += segments.empty()
               ? "<p class=\"empty\">No parts: not enough evidence to split this cell's time.</p>\n"
               : stacked_bar(segments, "cost bar of " + cell_name(cell), id++);
    out += "</figure>\n";
  }
  if (array_or_empty(cells).empty()) out += "<p class=\"empty\">No cells.</p>\n";
  return out + "</section>\n";
}

}  // namespace jbench::html_pages
