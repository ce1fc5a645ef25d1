// What `jbench merge` must prove from the shards' own documents before it copies a byte: that
// they are shares of one plan (the same matrix, seed, filters, overrides and N), made by
// compatible builds on hosts of one class, and together every planned run exactly once. Pure:
// the documents are read by the caller.
//
//   ShardCheck c = check_shards(shards);
//   if (!c.findings.empty()) refuse(c.findings);   // each names the shard and the runs
//   const MergePlan& p = *c.plan;                  // the whole plan and who ran each run
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jbench/plan/plan.h"

namespace jbench::merge {

// One shard bundle as it was read.
struct ShardFacts {
  std::string source;               // the bundle's path as given
  nlohmann::json manifest;          // manifest.json
  nlohmann::json plan;              // plan.json
  nlohmann::json provenance_index;  // provenance/index.json
  std::string matrix_text;          // matrix.yaml
};

struct MergeFinding {
  // merge.not_a_shard, merge.shard_interrupted, merge.not_a_run_bundle, merge.matrix_mismatch,
  // merge.plan_mismatch, merge.build_mismatch, merge.host_mismatch, merge.dataset_mismatch, and
  // the coverage codes of plan/shard.h (merge.missing_shard, merge.duplicate_shard, ...); the
  // reader adds merge.unreadable and merge.shard_invalid.
  std::string code;
  std::string message;
};

struct MergePlan {
  Plan whole;                             // the plan every shard is a share of, re-made here
  std::vector<std::string> run_ids;       // run_ids[i] names whole.runs[i]
  std::vector<std::size_t> shard_of_run;  // whole.runs[i] is held by shards[shard_of_run[i]]
  std::vector<ShardSpec> specs;           // specs[s] is what shards[s] says it was
};

struct ShardCheck {
  std::optional<MergePlan> plan;  // set only when findings is empty
  std::vector<MergeFinding> findings;
};

ShardCheck check_shards(const std::vector<ShardFacts>& shards);

// "<source> (shard K/N)", or the source alone when it says no shard: how findings name it.
std::string shard_label(const ShardFacts& shard);

// The sha256 of every executable the shard's workers ran (provenance index, role "exe").
std::vector<std::string> workload_executables(const nlohmann::json& provenance_index);

}  // namespace jbench::merge
