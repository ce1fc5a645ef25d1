// What a workload kind's target does that collectors must know: whether it reports garbage
// collections through the bridge, and whether it samples its own allocations (a managed runtime)
// or is sampled by the LD_PRELOAD sampler (a native program). An unknown kind does neither.
#pragma once

#include <string_view>

namespace jbench::collectors {

bool emits_gc_events(std::string_view workload_kind);
bool samples_allocations_in_runtime(std::string_view workload_kind);

}  // namespace jbench::collectors
