// A child process for tests, with pipes to its stdin and stdout, that can never outlive the test.
//
// Guarantees:
// - The child gets PR_SET_PDEATHSIG(SIGKILL): if the test process dies, so does the child.
// - The child runs in its own process group; destruction SIGKILLs that group and reaps the
//   child with a blocking waitpid, so no zombie and no orphan is left behind.
// - The child inherits only stdin, stdout and stderr (everything else is closed before exec),
//   and the test's environment with the given changes.
// - Every wait has a timeout: read_line and wait_exit return, they never hang the test.
// - Writing to a child that has exited fails (EPIPE) instead of killing the test with SIGPIPE.
//
//   WorkerProcess p({"/path/to/jbench-sqlite-worker", "serve"});
//   auto hello = p.read_line(std::chrono::seconds(10));
//   p.send_line(R"({"type":"exit"})");
//   auto status = p.wait_exit(std::chrono::seconds(10));  // status->code == 0
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jbench::test {

// Changes to the child's environment: a value sets the variable, nullopt removes it.
using EnvChanges = std::vector<std::pair<std::string, std::optional<std::string>>>;

struct ExitStatus {
  bool exited = false;  // true: `code` is the exit code; false: killed by `signal`
  int code = -1;
  int signal = 0;
};

class WorkerProcess {
 public:
  // Spawns argv[0] (an absolute path) with argv and the test's environment changed by `env`.
  // stderr goes to `stderr_path` if given (appended), else to the test's own stderr. Throws
  // std::runtime_error if the process cannot be started.
  explicit WorkerProcess(const std::vector<std::string>& argv, const std::string& stderr_path = "",
                         const EnvChanges& env = {});
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;
  ~WorkerProcess();

  pid_t pid() const { return pid_; }

  // Writes `line` plus '\n'. False if the child's stdin is closed or the timeout passes.
  bool send_line(std::string_view line,
                 std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Closes the child's stdin (it sees EOF).
  void close_stdin();

  // The next line of the child's stdout without its '\n'; nullopt on timeout or EOF
  // (at_eof() tells which).
  std::optional<std::string> read_line(std::chrono::milliseconds timeout);
  bool at_eof() const { return eof_; }

  // Waits for the child to exit; nullopt on timeout (the child is then still running and the
  // destructor will kill it).
  std::optional<ExitStatus> wait_exit(std::chrono::milliseconds timeout);

 private:
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  bool eof_ = false;
  bool reaped_ = false;
  ExitStatus status_;
  std::string buffer_;
};

}  // namespace jbench::test
