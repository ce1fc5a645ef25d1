#include "world.h"

#include "jbench/common/clock.h"

namespace jbench::run {
namespace {

class RealWorker final : public WorkerProcess {
 public:
  explicit RealWorker(std::unique_ptr<proc::ChildProcess> p) : p_(std::move(p)) {}
  pid_t pid() const override { return p_->pid(); }
  pid_t process_group() const override { return p_->process_group(); }
  int stdout_fd() const override { return p_->stdout_fd(); }
  Status release_exec() override { return p_->release_exec(); }
  Status write_line(std::string_view line, int timeout_ms) override {
    return p_->write_line(line, timeout_ms);
  }
  void close_stdin() override { p_->close_stdin(); }
  bool read_lines(std::vector<std::string>& lines, bool& overlong) override {
    return p_->read_lines(lines, overlong);
  }
  std::uint64_t bytes_read() const override { return p_->bytes_read(); }
  std::optional<proc::ExitStatus> try_reap() override { return p_->try_reap(); }
  proc::ExitStatus kill_and_reap() override { return p_->kill_and_reap(); }
  const std::optional<proc::ExitStatus>& status() const override { return p_->status(); }

 private:
  std::unique_ptr<proc::ChildProcess> p_;
};

class RealSpawner final : public Spawner {
 public:
  Result<std::unique_ptr<WorkerProcess>> spawn(const proc::SpawnSpec& spec) override {
    auto s = proc::ChildProcess::spawn(spec);
    if (!s) return s.error();
    return std::unique_ptr<WorkerProcess>(std::make_unique<RealWorker>(std::move(*s)));
  }
  std::vector<proc::ProcStat> processes_in_group(pid_t group) override {
    return proc::processes_in_group(group);
  }
  void signal_group(pid_t group, int signal) override { proc::signal_group(group, signal); }
};

class RealClock final : public Clock {
 public:
  std::uint64_t now_ns() override { return monotonic_ns(); }
  void wait(std::span<pollfd> fds, int timeout_ms) override {
    poll(fds.data(), fds.size(), timeout_ms);
  }
};

}  // namespace

Spawner& real_spawner() {
  static RealSpawner spawner;
  return spawner;
}

Clock& real_clock() {
  static RealClock clock;
  return clock;
}

}  // namespace jbench::run
