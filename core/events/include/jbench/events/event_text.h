// The jbench.events text primitives (core/events/c/include/jb_events_text.h) for the harness's
// writers in C++, so a value they write is formatted by the same code as the in-process
// writers' (the trace bridge, the allocation sampler).
//
//   std::string line = "{\"path\":";
//   events::append_json_string(line, path);   // "\"/tmp/a \\\"b\\\"\""
//   line += ",\"t_ns\":\"";
//   events::append_decimal(line, t_ns);       // digits only; the caller quotes a 64-bit value
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "jb_events_lines.h"
#include "jb_events_text.h"

namespace jbench::events {

// A 64-bit value's digits, which the file writes as a decimal string so no JSON reader rounds
// it (docs/events.md): decimal(1234) == "1234".
inline std::string decimal(std::uint64_t v) {
  char digits[JB_EVENTS_DECIMAL_MAX];
  return std::string(digits, jb_events_format_u64(digits, v));
}

inline void append_decimal(std::string& out, std::uint64_t v) {
  char digits[JB_EVENTS_DECIMAL_MAX];
  out.append(digits, jb_events_format_u64(digits, v));
}

inline void append_int(std::string& out, std::int64_t v) {
  char digits[JB_EVENTS_DECIMAL_MAX + 1];
  out.append(digits, jb_events_format_i64(digits, v));
}

// `text` as a JSON string, quotes included, escaped by the shared escaper: invalid UTF-8 becomes
// U+FFFD and a NUL inside the text \u0000, so any bytes give a valid line.
void append_json_string(std::string& out, std::string_view text);

}  // namespace jbench::events
