// `jbench-sqlite-worker oracle-engine`: the workload's subquery cache (subquery_cache.h) as an
// engine of the oracle's line protocol (docs/oracle-protocol.md), so that `jbench oracle` checks
// the very cache code the workload times (proposals/subquery-cache/oracle-*.yaml).
//
// Statements run on an in-memory SQLite connection (jbench::oracle::SqliteTarget) as written,
// except the workload's count_above_mean_weight, recognised by its exact text: while the cache
// applies, it runs hoisted through SubqueryCache as transaction.cpp runs it. Every statement is
// shown to the cache after it ran, as the workload's connection shows it each of its own.
#include <fmt/format.h>
#include <sqlite3.h>

#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "jbench/oracle/serve.h"
#include "jbench/oracle/sqlite_target.h"
#include "jbench/oracle/sqlite_values.h"
#include "jbench/sqlite_workload/protocol.h"
#include "jbench/sqlite_workload/queries.h"
#include "jbench/sqlite_workload/subquery_cache.h"
#include "jbench/sqlite_workload/worker.h"

namespace jbench::sqlite_workload {
namespace {

using oracle::ResultSet;
using oracle::Value;

// Finalizes on every path.
struct OwnStatement {
  sqlite3_stmt* stmt = nullptr;
  ~OwnStatement() { sqlite3_finalize(stmt); }
};

class CachedWorkloadTarget : public oracle::Target {
 public:
  CachedWorkloadTarget(oracle::SqliteTarget real, SubqueryCachePolicy policy)
      : real_(std::move(real)), cache_(real_.handle(), policy) {}

  ResultSet run(std::string_view sql, const std::vector<Value>& params) override {
    return execute(nullptr, sql, params);
  }
  ResultSet run_prepared(const std::string& statement, std::string_view sql,
                         const std::vector<Value>& params) override {
    return execute(&statement, sql, params);
  }
  std::string name() const override {
    return fmt::format("jbench-sqlite-worker subquery_cache={} ({})", to_string(cache_.policy()),
                       real_.name());
  }
  const SubqueryCache& cache() const { return cache_; }

 private:
  ResultSet execute(const std::string* statement, std::string_view sql,
                    const std::vector<Value>& params);
  std::optional<ResultSet> run_cached(const Value& grp);

  oracle::SqliteTarget real_;
  std::vector<std::string> asked_columns_;  // of the cached statement as written
  SubqueryCache cache_;                     // after real_: destroyed before the connection closes
};

ResultSet CachedWorkloadTarget::execute(const std::string* statement, std::string_view sql,
                                        const std::vector<Value>& params) {
  // A wrong parameter count is left to the statement as written, which says so as SQLite does.
  if (sql == query_info(Query::count_above_mean_weight).sql && params.size() == 1 &&
      cache_.applies()) {
    if (auto r = run_cached(params[0])) return std::move(*r);
  }
  // SqliteTarget keeps its statements to itself, so the cache learns whether this one is
  // read-only from a preparation of its own. Prepared before the statement runs: afterwards a
  // CREATE or DROP would no longer prepare, and would pass for a statement that changed nothing.
  OwnStatement own;
  sqlite3_prepare_v2(real_.handle(), sql.data(), static_cast<int>(sql.size()), &own.stmt, nullptr);
  ResultSet r =
      statement != nullptr ? real_.run_prepared(*statement, sql, params) : real_.run(sql, params);
  cache_.after_statement(own.stmt);
  return r;
}

// The hoisted statement with the kept value; nullopt when the cache cannot answer (no `groups`
// or `items` table yet, a subquery that fails), and the statement as written then runs instead.
std::optional<ResultSet> CachedWorkloadTarget::run_cached(const Value& grp) {
  sqlite3_stmt* hoisted = nullptr;
  SubqueryCache::Lookup lookup{};
  std::uint64_t fill_steps = 0;
  if (cache_.bind_execution(hoisted, lookup, fill_steps) != SQLITE_OK) return std::nullopt;
  if (oracle::bind_value(hoisted, 1, grp) != SQLITE_OK) return std::nullopt;
  ResultSet result;
  const int columns = sqlite3_column_count(hoisted);
  // Named as the statement asked names them, not as the hoisted one would (read once).
  if (asked_columns_.empty()) {
    asked_columns_ = real_.column_names(query_info(Query::count_above_mean_weight).sql);
  }
  result.columns = asked_columns_;
  result.columns.resize(static_cast<std::size_t>(columns));
  int rc;
  while ((rc = sqlite3_step(hoisted)) == SQLITE_ROW) {
    oracle::Row row;
    for (int i = 0; i < columns; ++i) row.push_back(oracle::column_value(hoisted, i));
    result.rows.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) {
    sqlite3* db = real_.handle();
    result.error = oracle::StatementError{sqlite3_extended_errcode(db), sqlite3_errmsg(db)};
  }
  // Reset before the next request, so that it holds no read between executions.
  sqlite3_reset(hoisted);
  cache_.after_statement(hoisted);
  return result;
}

constexpr std::string_view kEngineUsage =
    "usage: jbench-sqlite-worker oracle-engine [--subquery-cache off|transaction|connection]\n";

}  // namespace

int oracle_engine_command(int argc, char** argv) {
  // argv[0] is "oracle-engine".
  SubqueryCachePolicy policy = SubqueryCachePolicy::off;
  if (argc == 3 && std::string_view(argv[1]) == "--subquery-cache") {
    const auto named = subquery_cache_policy_named(argv[2]);
    if (!named) {
      fmt::print(stderr, "jbench-sqlite-worker: unknown --subquery-cache '{}'\n{}", argv[2],
                 kEngineUsage);
      return kExitProtocolError;
    }
    policy = *named;
  } else if (argc != 1) {
    fmt::print(stderr, "{}", kEngineUsage);
    return kExitProtocolError;
  }
  auto db = oracle::SqliteTarget::open(":memory:", {});
  if (!db) {
    fmt::print(stderr, "jbench-sqlite-worker: {}\n", db.error().message);
    return kExitInternal;
  }
  CachedWorkloadTarget engine(std::move(*db), policy);
  const int code = oracle::serve_protocol(
      engine, std::cin, std::cout, std::cerr,
      fmt::format("jbench-sqlite-worker subquery_cache={}", to_string(policy)));
  // On stderr, which the oracle keeps: evidence that the cache was exercised, not just present.
  fmt::print(stderr, "jbench-sqlite-worker oracle-engine: subquery_cache={}: {} hits, {} fills\n",
             to_string(policy), engine.cache().hits(), engine.cache().fills());
  return code;
}

}  // namespace jbench::sqlite_workload
