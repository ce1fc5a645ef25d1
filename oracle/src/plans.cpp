#include "jbench/oracle/plans.h"

#include "jbench/oracle/compare.h"
#include "jbench/oracle/runner.h"

namespace jbench::oracle {

namespace {

// The query without each optimization in turn, against `with_all`; false when the engine failed.
bool check_switches(Target& target, const PlanQuery& q, std::size_t index,
                    const ResultSet& with_all, PlanReport& r, const PlanOptions& options) {
  for (const std::string& name : r.optimizations) {
    if (Status s = target.switch_off({name}); !s) {
      r.engine_failure = s.error().message;
      return false;
    }
    ResultSet without = target.run(q.sql, {});
    ++r.runs;
    if (without.engine_failure) {
      r.engine_failure = *without.engine_failure;
      return false;
    }
    const auto d = compare(without, with_all, q.normalization);
    if (!d) continue;
    if (r.findings.size() >= options.max_findings) {
      ++r.left_off;
      continue;
    }
    r.findings.push_back({index, q.sql, name, describe_result(with_all), describe_result(without),
                          "without " + name + ": " + d->what});
  }
  return true;
}

}  // namespace

PlanReport check_plans(Target& target, const std::vector<PlanQuery>& queries,
                       const PlanOptions& options) {
  PlanReport r;
  r.optimizations = target.optimizations();
  if (r.optimizations.empty()) return r;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const PlanQuery& q = queries[i];
    if (options.should_stop && options.should_stop()) {
      r.interrupted = true;
      break;
    }
    ResultSet with_all = target.run(q.sql, {});
    ++r.runs;
    if (with_all.engine_failure) {
      r.engine_failure = *with_all.engine_failure;
      break;
    }
    const bool answered = check_switches(target, q, i, with_all, r, options);
    if (Status s = target.switch_off({}); !s && !r.engine_failure) {
      r.engine_failure = s.error().message;
    }
    if (!answered || r.engine_failure) break;
    ++r.queries;
  }
  return r;
}

nlohmann::json to_json(const PlanReport& r) {
  nlohmann::json findings = nlohmann::json::array();
  for (const PlanFinding& f : r.findings) {
    findings.push_back({{"sql", f.sql},
                        {"optimization", f.optimization},
                        {"with_all", f.with_all},
                        {"without", f.without},
                        {"what", f.what}});
  }
  return {{"optimizations", r.optimizations},
          {"queries", r.queries},
          {"runs", r.runs},
          {"findings", std::move(findings)},
          {"left_off", r.left_off}};
}

Reduction reduce_plan_finding(const Corpus& fill, const PlanQuery& query,
                              const std::string& optimization, const TargetFactory& engine,
                              const ReduceOptions& options) {
  // The fill's queries still run (an UPSERT ... RETURNING writes) but only as statements: what
  // they answer is no part of this finding, and an engine wrong there too must not hide it.
  Corpus c = fill;
  for (Record& f : c.records) {
    if (f.kind != RecordKind::query) continue;
    f.kind = RecordKind::statement_ok;
    f.outcome_expected = false;
    f.has_expected = false;
  }
  Record r;
  r.kind = RecordKind::query;
  r.where = {fill.file, static_cast<std::uint32_t>(fill.records.size() + 1), 1};
  r.sql = query.sql;
  r.shape = query.shape;
  r.order = query.normalization.order;
  r.order_key = query.normalization.order_key;
  c.records.push_back(r);
  TargetFactory without = [&]() -> std::unique_ptr<Target> {
    std::unique_ptr<Target> t = engine();
    if (t && !t->switch_off({optimization})) return nullptr;
    return t;
  };
  Finding divergence;
  divergence.where = r.where;
  divergence.sql = r.sql;
  return reduce(c, divergence, engine, without, options);
}

}  // namespace jbench::oracle
