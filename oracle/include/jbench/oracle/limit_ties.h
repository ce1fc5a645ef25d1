// A LIMIT that cuts through a tie group (ORDER BY ... LIMIT, Normalization::limit_ties) lets an
// engine return any rows of that tie, so the comparison can hold the last group only to its key
// and size. That alone would let an engine invent rows there. So the oracle also runs the
// statement without its LIMIT, and every row of the target's last tie group must be a row of
// that unlimited result with the same key — each used once.
//
//   auto unlimited = without_trailing_limit("SELECT id, v FROM t ORDER BY v LIMIT ?1", {3});
//   // {"SELECT id, v FROM t ORDER BY v", {}}
//   if (auto d = invented_tie_rows(target.rows, oracle.run(unlimited->sql, ...).rows, n)) ...
//
// Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/oracle/compare.h"
#include "jbench/oracle/normalize.h"
#include "jbench/oracle/result_set.h"

namespace jbench::oracle {

struct UnlimitedQuery {
  std::string sql;
  std::vector<Value> params;
};

// `sql` without a trailing `LIMIT n` or `LIMIT ?N` (then N must be the last parameter and used
// nowhere else, and it is dropped from the parameters); a `;` and spaces may follow. nullopt
// when the statement does not end so (an OFFSET, an expression, no LIMIT).
std::optional<UnlimitedQuery> without_trailing_limit(std::string_view sql,
                                                     const std::vector<Value>& params);

// The first row of the target's last tie group (under `n`'s ORDER BY key) that is not a row of
// `unlimited` with that key, matching each unlimited row once; nullopt when every one is.
std::optional<Divergence> invented_tie_rows(const std::vector<Row>& target,
                                            const std::vector<Row>& unlimited,
                                            const Normalization& n);

}  // namespace jbench::oracle
