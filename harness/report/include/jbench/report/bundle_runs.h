// Reading what the overhead report needs from a bundle: each run's identity, block, order,
// status and throughput (manifest.json and runs/<id>/run.json).
#pragma once

#include <string>
#include <vector>

#include "jbench/report/overhead.h"

namespace jbench::report {

struct BundleRuns {
  std::vector<RunFacts> runs;
  std::string error;  // why the bundle could not be read; empty on success
  std::string bundle_status;
};

BundleRuns read_bundle_runs(const std::string& bundle_dir);

}  // namespace jbench::report
