// The instructions collector (docs/trace-modes.md, "counted"): the run loop's side of counted
// runs, with two backends.
//
// perf, where the processor's instructions counter opens (perf_event_open): the program runs at
// full speed; each worker is counted from its registration, the counter read at each phase
// boundary and once the cohort is gone, so every phase has its own count (startup, warmup,
// measure, teardown). Attachment is proven by the count having moved by the worker's canary.
//
// callgrind, elsewhere: each worker is spawned inside callgrind (wrap_command); before release
// the collector proves every worker's process is callgrind's; after the cohort is reaped it reads
// each worker's callgrind output, keeps it compressed, and writes the counts. Instructions (and
// calls into the allocation functions) are counted only between the bridge's measure phase and
// the next phase (jb_phase, bridge/src/bridge.cpp): a worker that never enters its measure phase
// through the bridge counts nothing, and the collector fails rather than report a zero.
//
// Either way the counts are the run's raw records (raw/instructions.events.jsonl, an
// `instructions` record per worker and phase) and its summary.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "jbench/collectors/api/collector.h"
#include "jbench/collectors/instructions/perf_counter.h"

namespace jbench::collectors {

inline constexpr const char* kInstructionsFile = "raw/instructions.events.jsonl";

// The backend is the processor's counter when it can be opened (perf_event_open: the program
// runs at full speed), else callgrind; RunContext::counter_backend may ask for either. The
// entry says which counted and why ("chosen").
std::unique_ptr<Collector> make_instructions_collector(const RunContext& context);

// The perf backend counting `event` (instructions_event(), or another for hosts and tests that
// count something else): a counter on every worker from its registration, read at each phase
// boundary and once the cohort is gone, so each phase gets its own count. `choice` is recorded.
std::unique_ptr<Collector> make_perf_counter_collector(const RunContext& context,
                                                       const PerfEvent& event, std::string choice);

// Whether the host's probe (`jbench doctor`, capabilities.json) found callgrind runnable.
Availability instructions_host_check(const HostOffer& host);

// The summary of a run's instruction records (summary.json -> collectors.instructions):
// per incarnation and phase, as the other collectors' summaries are, and the run's total.
// `raw_file` is the events file inside `run_dir`; a file that cannot be read gives {"error": ...}.
nlohmann::json instructions_summary(const std::string& run_dir, const std::string& raw_file);

}  // namespace jbench::collectors
