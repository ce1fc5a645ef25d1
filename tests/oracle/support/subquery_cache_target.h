// A scalar-subquery result cache in front of a real SQLite connection, right or deliberately
// wrong, so that the oracle can be shown to catch each way such a cache goes wrong and to pass
// the correct one. Test support only.
//
// How it caches: before a statement runs, every uncorrelated scalar subquery in it — one that
// prepares on its own, returns one column and uses only ?N parameters — is evaluated on the same
// connection (or taken from the cache) and replaced by its value, cast so that the value keeps
// the subquery's affinity; the rewritten statement then runs on the connection. A subquery that
// cannot be cached safely (correlated, failing, a value its affinity would change) is left alone.
//
//   SubqueryCacheTarget t(std::move(db), CachePolicy::correct());
//   t.run("SELECT (SELECT max(v) FROM t) + (SELECT max(v) FROM t)", {});  // evaluated once
//
// The policy says where the cache is wrong:
// - scope: `execution` forgets everything at each run (statement-scoped: right);
//   `prepared_statement` keeps entries per prepared statement across sqlite3_reset (wrong once
//   the tables change); `connection` shares entries across statements (wrong likewise);
// - key_includes_params: false reuses a result bound with other parameters (wrong);
// - caches_nondeterministic: true reuses random(), changes(), jbench_seq() ... (wrong);
// - multi_row_takes_last: true answers a several-row subquery with its last row where SQLite
//   takes the first (wrong).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/oracle/sqlite_target.h"
#include "jbench/oracle/target.h"

namespace jbench::oracle::testing {

enum class CacheScope { execution, prepared_statement, connection };

struct CachePolicy {
  CacheScope scope = CacheScope::execution;
  bool key_includes_params = true;
  bool caches_nondeterministic = false;
  bool multi_row_takes_last = false;

  static CachePolicy correct() { return {}; }
  static CachePolicy ignores_parameters() {
    return {CacheScope::prepared_statement, false, false, false};
  }
  static CachePolicy survives_reset() {
    return {CacheScope::prepared_statement, true, false, false};
  }
  static CachePolicy across_statements() { return {CacheScope::connection, true, false, false}; }
  static CachePolicy caches_nondeterministic_functions() {
    return {CacheScope::execution, true, true, false};
  }
  static CachePolicy multi_row_last() { return {CacheScope::execution, true, false, true}; }
};

// The policies by name ("correct", "ignores-parameters", "survives-reset", "across-statements",
// "caches-nondeterministic", "multi-row-last"); nullopt for another name.
std::optional<CachePolicy> cache_policy_named(std::string_view name);
std::vector<std::string> cache_policy_names();

class SubqueryCacheTarget : public Target {
 public:
  SubqueryCacheTarget(SqliteTarget real, CachePolicy policy, std::string label = "")
      : real_(std::move(real)), policy_(policy), label_(std::move(label)) {}

  ResultSet run(std::string_view sql, const std::vector<Value>& params) override;
  ResultSet run_prepared(const std::string& statement, std::string_view sql,
                         const std::vector<Value>& params) override;
  std::string name() const override;

  // Subqueries answered from the cache / evaluated into it, so tests can tell the cache was used.
  std::size_t hits() const { return hits_; }
  std::size_t fills() const { return fills_; }

 private:
  struct Entry {
    std::vector<Value> rows;  // the first column of every row
    std::string affinity;     // "TEXT", "NUMERIC", or "" for none
  };
  using Cache = std::map<std::string, Entry, std::less<>>;

  ResultSet execute(const std::string* statement, std::string_view sql,
                    const std::vector<Value>& params);
  std::optional<std::string> substitute(std::string_view subquery, const std::vector<Value>& params,
                                        Cache& cache);
  Cache& cache_for(const std::string* statement);

  SqliteTarget real_;
  CachePolicy policy_;
  std::string label_;
  Cache execution_cache_;
  Cache connection_cache_;
  std::map<std::string, Cache, std::less<>> statement_caches_;
  std::size_t hits_ = 0;
  std::size_t fills_ = 0;
};

}  // namespace jbench::oracle::testing
