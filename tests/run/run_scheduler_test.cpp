// The scheduler's split of the workers' time, end to end: `jbench run` pinned to one CPU with one
// and with two CPU-bound workers, then `jbench report`. Two workers each wait for the CPU while
// the other runs, so the runnable share is at least about half (more if anything else runs on
// that CPU), larger than one worker's alone, the three parts close, the compiled tracer names the
// wait as a part (off-cpu:runnable), and the scaling names the runnable wait as what grew.
#include <gtest/gtest.h>

#include "jbench/common/path_search.h"
#include "run_support.h"

namespace jbench::test {
namespace {

using nlohmann::json;

TEST(RunScheduler, two_workers_pinned_to_one_cpu_each_wait_for_it_while_the_other_runs) {
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
  ASSERT_EQ(r["cells"].size(), 2u) << report.out;
  const json& cell = r["cells"][0]["values"]["workers"] == "2" ? r["cells"][0] : r["cells"][1];
  const json& alone = r["cells"][0]["values"]["workers"] == "2" ? r["cells"][1] : r["cells"][0];
  ASSERT_EQ(cell["values"]["workers"], "2");
  ASSERT_TRUE(alone["scheduler"].is_object()) << alone.dump();
  ASSERT_TRUE(cell["scheduler"].is_object()) << cell.dump();
  const double on_cpu = cell["scheduler"]["on_cpu"]["share"];
  const double runnable = cell["scheduler"]["runnable"]["share"];
  const double blocked = cell["scheduler"]["blocked"]["share"];
  // Each waits at least about while the other runs; other load on that CPU only adds to it.
  EXPECT_GT(runnable, 0.3) << cell["scheduler"];
  EXPECT_GT(runnable, alone["scheduler"]["runnable"]["share"].get<double>())
      << cell["scheduler"] << " " << alone["scheduler"];
  EXPECT_NEAR(on_cpu + runnable + blocked, 1.0, 0.05) << cell["scheduler"];
  // The compiled tracer names the same wait as a part of its own (light: kernel totals), outside
  // every traced call, and what is left was on the CPU.
  const json* runnable_part = nullptr;
  const json* rest = nullptr;
  for (const auto& p : cell["parts"]) {
    if (p["label"] == "runnable waits for a CPU (outside traced calls)") runnable_part = &p;
    if (p["kind"] == "rest") rest = &p;
  }
  ASSERT_NE(runnable_part, nullptr)
      << "no off-cpu:runnable part (is the compiled tracer here?) " << cell["parts"].dump();
  EXPECT_GT((*runnable_part)["share"].get<double>(), 0.3) << runnable_part->dump();
  ASSERT_NE(rest, nullptr);
  EXPECT_EQ((*rest)["label"], "rest: on a CPU outside traced calls (user code, untraced calls)");
  // The scaling names the state that grew: the second worker's wait for the one CPU.
  ASSERT_EQ(r["scaling"].size(), 1u);
  bool runnable_grows = false;
  for (const auto& c : r["scaling"][0]["growing_costs"]) {
    runnable_grows = runnable_grows || c["label"] == "scheduler: runnable (waiting for a CPU)";
  }
  EXPECT_TRUE(runnable_grows) << r["scaling"][0].dump();
  // The text says it beside the parts.
  const auto text = run_process({JBENCH_BINARY, "report", bundle});
  EXPECT_NE(text.out.find("runnable (waiting for a CPU)"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace jbench::test
