// A standard normal draw from SplitMix64 (Box–Muller), so simulated samples are the same on every
// platform (the standard library's distributions are implementation-defined). Test support.
#pragma once

#include <cmath>

#include "jbench/common/random.h"

namespace jbench::test {

inline double normal_draw(SplitMix64& rng) {
  const double u1 = (static_cast<double>(rng.below(1u << 30)) + 0.5) / (1u << 30);
  const double u2 = (static_cast<double>(rng.below(1u << 30)) + 0.5) / (1u << 30);
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
}

}  // namespace jbench::test
