// Running a phase (warmup or measure) and what it counts.
//
// Counting rules (docs/worker-protocol.md, "Phases"):
// - The window starts at t_start_ns. A duration phase's window ends at t_start_ns + duration; an
//   operation-count phase ends when its N-th counted operation has committed.
// - An operation counts only if its transaction committed and it started and ended inside the
//   window. One that started inside and ended after is "straddled": executed, not counted.
// - Operations of failed attempts are never counted; the attempt's error is counted by name.
// - SQLITE_BUSY/SQLITE_LOCKED roll back and retry the same transaction up to kMaxRetries times;
//   one more failure counts "busy_exhausted". A transaction whose retry would start after the
//   deadline is abandoned instead (counted, not an error).
// - After kMaxConsecutiveFailures failed transactions in a row the phase stops and says so
//   (`aborted`): an operation-count phase must not spin forever on a broken database.
// - The fsync plant (plant.h) counts every fire of the phase, from t_start_ns to t_finished_ns:
//   those of attempts later rolled back and of transactions straddling the deadline too, since
//   their cost was paid inside the phase. A plant that fails stops the phase (`aborted`).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "jbench/common/clock.h"
#include "jbench/sqlite_workload/config.h"
#include "jbench/sqlite_workload/connection.h"
#include "jbench/sqlite_workload/op_stream.h"
#include "jbench/sqlite_workload/plant.h"
#include "jbench/sqlite_workload/transaction.h"
#include "jbench/stats/histogram.h"

namespace jbench::sqlite_workload {

inline constexpr std::uint32_t kMaxRetries = 10;
inline constexpr std::uint32_t kMaxConsecutiveFailures = 100;

struct PhaseStats {
  std::uint64_t t_start_ns = 0;
  std::uint64_t t_end_ns = 0;       // end of the counting window
  std::uint64_t t_finished_ns = 0;  // when the last transaction (straddling one included) ended
  std::optional<std::uint64_t> first_op_start_ns;  // of counted operations
  std::optional<std::uint64_t> last_op_end_ns;

  std::array<std::uint64_t, kOpTypeCount> operations{};
  std::array<stats::LatencyHistogram, kOpTypeCount> latency;
  stats::LatencyHistogram transaction_latency;  // BEGIN..COMMIT of counted transactions
  stats::LatencyHistogram connection_open;      // cold connections only
  stats::LatencyHistogram connection_close;     // cold connections only
  std::uint64_t rows_returned = 0;              // by counted operations
  // SQLite VM steps of what was counted: the statements of counted operations (the subquery
  // cache's own evaluations included) and the BEGIN and COMMIT of counted transactions. The
  // engine's own accounting, the same with every trace mode; failed attempts count no more here
  // than their operations do.
  std::uint64_t vm_steps = 0;
  // Counted operations that the subquery cache answered from its kept value, or computed it for.
  std::uint64_t subquery_cache_hits = 0;
  std::uint64_t subquery_cache_fills = 0;

  std::uint64_t transactions = 0;  // committed, BEGIN and COMMIT inside the window
  std::uint64_t read_transactions = 0;
  std::uint64_t write_transactions = 0;
  std::uint64_t transactions_straddled = 0;  // committed after the window ended
  std::uint64_t transactions_failed = 0;     // rolled back for good (error or busy_exhausted)
  std::uint64_t transactions_abandoned = 0;  // busy at the deadline, not retried
  std::uint64_t straddled = 0;
  std::uint64_t retries = 0;
  // Attempts that ended SQLITE_BUSY/SQLITE_LOCKED after the busy timeout, and the time they took
  // inside the window: what a worker starved by lock contention spent waiting.
  std::uint64_t busy_waits = 0;
  std::uint64_t busy_wait_ns = 0;
  std::map<std::string, std::uint64_t> errors;  // by result-code name, plus "busy_exhausted"
  std::optional<std::string> aborted;           // why the phase stopped early
  PlantTotals plant;                            // fires of the fsync plant, when it is on
  std::uint64_t plant_sleeps = 0;               // the sleep plant's sleeps, every attempt's
  std::uint64_t plant_slept_ns = 0;             // and their time, as the worker timed them
  std::uint64_t plant_busy_waits = 0;           // the delay plant's busy waits, every attempt's
  std::uint64_t plant_busy_cpu_ns = 0;          // and their time on the thread's CPU clock

  CpuTimes cpu;  // getrusage(RUSAGE_SELF) delta from phase start to t_finished_ns

  std::uint64_t total_operations() const;
  std::uint64_t reads() const;
  std::uint64_t writes() const;
};

// The workload of one worker across its phases: configuration, the classified statements, the
// operation stream (continuing from warmup into measure) and, for persistent connections, the
// connection itself.
class Workload {
 public:
  struct Setup;
  // Everything `configure` must do before `ready`: open (persistent) or probe (cold) a
  // connection, check the dataset, classify the statements, open the plant file if asked.
  static Setup set_up(const WorkerConfig& config);

  PhaseStats run_phase(const PhaseSpec& spec);
  // Closes the persistent connection if there is one. Returns its close time in ns (0 for
  // cold connections) and sets `error` if SQLite refused.
  std::uint64_t tear_down(std::string& error);

  const WorkerConfig& config() const { return config_; }
  const DatasetShape& shape() const { return shape_; }
  const QueryCatalog& catalog() const { return catalog_; }
  // The fsync plant, or null when params.plant_fsync_file is absent.
  const FsyncPlant* plant() const { return plant_ ? &*plant_ : nullptr; }

 private:
  Workload(WorkerConfig config, DatasetShape shape, QueryCatalog catalog);
  // One transaction with its retries; returns the number of counted operations, or nullopt if
  // it did not commit.
  std::optional<std::uint64_t> run_transaction(const TxnPlan& plan, std::size_t limit,
                                               std::uint64_t deadline, PhaseStats& s);
  // The attempts of one transaction on `conn`: retried after BUSY/LOCKED as phase rules say.
  std::optional<std::uint64_t> run_attempts(Connection& conn, const TxnPlan& plan,
                                            std::size_t limit, std::uint64_t deadline,
                                            PhaseStats& s);
  void account(const Attempt& attempt, bool writes, std::uint64_t deadline, PhaseStats& s,
               std::uint64_t& counted);

  WorkerConfig config_;
  DatasetShape shape_;
  QueryCatalog catalog_;
  OpStream stream_;
  std::optional<Connection> persistent_;
  // Once per worker, not per connection: a cold connection's open cost stays SQLite's own.
  std::optional<FsyncPlant> plant_;
};

struct Workload::Setup {
  std::unique_ptr<Workload> workload;
  std::uint64_t open_ns = 0;   // Connection::open of the persistent (or cold probe) connection
  std::uint64_t setup_ns = 0;  // all of set_up
  std::string error;
};

}  // namespace jbench::sqlite_workload
