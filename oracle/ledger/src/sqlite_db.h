// A thin owner of an SQLite connection and its prepared statements, shared by the verifier, the
// database setup and the worker. Private to jbench::oracle_ledger and its worker.
//
// Return codes stay SQLite's: the worker must tell SQLITE_BUSY (retry) from a real failure.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "jbench/common/result.h"

namespace jbench::oracle::ledger_sql {

class Db {
 public:
  Db() = default;
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  Db(Db&& other) noexcept : db_(other.db_) { other.db_ = nullptr; }

  // flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, or SQLITE_OPEN_READONLY.
  Status open(const std::string& path, int flags);
  sqlite3* get() const { return db_; }
  // sqlite3_exec: the return code; `error` gets the message when it is not SQLITE_OK.
  int exec(std::string_view sql, std::string* error = nullptr);
  std::string message() const;

 private:
  sqlite3* db_ = nullptr;
};

class Stmt {
 public:
  Stmt() = default;
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  int prepare(const Db& db, std::string_view sql);
  sqlite3_stmt* get() const { return stmt_; }
  void bind(int index, std::int64_t v) { sqlite3_bind_int64(stmt_, index, v); }
  void bind(int index, std::string_view v) {
    sqlite3_bind_text64(stmt_, index, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  }
  int step() { return sqlite3_step(stmt_); }
  // Resets and clears bindings so the statement can run again.
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  std::int64_t int_at(int column) const { return sqlite3_column_int64(stmt_, column); }
  std::string_view text_at(int column) const;

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

// The primary result code of an extended one: SQLITE_BUSY_SNAPSHOT is a SQLITE_BUSY.
inline int primary(int rc) { return rc & 0xff; }
inline bool is_busy(int rc) { return primary(rc) == SQLITE_BUSY || primary(rc) == SQLITE_LOCKED; }

}  // namespace jbench::oracle::ledger_sql
