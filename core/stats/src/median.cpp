#include "jbench/stats/median.h"

#include <algorithm>

namespace jbench::stats {

std::optional<double> median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  const std::size_t n = values.size();
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (n % 2 == 1) return *middle;
  // The other middle value is the largest of the lower half.
  return (*std::max_element(values.begin(), middle) + *middle) / 2.0;
}

}  // namespace jbench::stats
