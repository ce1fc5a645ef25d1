// What the sampler reads about its own process: the incarnation, thread ids, the clock,
// randomness. Every function only makes system calls: none allocates, so all are safe inside a
// malloc hook and in a fork child.
#pragma once

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

std::int64_t current_pid() noexcept;
std::int64_t parent_pid() noexcept;
std::int32_t current_tid() noexcept;

// CLOCK_MONOTONIC in nanoseconds: the one clock of every raw file (docs/events.md).
std::uint64_t monotonic_ns() noexcept;

// The kernel's boot id into out (NUL-terminated, newline removed); false if unreadable.
bool read_boot_id(char* out, std::size_t len) noexcept;

// A random 64-bit value from getrandom; false if the kernel refused.
bool random_u64(std::uint64_t& out) noexcept;

// Reads at most len - 1 bytes of `path` into out, NUL-terminated; the byte count or -1.
long read_small_file(const char* path, char* out, std::size_t len) noexcept;

// Writes `text` to stderr, whole, ignoring failures (there is nowhere else to report them).
void write_stderr(const char* text) noexcept;

}  // namespace jb_alloc
