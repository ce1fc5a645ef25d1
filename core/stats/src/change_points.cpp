#include "jbench/stats/change_points.h"

#include <algorithm>
#include <cmath>

#include "jbench/stats/median.h"
#include "jbench/stats/rank_test.h"

namespace jbench::stats {

namespace {

double median_of(std::span<const double> v) {
  return median(std::vector<double>(v.begin(), v.end())).value_or(0);
}

struct Split {
  std::size_t at = 0;
  double q = -1;
};

// The split of x maximizing the energy statistic
//   Q(t) = t (n − t) / n · (2/(t (n−t)) B − 2/(t (t−1)) A_L − 2/((n−t)(n−t−1)) A_R),
// B the sum of |x_i − x_j| across the split, A_L and A_R within each side; O(n²) from the row
// sums S[i][k] = Σ_{j<k} |x_i − x_j|, updated one point at a time.
Split best_split(std::span<const double> x, std::size_t min_segment) {
  const std::size_t n = x.size();
  Split best;
  if (n < 2 * min_segment) return best;
  std::vector<double> row_total(n, 0.0);  // Σ_j |x_i − x_j|
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) row_total[i] += std::fabs(x[i] - x[j]);
  }
  double all = 0;
  for (double r : row_total) all += r;
  all /= 2;         // W: every unordered pair once
  double left = 0;  // A_L for the split at t
  double right = all;
  // Moving point t−1 from the right side to the left.
  for (std::size_t t = 1; t < n; ++t) {
    const std::size_t k = t - 1;
    double to_left = 0, to_right = 0;
    for (std::size_t i = 0; i < k; ++i) to_left += std::fabs(x[i] - x[k]);
    for (std::size_t j = t; j < n; ++j) to_right += std::fabs(x[j] - x[k]);
    left += to_left;
    right -= to_right;
    if (t < min_segment || n - t < min_segment) continue;
    const double cross = all - left - right;
    const double m = static_cast<double>(t), r = static_cast<double>(n - t);
    const double q = m * r / static_cast<double>(n) *
                     (2 * cross / (m * r) - 2 * left / (m * (m - 1)) - 2 * right / (r * (r - 1)));
    if (q > best.q) best = {t, q};
  }
  return best;
}

void search(std::span<const double> series, std::size_t offset, const ChangePointOptions& o,
            std::vector<ChangePoint>& out) {
  if (out.size() >= o.max_points) return;
  Split s = best_split(series, o.min_segment);
  if (s.q < 0) return;
  auto before = series.subspan(0, s.at), after = series.subspan(s.at);
  RankTest t = mann_whitney_u(before, after);
  if (t.p_two_sided > o.alpha) return;
  out.push_back({offset + s.at, median_of(before), median_of(after), t.p_two_sided, s.q});
  search(before, offset, o, out);
  search(after, offset + s.at, o, out);
}

}  // namespace

std::vector<ChangePoint> find_change_points(std::span<const double> series,
                                            const ChangePointOptions& options) {
  std::vector<ChangePoint> out;
  search(series, 0, options, out);
  std::sort(out.begin(), out.end(),
            [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  return out;
}

}  // namespace jbench::stats
