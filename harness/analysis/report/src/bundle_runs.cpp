#include "jbench/report/bundle_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "jbench/bundle/json_file.h"

namespace jbench::report {
namespace {

using Json = nlohmann::json;

// run.json -> trace_mode.collectors[name == syscall].lifecycle: attached_ns - started_ns.
// The measure phase's boundaries, when run.json has both in order.
std::optional<std::pair<std::uint64_t, std::uint64_t>> measure_window(const Json& run) {
  const auto b = run.find("boundaries");
  if (b == run.end() || !b->is_object()) return std::nullopt;
  const auto start = decimal_at(*b, "measure_start_ns");
  const auto end = decimal_at(*b, "measure_end_ns");
  if (!start || !end || *end <= *start) return std::nullopt;
  return std::pair{*start, *end};
}

std::optional<std::uint64_t> tracer_attach_ns(const Json& run) {
  const Json* c = collector_entry(run, "syscall");
  if (!c) return std::nullopt;
  const auto life = c->find("lifecycle");
  if (life == c->end()) return std::nullopt;
  const auto started = decimal_at(*life, "started_ns");
  const auto attached = decimal_at(*life, "attached_ns");
  if (!started || !attached || *attached < *started || *started == 0) return std::nullopt;
  return *attached - *started;
}

// A manifest written by another version, or edited, may hold a null or a value of another type
// where a figure is expected: it reads as absent (empty, 0), never as an exception.
std::string text_at(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}
std::size_t count_at(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number_unsigned() ? it->get<std::size_t>() : 0;
}
double number_at(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

// What the bundle's plan.json says of the matrix's order: its cells by id
// ("w1.cold.mixed.below.full") -> their position, and its axes' names in order. A bundle without a
// readable plan orders its cells naturally (cell_order.h) and its values by name.
struct PlanOrder {
  std::map<std::string, std::size_t> cell_rank;
  std::vector<std::string> axes;
};

PlanOrder plan_order(const std::string& dir) {
  PlanOrder out;
  std::string ignored;
  const auto plan = read_json_object(dir + "/plan.json", ignored);
  if (!plan) return out;
  if (const auto cells = plan->find("cells"); cells != plan->end() && cells->is_array()) {
    for (std::size_t i = 0; i < cells->size(); ++i) {
      if ((*cells)[i].is_object()) out.cell_rank.emplace(text_at((*cells)[i], "id"), i);
    }
  }
  if (const auto axes = plan->find("axes"); axes != plan->end() && axes->is_array()) {
    for (const Json& a : *axes) {
      if (a.is_object()) out.axes.push_back(text_at(a, "axis"));
    }
  }
  return out;
}

// A run's values in the matrix's axis order; axes the plan does not name after them, by name.
void order_values(std::vector<std::pair<std::string, std::string>>& values,
                  const std::vector<std::string>& axes) {
  const auto rank = [&axes](const std::string& axis) {
    return std::find(axes.begin(), axes.end(), axis) - axes.begin();
  };
  std::stable_sort(values.begin(), values.end(),
                   [&](const auto& a, const auto& b) { return rank(a.first) < rank(b.first); });
}

}  // namespace

std::set<std::string> clean_collectors(const Json& run) {
  std::set<std::string> out;
  const auto mode = run.find("trace_mode");
  if (mode == run.end() || !mode->is_object()) return out;
  const auto list = mode->find("collectors");
  if (list == mode->end() || !list->is_array()) return out;
  for (const Json& c : *list) {
    if (!c.is_object() || text_at(c, "status") != "ok") continue;
    const auto dropped = c.find("dropped");
    if (dropped == c.end()) continue;
    if ((dropped->is_number() && dropped->get<double>() == 0) || decimal_value(*dropped) == 0u) {
      out.insert(text_at(c, "name"));
    }
  }
  return out;
}

BundleRuns read_bundle_runs(const std::string& dir) {
  BundleRuns out;
  const auto manifest = read_json_object(dir + "/manifest.json", out.error);
  if (!manifest) return out;
  out.bundle_status = manifest->value("status", "");
  const auto found = manifest->find("runs");
  if (found == manifest->end() || !found->is_array()) {
    out.error = fmt::format("{}/manifest.json has no list of runs", dir);
    return out;
  }
  const PlanOrder plan = plan_order(dir);
  for (const auto& entry : *found) {
    if (!entry.is_object()) {
      out.error = fmt::format("{}/manifest.json: a run entry is not an object", dir);
      return out;
    }
    RunFacts r;
    r.id = text_at(entry, "id");
    r.trace = text_at(entry, "trace");
    r.status = run_status_from_name(text_at(entry, "status"));
    r.seed = text_at(entry, "seed");
    if (r.status == RunStatus::not_run) continue;  // its figures are null: it never ran
    r.block = count_at(entry, "block");
    r.order = count_at(entry, "order");
    r.throughput = number_at(entry, "throughput_ops_per_s");
    // The cell is the point's values without the trace mode, as run.json states them.
    std::string error;
    const auto run = read_json_object(fmt::format("{}/runs/{}/run.json", dir, r.id), error);
    if (!run) {
      out.error = error;
      return out;
    }
    const auto values = run->find("values");
    if (values != run->end() && values->is_object()) {
      for (auto it = values->begin(); it != values->end(); ++it) {
        if (it.key() == "trace" || !it.value().is_string()) continue;
        r.values.emplace_back(it.key(), it.value().get<std::string>());
      }
    }
    r.tracer_attach_ns = tracer_attach_ns(*run);
    r.measure_window = measure_window(*run);
    r.clean_collectors = clean_collectors(*run);
    // The run id names the point in the plan's own axis order: drop ".<trace>.r<n>".
    const auto rep = r.id.rfind(".r");
    const std::string point = rep == std::string::npos ? r.id : r.id.substr(0, rep);
    const std::string suffix = "." + r.trace;
    r.cell = point.size() > suffix.size() && point.ends_with(suffix)
                 ? point.substr(0, point.size() - suffix.size())
                 : point;
    if (const auto rank = plan.cell_rank.find(r.cell + suffix); rank != plan.cell_rank.end())
      r.plan_rank = rank->second;
    order_values(r.values, plan.axes);
    out.runs.push_back(std::move(r));
  }
  return out;
}

}  // namespace jbench::report
