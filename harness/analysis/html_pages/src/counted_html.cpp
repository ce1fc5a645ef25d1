// The counted cells (docs/trace-modes.md, "counted"): per cell, the instructions per operation of
// its counted runs, with what counted them. A bundle without counted runs has no such section.
#include <fmt/format.h>

#include <algorithm>

#include "format.h"
#include "html_escape.h"
#include "sections.h"

namespace jbench::html_pages {

using nlohmann::json;

std::string counted_section(const json& counted) {
  const json& cells = array_or_empty(counted);
  if (cells.empty()) return {};
  std::string out =
      "<section id=\"counted\">\n<h2>Counted instructions per operation</h2>\n"
      "<p class=\"explain\">Each run counted inside the counting runtime, from its first measured "
      "operation to its last. The spread is between seeds (other statements drawn), not noise: "
      "one seed counts the same instructions every time, so comparisons pair counted runs by "
      "seed. Their times are the runtime's: its slowdown is in the overhead section.</p>\n"
      "<div class=\"table-scroll\"><table class=\"counted\">\n<thead><tr><th>cell</th>"
      "<th>counted runs</th><th>median</th><th>min..max</th><th>counted by</th></tr></thead>\n"
      "<tbody>\n";
  for (const json& cell : cells) {
    std::vector<double> values;
    for (const json& v : array_or_empty(field(cell, "instructions_per_op"))) {
      if (const auto n = number(v)) values.push_back(*n);
    }
    const auto median = number(field(cell, "median_instructions_per_op"));
    std::string spread = "-";
    if (!values.empty()) {
      const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
      spread = fmt::format("{:.0f}..{:.0f}", *lo, *hi);
    }
    const auto counted_runs = number(field(cell, "counted_runs"));
    const auto runs = number(field(cell, "runs"));
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        escape(text(field(cell, "cell"))),
        counted_runs && runs ? fmt::format("{:.0f} of {:.0f}", *counted_runs, *runs) : "-",
        median ? fmt::format("{:.0f}", *median) : "none counted", spread,
        escape(text(field(cell, "source"))));
  }
  return out + "</tbody>\n</table></div>\n</section>\n";
}

}  // namespace jbench::html_pages
