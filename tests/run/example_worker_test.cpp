// The example outside worker (docs/examples/worker): a C program jbench knows only by its
// command passes `jbench check-worker` in every lane and runs its own matrix — a declared
// parameter swept as an axis, baseline and light — into a valid bundle whose runs were each sent
// their cell's value.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "run_support.h"
#include "text_file.h"

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

// kv.yaml as the page gives it, with its command pointed at this build's binary and `edits` made.
std::string example_matrix(const TempDir& dir, const TextEdits& edits = {}) {
  TextEdits all = {{"../../../build/bin/jbench-example-kv-worker", JBENCH_EXAMPLE_WORKER}};
  all.insert(all.end(), edits.begin(), edits.end());
  return write_edited_copy(example_dir() + "/kv.yaml", dir.path() + "/kv.yaml", all);
}

// `jbench run MATRIX ARGS...` into <dir>/out/b, every process it started ended.
ProcessResult run_example(const TempDir& dir, const std::string& matrix,
                          std::vector<std::string> args) {
  const std::string tag = unique_tag();
  ProcessOptions options = bounded();
  options.env = {{"JBENCH_TEST_TAG", tag}};
  std::vector<std::string> argv = {JBENCH_BINARY,       "run",    matrix, "--out",
                                   dir.path() + "/out", "--name", "b"};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProcessResult r = run_process(argv, options);
  EXPECT_TRUE(processes_tagged(tag).empty());
  return r;
}

TEST(ExampleWorker, its_matrix_sweeps_a_declared_parameter_into_a_valid_bundle) {
  TempDir dir;
  const std::string matrix = example_matrix(dir);
  const ProcessResult r = run_example(dir, matrix, {"--repetitions", "1"});
  ASSERT_FALSE(r.timed_out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string bundle = dir.path() + "/out/b";
  expect_valid_bundle(bundle);

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

TEST(ExampleWorker, its_own_counters_are_evidence_the_validator_report_and_compare_read) {
  TempDir dir;
  // Full runs record every jb_counter call; the worker also counts the same bytes itself. Phases
  // of a fixed number of operations: a timed phase on a fast, quiet host records as many calls
  // as it can make, up to the raw files' bound.
  const std::string matrix =
      example_matrix(dir, {{"trace: [baseline, light]", "trace: [full]"},
                           {"warmup: {duration_ms: 100}", "warmup: {operations: 1000}"},
                           {"measure: {duration_ms: 300}", "measure: {operations: 20000}"}});
  const ProcessResult r =
      run_example(dir, matrix, {"--only", "workers=1", "--only", "work_rounds=0"});
  ASSERT_FALSE(r.timed_out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string bundle = dir.path() + "/out/b";
  expect_valid_bundle(bundle);

  // Two ways to the same count: the bridge's records of jb_counter("bytes_copied", n), summed
  // over the measure phase, and the worker's own result.counters. Each operation copies one
  // value of the dataset's row_bytes.
  const auto manifest = read_json(bundle + "/manifest.json");
  const std::uint64_t row_bytes =
      read_json(bundle + "/plan.json")["matrix"]["datasets"][0]["row_bytes"];
  std::size_t full_runs = 0;
  for (const auto& entry : manifest["runs"]) {
    if (entry["trace"] != "full") continue;
    ++full_runs;
    const auto summary =
        read_json(bundle + "/runs/" + entry["id"].get<std::string>() + "/summary.json");
    std::int64_t recorded = 0;
    for (const auto& cell : summary["collectors"]["counters"]["cells"]) {
      if (cell["phase"] == "measure" && cell["name"] == "bytes_copied")
        recorded += cell["sum"].get<std::int64_t>();
    }
    const std::uint64_t operations = summary["measure"]["operations"];
    ASSERT_GT(operations, 0u);
    EXPECT_EQ(recorded, summary["measure"]["counters"]["bytes_copied"].get<std::int64_t>());
    EXPECT_EQ(static_cast<std::uint64_t>(recorded), operations * row_bytes);
  }
  EXPECT_GT(full_runs, 0u);

  const ProcessResult report = run_process({JBENCH_BINARY, "report", bundle}, bounded());
  EXPECT_EQ(report.exit_code, 0) << report.err;
  for (const char* row : {"counter:bytes_copied_per_op", "result:bytes_copied_per_op"}) {
    EXPECT_NE(report.out.find(row), std::string::npos) << report.out;
  }
  const ProcessResult compared =
      run_process({JBENCH_BINARY, "compare", bundle, bundle, "--json"}, bounded());
  const auto rows = nlohmann::json::parse(compared.out, nullptr, false);
  ASSERT_TRUE(rows.is_object()) << compared.out << compared.err;
  std::size_t counter_rows = 0;
  for (const auto& row : rows["rows"]) {
    if (row["metric"] != "counter:bytes_copied_per_op") continue;
    ++counter_rows;
    EXPECT_DOUBLE_EQ(row["base_median"].get<double>(), static_cast<double>(row_bytes))
        << row.dump();
  }
  EXPECT_EQ(counter_rows, 1u) << compared.out;

  // The Chrome trace draws the counter as a track of its running sum: its last value is every
  // phase's records added up, as the summary holds them.
  const std::string full_id = "w1.persistent.mixed.small.work_rounds=0.full.r1";
  const auto full_summary = read_json(bundle + "/runs/" + full_id + "/summary.json");
  std::int64_t all_phases = 0;
  for (const auto& cell : full_summary["collectors"]["counters"]["cells"]) {
    if (cell["name"] == "bytes_copied") all_phases += cell["sum"].get<std::int64_t>();
  }
  const std::string trace = dir.path() + "/trace.json";
  const ProcessResult exported = run_process({JBENCH_BINARY, "export", bundle, "--format",
                                              "chrome-json", "--run", full_id, "--out", trace},
                                             bounded());
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  std::optional<std::int64_t> last;
  const auto chrome = read_json(trace);  // kept: a range-for over a temporary's member dangles
  for (const auto& event : chrome["traceEvents"]) {
    if (event["ph"] == "C" && event["name"] == "bytes_copied") {
      last = event["args"]["bytes_copied"].get<std::int64_t>();
    }
  }
  ASSERT_TRUE(last.has_value()) << "no counter track in " << trace;
  EXPECT_EQ(*last, all_phases);
}

}  // namespace
}  // namespace jbench::test
