#include "run_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace jbench::test {
namespace {

void make_pipe(int fds[2]) {
  if (pipe2(fds, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
}

[[noreturn]] void exec_child(const std::vector<std::string>& argv, const ProcessOptions& options,
                             int in_fd, int out_fd, int err_fd, pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the parent died before prctl took effect
  dup2(in_fd, STDIN_FILENO);
  dup2(out_fd, STDOUT_FILENO);
  dup2(err_fd, STDERR_FILENO);
  if (!options.cwd.empty() && chdir(options.cwd.c_str()) != 0) _exit(126);
  for (const auto& [key, value] : options.env) setenv(key.c_str(), value.c_str(), 1);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execv(args[0], args.data());
  _exit(127);
}

}  // namespace

std::chrono::milliseconds scaled_deadline(std::chrono::milliseconds d) {
  const char* text = std::getenv("JBENCH_TEST_TIME_SCALE");
  if (text == nullptr || *text == '\0') return d;
  char* end = nullptr;
  const double factor = std::strtod(text, &end);
  if (*end != '\0' || !(factor > 0) || factor > 1000) {
    throw std::invalid_argument(
        std::string("JBENCH_TEST_TIME_SCALE wants a positive number up to ") + "1000, not '" +
        text + "'");
  }
  return std::chrono::milliseconds(static_cast<long long>(static_cast<double>(d.count()) * factor));
}

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  int in[2], out[2], err[2];
  make_pipe(in);
  make_pipe(out);
  make_pipe(err);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) exec_child(argv, options, in[0], out[1], err[1], parent);
  close(in[0]);
  close(out[1]);
  close(err[1]);

  ProcessResult result;
  // Feed stdin in one go (tests give small inputs), ignoring a child that stopped reading.
  signal(SIGPIPE, SIG_IGN);
  if (!options.stdin_text.empty()) {
    [[maybe_unused]] auto n = write(in[1], options.stdin_text.data(), options.stdin_text.size());
  }
  close(in[1]);

  const auto deadline = std::chrono::steady_clock::now() + scaled_deadline(options.timeout);
  const bool wants_signal = options.signal != 0 && !options.signal_when.empty();
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    if (poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[65536];
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        // Searched from just before the new bytes, so a marker split across two reads is found.
        const std::size_t from =
            sinks[i]->size() - std::min(sinks[i]->size(), options.signal_when.size());
        sinks[i]->append(buf, static_cast<std::size_t>(n));
        if (wants_signal && !result.signal_sent &&
            sinks[i]->find(options.signal_when, from) != std::string::npos) {
          kill(pid, options.signal);
          result.signal_sent = true;
        }
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds) {
    if (f.fd >= 0) close(f.fd);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    result.signaled = true;
    result.signal = WTERMSIG(status);
  } else {
    result.exit_code = WEXITSTATUS(status);
  }
  return result;
}

}  // namespace jbench::test
