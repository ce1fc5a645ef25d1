#include "session_documents.h"

#include <fmt/format.h>

#include <ctime>

#include "jbench/collect/trace_modes.h"
#include "jbench/common/clock.h"
#include "jbench/plan/plan_output.h"
#include "jbench/provenance/build_info.h"
#include "jbench/provenance/host_fingerprint.h"
#include "jbench/run/session.h"

namespace jbench::run {
namespace {

using Json = nlohmann::json;

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%FT%TZ", &tm);
  return buf;
}

// This jbench: its version and the source revision it was built from.
Json jbench_identity() {
  const Json info = build_info();
  return {{"version", info.value("jbench_version", "unknown")},
          {"source", info.value("source", Json::object())}};
}

// The mode manifest: for each trace mode, exactly which collectors run at which setting
// (docs/trace-modes.md). Whether a backend can attach on this host is each run's record.
Json trace_capabilities(std::string_view workload_kind) {
  Json out = Json::object();
  for (auto name : kTraceValues) {
    const TraceMode mode = *trace_mode_from_name(name);
    Json collectors = Json::array();
    for (const auto& c : collect::collectors_for(mode, workload_kind)) {
      collectors.push_back({{"name", c.name},
                            {"requested", c.requested},
                            {"required", c.required},
                            {"setting", c.setting},
                            {"source", c.source},
                            {"reason", c.reason}});
    }
    out[std::string(name)] = {{"status", "available"},
                              {"bridge_mode", collect::bridge_mode_for(mode)},
                              {"collectors", collectors}};
  }
  return out;
}

}  // namespace

SessionDocuments::SessionDocuments(const Plan& plan, std::string bundle_name,
                                   std::string worker_binary)
    : plan_(plan), bundle_name_(std::move(bundle_name)), worker_binary_(std::move(worker_binary)) {}

void SessionDocuments::started() {
  const Matrix& m = *plan_.matrix;
  manifest_ = {
      {"schema", "jbench.manifest"},
      {"schema_version", 1},
      {"bundle", bundle_name_},
      {"status", "running"},
      {"jbench", jbench_identity()},
      {"started_utc", utc_now()},
      {"started_ns", std::to_string(monotonic_ns())},
      {"host", host_fingerprint()},
      {"trace_modes", trace_capabilities(m.workload.kind)},
      {"capabilities", "capabilities.json"},
      {"matrix",
       {{"file", m.file}, {"sha256", m.sha256}, {"name", m.name}, {"copy", "matrix.yaml"}}},
      {"workload", {{"kind", m.workload.kind}, {"binary", worker_binary_}}},
      {"plan",
       {{"file", "plan.json"},
        {"host", {{"cores", plan_.host.cores}, {"memory_mib", plan_.host.memory_mib}}},
        {"counts", plan_counts_to_json(plan_)},
        {"filters", plan_filters_to_json(plan_)},
        {"axes", plan_axes_to_json(plan_)}}}};
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
          {"seed", std::to_string(b.seed)}};
}

Json SessionDocuments::run_document(std::size_t index, const std::string& id,
                                    const RunRecord& record, const BuiltDataset& dataset) const {
  const Matrix& m = *plan_.matrix;
  const Run& r = plan_.runs[index];
  const Block& b = plan_.blocks[r.block];
  Json values = Json::object();
  for (auto axis : kAllAxes) {
    const auto a = static_cast<std::size_t>(axis);
    if (axis == Axis::trace || b.point[a] == kAbsent) continue;
    values[std::string(axis_name(axis))] = m.axes[a].labels[b.point[a]];
  }
  values["trace"] = trace_mode_name(r.trace);
  Json doc = run_entry(index, id);
  doc["schema"] = "jbench.run";
  doc["schema_version"] = 1;
  doc["values"] = values;
  doc["status"] = record.status;
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
  manifest_["ended_utc"] = utc_now();
  manifest_["ended_ns"] = std::to_string(monotonic_ns());
  manifest_["datasets"] = std::move(datasets);
  Json counts = {{"ok", 0}, {"failed", 0}, {"timeout", 0}, {"interrupted", 0}, {"not_run", 0}};
  for (const auto& r : runs_)
    counts[r["status"].get<std::string>()] = counts[r["status"].get<std::string>()].get<int>() + 1;
  manifest_["run_counts"] = counts;
  manifest_["runs"] = runs_;
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
