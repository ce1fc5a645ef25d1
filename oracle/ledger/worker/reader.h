// The reader: takes snapshots (BEGIN; SELECT ...; COMMIT) until told to stop on stdin or the
// deadline passes, and checks each against the invariant that holds between any two commits:
//   bank:  the balances sum to accounts * initial_balance;
//   keyed: every kv row's (writer, seq) has its txns row (a transaction is seen whole or not).
// Both: rolled_back_probe is empty. Ends with one JSON line: snapshots, violations, the first
// violation, busy retries.
#pragma once

#include "worker_options.h"

namespace jbench::oracle::ledger_worker {

// The process's exit code: 0 stopped when asked (violations are reported, not an exit code),
// 3 the deadline passed, 4 a failure.
int run_reader(const WorkerOptions& options);

}  // namespace jbench::oracle::ledger_worker
