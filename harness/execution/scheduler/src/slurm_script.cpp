#include "jbench/scheduler/slurm_script.h"

#include <fmt/format.h>

namespace jbench::scheduler {
namespace {

std::string common_lines(const SlurmOptions& o, std::uint32_t minutes) {
  std::string out = fmt::format("#SBATCH --time={}\n", minutes);
  if (!o.partition.empty()) out += fmt::format("#SBATCH --partition={}\n", o.partition);
  for (const auto& extra : o.sbatch_options) out += fmt::format("#SBATCH {}\n", extra);
  return out;
}

}  // namespace

std::string slurm_array_script(const ShardedRun& run, const SlurmOptions& o) {
  const std::string throttle = run.parallel ? fmt::format("%{}", run.parallel) : "";
  std::string out = fmt::format(
      "#!/bin/bash\n"
      "# jbench: {name}, shard K of {n} in task K of this array; `jbench merge` follows as its "
      "own\n"
      "# job. A task run again alone (sbatch --array=K this-file) is still shard K/{n}.\n"
      "#SBATCH --job-name={name}\n"
      "#SBATCH --array=0-{last}{throttle}\n"
      "#SBATCH --output={log}/shard-%a.out\n"
      "#SBATCH --ntasks=1\n",
      fmt::arg("name", run.name), fmt::arg("n", run.shards), fmt::arg("last", run.shards - 1),
      fmt::arg("throttle", throttle), fmt::arg("log", o.log_dir));
  // Timings are the point: by default nothing else runs on a shard's node.
  if (o.exclusive) out += "#SBATCH --exclusive\n";
  out += common_lines(o, o.task_minutes);
  out += "set -euo pipefail\n";
  out += shard_task_script(run, "${SLURM_ARRAY_TASK_ID}");
  return out;
}

std::string slurm_merge_script(const ShardedRun& run, const SlurmOptions& o) {
  std::string out = fmt::format(
      "#!/bin/bash\n"
      "# jbench: the merge of {name}'s {n} shard bundles into {merged}.\n"
      "#SBATCH --job-name={name}-merge\n"
      "#SBATCH --output={log}/merge.out\n"
      "#SBATCH --ntasks=1\n",
      fmt::arg("name", run.name), fmt::arg("n", run.shards), fmt::arg("merged", run.merged),
      fmt::arg("log", o.log_dir));
  out += common_lines(o, o.merge_minutes);
  out += "set -euo pipefail\n";
  out += merge_commands(run);
  return out;
}

std::vector<std::string> slurm_merge_submission(const std::string& array_job_id) {
  // afterany: the merge runs however the tasks ended, and says what is missing; the dependency
  // stays satisfiable when a task fails (--kill-on-invalid-dep=no).
  return {"--parsable", "--dependency=afterany:" + array_job_id, "--kill-on-invalid-dep=no"};
}

}  // namespace jbench::scheduler
