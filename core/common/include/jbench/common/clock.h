// The clocks of every jbench process, harness and workers alike: CLOCK_MONOTONIC in ns (the one
// clock jbench uses on a host) and the process's own CPU time from getrusage(RUSAGE_SELF), in ns.
#pragma once

#include <cstdint>
#include <string>

namespace jbench {

// CLOCK_MONOTONIC, nanoseconds. Read through the vDSO: no syscall appears in a trace.
std::uint64_t monotonic_ns();

struct CpuTimes {
  std::uint64_t user_ns = 0;
  std::uint64_t system_ns = 0;
};

// getrusage(RUSAGE_SELF): user and system CPU time of the whole process so far. The kernel
// reports microseconds, so values are multiples of 1000 ns.
CpuTimes process_cpu_times();

// Saturating difference (a clock that steps backwards must not wrap to 2^64).
inline std::uint64_t elapsed_ns(std::uint64_t from, std::uint64_t to) {
  return to > from ? to - from : 0;
}

// The wall-clock time now, in UTC, as strftime(3) writes it with `format` ("%FT%TZ" for the
// documents' ISO 8601 times, "%Y%m%dT%H%M%SZ" for names). Never for measuring: only to label.
std::string utc_now(const char* format);

// A nanosecond count as JSON carries it: a decimal string, so that no reader rounds past 2^53
// (docs/events.md).
inline std::string ns_string(std::uint64_t ns) { return std::to_string(ns); }

}  // namespace jbench
