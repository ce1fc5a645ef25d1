// The paired test of counted metrics (docs/compare.md, "Counted metrics"): each candidate run is
// matched with the base run of the same seed, which executed the same operations, so the ratio of
// a pair is the change alone, whatever the host did. On log ratios (a change of ×1.01 and one of
// ×0.99 weigh the same): the mean, Student's t test that it is 0, the 95% interval, and the
// smallest change these pairs could see at 80% power. Pure.
//
//   PairedTest t = paired_log_ratio_test(ratios);   // ratios: candidate / base, one per pair
//   t.ratio;  t.ci_low..t.ci_high;  t.p_two_sided;  t.detectable
#pragma once

#include <cstddef>
#include <span>

namespace jbench::stats {

struct PairedTest {
  std::size_t pairs = 0;
  double ratio = 1;   // exp(mean log ratio): the geometric mean of the ratios
  double sd_log = 0;  // the spread of the log ratios
  double p_two_sided = 1;
  double ci_low = 1;  // exp(mean ± t(0.975, n-1) sd / √n); [ratio, ratio] when sd is 0
  double ci_high = 1;
  double detectable = 0;  // relative: exp((t(0.975) + z(0.8)) sd / √n) - 1
};

// At least two ratios, each > 0; fewer (or a ratio ≤ 0) gives pairs = 0 and p = 1. Ratios that
// are all equal have sd 0: p is 1 when they are 1 and 0 otherwise (a shift with no noise at all).
PairedTest paired_log_ratio_test(std::span<const double> ratios);

// Student's t distribution with `df` degrees of freedom: its CDF and its quantile (0 < p < 1).
double student_t_cdf(double t, double df);
double student_t_quantile(double p, double df);

// Pairs needed to see a change of `change` (relative) with the log-ratio spread `sd_log`, at the
// two-sided 5% level and 80% power (normal approximation); at least 2.
std::size_t pairs_needed(double sd_log, double change);

}  // namespace jbench::stats
