// The project's own counters (docs/report.md, "The project's counters"): per cell, trace mode and
// counter, the value per measured operation of each run that has it. A bundle whose runs reported
// no counter of their own has no such section.
#include <fmt/format.h>

#include <algorithm>

#include "format.h"
#include "html_escape.h"
#include "sections.h"

namespace jbench::html_pages {

using nlohmann::json;

std::string project_counters_section(const json& rows) {
  const json& all = array_or_empty(rows);
  if (all.empty()) return {};
  std::string out =
      "<section id=\"project-counters\">\n<h2>The project's own counters, per measured "
      "operation</h2>\n"
      "<p class=\"explain\"><code>counter:</code> what its <code>jb_counter</code> calls recorded "
      "through the trace bridge in the measure phase (full runs); <code>result:</code> what its "
      "workers counted and reported themselves (every mode). Compared by name as any metric.</p>\n"
      "<div class=\"table-scroll\"><table class=\"project-counters\">\n<thead><tr><th>cell</th>"
      "<th>mode</th><th>counter</th><th>runs</th><th>median</th><th>min..max</th></tr></thead>\n"
      "<tbody>\n";
  for (const json& row : all) {
    std::vector<double> values;
    for (const json& v : array_or_empty(field(row, "per_op"))) {
      if (const auto n = number(v)) values.push_back(*n);
    }
    if (values.empty()) continue;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    const auto median = number(field(row, "median_per_op"));
    const auto ok_runs = number(field(row, "ok_runs"));
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.4g}..{:.4g}</td>"
        "</tr>\n",
        escape(text(field(row, "cell"))), escape(text(field(row, "mode"))),
        escape(text(field(row, "counter"))),
        ok_runs ? fmt::format("{} of {:.0f}", values.size(), *ok_runs) : "-",
        median ? fmt::format("{:.4g}", *median) : "-", *lo, *hi);
  }
  return out + "</tbody>\n</table></div>\n</section>\n";
}

}  // namespace jbench::html_pages
