// Every fault a run can meet ends with a clear reason in the bundle, the next run going on, no
// process left behind and no bundle lost.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "run_support.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;

struct FaultCase {
  std::string fault;
  std::string status;  // of the faulty run
  std::string reason;  // a fragment of its reason
};

void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.fault; }

class RunFault : public ::testing::TestWithParam<FaultCase> {};

TEST_P(RunFault, fails_only_its_run_and_leaves_nothing_behind) {
  const auto& c = GetParam();
  TempDir dir;
  const std::string tag = unique_tag();
  RunInvocation inv;
  inv.args = {"--only", "workers=2",   "--only",       "connection=persistent",
              "--only", "lane=writer", "--worker-dir", fault_worker_dir()};
  inv.env = {{"JBENCH_FAULT", c.fault}, {"JBENCH_FAULT_RUN", ".r1"}};
  const auto r = run_jbench_run(dir, inv, tag);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty()) << "processes left behind";

  const std::string bundle = dir.path() + "/out/b";
  ASSERT_TRUE(fs::is_directory(bundle)) << r.err;
  const auto manifest = read_json(bundle + "/manifest.json");
  EXPECT_EQ(manifest["status"], "complete");
  ASSERT_EQ(manifest["runs"].size(), 2u);
  const auto& faulty = manifest["runs"][0];
  EXPECT_EQ(faulty["id"], "w2.persistent.writer.small.baseline.r1");
  EXPECT_EQ(faulty["status"], c.status) << faulty["reason"];
  EXPECT_NE(faulty["reason"].get<std::string>().find(c.reason), std::string::npos)
      << faulty["reason"];
  EXPECT_EQ(manifest["runs"][1]["status"], "ok") << manifest["runs"][1]["reason"];

  const auto run = read_json(bundle + "/runs/" + faulty["id"].get<std::string>() + "/run.json");
  EXPECT_EQ(run["status"], c.status);
  EXPECT_TRUE(run["leftover_processes"].empty());
  for (const auto& w : run["workers"]) EXPECT_FALSE(w["exit"].is_null());
  EXPECT_EQ(read_json(bundle + "/validation.json")["valid"], true);
}

INSTANTIATE_TEST_SUITE_P(
    Faults, RunFault,
    ::testing::Values(FaultCase{"silent", "timeout", "timed out waiting for \"hello\""},
                      FaultCase{"garbage", "failed", "not a protocol message"},
                      FaultCase{"exit_before_barrier", "failed", "exit 7"},
                      FaultCase{"hang_in_measure", "timeout", "\"measure_done\""},
                      FaultCase{"kill_in_measure", "failed", "signal 9"},
                      FaultCase{"spam_stderr", "failed", "output bound"},
                      // The protocol's rules, as `jbench check-worker` names them
                      // (check_worker_test.cpp): the run fails on the same sentence.
                      FaultCase{"wrong_version", "failed", "speaks protocol 2"},
                      FaultCase{"miscount_result", "failed", "operations_by_type adds up to"}),
    [](const ::testing::TestParamInfo<FaultCase>& param_info) { return param_info.param.fault; });

// A traced run whose worker fails before it is registered never attaches its collectors: the run
// fails with the worker's fault, no collector is told of a phase it never saw, and the session
// goes on (this once crashed jbench in a kill storm).
TEST(RunFaults, a_traced_run_whose_worker_fails_before_registration_fails_alone) {
  TempDir dir;
  const std::string tag = unique_tag();
  RunInvocation inv;
  inv.matrix = "traced.yaml";
  inv.traced = true;
  inv.args = {"--worker-dir", fault_worker_dir()};
  inv.env = {{"JBENCH_FAULT", "garbage"}, {"JBENCH_FAULT_RUN", ".light.r1"}};
  const auto r = run_jbench_run(dir, inv, tag);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty()) << "processes left behind";
  const std::string bundle = dir.path() + "/out/b";
  const auto manifest = read_json(bundle + "/manifest.json");
  ASSERT_FALSE(manifest.is_discarded()) << r.err;
  EXPECT_EQ(manifest["status"], "complete");
  int failed = 0;
  for (const auto& run : manifest["runs"]) {
    if (run["id"] == "w1.persistent.writer.small.light.r1") {
      ++failed;
      EXPECT_EQ(run["status"], "failed");
      EXPECT_NE(run["reason"].get<std::string>().find("not a protocol message"), std::string::npos)
          << run["reason"];
    } else {
      EXPECT_EQ(run["status"], "ok") << run["id"] << ": " << run["reason"];
    }
  }
  EXPECT_EQ(failed, 1);
  const auto run = read_json(bundle + "/runs/w1.persistent.writer.small.light.r1/run.json");
  EXPECT_EQ(run["trace_mode"]["attached"], false);
  EXPECT_TRUE(run["trace_mode"]["collectors"].empty());
}

TEST(RunFaults, a_worker_killed_mid_transaction_records_the_signal_from_the_kernel) {
  TempDir dir;
  const std::string tag = unique_tag();
  RunInvocation inv;
  inv.args = {"--only", "workers=1",   "--only",       "connection=persistent",
              "--only", "lane=writer", "--worker-dir", fault_worker_dir()};
  inv.env = {{"JBENCH_FAULT", "kill_in_measure"}};
  const auto r = run_jbench_run(dir, inv, tag);
  EXPECT_EQ(r.exit_code, 1);
  const auto run =
      read_json(dir.path() + "/out/b/runs/w1.persistent.writer.small.baseline.r2/run.json");
  ASSERT_FALSE(run.is_discarded()) << r.err;
  EXPECT_EQ(run["workers"][0]["exit"]["signaled"], true);
  EXPECT_EQ(run["workers"][0]["exit"]["signal"], SIGKILL);
  EXPECT_TRUE(processes_tagged(tag).empty());
}

