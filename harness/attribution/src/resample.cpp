#include "resample.h"

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

}  // namespace jbench::attribution
