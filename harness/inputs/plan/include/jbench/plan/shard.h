// A plan split across machines (`--shard K/N`): which shard runs which block. The block — one
// repetition of a point with all its trace modes and its baseline — is the unit and is never
// split, so every traced run keeps its untraced pair on the same host and no pair is ever formed
// across hosts.
//
//   auto spec = parse_shard("2/4", error);                // shards are numbered 0 .. N-1
//   std::vector<std::uint32_t> owner = assign_blocks(plan, spec->count);
//   // owner[b] is the shard that runs plan.blocks[b]
//
// Pure: the same plan and count give the same assignment on every machine, so each shard can
// compute its own share, and a merge can check every shard's against it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jbench/common/result.h"
#include "jbench/plan/plan.h"

namespace jbench {

inline constexpr std::uint32_t kMaxShards = 4096;

// "K/N" with 0 <= K < N <= kMaxShards; an input error saying what is wrong otherwise.
Result<ShardSpec> parse_shard(std::string_view text);

// What `--shard` accepts, the scheduler's own numbering read from its environment through `env`
// (nullopt for a variable that is not set):
//   "K/N"     as parse_shard;
//   "slurm"   K = SLURM_ARRAY_TASK_ID and N = SLURM_ARRAY_TASK_COUNT (a job array --array=0-(N-1));
//   "k8s/N"   K = JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), N declared, as the Job's
//             completions, since the pod is not told it.
Result<ShardSpec> resolve_shard(std::string_view text,
                                const std::function<std::optional<std::string>(const char*)>& env);

// What a block is expected to take, in ms: its runs' phases (a fixed allowance per run when a
// phase counts operations), the per-run allowance, and each traced run's tracer attach and
// after-run cost — the plan's estimate (plan.h, Estimate), block by block, with the assumed
// figures only: a tracer attach measured on one machine must not move the partition.
std::uint64_t block_estimate_ms(const Plan& plan, const Block& block);

// The owner shard of every block (indexed like plan.blocks): longest block first, each to the
// shard with the least estimated time so far (the lower index on a tie). Any two shards then
// differ by at most one block's estimate.
std::vector<std::uint32_t> assign_blocks(const Plan& plan, std::uint32_t count);

// Shard `spec.index` of `whole`: its blocks (assign_blocks) in the whole plan's order, with their
// runs and seeds unchanged. A cell measured elsewhere only is `delegated` (CellReason::other_shard,
// Cell::owner), and so is an axis value all of whose measured cells are; counts, the estimate
// and the axis states are this shard's.
Plan shard_plan(const Plan& whole, ShardSpec spec);

// What a merge must prove before it joins shards' bundles: that together they are the whole plan,
// every run exactly once, each from the shard that owns it.
struct ShardClaim {
  std::string source;                // the shard's bundle, as named in findings
  ShardSpec spec;                    // what the shard says it was
  std::vector<std::string> run_ids;  // the runs it holds
};
struct CoverageFinding {
  // merge.shard_count (shards of different N), merge.missing_shard, merge.duplicate_shard,
  // merge.unplanned_run (not a run of the plan), merge.wrong_shard_run (another shard's run),
  // merge.duplicate_run (twice in one shard), merge.missing_run (the shard's run is absent)
  std::string code;
  std::string message;  // names the shard(s) and the runs
};
// Empty when the claims cover `whole` exactly. Pure.
std::vector<CoverageFinding> check_shard_coverage(const Plan& whole,
                                                  const std::vector<ShardClaim>& claims);

}  // namespace jbench
