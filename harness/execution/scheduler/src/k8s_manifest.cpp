#include "jbench/scheduler/k8s_manifest.h"

#include <fmt/format.h>

#include "jbench/scheduler/yaml_text.h"

namespace jbench::scheduler {
namespace {

using Doc = nlohmann::ordered_json;

constexpr const char* kRunLabel = "jbench.dev/run";

Doc metadata(const std::string& name, const ShardedRun& run, const K8sOptions& o) {
  Doc m = {{"name", name},
           {"labels", {{"app.kubernetes.io/name", "jbench"}, {kRunLabel, run.name}}}};
  if (!o.namespace_name.empty()) m["namespace"] = o.namespace_name;
  return m;
}

Doc bundles_volume(const K8sOptions& o) {
  return Doc::array({{{"name", "bundles"}, {"persistentVolumeClaim", {{"claimName", o.claim}}}}});
}

Doc bundles_mount(const K8sOptions& o) {
  return Doc::array({{{"name", "bundles"}, {"mountPath", o.mount}}});
}

}  // namespace

Doc k8s_shard_job(const ShardedRun& run, const K8sOptions& o) {
  Doc container = {{"name", "shard"},
                   {"image", o.image},
                   {"command",
                    {"/bin/bash", "-c",
                     "set -euo pipefail\n" + shard_task_script(run, "${JOB_COMPLETION_INDEX}")}},
                   // The syscall tracer needs BPF, which an unprivileged container is refused.
                   {"securityContext", {{"privileged", true}}},
                   {"volumeMounts", bundles_mount(o)}};
  if (!o.cpu.empty() || !o.memory.empty()) {
    Doc amounts = Doc::object();
    if (!o.cpu.empty()) amounts["cpu"] = o.cpu;
    if (!o.memory.empty()) amounts["memory"] = o.memory;
    container["resources"] = {{"requests", amounts}, {"limits", amounts}};
  }
  Doc pod = {{"restartPolicy", "Never"},
             // The kernel's tracer reports the host's process ids; sharing the host's pid
             // namespace makes them the ids the harness registers its cohort by.
             {"hostPID", true},
             {"containers", Doc::array({container})},
             {"volumes", bundles_volume(o)}};
  if (o.exclusive) {
    // Timings are the point: no two shards on one node.
    pod["affinity"] = {
        {"podAntiAffinity",
         {{"requiredDuringSchedulingIgnoredDuringExecution",
           Doc::array({{{"labelSelector", {{"matchLabels", {{kRunLabel, run.name}}}}},
                        {"topologyKey", "kubernetes.io/hostname"}}})}}}};
  }
  return {{"apiVersion", "batch/v1"},
          {"kind", "Job"},
          {"metadata", metadata(run.name + "-shards", run, o)},
          {"spec",
           {{"completionMode", "Indexed"},
            {"completions", run.shards},
            {"parallelism", run.parallel ? run.parallel : run.shards},
            {"backoffLimitPerIndex", o.retries},
            {"template", {{"metadata", {{"labels", {{kRunLabel, run.name}}}}}, {"spec", pod}}}}}};
}

Doc k8s_merge_job(const ShardedRun& run, const K8sOptions& o) {
  // A bundle's name appears only when it is finalized, so its presence, in any of its three
  // forms, means that shard is done; the wait is bounded, and the merge names what is missing.
  const std::string wait = fmt::format(
      "set -euo pipefail\n"
      "dir={dir}\n"
      "deadline=$(( $(date +%s) + {seconds} ))\n"
      "while :; do\n"
      "  done_count=0\n"
      "  for k in $(seq 0 {last}); do\n"
      "    for b in \"$dir/shard-$k\" \"$dir/shard-$k.interrupted\" \"$dir/shard-$k.invalid\"; do\n"
      "      if [ -d \"$b\" ]; then done_count=$((done_count + 1)); break; fi\n"
      "    done\n"
      "  done\n"
      "  if [ \"$done_count\" -eq {n} ]; then break; fi\n"
      "  if [ \"$(date +%s)\" -ge \"$deadline\" ]; then\n"
      "    echo \"jbench merge: $done_count of {n} shards ended within {minutes} min; merging "
      "what there is\" >&2\n"
      "    break\n"
      "  fi\n"
      "  sleep 10\n"
      "done\n",
      fmt::arg("dir", shell_word(run.shard_dir)), fmt::arg("seconds", o.merge_wait_minutes * 60),
      fmt::arg("minutes", o.merge_wait_minutes), fmt::arg("last", run.shards - 1),
      fmt::arg("n", run.shards));
  Doc container = {{"name", "merge"},
                   {"image", o.image},
                   {"command", {"/bin/bash", "-c", wait + merge_commands(run)}},
                   {"volumeMounts", bundles_mount(o)}};
  Doc pod = {{"restartPolicy", "Never"},
             {"containers", Doc::array({container})},
             {"volumes", bundles_volume(o)}};
  return {{"apiVersion", "batch/v1"},
          {"kind", "Job"},
          {"metadata", metadata(run.name + "-merge", run, o)},
          {"spec",
           {{"backoffLimit", 0},
            {"activeDeadlineSeconds", (std::uint64_t{o.merge_wait_minutes} + o.merge_minutes) * 60},
            {"template", {{"metadata", {{"labels", {{kRunLabel, run.name}}}}}, {"spec", pod}}}}}};
}

std::string k8s_manifest_yaml(const ShardedRun& run, const K8sOptions& o) {
  return fmt::format(
             "# jbench: {name}, {n} shards as a Kubernetes Indexed Job, then their merge into\n"
             "# {merged} (docs/distributed.md). Bundles are collected on the claim '{claim}',\n"
             "# mounted at {mount} in every pod.\n"
             "#   kubectl apply -f <this file>\n"
             "#   kubectl wait --for=condition=complete --timeout=24h job/{name}-merge\n"
             "---\n",
             fmt::arg("name", run.name), fmt::arg("n", run.shards), fmt::arg("merged", run.merged),
             fmt::arg("claim", o.claim), fmt::arg("mount", o.mount)) +
         to_yaml(k8s_shard_job(run, o)) + "---\n" + to_yaml(k8s_merge_job(run, o));
}

}  // namespace jbench::scheduler
