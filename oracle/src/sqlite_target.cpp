#include "jbench/oracle/sqlite_target.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <utility>

#include "jbench/oracle/sql_lexer.h"
#include "jbench/oracle/sqlite_values.h"
#include "oracle_functions.h"

namespace jbench::oracle {

namespace {

std::vector<std::string> names_of(sqlite3_stmt* stmt) {
  std::vector<std::string> names;
  const int columns = sqlite3_column_count(stmt);
  for (int i = 0; i < columns; ++i) {
    const char* name = sqlite3_column_name(stmt, i);
    names.emplace_back(name ? name : "");
  }
  return names;
}

ResultSet failed(int code, std::string message, ResultSet partial = {}) {
  partial.error = StatementError{code, std::move(message)};
  return partial;
}

ResultSet failed_from(sqlite3* db, std::string context, ResultSet partial = {}) {
  return failed(sqlite3_extended_errcode(db), context + sqlite3_errmsg(db), std::move(partial));
}

// Whether the SQL after a statement is only whitespace, semicolons and comments (an unterminated
// comment included, which SQLite accepts).
bool only_trivia(std::string_view tail) {
  for (const SqlToken& t : lex_sql(tail)) {
    if (t.kind == TokenKind::space) continue;
    if (t.kind == TokenKind::punct && tail[t.begin] == ';') continue;
    return false;
  }
  return true;
}

// Finalizes on every path out of run().
struct StatementGuard {
  sqlite3_stmt* stmt = nullptr;
  ~StatementGuard() { sqlite3_finalize(stmt); }
};

// SQLite's planner switches: the bits of the SQLITE_TESTCTRL_OPTIMIZATIONS mask (sqliteInt.h; a
// bit keeps its meaning from one version to the next, and one a version lacks changes nothing),
// less the ones that change no answer by design: CursorHints and ReleaseReg are instrumentation,
// Stat4 needs statistics nothing here gathers.
struct Optimization {
  const char* name;
  unsigned bit;
};
constexpr std::array<Optimization, 21> kOptimizations = {
    {{"QueryFlattener", 0x1},     {"WindowFunc", 0x2},         {"GroupByOrder", 0x4},
     {"FactorOutConst", 0x8},     {"DistinctOpt", 0x10},       {"CoverIdxScan", 0x20},
     {"OrderByIdxJoin", 0x40},    {"Transitive", 0x80},        {"OmitNoopJoin", 0x100},
     {"CountOfView", 0x200},      {"PushDown", 0x1000},        {"SimplifyJoin", 0x2000},
     {"SkipScan", 0x4000},        {"PropagateConst", 0x8000},  {"MinMaxOpt", 0x10000},
     {"SeekScan", 0x20000},       {"OmitOrderBy", 0x40000},    {"BloomFilter", 0x80000},
     {"BloomPulldown", 0x100000}, {"BalancedMerge", 0x200000}, {"FlttnUnionAll", 0x800000}}};

}  // namespace

int bind_value(sqlite3_stmt* stmt, int index, const Value& v) {
  switch (v.kind) {
    case ValueKind::null:
      return sqlite3_bind_null(stmt, index);
    case ValueKind::integer:
      return sqlite3_bind_int64(stmt, index, v.integer_value);
    case ValueKind::real:
      return sqlite3_bind_double(stmt, index, v.real_value);
    case ValueKind::text:
      return sqlite3_bind_text64(stmt, index, v.bytes.data(), v.bytes.size(), SQLITE_TRANSIENT,
                                 SQLITE_UTF8);
    case ValueKind::blob:
      return sqlite3_bind_blob64(stmt, index, v.bytes.data(), v.bytes.size(), SQLITE_TRANSIENT);
  }
  return SQLITE_MISUSE;
}

Value column_value(sqlite3_stmt* stmt, int i) {
  switch (sqlite3_column_type(stmt, i)) {
    case SQLITE_INTEGER:
      return Value::integer(sqlite3_column_int64(stmt, i));
    case SQLITE_FLOAT:
      return Value::real(sqlite3_column_double(stmt, i));
    case SQLITE_TEXT: {
      // Fetch the pointer before the size: that order avoids a conversion between the two.
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
      return Value::text(std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt, i))));
    }
    case SQLITE_BLOB: {
      const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt, i));
      auto n = static_cast<std::size_t>(sqlite3_column_bytes(stmt, i));
      return Value::blob(p ? std::string(p, n) : std::string());  // a zero-length blob is NULL p
    }
    default:
      return Value::null();
  }
}

Result<SqliteTarget> SqliteTarget::open(const std::string& path,
                                        const std::vector<std::string>& pragmas,
                                        bool optimizer_off) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  SqliteTarget target(db, path);  // owns db from here, even when opening failed
  if (rc != SQLITE_OK) {
    return Error{"cannot open the SQLite database '" + path +
                     "': " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)),
                 0, ErrorKind::io};
  }
  sqlite3_extended_result_codes(db, 1);
  if (int f = jbench_oracle_register_functions(db); f != SQLITE_OK) {
    return Error{
        "cannot register the oracle's SQL functions on '" + path + "': " + sqlite3_errstr(f), 0,
        ErrorKind::host};
  }
  if (optimizer_off) {
    sqlite3_test_control(SQLITE_TESTCTRL_OPTIMIZATIONS, db, 0xffffffffU);
    target.optimizer_off_ = true;
  }
  for (const std::string& p : pragmas) {
    ResultSet r = target.run("PRAGMA " + p, {});
    if (!r.ok()) {
      return Error{"PRAGMA " + p + " on '" + path + "' failed: " + r.error->message, 0,
                   ErrorKind::input};
    }
  }
  return target;
}

