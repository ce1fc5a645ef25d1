// `jbench run` at the top of the worker axis: 32 real workers on one SQLite file, every lane and
// connection kind. Lock contention starves some workers; that is data (counted in the summary),
// never a failed run.
#include <gtest/gtest.h>

#include <filesystem>

#include "run_support.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::uint64_t count(const json& v) { return v.is_number_unsigned() ? v.get<std::uint64_t>() : 0; }

TEST(RunContention, thirty_two_workers_run_ok_in_every_lane_and_starved_workers_are_counted) {
  TempDir dir;
  const std::string tag = unique_tag();
  RunInvocation inv;
  inv.matrix = "contention.yaml";
  const auto r = run_jbench_run(dir, inv, tag);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty()) << "processes left behind";
  const std::string bundle = dir.path() + "/out/b";
  ASSERT_TRUE(fs::is_directory(bundle)) << r.err;
  const auto again = run_process({JBENCH_BINARY, "validate", bundle});
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;

  const auto manifest = read_json(bundle + "/manifest.json");
  ASSERT_EQ(manifest["runs"].size(), 6u);
  for (const auto& entry : manifest["runs"]) {
    const std::string id = entry["id"];
    EXPECT_EQ(entry["status"], "ok") << id << ": " << entry["reason"];
    const auto summary = read_json(bundle + "/runs/" + id + "/summary.json");
    const json& w = summary["workers"];
    ASSERT_EQ(w["count"], 32u) << id;
    ASSERT_EQ(w["per_worker"].size(), 32u) << id;
    // The starved count is exactly the workers whose own result counted nothing.
    std::uint64_t starved = 0;
    for (std::size_t i = 0; i < 32; ++i) {
      const auto result =
          read_json(bundle + "/runs/" + id + "/raw/worker-" + std::to_string(i) + ".result.json");
      const bool none = count(result["operations"]) == 0;
      starved += none;
      EXPECT_EQ(result["status"], "ok") << id << " worker " << i << ": " << result["conditions"];
      EXPECT_EQ(w["per_worker"][i]["starved"], none) << id << " worker " << i;
      EXPECT_TRUE(result.contains("busy_waits")) << id;
    }
    EXPECT_EQ(count(w["starved"]), starved) << id;
    // Some worker progressed, so the index exists and lies in [1/n, 1].
    ASSERT_TRUE(w["jain_fairness_index"].is_number()) << id;
    const double jain = w["jain_fairness_index"].get<double>();
    EXPECT_GE(jain, 1.0 / 32 - 1e-12) << id;
    EXPECT_LE(jain, 1.0 + 1e-12) << id;
    std::cout << id << ": jain " << jain << ", starved " << starved << "/32, ops/s "
              << summary["throughput_ops_per_s"] << "\n";
  }
}

}  // namespace
}  // namespace jbench::test
