// A worker jbench has never seen, named by its command (`workload: {kind: process}`): asked to
// describe itself before anything is planned, its matrix's params checked against what it
// declared, then run, traced and validated like a built-in kind. The worker is
// tests/fixtures/run/process-worker.sh: the real SQLite worker behind a program of its own.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "run_support.h"
#include "text_file.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;

std::string sqlite_worker() {
  return (fs::path(JBENCH_BINARY).parent_path() / "jbench-sqlite-worker").string();
}

std::pair<std::string, std::string> worker_env() {
  return {"JBENCH_TEST_SQLITE_WORKER", sqlite_worker()};
}

// process.yaml written into `dir` with each `from` replaced by its `to` (the command made
// absolute, so the copy still names the fixture worker).
std::string matrix_variant(const TempDir& dir, const TextEdits& edits) {
  TextEdits all = {{"./process-worker.sh", fixture("process-worker.sh")}};
  for (const auto& e : edits) {
    if (!e.first.empty()) all.push_back(e);  // an empty edit: the copy as it is
  }
  return write_edited_copy(fixture("process.yaml"), dir.path() + "/variant.yaml", all);
}

std::string matrix_variant(const TempDir& dir, const std::string& from, const std::string& to) {
  return matrix_variant(dir, {{from, to}});
}

ProcessResult jbench_plan(const std::string& matrix,
                          std::vector<std::pair<std::string, std::string>> env = {}) {
  ProcessOptions options;
  options.timeout = std::chrono::seconds(60);
  options.env = std::move(env);
  options.env.push_back(worker_env());
  return run_process({JBENCH_BINARY, "plan", matrix}, options);
}

TEST(RunProcessWorker, runs_traced_and_leaves_a_valid_bundle_that_names_the_worker) {
  TempDir dir;
  const std::string tag = unique_tag();
  RunInvocation inv;
  inv.matrix = "process.yaml";
  inv.traced = true;
  inv.env = {worker_env()};
  const ProcessResult r = run_jbench_run(dir, inv, tag);
  ASSERT_FALSE(r.timed_out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty());
  const std::string bundle = dir.path() + "/out/b";
  expect_valid_bundle(bundle);

  const auto manifest = read_json(bundle + "/manifest.json");
  EXPECT_EQ(manifest["workload"]["kind"], "process");
  EXPECT_EQ(manifest["workload"]["worker"], "sqlite-behind-a-command");
  EXPECT_EQ(manifest["workload"]["command"][0], fixture("process-worker.sh"));
  std::size_t ok = 0;
  for (const auto& run : manifest["runs"]) ok += run.value("status", "") == "ok";
  EXPECT_EQ(ok, 4u) << manifest["runs"].dump();

  const auto workload = read_json(bundle + "/plan.json")["matrix"]["workload"];
  EXPECT_EQ(workload["declaration"]["worker"], "sqlite-behind-a-command");
  EXPECT_EQ(workload["params"]["ops_per_transaction"], 4);
  EXPECT_EQ(workload["params"]["synchronous"], "normal");  // the declared default
  EXPECT_EQ(workload["defaulted"], nlohmann::json::array({"synchronous"}));
  // compare reads the params again through the declaration its plan kept: both sides are
  // evidence, and one run a side is not enough to decide (exit 4, every verdict unknown).
  const ProcessResult compared = run_process({JBENCH_BINARY, "compare", bundle, bundle}, {});
  EXPECT_EQ(compared.exit_code, 4) << compared.out << compared.err;
  EXPECT_NE(compared.out.find("throughput_ops_per_s"), std::string::npos) << compared.out;
  EXPECT_EQ((compared.out + compared.err).find("declaration"), std::string::npos)
      << compared.out << compared.err;
  EXPECT_EQ((compared.out + compared.err).find("cannot be read"), std::string::npos)
      << compared.out << compared.err;
}

