// The query-plan oracle: composed queries on the target alone, each with every planner switch
// the target offers on and then with each off in turn (oracle/plans.h). A target that offers no
// switch checks nothing: a finding unless the matrix says `waive: [optimizations]`.
#include <fmt/format.h>

#include <ostream>

#include "jbench/oracle/generator.h"
#include "jbench/oracle/plans.h"
#include "jbench/oracle/sqlite_target.h"
#include "sections.h"

namespace jbench::oracle_pass {

namespace {

const char* status_of(const oracle::PlanReport& r) {
  if (!r.findings.empty() || r.left_off > 0 || r.engine_failure) return kFailed;
  return r.interrupted ? kInterrupted : kPassed;
}

// The section when the target offers nothing to switch off.
nlohmann::json no_switches(const oracle::PlanReport& r, bool waived) {
  nlohmann::json j = to_json(r);
  j["status"] = waived ? kPassed : kFailed;
  j["not_exercised"] = nlohmann::json::array({not_exercised(
      "optimizations", waived,
      "the target offers no planner switch, so no query was checked against its plans")});
  return j;
}

// The first finding reduced to a script, kept as reductions/plans.sql.
nlohmann::json reduction(const oracle::PlanFinding& f, const oracle::PlanQuery& q,
                         std::uint64_t seed, const Engines& e, Files& files) {
  oracle::ReduceOptions budget;
  budget.max_trials = 400;
  budget.max_seconds = 60;
  const oracle::TargetFactory engine = target_factory(e.target);
  const oracle::Reduction red = oracle::reduce_plan_finding(
      oracle::generate_stream({seed, kFillStatements}), q, f.optimization, engine, budget);
  nlohmann::json r = to_json(red);
  r.erase("script");
  if (!red.reproduced) return r;
  std::string script = oracle::to_sql_script(red);
  const auto bit = oracle::SqliteTarget::optimization_bit(f.optimization);
  script += fmt::format("-- The oracle's answer is this engine's without {}", f.optimization);
  script += bit ? fmt::format(
                      ": in the sqlite3 shell, '.testctrl optimizations 0x{:x}' before "
                      "the last statement.\n",
                      *bit)
                : ".\n";
  files.emplace_back("reductions/plans.sql", script);
  r["file"] = "reductions/plans.sql";
  return r;
}

}  // namespace

nlohmann::json plans_section(std::uint64_t queries, std::uint64_t seed, const Engines& e,
                             Files& files, const PassOptions& o) {
  auto started = e.target();
  if (!started) {
    return {{"status", kFailed}, {"what", "the target did not start: " + started.error().message}};
  }
  std::unique_ptr<oracle::Target> target = std::move(*started);
  if (const Status filled = fill_tables(*target, seed); !filled) {
    return {{"status", kFailed}, {"what", "the target did not answer: " + filled.error().message}};
  }
  oracle::PlanOptions options;
  options.should_stop = o.should_stop;
  const std::vector<oracle::PlanQuery> checked = oracle::generate_plan_queries(seed, queries);
  const oracle::PlanReport r = oracle::check_plans(*target, checked, options);
  if (r.optimizations.empty()) return no_switches(r, e.optimizations_waived);
  nlohmann::json j = to_json(r);
  j["status"] = status_of(r);
  if (r.engine_failure) j["engine_failure"] = *r.engine_failure;
  j["reduction"] = nullptr;
  if (!r.findings.empty() && !r.interrupted) {
    target.reset();  // a reduction starts fresh engines for every replay
    const oracle::PlanFinding& first = r.findings[0];
    j["reduction"] = reduction(first, checked[first.query], seed, e, files);
  }
  if (o.log) {
    *o.log << fmt::format("oracle: plans: {} queries x {} optimizations, {}\n", r.queries,
                          r.optimizations.size(), j["status"].get<std::string>());
  }
  return j;
}

}  // namespace jbench::oracle_pass
