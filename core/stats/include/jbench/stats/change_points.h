// Change points in a series of nightly figures (one median per night): where did the level
// shift? E-divisive means (Matteson & James, 2014) proposes the split that best separates the
// series into two parts by their energy distance; the split is kept only if the two parts also
// differ by the rank test (rank_test.h) at `alpha` and each part has at least `min_segment`
// points; then each part is searched again, up to `max_points` change points. Deterministic:
// no permutations, no randomness, the same series gives the same answer everywhere.
//
//   auto cps = find_change_points(medians, {});   // cps[0].index: the first point after a shift
//
// The rank test on a split that was chosen to be the best is optimistic, so `alpha` is small by
// default; tests/unit/change_points_test.cpp measures the rate of change points on pure noise.
// Pure.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace jbench::stats {

struct ChangePointOptions {
  double alpha = 0.001;
  std::size_t min_segment = 5;
  std::size_t max_points = 8;
};

struct ChangePoint {
  std::size_t index = 0;     // the first point of the new level: series[index - 1] is before it
  double before_median = 0;  // of the segment that ends at index (within the part searched)
  double after_median = 0;   // of the segment that starts at index
  double p = 1;              // the rank test between the two segments
  double statistic = 0;      // the energy statistic of the split
};

// Sorted by index.
std::vector<ChangePoint> find_change_points(std::span<const double> series,
                                            const ChangePointOptions& options = {});

}  // namespace jbench::stats
