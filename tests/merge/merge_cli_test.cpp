// `jbench run --shard K/N` on the SQLite worker, then `jbench merge`, as a user runs them: the
// merged bundle validates, holds every run byte for byte as its shard wrote it, says which shard
// and host ran each run, keeps every pair inside one shard, and reads in `jbench report` and
// `jbench compare` like a whole session; a missing, duplicated, reseeded or edited shard is
// refused with its own finding, and nothing is written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "bundle_sums.h"
#include "run_process.h"
#include "temp_dir.h"

namespace jbench {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::string fixture(const std::string& name) {
  return std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/merge/" + name;
}

test::ProcessResult jbench(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {JBENCH_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  test::ProcessOptions o;
  o.timeout = std::chrono::seconds(150);
  return test::run_process(argv, o);
}

Json read_json(const std::string& path) {
  std::ifstream in(path);
  return Json::parse(in, nullptr, false);
}

// SHA256SUMS as path -> digest.
std::map<std::string, std::string> sums(const std::string& file) {
  std::map<std::string, std::string> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (line.size() > 66) out[line.substr(66)] = line.substr(0, 64);
  }
  return out;
}

std::vector<std::string> listed_runs(const std::string& bundle) {
  std::vector<std::string> out;
  // Kept in a local: a range-for over a member of a temporary reads freed memory (before C++23).
  const auto manifest = read_json(bundle + "/manifest.json");
  for (const auto& r : manifest["runs"]) out.push_back(r["id"]);
  return out;
}

// Shard K/N of `matrix` as bundle <dir>/shard-K (or `name`).
std::string run_shard(const std::string& dir, const std::string& matrix, int k, int n,
                      const std::string& name = "") {
  const std::string bundle = name.empty() ? "shard-" + std::to_string(k) : name;
  const auto r =
      jbench({"run", fixture(matrix), "--shard", std::to_string(k) + "/" + std::to_string(n),
              "--out", dir, "--name", bundle});
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return dir + "/" + bundle;
}

TEST(Merge, honest_shards_become_one_valid_bundle_that_reads_like_the_whole_session) {
  test::TempDir tmp;
  const std::string s0 = run_shard(tmp.path(), "shards.yaml", 0, 2);
  const std::string s1 = run_shard(tmp.path(), "shards.yaml", 1, 2);
  const std::string merged = tmp.path() + "/merged/all";
  // The order the shards are given in is not the plan's.
  const auto m = jbench({"merge", merged, s1, s0});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_EQ(m.out, merged + "\n");
  const auto v = jbench({"validate", merged});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;

  const Json manifest = read_json(merged + "/manifest.json");
  const Json plan = read_json(merged + "/plan.json");
  ASSERT_EQ(manifest["runs"].size(), 16u);
  ASSERT_EQ(plan["runs"].size(), 16u);
  EXPECT_TRUE(manifest["plan"]["shard"].is_null());
  EXPECT_EQ(manifest["plan"]["counts"]["delegated"], 0);
  EXPECT_EQ(manifest["merge"]["shard_count"], 2);
  // Every value of every axis is measured again: nothing is delegated in the whole.
  for (const auto& axis : manifest["execution"]["axes"]) {
    for (const auto& value : axis["values"]) EXPECT_EQ(value["state"], "measured") << value;
  }
  const auto merged_sums = sums(merged + "/SHA256SUMS");
  const std::map<int, std::map<std::string, std::string>> shard_sums = {
      {0, sums(s0 + "/SHA256SUMS")}, {1, sums(s1 + "/SHA256SUMS")}};
  const std::map<int, Json> shard_host = {{0, read_json(s0 + "/manifest.json")["host"]},
                                          {1, read_json(s1 + "/manifest.json")["host"]}};
  std::map<std::uint64_t, std::set<int>> shards_of_block;
  std::size_t files = 0;
  for (std::size_t i = 0; i < manifest["runs"].size(); ++i) {
    const Json& r = manifest["runs"][i];
    const std::string id = r["id"];
    EXPECT_EQ(r["status"], "ok") << id;
    EXPECT_EQ(r["order"], i);
    EXPECT_EQ(plan["runs"][i]["id"], id);  // the whole plan's order
    const int shard = r["shard"];
    EXPECT_EQ(r["host"]["boot_id"], shard_host.at(shard)["boot_id"]);
    EXPECT_EQ(r["host"]["hostname"], shard_host.at(shard)["hostname"]);
    shards_of_block[r["block"].get<std::uint64_t>()].insert(shard);
    // The run's files are its shard's, byte for byte, as the shard's own sums say.
    for (const auto& [path, digest] : merged_sums) {
      if (!path.starts_with("runs/" + id + "/")) continue;
      ++files;
      EXPECT_EQ(shard_sums.at(shard).count(path), 1u) << path;
      if (shard_sums.at(shard).count(path)) {
        EXPECT_EQ(shard_sums.at(shard).at(path), digest) << path;
      }
    }
    EXPECT_TRUE(fs::exists(merged + "/shards/" + std::to_string(shard) + "/manifest.json"));
  }
  EXPECT_GT(files, 16u * 3);
  ASSERT_EQ(shards_of_block.size(), 8u);
  for (const auto& [block, shards] : shards_of_block) EXPECT_EQ(shards.size(), 1u) << block;

  // A run edited after the merge, its SHA256SUMS rewritten to agree, no longer matches what its
  // shard wrote; a shard's run dropped from the manifest is missed.
  const std::string edited = tmp.path() + "/edited";
  fs::copy(merged, edited, fs::copy_options::recursive);
  const std::string a_run = manifest["runs"][3]["id"];
  std::ofstream(edited + "/runs/" + a_run + "/logs/worker-0.stderr", std::ios::app) << "x";
  test::rewrite_sums(edited);
  const auto altered = jbench({"validate", edited});
  EXPECT_EQ(altered.exit_code, 1) << altered.out;
  EXPECT_NE(altered.out.find("merge.run_altered  runs/" + a_run + "/logs/worker-0.stderr"),
            std::string::npos)
      << altered.out;

  // The report pairs every light run with its own block's baseline.
  const auto report = jbench({"report", merged});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("Observer overhead"), std::string::npos) << report.out;
  // Its table: cell, mode, pairs, median, interval, first, unpaired.
  std::size_t light_rows = 0;
  std::istringstream lines(report.out.substr(report.out.find("Observer overhead")));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string cell, mode, median, interval, first, unpaired;
    int pairs = -1;
    words >> cell >> mode >> pairs >> median >> interval >> first >> unpaired;
    if (mode != "light" || pairs < 0) continue;
    ++light_rows;
    EXPECT_EQ(pairs, 2) << line;  // both repetitions paired, each inside its shard
    EXPECT_EQ(unpaired, "0") << line;
  }
  EXPECT_EQ(light_rows, 4u) << report.out;
  // compare reads it as one side like any bundle.
  const auto cmp = jbench({"compare", merged, merged});
  EXPECT_FALSE(cmp.timed_out);
  EXPECT_NE(cmp.exit_code, 2) << cmp.err;
  EXPECT_NE(cmp.out.find("w1.persistent.writer.small"), std::string::npos) << cmp.out << cmp.err;
}

