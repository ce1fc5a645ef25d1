#include "jbench/sqlite_workload/sqlite_db.h"

#include <fmt/format.h>

#include <string>
#include <utility>

namespace jbench::sqlite_workload {
namespace {

struct CodeName {
  int code;
  const char* name;
};

// Every code SQLite 3.40 defines; the macro makes the compiler check each pairing.
#define X(c) \
  CodeName { c, #c }
constexpr CodeName kCodeNames[] = {
    X(SQLITE_OK),
    X(SQLITE_ERROR),
    X(SQLITE_INTERNAL),
    X(SQLITE_PERM),
    X(SQLITE_ABORT),
    X(SQLITE_BUSY),
    X(SQLITE_LOCKED),
    X(SQLITE_NOMEM),
    X(SQLITE_READONLY),
    X(SQLITE_INTERRUPT),
    X(SQLITE_IOERR),
    X(SQLITE_CORRUPT),
    X(SQLITE_NOTFOUND),
    X(SQLITE_FULL),
    X(SQLITE_CANTOPEN),
    X(SQLITE_PROTOCOL),
    X(SQLITE_EMPTY),
    X(SQLITE_SCHEMA),
    X(SQLITE_TOOBIG),
    X(SQLITE_CONSTRAINT),
    X(SQLITE_MISMATCH),
    X(SQLITE_MISUSE),
    X(SQLITE_NOLFS),
    X(SQLITE_AUTH),
    X(SQLITE_FORMAT),
    X(SQLITE_RANGE),
    X(SQLITE_NOTADB),
    X(SQLITE_NOTICE),
    X(SQLITE_WARNING),
    X(SQLITE_ROW),
    X(SQLITE_DONE),
    X(SQLITE_ERROR_MISSING_COLLSEQ),
    X(SQLITE_ERROR_RETRY),
    X(SQLITE_ERROR_SNAPSHOT),
    X(SQLITE_IOERR_READ),
    X(SQLITE_IOERR_SHORT_READ),
    X(SQLITE_IOERR_WRITE),
    X(SQLITE_IOERR_FSYNC),
    X(SQLITE_IOERR_DIR_FSYNC),
    X(SQLITE_IOERR_TRUNCATE),
    X(SQLITE_IOERR_FSTAT),
    X(SQLITE_IOERR_UNLOCK),
    X(SQLITE_IOERR_RDLOCK),
    X(SQLITE_IOERR_DELETE),
    X(SQLITE_IOERR_BLOCKED),
    X(SQLITE_IOERR_NOMEM),
    X(SQLITE_IOERR_ACCESS),
    X(SQLITE_IOERR_CHECKRESERVEDLOCK),
    X(SQLITE_IOERR_LOCK),
    X(SQLITE_IOERR_CLOSE),
    X(SQLITE_IOERR_DIR_CLOSE),
    X(SQLITE_IOERR_SHMOPEN),
    X(SQLITE_IOERR_SHMSIZE),
    X(SQLITE_IOERR_SHMLOCK),
    X(SQLITE_IOERR_SHMMAP),
    X(SQLITE_IOERR_SEEK),
    X(SQLITE_IOERR_DELETE_NOENT),
    X(SQLITE_IOERR_MMAP),
    X(SQLITE_IOERR_GETTEMPPATH),
    X(SQLITE_IOERR_CONVPATH),
    X(SQLITE_IOERR_VNODE),
    X(SQLITE_IOERR_AUTH),
    X(SQLITE_IOERR_BEGIN_ATOMIC),
    X(SQLITE_IOERR_COMMIT_ATOMIC),
    X(SQLITE_IOERR_ROLLBACK_ATOMIC),
    X(SQLITE_IOERR_DATA),
    X(SQLITE_IOERR_CORRUPTFS),
    X(SQLITE_LOCKED_SHAREDCACHE),
    X(SQLITE_LOCKED_VTAB),
    X(SQLITE_BUSY_RECOVERY),
    X(SQLITE_BUSY_SNAPSHOT),
    X(SQLITE_BUSY_TIMEOUT),
    X(SQLITE_CANTOPEN_NOTEMPDIR),
    X(SQLITE_CANTOPEN_ISDIR),
    X(SQLITE_CANTOPEN_FULLPATH),
    X(SQLITE_CANTOPEN_CONVPATH),
    X(SQLITE_CANTOPEN_DIRTYWAL),
    X(SQLITE_CANTOPEN_SYMLINK),
    X(SQLITE_CORRUPT_VTAB),
    X(SQLITE_CORRUPT_SEQUENCE),
    X(SQLITE_CORRUPT_INDEX),
    X(SQLITE_READONLY_RECOVERY),
    X(SQLITE_READONLY_CANTLOCK),
    X(SQLITE_READONLY_ROLLBACK),
    X(SQLITE_READONLY_DBMOVED),
    X(SQLITE_READONLY_CANTINIT),
    X(SQLITE_READONLY_DIRECTORY),
    X(SQLITE_ABORT_ROLLBACK),
    X(SQLITE_CONSTRAINT_CHECK),
    X(SQLITE_CONSTRAINT_COMMITHOOK),
    X(SQLITE_CONSTRAINT_FOREIGNKEY),
    X(SQLITE_CONSTRAINT_FUNCTION),
    X(SQLITE_CONSTRAINT_NOTNULL),
    X(SQLITE_CONSTRAINT_PRIMARYKEY),
    X(SQLITE_CONSTRAINT_TRIGGER),
    X(SQLITE_CONSTRAINT_UNIQUE),
    X(SQLITE_CONSTRAINT_VTAB),
    X(SQLITE_CONSTRAINT_ROWID),
    X(SQLITE_CONSTRAINT_PINNED),
    X(SQLITE_CONSTRAINT_DATATYPE),
    X(SQLITE_NOTICE_RECOVER_WAL),
    X(SQLITE_NOTICE_RECOVER_ROLLBACK),
    X(SQLITE_WARNING_AUTOINDEX),
    X(SQLITE_AUTH_USER),
    X(SQLITE_OK_LOAD_PERMANENTLY),
    X(SQLITE_OK_SYMLINK),
};
#undef X

const char* find_name(int code) {
  for (const auto& entry : kCodeNames) {
    if (entry.code == code) return entry.name;
  }
  return nullptr;
}

}  // namespace

std::string result_code_name(int code) {
  if (const char* name = find_name(code)) return name;
  if (const char* primary = find_name(primary_code(code)))
    return fmt::format("{}_{}", primary, code);
  return fmt::format("SQLITE_UNKNOWN_{}", code);
}

int bind_blob(sqlite3_stmt* stmt, int index, const std::vector<unsigned char>& bytes) {
  static const unsigned char kEmpty = 0;
  return sqlite3_bind_blob(stmt, index, bytes.empty() ? &kEmpty : bytes.data(),
                           static_cast<int>(bytes.size()), SQLITE_STATIC);
}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    if (db_ != nullptr) sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
  }
  return *this;
}

