// The jbench.events text primitives (core/events/c/include/jb_events_text.h) for the harness's
// writers in C++, so a value they write is formatted by the same code as the in-process
// writers' (the trace bridge, the allocation sampler).
#pragma once

#include <cstdint>
#include <string>

#include "jb_events_lines.h"
#include "jb_events_text.h"

namespace jbench::events {

// A 64-bit value's digits, which the file writes as a decimal string so no JSON reader rounds
// it (docs/events.md): decimal(1234) == "1234".
inline std::string decimal(std::uint64_t v) {
  char digits[JB_EVENTS_DECIMAL_MAX];
  return std::string(digits, jb_events_format_u64(digits, v));
}

}  // namespace jbench::events
