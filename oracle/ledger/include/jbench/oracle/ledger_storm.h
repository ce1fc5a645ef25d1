// The SIGKILL storm: N writer and M reader processes (jbench-ledger-worker) against one SQLite
// file, writers killed at seeded random moments and restarted, then verify_ledgers.
//
// Every process is a jbench::proc::ChildProcess (PDEATHSIG, killed and reaped on destruction),
// registered from its hello (pid, runtime id) before it is released to work, and recorded in the
// verdict with its /proc start time. Every worker also stops by itself at the deadline.
//
//   LedgerConfig config;  // WAL, keyed, 3 writers, 1 reader, 50 kills
//   auto verdict = run_ledger_storm(config, "/tmp/storm", "/abs/bin/jbench-ledger-worker", log);
//   if (verdict && !verdict->passed()) ...
#pragma once

#include <ostream>
#include <string>

#include "jbench/common/result.h"
#include "jbench/oracle/ledger_config.h"
#include "jbench/oracle/ledger_verdict.h"

namespace jbench::oracle {

// work_dir must exist and hold no earlier storm (ledger.db, writer-<w>.ledger and the workers'
// stderr files are created in it). An error when the storm could not be set up (no database,
// a worker that cannot be spawned); a storm that ran always gives a verdict.
Result<LedgerVerdict> run_ledger_storm(const LedgerConfig& config, const std::string& work_dir,
                                       const std::string& worker_path, std::ostream& log);

// writer-<w>.ledger in work_dir.
std::string ledger_path_for(const std::string& work_dir, std::size_t writer);

}  // namespace jbench::oracle
