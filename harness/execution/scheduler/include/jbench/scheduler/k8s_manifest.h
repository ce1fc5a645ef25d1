// The Kubernetes documents of `jbench k8s`: an Indexed Job whose completion index K runs shard
// K/N (completionMode: Indexed, a retry budget per index: backoffLimitPerIndex), and a merge Job
// that waits on the shared volume for every shard's bundle, bounded, then runs `jbench merge`.
// Both mount one volume (a PersistentVolumeClaim every node can mount, ReadWriteMany) where the
// bundles are collected. Pure: documents and text, nothing is applied.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "jbench/scheduler/sharded_run.h"

namespace jbench::scheduler {

struct K8sOptions {
  std::string image;                           // holds jbench and the matrix (Containerfile)
  std::string claim;                           // the PersistentVolumeClaim mounted at `mount`
  std::string mount = "/bundles";              // where the bundles are collected in every pod
  std::string namespace_name;                  // "" = the namespace kubectl applies to
  std::uint32_t retries = 0;                   // backoffLimitPerIndex: attempts again per index
  bool exclusive = true;                       // one shard per node (pod anti-affinity)
  std::string cpu, memory;                     // requests = limits when set (Guaranteed QoS)
  std::uint32_t merge_wait_minutes = 24 * 60;  // how long the merge waits for the shards
  std::uint32_t merge_minutes = 60;            // and how long the merge itself may then take
};

nlohmann::ordered_json k8s_shard_job(const ShardedRun& run, const K8sOptions& options);
nlohmann::ordered_json k8s_merge_job(const ShardedRun& run, const K8sOptions& options);

// Both documents as one YAML stream ("---" between them), with a header saying how to apply it.
std::string k8s_manifest_yaml(const ShardedRun& run, const K8sOptions& options);

}  // namespace jbench::scheduler
