#include "jbench/oracle/process_target.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <utility>

#include "jbench/common/clock.h"
#include "jbench/common/path_search.h"
#include "jbench/oracle/protocol.h"
#include "jbench/proc/child_process.h"

namespace jbench::oracle {

namespace {

constexpr std::size_t kMaxLine = 64u << 20;  // one answer; a longer line is a protocol error
// What an engine may write to stderr over its life: past it, it is stopped before it fills the
// disk jbench writes its bundle to.
constexpr std::uintmax_t kMaxStderrBytes = 64u << 20;

// A fresh file for the engine's stderr, so a failure can quote its end.
std::string make_stderr_file() {
  std::string dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  std::string path = dir + "/jbench-engine-stderr-XXXXXX";
  int fd = mkstemp(path.data());
  if (fd < 0) return "";
  close(fd);
  return path;
}

}  // namespace

Result<ProcessTarget> ProcessTarget::start(const EngineCommand& command) {
  if (command.argv.empty()) return Error{"the engine command is empty", 0, ErrorKind::input};
  // An engine may die between two requests: writing the next one must then fail with EPIPE,
  // which becomes a finding, instead of raising SIGPIPE, which would kill jbench.
  ::signal(SIGPIPE, SIG_IGN);
  proc::SpawnSpec spec;
  spec.executable = command.argv[0];
  if (spec.executable.find('/') == std::string::npos) {
    spec.executable = find_on_path(command.argv[0]);
    if (spec.executable.empty()) {
      return Error{"the engine '" + command.argv[0] + "' is not on PATH", 0, ErrorKind::input};
    }
  }
  spec.args.assign(command.argv.begin() + 1, command.argv.end());
  spec.working_dir = command.working_dir;
  ProcessTarget t;
  t.statement_timeout_ms_ = command.statement_timeout_ms;
  t.stderr_path_ = make_stderr_file();
  spec.stderr_path = t.stderr_path_;
  auto spawned = proc::ChildProcess::spawn(spec);
  if (!spawned) {
    return Error{"cannot start the engine '" + spec.executable + "': " + spawned.error().message, 0,
                 ErrorKind::input};
  }
  t.child_ = std::move(*spawned);
  const Result<std::string> hello = t.next_line(command.start_timeout_ms);
  if (!hello) {
    return Error{
        "the engine '" + spec.executable + "' said no hello: " + t.fail(hello.error().message), 0,
        ErrorKind::input};
  }
  const Result<Hello> h = decode_hello(*hello);
  if (!h) {
    return Error{"the engine '" + spec.executable +
                     "' does not speak the protocol: " + t.fail(h.error().message),
                 0, ErrorKind::input};
  }
  t.engine_ = h->engine.empty() ? spec.executable : h->engine;
  t.prepared_ = h->prepared;
  t.optimizations_ = h->optimizations;
  return t;
}

ProcessTarget::ProcessTarget(ProcessTarget&&) noexcept = default;
ProcessTarget& ProcessTarget::operator=(ProcessTarget&&) noexcept = default;

ProcessTarget::~ProcessTarget() {
  if (child_ && !child_->reaped()) {
    if (child_->write_line(encode_quit(), 200)) {
      child_->close_stdin();
      child_->reap_within(1000);
    }
    if (!child_->reaped()) child_->kill_and_reap();
  }
  if (!stderr_path_.empty()) unlink(stderr_path_.c_str());
}

Result<std::string> ProcessTarget::next_line(std::uint32_t timeout_ms) {
  std::string line;
  const std::uint64_t deadline = monotonic_ns() + std::uint64_t{timeout_ms} * 1'000'000;
  switch (child_->next_line(line, deadline, kMaxLine)) {
    case proc::ChildProcess::LineWait::line:
      return line;
    case proc::ChildProcess::LineWait::overlong:
      return Error{"it wrote a line longer than " + std::to_string(kMaxLine >> 20) + " MiB"};
    case proc::ChildProcess::LineWait::closed:
      return Error{"it closed its output (exited?)"};
    case proc::ChildProcess::LineWait::timed_out:
      break;
  }
  return Error{"no answer within " + std::to_string(timeout_ms) + " ms"};
}

std::string ProcessTarget::stderr_tail() const {
  if (stderr_path_.empty()) return "";
  std::ifstream in(stderr_path_, std::ios::binary | std::ios::ate);
  if (!in) return "";
  std::streamoff size = in.tellg();
  std::streamoff from = size > 600 ? size - 600 : 0;
  in.seekg(from);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

std::string ProcessTarget::fail(const std::string& why) {
  std::string out = why;
  if (child_) {
    // Give an engine that is exiting a moment to be reaped with its own status.
    bool killed = !child_->reap_within(200);
    proc::ExitStatus status = child_->kill_and_reap();
    out += killed ? "; jbench killed it" : "; it ended with " + status.describe();
  }
  std::string tail = stderr_tail();
  if (!tail.empty()) out += "; its stderr ends: " + tail;
  gone_ = out;
  return out;
}

ResultSet ProcessTarget::request(const std::string& statement, std::string_view sql,
                                 const std::vector<Value>& params) {
  return exchange(RunRequest{next_id_++, std::string(sql), params, statement, std::nullopt});
}

// One request and its answer, bounded by the statement timeout; none once the engine is gone.
ResultSet ProcessTarget::exchange(const RunRequest& req) {
  ResultSet r;
  if (gone_) {
    r.engine_failure = "the engine is gone: " + *gone_;
    return r;
  }
  if (const Status sent =
          child_->write_line(encode_request(req), static_cast<int>(statement_timeout_ms_));
      !sent) {
    r.engine_failure = fail("it does not take requests: " + sent.error().message);
    return r;
  }
  const Result<std::string> line = next_line(statement_timeout_ms_);
  if (!line) {
    r.engine_failure = fail(line.error().message);
    return r;
  }
  Result<ResultSet> d = decode_response(*line, req.id);
  if (!d) {
    r.engine_failure = fail("its answer breaks the protocol: " + d.error().message);
    return r;
  }
  std::error_code ec;
  if (!stderr_path_.empty() && std::filesystem::file_size(stderr_path_, ec) > kMaxStderrBytes &&
      !ec) {
    r.engine_failure =
        fail("it wrote more than " + std::to_string(kMaxStderrBytes >> 20) + " MiB to stderr");
    return r;
  }
  return std::move(*d);
}

Status ProcessTarget::switch_off(const std::vector<std::string>& names) {
  for (const std::string& n : names) {
    if (std::find(optimizations_.begin(), optimizations_.end(), n) == optimizations_.end()) {
      return Error{name() + " offers no optimization '" + n + "' to switch off", 0,
                   ErrorKind::input};
    }
  }
  if (optimizations_.empty()) return {};  // nothing to switch: an engine without the op
  RunRequest req;
  req.id = next_id_++;
  req.switch_off = names;
  const ResultSet r = exchange(req);
  if (r.engine_failure) return Error{name() + " failed: " + *r.engine_failure, 0, ErrorKind::io};
  if (r.error) {
    return Error{name() + " refused to switch off its optimizations: " + r.error->message, 0,
                 ErrorKind::input};
  }
  return {};
}

ResultSet ProcessTarget::run(std::string_view sql, const std::vector<Value>& params) {
  return request("", sql, params);
}

ResultSet ProcessTarget::run_prepared(const std::string& statement, std::string_view sql,
                                      const std::vector<Value>& params) {
  return request(prepared_ ? statement : "", sql, params);
}

}  // namespace jbench::oracle
