#include "jbench/collectors/modes/trace_modes.h"

#include <algorithm>

#include "jbench/collectors/alloc/alloc_collector.h"
#include "jbench/collectors/bridge/bridge_collector.h"
#include "jbench/collectors/cpu/cpu_collector.h"
#include "jbench/collectors/instructions/instructions_collector.h"
#include "jbench/collectors/syscall/syscall_run_collector.h"

namespace jbench::collectors {

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
    case TraceMode::counted:  // the bridge only marks the phases that switch counting on
      return "off";
  }
  return "off";
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

namespace {

std::string not_traced_reason(TraceMode mode) {
  switch (mode) {
    case TraceMode::baseline:
      return "baseline: nothing is armed but the harness's own accounting";
    case TraceMode::no_consumer:
      return "no-consumer: the bridge and probes are armed exactly as for tracing, nothing "
             "consumes";
    case TraceMode::counted:
      return "counted: the target runs inside an instruction-counting runtime, which would "
             "count every other collector's work as the target's";
    default:
      return {};
  }
}

// Counted runs only: the instructions the workers execute in their measure phase.
CollectorPlan instructions_plan(TraceMode mode) {
  CollectorPlan p;
  p.name = "instructions";
  p.source = "callgrind";
  p.make = make_instructions_collector;
  p.check_host = instructions_host_check;
  if (mode == TraceMode::counted) {
    p.requested = p.required = true;
    p.setting = "on";
  } else {
    p.reason = std::string(trace_mode_name(mode)) +
               ": instructions are counted in the counted mode only (a counting runtime slows "
               "the target many times over)";
  }
  return p;
}

}  // namespace

std::vector<CollectorPlan> collectors_for(TraceMode mode, const WorkloadTraits& workload) {
  const bool traced = mode == TraceMode::light || mode == TraceMode::full;
  const std::string setting = traced ? std::string(trace_mode_name(mode)) : std::string();
  const std::string not_traced = not_traced_reason(mode);
  std::vector<CollectorPlan> out;
  // The kernel's accounting of each incarnation, read by the harness between phases: free of
  // any instrumentation in the target, so every mode has it (the baseline's evidence too).
  out.push_back({"cpu", true, true, "on", "proc", {}, make_cpu_collector});
  const auto traced_plan = [&](std::string name, std::string source, MakeCollector make,
                               CheckHost check_host = nullptr) {
    CollectorPlan p;
    p.name = std::move(name);
    p.requested = p.required = traced;
    p.setting = traced ? setting : "";
    p.source = std::move(source);
    p.reason = traced ? "" : not_traced;
    p.make = make;
    p.check_host = check_host;
    return p;
  };
  out.push_back(traced_plan("bridge", "usdt-bridge", make_bridge_collector));
  out.push_back(traced_plan("spans", "bridge", make_bridge_collector));
  {
    CollectorPlan gc = traced_plan("gc", "bridge", make_bridge_collector);
    if (traced && !workload.gc_events) {
      // Requested but impossible: the target has no garbage collector to report.
      gc.required = false;
      gc.reason = gc_unavailable_reason(workload.kind);
    }
    out.push_back(std::move(gc));
  }
  const bool in_runtime = workload.runtime_allocates;
  out.push_back(in_runtime
                    ? traced_plan("alloc", "bridge", make_bridge_collector)
                    : traced_plan("alloc", "ld-preload", make_alloc_collector, alloc_host_check));
  // Each traced mode asks the probe for its own syscall backend choice.
  out.push_back(
      traced_plan("syscall", "libbpf|bpftrace|strace", make_syscall_collector,
                  mode == TraceMode::full ? syscall_full_host_check : syscall_light_host_check));
  out.push_back(instructions_plan(mode));
  return out;
}

std::vector<std::unique_ptr<Collector>> make_collectors(const std::vector<CollectorPlan>& plans,
                                                        const RunContext& context) {
  std::vector<MakeCollector> made;
  std::vector<std::unique_ptr<Collector>> out;
  for (const CollectorPlan& p : plans) {
    if (!p.requested || !p.make) continue;
    if (std::find(made.begin(), made.end(), p.make) != made.end()) continue;
    made.push_back(p.make);
    out.push_back(p.make(context));
  }
  return out;
}

}  // namespace jbench::collectors