TEST(RunFaults, a_process_a_worker_forks_joins_the_cohort_and_is_killed_at_teardown) {
  TempDir dir;
  const std::string tag = unique_tag();
  RunInvocation inv;
  inv.args = {"--only", "workers=1",   "--only",       "connection=persistent",
              "--only", "lane=writer", "--worker-dir", fault_worker_dir()};
  inv.env = {{"JBENCH_FAULT", "fork_child"}, {"JBENCH_FAULT_RUN", ".r1"}};
  const auto r = run_jbench_run(dir, inv, tag);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty()) << "the forked child outlived the session";
  const auto run =
      read_json(dir.path() + "/out/b/runs/w1.persistent.writer.small.baseline.r1/run.json");
  ASSERT_FALSE(run.is_discarded()) << r.err;
  const auto& members = run["cohort"]["members"];
  ASSERT_EQ(members.size(), 2u) << members.dump(2);
  EXPECT_EQ(members[1]["forked"], true);
  EXPECT_EQ(members[1]["ppid"], members[0]["pid"]);
  EXPECT_EQ(members[1]["comm"], "sleep");
  EXPECT_EQ(run["status"], "failed");
  EXPECT_NE(run["reason"].get<std::string>().find("still running after teardown"),
            std::string::npos)
      << run["reason"];
  EXPECT_EQ(run["leftover_processes"].size(), 1u);
}

TEST(RunFaults, sigterm_stops_the_workers_and_finalizes_the_bundle_as_interrupted) {
  TempDir dir;
  const std::string tag = unique_tag();
  RunInvocation inv;
  inv.signal = SIGTERM;
  inv.signal_when = "run 1/";  // the first run has ended: it is kept, the rest are cut
  const auto r = run_jbench_run(dir, inv, tag);
  ASSERT_FALSE(r.timed_out);
  ASSERT_TRUE(r.signal_sent) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty()) << "processes left behind";
  const std::string bundle = dir.path() + "/out/b.interrupted";
  ASSERT_TRUE(fs::is_directory(bundle)) << r.err;
  EXPECT_FALSE(fs::exists(dir.path() + "/out/b"));
  const auto manifest = read_json(bundle + "/manifest.json");
  EXPECT_EQ(manifest["status"], "interrupted");
  // The signal lands inside a run (then that run is `interrupted`) or between two (then none
  // is); either way the runs after it are `not_run`, never silently dropped.
  const auto& counts = manifest["run_counts"];
  EXPECT_GE(counts["ok"].get<int>(), 1);
  EXPECT_LE(counts["interrupted"].get<int>(), 1);
  EXPECT_GE(counts["not_run"].get<int>(), 1);
  EXPECT_EQ(
      counts["ok"].get<int>() + counts["interrupted"].get<int>() + counts["not_run"].get<int>(),
      static_cast<int>(manifest["runs"].size()));
  ProcessOptions options;
  options.cwd = bundle;
  EXPECT_EQ(run_process({"/usr/bin/sha256sum", "--quiet", "-c", "SHA256SUMS"}, options).exit_code,
            0);
}

// A full disk: the session still ends in bounded time, says what could not be written, and
// leaves what it wrote — as an .invalid bundle, or as the staging directory when not even
// SHA256SUMS fits. It never leaves a directory that looks like a valid bundle.
TEST(RunFaults, a_full_disk_leaves_an_invalid_bundle_or_the_staging_directory) {
  TempDir dir;
  const std::string out = dir.path() + "/small";
  fs::create_directory(out);
  if (mount("tmpfs", out.c_str(), "tmpfs", 0, "size=96k") != 0) {
    GTEST_SKIP() << "cannot mount a small tmpfs here (" << std::strerror(errno)
                 << "); the full-disk path needs CAP_SYS_ADMIN";
  }
  struct Unmount {
    std::string path;
    ~Unmount() { umount2(path.c_str(), MNT_DETACH); }
  } unmount{out};
  const std::string tag = unique_tag();
  RunInvocation inv;
  inv.out = out + "/out";
  inv.args = {"--only",    "workers=1",
              "--only",    "connection=persistent",
              "--scratch", dir.path() + "/scratch"};
  const auto r = run_jbench_run(dir, inv, tag);
  // An output that could not be written, as in every command that leaves a bundle.
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty());
  bool evidence = false;
  for (const auto& entry : fs::directory_iterator(out + "/out")) {
    const std::string name = entry.path().filename().string();
    EXPECT_NE(name, "b") << "a bundle that could not be written whole must not look valid";
    evidence = evidence || name == "b.invalid" || name.rfind(".staging-b-", 0) == 0;
  }
  EXPECT_TRUE(evidence);
}

TEST(RunFaults, a_missing_workload_binary_is_refused_before_anything_runs) {
  TempDir dir;
  RunInvocation inv;
  inv.args = {"--worker-dir", dir.path() + "/nowhere"};
  const auto r = run_jbench_run(dir, inv, unique_tag());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(dir.path() + "/nowhere/jbench-sqlite-worker does not exist"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir.path() + "/out/b"));
}

TEST(RunFaults, a_scratch_directory_that_cannot_be_written_is_refused_before_anything_runs) {
  TempDir dir;
  RunInvocation inv;
  inv.args = {"--scratch", "/proc/jbench-scratch"};
  const auto r = run_jbench_run(dir, inv, unique_tag());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot create the scratch directory /proc/jbench-scratch"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir.path() + "/out/b"));
}

}  // namespace
}  // namespace jbench::test
