// The tests a comparison rests on, against an independent implementation: the Mann–Whitney U
// statistic and its exact and asymptotic p-values against scipy.stats.mannwhitneyu, and
// Benjamini–Hochberg against a transcription of R's p.adjust — values computed once by
// tests/fixtures/stats/make_reference.py and checked in. Plus properties no table shows.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "jbench/common/random.h"
#include "jbench/stats/fdr.h"
#include "jbench/stats/power.h"
#include "jbench/stats/rank_test.h"
#include "normal_draw.h"

namespace jbench::stats {
namespace {

nlohmann::json reference(const std::string& name) {
  std::ifstream in(std::string(JBENCH_SOURCE_DIR) + "/tests/fixtures/stats/" + name);
  return nlohmann::json::parse(in);
}

TEST(RankTest, matches_scipy_on_every_reference_case) {
  nlohmann::json cases = reference("rank_test_reference.json")["cases"];
  ASSERT_GE(cases.size(), 40u);
  std::size_t exact = 0;
  for (const auto& c : cases) {
    std::vector<double> a = c["a"], b = c["b"];
    RankMethod m = c["method"] == "exact" ? RankMethod::exact : RankMethod::asymptotic;
    RankTest t = mann_whitney_u(a, b, m);
    EXPECT_DOUBLE_EQ(t.u, c["u"].get<double>()) << c.dump();
    EXPECT_NEAR(t.p_two_sided, c["p"].get<double>(), 1e-9 + 1e-7 * c["p"].get<double>())
        << c.dump();
    exact += t.exact;
  }
  EXPECT_GT(exact, 15u);
}

TEST(RankTest, automatic_is_exact_without_ties_and_asymptotic_with_them) {
  EXPECT_TRUE(mann_whitney_u(std::vector<double>{1, 2, 3}, std::vector<double>{4, 5, 6}).exact);
  EXPECT_FALSE(mann_whitney_u(std::vector<double>{1, 2, 2}, std::vector<double>{4, 5, 6}).exact);
  // Identical samples: no evidence at all.
  RankTest same = mann_whitney_u(std::vector<double>{3, 3, 3}, std::vector<double>{3, 3, 3});
  EXPECT_EQ(same.p_two_sided, 1.0);
  EXPECT_EQ(mann_whitney_u(std::vector<double>{}, std::vector<double>{1}).p_two_sided, 1.0);
}

TEST(RankTest, is_symmetric_and_a_level_test_under_the_null) {
  SplitMix64 rng(7);
  auto draw = [&] { return static_cast<double>(rng.below(1'000'000)) / 1000.0; };
  std::size_t rejected = 0;
  const std::size_t trials = 2000;
  for (std::size_t i = 0; i < trials; ++i) {
    std::vector<double> a(6), b(6);
    for (double& x : a) x = draw();
    for (double& x : b) x = draw();
    RankTest ab = mann_whitney_u(a, b), ba = mann_whitney_u(b, a);
    ASSERT_NEAR(ab.p_two_sided, ba.p_two_sided, 1e-12);
    ASSERT_DOUBLE_EQ(ab.u + ba.u, 36.0);
    rejected += ab.p_two_sided <= 0.05;
  }
  // Exact and discrete: at most 5% (n = 6 + 6 reaches 4.1%), give or take binomial noise.
  EXPECT_LE(rejected, trials * 6 / 100);
  EXPECT_GE(rejected, trials * 2 / 100);
}

TEST(NormalDistribution, quantile_inverts_the_cdf) {
  for (double p : {1e-10, 0.001, 0.025, 0.2, 0.5, 0.8, 0.975, 0.999, 1 - 1e-10}) {
    EXPECT_NEAR(normal_cdf(normal_quantile(p)), p, 1e-12 + 1e-9 * p) << p;
  }
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-12);
}

TEST(BenjaminiHochberg, matches_the_reference_transcription) {
  for (const auto& c : reference("bh_reference.json")["cases"]) {
    std::vector<double> p = c["p"], want = c["q"];
    std::vector<double> q = bh_adjust(p);
    ASSERT_EQ(q.size(), want.size());
    for (std::size_t i = 0; i < q.size(); ++i) EXPECT_NEAR(q[i], want[i], 1e-15) << i;
  }
}

TEST(BenjaminiHochberg, keeps_the_false_discovery_rate_over_many_null_matrices) {
  // 200 comparisons of which 180 are null (uniform p) and 20 real (tiny p), 500 times: the share
  // of false ones among the discoveries at q = 0.05 stays at or below 0.05 × 180/200.
  SplitMix64 rng(11);
  double false_share = 0;
  for (int rep = 0; rep < 500; ++rep) {
    std::vector<double> p(200);
    for (std::size_t i = 0; i < p.size(); ++i) {
      double u = (static_cast<double>(rng.below(1'000'000)) + 0.5) / 1e6;
      p[i] = i < 20 ? u * 1e-4 : u;
    }
    std::vector<double> q = bh_adjust(p);
    std::size_t found = 0, wrong = 0;
    for (std::size_t i = 0; i < q.size(); ++i) {
      if (q[i] <= 0.05) {
        ++found;
        wrong += i >= 20;
      }
    }
    false_share += found ? static_cast<double>(wrong) / static_cast<double>(found) : 0.0;
  }
  EXPECT_LE(false_share / 500, 0.05 * 180 / 200 + 0.01);
}

TEST(Power, the_detectable_change_and_the_repetitions_needed_agree) {
  // With cv 4% and 5 + 5 repetitions: (1.96 + 0.84) × 0.04 × √(2/5) / √(3/π) ≈ 7.25%.
  EXPECT_NEAR(minimum_detectable_change(0.04, 5, 5), 0.0725, 0.0005);
  // Asking for that change back gives those repetitions (rounded up).
  EXPECT_EQ(repetitions_needed(0.04, minimum_detectable_change(0.04, 5, 5)), 5u);
  EXPECT_GT(repetitions_needed(0.04, 0.02), repetitions_needed(0.04, 0.05));
  const double v[] = {10, 12, 8, 10};
  EXPECT_NEAR(coefficient_of_variation(v, 4), std::sqrt(8.0 / 3) / 10, 1e-12);
}

TEST(Power, the_formula_holds_up_in_simulation) {
  // Normal samples with cv 5% and a true 8% change, 8 + 8 repetitions: the rank test at 5%
  // detects it about as often as the formula says (its predicted power for this change).
  SplitMix64 rng(3);
  auto gauss = [&] { return test::normal_draw(rng); };
  const std::size_t n = 8, trials = 2000;
  std::size_t seen = 0;
  for (std::size_t t = 0; t < trials; ++t) {
    std::vector<double> a(n), b(n);
    for (double& x : a) x = 100 * (1 + 0.05 * gauss());
    for (double& x : b) x = 108 * (1 + 0.05 * gauss());
    seen += mann_whitney_u(a, b).p_two_sided <= 0.05;
  }
  // The change that gives 80% power with these repetitions is close to 8%.
  EXPECT_NEAR(minimum_detectable_change(0.05, n, n), 0.08, 0.01);
  EXPECT_NEAR(static_cast<double>(seen) / trials, 0.8, 0.08);
}

}  // namespace
}  // namespace jbench::stats
