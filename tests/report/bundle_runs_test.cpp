// Reading a bundle's runs for the reports: a manifest whose runs never ran carries null figures
// (an interrupted session), and an edited one may carry anything; neither ends the report with
// an exception.
#include "jbench/overhead_report/bundle_runs.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "jbench/overhead_report/cell_order.h"
#include "temp_dir.h"

namespace jbench::overhead_report {
namespace {

// Why the bundle's runs could not be read; empty when they could.
std::string read_error(const std::string& dir) {
  const JudgedRuns judged = read_bundle_runs(dir);
  return judged.read ? "" : judged.read.error().message;
}

TEST(BundleRuns, runs_that_never_ran_read_as_absent_and_an_odd_figure_is_named) {
  test::TempDir dir;
  const std::string runs = R"({"status":"interrupted","runs":[
    {"id":"w1.a.light.r1","trace":"light","status":"ok","block":0,"order":0,"throughput_ops_per_s":10.5},
    {"id":"w1.a.full.r1","trace":"full","status":"not_run","block":0,"order":1,"throughput_ops_per_s":null},
    {"id":"w1.a.baseline.r1","trace":"baseline","status":"interrupted","block":0,"order":2,"throughput_ops_per_s":null}]})";
  dir.write("manifest.json", runs);
  std::filesystem::create_directories(dir.path() + "/runs/w1.a.light.r1");
  std::filesystem::create_directories(dir.path() + "/runs/w1.a.baseline.r1");
  dir.write("runs/w1.a.light.r1/run.json",
            R"({"id":"w1.a.light.r1","status":"ok","values":{"workers":"1","trace":"light"}})");
  dir.write(
      "runs/w1.a.baseline.r1/run.json",
      R"({"id":"w1.a.baseline.r1","status":"interrupted","values":{"workers":"1","trace":"baseline"}})");
  const JudgedRuns judged = read_bundle_runs(dir.path());
  ASSERT_TRUE(judged.read) << judged.read.error().message;
  const BundleRuns& r = *judged.read;
  ASSERT_TRUE(r.manifest);
  EXPECT_EQ(r.manifest->status, "interrupted");
  ASSERT_EQ(r.runs.size(), 2u);  // the run that never ran is not a run
  EXPECT_DOUBLE_EQ(r.runs[0].throughput, 10.5);
  EXPECT_EQ(r.runs[0].cell, "w1.a");
  EXPECT_EQ(r.runs[1].block, 0u);
  EXPECT_DOUBLE_EQ(r.runs[1].throughput, 0.0);
  // An edited manifest's figure of another type is named where it is, never read as 0.
  std::string edited = runs;
  edited.replace(edited.rfind("\"block\":0"), 9, "\"block\":\"x\"");
  dir.write("manifest.json", edited);
  EXPECT_EQ(
      read_error(dir.path()),
      dir.path() + "/manifest.json /runs/2/block: expected a non-negative integer, found \"x\"");
}

TEST(BundleRuns, a_manifest_without_runs_is_an_error_not_a_crash) {
  test::TempDir dir;
  dir.write("manifest.json", R"({"status":"complete","runs":[1]})");
  EXPECT_NE(read_error(dir.path()), "");
  dir.write("manifest.json", R"({"status":"complete"})");
  EXPECT_NE(read_error(dir.path()), "");
}

}  // namespace
}  // namespace jbench::overhead_report

