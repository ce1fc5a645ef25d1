#include <fmt/format.h>

#include "jbench/plan/plan.h"

namespace jbench {

std::string_view plan_state_name(PlanState state) {
  switch (state) {
    case PlanState::measured:
      return "measured";
    case PlanState::planned:
      return "planned";
    case PlanState::skipped:
      return "skipped";
    case PlanState::delegated:
      return "delegated";
  }
  return "?";
}

std::string point_id(const Matrix& m, const CellValues& values) {
  std::string id;
  for (auto axis : kAllAxes) {
    const auto a = static_cast<std::size_t>(axis);
    if (axis == Axis::trace || values[a] == kAbsent) continue;
    if (!id.empty()) id += '.';
    if (axis == Axis::workers) id += 'w';
    // A parameter's value says which parameter it is: "ops_per_transaction=10".
    if (is_param_axis(axis)) id += fmt::format("{}=", m.axis_name(axis));
    id += m.axes[a].labels[values[a]];
  }
  return id;
}

std::string cell_id(const Plan& plan, const Run& run) {
  const Block& block = plan.blocks[run.block];
  return fmt::format("{}.{}", point_id(*plan.matrix, block.point), trace_mode_name(run.trace));
}

std::string run_id(const Plan& plan, const Run& run) {
  return fmt::format("{}.r{}", cell_id(plan, run), plan.blocks[run.block].repetition + 1);
}

std::string describe_reason(const Plan& plan, const Cell& cell) {
  const Matrix& m = *plan.matrix;
  const auto workers_index = cell.values[static_cast<std::size_t>(Axis::workers)];
  const std::uint32_t workers = workers_index == kAbsent ? 1 : m.workers[workers_index];
  switch (cell.reason) {
    case CellReason::none:
      return {};
    case CellReason::only_filter:
      return "not selected by --only";
    case CellReason::mode_unavailable: {
      const auto t = cell.values[static_cast<std::size_t>(Axis::trace)];
      return plan.options.unavailable_trace_modes[static_cast<std::size_t>(m.trace_modes[t])];
    }
    case CellReason::max_workers:
      return fmt::format("workers={} is over limits.max_workers={}", workers, m.limits.max_workers);
    case CellReason::host_cores:
      return fmt::format("workers={} is over limits.workers_per_core={} x {} host cores", workers,
                         *m.limits.workers_per_core, plan.host.cores);
    case CellReason::other_shard:
      return fmt::format("delegated to shard {}/{}", cell.owner,
                         plan.shard ? plan.shard->count : 0);
    case CellReason::host_memory:
      return fmt::format("workers={} x limits.memory_per_worker_mib={} is over the host's {} MiB",
                         workers, *m.limits.memory_per_worker_mib, plan.host.memory_mib);
  }
  return {};
}

}  // namespace jbench
