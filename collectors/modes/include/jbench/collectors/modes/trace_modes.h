// The trace modes as data: which collectors run in baseline, no-consumer, light and full, at
// which setting, which of them the mode requires, and which collector implementation serves each
// row (docs/trace-modes.md is this table). Adding a collector is adding its row here.
//
//   for (const CollectorPlan& c : collectors_for(TraceMode::full, traits_of_kind("sqlite"))) {}
//
// A collector the mode does not ask for is listed as not_requested, never left out, so a reader
// of run.json sees the whole table for every run.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/collectors/api/collector.h"
#include "jbench/collectors/api/workload_traits.h"
#include "jbench/common/trace_mode.h"

namespace jbench::collectors {

using MakeCollector = std::unique_ptr<Collector> (*)(const RunContext&);
using CheckHost = Availability (*)(const HostOffer&);

struct CollectorPlan {
  std::string name;  // cpu, bridge, spans, gc, alloc, syscall
  bool requested = false;
  bool required = false;  // its failure or absence invalidates the run
  std::string setting;    // "light", "full", "on"; empty when not requested
  std::string source;     // where its events come from: "proc", "bridge", "bpftrace|strace", ...
  std::string reason;     // why it is not requested, or what it needs; never empty if !requested
  // The collector that serves this row when requested (one may serve several rows: the bridge
  // gives bridge, spans and gc); null where jbench has none for this kind of target yet.
  MakeCollector make = nullptr;
  // Whether that collector can attach here (mode_availability.h); null: it needs nothing of the
  // host beyond what `jbench run` already checked.
  CheckHost check_host = nullptr;
};

// The bridge's mode (JBENCH_BRIDGE_MODE) for a trace mode: "off" in baseline.
std::string_view bridge_mode_for(TraceMode mode);

// The allocation sampler's mean interval for a mode (bytes between samples), 0 when off.
std::uint64_t alloc_mean_bytes_for(TraceMode mode);

std::vector<CollectorPlan> collectors_for(TraceMode mode, const WorkloadTraits& workload);

// One collector per distinct implementation the requested rows name, in the table's order.
std::vector<std::unique_ptr<Collector>> make_collectors(const std::vector<CollectorPlan>& plans,
                                                        const RunContext& context);

}  // namespace jbench::collectors
