#include "jbench/oracle/norec.h"

namespace jbench::oracle {

namespace {

// The single integer a count query returns, or why there is none.
std::optional<std::int64_t> count_of(const ResultSet& r, std::string& why) {
  if (r.engine_failure) {
    why = "the engine did not answer: " + *r.engine_failure;
    return std::nullopt;
  }
  if (r.error) {
    why = "error " + std::to_string(r.error->code) + ": " + r.error->message;
    return std::nullopt;
  }
  if (r.rows.size() != 1 || r.rows[0].size() != 1 || r.rows[0][0].kind != ValueKind::integer) {
    why = "a count query did not return one integer";
    return std::nullopt;
  }
  return r.rows[0][0].integer_value;
}

}  // namespace

std::array<std::string, 2> norec_queries(const NorecCase& c) {
  const std::string p = "(" + c.predicate + ")";
  return {"SELECT count(*) FROM " + c.from + " WHERE " + p,
          "SELECT coalesce(sum(k), 0) FROM (SELECT (" + p + " IS TRUE) AS k FROM " + c.from + ")"};
}

NorecOutcome check_norec(Target& target, const NorecCase& c) {
  NorecOutcome o;
  o.sql = norec_queries(c);
  std::string why;
  o.optimized_count = count_of(target.run(o.sql[0], c.params), why);
  if (!o.optimized_count) {
    o.verdict = NorecVerdict::error;
    o.what = "the optimized query failed: " + why;
    return o;
  }
  o.unoptimized_count = count_of(target.run(o.sql[1], c.params), why);
  if (!o.unoptimized_count) {
    o.verdict = NorecVerdict::error;
    o.what = "the unoptimized query failed: " + why;
    return o;
  }
  if (*o.optimized_count != *o.unoptimized_count) {
    o.verdict = NorecVerdict::divergence;
    o.what = "the WHERE clause kept " + std::to_string(*o.optimized_count) +
             " rows, the predicate is true on " + std::to_string(*o.unoptimized_count);
  }
  return o;
}

NorecCase norec_case_of(const TlpCase& c) {
  std::size_t at = c.select_from.find(" FROM ");
  std::string from = at == std::string::npos ? c.select_from : c.select_from.substr(at + 6);
  return {from, c.predicate, c.params};
}

const char* to_string(NorecVerdict v) {
  switch (v) {
    case NorecVerdict::same:
      return "same";
    case NorecVerdict::divergence:
      return "divergence";
    case NorecVerdict::error:
      return "error";
  }
  return "error";
}

std::string describe(const NorecOutcome& o) {
  std::string out = std::string("NoREC: ") + to_string(o.verdict);
  if (!o.what.empty()) out += ": " + o.what;
  out += "\n  optimized:   " + o.sql[0] + "\n  unoptimized: " + o.sql[1] + "\n";
  return out;
}

}  // namespace jbench::oracle
