#include "jbench/overhead_report/overhead.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "jbench/common/random.h"
#include "jbench/stats/median.h"

namespace jbench::overhead_report {
namespace {

RunFacts run(std::string cell, std::string workers, std::string trace, std::size_t block,
             std::size_t order, double throughput, std::string status = "ok") {
  RunFacts r;
  r.cell = std::move(cell);
  r.id = r.cell + "." + trace + ".r" + std::to_string(block);
  r.trace = *trace_mode_from_name(trace);
  r.block = block;
  r.order = order;
  r.status = run_status_from_name(status);
  r.throughput = throughput;
  r.values = {{"workers", std::move(workers)}, {"lane", "writer"}};
  return r;
}

// The one median every report and comparison quotes (jbench/stats/median.h), against a sort.
TEST(Median, MiddleValueOrMeanOfTheMiddlePair) {
  using stats::median;
  EXPECT_FALSE(median({}));
  EXPECT_DOUBLE_EQ(*median({7}), 7);
  EXPECT_DOUBLE_EQ(*median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(*median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(*median({5, 5, 1, 9}), 5);
  SplitMix64 rng(11);
  for (std::size_t n = 1; n < 40; ++n) {
    std::vector<double> v(n);
    for (auto& x : v) x = static_cast<double>(rng.below(1000)) - 500;
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    const double expected = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    EXPECT_DOUBLE_EQ(*median(v), expected) << n;
  }
}

TEST(Overhead, PairsEachModeWithTheBaselineOfItsOwnBlock) {
  std::vector<RunFacts> runs;
  // Block k: baseline 1000 + k, light 10% slower than *its own* baseline. Pairing across
  // blocks would give other ratios.
  for (std::size_t k = 0; k < 5; ++k) {
    const double base = 1000.0 + 100.0 * static_cast<double>(k);
    const bool light_first = k % 2 == 0;
    runs.push_back(run("w1", "1", "baseline", k, 2 * k + (light_first ? 1 : 0), base));
    runs.push_back(run("w1", "1", "light", k, 2 * k + (light_first ? 0 : 1), base / 1.1));
  }
  const auto r = compute_overhead(runs);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].pairs, 5u);
  EXPECT_EQ(r.rows[0].mode_first, 3u);
  EXPECT_NEAR(*r.rows[0].median_ratio, 1.1, 1e-9);
  EXPECT_NEAR(*r.rows[0].ci_low, 1.1, 1e-9);
  EXPECT_NEAR(*r.rows[0].ci_high, 1.1, 1e-9);
}

TEST(Overhead, FailedRunsAreCountedUnpairedNeverPaired) {
  std::vector<RunFacts> runs = {
      run("w1", "1", "baseline", 0, 0, 1000),           run("w1", "1", "full", 0, 1, 500),
      run("w1", "1", "baseline", 1, 2, 1000, "failed"), run("w1", "1", "full", 1, 3, 900),
      run("w1", "1", "baseline", 2, 4, 1000),           run("w1", "1", "full", 2, 5, 0, "failed"),
  };
  const auto r = compute_overhead(runs);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].pairs, 1u);
  EXPECT_EQ(r.rows[0].unpaired, 2u);
  EXPECT_DOUBLE_EQ(*r.rows[0].median_ratio, 2.0);
  EXPECT_FALSE(r.rows[0].ci_low);  // one pair: no interval
}

TEST(Overhead, WarnsWhereABaselineEffectIsSmallerThanTheObserversCost) {
  std::vector<RunFacts> runs;
  for (std::size_t k = 0; k < 3; ++k) {
    // w1 vs w2 differ by 2% on baseline; full costs 30%, light 1%.
    runs.push_back(run("w1", "1", "baseline", k, 0, 1000));
    runs.push_back(run("w1", "1", "full", k, 1, 1000 / 1.3));
    runs.push_back(run("w1", "1", "light", k, 2, 1000 / 1.01));
    runs.push_back(run("w2", "2", "baseline", 10 + k, 0, 1020));
    runs.push_back(run("w2", "2", "full", 10 + k, 1, 1020 / 1.3));
    runs.push_back(run("w2", "2", "light", 10 + k, 2, 1020 / 1.01));
  }
  const auto r = compute_overhead(runs);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("full"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("axis workers"), std::string::npos) << r.warnings[0];
  const auto j = overhead_to_json(r);
  EXPECT_EQ(j["rows"].size(), 4u);
  EXPECT_EQ(j["warnings"].size(), 1u);
}

}  // namespace
}  // namespace jbench::overhead_report
