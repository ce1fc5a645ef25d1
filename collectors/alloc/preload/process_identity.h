// What the sampler reads about its own process: the incarnation, thread ids, the clock,
// randomness. Every function only makes system calls: none allocates, so all are safe inside a
// malloc hook and in a fork child. The operating system's part is behind the platform seam
// (core/platform/include/jb_platform.h).
#pragma once

#include <jb_platform.h>

#include <cstddef>
#include <cstdint>

namespace jb_alloc {

// A process incarnation (docs/design.md): the pid and field 22 of /proc/<pid>/stat (clock ticks
// after boot), since pids are reused.
struct Incarnation {
  std::int64_t pid = 0;
  std::uint64_t start_time_ticks = 0;
};

// This process's incarnation; start_time_ticks stays 0 if /proc/self/stat is unreadable (the
// event checker then refuses the records as outside the cohort, which is the honest outcome).
Incarnation current_incarnation() noexcept;

inline std::int64_t current_pid() noexcept { return jb_platform_pid(); }
inline std::int64_t parent_pid() noexcept { return jb_platform_parent_pid(); }
inline std::int32_t current_tid() noexcept { return static_cast<std::int32_t>(jb_platform_tid()); }

// CLOCK_MONOTONIC in nanoseconds: the one clock of every raw file (docs/events.md).
inline std::uint64_t monotonic_ns() noexcept { return jb_platform_monotonic_ns(); }

// The kernel's boot id into out (NUL-terminated, newline removed); false if unreadable.
inline bool read_boot_id(char* out, std::size_t len) noexcept {
  return jb_platform_boot_id(out, len) != 0;
}

// A random 64-bit value from getrandom; false if the kernel refused.
bool random_u64(std::uint64_t& out) noexcept;

// Reads at most len - 1 bytes of `path` into out, NUL-terminated; the byte count or -1.
inline long read_small_file(const char* path, char* out, std::size_t len) noexcept {
  return jb_platform_read_small_file(path, out, len);
}

// Writes `text` to stderr, whole, ignoring failures (there is nowhere else to report them).
void write_stderr(const char* text) noexcept;

}  // namespace jb_alloc
