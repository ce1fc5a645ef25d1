#include "jbench/overhead_report/counted.h"

#include <fmt/format.h>

#include <algorithm>

#include "jbench/overhead_report/cell_order.h"
#include "jbench/stats/median.h"

namespace jbench::overhead_report {
namespace {

using Json = nlohmann::json;

// A count per operation of a counted run's summary (its measure_instructions or
// measure_allocations); nothing when it has no such count.
std::optional<double> per_op(const model::Summary& summary,
                             std::optional<std::uint64_t> model::CountedTotals::*figure) {
  if (!summary.counted || !summary.operations || *summary.operations <= 0) return std::nullopt;
  const auto n = (*summary.counted).*figure;
  if (!n) return std::nullopt;
  return static_cast<double>(*n) / *summary.operations;
}

// The median allocation calls per operation, when every counted run of the cell counted them.
std::optional<double> median_allocations(const CountedCell& c) {
  std::vector<double> values;
  for (const auto& v : c.allocations_per_op) {
    if (!v) return std::nullopt;
    values.push_back(*v);
  }
  return stats::median(values);
}

}  // namespace

Result<std::vector<CountedCell>> read_counted_cells(const std::vector<RunFacts>& runs) {
  std::map<std::string, CountedCell> cells;
  for (const RunFacts& r : runs) {
    if (r.trace != TraceMode::counted) continue;
    CountedCell& cell = cells[r.cell];
    cell.cell = r.cell;
    ++cell.runs;
    if (r.status != RunStatus::ok || !r.clean_collectors.count("instructions")) continue;
    if (!r.summary) return r.summary.error();
    const auto value = per_op(**r.summary, &model::CountedTotals::measure_instructions);
    if (!value) continue;
    ++cell.counted;
    cell.instructions_per_op.push_back(*value);
    cell.allocations_per_op.push_back(
        per_op(**r.summary, &model::CountedTotals::measure_allocations));
    cell.seeds.push_back(r.seed);
    if (cell.source.empty()) cell.source = r.counter_source;
  }
  std::vector<CountedCell> out;
  for (const auto& [point, trace] : ordered_cells(runs)) {
    if (trace == "counted") out.push_back(std::move(cells[point]));
  }
  return out;
}

std::string counted_to_text(const std::vector<CountedCell>& cells) {
  if (cells.empty()) return {};
  std::string out = fmt::format(
      "\nCounted instructions per operation (docs/trace-modes.md, \"counted\")\n"
      "each run's measure phase counted by its counter (counted by); allocs = calls into malloc "
      "and its kin\n(callgrind only); the spread is between seeds (other statements drawn), not "
      "noise: one seed counts\nthe same every time\n\n{:<40} {:>7} {:>14} {:>26} {:>9}  {}\n",
      "cell", "runs", "median", "min..max", "allocs", "counted by");
  for (const CountedCell& c : cells) {
    std::string median = "-", spread = "-";
    if (!c.instructions_per_op.empty()) {
      median = fmt::format("{:.0f}", *stats::median(c.instructions_per_op));
      const auto [lo, hi] =
          std::minmax_element(c.instructions_per_op.begin(), c.instructions_per_op.end());
      spread = fmt::format("{:.0f}..{:.0f}", *lo, *hi);
    }
    const auto allocations = median_allocations(c);
    out += fmt::format("{:<40} {:>7} {:>14} {:>26} {:>9}  {}\n", c.cell,
                       fmt::format("{}/{}", c.counted, c.runs), median, spread,
                       allocations ? fmt::format("{:.1f}", *allocations) : "-",
                       c.source.empty() ? "-" : c.source);
  }
  out +=
      "their times are the counting runtime's: its slowdown is the overhead table's `counted` "
      "row, and compare reads only their counts\n";
  return out;
}

Json counted_to_json(const std::vector<CountedCell>& cells) {
  Json out = Json::array();
  for (const CountedCell& c : cells) {
    Json median = nullptr, allocations = Json::array(), median_calls = nullptr;
    if (!c.instructions_per_op.empty()) median = *stats::median(c.instructions_per_op);
    for (const auto& v : c.allocations_per_op) allocations.push_back(v ? Json(*v) : Json());
    if (const auto m = median_allocations(c)) median_calls = *m;
    out.push_back({{"cell", c.cell},
                   {"runs", c.runs},
                   {"counted_runs", c.counted},
                   {"instructions_per_op", c.instructions_per_op},
                   {"seeds", c.seeds},
                   {"median_instructions_per_op", median},
                   {"allocations_per_op", allocations},
                   {"median_allocations_per_op", median_calls},
                   {"source", c.source}});
  }
  return out;
}

}  // namespace jbench::overhead_report
