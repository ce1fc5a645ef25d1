// W3C Trace Context `traceparent` ("00-<trace-id>-<parent-id>-<flags>"): how a span crosses a
// process boundary. The trace-id is the bridge's 128-bit runtime id, the parent-id the span id.
// Pure. Private to the bridge.
#pragma once

#include <cstddef>
#include <cstdint>

#pragma GCC visibility push(hidden)

namespace jb_detail {

// Writes the 55 characters and a NUL into buf (len > 55). Returns 55, or -1 (buf = "" if len>0).
int format_traceparent(const std::uint8_t trace_id[16], std::uint64_t span, char* buf,
                       std::size_t len) noexcept;
// Accepts version 00 exactly as the spec writes it (lowercase hex, non-zero ids); 0 or -1.
int parse_traceparent(const char* text, std::uint64_t& span) noexcept;

}  // namespace jb_detail

#pragma GCC visibility pop
