// `jbench plan` end to end on the checked-in matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "jbench/schema/json_schema.h"
#include "jbench_binary.h"

namespace jbench::test {
namespace {

std::string fmt_shard(int k, int n) { return std::to_string(k) + "/" + std::to_string(n); }

TEST(PlanCommand, prints_the_sqlite_plan_with_288_cells_and_the_axis_table) {
  const auto r = run_jbench({"plan", "matrices/sqlite.yaml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("cells   288 (288 in the product, 0 excluded): 288 measured, 0 planned, "
                       "0 skipped"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("runs    864 in 216 blocks (3 repetitions)"), std::string::npos);
  for (const char* row : {"workers     32", "connection  cold", "lane        mixed",
                          "dataset     above", "trace       no-consumer"}) {
    EXPECT_NE(r.out.find(row), std::string::npos) << row;
  }
}

TEST(PlanCommand, json_output_is_byte_identical_across_runs_and_matches_its_schema) {
  const std::vector<std::string> args = {"plan", "matrices/sqlite.yaml", "--json", "--host-cores",
                                         "2",    "--host-memory-mib",    "8192"};
  const auto a = run_jbench(args);
  const auto b = run_jbench(args);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);

  auto schema = JsonSchema::load(source_dir() + "/manifests/plan.schema.json");
  ASSERT_TRUE(schema) << schema.error().message;
  const auto doc = nlohmann::json::parse(a.out);
  const auto violations = schema->validate(doc);
  for (const auto& v : violations) ADD_FAILURE() << v.pointer << ": " << v.message;
  EXPECT_EQ(doc["counts"]["cells"], 288);
  EXPECT_EQ(doc["counts"]["runs"], 864);
  EXPECT_EQ(doc["host"]["cores"], 2);
}

TEST(PlanCommand, the_schema_rejects_a_plan_that_breaks_its_rules) {
  auto schema = JsonSchema::load(source_dir() + "/manifests/plan.schema.json");
  ASSERT_TRUE(schema) << schema.error().message;
  const auto r = run_jbench({"plan", "matrices/sqlite.yaml", "--json"});
  ASSERT_EQ(r.exit_code, 0);
  auto doc = nlohmann::json::parse(r.out);
  doc["runs"][0]["seed"] = 12;                       // a seed must be a string
  doc["runs"][1].erase("baseline");                  // a traced run without its baseline, or
  doc["runs"][1]["trace"] = "full";                  // a baseline that claims to be traced
  doc["axes"][0]["values"][0]["state"] = "skipped";  // a skipped value needs a reason
  const auto violations = schema->validate(doc);
  std::set<std::string> pointers;
  for (const auto& v : violations) pointers.insert(v.pointer);
  EXPECT_TRUE(pointers.count("/runs/0/seed")) << ::testing::PrintToString(pointers);
  EXPECT_TRUE(pointers.count("/axes/0/values/0")) << ::testing::PrintToString(pointers);
  EXPECT_GE(violations.size(), 3u);
}

TEST(PlanCommand, only_moves_values_to_planned_and_the_run_count_follows) {
  const auto r = run_jbench(
      {"plan", "matrices/sqlite.yaml", "--json", "--only", "workers=1,2", "--only", "lane=writer"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["counts"]["cells"], 288);
  EXPECT_EQ(doc["counts"]["measured"], 2 * 2 * 1 * 2 * 4);
  EXPECT_EQ(doc["counts"]["planned"], 288 - 32);
  EXPECT_EQ(doc["counts"]["runs"], 32 * 3);
  EXPECT_EQ(doc["axes"][0]["values"][2]["state"], "planned");
  EXPECT_EQ(doc["axes"][0]["values"][2]["reason"], "not selected by --only workers=1,2");
}

TEST(PlanCommand, a_smaller_host_skips_what_does_not_fit_and_says_why) {
  const auto r =
      run_jbench({"plan", "matrices/sqlite.yaml", "--json", "--host-memory-mib", "1024"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto& w32 = doc["axes"][0]["values"][5];
  EXPECT_EQ(w32["value"], "32");
  EXPECT_EQ(w32["state"], "skipped");
  EXPECT_EQ(w32["reason"],
            "workers=32 x limits.memory_per_worker_mib=64 is over the host's 1024 MiB");
}

TEST(PlanCommand, bad_only_filters_exit_2_with_one_line_each) {
  auto r = run_jbench({"plan", "matrices/sqlite.yaml", "--only", "worker=1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "jbench: error: --only 'worker=1': 'worker' is not an axis of this matrix (did you "
            "mean 'workers'?); expected workers, connection, lane, dataset or trace\n");
  r = run_jbench({"plan", "matrices/sqlite.yaml", "--only", "lane=mixed,both"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "jbench: error: --only 'lane=mixed,both': 'both' is not a value of the axis 'lane'; "
            "expected writer, reader or mixed\n");
}

}  // namespace
TEST(PlanCommand, repetitions_overrides_the_matrix_and_says_so_in_text_and_json) {
  const auto text = run_jbench({"plan", "matrices/sqlite.yaml", "--repetitions", "1"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("runs    288 in 72 blocks (1 repetitions)"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("override repetitions = 1 by --repetitions (the matrix says 3)"),
            std::string::npos)
      << text.out;
  const auto json_run =
      run_jbench({"plan", "matrices/sqlite.yaml", "--repetitions", "5", "--json"});
  ASSERT_EQ(json_run.exit_code, 0) << json_run.err;
  const auto head = nlohmann::json::parse(json_run.out, nullptr, false);
  ASSERT_FALSE(head.is_discarded());
  EXPECT_EQ(head["matrix"]["repetitions"], 5);
  ASSERT_EQ(head["matrix"]["overrides"].size(), 1u);
  EXPECT_EQ(
      head["matrix"]["overrides"][0],
      (nlohmann::json{
          {"key", "repetitions"}, {"file_value", "3"}, {"value", "5"}, {"by", "--repetitions"}}));
  EXPECT_EQ(head["counts"]["runs"], 288 * 5);
  // The same value as the file's is no override.
  const auto same = run_jbench({"plan", "matrices/sqlite.yaml", "--repetitions", "3"});
  EXPECT_EQ(same.out.find("override"), std::string::npos);
  const auto bad = run_jbench({"plan", "matrices/sqlite.yaml", "--repetitions", "0"});
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(PlanCommand,
     the_estimate_counts_each_traced_runs_attach_and_after_run_cost_and_says_where_from) {
  const auto r = run_jbench({"plan", "matrices/sqlite.yaml", "--json", "--bundles",
                             source_dir() + "/tests/fixtures/no-such-folder"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  const auto& e = doc["estimate"];
  EXPECT_EQ(e["traced_runs"], 864 / 2);  // light and full: two of the four modes
  EXPECT_EQ(e["light_runs"], 864 / 4);
  EXPECT_EQ(e["full_runs"], 864 / 4);
  EXPECT_EQ(e["attach_per_traced_run_ms"], 0);
  EXPECT_EQ(e["attach_source"].get<std::string>().rfind("assumed", 0), 0u) << e;
  EXPECT_EQ(e["after_run_source"].get<std::string>().rfind("assumed", 0), 0u) << e;
  EXPECT_EQ(e["total_ms"], 864 * (300 + 1000 + 1000) + 216 * 400 + 216 * 2000);
}

TEST(PlanCommand, four_shards_hold_every_run_of_the_plan_once_and_say_what_they_delegate) {
  auto schema = JsonSchema::load(source_dir() + "/manifests/plan.schema.json");
  ASSERT_TRUE(schema) << schema.error().message;
  const auto whole = run_jbench({"plan", "matrices/sqlite.yaml", "--json"});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  std::map<std::string, std::string> seed_of;  // run id -> seed
  const auto whole_doc = nlohmann::json::parse(whole.out);
  for (const auto& run : whole_doc["runs"]) {
    seed_of[run["id"].get<std::string>()] = run["seed"].get<std::string>();
  }
  std::map<std::string, int> seen;
  std::vector<std::size_t> runs_per_shard;
  for (int k = 0; k < 4; ++k) {
    const auto r =
        run_jbench({"plan", "matrices/sqlite.yaml", "--json", "--shard", fmt_shard(k, 4)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    for (const auto& v : schema->validate(doc)) ADD_FAILURE() << v.pointer << ": " << v.message;
    EXPECT_EQ(doc["shard"]["index"], k);
    EXPECT_EQ(doc["shard"]["whole_plan_runs"], 864);
    runs_per_shard.push_back(doc["runs"].size());
    for (const auto& run : doc["runs"]) {
      const std::string id = run["id"].get<std::string>();
      ++seen[id];
      EXPECT_EQ(run["seed"], seed_of[id]) << id;
    }
    // The cells this shard does not measure are delegated, each to the shard that does.
    std::size_t delegated = 0;
    for (const auto& cell : doc["cells"]) {
      if (cell["state"] != "delegated") continue;
      ++delegated;
      EXPECT_NE(cell["reason"].get<std::string>().find("delegated to shard "), std::string::npos);
    }
    EXPECT_EQ(doc["counts"]["delegated"], delegated);
    EXPECT_GT(delegated, 0u);
  }
  EXPECT_EQ(seen.size(), 864u);
  for (const auto& [id, n] : seen) EXPECT_EQ(n, 1) << id;
  // Equal blocks: the shards differ by at most one block of four runs.
  const auto [lo, hi] = std::minmax_element(runs_per_shard.begin(), runs_per_shard.end());
  EXPECT_LE(*hi - *lo, 4u);

  const auto text = run_jbench({"plan", "matrices/sqlite.yaml", "--shard", "3/4"});
  EXPECT_NE(text.out.find("shard   3/4: 54 of the whole plan's 216 blocks"), std::string::npos)
      << text.out;
  for (const char* bad : {"4/4", "1/0", "x", "1/4/2"}) {
    const auto r = run_jbench({"plan", "matrices/sqlite.yaml", "--shard", bad});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--shard"), std::string::npos) << r.err;
  }
}

}  // namespace jbench::test
