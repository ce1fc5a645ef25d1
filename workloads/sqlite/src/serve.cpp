// Protocol v1, the worker side: a fixed sequence of blocking reads on stdin, each answered on
// stdout. Nothing of the workload happens before `configure`; nothing is read from stdin while
// a phase runs (a poll there would put the harness's own syscalls into the measured trace).
//
// The trace bridge (trace.h) is started before hello, marks each phase boundary as the message
// that opens it arrives, and fires its canary beside the faccessat one; serve() shuts it down
// after the last message, so the raw file is complete once the worker has exited.
#include <fmt/format.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "jbench/common/errno_name.h"
#include "jbench/sqlite_workload/identity.h"
#include "jbench/sqlite_workload/phase.h"
#include "jbench/sqlite_workload/protocol.h"
#include "jbench/sqlite_workload/results.h"
#include "jbench/sqlite_workload/trace.h"
#include "jbench/sqlite_workload/worker.h"
#include "jbench/stats/decimal.h"

namespace jbench::sqlite_workload {
namespace {

using nlohmann::json;

json now_ns() { return stats::to_decimal(monotonic_ns()); }

void log_line(std::string_view message) {
  fmt::print(stderr, "jbench-sqlite-worker[{}]: {}\n", getpid(), message);
}

const std::set<std::string, std::less<>> kHarnessTypes = {"configure", "canary", "start", "measure",
                                                          "exit"};

class Server {
 public:
  Server(int in_fd, int out_fd) : in_(in_fd), out_fd_(out_fd) {}
  int run();

 private:
  // The next message, which must be of type `expected` (or "exit", at any point). nullopt
  // when the worker must stop: `exit_code_` then says how.
  std::optional<json> receive(std::string_view expected);
  // Waits for `expected` (stored in `message` if given). Returns the exit code when the session
  // ends here instead: an error, EOF, or "exit" (which tears down and says bye).
  std::optional<int> await(std::string_view expected, json* message = nullptr);
  bool send(const json& message);
  int protocol_error(std::string message, json details = nullptr);
  void enter_teardown();  // the bridge's teardown phase, once
  int finish();           // tear down, bye, exit 0

