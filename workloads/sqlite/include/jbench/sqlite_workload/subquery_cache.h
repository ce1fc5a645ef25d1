// The optimization candidate `subquery_cache`: count_above_mean_weight with the value of its
// uncorrelated scalar subquery kept and reused. One implementation, used by the workload
// (transaction.cpp) and by the oracle engine (oracle_engine.cpp), so that the correctness pass
// checks the very code that is timed.
//
// SQLite evaluates `(SELECT avg(weight) FROM groups)` once per execution of
//   SELECT count(*) FROM items WHERE grp = ?1 AND val > (SELECT avg(weight) FROM groups)
// but again at every execution. With the cache the statement runs hoisted,
//   SELECT count(*) FROM items WHERE grp = ?1 AND val > ?2
// with ?2 bound to the subquery's value, computed by a statement of its own and kept:
//
//   SubqueryCache cache(db, SubqueryCachePolicy::transaction);   // borrows db
//   if (cache.applies()) {
//     sqlite3_stmt* hoisted = nullptr;
//     SubqueryCache::Lookup lookup;
//     std::uint64_t fill_steps = 0;
//     if (cache.bind_execution(hoisted, lookup, fill_steps) == SQLITE_OK) {
//       sqlite3_bind_int64(hoisted, 1, grp);   // then step to done and sqlite3_reset
//     }
//   }
//   cache.after_statement(stmt);   // after EVERY statement the connection runs, this one too
//
// Policies (config.h): `transaction` keeps the value only inside the explicit transaction that
// computed it; `connection` keeps it for the connection's life and is wrong as soon as `groups`
// changes (the workload never writes `groups`, so only the oracle can tell); `off` never applies.
//
// Ownership: the cache borrows the connection and owns its two prepared statements and the kept
// value. It must be destroyed before the connection is closed with sqlite3_close.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "jbench/sqlite_workload/config.h"
#include "jbench/sqlite_workload/sqlite_db.h"

namespace jbench::sqlite_workload {

class SubqueryCache {
 public:
  // The subquery alone, and the statement with the subquery replaced by ?2.
  static constexpr std::string_view kSubquerySql = "SELECT avg(weight) FROM groups";
  static constexpr std::string_view kHoistedSql =
      "SELECT count(*) FROM items WHERE grp = ?1 AND val > ?2";

  enum class Lookup { hit, fill };

  SubqueryCache(sqlite3* db, SubqueryCachePolicy policy);
  SubqueryCache(const SubqueryCache&) = delete;
  SubqueryCache& operator=(const SubqueryCache&) = delete;

  // Prepares both statements (SQLITE_PREPARE_PERSISTENT) unless they already are: SQLITE_OK, or
  // the failing extended code with `error` set (e.g. no `groups` table yet). bind_execution()
  // calls it too; the workload calls it at open so that a cold connection pays it there.
  int prepare(std::string& error);

  // Whether the next execution may go through the cache: never with `off`; with `transaction`
  // only inside an explicit transaction (outside one every statement is its own transaction,
  // so there is nothing to reuse, and the statement runs as written); always with `connection`.
  bool applies() const;

  // The hoisted statement, reset, its bindings cleared and ?2 bound to the kept value — computed
  // first (a fill) if none is kept. The caller binds ?1, steps it to done and resets it. SQLITE_OK,
  // or the extended code of the failing prepare or subquery (nothing is kept then). `fill_steps`
  // is the subquery statement's VM steps (SQLITE_STMTSTATUS_VM_STEP, read and reset), 0 on a hit.
  int bind_execution(sqlite3_stmt*& out, Lookup& lookup, std::uint64_t& fill_steps);

  // Tells the cache that `stmt` just ran on the connection (whatever its outcome; null for a
  // statement that did not even prepare, which changed nothing). With
  // `transaction`, the kept value is forgotten when the statement may have changed what the
  // transaction sees, or the transaction is over (see the .cpp for the rule and why).
  void after_statement(sqlite3_stmt* stmt);

  SubqueryCachePolicy policy() const { return policy_; }
  // Over the cache's life.
  std::uint64_t hits() const { return hits_; }
  std::uint64_t fills() const { return fills_; }
  bool holds_value() const { return kept_ != nullptr; }

 private:
  struct ValueFree {
    void operator()(sqlite3_value* v) const { sqlite3_value_free(v); }
  };

  sqlite3* db_;
  SubqueryCachePolicy policy_;
  Statement subquery_;
  Statement hoisted_;
  std::unique_ptr<sqlite3_value, ValueFree> kept_;  // a protected copy (sqlite3_value_dup)
  std::uint64_t hits_ = 0;
  std::uint64_t fills_ = 0;
};

}  // namespace jbench::sqlite_workload
