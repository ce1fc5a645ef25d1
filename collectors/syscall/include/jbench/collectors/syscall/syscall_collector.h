// The cohort-scoped syscall/I/O collector: which of open/openat/openat2, read/pread64/readv,
// write/pwrite64/writev, fsync/fdatasync, flock, fcntl and ioctl the registered processes (and
// the processes they fork) made, in which phase, how long each took, on which descriptor and
// file, with which request — and nothing from any other process (docs/collectors/syscall.md).
//
// Backends: "bpftrace" (kernel tracepoints, scoped in the kernel to the cohort; root) and
// "strace" (ptrace, the privilege-free fallback; it stops the target at every traced call, so
// its timings are not comparable with bpftrace's). "" picks the best this host can run and
// falls back to strace when bpftrace cannot attach.
//
// The harness drives it like this, from one thread:
//
//   // every worker said hello (registered, blocked), nothing sent to them yet
//   auto c = SyscallCollector::start(options, {{0, pid0, ticks0}, {1, pid1, ticks1}});
//   c->mark_phase("startup");                 // optional: start() begins in startup
//   ... configure ... canary message ...
//   if (!c->await_canaries(deadline)) fail("attachment not verified");
//   c->mark_phase("warmup");   send start;   ...
//   c->mark_phase("measure");  send measure; ...
//   c->mark_phase("teardown"); send exit;    ... reap the workers ...
//   SyscallStop s = c->finish(deadline);      // its run.json entry and its summary
//
// start() returns only once the backend is attached or has failed; a collector that failed or
// is not available still returns an object, whose stop() says so (status collector_failed or
// not_available with the reason and the remediation). It never throws for a runtime fault.
//
// Threads: the object owns one thread that drains the backend's output into raw_dir while the
// run goes on; every public call is made from the harness's thread. The backend runs in its own
// process group (not the workers'), dies with the harness (PR_SET_PDEATHSIG), and is always
// stopped (SIGINT, then SIGKILL at the deadline) and reaped by stop() or the destructor.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/collectors/api/collector_entry.h"

namespace jbench::collectors {

struct CohortProcess {
  std::uint32_t worker_index;
  pid_t pid;
  std::uint64_t start_time_ticks;  // /proc/<pid>/stat field 22
};

// light: per incarnation x phase x call totals and log2 latency histograms aggregated in the
// kernel, no per-call output. full: one record per call in raw/syscall.events.jsonl.zst.
enum class SyscallDetail { light, full };

struct SyscallOptions {
  SyscallDetail detail = SyscallDetail::light;
  std::string backend;  // "libbpf", "bpftrace", "strace", or "" = the best this host can run
  // With "": try the compiled tracer (libbpf, loaded once per process) first,
  // then bpftrace, then strace. Off: bpftrace, then strace.
  bool compiled_first = false;
  std::string raw_dir;  // absolute, normally <run dir>/raw; the collector writes its files here
  std::string run_id, boot_id;
  std::uint64_t max_output_bytes = 256ULL << 20;  // per file written; past it: collector_failed
  std::uint64_t attach_timeout_ns = 30'000'000'000ULL;  // bpftrace compiles for a few seconds
};

struct SyscallStop {
  CollectorEntry entry;    // status decided by the one rule (api/status.h)
  nlohmann::json summary;  // per incarnation x phase x call (docs/collectors/syscall.md)
};

class SyscallCollector {
 public:
  [[nodiscard]] static std::unique_ptr<SyscallCollector> start(const SyscallOptions& options,
                                                               std::vector<CohortProcess> cohort);
  ~SyscallCollector();
  SyscallCollector(const SyscallCollector&) = delete;
  SyscallCollector& operator=(const SyscallCollector&) = delete;

  // True once every registered worker's canary was seen (by pid); false at the deadline, or at
  // once if the backend failed. The run must then fail: "attachment not verified".
  [[nodiscard]] bool await_canaries(std::uint64_t deadline_ns);
  // Right before the harness sends each phase's message: "startup" (in force from start()),
  // "warmup", "measure", "teardown". A call belongs to the phase in force when it entered.
  void mark_phase(std::string_view phase);
  // A process a worker forked, as the harness registered it. Forks are followed without this;
  // it records the harness's registration (and, for bpftrace, scopes a process the collector
  // could not have seen fork).
  void add_process(CohortProcess process);
  // Stops the backend cleanly (bounded by deadline_ns), writes the files and returns the
  // collector's run.json entry (docs/events.md) and its summary. The first call stops; later
  // ones return the same.
  [[nodiscard]] SyscallStop finish(std::uint64_t deadline_ns);
  // finish() as one document: the entry's JSON with a "summary" object.
  [[nodiscard]] nlohmann::json stop(std::uint64_t deadline_ns);

  // The backend in use: "bpftrace", "strace", or "none" (not available / failed to start).
  std::string backend() const;
  // The backend tool's process while it runs (0 if none): for diagnostics and fault tests.
  pid_t backend_pid() const;

  struct State;  // the backend and what it observed (collectors/syscall/src)

 private:
  explicit SyscallCollector(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace jbench::collectors
