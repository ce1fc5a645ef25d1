// A process incarnation's identity: its pid and its start time in clock ticks since boot
// (/proc/<pid>/stat field 22). A pid is reused; the pair names one process within a boot. A run's
// cohort, the bridge's and the tracers' records and the attribution all name a process by it.
#pragma once

#include <compare>
#include <cstdint>

namespace jbench {

struct IncarnationId {
  std::int64_t pid = 0;
  std::uint64_t start_time_ticks = 0;
  auto operator<=>(const IncarnationId&) const = default;
};

}  // namespace jbench
