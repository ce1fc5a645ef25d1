// Writers contending for one database: SQLITE_BUSY is rolled back, retried and counted, and no
// committed work or error goes missing from the results.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "worker_fixture.h"

namespace jbench::test {
namespace {

constexpr std::int64_t kConcurrencyRows = 2000;

// Walks workers through the protocol together, barrier by barrier, as the harness does;
// `after_measure_sent` is given the workers' pids.
std::vector<json> run_cohort(
    const std::vector<json>& configures,
    const std::function<void(const std::vector<pid_t>&)>& after_measure_sent = {}) {
  std::vector<std::unique_ptr<Worker>> workers;
  for (const auto& c : configures) {
    workers.push_back(std::make_unique<Worker>());
    workers.back()->send(c);
  }
  for (auto& w : workers) w->expect("ready");
  for (auto& w : workers) w->send({{"type", "canary"}});
  for (auto& w : workers) w->expect("canary_done");
  for (auto& w : workers) w->send({{"type", "start"}});
  for (auto& w : workers) w->expect("warmup_done");
  for (auto& w : workers) w->send({{"type", "measure"}});
  if (after_measure_sent) {
    std::vector<pid_t> pids;
    for (auto& w : workers) pids.push_back(w->hello()["pid"].get<pid_t>());
    after_measure_sent(pids);
  }
  std::vector<json> results;
  for (auto& w : workers) {
    w->expect("measure_done");
    results.push_back(w->expect("result"));
    w->send({{"type", "exit"}});
    w->expect("bye");
    EXPECT_EQ(w->expect_exit().code, 0);
  }
  return results;
}

// Every BUSY/LOCKED occurrence ended as exactly one of: a retry, busy_exhausted, or an
// abandoned transaction; and no error of another kind appeared.
void expect_busy_accounting(const json& r) {
  const std::uint64_t exhausted = r["errors"].value("busy_exhausted", std::uint64_t{0});
  EXPECT_EQ(busy_errors(r), r["retries"].get<std::uint64_t>() + exhausted +
                                r["transactions_abandoned"].get<std::uint64_t>())
      << r["errors"].dump();
  EXPECT_EQ(r["transactions_failed"].get<std::uint64_t>(), exhausted);
  for (const auto& [kind, _] : r["errors"].items()) {
    EXPECT_TRUE(kind.starts_with("SQLITE_BUSY") || kind.starts_with("SQLITE_LOCKED") ||
                kind == "busy_exhausted")
        << kind;
  }
}

TEST(SqliteConcurrency, TwoWritersOnOneDatabaseLoseNoWorkAndNoErrors) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  build_dataset(db, kConcurrencyRows, 64, 9);
  std::vector<json> configures;
  for (std::uint32_t i = 0; i < 2; ++i) {
    WorkerOptions o;
    o.worker_index = i;
    o.ops_per_transaction = 8;
    o.busy_timeout_ms = 2;  // short, so contention surfaces as SQLITE_BUSY rather than waiting
    o.warmup = {{"operations", 0}};
    o.measure = {{"operations", 400}};
    configures.push_back(configure_message(db, o));
  }
  const auto results = run_cohort(configures);
  std::int64_t inserts = 0;
  std::uint64_t busy = 0;
  for (const auto& r : results) {
    expect_consistent_result(r);
    EXPECT_EQ(r["operations"], 400);  // an operation-count phase counts committed work only
    EXPECT_EQ(r["status"], "ok") << r["conditions"].dump();
    expect_busy_accounting(r);
    inserts += r["operations_by_type"]["insert"].get<std::int64_t>();
    busy += busy_errors(r);
  }
  EXPECT_EQ(count_items(db),
            kConcurrencyRows + inserts);  // every counted insert committed, no others
  RecordProperty("busy_errors", static_cast<int>(busy));
}

// How often `pid`'s main thread has blocked of its own accord (/proc/<pid>/status).
std::uint64_t voluntary_switches(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("voluntary_ctxt_switches:")) return std::stoull(line.substr(24));
  }
  return 0;
}

// Deterministic contention: the test holds the write lock when the measure barrier opens, so
// the worker's first transaction must meet SQLITE_BUSY, and must succeed once it is released.
TEST(SqliteConcurrency, HeldWriteLockIsRetriedAndThenWaitedOut) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  build_dataset(db, kConcurrencyRows, 16, 4);
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &holder), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);

  WorkerOptions o;
  o.busy_timeout_ms = 5;
  o.warmup = {{"operations", 0}};
  o.measure = {{"operations", 8}};
  const auto results = run_cohort({configure_message(db, o)}, [&](const std::vector<pid_t>& pids) {
    // The lock is released once the worker has spent a transaction's whole retry budget. Each
    // attempt sleeps in SQLite's busy handler three times (1, 2 and 2 ms of the 5 ms timeout),
    // and each sleep is a voluntary context switch; the worker blocks on nothing else while it
    // measures. So three budgets of sleeps (11 attempts x 3, thrice) have certainly exhausted
    // one, whatever else it blocked on. The deadline is a safety net only.
    const std::uint64_t before = voluntary_switches(pids.at(0));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (voluntary_switches(pids.at(0)) < before + 3 * 11 * 3 &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_EQ(sqlite3_exec(holder, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
  });
  sqlite3_close(holder);

  const json& r = results.at(0);
  expect_consistent_result(r);
  expect_busy_accounting(r);
  EXPECT_EQ(r["operations"], 8);
  EXPECT_GE(r["retries"], 1);
  EXPECT_GE(r["errors"]["busy_exhausted"], 1);
  EXPECT_EQ(r["status"], "ok");
}

}  // namespace
}  // namespace jbench::test
