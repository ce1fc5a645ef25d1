// The SQLite worker with the trace bridge (docs/worker-protocol.md, "Tracing"), as a real process
// driven through protocol v1:
// - in full mode it writes a raw event file that jbench's own checker accepts, registered as the
//   harness registers a worker, and whose spans say what its messages say: one span per
//   transaction, statements under them named by the plan classes `ready` reported, connection
//   opens split into startup and steady state;
// - off (or no-consumer) it writes nothing and runs exactly the same operations;
// - a mode the bridge cannot have ends it before hello with an error and exit 2.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "jbench/events/event_file.h"
#include "jbench/proc/proc_stat.h"
#include "worker_fixture.h"

namespace jbench::test {
namespace {

constexpr const char* kRunId = "sqlite.bridge-test.r1";
constexpr std::uint64_t kRows = 2000;

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

EnvChanges bridge_env(const std::string& mode, const std::string& out) {
  return {{"JBENCH_BRIDGE_MODE", mode}, {"JBENCH_BRIDGE_OUT", out}, {"JBENCH_RUN_ID", kRunId}};
}

std::string problems(const EventFileReport& r) {
  std::string s;
  for (const auto& p : r.problems) {
    s += p.code + " (line " + std::to_string(p.line) + "): " + p.message + "\n";
  }
  return s;
}

std::uint64_t count_at(const json& message, const std::string& key) {
  return message.at(key).get<std::uint64_t>();
}

// ---- the raw file, read back -----------------------------------------------------------------

struct Span {
  std::string name;
  std::optional<std::string> parent;
  std::string phase;  // the phase the span began in ("" before the first)
  std::uint64_t begin_ns = 0;
  std::optional<std::uint64_t> end_ns;
};

struct RawTrace {
  std::vector<std::string> phases;                              // in the order they were entered
  std::vector<std::pair<std::uint64_t, std::string>> canaries;  // (n, phase)
  std::map<std::string, Span> spans;                            // by span id
  std::set<std::string> streams;                                // "pid/tid"
};

// Records in stream order (each stream's seq), then walked to attribute spans to phases. The
// checker has already proven seq and t_ns orderly; this only reads.
RawTrace read_trace(const std::string& path) {
  std::vector<json> records;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line);
    if (j.value("kind", "") == "record") records.push_back(std::move(j));
  }
  const auto seq = [](const json& r) { return std::stoull(r.at("seq").get<std::string>()); };
  std::stable_sort(records.begin(), records.end(), [&](const json& a, const json& b) {
    return std::make_pair(a.at("tid").get<std::int64_t>(), seq(a)) <
           std::make_pair(b.at("tid").get<std::int64_t>(), seq(b));
  });
  RawTrace t;
  std::string phase;
  for (const json& r : records) {
    t.streams.insert(std::to_string(r.at("pid").get<std::int64_t>()) + "/" +
                     std::to_string(r.at("tid").get<std::int64_t>()));
    const std::string type = r.at("type");
    const std::uint64_t t_ns = ns(r.at("t_ns"));
    if (type == "phase") {
      phase = r.at("name");
      t.phases.push_back(phase);
    } else if (type == "canary") {
      // A count: a decimal string like every 64-bit value in the file (a number is read too).
      const json& n = r.at("n");
      t.canaries.emplace_back(n.is_string() ? ns(n) : n.get<std::uint64_t>(), phase);
    } else if (type == "span_begin") {
      Span s{r.at("name"), std::nullopt, phase, t_ns, std::nullopt};
      if (!r.at("parent_id").is_null()) s.parent = r.at("parent_id").get<std::string>();
      t.spans[r.at("span_id")] = std::move(s);
    } else if (type == "span_end") {
      t.spans.at(r.at("span_id")).end_ns = t_ns;
    }
  }
  return t;
}

std::uint64_t spans_named(const RawTrace& t, const std::string& name,
                          const std::string& phase = "") {
  return static_cast<std::uint64_t>(
      std::count_if(t.spans.begin(), t.spans.end(), [&](const auto& entry) {
        return entry.second.name == name && (phase.empty() || entry.second.phase == phase);
      }));
}

// ---- full mode, every lane and connection kind ----------------------------------------------

