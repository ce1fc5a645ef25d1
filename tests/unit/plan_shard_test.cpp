// Sharding a plan (plan/shard.h): for every shard count 1..8 and a few hundred seeded random
// matrices, the shards together are the plan, each block in exactly one of them, whole, and the
// shards' estimated times within 10% of each other wherever the blocks allow it (no split of a
// block could do better than one block's estimate apart).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "jbench/plan/shard.h"
#include "random_matrix.h"
#include "test_hosts.h"

namespace jbench {
namespace {

TEST(PlanShard, every_block_is_in_exactly_one_shard_and_the_loads_are_balanced) {
  std::size_t checked = 0, within_ten_percent = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const Plan plan = make_plan(test::random_matrix(seed), {}, kWideHost);
    if (plan.blocks.empty()) continue;
    std::uint64_t largest = 0;
    for (const Block& b : plan.blocks) largest = std::max(largest, block_estimate_ms(plan, b));
    for (std::uint32_t n = 1; n <= 8; ++n) {
      const auto owner = assign_blocks(plan, n);
      ASSERT_EQ(owner.size(), plan.blocks.size()) << "seed " << seed;
      std::vector<std::uint64_t> load(n, 0);
      std::vector<std::size_t> runs_in(n, 0);
      for (std::size_t b = 0; b < owner.size(); ++b) {
        ASSERT_LT(owner[b], n) << "seed " << seed << " n " << n;
        load[owner[b]] += block_estimate_ms(plan, plan.blocks[b]);
        runs_in[owner[b]] += plan.blocks[b].run_count;
      }
      // The union is the plan: every run once, through its block.
      EXPECT_EQ(std::accumulate(runs_in.begin(), runs_in.end(), std::size_t{0}), plan.runs.size());
      const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
      // Any two shards differ by at most one block, the least a whole-block split can promise.
      EXPECT_LE(*hi - *lo, largest) << "seed " << seed << " n " << n;
      ++checked;
      if (static_cast<double>(*hi - *lo) <= 0.10 * static_cast<double>(*hi)) ++within_ten_percent;
      // Where the blocks allow it (many more blocks than shards), within 10%.
      if (plan.blocks.size() >= 10 * n) {
        EXPECT_LE(static_cast<double>(*hi - *lo), 0.10 * static_cast<double>(*hi))
            << "seed " << seed << " n " << n << " blocks " << plan.blocks.size();
      }
    }
  }
  EXPECT_GT(checked, 1000u);
  EXPECT_GT(within_ten_percent, checked / 2);
}

TEST(PlanShard, the_assignment_is_a_pure_function_of_the_plan_and_the_count) {
  const Plan a = make_plan(test::random_matrix(7), {}, kWideHost);
  const Plan b = make_plan(test::random_matrix(7), {}, kWideHost);
  for (std::uint32_t n = 1; n <= 8; ++n) EXPECT_EQ(assign_blocks(a, n), assign_blocks(b, n));
  // One shard holds everything.
  const auto one = assign_blocks(a, 1);
  EXPECT_TRUE(std::all_of(one.begin(), one.end(), [](std::uint32_t o) { return o == 0; }));
}

// `jbench run` plans with the tracer attach measured in the bundles its machine already holds;
// machines with different histories must still agree on who runs what.
TEST(PlanShard, a_tracer_attach_measured_on_one_machine_does_not_move_the_partition) {
  std::size_t differently_weighed = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Matrix m = test::random_matrix(seed);
    // Blocks of unequal weight: the first worker count is not traced in full.
    const auto& traces = m.axis(Axis::trace).labels;
    const auto full = std::find(traces.begin(), traces.end(), "full");
    if (full == traces.end() || m.axis(Axis::workers).labels.size() < 2) continue;
    ExcludeRule rule;
    rule.values[static_cast<std::size_t>(Axis::workers)] = {0};
    rule.values[static_cast<std::size_t>(Axis::trace)] = {
        static_cast<std::uint16_t>(full - traces.begin())};
    m.excludes.push_back(rule);
    ++differently_weighed;
    PlanOptions measured;
    measured.tracer_attach_ms = 6000;
    measured.tracer_attach_source = "measured elsewhere";
    const Plan assumed = make_plan(m, {}, kWideHost);
    const Plan local = make_plan(m, {}, kWideHost, measured);
    ASSERT_EQ(local.estimate.attach_per_traced_run_ms, 6000u);
    for (std::uint32_t n = 2; n <= 5; ++n) {
      EXPECT_EQ(assign_blocks(assumed, n), assign_blocks(local, n)) << "seed " << seed;
    }
  }
  EXPECT_GT(differently_weighed, 5u);
}

