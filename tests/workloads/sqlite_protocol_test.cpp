// Protocol v1 with a real jbench-sqlite-worker process: the happy path for every lane and
// connection kind, determinism of the operation stream, and every way a session can go wrong.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "worker_fixture.h"

namespace jbench::test {
namespace {

constexpr std::uint64_t kProtocolRows = 2000;

struct LaneCase {
  std::string lane;
  std::string connection;
};
// Names the parameter in test output instead of dumping its bytes.
void PrintTo(const LaneCase& c, std::ostream* os) { *os << c.lane << "/" << c.connection; }

class SqliteProtocolHappyPath : public ::testing::TestWithParam<LaneCase> {};

TEST_P(SqliteProtocolHappyPath, RunsExactlyTheRequestedOperationsAndSaysBye) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  build_dataset(db, kProtocolRows, 32, 11);
  WorkerOptions o;
  o.lane = GetParam().lane;
  o.connection = GetParam().connection;
  if (o.lane == "mixed") o.read_ratio = 0.5;
  const Transcript t = run_to_completion(configure_message(db, o));

  EXPECT_EQ(t.hello["protocol"], 1);
  EXPECT_EQ(t.hello["worker"], "sqlite");
  EXPECT_EQ(t.hello["bridge"], "off");
  EXPECT_TRUE(
      std::regex_match(t.hello["runtime_id"].get<std::string>(), std::regex("[0-9a-f]{32}")));
  EXPECT_LE(ns(t.hello["t_ns"]), ns(t.ready["t_ns"]));
  ns(t.ready["open_ns"]);
  EXPECT_EQ(t.ready["statements"], t.result["statements"]);  // classified once, at configure
  EXPECT_EQ(t.canary_done["path"], "/jbench-canary/" + t.hello["runtime_id"].get<std::string>());
  EXPECT_EQ(t.canary_done["errno"], "ENOENT");
  EXPECT_EQ(t.warmup_done["operations"], 8);
  EXPECT_EQ(t.measure_done["operations"], 40);
  EXPECT_EQ(t.measure_done["straddled"], 0);

  const json& r = t.result;
  expect_consistent_result(r);
  EXPECT_EQ(r["status"], "ok") << r["conditions"].dump();
  EXPECT_EQ(r["runtime_id"], t.hello["runtime_id"]);
  EXPECT_EQ(r["operations"], 40);
  EXPECT_EQ(r["transactions"], 10);  // 40 operations, 4 per transaction, nothing failed
  EXPECT_EQ(r["errors"], json::object());
  EXPECT_EQ(r["retries"], 0);
  EXPECT_EQ(r["straddled"], 0);
  if (o.lane == "writer") {
    EXPECT_EQ(r["writes"], 40);
  }
  if (o.lane == "reader") {
    EXPECT_EQ(r["reads"], 40);
  }
  if (o.lane == "mixed") {
    EXPECT_GT(r["reads"], 0);
    EXPECT_GT(r["writes"], 0);
  }
  const std::uint64_t opens = histogram_count(r["connection_ns"]["open"]);
  EXPECT_EQ(opens, o.connection == "cold" ? 10u : 0u);

  // Every counted insert (warmup and measure) is in the database; nothing else was added.
  const auto inserts = t.warmup_done["operations_by_type"]["insert"].get<std::int64_t>() +
                       r["operations_by_type"]["insert"].get<std::int64_t>();
  EXPECT_EQ(count_items(db), static_cast<std::int64_t>(kProtocolRows) + inserts);

