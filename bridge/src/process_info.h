// What the bridge reads about its own process: the incarnation (pid + start time), thread ids,
// the boot id, randomness, the clock. Private to the bridge; every function is safe in a forked
// child (no allocation, only async-signal-safe system calls). They sit on the platform seam
// (core/platform/include/jb_platform.h), where the operating system's part is.
#pragma once

#include <jb_platform.h>

#include <cstddef>
#include <cstdint>

#pragma GCC visibility push(hidden)

namespace jb_detail {

// Field 22 of /proc/self/stat (clock ticks after boot): with the pid it names this incarnation,
// since pids are reused. False if /proc is unreadable.
inline bool read_start_time_ticks(std::uint64_t& out) noexcept {
  return jb_platform_start_time_ticks(&out) != 0;
}

// The kernel's boot id (/proc/sys/kernel/random/boot_id) into out (NUL-terminated); false if
// unreadable.
inline bool read_boot_id(char* out, std::size_t len) noexcept {
  return jb_platform_boot_id(out, len) != 0;
}

inline std::int64_t current_tid() noexcept { return jb_platform_tid(); }

// Fills out with random bytes from getrandom; false if the kernel refused.
inline bool random_bytes(std::uint8_t* out, std::size_t len) noexcept {
  return jb_platform_random_bytes(out, len) != 0;
}

// CLOCK_MONOTONIC in ns: the one clock of every raw file (docs/events.md), inline for the hot
// path.
inline std::uint64_t monotonic_ns() noexcept { return jb_platform_monotonic_ns(); }

}  // namespace jb_detail

#pragma GCC visibility pop
