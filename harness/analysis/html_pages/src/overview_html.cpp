// The overview: the page's first block, one square per cell and traced mode — its largest part
// and share, the rest (what no part names) and what observing cost — tinted by the rest, so the
// eye finds the unexplained first; a click goes to that cell's account (docs/report.md).
#include <fmt/format.h>

#include <algorithm>

#include "format.h"
#include "html_escape.h"
#include "jbench/overhead_report/cell_order.h"
#include "sections.h"

namespace jbench::html_pages {

using nlohmann::json;

namespace {

// "31% [30–32]", or the share alone where there is no interval.
std::string share_text(const json& row, const char* key) {
  const auto value = number(field(row, key));
  if (!value) return "—";
  const auto low = number(field(row, std::string(key) + "_low"));
  const auto high = number(field(row, std::string(key) + "_high"));
  return percent(*value) + (low && high ? " " + percent_interval(*low, *high) : "");
}

std::string cost_text(const json& row) {
  const auto value = number(field(row, "cost_ratio"));
  if (!value) return "cost not measured";
  const auto low = number(field(row, "cost_ratio_low"));
  const auto high = number(field(row, "cost_ratio_high"));
  return "cost " + ratio(*value) +
         (low && high ? fmt::format(" [{:.2f}–{:.2f}]", *low, *high) : "");
}

std::string square(const json& row, std::size_t account) {
  const double rest = number(field(row, "rest_share")).value_or(0);
  // Full tint at a tenth of the time unexplained.
  const double tint = std::clamp(rest / 0.10, 0.0, 1.0) * 0.55;
  const auto low = number(field(row, "cost_ratio_low"));
  const bool costly = low && *low > 1.0;  // the whole interval says observing slowed the work
  const std::string largest = text(field(row, "largest"));
  return fmt::format(
      "<td class=\"square{}\" data-cell=\"{}\" data-mode=\"{}\" data-rest=\"{}\" "
      "style=\"background: rgba(192, 57, 43, {:.3f})\" title=\"{}\">"
      "<a href=\"#account-{}\"><span class=\"largest\">{}</span> "
      "<span class=\"share\">{}</span><br><span class=\"rest\">rest {}</span> · "
      "<span class=\"cost{}\">{}</span></a></td>",
      field(row, "rest_over_limit") == true ? " over-limit" : "", escape(text(field(row, "cell"))),
      escape(text(field(row, "mode"))), rest, tint,
      escape(fmt::format("largest part {}; rest {}; {}", share_text(row, "largest_share"),
                         share_text(row, "rest_share"), cost_text(row))),
      account, escape(largest.empty() ? "no part but the rest" : largest),
      largest.empty() ? "" : percent(number(field(row, "largest_share")).value_or(0)),
      percent(rest), costly ? " costly" : "", escape(cost_text(row)));
}

}  // namespace

std::string overview_section(const json& overview) {
  std::string out =
      "<section id=\"overview\">\n<h2>Overview</h2>\n"
      "<p class=\"explain\">Per cell and traced mode: the largest part and its share of the "
      "measure phase, what no part names (the rest: the redder the square, the more of it), and "
      "what observing cost (the paired baseline's throughput over the mode's; in bold where its "
      "whole interval is above ×1.00). Hover for the intervals; click for the cell's "
      "account.</p>\n";
  const json& rows = array_or_empty(overview);
  if (rows.empty()) {
    return out +
           "<p class=\"empty\">No cell was attributed: nothing to overview.</p>\n</section>\n";
  }
  std::vector<std::string> cells;
  std::vector<std::string> modes;
  for (const json& row : rows) {
    const std::string cell = text(field(row, "cell"));
    const std::string mode = text(field(row, "mode"));
    if (std::find(cells.begin(), cells.end(), cell) == cells.end()) cells.push_back(cell);
    if (std::find(modes.begin(), modes.end(), mode) == modes.end()) modes.push_back(mode);
  }
  // The columns in the documented order, as the text report draws them, whichever cell comes
  // first.
  std::stable_sort(modes.begin(), modes.end(), [](const auto& a, const auto& b) {
    return overhead_report::mode_rank(a) < overhead_report::mode_rank(b);
  });
  out += "<table class=\"overview\">\n<thead><tr><th>cell</th>";
  for (const auto& m : modes) out += "<th>" + escape(m) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& cell : cells) {
    out += "<tr><th class=\"cell\">" + escape(cell) + "</th>";
    for (const auto& m : modes) {
      const auto it = std::find_if(rows.begin(), rows.end(), [&](const json& row) {
        return text(field(row, "cell")) == cell && text(field(row, "mode")) == m;
      });
      out += it == rows.end() ? "<td class=\"empty\">—</td>"
                              : square(*it, static_cast<std::size_t>(it - rows.begin()));
    }
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n</section>\n";
}

}  // namespace jbench::html_pages