Database::~Database() {
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

int Database::open(const std::string& path, int flags, Database& out, std::string& error) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_extended_result_codes(db, 1);
  if (rc != SQLITE_OK) {
    error = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    if (db != nullptr) rc = sqlite3_extended_errcode(db);
    sqlite3_close_v2(db);
    return rc;
  }
  out = Database();
  out.db_ = db;
  return SQLITE_OK;
}

std::string Database::errmsg() const { return db_ != nullptr ? sqlite3_errmsg(db_) : "not open"; }

int Database::exec(std::string_view sql) {
  return sqlite3_exec(db_, std::string(sql).c_str(), nullptr, nullptr, nullptr);
}

int Database::prepare(std::string_view sql, Statement& out) {
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  out = Statement(stmt);
  return rc;
}

int Database::close() {
  const int rc = sqlite3_close(db_);
  if (rc == SQLITE_OK) db_ = nullptr;
  return rc;
}

std::optional<std::int64_t> Database::query_int(std::string_view sql) {
  Statement stmt;
  if (prepare(sql, stmt) != SQLITE_OK || sqlite3_step(stmt.get()) != SQLITE_ROW)
    return std::nullopt;
  if (sqlite3_column_type(stmt.get(), 0) != SQLITE_INTEGER) return std::nullopt;
  return sqlite3_column_int64(stmt.get(), 0);
}

std::optional<std::string> Database::query_text(std::string_view sql) {
  Statement stmt;
  if (prepare(sql, stmt) != SQLITE_OK || sqlite3_step(stmt.get()) != SQLITE_ROW)
    return std::nullopt;
  const unsigned char* text = sqlite3_column_text(stmt.get(), 0);
  if (text == nullptr) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(text));
}

std::optional<std::vector<std::string>> Database::query_plan(std::string_view sql) {
  Statement stmt;
  if (prepare(fmt::format("EXPLAIN QUERY PLAN {}", sql), stmt) != SQLITE_OK) return std::nullopt;
  // Columns: id, parent, notused, detail.
  std::vector<std::string> details;
  int rc;
  while ((rc = sqlite3_step(stmt.get())) == SQLITE_ROW) {
    const unsigned char* text = sqlite3_column_text(stmt.get(), 3);
    details.emplace_back(text != nullptr ? reinterpret_cast<const char*>(text) : "");
  }
  if (rc != SQLITE_DONE) return std::nullopt;
  return details;
}

}  // namespace jbench::sqlite_workload
