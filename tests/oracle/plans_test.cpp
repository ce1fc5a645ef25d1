// The query-plan oracle on real SQLite: every composed query answers the same with each of the
// planner's 21 switches off in turn; an engine whose flattener loses a row is caught and the
// finding names the flattener; a switch the engine lacks is an error; an engine that offers no
// switch checks nothing, and says so by its counts.
#include "jbench/oracle/plans.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "jbench/oracle/generator.h"
#include "jbench/oracle/runner.h"
#include "jbench/oracle/sqlite_target.h"
#include "oracle_test_support.h"

namespace jbench::oracle {
namespace {

using test_support::memory_db;

// The generator's tables and first rows, on `db` alone.
void fill(Target& db, std::uint64_t seed) {
  for (const Record& r : generate_stream({.seed = seed, .statements = 300}).records) {
    if (r.prepared.empty()) {
      db.run(r.sql, r.params);
    } else {
      db.run_prepared(r.prepared, r.sql, r.params);
    }
  }
}

TEST(Plans, real_sqlite_answers_every_composed_query_alike_with_each_optimization_off) {
  SqliteTarget db = memory_db();
  fill(db, 3);
  const std::vector<PlanQuery> queries = generate_plan_queries(3, 400);
  PlanReport r = check_plans(db, queries);
  for (const PlanFinding& f : r.findings) ADD_FAILURE() << f.what << "\n" << f.sql;
  EXPECT_EQ(r.optimizations.size(), 21u);
  EXPECT_EQ(r.queries, 400u);
  EXPECT_EQ(r.runs, 400u * 22u);
  EXPECT_FALSE(r.engine_failure);
  EXPECT_EQ(to_json(r)["queries"], 400u);
}

// Loses the last row of a CTE's answer while SQLite's query flattener is on, as an engine might
// whose flattened plan dropped the final row of a subquery; with the flattener off it is right.
class FlattenerLosesARowTarget : public Target {
 public:
  explicit FlattenerLosesARowTarget(SqliteTarget real) : real_(std::move(real)) {}
  ResultSet run(std::string_view sql, const std::vector<Value>& params) override {
    ResultSet r = real_.run(sql, params);
    if (flattening_ && sql.starts_with("WITH ") && !r.rows.empty()) r.rows.pop_back();
    return r;
  }
  ResultSet run_prepared(const std::string& s, std::string_view sql,
                         const std::vector<Value>& params) override {
    return real_.run_prepared(s, sql, params);
  }
  std::vector<std::string> optimizations() const override { return real_.optimizations(); }
  Status switch_off(const std::vector<std::string>& names) override {
    flattening_ = std::find(names.begin(), names.end(), "QueryFlattener") == names.end();
    return real_.switch_off(names);
  }
  std::string name() const override { return "flattener-loses-a-row"; }

 private:
  SqliteTarget real_;
  bool flattening_ = true;
};

TEST(Plans, an_engine_whose_flattener_loses_a_row_is_caught_naming_the_flattener) {
  FlattenerLosesARowTarget db(memory_db());
  fill(db, 3);
  PlanReport r = check_plans(db, generate_plan_queries(3, 200));
  ASSERT_FALSE(r.findings.empty());
  for (const PlanFinding& f : r.findings) {
    EXPECT_EQ(f.optimization, "QueryFlattener") << f.what;
    EXPECT_TRUE(f.sql.starts_with("WITH ")) << f.sql;
  }
  EXPECT_NE(r.findings[0].what.find("without QueryFlattener"), std::string::npos);
  EXPECT_EQ(r.queries, 200u);  // a finding does not stop the check
}

TEST(Plans, a_switch_the_engine_lacks_is_an_error_and_all_on_restores_the_planner) {
  SqliteTarget db = memory_db();
  Status unknown = db.switch_off({"NoSuchThing"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("'NoSuchThing'"), std::string::npos);
  // A switch acts: the plan of a subquery in FROM changes when the flattener is off.
  db.run("CREATE TABLE t(a INTEGER PRIMARY KEY, b)", {});
  const std::string plan = "EXPLAIN QUERY PLAN SELECT * FROM (SELECT * FROM t) WHERE a = 1";
  const std::string flattened = describe_result(db.run(plan, {}));
  EXPECT_TRUE(db.switch_off({"QueryFlattener", "PushDown"}).ok());
  EXPECT_NE(describe_result(db.run(plan, {})), flattened);
  EXPECT_TRUE(db.switch_off({}).ok());
  EXPECT_EQ(describe_result(db.run(plan, {})), flattened);
  auto off = SqliteTarget::open(":memory:", {}, true);
  ASSERT_TRUE(off);
  EXPECT_TRUE(off.value().optimizations().empty());  // nothing is left on to switch off
}

// The base Target: no switches, so nothing is checked — the counts say so, and the pass that
// asked for the check must report it as not exercised (docs/oracle.md).
class NoSwitches : public Target {
 public:
  ResultSet run(std::string_view, const std::vector<Value>&) override { return {}; }
  ResultSet run_prepared(const std::string&, std::string_view, const std::vector<Value>&) override {
    return {};
  }
  std::string name() const override { return "no-switches"; }
};

TEST(Plans, an_engine_that_offers_no_switch_checks_nothing) {
  NoSwitches engine;
  PlanReport r = check_plans(engine, generate_plan_queries(1, 10));
  EXPECT_TRUE(r.optimizations.empty());
  EXPECT_EQ(r.queries, 0u);
  EXPECT_EQ(r.runs, 0u);
  EXPECT_FALSE(engine.switch_off({"QueryFlattener"}).ok());
}

}  // namespace
}  // namespace jbench::oracle
