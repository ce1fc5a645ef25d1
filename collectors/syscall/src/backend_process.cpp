#include "backend_process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "jbench/common/clock.h"

namespace jbench::collectors::syscall_detail {
namespace {

constexpr std::size_t kMaxLine = 1 << 20;

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

Result<std::unique_ptr<BackendProcess>> BackendProcess::launch(BackendLaunch launch) {
  const int out = ::open(launch.output_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (out < 0) {
    return Error{fmt::format("cannot create {}: {}", launch.output_path, std::strerror(errno)),
                 errno, ErrorKind::io};
  }
  proc::SpawnSpec spec;
  spec.executable = launch.executable;
  spec.args = launch.args;
  spec.stderr_path = launch.stderr_path;
  spec.extra_env = launch.env;
  spec.process_group = 0;  // a group of its own: never the workers'
  auto spawned = proc::ChildProcess::spawn(spec);
  if (!spawned) {
    ::close(out);
    return spawned.error();
  }
  (*spawned)->close_stdin();  // neither tool reads it; EOF is the clearest signal
  return std::unique_ptr<BackendProcess>(
      new BackendProcess(std::move(*spawned), std::move(launch), out));
}

BackendProcess::BackendProcess(std::unique_ptr<proc::ChildProcess> child, BackendLaunch launch,
                               int out_fd)
    : child_(std::move(child)), launch_(std::move(launch)), out_fd_(out_fd) {
  drainer_ = std::thread([this] { drain(); });
}

BackendProcess::~BackendProcess() {
  if (!child_->reaped()) {
    proc::signal_group(child_->process_group(), SIGKILL);
    child_->kill_and_reap();
  }
  ended_ = true;
  if (drainer_.joinable()) drainer_.join();
  ::close(out_fd_);
}

void BackendProcess::drain() {
  const int in = child_->stdout_fd();
  std::string partial;
  bool skipping = false;  // inside a line longer than kMaxLine
  char buffer[1 << 16];
  for (;;) {
    pollfd p{in, POLLIN, 0};
    const int ready = ::poll(&p, 1, 200);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) {
      // Nothing to read. Once the tool has been reaped nothing more can come (the pipe is at
      // EOF unless a grandchild holds it: then the drain gives up here rather than hang).
      if (ended_.load()) break;
      continue;
    }
    const ssize_t n = ::read(in, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;  // EOF: the tool exited
    const auto size = static_cast<std::uint64_t>(n);
    if (!over_bound_.load()) {
      if (bytes_.load() + size > launch_.max_output_bytes) {
        over_bound_ = true;
        // Nothing more will be kept: stop the tool instead of letting it work for nothing.
        proc::signal_group(child_->process_group(), SIGKILL);
      } else if (write_all(out_fd_, buffer, static_cast<std::size_t>(n))) {
        bytes_ += size;
      }
    }
    if (!launch_.on_line) continue;
    std::size_t start = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      if (buffer[i] != '\n') continue;
      if (!skipping) {
        partial.append(buffer + start, i - start);
        launch_.on_line(partial);
      }
      partial.clear();
      skipping = false;
      start = i + 1;
    }
    if (!skipping) partial.append(buffer + start, static_cast<std::size_t>(n) - start);
    if (partial.size() > kMaxLine) {
      overlong_ = true;
      skipping = true;
      partial.clear();
    }
  }
}

bool BackendProcess::running() {
  if (child_->reaped()) return false;
  if (auto s = child_->try_reap()) {
    if (!end_) end_ = BackendEnd{*s, true, false};
    ended_ = true;
    return false;
  }
  return true;
}

BackendEnd BackendProcess::stop(std::uint64_t deadline_ns) {
  if (!running()) {
    if (drainer_.joinable()) drainer_.join();
    return *end_;
  }
  // SIGINT: bpftrace runs END and prints its maps; strace detaches from every tracee.
  ::kill(child_->pid(), SIGINT);
  BackendEnd end;
  for (;;) {
    if (auto s = child_->try_reap()) {
      end.status = *s;
      break;
    }
    if (monotonic_ns() >= deadline_ns) {
      proc::signal_group(child_->process_group(), SIGKILL);
      end.status = child_->kill_and_reap();
      end.killed_at_deadline = true;
      break;
    }
    ::poll(nullptr, 0, 5);
  }
  // A signal other than ours ended it: something killed it during the run, even if it was still
  // tearing down (detaching probes takes a while) when stop() was called.
  end.before_stop = end.status.signaled && end.status.signal != SIGINT && !end.killed_at_deadline;
  // Anything the tool left in its group goes too.
  proc::signal_group(child_->process_group(), SIGKILL);
  end_ = end;
  ended_ = true;
  if (drainer_.joinable()) drainer_.join();
  return end;
}

}  // namespace jbench::collectors::syscall_detail
