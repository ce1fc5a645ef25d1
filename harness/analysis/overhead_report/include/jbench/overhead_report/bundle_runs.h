// Reading what the overhead report needs from a bundle: each run's identity, block, order,
// status and throughput (manifest.json and runs/<id>/run.json), each ok run's summary, and
// whether the bundle may be read as evidence at all, judged once while the runs are read.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "jbench/bundle/bundle_validity.h"
#include "jbench/common/result.h"
#include "jbench/model/documents.h"
#include "jbench/overhead_report/overhead.h"

namespace jbench::overhead_report {

// A bundle's runs as read: its manifest (its status: the bundle's, complete, interrupted, ...)
// and every run that ran, in the manifest's order.
struct BundleRuns {
  std::shared_ptr<const model::Manifest> manifest;
  std::vector<RunFacts> runs;
};

// What a reading gives: the reader's judgement (model::BundleReader), had whether or not the
// runs could be read, and the runs or why they could not be.
struct JudgedRuns {
  BundleJudgement judgement;
  Result<BundleRuns> read;
};

// Whether to read each ok run's summary.json: the overhead table and the attach cost need only
// the manifest's and run.json's facts.
enum class Summaries : std::uint8_t { read, skipped };

JudgedRuns read_bundle_runs(const std::string& bundle_dir, Summaries summaries = Summaries::read);

// The names of run.json's collectors that ran cleanly: status "ok" and a `dropped` of 0 — what
// recorded every event it saw. Anything else (not requested, not available, failed, lossy, or
// an entry that does not say what it dropped) is left out.
std::set<std::string> clean_collectors(const model::RunDocument& run);

}  // namespace jbench::overhead_report
