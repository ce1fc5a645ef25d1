// Benjamini–Hochberg: the false discovery rate across many comparisons at once. A matrix
// compares hundreds of cells × metrics; testing each at 5% flags five of every hundred unchanged
// ones, which is how per-test thresholds end up raised again and again. BH keeps the expected
// share of false discoveries among the flagged at q instead.
//
//   std::vector<double> q = bh_adjust(p_values);   // q[i] <= 0.05: discovery i at FDR 5%
//
// Adjusted values as R's p.adjust(method = "BH"): q_(i) = min over j >= i of p_(j) × m / j, in
// the order of the input, capped at 1. Pure.
#pragma once

#include <span>
#include <vector>

namespace jbench::stats {

std::vector<double> bh_adjust(std::span<const double> p_values);

}  // namespace jbench::stats
