// One attempt at one transaction: BEGIN, the planned operations, COMMIT, each operation timed
// on CLOCK_MONOTONIC. Retrying, counting and phase accounting belong to the caller (phase.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "jbench/sqlite_workload/connection.h"
#include "jbench/sqlite_workload/op_stream.h"
#include "jbench/sqlite_workload/queries.h"

namespace jbench::sqlite_workload {

struct OpRecord {
  OpType type = OpType::insert;
  std::uint64_t start_ns = 0;  // just before the first sqlite3_step (parameters already bound)
  std::uint64_t end_ns = 0;    // after the statement is done and reset
  std::uint64_t rows = 0;      // result rows read
};

struct Attempt {
  enum class Status {
    committed,
    busy,    // SQLITE_BUSY or SQLITE_LOCKED (any extended form): rolled back, may be retried
    failed,  // any other error: rolled back, not retried
  };
  Status status = Status::committed;
  int code = 0;                // the extended result code of the failure
  int rollback_code = 0;       // non-zero if the ROLLBACK after a failure failed too
  std::uint64_t begin_ns = 0;  // before BEGIN
  std::uint64_t end_ns = 0;    // after COMMIT, or after the rollback of a failed attempt
  std::vector<OpRecord> ops;   // operations executed (all of them committed iff `committed`)
};

// Runs plan.ops[0, limit). Once CLOCK_MONOTONIC reaches `deadline` no further operation is
// started and the transaction commits what already ran, so at most one operation straddles a
// deadline and none starts after it. An operation's start time is the very clock reading that
// was compared with the deadline.
Attempt attempt_transaction(Connection& conn, const QueryCatalog& catalog, const TxnPlan& plan,
                            std::size_t limit, std::uint64_t deadline);

}  // namespace jbench::sqlite_workload