struct LaneCase {
  std::string lane;
  std::string connection;
};
void PrintTo(const LaneCase& c, std::ostream* os) { *os << c.lane << "/" << c.connection; }

class SqliteBridgeFullMode : public ::testing::TestWithParam<LaneCase> {};

TEST_P(SqliteBridgeFullMode, RawFileIsValidAndItsSpansMatchWhatTheWorkerReported) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  const std::string raw = dir.path() + "/bridge.events.jsonl";
  build_dataset(db, kRows, 32, 11);
  WorkerOptions o;
  o.lane = GetParam().lane;
  o.connection = GetParam().connection;
  if (o.lane == "mixed") o.read_ratio = 0.5;
  const bool cold = o.connection == "cold";

  Worker w(bridge_env("full", raw));
  // Registered as the harness does it: the pid from hello, the start time from /proc while the
  // worker waits for configure.
  const auto stat = proc::read_proc_stat(w.process().pid());
  ASSERT_TRUE(stat);
  EXPECT_EQ(w.hello()["pid"], w.process().pid());
  EXPECT_EQ(w.hello()["bridge"], "full");
  Transcript t = drive_until(w, configure_message(db, o), "result");
  end_session(w, t);
  ASSERT_TRUE(t.exit.exited);
  ASSERT_EQ(t.exit.code, 0);
  EXPECT_EQ(t.result["status"], "ok") << t.result["conditions"].dump();
  // One worker alone: nothing fails, retries or straddles, so every executed statement and
  // transaction is a counted one and the spans can be compared with the counts.
  for (const json* phase : {&t.warmup_done, &t.result}) {
    EXPECT_EQ(count_at(*phase, "transactions_failed"), 0u);
    EXPECT_EQ(count_at(*phase, "transactions_abandoned"), 0u);
    EXPECT_EQ(count_at(*phase, "transactions_straddled"), 0u);
    EXPECT_EQ(count_at(*phase, "retries"), 0u);
  }

  // The file as jbench's checker sees it: header for this run and boot, every record from the
  // registered incarnation, streams without gaps, spans paired with known parents, a trailer
  // that counts what was written and dropped nothing.
  const EventContext ctx{kRunId, proc::read_boot_id(), {{stat->pid, stat->start_time_ticks}}};
  const EventFileReport report = check_event_file(raw, ctx);
  EXPECT_TRUE(report.ok()) << problems(report);
  ASSERT_TRUE(report.header);
  ASSERT_TRUE(report.trailer);
  EXPECT_EQ((*report.header)["run_id"], kRunId);
  EXPECT_EQ((*report.trailer)["records"], report.records);
  EXPECT_EQ((*report.trailer)["dropped"], 0);
  EXPECT_GT(report.spans, 0u);

  const RawTrace trace = read_trace(raw);
  EXPECT_EQ(trace.phases, (std::vector<std::string>{"startup", "warmup", "measure", "teardown"}));
  ASSERT_EQ(trace.canaries.size(), 1u);
  EXPECT_EQ(trace.canaries[0], std::make_pair(std::uint64_t{0}, std::string("startup")));

  // Plan class -> op type, as `ready` reported the classification.
  std::map<std::string, std::string> op_type_of_class;
  for (const json& s : t.ready.at("statements")) {
    const auto [it, fresh] = op_type_of_class.emplace(s.at("plan_class"), s.at("op_type"));
    EXPECT_EQ(it->second, s.at("op_type")) << "one plan class, two op types: " << s.dump();
  }
  std::map<std::string, std::uint64_t> expected_statements;  // "statement:<class>" -> executed
  for (const auto& [cls, op_type] : op_type_of_class) {
    const std::uint64_t n = t.warmup_done["operations_by_type"].at(op_type).get<std::uint64_t>() +
                            t.result["operations_by_type"].at(op_type).get<std::uint64_t>();
    if (n > 0) expected_statements["statement:" + cls] = n;
  }

  std::map<std::string, std::uint64_t> statements;
  std::map<std::string, std::uint64_t> children;  // transaction span id -> statement spans
  for (const auto& [id, span] : trace.spans) {
    ASSERT_TRUE(span.end_ns) << span.name << " " << id << " never ended";
    if (span.name.starts_with("statement:")) {
      ++statements[span.name];
      ASSERT_TRUE(span.parent) << span.name << " has no parent";
      const auto parent = trace.spans.find(*span.parent);
      ASSERT_NE(parent, trace.spans.end());
      EXPECT_TRUE(parent->second.name.starts_with("transaction:")) << parent->second.name;
      EXPECT_GE(span.begin_ns, parent->second.begin_ns);
      EXPECT_LE(*span.end_ns, *parent->second.end_ns);
      ++children[*span.parent];
    } else {
      // Transactions and connection opens and closes are roots: a cold connection's open is
      // beside its transaction, not inside it.
      EXPECT_FALSE(span.parent) << span.name;
    }
  }
  EXPECT_EQ(statements, expected_statements);

  const auto transactions = [&](const std::string& name, const std::string& phase) {
    return spans_named(trace, name, phase);
  };
  for (const auto& [phase, message] :
       {std::pair<std::string, const json*>{"warmup", &t.warmup_done}, {"measure", &t.result}}) {
    EXPECT_EQ(transactions("transaction:read", phase), count_at(*message, "read_transactions"))
        << phase;
    EXPECT_EQ(transactions("transaction:write", phase), count_at(*message, "write_transactions"))
        << phase;
  }
  for (const auto& [id, span] : trace.spans) {
    if (span.name.starts_with("transaction:")) {
      EXPECT_EQ(children[id], o.ops_per_transaction) << "statements of transaction " << id;
    }
  }

  // Exactly one open between configure and ready; cold connections open once per transaction
  // during warmup and measure, each closed again; a persistent one closes at teardown.
  EXPECT_EQ(spans_named(trace, "connection_open:startup"), 1u);
  EXPECT_EQ(spans_named(trace, "connection_open:startup", "startup"), 1u);
  const std::uint64_t all_transactions =
      count_at(t.warmup_done, "transactions") + count_at(t.result, "transactions");
  EXPECT_EQ(spans_named(trace, "connection_open:steady"), cold ? all_transactions : 0u);
  EXPECT_EQ(spans_named(trace, "connection_open:steady", "measure"),
            histogram_count(t.result["connection_ns"]["open"]));
  EXPECT_EQ(spans_named(trace, "connection_open:steady", "measure"),
            cold ? count_at(t.result, "transactions") : 0u);
  EXPECT_EQ(spans_named(trace, "connection_close:startup"), cold ? 1u : 0u);
  EXPECT_EQ(spans_named(trace, "connection_close:steady"), cold ? all_transactions : 0u);
  EXPECT_EQ(spans_named(trace, "connection_close:teardown"), cold ? 0u : 1u);
  EXPECT_EQ(spans_named(trace, "connection_close:teardown", "teardown"), cold ? 0u : 1u);
}

