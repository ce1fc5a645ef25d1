#include "jbench/sqlite_workload/results.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "jbench/sqlite_workload/protocol.h"
#include "jbench/stats/decimal.h"
#include "jbench/stats/histogram_json.h"

namespace jbench::sqlite_workload {
namespace {

using nlohmann::json;

json ns(std::uint64_t v) { return stats::to_decimal(v); }
json ns(const std::optional<std::uint64_t>& v) { return v ? ns(*v) : json(nullptr); }

template <typename Fn>
json by_op_type(Fn&& fn) {
  json out = json::object();
  for (std::size_t i = 0; i < kOpTypeCount; ++i) {
    out[std::string(to_string(static_cast<OpType>(i)))] = fn(i);
  }
  return out;
}

}  // namespace

std::vector<Condition> conditions_of(const WorkerConfig& config, const PhaseStats& phase) {
  std::vector<Condition> out;
  const auto reads = phase.reads();
  const auto writes = phase.writes();
  // A worker may do nothing its lane forbids. Doing nothing at all is not a violation: a worker
  // that waited on the lock for the whole window is starved, and its starvation is data (the
  // summary counts it). A mixed worker's own mix is not checked either -- over a short window it
  // may draw only one kind -- the run's aggregate is (harness). But a mixed stream that cannot
  // mix by construction is refused here.
  std::optional<std::string> why;
  if (config.lane == Lane::writer && reads > 0) why = "a writer may not read";
  if (config.lane == Lane::reader && writes > 0) why = "a reader may not write";
  if (config.lane == Lane::mixed &&
      (config.params.read_ratio <= 0.0 || config.params.read_ratio >= 1.0)) {
    why = fmt::format("a mixed lane with read_ratio {} cannot mix", config.params.read_ratio);
  }
  if (why) {
    out.push_back({"lane_violation",
                   fmt::format("lane {} counted {} reads and {} writes in the measure phase: {}",
                               to_string(config.lane), reads, writes, *why)});
  }
  if (phase.aborted) out.push_back({"phase_aborted", *phase.aborted});
  return out;
}

json phase_counts_json(const PhaseStats& p) {
  return json{
      {"t_start_ns", ns(p.t_start_ns)},
      {"t_end_ns", ns(p.t_end_ns)},
      {"t_finished_ns", ns(p.t_finished_ns)},
      {"first_op_start_ns", ns(p.first_op_start_ns)},
      {"last_op_end_ns", ns(p.last_op_end_ns)},
      {"operations", p.total_operations()},
      {"operations_by_type", by_op_type([&](std::size_t i) { return json(p.operations[i]); })},
      {"reads", p.reads()},
      {"writes", p.writes()},
      {"rows_returned", p.rows_returned},
      {"transactions", p.transactions},
      {"read_transactions", p.read_transactions},
      {"write_transactions", p.write_transactions},
      {"transactions_straddled", p.transactions_straddled},
      {"transactions_failed", p.transactions_failed},
      {"transactions_abandoned", p.transactions_abandoned},
      {"straddled", p.straddled},
      {"retries", p.retries},
      {"busy_waits", p.busy_waits},
      {"busy_wait_ns", ns(p.busy_wait_ns)},
      {"errors", p.errors},
      {"aborted", p.aborted ? json(*p.aborted) : json(nullptr)},
  };
}

json statements_json(const QueryCatalog& catalog) {
  json statements = json::array();
  for (std::size_t i = 0; i < kQueryCount; ++i) {
    const auto& q = catalog[i];
    statements.push_back({{"name", query_info(static_cast<Query>(i)).name},
                          {"sql", query_info(static_cast<Query>(i)).sql},
                          {"op_type", to_string(q.type)},
                          {"subquery", to_string(q.subquery)},
                          {"plan_class", plan_class(q.type)},
                          {"query_plan", q.plan}});
  }
  return statements;
}

json result_json(const Workload& w, const PhaseStats& m, const std::string& runtime_id) {
  const WorkerConfig& cfg = w.config();
  json conditions = json::array();
  for (const auto& c : conditions_of(cfg, m)) {
    conditions.push_back({{"kind", c.kind}, {"message", c.message}});
  }
  const std::uint64_t window = m.t_end_ns - m.t_start_ns;
  json latency = by_op_type([&](std::size_t i) { return stats::histogram_to_json(m.latency[i]); });
  latency["transaction"] = stats::histogram_to_json(m.transaction_latency);
  json r = phase_counts_json(m);
  r.update(json{
      {"type", "result"},
      {"protocol", kProtocolVersion},
      {"worker", "sqlite"},
      {"worker_index", cfg.worker_index},
      {"runtime_id", runtime_id},
      {"status", conditions.empty() ? "ok" : "error"},
      {"conditions", std::move(conditions)},
      {"lane", to_string(cfg.lane)},
      {"connection", to_string(cfg.connection)},
      {"window_ns", ns(window)},
      // Counted operations over the counting window; null when the window is empty.
      {"throughput_ops_per_s", window == 0 ? json(nullptr)
                                           : json(static_cast<double>(m.total_operations()) * 1e9 /
                                                  static_cast<double>(window))},
      {"latency_ns", std::move(latency)},
      {"connection_ns",
       {{"open", stats::histogram_to_json(m.connection_open)},
        {"close", stats::histogram_to_json(m.connection_close)}}},
      {"rusage", {{"user_ns", ns(m.cpu.user_ns)}, {"system_ns", ns(m.cpu.system_ns)}}},
      {"dataset",
       {{"rows", w.shape().rows},
        {"row_bytes", w.shape().row_bytes},
        {"groups", w.shape().groups}}},
      {"statements", statements_json(w.catalog())},
  });
  // Beside `operations`: vm_steps / operations is the engine's own work per operation.
  r["vm_steps"] = m.vm_steps;
  // Only with the cache on, so a result without the key is a run without it.
  if (cfg.params.subquery_cache != SubqueryCachePolicy::off) {
    r["subquery_cache"] = {{"policy", to_string(cfg.params.subquery_cache)},
                           {"hits", m.subquery_cache_hits},
                           {"fills", m.subquery_cache_fills}};
  }
  // Only when planted, so a result without the key is a run without the cost.
  if (const FsyncPlant* plant = w.plant()) {
    r["plant"] = {{"kind", "fsync"},
                  {"file", plant->path()},
                  {"calls", m.plant.calls},
                  {"fdatasync_ns", ns(m.plant.fdatasync_ns)},
                  {"write_ns", ns(m.plant.write_ns)}};
  }
  if (cfg.params.plant_delay_ns > 0) {
    r["plant_delay"] = {{"delay_ns", ns(cfg.params.plant_delay_ns)},
                        {"calls", m.plant_busy_waits},
                        {"cpu_ns", ns(m.plant_busy_cpu_ns)}};
  }
  if (cfg.params.plant_work_loops > 0) {
    r["plant_work"] = {{"loops_per_operation", cfg.params.plant_work_loops}};
  }
  if (cfg.params.plant_allocations > 0) {
    r["plant_allocations"] = {{"calls_per_operation", cfg.params.plant_allocations}};
  }
  if (cfg.params.plant_sleep_ns > 0) {
    r["plant_sleep"] = {{"sleep_ns", ns(cfg.params.plant_sleep_ns)},
                        {"calls", m.plant_sleeps},
                        {"slept_ns", ns(m.plant_slept_ns)}};
  }
  return r;
}

}  // namespace jbench::sqlite_workload
