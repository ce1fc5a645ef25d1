// The collectors of one run, as its trace mode's table asks for them (collectors/modes), driven
// through the one seam (collectors/api/collector.h): the environment each worker is spawned
// with, attaching after registration, verifying every worker's canary before release, the phase
// boundaries, and after teardown every table row's entry in run.json. Private to jbench::run; it
// names no collector.
//
// Order, as run_one drives it:
//   worker_env(i) at spawn -> attach(cohort) after every hello -> verify() after canary_done
//   -> boundary("warmup"|"measure"|"teardown") right before each release -> exited() after
//   reaping -> finish() once the cohort is gone.
#pragma once

#include <sys/types.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cohort.h"
#include "jbench/collectors/api/collector.h"
#include "jbench/collectors/modes/trace_modes.h"
#include "jbench/matrix/matrix.h"
#include "jbench/proc/child_process.h"

namespace jbench::run {

// What the collectors must know of the matrix's workload: a built-in kind's traits, or what a
// process worker declared of itself.
collectors::WorkloadTraits workload_traits(const Workload& w);

class RunCollectors {
 public:
  explicit RunCollectors(collectors::RunContext context);
  ~RunCollectors();
  RunCollectors(const RunCollectors&) = delete;
  RunCollectors& operator=(const RunCollectors&) = delete;

  // Creates the raw directories. Returns why it could not, or "".
  Status prepare();
  collectors::WorkerEnv worker_env(std::size_t index) const;
  // The worker's program and arguments, inside whatever runtime a collector runs it in.
  std::vector<std::string> worker_command(std::size_t index,
                                          std::vector<std::string> command) const;
  // Every worker is admitted (held before its exec). Returns the reason the run cannot go on, or
  // "".
  Status attach(const Cohort& cohort, std::size_t workers, std::uint64_t deadline_ns);
  // Every worker made its canary call. Returns "attachment not verified: ..." or "".
  Status verify(std::uint64_t deadline_ns);
  void boundary(std::string_view phase);
  void joined(const CohortMember& member);  // a process a worker forked
  void exited(pid_t pid, const proc::ExitStatus& status);
  // Stops what still runs and lists every row of the table with its status. Returns the reason
  // a required collector did not prove its evidence (the run then fails), or "".
  // `confirmed`: every worker's hello came. A run that ended before that has no evidence to
  // list: its collectors are stopped, and trace_mode says none attached.
  std::string finish(const nlohmann::json& boundaries, const Cohort& cohort, bool confirmed);

  const nlohmann::json& trace_mode() const { return trace_mode_; }
  // Raw documents to keep in the run directory: (path inside it, content).
  std::vector<std::pair<std::string, nlohmann::json>> raw_documents() const;

 private:
  collectors::RunContext context_;
  std::vector<collectors::CollectorPlan> plans_;
  std::vector<std::unique_ptr<collectors::Collector>> collectors_;
  // The collectors whose attach() was called, in order (one that failed included: it is finished
  // too). Only they see the steps after attach: a run can end before it, or part-way through it.
  std::size_t attached_count_ = 0;
  std::span<const std::unique_ptr<collectors::Collector>> attached_collectors() const {
    return {collectors_.data(), attached_count_};
  }
  std::size_t workers_ = 0;
  bool attached_ = false;
  std::uint64_t attached_ns_ = 0;
  nlohmann::json trace_mode_;
};

}  // namespace jbench::run
