#include "jbench/check_worker/check_worker.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <utility>

#include "jbench/matrix/worker_declaration.h"
#include "jbench/proc/run_tool.h"
#include "jbench/proc/worker_describe.h"
#include "jbench/proc/worker_hello.h"
#include "jbench/run_summaries/result_rules.h"
#include "worker_session.h"

namespace jbench::check_worker {
namespace {

using Json = nlohmann::json;

// A step's outcome: passed with what was seen, or failed with why.
struct Outcome {
  bool passed = false;
  std::string detail;
};
Outcome pass(std::string detail = {}) { return {true, std::move(detail)}; }
Outcome fail(std::string why) { return {false, std::move(why)}; }

class Pass {
 public:
  Pass(const CheckOptions& o, const std::function<void(const CheckStep&)>& on_step)
      : options(o), on_step_(on_step) {}
  void record(const std::string& rule, const Outcome& outcome) {
    add({rule, outcome.passed, false, outcome.detail});
  }
  void skip(const std::string& rule, const std::string& why) { add({rule, false, true, why}); }
  // Runs the steps in order; after the first that fails, the rest are skipped. With `not_run`
  // set (what an earlier step it needs said), every step is skipped with it.
  void sequence(const std::vector<std::pair<std::string, std::function<Outcome()>>>& session,
                std::string not_run) {
    for (const auto& [rule, step] : session) {
      if (!not_run.empty()) {
        skip(rule, not_run);
        continue;
      }
      const Outcome outcome = step();
      record(rule, outcome);
      if (!outcome.passed) not_run = fmt::format("not run: {} failed", rule);
    }
  }
  std::vector<CheckStep> steps;
  const CheckOptions& options;

