#include "worker_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace jbench::test {
namespace {

using Clock = std::chrono::steady_clock;

std::runtime_error sys_error(const std::string& what) {
  return std::runtime_error(what + ": " + std::strerror(errno));
}

int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(left.count());
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Our environment as NAME=VALUE strings, with `changes` applied (the last change of a name wins).
std::vector<std::string> child_environment(const EnvChanges& changes) {
  const auto changed = [&](std::string_view name, std::size_t from) {
    return std::any_of(changes.begin() + static_cast<std::ptrdiff_t>(from), changes.end(),
                       [&](const auto& change) { return change.first == name; });
  };
  std::vector<std::string> out;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    if (!changed(entry.substr(0, entry.find('=')), 0)) out.emplace_back(entry);
  }
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const auto& [name, value] = changes[i];
    if (value && !changed(name, i + 1)) out.push_back(name + "=" + *value);
  }
  return out;
}

}  // namespace

WorkerProcess::WorkerProcess(const std::vector<std::string>& argv, const std::string& stderr_path,
                             const EnvChanges& env) {
  if (argv.empty() || argv[0].empty() || argv[0][0] != '/') {
    throw std::runtime_error("WorkerProcess needs an absolute program path");
  }
  // A write to a dead child's pipe must return EPIPE, not kill the test binary.
  std::signal(SIGPIPE, SIG_IGN);

  // Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::vector<std::string> env_strings = child_environment(env);
  std::vector<char*> envp;
  for (const auto& e : env_strings) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  int in_pipe[2];
  int out_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0) throw sys_error("pipe2");
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    throw sys_error("pipe2");
  }
  int err_fd = -1;
  if (!stderr_path.empty()) {
    err_fd = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (err_fd < 0) {
      for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) ::close(fd);
      throw sys_error("open " + stderr_path);
    }
  }
  const pid_t parent = getpid();

  pid_ = fork();
  if (pid_ < 0) {
    const auto error = sys_error("fork");
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_fd}) {
      if (fd >= 0) ::close(fd);
    }
    throw error;
  }
  if (pid_ == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the parent died before the prctl took effect
    signal(SIGPIPE, SIG_DFL);
    dup2(in_pipe[0], STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    if (err_fd >= 0) dup2(err_fd, STDERR_FILENO);
    close_range(3, ~0U, 0);
    execve(args[0], args.data(), envp.data());
    _exit(127);
  }
  setpgid(pid_, pid_);  // also from the parent, so the group exists before anyone signals it
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  if (err_fd >= 0) ::close(err_fd);
  stdin_fd_ = in_pipe[1];
  stdout_fd_ = out_pipe[0];
  fcntl(stdin_fd_, F_SETFL, O_NONBLOCK);
  fcntl(stdout_fd_, F_SETFL, O_NONBLOCK);
}

WorkerProcess::~WorkerProcess() {
  close_fd(stdin_fd_);
  close_fd(stdout_fd_);
  if (pid_ > 0 && !reaped_) {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

bool WorkerProcess::send_line(std::string_view line, std::chrono::milliseconds timeout) {
  if (stdin_fd_ < 0) return false;
  std::string text(line);
  text.push_back('\n');
  const auto deadline = Clock::now() + timeout;
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(stdin_fd_, text.data() + done, text.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
    pollfd p{stdin_fd_, POLLOUT, 0};
    if (poll(&p, 1, remaining_ms(deadline)) <= 0) return false;
  }
  return true;
}

void WorkerProcess::close_stdin() { close_fd(stdin_fd_); }

std::optional<std::string> WorkerProcess::read_line(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    if (eof_ || stdout_fd_ < 0) return std::nullopt;
    char chunk[65536];
    const ssize_t n = ::read(stdout_fd_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) {
      eof_ = true;
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return std::nullopt;
    const int left = remaining_ms(deadline);
    if (left == 0) return std::nullopt;
    pollfd p{stdout_fd_, POLLIN, 0};
    poll(&p, 1, left);
  }
}

std::optional<ExitStatus> WorkerProcess::wait_exit(std::chrono::milliseconds timeout) {
  if (reaped_) return status_;
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    int raw = 0;
    const pid_t r = waitpid(pid_, &raw, WNOHANG);
    if (r == pid_) {
      reaped_ = true;
      status_.exited = WIFEXITED(raw);
      status_.code = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
      status_.signal = WIFSIGNALED(raw) ? WTERMSIG(raw) : 0;
      // No group kill after the reap: the pid (and so the group id) may already be reused.
      return status_;
    }
    if (r < 0 && errno != EINTR) throw sys_error("waitpid");
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace jbench::test
