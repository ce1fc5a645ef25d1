#include "sqlite_db.h"

namespace jbench::oracle::ledger_sql {

Db::~Db() {
  if (db_) sqlite3_close_v2(db_);
}

Status Db::open(const std::string& path, int flags) {
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    return Error{"cannot open SQLite database '" + path + "': " + msg, 0, ErrorKind::io};
  }
  sqlite3_extended_result_codes(db_, 1);
  return {};
}

int Db::exec(std::string_view sql, std::string* error) {
  char* msg = nullptr;
  const std::string text(sql);
  const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &msg);
  if (rc != SQLITE_OK && error) *error = msg ? msg : sqlite3_errstr(rc);
  sqlite3_free(msg);
  return rc;
}

std::string Db::message() const { return db_ ? sqlite3_errmsg(db_) : "no connection"; }

Stmt::~Stmt() {
  if (stmt_) sqlite3_finalize(stmt_);
}

int Stmt::prepare(const Db& db, std::string_view sql) {
  if (stmt_) sqlite3_finalize(stmt_);
  stmt_ = nullptr;
  return sqlite3_prepare_v3(db.get(), sql.data(), static_cast<int>(sql.size()),
                            SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
}

std::string_view Stmt::text_at(int column) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (!p) return {};
  return {p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))};
}

}  // namespace jbench::oracle::ledger_sql
