// The plan as JSON (manifests/plan.schema.json). 64-bit seeds are strings: a JSON reader that
// holds numbers as doubles would round them silently.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "jbench/matrix/worker_declaration.h"
#include "jbench/plan/plan_output.h"

namespace jbench {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kPlanSchemaVersion = 1;

Json phase_json(const Phase& p) {
  Json j = Json::object();
  j[p.kind == Phase::Kind::duration ? "duration_ms" : "operations"] = p.amount;
  return j;
}

// A cell's or point's values by axis name; workers as a number.
Json values_json(const Matrix& m, const CellValues& values) {
  Json j = Json::object();
  for (auto axis : kAllAxes) {
    const auto a = static_cast<std::size_t>(axis);
    if (values[a] == kAbsent) continue;
    if (axis == Axis::workers) {
      j["workers"] = m.workers[values[a]];
    } else {
      j[std::string(m.axis_name(axis))] = m.axes[a].labels[values[a]];
    }
  }
  return j;
}

// Unset settings are null: the trace mode's default applies (docs/trace-modes.md).
Json collector_settings_json(const CollectorSettings& c) {
  const auto bytes = [](const std::optional<std::uint64_t>& v) { return v ? Json(*v) : Json(); };
  return {
      {"alloc",
       {{"mean_interval_bytes",
         {{"light", bytes(c.alloc_mean_bytes_light)}, {"full", bytes(c.alloc_mean_bytes_full)}}}}},
      {"syscall", {{"backend", c.syscall_backend.empty() ? Json() : Json(c.syscall_backend)}}},
      {"counter", {{"backend", c.counter_backend.empty() ? Json() : Json(c.counter_backend)}}}};
}

Json overrides_json(const std::vector<MatrixOverride>& overrides) {
  Json out = Json::array();
  for (const auto& o : overrides) {
    out.push_back({{"key", o.key}, {"file_value", o.file_value}, {"value", o.value}, {"by", o.by}});
  }
  return out;
}

Json matrix_json(const Matrix& m) {
  Json params = Json::object();
  Json defaulted = Json::array();
  for (const auto& p : m.workload.params) {
    // A parameter whose default is none stays out of `params` when absent, as it stays out of
    // the configure message; `defaulted` still names it, so every parameter of the kind is
    // either in `params` or in `defaulted`.
    with_value(p, [&](const auto& v) { params[p.key] = v; });
    if (p.defaulted) defaulted.push_back(p.key);
  }
  Json workload = {{"kind", m.workload.kind}, {"params", params}, {"defaulted", defaulted}};
  if (m.workload.kind == kProcessKind) {
    workload["command"] = m.workload.command;
    // What the worker said of itself, as it said it: the table the params were checked against.
    if (m.workload.declaration) {
      workload["declaration"] = Json::parse(m.workload.declaration->line());
    }
  }
  Json datasets = Json::array();
  for (const auto& d : m.datasets) {
    datasets.push_back({{"name", d.name},
                        {"rows", d.rows},
                        {"row_bytes", d.row_bytes},
                        {"page_cache_kib", d.page_cache_kib},
                        {"description", d.description}});
  }
  Json excludes = Json::array();
  for (const auto& rule : m.excludes) {
    Json match = Json::object();
    for (auto axis : kAllAxes) {
      if (!rule.names(axis)) continue;
      Json labels = Json::array();
      for (auto v : rule.values[static_cast<std::size_t>(axis)]) {
        labels.push_back(m.axis(axis).labels[v]);
      }
      match[std::string(m.axis_name(axis))] = labels;
    }
    excludes.push_back(
        {{"line", rule.where.line}, {"column", rule.where.column}, {"match", match}});
  }
  Json limits = {{"max_workers", m.limits.max_workers},
                 {"run_timeout_s", m.limits.run_timeout_s},
                 {"output_mib", m.limits.output_mib}};
  if (m.limits.memory_per_worker_mib)
    limits["memory_per_worker_mib"] = *m.limits.memory_per_worker_mib;
  if (m.limits.workers_per_core) limits["workers_per_core"] = *m.limits.workers_per_core;
  return {{"file", m.file},
          {"sha256", m.sha256},
          {"language_version", m.language_version},
          {"name", m.name},
          {"description", m.description},
          {"seed", std::to_string(m.seed)},
          {"repetitions", m.repetitions},
          {"workload", workload},
          {"phases", {{"warmup", phase_json(m.warmup)}, {"measure", phase_json(m.measure)}}},
          {"limits", limits},
          {"order",
           {{"blocks", m.ordering.shuffle_blocks ? "shuffled" : "declared"},
            {"modes", to_string(m.ordering.modes)},
            {"seed", std::to_string(m.ordering.seed)}}},
          {"datasets", datasets},
          {"exclude", excludes},
          {"collectors", collector_settings_json(m.collectors)},
          {"overrides", overrides_json(m.overrides)}};
}

Json axes_json(const Plan& plan) {
  Json axes = Json::array();
  for (const auto& axis : plan.axes) {
    Json values = Json::array();
    for (const auto& v : axis.values) {
      Json j = {{"value", v.label},
                {"state", plan_state_name(v.state)},
                {"cells", v.cells},
                {"runs", v.runs}};
      if (!v.reason.empty()) j["reason"] = v.reason;
      if (v.implicit) j["implicit"] = true;
      values.push_back(std::move(j));
    }
    axes.push_back({{"axis", plan.matrix->axis_name(axis.axis)},
                    {"declared", axis.declared},
                    {"values", values}});
  }
  return axes;
}

std::string cell_id(const Plan& plan, const Cell& cell) {
  const auto t = cell.values[static_cast<std::size_t>(Axis::trace)];
  return fmt::format("{}.{}", point_id(*plan.matrix, cell.values),
                     plan.matrix->axis(Axis::trace).labels[t]);
}

Json run_json(const Plan& plan, std::size_t i) {
  const Run& run = plan.runs[i];
  const Block& block = plan.blocks[run.block];
  Json j = {{"order", i},
            {"id", run_id(plan, run)},
            {"block", run.block},
            {"trace", trace_mode_name(run.trace)},
            {"implicit", run.implicit},
            {"cell", run.implicit ? Json(nullptr) : Json(cell_id(plan, plan.cells[run.cell]))},
            {"seed", std::to_string(block.seed)}};
  if (run.trace != TraceMode::baseline) {
    for (std::uint32_t k = 0; k < block.run_count; ++k) {
      const Run& other = plan.runs[block.first_run + k];
      if (other.trace == TraceMode::baseline) j["baseline"] = run_id(plan, other);
    }
  }
  return j;
}

// Writes `items` as a JSON array, one compact element per line, under `key`.
template <typename Fn>
void write_array(std::ostream& out, std::string_view key, std::size_t count, Fn element,
                 bool last) {
  out << "  \"" << key << "\": [";
  for (std::size_t i = 0; i < count; ++i) {
    out << (i == 0 ? "\n    " : ",\n    ") << element(i).dump();
  }
  out << (count == 0 ? "]" : "\n  ]") << (last ? "\n" : ",\n");
}

}  // namespace

