// The merged bundle's own documents, made from the shards' and the merge plan: pure. The runs
// themselves are copied byte for byte (merge_shards.h); these documents are what is new.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "jbench/merge/shard_check.h"

namespace jbench::merge {

// What the caller knows about the merge itself: side effects stay out of this file.
struct MergeContext {
  std::string bundle_name;
  nlohmann::json jbench;  // the identity of the jbench that merges ({version, source})
  std::string merged_utc;
  std::vector<std::string> shard_sums_sha256;  // of each shard's SHA256SUMS, as shards[]
};

// The manifest of the merged bundle: the whole plan's counts and axis states, every run in the
// whole plan's order (its order and block the whole plan's, with the shard and host it ran on),
// execution recomputed, and /merge: every shard's identity, host, times and copy. Where the
// shards' hosts differ, /host keeps what they share and says which facts differ.
nlohmann::json merged_manifest(const std::vector<ShardFacts>& shards, const MergePlan& plan,
                               const MergeContext& context);

// provenance/index.json of the merged bundle: every shard's objects once (stored if any shard
// stored it), their binary sets under names prefixed with the shard ("s2.set-1"), every run's
// entry, and the configuration hashes of the merged matrix and plan.
nlohmann::json merged_provenance_index(const std::vector<ShardFacts>& shards, const MergePlan& plan,
                                       const std::string& plan_sha256);

// Which shard's store to copy each stored object from (the first that stored it).
std::map<std::string, std::size_t> stored_object_sources(const std::vector<ShardFacts>& shards);

}  // namespace jbench::merge
