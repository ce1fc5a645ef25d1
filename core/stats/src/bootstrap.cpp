#include "jbench/stats/bootstrap.h"

#include <algorithm>
#include <cmath>

#include "jbench/common/random.h"
#include "jbench/stats/median.h"

namespace jbench::stats {
namespace {

// One resample of a side into `into`: its units drawn (when `by_unit`), then values within each.
void draw_side(SplitMix64& rng, const std::vector<std::vector<double>>& units, bool by_unit,
               std::vector<double>& into) {
  into.clear();
  for (std::size_t u = 0; u < units.size(); ++u) {
    const auto& unit = by_unit ? units[rng.below(units.size())] : units[u];
    for (std::size_t v = 0; v < unit.size(); ++v) into.push_back(unit[rng.below(unit.size())]);
  }
}

}  // namespace

std::pair<double, double> percentile_interval(std::vector<double>& values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  const auto at = [&](double q) {
    const auto i = static_cast<std::size_t>(std::floor(q * static_cast<double>(n - 1)));
    return values[std::min(i, n - 1)];
  };
  return {at(0.025), at(0.975)};
}

std::vector<std::vector<std::size_t>> resample_indices(std::size_t n, std::size_t resamples,
                                                       std::uint64_t seed) {
  std::vector<std::vector<std::size_t>> out;
  if (n < 2) return out;
  SplitMix64 rng(seed);
  out.resize(resamples, std::vector<std::size_t>(n));
  for (auto& sample : out) {
    for (auto& i : sample) i = static_cast<std::size_t>(rng.below(n));
  }
  return out;
}

std::optional<std::pair<double, double>> median_interval(const std::vector<double>& values,
                                                         std::size_t resamples,
                                                         std::uint64_t seed) {
  if (values.size() < 2 || resamples == 0) return std::nullopt;
  std::vector<double> medians;
  medians.reserve(resamples);
  std::vector<double> sample(values.size());
  for (const auto& draw : resample_indices(values.size(), resamples, seed)) {
    for (std::size_t i = 0; i < draw.size(); ++i) sample[i] = values[draw[i]];
    medians.push_back(*median(sample));
  }
  return percentile_interval(medians);
}

std::pair<double, double> median_ratio_interval(const std::vector<std::vector<double>>& base,
                                                const std::vector<std::vector<double>>& candidate,
                                                std::size_t resamples, std::uint64_t seed) {
  const bool by_unit = base.size() > 1 || candidate.size() > 1;
  SplitMix64 rng(seed);
  std::vector<double> ratios;
  ratios.reserve(resamples);
  std::vector<double> b, c;
  for (std::size_t r = 0; r < resamples; ++r) {
    draw_side(rng, base, by_unit, b);
    draw_side(rng, candidate, by_unit, c);
    const std::optional<double> mb = median(b), mc = median(c);
    if (mb && mc && *mb != 0) ratios.push_back(*mc / *mb);
  }
  if (ratios.empty()) return {0, 0};
  return percentile_interval(ratios);
}

}  // namespace jbench::stats
