// What `jbench slurm` and `jbench k8s` share: the matrix and plan options every task passes to
// `jbench run`, the shard count and parallelism, the merge's time limit, and the check, before
// anything is written, that the plan has a block for every shard. Private to jbench::cli.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "jbench/plan/plan.h"
#include "jbench/scheduler/sharded_run.h"
#include "plan_input.h"

namespace jbench::cli {

struct ShardedInput {
  PlanInput plan;  // its `shard` is never set: each task's is
  std::uint32_t shards = 0;
  std::uint32_t parallel = 0;
  std::string name;
  std::optional<std::uint32_t> merge_minutes;  // --merge-time; default: the merge's bound
};

void add_sharded_input_options(CLI::App& app, ShardedInput& input);

// The whole plan and each shard's, after printing a line per shard (runs, estimated and bounded
// time) to stderr; nullopt after printing why not (exit 2): the matrix does not plan, or it has
// fewer blocks than shards, so that a shard would have nothing to run.
struct ShardedPlan {
  Plan whole;
  std::vector<Plan> shards;
  std::uint64_t longest_bound_ms = 0;  // of the shard whose runs could take longest
  std::uint32_t merge_minutes = 0;     // the merge's time limit: --merge-time, or its bound
};
std::optional<ShardedPlan> plan_shards(const ShardedInput& input);

// The options each task's `jbench run` is given, as the user gave them to this command.
std::vector<std::string> run_arguments(const PlanInput& input);

// `name`, or "<matrix name>-<UTC time>" when empty, made a DNS label when `dns_label` (lower case
// letters, digits and '-', at most `max_length`): a Kubernetes object's name.
std::optional<std::string> job_name(const std::string& name, const Plan& plan, bool dns_label,
                                    std::size_t max_length);

}  // namespace jbench::cli
