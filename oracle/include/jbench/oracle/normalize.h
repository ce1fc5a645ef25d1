// Normalization: the explicit rules under which two results count as the same. Every comparison
// records the Normalization it used (to_json), so a verdict says how it was reached.
//
//   Normalization n;                         // multiset, NULL != '', 1 != 1.0, floats 4 ULPs/1e-12
//   n.order = RowOrder::ordered;             // the statement has ORDER BY
//   n.order_key = {0};                       // ... ORDER BY its first column
//   n.limit_ties = true;                     // ... with a LIMIT that may cut a tie group
//   values_equal(Value::integer(1), Value::real(1.0), n)  // false: storage classes differ
//
// The rules, stated once (docs/oracle-corpus.md repeats them):
// - Row order: `multiset` when the statement has no ORDER BY (engines may return rows in any
//   order); `ordered` when it has one. Under `ordered`, rows whose ORDER BY key (`order_key`,
//   column indices; empty = the whole row) is equal form a tie group, and SQL leaves the order
//   inside a tie group open, so each tie group is compared as a multiset while the groups are
//   compared in order.
// - `limit_ties` (ORDER BY ... LIMIT): the LIMIT may cut through the last tie group and then any
//   rows of that tie are a correct answer. So the last group must have the same number of rows
//   and the same ORDER BY key on both sides; its other columns are not compared.
// - NULL and '' are distinct unless `null_equals_empty_text`.
// - Storage classes are compared: an integer never equals a real (an engine that answers 42.0 for
//   42 is wrong). `integer_equals_exact_real` relaxes it, explicitly: then an integer equals a
//   real that is exactly that integer (1 == 1.0, 2^53+1 != 2^53).
// - Two reals are equal when they are identical, within `max_ulps` units in the last place, or
//   within `relative_tolerance` of the larger magnitude. Infinities equal only themselves.
// - Text is UTF-8 and is compared byte for byte (no collation, no Unicode normalization); blobs
//   byte for byte; text never equals a blob.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "jbench/oracle/result_set.h"

namespace jbench::oracle {

enum class RowOrder { multiset, ordered };

struct Normalization {
  RowOrder order = RowOrder::multiset;
  std::vector<std::size_t> order_key;  // 0-based column indices of the ORDER BY key
  bool limit_ties = false;
  bool null_equals_empty_text = false;
  bool integer_equals_exact_real = false;
  std::uint64_t max_ulps = 4;
  double relative_tolerance = 1e-12;
  // Column names differ between engines for the same expression ("count(*)" vs "COUNT(*)");
  // corpus expectations have none. The number of columns is always compared.
  bool compare_column_names = true;
  // Engines word their errors differently: by default two failures match when their primary
  // result codes (code & 0xff) match; messages only when asked.
  bool compare_error_messages = false;
};

// {"order": "multiset", "order_key": [], "limit_ties": false, ..., "text_encoding": "UTF-8"}
nlohmann::json to_json(const Normalization& n);

// Value equality under `n`.
bool values_equal(const Value& a, const Value& b, const Normalization& n);
bool rows_equal(const Row& a, const Row& b, const Normalization& n);

// A strict weak order on rows used to bring two multisets into the same order before pairing
// them: by kind rank (NULL < numbers < text < blob), numbers by exact value, bytes
// lexicographically. Tolerance is not transitive, so two reals within tolerance but not
// identical still sort apart; when such rows also tie on every earlier column they can be
// paired wrongly and a divergence is reported that a better pairing would avoid (a false
// alarm, never a missed difference).
bool row_less(const Row& a, const Row& b, const Normalization& n);

// The ORDER BY key of a row under `n` (the whole row when order_key is empty). A key index past
// the row's end is ignored: the column count is compared separately.
Row order_key_of(const Row& row, const Normalization& n);

}  // namespace jbench::oracle
