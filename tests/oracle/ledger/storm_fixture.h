// What the storm tests share: a fresh work directory per test, the worker's path, and the
// check that no incarnation outlived its storm.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>

#include "jbench/oracle/ledger.h"
#include "jbench/proc/proc_stat.h"

namespace jbench::oracle::testing {

inline std::string explain(const LedgerVerdict& v) { return v.to_json().dump(2); }

class LedgerStorm : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           (std::string("jbench-ledger-") + info->name() + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }

  LedgerVerdict storm(const LedgerConfig& config) {
    std::ostringstream log;
    auto verdict = run_ledger_storm(config, dir_.string(), JBENCH_LEDGER_WORKER_PATH, log);
    EXPECT_TRUE(verdict.ok()) << (verdict.ok() ? "" : verdict.error().message);
    if (!verdict.ok()) return {};
    expect_no_incarnation_left(*verdict);
    const auto& v = *verdict;
    // One line per storm, so a log shows what was exercised.
    std::cout << "storm: kills " << v.kills_done << ", committed " << v.committed
              << ", unledgered after kill " << v.unledgered_after_kill << ", lost " << v.lost
              << ", visible uncommitted " << v.visible_uncommitted << ", rolled back visible "
              << v.rolled_back_visible << ", savepoints rolled back " << v.savepoints_rolled_back
              << ", aborts " << v.aborted_attempts << ", snapshots " << v.reader_snapshots
              << ", violations " << v.invariant_violations << ", busy " << v.busy_retries
              << ", torn " << v.torn_final_lines << ", " << v.storm_ms << " ms; kill points";
    for (const auto& [point, count] : v.kill_points) std::cout << " " << point << "=" << count;
    std::cout << "\n";
    return v;
  }

  // Every registered incarnation is gone: no process with its pid and start time remains.
  static void expect_no_incarnation_left(const LedgerVerdict& v) {
    for (const auto& inc : v.incarnations) {
      const auto stat = proc::read_proc_stat(inc.pid);
      EXPECT_FALSE(stat && stat->start_time_ticks == inc.start_time_ticks)
          << inc.role << " " << inc.index << "." << inc.incarnation << " (pid " << inc.pid
          << ") is still running";
    }
  }

  std::filesystem::path dir_;
};

}  // namespace jbench::oracle::testing
