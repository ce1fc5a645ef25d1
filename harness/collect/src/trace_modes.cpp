#include "jbench/collect/trace_modes.h"

#include <array>

namespace jbench::collect {
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

std::string_view bridge_mode_for(TraceMode mode) {
  switch (mode) {
    case TraceMode::baseline:
      return "off";
    case TraceMode::no_consumer:
      return "no-consumer";
    case TraceMode::light:
      return "light";
    case TraceMode::full:
      return "full";
  }
  return "off";
}

bool emits_gc_events(std::string_view workload_kind) {
  const auto* t = traits(workload_kind);
  return t && t->gc_events;
}

bool samples_allocations_in_runtime(std::string_view workload_kind) {
  const auto* t = traits(workload_kind);
  return t && t->runtime_allocates;
}

std::uint64_t alloc_mean_bytes_for(TraceMode mode) {
  switch (mode) {
    case TraceMode::light:
      return 512 * 1024;  // the default rate: the estimate's error budget, docs/collectors/alloc.md
    case TraceMode::full:
      return 64 * 1024;
    default:
      return 0;
  }
}

std::vector<CollectorPlan> collectors_for(TraceMode mode, std::string_view workload_kind) {
  const bool traced = mode == TraceMode::light || mode == TraceMode::full;
  const std::string setting = traced ? std::string(trace_mode_name(mode)) : std::string();
  const std::string not_traced =
      mode == TraceMode::baseline
          ? "baseline: nothing is armed but the harness's own accounting"
          : "no-consumer: the bridge and probes are armed exactly as for tracing, nothing consumes";
  std::vector<CollectorPlan> out;
  // The kernel's accounting of each incarnation, read by the harness between phases: free of
  // any instrumentation in the target, so every mode has it (the baseline's evidence too).
  out.push_back({"cpu", true, true, "on", "proc", {}});
  const auto traced_plan = [&](std::string name, std::string source) {
    CollectorPlan p{
        std::move(name),         traced, traced, traced ? setting : "", std::move(source),
        traced ? "" : not_traced};
    return p;
  };
  out.push_back(traced_plan("bridge", "usdt-bridge"));
  out.push_back(traced_plan("spans", "bridge"));
  {
    CollectorPlan gc = traced_plan("gc", "bridge");
    if (traced && !emits_gc_events(workload_kind)) {
      // Requested but impossible: the target has no garbage collector to report.
      gc.required = false;
      gc.reason = std::string("the ") + std::string(workload_kind) +
                  " worker emits no GC probes: it is a native program without a garbage collector";
    }
    out.push_back(std::move(gc));
  }
  out.push_back(traced_plan(
      "alloc", samples_allocations_in_runtime(workload_kind) ? "bridge" : "ld-preload"));
  out.push_back(traced_plan("syscall", "bpftrace|strace"));
  return out;
}

}  // namespace jbench::collect
