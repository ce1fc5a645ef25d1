#include "jbench/stats/power.h"

#include <cmath>

#include "jbench/stats/rank_test.h"

namespace jbench::stats {

namespace {

// The Mann–Whitney test needs π/3 times the repetitions the t-test would (normal data).
constexpr double kRankEfficiency = 3.0 / M_PI;

double z_sum(double alpha, double power) {
  return normal_quantile(1 - alpha / 2) + normal_quantile(power);
}

}  // namespace

double minimum_detectable_change(double cv, std::size_t n1, std::size_t n2, double alpha,
                                 double power) {
  if (n1 == 0 || n2 == 0) return INFINITY;
  const double spread = std::sqrt(1.0 / static_cast<double>(n1) + 1.0 / static_cast<double>(n2));
  return z_sum(alpha, power) * cv * spread / std::sqrt(kRankEfficiency);
}

std::size_t repetitions_needed(double cv, double change, double alpha, double power) {
  if (change <= 0) return 0;
  const double z = z_sum(alpha, power);
  const double n = 2 * z * z * cv * cv / (change * change) / kRankEfficiency;
  return static_cast<std::size_t>(std::ceil(std::max(n, 2.0)));
}

double coefficient_of_variation(const double* values, std::size_t n) {
  if (n < 2) return 0;
  double mean = 0;
  for (std::size_t i = 0; i < n; ++i) mean += values[i];
  mean /= static_cast<double>(n);
  if (mean == 0) return 0;
  double ss = 0;
  for (std::size_t i = 0; i < n; ++i) ss += (values[i] - mean) * (values[i] - mean);
  return std::sqrt(ss / static_cast<double>(n - 1)) / std::fabs(mean);
}

}  // namespace jbench::stats
