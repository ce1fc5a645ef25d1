// What `plan` and `run` share: the matrix argument, --only, --repetitions, the host overrides, and
// turning them into a Plan (or diagnostics on stderr). Private to jbench::cli.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "jbench/plan/plan.h"

namespace jbench::cli {

struct PlanInput {
  std::string matrix;
  std::vector<std::string> only;
  std::optional<std::uint32_t> host_cores;
  std::optional<std::uint64_t> host_memory_mib;
  std::optional<std::uint32_t> repetitions;  // replaces the matrix's, recorded as an override
  std::string syscall_backend;  // replaces collectors.syscall.backend, recorded as an override
  std::string counter_backend;  // replaces collectors.counter.backend, recorded as an override
  std::string shard;            // "K/N": this shard's share of the plan (shard.h)
};

// `with_shard`: whether --shard is offered (not where the command makes the shards itself).
void add_plan_input_options(CLI::App& app, PlanInput& input, bool with_shard = true);

// The plan, or nullopt after printing every problem to stderr (exit 2). Where `bundles_dir`
// holds an earlier bundle with traced runs, the time estimate uses the tracer attach measured
// there (report/attach_cost.h) instead of the assumed figure.
std::optional<Plan> make_plan_from(const PlanInput& input, const std::string& bundles_dir,
                                   PlanOptions options = {});

}  // namespace jbench::cli
