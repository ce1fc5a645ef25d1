// Ternary logic partitioning (TLP): a metamorphic check that needs one engine, not two. Every
// row of a query satisfies exactly one of `p`, `NOT p` and `p IS NULL` (SQL's three truth
// values), so the rows of
//   SELECT <cols> FROM <from>
// are, as a multiset, the rows of the three partitions taken together:
//   SELECT <cols> FROM <from> WHERE (p)
//   SELECT <cols> FROM <from> WHERE NOT (p)
//   SELECT <cols> FROM <from> WHERE (p) IS NULL
// An engine whose filtering disagrees with its unfiltered scan (a wrong NULL rule, a bad index
// path) breaks the equality.
//
//   TlpOutcome o = check_tlp(db, {"SELECT a, b FROM t1 JOIN t2 ON t1.id = t2.id", "a > ?1",
//                                 {Value::integer(1)}});
//   if (o.verdict != TlpVerdict::same) std::cerr << describe(o);
//
// What the check assumes of a case (not enforced, the SQL is not parsed):
// - `select_from` ends with its FROM clause (joins allowed): no WHERE, GROUP BY, ORDER BY or
//   LIMIT, since " WHERE ..." is appended to it;
// - no DISTINCT and no aggregates in the select list: the partitions' union equals the base only
//   for plain row-per-row selections;
// - `params` are bound to ?1..?N of the predicate; `select_from` uses none, because the base
//   query (which has no predicate) runs without parameters.
// Pure over the Target interface (target.h): no I/O of its own, no exceptions for failing SQL.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "jbench/oracle/compare.h"
#include "jbench/oracle/result_set.h"
#include "jbench/oracle/target.h"

namespace jbench::oracle {

struct TlpCase {
  std::string select_from;  // "SELECT a, b FROM t1 JOIN t2 ON ..." without WHERE
  std::string predicate;    // "a > ?1"
  std::vector<Value> params;
};

// The four queries, in the order they run; also the index into TlpOutcome's arrays.
enum class TlpQuery { base, where_true, where_false, where_null };
inline constexpr std::size_t tlp_query_count = 4;

enum class TlpVerdict {
  same,        // base and the union of the partitions are the same multiset
  divergence,  // they differ: `divergence` says how
  error,       // a query failed: `failed_query` and `error` say which and why
};

struct TlpOutcome {
  TlpVerdict verdict = TlpVerdict::same;
  std::string predicate;
  std::array<std::string, tlp_query_count> sql;  // indexed by TlpQuery
  // Rows each query returned (up to its error, for a failed one) and their union (the three
  // partitions).
  std::array<std::size_t, tlp_query_count> row_counts{};
  std::size_t union_rows = 0;
  // verdict == divergence: compare(base, union) under the default Normalization, so its text
  // calls the base query "target" and the union "oracle".
  std::optional<Divergence> divergence;
  // verdict == error: the first query, in TlpQuery order, that failed, and its error.
  std::optional<TlpQuery> failed_query;
  std::optional<StatementError> error;
};

// The four SQL texts of a case, indexed by TlpQuery.
std::array<std::string, tlp_query_count> tlp_queries(const TlpCase& c);

TlpOutcome check_tlp(Target& target, const TlpCase& c);

const char* to_string(TlpQuery q);
const char* to_string(TlpVerdict v);
// Over several lines: the verdict and predicate, what differed or failed, and each query with
// its row count.
std::string describe(const TlpOutcome& o);

}  // namespace jbench::oracle
