// run_to_completion: a ChildProcess whose stdin is /dev/null and whose stderr is a second pipe,
// both pipes drained into bounded strings until EOF or the deadline, then the group killed and
// the child reaped.
#include "jbench/proc/run_tool.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "jbench/proc/child_process.h"
#include "jbench/proc/descriptors.h"

namespace jbench::proc {
namespace {

using Clock = std::chrono::steady_clock;

int ms_left(Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

// Appends one read of `fd` to `sink`, keeping at most `max_output` bytes and dropping the rest;
// false at EOF or on an error, when the stream is done. One read per wake-up, so that a tool
// that never stops writing cannot keep us past the deadline.
bool drain(int fd, std::string& sink, std::size_t max_output) {
  char buf[8192];
  const ssize_t n = ::read(fd, buf, sizeof buf);
  if (n > 0) {
    const std::size_t room = max_output > sink.size() ? max_output - sink.size() : 0;
    sink.append(buf, std::min(room, static_cast<std::size_t>(n)));
    return true;
  }
  return n < 0 && (errno == EINTR || errno == EAGAIN);
}

// Waits, without reaping, until the child has exited or the deadline passed; true if it exited.
// Not reaping keeps its pid (the group id) from being reused while what it left in its group is
// killed.
bool wait_for_exit(pid_t pid, Clock::time_point deadline) {
  for (;;) {
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 &&
        errno != EINTR) {
      return true;  // not waitable (ECHILD): nothing to wait for
    }
    if (info.si_pid == pid) return true;
    if (ms_left(deadline) == 0) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

ToolRun run_to_completion(const std::vector<std::string>& argv,
                          const std::optional<std::string>& path_env, int timeout_ms,
                          std::size_t max_output, const std::string& working_dir) {
  ToolRun run;
  if (argv.empty() || argv[0].empty() || argv[0][0] != '/') {
    run.error = "not an absolute path: " + (argv.empty() ? std::string() : argv[0]);
    return run;
  }
  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  int err_pipe[2];
  if (null_fd < 0 || open_pipe(err_pipe, 0) != 0) {
    run.error = std::string("cannot set up the tool's stdin and stderr: ") + std::strerror(errno);
    if (null_fd >= 0) ::close(null_fd);
    return run;
  }
  // Only our end is non-blocking: the child's stderr shares the write end's file status flags.
  fcntl(err_pipe[0], F_SETFL, fcntl(err_pipe[0], F_GETFL) | O_NONBLOCK);

  SpawnSpec spec;
  spec.executable = argv[0];
  spec.args.assign(argv.begin() + 1, argv.end());
  spec.working_dir = working_dir;
  if (path_env) spec.extra_env.emplace_back("PATH", *path_env);
  spec.stdin_fd = null_fd;
  spec.stderr_fd = err_pipe[1];
  spec.default_sigpipe = true;
  auto spawned = ChildProcess::spawn(spec);
  ::close(null_fd);
  ::close(err_pipe[1]);  // the child holds its copy: EOF comes when it and its group are done
  if (!spawned) {
    ::close(err_pipe[0]);
    run.error = spawned.error().message;
    return run;
  }
  ChildProcess& child = **spawned;
  child.close_stdin();  // unused: the child's stdin is /dev/null

  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  // A negative fd is skipped by poll(): the stream is done. The stdout fd stays the child's to
  // close, stderr's is ours.
  pollfd fds[2] = {{child.stdout_fd(), POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&run.out, &run.err};
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    const int left = ms_left(deadline);
    if (left == 0) {
      run.timed_out = true;
      break;
    }
    if (poll(fds, 2, left) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
          !drain(fds[i].fd, *sinks[i], max_output)) {
        fds[i].fd = -1;
      }
    }
  }
  ::close(err_pipe[0]);

  if (!run.timed_out && !wait_for_exit(child.pid(), deadline)) run.timed_out = true;
  signal_group(child.process_group(), SIGKILL);
  const ExitStatus status = child.kill_and_reap();
  run.started = true;
  if (status.signaled) {
    run.signaled = true;
    run.signal = status.signal;
  } else {
    run.exit_code = status.code;
  }
  return run;
}

}  // namespace jbench::proc
