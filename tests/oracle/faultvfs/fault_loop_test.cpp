// The fault loop end to end on real files: it visits every I/O point, passes with SQLite's
// defaults, and catches a deliberately unsafe setting.
#include "jbench/oracle/fault_loop.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <numeric>

#include "temp_dir.h"

namespace jbench::oracle {
namespace {

FaultLoopVerdict run(const FaultLoopConfig& config) {
  jbench::test::TempDir dir;
  auto verdict = run_fault_loop(config, dir.path());
  if (!verdict) ADD_FAILURE() << verdict.error().message;
  return std::move(verdict).value();
}

std::string describe(const FaultModeResult& mode) {
  std::string out;
  for (const FaultFinding& f : mode.findings) {
    out += std::string(to_string(mode.mode)) + " " + std::string(to_string(f.kind)) + " @" +
           std::to_string(f.point) + " (" + std::string(to_string(f.op)) +
           "): " + std::string(to_string(f.what)) + " " + f.detail + "\n";
  }
  return out;
}

std::uint64_t points_of(const FaultModeResult& mode, const std::vector<IoOp>& ops) {
  std::uint64_t n = 0;
  for (IoOp op : ops) n += mode.fault_free_counts.of(op);
  return n;
}

TEST(FaultLoop, visits_every_io_point_of_its_transaction_set_and_records_the_count) {
  FaultLoopConfig config;  // both journal modes, all three kinds, synchronous=FULL
  FaultLoopVerdict verdict = run(config);
  ASSERT_EQ(verdict.modes.size(), 2u);
  for (const FaultModeResult& mode : verdict.modes) {
    EXPECT_GT(mode.faultable_points, 0u);
    EXPECT_EQ(mode.faultable_points, points_of(mode, config.ops)) << to_string(mode.mode);
    for (FaultKind kind : config.kinds) {
      EXPECT_EQ(mode.visited_of(kind), mode.faultable_points)
          << to_string(mode.mode) << " " << to_string(kind);
    }
    EXPECT_TRUE(mode.findings.empty()) << describe(mode);
  }
  EXPECT_TRUE(verdict.passed());
  nlohmann::json j = verdict.to_json();
  EXPECT_EQ(j["passed"], true);
  ASSERT_EQ(j["modes"].size(), 2u);
  EXPECT_EQ(j["modes"][0]["visited"]["power_loss"], verdict.modes[0].faultable_points);
  EXPECT_EQ(j["modes"][1]["io_points"]["sync"], verdict.modes[1].fault_free_counts.of(IoOp::sync));
}

TEST(FaultLoop, reports_synchronous_off_under_power_loss_as_committed_lost) {
  FaultLoopConfig config;
  config.synchronous = "OFF";
  config.kinds = {FaultKind::power_loss};
  FaultLoopVerdict verdict = run(config);
  EXPECT_FALSE(verdict.passed());
  for (const FaultModeResult& mode : verdict.modes) {
    auto lost = std::find_if(mode.findings.begin(), mode.findings.end(), [](const auto& f) {
      return f.what == FaultFindingKind::committed_lost;
    });
    ASSERT_NE(lost, mode.findings.end()) << to_string(mode.mode) << "\n" << describe(mode);
    EXPECT_GE(lost->point, 1u);
    EXPECT_LE(lost->point, mode.faultable_points);
    EXPECT_GE(lost->transaction, 1u);
    EXPECT_LE(lost->transaction, lost->acknowledged);
    EXPECT_FALSE(lost->transaction_name.empty());
    EXPECT_EQ(mode.visited_of(FaultKind::power_loss), mode.faultable_points);
  }
  nlohmann::json j = verdict.to_json();
  EXPECT_EQ(j["passed"], false);
  EXPECT_EQ(j["modes"][0]["findings"][0]["kind"], "power_loss");
}

TEST(FaultLoop, persistent_write_failures_never_corrupt_in_either_journal_mode) {
  FaultLoopConfig config;
  config.kinds = {FaultKind::persistent_error};
  config.ops = {IoOp::write};
  FaultLoopVerdict verdict = run(config);
  ASSERT_EQ(verdict.modes.size(), 2u);
  for (const FaultModeResult& mode : verdict.modes) {
    EXPECT_EQ(mode.faultable_points, mode.fault_free_counts.of(IoOp::write));
    EXPECT_EQ(mode.visited_of(FaultKind::persistent_error), mode.faultable_points);
    for (const FaultFinding& f : mode.findings) {
      EXPECT_NE(f.what, FaultFindingKind::integrity) << describe(mode);
    }
  }
  EXPECT_TRUE(verdict.passed()) << describe(verdict.modes[0]) << describe(verdict.modes[1]);
}

TEST(FaultLoop, synchronous_full_survives_power_loss_with_any_unsynced_sectors_written_back) {
  FaultLoopConfig config;
  config.kinds = {FaultKind::power_loss};
  config.unsynced_sector_survival = 0.5;
  FaultLoopVerdict verdict = run(config);
  ASSERT_EQ(verdict.modes.size(), 2u);
  EXPECT_TRUE(verdict.passed()) << describe(verdict.modes[0]) << describe(verdict.modes[1]);
}

TEST(FaultLoop, reports_synchronous_off_with_partial_write_back_as_corruption) {
  FaultLoopConfig config;
  config.journal_modes = {FaultJournalMode::rollback};
  config.synchronous = "OFF";
  config.kinds = {FaultKind::power_loss};
  config.unsynced_sector_survival = 0.5;
  FaultLoopVerdict verdict = run(config);
  ASSERT_EQ(verdict.modes.size(), 1u);
  const auto& findings = verdict.modes[0].findings;
  EXPECT_TRUE(std::any_of(findings.begin(), findings.end(), [](const auto& f) {
    return f.what == FaultFindingKind::integrity;
  })) << describe(verdict.modes[0]);
}

TEST(FaultLoop, the_fault_free_count_depends_only_on_the_config) {
  FaultLoopConfig config;
  config.kinds = {FaultKind::transient_error};
  config.journal_modes = {FaultJournalMode::rollback};
  FaultLoopVerdict a = run(config);
  FaultLoopVerdict b = run(config);
  EXPECT_EQ(a.modes[0].fault_free_counts.per_op, b.modes[0].fault_free_counts.per_op);
  EXPECT_EQ(a.modes[0].findings.size(), b.modes[0].findings.size());
}

TEST(FaultLoop, refuses_a_synchronous_value_that_is_not_a_setting) {
  FaultLoopConfig config;
  config.synchronous = "FULL; DROP TABLE t";
  jbench::test::TempDir dir;
  auto verdict = run_fault_loop(config, dir.path());
  ASSERT_FALSE(verdict.ok());
  EXPECT_EQ(verdict.error().kind, ErrorKind::input);
}

TEST(FaultLoop, refuses_a_sector_survival_chance_outside_zero_to_one) {
  FaultLoopConfig config;
  config.unsynced_sector_survival = 1.5;
  jbench::test::TempDir dir;
  auto verdict = run_fault_loop(config, dir.path());
  ASSERT_FALSE(verdict.ok());
  EXPECT_EQ(verdict.error().kind, ErrorKind::input);
}

TEST(FaultLoop, refuses_a_set_above_its_point_bound) {
  FaultLoopConfig config;
  config.max_points = 3;
  jbench::test::TempDir dir;
  auto verdict = run_fault_loop(config, dir.path());
  ASSERT_FALSE(verdict.ok());
  EXPECT_EQ(verdict.error().kind, ErrorKind::input);
}

}  // namespace
}  // namespace jbench::oracle
