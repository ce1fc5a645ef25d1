// The Chez worker speaks protocol v1 as the harness drives it (docs/worker-protocol.md): the
// session in order, identity and canary as the harness registers and checks them, `exit` at
// every wait, EOF at every wait, and one clear error (exit 2) for every bad input.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <time.h>

#include <fstream>
#include <string>
#include <vector>

#include "chez_worker.h"

namespace jbench::test {
namespace {

std::uint64_t monotonic_now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ULL +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

bool is_runtime_id(const json& v) {
  if (!v.is_string()) return false;
  const auto& s = v.get_ref<const std::string&>();
  return s.size() == 32 && s.find_first_not_of("0123456789abcdef") == std::string::npos &&
         s != std::string(32, '0');
}

class ChezProtocol : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { data_ = new ChezDataset(500, 16, 3); }
  static void TearDownTestSuite() {
    delete data_;
    data_ = nullptr;
  }
  static json configure(ChezOptions o = {}) { return configure_message(data_->db, o); }
  static ChezDataset* data_;
};
ChezDataset* ChezProtocol::data_ = nullptr;

TEST_F(ChezProtocol, SessionRunsInOrderWithTheIdentityTheHarnessRegisters) {
  const std::uint64_t before = monotonic_now_ns();
  ChezWorker w;
  const std::uint64_t after_hello = monotonic_now_ns();
  const int pid = w.process().pid();
  Session s = drive_to_result(w, configure());
  end_session(w, s);

  EXPECT_EQ(s.hello["protocol"], 1);
  EXPECT_EQ(s.hello["worker"], "chez");
  // The launcher execs chezscheme: the pid that speaks is the pid that was started.
  EXPECT_EQ(s.hello["pid"], pid);
  EXPECT_TRUE(is_runtime_id(s.hello["runtime_id"])) << s.hello.dump();
  EXPECT_EQ(s.hello["clock"], "CLOCK_MONOTONIC");
  EXPECT_EQ(s.hello["bridge"], "off");
  // The worker's clock is the host's CLOCK_MONOTONIC, not Chez's own process-relative one.
  EXPECT_GE(ns(s.hello["t_ns"]), before);
  EXPECT_LE(ns(s.hello["t_ns"]), after_hello);

  EXPECT_LE(ns(s.ready["open_ns"]), ns(s.ready["setup_ns"]));
  EXPECT_EQ(s.ready["live_set"]["items"], 500);
  EXPECT_EQ(s.canary_done["syscall"], "faccessat");
  EXPECT_EQ(s.canary_done["path"], "/jbench-canary/" + s.hello["runtime_id"].get<std::string>());
  EXPECT_EQ(s.canary_done["errno"], "ENOENT");
  EXPECT_EQ(s.result["runtime_id"], s.hello["runtime_id"]);
  // Messages are stamped in the order they were sent.
  EXPECT_LT(ns(s.hello["t_ns"]), ns(s.ready["t_ns"]));
  EXPECT_LT(ns(s.ready["t_ns"]), ns(s.canary_done["t_ns"]));
  EXPECT_LT(ns(s.canary_done["t_ns"]), ns(s.warmup_done["t_ns"]));
  EXPECT_LT(ns(s.warmup_done["t_ns"]), ns(s.measure_done["t_ns"]));
  EXPECT_LE(ns(s.measure_done["t_ns"]), ns(s.bye["t_ns"]));
  EXPECT_TRUE(s.bye.contains("teardown_ns"));
  ASSERT_TRUE(s.exit.exited);
  EXPECT_EQ(s.exit.code, 0);
  EXPECT_TRUE(process_group_empty(pid));
}

TEST_F(ChezProtocol, ExitAtEveryWaitSaysByeAndExitsZero) {
  const std::vector<std::string> sent_before_exit = {"", "configure", "canary", "start", "measure"};
  for (std::size_t n = 0; n < sent_before_exit.size(); ++n) {
    SCOPED_TRACE("exit after " + std::to_string(n) + " harness messages");
    ChezWorker w;
    const std::vector<std::pair<json, std::vector<std::string>>> steps = {
        {configure(), {"ready"}},
        {{{"type", "canary"}}, {"canary_done"}},
        {{{"type", "start"}}, {"warmup_done"}},
        {{{"type", "measure"}}, {"measure_done", "result"}}};
    for (std::size_t i = 0; i < n; ++i) {
      w.send(steps[i].first);
      for (const auto& reply : steps[i].second) w.expect(reply);
    }
    w.send({{"type", "exit"}});
    w.expect("bye");
    const ExitStatus status = w.expect_exit();
    EXPECT_TRUE(status.exited);
    EXPECT_EQ(status.code, 0);
  }
}

TEST_F(ChezProtocol, EndOfInputBeforeTheResultExitsThreeAndAfterItSaysBye) {
  for (int sent = 0; sent <= 4; ++sent) {
    SCOPED_TRACE("stdin closed after " + std::to_string(sent) + " harness messages");
    ChezWorker w;
    if (sent >= 1) {
      w.send(configure());
      w.expect("ready");
    }
    if (sent >= 2) {
      w.send({{"type", "canary"}});
      w.expect("canary_done");
    }
    if (sent >= 3) {
      w.send({{"type", "start"}});
      w.expect("warmup_done");
    }
    if (sent >= 4) {
      w.send({{"type", "measure"}});
      w.expect("measure_done");
      w.expect("result");
    }
    w.process().close_stdin();
    if (sent == 4) w.expect("bye");  // the result was delivered: EOF is a normal end
    const ExitStatus status = w.expect_exit();
    ASSERT_TRUE(status.exited);
    EXPECT_EQ(status.code, sent == 4 ? 0 : 3);
    EXPECT_TRUE(process_group_empty(w.process().pid()));
  }
}

TEST_F(ChezProtocol, TornLastLineIsEndOfInputNotAMessage) {
  // An "exit" without its newline, then EOF: never parsed, so no bye; the session just ended.
  const auto run = run_chez_command({"serve"}, R"({"type":"exit"})");
  ASSERT_EQ(run.lines.size(), 1u);
  EXPECT_EQ(run.lines[0]["type"], "hello");
  EXPECT_TRUE(run.status.exited);
  EXPECT_EQ(run.status.code, 3);
}

struct BadLine {
  std::string name;
  std::string line;
  std::string message_part;
};
void PrintTo(const BadLine& b, std::ostream* os) { *os << b.name; }

class ChezProtocolErrors : public ChezProtocol, public ::testing::WithParamInterface<BadLine> {};

TEST_P(ChezProtocolErrors, OneErrorLineThenExitTwo) {
  ChezWorker w;
  w.send_raw(GetParam().line);
  const json error = w.expect("error");
  EXPECT_NE(error["message"].get<std::string>().find(GetParam().message_part), std::string::npos)
      << error.dump();
  const ExitStatus status = w.expect_exit();
  ASSERT_TRUE(status.exited);
  EXPECT_EQ(status.code, 2);
}

std::string BadLineName(const ::testing::TestParamInfo<BadLine>& p) { return p.param.name; }

INSTANTIATE_TEST_SUITE_P(
    BadLines, ChezProtocolErrors,
    ::testing::Values(BadLine{"not_json", "configure please", "malformed message"},
                      BadLine{"not_an_object", "[1,2]", "malformed message"},
                      BadLine{"type_not_string", R"({"type":7})", "malformed message"},
                      BadLine{"unknown_type", R"({"type":"bogus"})", "unknown message type"},
                      BadLine{"out_of_sequence", R"({"type":"start"})", "while waiting for"},
                      BadLine{"worker_message_type", R"({"type":"hello"})", "unknown message"},
                      BadLine{"control_with_fields", R"({"type":"exit","now":true})",
                              "takes no fields"}),
    BadLineName);

TEST_F(ChezProtocol, InvalidConfigureListsEveryProblemAtOnce) {
  json bad = configure();
  bad["worker_index"] = -1;
  bad["seed"] = "007";
  bad["lane"] = "sideways";
  bad["params"].erase("tree_nodes");
  bad["params"]["ops_per_transaction"] = 0;
  bad["params"]["bogus"] = 1;
  bad["phases"]["measure"] = {{"operations", 0}};
  bad["extra"] = true;
  ChezWorker w;
  w.send(bad);
  const json error = w.expect("error");
  EXPECT_EQ(error["message"], "invalid configure");
  std::string all;
  for (const auto& e : error["errors"]) all += e.get<std::string>() + "\n";
  for (const char* path : {"worker_index:", "seed:", "lane:", "params.tree_nodes: missing",
                           "params.ops_per_transaction:", "params.bogus: unknown key",
                           "phases.measure.operations:", "configure.extra: unknown key"}) {
    EXPECT_NE(all.find(path), std::string::npos) << path << " not in:\n" << all;
  }
  EXPECT_EQ(w.expect_exit().code, 2);
}

TEST_F(ChezProtocol, ParamsThatMeanNothingForTheLaneAreRefused) {
  struct Case {
    ChezOptions options;
    std::string error_part;
  };
  std::vector<Case> cases;
  cases.push_back({ChezOptions{}, "connection"});
  cases.back().options.connection = "cold";  // one live set per worker: no connections
  cases.push_back({ChezOptions{}, "params.read_ratio: applies only to the mixed lane"});
  cases.back().options.read_ratio = 0.5;  // lane writer
  cases.push_back({ChezOptions{}, "params.read_ratio: the mixed lane needs"});
  cases.back().options.lane = "mixed";  // without read_ratio
  cases.push_back({ChezOptions{}, "params.collect_trip_kib"});
  cases.back().options.collect_trip_kib = 1;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.error_part);
    ChezWorker w;
    w.send(configure(c.options));
    const json error = w.expect("error");
    EXPECT_NE(error.dump().find(c.error_part), std::string::npos) << error.dump();
    EXPECT_EQ(w.expect_exit().code, 2);
  }
}

