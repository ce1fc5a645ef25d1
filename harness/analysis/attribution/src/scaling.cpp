// Scaling along `workers`: for cells that differ only in their worker count, the baseline
// throughput with its interval, the parallel efficiency against the smallest count, and which
// cost per operation grows with the count — the contention that explains the curve.
#include "scaling.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>

#include "jbench/common/random.h"
#include "jbench/stats/bootstrap.h"
#include "jbench/stats/median.h"
#include "resample.h"
#include "words.h"

namespace jbench::attribution {
namespace {

std::optional<std::uint64_t> workers_of(
    const std::vector<std::pair<std::string, std::string>>& values) {
  for (const auto& [k, v] : values) {
    if (k != "workers") continue;
    std::uint64_t n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec == std::errc() && end == v.data() + v.size() && n > 0) return n;
  }
  return std::nullopt;
}

// The group of cells that differ only in their worker count, in words ("writer lane,
// persistent, dataset small").
std::string without_workers(const std::vector<std::pair<std::string, std::string>>& values) {
  std::vector<std::pair<std::string, std::string>> rest;
  for (const auto& kv : values) {
    if (kv.first != "workers") rest.push_back(kv);
  }
  return describe_cell(rest);
}

double median_of(std::vector<double> v) { return *stats::median(std::move(v)); }

using ByWorkers = std::map<std::uint64_t, std::vector<double>>;  // workers -> throughputs

// One worker count's baseline throughput with its interval, and its parallel efficiency against
// the smallest count (`w0`, `t0`): throughput per worker, medians resampled.
ScalingPoint scaling_point(const std::string& group, std::uint64_t w, const std::vector<double>& t,
                           std::uint64_t w0, const std::vector<double>& t0) {
  ScalingPoint p;
  p.workers = w;
  p.runs = t.size();
  p.throughput.value = median_of(t);
  if (const auto ci = stats::median_interval(t, kResamples, fnv1a64(group) ^ w)) {
    p.throughput.low = ci->first;
    p.throughput.high = ci->second;
  }
  Estimate e;
  const double scale = static_cast<double>(w0) / static_cast<double>(w);
  e.value = median_of(t) / median_of(t0) * scale;
  if (w != w0) {
    const auto a = resample_runs(t.size(), kResamples, fmt::format("{}/{}/a", group, w));
    const auto b = resample_runs(t0.size(), kResamples, fmt::format("{}/{}/b", group, w));
    if (!a.empty() && !b.empty()) {
      std::vector<double> v;
      for (std::size_t i = 0; i < kResamples; ++i) {
        std::vector<double> x, y;
        for (const auto k : a[i]) x.push_back(t[k]);
        for (const auto k : b[i]) y.push_back(t0[k]);
        v.push_back(median_of(x) / median_of(y) * scale);
      }
      const auto [lo, hi] = stats::percentile_interval(v);
      e.low = lo;
      e.high = hi;
    }
  }
  p.efficiency = e;
  return p;
}

// Per-operation costs at the smallest and largest count, from full detail where it ran, else
// light: the five that grow most (by more than 20%, and above 1% of an operation's wall time).
void growing_costs(const std::string& group, const ByWorkers& by_workers,
                   const std::vector<CellAttribution>& cells, ScalingGroup& g) {
  for (const char* mode : {"full", "light"}) {
    const CellAttribution* first = nullptr;
    const CellAttribution* last = nullptr;
    for (const auto& c : cells) {
      if (c.mode != mode || without_workers(c.values) != group || c.repetitions == 0) continue;
      const auto w = workers_of(c.values);
      if (w == by_workers.begin()->first) first = &c;
      if (w == by_workers.rbegin()->first) last = &c;
    }
    if (!first || !last || first == last) continue;
    g.cost_mode = mode;
    const auto before = ns_per_op_by_label(*first);
    for (const auto& [label, ns] : ns_per_op_by_label(*last)) {
      double old = 0;
      for (const auto& [l, n] : before) {
        if (l == label) old = n;
      }
      if (old > 0 && ns > old * 1.2 &&
          ns > 0.01 * last->wall_ns_per_run / std::max(1.0, last->operations_per_run)) {
        g.growing.push_back({label, old, ns, ns / old});
      }
    }
    std::sort(g.growing.begin(), g.growing.end(), [](const GrowingCost& a, const GrowingCost& b) {
      return a.ns_per_op_last - a.ns_per_op_first > b.ns_per_op_last - b.ns_per_op_first;
    });
    if (g.growing.size() > 5) g.growing.resize(5);
    return;
  }
}

// The group's sentence: throughput at both ends, efficiency, and what grows.
std::string scaling_sentence(const ScalingGroup& g) {
  const ScalingPoint& a = g.points.front();
  const ScalingPoint& z = g.points.back();
  std::string s = fmt::format(
      "{}: baseline throughput {:.0f} ops/s at {} worker{} and {:.0f} at {} ({}), parallel "
      "efficiency {}",
      g.group, a.throughput.value, a.workers, a.workers == 1 ? "" : "s", z.throughput.value,
      z.workers,
      z.throughput.low ? fmt::format("[{:.0f}–{:.0f}]", *z.throughput.low, *z.throughput.high)
                       : "no interval",
      share_with_interval(*z.efficiency));
  if (!g.growing.empty()) {
    s +=
        fmt::format("; per operation, {} grows ×{:.1f} ({} → {}, {} mode)", g.growing.front().label,
                    g.growing.front().growth, duration(g.growing.front().ns_per_op_first),
                    duration(g.growing.front().ns_per_op_last), g.cost_mode);
    // The scheduler's state that grows most says of what kind that growth is.
    const auto state = std::find_if(g.growing.begin() + 1, g.growing.end(), [](const auto& c) {
      return c.label.rfind("scheduler:", 0) == 0;
    });
    if (state != g.growing.end() && g.growing.front().label.rfind("scheduler:", 0) != 0) {
      s += fmt::format(", and {} ×{:.1f} ({} → {})", state->label, state->growth,
                       duration(state->ns_per_op_first), duration(state->ns_per_op_last));
    }
  } else if (!g.cost_mode.empty()) {
    s +=
        fmt::format("; no traced cost per operation grows by more than 20% ({} mode)", g.cost_mode);
  } else {
    s += "; no traced runs at both ends, so no cost per operation can be compared";
  }
  return s + ".";
}

}  // namespace

std::vector<ScalingGroup> analyse_scaling(const std::vector<overhead_report::RunFacts>& runs,
                                          const std::vector<CellAttribution>& cells) {
  std::map<std::string, ByWorkers> groups;  // group -> workers -> baseline throughputs
  for (const auto& r : runs) {
    const auto w = workers_of(r.values);
    if (!w || r.trace != TraceMode::baseline || r.status != RunStatus::ok) continue;
    groups[without_workers(r.values)][*w].push_back(r.throughput);
  }
  std::vector<ScalingGroup> out;
  for (const auto& [group, by_workers] : groups) {
    if (by_workers.size() < 2) continue;
    ScalingGroup g;
    g.group = group;
    const auto& [w0, t0] = *by_workers.begin();
    for (const auto& [w, t] : by_workers) g.points.push_back(scaling_point(group, w, t, w0, t0));
    growing_costs(group, by_workers, cells, g);
    g.sentence = scaling_sentence(g);
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace jbench::attribution
