// How small a change a comparison can see, and how many repetitions it needs to see a given
// one: the normal-approximation power formulas for a two-sample comparison of means on a
// relative scale, with the rank test's asymptotic relative efficiency against the t-test (3/π)
// taken into account, since jbench decides with the Mann–Whitney test (rank_test.h).
//
//   double mde = minimum_detectable_change(0.04, 5, 5);       // 0.083: changes under 8% unseen
//   std::size_t n = repetitions_needed(0.04, 0.05);           // per side, to see a 5% change
//
// `cv` is the coefficient of variation of one side's repetitions (standard deviation / mean),
// `alpha` the two-sided level, `power` the chance of seeing a change of that size. Pure.
#pragma once

#include <cstddef>

namespace jbench::stats {

// The relative change detectable with `power` at level `alpha` with n1 and n2 repetitions.
double minimum_detectable_change(double cv, std::size_t n1, std::size_t n2, double alpha = 0.05,
                                 double power = 0.8);

// Repetitions per side to detect a relative change `change` (> 0) with `power` at `alpha`.
std::size_t repetitions_needed(double cv, double change, double alpha = 0.05, double power = 0.8);

// The coefficient of variation of `n` values (sample standard deviation over the mean); 0 for
// fewer than two values or a zero mean.
double coefficient_of_variation(const double* values, std::size_t n);

}  // namespace jbench::stats
