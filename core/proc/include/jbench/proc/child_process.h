// A child process the harness owns, with a line channel on its stdin and stdout.
//
// Guarantees (each one is a fault that was seen otherwise):
// - The child gets PR_SET_PDEATHSIG(SIGKILL): if the harness dies, so does the child.
// - Every descriptor but 0, 1 and 2 is marked close-on-exec in the child, so no pipe of another
//   worker leaks into it (a leaked pipe end keeps an unrelated worker from ever seeing EOF).
// - The parent's pipe ends are close-on-exec and non-blocking.
// - It is always reaped, by this class, with wait4(): the exit code and the signal are kept
//   apart, and the kernel's rusage of the child comes with them. Destroying a ChildProcess that
//   has not been reaped kills it (SIGKILL) and reaps it.
// - The child runs in the process group `SpawnSpec::process_group` (0: a new group it leads), so
//   kill_group() reaches everything it forked unless that escaped with setsid/setpgid.
//
//   auto child = ChildProcess::spawn({.executable = "/abs/worker", .args = {"serve"}});
//   if (!child) report(child.error().message);
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jbench/common/result.h"

namespace jbench::proc {

struct SpawnSpec {
  std::string executable;  // an absolute path; it is checked before anything is forked
  std::vector<std::string> args;
  std::string working_dir;  // empty: the harness's
  std::string stderr_path;  // the child's stderr is written here; empty: /dev/null
  std::vector<std::pair<std::string, std::string>> extra_env;
  pid_t process_group = 0;
  // Descriptors the child gets as its stdin and stderr instead of the line channel's pipe and
  // stderr_path (run_tool.h gives /dev/null and a pipe it drains); -1: those defaults.
  int stdin_fd = -1;
  int stderr_fd = -1;
  // SIGPIPE back to SIG_DFL in the child: the harness ignores it while workers run, and a tool
  // run to completion should die of it as it would from a shell.
  bool default_sigpipe = false;
  // The child stops before exec until release_exec(): its pid and start time are known, and a
  // tracer can take it in, before its first instruction of the new program. Forked, not vforked
  // (a vfork child that waits would hold the harness too). Released never, it exits 127.
  bool hold_before_exec = false;
};

struct ExitStatus {
  bool signaled = false;
  int code = 0;    // the exit code when !signaled
  int signal = 0;  // the terminating signal when signaled
  std::uint64_t user_ns = 0;
  std::uint64_t system_ns = 0;
  std::int64_t max_rss_kib = 0;
  std::int64_t voluntary_switches = 0;
  std::int64_t involuntary_switches = 0;
  std::string describe() const;  // "exit 0", "exit 3", "signal 9 (Killed)"
};

class ChildProcess {
 public:
  // The running child, or why it could not be started.
  static Result<std::unique_ptr<ChildProcess>> spawn(const SpawnSpec& spec);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  pid_t process_group() const { return group_; }
  int stdout_fd() const { return stdout_fd_; }

  // Lets a child spawned with hold_before_exec go on to exec; an error if it could not be told
  // (it is gone). At once for a child that was not held.
  Status release_exec();

  // Writes one line (a '\n' is appended), waiting at most `timeout_ms` for pipe space; an error
  // if the child is gone or does not read.
  Status write_line(std::string_view line, int timeout_ms);
  void close_stdin();

  // Reads what is available on stdout without blocking and appends complete lines to `lines`.
  // Returns false at EOF. Lines longer than `max_line` are cut and flagged with `overlong`.
  bool read_lines(std::vector<std::string>& lines, bool& overlong, std::size_t max_line = 1 << 20);
  std::uint64_t bytes_read() const { return bytes_read_; }

  // The next complete line of stdout, waiting for it until `deadline_ns` (CLOCK_MONOTONIC);
  // lines read past it are kept for the next call. Not to be mixed with read_lines().
  enum class LineWait { line, closed, timed_out, overlong };
  LineWait next_line(std::string& line, std::uint64_t deadline_ns, std::size_t max_line = 1 << 20);

  // wait4(WNOHANG): the status once the child has exited.
  std::optional<ExitStatus> try_reap();
  // Waits up to `timeout_ms` for the child to exit by itself (after a quit request, or once it
  // closed its output); its status, or nullopt if it is still running.
  std::optional<ExitStatus> reap_within(int timeout_ms);
  // SIGKILL (if still running), then wait4 until reaped.
  ExitStatus kill_and_reap();
  bool reaped() const { return status_.has_value(); }
  const std::optional<ExitStatus>& status() const { return status_; }

 private:
  ChildProcess(pid_t pid, pid_t group, int stdin_fd, int stdout_fd);
  std::optional<ExitStatus> reap(int options);

  pid_t pid_;
  pid_t group_;
  int stdin_fd_;
  int stdout_fd_;
  int release_fd_ = -1;  // hold_before_exec: one byte here lets the child exec
  std::string partial_;
  std::deque<std::string> ready_;  // complete lines next_line() has read but not returned
  std::uint64_t bytes_read_ = 0;
  std::optional<ExitStatus> status_;
};

// Sends `signal` to every process of a group; errors (ESRCH: nobody left) are ignored.
void signal_group(pid_t group, int signal);

}  // namespace jbench::proc
