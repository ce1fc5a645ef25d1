// What the bridge records: the event types, the compact slot an event occupies in a thread's
// ring (docs/bridge.md, "Transport"), and the decoded form the writer turns into JSON. Private.
//
// A slot is one cache line: the hot path writes a few integers and at most kInlineName bytes of
// the name into it; a name longer than that continues in the next slot. Encoding (JSON, UTF-8
// checks, hex ids) happens later, on the writer thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

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
  overflow,      // a = events the stream dropped (made by the writer, never in a ring)
};

inline constexpr std::size_t kNameBytes = 64;   // == JB_NAME_MAX, with the NUL
inline constexpr std::size_t kInlineName = 32;  // name bytes that fit in the event's own slot

struct alignas(64) Slot {
  std::uint64_t t_ns;  // CLOCK_MONOTONIC
  std::uint64_t a;
  std::uint64_t b;
  EventType type;
  std::uint8_t name_len;  // 0..kNameBytes-1; > kInlineName: the next slot holds the rest
  std::uint16_t unused;
  // The stream's drop count (mod 2^32) when this event was recorded: the writer puts an
  // overflow record where it changes, so the file shows where events were lost.
  std::uint32_t drop_mark;
  char name[kInlineName];  // not NUL-terminated
};
static_assert(sizeof(Slot) == 64, "a slot is one cache line");

// Slots an event with a name of `name_len` bytes occupies.
inline std::uint64_t slots_for(std::size_t name_len) noexcept {
  return name_len > kInlineName ? 2 : 1;
}

// The length the record keeps of `name` (nullptr: 0): at most kNameBytes - 1 bytes, cut before a
// UTF-8 continuation byte so no character is split; the writer never has to invent one.
inline std::size_t kept_name_length(const char* name) noexcept {
  if (!name) return 0;
  std::size_t n = strnlen(name, kNameBytes);
  if (n == kNameBytes) {
    n = kNameBytes - 1;
    while (n > 0 && (static_cast<unsigned char>(name[n]) & 0xC0) == 0x80) --n;
  }
  return n;
}

// An event as the writer decodes it from the ring.
struct Event {
  std::uint64_t t_ns = 0;
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  EventType type = EventType::overflow;
  char name[kNameBytes] = {};  // NUL-terminated
};

}  // namespace jb_detail
