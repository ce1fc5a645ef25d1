#include "jbench/sqlite_workload/connection.h"

#include <fmt/format.h>

#include <cstdint>
#include <iterator>

#include "jbench/sqlite_workload/trace.h"

namespace jbench::sqlite_workload {
namespace {

// SQLite's own busy handler (what sqlite3_busy_timeout installs), on the same schedule: sleeps of
// 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50 and then 100 ms, the last cut to end at the timeout.
// Each sleep is a span (trace::kBusyWait): the time a worker waits for another's lock is named,
// not hidden inside a statement where no tracer sees it. `timeout` carries the milliseconds.
int busy_wait(void* timeout, int count) {
  constexpr int kDelays[] = {1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100};
  constexpr int kSteps = static_cast<int>(std::size(kDelays));
  const auto timeout_ms = static_cast<int>(reinterpret_cast<std::uintptr_t>(timeout));
  int prior = 0;
  for (int i = 0; i < count && i < kSteps; ++i) prior += kDelays[i];
  if (count > kSteps) prior += kDelays[kSteps - 1] * (count - kSteps);
  int delay = kDelays[count < kSteps ? count : kSteps - 1];
  if (prior + delay > timeout_ms) delay = timeout_ms - prior;
  if (delay <= 0) return 0;
  const trace::Span span(trace::kBusyWait);
  sqlite3_sleep(delay);
  return 1;
}

// SQLite's automatic checkpoint, as sqlite3_wal_autocheckpoint installs it by default (the WAL
// hook, after each commit): once the WAL holds kAutoCheckpointPages frames or more, a passive
// checkpoint of that database — here inside a span (trace::kWalCheckpoint), so that the commit
// that pays for copying the WAL back is seen paying for it.
constexpr int kAutoCheckpointPages = 1000;  // SQLITE_DEFAULT_WAL_AUTOCHECKPOINT

int wal_checkpoint(void* /*unused*/, sqlite3* db, const char* schema, int frames) {
  if (frames < kAutoCheckpointPages) return SQLITE_OK;
  const trace::Span span(trace::kWalCheckpoint);
  sqlite3_wal_checkpoint(db, schema);  // passive: its failure is left for the next commit's
  return SQLITE_OK;
}

}  // namespace

int Connection::open(const WorkerConfig& config, Connection& out, std::string& error) {
  // NOMUTEX: one thread per connection, so SQLite's own locking would be pure overhead.
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
  Connection c;
  int rc = Database::open(config.db, flags, c.db_, error);
  if (rc != SQLITE_OK) {
    error = fmt::format("open {}: {}", config.db, error);
    return rc;
  }
  const auto fail = [&](int code, std::string_view what) {
    error = fmt::format("{}: {} ({})", what, c.db_.errmsg(), result_code_name(code));
    return code;
  };
  rc = sqlite3_busy_handler(
      c.db_.get(), busy_wait,
      reinterpret_cast<void*>(static_cast<std::uintptr_t>(config.params.busy_timeout_ms)));
  if (rc != SQLITE_OK) return fail(rc, "busy_handler");
  sqlite3_wal_hook(c.db_.get(), wal_checkpoint, nullptr);  // replaces the default auto-checkpoint
  rc = c.db_.exec(fmt::format("PRAGMA synchronous={}; PRAGMA cache_size=-{}",
                              to_string(config.params.synchronous), config.params.page_cache_kib));
  if (rc != SQLITE_OK) return fail(rc, "pragma");
  // Reading journal_mode (not setting it) takes no write lock, so it cannot wait on a writer.
  const auto mode = c.db_.query_text("PRAGMA journal_mode");
  if (mode != "wal") {
    error = fmt::format("{} is in journal_mode {}, not wal; build it with build-dataset", config.db,
                        mode.value_or("unknown"));
    return SQLITE_ERROR;
  }
  for (std::size_t i = 0; i < kQueryCount; ++i) {
    rc = c.db_.prepare(query_info(static_cast<Query>(i)).sql, c.queries_[i]);
    if (rc != SQLITE_OK)
      return fail(rc, fmt::format("prepare {}", query_info(static_cast<Query>(i)).name));
  }
  if (config.params.subquery_cache != SubqueryCachePolicy::off) {
    c.cache_ = std::make_unique<SubqueryCache>(c.db_.get(), config.params.subquery_cache);
    std::string why;
    rc = c.cache_->prepare(why);
    if (rc != SQLITE_OK) {
      error = fmt::format("prepare the subquery cache: {} ({})", why, result_code_name(rc));
      return rc;
    }
  }
  // IMMEDIATE takes the write lock up front: a deferred transaction that upgrades later can fail
  // with SQLITE_BUSY_SNAPSHOT without ever waiting in the busy handler.
  const std::pair<Statement*, const char*> control[] = {{&c.begin_read_, "BEGIN"},
                                                        {&c.begin_write_, "BEGIN IMMEDIATE"},
                                                        {&c.commit_, "COMMIT"},
                                                        {&c.rollback_, "ROLLBACK"}};
  for (const auto& [stmt, sql] : control) {
    rc = c.db_.prepare(sql, *stmt);
    if (rc != SQLITE_OK) return fail(rc, sql);
  }
  out = std::move(c);
  return SQLITE_OK;
}

int Connection::close() {
  cache_.reset();
  for (auto& q : queries_) q = Statement();
  begin_read_ = Statement();
  begin_write_ = Statement();
  commit_ = Statement();
  rollback_ = Statement();
  return db_.close();
}

}  // namespace jbench::sqlite_workload
