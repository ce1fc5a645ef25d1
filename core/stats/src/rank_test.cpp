#include "jbench/stats/rank_test.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace jbench::stats {

namespace {

// Average ranks (1-based) of the pooled values; `tie_term` gets Σ(t³ − t) over tie groups.
std::vector<double> pooled_ranks(const std::vector<double>& pooled, double& tie_term) {
  std::vector<std::size_t> order(pooled.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return pooled[x] < pooled[y]; });
  std::vector<double> ranks(pooled.size());
  tie_term = 0;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i + 1;
    while (j < order.size() && pooled[order[j]] == pooled[order[i]]) ++j;
    const double average = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (std::size_t k = i; k < j; ++k) ranks[order[k]] = average;
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  return ranks;
}

// The number of arrangements of m first-sample and n second-sample ranks giving each U, over all
// C(m+n, m) arrangements: f(m, n, u) = f(m−1, n, u−n) + f(m, n−1, u), by whether the largest rank
// belongs to the first sample. Returned as probabilities.
std::vector<double> exact_u_distribution(std::size_t m, std::size_t n) {
  const std::size_t max_u = m * n;
  // table[j][u] for the current i (first-sample size), j second-sample size.
  std::vector<std::vector<double>> prev(n + 1), cur(n + 1);
  for (std::size_t j = 0; j <= n; ++j) prev[j].assign(1, 1.0);  // i = 0: U = 0 only
  for (std::size_t i = 1; i <= m; ++i) {
    cur[0].assign(1, 1.0);  // j = 0: U = 0 only
    for (std::size_t j = 1; j <= n; ++j) {
      std::vector<double>& row = cur[j];
      row.assign(i * j + 1, 0.0);
      // The largest rank in the first sample: it beats all j of the second.
      for (std::size_t u = 0; u < prev[j].size(); ++u) row[u + j] += prev[j][u];
      // The largest rank in the second sample.
      for (std::size_t u = 0; u < cur[j - 1].size(); ++u) row[u] += cur[j - 1][u];
    }
    std::swap(prev, cur);
  }
  std::vector<double> counts = prev[n];
  counts.resize(max_u + 1, 0.0);
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  for (double& c : counts) c /= total;
  return counts;
}

}  // namespace

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

double normal_quantile(double p) {
  // Acklam's rational approximation, then one Halley step against normal_cdf: |error| < 1e-12.
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549732539343734e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137142996e+00, 3.754408661907416e+00};
  double x;
  if (p < 0.02425) {
    double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p > 1 - 0.02425) {
    double q = std::sqrt(-2 * std::log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  const double e = normal_cdf(x) - p;
  const double u = e * std::sqrt(2 * M_PI) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

RankTest mann_whitney_u(std::span<const double> a, std::span<const double> b, RankMethod method) {
  RankTest t;
  const std::size_t n1 = a.size(), n2 = b.size();
  if (n1 == 0 || n2 == 0) return t;
  std::vector<double> pooled(a.begin(), a.end());
  pooled.insert(pooled.end(), b.begin(), b.end());
  double tie_term = 0;
  std::vector<double> ranks = pooled_ranks(pooled, tie_term);
  const double r1 =
      std::accumulate(ranks.begin(), ranks.begin() + static_cast<std::ptrdiff_t>(n1), 0.0);
  const double m = static_cast<double>(n1), n = static_cast<double>(n2);
  t.u = r1 - m * (m + 1) / 2;
  const bool ties = tie_term > 0;
  const bool exact = method == RankMethod::exact ||
                     (method == RankMethod::automatic && !ties && n1 * n2 <= kExactLimit);
  if (exact) {
    std::vector<double> pmf = exact_u_distribution(n1, n2);
    const auto k = static_cast<std::size_t>(std::llround(t.u));
    double below = 0, above = 0;
    for (std::size_t u = 0; u < pmf.size(); ++u) {
      if (u <= k) below += pmf[u];
      if (u >= k) above += pmf[u];
    }
    t.exact = true;
    t.p_two_sided = std::min(1.0, 2 * std::min(below, above));
    return t;
  }
  const double mean = m * n / 2;
  const double total = m + n;
  const double variance = m * n / 12 * ((total + 1) - tie_term / (total * (total - 1)));
  if (variance <= 0) return t;  // every value equal: no evidence either way
  // Continuity correction towards the mean, as scipy does (use_continuity=True).
  const double diff = t.u - mean;
  const double corrected = diff > 0 ? diff - 0.5 : (diff < 0 ? diff + 0.5 : 0);
  t.z = corrected / std::sqrt(variance);
  t.p_two_sided = std::min(1.0, 2 * normal_cdf(-std::fabs(t.z)));
  return t;
}

}  // namespace jbench::stats
