#include "writer.h"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "jbench/common/clock.h"
#include "jbench/oracle/ledger_file.h"
#include "jbench/oracle/ledger_plan.h"
#include "ledger_appender.h"
#include "phase_marker.h"
#include "registration.h"
#include "worker_db.h"

namespace jbench::oracle::ledger_worker {
namespace {

using ledger_sql::is_busy;

// How long the ledger-before-commit writer pauses between its ledger append and COMMIT: long
// enough that most kills of the storm land in the window it opens.
constexpr long kBrokenPauseUs = 3000;

enum class AttemptKind { commit, abort };

class Writer {
 public:
  explicit Writer(const WorkerOptions& o)
      : o_(o), deadline_ns_(monotonic_ns() + o.deadline_ms * 1000000) {}

  int run() {
    if (!phase_.open(phase_path_for(o_.ledger_path), error_)) return fail();
    phase_.set(WriterPhase::starting);
    if (!db_.get() && !open_worker_db(o_, db_, error_)) return fail();
    if (!prepare_statements()) return fail();
    std::uint64_t next = 0;
    if (!resume(next)) return fail();
    std::uint64_t committed = 0;
    for (std::uint64_t seq = next; seq <= o_.transactions; ++seq) {
      phase_.set(WriterPhase::between);
      const TxnPlan plan = plan_transaction(o_.layout, o_.seed, o_.index, seq);
      LedgerLine line;
      line.writer = o_.index;
      line.incarnation = o_.incarnation;
      line.seq = seq;
      line.body = plan_body(o_.layout.variant, plan);
      line.checksum = transaction_checksum(o_.index, seq, line.body);
      for (const auto& step : plan.steps) {
        line.savepoints_kept += step.kind == StepKind::savepoint_kept ? 1 : 0;
        line.savepoints_rolled += step.kind == StepKind::savepoint_rolled_back ? 1 : 0;
      }
      if (plan.abort_first) {
        if (!until_done(plan, line, AttemptKind::abort)) return fail();
        line.aborts = 1;
      }
      if (!until_done(plan, line, AttemptKind::commit)) return fail();
      // The protocol: the ledger says committed only after COMMIT returned.
      if (o_.broken != BrokenWriter::ledger_before_commit &&
          !ledger_.append_line(format_ledger_line(line), error_)) {
        return fail();
      }
      phase_.set(WriterPhase::between);
      ++committed;
    }
    if (o_.hold_end && !wait_for_word("finish", error_)) return fail();
    const LedgerLine end = marker(LedgerLineKind::end, o_.transactions);
    if (!ledger_.append_line(format_ledger_line(end), error_)) return fail();
    phase_.set(WriterPhase::finished);
    emit_line(nlohmann::json{{"role", "writer"},
                             {"writer", o_.index},
                             {"incarnation", o_.incarnation},
                             {"first_seq", next},
                             {"committed", committed},
                             {"busy_retries", busy_retries_}}
                  .dump());
    return 0;
  }

 private:
  int fail() {
    std::fprintf(stderr, "jbench-ledger-worker writer %llu.%llu: %s\n",
                 static_cast<unsigned long long>(o_.index),
                 static_cast<unsigned long long>(o_.incarnation), error_.c_str());
    return past_deadline() ? 3 : 4;
  }
  bool past_deadline() const { return monotonic_ns() > deadline_ns_; }

  LedgerLine marker(LedgerLineKind kind, std::uint64_t seq) const {
    LedgerLine line;
    line.kind = kind;
    line.writer = o_.index;
    line.incarnation = o_.incarnation;
    line.seq = seq;
    return line;
  }

  bool prepare_statements() {
    const bool ok =
        upsert_.prepare(db_,
                        "INSERT INTO kv(key, value, writer, seq) VALUES(?1, ?2, ?3, ?4) "
                        "ON CONFLICT(key) DO UPDATE SET value = excluded.value, "
                        "writer = excluded.writer, seq = excluded.seq") == SQLITE_OK &&
        debit_.prepare(db_, "UPDATE accounts SET balance = balance - ?2 WHERE id = ?1") ==
            SQLITE_OK &&
        credit_.prepare(db_, "UPDATE accounts SET balance = balance + ?2 WHERE id = ?1") ==
            SQLITE_OK &&
        probe_.prepare(db_,
                       "INSERT INTO rolled_back_probe(writer, seq, incarnation, what) "
                       "VALUES(?1, ?2, ?3, ?4)") == SQLITE_OK &&
        txn_.prepare(db_,
                     "INSERT INTO txns(writer, seq, incarnation, body, checksum) "
                     "VALUES(?1, ?2, ?3, ?4, ?5)") == SQLITE_OK &&
        max_seq_.prepare(db_, "SELECT coalesce(max(seq), 0) FROM txns WHERE writer = ?1") ==
            SQLITE_OK;
    if (!ok) error_ = "cannot prepare: " + db_.message();
    return ok;
  }

