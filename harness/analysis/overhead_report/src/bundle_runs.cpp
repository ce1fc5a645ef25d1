#include "jbench/overhead_report/bundle_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "jbench/model/bundle_reader.h"

namespace jbench::overhead_report {
namespace {

using model::BundleReader;
using model::RunDocument;

// The measure phase's boundaries, when run.json has both in order.
std::optional<std::pair<std::uint64_t, std::uint64_t>> measure_window(const RunDocument& run) {
  const auto start = run.boundary("measure_start_ns");
  const auto end = run.boundary("measure_end_ns");
  if (!start || !end || *end <= *start) return std::nullopt;
  return std::pair{*start, *end};
}

// The syscall collector's lifecycle: attached_ns - started_ns.
std::optional<std::uint64_t> tracer_attach_ns(const RunDocument& run) {
  const model::CollectorEntry* c = run.collector("syscall");
  if (!c || !c->started_ns || !c->attached_ns) return std::nullopt;
  if (*c->attached_ns < *c->started_ns || *c->started_ns == 0) return std::nullopt;
  return *c->attached_ns - *c->started_ns;
}

// What the bundle's plan.json says of the matrix's order: its cells by id
// ("w1.cold.mixed.below.full") -> their position, its axes' names in order, and each run's point
// (by run id, from the run's block). A bundle without a readable plan orders its cells naturally
// (cell_order.h) and its values by name.
struct PlanOrder {
  std::map<std::string, std::size_t> cell_rank;
  std::vector<std::string> axes;
  std::map<std::string, std::string> point_of_run;
};

PlanOrder plan_order(const BundleReader& bundle) {
  PlanOrder out;
  auto plan = bundle.plan();
  if (!plan) return out;
  for (std::size_t i = 0; i < plan->cells.size(); ++i) out.cell_rank.emplace(plan->cells[i].id, i);
  for (const model::PlanRun& run : plan->runs) {
    if (run.block < plan->blocks.size()) {
      out.point_of_run.emplace(run.id, plan->blocks[run.block].point);
    }
  }
  out.axes = std::move(plan->axes);
  return out;
}

// The run's point: the plan's block of it says, or (a bundle without a plan that lists it) the
// run id without ".<trace>.r<n>", the ids being the plan's point ids so made (docs/bundle.md).
std::string point_of(const RunFacts& r, const PlanOrder& plan) {
  if (const auto point = plan.point_of_run.find(r.id); point != plan.point_of_run.end()) {
    return point->second;
  }
  const auto rep = r.id.rfind(".r");
  const std::string point = rep == std::string::npos ? r.id : r.id.substr(0, rep);
  const std::string suffix = "." + r.trace_name();
  return point.size() > suffix.size() && point.ends_with(suffix)
             ? point.substr(0, point.size() - suffix.size())
             : point;
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

RunFacts facts_of(const model::ManifestRun& entry, RunDocument run, const PlanOrder& plan) {
  RunFacts r;
  r.id = entry.id;
  r.trace = entry.trace;
  r.status = entry.status;
  r.seed = entry.seed;
  r.block = entry.block;
  r.order = entry.order;
  r.throughput = entry.throughput_ops_per_s.value_or(0.0);
  for (const auto& [axis, label] : run.values) {
    if (axis != "trace") r.values.emplace_back(axis, label);
  }
  r.tracer_attach_ns = tracer_attach_ns(run);
  r.measure_window = measure_window(run);
  r.clean_collectors = clean_collectors(run);
  if (const model::CollectorEntry* c = run.collector("instructions")) {
    r.counter_source =
        fmt::format("{} ({})", c->backend.value_or("?"), c->version.value_or("version unknown"));
  }
  r.cell = point_of(r, plan);
  if (const auto rank = plan.cell_rank.find(r.cell + "." + r.trace_name());
      rank != plan.cell_rank.end()) {
    r.plan_rank = rank->second;
  }
  order_values(r.values, plan.axes);
  r.document = std::make_shared<const RunDocument>(std::move(run));
  return r;
}

// The manifest's runs that ran, each with its summary when it is ok and summaries are read.
Result<BundleRuns> runs_of(const BundleReader& bundle, Summaries summaries) {
  BundleRuns out;
  out.manifest = std::make_shared<const model::Manifest>(*bundle.manifest());
  const PlanOrder plan = plan_order(bundle);
  for (const auto& entry : out.manifest->runs) {
    if (entry.status == RunStatus::not_run) continue;  // its figures are null: it never ran
    auto run = bundle.run(entry.id);
    if (!run) return run.error();
    out.runs.push_back(facts_of(entry, std::move(*run), plan));
    if (entry.status != RunStatus::ok) continue;
    // Every ok run keeps its summary: the readers of its figures say so when it cannot be read.
    if (summaries == Summaries::skipped) {
      out.runs.back().summary =
          Error{entry.id + ": its summary.json was not read", 0, ErrorKind::input};
    } else if (auto summary = bundle.summary(entry.id)) {
      out.runs.back().summary = std::make_shared<const model::Summary>(std::move(*summary));
    } else {
      out.runs.back().summary = summary.error();
    }
  }
  return out;
}

}  // namespace

std::set<std::string> clean_collectors(const RunDocument& run) {
  std::set<std::string> out;
  for (const auto& c : run.collectors) {
    if (c.status == collectors::Status::ok && c.dropped == 0u) out.insert(c.name);
  }
  return out;
}

JudgedRuns read_bundle_runs(const std::string& dir, Summaries summaries) {
  const BundleReader bundle(dir);
  if (!bundle.manifest()) return {bundle.judgement(), bundle.manifest().error()};
  return {bundle.judgement(), runs_of(bundle, summaries)};
}

}  // namespace jbench::overhead_report
