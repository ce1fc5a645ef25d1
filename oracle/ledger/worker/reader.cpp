#include "reader.h"

#include <poll.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "jbench/common/clock.h"
#include "registration.h"
#include "worker_db.h"

namespace jbench::oracle::ledger_worker {
namespace {

using ledger_sql::is_busy;

// Between snapshots: the readers share two cores with the writers and the driver.
constexpr long kSnapshotPauseUs = 500;

// Anything on stdin (a "stop" line or EOF) asks the reader to stop.
bool stop_requested() {
  pollfd p{STDIN_FILENO, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

struct Snapshot {
  std::int64_t first = 0;   // bank: sum of balances; keyed: kv rows without their txns row
  std::int64_t probes = 0;  // rows of rolled_back_probe
};

class Reader {
 public:
  explicit Reader(const WorkerOptions& o) : o_(o) {}

  int run() {
    const std::uint64_t deadline_ns = monotonic_ns() + o_.deadline_ms * 1000000;
    if (!open_worker_db(o_, db_, error_)) return fail();
    const char* invariant_sql =
        o_.layout.variant == LedgerVariant::bank
            ? "SELECT coalesce(sum(balance), 0) FROM accounts"
            : "SELECT count(*) FROM kv LEFT JOIN txns ON kv.writer = txns.writer AND "
              "kv.seq = txns.seq WHERE txns.seq IS NULL";
    if (invariant_.prepare(db_, invariant_sql) != SQLITE_OK ||
        probes_.prepare(db_, "SELECT count(*) FROM rolled_back_probe") != SQLITE_OK) {
      error_ = "cannot prepare: " + db_.message();
      return fail();
    }
    bool timed_out = false;
    while (!stop_requested()) {
      if (monotonic_ns() > deadline_ns) {
        timed_out = true;
        break;
      }
      Snapshot snap;
      const int rc = take_snapshot(snap);
      if (is_busy(rc)) {
        ++busy_retries_;
        busy_backoff(0);
        continue;
      }
      if (rc != SQLITE_OK) {
        error_ = "snapshot failed: " + db_.message();
        return fail();
      }
      ++snapshots_;
      check(snap);
      timespec pause{0, kSnapshotPauseUs * 1000};
      ::nanosleep(&pause, nullptr);
    }
    emit_line(nlohmann::json{{"role", "reader"},
                             {"index", o_.index},
                             {"snapshots", snapshots_},
                             {"violations", violations_},
                             {"first_violation", first_violation_},
                             {"busy_retries", busy_retries_},
                             {"timed_out", timed_out}}
                  .dump());
    return timed_out ? 3 : 0;
  }

 private:
  int fail() {
    std::fprintf(stderr, "jbench-ledger-worker reader %llu: %s\n",
                 static_cast<unsigned long long>(o_.index), error_.c_str());
    return 4;
  }

  static int scalar(ledger_sql::Stmt& stmt, std::int64_t& out) {
    const int rc = stmt.step();
    if (rc == SQLITE_ROW) out = stmt.int_at(0);
    stmt.reset();
    return rc == SQLITE_ROW ? SQLITE_OK : rc;
  }

  // One read transaction: both queries see the same snapshot.
  int take_snapshot(Snapshot& snap) {
    int rc = db_.exec("BEGIN");
    if (rc != SQLITE_OK) return rc;
    rc = scalar(invariant_, snap.first);
    if (rc == SQLITE_OK) rc = scalar(probes_, snap.probes);
    if (rc == SQLITE_OK) rc = db_.exec("COMMIT");
    if (rc != SQLITE_OK && !sqlite3_get_autocommit(db_.get())) db_.exec("ROLLBACK");
    return rc;
  }

  void check(const Snapshot& snap) {
    std::string violation;
    if (o_.layout.variant == LedgerVariant::bank && snap.first != o_.layout.total_balance()) {
      violation = "balances sum to " + std::to_string(snap.first) + ", not " +
                  std::to_string(o_.layout.total_balance());
    } else if (o_.layout.variant == LedgerVariant::keyed && snap.first != 0) {
      violation = std::to_string(snap.first) + " kv rows without their txns row";
    }
    if (snap.probes != 0) {
      if (!violation.empty()) violation += "; ";
      violation += std::to_string(snap.probes) + " rows of rolled-back work visible";
    }
    if (violation.empty()) return;
    ++violations_;
    if (first_violation_.empty()) {
      first_violation_ = "snapshot " + std::to_string(snapshots_) + ": " + violation;
    }
  }

  const WorkerOptions& o_;
  std::string error_;
  ledger_sql::Db db_;
  ledger_sql::Stmt invariant_, probes_;
  std::uint64_t snapshots_ = 0, violations_ = 0, busy_retries_ = 0;
  std::string first_violation_;
};

}  // namespace

int run_reader(const WorkerOptions& options) {
  std::string error;
  if (!say_hello_and_wait(options, error)) {
    std::fprintf(stderr, "jbench-ledger-worker reader: %s\n", error.c_str());
    return 2;
  }
  Reader reader(options);
  return reader.run();
}

}  // namespace jbench::oracle::ledger_worker
