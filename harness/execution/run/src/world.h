// Where the runner meets the world: the worker processes it spawns, the process group it sweeps,
// and the clock its deadlines and boundaries are read from. The real world is jbench::proc and
// CLOCK_MONOTONIC; tests put fakes here to drive ordering, timeout and failure paths without
// real processes or real waiting (tests/run/fake_world.h). Private to jbench::run.
//
// The collectors are not behind this seam: they meet the kernel itself, by the real clock.
#pragma once

#include <poll.h>
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/proc/child_process.h"
#include "jbench/proc/proc_stat.h"

namespace jbench::run {

// One worker process as the runner drives it (proc::ChildProcess in the real world).
class WorkerProcess {
 public:
  virtual ~WorkerProcess() = default;
  virtual pid_t pid() const = 0;
  virtual pid_t process_group() const = 0;
  virtual int stdout_fd() const = 0;  // poll()able: readable when a line may be there
  // Lets a worker spawned held before exec run its program, or says why it could not.
  virtual Status release_exec() = 0;
  // One line to its stdin, waiting at most `timeout_ms` for room, or why it could not.
  virtual Status write_line(std::string_view line, int timeout_ms) = 0;
  virtual void close_stdin() = 0;
  // Complete lines available now; false at EOF. Overlong lines are cut and flagged.
  virtual bool read_lines(std::vector<std::string>& lines, bool& overlong) = 0;
  virtual std::uint64_t bytes_read() const = 0;
  virtual std::optional<proc::ExitStatus> try_reap() = 0;  // once it has exited
  virtual proc::ExitStatus kill_and_reap() = 0;            // SIGKILL if running, then reap
  virtual const std::optional<proc::ExitStatus>& status() const = 0;
};

class Spawner {
 public:
  virtual ~Spawner() = default;
  virtual Result<std::unique_ptr<WorkerProcess>> spawn(const proc::SpawnSpec& spec) = 0;
  // The processes of a group, as /proc shows them (forks of the workers, leftovers).
  virtual std::vector<proc::ProcStat> processes_in_group(pid_t group) = 0;
  virtual void signal_group(pid_t group, int signal) = 0;
};

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::uint64_t now_ns() = 0;  // CLOCK_MONOTONIC in the real world
  // Sleeps until one of `fds` is ready or `timeout_ms` passed (poll(2)); fds may be empty.
  virtual void wait(std::span<pollfd> fds, int timeout_ms) = 0;
};

// The real world: jbench::proc's processes and CLOCK_MONOTONIC. Shared, stateless.
Spawner& real_spawner();
Clock& real_clock();

}  // namespace jbench::run
