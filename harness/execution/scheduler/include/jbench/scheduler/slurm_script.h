// The two batch scripts of `jbench slurm`: a job array of N tasks, task K running shard K/N, at
// most P at once (--array=0-(N-1)%P), and the merge, submitted to start after every task ended
// however it ended (--dependency=afterany:<array job>), so that a missing or failed shard is
// named by the merge rather than leaving nothing. Pure text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jbench/scheduler/sharded_run.h"

namespace jbench::scheduler {

struct SlurmOptions {
  std::string log_dir;                      // each task's and the merge's output
  std::uint32_t task_minutes = 60;          // --time of each task
  std::uint32_t merge_minutes = 30;         // --time of the merge
  bool exclusive = true;                    // a task shares its node with no other job
  std::string partition;                    // "" = the cluster's default
  std::vector<std::string> sbatch_options;  // more options, each one #SBATCH line
};

std::string slurm_array_script(const ShardedRun& run, const SlurmOptions& options);
std::string slurm_merge_script(const ShardedRun& run, const SlurmOptions& options);

// `sbatch` arguments submitting the merge after the array job `array_job_id`.
std::vector<std::string> slurm_merge_submission(const std::string& array_job_id);

}  // namespace jbench::scheduler
