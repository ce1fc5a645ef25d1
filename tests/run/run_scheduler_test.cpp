// The scheduler's split of the workers' time, end to end: `jbench run` pinned to one CPU with two
// CPU-bound workers, then `jbench report`. Each worker waits for the CPU while the other runs, so
// the report's runnable share is about half, on-CPU about half, and the three parts close.
#include <gtest/gtest.h>

#include "jbench/common/path_search.h"
#include "run_support.h"

namespace jbench::test {
namespace {

using nlohmann::json;

TEST(RunScheduler, two_workers_pinned_to_one_cpu_are_each_runnable_about_half_the_time) {
  const std::string taskset = find_on_path("taskset");  // util-linux, in every Debian
  ASSERT_FALSE(taskset.empty()) << "taskset is not on PATH";
  TempDir dir;
  const std::string bundle = dir.path() + "/out/pinned";
  ProcessOptions options;
  options.timeout = std::chrono::seconds(120);
  options.env.emplace_back("JBENCH_TEST_TAG", unique_tag());
  const auto run = run_process({taskset, "-c", "0", JBENCH_BINARY, "run", fixture("scheduler.yaml"),
                                "--out", dir.path() + "/out", "--name", "pinned"},
                               options);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto report = run_process({JBENCH_BINARY, "report", bundle, "--json"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const json r = json::parse(report.out);
  ASSERT_EQ(r["cells"].size(), 1u) << report.out;
  const json& cell = r["cells"][0];
  ASSERT_TRUE(cell["scheduler"].is_object()) << cell.dump();
  const double on_cpu = cell["scheduler"]["on_cpu"]["share"];
  const double runnable = cell["scheduler"]["runnable"]["share"];
  const double blocked = cell["scheduler"]["blocked"]["share"];
  EXPECT_GT(runnable, 0.3) << cell["scheduler"];
  EXPECT_LT(runnable, 0.7) << cell["scheduler"];
  EXPECT_GT(on_cpu, 0.3) << cell["scheduler"];
  EXPECT_NEAR(on_cpu + runnable + blocked, 1.0, 0.05) << cell["scheduler"];
  // The text says it beside the parts.
  const auto text = run_process({JBENCH_BINARY, "report", bundle});
  EXPECT_NE(text.out.find("runnable (waiting for a CPU)"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace jbench::test
