// A program a test talks to while it runs: stdin, stdout and stderr are pipes, stdout is read
// line by line against a deadline. For targets that must wait for a tracer, and for the tracer.
//
// Guarantees: the child gets PR_SET_PDEATHSIG(SIGKILL) and its own process group; the destructor
// kills the group with SIGKILL and reaps the child, so a failed test leaves nothing behind.
//
//   TargetProcess p({"/usr/bin/bpftrace", "-e", script}, {});
//   auto line = p.read_line_until([](auto& l) { return l == "attached"; }, 30s);
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jbench::test {

class TargetProcess {
 public:
  using Env = std::vector<std::pair<std::string, std::string>>;

  // Starts argv[0] (an absolute path) with `env` set on top of ours. Throws std::runtime_error if
  // it cannot be started.
  TargetProcess(const std::vector<std::string>& argv, const Env& env);
  ~TargetProcess();
  TargetProcess(const TargetProcess&) = delete;
  TargetProcess& operator=(const TargetProcess&) = delete;

  pid_t pid() const { return pid_; }

  // Reads stdout until a line satisfies `wanted` (returned), or the deadline passes, or stdout
  // closes (nullopt). Every line read is kept in out().
  std::optional<std::string> read_line_until(const std::function<bool(const std::string&)>& wanted,
                                             std::chrono::milliseconds timeout);
  // Writes `text` to stdin (false if the child no longer reads it).
  bool write_stdin(const std::string& text);
  // Sends `signal` to the child.
  void signal(int signal);
  // Waits for the child to exit, collecting the rest of its output. Returns its exit code, or
  // nullopt if it was killed by a signal or did not exit in time (it is then killed).
  std::optional<int> wait(std::chrono::milliseconds timeout);

  const std::string& out() const { return out_; }
  const std::string& err() const { return err_; }

 private:
  // Reads what arrives within `timeout`: the bytes read, or -1 once both pipes are closed.
  long pump(std::chrono::milliseconds timeout);
  void kill_and_reap();

  pid_t pid_ = -1;
  int in_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  bool reaped_ = false;
  int status_ = 0;
  std::string out_;
  std::string err_;
  std::size_t next_line_ = 0;  // offset in out_ of the first line not yet returned
};

}  // namespace jbench::test
