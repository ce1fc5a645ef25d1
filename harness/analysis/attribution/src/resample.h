// Resampling the repetitions of a cell, the one way every interval of the account is made:
// stats::resample_indices from a seed fixed per cell by its text (so a bundle always gives the
// same report), 2000 resamples, read off with stats::percentile_interval. Private to
// jbench::attribution.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace jbench::attribution {

// Indices of `n` runs drawn with replacement, `resamples` times; empty when n < 2.
std::vector<std::vector<std::size_t>> resample_runs(std::size_t n, std::size_t resamples,
                                                    std::string_view seed_text);

}  // namespace jbench::attribution
