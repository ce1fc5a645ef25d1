// Properties of make_plan() that must hold for every matrix, checked on the examples and on
// a few hundred seeded random matrices.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "jbench/common/random.h"
#include "jbench/plan/plan.h"
#include "jbench/plan/plan_output.h"
#include "matrix_text.h"
#include "random_matrix.h"
#include "test_hosts.h"

namespace jbench {
namespace {

std::uint64_t brute_force_cells(const Matrix& m) {
  // Every combination of the declared axes' values, by recursion over the axes: an axis without
  // labels is absent from every cell.
  std::uint64_t count = 0;
  CellValues v{};
  const auto excluded = [&] {
    for (const auto& rule : m.excludes) {
      bool match = true;
      for (std::size_t a = 0; a < kAxisCount; ++a) {
        const auto& vals = rule.values[a];
        if (!vals.empty() && std::find(vals.begin(), vals.end(), v[a]) == vals.end()) {
          match = false;
        }
      }
      if (match) return true;
    }
    return false;
  };
  const auto walk = [&](const auto& self, std::size_t a) -> void {
    if (a == kAxisCount) {
      count += excluded() ? 0 : 1;
      return;
    }
    const auto n = m.axes[a].labels.size();
    if (n == 0) {
      v[a] = kAbsent;
      self(self, a + 1);
      return;
    }
    for (v[a] = 0; v[a] < n; ++v[a]) self(self, a + 1);
  };
  walk(walk, 0);
  return count;
}

bool has_baseline(const Matrix& m) {
  return std::find(m.trace_modes.begin(), m.trace_modes.end(), TraceMode::baseline) !=
         m.trace_modes.end();
}

TEST(PlanProperties, run_count_is_cells_times_repetitions_plus_implicit_baselines) {
  for (std::uint64_t s = 0; s < 300; ++s) {
    const Matrix m = test::random_matrix(s);
    const Plan plan = make_plan(m, {}, kWideHost);
    const std::uint64_t cells = brute_force_cells(m);
    ASSERT_EQ(plan.counts.cells, cells) << "seed " << s;
    ASSERT_EQ(plan.counts.product - plan.counts.excluded, cells);
    const std::uint64_t points = cells / m.trace_modes.size();
    const std::uint64_t per_block = m.trace_modes.size() + (has_baseline(m) ? 0 : 1);
    ASSERT_EQ(plan.counts.blocks, points * m.repetitions) << "seed " << s;
    ASSERT_EQ(plan.counts.runs, points * m.repetitions * per_block) << "seed " << s;
    ASSERT_EQ(plan.runs.size(), plan.counts.runs);
  }
}

TEST(PlanProperties, every_block_holds_exactly_one_baseline_and_runs_back_to_back) {
  for (std::uint64_t s = 0; s < 300; ++s) {
    const Plan plan = make_plan(test::random_matrix(s), {}, kWideHost);
    std::uint32_t next_run = 0;
    for (std::size_t b = 0; b < plan.blocks.size(); ++b) {
      const Block& block = plan.blocks[b];
      ASSERT_EQ(block.first_run, next_run);
      next_run += block.run_count;
      int baselines = 0;
      std::set<TraceMode> modes;
      for (std::uint32_t i = 0; i < block.run_count; ++i) {
        const auto& run = plan.runs[block.first_run + i];
        ASSERT_EQ(run.block, b);
        modes.insert(run.trace);
        baselines += run.trace == TraceMode::baseline ? 1 : 0;
        if (!run.implicit) {
          // The run's cell is the block's point with the run's trace mode.
          CellValues expected = block.point;
          expected[static_cast<std::size_t>(Axis::trace)] =
              plan.cells[run.cell].values[static_cast<std::size_t>(Axis::trace)];
          ASSERT_EQ(plan.cells[run.cell].values, expected);
        }
      }
      ASSERT_EQ(baselines, 1) << "seed " << s << " block " << b;
      ASSERT_EQ(modes.size(), block.run_count) << "a mode twice in one block";
    }
    ASSERT_EQ(next_run, plan.runs.size());
  }
}

TEST(PlanProperties, the_same_inputs_give_byte_identical_json) {
  for (std::uint64_t s = 0; s < 20; ++s) {
    const Matrix m = test::random_matrix(s);
    EXPECT_EQ(plan_to_json(make_plan(m, {}, kWideHost)), plan_to_json(make_plan(m, {}, kWideHost)));
  }
}

std::map<std::string, std::uint64_t> seeds_by_block(const Plan& plan) {
  std::map<std::string, std::uint64_t> seeds;
  for (const auto& b : plan.blocks) {
    seeds[point_id(*plan.matrix, b.point) + "#" + std::to_string(b.repetition)] = b.seed;
  }
  return seeds;
}

TEST(PlanProperties, seeds_do_not_change_when_an_axis_grows) {
  const Matrix small = test::must_parse(test::matrix_yaml());
  std::string grown_yaml = test::matrix_yaml();
  grown_yaml.replace(grown_yaml.find("[1, 2, 4]"), 9, "[1, 2, 3, 4]");
  grown_yaml.replace(grown_yaml.find("[cold, persistent]"), 18, "[persistent, cold]");
  const Matrix grown = test::must_parse(grown_yaml);
  const auto before = seeds_by_block(make_plan(small, {}, kWideHost));
  const auto after = seeds_by_block(make_plan(grown, {}, kWideHost));
  ASSERT_GT(after.size(), before.size());
  for (const auto& [block, seed] : before) {
    ASSERT_TRUE(after.count(block)) << block;
    EXPECT_EQ(after.at(block), seed) << block;
  }
}

TEST(PlanProperties, block_seeds_are_distinct_and_follow_the_matrix_seed) {
  Matrix m = test::must_parse(test::matrix_yaml());
  const auto seeds = seeds_by_block(make_plan(m, {}, kWideHost));
  std::set<std::uint64_t> distinct;
  for (const auto& [block, seed] : seeds) distinct.insert(seed);
  EXPECT_EQ(distinct.size(), seeds.size());
  m.seed += 1;
  const auto reseeded = seeds_by_block(make_plan(m, {}, kWideHost));
  for (const auto& [block, seed] : seeds) EXPECT_NE(reseeded.at(block), seed) << block;
}

TEST(PlanProperties, the_order_seed_moves_runs_but_not_workload_seeds) {
  Matrix m = test::must_parse(test::matrix_yaml());
  const Plan a = make_plan(m, {}, kWideHost);
  m.ordering.seed += 1;
  const Plan b = make_plan(m, {}, kWideHost);
  EXPECT_EQ(seeds_by_block(a), seeds_by_block(b));
  std::vector<std::string> ids_a, ids_b;
  for (const auto& r : a.runs) ids_a.push_back(run_id(a, r));
  for (const auto& r : b.runs) ids_b.push_back(run_id(b, r));
  EXPECT_NE(ids_a, ids_b);
  std::sort(ids_a.begin(), ids_a.end());
  std::sort(ids_b.begin(), ids_b.end());
  EXPECT_EQ(ids_a, ids_b);
}

TEST(PlanProperties, declared_order_follows_the_matrix) {
  Matrix m = test::must_parse(test::matrix_yaml());
  m.ordering.shuffle_blocks = false;
  m.ordering.modes = ModeOrder::declared;
  const Plan plan = make_plan(m, {}, kWideHost);
  EXPECT_EQ(run_id(plan, plan.runs[0]), "w1.cold.writer.small.baseline.r1");
  EXPECT_EQ(run_id(plan, plan.runs[1]), "w1.cold.writer.small.no-consumer.r1");
  EXPECT_EQ(run_id(plan, plan.runs[4]), "w1.cold.writer.small.baseline.r2");
  EXPECT_EQ(run_id(plan, plan.runs.back()), "w4.persistent.mixed.large.full.r2");
}

// Balanced (the default): over each group of k repetitions of a point, every one of its k modes
// runs in every position of the block exactly once; a short last group is as balanced as its size
// allows (no position twice for one mode). Shuffled blocks give no such guarantee.
TEST(PlanProperties, balanced_modes_take_every_position_once_per_group_of_repetitions) {
  for (const int repetitions : {4, 8, 7}) {
    Matrix m = test::must_parse(test::matrix_yaml("", "", repetitions));
    ASSERT_EQ(m.ordering.modes, ModeOrder::balanced);
    const Plan plan = make_plan(m, {}, kWideHost);
    // (point, group, mode, position) -> times
    std::map<std::tuple<std::string, std::uint32_t, TraceMode, std::uint32_t>, int> seen;
    std::set<std::string> orders;
    for (const Block& b : plan.blocks) {
      const std::uint32_t k = b.run_count;
      std::string point, order;
      for (auto v : b.point) point += std::to_string(v) + ",";
      for (std::uint32_t pos = 0; pos < k; ++pos) {
        const jbench::Run& r = plan.runs[b.first_run + pos];
        ++seen[{point, b.repetition / k, r.trace, pos}];
        order += std::to_string(static_cast<int>(r.trace));
      }
      orders.insert(point + order);
    }
    for (const auto& [key, times] : seen) {
      EXPECT_EQ(times, 1) << "repetitions " << repetitions << ": a mode twice in one position";
    }
    // Complete groups cover every (mode, position): k × k entries each.
    const std::uint32_t k = plan.blocks.front().run_count;
    std::map<std::pair<std::string, std::uint32_t>, int> per_group;
    for (const auto& [key, times] : seen) ++per_group[{std::get<0>(key), std::get<1>(key)}];
    for (const auto& [group, entries] : per_group) {
      if (group.second < static_cast<std::uint32_t>(repetitions) / k) {
        EXPECT_EQ(entries, static_cast<int>(k * k));
      }
    }
    EXPECT_GT(orders.size(), plan.blocks.size() / 4) << "the orders are not random";
  }
  // The same matrix, shuffled: blocks are ordered independently, so some mode repeats a position
  // within a group somewhere in a matrix this size.
  Matrix shuffled = test::must_parse(test::matrix_yaml("", "", 4));
  shuffled.ordering.modes = ModeOrder::shuffled;
  const Plan plan = make_plan(shuffled, {}, kWideHost);
  std::map<std::tuple<std::string, TraceMode, std::uint32_t>, int> seen;
  int repeats = 0;
  for (const Block& b : plan.blocks) {
    std::string point;
    for (auto v : b.point) point += std::to_string(v) + ",";
    for (std::uint32_t pos = 0; pos < b.run_count; ++pos) {
      repeats += ++seen[{point, plan.runs[b.first_run + pos].trace, pos}] > 1;
    }
  }
  EXPECT_GT(repeats, 0);
}

TEST(PlanProperties, run_ids_are_unique) {
  const Plan plan = make_plan(test::must_parse(test::matrix_yaml()), {}, kWideHost);
  std::set<std::string> ids;
  for (const auto& r : plan.runs) ids.insert(run_id(plan, r));
  EXPECT_EQ(ids.size(), plan.runs.size());
}

TEST(PlanProperties, an_undeclared_baseline_is_added_to_every_block_and_marked_implicit) {
  std::string yaml = test::matrix_yaml();
  yaml.replace(yaml.find("[baseline, no-consumer, light, full]"), 36, "[full]");
  const Plan plan = make_plan(test::must_parse(yaml), {}, kWideHost);
  EXPECT_EQ(plan.counts.implicit_baselines, plan.counts.blocks);
  EXPECT_EQ(plan.counts.runs, 2 * plan.counts.blocks);
  for (const auto& r : plan.runs) EXPECT_EQ(r.implicit, r.trace == TraceMode::baseline);
  const auto& trace = plan.axes.back();
  ASSERT_EQ(trace.axis, Axis::trace);
  EXPECT_TRUE(trace.values[0].implicit);
  EXPECT_EQ(trace.values[0].state, PlanState::measured);
}

TEST(PlanProperties, workers_over_a_limit_are_skipped_with_the_reason) {
  std::string yaml = test::matrix_yaml();
  yaml.replace(yaml.find("max_workers: 64"), 15, "max_workers: 2");
  const Plan plan = make_plan(test::must_parse(yaml), {}, kWideHost);
  const auto& workers = plan.axes[0];
  EXPECT_EQ(workers.values[2].label, "4");
  EXPECT_EQ(workers.values[2].state, PlanState::skipped);
  EXPECT_EQ(workers.values[2].reason, "workers=4 is over limits.max_workers=2");
  EXPECT_EQ(workers.values[2].runs, 0u);
  EXPECT_EQ(plan.counts.cells, 3u * 2 * 3 * 2 * 4);  // skipped cells stay cells
  EXPECT_EQ(plan.counts.cells_by_state[2], 2u * 3 * 2 * 4);
}

TEST(PlanProperties, host_limits_skip_what_the_host_cannot_hold) {
  const std::string yaml = test::matrix_yaml("", "", 1);
  std::string limited = yaml;
  limited.replace(limited.find("output_mib: 8}"), 14,
                  "output_mib: 8, memory_per_worker_mib: 1000, workers_per_core: 1}");
  const Matrix m = test::must_parse(limited);
  const Plan small_host = make_plan(m, {}, HostResources{2, 100000});
  EXPECT_EQ(small_host.axes[0].values[2].state, PlanState::skipped);  // 4 workers > 1 x 2 cores
  EXPECT_NE(small_host.axes[0].values[2].reason.find("workers_per_core"), std::string::npos);
  const Plan low_memory = make_plan(m, {}, HostResources{8, 2500});
  EXPECT_EQ(low_memory.axes[0].values[1].state, PlanState::measured);  // 2 x 1000 MiB fits
  EXPECT_EQ(low_memory.axes[0].values[2].state, PlanState::skipped);   // 4 x 1000 MiB does not
  EXPECT_NE(low_memory.axes[0].values[2].reason.find("2500 MiB"), std::string::npos);
}

TEST(PlanProperties, excluded_values_end_skipped_with_the_rule_as_reason) {
  const Plan plan = make_plan(
      test::must_parse(test::matrix_yaml("", "exclude:\n  - {dataset: large}\n")), {}, kWideHost);
  const auto& dataset = plan.axes[3];
  EXPECT_EQ(dataset.values[1].state, PlanState::skipped);
  EXPECT_NE(dataset.values[1].reason.find("exclude"), std::string::npos);
  EXPECT_EQ(plan.counts.excluded, plan.counts.product / 2);
}

TEST(PlanProperties, every_axis_value_ends_in_exactly_one_consistent_state) {
  for (std::uint64_t s = 0; s < 200; ++s) {
    const Plan plan = make_plan(test::random_matrix(s), {}, kWideHost);
    for (const auto& axis : plan.axes) {
      for (const auto& v : axis.values) {
        if (v.state == PlanState::measured) {
          EXPECT_GT(v.runs, 0u) << axis_name(axis.axis) << "=" << v.label;
        } else {
          EXPECT_EQ(v.runs, 0u) << axis_name(axis.axis) << "=" << v.label;
          EXPECT_FALSE(v.reason.empty()) << axis_name(axis.axis) << "=" << v.label;
        }
      }
    }
  }
}

}  // namespace
}  // namespace jbench
