#include "target_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace jbench::test {
namespace {

using Clock = std::chrono::steady_clock;

void make_pipe(int fds[2]) {
  if (pipe2(fds, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  }
}

int ms_until(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(left.count());
}

}  // namespace

TargetProcess::TargetProcess(const std::vector<std::string>& argv, const Env& env) {
  int in[2], out[2], err[2];
  make_pipe(in);
  make_pipe(out);
  make_pipe(err);
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid_ == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the test died before prctl took effect
    setpgid(0, 0);
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    for (const auto& [key, value] : env) setenv(key.c_str(), value.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  setpgid(pid_, pid_);  // also here, so the group exists before either side relies on it
  close(in[0]);
  close(out[1]);
  close(err[1]);
  in_ = in[1];
  out_fd_ = out[0];
  err_fd_ = err[0];
  ::signal(SIGPIPE, SIG_IGN);
}

TargetProcess::~TargetProcess() {
  kill_and_reap();
  for (int fd : {in_, out_fd_, err_fd_}) {
    if (fd >= 0) close(fd);
  }
}

long TargetProcess::pump(std::chrono::milliseconds timeout) {
  pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
  if (out_fd_ < 0 && err_fd_ < 0) return -1;
  if (poll(fds, 2, static_cast<int>(timeout.count())) <= 0) return 0;
  long got = 0;
  int* owned[2] = {&out_fd_, &err_fd_};
  std::string* sinks[2] = {&out_, &err_};
  for (int i = 0; i < 2; ++i) {
    if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char buf[65536];
    const ssize_t n = read(fds[i].fd, buf, sizeof buf);
    if (n > 0) {
      sinks[i]->append(buf, static_cast<std::size_t>(n));
      got += n;
    } else if (n == 0 || errno != EINTR) {
      close(*owned[i]);
      *owned[i] = -1;
    }
  }
  return out_fd_ >= 0 || err_fd_ >= 0 ? got : -1;
}

std::optional<std::string> TargetProcess::read_line_until(
    const std::function<bool(const std::string&)>& wanted, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    for (auto end = out_.find('\n', next_line_); end != std::string::npos;
         end = out_.find('\n', next_line_)) {
      std::string line = out_.substr(next_line_, end - next_line_);
      next_line_ = end + 1;
      if (wanted(line)) return line;
    }
    if (out_fd_ < 0 || Clock::now() >= deadline) return std::nullopt;
    pump(std::chrono::milliseconds(ms_until(deadline)));
  }
}

bool TargetProcess::write_stdin(const std::string& text) {
  return in_ >= 0 && write(in_, text.data(), text.size()) == static_cast<ssize_t>(text.size());
}

void TargetProcess::signal(int signal) {
  if (!reaped_) kill(pid_, signal);
}

std::optional<int> TargetProcess::wait(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!reaped_) {
    const pid_t r = waitpid(pid_, &status_, WNOHANG);
    if (r == pid_) {
      reaped_ = true;
      break;
    }
    if (Clock::now() >= deadline) {
      kill_and_reap();
      return std::nullopt;
    }
    // Keep reading, so a child blocked on a full pipe can finish.
    if (pump(std::chrono::milliseconds(std::min(ms_until(deadline), 20))) < 0) usleep(1000);
  }
  while (pump(std::chrono::milliseconds(0)) > 0) {
  }
  if (WIFEXITED(status_)) return WEXITSTATUS(status_);
  return std::nullopt;
}

void TargetProcess::kill_and_reap() {
  if (reaped_ || pid_ <= 0) return;
  kill(-pid_, SIGKILL);
  kill(pid_, SIGKILL);
  while (waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
  }
  reaped_ = true;
}

}  // namespace jbench::test
