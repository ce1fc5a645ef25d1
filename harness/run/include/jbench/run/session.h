// `jbench run`: executes a plan's runs in order and leaves a bundle (DESIGN.md, "The flow").
//
//   SessionOptions options;
//   options.out_dir = "bundles";
//   SessionOutcome outcome = run_session(plan, options, std::cerr);
//   // outcome.bundle_path: where the bundle is; outcome.exit_code: 0 every run ok, 1 otherwise
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
};

struct SessionOutcome {
  int exit_code =
      0;  // 0: every run ok; 1: a run failed or the session was interrupted; 2: bad input
  std::string bundle_path;
  std::string error;  // why nothing could run, when exit_code == 2 and no bundle exists
};

SessionOutcome run_session(const Plan& plan, const SessionOptions& options, std::ostream& log);

}  // namespace jbench
