#include "plan_input.h"

#include <fmt/format.h>

#include <cstdlib>
#include <iostream>

#include "jbench/host/host_resources.h"
#include "jbench/matrix/declare_process_worker.h"
#include "jbench/matrix/load.h"
#include "jbench/overhead_report/attach_cost.h"
#include "jbench/plan/shard.h"

namespace jbench::cli {
void add_plan_input_options(CLI::App& app, PlanInput& input, bool with_shard) {
  app.add_option("matrix", input.matrix, "the matrix file (YAML, matrix language v1)")->required();
  app.add_option("--only", input.only,
                 "run only these values of one axis, e.g. --only workers=1,2; repeat for other "
                 "axes; the other values stay in the plan as 'planned'")
      ->type_name("AXIS=V1,V2")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--repetitions", input.repetitions,
                 "run each cell this many times instead of the matrix's 'repetitions' (recorded "
                 "in the plan and the manifest as an override)")
      ->check(CLI::Range(1, 1000));
  app.add_option("--syscall-backend", input.syscall_backend,
                 "trace system calls with this backend in every traced run instead of the "
                 "matrix's collectors.syscall.backend or the best this host runs (recorded as an "
                 "override)")
      ->check(CLI::IsMember(
          std::vector<std::string>(kSyscallBackends.begin(), kSyscallBackends.end())));
  app.add_option("--counter-backend", input.counter_backend,
                 "count the instructions of counted runs with this counter (perf: the "
                 "processor's; callgrind) instead of the matrix's collectors.counter.backend or "
                 "the processor's where it opens (recorded as an override)")
      ->check(CLI::IsMember(
          std::vector<std::string>(kCounterBackends.begin(), kCounterBackends.end())));
  if (with_shard) {
    app.add_option("--shard", input.shard,
                   "only this shard's share of the plan, K of N counted from 0 (blocks are never "
                   "split; the other shards' cells are delegated); 'slurm' reads "
                   "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, 'k8s/N' JOB_COMPLETION_INDEX")
        ->type_name("K/N|slurm|k8s/N");
  }
  app.add_option("--host-cores", input.host_cores,
                 "plan for a host with this many cores instead of this one")
      ->check(CLI::Range(1, 65536));
  app.add_option("--host-memory-mib", input.host_memory_mib,
                 "plan for a host with this much memory (MiB) instead of this one")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
}

std::optional<Plan> make_plan_from(const PlanInput& input, const std::string& bundles_dir,
                                   PlanOptions options) {
  auto loaded = load_matrix_file(input.matrix);
  if (!loaded.matrix) {
    std::cerr << format_diagnostics(loaded.diagnostics);
    return std::nullopt;
  }
  if (const auto problems = declare_process_worker(*loaded.matrix); !problems.empty()) {
    std::cerr << format_diagnostics(problems);
    return std::nullopt;
  }
  if (input.repetitions && *input.repetitions != loaded.matrix->repetitions) {
    loaded.matrix->overrides.push_back({"repetitions", std::to_string(loaded.matrix->repetitions),
                                        std::to_string(*input.repetitions), "--repetitions"});
    loaded.matrix->repetitions = *input.repetitions;
  }
  std::string& backend = loaded.matrix->collectors.syscall_backend;
  if (!input.syscall_backend.empty() && input.syscall_backend != backend) {
    loaded.matrix->overrides.push_back({"collectors.syscall.backend",
                                        backend.empty() ? "(the best this host runs)" : backend,
                                        input.syscall_backend, "--syscall-backend"});
    backend = input.syscall_backend;
  }
  std::string& counter = loaded.matrix->collectors.counter_backend;
  if (!input.counter_backend.empty() && input.counter_backend != counter) {
    loaded.matrix->overrides.push_back(
        {"collectors.counter.backend",
         counter.empty() ? "(the processor's, else callgrind)" : counter, input.counter_backend,
         "--counter-backend"});
    counter = input.counter_backend;
  }
  auto filters = parse_only_filters(input.only, *loaded.matrix);
  if (!filters.errors.empty()) {
    for (const auto& e : filters.errors) std::cerr << "jbench: error: " << e << '\n';
    return std::nullopt;
  }
  HostResources host = probe_host_resources();
  if (input.host_cores) host.cores = *input.host_cores;
  if (input.host_memory_mib) host.memory_mib = *input.host_memory_mib;
  if (auto cost = overhead_report::latest_attach_cost(bundles_dir)) {
    options.tracer_attach_ms = cost->median_ms;
    options.tracer_attach_source = cost->source();
  }
  std::optional<ShardSpec> shard;
  if (!input.shard.empty()) {
    auto resolved = resolve_shard(input.shard, [](const char* name) -> std::optional<std::string> {
      const char* v = std::getenv(name);
      return v ? std::optional<std::string>(v) : std::nullopt;
    });
    if (!resolved) {
      std::cerr << "jbench: error: --shard " << resolved.error().message << '\n';
      return std::nullopt;
    }
    shard = *resolved;
  }
  Plan plan = make_plan(*loaded.matrix, filters.filters, host, options);
  if (shard) return shard_plan(plan, *shard);
  return plan;
}

}  // namespace jbench::cli
