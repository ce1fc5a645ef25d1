// The example outside worker (docs/examples/worker): a C program jbench knows only by its
// command passes `jbench check-worker` in every lane and runs its own matrix — a declared
// parameter swept as an axis, baseline and light — into a valid bundle whose runs were each sent
// their cell's value.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "run_support.h"

namespace jbench::test {
namespace {

std::string example_dir() { return std::string(JBENCH_SOURCE_DIR) + "/docs/examples/worker"; }

ProcessOptions bounded() {
  ProcessOptions options;
  options.timeout = std::chrono::seconds(240);  // a safety net: the matrix takes seconds
  return options;
}

TEST(ExampleWorker, every_rule_of_check_worker_holds_in_every_lane) {
  TempDir dir;
  for (const char* lane : {"writer", "reader", "mixed"}) {
    ProcessOptions options = bounded();
    options.cwd = dir.path();
    const ProcessResult r = run_process(
        {JBENCH_BINARY, "check-worker", "--lane", lane, "--", JBENCH_EXAMPLE_WORKER}, options);
    EXPECT_EQ(r.exit_code, 0) << lane << ":\n" << r.out << r.err;
    EXPECT_NE(r.out.find("11 of 11 rules hold"), std::string::npos) << r.out;
  }
}

TEST(ExampleWorker, its_matrix_sweeps_a_declared_parameter_into_a_valid_bundle) {
  TempDir dir;
  // kv.yaml as the page gives it, with its command pointed at this build's binary.
  std::ifstream in(example_dir() + "/kv.yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  const std::string command = "../../../build/bin/jbench-example-kv-worker";
  ASSERT_NE(yaml.find(command), std::string::npos);
  yaml.replace(yaml.find(command), command.size(), JBENCH_EXAMPLE_WORKER);
  const std::string matrix = dir.path() + "/kv.yaml";
  std::ofstream(matrix) << yaml;

  const std::string tag = unique_tag();
  ProcessOptions options = bounded();
  options.env = {{"JBENCH_TEST_TAG", tag}};
  const ProcessResult r = run_process({JBENCH_BINARY, "run", matrix, "--repetitions", "1", "--out",
                                       dir.path() + "/out", "--name", "b"},
                                      options);
  ASSERT_FALSE(r.timed_out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(processes_tagged(tag).empty());
  const std::string bundle = dir.path() + "/out/b";
  const ProcessResult valid = run_process({JBENCH_BINARY, "validate", bundle}, {});
  EXPECT_EQ(valid.exit_code, 0) << valid.out << valid.err;

  const auto manifest = read_json(bundle + "/manifest.json");
  EXPECT_EQ(manifest["workload"]["worker"], "kv-example");
  ASSERT_EQ(manifest["runs"].size(), 8u);  // 2 workers x 2 work_rounds x (baseline, light)
  for (const auto& entry : manifest["runs"]) {
    EXPECT_EQ(entry["status"], "ok") << entry.dump();
    const std::string id = entry["id"];
    const auto run = read_json(bundle + "/runs/" + id + "/run.json");
    const std::string rounds = run["values"]["work_rounds"];
    // The configure message each worker was sent carries the cell's value.
    std::ifstream transcript(bundle + "/runs/" + id + "/logs/protocol.jsonl");
    std::string line;
    std::size_t configured = 0;
    while (std::getline(transcript, line)) {
      if (line.find("configure") == std::string::npos) continue;
      EXPECT_NE(line.find("\\\"work_rounds\\\":" + rounds), std::string::npos) << line;
      ++configured;
    }
    EXPECT_EQ(configured, run["workers"].size()) << id;
  }

  // The report names where an engine it has never seen spent its time, cell by cell.
  const ProcessResult report = run_process({JBENCH_BINARY, "report", bundle}, bounded());
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("transaction:read"), std::string::npos) << report.out;
  EXPECT_NE(report.out.find("work_rounds=64"), std::string::npos) << report.out;
}

}  // namespace
}  // namespace jbench::test
