// The merge's checks and merged documents (merge/shard_check.h, merge/merged_documents.h) on the
// documents of honest shards of tests/fixtures/merge/shards.yaml, made here from its plan, and
// on each way a shard can lie: another build, host class, filter, seed or plan, a foreign run, a
// bundle that is not a shard, an interrupted one, another dataset. The real bundles are merged in
// merge_cli_test.cpp.
#include "jbench/merge/shard_check.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "jbench/matrix/load.h"
#include "jbench/merge/merged_documents.h"
#include "jbench/plan/plan_output.h"
#include "jbench/plan/shard.h"

namespace jbench::merge {
namespace {

using Json = nlohmann::json;

const HostResources kHost{2, 24000};

std::string matrix_text(const std::string& name) {
  std::ifstream in(std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/merge/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Json host(const std::string& name, const std::string& boot) {
  return {{"hostname", name},
          {"boot_id", boot},
          {"cpu_model", "AMD EPYC"},
          {"cpus_usable", 2},
          {"clocksource", "tsc"},
          {"memory_total_mib", 24105},
          {"kernel", {{"release", "6.18"}, {"machine", "x86_64"}, {"version", "#1"}}}};
}

// The documents an honest shard K/N of the matrix would leave, as jbench run writes them.
ShardFacts honest_shard(const std::string& text, std::uint32_t k, std::uint32_t n) {
  const auto loaded = parse_matrix(text, "shards.yaml");
  EXPECT_TRUE(loaded.matrix) << format_diagnostics(loaded.diagnostics);
  const Plan shard = shard_plan(make_plan(*loaded.matrix, {}, kHost), {k, n});
  ShardFacts f;
  f.source = "bundles/shard-" + std::to_string(k);
  f.matrix_text = text;
  f.plan = Json::parse(plan_to_json(shard));
  Json runs = Json::array();
  for (const Run& r : shard.runs) {
    runs.push_back({{"id", run_id(shard, r)}, {"status", "ok"}, {"block", r.block}});
  }
  f.manifest = {
      {"bundle", "shard-" + std::to_string(k)},
      {"status", "complete"},
      {"started_utc", "2026-12-02T05:00:0" + std::to_string(k) + "Z"},
      {"ended_utc", "2026-12-02T05:10:0" + std::to_string(k) + "Z"},
      {"jbench", {{"version", "0.1.0"}, {"source", {{"revision", "abc"}, {"dirty", false}}}}},
      {"host", host("node-" + std::to_string(k), "boot-" + std::to_string(k))},
      {"matrix",
       {{"file", "shards.yaml"}, {"sha256", loaded.matrix->sha256}, {"overrides", Json::array()}}},
      {"plan",
       {{"shard", plan_shard_to_json(shard)},
        {"filters", Json::array()},
        {"host", {{"cores", kHost.cores}, {"memory_mib", kHost.memory_mib}}}}},
      {"datasets",
       Json::array({{{"name", "small"}, {"build_report", {{"content_sha256", "d1"}}}}})},
      {"trace_modes", {{"light", {{"status", "available"}}}}},
      {"runs", runs}};
  Json processes = Json::array();
  Json index_runs = Json::array();
  for (const Run& r : shard.runs) {
    index_runs.push_back({{"id", run_id(shard, r)},
                          {"processes", Json::array({{{"set", "set-1"}, {"workers", {0}}}})}});
  }
  f.provenance_index = {
      {"cap_bytes", 1000},
      {"objects", Json::array({{{"sha256", "exe1"},
                                {"kind", "binary"},
                                {"size_bytes", 10},
                                {"stored", true},
                                {"paths", {"/opt/jbench/build/bin/jbench-sqlite-worker"}}},
                               {{"sha256", "lib" + std::to_string(k)},
                                {"kind", "binary"},
                                {"size_bytes", 5},
                                {"stored", k == 0},
                                {"paths", {"/usr/lib/libc.so.6"}}}})},
      {"binary_sets",
       Json::array({{{"id", "set-1"},
                     {"binaries", Json::array({{{"role", "exe"}, {"sha256", "exe1"}},
                                               {{"role", "mapped"},
                                                {"sha256", "lib" + std::to_string(k)}}})}}})},
      {"runs", index_runs}};
  return f;
}

std::vector<ShardFacts> honest(std::uint32_t n) {
  std::vector<ShardFacts> out;
  for (std::uint32_t k = 0; k < n; ++k)
    out.push_back(honest_shard(matrix_text("shards.yaml"), k, n));
  return out;
}

std::string all(const ShardCheck& c) {
  std::string out;
  for (const auto& f : c.findings) out += f.code + ": " + f.message + "\n";
  return out;
}

bool has(const ShardCheck& c, const std::string& code, const std::string& words = "") {
  for (const auto& f : c.findings) {
    if (f.code == code && f.message.find(words) != std::string::npos) return true;
  }
  return false;
}

TEST(ShardCheck, honest_shards_make_the_whole_plan_each_run_from_its_owner) {
  for (std::uint32_t n : {1u, 2u, 3u, 8u}) {
    auto shards = honest(n);
    std::reverse(shards.begin(), shards.end());  // the order they are given in does not matter
    const ShardCheck c = check_shards(shards);
    ASSERT_TRUE(c.findings.empty()) << all(c);
    ASSERT_TRUE(c.plan);
    EXPECT_EQ(c.plan->whole.runs.size(), 16u);
    EXPECT_EQ(c.plan->run_ids.size(), 16u);
    const auto owner = assign_blocks(c.plan->whole, n);
    for (std::size_t i = 0; i < c.plan->whole.runs.size(); ++i) {
      const std::size_t s = c.plan->shard_of_run[i];
      EXPECT_EQ(c.plan->specs[s].index, owner[c.plan->whole.runs[i].block]) << c.plan->run_ids[i];
    }
  }
}

TEST(ShardCheck, each_lie_of_a_shard_is_named_with_its_own_code) {
  auto build = honest(2);
  build[1].provenance_index["binary_sets"][0]["binaries"][0]["sha256"] = "exe2";
  EXPECT_TRUE(has(check_shards(build), "merge.build_mismatch", "shard-1 (shard 1/2)"))
      << all(check_shards(build));

  auto jbench_version = honest(2);
  jbench_version[0].manifest["jbench"]["source"]["revision"] = "def";
  EXPECT_TRUE(has(check_shards(jbench_version), "merge.build_mismatch", "ran jbench"));

  auto cpu = honest(2);
  cpu[1].manifest["host"]["cpu_model"] = "Intel Xeon";
  EXPECT_TRUE(has(check_shards(cpu), "merge.host_mismatch", "host.cpu_model Intel Xeon"))
      << all(check_shards(cpu));

  auto filters = honest(2);
  filters[1].manifest["plan"]["filters"] = Json::array({{{"axis", "lane"}, {"values", {"mixed"}}}});
  EXPECT_TRUE(has(check_shards(filters), "merge.plan_mismatch", "plan/filters"));

  auto reseeded = honest(2);
  reseeded[1] = honest_shard(matrix_text("shards-other-seed.yaml"), 1, 2);
  EXPECT_TRUE(has(check_shards(reseeded), "merge.seed_mismatch", "seed 7"))
      << all(check_shards(reseeded));

  auto other_matrix = honest(2);
  std::string text = matrix_text("shards.yaml");
  text.replace(text.find("measure: {duration_ms: 300}"), 27, "measure: {duration_ms: 200}");
  other_matrix[1] = honest_shard(text, 1, 2);
  EXPECT_TRUE(has(check_shards(other_matrix), "merge.matrix_mismatch"));

  auto seeds = honest(2);
  seeds[0].plan["runs"][1]["seed"] = "12345";
  EXPECT_TRUE(has(check_shards(seeds), "merge.plan_mismatch", "run #1"));

  auto foreign = honest(2);
  foreign[1].manifest["runs"].push_back({{"id", "w9.cold.writer.small.baseline.r1"}});
  EXPECT_TRUE(
      has(check_shards(foreign), "merge.unplanned_run", "w9.cold.writer.small.baseline.r1"));

  auto other_owner = honest(2);
  other_owner[1].manifest["runs"].push_back(other_owner[0].manifest["runs"][0]);
  EXPECT_TRUE(has(check_shards(other_owner), "merge.wrong_shard_run"));

  auto whole_session = honest(2);
  whole_session[1].manifest["plan"]["shard"] = nullptr;
  EXPECT_TRUE(has(check_shards(whole_session), "merge.not_a_shard", "shard-1"));

  auto interrupted = honest(2);
  interrupted[0].manifest["status"] = "interrupted";
  EXPECT_TRUE(has(check_shards(interrupted), "merge.shard_interrupted"));

  auto merged_input = honest(2);
  merged_input[0].manifest["merge"] = Json::object();
  EXPECT_TRUE(has(check_shards(merged_input), "merge.not_a_run_bundle"));

  auto data = honest(2);
  data[1].manifest["datasets"][0]["build_report"]["content_sha256"] = "d2";
  EXPECT_TRUE(has(check_shards(data), "merge.dataset_mismatch", "'small'"));

  auto three_of_four = honest(4);
  three_of_four.pop_back();
  EXPECT_TRUE(has(check_shards(three_of_four), "merge.missing_shard", "shard 3/4 is missing"));
  for (const auto& f : check_shards(three_of_four).findings)
    EXPECT_EQ(f.code, "merge.missing_shard");
}

TEST(MergedDocuments, the_manifest_is_the_whole_plans_with_every_runs_shard_and_host) {
  const auto shards = honest(2);
  const ShardCheck c = check_shards(shards);
  ASSERT_TRUE(c.plan) << all(c);
  const Json m =
      merged_manifest(shards, *c.plan, {"merged", {{"version", "0.1.0"}}, "now", {"s0", "s1"}});
  ASSERT_EQ(m["runs"].size(), 16u);
  std::set<std::uint64_t> blocks_of[2];
  for (std::size_t i = 0; i < m["runs"].size(); ++i) {
    const Json& r = m["runs"][i];
    EXPECT_EQ(r["order"], i);
    const int s = r["shard"].get<int>();
    EXPECT_EQ(r["host"]["hostname"], "node-" + std::to_string(s));
    blocks_of[s].insert(r["block"].get<std::uint64_t>());
  }
  // A block (a point's repetition with its baseline) lies in one shard: no pair crosses hosts.
  for (auto b : blocks_of[0]) EXPECT_FALSE(blocks_of[1].count(b)) << "block " << b;
  EXPECT_TRUE(m["plan"]["shard"].is_null());
  EXPECT_EQ(m["plan"]["counts"]["runs"], 16);
  EXPECT_EQ(m["run_counts"]["ok"], 16);
  // What the hosts share stays; what differs says so.
  EXPECT_EQ(m["host"]["cpu_model"], "AMD EPYC");
  EXPECT_EQ(m["host"]["boot_id"], "differs by shard: see /merge/shards");
  EXPECT_EQ(m["merge"]["hosts"], 2);
  EXPECT_EQ(m["merge"]["shards"][1]["sums_sha256"], "s1");
  EXPECT_EQ(m["started_utc"], "2026-12-02T05:00:00Z");
  EXPECT_EQ(m["ended_utc"], "2026-12-02T05:10:01Z");
}

TEST(MergedDocuments, provenance_keeps_every_object_once_and_renames_sets_apart) {
  const auto shards = honest(2);
  const ShardCheck c = check_shards(shards);
  ASSERT_TRUE(c.plan) << all(c);
  const Json index = merged_provenance_index(shards, *c.plan, "plansha");
  // exe1 from both, lib0 stored by shard 0, lib1 left out by shard 1.
  ASSERT_EQ(index["objects"].size(), 3u);
  EXPECT_EQ(index["stored_bytes"], 15);
  EXPECT_EQ(index["left_out_bytes"], 5);
  EXPECT_EQ(index["cap_bytes"], 2000);
  ASSERT_EQ(index["binary_sets"].size(), 2u);  // the shards' set-1 differ (lib0, lib1)
  std::set<std::string> sets_of_shard1;
  const auto& runs = index["runs"];
  ASSERT_EQ(runs.size(), 16u);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (c.plan->specs[c.plan->shard_of_run[i]].index == 1) {
      sets_of_shard1.insert(runs[i]["processes"][0]["set"].get<std::string>());
    }
  }
  EXPECT_EQ(sets_of_shard1, std::set<std::string>{"set-2"});
  EXPECT_EQ(index["configuration"]["plan_sha256"], "plansha");
  EXPECT_EQ(stored_object_sources(shards).at("lib0"), 0u);
  EXPECT_FALSE(stored_object_sources(shards).count("lib1"));
}

}  // namespace
}  // namespace jbench::merge