INSTANTIATE_TEST_SUITE_P(
    LanesAndConnections, SqliteBridgeFullMode,
    ::testing::Values(LaneCase{"writer", "persistent"}, LaneCase{"writer", "cold"},
                      LaneCase{"reader", "persistent"}, LaneCase{"reader", "cold"},
                      LaneCase{"mixed", "persistent"}, LaneCase{"mixed", "cold"}),
    [](const auto& test) { return test.param.lane + "_" + test.param.connection; });

// ---- off, no-consumer and light ----------------------------------------------------------------

// ---- a lock another connection holds --------------------------------------------------------

// The test holds the write lock throughout, so every write transaction of the worker waits in
// the busy handler until its timeout: each of the handler's sleeps is a `busy_wait` span inside
// the transaction, and their time is within what the worker counted as busy.
TEST(SqliteBridge, EverySleepOfTheBusyHandlerIsABusyWaitSpanInsideItsTransaction) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  const std::string raw = dir.path() + "/bridge.events.jsonl";
  build_dataset(db, kRows, 32, 11);
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &holder), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  WorkerOptions o;
  o.busy_timeout_ms = 20;  // 1 + 2 + 5 + 10 ms, then 2 more: five sleeps per attempt
  o.warmup = {{"operations", 0}};
  o.measure = {{"duration_ms", 100}};
  Worker w(bridge_env("full", raw));
  Transcript t = drive_until(w, configure_message(db, o), "result");
  end_session(w, t);
  sqlite3_exec(holder, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_close(holder);
  ASSERT_TRUE(t.exit.exited);
  ASSERT_EQ(t.exit.code, 0);
  ASSERT_GT(count_at(t.result, "busy_waits"), 0u) << t.result.dump();

  const RawTrace trace = read_trace(raw);
  // The worker counts each busy attempt from its start to its end, cut at the window's end
  // (t_end_ns, its deadline); the sleeps lie inside the attempts, on the same clock. So the
  // sleeps cut at the same instant add up to no more than the worker's count, however late a
  // loaded host wakes a sleeper.
  const std::uint64_t window_end = ns(t.result.at("t_end_ns"));
  std::uint64_t waits = 0;
  std::uint64_t waited_in_window_ns = 0;
  for (const auto& [id, span] : trace.spans) {
    if (span.name != "busy_wait") continue;
    ASSERT_TRUE(span.end_ns) << id << " never ended";
    ASSERT_TRUE(span.parent) << id << " has no parent";
    EXPECT_EQ(trace.spans.at(*span.parent).name, "transaction:write");
    EXPECT_GE(*span.end_ns - span.begin_ns, 1'000'000u) << "a sleep of at least 1 ms";
    if (span.phase != "measure") continue;
    ++waits;
    if (span.begin_ns < window_end) {
      waited_in_window_ns += std::min(*span.end_ns, window_end) - span.begin_ns;
    }
  }
  // Five sleeps per busy attempt; the last attempt may be cut by the end of the window.
  EXPECT_GE(waits, 5 * (count_at(t.result, "busy_waits") - 1));
  EXPECT_LE(waited_in_window_ns, ns(t.result.at("busy_wait_ns")));
  EXPECT_GT(waited_in_window_ns, 0u);
}