 private:
  void add(CheckStep s) {
    on_step_(s);
    steps.push_back(std::move(s));
  }
  const std::function<void(const CheckStep&)>& on_step_;
};

// The worker's command with `more` after it; a program that cannot be found stays as written,
// for the spawn to name.
std::vector<std::string> with(std::vector<std::string> argv, std::vector<std::string> more) {
  if (auto program = proc::worker_program(argv.front()); !program.empty()) argv.front() = program;
  argv.insert(argv.end(), more.begin(), more.end());
  return argv;
}

// A worker serving, with the hello it said.
struct Serving {
  std::unique_ptr<WorkerSession> session;
  Json hello;
};

// A new `COMMAND serve` that has said hello, or why not (a spawn's failure is its own sentence:
// "cannot start the worker: ...").
Result<Serving> serving(const CheckOptions& o, const std::string& stderr_path) {
  auto started = WorkerSession::start(with(o.command, {"serve"}), stderr_path);
  if (!started) return started.error();
  auto said = (*started)->expect("hello", o.step_timeout_ms);
  if (!said) return said.error();
  return Serving{std::move(*started), std::move(*said)};
}

std::shared_ptr<const WorkerDeclaration> describe_step(Pass& p) {
  const auto line = proc::ask_worker_to_describe(p.options.command, p.options.step_timeout_ms);
  const auto declared = line ? parse_worker_declaration(*line) : Error(line.error());
  if (!declared) {
    p.record("describe", fail(declared.error().message));
    return nullptr;
  }
  const WorkerDeclaration& d = **declared;
  p.record("describe",
           pass(fmt::format("worker '{}', {} parameters", d.worker(), d.kind().params.size())));
  return *declared;
}

Outcome build_dataset(const CheckOptions& o, const std::string& db) {
  const auto run = proc::run_to_completion(
      with(o.command, {"build-dataset", "--db", db, "--rows", std::to_string(o.rows), "--row-bytes",
                       std::to_string(o.row_bytes), "--seed", "1"}),
      std::nullopt, o.step_timeout_ms, std::size_t{1} << 20);
  if (!run.started) return fail("could not start: " + run.error);
  if (run.timed_out) return fail(fmt::format("did not end within {} s", o.step_timeout_ms / 1000));
  if (run.signaled || run.exit_code != 0) {
    return fail(fmt::format(
        "ended with {}: {}",
        run.signaled ? fmt::format("signal {}", run.signal) : fmt::format("exit {}", run.exit_code),
        run.err.substr(0, 200)));
  }
  const auto last = run.out.empty() ? std::string() : run.out.substr(0, run.out.size() - 1);
  const auto report = Json::parse(last.substr(last.rfind('\n') + 1), nullptr, false);
  if (!report.is_object() || report.value("type", "") != "dataset") {
    return fail("its last line is not a {\"type\":\"dataset\",...} report");
  }
  struct stat st {};
  if (::stat(db.c_str(), &st) != 0) return fail("reported a dataset but left no file at --db");
  return pass(fmt::format("{} rows, {} bytes", o.rows, st.st_size));
}

Json configure_message(const CheckOptions& o, const WorkerDeclaration& d, const std::string& db) {
  Json params = {{"page_cache_kib", o.page_cache_kib}};
  for (const ParamSpec& p : d.kind().params) {
    if (p.key == "read_ratio" && o.lane != "mixed") continue;  // as jbench run sends it
    with_value(Param{std::string(p.key), p.default_value, true},
               [&](const auto& v) { params[std::string(p.key)] = v; });
  }
  return {{"type", "configure"},
          {"worker_index", 0},
          {"seed", "1"},
          {"lane", o.lane},
          {"connection", o.connection},
          {"db", db},
          {"params", params},
          {"phases",
           {{"warmup", {{"operations", o.warmup_operations}}},
            {"measure", {{"operations", o.measure_operations}}}}}};
}

// Sends `message` and waits for a line of type `type`. A worker that has already left makes the
// write fail or not depending on when it closed its input; either way what it printed before
// leaving (an error line, or the end of its output) is read and named, so the verdict does not
// depend on that race.
Result<Json> ask(WorkerSession& s, const Json& message, const std::string& type, int timeout_ms) {
  const Status sent = s.send(message);
  if (sent) return s.expect(type, timeout_ms);
  const std::string& write_error = sent.error().message;
  const auto read = s.expect(type, timeout_ms);
  if (!read) return Error{fmt::format("{} ({})", read.error().message, write_error)};
  return Error{write_error};
}

Outcome ended_with(WorkerSession& s, int code, int timeout_ms) {
  const auto status = s.ended_within(timeout_ms);
  if (!status) return fail(fmt::format("still running {} s later", timeout_ms / 1000));
  if (status->signaled || status->code != code) {
    return fail(fmt::format("ended with {}, exit code {} expected", status->describe(), code));
  }
  return pass(status->describe());
}

// `d` is null when describe failed, and then `not_run` says so: nothing of the session runs.
void main_session(Pass& p, const WorkerDeclaration* d, const std::string& db,
                  const std::string& logs, std::string not_run) {
  const CheckOptions& o = p.options;
  const int t = o.step_timeout_ms;
  std::unique_ptr<WorkerSession> session;
  Json hello;
  const auto check = [&](const Result<Json>& got, auto&& rule) -> Outcome {
    return got ? rule(*got) : fail(got.error().message);
  };
  p.sequence(
      {
          {"hello",
           [&] {
             auto served = serving(o, logs + "/serve.stderr");
             if (!served) return fail(served.error().message);
             session = std::move((*served).session);
             hello = std::move((*served).hello);
             const Status proven = proc::check_worker_hello(hello, session->pid(), "the worker");
             return proven ? pass(fmt::format("pid {}", session->pid()))
                           : fail(proven.error().message);
           }},
          {"ready",
           [&] {
             return check(ask(*session, configure_message(o, *d, db), "ready", t),
                          [](const Json&) { return pass(); });
           }},
          {"canary",
           [&] {
             return check(
                 ask(*session, {{"type", "canary"}}, "canary_done", t), [&](const Json& c) {
                   const std::string path =
                       "/jbench-canary/" + hello.value("runtime_id", std::string());
                   if (c.value("syscall", "") != "faccessat" || c.value("path", "") != path ||
                       c.value("errno", "") != "ENOENT") {
                     return fail(
                         fmt::format("expected the raw faccessat of {} failing ENOENT, got {}",
                                     path, c.dump()));
                   }
                   return pass();
                 });
           }},
          {"warmup",
           [&] {
             return check(ask(*session, {{"type", "start"}}, "warmup_done", t), [&](const Json& w) {
               const auto n = w.value("operations", std::uint64_t{0});
               return n == o.warmup_operations
                          ? pass(fmt::format("{} operations", n))
                          : fail(fmt::format("{} operations counted, {} asked for", n,
                                             o.warmup_operations));
             });
           }},
          {"measure",
           [&] {
             return check(ask(*session, {{"type", "measure"}}, "measure_done", t),
                          [](const Json&) { return pass(); });
           }},
          {"result",
           [&] {
             return check(session->expect("result", t), [&](const Json& r) {
               const auto problems = run_summaries::result_problems(
                   r, hello, {o.lane, o.connection, o.measure_operations});
               if (problems.empty())
                 return pass(fmt::format("{} operations", o.measure_operations));
               std::string all;
               for (const auto& problem : problems) all += (all.empty() ? "" : "; ") + problem;
               return fail(all);
             });
           }},
          {"bye",
           [&] {
             const auto bye = ask(*session, {{"type", "exit"}}, "bye", t);
             return bye ? ended_with(*session, 0, t) : fail(bye.error().message);
           }},
      },
      std::move(not_run));
}

// A message no protocol has: an `error` line, then exit code 2.
void bad_request_session(Pass& p, const std::string& logs) {
  auto s = serving(p.options, logs + "/bad.stderr");
  if (!s) {
    p.record("bad-request", fail("no hello to answer: " + s.error().message));
    return;
  }
  const int t = p.options.step_timeout_ms;
  const auto answer = ask(*s->session, {{"type", "no-such-message"}}, "error", t);
  p.record("bad-request", answer ? ended_with(*s->session, 2, t) : fail(answer.error().message));
}

// stdin closed while it waits for `configure`: it ends by itself, exit code 3.
void eof_session(Pass& p, const std::string& logs) {
  auto s = serving(p.options, logs + "/eof.stderr");
  if (!s) {
    p.record("eof", fail("no hello: " + s.error().message));
    return;
  }
  s->session->close_stdin();
  p.record("eof", ended_with(*s->session, 3, p.options.step_timeout_ms));
}

}  // namespace

std::vector<CheckStep> check_worker(const CheckOptions& options,
                                    const std::function<void(const CheckStep&)>& on_step) {
  Pass p(options, on_step);
  const auto declared = describe_step(p);
  const std::string db = options.work_dir + "/check.db";
  const Outcome dataset = build_dataset(options, db);
  p.record("build-dataset", dataset);
  const char* not_run = !declared         ? "not run: describe failed"
                        : !dataset.passed ? "not run: build-dataset failed"
                                          : "";
  main_session(p, declared.get(), db, options.work_dir, not_run);
  bad_request_session(p, options.work_dir);
  eof_session(p, options.work_dir);
  return p.steps;
}

}  // namespace jbench::check_worker
