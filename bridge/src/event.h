// One recorded event as it sits in a thread's buffer: fixed size, no pointers, so recording is a
// copy and a buffer never allocates after its thread's first event. Private to the bridge.
#pragma once

#include <cstddef>
#include <cstdint>

namespace jb_detail {

enum class EventType : std::uint8_t {
  span_begin,    // a = span id, b = parent id (0: none), name
  span_end,      // a = span id
  counter,       // name, b = value (int64 bits)
  gc_begin,      // a = generation, b = bytes before
  gc_end,        // a = generation, b = bytes after
  alloc_sample,  // a = bytes, name = site
  phase,         // name
  canary,        // a = this process's canary number
  overflow,      // a = events the stream dropped (written by the flusher, never buffered)
};

inline constexpr std::size_t kNameBytes = 64;  // == JB_NAME_MAX

struct Event {
  std::uint64_t t_ns;  // CLOCK_MONOTONIC
  std::uint64_t a;
  std::uint64_t b;
  EventType type;
  char name[kNameBytes];  // NUL-terminated, cut at a UTF-8 boundary
};

// Copies at most kNameBytes - 1 bytes of `name` (nullptr: "") into `out`, never splitting a
// UTF-8 sequence, so the writer never has to invent a replacement character for a cut.
void copy_name(char (&out)[kNameBytes], const char* name) noexcept;

}  // namespace jb_detail
