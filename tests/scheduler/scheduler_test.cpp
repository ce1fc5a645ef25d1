// The scheduler documents (scheduler/*.h): shell words that bash reads back as given, the YAML
// writer read back by the project's strict YAML reader, the Slurm scripts, the task script's
// handling of an earlier attempt (run by real bash, with a stand-in for jbench: the real path is
// tests/slurm), and the Kubernetes Jobs checked against the real batch/v1 schema
// (tests/fixtures/k8s/, generated from the Kubernetes 1.30 OpenAPI spec).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "jbench/matrix/yaml_tree.h"
#include "jbench/scheduler/k8s_manifest.h"
#include "jbench/scheduler/slurm_script.h"
#include "jbench/scheduler/yaml_text.h"
#include "jbench/schema/json_schema.h"
#include "run_process.h"
#include "temp_dir.h"

namespace jbench::scheduler {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using Ordered = nlohmann::ordered_json;

std::string k8s_fixture(const std::string& name) {
  return std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/k8s/" + name;
}

// A YAML node as JSON under the YAML 1.2 core schema: a quoted or block scalar is a string, a
// plain one null, a boolean, an integer or a float when it reads as one.
Json to_json(const yaml::Node& n) {
  switch (n.kind) {
    case yaml::Node::Kind::null:
      return nullptr;
    case yaml::Node::Kind::sequence: {
      Json out = Json::array();
      for (const auto& item : n.items) out.push_back(to_json(item));
      return out;
    }
    case yaml::Node::Kind::map: {
      Json out = Json::object();
      for (const auto& e : n.entries) out[e.key.scalar] = to_json(e.value);
      return out;
    }
    case yaml::Node::Kind::scalar:
      break;
  }
  if (n.quoted) return n.scalar;
  if (n.scalar == "null" || n.scalar == "~") return nullptr;
  if (n.scalar == "true" || n.scalar == "false") return n.scalar == "true";
  const Json number = Json::parse(n.scalar, nullptr, false);
  return number.is_number() ? number : Json(n.scalar);
}

// Every document of a "---"-separated stream.
std::vector<Json> documents(const std::string& stream) {
  std::vector<Json> out;
  std::size_t at = 0;
  while (at <= stream.size()) {
    const std::size_t next = stream.find("\n---\n", at);
    const std::string text =
        stream.substr(at, next == std::string::npos ? std::string::npos : next - at);
    at = next == std::string::npos ? stream.size() + 1 : next + 5;
    if (text.find_first_not_of(" \n") == std::string::npos || text.rfind("#", 0) == 0) continue;
    const auto tree = yaml::load_yaml_tree(text, "k8s.yaml");
    EXPECT_TRUE(tree.ok()) << (tree.ok() ? "" : tree.diagnostics.front().message) << "\n" << text;
    out.push_back(to_json(tree.root));
  }
  return out;
}

std::vector<std::string> violations(const Json& doc) {
  static const auto schema = JsonSchema::load(k8s_fixture("job-batch-v1.schema.json"));
  EXPECT_TRUE(schema) << schema.error().message;
  std::vector<std::string> out;
  if (!schema) return {"no schema"};
  for (const auto& v : schema->validate(doc)) out.push_back(v.pointer + ": " + v.message);
  return out;
}

ShardedRun sample_run() {
  ShardedRun r;
  r.jbench = "/opt/jbench/build/bin/jbench";
  r.matrix = "/opt/jbench/matrices/my matrix.yaml";
  r.run_args = {"--only", "lane=reader", "--repetitions", "3"};
  r.shards = 4;
  r.parallel = 2;
  r.shard_dir = "/bundles/nightly/shards";
  r.merged = "/bundles/nightly/nightly";
  r.name = "nightly";
  return r;
}

TEST(ShellWord, bash_reads_every_word_back_as_it_was) {
  const std::vector<std::string> words = {"plain", "with space",  "it's",      "$HOME",
                                          "a\"b",  "back\\slash", "new\nline", "*",
                                          "",      "--only=x,y"};
  std::string script = "printf '%s\\n'";
  for (const auto& w : words) script += " " + shell_word(w);
  const auto r = test::run_process({"/bin/bash", "-c", script});
  std::string expected;
  for (const auto& w : words) expected += w + "\n";
  EXPECT_EQ(r.out, expected);
  EXPECT_EQ(shell_word("/opt/jbench/matrices/sqlite.yaml"), "/opt/jbench/matrices/sqlite.yaml");
}

TEST(YamlText, the_strict_reader_reads_back_the_same_document) {
  Ordered doc = {
      {"plain", "text"},
      {"needs quotes", "yes: no # not a comment"},
      {"number as text", "4"},
      {"bool as text", "true"},
      {"unicode", "µs — 1 ≤ 2"},
      {"script", "set -e\n  indented line\n\nafter a blank\n"},
      {"no final newline", "a\nb"},
      {"two final newlines", "a\n\n"},
      {"leading space", " a\n"},
      {"-dash", 1},
      {"numbers", {0, -3, 2.5, 1e20}},
      {"flags", {true, false, nullptr}},
      {"empty", {{"list", Ordered::array()}, {"map", Ordered::object()}}},
      {"list of maps", {{{"a", 1}, {"b", {{"c", "d"}}}}, {{"e", Ordered::array({"f"})}}}}};
  const auto back = documents(to_yaml(doc));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0], Json::parse(doc.dump())) << to_yaml(doc);
  // A script is a literal block, so that it reads as the script it is.
  EXPECT_NE(to_yaml(doc).find("script: |\n  set -e\n    indented line\n"), std::string::npos)
      << to_yaml(doc);
}

