// Raw SQLite calls for the shim's tests: open through a named VFS, run a statement for its
// result code, read one integer.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

namespace jbench::oracle::test {

// Closes on destruction; `vfs` null means the default VFS (no shim).
class Db {
 public:
  explicit Db(const std::string& path, const char* vfs = nullptr) {
    int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs);
    if (rc != SQLITE_OK) ADD_FAILURE() << "open " << path << ": " << sqlite3_errstr(rc);
    sqlite3_extended_result_codes(db_, 1);
  }
  ~Db() { close(); }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void close() {
    sqlite3_close_v2(db_);
    db_ = nullptr;
  }
  // The extended result code of running `sql` to completion.
  int exec(const std::string& sql) {
    int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr);
    return rc == SQLITE_OK ? rc : sqlite3_extended_errcode(db_);
  }
  // The first column of the first row of `sql`, or -1 when it fails or returns nothing.
  long long integer(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    long long value = -1;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
      value = sqlite3_column_int64(stmt, 0);
    }
    sqlite3_finalize(stmt);
    return value;
  }
  std::string text(const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    std::string value = "<none>";
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
      value = p ? p : "NULL";
    }
    sqlite3_finalize(stmt);
    return value;
  }

 private:
  sqlite3* db_ = nullptr;
};

// Whether `rc` is in SQLite's I/O-error family (SQLITE_IOERR and its extended codes).
inline bool is_ioerr(int rc) { return (rc & 0xff) == SQLITE_IOERR; }

}  // namespace jbench::oracle::test
