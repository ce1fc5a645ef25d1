// The writer: resumes after its last ledgered (or committed) transaction, then for each seq
// runs the planned transaction (ledger_plan.h) and, once COMMIT has returned, appends and fsyncs
// its ledger line. A SQLITE_BUSY is waited for (busy timeout) and the transaction retried.
#pragma once

#include "worker_options.h"

namespace jbench::oracle::ledger_worker {

// The process's exit code: 0 all transactions done, 3 the deadline passed, 4 a failure.
int run_writer(const WorkerOptions& options);

}  // namespace jbench::oracle::ledger_worker