namespace jbench::overhead_report {
namespace {

// Cells follow the bundle's plan (the matrix's axis order: "below" before "above"), baseline
// first; points the plan does not list come after, in natural order (w2 before w10).
TEST(CellOrder, points_in_the_plans_order_then_the_rest_naturally) {
  test::TempDir dir;
  dir.write("manifest.json", R"({"status":"complete","runs":[
    {"id":"w1.above.full.r1","trace":"full","status":"ok","block":0,"order":0,"throughput_ops_per_s":1},
    {"id":"w10.x.light.r1","trace":"light","status":"ok","block":1,"order":1,"throughput_ops_per_s":1},
    {"id":"w1.below.light.r1","trace":"light","status":"ok","block":2,"order":2,"throughput_ops_per_s":1},
    {"id":"w2.x.light.r1","trace":"light","status":"ok","block":3,"order":3,"throughput_ops_per_s":1},
    {"id":"w1.below.baseline.r1","trace":"baseline","status":"ok","block":2,"order":4,"throughput_ops_per_s":1}]})");
  for (const char* run : {"w1.above.full.r1", "w10.x.light.r1", "w1.below.light.r1",
                          "w2.x.light.r1", "w1.below.baseline.r1"}) {
    std::filesystem::create_directories(dir.path() + "/runs/" + run);
    dir.write(std::string("runs/") + run + "/run.json",
              std::string(R"({"status":"ok","values":{},"id":")") + run + "\"}");
  }
  dir.write("plan.json", R"({"cells":[{"id":"w1.below.baseline"},{"id":"w1.below.light"},
    {"id":"w1.above.baseline"},{"id":"w1.above.full"}]})");
  const JudgedRuns judged = read_bundle_runs(dir.path());
  ASSERT_TRUE(judged.read) << judged.read.error().message;
  const BundleRuns& r = *judged.read;
  EXPECT_EQ(r.runs[0].plan_rank, std::optional<std::size_t>(3));
  EXPECT_EQ(r.runs[1].plan_rank, std::nullopt);
  EXPECT_EQ(ordered_points(r.runs),
            (std::vector<std::string>{"w1.below", "w1.above", "w2.x", "w10.x"}));
  EXPECT_LT(mode_rank("baseline"), mode_rank("no-consumer"));
  EXPECT_LT(mode_rank("light"), mode_rank("full"));
  // The overhead table follows the same order.
  std::vector<std::string> cells;
  for (const auto& row : compute_overhead(r.runs).rows) cells.push_back(row.cell + "." + row.mode);
  EXPECT_EQ(cells, (std::vector<std::string>{"w1.below.light", "w1.above.full", "w2.x.light",
                                             "w10.x.light"}));
  // Without a plan, natural order.
  std::filesystem::remove(dir.path() + "/plan.json");
  const JudgedRuns planless = read_bundle_runs(dir.path());
  ASSERT_TRUE(planless.read) << planless.read.error().message;
  EXPECT_EQ(ordered_points(planless.read->runs),
            (std::vector<std::string>{"w1.above", "w1.below", "w2.x", "w10.x"}));
}

}  // namespace
}  // namespace jbench::overhead_report

namespace jbench::overhead_report {
namespace {

// A run's values come in the matrix's axis order, as plan.json lists the axes (run.json's
// object holds them by name); an axis the plan does not name comes after.
TEST(BundleRuns, values_follow_the_plans_axis_order) {
  test::TempDir dir;
  dir.write("manifest.json", R"({"status":"complete","runs":[
    {"id":"w1.cold.light.r1","trace":"light","status":"ok","block":0,"order":0,"throughput_ops_per_s":1}]})");
  std::filesystem::create_directories(dir.path() + "/runs/w1.cold.light.r1");
  dir.write("runs/w1.cold.light.r1/run.json",
            R"({"id":"w1.cold.light.r1","status":"ok",
                "values":{"connection":"cold","extra":"x","trace":"light","workers":"1"}})");
  dir.write("plan.json", R"({"cells":[],"axes":[{"axis":"workers"},{"axis":"connection"},
    {"axis":"trace"}]})");
  const JudgedRuns judged = read_bundle_runs(dir.path());
  ASSERT_TRUE(judged.read) << judged.read.error().message;
  const BundleRuns& r = *judged.read;
  ASSERT_EQ(r.runs.size(), 1u);
  using Values = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(r.runs[0].values, (Values{{"workers", "1"}, {"connection", "cold"}, {"extra", "x"}}));
}

}  // namespace
}  // namespace jbench::overhead_report
