// `jbench k8s MATRIX --shards N --image IMAGE`: the matrix as a Kubernetes Indexed Job, completion
// index K running shard K/N, and a merge Job, written as one manifest for `kubectl apply`
// (docs/distributed.md). Nothing is applied.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "commands.h"
#include "jbench/cli/cli.h"
#include "jbench/scheduler/k8s_manifest.h"
#include "sharded_input.h"

namespace jbench::cli {
namespace {

namespace fs = std::filesystem;

struct K8sCli {
  ShardedInput input;
  scheduler::K8sOptions k8s;
  std::string image_root = "/opt/jbench";
  std::string output;
  bool share_nodes = false;
};

// A Job's name, with "-shards" after it, is at most 63 characters.
constexpr std::size_t kMaxJobName = 63 - 7;

int run_k8s(K8sCli& o) {
  const auto plan = plan_shards(o.input);
  if (!plan) return kExitUsage;
  const auto name = job_name(o.input.name, plan->whole, true, kMaxJobName);
  if (!name) return kExitUsage;
  scheduler::ShardedRun run;
  // Paths as the pods see them: the image holds the repository at image_root.
  run.jbench = o.image_root + "/build/bin/jbench";
  run.matrix = fs::path(o.input.plan.matrix).is_absolute()
                   ? o.input.plan.matrix
                   : (fs::path(o.image_root) / o.input.plan.matrix).lexically_normal().string();
  run.run_args = run_arguments(o.input.plan);
  run.shards = o.input.shards;
  run.parallel = o.input.parallel;
  run.shard_dir = o.k8s.mount + "/" + *name + "/shards";
  run.merged = o.k8s.mount + "/" + *name + "/" + *name;
  run.name = *name;
  o.k8s.exclusive = !o.share_nodes;
  o.k8s.merge_minutes = plan->merge_minutes;
  const std::string text = scheduler::k8s_manifest_yaml(run, o.k8s);
  if (o.output.empty() || o.output == "-") {
    std::cout << text;
  } else {
    std::error_code ec;
    if (fs::exists(o.output, ec)) {
      std::cerr << fmt::format("jbench: error: {} exists: it is never overwritten\n", o.output);
      return kExitUsage;
    }
    std::ofstream f(o.output, std::ios::binary);
    f << text;
    f.close();
    if (!f) {
      std::cerr << fmt::format("jbench: error: cannot write {}\n", o.output);
      return kExitInternal;
    }
  }
  std::cerr << fmt::format(
      "{} Jobs {}-shards ({} indexes) and {}-merge; the merged bundle will be {} on the claim "
      "'{}'.\napply: kubectl apply -f {}\nwait:  kubectl wait --for=condition=complete "
      "--timeout=24h job/{}-merge\n",
      o.output.empty() || o.output == "-" ? "printed" : "wrote " + o.output + ":", *name,
      run.shards, *name, run.merged, o.k8s.claim,
      o.output.empty() || o.output == "-" ? "<file>" : o.output, *name);
  return kExitOk;
}

}  // namespace

Action add_k8s_command(CLI::App& app) {
  auto o = std::make_shared<K8sCli>();
  add_sharded_input_options(app, o->input);
  app.add_option("--image", o->k8s.image,
                 "the container image with jbench built in it (see Containerfile)")
      ->required();
  app.add_option("--image-root", o->image_root,
                 "where the image holds the repository; a relative MATRIX is taken from there "
                 "(default: /opt/jbench)");
  app.add_option("--claim", o->k8s.claim,
                 "the PersistentVolumeClaim (ReadWriteMany) where the bundles are collected")
      ->required();
  app.add_option("--mount", o->k8s.mount, "where the claim is mounted in every pod")
      ->check([](const std::string& m) {
        return !m.empty() && m.front() == '/' ? "" : std::string("must be an absolute path");
      });
  app.add_option("--namespace", o->k8s.namespace_name, "the Jobs' namespace");
  app.add_option("--retries", o->k8s.retries,
                 "attempts again per index (backoffLimitPerIndex; an interrupted attempt's bundle "
                 "is kept in shards/earlier/)");
  app.add_option("--cpu", o->k8s.cpu, "each shard pod's CPU, requested and limited (e.g. 2)");
  app.add_option("--memory", o->k8s.memory, "each shard pod's memory, requested and limited");
  app.add_option("--merge-wait", o->k8s.merge_wait_minutes,
                 "how long the merge waits for every shard's bundle, in minutes")
      ->check(CLI::Range(1, 525'600));
  app.add_flag("--share-nodes", o->share_nodes,
               "let two shards share a node (by default pod anti-affinity keeps them apart)");
  app.add_option("-o,--output", o->output, "write the manifest here (default: stdout)");
  app.footer(
      "Writes two batch/v1 Jobs: <name>-shards (completionMode: Indexed, completions N, "
      "parallelism P, backoffLimitPerIndex; index K runs `jbench run --shard K/N`, privileged "
      "and in the host's PID namespace so that the kernel tracer's process ids are the "
      "harness's) and <name>-merge, which waits on the claim for every shard's bundle, bounded, "
      "and runs `jbench merge`.\n"
      "Exit codes: 0 written, 2 bad usage or input.");
  return [o] { return run_k8s(*o); };
}

}  // namespace jbench::cli