nlohmann::json plan_filters_to_json(const Plan& plan) {
  const Matrix& m = *plan.matrix;
  Json filters = Json::array();
  for (const auto& f : plan.filters) {
    Json values = Json::array();
    for (auto v : f.values) values.push_back(m.axis(f.axis).labels[v]);
    filters.push_back({{"axis", m.axis_name(f.axis)}, {"values", values}});
  }
  return filters;
}

nlohmann::json plan_axes_to_json(const Plan& plan) { return axes_json(plan); }

nlohmann::json plan_matrix_overrides_json(const Matrix& m) { return overrides_json(m.overrides); }

nlohmann::json plan_shard_to_json(const Plan& plan) {
  if (!plan.shard) return nullptr;
  return {{"index", plan.shard->index},
          {"count", plan.shard->count},
          {"whole_plan_blocks", plan.whole_plan_blocks},
          {"whole_plan_runs", plan.whole_plan_runs}};
}

nlohmann::json plan_counts_to_json(const Plan& plan) {
  const auto& c = plan.counts;
  return {{"product", c.product},
          {"excluded", c.excluded},
          {"cells", c.cells},
          {"measured", c.cells_by_state[0]},
          {"planned", c.cells_by_state[1]},
          {"skipped", c.cells_by_state[2]},
          {"delegated", c.cells_by_state[3]},
          {"blocks", c.blocks},
          {"runs", c.runs},
          {"implicit_baselines", c.implicit_baselines}};
}

