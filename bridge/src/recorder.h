// The bridge's state and transport: the mode flag, the process's identity, and the bounded
// per-thread buffers that are written to the raw file at fork and at shutdown.
//
// Transport in this version: no background thread. Each thread appends to its own fixed buffer
// (JBENCH_BRIDGE_BUFFER events, allocated at its first event) without locks; a full buffer drops
// and counts. Buffers are written, merged in time order, when the process forks (so a child's
// spans always follow their parents in the file) and at jb_shutdown / exit. Private.
#pragma once

#include <atomic>
#include <cstdint>

#include "event.h"

namespace jb_detail {

// JB_MODE_*: the one flag every entry point tests first.
extern std::atomic<int> g_mode;

inline bool bridge_off() noexcept {
  return __builtin_expect(g_mode.load(std::memory_order_relaxed) == 0, 1);
}
// Whether events of `type` are recorded in the current mode (light keeps the low-rate ones).
inline bool records(EventType type) noexcept {
  const int mode = g_mode.load(std::memory_order_relaxed);
  if (mode == 3) return true;
  return mode == 2 && type != EventType::counter && type != EventType::alloc_sample;
}

// Appends one event to the calling thread's buffer; never blocks after the thread's first event.
void record(EventType type, std::uint64_t a, std::uint64_t b, const char* name) noexcept;

// A span id unique within the run: this incarnation's pid in the top 22 bits, a counter below.
std::uint64_t next_span_id() noexcept;
// This process's next canary number (0, 1, ...).
std::uint64_t next_canary() noexcept;
// The 128-bit runtime id (zero until initialised).
const std::uint8_t* runtime_id() noexcept;

int init_from_env() noexcept;
void shutdown() noexcept;

}  // namespace jb_detail
