#include "subquery_cache_target.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include "jbench/oracle/sql_lexer.h"
#include "jbench/oracle/sqlite_values.h"

namespace jbench::oracle::testing {

namespace {

// Functions whose result is not fixed by their arguments and the database: a cache that keeps
// their value is wrong (SQLite's own list of non-deterministic built-ins, and the oracle's
// jbench_seq).
constexpr std::array<std::string_view, 17> kNondeterministic = {
    "random",        "randomblob",    "changes",      "total_changes", "last_insert_rowid",
    "jbench_seq",    "date",          "time",         "datetime",      "julianday",
    "strftime",      "unixepoch",     "current_date", "current_time",  "current_timestamp",
    "sqlite_offset", "load_extension"};

struct StmtGuard {
  sqlite3_stmt* stmt = nullptr;
  ~StmtGuard() { sqlite3_finalize(stmt); }
};

// SQLite's affinity rules for a declared type (datatype3.html, 3.1), folded to what matters for
// a comparison: text, numeric (INTEGER, REAL and NUMERIC compare alike), or none.
std::string affinity_of(const char* decltype_text) {
  if (decltype_text == nullptr) return "";
  std::string t = decltype_text;
  std::transform(t.begin(), t.end(), t.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (t.find("INT") != std::string::npos) return "NUMERIC";
  if (t.find("CHAR") != std::string::npos || t.find("CLOB") != std::string::npos ||
      t.find("TEXT") != std::string::npos) {
    return "TEXT";
  }
  if (t.empty() || t.find("BLOB") != std::string::npos) return "";
  return "NUMERIC";
}

// The value as SQL that keeps `affinity`, or nullopt when the cast would change the value.
std::optional<std::string> typed_literal(const Value& v, const std::string& affinity) {
  if (v.kind == ValueKind::real && !std::isfinite(v.real_value)) return std::nullopt;
  if (affinity.empty()) return "(" + to_sql_literal(v) + ")";
  if (affinity == "TEXT") {
    if (v.kind != ValueKind::null && v.kind != ValueKind::text) return std::nullopt;
    return "CAST(" + to_sql_literal(v) + " AS TEXT)";
  }
  switch (v.kind) {
    case ValueKind::null:
    case ValueKind::integer:
      return "CAST(" + to_sql_literal(v) + " AS INTEGER)";
    case ValueKind::real:
      return "CAST(" + to_sql_literal(v) + " AS REAL)";
    default:
      return std::nullopt;  // text or a blob under a numeric affinity: a cast would convert it
  }
}

// The highest ?N the statement uses (its parameter count when it uses ?N only).
std::size_t highest_parameter(std::string_view sql) {
  std::size_t n = 0;
  for (const SqlToken& t : lex_sql(sql)) {
    if (t.kind == TokenKind::parameter) n = std::max(n, t.parameter_index);
  }
  return n;
}

struct Subquery {
  std::size_t open = 0;   // the '('
  std::size_t close = 0;  // one past the ')'
};

// Every "( SELECT ..." with its matching ")", outermost and inner ones alike, left to right,
// except those after IN or EXISTS (a list or a test, not a scalar).
std::vector<Subquery> subqueries(std::string_view sql, const std::vector<SqlToken>& tokens) {
  std::vector<Subquery> out;
  auto next_solid = [&](std::size_t k) {
    while (k < tokens.size() && tokens[k].kind == TokenKind::space) ++k;
    return k;
  };
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    if (tokens[k].kind != TokenKind::punct || sql[tokens[k].begin] != '(') continue;
    std::size_t first = next_solid(k + 1);
    if (first == tokens.size() || !is_word(sql, tokens[first], "select")) continue;
    std::size_t before = k;
    while (before > 0 && tokens[before - 1].kind == TokenKind::space) --before;
    if (before > 0 &&
        (is_word(sql, tokens[before - 1], "in") || is_word(sql, tokens[before - 1], "exists"))) {
      continue;
    }
    int depth = 0;
    for (std::size_t j = k; j < tokens.size(); ++j) {
      if (tokens[j].kind != TokenKind::punct) continue;
      char c = sql[tokens[j].begin];
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) {
        out.push_back({tokens[k].begin, tokens[j].end});
        break;
      }
    }
  }
  return out;
}

}  // namespace

std::optional<CachePolicy> cache_policy_named(std::string_view name) {
  if (name == "correct") return CachePolicy::correct();
  if (name == "ignores-parameters") return CachePolicy::ignores_parameters();
  if (name == "survives-reset") return CachePolicy::survives_reset();
  if (name == "across-statements") return CachePolicy::across_statements();
  if (name == "caches-nondeterministic") return CachePolicy::caches_nondeterministic_functions();
  if (name == "multi-row-last") return CachePolicy::multi_row_last();
  return std::nullopt;
}

std::vector<std::string> cache_policy_names() {
  return {"correct",           "ignores-parameters",      "survives-reset",
          "across-statements", "caches-nondeterministic", "multi-row-last"};
}

std::string SubqueryCacheTarget::name() const {
  return "subquery-cache" + (label_.empty() ? "" : "(" + label_ + ")") + "(" + real_.name() + ")";
}

