// The Mann–Whitney U test (Wilcoxon rank-sum) of two independent samples: does one tend to be
// larger than the other? It compares ranks, not means, so one outlying repetition (a noisy
// neighbour, a page-cache miss) moves it by one rank, not by its size.
//
//   RankTest t = mann_whitney_u(base_throughputs, candidate_throughputs);
//   if (t.p_two_sided < 0.05) ...     // t.u counts pairs (a, b) with a > b, ties as halves
//
// The p-value is exact (the null distribution of U counted over every split of the pooled
// ranks) when there are no ties and the product of the sizes is at most kExactLimit; otherwise
// it is the normal approximation with the tie correction of the variance and a continuity
// correction of 0.5 — the two methods of scipy.stats.mannwhitneyu (method="exact" and
// method="asymptotic", use_continuity=True), against which the tests check it. Pure.
#pragma once

#include <cstddef>
#include <span>

namespace jbench::stats {

inline constexpr std::size_t kExactLimit = 2'500;  // n1 × n2 (50 × 50): the count takes O(n1² n2²)

enum class RankMethod { automatic, exact, asymptotic };

struct RankTest {
  double u = 0;            // U of the first sample
  double p_two_sided = 1;  // 1 when either sample is empty
  bool exact = false;      // which method gave p
  double z = 0;            // the standardized U (asymptotic method; 0 for exact)
};

RankTest mann_whitney_u(std::span<const double> a, std::span<const double> b,
                        RankMethod method = RankMethod::automatic);

// The standard normal distribution: its CDF and its quantile (inverse CDF, 0 < p < 1).
double normal_cdf(double z);
double normal_quantile(double p);

}  // namespace jbench::stats
