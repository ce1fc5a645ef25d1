#include "jbench/stats/paired_test.h"

#include <cmath>

#include "jbench/stats/rank_test.h"

namespace jbench::stats {
namespace {

// The continued fraction of the regularized incomplete beta function (modified Lentz).
double beta_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    c = 1 + aa / c;
    if (std::fabs(d) < kTiny) d = kTiny;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    c = 1 + aa / c;
    if (std::fabs(d) < kTiny) d = kTiny;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1) < 1e-15) break;
  }
  return h;
}

// I_x(a, b).
double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * beta_fraction(a, b, x) / a;
  return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

}  // namespace

double student_t_cdf(double t, double df) {
  const double tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
  return t >= 0 ? 1 - tail : tail;
}

double student_t_quantile(double p, double df) {
  double lo = -1e6, hi = 1e6;  // bisection: the CDF is monotone, 200 halvings are exact enough
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (student_t_cdf(mid, df) < p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

PairedTest paired_log_ratio_test(std::span<const double> ratios) {
  PairedTest t;
  if (ratios.size() < 2) return t;
  double sum = 0;
  for (double r : ratios) {
    if (!(r > 0)) return t;
    sum += std::log(r);
  }
  const double n = static_cast<double>(ratios.size());
  const double mean = sum / n;
  double squares = 0;
  for (double r : ratios) squares += (std::log(r) - mean) * (std::log(r) - mean);
  t.pairs = ratios.size();
  t.sd_log = std::sqrt(squares / (n - 1));
  t.ratio = std::exp(mean);
  const double se = t.sd_log / std::sqrt(n);
  const double t_crit = student_t_quantile(0.975, n - 1);
  t.ci_low = std::exp(mean - t_crit * se);
  t.ci_high = std::exp(mean + t_crit * se);
  t.detectable = std::exp((t_crit + normal_quantile(0.8)) * se) - 1;
  if (se == 0) {
    t.p_two_sided = mean == 0 ? 1 : 0;
  } else {
    t.p_two_sided = 2 * (1 - student_t_cdf(std::fabs(mean / se), n - 1));
  }
  return t;
}

std::size_t pairs_needed(double sd_log, double change) {
  if (!(change > 0)) return 2;
  const double z = normal_quantile(0.975) + normal_quantile(0.8);
  const double n = std::ceil(std::pow(z * sd_log / std::log1p(change), 2));
  return n < 2 ? 2 : static_cast<std::size_t>(n);
}

}  // namespace jbench::stats
