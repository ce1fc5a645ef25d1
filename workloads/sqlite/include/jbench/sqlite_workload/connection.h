// One worker connection: the database opened with the run's settings and every statement the
// workload needs, prepared once per connection.
//
// Opening never creates a file (a mistyped path must fail, not measure an empty database) and
// refuses a database that is not in WAL mode. With params.subquery_cache on, the connection also
// holds the subquery cache (subquery_cache.h) and its statements, prepared at open too. Everything
// open() does is what a cold connection pays per transaction, so it is all inside the measured open
// cost.
#pragma once

#include <array>
#include <memory>
#include <string>

#include "jbench/sqlite_workload/config.h"
#include "jbench/sqlite_workload/queries.h"
#include "jbench/sqlite_workload/sqlite_db.h"
#include "jbench/sqlite_workload/subquery_cache.h"

namespace jbench::sqlite_workload {

class Connection {
 public:
  // SQLITE_OK, or the failing result code with `error` set.
  static int open(const WorkerConfig& config, Connection& out, std::string& error);
  // Finalizes the statements, then sqlite3_close. Returns its result code.
  int close();

  Database& db() { return db_; }
  sqlite3_stmt* query(Query q) const { return queries_[static_cast<std::size_t>(q)].get(); }
  sqlite3_stmt* begin_read() const { return begin_read_.get(); }
  sqlite3_stmt* begin_write() const { return begin_write_.get(); }
  sqlite3_stmt* commit() const { return commit_.get(); }
  sqlite3_stmt* rollback() const { return rollback_.get(); }
  // Null when params.subquery_cache is off.
  SubqueryCache* subquery_cache() const { return cache_.get(); }
  // To be called after every statement run on the connection, so that the cache sees them all.
  void after_statement(sqlite3_stmt* stmt) const {
    if (cache_) cache_->after_statement(stmt);
  }

 private:
  Database db_;
  std::array<Statement, kQueryCount> queries_;
  Statement begin_read_;
  Statement begin_write_;
  Statement commit_;
  Statement rollback_;
  // After db_, so that it is destroyed (its statements finalized) before the connection closes.
  std::unique_ptr<SubqueryCache> cache_;
};

}  // namespace jbench::sqlite_workload
