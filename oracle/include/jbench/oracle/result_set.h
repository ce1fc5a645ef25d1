// The result model the oracle compares: what one statement returned, from any engine.
//
//   ResultSet r = target.run("SELECT 1, 'a'", {});      // sqlite_target.h
//   r.columns == {"1", "'a'"}; r.rows[0][0] == Value::integer(1)
//
// A Value has SQLite's five storage classes. Text and blob both keep their bytes in `bytes`; the
// kind tells them apart (text is UTF-8 by the oracle's contract, normalize.h). A failed
// statement is a ResultSet whose `error` is set: errors are results to compare, not exceptions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jbench::oracle {

enum class ValueKind { null, integer, real, text, blob };

struct Value {
  ValueKind kind = ValueKind::null;
  std::int64_t integer_value = 0;  // kind == integer
  double real_value = 0;           // kind == real
  std::string bytes;               // kind == text (UTF-8) or blob (any bytes)

  static Value null() { return {}; }
  static Value integer(std::int64_t v) { return {ValueKind::integer, v, 0, {}}; }
  static Value real(double v) { return {ValueKind::real, 0, v, {}}; }
  static Value text(std::string v) { return {ValueKind::text, 0, 0, std::move(v)}; }
  static Value blob(std::string v) { return {ValueKind::blob, 0, 0, std::move(v)}; }

  // Exact identity (same kind, same bits of meaning); normalize.h says when values are "equal".
  friend bool operator==(const Value&, const Value&) = default;
};

using Row = std::vector<Value>;

// How a statement failed: SQLite's extended result code (SQLITE_ERROR = 1, SQLITE_CONSTRAINT_*
// ...) and its message. Engines that are not SQLite map their errors onto these codes.
struct StatementError {
  int code = 1;
  std::string message;
  friend bool operator==(const StatementError&, const StatementError&) = default;
};

struct ResultSet {
  std::vector<std::string> columns;  // empty when the engine gives no names (corpus expectations)
  std::vector<Row> rows;             // rows produced before an error, if any, are kept
  std::optional<StatementError> error;
  // The engine did not answer (crashed, timed out, spoke garbage): why, in words. Not a
  // result: the runner reports it as a target failure and stops (target.h).
  std::optional<std::string> engine_failure;

  bool ok() const { return !error.has_value() && !engine_failure.has_value(); }
};

// A value as an SQL literal, for messages and reproductions: NULL, 42, 1.5, 'it''s', x'00ff'.
// Reals print with 17 significant digits so the text reads back as the same double.
std::string to_sql_literal(const Value& v);
// "(1, 'a', NULL)".
std::string to_sql_literal(const Row& row);

}  // namespace jbench::oracle
