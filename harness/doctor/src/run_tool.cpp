#include "run_tool.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

extern char** environ;

namespace jbench::doctor {
namespace {

using Clock = std::chrono::steady_clock;

int ms_left(Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

// Only async-signal-safe calls between fork and execve: the parent may have threads.
[[noreturn]] void exec_child(char* const* argv, char* const* envp, int out_fd, int err_fd,
                             int status_fd, pid_t parent) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the parent died before prctl took effect
  const int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
  dup2(out_fd, STDOUT_FILENO);
  dup2(err_fd, STDERR_FILENO);
  // Everything above 2 closes on exec, the status pipe included (its EOF means "exec worked").
  for (int fd = 3; fd < 1024; ++fd) {
    if (fd != status_fd) fcntl(fd, F_SETFD, FD_CLOEXEC);
  }
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigaction(SIGPIPE, &dfl, nullptr);
  execve(argv[0], argv, envp);
  const int err = errno;
  [[maybe_unused]] auto n = write(status_fd, &err, sizeof err);
  _exit(127);
}

void drain(int& fd, std::string& sink, std::size_t max_output) {
  char buf[8192];
  const ssize_t n = read(fd, buf, sizeof buf);
  if (n > 0) {
    const std::size_t room = max_output > sink.size() ? max_output - sink.size() : 0;
    sink.append(buf, std::min(room, static_cast<std::size_t>(n)));
  } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
    close(fd);
    fd = -1;
  }
}

}  // namespace

ToolRun run_tool(const std::vector<std::string>& argv, const std::string& path_env, int timeout_ms,
                 std::size_t max_output) {
  ToolRun run;
  if (argv.empty() || argv[0].empty() || argv[0][0] != '/') {
    run.error = "not an absolute path: " + (argv.empty() ? std::string() : argv[0]);
    return run;
  }
  // Build argv and the environment before fork: the child must not allocate.
  std::vector<std::string> env_strings;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    if (std::strncmp(*e, "PATH=", 5) != 0) env_strings.emplace_back(*e);
  }
  env_strings.push_back("PATH=" + path_env);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> cargv;
  for (auto& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);

  int out[2], err[2], status[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    run.error = std::string("pipe2: ") + std::strerror(errno);
    return run;
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    run.error = std::string("pipe2: ") + std::strerror(errno);
    close(out[0]);
    close(out[1]);
    return run;
  }
  if (pipe2(status, O_CLOEXEC) != 0) {
    run.error = std::string("pipe2: ") + std::strerror(errno);
    for (int fd : {out[0], out[1], err[0], err[1]}) close(fd);
    return run;
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    run.error = std::string("fork: ") + std::strerror(errno);
    for (int fd : {out[0], out[1], err[0], err[1], status[0], status[1]}) close(fd);
    return run;
  }
  if (pid == 0) exec_child(cargv.data(), envp.data(), out[1], err[1], status[1], parent);
  // Set the group from this side too, so killpg works even if we get there first.
  setpgid(pid, pid);
  close(out[1]);
  close(err[1]);
  close(status[1]);

  int exec_errno = 0;
  ssize_t got = 0;
  while ((got = read(status[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  close(status[0]);
  const bool exec_failed = got == static_cast<ssize_t>(sizeof exec_errno);

  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* sinks[2] = {&run.out, &run.err};
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    const int left = ms_left(deadline);
    if (left == 0) {
      run.timed_out = true;
      break;
    }
    if (poll(fds, 2, left) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
        drain(fds[i].fd, *sinks[i], max_output);
      }
    }
  }
  for (auto& f : fds) {
    if (f.fd >= 0) close(f.fd);
  }

  // Wait for the exit without reaping, so the group id cannot be reused while we kill what the
  // child left in its group; then reap.
  siginfo_t info{};
  while (!run.timed_out) {
    info.si_pid = 0;
    if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 &&
        errno != EINTR) {
      break;
    }
    if (info.si_pid == pid) break;
    if (ms_left(deadline) == 0) {
      run.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  killpg(pid, SIGKILL);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }

  if (exec_failed) {
    run.error = "execve " + argv[0] + ": " + std::strerror(exec_errno);
    return run;
  }
  run.started = true;
  if (WIFSIGNALED(wstatus)) {
    run.signaled = true;
    run.signal = WTERMSIG(wstatus);
  } else {
    run.exit_code = WEXITSTATUS(wstatus);
  }
  return run;
}

}  // namespace jbench::doctor
