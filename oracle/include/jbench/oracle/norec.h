// Non-optimizing reference engine construction (NoREC): a metamorphic check that needs one
// engine. The rows a WHERE clause keeps are counted twice:
//   optimized:   SELECT count(*) FROM <from> WHERE (p)
//   unoptimized: SELECT coalesce(sum(k), 0) FROM (SELECT ((p) IS TRUE) AS k FROM <from>)
// The first lets the planner use indexes and rewrite the predicate; the second evaluates it as
// a plain expression on every row, where no optimization applies. A planner that drops or keeps
// a wrong row makes the counts differ.
//
//   NorecOutcome o = check_norec(db, {"items i LEFT JOIN groups g ON g.grp = i.grp",
//                                     "i.val > ?1", {Value::integer(3)}});
//   if (o.verdict != NorecVerdict::same) std::cerr << describe(o);
//
// `from` is what follows FROM (tables, joins); `params` are bound to ?1..?N of the predicate,
// in both queries. Pure over the Target interface (target.h).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "jbench/oracle/result_set.h"
#include "jbench/oracle/target.h"
#include "jbench/oracle/tlp.h"

namespace jbench::oracle {

struct NorecCase {
  std::string from;       // "items i LEFT JOIN groups g ON g.grp = i.grp"
  std::string predicate;  // "i.val > ?1"
  std::vector<Value> params;
};

enum class NorecVerdict { same, divergence, error };

struct NorecOutcome {
  NorecVerdict verdict = NorecVerdict::same;
  std::array<std::string, 2> sql;  // optimized, unoptimized
  std::optional<std::int64_t> optimized_count;
  std::optional<std::int64_t> unoptimized_count;
  std::string what;  // the difference or the error, in words
};

std::array<std::string, 2> norec_queries(const NorecCase& c);
NorecOutcome check_norec(Target& target, const NorecCase& c);
// The same rows as a TLP case: its select_from is "SELECT <cols> FROM <from>" (tlp.h), split
// at its first " FROM ".
NorecCase norec_case_of(const TlpCase& c);

const char* to_string(NorecVerdict v);
std::string describe(const NorecOutcome& o);

}  // namespace jbench::oracle