TEST(RunProcessWorker, a_declared_parameter_is_an_axis_whose_values_reach_the_worker) {
  TempDir dir;
  const std::string matrix =
      matrix_variant(dir, {{"ops_per_transaction: 4, ", ""},
                           {"lane: [mixed]", "lane: [writer]"},
                           {"workers: [1, 2]", "workers: [1]"},
                           {"trace: [baseline, light]", "ops_per_transaction: [1, 25]"}});
  const std::string tag = unique_tag();
  RunInvocation inv;
  inv.matrix = matrix;
  inv.traced = true;  // the matrix has no trace axis left to narrow
  inv.env = {worker_env()};
  const ProcessResult r = run_jbench_run(dir, inv, tag);
  ASSERT_FALSE(r.timed_out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty());
  const std::string bundle = dir.path() + "/out/b";
  expect_valid_bundle(bundle);

  // Each run was configured with its cell's value, and the worker's own count of transactions
  // shows it used it: a writer commits every ops_per_transaction operations.
  const auto manifest = read_json(bundle + "/manifest.json");
  ASSERT_EQ(manifest["runs"].size(), 2u) << manifest["runs"].dump();
  for (const auto& entry : manifest["runs"]) {
    const std::string id = entry["id"];
    const auto run = read_json(bundle + "/runs/" + id + "/run.json");
    const std::string value = run["values"]["ops_per_transaction"];
    EXPECT_NE(id.find("ops_per_transaction=" + value + "."), std::string::npos) << id;
    const auto result = read_json(bundle + "/runs/" + id + "/raw/worker-0.result.json");
    const std::uint64_t ops = result["operations"], transactions = result["transactions"];
    const std::uint64_t per = std::stoull(value);
    ASSERT_GT(transactions, 0u) << id;
    // The measure window may cut one transaction at each end.
    EXPECT_LE(ops, (transactions + 2) * per) << id;
    EXPECT_GE(ops + 2 * per, transactions * per) << id;
  }
  const auto axes = read_json(bundle + "/plan.json")["axes"];
  bool listed = false;
  for (const auto& a : axes) listed |= a["axis"] == "ops_per_transaction";
  EXPECT_TRUE(listed) << axes.dump();
}

TEST(RunProcessWorker, a_param_the_worker_does_not_declare_is_a_located_error) {
  TempDir dir;
  const std::string matrix = matrix_variant(dir, "ops_per_transaction: 4", "ops_per_txn: 4");
  const ProcessResult r = jbench_plan(matrix);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(matrix + ":10:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("workload.params.ops_per_txn"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ops_per_transaction"), std::string::npos) << r.err;  // suggested

  const std::string range = matrix_variant(dir, "busy_timeout_ms: 1000", "busy_timeout_ms: 70000");
  const ProcessResult out_of_range = jbench_plan(range);
  EXPECT_EQ(out_of_range.exit_code, 2);
  EXPECT_NE(out_of_range.err.find("out of range 0..60000"), std::string::npos) << out_of_range.err;
}

TEST(RunProcessWorker, a_worker_that_cannot_describe_itself_is_refused_before_any_run) {
  TempDir dir;
  const std::string matrix = matrix_variant(dir, "", "");
  const struct {
    const char* mode;
    const char* says;
  } cases[] = {{"fail", "failed (exit 3): describe is broken here"},
               {"garbage", "answered wrong: the describe line is not a JSON object"},
               {"two-lines", "must print exactly one line"}};
  for (const auto& c : cases) {
    const ProcessResult r = jbench_plan(matrix, {{"JBENCH_TEST_DESCRIBE", c.mode}});
    EXPECT_EQ(r.exit_code, 2) << c.mode << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.mode << ": " << r.err;
    EXPECT_NE(r.err.find("workload.command"), std::string::npos) << r.err;
  }
  const std::string missing =
      matrix_variant(dir, fixture("process-worker.sh"), dir.path() + "/no-such-worker");
  const ProcessResult r = jbench_plan(missing);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is not an executable file"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace jbench::test
