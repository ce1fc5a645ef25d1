#include "worker_fixture.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <stdexcept>

#include "jbench/stats/decimal.h"
#include "jbench/stats/histogram_json.h"
#include "run_process.h"

namespace jbench::test {

std::string worker_binary() { return JBENCH_SQLITE_WORKER_PATH; }

CommandRun run_build_dataset(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {worker_binary(), "build-dataset"};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions options;
  options.timeout = kTimeout;
  const ProcessResult r = run_process(argv, options);
  if (r.timed_out) throw std::runtime_error("build-dataset did not finish within the timeout");
  CommandRun run;
  run.status = {!r.signaled, r.exit_code, r.signal};
  std::size_t start = 0;
  for (std::size_t nl; (nl = r.out.find('\n', start)) != std::string::npos; start = nl + 1) {
    run.lines.push_back(json::parse(r.out.substr(start, nl - start)));
  }
  if (start != r.out.size()) throw std::runtime_error("build-dataset: unterminated line: " + r.out);
  return run;
}

json build_dataset(const std::string& db, std::uint64_t rows, std::uint32_t row_bytes,
                   std::uint64_t seed) {
  const auto run = run_build_dataset({"--db", db, "--rows", std::to_string(rows), "--row-bytes",
                                      std::to_string(row_bytes), "--seed", std::to_string(seed)});
  if (!run.status.exited || run.status.code != 0 || run.lines.size() != 1 ||
      run.lines[0].value("type", "") != "dataset") {
    throw std::runtime_error("build-dataset failed: " +
                             (run.lines.empty() ? std::string("no output") : run.lines[0].dump()));
  }
  return run.lines[0];
}

json configure_message(const std::string& db, const WorkerOptions& o) {
  json params{{"synchronous", o.synchronous},
              {"ops_per_transaction", o.ops_per_transaction},
              {"busy_timeout_ms", o.busy_timeout_ms},
              {"page_cache_kib", o.page_cache_kib}};
  if (o.read_ratio) params["read_ratio"] = *o.read_ratio;
  if (o.plant_fsync_file) params["plant_fsync_file"] = *o.plant_fsync_file;
  return json{{"type", "configure"},
              {"worker_index", o.worker_index},
              {"seed", std::to_string(o.seed)},
              {"lane", o.lane},
              {"connection", o.connection},
              {"db", db},
              {"params", params},
              {"phases", {{"warmup", o.warmup}, {"measure", o.measure}}}};
}

SmallDataset::SmallDataset() : db(dir.path() + "/d.db") { build_dataset(db, 100, 8, 1); }

namespace {

EnvChanges without_bridge_variables(const EnvChanges& env) {
  EnvChanges out = {{"JBENCH_BRIDGE_MODE", std::nullopt}, {"JBENCH_BRIDGE_OUT", std::nullopt}};
  out.insert(out.end(), env.begin(), env.end());  // later entries win
  return out;
}

}  // namespace

Worker::Worker(const EnvChanges& env)
    : process_({worker_binary(), "serve"}, "", without_bridge_variables(env)) {
  hello_ = expect("hello");
}

void Worker::send(const json& message) { send_raw(message.dump()); }

void Worker::send_raw(std::string_view line) {
  if (!process_.send_line(line)) throw std::runtime_error("cannot write to the worker's stdin");
}

json Worker::expect(std::string_view type) {
  const auto line = process_.read_line(kTimeout);
  if (!line) {
    throw std::runtime_error(std::string("waiting for \"") + std::string(type) + "\": " +
                             (process_.at_eof() ? "the worker closed stdout" : "timed out"));
  }
  json m = json::parse(*line);
  if (m.value("type", "") != type) {
    throw std::runtime_error("expected \"" + std::string(type) + "\", got: " + *line);
  }
  return m;
}

ExitStatus Worker::expect_exit() {
  if (const auto extra = process_.read_line(kTimeout)) {
    throw std::runtime_error("unexpected output before exit: " + *extra);
  }
  const auto status = process_.wait_exit(kTimeout);
  if (!status) throw std::runtime_error("the worker did not exit within the timeout");
  return *status;
}

Transcript drive_until(Worker& w, const json& configure, std::string_view last) {
  static const std::vector<std::string_view> kReplies = {"ready", "canary_done", "warmup_done",
                                                         "result"};
  if (std::find(kReplies.begin(), kReplies.end(), last) == kReplies.end()) {
    throw std::invalid_argument("drive_until: no such reply: " + std::string(last));
  }
  Transcript t;
  t.hello = w.hello();
  w.send(configure);
  t.ready = w.expect("ready");
  if (last == "ready") return t;
  w.send({{"type", "canary"}});
  t.canary_done = w.expect("canary_done");
  if (last == "canary_done") return t;
  w.send({{"type", "start"}});
  t.warmup_done = w.expect("warmup_done");
  if (last == "warmup_done") return t;
  w.send({{"type", "measure"}});
  t.measure_done = w.expect("measure_done");
  t.result = w.expect("result");
  return t;
}

void end_session(Worker& w, Transcript& t) {
  w.send({{"type", "exit"}});
  t.bye = w.expect("bye");
  t.exit = w.expect_exit();
}

Transcript run_to_completion(const json& configure, const EnvChanges& env) {
  Worker w(env);
  Transcript t = drive_until(w, configure, "result");
  end_session(w, t);
  return t;
}

std::uint64_t ns(const json& value) {
  const auto parsed =
      value.is_string() ? stats::parse_decimal_u64(value.get<std::string>()) : std::nullopt;
  if (!parsed) throw std::runtime_error("not a decimal ns string: " + value.dump());
  return *parsed;
}

namespace {
stats::LatencyHistogram checked_histogram(const json& histogram) {
  auto parsed = stats::histogram_from_json(histogram);
  if (!parsed) throw std::runtime_error(parsed.error().message);
  return *parsed;
}
}  // namespace

std::uint64_t histogram_count(const json& histogram) {
  return checked_histogram(histogram).count();
}

std::uint64_t histogram_sum(const json& histogram) {
  return static_cast<std::uint64_t>(checked_histogram(histogram).sum_ns());
}

void expect_consistent_result(const json& r) {
  const std::uint64_t operations = r.at("operations").get<std::uint64_t>();
  std::uint64_t by_type = 0;
  std::uint64_t latency_sum = 0;
  for (const auto& [type, count] : r.at("operations_by_type").items()) {
    by_type += count.get<std::uint64_t>();
    EXPECT_EQ(histogram_count(r.at("latency_ns").at(type)), count.get<std::uint64_t>()) << type;
    latency_sum += histogram_sum(r.at("latency_ns").at(type));
  }
  EXPECT_EQ(by_type, operations);
  EXPECT_EQ(r.at("reads").get<std::uint64_t>() + r.at("writes").get<std::uint64_t>(), operations);
  EXPECT_EQ(r.at("read_transactions").get<std::uint64_t>() +
                r.at("write_transactions").get<std::uint64_t>(),
            r.at("transactions").get<std::uint64_t>());
  EXPECT_EQ(histogram_count(r.at("latency_ns").at("transaction")),
            r.at("transactions").get<std::uint64_t>());
  const std::uint64_t t_start = ns(r.at("t_start_ns"));
  const std::uint64_t t_end = ns(r.at("t_end_ns"));
  EXPECT_LE(t_start, t_end);
  EXPECT_LE(t_end, ns(r.at("t_finished_ns")));
  EXPECT_EQ(ns(r.at("window_ns")), t_end - t_start);
  EXPECT_LE(latency_sum, t_end - t_start);
  if (operations > 0) {
    EXPECT_GE(ns(r.at("first_op_start_ns")), t_start);
    EXPECT_LE(ns(r.at("last_op_end_ns")), t_end);
  } else {
    EXPECT_TRUE(r.at("first_op_start_ns").is_null());
  }
  EXPECT_EQ(histogram_count(r.at("connection_ns").at("open")),
            histogram_count(r.at("connection_ns").at("close")));
  ns(r.at("rusage").at("user_ns"));  // both present, both canonical decimal strings
  ns(r.at("rusage").at("system_ns"));
}

std::uint64_t busy_errors(const json& result) {
  std::uint64_t n = 0;
  for (const auto& [kind, count] : result.at("errors").items()) {
    if (kind.starts_with("SQLITE_BUSY") || kind.starts_with("SQLITE_LOCKED")) {
      n += count.get<std::uint64_t>();
    }
  }
  return n;
}

void exec_sql(const std::string& db, const std::string& sql) {
  sqlite3* handle = nullptr;
  int rc = sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READWRITE, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, nullptr);
  const std::string message = handle != nullptr ? sqlite3_errmsg(handle) : "open failed";
  sqlite3_close_v2(handle);
  if (rc != SQLITE_OK) throw std::runtime_error(sql + ": " + message);
}

std::int64_t count_items(const std::string& db) {
  sqlite3* handle = nullptr;
  std::int64_t n = -1;
  if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(handle, "SELECT count(*) FROM items", -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
      n = sqlite3_column_int64(stmt, 0);
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close_v2(handle);
  return n;
}

}  // namespace jbench::test
