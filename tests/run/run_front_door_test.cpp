// The README's command as a newcomer types it: a relative --out, from a working directory that
// is neither the repository nor the build tree, with traced runs (whose workers are handed paths
// into the bundle). Every path that crosses to a worker must still point at the right place.
#include <gtest/gtest.h>

#include <filesystem>

#include "run_support.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;

TEST(RunFrontDoor, a_relative_out_from_another_directory_gives_ok_traced_runs_and_a_valid_bundle) {
  TempDir dir;
  const std::string tag = unique_tag();
  const std::string cwd = dir.path() + "/elsewhere";
  fs::create_directories(cwd);
  RunInvocation inv;
  inv.matrix = "front-door.yaml";
  inv.traced = true;
  inv.cwd = cwd;
  inv.out = "relative/bundles";
  inv.args = {"--only", "trace=baseline,light", "--repetitions", "1"};
  const auto r = run_jbench_run(dir, inv, tag);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty());
  const std::string bundle = cwd + "/relative/bundles/b";
  ASSERT_TRUE(fs::is_directory(bundle)) << r.err;
  const auto manifest = read_json(bundle + "/manifest.json");
  ASSERT_EQ(manifest["runs"].size(), 2u);
  for (const auto& run : manifest["runs"]) {
    EXPECT_EQ(run["status"], "ok") << run["id"] << ": " << run["reason"];
  }
  // --repetitions replaced the matrix's 2, and the bundle says so.
  ASSERT_EQ(manifest["matrix"]["overrides"].size(), 1u);
  EXPECT_EQ(manifest["matrix"]["overrides"][0]["key"], "repetitions");
  EXPECT_EQ(manifest["matrix"]["overrides"][0]["file_value"], "2");
  EXPECT_EQ(manifest["matrix"]["overrides"][0]["value"], "1");
  // The mode manifest: probed for the modes this session runs, not_requested for the others.
  const auto& modes = manifest["trace_modes"];
  EXPECT_EQ(modes["baseline"]["status"], "available") << modes["baseline"];
  EXPECT_EQ(modes["light"]["status"], "available") << modes["light"];
  EXPECT_EQ(modes["full"]["status"], "not_requested");
  EXPECT_EQ(modes["no-consumer"]["status"], "not_requested");
  // The matrix's allocation sampler interval reached the light run's sampler.
  const auto light = read_json(bundle + "/runs/w1.persistent.writer.small.light.r1/run.json");
  bool alloc_seen = false;
  for (const auto& c : light["trace_mode"]["collectors"]) {
    if (c["name"] != "alloc") continue;
    alloc_seen = true;
    EXPECT_EQ(c["status"], "ok") << c.dump();
    EXPECT_EQ(c["mean_bytes"], 8192) << c.dump();
  }
  EXPECT_TRUE(alloc_seen);
  // The light run's bridge file landed in the bundle, not somewhere relative to a worker.
  EXPECT_TRUE(fs::exists(bundle + "/runs/w1.persistent.writer.small.light.r1/raw/bridge")) << r.err;
  // The session ends by saying where to look next, with the bundle's real path.
  EXPECT_NE(r.err.find(std::string("next: ") + JBENCH_BINARY + " report " + bundle),
            std::string::npos)
      << r.err;
  const auto valid = run_process({JBENCH_BINARY, "validate", bundle});
  EXPECT_EQ(valid.exit_code, 0) << valid.out << valid.err;
  // The next plan's estimate uses the tracer attach this bundle measured, and says so.
  const auto plan = run_process({JBENCH_BINARY, "plan", fixture("front-door.yaml"), "--json",
                                 "--bundles", cwd + "/relative/bundles"});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  const auto estimate = nlohmann::json::parse(plan.out, nullptr, false)["estimate"];
  EXPECT_EQ(estimate["attach_source"],
            "measured: median of 1 traced runs' tracer attach in " + bundle)
      << estimate;
}

TEST(RunFrontDoor, a_shard_runs_its_share_of_the_plan_and_its_bundle_says_what_it_delegated) {
  TempDir dir;
  const std::string tag = unique_tag();
  RunInvocation inv;
  // 2 workers x 2 connections x 2 lanes: 8 blocks of one baseline run, 2 of them on shard 3/4.
  inv.args = {"--repetitions", "1", "--shard", "3/4"};
  const auto r = run_jbench_run(dir, inv, tag);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty());
  const std::string bundle = dir.path() + "/out/b";
  const auto manifest = read_json(bundle + "/manifest.json");
  EXPECT_EQ(manifest["runs"].size(), 2u);
  EXPECT_EQ(manifest["plan"]["shard"]["index"], 3);
  EXPECT_EQ(manifest["plan"]["shard"]["count"], 4);
  EXPECT_EQ(manifest["plan"]["shard"]["whole_plan_runs"], 8);
  EXPECT_EQ(manifest["plan"]["counts"]["delegated"], 6);
  // An axis value this shard ran nothing of is delegated, never measured or planned.
  for (const auto& axis : manifest["plan"]["axes"]) {
    for (const auto& v : axis["values"]) {
      if (v["state"] == "delegated") {
        EXPECT_EQ(v["runs"], 0) << v;
      }
      if (v["runs"] == 0) {
        EXPECT_NE(v["state"], "measured") << v;
      }
    }
  }
  EXPECT_EQ(read_json(bundle + "/plan.json")["shard"]["index"], 3);
  const auto valid = run_process({JBENCH_BINARY, "validate", bundle});
  EXPECT_EQ(valid.exit_code, 0) << valid.out << valid.err;
}

}  // namespace
}  // namespace jbench::test
