#include "jbench/collectors/api/workload_traits.h"

#include <array>

namespace jbench::collectors {
namespace {

struct KindTraits {
  std::string_view kind;
  bool gc_events;          // the target emits jb_gc_begin/jb_gc_end
  bool runtime_allocates;  // allocations are sampled inside the runtime (jb_alloc_sample)
};

constexpr std::array<KindTraits, 2> kKinds = {{
    {"sqlite", false, false},
    {"chez", true, true},
}};

}  // namespace

WorkloadTraits traits_of_kind(std::string_view workload_kind) {
  for (const auto& k : kKinds) {
    if (k.kind == workload_kind) return {std::string(k.kind), k.gc_events, k.runtime_allocates};
  }
  return {std::string(workload_kind), false, false};
}

}  // namespace jbench::collectors
