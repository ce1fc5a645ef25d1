// One attempt at one transaction: BEGIN, the planned operations, the fsync plant if it is on
// (plant.h), COMMIT, each operation timed on CLOCK_MONOTONIC. Retrying, counting and phase
// accounting belong to the caller (phase.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "jbench/sqlite_workload/connection.h"
#include "jbench/sqlite_workload/op_stream.h"
#include "jbench/sqlite_workload/plant.h"
#include "jbench/sqlite_workload/queries.h"
#include "jbench/sqlite_workload/subquery_cache.h"

namespace jbench::sqlite_workload {

struct OpRecord {
  OpType type = OpType::insert;
  std::uint64_t start_ns = 0;  // just before the first sqlite3_step (parameters already bound)
  std::uint64_t end_ns = 0;    // after the statement is done and reset
  std::uint64_t rows = 0;      // result rows read
  // SQLite VM steps (SQLITE_STMTSTATUS_VM_STEP) of the statement, and of the subquery cache's
  // own evaluation when this operation filled it.
  std::uint64_t vm_steps = 0;
  // Set when the operation went through the subquery cache (subquery_cache.h).
  std::optional<SubqueryCache::Lookup> cache_lookup;
};

struct Attempt {
  enum class Status {
    committed,
    busy,    // SQLITE_BUSY or SQLITE_LOCKED (any extended form): rolled back, may be retried
    failed,  // any other error, or the plant failed: rolled back, not retried
  };
  Status status = Status::committed;
  int code = 0;                // the extended result code of the failure
  int rollback_code = 0;       // non-zero if the ROLLBACK after a failure failed too
  std::uint64_t begin_ns = 0;  // before BEGIN
  std::uint64_t end_ns = 0;    // after COMMIT, or after the rollback of a failed attempt
  std::vector<OpRecord> ops;   // operations executed (all of them committed iff `committed`)
  // VM steps of this attempt's BEGIN and COMMIT (of a committed attempt; a failed one's ROLLBACK
  // is not counted, as its operations are not).
  std::uint64_t control_vm_steps = 0;
  // The plant's cost if this attempt fired it, whatever became of the attempt afterwards (a
  // COMMIT that failed still paid it).
  std::optional<PlantTiming> plant;
  // The sleep plant's sleeps of this attempt, as the worker timed them.
  std::uint64_t sleeps = 0;
  std::uint64_t slept_ns = 0;
  // The delay plant's busy waits of this attempt, on the thread's CPU clock.
  std::uint64_t busy_waits = 0;
  std::uint64_t busy_cpu_ns = 0;
  std::string plant_error;  // set (status failed, code 0) if the plant's write or fdatasync failed
};

// Runs plan.ops[0, limit). Once CLOCK_MONOTONIC reaches `deadline` no further operation is
// started and the transaction commits what already ran, so at most one operation straddles a
// deadline and none starts after it. An operation's start time is the very clock reading that
// was compared with the deadline.
//
// With `plant` (may be null: no plant), a write transaction that executed at least one statement
// fires it once after its last statement and before COMMIT. A transaction that ran no statement
// (its first would have started past the deadline) writes nothing, so it plants nothing.
// Every statement run is shown to the connection's subquery cache (Connection::after_statement);
// with the cache on, count_above_mean_weight runs through it while it applies, timed as the
// operation it stands for (its op type and span stay those of the original statement).
// After every statement, inside its latency and span: `delays.busy_ns` (params.plant_delay_ns)
// busy-waited, then `delays.sleep_ns` (params.plant_sleep_ns) slept, then `delays.work_loops`
// (params.plant_work_loops) iterations of a fixed loop run, then `delays.allocations`
// (params.plant_allocations) blocks allocated and freed.
struct OpDelays {
  std::uint64_t busy_ns = 0;
  std::uint64_t sleep_ns = 0;
  std::uint64_t work_loops = 0;
  std::uint64_t allocations = 0;
};
Attempt attempt_transaction(Connection& conn, const QueryCatalog& catalog, const TxnPlan& plan,
                            std::size_t limit, std::uint64_t deadline, FsyncPlant* plant,
                            OpDelays delays = {});

}  // namespace jbench::sqlite_workload
