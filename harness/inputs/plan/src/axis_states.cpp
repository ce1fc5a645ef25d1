// Every axis value ends in exactly one state. The rules, in order:
//   measured  — at least one of its cells is measured (for a baseline --only left out, because
//               the selected traced modes need it);
//   planned   — the value is not selected by --only;
//   skipped   — it has no cell (exclude rules removed them all) or only skipped cells;
//   planned   — its cells are not measured because --only filtered other axes.
// On a shard's plan, a value none of whose cells this shard measures but some other shard does is
// `delegated` (checked right after measured).
#include <fmt/format.h>

#include <algorithm>

#include "jbench/plan/plan.h"
#include "plan_internal.h"

namespace jbench::detail {
namespace {

bool filtered_out(const Plan& plan, Axis axis, std::uint16_t value) {
  for (const auto& f : plan.filters) {
    if (f.axis != axis) continue;
    return std::find(f.values.begin(), f.values.end(), value) == f.values.end();
  }
  return false;
}

std::string only_text(const Plan& plan, Axis axis) {
  for (const auto& f : plan.filters) {
    if (f.axis != axis) continue;
    std::string values;
    for (auto v : f.values) {
      if (!values.empty()) values += ',';
      values += plan.matrix->axis(axis).labels[v];
    }
    return fmt::format("--only {}={}", plan.matrix->axis_name(axis), values);
  }
  return {};
}

constexpr std::size_t kTrace = static_cast<std::size_t>(Axis::trace);

// Per axis and value: how many cells are in each state, the first skipped cell, and the runs.
struct ValueTally {
  std::array<std::vector<std::array<std::uint64_t, 4>>, kAxisCount> counts;
  std::array<std::vector<const Cell*>, kAxisCount> first_skipped;
  std::array<std::vector<std::uint64_t>, kAxisCount> runs;
  std::uint64_t implicit_runs = 0;
};

ValueTally tally(const Plan& plan) {
  const Matrix& m = *plan.matrix;
  ValueTally t;
  for (std::size_t a = 0; a < kAxisCount; ++a) {
    t.counts[a].assign(m.axes[a].labels.size(), {});
    t.first_skipped[a].assign(m.axes[a].labels.size(), nullptr);
    t.runs[a].assign(m.axes[a].labels.size(), 0);
  }
  for (const auto& run : plan.runs) {
    // An implicit baseline has no cell, but its block names the point it belongs to.
    const auto& point = plan.blocks[run.block].point;
    for (std::size_t a = 0; a < kTrace; ++a) {
      if (point[a] != kAbsent) ++t.runs[a][point[a]];
    }
    if (run.implicit) {
      ++t.implicit_runs;
    } else {
      ++t.runs[kTrace][plan.cells[run.cell].values[kTrace]];
    }
  }
  for (const auto& cell : plan.cells) {
    for (std::size_t a = 0; a < kAxisCount; ++a) {
      if (cell.values[a] == kAbsent) continue;
      ++t.counts[a][cell.values[a]][static_cast<std::size_t>(cell.state)];
      if (cell.state == PlanState::skipped && !t.first_skipped[a][cell.values[a]]) {
        t.first_skipped[a][cell.values[a]] = &cell;
      }
    }
  }
  return t;
}

// One value's state and reason, by the rules at the top of this file.
void decide_value(const Plan& plan, Axis axis, std::size_t v, const ValueTally& t,
                  ValueStatus& vs) {
  const Matrix& m = *plan.matrix;
  const auto a = static_cast<std::size_t>(axis);
  const auto& c = t.counts[a][v];
  const auto n = [&](PlanState s) { return c[static_cast<std::size_t>(s)]; };
  const bool filtered = filtered_out(plan, axis, static_cast<std::uint16_t>(v));
  if (n(PlanState::measured) > 0) {
    // Only the baseline is measured although --only left it out: traced runs need it.
    vs.state = PlanState::measured;
    if (filtered) vs.reason = "kept as the pairing baseline of the selected traced modes";
  } else if (n(PlanState::delegated) > 0) {
    // Measured, but by other shards only: the shard that runs the first of its cells.
    const Cell* first = nullptr;
    for (const auto& cell : plan.cells) {
      if (cell.values[a] == v && cell.state == PlanState::delegated) {
        if (!first || cell.owner < first->owner) first = &cell;
      }
    }
    vs.state = PlanState::delegated;
    vs.reason = fmt::format("measured by other shards (first: {})", describe_reason(plan, *first));
  } else if (filtered) {
    vs.state = PlanState::planned;
    vs.reason = fmt::format("not selected by {}", only_text(plan, axis));
  } else if (axis == Axis::trace &&
             !plan.options.unavailable_trace_modes[static_cast<std::size_t>(m.trace_modes[v])]
                  .empty()) {
    vs.state = PlanState::planned;
    vs.reason = plan.options.unavailable_trace_modes[static_cast<std::size_t>(m.trace_modes[v])];
  } else if (n(PlanState::planned) > 0) {
    vs.state = PlanState::planned;
    vs.reason = "its cells are not selected by --only on other axes";
  } else if (n(PlanState::skipped) > 0) {
    vs.state = PlanState::skipped;
    vs.reason = describe_reason(plan, *t.first_skipped[a][v]);
  } else {
    vs.state = PlanState::skipped;
    vs.reason = "every cell with this value is removed by exclude rules";
  }
}

}  // namespace

std::vector<AxisStatus> axis_states(const Plan& plan, bool implicit_baseline) {
  const Matrix& m = *plan.matrix;
  const ValueTally t = tally(plan);
  std::vector<AxisStatus> out;
  for (auto axis : kAllAxes) {
    const auto a = static_cast<std::size_t>(axis);
    const auto& values = m.axes[a];
    if (values.labels.empty()) continue;
    AxisStatus status{axis, values.declared, {}};
    if (axis == Axis::trace && implicit_baseline) {
      // The implicit baseline runs exactly when some traced run of its blocks does.
      status.values.push_back(
          {"baseline", t.implicit_runs > 0 ? PlanState::measured : PlanState::planned,
           t.implicit_runs > 0
               ? "added: every traced run is paired with an untraced baseline"
               : "added for pairing, but no traced run it would pair with is measured",
           true, 0, t.implicit_runs});
    }
    for (std::size_t v = 0; v < values.labels.size(); ++v) {
      ValueStatus vs{values.labels[v], PlanState::measured, {}, false, 0, t.runs[a][v]};
      for (auto k : t.counts[a][v]) vs.cells += k;
      decide_value(plan, axis, v, t, vs);
      status.values.push_back(std::move(vs));
    }
    out.push_back(std::move(status));
  }
  return out;
}

}  // namespace jbench::detail