TEST(SlurmScript, an_array_of_n_tasks_at_most_p_at_once_and_a_merge_after_all_of_them) {
  SlurmOptions o;
  o.log_dir = "/shared/nightly.slurm/logs";
  o.task_minutes = 75;
  o.partition = "bench";
  o.sbatch_options = {"--constraint=epyc"};
  const std::string array = slurm_array_script(sample_run(), o);
  for (const char* line :
       {"#SBATCH --array=0-3%2\n", "#SBATCH --exclusive\n", "#SBATCH --time=75\n",
        "#SBATCH --partition=bench\n", "#SBATCH --constraint=epyc\n",
        "#SBATCH --output=/shared/nightly.slurm/logs/shard-%a.out\n",
        "k=\"${SLURM_ARRAY_TASK_ID}\"\n",
        "run '/opt/jbench/matrices/my matrix.yaml' --shard \"$k/4\""}) {
    EXPECT_NE(array.find(line), std::string::npos) << line << "\n" << array;
  }
  EXPECT_NE(array.find("--only lane=reader --repetitions 3\n"), std::string::npos) << array;
  // The #SBATCH lines come before the first command, or sbatch ignores them.
  EXPECT_LT(array.rfind("#SBATCH"), array.find("set -euo pipefail"));
  o.exclusive = false;
  EXPECT_EQ(slurm_array_script(sample_run(), o).find("--exclusive"), std::string::npos);
  ShardedRun unthrottled = sample_run();
  unthrottled.parallel = 0;
  EXPECT_NE(slurm_array_script(unthrottled, o).find("#SBATCH --array=0-3\n"), std::string::npos);

  const std::string merge = slurm_merge_script(sample_run(), o);
  EXPECT_NE(merge.find("#SBATCH --output=/shared/nightly.slurm/logs/merge.out\n"),
            std::string::npos);
  EXPECT_NE(merge.find("merge /bundles/nightly/nightly \"${shards[@]}\""), std::string::npos)
      << merge;
  const auto after = slurm_merge_submission("4242");
  EXPECT_NE(std::find(after.begin(), after.end(), "--dependency=afterany:4242"), after.end());
}

