// The one resampler (jbench/stats/bootstrap.h): its intervals hold the statistic, are the same for
// the same seed, narrow with more data and widen when sessions disagree, and read the percentiles
// it promises.
#include "jbench/stats/bootstrap.h"

#include <gtest/gtest.h>

#include <vector>

#include "jbench/common/random.h"
#include "jbench/stats/median.h"

namespace jbench::stats {
namespace bootstrap {

std::vector<double> draws(std::uint64_t seed, int n, double centre) {
  SplitMix64 rng(seed);
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(centre * (1.0 + static_cast<double>(rng.below(1000)) / 10000.0));
  }
  return out;
}

TEST(Bootstrap, the_median_interval_holds_the_median_is_reproducible_and_narrows_with_more_data) {
  const std::vector<double> large = draws(5, 2000, 1.0);
  const std::vector<double> small(large.begin(), large.begin() + 10);
  const auto a = median_interval(small, 2000, 1);
  const auto b = median_interval(small, 2000, 1);
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, *b);
  EXPECT_LE(a->first, *median(small));
  EXPECT_GE(a->second, *median(small));
  const auto wide = median_interval(large, 2000, 1);
  EXPECT_LT(wide->second - wide->first, a->second - a->first);
  EXPECT_FALSE(median_interval({1.0}, 2000, 1));
  EXPECT_FALSE(median_interval(small, 0, 1));
}

TEST(Bootstrap, the_percentile_interval_reads_the_2_5th_and_97_5th_of_the_sorted_values) {
  std::vector<double> values;
  for (int i = 1000; i >= 0; --i) values.push_back(i);  // 0..1000, given in reverse
  const auto [lo, hi] = percentile_interval(values);
  EXPECT_EQ(lo, 25.0);   // floor(0.025 * 1000)
  EXPECT_EQ(hi, 975.0);  // floor(0.975 * 1000)
}

TEST(Bootstrap, indices_are_drawn_with_replacement_the_same_for_the_same_seed) {
  const auto a = resample_indices(7, 300, 42);
  ASSERT_EQ(a.size(), 300u);
  EXPECT_EQ(a, resample_indices(7, 300, 42));
  EXPECT_NE(a, resample_indices(7, 300, 43));
  bool repeated = false;
  for (const auto& draw : a) {
    ASSERT_EQ(draw.size(), 7u);
    for (std::size_t i : draw) EXPECT_LT(i, 7u);
    for (std::size_t i = 1; i < draw.size(); ++i) repeated = repeated || draw[i] == draw[0];
  }
  EXPECT_TRUE(repeated);  // with replacement: some draw repeats a unit
  EXPECT_TRUE(resample_indices(1, 300, 42).empty());
}

TEST(Bootstrap, the_ratio_interval_holds_a_planted_ratio) {
  const std::vector<double> base = draws(1, 30, 100.0), cand = draws(2, 30, 110.0);
  const auto [lo, hi] = median_ratio_interval({base}, {cand}, 2000, 9);
  const double ratio = *median(cand) / *median(base);
  EXPECT_LE(lo, ratio);
  EXPECT_GE(hi, ratio);
  EXPECT_GT(lo, 1.0);
  EXPECT_EQ(median_ratio_interval({base}, {cand}, 2000, 9), std::make_pair(lo, hi));
}

TEST(Bootstrap, sessions_that_disagree_widen_the_ratio_interval_runs_alone_would_not) {
  // Three sessions a side whose levels differ by 5%: the same runs pooled as one unit ignore that.
  std::vector<std::vector<double>> base, cand;
  std::vector<double> base_pooled, cand_pooled;
  for (int s = 0; s < 3; ++s) {
    base.push_back(draws(10 + s, 10, 100.0 * (1.0 + 0.05 * s)));
    cand.push_back(draws(20 + s, 10, 100.0 * (1.0 + 0.05 * (2 - s))));
    base_pooled.insert(base_pooled.end(), base.back().begin(), base.back().end());
    cand_pooled.insert(cand_pooled.end(), cand.back().begin(), cand.back().end());
  }
  const auto [slo, shi] = median_ratio_interval(base, cand, 2000, 3);
  const auto [rlo, rhi] = median_ratio_interval({base_pooled}, {cand_pooled}, 2000, 3);
  EXPECT_GT(shi - slo, rhi - rlo);
}

TEST(Bootstrap, a_base_whose_median_is_zero_gives_no_ratio) {
  EXPECT_EQ(median_ratio_interval({{0.0, 0.0}}, {{1.0, 2.0}}, 100, 1), std::make_pair(0.0, 0.0));
}

}  // namespace bootstrap
}  // namespace jbench::stats