  const std::uint64_t teardown = ns(t.bye["teardown_ns"]);
  if (o.connection == "cold") {
    EXPECT_EQ(teardown, 0u);
  } else {
    EXPECT_GT(teardown, 0u);
  }
  EXPECT_TRUE(t.exit.exited);
  EXPECT_EQ(t.exit.code, 0);
}

INSTANTIATE_TEST_SUITE_P(
    LanesAndConnections, SqliteProtocolHappyPath,
    ::testing::Values(LaneCase{"writer", "persistent"}, LaneCase{"writer", "cold"},
                      LaneCase{"reader", "persistent"}, LaneCase{"reader", "cold"},
                      LaneCase{"mixed", "persistent"}, LaneCase{"mixed", "cold"}),
    [](const auto& test) { return test.param.lane + "_" + test.param.connection; });

TEST(SqliteProtocol, ResultRecordsTheClassificationOfEveryStatement) {
  TempDir dir;
  build_dataset(dir.path() + "/d.db", 500, 8, 1);
  WorkerOptions o;
  o.lane = "reader";
  const json result = run_to_completion(configure_message(dir.path() + "/d.db", o)).result;
  std::map<std::string, std::pair<std::string, std::string>> seen;
  std::map<std::string, std::string> plan_class;
  for (const auto& s : result["statements"]) {
    seen[s["name"]] = {s["op_type"], s["subquery"]};
    plan_class[s["name"]] = s["plan_class"];
    EXPECT_FALSE(s["query_plan"].empty() && s["name"] != "insert_item") << s.dump();
  }
  using P = std::pair<std::string, std::string>;
  EXPECT_EQ(seen["weight_by_id_range"], P("scalar_correlated", "correlated"));
  EXPECT_EQ(seen["count_above_mean_weight"], P("scalar_uncorrelated", "uncorrelated"));
  EXPECT_EQ(seen["lookup_by_id"], P("point_lookup", "none"));
  EXPECT_EQ(seen["scan_grp_range"], P("range_scan", "none"));
  EXPECT_EQ(plan_class["weight_by_id_range"], "correlated_scalar_subquery");
  EXPECT_EQ(plan_class["count_above_mean_weight"], "uncorrelated_scalar_subquery");
  EXPECT_EQ(plan_class["lookup_by_id"], "point_lookup");
  EXPECT_EQ(plan_class["insert_item"], "insert");
}

// A reader never changes the database, so the same stream must read exactly the same rows.
TEST(SqliteProtocol, OperationStreamIsDeterminedBySeedAndWorkerIndex) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  build_dataset(db, kProtocolRows, 16, 5);
  WorkerOptions o;
  o.lane = "reader";
  o.measure = {{"operations", 200}};
  const auto signature = [&](std::uint32_t index) {
    o.worker_index = index;
    const json r = run_to_completion(configure_message(db, o)).result;
    return std::make_pair(r["operations_by_type"], r["rows_returned"]);
  };
  const auto first = signature(0);
  EXPECT_EQ(signature(0), first);
  EXPECT_NE(signature(1), first);
}

// ---- failures --------------------------------------------------------------------------------

TEST(SqliteProtocol, InvalidConfigureListsEveryProblemAndExitsTwo) {
  const SmallDataset data;
  json m = configure_message(data.db, WorkerOptions{});
  m["params"]["ops_per_transaction"] = 0;
  m["bogus"] = true;
  Worker w;
  w.send(m);
  const json error = w.expect("error");
  const std::string errors = error["errors"].dump();
  EXPECT_NE(errors.find("params.ops_per_transaction"), std::string::npos) << errors;
  EXPECT_NE(errors.find("configure.bogus"), std::string::npos) << errors;
  EXPECT_EQ(w.expect_exit().code, 2);
}

TEST(SqliteProtocol, MissingDatabaseIsAnErrorAndNothingIsCreated) {
  TempDir dir;
  Worker w;
  w.send(configure_message(dir.path() + "/absent.db", WorkerOptions{}));
  w.expect("error");
  EXPECT_EQ(w.expect_exit().code, 2);
  EXPECT_NE(access((dir.path() + "/absent.db").c_str(), F_OK), 0);
}

TEST(SqliteProtocol, DatabaseThatIsNotADatasetIsRefused) {
  TempDir dir;
  const std::string db = dir.path() + "/other.db";
  build_dataset(db, 100, 8, 1);
  // Same schema, but no longer claiming the dataset format.
  exec_sql(db, "UPDATE meta SET value = 'something/9' WHERE key = 'format'");
  Worker w;
  w.send(configure_message(db, WorkerOptions{}));
  const json error = w.expect("error");
  EXPECT_NE(error["message"].get<std::string>().find("not a jbench.sqlite_dataset/1"),
            std::string::npos)
      << error.dump();
  EXPECT_EQ(w.expect_exit().code, 2);
}

