// The trace modes as data: which collectors run in baseline, no-consumer, light and full, at
// which setting, and which of them the mode requires (docs/trace-modes.md is this table).
//
//   for (const CollectorPlan& c : collectors_for(TraceMode::full, "sqlite")) { ... }
//
// A collector the mode does not ask for is listed as not_requested, never left out, so a reader
// of run.json sees the whole table for every run.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "jbench/matrix/matrix.h"

namespace jbench::collect {

struct CollectorPlan {
  std::string name;  // cpu, bridge, spans, gc, alloc, syscall
  bool requested = false;
  bool required = false;  // its failure or absence invalidates the run
  std::string setting;    // "light", "full", "on"; empty when not requested
  std::string source;     // where its events come from: "proc", "bridge", "bpftrace|strace", ...
  std::string reason;     // why it is not requested, or what it needs; never empty if !requested
};

// The bridge's mode (JBENCH_BRIDGE_MODE) for a trace mode: "off" in baseline.
std::string_view bridge_mode_for(TraceMode mode);

// Whether the workload kind's target reports garbage collections through the bridge.
bool emits_gc_events(std::string_view workload_kind);
// Whether its allocations are sampled by the bridge (a managed runtime) rather than by the
// LD_PRELOAD sampler (a native program).
bool samples_allocations_in_runtime(std::string_view workload_kind);

// The allocation sampler's mean interval for a mode (bytes between samples), 0 when off.
std::uint64_t alloc_mean_bytes_for(TraceMode mode);

std::vector<CollectorPlan> collectors_for(TraceMode mode, std::string_view workload_kind);

}  // namespace jbench::collect
