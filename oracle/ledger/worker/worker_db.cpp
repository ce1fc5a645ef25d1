#include "worker_db.h"

#include <time.h>

#include <algorithm>

namespace jbench::oracle::ledger_worker {

bool open_worker_db(const WorkerOptions& options, ledger_sql::Db& db, std::string& error) {
  // Read-write even for readers: after a writer was killed mid-transaction in rollback-journal
  // mode, the first reader to come along must roll the hot journal back.
  if (auto s = db.open(options.db_path, SQLITE_OPEN_READWRITE); !s) {
    error = s.error().message;
    return false;
  }
  sqlite3_busy_timeout(db.get(), kBusyTimeoutMs);
  if (db.exec("PRAGMA synchronous=FULL", &error) != SQLITE_OK) return false;
  ledger_sql::Stmt mode;
  if (mode.prepare(db, "PRAGMA journal_mode") != SQLITE_OK || mode.step() != SQLITE_ROW) {
    error = "cannot read the journal mode: " + db.message();
    return false;
  }
  const std::string actual(mode.text_at(0));
  const std::string expected = options.journal == JournalMode::wal ? "wal" : "delete";
  if (actual != expected) {
    error = "the database is in journal mode " + actual + ", not " + expected;
    return false;
  }
  return true;
}

void busy_backoff(unsigned attempt) {
  const long us = 200L * static_cast<long>(std::min(attempt + 1, 20u));
  timespec ts{0, us * 1000};
  ::nanosleep(&ts, nullptr);
}

}  // namespace jbench::oracle::ledger_worker
