// The compiled syscall tracer (bpf/syscall_trace.bpf.c) as the syscall collector drives it:
// loaded (CO-RE, from the skeleton built into jbench) and attached once, then scoped to one
// run at a time by the cohort the harness fills; between runs nothing is traced.
//
//   std::string why;
//   auto tracer = LibbpfTracer::open(why);   // null: why says what this host refused
//   tracer->begin_run({pid0, pid1});         // clears what the last run left
//   tracer->set_phase(2);                    // right before each phase message
//   tracer->poll(canaries, forks);           // canary hits and forks seen so far
//   RunTotals t = tracer->end_run();         // light totals, lost records
//
// One thread at a time. The tracer's maps hold the cohort of one run only.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "observations.h"

namespace jbench::collectors::syscall_detail {

struct ForkSeen {
  pid_t parent = 0;
  pid_t child = 0;
  std::uint64_t start_boottime_ns = 0;
  std::uint64_t t_ns = 0;
};

struct RunTotals {
  std::map<TotalsKey, Totals> totals;
  std::uint64_t lost = 0;  // records the kernel side could not keep (full map or ring)
};

class LibbpfTracer {
 public:
  // Loads and attaches. Null when this host refuses (no BTF, no privilege, verifier), with why.
  static std::unique_ptr<LibbpfTracer> open(std::string& why);
  ~LibbpfTracer();
  LibbpfTracer(const LibbpfTracer&) = delete;
  LibbpfTracer& operator=(const LibbpfTracer&) = delete;

  std::uint64_t attach_ns() const { return attach_ns_; }  // how long open() took
  // The BPF object (ELF) built into jbench: the exact program that traces, for provenance.
  static std::string program_object();
  // The traced calls (and canary calls) this architecture has, by name.
  const std::vector<std::string>& attached_calls() const { return attached_; }

  // Starts tracing `tgids` (and their forks) in phase 0. Returns "" or why not.
  std::string begin_run(const std::vector<pid_t>& tgids);
  void set_phase(int phase);
  std::string add_process(pid_t tgid);
  // Takes what the ring holds, waiting up to `timeout_ms` for something to arrive (0: only what
  // is there now): canary hits and forks, appended.
  void poll(std::vector<CanaryHit>& canaries, std::vector<ForkSeen>& forks, int timeout_ms = 0);
  // Stops tracing, drains the ring (appending to the last poll's vectors through poll()), and
  // reads and clears the totals.
  RunTotals end_run();

  struct State;

 private:
  explicit LibbpfTracer(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
  std::uint64_t attach_ns_ = 0;
  std::vector<std::string> attached_;
};

}  // namespace jbench::collectors::syscall_detail
