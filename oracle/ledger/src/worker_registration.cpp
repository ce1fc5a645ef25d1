#include "worker_registration.h"

#include <poll.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "jbench/common/clock.h"
#include "jbench/proc/proc_stat.h"
#include "jbench/proc/worker_hello.h"

namespace jbench::oracle {
namespace {

std::string name_of(const LedgerIncarnation& r) {
  return r.role + " " + std::to_string(r.index) + " incarnation " + std::to_string(r.incarnation);
}

}  // namespace

void collect_lines(RegisteredWorker& worker, int timeout_ms) {
  if (worker.eof) return;
  pollfd p{worker.process->stdout_fd(), POLLIN, 0};
  ::poll(&p, 1, timeout_ms);
  bool overlong = false;
  if (!worker.process->read_lines(worker.lines, overlong)) worker.eof = true;
}

Result<RegisteredWorker> spawn_registered(const proc::SpawnSpec& spec, LedgerIncarnation record,
                                          int timeout_ms) {
  auto spawned = proc::ChildProcess::spawn(spec);
  if (!spawned) {
    return Error{"cannot start " + name_of(record) + ": " + spawned.error().message, 0,
                 ErrorKind::host};
  }
  RegisteredWorker worker{std::move(*spawned), std::move(record), {}, false};
  const std::uint64_t deadline = monotonic_ns() + static_cast<std::uint64_t>(timeout_ms) * 1000000;
  while (worker.lines.empty() && !worker.eof && monotonic_ns() < deadline) {
    collect_lines(worker, 10);
  }
  const std::string name = name_of(worker.record);
  if (worker.lines.empty()) {
    return Error{name + " sent no hello within " + std::to_string(timeout_ms) + " ms"};
  }
  const auto hello = nlohmann::json::parse(worker.lines.front(), nullptr, false);
  worker.lines.erase(worker.lines.begin());
  const pid_t pid = worker.process->pid();
  if (const Status proven = proc::check_worker_hello(hello, pid, name); !proven) {
    return proven.error();
  }
  // Read while the worker is blocked waiting for "go": it cannot have exited, so this is its
  // incarnation and not a later process that reused the pid.
  const auto stat = proc::read_proc_stat(pid);
  if (!stat) return Error{name + " (pid " + std::to_string(pid) + ") is gone before release"};
  worker.record.pid = pid;
  worker.record.start_time_ticks = stat->start_time_ticks;
  worker.record.runtime_id = hello["runtime_id"].get<std::string>();
  if (const Status sent = worker.process->write_line("go", 2000); !sent) {
    return Error{"cannot release " + name + ": " + sent.error().message};
  }
  return worker;
}

std::string first_stderr_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace jbench::oracle
