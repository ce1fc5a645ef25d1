#include "jbench/stats/paired_test.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace jbench::stats {
namespace {

TEST(StudentT, matches_published_values) {
  // scipy.stats.t.cdf / t.ppf
  EXPECT_NEAR(student_t_cdf(2.0, 5), 0.9490302605850709, 1e-9);
  EXPECT_NEAR(student_t_cdf(-1.0, 2), 0.21132486540518713, 1e-9);
  EXPECT_NEAR(student_t_cdf(0.0, 7), 0.5, 1e-12);
  EXPECT_NEAR(student_t_quantile(0.975, 1), 12.706204736174696, 1e-6);
  EXPECT_NEAR(student_t_quantile(0.975, 4), 2.7764451051977987, 1e-6);
  EXPECT_NEAR(student_t_quantile(0.975, 30), 2.0422724563012373, 1e-6);
}

TEST(PairedLogRatio, a_shift_of_one_percent_over_little_noise_is_found) {
  const std::vector<double> ratios = {1.0101, 1.0098, 1.0103, 1.0100};
  const PairedTest t = paired_log_ratio_test(ratios);
  EXPECT_EQ(t.pairs, 4u);
  EXPECT_NEAR(t.ratio, 1.01005, 1e-4);
  EXPECT_LT(t.p_two_sided, 1e-4);
  EXPECT_GT(t.ci_low, 1.009);
  EXPECT_LT(t.ci_high, 1.011);
  EXPECT_LT(t.detectable, 0.001);
}

TEST(PairedLogRatio, identical_pairs_are_no_change_and_a_noiseless_shift_is_certain) {
  const std::vector<double> same = {1, 1, 1};
  const PairedTest a = paired_log_ratio_test(same);
  EXPECT_EQ(a.p_two_sided, 1);
  EXPECT_EQ(a.ci_low, 1);
  EXPECT_EQ(a.ci_high, 1);
  EXPECT_EQ(a.detectable, 0);
  const std::vector<double> shifted = {1.02, 1.02, 1.02};
  const PairedTest b = paired_log_ratio_test(shifted);
  EXPECT_EQ(b.p_two_sided, 0);
  EXPECT_NEAR(b.ratio, 1.02, 1e-12);
}

TEST(PairedLogRatio, noise_larger_than_the_shift_is_not_significant) {
  const std::vector<double> ratios = {1.05, 0.96, 1.03, 0.98};
  const PairedTest t = paired_log_ratio_test(ratios);
  EXPECT_GT(t.p_two_sided, 0.3);
  EXPECT_LT(t.ci_low, 1);
  EXPECT_GT(t.ci_high, 1);
  EXPECT_GT(t.detectable, 0.04);
  EXPECT_GT(pairs_needed(t.sd_log, 0.01), 10u);
}

TEST(PairedLogRatio, too_few_or_impossible_ratios_are_no_test) {
  EXPECT_EQ(paired_log_ratio_test(std::vector<double>{1.01}).pairs, 0u);
  EXPECT_EQ(paired_log_ratio_test(std::vector<double>{1.01, 0}).pairs, 0u);
  EXPECT_EQ(paired_log_ratio_test(std::vector<double>{1.01, -2}).p_two_sided, 1);
}

}  // namespace
}  // namespace jbench::stats
