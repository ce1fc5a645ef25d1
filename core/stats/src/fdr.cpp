#include "jbench/stats/fdr.h"

#include <algorithm>
#include <numeric>

namespace jbench::stats {

std::vector<double> bh_adjust(std::span<const double> p) {
  const std::size_t m = p.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return p[x] < p[y]; });
  std::vector<double> q(m);
  double running = 1.0;
  // From the largest p down: each adjusted value is the smallest scaled p at or above its rank.
  for (std::size_t k = m; k-- > 0;) {
    const double scaled = p[order[k]] * static_cast<double>(m) / static_cast<double>(k + 1);
    running = std::min(running, scaled);
    q[order[k]] = std::min(1.0, running);
  }
  return q;
}

}  // namespace jbench::stats
