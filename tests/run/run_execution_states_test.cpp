// What the manifest says execution delivered: a value is `measured` only where one of its runs
// ended ok. Here every writer run fails (the fault worker exits before the barrier), every mixed
// run succeeds.
#include <gtest/gtest.h>

#include <filesystem>

#include "run_support.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const json* value_state(const json& execution, const std::string& axis, const std::string& v) {
  for (const auto& a : execution["axes"]) {
    if (a["axis"] != axis) continue;
    for (const auto& value : a["values"]) {
      if (value["value"] == v) return &value;
    }
  }
  return nullptr;
}

TEST(RunExecutionStates, a_value_whose_runs_all_failed_is_not_measured_and_the_session_exits_1) {
  TempDir dir;
  const std::string tag = unique_tag();
  RunInvocation inv;
  inv.args = {"--only",       "workers=1",       "--only", "connection=persistent",
              "--worker-dir", fault_worker_dir()};
  inv.env = {{"JBENCH_FAULT", "exit_before_barrier"}, {"JBENCH_FAULT_RUN", ".writer."}};
  const auto r = run_jbench_run(dir, inv, tag);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("not measured: lane=writer was meant to be measured but is "
                       "attempted_failed"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("not measured: lane=mixed"), std::string::npos) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty());

  const std::string bundle = dir.path() + "/out/b";
  ASSERT_TRUE(fs::is_directory(bundle)) << r.err;
  const auto manifest = read_json(bundle + "/manifest.json");
  const json& execution = manifest["execution"];
  const json* writer = value_state(execution, "lane", "writer");
  const json* mixed = value_state(execution, "lane", "mixed");
  const json* workers = value_state(execution, "workers", "1");
  const json* cold = value_state(execution, "connection", "cold");
  ASSERT_TRUE(writer && mixed && workers && cold) << execution.dump(1);
  EXPECT_EQ((*writer)["planned"], "measured");
  EXPECT_EQ((*writer)["state"], "attempted_failed");
  EXPECT_EQ((*writer)["runs"]["failed"], 2);
  EXPECT_EQ((*writer)["runs"]["ok"], 0);
  EXPECT_NE((*writer)["first_reason"].get<std::string>().find("worker 0"), std::string::npos)
      << (*writer)["first_reason"];
  EXPECT_EQ((*mixed)["state"], "measured");
  EXPECT_EQ((*mixed)["runs"]["ok"], 2);
  EXPECT_TRUE((*mixed)["first_reason"].is_null());
  EXPECT_EQ((*workers)["state"], "measured");  // its mixed runs ended ok
  EXPECT_EQ((*cold)["planned"], "planned");    // filtered out by --only: never meant to run
  EXPECT_EQ((*cold)["state"], "planned");
  // The plan's intention is kept beside what execution delivered.
  EXPECT_EQ(manifest["plan"]["axes"][2]["values"][0]["state"], "measured");

  // The failed runs are evidence, not a broken bundle.
  const auto valid = run_process({JBENCH_BINARY, "validate", bundle});
  EXPECT_EQ(valid.exit_code, 0) << valid.out << valid.err;
}

}  // namespace
}  // namespace jbench::test
