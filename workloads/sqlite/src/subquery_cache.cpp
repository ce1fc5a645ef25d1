#include "jbench/sqlite_workload/subquery_cache.h"

#include <cctype>

namespace jbench::sqlite_workload {
namespace {

// Whether `sql` is a ROLLBACK statement (ROLLBACK, ROLLBACK TO, ROLLBACK TRANSACTION ...), its
// leading spaces and comments skipped.
bool is_rollback(const char* sql) {
  if (sql == nullptr) return false;
  std::string_view s(sql);
  for (;;) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    if (s.starts_with("--")) {
      const auto end = s.find('\n');
      s.remove_prefix(end == std::string_view::npos ? s.size() : end + 1);
    } else if (s.starts_with("/*")) {
      const auto end = s.find("*/", 2);
      s.remove_prefix(end == std::string_view::npos ? s.size() : end + 2);
    } else {
      break;
    }
  }
  constexpr std::string_view kWord = "rollback";
  if (s.size() < kWord.size()) return false;
  for (std::size_t i = 0; i < kWord.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != kWord[i]) return false;
  }
  return s.size() == kWord.size() ||
         !(std::isalnum(static_cast<unsigned char>(s[kWord.size()])) || s[kWord.size()] == '_');
}

std::uint64_t take_vm_steps(sqlite3_stmt* stmt) {
  return static_cast<std::uint64_t>(sqlite3_stmt_status(stmt, SQLITE_STMTSTATUS_VM_STEP, 1));
}

}  // namespace

SubqueryCache::SubqueryCache(sqlite3* db, SubqueryCachePolicy policy) : db_(db), policy_(policy) {}

int SubqueryCache::prepare(std::string& error) {
  if (subquery_.get() != nullptr && hoisted_.get() != nullptr) return SQLITE_OK;
  for (auto [sql, out] : {std::pair{kSubquerySql, &subquery_}, std::pair{kHoistedSql, &hoisted_}}) {
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    *out = Statement(stmt);
    if (rc != SQLITE_OK) {
      // Read before finalizing, which may overwrite the connection's error.
      const int code = sqlite3_extended_errcode(db_);
      error = sqlite3_errmsg(db_);
      subquery_ = Statement();
      hoisted_ = Statement();
      return code;
    }
  }
  return SQLITE_OK;
}

bool SubqueryCache::applies() const {
  switch (policy_) {
    case SubqueryCachePolicy::off:
      return false;
    case SubqueryCachePolicy::transaction:
      return sqlite3_get_autocommit(db_) == 0;
    case SubqueryCachePolicy::connection:
      return true;
  }
  return false;
}

// Why the hoisted statement with ?2 bound to the kept value returns what the original returns
// (SQLite 3.40, datatype3.html section 4.2 and the scalar-subquery rules of lang_expr.html):
// - The value is the subquery's own result, copied with sqlite3_value_dup and bound with
//   sqlite3_bind_value: the same storage class and the same bits. avg() returns a REAL, or
//   NULL when `groups` has no row (or only NULL weights); a scalar subquery that returned no
//   row would be NULL too, and avg() always returns exactly one row.
// - Affinity: a comparison applies affinity from its operands' expressions. A scalar subquery
//   takes the affinity of its result expression, and avg(weight) is a function call, which has
//   none; a bound parameter has none either. So both forms compare `val` with an operand of no
//   affinity and apply `val`'s affinity to it. With the workload's INTEGER `val` that is
//   NUMERIC affinity on a REAL, which leaves it as it is, and INTEGER against REAL compares
//   exactly (no rounding of `val`); whatever the column's affinity, the rule is the same in both.
// - NULL: `val > NULL` is NULL in both forms, so no row counts and count(*) is 0.
// - The subquery is uncorrelated and deterministic, so one evaluation before the statement
//   equals SQLite's own once-per-execution evaluation inside it. The one difference is when it
//   is evaluated at all: SQLite skips it when no row has grp = ?1, the cache does not, which can
//   only matter if reading `groups` fails (an I/O error), and then no value is kept.
int SubqueryCache::bind_execution(sqlite3_stmt*& out, Lookup& lookup, std::uint64_t& fill_steps) {
  fill_steps = 0;
  std::string ignored;
  if (const int rc = prepare(ignored); rc != SQLITE_OK) return rc;
  if (kept_ != nullptr) {
    lookup = Lookup::hit;
    ++hits_;
  } else {
    sqlite3_stmt* s = subquery_.get();
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
      kept_.reset(sqlite3_value_dup(sqlite3_column_value(s, 0)));
      rc = kept_ != nullptr ? sqlite3_step(s) : SQLITE_NOMEM;
    }
    const int code = rc == SQLITE_DONE ? SQLITE_OK : sqlite3_extended_errcode(db_);
    sqlite3_reset(s);
    fill_steps = take_vm_steps(s);
    if (code != SQLITE_OK) {
      kept_.reset();
      return code;
    }
    lookup = Lookup::fill;
    ++fills_;
  }
  sqlite3_stmt* h = hoisted_.get();
  sqlite3_reset(h);
  sqlite3_clear_bindings(h);
  if (const int rc = sqlite3_bind_value(h, 2, kept_.get()); rc != SQLITE_OK) return rc;
  out = h;
  return SQLITE_OK;
}

// When a kept value may no longer be the subquery's (policy `transaction`). In WAL mode a read
// transaction holds one snapshot from its first read to its end: inside an explicit transaction
// no other connection's commit is visible, so `groups` can change only by this connection's own
// statements. Hence the value is forgotten
// - after any statement that is not read-only (sqlite3_stmt_readonly false): it may have written
//   `groups`, or changed what the name means (CREATE TEMP TABLE groups ...);
// - after a ROLLBACK TO, which sqlite3_stmt_readonly calls read-only (transaction control) but
//   which undoes this connection's writes while the transaction goes on;
// - whenever the connection is in autocommit afterwards: COMMIT, ROLLBACK, a statement in
//   autocommit, or an error that rolled the transaction back ended the snapshot, and the next
//   transaction may see other connections' commits.
void SubqueryCache::after_statement(sqlite3_stmt* stmt) {
  if (policy_ != SubqueryCachePolicy::transaction || kept_ == nullptr) return;
  if (sqlite3_stmt_readonly(stmt) == 0 || is_rollback(sqlite3_sql(stmt)) ||
      sqlite3_get_autocommit(db_) != 0) {
    kept_.reset();
  }
}

}  // namespace jbench::sqlite_workload
