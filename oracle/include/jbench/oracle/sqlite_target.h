// An in-process libsqlite3 database as a target or an oracle (a Target, target.h): the same engine
// can play both sides with different settings (pragmas), or two builds can be compared later.
//
//   auto db = SqliteTarget::open(":memory:", {"foreign_keys=ON"});
//   if (!db) return db.error();
//   ResultSet r = db->run("SELECT ?1 + 1", {Value::integer(41)});   // one row: 42
//
// run() never throws and never aborts on bad SQL: a statement that fails to prepare, bind or
// step comes back as a ResultSet with `error` set (SQLite's extended code and message), so an
// error is a result to compare like any other. One statement per call: trailing SQL after the
// first statement is refused (as SQLITE_MISUSE), because silently ignoring it would compare
// less than the corpus says.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/oracle/result_set.h"
#include "jbench/oracle/target.h"

struct sqlite3;
struct sqlite3_stmt;

namespace jbench::oracle {

class SqliteTarget : public Target {
 public:
  // Opens (creating if needed) `path`, ":memory:" for a private in-memory database, then runs
  // "PRAGMA <p>" for each of `pragmas` in order. A pragma that fails is an error naming it.
  // The oracle's SQL functions (jbench_seq, jbench_twice, jbench_fail: oracle_functions.c) are
  // registered on the connection.
  // With `optimizer_off`, every query-planner optimization SQLite can switch off is off
  // (SQLITE_TESTCTRL_OPTIMIZATIONS): the same engine planning naively, a differential oracle
  // for the optimized one.
  static Result<SqliteTarget> open(const std::string& path, const std::vector<std::string>& pragmas,
                                   bool optimizer_off = false);

  SqliteTarget(SqliteTarget&& other) noexcept;
  SqliteTarget& operator=(SqliteTarget&& other) noexcept;
  SqliteTarget(const SqliteTarget&) = delete;
  SqliteTarget& operator=(const SqliteTarget&) = delete;
  ~SqliteTarget()
      override;  // closes the connection (sqlite3_close_v2: statements are all finalized)

  // Prepares `sql`, binds `params` to ?1..?N in order (the count must equal the statement's
  // parameter count, or the result is an SQLITE_RANGE error), steps every row and finalizes.
  ResultSet run(std::string_view sql, const std::vector<Value>& params) override;
  // The statement is kept until the target closes: sqlite3_reset and sqlite3_clear_bindings
  // before each re-execution, sqlite3_reset after each.
  ResultSet run_prepared(const std::string& statement, std::string_view sql,
                         const std::vector<Value>& params) override;
  // SQLite's planner switches (SQLITE_TESTCTRL_OPTIMIZATIONS) by the names its sources give
  // them ("QueryFlattener", "PushDown", ...); none when the target was opened with its
  // optimizer off.
  std::vector<std::string> optimizations() const override;
  Status switch_off(const std::vector<std::string>& names) override;
  // The SQLITE_TESTCTRL_OPTIMIZATIONS bit of a switch by its name (what the sqlite3 shell's
  // `.testctrl optimizations` takes), if SQLite has one by that name.
  static std::optional<unsigned> optimization_bit(const std::string& name);
  // "sqlite:" and the path, e.g. "sqlite::memory:"; " (optimizer off)" when it is.
  std::string name() const override {
    return "sqlite:" + path_ + (optimizer_off_ ? " (optimizer off)" : "");
  }

  const std::string& path() const { return path_; }
  // The connection, for wrappers that work beside it (a cache fixture evaluating subqueries).
  sqlite3* handle() const { return db_; }
  // The names SQLite gives the columns of `sql`, prepared but not run; empty when it does not
  // prepare. For a wrapper that answers a statement by running another one (a cache that
  // rewrites it): its answer must name its columns as the statement asked does.
  std::vector<std::string> column_names(std::string_view sql) const;

 private:
  SqliteTarget(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  std::optional<ResultSet> prepare(std::string_view sql, sqlite3_stmt*& out);
  ResultSet execute(sqlite3_stmt* stmt, const std::vector<Value>& params);
  void finalize_all();

  sqlite3* db_ = nullptr;
  std::string path_;
  std::map<std::string, sqlite3_stmt*, std::less<>> prepared_;
  bool optimizer_off_ = false;
};

}  // namespace jbench::oracle
