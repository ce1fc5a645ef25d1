// The bytes one sampled allocation stands for: the weight shared by the sampler (which writes
// totals) and the reader (which recomputes them from the records). Header-only, no allocation.
//
// Sample points fall on the allocated bytes as a Poisson process of rate 1/mean, so an
// allocation of s bytes is sampled with probability p(s) = 1 - exp(-s/mean). Weighting each
// sampled allocation by s / p(s) (Horvitz-Thompson) makes the sum an unbiased estimate of all
// bytes allocated: about `mean` for an allocation much smaller than the mean, about s for one
// much larger (such an allocation is nearly always sampled and then stands for itself).
//
//   double w = jbench::alloc::sample_weight(4096, 524288);  // ~ 526340
#pragma once

#include <cmath>
#include <cstdint>

namespace jbench::alloc {

inline double sample_weight(std::uint64_t bytes, std::uint64_t mean_bytes) noexcept {
  if (bytes == 0 || mean_bytes == 0) return 0.0;
  const double s = static_cast<double>(bytes);
  // -expm1(-x) is 1 - exp(-x) without cancellation when s is far below the mean.
  return s / -std::expm1(-s / static_cast<double>(mean_bytes));
}

}  // namespace jbench::alloc