// The task script, run by bash with a stand-in jbench that records its arguments and leaves the
// bundle `jbench run` would: a first attempt runs; a retry after an interrupted one keeps that
// one in earlier/ and runs again; one after a complete one does nothing.
TEST(TaskScript, a_retry_keeps_the_earlier_attempt_and_a_finished_shard_is_not_run_again) {
  test::TempDir tmp;
  const std::string fake = tmp.path() + "/jbench";
  std::ofstream(fake) << "#!/bin/bash\n"
                         "echo \"$@\" >> \"" +
                             tmp.path() +
                             "/calls\"\n"
                             "while [ \"$1\" != --out ]; do shift; done; out=$2; shift 2; name=$2\n"
                             "mkdir -p \"$out/$name\"\n";
  fs::permissions(fake, fs::perms::owner_all);
  ShardedRun run = sample_run();
  run.jbench = fake;
  run.shard_dir = tmp.path() + "/shards";
  fs::create_directories(run.shard_dir);
  const std::string script = "set -euo pipefail\n" + shard_task_script(run, "${TASK}");
  const auto attempt = [&] {
    test::ProcessOptions o;
    o.env = {{"TASK", "2"}};
    return test::run_process({"/bin/bash", "-c", script}, o);
  };
  auto calls = [&] {
    std::ifstream in(tmp.path() + "/calls");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  fs::create_directories(run.shard_dir + "/shard-2.interrupted/runs");
  ASSERT_EQ(attempt().exit_code, 0);
  EXPECT_NE(calls().find("--shard 2/4 --out " + run.shard_dir + " --name shard-2 --only "),
            std::string::npos)
      << calls();
  EXPECT_TRUE(fs::is_directory(run.shard_dir + "/shard-2"));
  EXPECT_FALSE(fs::exists(run.shard_dir + "/shard-2.interrupted"));
  ASSERT_TRUE(fs::is_directory(run.shard_dir + "/earlier"));
  const auto kept = fs::directory_iterator(run.shard_dir + "/earlier")->path().filename().string();
  EXPECT_TRUE(kept.starts_with("shard-2.interrupted.")) << kept;
  const auto again = attempt();
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_NE(again.err.find("already complete"), std::string::npos) << again.err;
  const std::string all = calls();
  EXPECT_EQ(std::count(all.begin(), all.end(), '\n'), 1) << all;  // one call of jbench, not two
}

TEST(K8sManifest, the_indexed_job_and_the_merge_job_are_valid_batch_v1_jobs) {
  for (bool exclusive : {true, false}) {
    K8sOptions o;
    o.image = "registry.example/jbench:1";
    o.claim = "jbench-bundles";
    o.retries = 2;
    o.exclusive = exclusive;
    o.cpu = exclusive ? "2" : "";
    o.memory = exclusive ? "4Gi" : "";
    o.namespace_name = exclusive ? "bench" : "";
    o.merge_wait_minutes = 90;
    o.merge_minutes = 40;
    const auto docs = documents(k8s_manifest_yaml(sample_run(), o));
    ASSERT_EQ(docs.size(), 2u);
    for (const Json& d : docs) EXPECT_EQ(violations(d), std::vector<std::string>{}) << d.dump(2);
    const Json& shards = docs[0];
    EXPECT_EQ(shards["metadata"]["name"], "nightly-shards");
    EXPECT_EQ(shards["spec"]["completionMode"], "Indexed");
    EXPECT_EQ(shards["spec"]["completions"], 4);
    EXPECT_EQ(shards["spec"]["parallelism"], 2);
    EXPECT_EQ(shards["spec"]["backoffLimitPerIndex"], 2);
    const Json& pod = shards["spec"]["template"]["spec"];
    EXPECT_EQ(pod["restartPolicy"], "Never");
    EXPECT_EQ(pod["hostPID"], true);
    EXPECT_EQ(pod.contains("affinity"), exclusive);
    const Json& c = pod["containers"][0];
    EXPECT_EQ(c["securityContext"]["privileged"], true);
    const std::string script = c["command"][2];
    EXPECT_NE(script.find("k=\"${JOB_COMPLETION_INDEX}\""), std::string::npos) << script;
    EXPECT_NE(script.find("--shard \"$k/4\""), std::string::npos) << script;
    EXPECT_EQ(c["volumeMounts"][0]["mountPath"], "/bundles");
    EXPECT_EQ(pod["volumes"][0]["persistentVolumeClaim"]["claimName"], "jbench-bundles");
    const Json& merge = docs[1];
    EXPECT_EQ(merge["metadata"]["name"], "nightly-merge");
    const std::string wait = merge["spec"]["template"]["spec"]["containers"][0]["command"][2];
    EXPECT_NE(wait.find("seq 0 3"), std::string::npos) << wait;
    EXPECT_NE(wait.find("merge /bundles/nightly/nightly"), std::string::npos) << wait;
    // The deadline is the wait for the shards, then the merge's own bound.
    EXPECT_EQ(merge["spec"]["activeDeadlineSeconds"], (90 + 40) * 60);
  }
}

// The merge's bound: every run at its output limit, read twice, plus a fixed margin; never less
// than the margin, growing with the runs and with each run's limit.
TEST(MergeBound, covers_every_run_at_its_output_limit_read_twice) {
  EXPECT_EQ(merge_bound_minutes(0, 512), 15u);
  std::uint32_t last = 0;
  for (std::uint64_t runs : {1, 10, 100, 864, 10'000}) {
    const std::uint32_t m = merge_bound_minutes(runs, 512);
    EXPECT_GT(m, last) << runs;
    EXPECT_GE(merge_bound_minutes(runs, 1024), m) << runs;
    // At the assumed rate the bound reads 2 * runs * 512 MiB, and rounds up by less than a minute.
    const double read_minutes =
        2.0 * static_cast<double>(runs) * 512 / static_cast<double>(kMergeReadMibPerSecond) / 60;
    EXPECT_GE(m - 15, read_minutes) << runs;
    EXPECT_LT(m - 15, read_minutes + 1) << runs;
    last = m;
  }
  // Clamped to a year, whatever the matrix says.
  EXPECT_EQ(merge_bound_minutes(1u << 30, 1u << 20), 525'600u);
}

// The schema check can fail: the samples beside the schema, and a generated Job with one field
// misspelled and one of the wrong type.
TEST(K8sManifest, the_schema_refuses_unknown_fields_wrong_types_and_missing_names) {
  const auto read = [](const std::string& name) {
    std::ifstream in(k8s_fixture(name));
    return Json::parse(in, nullptr, false);
  };
  EXPECT_TRUE(violations(read("indexed-job-valid.json")).empty());
  for (const char* bad : {"invalid-misspelled-field.json", "invalid-wrong-type.json",
                          "invalid-container-without-name.json", "invalid-wrong-kind.json",
                          "invalid-wrong-apiversion.json", "invalid-nested-unknown-field.json"}) {
    EXPECT_EQ(violations(read(bad)).size(), 1u) << bad;
  }
  K8sOptions o;
  o.image = "i";
  o.claim = "c";
  Json job = Json::parse(k8s_shard_job(sample_run(), o).dump());
  job["spec"]["completionsMode"] = job["spec"]["completionMode"];
  job["spec"]["template"]["spec"]["hostPID"] = "true";
  EXPECT_EQ(violations(job).size(), 2u) << job.dump(2);
}

}  // namespace
}  // namespace jbench::scheduler