SqliteTarget::SqliteTarget(SqliteTarget&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)),
      path_(std::move(other.path_)),
      prepared_(std::move(other.prepared_)),
      optimizer_off_(other.optimizer_off_) {
  other.prepared_.clear();
}

SqliteTarget& SqliteTarget::operator=(SqliteTarget&& other) noexcept {
  if (this != &other) {
    finalize_all();
    sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
    prepared_ = std::move(other.prepared_);
    optimizer_off_ = other.optimizer_off_;
    other.prepared_.clear();
  }
  return *this;
}

SqliteTarget::~SqliteTarget() {
  finalize_all();
  sqlite3_close_v2(db_);
}

// Prepares exactly one statement from `sql` into `out`; a failure is the ResultSet to return.
std::optional<ResultSet> SqliteTarget::prepare(std::string_view sql, sqlite3_stmt*& out) {
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &out, &tail) != SQLITE_OK) {
    return failed_from(db_, "");
  }
  if (out == nullptr) return failed(SQLITE_MISUSE, "no SQL statement in the text");
  if (!only_trivia(sql.substr(static_cast<std::size_t>(tail - sql.data())))) {
    return failed(SQLITE_MISUSE, "more than one SQL statement in one run(); give one at a time");
  }
  return std::nullopt;
}

// Binds and steps a prepared statement to its end; the caller resets or finalizes it.
ResultSet SqliteTarget::execute(sqlite3_stmt* stmt, const std::vector<Value>& params) {
  int expected = sqlite3_bind_parameter_count(stmt);
  if (static_cast<std::size_t>(expected) != params.size()) {
    return failed(SQLITE_RANGE, "the statement has " + std::to_string(expected) + " parameters, " +
                                    std::to_string(params.size()) + " given");
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (bind_value(stmt, static_cast<int>(i + 1), params[i]) != SQLITE_OK) {
      return failed_from(db_, "binding parameter " + std::to_string(i + 1) + ": ");
    }
  }
  ResultSet result;
  int columns = sqlite3_column_count(stmt);
  result.columns = names_of(stmt);
  for (;;) {
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) return failed_from(db_, "", std::move(result));
    Row row;
    row.reserve(static_cast<std::size_t>(columns));
    for (int i = 0; i < columns; ++i) row.push_back(column_value(stmt, i));
    result.rows.push_back(std::move(row));
  }
  return result;
}

ResultSet SqliteTarget::run(std::string_view sql, const std::vector<Value>& params) {
  StatementGuard guard;
  if (auto failure = prepare(sql, guard.stmt)) return std::move(*failure);
  return execute(guard.stmt, params);
}

ResultSet SqliteTarget::run_prepared(const std::string& statement, std::string_view sql,
                                     const std::vector<Value>& params) {
  auto it = prepared_.find(statement);
  if (it == prepared_.end()) {
    sqlite3_stmt* stmt = nullptr;
    if (auto failure = prepare(sql, stmt)) {
      sqlite3_finalize(stmt);
      return std::move(*failure);
    }
    it = prepared_.emplace(statement, stmt).first;
  } else {
    // Re-execution: reset (its last outcome is reported by its own step, so the code it
    // returns is not a new error) and forget the old bindings before binding the new ones.
    sqlite3_reset(it->second);
    sqlite3_clear_bindings(it->second);
  }
  ResultSet r = execute(it->second, params);
  // Reset right away so that the statement holds no read transaction between executions, as
  // an application that re-executes its statements would.
  sqlite3_reset(it->second);
  return r;
}

void SqliteTarget::finalize_all() {
  for (auto& [name, stmt] : prepared_) sqlite3_finalize(stmt);
  prepared_.clear();
}

std::vector<std::string> SqliteTarget::column_names(std::string_view sql) const {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr) !=
          SQLITE_OK ||
      stmt == nullptr) {
    sqlite3_finalize(stmt);
    return {};
  }
  std::vector<std::string> names = names_of(stmt);
  sqlite3_finalize(stmt);
  return names;
}

std::vector<std::string> SqliteTarget::optimizations() const {
  std::vector<std::string> names;
  if (optimizer_off_) return names;
  for (const Optimization& o : kOptimizations) names.emplace_back(o.name);
  return names;
}

std::optional<unsigned> SqliteTarget::optimization_bit(const std::string& name) {
  const auto* o = std::find_if(kOptimizations.begin(), kOptimizations.end(),
                               [&](const Optimization& k) { return name == k.name; });
  if (o == kOptimizations.end()) return std::nullopt;
  return o->bit;
}

Status SqliteTarget::switch_off(const std::vector<std::string>& names) {
  unsigned mask = 0;
  for (const std::string& n : names) {
    const auto bit = optimization_bit(n);
    if (optimizer_off_ || !bit) {
      return Error{name() + " offers no optimization '" + n + "' to switch off", 0,
                   ErrorKind::input};
    }
    mask |= *bit;
  }
  if (optimizer_off_) return {};
  sqlite3_test_control(SQLITE_TESTCTRL_OPTIMIZATIONS, db_, mask);
  return {};
}

}  // namespace jbench::oracle
