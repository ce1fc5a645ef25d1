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

const KindTraits* traits(std::string_view kind) {
  for (const auto& k : kKinds) {
    if (k.kind == kind) return &k;
  }
  return nullptr;
}

}  // namespace

bool emits_gc_events(std::string_view workload_kind) {
  const auto* t = traits(workload_kind);
  return t && t->gc_events;
}

bool samples_allocations_in_runtime(std::string_view workload_kind) {
  const auto* t = traits(workload_kind);
  return t && t->runtime_allocates;
}

}  // namespace jbench::collectors
