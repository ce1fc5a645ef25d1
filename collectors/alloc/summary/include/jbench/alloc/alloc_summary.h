// Reading the allocation sampler's raw files (docs/collectors/alloc.md): per process
// incarnation and per phase, how many allocations were sampled, the bytes they stand for, and
// whether samples were dropped. The harness calls it after a run; the sampler itself cannot know
// the harness's phases, so it stamps every sample with CLOCK_MONOTONIC and the split happens here.
//
//   std::vector<PhaseWindow> phases = phases_from_boundaries(run_json["boundaries"]);
//   AllocReport r = read_alloc_files(find_alloc_files(out_path), context, phases);
//   for (const auto& who : r.incarnations)
//     for (const auto& [phase, t] : who.phases) print(who.pid, phase, t.samples,
//     t.estimated_bytes);
//   if (!r.ok()) ...  // r.problems: the event checker's codes (events.*) and this reader's
//   (alloc.*)
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jbench/events/event_file.h"

namespace jbench::alloc {

// A phase of the run as the harness timed it: samples with start_ns <= t_ns < end_ns belong to
// it (the first window that holds them, if windows overlap).
struct PhaseWindow {
  std::string name;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
};

// The bucket of samples that fall in no given window (before the first, between, after the last).
inline constexpr const char* kOutsidePhases = "outside";

struct PhaseTotals {
  std::uint64_t samples = 0;   // sampled allocations recorded in this phase
  double estimated_bytes = 0;  // bytes they stand for (sum of sample_weight)
  // Samples were dropped at or after a time inside this phase (or, for "outside", at all):
  // dropped samples carry no time, so the phase's totals may be short by an unknown part of the
  // incarnation's `dropped`.
  bool lossy = false;
};

struct IncarnationAlloc {
  std::string file;
  std::int64_t pid = 0;
  std::uint64_t start_time_ticks = 0;
  std::int64_t ppid = 0;
  std::string origin;  // "start" or "fork" (docs/collectors/alloc.md)
  std::uint64_t mean_bytes = 0;
  std::uint64_t seed = 0;
  std::uint64_t samples = 0;   // recorded + dropped
  std::uint64_t recorded = 0;  // alloc_sample records in the file
  std::uint64_t dropped = 0;   // buffer full (or lost at exit): counted, not recorded
  double estimated_bytes = 0;  // of the recorded samples, recomputed from the records
  std::uint64_t dropped_estimated_bytes = 0;  // the sampler's own sum for the dropped ones
  std::optional<std::uint64_t> first_drop_ns;
  // Every given window in the given order, then kOutsidePhases.
  std::vector<std::pair<std::string, PhaseTotals>> phases;
};

struct AllocProblem {
  std::string file;
  std::string code;      // "events.*" from jbench::events, or "alloc.*" (docs/collectors/alloc.md)
  std::size_t line = 0;  // 1-based; 0 for the file as a whole
  std::string message;
};

struct AllocReport {
  std::vector<IncarnationAlloc> incarnations;
  std::vector<AllocProblem> problems;
  bool ok() const { return problems.empty(); }
};

// Checks one raw file with jbench::events (structure, streams, cohort, run and boot ids) and
// reads its samples. A file whose header cannot be read yields no incarnation, only problems.
AllocReport read_alloc_file(const std::string& path, const EventContext& context,
                            const std::vector<PhaseWindow>& phases);

// The same over several files (a process and the children that wrote <path>.<pid>), merged.
AllocReport read_alloc_files(const std::vector<std::string>& paths, const EventContext& context,
                             const std::vector<PhaseWindow>& phases);

// The files a sampled process and its descendants wrote for JBENCH_ALLOC_OUT=out_path: out_path
// itself and every `<out_path>.<pid>` beside it, those that exist, sorted; each as written or as
// kept compressed once the run has read it (the same name with ".zst").
std::vector<std::string> find_alloc_files(const std::string& out_path);

// The windows of run.json's "boundaries" (decimal-string nanoseconds): startup, warmup,
// measure, teardown, each from `<name>_start_ns` to `<name>_end_ns`, or to the next phase's
// start when it has no end of its own. Phases without both ends are left out.
std::vector<PhaseWindow> phases_from_boundaries(const nlohmann::json& boundaries);

}  // namespace jbench::alloc
