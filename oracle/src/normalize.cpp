#include "jbench/oracle/normalize.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <compare>
#include <limits>

namespace jbench::oracle {

namespace {

// Doubles mapped onto a line of integers on which adjacent doubles differ by one, so the ULP
// distance is a subtraction. -0.0 and +0.0 map to the same point.
std::int64_t ordered_bits(double d) {
  auto bits = std::bit_cast<std::int64_t>(d);
  return bits < 0 ? std::numeric_limits<std::int64_t>::min() - bits : bits;
}

bool reals_equal(double a, double b, const Normalization& n) {
  if (a == b) return true;  // also +0 == -0 and equal infinities
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return false;
  // Both finite and on the same side of zero or near it: the ULP test. Computed in unsigned
  // arithmetic so two far-apart values cannot overflow.
  std::int64_t ia = ordered_bits(a), ib = ordered_bits(b);
  std::uint64_t ulps =
      ia > ib ? std::uint64_t(ia) - std::uint64_t(ib) : std::uint64_t(ib) - std::uint64_t(ia);
  if (ulps <= n.max_ulps) return true;
  return std::fabs(a - b) <= n.relative_tolerance * std::max(std::fabs(a), std::fabs(b));
}

// True when `r` is exactly the integer `i`: finite, integral, in int64's range and converting
// back gives `i` (2^53 + 1 has no double, so it equals no real).
bool real_is_integer(double r, std::int64_t i) {
  if (!std::isfinite(r) || r != std::trunc(r)) return false;
  // 2^63 is the first double beyond int64; -2^63 is representable and in range.
  if (r >= 9223372036854775808.0 || r < -9223372036854775808.0) return false;
  return static_cast<std::int64_t>(r) == i;
}

bool is_empty_text(const Value& v) { return v.kind == ValueKind::text && v.bytes.empty(); }

// Kind rank for ordering; with null_equals_empty_text NULL sorts as '' so equals stay adjacent.
int rank(const Value& v, const Normalization& n) {
  switch (v.kind) {
    case ValueKind::null:
      return n.null_equals_empty_text ? 2 : 0;
    case ValueKind::integer:
    case ValueKind::real:
      return 1;
    case ValueKind::text:
      return 2;
    case ValueKind::blob:
      return 3;
  }
  return 0;
}

// long double holds every int64 exactly on x86-64 (64-bit mantissa) and aarch64 (quad), so an
// integer and a real are ordered by their exact values.
long double numeric(const Value& v) {
  return v.kind == ValueKind::integer ? static_cast<long double>(v.integer_value)
                                      : static_cast<long double>(v.real_value);
}

std::weak_ordering value_order(const Value& a, const Value& b, const Normalization& n) {
  int ra = rank(a, n), rb = rank(b, n);
  if (ra != rb) return ra <=> rb;
  if (ra == 1) {
    if (!n.integer_equals_exact_real && a.kind != b.kind) {
      return a.kind == ValueKind::integer ? std::weak_ordering::less : std::weak_ordering::greater;
    }
    long double x = numeric(a), y = numeric(b);
    if (x < y) return std::weak_ordering::less;
    if (y < x) return std::weak_ordering::greater;
    return std::weak_ordering::equivalent;  // NaN never reaches here: SQLite stores it as NULL
  }
  // NULL (as '') sorts with text by bytes; a plain NULL pair is equal.
  const std::string& x = a.kind == ValueKind::null ? std::string() : a.bytes;
  const std::string& y = b.kind == ValueKind::null ? std::string() : b.bytes;
  int c = x.compare(y);
  return c < 0 ? std::weak_ordering::less
               : (c > 0 ? std::weak_ordering::greater : std::weak_ordering::equivalent);
}

const char* order_name(RowOrder o) { return o == RowOrder::ordered ? "ordered" : "multiset"; }

}  // namespace

bool values_equal(const Value& a, const Value& b, const Normalization& n) {
  if (a.kind == ValueKind::null || b.kind == ValueKind::null) {
    if (a.kind == b.kind) return true;
    return n.null_equals_empty_text && (is_empty_text(a) || is_empty_text(b));
  }
  if (a.kind == ValueKind::integer && b.kind == ValueKind::integer) {
    return a.integer_value == b.integer_value;
  }
  if (a.kind == ValueKind::real && b.kind == ValueKind::real) {
    return reals_equal(a.real_value, b.real_value, n);
  }
  if (a.kind == ValueKind::integer && b.kind == ValueKind::real) {
    return n.integer_equals_exact_real && real_is_integer(b.real_value, a.integer_value);
  }
  if (a.kind == ValueKind::real && b.kind == ValueKind::integer) {
    return n.integer_equals_exact_real && real_is_integer(a.real_value, b.integer_value);
  }
  return a.kind == b.kind && a.bytes == b.bytes;  // text/text, blob/blob; text never = blob
}

bool rows_equal(const Row& a, const Row& b, const Normalization& n) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!values_equal(a[i], b[i], n)) return false;
  }
  return true;
}

bool row_less(const Row& a, const Row& b, const Normalization& n) {
  std::size_t common = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < common; ++i) {
    auto c = value_order(a[i], b[i], n);
    if (c != std::weak_ordering::equivalent) return c == std::weak_ordering::less;
  }
  return a.size() < b.size();
}

Row order_key_of(const Row& row, const Normalization& n) {
  if (n.order_key.empty()) return row;
  Row key;
  for (std::size_t i : n.order_key) {
    if (i < row.size()) key.push_back(row[i]);
  }
  return key;
}

nlohmann::json to_json(const Normalization& n) {
  return {
      {"order", order_name(n.order)},
      {"order_key", n.order_key},
      {"limit_ties", n.limit_ties},
      {"null_equals_empty_text", n.null_equals_empty_text},
      {"integer_equals_exact_real", n.integer_equals_exact_real},
      {"max_ulps", n.max_ulps},
      {"relative_tolerance", n.relative_tolerance},
      {"compare_column_names", n.compare_column_names},
      {"compare_error_messages", n.compare_error_messages},
      {"text_encoding", "UTF-8"},
      {"text_comparison", "bytes"},
  };
}

}  // namespace jbench::oracle
