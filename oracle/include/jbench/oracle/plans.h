// The differential query-plan oracle: each query run on one engine and one database with every
// optimization of its planner on, then again with each switched off in turn (Target::switch_off);
// every answer must be the first one. A difference names the optimization whose plan answered
// otherwise. It needs no second engine and sees what TLP and NoREC cannot: a wrong plan for a
// query that no rewriting of its predicate reaches (a flattened subquery, a pushed-down filter,
// a skipped ORDER BY, a join simplified away).
//
//   std::vector<PlanQuery> qs = generate_plan_queries(seed, 500);
//   PlanReport r = check_plans(target, qs);   // r.findings: query, optimization, both answers
//
// Pure over the Target: no I/O of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jbench/oracle/corpus.h"
#include "jbench/oracle/normalize.h"
#include "jbench/oracle/reduce.h"
#include "jbench/oracle/target.h"

namespace jbench::oracle {

struct PlanQuery {
  std::string sql;
  Normalization normalization;  // how its answers compare (row order, its ORDER BY key)
  std::string shape;            // the generator's name for it
};

struct PlanFinding {
  std::size_t query = 0;  // its index among the queries checked
  std::string sql;
  std::string optimization;  // switched off for the answer that differs
  std::string with_all;      // the answer with every optimization on (describe_result)
  std::string without;       // the answer without `optimization`
  std::string what;          // the difference in words
};

struct PlanReport {
  std::vector<std::string> optimizations;  // what the engine offered
  std::size_t queries = 0;                 // checked with every switch
  std::size_t runs = 0;                    // statements run
  std::vector<PlanFinding> findings;
  std::size_t left_off = 0;                   // findings past the recorded ones
  std::optional<std::string> engine_failure;  // the engine could not answer or switch: stopped
  bool interrupted = false;                   // should_stop did
};

struct PlanOptions {
  std::size_t max_findings = 100;
  std::function<bool()> should_stop;  // checked between queries
};

// Each query with every optimization on, then without each in turn; the engine is left with all
// on. An engine that offers none checks nothing (queries stays 0).
PlanReport check_plans(Target& target, const std::vector<PlanQuery>& queries,
                       const PlanOptions& options = {});

// {"optimizations", "queries", "runs", "findings": [{sql, optimization, with_all, without,
//  what}], "left_off"}
nlohmann::json to_json(const PlanReport& r);

// A finding reduced to the fewest statements of `fill` (the stream that filled the tables)
// before its query that still make the query answer differently with and without the
// optimization (reduce.h): the "target" is a fresh engine with every switch on, the "oracle" the
// same engine with `optimization` off. to_sql_script gives the script; for SQLite's shell,
// `.testctrl optimizations <mask>` before the last statement shows the other answer.
Reduction reduce_plan_finding(const Corpus& fill, const PlanQuery& query,
                              const std::string& optimization, const TargetFactory& engine,
                              const ReduceOptions& options = {});

}  // namespace jbench::oracle
