// SQL literals as the corpus writes them (params and expected rows): the subset of SQLite's
// literal syntax whose value is unambiguous without an engine.
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "jbench/oracle/corpus.h"

namespace jbench::oracle {

namespace {

LiteralParse fail(std::size_t at, std::string message) { return {std::nullopt, at, message}; }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// 'text' with '' for a quote; `start` is the opening quote.
LiteralParse quoted(std::string_view text, std::size_t start, std::string& out) {
  std::size_t i = start + 1;
  while (i < text.size()) {
    if (text[i] == '\'') {
      if (i + 1 < text.size() && text[i + 1] == '\'') {
        out += '\'';
        i += 2;
        continue;
      }
      return {Value::null(), i + 1, {}};  // the caller sets the kind
    }
    out += text[i++];
  }
  return fail(start, "unterminated string literal; close it with '");
}

LiteralParse number(std::string_view text) {
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  std::size_t digits = i;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  bool is_real = false;
  if (i < text.size() && text[i] == '.') {
    is_real = true;
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  }
  if (i == digits || (is_real && i == digits + 1)) {
    return fail(0, "expected a value: NULL, a number, 'text' or x'hex'");
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    is_real = true;
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    std::size_t exp = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == exp) return fail(i, "an exponent needs digits");
  }
  std::string s(text.substr(0, i));
  errno = 0;
  if (!is_real) {
    long long v = std::strtoll(s.c_str(), nullptr, 10);
    if (errno == ERANGE) return fail(0, "integer out of the 64-bit range; write it as a real");
    return {Value::integer(v), i, {}};
  }
  return {Value::real(std::strtod(s.c_str(), nullptr)), i, {}};
}

}  // namespace

LiteralParse parse_literal(std::string_view text) {
  if (text.empty()) return fail(0, "expected a value: NULL, a number, 'text' or x'hex'");
  if (text.size() >= 4 && (text.substr(0, 4) == "NULL" || text.substr(0, 4) == "null")) {
    bool word_ends = text.size() == 4 || !std::isalnum(static_cast<unsigned char>(text[4]));
    if (word_ends) return {Value::null(), 4, {}};
  }
  if (text[0] == '\'') {
    std::string out;
    LiteralParse p = quoted(text, 0, out);
    if (p.value) p.value = Value::text(std::move(out));
    return p;
  }
  if ((text[0] == 'x' || text[0] == 'X') && text.size() > 1 && text[1] == '\'') {
    std::string hex;
    LiteralParse p = quoted(text, 1, hex);
    if (!p.value) return p;
    if (hex.size() % 2 != 0) return fail(1, "a blob needs an even number of hex digits");
    std::string bytes;
    for (std::size_t i = 0; i < hex.size(); i += 2) {
      int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);
      if (hi < 0 || lo < 0) return fail(2 + i + (hi < 0 ? 0 : 1), "not a hex digit in a blob");
      bytes += static_cast<char>(hi * 16 + lo);
    }
    p.value = Value::blob(std::move(bytes));
    return p;
  }
  return number(text);
}

}  // namespace jbench::oracle
