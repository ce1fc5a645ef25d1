// The collectors of one run, as its trace mode asks for them (jbench::collect's table): the
// environment each worker is spawned with, attaching after registration, verifying every
// worker's canary before release, reading at the phase boundaries, and, after teardown, each
// collector's entry in run.json and its summary. Private to jbench::run.
//
// Order, as run_one drives it:
//   worker_env(i) at spawn -> attach(cohort) after every hello -> verify() after canary_done
//   -> boundary("warmup"|"measure"|"teardown") right before each release -> exited() after
//   reaping -> finish() once the cohort is gone.
#pragma once

#include <sys/types.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cohort.h"
#include "jbench/collect/alloc_consumer.h"
#include "jbench/collect/bridge_consumer.h"
#include "jbench/collect/cpu_accounting.h"
#include "jbench/collect/trace_modes.h"
#include "jbench/proc/child_process.h"

namespace jbench::collectors {
class SyscallCollector;
}

namespace jbench::run {

struct CollectorsSetup {
  TraceMode mode = TraceMode::baseline;
  std::string workload_kind;
  std::string run_id;
  std::string run_dir;  // absolute: runs/<id> inside the staging bundle
  std::string boot_id;
  std::string alloc_library;    // libjbench_alloc.so for native targets; empty: none built
  std::string syscall_backend;  // "" = the best available
  std::uint64_t max_output_bytes = 0;
  std::uint64_t seed = 0;  // the run's seed: the samplers' seeds derive from it
  // The allocation sampler's mean interval: the matrix's collectors.alloc setting for the mode,
  // else the mode's default (collect::alloc_mean_bytes_for); 0 where nothing samples.
  std::uint64_t alloc_mean_bytes = 0;
};

class RunCollectors {
 public:
  explicit RunCollectors(CollectorsSetup setup);
  ~RunCollectors();
  RunCollectors(const RunCollectors&) = delete;
  RunCollectors& operator=(const RunCollectors&) = delete;

  // Creates the raw directories. Returns why it could not, or "".
  std::string prepare();
  std::vector<std::pair<std::string, std::string>> worker_env(std::size_t index) const;
  // Every worker said hello and was registered. Returns the reason the run cannot go on, or "".
  std::string attach(const Cohort& cohort, std::size_t workers, std::uint64_t deadline_ns);
  // Every worker made its canary call. Returns "attachment not verified: ..." or "".
  std::string verify(std::uint64_t deadline_ns);
  void boundary(std::string_view phase);
  void joined(const CohortMember& member);  // a process a worker forked
  void exited(pid_t pid, const proc::ExitStatus& status);
  // Stops what still runs and decides every collector's status. Returns the reason a required
  // collector failed (the run then fails), or "".
  std::string finish(const nlohmann::json& boundaries, const Cohort& cohort);

  const nlohmann::json& trace_mode() const { return trace_mode_; }
  // Raw documents to keep in the run directory: (path inside it, content).
  std::vector<std::pair<std::string, nlohmann::json>> raw_documents() const;

 private:
  bool requested(std::string_view name) const;
  bool preloads_alloc() const;
  CollectorsSetup setup_;
  std::vector<collect::CollectorPlan> plans_;
  std::size_t workers_ = 0;
  bool attached_ = false;
  std::uint64_t attached_ns_ = 0;
  collect::CpuAccounting cpu_;
  collect::BridgeFiles bridge_files_;
  std::vector<std::size_t> bridge_canaries_;
  std::vector<collect::Registered> registered_;  // the workers, by index
  std::vector<std::size_t> alloc_seen_;
  std::unique_ptr<collectors::SyscallCollector> syscall_;
  nlohmann::json syscall_summary_;
  nlohmann::json trace_mode_;
};

}  // namespace jbench::run
