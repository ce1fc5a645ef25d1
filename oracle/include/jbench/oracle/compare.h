// Comparing a target's result with the oracle's under an explicit Normalization (normalize.h).
//
//   std::optional<Divergence> d = compare(target_result, oracle_result, normalization);
//   if (d) report(d->what);   // "row 3 differs: target (1, 'a'), oracle (1, 'b')"
//
// Pure: no I/O, no engine. The first difference found is reported, in this order: error vs
// result, different errors, column count, column names, row count, then the first differing row.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "jbench/oracle/normalize.h"
#include "jbench/oracle/result_set.h"

namespace jbench::oracle {

enum class DivergenceKind {
  error_vs_result,   // one side failed, the other returned rows
  different_errors,  // both failed, with different codes (or messages, when compared)
  column_count,
  column_names,
  row_count,
  row,  // a row differs; `row_index` and both rows say which
};

struct Divergence {
  DivergenceKind kind = DivergenceKind::row;
  std::string what;  // in words, naming both sides' values
  // kind == row: the index of the first differing row in the compared order (for a multiset,
  // the canonical sorted order of both sides; for ordered, the result's own order), and the
  // rows there. Unset for other kinds.
  std::optional<std::size_t> row_index;
  std::optional<Row> target_row;
  std::optional<Row> oracle_row;
};

// nullopt when the results are the same under `n`.
std::optional<Divergence> compare(const ResultSet& target, const ResultSet& oracle,
                                  const Normalization& n);

const char* to_string(DivergenceKind kind);

// {"kind": "row", "what": "...", "row_index": 3, "target_row": "(1, 'a')", ...}
nlohmann::json to_json(const Divergence& d);

}  // namespace jbench::oracle