  // Finds the first seq to run: after the last ledgered one and after the last committed one
  // (a predecessor killed between COMMIT and its ledger append leaves one committed, unledgered
  // transaction, which must not be run twice). Then says so in a start line.
  bool resume(std::uint64_t& next) {
    auto file = read_ledger_file(o_.ledger_path);
    if (!file) {
      error_ = file.error().message;
      return false;
    }
    std::uint64_t last = 0;
    for (const auto& line : file->lines) {
      if (line.kind == LedgerLineKind::txn) last = std::max(last, line.seq);
    }
    if (!ledger_.open(o_.ledger_path, error_)) return false;
    if (file->exists && !file->ends_with_newline && !ledger_.append_raw("\n", error_)) {
      return false;
    }
    for (unsigned attempt = 0;; ++attempt) {
      max_seq_.reset();
      max_seq_.bind(1, static_cast<std::int64_t>(o_.index));
      const int rc = max_seq_.step();
      if (rc == SQLITE_ROW) {
        last = std::max(last, static_cast<std::uint64_t>(max_seq_.int_at(0)));
        max_seq_.reset();
        break;
      }
      max_seq_.reset();
      if (!is_busy(rc) || past_deadline()) {
        error_ = "cannot read the last committed seq: " + db_.message();
        return false;
      }
      ++busy_retries_;
      busy_backoff(attempt);
    }
    next = last + 1;
    const LedgerLine start = marker(LedgerLineKind::start, next);
    return ledger_.append_line(format_ledger_line(start), error_);
  }

  // Runs one attempt until it is not BUSY any more. False on a real failure or the deadline.
  bool until_done(const TxnPlan& plan, const LedgerLine& line, AttemptKind kind) {
    for (unsigned attempt = 0;; ++attempt) {
      const int rc = run_attempt(plan, line, kind);
      if (rc == SQLITE_OK) return true;
      if (!is_busy(rc)) {
        if (error_.empty()) error_ = "seq " + std::to_string(line.seq) + ": " + db_.message();
        return false;
      }
      if (past_deadline()) {
        error_ = "deadline passed while retrying SQLITE_BUSY at seq " + std::to_string(line.seq);
        return false;
      }
      ++busy_retries_;
      busy_backoff(attempt);
    }
  }

  int step_once(ledger_sql::Stmt& stmt) {
    const int rc = stmt.step();
    stmt.reset();
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
  }

  int write_key(const KeyedWrite& w, std::int64_t value, std::uint64_t seq) {
    upsert_.bind(1, w.key);
    upsert_.bind(2, value);
    upsert_.bind(3, static_cast<std::int64_t>(o_.index));
    upsert_.bind(4, static_cast<std::int64_t>(seq));
    return step_once(upsert_);
  }

  int move(ledger_sql::Stmt& stmt, std::int64_t account, std::int64_t amount) {
    stmt.bind(1, account);
    stmt.bind(2, amount);
    return step_once(stmt);
  }

  // Poison (work that is rolled back) is a negative key value or an unbalanced credit.
  int apply(const TxnStep& step, std::uint64_t seq, bool poison) {
    int rc = SQLITE_OK;
    for (const auto& w : step.writes) {
      if (rc == SQLITE_OK) rc = write_key(w, poison ? -std::abs(w.value) : w.value, seq);
    }
    for (const auto& t : step.transfers) {
      if (rc == SQLITE_OK && poison) rc = move(credit_, t.to, kPoisonCredit);
      if (rc == SQLITE_OK && !poison) rc = move(debit_, t.from, t.amount);
      if (rc == SQLITE_OK && !poison) rc = move(credit_, t.to, t.amount);
    }
    return rc;
  }

  int probe(std::uint64_t seq, const char* what) {
    probe_.bind(1, static_cast<std::int64_t>(o_.index));
    probe_.bind(2, static_cast<std::int64_t>(seq));
    probe_.bind(3, static_cast<std::int64_t>(o_.incarnation));
    probe_.bind(4, what);
    return step_once(probe_);
  }

