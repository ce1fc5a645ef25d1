// The one resampler: units (runs, or sessions of runs) drawn with replacement by SplitMix64 from a
// seed, and the 95% percentile interval read off the statistics of the resamples. Every interval
// jbench prints — the report's overhead, shares and scaling, compare's and a proposal's ratios —
// is made here, from a seed fixed by what is resampled, so a bundle always gives the same figures.
//
//   auto ci = stats::median_interval(throughputs, 2000, seed);               // [low, high]
//   auto r = stats::median_ratio_interval({base}, {candidate}, 2000, seed);  // runs
//   auto s = stats::median_ratio_interval(base_sessions, cand_sessions, 2000, seed);
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace jbench::stats {

// The 95% percentile interval of resampled statistics: the values at floor(q × (n − 1)) of their
// sorted order for q = 0.025 and 0.975 (sorted in place; n > 0).
std::pair<double, double> percentile_interval(std::vector<double>& values);

// Indices of `n` units drawn with replacement, `resamples` times, in the order one SplitMix64
// seeded by `seed` gives them; empty when n < 2 (one unit has no spread to resample).
std::vector<std::vector<std::size_t>> resample_indices(std::size_t n, std::size_t resamples,
                                                       std::uint64_t seed);

// The interval of the median of `values`; nullopt with fewer than two values or no resamples.
std::optional<std::pair<double, double>> median_interval(const std::vector<double>& values,
                                                         std::size_t resamples, std::uint64_t seed);

// The interval of median(candidate) / median(base), each side given as its units of values.
// When either side has more than one unit (sessions), a resample draws each side's units with
// replacement, then values within each drawn unit, so the spread between sessions is in the
// interval as it is in the data; otherwise it draws each side's values. Resamples whose base
// median is 0 are left out; none left gives {0, 0}.
std::pair<double, double> median_ratio_interval(const std::vector<std::vector<double>>& base,
                                                const std::vector<std::vector<double>>& candidate,
                                                std::size_t resamples, std::uint64_t seed);

}  // namespace jbench::stats
