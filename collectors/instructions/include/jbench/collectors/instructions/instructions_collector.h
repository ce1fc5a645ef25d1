// The instructions collector (docs/trace-modes.md, "counted"): the run loop's side of counted
// runs. Each worker is spawned inside callgrind (wrap_command); before release the collector
// proves every worker's process is callgrind's; after the cohort is reaped it reads each
// worker's callgrind output, keeps it compressed, and writes the counts as the run's raw records
// (raw/instructions.events.jsonl, one `instructions` record per worker).
//
// Instructions are counted only between the bridge's measure phase and the next phase
// (jb_phase, bridge/src/bridge.cpp): a worker that never enters its measure phase through the
// bridge counts nothing, and the collector fails rather than report a zero.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "jbench/collectors/api/collector.h"

namespace jbench::collectors {

inline constexpr const char* kInstructionsFile = "raw/instructions.events.jsonl";

std::unique_ptr<Collector> make_instructions_collector(const RunContext& context);

// Whether the host's probe (`jbench doctor`, capabilities.json) found callgrind runnable.
Availability instructions_host_check(const HostOffer& host);

// The summary of a run's instruction records (summary.json -> collectors.instructions):
// per incarnation and phase, as the other collectors' summaries are, and the run's total.
// `raw_file` is the events file inside `run_dir`; a file that cannot be read gives {"error": ...}.
nlohmann::json instructions_summary(const std::string& run_dir, const std::string& raw_file);

}  // namespace jbench::collectors
