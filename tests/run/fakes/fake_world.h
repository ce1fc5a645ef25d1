// A fake world for the runner (harness/execution/run/src/world.h): scripted workers that speak the
// worker protocol from inside the test process, a spawner that records what was asked of it, and a
// clock whose waits pass instantly. Ordering, timeout and failure paths of the runner then run
// without real processes and without waiting out real deadlines; tests/run's other suites run the
// same paths with real workers.
//
// A fake worker's pid is the test process's own, so the cohort's /proc reads (registration, the
// cpu collector) read a process that really exists; its process group is one no process has.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "world.h"

namespace jbench::run::fakes {

// What a scripted worker answers to each message the runner sends. By default it speaks the
// protocol as a well-behaved writer does (docs/worker-protocol.md): hello when spawned, ready to
// configure, canary_done, warmup_done, measure_done and result, bye to exit, then it exits 0.
struct WorkerScript {
  bool says_hello = true;
  // Message type -> the types it answers with instead (an empty list: silence).
  std::map<std::string, std::vector<std::string>> answers;
};

WorkerScript protocol_script();

class FakeClock final : public Clock {
 public:
  std::uint64_t now_ns() override { return now_; }
  // Looks at the descriptors without blocking; if none is ready, time jumps by `timeout_ms`.
  void wait(std::span<pollfd> fds, int timeout_ms) override;

 private:
  std::uint64_t now_ = 1'000'000'000'000ULL;
};

class FakeSpawner final : public Spawner {
 public:
  explicit FakeSpawner(FakeClock& clock) : clock_(clock) {}
  // The script of the next workers spawned.
  WorkerScript script = protocol_script();

  Result<std::unique_ptr<WorkerProcess>> spawn(const proc::SpawnSpec& spec) override;
  std::vector<proc::ProcStat> processes_in_group(pid_t group) override;
  void signal_group(pid_t group, int signal) override;

  // Everything that happened, in order: "spawn", "<- hello", "-> configure", "kill", "reaped",
  // "signal_group 9", ...
  std::vector<std::string> events;
  std::size_t spawned = 0;

 private:
  FakeClock& clock_;
};

}  // namespace jbench::run::fakes