// ---- the WAL's automatic checkpoint ------------------------------------------------------------

// Enough committed writes to pass the WAL's 1000 frames several times: every automatic
// checkpoint is a `wal_checkpoint` span inside the write transaction whose commit paid for it,
// and the checkpoints happen — the WAL file stays within 1000 frames and one commit's worth of
// its own size, as SQLite's default keeps it, where without them it would grow with every commit.
TEST(SqliteBridge, EveryAutomaticCheckpointIsAWalCheckpointSpanInsideTheCommittingTransaction) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  const std::string raw = dir.path() + "/bridge.events.jsonl";
  build_dataset(db, kRows, 32, 11);
  // An idle connection (no transaction: it holds no checkpoint back), so that the worker's is
  // not the last to close and the WAL file is left as the run made it.
  sqlite3* idle = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &idle), SQLITE_OK);
  // One read, ended at once: the connection now has the WAL open, and no transaction.
  ASSERT_EQ(sqlite3_exec(idle, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr),
            SQLITE_OK);
  WorkerOptions o;
  o.ops_per_transaction = 1;
  o.warmup = {{"operations", 0}};
  o.measure = {{"operations", 4000}};
  Worker w(bridge_env("full", raw));
  Transcript t = drive_until(w, configure_message(db, o), "result");
  end_session(w, t);
  ASSERT_TRUE(t.exit.exited);
  ASSERT_EQ(t.exit.code, 0);
  struct stat wal {};
  const int stat_rc = ::stat((db + "-wal").c_str(), &wal);
  sqlite3_close(idle);

  const RawTrace trace = read_trace(raw);
  std::uint64_t checkpoints = 0;
  for (const auto& [id, span] : trace.spans) {
    if (span.name != "wal_checkpoint") continue;
    ++checkpoints;
    ASSERT_TRUE(span.end_ns) << id << " never ended";
    ASSERT_TRUE(span.parent) << id << " has no parent";
    EXPECT_EQ(trace.spans.at(*span.parent).name, "transaction:write");
  }
  // 4000 commits of at least one frame each pass 1000 frames at least 3 times.
  EXPECT_GE(checkpoints, 3u);
  // The WAL restarts from its beginning after a complete checkpoint, so it never holds much more
  // than the threshold: 1000 frames and one transaction's, of a page and a 24-byte header each.
  ASSERT_EQ(stat_rc, 0);
  EXPECT_LE(static_cast<std::uint64_t>(wal.st_size), 32u + 1100u * (4096u + 24u));
}

