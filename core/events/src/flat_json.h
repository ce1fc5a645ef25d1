// A fast path for the lines that make up almost all of a raw file: records are flat JSON
// objects (string, integer, null or boolean values). Parsing them without building a document
// keeps validation above 100 MB/s on one core. Anything else (nesting, floats, odd escapes) is
// reported as not flat, and the caller falls back to a full JSON parser. Private to
// jbench::events.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jbench::events_detail {

struct FlatValue {
  enum class Kind : std::uint8_t { string, integer, null, boolean };
  Kind kind = Kind::null;
  std::string text;         // a string's value, unescaped
  std::int64_t number = 0;  // an integer's value
};

struct FlatField {
  std::string key;
  FlatValue value;
};

// Fields in document order; nullopt when the line is not a flat object this parser reads.
// Duplicate keys are reported as not flat (the full parser then decides).
std::optional<std::vector<FlatField>> parse_flat_object(std::string_view line);

const FlatValue* find(const std::vector<FlatField>& fields, std::string_view key);

}  // namespace jbench::events_detail