TEST(PlanShard, traced_blocks_weigh_more_than_untraced_ones) {
  const Plan plan = make_plan(test::random_matrix(11), {}, kWideHost);
  for (const Block& b : plan.blocks) {
    std::uint64_t untraced = 0;
    bool traced = false;
    for (std::uint32_t i = 0; i < b.run_count; ++i) {
      const TraceMode t = plan.runs[b.first_run + i].trace;
      traced |= t == TraceMode::light || t == TraceMode::full;
      untraced += 10 + 1000 + kRunOverheadMs;  // warmup 10 ms, measure counted, allowance
    }
    if (traced) {
      EXPECT_GT(block_estimate_ms(plan, b), untraced);
    } else {
      EXPECT_EQ(block_estimate_ms(plan, b), untraced);
    }
  }
}

TEST(PlanShard, the_shards_plans_together_run_every_run_once_in_the_whole_plans_order) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Plan whole = make_plan(test::random_matrix(seed), {}, kWideHost);
    std::map<std::string, std::uint64_t> seeds;  // run id -> block seed, of the whole plan
    std::map<std::string, std::size_t> position;
    for (std::size_t i = 0; i < whole.runs.size(); ++i) {
      const std::string id = run_id(whole, whole.runs[i]);
      seeds[id] = whole.blocks[whole.runs[i].block].seed;
      position[id] = i;
    }
    for (std::uint32_t n = 1; n <= 5; ++n) {
      std::map<std::string, int> seen;
      for (std::uint32_t k = 0; k < n; ++k) {
        const Plan shard = shard_plan(whole, {k, n});
        ASSERT_TRUE(shard.shard);
        EXPECT_EQ(shard.whole_plan_runs, whole.runs.size());
        EXPECT_EQ(shard.counts.runs, shard.runs.size());
        std::size_t last = 0;
        for (std::size_t i = 0; i < shard.runs.size(); ++i) {
          const jbench::Run& r = shard.runs[i];
          const std::string id = run_id(shard, r);
          ++seen[id];
          ASSERT_TRUE(seeds.count(id)) << id;
          EXPECT_EQ(shard.blocks[r.block].seed, seeds[id]) << id;  // the same workload
          if (i > 0) {
            EXPECT_GT(position[id], last) << "seed " << seed << " order changed";
          }
          last = position[id];
          // Every traced run keeps its block's baseline on the same shard.
          if (r.trace != TraceMode::baseline) {
            const Block& b = shard.blocks[r.block];
            bool paired = false;
            for (std::uint32_t j = 0; j < b.run_count; ++j) {
              paired |= shard.runs[b.first_run + j].trace == TraceMode::baseline;
            }
            EXPECT_TRUE(paired) << id;
          }
        }
        // A cell measured only elsewhere is delegated to a shard that does measure it.
        for (std::size_t c = 0; c < shard.cells.size(); ++c) {
          EXPECT_EQ(shard.cells[c].state == PlanState::delegated,
                    whole.cells[c].state == PlanState::measured &&
                        shard.cells[c].state != PlanState::measured);
          if (shard.cells[c].state == PlanState::delegated) {
            EXPECT_NE(shard.cells[c].owner, k);
            EXPECT_LT(shard.cells[c].owner, n);
          }
        }
      }
      EXPECT_EQ(seen.size(), whole.runs.size()) << "seed " << seed << " n " << n;
      for (const auto& [id, times] : seen) EXPECT_EQ(times, 1) << id;
    }
  }
}

TEST(PlanShard, shard_specs_are_k_of_n_counted_from_zero) {
  auto s = parse_shard("2/4");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->index, 2u);
  EXPECT_EQ(s->count, 4u);
  EXPECT_TRUE(parse_shard("0/1"));
  for (const char* bad : {"4/4", "1/0", "-1/4", "2", "a/b", "2/4/8", " 1/4", "1/5000", "/4"}) {
    const auto refused = parse_shard(bad);
    ASSERT_FALSE(refused) << bad;
    EXPECT_NE(refused.error().message.find(bad), std::string::npos) << refused.error().message;
    EXPECT_EQ(refused.error().kind, ErrorKind::input);
  }
}