// A reader never changes the database, so one dataset serves every mode; the same seed must read
// the same rows whatever the bridge does, and only a recording mode may leave a file.
TEST(SqliteBridge, EveryModeRunsTheSameOperationsAndOnlyRecordingModesWriteAFile) {
  TempDir dir;
  const std::string db = dir.path() + "/d.db";
  build_dataset(db, kRows, 16, 5);
  WorkerOptions o;
  o.lane = "reader";
  o.connection = "cold";
  o.measure = {{"operations", 100}};
  std::optional<json> first;
  std::optional<std::map<std::string, std::uint64_t>> recorded;  // span name -> count
  for (const std::string mode : {"unset", "off", "no-consumer", "light", "full"}) {
    const std::string raw = dir.path() + "/" + mode + ".events.jsonl";
    const EnvChanges env = mode == "unset" ? EnvChanges{} : bridge_env(mode, raw);
    const Transcript t = run_to_completion(configure_message(db, o), env);
    EXPECT_EQ(t.hello["bridge"], mode == "unset" ? "off" : mode);
    EXPECT_EQ(t.result["status"], "ok") << mode;
    expect_consistent_result(t.result);
    const json signature = {t.warmup_done["operations_by_type"], t.result["operations_by_type"],
                            t.result["rows_returned"]};
    if (!first) first = signature;
    EXPECT_EQ(signature, *first) << mode;
    const bool records = mode == "light" || mode == "full";
    EXPECT_EQ(exists(raw), records) << mode;
    if (records) {
      // Light records spans, phases and canaries as full does: the same spans for the same run.
      const RawTrace trace = read_trace(raw);
      std::map<std::string, std::uint64_t> census;
      for (const auto& [id, span] : trace.spans) ++census[span.name];
      EXPECT_EQ(trace.phases.size(), 4u) << mode;
      if (!recorded) recorded = census;
      EXPECT_EQ(census, *recorded) << mode;
    }
  }
}

// ---- modes the bridge cannot have --------------------------------------------------------------

struct RefusedCase {
  std::string name;
  EnvChanges env;
  std::string mentions;  // the variable the error message must name
};
void PrintTo(const RefusedCase& c, std::ostream* os) { *os << c.name; }

class SqliteBridgeRefusal : public ::testing::TestWithParam<RefusedCase> {};

TEST_P(SqliteBridgeRefusal, IsAnErrorBeforeHelloAndExitTwo) {
  TempDir dir;
  const std::string taken = dir.write("taken.events.jsonl", "someone else's file\n");
  EnvChanges env = GetParam().env;
  for (auto& [name, value] : env) {
    if (value == "<taken>") value = taken;
  }
  WorkerProcess p({worker_binary(), "serve"}, dir.path() + "/stderr.txt", env);
  const auto line = p.read_line(kTimeout);
  ASSERT_TRUE(line) << "no output";
  const json error = json::parse(*line);
  EXPECT_EQ(error["type"], "error") << *line;
  EXPECT_NE(error.value("message", "").find(GetParam().mentions), std::string::npos) << *line;
  EXPECT_FALSE(p.read_line(kTimeout)) << "output after the error";
  const auto status = p.wait_exit(kTimeout);
  ASSERT_TRUE(status);
  EXPECT_TRUE(status->exited);
  EXPECT_EQ(status->code, 2);
  std::ifstream in(taken);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "someone else's file\n");
}

INSTANTIATE_TEST_SUITE_P(
    Modes, SqliteBridgeRefusal,
    ::testing::Values(
        RefusedCase{"unknown_mode",
                    {{"JBENCH_BRIDGE_MODE", "loud"}, {"JBENCH_BRIDGE_OUT", std::nullopt}},
                    "JBENCH_BRIDGE_MODE"},
        RefusedCase{"full_without_out",
                    {{"JBENCH_BRIDGE_MODE", "full"}, {"JBENCH_BRIDGE_OUT", std::nullopt}},
                    "JBENCH_BRIDGE_OUT"},
        RefusedCase{"light_onto_an_existing_file",
                    {{"JBENCH_BRIDGE_MODE", "light"}, {"JBENCH_BRIDGE_OUT", "<taken>"}},
                    "JBENCH_BRIDGE_OUT"}),
    [](const auto& test) { return test.param.name; });

}  // namespace
}  // namespace jbench::test
