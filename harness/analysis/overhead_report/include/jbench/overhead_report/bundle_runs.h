// Reading what the overhead report needs from a bundle: each run's identity, block, order,
// status and throughput (manifest.json and runs/<id>/run.json).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "jbench/model/documents.h"
#include "jbench/overhead_report/overhead.h"

namespace jbench::overhead_report {

struct BundleRuns {
  std::vector<RunFacts> runs;
  std::string error;  // why the bundle could not be read; empty on success
  std::string bundle_status;
};

BundleRuns read_bundle_runs(const std::string& bundle_dir);

// The names of run.json's collectors that ran cleanly: status "ok" and a `dropped` of 0 — what
// recorded every event it saw. Anything else (not requested, not available, failed, lossy, or
// an entry that does not say what it dropped) is left out.
std::set<std::string> clean_collectors(const model::RunDocument& run);

}  // namespace jbench::overhead_report
