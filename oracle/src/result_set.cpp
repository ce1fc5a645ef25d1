#include "jbench/oracle/result_set.h"

#include <cmath>
#include <cstdio>

namespace jbench::oracle {

namespace {

std::string real_literal(double v) {
  if (std::isnan(v)) return "NULL";  // SQLite itself turns NaN into NULL
  if (std::isinf(v)) return v > 0 ? "1e999" : "-1e999";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  // Keep a real recognizable as one when it is integral: 1.0, not 1.
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

std::string to_sql_literal(const Value& v) {
  switch (v.kind) {
    case ValueKind::null:
      return "NULL";
    case ValueKind::integer:
      return std::to_string(v.integer_value);
    case ValueKind::real:
      return real_literal(v.real_value);
    case ValueKind::text: {
      std::string out = "'";
      for (char c : v.bytes) {
        if (c == '\'') out += '\'';
        out += c;
      }
      return out + "'";
    }
    case ValueKind::blob: {
      static constexpr char kHex[] = "0123456789abcdef";
      std::string out = "x'";
      for (unsigned char c : v.bytes) {
        out += kHex[c >> 4];
        out += kHex[c & 0xf];
      }
      return out + "'";
    }
  }
  return "NULL";
}

std::string to_sql_literal(const Row& row) {
  std::string out = "(";
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (i) out += ", ";
    out += to_sql_literal(row[i]);
  }
  return out + ")";
}

}  // namespace jbench::oracle
