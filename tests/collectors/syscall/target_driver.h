// Driving jbench-syscall-target (syscall_target.cpp) from a test, and running the harness's side
// of a run around the syscall collector: spawn, hello, start the collector, startup work, canary,
// phases, teardown, stop. Every process started here is killed and reaped by its owner's
// destructor, within seconds.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "jbench/collectors/syscall/syscall_collector.h"
#include "jbench/proc/child_process.h"

namespace jbench::test {

class Target {
 public:
  // Spawns the target in `dir` and waits for its hello (5 s).
  static std::unique_ptr<Target> spawn(const std::string& dir, bool skip_canary = false);

  pid_t pid() const { return process_->pid(); }
  std::uint64_t start_time_ticks() const { return start_time_ticks_; }
  const std::string& runtime_id() const { return runtime_id_; }

  // Each sends one command and returns the acknowledgement (fails the test after 10 s).
  nlohmann::json canary();
  nlohmann::json work(int rounds);
  nlohmann::json fork_work(int rounds);
  nlohmann::json burst(int calls);
  nlohmann::json other(int calls);  // raw getppid calls
  // flock(LOCK_EX) on DIR/flock.lock, and its release. `lock` waits for the acknowledgement, so
  // for the lock itself; `send_lock` returns once the command is sent, `await_ack` then waits.
  nlohmann::json lock();
  bool send_lock();
  nlohmann::json await_ack();
  nlohmann::json unlock();
  // `exit`, then reaps it (it must end with 0).
  void exit_and_reap();

 private:
  nlohmann::json command(unsigned command, unsigned argument);
  bool send(unsigned command, unsigned argument);
  std::unique_ptr<proc::ChildProcess> process_;
  std::uint64_t start_time_ticks_ = 0;
  std::string runtime_id_;
  std::string pending_;
};

// What the program said it did: phase -> call -> {calls, errors}, per process.
using Did = std::map<std::string, std::map<std::string, std::pair<long, long>>>;
void add_did(Did& into, const std::string& phase, const nlohmann::json& ack);

struct Scenario {
  collectors::SyscallDetail detail = collectors::SyscallDetail::light;
  std::string backend;
  bool compiled_first = false;  // with backend "": the compiled tracer first, as `jbench run`
  int startup_rounds = 1;
  int warmup_rounds = 1;
  int measure_rounds = 2;
  int teardown_rounds = 1;
  int fork_rounds_in_measure = 0;  // a forked child's rounds (0: no fork)
  int burst_in_measure = 0;
  bool unrelated_twin = false;  // an unregistered copy of the program doing the same throughout
  bool skip_canary = false;
  std::uint64_t max_output_bytes = 64ULL << 20;
  std::uint64_t canary_timeout_ns = 10'000'000'000ULL;
  std::uint64_t attach_timeout_ns = 60'000'000'000ULL;
  // Hooks: once the target said hello (before the collector starts); in the middle of the
  // measure phase; after the target exited (before the collector stops).
  std::function<void(pid_t)> after_spawn;
  std::function<void(collectors::SyscallCollector&)> during_measure;
  std::function<void()> after_exit;
};

struct Outcome {
  nlohmann::json entry;
  bool canaries_ok = false;
  pid_t pid = 0;
  std::uint64_t start_time_ticks = 0;
  pid_t twin_pid = 0;
  pid_t child_pid = 0;
  Did did;          // the registered worker, by phase
  Did child_did;    // its forked child
  std::string dir;  // scratch + raw (removed by the caller's TempDir)
  std::string raw_dir;
  std::string run_id = "syscall-test-run";
  std::string boot_id;
};

// Runs the scenario in `dir` (a TempDir's path); the outcome holds everything to assert on.
Outcome run_scenario(const Scenario& scenario, const std::string& dir);

// The summary's cell for (pid, phase, call), or null.
const nlohmann::json* summary_cell(const nlohmann::json& entry, pid_t pid, const std::string& phase,
                                   const std::string& call);
// Every pid the summary mentions.
std::set<pid_t> summary_pids(const nlohmann::json& entry);

// Whether this host can run bpftrace here (root, bpftrace on PATH, tracefs with syscall
// tracepoints); when not, the reason for GTEST_SKIP.
std::string bpftrace_missing();
std::string strace_missing();
std::string dtrace_missing();  // why no DTrace is found ($JBENCH_DTRACE, PATH), or ""
#ifdef JBENCH_HAVE_LIBBPF
std::string libbpf_missing();  // why the compiled tracer cannot load here, or ""
#endif
// Closes, in this process, the BPF link attached to raw tracepoint `tp_name` (as a library that
// closed the wrong descriptor would): the descriptor is made to name /dev/null instead, so the
// link's owner can still close it. Returns how many links were closed.
int sever_bpf_links(const std::string& tp_name);

}  // namespace jbench::test
