// The first step of a session: everything that must hold before anything runs — the worker
// binary exists, a traced plan's target carries the bridge's probes, the scratch directory is
// writable, the bundle's name is free — and the staging bundle it then opens. An Error here means
// nothing ran and no bundle exists. Private to jbench::run.
#pragma once

#include <string>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/plan/plan.h"
#include "jbench/run/session.h"
#include "jbench/seal/evidence_bundle.h"

namespace jbench::run {

struct SessionSetup {
  SessionOptions options;  // every path in it absolute
  // The worker's program (absolute) and its arguments: jbench-<kind>-worker alone for a built-in
  // kind, the matrix's command for a process worker. Each request's word follows them.
  std::vector<std::string> worker;
  std::string helpers_dir;    // where jbench's own helpers (jbench-ledger-worker) are
  bool traced = false;        // a run of the plan is in a traced mode
  std::string name;           // the bundle's name
  std::string scratch;        // the session's scratch directory (databases)
  std::string alloc_library;  // the LD_PRELOAD allocation sampler beside jbench; empty: none
};

// The checks, in that order; the first that fails is the Error.
Result<SessionSetup> resolve_session(const Plan& plan, const SessionOptions& options);

// Creates the scratch directory and the staging bundle. On failure nothing is left behind.
Result<EvidenceBundle> open_bundle(const SessionSetup& setup);

}  // namespace jbench::run
