// Thin RAII over the SQLite C API: a connection and its prepared statements, plus the names
// of result codes (errors are counted by name in the results, e.g. "SQLITE_BUSY_SNAPSHOT").
//
// Ownership: a Database owns its sqlite3*; a Statement owns its sqlite3_stmt* and must be
// destroyed (finalized) before the Database it came from is closed with close().
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jbench::sqlite_workload {

// "SQLITE_BUSY", "SQLITE_IOERR_FSYNC", ...; an unknown extended code falls back to its primary
// name plus the number ("SQLITE_IOERR_4874") so a count is never lost for want of a name.
std::string result_code_name(int code);

// The primary part of a (possibly extended) result code.
inline int primary_code(int code) { return code & 0xff; }

// Binds `bytes` as a BLOB without copying (they must outlive the step). An empty vector binds a
// zero-length blob: SQLite would bind NULL for its null data pointer.
int bind_blob(sqlite3_stmt* stmt, int index, const std::vector<unsigned char>& bytes);

class Statement {
 public:
  Statement() = default;
  explicit Statement(sqlite3_stmt* stmt) : stmt_(stmt) {}
  Statement(Statement&& other) noexcept : stmt_(other.stmt_) { other.stmt_ = nullptr; }
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  sqlite3_stmt* get() const { return stmt_; }

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

class Database {
 public:
  Database() = default;
  Database(Database&& other) noexcept : db_(other.db_) { other.db_ = nullptr; }
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  // Closes with sqlite3_close_v2 if close() was not called (an error path: nothing is timed).
  ~Database();

  // sqlite3_open_v2 with extended result codes on. On failure returns the (extended) code and
  // fills `error`; the half-open handle is released.
  static int open(const std::string& path, int flags, Database& out, std::string& error);

  sqlite3* get() const { return db_; }
  bool is_open() const { return db_ != nullptr; }
  std::string errmsg() const;

  int exec(std::string_view sql);
  // SQLITE_PREPARE_PERSISTENT: these statements live as long as the connection.
  int prepare(std::string_view sql, Statement& out);
  // sqlite3_close: every Statement must already be finalized. Returns its result code.
  int close();

  // Helpers for one-value queries used at setup time (not in timed paths).
  std::optional<std::int64_t> query_int(std::string_view sql);
  std::optional<std::string> query_text(std::string_view sql);
  // The `detail` column of EXPLAIN QUERY PLAN <sql>, one entry per plan row.
  std::optional<std::vector<std::string>> query_plan(std::string_view sql);

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace jbench::sqlite_workload
