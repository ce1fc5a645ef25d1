// `jbench run`: executes a plan's runs in order and leaves a bundle (DESIGN.md, "The flow").
//
//   SessionOptions options;
//   options.out_dir = "bundles";
//   Result<SessionOutcome> outcome = run_session(plan, options, std::cerr);
//   // an Error: nothing ran, no bundle (a missing worker, a target without probes, ...);
//   // else outcome->bundle_path is where the bundle is, outcome->complete whether it is whole
//
// Each run: prepare the dataset copy, spawn the cohort (workers block after saying hello),
// register every incarnation, configure, fire the canary, release: startup -> warmup ->
// barrier -> measure -> teardown, each boundary a CLOCK_MONOTONIC timestamp. A failed, timed
// out or interrupted run stays in the bundle with its reason; the session goes on (or, when
// interrupted, stops and finalizes the bundle as interrupted).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/plan/plan.h"

namespace jbench {

struct SessionOptions {
  std::string out_dir = "bundles";  // bundles go to <out_dir>/<matrix name>-<UTC time>
  std::string worker_dir;           // where jbench-<kind>-worker lives; default: beside jbench
  std::string scratch_dir;          // databases; default: <out_dir>/.scratch-<bundle name>
  std::string bundle_name;          // default: <matrix name>-<UTC YYYYmmddTHHMMSSZ>
  bool terminal = false;            // rewrite one progress line instead of printing many
  std::uint32_t startup_timeout_ms = 10'000;  // spawn to ready, per run, at most
  std::uint32_t noise_window_ms = 100;        // how long noise is sampled before and after a run
  // A duet's meeting folder (docs/compare.md, "Duet"): every run's measure phase starts when the
  // other session's run of the same index reaches it too. Empty: the session runs alone.
  std::string lockstep_dir;
};

struct SessionOutcome {
  // Every run ok, every value the plan meant to measure measured, the bundle valid, finalized
  // and not interrupted.
  bool complete = false;
  // Files of the bundle that could not be written, and a seal that failed (exit 3).
  std::vector<std::string> not_written;
  std::string bundle_path;  // the finalized bundle; the staging directory if it could not be
};

Result<SessionOutcome> run_session(const Plan& plan, const SessionOptions& options,
                                   std::ostream& log);

}  // namespace jbench
