// What the bridge reads about its own process: the incarnation (pid + start time), thread ids,
// the boot id, randomness. Private to the bridge; every function is safe in a forked child
// (no allocation, only async-signal-safe system calls).
#pragma once

#include <cstddef>
#include <cstdint>

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

std::uint64_t monotonic_ns() noexcept;

}  // namespace jb_detail
