#include "session_documents.h"

#include <fmt/format.h>

#include <algorithm>

#include "jbench/collectors/modes/mode_availability.h"
#include "jbench/collectors/modes/trace_modes.h"
#include "jbench/common/clock.h"
#include "jbench/matrix/worker_declaration.h"
#include "jbench/plan/plan_output.h"
#include "jbench/provenance/build_info.h"
#include "jbench/provenance/host_fingerprint.h"
#include "jbench/run/session.h"
#include "jbench/run_summaries/execution.h"
#include "run_collectors.h"

namespace jbench::run {
namespace {

using Json = nlohmann::json;

// The mode manifest: for each trace mode, exactly which collectors run at which setting
// (docs/trace-modes.md), and whether the mode can be what it says here: `available` only when
// every collector it requires can attach on this host, as the session's capability probe found;
// `not_requested` for a mode no run of the plan uses (its attachment was not probed for it).
Json trace_capabilities(const Plan& plan, const Json& capabilities, bool alloc_library_built) {
  const collectors::WorkloadTraits workload = workload_traits(plan.matrix->workload);
  Json out = Json::object();
  for (auto name : kTraceValues) {
    const TraceMode mode = *trace_mode_from_name(name);
    Json collectors = Json::array();
    for (const auto& c : collectors::collectors_for(mode, workload)) {
      collectors.push_back({{"name", c.name},
                            {"requested", c.requested},
                            {"required", c.required},
                            {"setting", c.setting},
                            {"source", c.source},
                            {"reason", c.reason}});
    }
    Json entry = {{"bridge_mode", collectors::bridge_mode_for(mode)}, {"collectors", collectors}};
    const bool used = std::any_of(plan.runs.begin(), plan.runs.end(),
                                  [&](const Run& r) { return r.trace == mode; });
    if (!used) {
      entry["status"] = "not_requested";
      entry["reason"] = "no run of this session is in this mode";
    } else if (const auto a =
                   collectors::mode_availability(mode, workload, capabilities, alloc_library_built);
               a.available) {
      entry["status"] = "available";
    } else {
      entry["status"] = "not_available";
      entry["reason"] = a.reason;
      entry["remediation"] = a.remediation;
    }
    out[std::string(name)] = std::move(entry);
  }
  return out;
}

}  // namespace

SessionDocuments::SessionDocuments(const Plan& plan, std::string bundle_name,
                                   std::vector<std::string> worker)
    : plan_(plan), bundle_name_(std::move(bundle_name)), worker_(std::move(worker)) {}

// The worker that ran: its program and, for a process worker, the whole command and the name it
// declared (plan.json keeps the declaration itself).
Json SessionDocuments::workload_json() const {
  const Workload& w = plan_.matrix->workload;
  Json out = {{"kind", w.kind}, {"binary", worker_.front()}};
  if (w.kind == kProcessKind) {
    out["command"] = worker_;
    if (w.declaration) out["worker"] = w.declaration->worker();
  }
  return out;
}

void SessionDocuments::started(const Json& capabilities, bool alloc_library_built) {
  const Matrix& m = *plan_.matrix;
  manifest_ = {{"schema", "jbench.manifest"},
               {"schema_version", 1},
               {"bundle", bundle_name_},
               {"status", "running"},
               {"jbench", jbench_identity()},
               {"started_utc", utc_now("%FT%TZ")},
               {"started_ns", std::to_string(monotonic_ns())},
               {"host", host_fingerprint()},
               {"trace_modes", trace_capabilities(plan_, capabilities, alloc_library_built)},
               {"capabilities", "capabilities.json"},
               {"matrix",
                {{"file", m.file},
                 {"sha256", m.sha256},
                 {"name", m.name},
                 {"copy", "matrix.yaml"},
                 {"overrides", plan_matrix_overrides_json(m)}}},
               {"workload", workload_json()},
               {"plan",
                {{"file", "plan.json"},
                 {"host", {{"cores", plan_.host.cores}, {"memory_mib", plan_.host.memory_mib}}},
                 {"counts", plan_counts_to_json(plan_)},
                 {"shard", plan_shard_to_json(plan_)},
                 {"filters", plan_filters_to_json(plan_)},
                 {"axes", plan_axes_to_json(plan_)}}}};
}

Json SessionDocuments::run_values(std::size_t index) const {
  const Matrix& m = *plan_.matrix;
  const Run& r = plan_.runs[index];
  const Block& b = plan_.blocks[r.block];
  Json values = Json::object();
  for (auto axis : kAllAxes) {
    const auto a = static_cast<std::size_t>(axis);
    if (axis == Axis::trace || b.point[a] == kAbsent) continue;
    values[std::string(m.axis_name(axis))] = m.axes[a].labels[b.point[a]];
  }
  values["trace"] = trace_mode_name(r.trace);
  return values;
}

Json SessionDocuments::run_entry(std::size_t index, const std::string& id) const {
  const Run& r = plan_.runs[index];
  const Block& b = plan_.blocks[r.block];
  return {{"id", id},
          {"order", index},
          {"block", r.block},
          {"repetition", b.repetition + 1},
          {"trace", trace_mode_name(r.trace)},
          {"implicit", r.implicit},
          {"seed", std::to_string(b.seed)},
          {"values", run_values(index)}};
}

Json SessionDocuments::run_document(std::size_t index, const std::string& id,
                                    const RunRecord& record, const BuiltDataset& dataset) const {
  const Matrix& m = *plan_.matrix;
  const Run& r = plan_.runs[index];
  Json doc = run_entry(index, id);
  doc["schema"] = "jbench.run";
  doc["schema_version"] = 1;
  doc["status"] = run_status_name(record.status);
  doc["reason"] = record.reason;
  doc["trace_mode"] = {{"mode", trace_mode_name(r.trace)},
                       // What the mode needs to be what it says; baseline: nothing armed but the
                       // harness's own accounting. A required collector that is not available
                       // makes the bundle invalid (docs/validate.md).
                       {"requires", Json::array()},
                       {"collectors", Json::array()}};
  doc["phases"] = {
      {"warmup", m.warmup.kind == Phase::Kind::duration ? Json{{"duration_ms", m.warmup.amount}}
                                                        : Json{{"operations", m.warmup.amount}}},
      {"measure", m.measure.kind == Phase::Kind::duration
                      ? Json{{"duration_ms", m.measure.amount}}
                      : Json{{"operations", m.measure.amount}}}};
  doc["dataset"] = dataset.error.empty() ? dataset.facts : Json{{"error", dataset.error}};
  doc.update(record.run);
  return doc;
}

void SessionDocuments::run_finished(std::size_t index, const std::string& id,
                                    const std::string& status, const std::string& reason,
                                    const Json& summary) {
  Json entry = run_entry(index, id);
  entry["status"] = status;
  entry["reason"] = reason;
  entry["throughput_ops_per_s"] = summary.value("throughput_ops_per_s", 0.0);
  runs_.push_back(std::move(entry));
}

void SessionDocuments::run_not_run(std::size_t index, const std::string& id,
                                   const std::string& reason) {
  Json entry = run_entry(index, id);
  entry["status"] = "not_run";
  entry["reason"] = reason;
  entry["throughput_ops_per_s"] = nullptr;
  runs_.push_back(std::move(entry));
}

void SessionDocuments::finished(bool interrupted, Json datasets) {
  manifest_["status"] = interrupted ? "interrupted" : "complete";
  manifest_["ended_utc"] = utc_now("%FT%TZ");
  manifest_["ended_ns"] = std::to_string(monotonic_ns());
  manifest_["datasets"] = std::move(datasets);
  Json counts = {{"ok", 0}, {"failed", 0}, {"timeout", 0}, {"interrupted", 0}, {"not_run", 0}};
  for (const auto& r : runs_)
    counts[r["status"].get<std::string>()] = counts[r["status"].get<std::string>()].get<int>() + 1;
  manifest_["run_counts"] = counts;
  manifest_["runs"] = runs_;
  // What execution delivered per axis value, beside the plan's intention in /plan/axes.
  manifest_["execution"] = {{"axes", execution_states(manifest_["plan"]["axes"], runs_)}};
}

std::vector<std::string> SessionDocuments::unmeasured_values() const {
  if (!manifest_.contains("execution")) return {};
  return jbench::unmeasured_values(manifest_["execution"]["axes"]);
}

Json SessionDocuments::manifest() const { return manifest_; }

bool SessionDocuments::all_runs_ok() const {
  for (const auto& r : runs_) {
    if (r["status"] != "ok") return false;
  }
  return true;
}

Json build_provenance() { return build_info(); }

}  // namespace jbench::run
