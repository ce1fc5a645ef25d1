// `jbench check-worker -- COMMAND...` against real workers: the SQLite worker holds every rule;
// a worker that breaks one rule (the fault worker's modes, a broken `describe`) is named by that
// rule, and the steps its failure makes moot are reported as not run.
#include <gtest/gtest.h>

#include <filesystem>

#include "jbench/schema/json_schema.h"
#include "run_support.h"

namespace jbench::test {
namespace {

namespace fs = std::filesystem;

std::string bin(const std::string& name) {
  return (fs::path(JBENCH_BINARY).parent_path() / name).string();
}

ProcessResult check(const std::vector<std::string>& command,
                    std::vector<std::pair<std::string, std::string>> env = {}) {
  std::vector<std::string> argv = {JBENCH_BINARY, "check-worker", "--"};
  argv.insert(argv.end(), command.begin(), command.end());
  ProcessOptions options;
  options.timeout = std::chrono::seconds(120);
  options.env = std::move(env);
  return run_process(argv, options);
}

// The verdict printed for `rule`: "ok", "FAIL" or "skip", with the rest of its line.
std::string line_of(const ProcessResult& r, const std::string& rule) {
  for (std::size_t at = 0; (at = r.out.find(rule, at)) != std::string::npos; ++at) {
    const auto begin = r.out.rfind('\n', at) + 1;
    const auto end = r.out.find('\n', at);
    const std::string line = r.out.substr(begin, end - begin);
    if (line.size() > 7 && line.substr(7, rule.size() + 1) == rule + " ") return line.substr(2);
  }
  return "(no line for " + rule + ")";
}

TEST(CheckWorker, the_sqlite_worker_holds_every_rule) {
  const auto r = check({bin("jbench-sqlite-worker")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const char* rule : {"describe", "build-dataset", "hello", "ready", "canary", "warmup",
                           "measure", "result", "bye", "bad-request", "eof"}) {
    EXPECT_TRUE(line_of(r, rule).starts_with("ok")) << rule << "\n" << r.out;
  }
  EXPECT_NE(r.out.find("11 of 11 rules hold"), std::string::npos) << r.out;
}

TEST(CheckWorker, a_worker_that_breaks_one_rule_is_named_by_it) {
  const std::string faulty = fault_worker_dir() + "/jbench-sqlite-worker";
  const struct {
    const char* fault;
    const char* rule;
    const char* says;
  } cases[] = {
      {"garbage", "hello", "not a message: this is not a protocol message"},
      {"exit_before_barrier", "warmup", "its output ended before \"warmup_done\""},
      {"miscount_result", "result", "201 operations counted, 200 were asked for"},
      {"wrong_version", "hello", "speaks protocol 2"},
  };
  for (const auto& c : cases) {
    const auto r = check({faulty}, {{"JBENCH_FAULT", c.fault}});
    EXPECT_EQ(r.exit_code, 1) << c.fault << "\n" << r.out << r.err;
    const std::string line = line_of(r, c.rule);
    EXPECT_TRUE(line.starts_with("FAIL")) << c.fault << "\n" << r.out;
    EXPECT_NE(line.find(c.says), std::string::npos) << c.fault << "\n" << r.out;
    EXPECT_TRUE(line_of(r, "describe").starts_with("ok")) << c.fault << "\n" << r.out;
  }
  // A worker that leaves the session after its canary: what comes after is not run, and the
  // rules of its other sessions are still checked (the fault worker's relay exits 0 whatever
  // its worker did, so they are broken too: each says what it saw).
  const auto early = check({faulty}, {{"JBENCH_FAULT", "exit_before_barrier"}});
  EXPECT_TRUE(line_of(early, "canary").starts_with("ok")) << early.out;
  EXPECT_TRUE(line_of(early, "result").starts_with("skip")) << early.out;
  EXPECT_NE(line_of(early, "bad-request").find("ended with exit 0, exit code 2 expected"),
            std::string::npos)
      << early.out;
  EXPECT_NE(line_of(early, "eof").find("ended with exit 0, exit code 3 expected"),
            std::string::npos)
      << early.out;
}

TEST(CheckWorker, a_worker_that_cannot_describe_itself_fails_describe_and_its_session) {
  const auto r = check({fixture("process-worker.sh")},
                       {{"JBENCH_TEST_SQLITE_WORKER", bin("jbench-sqlite-worker")},
                        {"JBENCH_TEST_DESCRIBE", "two-lines"}});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(line_of(r, "describe").starts_with("FAIL")) << r.out;
  EXPECT_NE(line_of(r, "describe").find("exactly one line"), std::string::npos) << r.out;
  EXPECT_TRUE(line_of(r, "build-dataset").starts_with("ok")) << r.out;
  EXPECT_TRUE(line_of(r, "hello").starts_with("skip")) << r.out;
  EXPECT_TRUE(line_of(r, "eof").starts_with("ok")) << r.out;
}

// The contract's schemas for the lines outside a session (manifests/worker-describe.schema.json,
// worker-dataset.schema.json) hold what the real workers print.
TEST(CheckWorker, the_describe_and_dataset_lines_of_real_workers_follow_their_schemas) {
  const auto describe = JsonSchema::builtin("worker-describe.schema.json");
  ASSERT_TRUE(describe) << describe.error().message;
  const auto dataset = JsonSchema::builtin("worker-dataset.schema.json");
  ASSERT_TRUE(dataset) << dataset.error().message;
  TempDir dir;
  for (const std::string& worker :
       {bin("jbench-sqlite-worker"), std::string(JBENCH_EXAMPLE_WORKER)}) {
    const auto said = run_process({worker, "describe"});
    ASSERT_EQ(said.exit_code, 0) << worker << said.err;
    const auto line = nlohmann::json::parse(said.out, nullptr, false);
    for (const auto& v : describe->validate(line))
      ADD_FAILURE() << worker << v.pointer << v.message;
    const std::string db = dir.path() + "/" + std::filesystem::path(worker).filename().string();
    const auto built = run_process(
        {worker, "build-dataset", "--db", db, "--rows", "100", "--row-bytes", "8", "--seed", "3"});
    ASSERT_EQ(built.exit_code, 0) << worker << built.err;
    const auto report = nlohmann::json::parse(built.out, nullptr, false);
    for (const auto& v : dataset->validate(report))
      ADD_FAILURE() << worker << v.pointer << v.message;
  }
  // And they refuse what is not so.
  EXPECT_FALSE(describe->validate(nlohmann::json{{"type", "describe"}, {"protocol", 1}}).empty());
  EXPECT_FALSE(dataset->validate(nlohmann::json{{"type", "dataset"}, {"rows", 0}}).empty());
}

TEST(CheckWorker, no_command_or_a_missing_program_is_said_plainly) {
  const auto none = run_process({JBENCH_BINARY, "check-worker"}, {});
  EXPECT_EQ(none.exit_code, 2) << none.err;
  const auto missing = check({"/nonexistent/worker"});
  EXPECT_EQ(missing.exit_code, 1) << missing.out;
  EXPECT_NE(line_of(missing, "describe").find("is not an executable file"), std::string::npos)
      << missing.out;
}

}  // namespace
}  // namespace jbench::test
