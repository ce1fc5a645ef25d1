#include "chez_worker.h"

#include <stdexcept>

#include "jbench/proc/proc_stat.h"
#include "jbench/stats/decimal.h"
#include "run_process.h"

namespace jbench::test {

std::string chez_worker_binary() { return JBENCH_CHEZ_WORKER_PATH; }
std::string jbench_binary() { return JBENCH_BINARY_PATH; }

CommandRun run_chez_command(const std::vector<std::string>& args, const std::string& stdin_text) {
  std::vector<std::string> argv = {chez_worker_binary()};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions options;
  options.timeout = kChezTimeout;
  options.stdin_text = stdin_text;
  // run_process can only set variables: an empty mode is "off" to the bridge.
  options.env = {{"JBENCH_BRIDGE_MODE", "off"}};
  const ProcessResult r = run_process(argv, options);
  if (r.timed_out) throw std::runtime_error("jbench-chez-worker did not finish in time");
  CommandRun run;
  run.status = {!r.signaled, r.exit_code, r.signal};
  run.out = r.out;
  run.err = r.err;
  std::size_t start = 0;
  for (std::size_t nl; (nl = r.out.find('\n', start)) != std::string::npos; start = nl + 1) {
    // A line that is not JSON (usage text) is kept as a discarded value; `out` has the text.
    run.lines.push_back(json::parse(r.out.substr(start, nl - start), nullptr, false));
  }
  if (start != r.out.size()) throw std::runtime_error("unterminated output line: " + r.out);
  return run;
}

ChezDataset::ChezDataset(std::uint64_t rows, std::uint32_t row_bytes, std::uint64_t seed)
    : db(dir.path() + "/d.db") {
  const auto run =
      run_chez_command({"build-dataset", "--db", db, "--rows", std::to_string(rows), "--row-bytes",
                        std::to_string(row_bytes), "--seed", std::to_string(seed)});
  if (!run.status.exited || run.status.code != 0 || run.lines.size() != 1 ||
      run.lines[0].value("type", "") != "dataset") {
    throw std::runtime_error("build-dataset failed: " + run.err);
  }
  report = run.lines[0];
}

json configure_message(const std::string& db, const ChezOptions& o) {
  json params{{"ops_per_transaction", o.ops_per_transaction},
              {"tree_nodes", o.tree_nodes},
              {"alloc_sample_every", o.alloc_sample_every},
              {"collect_trip_kib", o.collect_trip_kib},
              {"page_cache_kib", o.page_cache_kib}};
  if (o.read_ratio) params["read_ratio"] = *o.read_ratio;
  return json{{"type", "configure"},
              {"worker_index", o.worker_index},
              {"seed", std::to_string(o.seed)},
              {"lane", o.lane},
              {"connection", o.connection},
              {"db", db},
              {"params", params},
              {"phases", {{"warmup", o.warmup}, {"measure", o.measure}}}};
}

EnvChanges bridge_env(const std::string& mode, const std::string& out, const std::string& run_id) {
  const auto value = [](const std::string& v) {
    return v.empty() ? std::nullopt : std::optional<std::string>(v);
  };
  return {{"JBENCH_BRIDGE_MODE", value(mode)},
          {"JBENCH_BRIDGE_OUT", value(out)},
          {"JBENCH_RUN_ID", value(run_id)},
          // Paths the launcher would otherwise take from the environment: the build's own.
          {"JBENCH_CHEZ_SOURCE_DIR", std::nullopt},
          {"JBENCH_CHEZ_BRIDGE", std::nullopt}};
}

ChezWorker::ChezWorker(const EnvChanges& env, const std::string& stderr_path)
    : process_({chez_worker_binary(), "serve"}, stderr_path, env) {
  hello_ = expect("hello");
}

void ChezWorker::send(const json& message) { send_raw(message.dump()); }

void ChezWorker::send_raw(std::string_view line) {
  if (!process_.send_line(line)) throw std::runtime_error("cannot write to the worker's stdin");
}

json ChezWorker::expect(std::string_view type) {
  const auto line = process_.read_line(kChezTimeout);
  if (!line) {
    throw std::runtime_error("waiting for \"" + std::string(type) + "\": " +
                             (process_.at_eof() ? "the worker closed stdout" : "timed out"));
  }
  json m = json::parse(*line);
  if (m.value("type", "") != type) {
    throw std::runtime_error("expected \"" + std::string(type) + "\", got: " + *line);
  }
  return m;
}

ExitStatus ChezWorker::expect_exit() {
  if (const auto extra = process_.read_line(kChezTimeout)) {
    throw std::runtime_error("unexpected output before exit: " + *extra);
  }
  const auto status = process_.wait_exit(kChezTimeout);
  if (!status) throw std::runtime_error("the worker did not exit in time");
  return *status;
}

Session drive_to_result(ChezWorker& w, const json& configure) {
  Session s;
  s.hello = w.hello();
  w.send(configure);
  s.ready = w.expect("ready");
  w.send({{"type", "canary"}});
  s.canary_done = w.expect("canary_done");
  w.send({{"type", "start"}});
  s.warmup_done = w.expect("warmup_done");
  w.send({{"type", "measure"}});
  s.measure_done = w.expect("measure_done");
  s.result = w.expect("result");
  return s;
}

void end_session(ChezWorker& w, Session& s) {
  w.send({{"type", "exit"}});
  s.bye = w.expect("bye");
  s.exit = w.expect_exit();
}

Session run_session(const json& configure, const EnvChanges& env) {
  ChezWorker w(env);
  Session s = drive_to_result(w, configure);
  end_session(w, s);
  return s;
}

std::uint64_t ns(const json& decimal) {
  if (!decimal.is_string()) throw std::runtime_error("not a decimal string: " + decimal.dump());
  const auto v = stats::parse_decimal_u64(decimal.get<std::string>());
  if (!v) throw std::runtime_error("not a canonical decimal: " + decimal.dump());
  return *v;
}

bool process_group_empty(int pgid) {
  for (const auto& p : proc::processes_in_group(pgid)) {
    if (p.state != 'Z') return false;
  }
  return true;
}

}  // namespace jbench::test
