// The backend tool (bpftrace or strace) as a process the collector owns, and the thread that
// drains its output while the run goes on.
//
// - It runs in a process group of its own (never the workers': the run kills and scans theirs),
//   with PR_SET_PDEATHSIG (jbench::proc::ChildProcess), and is always reaped.
// - Its stdout is copied, as it comes, into `output_path`, at most `max_output_bytes`; past the
//   bound nothing more is kept, the backend is killed and over_bound() says so. Each complete
//   line is also handed to `on_line` (on the drain thread) for what must be seen while the run
//   goes on: the attach marker, canaries, lost events.
// - stop(): SIGINT (both tools then detach and flush), SIGKILL at the deadline; the drain thread
//   ends at EOF. Its stderr goes to `stderr_path`.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "jbench/proc/child_process.h"

namespace jbench::collectors::syscall_detail {

struct BackendLaunch {
  std::string executable;  // absolute
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::string output_path;
  std::string stderr_path;
  std::uint64_t max_output_bytes = 0;
  std::function<void(std::string_view)> on_line;
};

struct BackendEnd {
  proc::ExitStatus status;
  bool before_stop = false;  // it ended on its own, before stop() asked it to
  bool killed_at_deadline = false;
};

class BackendProcess {
 public:
  // The running tool, or why it could not be started.
  static Result<std::unique_ptr<BackendProcess>> launch(BackendLaunch launch);
  ~BackendProcess();
  BackendProcess(const BackendProcess&) = delete;
  BackendProcess& operator=(const BackendProcess&) = delete;

  pid_t pid() const { return child_->pid(); }
  // Still running (not reaped). Reaps it if it has ended.
  bool running();
  BackendEnd stop(std::uint64_t deadline_ns);
  std::uint64_t output_bytes() const { return bytes_.load(); }
  bool over_bound() const { return over_bound_.load(); }
  // Lines longer than 1 MiB were seen (they are kept in the file, not handed to on_line).
  bool overlong_lines() const { return overlong_.load(); }

 private:
  BackendProcess(std::unique_ptr<proc::ChildProcess> child, BackendLaunch launch, int out_fd);
  void drain();

  std::unique_ptr<proc::ChildProcess> child_;
  BackendLaunch launch_;
  int out_fd_;
  std::atomic<std::uint64_t> bytes_{0};
  std::atomic<bool> over_bound_{false};
  std::atomic<bool> overlong_{false};
  std::atomic<bool> ended_{false};  // reaped: the drain may stop once the pipe is quiet
  std::optional<BackendEnd> end_;
  std::thread drainer_;
};

}  // namespace jbench::collectors::syscall_detail
