// The runner's ordering, timeout and failure paths against a fake world (fake_world.h): no
// worker process is started and no deadline is waited out for real, so each case takes
// milliseconds. The same paths with real workers are in run_faults_test.cpp.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "fake_world.h"
#include "jbench/matrix/load.h"
#include "jbench/plan/plan.h"
#include "run_one.h"

namespace jbench::run::fakes {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMatrix = R"(version: 1
name: fakes
seed: 7
repetitions: 2
workload: {kind: sqlite, params: {ops_per_transaction: 4}}
phases: {warmup: {operations: 5}, measure: {operations: 10}}
limits: {max_workers: 1, run_timeout_s: 30, output_mib: 1}
axes:
  workers: [1]
  connection: [persistent]
  lane: [writer]
  dataset: [{name: tiny, rows: 10, row_bytes: 8, page_cache_kib: 64}]
  trace: [baseline]
)";

class RunnerWithFakes : public ::testing::Test {
 protected:
  void SetUp() override {
    auto loaded = parse_matrix(kMatrix, "fakes.yaml");
    ASSERT_TRUE(loaded.matrix) << (loaded.diagnostics.empty() ? "" : loaded.diagnostics[0].message);
    matrix_ = std::make_unique<Matrix>(*loaded.matrix);
    plan_ = make_plan(*matrix_, {}, HostResources{2, 4096});
    ASSERT_EQ(plan_.runs.size(), 2u);
    dir_ = fs::temp_directory_path() /
           ("jbench-fakes-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    dataset_.path = (dir_ / "dataset.sqlite").string();
    std::ofstream(dataset_.path) << "not a database: the fake workers never open it";
  }
  void TearDown() override { fs::remove_all(dir_); }

  RunRecord run(std::size_t index, const proc::InterruptWatch& interrupt) {
    RunSpec spec;
    spec.plan = &plan_;
    spec.run_index = index;
    spec.run_id = run_id(plan_, plan_.runs[index]);
    spec.worker = {"/nonexistent/jbench-sqlite-worker"};  // never executed
    spec.scratch_dir = (dir_ / "scratch" / spec.run_id).string();
    spec.logs_dir = (dir_ / spec.run_id / "logs").string();
    spec.run_dir = (dir_ / spec.run_id).string();
    spec.dataset = &dataset_;
    spec.spawner = &spawner_;
    spec.clock = &clock_;
    return execute_run(spec, interrupt);
  }

  bool happened(const std::string& event) const {
    return std::find(spawner_.events.begin(), spawner_.events.end(), event) !=
           spawner_.events.end();
  }

  std::unique_ptr<Matrix> matrix_;
  Plan plan_;
  fs::path dir_;
  BuiltDataset dataset_;
  FakeClock clock_;
  FakeSpawner spawner_{clock_};
};

TEST_F(RunnerWithFakes, AWellBehavedWorkerRunsEveryPhaseInProtocolOrder) {
  proc::InterruptWatch interrupt;
  const RunRecord r = run(0, interrupt);
  EXPECT_EQ(r.status, RunStatus::ok) << r.reason;
  const std::vector<std::string> order = {
      "spawn worker 0", "release worker 0", "<- hello",        "-> configure",
      "<- ready",       "-> canary",        "<- canary_done",  "-> start",
      "<- warmup_done", "-> measure",       "<- measure_done", "<- result",
      "-> exit",        "<- bye",           "signal group 9",  "reaped worker 0"};
  EXPECT_EQ(spawner_.events, order);
  // The phases were timed in order on the run's clock.
  const auto& b = r.run["boundaries"];
  EXPECT_LT(std::stoull(b["warmup_start_ns"].get<std::string>()),
            std::stoull(b["measure_start_ns"].get<std::string>()) + 1);
  EXPECT_LE(std::stoull(b["measure_start_ns"].get<std::string>()),
            std::stoull(b["teardown_start_ns"].get<std::string>()));
}

TEST_F(RunnerWithFakes, AWorkerThatNeverSaysHelloTimesOutAtStartupAndIsKilled) {
  spawner_.script.says_hello = false;
  proc::InterruptWatch interrupt;
  const std::uint64_t before = clock_.now_ns();
  const RunRecord r = run(0, interrupt);
  EXPECT_EQ(r.status, RunStatus::timeout);
  EXPECT_NE(r.reason.find("timed out waiting for \"hello\" from worker(s) 0"), std::string::npos)
      << r.reason;
  // The startup budget (10 s by default) passed on the run's clock, not in real time.
  EXPECT_GE(clock_.now_ns() - before, 10'000'000'000ULL);
  EXPECT_FALSE(happened("-> configure"));
  EXPECT_FALSE(happened("-> start"));
  EXPECT_TRUE(happened("kill worker 0"));
  EXPECT_TRUE(happened("reaped worker 0"));
  // The collectors attached to the admitted worker before its release; its hello never came, so
  // they list no evidence, and the cohort lists it unconfirmed (no runtime id).
  EXPECT_TRUE(happened("release worker 0"));
  EXPECT_EQ(r.run["trace_mode"]["attached"], false);
  ASSERT_EQ(r.run["cohort"]["members"].size(), 1u);
  EXPECT_TRUE(r.run["cohort"]["members"][0]["runtime_id"].is_null());
}

TEST_F(RunnerWithFakes, ATimeoutInMeasureEndsTheRunAsTimeoutAfterItsBoundaries) {
  spawner_.script.answers["measure"] = {};  // silent once measuring
  proc::InterruptWatch interrupt;
  const RunRecord r = run(0, interrupt);
  EXPECT_EQ(r.status, RunStatus::timeout);
  EXPECT_NE(r.reason.find("\"measure_done\""), std::string::npos) << r.reason;
  const auto& b = r.run["boundaries"];
  ASSERT_TRUE(b.contains("measure_start_ns"));
  ASSERT_TRUE(b.contains("teardown_start_ns"));
  // Its whole budget went to waiting: teardown began at the run's deadline (30 s after start).
  const auto start = std::stoull(b["startup_start_ns"].get<std::string>());
  const auto teardown = std::stoull(b["teardown_start_ns"].get<std::string>());
  EXPECT_GE(teardown - start, 30'000'000'000ULL);
  // A timed-out run is not asked to exit politely: its workers are killed.
  EXPECT_FALSE(happened("-> exit"));
  EXPECT_TRUE(happened("kill worker 0"));
  EXPECT_TRUE(r.results.empty());
}

TEST_F(RunnerWithFakes, SigtermBetweenRunsLeavesTheNextRunInterruptedBeforeRelease) {
  proc::InterruptWatch interrupt;
  const RunRecord first = run(0, interrupt);
  ASSERT_EQ(first.status, RunStatus::ok) << first.reason;
  ASSERT_EQ(raise(SIGTERM), 0);  // caught by the watch: the harness is asked to stop
  ASSERT_TRUE(interrupt.interrupted());
  spawner_.events.clear();
  const RunRecord second = run(1, interrupt);
  EXPECT_EQ(second.status, RunStatus::interrupted);
  EXPECT_NE(second.reason.find("interrupted by signal 15"), std::string::npos) << second.reason;
  // Nothing of the second run was released, and its worker did not outlive it.
  EXPECT_FALSE(happened("-> start"));
  EXPECT_FALSE(happened("-> measure"));
  EXPECT_TRUE(happened("reaped worker 0"));
}

}  // namespace
}  // namespace jbench::run::fakes
