// The only translation unit that includes Boost.Process (it costs seconds to compile).
#include <utility>  // must precede boost/asio under -std=c++20

// Boost.Process 1.74 compiles its vfork launcher only under pre-2008 POSIX feature macros,
// although glibc has vfork. With it, starting a child does not copy the harness's page tables:
// a 32-worker cohort starts several times faster. The child only makes system calls (dup2,
// chdir, prctl, setpgid, close_range) before execve, which is what vfork allows.
#define BOOST_POSIX_HAS_VFORK 1

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/env.hpp>
#include <boost/process/environment.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/io.hpp>
#include <boost/process/pipe.hpp>
#include <boost/process/posix.hpp>
#include <boost/process/start_dir.hpp>
#include <cerrno>
#include <cstring>

#include "jbench/common/clock.h"
#include "jbench/proc/child_process.h"
#include "jbench/proc/descriptors.h"

namespace jbench::proc {
namespace bp = boost::process;

namespace {

std::uint64_t timeval_ns(const timeval& tv) {
  return static_cast<std::uint64_t>(tv.tv_sec) * 1'000'000'000ULL +
         static_cast<std::uint64_t>(tv.tv_usec) * 1000ULL;
}

// Takes over a descriptor Boost created: a close-on-exec, non-blocking duplicate.
int adopt(int fd) {
  const int copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (copy >= 0) fcntl(copy, F_SETFL, fcntl(copy, F_GETFL) | O_NONBLOCK);
  return copy;
}

// Runs in the child between fork and exec: only async-signal-safe calls. Boost runs it after
// its std_in/std_out/std_err redirections (it follows them in bp::child), so the spec's
// descriptors replace those.
void prepare_child(pid_t parent, const SpawnSpec& spec, int hold_fd) {
  die_with_parent();
  if (getppid() != parent) _exit(127);  // the harness died before that took effect
  setpgid(0, spec.process_group);
  if (spec.stdin_fd >= 0) dup2(spec.stdin_fd, STDIN_FILENO);
  if (spec.stderr_fd >= 0) dup2(spec.stderr_fd, STDERR_FILENO);
  if (spec.default_sigpipe) signal(SIGPIPE, SIG_DFL);
  // Boost.Process 1.74 creates its pipes without close-on-exec: mark everything past stderr.
  close_on_exec_from(3);
  if (hold_fd >= 0) {
    // Held: one byte from the harness lets it exec; end of file (the harness gave up) ends it.
    // Every descriptor past stderr but the hold's is closed now rather than at exec: among them
    // the pipe on which Boost's parent side waits for the exec, which must not wait for the hold.
    // (An exec that then fails is an exit without hello, not Boost's exception.)
    close_from_except(3, hold_fd);
    // The wait is a poll, which a syscall tracer does not time, so the hold is not taken for the
    // worker's own start-up; only the one-byte read after it is a traced call.
    pollfd ready{hold_fd, POLLIN, 0};
    while (poll(&ready, 1, -1) < 0 && errno == EINTR) {
    }
    char go = 0;
    ssize_t n = 0;
    do {
      n = read(hold_fd, &go, 1);
    } while (n < 0 && errno == EINTR);
    if (n != 1) _exit(127);
  }
}

std::string check_executable(const std::string& path) {
  if (path.empty() || path.front() != '/') {
    return fmt::format("'{}' is not an absolute path", path);
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return fmt::format("{}: {}", path, std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return fmt::format("{}: not a regular file", path);
  if (access(path.c_str(), X_OK) != 0) return fmt::format("{}: not executable", path);
  return {};
}

}  // namespace

std::string ExitStatus::describe() const {
  if (signaled) return fmt::format("signal {} ({})", signal, strsignal(signal));
  return fmt::format("exit {}", code);
}

Result<std::unique_ptr<ChildProcess>> ChildProcess::spawn(const SpawnSpec& spec) {
  if (auto problem = check_executable(spec.executable); !problem.empty()) {
    return Error{"cannot start the worker: " + problem, 0, ErrorKind::host};
  }
  try {
    bp::pipe to_child;
    bp::pipe from_child;
    bp::environment env = boost::this_process::environment();
    for (const auto& [key, value] : spec.extra_env) env[key] = value;
    const pid_t parent = getpid();
    const pid_t group = spec.process_group;
    int hold[2] = {-1, -1};
    if (spec.hold_before_exec && open_pipe(hold, 0) != 0) {
      return Error{fmt::format("cannot make the exec hold's pipe: {}", std::strerror(errno)), errno,
                   ErrorKind::io};
    }
    const int hold_fd = hold[0];
    auto setup = bp::extend::on_exec_setup = [parent, &spec, hold_fd](auto&) {
      prepare_child(parent, spec, hold_fd);
    };
    const std::string dir = spec.working_dir.empty() ? std::string(".") : spec.working_dir;
    const std::string err = spec.stderr_path.empty() ? std::string("/dev/null") : spec.stderr_path;
    const auto start = [&]() {
      if (spec.hold_before_exec) {
        return bp::child(bp::exe = spec.executable, bp::args = spec.args,
                         bp::std_in<to_child, bp::std_out> from_child, bp::std_err > err,
                         bp::start_dir = dir, env, setup);
      }
      return bp::child(bp::exe = spec.executable, bp::args = spec.args,
                       bp::std_in<to_child, bp::std_out> from_child, bp::std_err > err,
                       bp::start_dir = dir, env, setup, bp::posix::use_vfork);
    };
    bp::child child;
    try {
      child = start();
    } catch (...) {
      if (hold[0] >= 0) close(hold[0]);
      if (hold[1] >= 0) close(hold[1]);
      throw;
    }
    if (hold[0] >= 0) close(hold[0]);  // the child's end
    const pid_t pid = child.id();
    child.detach();  // this class reaps it, with wait4 and the rusage
    // The parent sets the group too, so it holds before the first kill_group() however the
    // scheduler orders parent and child (EACCES once the child has exec'd is fine).
    setpgid(pid, group == 0 ? pid : group);
    const int in = adopt(to_child.native_sink());
    const int from = adopt(from_child.native_source());
    std::unique_ptr<ChildProcess> process(
        new ChildProcess(pid, group == 0 ? pid : group, in, from));
    process->release_fd_ = hold[1];
    if (in < 0 || from < 0) {
      const int saved = errno;
      process->kill_and_reap();
      return Error{fmt::format("cannot adopt the worker's pipes: {}", std::strerror(saved)), saved,
                   ErrorKind::io};
    }
    return process;
  } catch (const std::exception& e) {
    return Error{fmt::format("cannot start {}: {}", spec.executable, e.what()), 0, ErrorKind::host};
  }
}

ChildProcess::ChildProcess(pid_t pid, pid_t group, int stdin_fd, int stdout_fd)
    : pid_(pid), group_(group), stdin_fd_(stdin_fd), stdout_fd_(stdout_fd) {}

ChildProcess::~ChildProcess() {
  if (!status_) kill_and_reap();
  if (release_fd_ >= 0) close(release_fd_);
  close_stdin();
  if (stdout_fd_ >= 0) close(stdout_fd_);
}

Status ChildProcess::release_exec() {
  if (release_fd_ < 0) return {};
  const char go = 1;
  ssize_t n = 0;
  do {
    n = ::write(release_fd_, &go, 1);
  } while (n < 0 && errno == EINTR);
  const int saved = errno;
  close(release_fd_);
  release_fd_ = -1;
  if (n == 1) return {};
  return Error{fmt::format("cannot release worker {} to exec: {}", pid_, std::strerror(saved)),
               saved, ErrorKind::io};
}

Status ChildProcess::write_line(std::string_view line, int timeout_ms) {
  if (stdin_fd_ < 0) return Error{"the worker's stdin is closed", 0, ErrorKind::io};
  std::string buffer(line);
  buffer += '\n';
  std::size_t done = 0;
  while (done < buffer.size()) {
    const ssize_t n = ::write(stdin_fd_, buffer.data() + done, buffer.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      pollfd p{stdin_fd_, POLLOUT, 0};
      if (poll(&p, 1, timeout_ms) <= 0) {
        return Error{fmt::format("the worker did not read its input within {} ms", timeout_ms), 0,
                     ErrorKind::io};
      }
      continue;
    }
    return Error{fmt::format("cannot write to the worker: {}", std::strerror(errno)), errno,
                 ErrorKind::io};
  }
  return {};
}

void ChildProcess::close_stdin() {
  if (stdin_fd_ >= 0) {
    close(stdin_fd_);
    stdin_fd_ = -1;
  }
}

bool ChildProcess::read_lines(std::vector<std::string>& lines, bool& overlong,
                              std::size_t max_line) {
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(stdout_fd_, buf, sizeof buf);
    if (n > 0) {
      bytes_read_ += static_cast<std::uint64_t>(n);
      for (ssize_t i = 0; i < n; ++i) {
        if (buf[i] == '\n') {
          lines.push_back(std::move(partial_));
          partial_.clear();
        } else if (partial_.size() < max_line) {
          partial_ += buf[i];
        } else {
          overlong = true;
        }
      }
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN;
  }
}

std::optional<ExitStatus> ChildProcess::reap(int options) {
  if (status_) return status_;
  int raw = 0;
  rusage usage{};
  pid_t r;
  do {
    r = wait4(pid_, &raw, options, &usage);
  } while (r < 0 && errno == EINTR);
  if (r != pid_) return std::nullopt;
  ExitStatus s;
  s.signaled = WIFSIGNALED(raw);
  s.code = WIFEXITED(raw) ? WEXITSTATUS(raw) : 0;
  s.signal = s.signaled ? WTERMSIG(raw) : 0;
  s.user_ns = timeval_ns(usage.ru_utime);
  s.system_ns = timeval_ns(usage.ru_stime);
  s.max_rss_kib = usage.ru_maxrss;
  s.voluntary_switches = usage.ru_nvcsw;
  s.involuntary_switches = usage.ru_nivcsw;
  status_ = s;
  return status_;
}

ChildProcess::LineWait ChildProcess::next_line(std::string& line, std::uint64_t deadline_ns,
                                               std::size_t max_line) {
  for (;;) {
    if (!ready_.empty()) {
      line = std::move(ready_.front());
      ready_.pop_front();
      return LineWait::line;
    }
    std::vector<std::string> lines;
    bool overlong = false;
    const bool open = read_lines(lines, overlong, max_line);
    if (overlong) return LineWait::overlong;
    for (std::string& l : lines) ready_.push_back(std::move(l));
    if (!ready_.empty()) continue;
    if (!open) return LineWait::closed;
    const std::uint64_t now = monotonic_ns();
    if (now >= deadline_ns) return LineWait::timed_out;
    // Rounded up, so a wait of less than a millisecond is not a busy spin.
    pollfd p{stdout_fd_, POLLIN, 0};
    poll(&p, 1, static_cast<int>((deadline_ns - now + 999'999) / 1'000'000));
  }
}

std::optional<ExitStatus> ChildProcess::try_reap() { return reap(WNOHANG); }

std::optional<ExitStatus> ChildProcess::reap_within(int timeout_ms) {
  const std::uint64_t deadline =
      monotonic_ns() + static_cast<std::uint64_t>(timeout_ms) * 1'000'000;
  for (;;) {
    if (auto s = try_reap()) return s;
    if (monotonic_ns() >= deadline) return std::nullopt;
    usleep(2000);
  }
}

ExitStatus ChildProcess::kill_and_reap() {
  if (status_) return *status_;
  kill(pid_, SIGKILL);
  if (auto s = reap(0)) return *s;
  // wait4 failed (ECHILD: not our child any more). Record the kill rather than invent an exit.
  ExitStatus lost;
  lost.signaled = true;
  lost.signal = SIGKILL;
  status_ = lost;
  return lost;
}

void signal_group(pid_t group, int signal) {
  if (group > 1) kill(-group, signal);
}

}  // namespace jbench::proc
