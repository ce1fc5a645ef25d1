// One `COMMAND serve` process driven line by line for the conformance pass, every wait bounded:
// what a step sends, what it waits for, and how the process ended. Private to
// jbench::check_worker.
#pragma once

#include <sys/types.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jbench/proc/child_process.h"

namespace jbench::check_worker {

class WorkerSession {
 public:
  // `argv`: the program (absolute) and its arguments, "serve" last; or why it did not start.
  static Result<std::unique_ptr<WorkerSession>> start(const std::vector<std::string>& argv,
                                                      const std::string& stderr_path);
  ~WorkerSession();  // a process still running is killed and reaped

  pid_t pid() const { return process_->pid(); }
  Status send(const nlohmann::json& message);
  // The next line, which must be a JSON object of type `type`; else why not (an `error` line's
  // message, another type, not JSON, the end of output, the deadline).
  Result<nlohmann::json> expect(const std::string& type, int timeout_ms);
  void close_stdin() { process_->close_stdin(); }
  // How it ended, waiting at most `timeout_ms`; nullopt while it still runs.
  std::optional<proc::ExitStatus> ended_within(int timeout_ms) {
    return process_->reap_within(timeout_ms);
  }

 private:
  explicit WorkerSession(std::unique_ptr<proc::ChildProcess> p) : process_(std::move(p)) {}
  std::unique_ptr<proc::ChildProcess> process_;
};

}  // namespace jbench::check_worker