TEST(Merge, a_missing_duplicated_reseeded_or_invalid_shard_is_refused_and_nothing_is_written) {
  test::TempDir tmp;
  const std::string s0 = run_shard(tmp.path(), "shards.yaml", 0, 2);
  const std::string s1 = run_shard(tmp.path(), "shards.yaml", 1, 2);
  const std::string other = run_shard(tmp.path(), "shards-other-seed.yaml", 1, 2, "other-1");
  const std::string edited = tmp.path() + "/edited-1";
  fs::copy(s1, edited, fs::copy_options::recursive);
  const Json listed = read_json(edited + "/manifest.json");
  const std::string a_run = listed["runs"][0]["id"];
  std::ofstream(edited + "/runs/" + a_run + "/summary.json", std::ios::app) << " ";

  struct Case {
    std::vector<std::string> shards;
    std::string code, words;
  };
  const std::vector<Case> cases = {
      {{s0}, "merge.missing_shard", "shard 1/2 is missing"},
      {{s0, s1, s0}, "merge.duplicate_shard", "shard 0/2 is given 2 times"},
      {{s0, other}, "merge.seed_mismatch", "seed 7"},
      {{s0, edited}, "merge.shard_invalid", "sums.mismatch"},
      {{s0, tmp.path() + "/no-such-shard"}, "merge.unreadable", "no-such-shard"},
  };
  for (const Case& c : cases) {
    const std::string out = tmp.path() + "/refused";
    std::vector<std::string> args = {"merge", out};
    args.insert(args.end(), c.shards.begin(), c.shards.end());
    const auto r = jbench(args);
    EXPECT_EQ(r.exit_code, 1) << c.code << "\n" << r.err;
    EXPECT_NE(r.err.find(c.code), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.words), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nothing was written"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_FALSE(fs::exists(out));
    for (const auto& e : fs::directory_iterator(tmp.path())) {
      EXPECT_FALSE(e.path().filename().string().starts_with(".staging-refused")) << e.path();
    }
  }
  // A missing shard is named with the runs it would have held, and only those.
  const auto missing = jbench({"merge", tmp.path() + "/refused", s0});
  const Json runs1 = read_json(s1 + "/manifest.json")["runs"];
  EXPECT_NE(missing.err.find("its " + std::to_string(runs1.size()) + " runs are absent"),
            std::string::npos)
      << missing.err;
  std::size_t named = 0;
  for (const auto& r : runs1)
    named += missing.err.find(r["id"].get<std::string>()) != std::string::npos;
  EXPECT_GE(named, 1u) << missing.err;
  for (const auto& r : listed_runs(s0)) {
    EXPECT_EQ(missing.err.find(r + ","), std::string::npos)
        << r << " is shard 0's: " << missing.err;
  }
  // A shard that says it is invalid is refused with what made it so quoted before its marks.
  const std::string recorded = tmp.path() + "/recorded-1";
  fs::copy(edited, recorded, fs::copy_options::recursive);
  Json verdict = read_json(recorded + "/validation.json");
  verdict["valid"] = false;
  std::ofstream(recorded + "/validation.json", std::ios::trunc) << verdict.dump();
  const auto marked = jbench({"merge", tmp.path() + "/refused", s0, recorded});
  EXPECT_EQ(marked.exit_code, 1) << marked.err;
  const auto cause = marked.err.find("sums.mismatch");
  const auto mark = marked.err.find("bundle.recorded_invalid");
  ASSERT_NE(cause, std::string::npos) << marked.err;
  EXPECT_TRUE(mark == std::string::npos || cause < mark) << marked.err;
  // The shards themselves merge, and the merged bundle cannot be merged again as a shard.
  ASSERT_EQ(jbench({"merge", tmp.path() + "/ok", s0, s1}).exit_code, 0);
  const auto again = jbench({"merge", tmp.path() + "/again", tmp.path() + "/ok"});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_NE(again.err.find("merge.not_a_run_bundle"), std::string::npos) << again.err;
  // An existing name is never overwritten.
  const auto exists = jbench({"merge", tmp.path() + "/ok", s0, s1});
  EXPECT_EQ(exists.exit_code, 2) << exists.err;
}

}  // namespace
}  // namespace jbench
