// The overview's row of a cell and mode: read off the cell's account, nothing recomputed; and the
// overview as a table for --format csv|markdown.
#include <fmt/format.h>

#include <algorithm>

#include "cells.h"
#include "jbench/attribution/attribution_output.h"

namespace jbench::attribution {
namespace {

std::string figure(std::optional<double> value, double scale) {
  return value ? fmt::format("{:.4f}", *value * scale) : std::string();
}

}  // namespace

OverviewRow overview_row(const CellAttribution& cell) {
  OverviewRow row;
  row.cell = cell.cell;
  row.mode = cell.mode;
  row.repetitions = cell.repetitions;
  for (const PartRow& p : cell.parts) {  // by share, the rest last
    if (p.kind == "rest") {
      row.rest_share = p.share;
    } else if (row.largest.empty()) {
      row.largest = p.label;
      row.largest_share = p.share;
    }
  }
  row.rest_over_limit = row.rest_share.value > kRestWorthSaying;
  if (cell.observer.median_ratio) {
    row.cost = Estimate{*cell.observer.median_ratio, cell.observer.ci_low, cell.observer.ci_high};
  }
  return row;
}

Table overview_table(const AttributionReport& report) {
  std::vector<std::string> axes;  // every cell's axis names, first seen first
  for (const auto& c : report.cells) {
    for (const auto& [axis, value] : c.values) {
      if (std::find(axes.begin(), axes.end(), axis) == axes.end()) axes.push_back(axis);
    }
  }
  Table t;
  t.columns = {"cell"};
  t.columns.insert(t.columns.end(), axes.begin(), axes.end());
  for (const char* c :
       {"mode", "repetitions", "largest_part", "largest_share_pct", "largest_share_low_pct",
        "largest_share_high_pct", "rest_pct", "rest_low_pct", "rest_high_pct", "rest_over_5pct",
        "cost_ratio", "cost_ratio_low", "cost_ratio_high", "bundle_valid"}) {
    t.columns.emplace_back(c);
  }
  for (std::size_t i = 0; i < report.overview.size() && i < report.cells.size(); ++i) {
    const OverviewRow& o = report.overview[i];
    std::vector<std::string> row = {o.cell};
    for (const auto& axis : axes) {
      const auto& values = report.cells[i].values;
      const auto it = std::find_if(values.begin(), values.end(),
                                   [&](const auto& v) { return v.first == axis; });
      row.push_back(it == values.end() ? "" : it->second);
    }
    const bool largest = !o.largest.empty();
    const Estimate cost = o.cost.value_or(Estimate{});
    row.insert(row.end(),
               {o.mode, std::to_string(o.repetitions), o.largest,
                largest ? figure(o.largest_share.value, 100) : "",
                largest ? figure(o.largest_share.low, 100) : "",
                largest ? figure(o.largest_share.high, 100) : "", figure(o.rest_share.value, 100),
                figure(o.rest_share.low, 100), figure(o.rest_share.high, 100),
                std::string(o.rest_over_limit ? "yes" : "no"), o.cost ? figure(cost.value, 1) : "",
                o.cost ? figure(cost.low, 1) : "", o.cost ? figure(cost.high, 1) : "",
                std::string(report.valid ? "yes" : "no")});
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace jbench::attribution
