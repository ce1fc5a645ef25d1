#include "sharded_input.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "jbench/common/clock.h"
#include "jbench/plan/shard.h"
#include "jbench/scheduler/sharded_run.h"

namespace jbench::cli {

void add_sharded_input_options(CLI::App& app, ShardedInput& input) {
  add_plan_input_options(app, input.plan, /*with_shard=*/false);
  app.add_option("--shards", input.shards, "N: the plan's blocks split over N tasks")
      ->required()
      ->check(CLI::Range(std::uint32_t{1}, kMaxShards));
  app.add_option("--parallel", input.parallel, "at most this many tasks at once (default: all N)")
      ->check(CLI::Range(std::uint32_t{1}, kMaxShards));
  app.add_option("--name", input.name,
                 "the jobs' name and the merged bundle's (default: <matrix name>-<UTC time>)");
  app.add_option("--merge-time", input.merge_minutes,
                 fmt::format("the merge's time limit in minutes, after any wait for the shards "
                             "(default: every run at its output limit, read twice at {} MiB/s, "
                             "plus 15)",
                             scheduler::kMergeReadMibPerSecond))
      ->check(CLI::Range(1, 525'600));
}

std::optional<ShardedPlan> plan_shards(const ShardedInput& input) {
  auto whole = make_plan_from(input.plan, "");
  if (!whole) return std::nullopt;
  if (whole->blocks.size() < input.shards) {
    std::cerr << fmt::format(
        "jbench: error: --shards {}: the plan has {} block(s) (a repetition of a point with all "
        "its trace modes, never split), so {} shard(s) would have nothing to run; use at most "
        "--shards {}\n",
        input.shards, whole->blocks.size(), input.shards - whole->blocks.size(),
        whole->blocks.size());
    return std::nullopt;
  }
  ShardedPlan out;
  for (std::uint32_t k = 0; k < input.shards; ++k) {
    Plan shard = shard_plan(*whole, {k, input.shards});
    std::uint64_t expected = 0;
    for (const Block& b : shard.blocks) expected += block_estimate_ms(shard, b);
    std::cerr << fmt::format("shard {}/{}: {} runs in {} blocks, about {} min (at most {} min)\n",
                             k, input.shards, shard.runs.size(), shard.blocks.size(),
                             (expected + 59'999) / 60'000,
                             (shard.estimate.bound_ms + 59'999) / 60'000);
    out.longest_bound_ms = std::max(out.longest_bound_ms, shard.estimate.bound_ms);
    out.shards.push_back(std::move(shard));
  }
  out.merge_minutes = input.merge_minutes.value_or(
      scheduler::merge_bound_minutes(whole->runs.size(), whole->matrix->limits.output_mib));
  out.whole = std::move(*whole);
  return out;
}

std::vector<std::string> run_arguments(const PlanInput& input) {
  std::vector<std::string> out;
  for (const auto& only : input.only) {
    out.push_back("--only");
    out.push_back(only);
  }
  if (input.repetitions) {
    out.push_back("--repetitions");
    out.push_back(std::to_string(*input.repetitions));
  }
  if (input.host_cores) {
    out.push_back("--host-cores");
    out.push_back(std::to_string(*input.host_cores));
  }
  if (input.host_memory_mib) {
    out.push_back("--host-memory-mib");
    out.push_back(std::to_string(*input.host_memory_mib));
  }
  return out;
}

std::optional<std::string> job_name(const std::string& name, const Plan& plan, bool dns_label,
                                    std::size_t max_length) {
  std::string out = name.empty()
                        ? fmt::format("{}-{}", plan.matrix->name,
                                      utc_now(dns_label ? "%Y%m%d-%H%M%S" : "%Y%m%dT%H%M%SZ"))
                        : name;
  if (dns_label && name.empty()) {
    for (char& c : out) {
      c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) c = '-';
    }
  }
  const auto ok_char = [&](char c) {
    if (dns_label) return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.';
  };
  const bool ok = !out.empty() && out.size() <= max_length && out.front() != '-' &&
                  out.front() != '.' && out.back() != '-' &&
                  std::all_of(out.begin(), out.end(), ok_char);
  if (!ok) {
    std::cerr << fmt::format(
        "jbench: error: --name '{}': {} of at most {} characters, not starting with '-'\n", out,
        dns_label ? "a Kubernetes name is lower-case letters, digits and '-'"
                  : "a job's name is letters, digits, '-', '_' and '.'",
        max_length);
    return std::nullopt;
  }
  return out;
}

}  // namespace jbench::cli
