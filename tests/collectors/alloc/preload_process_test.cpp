// Which processes land in which file: only preloaded processes are sampled, each incarnation
// writes its own file, and an unrelated process of the same executable leaves no trace.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "alloc_target_run.h"
#include "jbench/alloc/alloc_summary.h"
#include "jbench/events/event_file.h"
#include "temp_dir.h"

namespace jbench::alloc_test {
namespace {

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::set<std::int64_t> record_pids(const std::string& path) {
  std::set<std::int64_t> pids;
  for (const auto& l : read_json_lines(path)) {
    if (l.value("kind", "") == "record") pids.insert(l["pid"].get<std::int64_t>());
  }
  return pids;
}

void expect_estimate(const std::string& path, const TargetLine& truth, const char* what) {
  const auto summary = summary_record(read_json_lines(path));
  ASSERT_TRUE(summary.is_object()) << what << ": no summary in " << path;
  const double estimate = static_cast<double>(decimal(summary["estimated_bytes"]));
  const double bytes = static_cast<double>(truth.allocated_bytes());
  EXPECT_LE(std::fabs(estimate - bytes), 0.05 * bytes)
      << what << ": estimate " << estimate << " vs " << bytes << " allocated";
}

TEST(AllocProcesses, an_unrelated_process_of_the_same_executable_is_not_in_the_file) {
  // A is the cohort's process (preloaded, with a file); B is the same executable allocating
  // more, at the same time, without the library; C has the library but no file to write.
  ASSERT_LT(estimate_miss_probability(512 * 1024, 8.0 * kGiB, kLargestAllocation, 0.05), 1e-6);
  ::unsetenv("JBENCH_ALLOC_OUT");  // C inherits the test's environment: it must hold no file
  test::TempDir dir;
  const std::string out = dir.path() + "/alloc.events.jsonl";
  TargetRun a, b, c;
  std::thread tb([&] { b = run_target({"mixed", std::to_string(16 * kGiB)}, false); });
  std::thread tc([&] { c = run_target({"mixed", std::to_string(8 * kGiB)}, true); });
  a = run_target({"mixed", std::to_string(8 * kGiB)}, true, {{"JBENCH_ALLOC_OUT", out}});
  tb.join();
  tc.join();
  ASSERT_EQ(a.process.exit_code, 0) << a.process.err;
  ASSERT_EQ(b.process.exit_code, 0) << b.process.err;
  ASSERT_EQ(c.process.exit_code, 0) << c.process.err;
  const TargetLine main = a.line("main");
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"alloc.events.jsonl"})
      << "neither B nor C wrote a file";
  EXPECT_EQ(record_pids(out), std::set<std::int64_t>{main.pid()});
  const auto checked = check_event_file(out, context_of({main}));
  EXPECT_TRUE(checked.ok()) << describe(checked);
  expect_estimate(out, main, "A alone");  // B's 16 GiB would put A's estimate off by 200%
}

class AllocFork : public ::testing::TestWithParam<const char*> {};

TEST_P(AllocFork, the_child_writes_its_own_file_as_its_own_incarnation) {
  const std::uint64_t each = 2 * kGiB;
  ASSERT_LT(estimate_miss_probability(65536, static_cast<double>(each), kLargestAllocation, 0.05),
            1e-6);
  test::TempDir dir;
  const std::string out = dir.path() + "/alloc.events.jsonl";
  const TargetRun run =
      run_target({"fork", std::to_string(each), std::to_string(each), GetParam()}, true,
                 {{"JBENCH_ALLOC_OUT", out}, {"JBENCH_ALLOC_MEAN_BYTES", "65536"}});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  EXPECT_EQ(run.process.err, "");
  const TargetLine parent = run.line("parent");
  const TargetLine child = run.line("child");
  const std::string child_file = out + "." + std::to_string(child.pid());
  EXPECT_EQ(alloc::find_alloc_files(out), (std::vector<std::string>{out, child_file}));

  EXPECT_EQ(record_pids(out), std::set<std::int64_t>{parent.pid()});
  EXPECT_EQ(record_pids(child_file), std::set<std::int64_t>{child.pid()});
  const auto child_lines = read_json_lines(child_file);
  ASSERT_FALSE(child_lines.empty());
  const auto& header = child_lines.front();
  EXPECT_EQ(header.value("origin", ""), "fork");
  EXPECT_EQ(header.value("ppid", std::int64_t{0}), parent.pid());
  EXPECT_EQ(decimal(header["start_time_ticks"]), child.start_time_ticks());
  EXPECT_NE(header["sampling"]["seed"], read_json_lines(out).front()["sampling"]["seed"])
      << "a child samples with its own seed";
  // Each file counts its own process's bytes, not the other's.
  expect_estimate(out, parent, "parent");
  expect_estimate(child_file, child, "child");

  const auto report =
      alloc::read_alloc_files(alloc::find_alloc_files(out), context_of({parent, child}), {});
  EXPECT_TRUE(report.ok()) << report.problems.front().code << ": "
                           << report.problems.front().message;
  ASSERT_EQ(report.incarnations.size(), 2u);
  EXPECT_EQ(report.incarnations[1].pid, child.pid());
  EXPECT_EQ(report.incarnations[1].ppid, parent.pid());
}

INSTANTIATE_TEST_SUITE_P(ExitPaths, AllocFork, ::testing::Values("exit", "_exit"),
                         [](const auto& param_info) {
                           return std::string(param_info.param) == "exit" ? "exit"
                                                                          : "underscore_exit";
                         });

TEST(AllocProcesses, a_spawned_child_writes_a_pid_suffixed_file) {
  test::TempDir dir;
  const std::string out = dir.path() + "/alloc.events.jsonl";
  const TargetRun run =
      run_target({"spawn", std::to_string(kGiB / 4), std::to_string(2 * kGiB)}, true,
                 {{"JBENCH_ALLOC_OUT", out}, {"JBENCH_ALLOC_MEAN_BYTES", "65536"}});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  const TargetLine parent = run.line("parent");
  const TargetLine child = run.line("main");
  const std::string child_file = out + "." + std::to_string(child.pid());
  EXPECT_EQ(alloc::find_alloc_files(out), (std::vector<std::string>{out, child_file}));
  EXPECT_EQ(record_pids(child_file), std::set<std::int64_t>{child.pid()});
  const auto header = read_json_lines(child_file).front();
  EXPECT_EQ(header.value("origin", ""), "start");
  EXPECT_EQ(header.value("ppid", std::int64_t{0}), parent.pid());
  expect_estimate(child_file, child, "spawned child");
  const auto checked = check_event_file(child_file, context_of({child}));
  EXPECT_TRUE(checked.ok()) << describe(checked);
}

TEST(AllocProcesses, an_exec_of_the_same_process_takes_its_file_over) {
  test::TempDir dir;
  const std::string out = dir.path() + "/alloc.events.jsonl";
  const TargetRun run =
      run_target({"exec", std::to_string(6 * kGiB), std::to_string(2 * kGiB)}, true,
                 {{"JBENCH_ALLOC_OUT", out}, {"JBENCH_ALLOC_MEAN_BYTES", "65536"}});
  ASSERT_EQ(run.process.exit_code, 0) << run.process.err;
  EXPECT_EQ(run.process.err, "");
  const TargetLine main = run.line("main");
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"alloc.events.jsonl"});
  const auto checked = check_event_file(out, context_of({main}));
  EXPECT_TRUE(checked.ok()) << describe(checked);
  // Only the image after the exec wrote samples: the 6 GiB before it had no exit to write them.
  expect_estimate(out, main, "after exec");
}

}  // namespace
}  // namespace jbench::alloc_test