  int run_steps(const TxnPlan& plan, std::uint64_t seq, AttemptKind kind) {
    int rc = SQLITE_OK;
    for (const auto& step : plan.steps) {
      if (kind == AttemptKind::abort || step.kind == StepKind::plain) {
        rc = apply(step, seq, kind == AttemptKind::abort);
      } else if (step.kind == StepKind::savepoint_kept) {
        rc = db_.exec("SAVEPOINT kept");
        if (rc == SQLITE_OK) rc = apply(step, seq, false);
        if (rc == SQLITE_OK) rc = db_.exec("RELEASE kept");
      } else {
        rc = db_.exec("SAVEPOINT undone");
        if (rc == SQLITE_OK) rc = apply(step, seq, true);
        if (rc == SQLITE_OK) rc = probe(seq, "savepoint");
        // The savepoint-leak writer releases what it should have rolled back.
        if (rc == SQLITE_OK && o_.broken != BrokenWriter::savepoint_leak) {
          rc = db_.exec("ROLLBACK TO undone");
        }
        if (rc == SQLITE_OK) rc = db_.exec("RELEASE undone");
      }
      if (rc != SQLITE_OK) return rc;
    }
    return rc;
  }

  // SQLITE_OK when done (committed, or for an abort attempt rolled back as planned), a BUSY code
  // when it was rolled back to be retried, any other code on failure.
  int run_attempt(const TxnPlan& plan, const LedgerLine& line, AttemptKind kind) {
    // IMMEDIATE: take the write lock up front, so a deferred read lock never has to be
    // upgraded (an upgrade that meets another writer fails at once, whatever the busy timeout).
    phase_.set(WriterPhase::in_transaction);
    int rc = db_.exec("BEGIN IMMEDIATE");
    if (rc != SQLITE_OK) return rc;
    rc = run_steps(plan, line.seq, kind);
    if (rc == SQLITE_OK && kind == AttemptKind::abort) {
      rc = probe(line.seq, "rollback");
      if (rc == SQLITE_OK) {
        rc = db_.exec("ROLLBACK");
        phase_.set(WriterPhase::between);
        return rc;
      }
    }
    if (rc == SQLITE_OK) {
      txn_.bind(1, static_cast<std::int64_t>(o_.index));
      txn_.bind(2, static_cast<std::int64_t>(line.seq));
      txn_.bind(3, static_cast<std::int64_t>(o_.incarnation));
      txn_.bind(4, line.body);
      txn_.bind(5, checksum_hex(line.checksum));
      rc = step_once(txn_);
    }
    if (rc == SQLITE_OK && o_.broken == BrokenWriter::ledger_before_commit) {
      if (!ledger_.append_line(format_ledger_line(line), error_)) rc = SQLITE_IOERR;
      timespec pause{0, kBrokenPauseUs * 1000};
      ::nanosleep(&pause, nullptr);
    }
    if (rc != SQLITE_OK) {
      rollback_if_open();
      return rc;
    }
    // A COMMIT that meets SQLITE_BUSY leaves the transaction open: retry the COMMIT itself.
    for (unsigned attempt = 0;; ++attempt) {
      phase_.set(WriterPhase::committing);
      rc = db_.exec("COMMIT");
      if (rc == SQLITE_OK) {
        // The window the kill-after-COMMIT allowance is about, until the ledger is durable.
        phase_.set(WriterPhase::ledgering);
        return SQLITE_OK;
      }
      if (sqlite3_get_autocommit(db_.get())) return rc;  // SQLite rolled it back itself
      if (!is_busy(rc) || past_deadline()) break;
      ++busy_retries_;
      busy_backoff(attempt);
    }
    rollback_if_open();
    return rc;
  }

  void rollback_if_open() {
    if (!sqlite3_get_autocommit(db_.get())) db_.exec("ROLLBACK");
  }

  const WorkerOptions& o_;
  std::uint64_t deadline_ns_;
  std::string error_;
  ledger_sql::Db db_;
  LedgerAppender ledger_;
  PhaseMarker phase_;
  ledger_sql::Stmt upsert_, debit_, credit_, probe_, txn_, max_seq_;
  std::uint64_t busy_retries_ = 0;
};

}  // namespace

int run_writer(const WorkerOptions& options) {
  std::string error;
  if (!say_hello_and_wait(options, error)) {
    std::fprintf(stderr, "jbench-ledger-worker writer: %s\n", error.c_str());
    return 2;
  }
  Writer writer(options);
  return writer.run();
}

}  // namespace jbench::oracle::ledger_worker
