// The median of a sample, the one definition every report, comparison and summary quotes: the
// middle value of the sorted sample, or the mean of the two middle values when the count is even.
//
//   std::optional<double> m = stats::median({3, 1, 2});   // 2
//   stats::median({4, 1, 3, 2});                          // 2.5
//   stats::median({});                                    // nullopt: no sample, no median
#pragma once

#include <optional>
#include <vector>

namespace jbench::stats {

std::optional<double> median(std::vector<double> values);

}  // namespace jbench::stats
