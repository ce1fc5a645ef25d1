// What a workload's target does that collectors must know: whether it reports garbage
// collections through the bridge, and whether it samples its own allocations (a managed runtime)
// or is sampled by the LD_PRELOAD sampler (a native program). The built-in kinds are known here;
// a process worker declares its own (jbench/matrix/worker_declaration.h). An unknown kind does
// neither.
#pragma once

#include <string>
#include <string_view>

namespace jbench::collectors {

struct WorkloadTraits {
  std::string kind;  // what messages call the target: "sqlite", "chez", a process worker's name
  bool gc_events = false;
  bool runtime_allocates = false;
};

WorkloadTraits traits_of_kind(std::string_view workload_kind);

}  // namespace jbench::collectors
