// SIGKILL storms with real processes and real files: the protocol holds in both journal modes
// and both variants, and the broken writers are caught.
#include <gtest/gtest.h>

#include <set>

#include "storm_fixture.h"

namespace jbench::oracle::testing {
namespace {

LedgerConfig storm_config(JournalMode journal, LedgerVariant variant) {
  LedgerConfig c;
  c.journal = journal;
  c.variant = variant;
  c.writers = 3;
  c.readers = 1;
  c.transactions_per_writer = 500;
  c.kills = 60;
  c.seed = 7;
  c.timeout_ms = 45000;
  return c;
}

// The properties every correct storm must show, beyond passed().
void expect_sound_storm(const LedgerConfig& c, const LedgerVerdict& v) {
  EXPECT_TRUE(v.passed()) << explain(v);
  EXPECT_EQ(v.kills_done, c.kills) << "the writers finished before the storm was over";
  EXPECT_EQ(v.lost, 0u);
  EXPECT_EQ(v.visible_uncommitted, 0u);
  EXPECT_EQ(v.rolled_back_visible, 0u);
  EXPECT_EQ(v.integrity_check, "ok");
  // Every transaction of every writer is committed exactly once.
  EXPECT_EQ(v.committed, c.writers * c.transactions_per_writer);
  EXPECT_EQ(v.ledgered + v.unledgered_after_kill, v.committed);
  EXPECT_EQ(v.writers_finished, c.writers);
  // One incarnation per writer, one more per kill, one per reader; all distinct.
  EXPECT_EQ(v.incarnations.size(), c.writers + c.kills + c.readers);
  EXPECT_EQ(v.boot_id.size(), 36u) << "the incarnations' boot id";
  std::set<std::string> ids;
  for (const auto& inc : v.incarnations) ids.insert(inc.runtime_id);
  EXPECT_EQ(ids.size(), v.incarnations.size());
  // The rollback paths ran.
  EXPECT_GT(v.savepoints_rolled_back, 0u);
  EXPECT_GT(v.savepoints_kept, 0u);
  EXPECT_GT(v.aborted_attempts, 0u);
  EXPECT_GT(v.reader_snapshots, 0u);
  EXPECT_EQ(v.invariant_violations, 0u);
  // The kills landed inside transactions, not only between them, and every one is accounted.
  std::size_t accounted = 0;
  for (const auto& [point, count] : v.kill_points) accounted += count;
  EXPECT_EQ(accounted, v.kills_done);
  EXPECT_GT(v.kill_points.count("in_transaction") + v.kill_points.count("in_commit"), 0u)
      << explain(v);
}

TEST_F(LedgerStorm, wal_keyed_storm_loses_nothing_and_exposes_nothing) {
  const auto c = storm_config(JournalMode::wal, LedgerVariant::keyed);
  expect_sound_storm(c, storm(c));
}

TEST_F(LedgerStorm, rollback_journal_keyed_storm_loses_nothing_and_exposes_nothing) {
  const auto c = storm_config(JournalMode::rollback, LedgerVariant::keyed);
  expect_sound_storm(c, storm(c));
}

TEST_F(LedgerStorm, wal_bank_storm_readers_always_see_the_fixed_total) {
  auto c = storm_config(JournalMode::wal, LedgerVariant::bank);
  c.readers = 2;
  const auto v = storm(c);
  expect_sound_storm(c, v);
  EXPECT_EQ(v.balance_total, v.expected_balance_total);
}

TEST_F(LedgerStorm, rollback_journal_bank_storm_readers_always_see_the_fixed_total) {
  auto c = storm_config(JournalMode::rollback, LedgerVariant::bank);
  c.readers = 2;
  const auto v = storm(c);
  expect_sound_storm(c, v);
  EXPECT_EQ(v.balance_total, v.expected_balance_total);
}

TEST_F(LedgerStorm, writer_that_ledgers_before_commit_is_caught_as_committed_lost) {
  auto c = storm_config(JournalMode::wal, LedgerVariant::keyed);
  c.broken = BrokenWriter::ledger_before_commit;
  c.transactions_per_writer = 150;
  c.kills = 50;
  const auto v = storm(c);
  EXPECT_FALSE(v.passed());
  EXPECT_GT(v.lost, 0u) << explain(v);
  bool named = false;
  for (const auto& f : v.findings) named = named || f.find("not in the database") != f.npos;
  EXPECT_TRUE(named) << explain(v);
}

TEST_F(LedgerStorm, writer_that_releases_a_rolled_back_savepoint_is_caught) {
  auto c = storm_config(JournalMode::rollback, LedgerVariant::bank);
  c.broken = BrokenWriter::savepoint_leak;
  c.transactions_per_writer = 60;
  c.kills = 5;
  const auto v = storm(c);
  EXPECT_FALSE(v.passed());
  EXPECT_GT(v.rolled_back_visible, 0u) << explain(v);
  EXPECT_GT(v.state_mismatches, 0u);
  // The leak is an unbalanced credit: the readers' snapshots see the total broken too.
  EXPECT_GT(v.invariant_violations, 0u);
}

TEST_F(LedgerStorm, storm_that_overruns_its_timeout_ends_in_time_and_fails) {
  auto c = storm_config(JournalMode::wal, LedgerVariant::keyed);
  c.transactions_per_writer = 1000000;  // far more than fits in the timeout
  c.kills = 3;
  c.timeout_ms = 800;
  const auto v = storm(c);  // also checks that no incarnation is left running
  EXPECT_TRUE(v.timed_out);
  EXPECT_FALSE(v.passed());
  EXPECT_LT(v.storm_ms, 5000u);
  EXPECT_LT(v.writers_finished, c.writers);
  // What did commit before the end is still checked, and is sound.
  EXPECT_GT(v.committed, 0u);
  EXPECT_EQ(v.lost, 0u);
  EXPECT_EQ(v.visible_uncommitted, 0u);
  bool named = false;
  for (const auto& f : v.findings) named = named || f.find("did not end within 800 ms") != f.npos;
  EXPECT_TRUE(named) << explain(v);
}

TEST_F(LedgerStorm, storm_refuses_a_work_directory_that_holds_an_earlier_storm) {
  auto c = storm_config(JournalMode::wal, LedgerVariant::keyed);
  c.transactions_per_writer = 5;
  c.kills = 0;
  c.readers = 0;
  EXPECT_TRUE(storm(c).passed());
  std::ostringstream log;
  const auto again = run_ledger_storm(c, dir_.string(), JBENCH_LEDGER_WORKER_PATH, log);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().kind, ErrorKind::input);
}

}  // namespace
}  // namespace jbench::oracle::testing