// Lines that break the protocol at the first message: each ends the worker with an error, exit 2.
TEST(SqliteProtocol, MalformedOrUnexpectedMessagesEndWithExitTwo) {
  for (const std::string line :
       {"{not json", "[1,2]", R"({"kind":"configure"})", R"({"type":7})", R"({"type":"restart"})",
        R"({"type":"start"})", R"({"type":"canary"})"}) {
    Worker w;
    w.send_raw(line);
    const json error = w.expect("error");
    EXPECT_FALSE(error["message"].get<std::string>().empty());
    const ExitStatus status = w.expect_exit();
    EXPECT_TRUE(status.exited) << line;
    EXPECT_EQ(status.code, 2) << line;
  }
}

TEST(SqliteProtocol, ControlMessagesTakeNoExtraFields) {
  const SmallDataset data;
  Worker w;
  drive_until(w, configure_message(data.db, WorkerOptions{}), "ready");
  w.send({{"type", "canary"}, {"now", true}});
  w.expect("error");
  EXPECT_EQ(w.expect_exit().code, 2);
}

TEST(SqliteProtocol, EofWhileWaitingForConfigureExitsThree) {
  Worker w;
  w.process().close_stdin();
  const ExitStatus status = w.expect_exit();
  EXPECT_TRUE(status.exited);
  EXPECT_EQ(status.code, 3);
}

TEST(SqliteProtocol, EofAtTheMeasureBarrierExitsThree) {
  const SmallDataset data;
  Worker w;
  drive_until(w, configure_message(data.db, WorkerOptions{}), "warmup_done");
  w.process().close_stdin();
  EXPECT_EQ(w.expect_exit().code, 3);
}

TEST(SqliteProtocol, EofAfterTheResultEndsCleanlyWithBye) {
  const SmallDataset data;
  Worker w;
  drive_until(w, configure_message(data.db, WorkerOptions{}), "result");
  w.process().close_stdin();
  ns(w.expect("bye")["teardown_ns"]);
  EXPECT_EQ(w.expect_exit().code, 0);
}

TEST(SqliteProtocol, ExitBeforeTheStartBarrierTearsDownAndSaysBye) {
  const SmallDataset data;
  Worker w;
  drive_until(w, configure_message(data.db, WorkerOptions{}), "ready");
  w.send({{"type", "exit"}});
  EXPECT_GT(ns(w.expect("bye")["teardown_ns"]), 0u);  // the persistent connection was closed
  EXPECT_EQ(w.expect_exit().code, 0);
  EXPECT_EQ(count_items(data.db), 100);  // and nothing ran
}

// The canary must be visible to a syscall tracer without help from the worker.
TEST(SqliteProtocol, CanaryIsRecognisableInAStraceTrace) {
  if (access("/usr/bin/strace", X_OK) != 0) GTEST_SKIP() << "strace is not installed";
  const SmallDataset data;
  const std::string trace = data.dir.path() + "/trace.txt";
  WorkerProcess p({"/usr/bin/strace", "-f", "-qq", "-e", "trace=faccessat,faccessat2", "-o", trace,
                   worker_binary(), "serve"},
                  data.dir.path() + "/strace.err");
  const auto hello_line = p.read_line(kTimeout);
  if (!hello_line) GTEST_SKIP() << "strace cannot trace on this host (ptrace not permitted?)";
  const json hello = json::parse(*hello_line);
  ASSERT_TRUE(p.send_line(configure_message(data.db, WorkerOptions{}).dump()));
  ASSERT_TRUE(p.read_line(kTimeout));  // ready
  ASSERT_TRUE(p.send_line(R"({"type":"canary"})"));
  ASSERT_TRUE(p.read_line(kTimeout));  // canary_done
  ASSERT_TRUE(p.send_line(R"({"type":"exit"})"));
  ASSERT_TRUE(p.read_line(kTimeout));  // bye
  ASSERT_TRUE(p.wait_exit(kTimeout));
  std::stringstream text;
  text << std::ifstream(trace).rdbuf();
  const std::string expected = "faccessat(AT_FDCWD, \"/jbench-canary/" +
                               hello["runtime_id"].get<std::string>() + "\", F_OK) = -1 ENOENT";
  EXPECT_NE(text.str().find(expected), std::string::npos) << text.str();
}

}  // namespace
}  // namespace jbench::test
