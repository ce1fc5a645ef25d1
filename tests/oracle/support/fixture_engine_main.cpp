// jbench-oracle-fixture-engine: an engine process for the oracle's tests, speaking the line
// protocol over a real in-memory SQLite — plain, behind a scalar-subquery cache (right or
// wrong), or misbehaving at its N-th request in one of the ways a real engine can.
//
//   jbench-oracle-fixture-engine [--cache POLICY] [--fault MODE --at N] [--lie LIE]
//
// POLICY: a name from cache_policy_names(). MODE: crash (SIGABRT), hang (sleeps an hour),
// exit (exits 0 without answering), answer-then-exit (answers, then exits), garbage (a line that is
// not JSON), wrong-id, bad-literal (a value that is not an SQL literal), ragged-row (rows of
// different widths), no-hello (says nothing and hangs at start), bad-hello (another protocol at
// start). A LIE is told in every answer: integers-as-reals returns each integer as the real of the
// same value (42.0 for 42), which only an exact comparison of storage classes catches;
// generic-errors reports every failure as SQLITE_ERROR (1), whatever its code; no-prepared says
// prepared: false in its hello, declining prepared statements; nulls-last sorts NULLs last in
// the first ORDER BY term of every statement (as engines that follow another convention do);
// renamed-columns names every answer's first column "c0" (an engine that loses the names a
// statement gives its columns); no-column-names names none at all; invented-ties makes up the last
// row of every ORDER BY ... LIMIT answer: the ORDER BY column keeps its value, each other integer
// column is a million more (a row of the same key and size that does not exist);
// glob-ignores-case answers every GLOB as a LIKE of the same pattern (case folded);
// not-in-ignores-null drops the NULLs from every NOT IN list (x NOT IN (1, NULL) true for x = 2,
// where SQL says NULL). The last two only show on statements that say GLOB or NOT IN, which the
// corpus and the generator's templates never do and its composed queries do;
// flattener-loses-rows drops the last row of every answer to a WITH query while SQLite's
// QueryFlattener is on (not switched off through the protocol), which only the query-plan
// oracle sees without a second engine.
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "jbench/oracle/protocol.h"
#include "jbench/oracle/serve.h"
#include "jbench/oracle/sqlite_target.h"
#include "subquery_cache_target.h"

using namespace jbench::oracle;

