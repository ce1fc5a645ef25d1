// Executes one run of a plan: the cohort, its phases and its boundaries. Private to jbench::run.
#pragma once

#include <sys/types.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "datasets.h"
#include "jbench/common/run_status.h"
#include "jbench/plan/plan.h"
#include "jbench/proc/interrupt.h"
#include "world.h"

namespace jbench::run {

struct RunSpec {
  const Plan* plan = nullptr;
  std::size_t run_index = 0;
  std::string run_id;
  std::vector<std::string> worker;  // program and arguments; "serve" follows them
  std::string scratch_dir;          // this run's own scratch directory (created here)
  std::string logs_dir;         // absolute: where the workers' stderr files go (inside the bundle)
  std::string run_dir;          // absolute: runs/<id> inside the bundle (collectors' raw files)
  std::string alloc_library;    // the LD_PRELOAD allocation sampler; empty: not built
  std::string syscall_backend;  // "" = the best this host can run
  const BuiltDataset* dataset = nullptr;
  std::uint32_t startup_timeout_ms = 10'000;
  // Hooks to the world outside the run, so it can be tested and so the session decides what is
  // recorded: noise before and after; a look at the workers after measuring, before teardown.
  std::function<nlohmann::json()> noise_before;
  std::function<nlohmann::json()> noise_after;
  std::function<void(const std::vector<pid_t>& workers)> on_measured;  // in worker order
  // Called once every worker has finished warmup, before the measure barrier, waiting at most
  // `max_wait_ns`: a duet's lockstep (lockstep.h). What it returns goes into run.json `lockstep`.
  std::function<nlohmann::json(std::uint64_t max_wait_ns)> before_measure;
  // The world the run meets (world.h); null: the real one.
  Spawner* spawner = nullptr;
  Clock* clock = nullptr;
};

// How a run ended (run.json "status", jbench/common/run_status.h): the first failure decides it.
using ::jbench::RunStatus;
inline std::ostream& operator<<(std::ostream& out, RunStatus s) {
  return out << run_status_name(s);
}

struct RunRecord {
  RunStatus status = RunStatus::ok;
  std::string reason;                   // empty when ok
  nlohmann::json run;                   // run.json
  std::vector<nlohmann::json> results;  // each worker's "result" message, as sent
  std::string transcript;               // protocol.jsonl
  // Collectors' raw documents for the run directory: (path inside it, content).
  std::vector<std::pair<std::string, nlohmann::json>> raw_documents;
};

RunRecord execute_run(const RunSpec& spec, const proc::InterruptWatch& interrupt);

}  // namespace jbench::run