TEST(PlanShard, schedulers_number_shards_through_their_environment) {
  std::map<std::string, std::string> vars;
  const auto env = [&](const char* name) -> std::optional<std::string> {
    auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  const auto error_of = [&](std::string_view text) {
    const auto r = resolve_shard(text, env);
    return r ? std::string("(resolved)") : r.error().message;
  };
  EXPECT_NE(error_of("slurm").find("SLURM_ARRAY_TASK_ID"), std::string::npos);
  vars = {{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_COUNT", "4"}};
  auto s = resolve_shard("slurm", env);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->index, 3u);
  EXPECT_EQ(s->count, 4u);
  vars = {{"SLURM_ARRAY_TASK_ID", "4"}, {"SLURM_ARRAY_TASK_COUNT", "4"}};
  EXPECT_EQ(error_of("slurm"),
            "'slurm' (SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT): '4/4': shards are numbered 0 "
            "to 3");

  EXPECT_NE(error_of("k8s/8").find("JOB_COMPLETION_INDEX"), std::string::npos);
  vars = {{"JOB_COMPLETION_INDEX", "5"}};
  s = resolve_shard("k8s/8", env);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->index, 5u);
  EXPECT_EQ(s->count, 8u);
  EXPECT_FALSE(resolve_shard("k8s/5", env));  // index 5 of 5 shards
  EXPECT_FALSE(resolve_shard("k8s/", env));
  // Plain K/N ignores the environment.
  s = resolve_shard("1/2", env);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->index, 1u);
}

// The claims N honest shards of `whole` would make.
std::vector<ShardClaim> honest_claims(const Plan& whole, std::uint32_t n) {
  std::vector<ShardClaim> claims;
  for (std::uint32_t k = 0; k < n; ++k) {
    const Plan shard = shard_plan(whole, {k, n});
    ShardClaim c{"shard-" + std::to_string(k), {k, n}, {}};
    for (const auto& r : shard.runs) c.run_ids.push_back(run_id(shard, r));
    claims.push_back(std::move(c));
  }
  return claims;
}

bool has(const std::vector<CoverageFinding>& findings, const std::string& code,
         const std::string& words) {
  for (const auto& f : findings) {
    if (f.code == code && f.message.find(words) != std::string::npos) return true;
  }
  return false;
}

std::string codes(const std::vector<CoverageFinding>& findings) {
  std::string out;
  for (const auto& f : findings) out += f.code + ": " + f.message + "\n";
  return out;
}

TEST(ShardCoverage, honest_shards_cover_the_plan_and_each_fault_is_named) {
  const Plan whole = make_plan(test::random_matrix(3), {}, kWideHost);
  ASSERT_GE(whole.blocks.size(), 4u);
  const auto claims = honest_claims(whole, 4);
  EXPECT_TRUE(check_shard_coverage(whole, claims).empty())
      << codes(check_shard_coverage(whole, claims));

  auto missing = claims;
  missing.erase(missing.begin() + 2);
  EXPECT_TRUE(has(check_shard_coverage(whole, missing), "merge.missing_shard", "shard 2/4"))
      << codes(check_shard_coverage(whole, missing));

  auto duplicated = claims;
  duplicated.push_back(claims[1]);
  duplicated.back().source = "copy-of-1";
  EXPECT_TRUE(has(check_shard_coverage(whole, duplicated), "merge.duplicate_shard", "copy-of-1"));

  auto other_n = claims;
  other_n[3].spec.count = 5;
  EXPECT_TRUE(has(check_shard_coverage(whole, other_n), "merge.shard_count", "shard-3"));

  auto lost = claims;
  ASSERT_FALSE(lost[0].run_ids.empty());
  const std::string dropped = lost[0].run_ids.back();
  lost[0].run_ids.pop_back();
  EXPECT_TRUE(has(check_shard_coverage(whole, lost), "merge.missing_run", dropped));

  auto foreign = claims;
  foreign[1].run_ids.push_back("w99.cold.writer.nowhere.baseline.r1");
  EXPECT_TRUE(has(check_shard_coverage(whole, foreign), "merge.unplanned_run", "w99"));

  auto swapped = claims;
  swapped[1].run_ids.push_back(claims[0].run_ids.front());
  EXPECT_TRUE(has(check_shard_coverage(whole, swapped), "merge.wrong_shard_run",
                  claims[0].run_ids.front()));

  auto twice = claims;
  twice[2].run_ids.push_back(twice[2].run_ids.front());
  EXPECT_TRUE(has(check_shard_coverage(whole, twice), "merge.duplicate_run", "shard-2"));
}

}  // namespace
}  // namespace jbench
