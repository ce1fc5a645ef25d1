// Opening the storm's database from a worker, with the settings every worker shares: a busy
// timeout (a lock held by another process is waited for, then retried, never a failure),
// synchronous=FULL, and a check that the file is in the journal mode the driver made it in.
#pragma once

#include <string>

#include "sqlite_db.h"
#include "worker_options.h"

namespace jbench::oracle::ledger_worker {

inline constexpr int kBusyTimeoutMs = 2000;

bool open_worker_db(const WorkerOptions& options, ledger_sql::Db& db, std::string& error);

// Sleeps a little after a SQLITE_BUSY that outlived the busy timeout, so retries spread out.
void busy_backoff(unsigned attempt);

}  // namespace jbench::oracle::ledger_worker
