#include "jbench/overhead_report/overhead.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "jbench/common/random.h"
#include "jbench/overhead_report/cell_order.h"
#include "jbench/stats/bootstrap.h"
#include "jbench/stats/median.h"

namespace jbench::overhead_report {
namespace {

constexpr std::uint64_t kBootstrapSeed = 0x6a62656e63680001ULL;  // fixed: reproducible reports
constexpr const char* kModeOrder[] = {"no-consumer", "light", "full", "counted"};

// The effects a reader compares: two cells that differ in exactly one axis value.
bool differ_in_one_axis(const RunFacts& a, const RunFacts& b, std::string& axis) {
  if (a.values.size() != b.values.size()) return false;
  int differences = 0;
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    if (a.values[i].first != b.values[i].first) return false;
    if (a.values[i].second != b.values[i].second) {
      ++differences;
      axis = a.values[i].first;
    }
  }
  return differences == 1;
}

}  // namespace

OverheadReport compute_overhead(const std::vector<RunFacts>& runs) {
  OverheadReport report;
  // (cell, block) -> the baseline of that block; blocks hold one repetition of one point.
  std::map<std::pair<std::string, std::size_t>, const RunFacts*> baselines;
  std::map<std::string, const RunFacts*> any_of_cell;
  for (const auto& r : runs) {
    any_of_cell.emplace(r.cell, &r);
    if (r.trace == TraceMode::baseline) baselines[{r.cell, r.block}] = &r;
  }
  const std::vector<std::string> cells = ordered_points(runs);
  std::map<std::string, std::vector<double>> baseline_throughput;
  for (const auto& [key, b] : baselines) {
    if (b->status == RunStatus::ok && b->throughput > 0)
      baseline_throughput[key.first].push_back(b->throughput);
  }
  std::map<std::pair<std::string, std::string>, double> overhead_of;  // (cell, mode) -> |ratio-1|
  for (const auto& cell : cells) {
    for (const char* mode : kModeOrder) {
      ModeOverhead row;
      row.cell = cell;
      row.mode = mode;
      std::vector<double> ratios;
      bool any = false;
      for (const auto& r : runs) {
        if (r.cell != cell || r.trace_name() != mode) continue;
        any = true;
        const auto it = baselines.find({cell, r.block});
        const RunFacts* b = it == baselines.end() ? nullptr : it->second;
        if (!b || b->status != RunStatus::ok || r.status != RunStatus::ok || r.throughput <= 0 ||
            b->throughput <= 0) {
          ++row.unpaired;
          continue;
        }
        ratios.push_back(b->throughput / r.throughput);
        if (r.order < b->order) ++row.mode_first;
      }
      if (!any) continue;
      row.pairs = ratios.size();
      row.median_ratio = stats::median(ratios);
      if (auto ci = stats::median_interval(ratios, report.bootstrap_resamples,
                                           combine64(kBootstrapSeed, fnv1a64(cell + "/" + mode)))) {
        row.ci_low = ci->first;
        row.ci_high = ci->second;
      }
      if (row.median_ratio) overhead_of[{cell, mode}] = std::abs(*row.median_ratio - 1.0);
      report.rows.push_back(std::move(row));
    }
  }
  // An effect between two cells on baseline that is smaller than a mode's own cost in either
  // cell cannot be read from that mode's runs.
  for (std::size_t i = 0; i < cells.size(); ++i) {
    for (std::size_t j = i + 1; j < cells.size(); ++j) {
      std::string axis;
      if (!differ_in_one_axis(*any_of_cell[cells[i]], *any_of_cell[cells[j]], axis)) continue;
      const auto a = stats::median(baseline_throughput[cells[i]]);
      const auto b = stats::median(baseline_throughput[cells[j]]);
      if (!a || !b) continue;
      const double effect = std::abs(*a / *b - 1.0);
      for (const char* mode : kModeOrder) {
        double cost = 0;
        for (const auto& c : {cells[i], cells[j]}) {
          if (auto it = overhead_of.find({c, mode}); it != overhead_of.end()) {
            cost = std::max(cost, it->second);
          }
        }
        if (cost > 0 && effect < cost) {
          report.warnings.push_back(fmt::format(
              "{} vs {} (axis {}): the baseline difference, {:.1f}%, is smaller than the "
              "observer overhead of {} ({:.1f}%): compare them on baseline runs only",
              cells[i], cells[j], axis, effect * 100, mode, cost * 100));
        }
      }
    }
  }
  return report;
}

}  // namespace jbench::overhead_report