  LineReader in_;
  int out_fd_;
  int exit_code_ = kExitOk;
  bool result_sent_ = false;
  bool in_teardown_ = false;
  std::string runtime_id_;
  std::unique_ptr<Workload> workload_;
};

bool Server::send(const json& message) {
  if (write_json_line(out_fd_, message)) return true;
  log_line(fmt::format("cannot write to stdout ({}); exiting", std::strerror(errno)));
  exit_code_ = kExitStdoutClosed;
  return false;
}

int Server::protocol_error(std::string message, json details) {
  log_line(message);
  json m{{"type", "error"}, {"message", std::move(message)}};
  if (!details.is_null()) m["errors"] = std::move(details);
  if (!send(m)) return exit_code_;
  return kExitProtocolError;
}

std::optional<json> Server::receive(std::string_view expected) {
  std::string line;
  switch (in_.next(line)) {
    case LineReader::Status::line:
      break;
    case LineReader::Status::eof:
      if (result_sent_) return json{{"type", "exit"}};  // EOF after the result ends the run cleanly
      log_line(fmt::format("stdin ended while waiting for {}; exiting with {}", expected,
                           int{kExitStdinEof}));
      exit_code_ = kExitStdinEof;
      return std::nullopt;
    case LineReader::Status::too_long:
      exit_code_ = protocol_error(fmt::format("a line on stdin exceeds {} bytes", kMaxLineBytes));
      return std::nullopt;
    case LineReader::Status::read_error:
      exit_code_ =
          protocol_error(fmt::format("reading stdin: {}", std::strerror(in_.last_errno())));
      return std::nullopt;
  }
  json m = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (m.is_discarded() || !m.is_object() || !m.contains("type") || !m["type"].is_string()) {
    exit_code_ =
        protocol_error("malformed message: expected one JSON object with a string \"type\"");
    return std::nullopt;
  }
  const auto& type = m["type"].get_ref<const std::string&>();
  if (!kHarnessTypes.contains(type)) {
    exit_code_ = protocol_error(fmt::format("unknown message type \"{}\"", type));
    return std::nullopt;
  }
  if (type != expected && type != "exit") {
    exit_code_ =
        protocol_error(fmt::format("unexpected \"{}\" while waiting for \"{}\"", type, expected));
    return std::nullopt;
  }
  if (type != "configure" && m.size() != 1) {
    exit_code_ = protocol_error(fmt::format("\"{}\" takes no fields besides \"type\"", type));
    return std::nullopt;
  }
  return m;
}

std::optional<int> Server::await(std::string_view expected, json* message) {
  auto m = receive(expected);
  if (!m) return exit_code_;
  if ((*m)["type"] == "exit") return finish();
  if (message != nullptr) *message = std::move(*m);
  return std::nullopt;
}

void Server::enter_teardown() {
  if (!in_teardown_) jb_phase("teardown");
  in_teardown_ = true;
}

int Server::finish() {
  enter_teardown();
  std::string error;
  const std::uint64_t teardown_ns = workload_ ? workload_->tear_down(error) : 0;
  if (!error.empty()) log_line(error);
  json bye{{"type", "bye"}, {"t_ns", now_ns()}, {"teardown_ns", stats::to_decimal(teardown_ns)}};
  if (!error.empty()) bye["error"] = error;
  return send(bye) ? kExitOk : exit_code_;
}

int Server::run() {
  // A mode the bridge cannot have (a bad word, no output file, a file that already exists) is
  // the harness's mistake: refuse before hello rather than run untraced under a traced label.
  if (auto refusal = trace::start_bridge()) return protocol_error(std::move(*refusal));
  const auto id = worker_runtime_id();
  if (!id) {
    log_line(fmt::format("getrandom: {}", std::strerror(errno)));
    return kExitInternal;
  }
  runtime_id_ = *id;
  if (!send({{"type", "hello"},
             {"protocol", kProtocolVersion},
             {"worker", "sqlite"},
             {"pid", getpid()},
             {"runtime_id", runtime_id_},
             {"bridge", trace::bridge_mode_name()},
             {"clock", "CLOCK_MONOTONIC"},
             {"t_ns", now_ns()}})) {
    return exit_code_;
  }

  json configure;
  if (auto end = await("configure", &configure)) return *end;
  jb_phase("startup");
  const ConfigParse parsed = parse_configure(configure);
  if (!parsed.config) return protocol_error("invalid configure", parsed.errors);
  auto setup = Workload::set_up(*parsed.config);
  if (!setup.workload) return protocol_error(setup.error);
  workload_ = std::move(setup.workload);
  if (!send({{"type", "ready"},
             {"t_ns", now_ns()},
             {"open_ns", stats::to_decimal(setup.open_ns)},
             {"setup_ns", stats::to_decimal(setup.setup_ns)},
             {"statements", statements_json(workload_->catalog())}})) {
    return exit_code_;
  }

  if (auto end = await("canary")) return *end;
  jb_canary();
  const CanaryResult canary = fire_canary(runtime_id_);
  const char* errno_name = canary.error == 0 ? "0" : jbench::errno_name(canary.error);
  if (!send({{"type", "canary_done"},
             {"t_ns", now_ns()},
             {"syscall", "faccessat"},
             {"path", canary.path},
             {"errno", errno_name != nullptr ? errno_name : "unknown"}})) {
    return exit_code_;
  }

  if (auto end = await("start")) return *end;
  jb_phase("warmup");
  const PhaseStats warmup = workload_->run_phase(workload_->config().warmup);
  json warmup_done = phase_counts_json(warmup);
  warmup_done.update({{"type", "warmup_done"}, {"t_ns", now_ns()}});
  if (!send(warmup_done)) return exit_code_;

  if (auto end = await("measure")) return *end;
  jb_phase("measure");
  const PhaseStats measure = workload_->run_phase(workload_->config().measure);
  // The worker's own part of the measure phase ends with its last operation: what follows
  // (building and sending its figures, waiting for "exit") is not the workload's, and a counted
  // run stops counting here (docs/trace-modes.md, "counted").
  enter_teardown();
  if (!send({{"type", "measure_done"},
             {"t_ns", now_ns()},
             {"t_start_ns", stats::to_decimal(measure.t_start_ns)},
             {"t_end_ns", stats::to_decimal(measure.t_end_ns)},
             {"t_finished_ns", stats::to_decimal(measure.t_finished_ns)},
             {"operations", measure.total_operations()},
             {"straddled", measure.straddled}}) ||
      !send(result_json(*workload_, measure, runtime_id_))) {
    return exit_code_;
  }
  result_sent_ = true;

  // Only "exit" (or EOF, which now means the same) is accepted here, so await ends the session.
  return await("exit").value_or(kExitInternal);
}

}  // namespace

int serve(int in_fd, int out_fd) {
  // A vanished harness must surface as EPIPE on write (exit 4), not kill the worker silently.
  std::signal(SIGPIPE, SIG_IGN);
  const int code = Server(in_fd, out_fd).run();
  // After the last message on every path: flushes the records and writes the raw file's
  // trailer (a no-op while the bridge is off).
  jb_shutdown();
  return code;
}

}  // namespace jbench::sqlite_workload