void write_plan_json(const Plan& plan, std::ostream& out) {
  const Matrix& m = *plan.matrix;
  const auto& e = plan.estimate;
  Json estimate = {{"runs", e.runs},
                   {"per_run_ms", e.per_run_ms ? Json(*e.per_run_ms) : Json(nullptr)},
                   {"overhead_per_run_ms", e.overhead_per_run_ms},
                   {"traced_runs", e.traced_runs},
                   {"attach_per_traced_run_ms", e.attach_per_traced_run_ms},
                   {"attach_source", e.attach_source},
                   {"light_runs", e.light_runs},
                   {"full_runs", e.full_runs},
                   {"after_light_run_ms", e.after_light_run_ms},
                   {"after_full_run_ms", e.after_full_run_ms},
                   {"after_run_source", e.after_run_source},
                   {"total_ms", e.total_ms() ? Json(*e.total_ms()) : Json(nullptr)},
                   {"bound_ms", e.bound_ms}};
  Json head = {{"schema", "jbench.plan"},
               {"schema_version", kPlanSchemaVersion},
               {"matrix", matrix_json(m)},
               {"host", {{"cores", plan.host.cores}, {"memory_mib", plan.host.memory_mib}}},
               {"filters", plan_filters_to_json(plan)},
               {"counts", plan_counts_to_json(plan)},
               {"estimate", estimate},
               {"axes", axes_json(plan)}};
  if (plan.shard) head["shard"] = plan_shard_to_json(plan);
  // The small head pretty-printed, then the three long arrays streamed.
  std::string text = head.dump(2);
  text.pop_back();  // the closing brace
  while (!text.empty() && text.back() == '\n') text.pop_back();
  out << text << ",\n";
  write_array(
      out, "cells", plan.cells.size(),
      [&](std::size_t i) {
        const Cell& cell = plan.cells[i];
        Json j = {{"id", cell_id(plan, cell)},
                  {"values", values_json(m, cell.values)},
                  {"state", plan_state_name(cell.state)}};
        if (cell.reason != CellReason::none) j["reason"] = describe_reason(plan, cell);
        return j;
      },
      false);
  write_array(
      out, "blocks", plan.blocks.size(),
      [&](std::size_t b) {
        const Block& block = plan.blocks[b];
        Json modes = Json::array();
        for (std::uint32_t i = 0; i < block.run_count; ++i) {
          modes.push_back(trace_mode_name(plan.runs[block.first_run + i].trace));
        }
        return Json{{"index", b},
                    {"point", point_id(m, block.point)},
                    {"values", values_json(m, block.point)},
                    {"repetition", block.repetition + 1},
                    {"seed", std::to_string(block.seed)},
                    {"modes", modes}};
      },
      false);
  write_array(
      out, "runs", plan.runs.size(), [&](std::size_t i) { return run_json(plan, i); }, true);
  out << "}\n";
}

std::string plan_to_json(const Plan& plan) {
  std::ostringstream out;
  write_plan_json(plan, out);
  return out.str();
}

}  // namespace jbench
