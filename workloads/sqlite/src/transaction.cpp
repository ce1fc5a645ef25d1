#include "jbench/sqlite_workload/transaction.h"

#include <time.h>

#include <cstdlib>

#include "jbench/common/clock.h"
#include "jbench/common/platform_choice.h"
#include "jbench/sqlite_workload/trace.h"

namespace jbench::sqlite_workload {
namespace {

// The delay plant: `ns` on the CPU in this function's own instructions. The clock is read once
// per 1024 turns (about a microsecond), so nearly every on-CPU sample of the wait lands here, in a
// function a profile can name, not in the clock's code.
std::uint64_t thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000ULL +
         static_cast<std::uint64_t>(t.tv_nsec);
}

// The sleep plant's sleep: off the CPU for `ns`, not resumed after a signal (the worker times
// what it slept, it does not assume it).
void sleep_once(std::uint64_t ns) {
  const timespec length{static_cast<time_t>(ns / 1'000'000'000ULL),
                        static_cast<long>(ns % 1'000'000'000ULL)};
#if JBENCH_PLATFORM_LINUX
  clock_nanosleep(CLOCK_MONOTONIC, 0, &length, nullptr);
#else
  nanosleep(&length, nullptr);  // macOS has no clock_nanosleep
#endif
}

// The work plant: the same instructions on every machine (an LCG step per iteration, kept by
// the empty asm from being folded away), so counted runs see a cost of known size.
[[gnu::noinline]] void plant_work(std::uint64_t loops) {
  std::uint64_t x = loops;
  for (std::uint64_t i = 0; i < loops; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    asm volatile("" : "+r"(x));
  }
}

// The allocation plant: `count` calls to malloc, each block freed at once. The empty asm makes
// the block's address escape, so the compiler cannot remove the pair.
[[gnu::noinline]] void plant_allocations(std::uint64_t count) {
  for (std::uint64_t i = 0; i < count; ++i) {
    void* block = std::malloc(64);
    asm volatile("" : : "r"(block) : "memory");
    std::free(block);
  }
}

[[gnu::noinline]] void plant_busy_wait(std::uint64_t ns) {
  const std::uint64_t until = monotonic_ns() + ns;
  volatile std::uint64_t turns = 0;
  do {
    for (int i = 0; i < 1024; ++i) turns = turns + 1;
  } while (monotonic_ns() < until);
}

// Steps `stmt` to completion, reading every column of every row as a client would, then resets
// it and shows it to the connection's subquery cache. Adds its VM steps to `vm_steps`, read and
// reset here so that each execution counts its own. Returns SQLITE_OK or the extended code of
// the failure.
int run_to_done(const Connection& conn, sqlite3_stmt* stmt, std::uint64_t& rows,
                std::uint64_t& vm_steps) {
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    ++rows;
    const int columns = sqlite3_column_count(stmt);
    for (int i = 0; i < columns; ++i) {
      if (sqlite3_column_type(stmt, i) == SQLITE_BLOB) {
        sqlite3_column_blob(stmt, i);
        sqlite3_column_bytes(stmt, i);
      } else {
        sqlite3_column_int64(stmt, i);
      }
    }
  }
  const int code =
      rc == SQLITE_DONE ? SQLITE_OK : sqlite3_extended_errcode(sqlite3_db_handle(stmt));
  sqlite3_reset(stmt);
  vm_steps += static_cast<std::uint64_t>(sqlite3_stmt_status(stmt, SQLITE_STMTSTATUS_VM_STEP, 1));
  conn.after_statement(stmt);
  return code;
}

// count_above_mean_weight through the subquery cache: the kept value (or a fill) bound as ?2 of
// the hoisted statement, the operation's own parameter as ?1. Inside the operation's latency,
// since looking the value up or computing it is what the operation now costs.
int run_cached(const Connection& conn, SubqueryCache& cache, const Op& op, OpRecord& r) {
  sqlite3_stmt* hoisted = nullptr;
  SubqueryCache::Lookup lookup{};
  std::uint64_t fill_steps = 0;
  const int rc = cache.bind_execution(hoisted, lookup, fill_steps);
  r.vm_steps += fill_steps;
  if (rc != SQLITE_OK) return rc;
  r.cache_lookup = lookup;
  sqlite3_bind_int64(hoisted, 1, op.a);
  return run_to_done(conn, hoisted, r.rows, r.vm_steps);
}

void bind(sqlite3_stmt* stmt, const Op& op) {
  switch (op.query) {
    case Query::insert_item:
      sqlite3_bind_int64(stmt, 1, op.a);
      sqlite3_bind_int64(stmt, 2, op.b);
      bind_blob(stmt, 3, op.payload);
      break;
    case Query::update_val:
    case Query::scan_grp_range:
    case Query::weight_by_id_range:
      sqlite3_bind_int64(stmt, 1, op.a);
      sqlite3_bind_int64(stmt, 2, op.b);
      break;
    case Query::lookup_by_id:
    case Query::count_above_mean_weight:
      sqlite3_bind_int64(stmt, 1, op.a);
      break;
  }
}

Attempt::Status status_of(int code) {
  const int primary = primary_code(code);
  return primary == SQLITE_BUSY || primary == SQLITE_LOCKED ? Attempt::Status::busy
                                                            : Attempt::Status::failed;
}

}  // namespace

Attempt attempt_transaction(Connection& conn, const QueryCatalog& catalog, const TxnPlan& plan,
                            std::size_t limit, std::uint64_t deadline, FsyncPlant* plant,
                            OpDelays delays) {
  Attempt a;
  a.ops.reserve(limit);
  std::uint64_t ignored_rows = 0;
  std::uint64_t ignored_steps = 0;
  const auto fail = [&](int code) {
    a.status = code == SQLITE_OK ? Attempt::Status::failed : status_of(code);
    a.code = code;
    // A failed BEGIN leaves no transaction open; otherwise undo whatever ran.
    if (!sqlite3_get_autocommit(conn.db().get())) {
      a.rollback_code = run_to_done(conn, conn.rollback(), ignored_rows, ignored_steps);
    }
    a.end_ns = monotonic_ns();
    return a;
  };

  a.begin_ns = monotonic_ns();
  int rc = run_to_done(conn, plan.writes ? conn.begin_write() : conn.begin_read(), ignored_rows,
                       a.control_vm_steps);
  if (rc != SQLITE_OK) return fail(rc);
  for (std::size_t i = 0; i < limit; ++i) {
    const Op& op = plan.ops[i];
    SubqueryCache* cache =
        op.query == Query::count_above_mean_weight ? conn.subquery_cache() : nullptr;
    if (cache != nullptr && !cache->applies()) cache = nullptr;
    sqlite3_stmt* stmt = conn.query(op.query);
    if (cache == nullptr) bind(stmt, op);
    OpRecord r;
    r.type = catalog[static_cast<std::size_t>(op.query)].type;
    r.start_ns = monotonic_ns();
    if (r.start_ns >= deadline) break;
    {
      // A child of the transaction's span. It begins after the deadline check, so a statement
      // that never ran has no span; with the bridge on, its begin is inside the latency.
      const trace::Span span(trace::statement_span(r.type));
      rc = cache != nullptr ? run_cached(conn, *cache, op, r)
                            : run_to_done(conn, stmt, r.rows, r.vm_steps);
      // The delay plant: a busy wait (not a sleep, whose wake-up would add more than asked),
      // inside the operation's latency, so throughput and latency both carry it.
      if (delays.busy_ns > 0) {
        // Timed on the thread's own CPU clock: what a profile's on-CPU samples must match.
        const std::uint64_t cpu_before = thread_cpu_ns();
        plant_busy_wait(delays.busy_ns);
        a.busy_cpu_ns += thread_cpu_ns() - cpu_before;
        ++a.busy_waits;
      }
      // The sleep plant: off the CPU for a known time, timed by the worker as it slept.
      if (delays.sleep_ns > 0) {
        const std::uint64_t before = monotonic_ns();
        sleep_once(delays.sleep_ns);
        a.slept_ns += elapsed_ns(before, monotonic_ns());
        ++a.sleeps;
      }
      if (delays.work_loops > 0) plant_work(delays.work_loops);
      if (delays.allocations > 0) plant_allocations(delays.allocations);
      r.end_ns = monotonic_ns();
    }
    a.ops.push_back(r);
    if (rc != SQLITE_OK) return fail(rc);
  }
  if (plant != nullptr && plan.writes && !a.ops.empty()) {
    // Inside the transaction (and its span), holding the write lock: the planted cost is paid
    // exactly where a real per-transaction side-file sync would be.
    auto fired = plant->fire();
    if (!fired) {
      a.plant_error = fired.error().message;
      return fail(SQLITE_OK);
    }
    a.plant = fired.value();
  }
  rc = run_to_done(conn, conn.commit(), ignored_rows, a.control_vm_steps);
  if (rc != SQLITE_OK) return fail(rc);
  a.end_ns = monotonic_ns();
  return a;
}

}  // namespace jbench::sqlite_workload
