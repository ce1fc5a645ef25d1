// The consumer of the trace bridge's raw files: one file per worker
// (runs/<id>/raw/bridge/worker-<i>.events.jsonl, written by the worker's bridge in light/full,
// kept compressed as .events.jsonl.zst once the run has read it; either form is read).
//
// Before the barrier is released, await_canaries() watches the files until every worker's canary
// record is there (the proof that the bridge in that worker records into the run). After the
// workers exited, consume() checks every file (jbench::events: header, trailer, streams, spans,
// cohort) and derives four collector entries from them — bridge (the files themselves), spans,
// gc and alloc (for runtimes that sample their own allocations) — with their summaries.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "jbench/collectors/api/collector_entry.h"
#include "jbench/collectors/api/phases.h"
#include "jbench/common/incarnation_id.h"

namespace jbench::collectors {

struct BridgeFiles {
  std::string run_dir;             // absolute path of runs/<id>
  std::vector<std::string> files;  // relative to run_dir, one per worker, by worker index
};

// The relative path of worker `index`'s file.
std::string bridge_file_for(std::size_t index);

// Polls the files until each holds a canary record or `deadline_ns` passes. Returns the worker
// indexes whose canary was seen.
std::vector<std::size_t> await_canaries(const BridgeFiles& files, std::uint64_t deadline_ns);

struct BridgeConsumerInput {
  BridgeFiles files;
  std::string run_id;
  std::string boot_id;
  std::set<IncarnationId> cohort;
  std::size_t workers = 0;
  std::vector<std::size_t> canaries_seen;  // from await_canaries, before release
  std::uint64_t started_ns = 0;
  std::uint64_t attached_ns = 0;
  PhaseBoundaries phases;
  bool gc_expected = false;       // the target is a runtime that reports its collections
  bool alloc_in_runtime = false;  // ... and samples its own allocations
  std::string setting;            // light | full
};

struct BridgeConsumerOutput {
  std::vector<CollectorEntry> entries;  // bridge, spans, gc, alloc (when alloc_in_runtime)
  nlohmann::json spans_summary;
  nlohmann::json gc_summary;
  nlohmann::json alloc_summary;
  // The project's own counters (jb_counter), recorded in full mode only.
  nlohmann::json counters_summary;
};

BridgeConsumerOutput consume(const BridgeConsumerInput& input);

}  // namespace jbench::collectors