SubqueryCacheTarget::Cache& SubqueryCacheTarget::cache_for(const std::string* statement) {
  if (policy_.scope == CacheScope::connection) return connection_cache_;
  if (policy_.scope == CacheScope::prepared_statement && statement != nullptr) {
    return statement_caches_[*statement];
  }
  execution_cache_.clear();  // statement-scoped: nothing outlives one execution
  return execution_cache_;
}

// The text that replaces `subquery` (its parentheses included), or nullopt to leave it.
std::optional<std::string> SubqueryCacheTarget::substitute(std::string_view subquery,
                                                           const std::vector<Value>& params,
                                                           Cache& cache) {
  std::string_view inner = subquery.substr(1, subquery.size() - 2);
  std::vector<SqlToken> tokens = lex_sql(inner);
  for (const SqlToken& t : tokens) {
    if (t.kind == TokenKind::parameter && t.parameter_index == 0) return std::nullopt;
    if (policy_.caches_nondeterministic || t.kind != TokenKind::word) continue;
    for (std::string_view f : kNondeterministic) {
      if (is_word(inner, t, f)) return std::nullopt;
    }
  }
  StmtGuard guard;
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(real_.handle(), inner.data(), static_cast<int>(inner.size()), &guard.stmt,
                         &tail) != SQLITE_OK ||
      guard.stmt == nullptr || sqlite3_column_count(guard.stmt) != 1) {
    return std::nullopt;  // correlated, or names a CTE of the outer statement, or not scalar
  }
  const char* declared = sqlite3_column_decltype(guard.stmt, 0);
  // A CAST gives an expression an affinity that decltype does not report.
  if (declared == nullptr) {
    for (const SqlToken& t : tokens) {
      if (is_word(inner, t, "cast")) return std::nullopt;
    }
  }
  int count = sqlite3_bind_parameter_count(guard.stmt);
  if (static_cast<std::size_t>(count) > params.size()) return std::nullopt;
  std::string key(inner);
  for (int i = 1; i <= count; ++i) {
    if (bind_value(guard.stmt, i, params[static_cast<std::size_t>(i - 1)]) != SQLITE_OK) {
      return std::nullopt;
    }
    if (policy_.key_includes_params)
      key += "\x1f" + to_sql_literal(params[static_cast<std::size_t>(i - 1)]);
  }
  auto it = cache.find(key);
  if (it != cache.end()) {
    ++hits_;
  } else {
    Entry e;
    e.affinity = affinity_of(declared);
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(guard.stmt)) == SQLITE_ROW)
      e.rows.push_back(column_value(guard.stmt, 0));
    // A failing subquery is left to the statement: SQLite may never evaluate it (CASE, AND).
    if (rc != SQLITE_DONE) return std::nullopt;
    ++fills_;
    it = cache.emplace(key, std::move(e)).first;
  }
  const Entry& e = it->second;
  Value v = e.rows.empty() ? Value::null()
                           : (policy_.multi_row_takes_last ? e.rows.back() : e.rows.front());
  return typed_literal(v, e.affinity);
}

ResultSet SubqueryCacheTarget::execute(const std::string* statement, std::string_view sql,
                                       const std::vector<Value>& params) {
  Cache& cache = cache_for(statement);
  std::vector<SqlToken> tokens = lex_sql(sql);
  // Replacing a subquery would renumber bare ?, :name, @name and $name parameters after it.
  bool numbered_only = std::none_of(tokens.begin(), tokens.end(), [](const SqlToken& t) {
    return t.kind == TokenKind::parameter && t.parameter_index == 0;
  });
  if (!numbered_only) {
    return statement ? real_.run_prepared(*statement, sql, params) : real_.run(sql, params);
  }
  std::string rewritten;
  std::size_t copied = 0;
  for (const Subquery& s : subqueries(sql, tokens)) {
    if (s.open < copied) continue;  // inside a subquery already replaced
    auto replacement = substitute(sql.substr(s.open, s.close - s.open), params, cache);
    if (!replacement) continue;
    rewritten.append(sql.substr(copied, s.open - copied));
    rewritten += *replacement;
    copied = s.close;
  }
  if (copied == 0) {
    return statement ? real_.run_prepared(*statement, sql, params) : real_.run(sql, params);
  }
  rewritten.append(sql.substr(copied));
  // Parameters used only inside a replaced subquery are gone from the statement.
  std::size_t keep = std::min(params.size(), highest_parameter(rewritten));
  ResultSet answer = real_.run(
      rewritten,
      std::vector<Value>(params.begin(), params.begin() + static_cast<std::ptrdiff_t>(keep)));
  // The answer names its columns as the statement asked does, not as the rewritten text would.
  if (auto names = real_.column_names(sql); names.size() == answer.columns.size()) {
    answer.columns = std::move(names);
  }
  return answer;
}

ResultSet SubqueryCacheTarget::run(std::string_view sql, const std::vector<Value>& params) {
  return execute(nullptr, sql, params);
}

ResultSet SubqueryCacheTarget::run_prepared(const std::string& statement, std::string_view sql,
                                            const std::vector<Value>& params) {
  return execute(&statement, sql, params);
}

}  // namespace jbench::oracle::testing
