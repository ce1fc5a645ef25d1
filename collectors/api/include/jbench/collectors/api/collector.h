// The one seam between a run and its collectors. The run loop (harness/execution/run) holds a list
// of Collectors, made from the trace mode's table (collectors/modes), and calls every one of them
// at each step of a run, in this order, from one thread:
//
//   prepare()                 before any worker is spawned: create what it writes into
//   add_worker_env(i, env)    as worker i is spawned: what the worker must see (its raw file, ...)
//   wrap_command(i, command)  as worker i is spawned: a runtime the worker's program runs inside
//   attach(cohort, deadline)  every worker said hello and was registered; no work was sent yet
//   verify(deadline)          every worker made its canary call: prove it reached this collector
//   boundary(phase)           right before each phase is released: "warmup", "measure", "teardown"
//   joined(member)            a process a worker forked was registered
//   exited(pid, totals)       a process of the cohort was reaped, with the kernel's exact totals
//   finish(context)           the cohort is gone: stop, and give one entry per table row served
//
// A collector never throws for a runtime fault and never decides a run's fate by itself: what it
// returns says what it proved, and its entries carry a status decided by the one rule
// (status.h). Adding a collector is a folder under collectors/ and a row in the modes table.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jbench/collectors/api/collector_entry.h"
#include "jbench/collectors/api/workload_traits.h"
#include "jbench/common/result.h"
#include "jbench/common/trace_mode.h"

namespace jbench::collectors {

// What every collector of one run is told when it is made.
struct RunContext {
  TraceMode mode = TraceMode::baseline;
  WorkloadTraits workload;  // what the target is: its kind's name and what it reports itself
  std::string run_id;
  std::string run_dir;  // absolute: runs/<id> inside the staging bundle
  std::string boot_id;
  std::string alloc_library;           // libjbench_alloc.so for native targets; empty: none built
  std::string syscall_backend;         // "" = the best available
  std::string counter_backend;         // counted runs: "" = the best available, "perf", "callgrind"
  std::uint64_t max_output_bytes = 0;  // per raw file; 0 = the collector's own bound
  std::uint64_t seed = 0;              // the run's seed: samplers derive theirs from it
  // The allocation sampler's mean interval (the matrix's setting, else the mode's default);
  // 0 where nothing samples.
  std::uint64_t alloc_mean_bytes = 0;
};

// One registered process of the cohort: a worker (with its index) or a process one forked.
struct Member {
  std::optional<std::size_t> worker;
  pid_t pid = 0;
  std::uint64_t start_time_ticks = 0;  // /proc/<pid>/stat field 22: the incarnation
};

// What wait4() returned for a reaped process: exact, all threads.
struct ExitTotals {
  std::uint64_t user_ns = 0;
  std::uint64_t system_ns = 0;
  std::int64_t voluntary_switches = 0;
  std::int64_t involuntary_switches = 0;
};

struct FinishContext {
  std::span<const Member> cohort;
  std::size_t workers = 0;
  std::uint64_t attached_ns = 0;               // when attach() was called
  const nlohmann::json* boundaries = nullptr;  // run.json "boundaries", as the run timed them
};

using WorkerEnv = std::vector<std::pair<std::string, std::string>>;

// What this host offers a collector before anything runs: `jbench doctor`'s probe
// (capabilities.json) and whether the allocation sampler was built beside jbench.
struct HostOffer {
  const nlohmann::json& capabilities;
  bool alloc_library_built = false;
};

// Whether a collector can attach on this host, and if not why and what to do about it.
struct Availability {
  bool available = true;
  std::string reason;       // "<collector>: why"; empty when available
  std::string remediation;  // empty when available
};

// Why a collector cannot go on: a fact of this host or of the run, never of the user's input.
inline Error collector_problem(std::string why) { return {std::move(why), 0, ErrorKind::host}; }

class Collector {
 public:
  virtual ~Collector() = default;

  // Fails with why it cannot run (the run then fails before anything starts).
  virtual jbench::Status prepare() { return {}; }
  virtual void add_worker_env(std::size_t /*index*/, WorkerEnv& /*env*/) const {}
  // `command` is the worker's program and its arguments; a collector that runs the program
  // inside another (an instruction-counting runtime) puts that one in front. The wrapper must
  // exec the program in the same process: the cohort admitted its pid.
  virtual void wrap_command(std::size_t /*index*/, std::vector<std::string>& /*command*/) const {}
  // Fails with the reason the run cannot go on.
  virtual jbench::Status attach(std::span<const Member> cohort, std::size_t workers,
                                std::uint64_t deadline_ns) = 0;
  // Fails with "attachment not verified: ...".
  virtual jbench::Status verify(std::uint64_t /*deadline_ns*/) { return {}; }
  virtual void boundary(std::string_view /*phase*/) {}
  virtual void joined(const Member& /*member*/) {}
  virtual void exited(pid_t /*pid*/, const ExitTotals& /*totals*/) {}
  // Stops what still runs. One entry per table row it serves (the bridge serves several).
  virtual std::vector<CollectorEntry> finish(const FinishContext& context) = 0;
  // Raw documents to keep in the run directory: (path inside it, content).
  virtual std::vector<std::pair<std::string, nlohmann::json>> raw_documents() const { return {}; }
};

}  // namespace jbench::collectors
