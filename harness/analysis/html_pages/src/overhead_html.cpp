// The overhead section: each cell+mode's cost against its paired baseline as a forest plot, so
// that the modes' costs can be compared at a glance and a cost within noise is seen as such.
#include <fmt/format.h>

#include "format.h"
#include "html_escape.h"
#include "plots.h"
#include "sections.h"

namespace jbench::html_pages {

using nlohmann::json;

std::string overhead_section(const json& overhead) {
  std::string out =
      "<section id=\"overhead\">\n<h2>What observing cost</h2>\n"
      "<p class=\"explain\">Per cell and trace mode: the median over the pairs of baseline "
      "throughput / traced throughput (the square) and its 95% bootstrap interval (the "
      "whisker). The dashed line at ×1.00 is a traced run as fast as its baseline; right of it, "
      "the observer slowed the work down.</p>\n";
  std::vector<ForestRow> rows;
  for (const json& row : array_or_empty(field(overhead, "rows"))) {
    ForestRow r;
    r.label = cell_name(row);  // a row names its cell and mode as a cell account does
    r.point = number(field(row, "median_ratio"));
    r.low = number(field(row, "ci95_low"));
    r.high = number(field(row, "ci95_high"));
    const auto pairs = number(field(row, "pairs"));
    const std::string pairs_text = pairs ? count_of(*pairs, "pair") : "";
    if (!r.point) {
      r.note = "no pairs: no ratio";
    } else if (r.low && r.high) {
      r.note = fmt::format("{} [{:.2f}–{:.2f}]", ratio(*r.point), *r.low, *r.high);
      if (!pairs_text.empty()) r.note += ", " + pairs_text;
    } else {
      r.note =
          ratio(*r.point) + ", no interval" + (pairs_text.empty() ? "" : " (" + pairs_text + ")");
      r.low.reset();  // half an interval is drawn as none
      r.high.reset();
    }
    rows.push_back(std::move(r));
  }
  out += rows.empty() ? "<p class=\"empty\">No overhead rows: no traced run had a usable "
                        "baseline pair.</p>\n"
                      : forest_plot(rows, "overhead forest plot",
                                    "×1.00: the traced run as fast as its baseline");
  return out + "</section>\n";
}

}  // namespace jbench::html_pages
