// One record line of a raw file read without building a document: records are flat JSON objects
// whose values are strings, integers, null or booleans (docs/events.md). Keys and values are
// views into the line, so reading millions of records allocates nothing per record; a string
// with escapes is decoded into storage the record owns, valid until the next parse.
//
//   FlatRecord rec;
//   if (!rec.parse(line)) ...                     // not a flat object: use a full JSON parser
//   auto t = rec.decimal("t_ns");                  // "123" -> 123; nullopt if absent or not
//   canonical auto fd = rec.integer("fd"); auto name = rec.string("syscall");
//
// Anything else (nesting, fractions, exponents, \u escapes, duplicate keys) is "not flat": the
// caller decides with a full parser.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jbench::events {

struct FlatField {
  enum class Kind : std::uint8_t { string, integer, null, boolean };
  std::string_view key;
  Kind kind = Kind::null;
  std::string_view text;    // a string's value, unescaped
  std::int64_t number = 0;  // an integer's value; a boolean's as 0 or 1
};

class FlatRecord {
 public:
  // False when `line` is not a flat object this reader reads; the fields are then unspecified.
  bool parse(std::string_view line);

  const std::vector<FlatField>& fields() const { return fields_; }
  const FlatField* find(std::string_view key) const;

  std::optional<std::string_view> string(std::string_view key) const;
  std::optional<std::int64_t> integer(std::string_view key) const;
  // A 64-bit value written as a canonical decimal string (jbench/stats/decimal.h's form).
  std::optional<std::uint64_t> decimal(std::string_view key) const;
  bool is_null(std::string_view key) const;

 private:
  std::vector<FlatField> fields_;
  std::deque<std::string> unescaped_;  // a deque: growing it never moves the strings viewed
};

}  // namespace jbench::events
