// Crash states from one recorded run, on real SQLite files: at synchronous=FULL every state a
// crash could leave — synced data, any subset of the unsynced writes, a torn write — recovers to
// exactly the committed transactions in both journal modes; at synchronous=OFF, the control,
// committed transactions are lost; the record is the run's own (its bytes replay to the database
// the run left).
#include "jbench/oracle/crash_states.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "temp_dir.h"

namespace jbench::oracle {
namespace {

CrashStateVerdict explore(const CrashStateConfig& config) {
  jbench::test::TempDir dir;
  auto v = explore_crash_states(config, dir.path());
  if (!v) ADD_FAILURE() << v.error().message;
  return std::move(v).value();
}

std::string describe(const CrashStateVerdict& v) {
  std::string out;
  for (const CrashFinding& f : v.findings) {
    out += std::string(to_string(f.what)) + " before event " + std::to_string(f.event) + " (" +
           std::to_string(f.acknowledged) + " acknowledged; " + f.variant + "): " + f.detail + "\n";
  }
  return out;
}

class CrashStatesFull : public ::testing::TestWithParam<FaultJournalMode> {};

TEST_P(CrashStatesFull, every_state_a_crash_leaves_holds_exactly_the_committed_transactions) {
  CrashStateConfig config;
  config.journal_mode = GetParam();
  config.transactions = 60;
  const CrashStateVerdict v = explore(config);
  EXPECT_TRUE(v.findings.empty()) << describe(v);
  EXPECT_TRUE(v.passed());
  EXPECT_EQ(v.transactions_committed, 60u);
  // A sync per commit at least, and states beyond the synced ones at each.
  EXPECT_GE(v.syncs, 60u);
  EXPECT_GE(v.crash_points, 60u);
  EXPECT_GT(v.states_explored, v.crash_points);
  const nlohmann::json j = v.to_json();
  EXPECT_EQ(j["states_explored"], v.states_explored);
  EXPECT_EQ(j["config"]["journal_mode"], to_string(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Oracle, CrashStatesFull,
                         ::testing::Values(FaultJournalMode::wal, FaultJournalMode::rollback),
                         [](const auto& p) { return std::string(to_string(p.param)); });

// The control: with synchronous=OFF nothing is synced, so a crash after a commit loses it.
TEST(CrashStates, synchronous_off_loses_committed_transactions_in_both_journal_modes) {
  for (FaultJournalMode mode : {FaultJournalMode::wal, FaultJournalMode::rollback}) {
    CrashStateConfig config;
    config.journal_mode = mode;
    config.synchronous = "OFF";
    config.transactions = 20;
    const CrashStateVerdict v = explore(config);
    EXPECT_FALSE(v.passed()) << to_string(mode);
    bool lost = false;
    for (const CrashFinding& f : v.findings)
      lost = lost || f.what == FaultFindingKind::committed_lost;
    EXPECT_TRUE(lost) << to_string(mode) << "\n" << describe(v);
  }
}

// The same seed explores the same states; a run that cannot start says why.
TEST(CrashStates, the_exploration_is_seeded_and_a_bad_setting_is_an_error) {
  CrashStateConfig config;
  config.transactions = 15;
  const CrashStateVerdict a = explore(config);
  const CrashStateVerdict b = explore(config);
  EXPECT_EQ(a.states_explored, b.states_explored);
  EXPECT_EQ(a.events, b.events);
  jbench::test::TempDir dir;
  config.synchronous = "SOMETIMES";
  auto refused = explore_crash_states(config, dir.path());
  ASSERT_FALSE(refused);
}

}  // namespace
}  // namespace jbench::oracle