namespace {

// `sql` with NULLS LAST after its first ORDER BY term: "ORDER BY v, id" -> "ORDER BY v NULLS LAST,
// id". A term that says DESC already sorts NULLs last in SQLite; the lie changes ascending ones.
std::string nulls_last(std::string sql) {
  const auto order = sql.find("ORDER BY ");
  if (order == std::string::npos) return sql;
  std::size_t end = order + 9;
  while (end < sql.size() && sql[end] != ',' && sql[end] != ')' && sql[end] != ' ') ++end;
  if (sql.compare(end, 5, " DESC") == 0) return sql;
  return sql.insert(end, " NULLS LAST");
}

// `sql` with each GLOB a LIKE, its pattern's wildcards translated ('*' -> '%', '?' -> '_').
std::string glob_as_like(std::string sql) {
  for (auto at = sql.find(" GLOB '"); at != std::string::npos; at = sql.find(" GLOB '", at)) {
    sql.replace(at, 6, " LIKE ");
    for (std::size_t i = at + 7; i < sql.size() && sql[i] != '\''; ++i) {
      if (sql[i] == '*') sql[i] = '%';
      if (sql[i] == '?') sql[i] = '_';
    }
  }
  return sql;
}

// `sql` with ", NULL" taken out of each NOT IN list of values (up to its closing parenthesis).
std::string not_in_without_nulls(std::string sql) {
  static const std::string kNotIn = " NOT IN (";
  for (auto at = sql.find(kNotIn); at != std::string::npos; at = sql.find(kNotIn, at + 1)) {
    std::size_t end = at + kNotIn.size();
    if (sql.compare(end, 6, "SELECT") == 0) continue;  // a subquery, not a list
    for (int depth = 1; end < sql.size() && depth > 0; ++end) {
      depth += sql[end] == '(' ? 1 : sql[end] == ')' ? -1 : 0;
    }
    std::string list = sql.substr(at, end - at);
    for (auto n = list.find(", NULL"); n != std::string::npos; n = list.find(", NULL")) {
      list.erase(n, 6);
    }
    sql.replace(at, end - at, list);
  }
  return sql;
}

// The lies told by rewriting the statement before it runs.
std::string rewritten(const std::string& lie, const std::string& sql) {
  if (lie == "nulls-last") return nulls_last(sql);
  if (lie == "glob-ignores-case") return glob_as_like(sql);
  if (lie == "not-in-ignores-null") return not_in_without_nulls(sql);
  return sql;
}

// The invented-ties lie on `result`, the answer to `sql`.
void invent_last_tie_row(const std::string& sql, ResultSet& result) {
  const auto order = sql.find("ORDER BY ");
  if (order == std::string::npos || sql.find(" LIMIT ", order) == std::string::npos ||
      !result.ok() || result.rows.empty()) {
    return;
  }
  const auto begin = order + 9;
  const auto end = sql.find_first_of(" ,)", begin);
  const std::string key = sql.substr(begin, end == std::string::npos ? end : end - begin);
  Row& last = result.rows.back();
  for (std::size_t c = 0; c < last.size() && c < result.columns.size(); ++c) {
    if (result.columns[c] != key && last[c].kind == ValueKind::integer) {
      last[c] = Value::integer(last[c].integer_value + 1'000'000);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string cache, fault, lie;
  std::uint64_t at = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--cache") cache = argv[i + 1];
    if (a == "--fault") fault = argv[i + 1];
    if (a == "--at") at = std::stoull(argv[i + 1]);
    if (a == "--lie") lie = argv[i + 1];
  }
  auto db = SqliteTarget::open(":memory:", {});
  if (!db) {
    std::cerr << db.error().message << "\n";
    return 3;
  }
  std::unique_ptr<Target> engine;
  if (cache.empty()) {
    engine = std::make_unique<SqliteTarget>(std::move(*db));
  } else {
    auto policy = testing::cache_policy_named(cache);
    if (!policy) {
      std::cerr << "unknown cache policy " << cache << "\n";
      return 2;
    }
    engine = std::make_unique<testing::SubqueryCacheTarget>(std::move(*db), *policy, cache);
  }
  std::string name = "fixture " + (cache.empty() ? std::string("sqlite") : "cache " + cache);
  if (fault.empty() && lie.empty()) {
    return serve_protocol(*engine, std::cin, std::cout, std::cerr, name);
  }

  if (fault == "no-hello") {
    std::cerr << "fixture: never says hello\n";
    sleep(3600);
    return 0;
  }
  if (fault == "bad-hello") {
    std::cout << R"({"protocol":"some-other/9","engine":"x"})" << std::endl;
    return 0;
  }
  Hello hello = hello_of(*engine, name);
  hello.prepared = hello.prepared && lie != "no-prepared";
  std::cout << encode_hello(hello) << std::endl;
  bool flattening = true;  // the flattener-loses-rows lie: QueryFlattener not switched off
  std::string line;
  for (std::uint64_t n = 1; std::getline(std::cin, line); ++n) {
    const auto decoded = decode_request(line);
    if (!decoded) return 2;
    if (!decoded->has_value()) return 0;  // quit
    const std::optional<RunRequest>& d = *decoded;
    const bool fault_now = !fault.empty() && n == at;
    if (fault_now && fault == "answer-then-exit") {
      // Answers, then dies before the next request: jbench's next write meets a closed pipe.
      std::cout << encode_response(d->id, engine->run(d->sql, d->params)) << std::endl;
      std::cerr << "fixture: exiting after request " << n << "\n";
      return 0;
    }
    if (fault_now) {
      std::cerr << "fixture: fault " << fault << " at request " << n << "\n";
      if (fault == "crash") std::abort();
      if (fault == "hang") sleep(3600);
      if (fault == "exit") return 0;
      if (fault == "garbage") std::cout << "I am not JSON" << std::endl;
      if (fault == "wrong-id") std::cout << R"({"id":999999,"ok":true,"rows":[]})" << std::endl;
      if (fault == "bad-literal") {
        std::cout << R"({"id":)" << d->id << R"(,"ok":true,"rows":[["forty-two"]]})" << std::endl;
      }
      if (fault == "ragged-row") {
        std::cout << R"({"id":)" << d->id << R"(,"ok":true,"rows":[["1","2"],["3"]]})" << std::endl;
      }
      continue;
    }
    const RunRequest& r = *d;
    if (r.switch_off) {
      const auto& off = *r.switch_off;
      flattening = std::find(off.begin(), off.end(), "QueryFlattener") == off.end();
      std::cout << encode_response(r.id, answer_request(*engine, r)) << std::endl;
      continue;
    }
    const std::string sql = rewritten(lie, r.sql);
    ResultSet result = r.statement.empty() ? engine->run(sql, r.params)
                                           : engine->run_prepared(r.statement, sql, r.params);
    if (lie == "generic-errors" && result.error) result.error->code = 1;
    if (lie == "invented-ties") invent_last_tie_row(sql, result);
    if (lie == "renamed-columns" && !result.columns.empty()) result.columns[0] = "c0";
    if (lie == "no-column-names") result.columns.clear();
    if (lie == "flattener-loses-rows" && flattening && sql.starts_with("WITH ") &&
        !result.rows.empty()) {
      result.rows.pop_back();
    }
    if (lie == "integers-as-reals") {
      for (Row& row : result.rows) {
        for (Value& v : row) {
          if (v.kind == ValueKind::integer) v = Value::real(static_cast<double>(v.integer_value));
        }
      }
    }
    std::cout << encode_response(r.id, result) << std::endl;
  }
  return 0;
}
