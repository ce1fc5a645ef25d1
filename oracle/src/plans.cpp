#include "jbench/oracle/plans.h"

#include "jbench/oracle/compare.h"
#include "jbench/oracle/runner.h"

namespace jbench::oracle {

namespace {

// The query without each optimization in turn, against `with_all`; false when the engine failed.
bool check_switches(Target& target, const PlanQuery& q, const ResultSet& with_all, PlanReport& r,
                    const PlanOptions& options) {
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
    r.findings.push_back({q.sql, name, describe_result(with_all), describe_result(without),
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
  for (const PlanQuery& q : queries) {
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
    const bool answered = check_switches(target, q, with_all, r, options);
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

}  // namespace jbench::oracle
