// Reading a bundle's runs for the reports: a manifest whose runs never ran carries null figures
// (an interrupted session), and an edited one may carry anything; neither ends the report with
// an exception.
#include "jbench/report/bundle_runs.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "temp_dir.h"

namespace jbench::report {
namespace {

TEST(BundleRuns, runs_that_never_ran_and_odd_figures_read_as_absent) {
  test::TempDir dir;
  dir.write("manifest.json", R"({"status":"interrupted","runs":[
    {"id":"w1.a.light.r1","trace":"light","status":"ok","block":0,"order":0,"throughput_ops_per_s":10.5},
    {"id":"w1.a.full.r1","trace":"full","status":"not_run","block":0,"order":1,"throughput_ops_per_s":null},
    {"id":"w1.a.baseline.r1","trace":"baseline","status":"interrupted","block":"x","order":null,"throughput_ops_per_s":"fast"}]})");
  std::filesystem::create_directories(dir.path() + "/runs/w1.a.light.r1");
  std::filesystem::create_directories(dir.path() + "/runs/w1.a.baseline.r1");
  dir.write("runs/w1.a.light.r1/run.json", R"({"values":{"workers":"1","trace":"light"}})");
  dir.write("runs/w1.a.baseline.r1/run.json", R"({"values":{"workers":"1","trace":"baseline"}})");
  const BundleRuns r = read_bundle_runs(dir.path());
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.bundle_status, "interrupted");
  ASSERT_EQ(r.runs.size(), 2u);  // the run that never ran is not a run
  EXPECT_DOUBLE_EQ(r.runs[0].throughput, 10.5);
  EXPECT_EQ(r.runs[0].cell, "w1.a");
  EXPECT_EQ(r.runs[1].block, 0u);
  EXPECT_DOUBLE_EQ(r.runs[1].throughput, 0.0);
}

TEST(BundleRuns, a_manifest_without_runs_is_an_error_not_a_crash) {
  test::TempDir dir;
  dir.write("manifest.json", R"({"status":"complete","runs":[1]})");
  EXPECT_FALSE(read_bundle_runs(dir.path()).error.empty());
  dir.write("manifest.json", R"({"status":"complete"})");
  EXPECT_FALSE(read_bundle_runs(dir.path()).error.empty());
}

}  // namespace
}  // namespace jbench::report
