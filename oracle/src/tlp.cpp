#include "jbench/oracle/tlp.h"

#include <utility>

#include "jbench/oracle/normalize.h"

namespace jbench::oracle {

namespace {

constexpr std::size_t index_of(TlpQuery q) { return static_cast<std::size_t>(q); }

}  // namespace

std::array<std::string, tlp_query_count> tlp_queries(const TlpCase& c) {
  // The predicate is parenthesised so that `NOT` and `IS NULL` apply to all of it, whatever
  // operators it uses (`NOT a OR b` would otherwise partition on something else).
  const std::string p = "(" + c.predicate + ")";
  return {c.select_from, c.select_from + " WHERE " + p, c.select_from + " WHERE NOT " + p,
          c.select_from + " WHERE " + p + " IS NULL"};
}

TlpOutcome check_tlp(Target& target, const TlpCase& c) {
  TlpOutcome o;
  o.predicate = c.predicate;
  o.sql = tlp_queries(c);

  std::array<ResultSet, tlp_query_count> results;
  for (std::size_t i = 0; i < tlp_query_count; ++i) {
    // The base query has no predicate and so no parameters to bind (tlp.h).
    static const std::vector<Value> no_params;
    results[i] = target.run(o.sql[i], i == index_of(TlpQuery::base) ? no_params : c.params);
    o.row_counts[i] = results[i].rows.size();
  }
  for (std::size_t i = 0; i < tlp_query_count; ++i) {
    if (!results[i].ok()) {
      o.verdict = TlpVerdict::error;
      o.failed_query = static_cast<TlpQuery>(i);
      o.error = results[i].error;
      return o;
    }
  }

  // The partitions concatenated; their order does not matter, the comparison is a multiset one.
  ResultSet all;
  all.columns = results[index_of(TlpQuery::where_true)].columns;
  for (TlpQuery q : {TlpQuery::where_true, TlpQuery::where_false, TlpQuery::where_null}) {
    for (Row& row : results[index_of(q)].rows) all.rows.push_back(std::move(row));
  }
  o.union_rows = all.rows.size();

  o.divergence = compare(results[index_of(TlpQuery::base)], all, Normalization{});
  if (o.divergence) o.verdict = TlpVerdict::divergence;
  return o;
}

const char* to_string(TlpQuery q) {
  switch (q) {
    case TlpQuery::base:
      return "base";
    case TlpQuery::where_true:
      return "where (p)";
    case TlpQuery::where_false:
      return "where not (p)";
    case TlpQuery::where_null:
      return "where (p) is null";
  }
  return "?";
}

const char* to_string(TlpVerdict v) {
  switch (v) {
    case TlpVerdict::same:
      return "same";
    case TlpVerdict::divergence:
      return "divergence";
    case TlpVerdict::error:
      return "error";
  }
  return "?";
}

std::string describe(const TlpOutcome& o) {
  std::string out = std::string("TLP ") + to_string(o.verdict) + " on predicate " + o.predicate;
  if (o.divergence) {
    out += "\n  base (\"target\") vs union of partitions (\"oracle\"): " + o.divergence->what;
  }
  if (o.failed_query && o.error) {
    out += "\n  the " + std::string(to_string(*o.failed_query)) + " query failed: error " +
           std::to_string(o.error->code) + ": " + o.error->message;
  }
  for (std::size_t i = 0; i < tlp_query_count; ++i) {
    out += "\n  " + std::string(to_string(static_cast<TlpQuery>(i))) + ": " +
           std::to_string(o.row_counts[i]) + " rows: " + o.sql[i];
  }
  if (o.verdict != TlpVerdict::error) {
    out += "\n  union of partitions: " + std::to_string(o.union_rows) + " rows";
  }
  return out;
}

}  // namespace jbench::oracle
