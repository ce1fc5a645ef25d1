// The human-readable plan: what will run, what will not and why, how long it should take, and
// the execution order block by block.
#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <sstream>

#include "jbench/plan/plan_output.h"

namespace jbench {
namespace {

std::string duration_text(std::uint64_t ms) {
  const std::uint64_t s = ms / 1000;
  if (s < 60) return fmt::format("{:.1f} s", static_cast<double>(ms) / 1000.0);
  if (s < 3600) return fmt::format("{}m {:02}s", s / 60, s % 60);
  return fmt::format("{}h {:02}m", s / 3600, (s % 3600) / 60);
}

std::string phase_text(const Phase& p, std::string_view name) {
  if (p.kind == Phase::Kind::duration) return fmt::format("{} {}", name, duration_text(p.amount));
  return fmt::format("{} {} operations", name, p.amount);
}

void write_estimate(std::string& out, const Plan& plan) {
  const Matrix& m = *plan.matrix;
  const Estimate& e = plan.estimate;
  if (auto total = e.total_ms()) {
    out += fmt::format("time    about {} ({} runs x ({} + {} + {} allowance per run)",
                       duration_text(*total), e.runs, phase_text(m.warmup, "warmup"),
                       phase_text(m.measure, "measure"), duration_text(e.overhead_per_run_ms));
    if (e.traced_runs > 0) {
      out += fmt::format(" + {} traced runs x {} tracer attach ({})", e.traced_runs,
                         duration_text(e.attach_per_traced_run_ms), e.attach_source);
      out += fmt::format(" + {} light x {} + {} full x {} after the run ({})", e.light_runs,
                         duration_text(e.after_light_run_ms), e.full_runs,
                         duration_text(e.after_full_run_ms), e.after_run_source);
    }
    out += ");";
  } else {
    out += fmt::format("time    unknown ({}, {}: operation counts have no fixed duration);",
                       phase_text(m.warmup, "warmup"), phase_text(m.measure, "measure"));
  }
  out += fmt::format(" at most {} ({} s run timeout); dataset builds not included\n",
                     duration_text(e.bound_ms), m.limits.run_timeout_s);
}

void write_axis_table(std::string& out, const Plan& plan) {
  // Parameter axes are named by their parameter, often longer than the built-in names.
  std::size_t width = 11;
  for (const auto& axis : plan.axes)
    width = std::max(width, plan.matrix->axis_name(axis.axis).size());
  out += fmt::format("\n{:<{}} {:<14} {:<9} {:>6} {:>6}  {}\n", "axis", width, "value", "state",
                     "cells", "runs", "reason");
  for (const auto& axis : plan.axes) {
    for (const auto& v : axis.values) {
      std::string value = v.label + (v.implicit ? " (implicit)" : "");
      std::string line =
          fmt::format("{:<{}} {:<14} {:<9} {:>6} {:>6}  {}", plan.matrix->axis_name(axis.axis),
                      width, value, plan_state_name(v.state), v.cells, v.runs, v.reason);
      line.erase(line.find_last_not_of(' ') + 1);
      out += line + '\n';
    }
  }
}

// Flushes `out` into `stream` every few thousand lines so a huge plan is never one huge string.
void write_order(std::string& out, const Plan& plan, std::ostream& stream) {
  out += fmt::format(
      "\norder   {} blocks; each runs its trace modes back to back, in the order "
      "shown\n",
      plan.blocks.size());
  for (std::size_t b = 0; b < plan.blocks.size(); ++b) {
    const Block& block = plan.blocks[b];
    std::string modes;
    for (std::uint32_t i = 0; i < block.run_count; ++i) {
      const Run& run = plan.runs[block.first_run + i];
      if (!modes.empty()) modes += ' ';
      modes += trace_mode_name(run.trace);
      if (run.implicit) modes += '*';
    }
    out +=
        fmt::format("{:>7}  {:<32} r{:<3} seed {:016x}  {}\n", b + 1,
                    point_id(*plan.matrix, block.point), block.repetition + 1, block.seed, modes);
    if (out.size() > (1u << 20)) {
      stream << out;
      out.clear();
    }
  }
  if (plan.counts.implicit_baselines > 0) out += "        * implicit baseline\n";
}

}  // namespace

void write_plan_text(const Plan& plan, std::ostream& stream) {
  const Matrix& m = *plan.matrix;
  const auto& c = plan.counts;
  const auto n = [&](PlanState s) { return c.cells_by_state[static_cast<std::size_t>(s)]; };
  std::string out;
  out += fmt::format("plan    {} ({}, sha256 {})\n", m.name, m.file, m.sha256.substr(0, 16));
  out += fmt::format("host    {} cores, {} MiB memory\n", plan.host.cores, plan.host.memory_mib);
  out += fmt::format(
      "cells   {} ({} in the product, {} excluded): {} measured, {} planned, {} "
      "skipped\n",
      c.cells, c.product, c.excluded, n(PlanState::measured), n(PlanState::planned),
      n(PlanState::skipped));
  if (n(PlanState::delegated) > 0) {
    out.pop_back();
    out += fmt::format(", {} delegated to other shards\n", n(PlanState::delegated));
  }
  out += fmt::format("runs    {} in {} blocks ({} repetitions), {} implicit baselines\n", c.runs,
                     c.blocks, m.repetitions, c.implicit_baselines);
  if (plan.shard) {
    out += fmt::format(
        "shard   {}/{}: {} of the whole plan's {} blocks, {} of its {} runs (blocks are never "
        "split)\n",
        plan.shard->index, plan.shard->count, c.blocks, plan.whole_plan_blocks, c.runs,
        plan.whole_plan_runs);
  }
  for (const auto& o : m.overrides) {
    out += fmt::format("override {} = {} by {} (the matrix says {})\n", o.key, o.value, o.by,
                       o.file_value);
  }
  write_estimate(out, plan);
  write_axis_table(out, plan);
  stream << out;
  out.clear();
  write_order(out, plan, stream);
  stream << out;
}

std::string plan_to_text(const Plan& plan) {
  std::ostringstream out;
  write_plan_text(plan, out);
  return out.str();
}

}  // namespace jbench
