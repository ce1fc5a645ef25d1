// A matrix sharded over a scheduler's tasks (Slurm job array, Kubernetes Indexed Job): what each
// task runs and where the bundles go, the same for both schedulers. The scripts and manifests are
// made from it by pure functions (slurm_script.h, k8s_manifest.h); nothing here starts anything.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace jbench::scheduler {

struct ShardedRun {
  std::string jbench;                 // the jbench each task runs (absolute)
  std::string matrix;                 // the matrix file (absolute, as the task sees it)
  std::vector<std::string> run_args;  // passed to every `jbench run` as given (--only, ...)
  std::uint32_t shards = 1;           // N: task K runs shard K/N
  std::uint32_t parallel = 0;         // at most this many tasks at once; 0 = no limit
  std::string shard_dir;              // where the tasks write shard-0 .. shard-(N-1)
  std::string merged;                 // the merged bundle's path
  std::string name;                   // the jobs' name
};

// `word` as one word of a POSIX shell command line: unchanged when it is made only of characters
// no shell treats specially, else in single quotes.
std::string shell_word(const std::string& word);

// What task `index_expression` (a shell expression such as "${SLURM_ARRAY_TASK_ID}") runs, as a
// bash script body: its `jbench run --shard K/N` writing shard-<K> in shard_dir. A task started
// again (a retry, a requeue, a task resubmitted alone) finds its earlier attempt: a complete
// bundle means there is nothing left to do; an interrupted or invalid one is moved into
// shard_dir/earlier/, kept as evidence, so that the new attempt can take the name.
std::string shard_task_script(const ShardedRun& run, const std::string& index_expression);

// How long the merge of `runs` runs may take, in minutes, at most: it reads every byte the shards
// wrote twice (each shard's SHA256SUMS, then the merged bundle's full validation), and a run
// writes at most its matrix's limits.output_mib, so the bound is every run at that limit, read
// twice at kMergeReadMibPerSecond, plus 15 minutes for the rest (plan, links, sums).
inline constexpr std::uint64_t kMergeReadMibPerSecond = 50;
std::uint32_t merge_bound_minutes(std::uint64_t runs, std::uint64_t output_mib_per_run);

// The merge of whatever shard bundles exist in shard_dir (finished, interrupted or invalid: the
// merge says which are missing or unusable), one shell script body; exits 1 with a sentence when
// there is none at all.
std::string merge_commands(const ShardedRun& run);

}  // namespace jbench::scheduler