TEST_F(ChezProtocol, UnusableDatasetIsOneErrorAndExitTwo) {
  TempDir dir;
  const std::string not_a_dataset =
      dir.write("not-a-dataset", "SQLite format 3, not a Chez dataset");
  // A real dataset cut short: the header promises more records than the file holds.
  std::string truncated;
  {
    std::ifstream in(data_->db, std::ios::binary);
    truncated.assign(std::istreambuf_iterator<char>(in), {});
  }
  truncated.resize(truncated.size() - 5);
  const std::string short_file = dir.write("short.db", truncated);
  for (const std::string& db : {dir.path() + "/missing.db", not_a_dataset, short_file}) {
    SCOPED_TRACE(db);
    ChezWorker w;
    w.send(configure_message(db, ChezOptions{}));
    const json error = w.expect("error");
    EXPECT_FALSE(error["message"].get<std::string>().empty());
    EXPECT_EQ(w.expect_exit().code, 2);
  }
}

TEST_F(ChezProtocol, BridgeThatCannotStartIsAnErrorBeforeHello) {
  TempDir dir;
  const std::string existing = dir.write("taken.events.jsonl", "");
  const std::vector<EnvChanges> envs = {
      bridge_env("loud"),              // not a mode
      bridge_env("full"),              // a recording mode without JBENCH_BRIDGE_OUT
      bridge_env("light", existing)};  // the raw file must not exist yet
  for (const auto& env : envs) {
    WorkerProcess p({chez_worker_binary(), "serve"}, "", env);
    const auto line = p.read_line(kChezTimeout);
    ASSERT_TRUE(line);
    const json first = json::parse(*line);
    EXPECT_EQ(first["type"], "error") << *line;
    EXPECT_NE(first["message"].get<std::string>().find("trace bridge"), std::string::npos);
    const auto status = p.wait_exit(kChezTimeout);
    ASSERT_TRUE(status);
    EXPECT_EQ(status->code, 2);
  }
}

TEST(ChezCommandLine, UsageErrorsExitTwoAndHelpExitsZero) {
  const auto help = run_chez_command({"--help"});
  EXPECT_EQ(help.status.code, 0);
  EXPECT_NE(help.out.find("build-dataset"), std::string::npos);
  const auto nothing = run_chez_command({});
  EXPECT_EQ(nothing.status.code, 2);
  EXPECT_NE(nothing.err.find("usage"), std::string::npos);
  EXPECT_EQ(run_chez_command({"serve", "extra"}).status.code, 2);
}

}  // namespace
}  // namespace jbench::test
