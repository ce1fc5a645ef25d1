// The one clock of a host: CLOCK_MONOTONIC in nanoseconds (DESIGN.md, Events).
#pragma once

#include <cstdint>

namespace jbench::proc {

std::uint64_t monotonic_ns();

// CPU time this process has used so far (user + system), in nanoseconds.
struct CpuTimes {
  std::uint64_t user_ns = 0;
  std::uint64_t system_ns = 0;
};
CpuTimes self_cpu_times();

}  // namespace jbench::proc
