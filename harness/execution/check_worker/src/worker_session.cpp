#include "worker_session.h"

#include <fmt/format.h>

#include "jbench/common/clock.h"

namespace jbench::check_worker {

Result<std::unique_ptr<WorkerSession>> WorkerSession::start(const std::vector<std::string>& argv,
                                                            const std::string& stderr_path) {
  proc::SpawnSpec spec;
  spec.executable = argv.front();
  spec.args.assign(argv.begin() + 1, argv.end());
  spec.stderr_path = stderr_path;
  auto spawned = proc::ChildProcess::spawn(spec);
  if (!spawned) return spawned.error();
  return std::unique_ptr<WorkerSession>(new WorkerSession(std::move(*spawned)));
}

WorkerSession::~WorkerSession() {
  if (!process_->reaped()) process_->kill_and_reap();
}

Status WorkerSession::send(const nlohmann::json& message) {
  return process_->write_line(message.dump(), 5'000);
}

Result<nlohmann::json> WorkerSession::expect(const std::string& type, int timeout_ms) {
  std::string line;
  const std::uint64_t deadline = monotonic_ns() + std::uint64_t(timeout_ms) * 1'000'000;
  switch (process_->next_line(line, deadline)) {
    case proc::ChildProcess::LineWait::line:
      break;
    case proc::ChildProcess::LineWait::closed:
      return Error{fmt::format("its output ended before \"{}\"", type)};
    case proc::ChildProcess::LineWait::timed_out:
      return Error{fmt::format("no \"{}\" within {} s", type, timeout_ms / 1000)};
    case proc::ChildProcess::LineWait::overlong:
      return Error{"a line longer than 1 MiB"};
  }
  auto message = nlohmann::json::parse(line, nullptr, false);
  if (!message.is_object() || !message.contains("type") || !message["type"].is_string()) {
    return Error{fmt::format("\"{}\" expected, got a line that is not a message: {}", type,
                             line.substr(0, 200))};
  }
  if (message["type"] != type) {
    return Error{fmt::format("\"{}\" expected, got {}", type, line.substr(0, 300))};
  }
  return message;
}

}  // namespace jbench::check_worker
