// What the bridge reads about its own process: the incarnation (pid + start time), thread ids,
// the boot id, randomness, the clock. Private to the bridge; every function is safe in a forked
// child (no allocation, only async-signal-safe system calls).
#pragma once

#include <time.h>

#include <cstddef>
#include <cstdint>

#pragma GCC visibility push(hidden)

namespace jb_detail {

// Field 22 of /proc/self/stat (clock ticks after boot): with the pid it names this incarnation,
// since pids are reused. False if /proc is unreadable.
bool read_start_time_ticks(std::uint64_t& out) noexcept;

// The kernel's boot id (/proc/sys/kernel/random/boot_id) into out (NUL-terminated); false if
// unreadable.
bool read_boot_id(char* out, std::size_t len) noexcept;

std::int64_t current_tid() noexcept;

// Fills out with random bytes from getrandom; false if the kernel refused.
bool random_bytes(std::uint8_t* out, std::size_t len) noexcept;

// CLOCK_MONOTONIC in ns: the one clock of every raw file (docs/events.md). Inline: it is on the
// hot path of every recorded event, and the vDSO call behind it is most of that path's cost.
inline std::uint64_t monotonic_ns() noexcept {
  timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

}  // namespace jb_detail

#pragma GCC visibility pop
