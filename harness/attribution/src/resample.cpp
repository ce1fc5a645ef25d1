#include "resample.h"

#include <algorithm>
#include <cmath>

#include "jbench/common/random.h"

namespace jbench::attribution {

std::vector<std::vector<std::size_t>> resample_runs(std::size_t n, std::size_t resamples,
                                                    std::string_view seed_text) {
  std::vector<std::vector<std::size_t>> out;
  if (n < 2) return out;
  SplitMix64 rng(fnv1a64(seed_text, 0x6a62656e63680014ULL));
  out.resize(resamples, std::vector<std::size_t>(n));
  for (auto& sample : out) {
    for (auto& i : sample) i = static_cast<std::size_t>(rng.below(n));
  }
  return out;
}

std::pair<double, double> percentile_interval(std::vector<double>& values) {
  std::sort(values.begin(), values.end());
  const auto at = [&](double q) {
    const auto i = static_cast<std::size_t>(std::floor(q * static_cast<double>(values.size() - 1)));
    return values[std::min(i, values.size() - 1)];
  };
  return {at(0.025), at(0.975)};
}

}  // namespace jbench::attribution
