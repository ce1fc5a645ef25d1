#include "resample.h"

#include "jbench/common/random.h"
#include "jbench/stats/bootstrap.h"

namespace jbench::attribution {

std::vector<std::vector<std::size_t>> resample_runs(std::size_t n, std::size_t resamples,
                                                    std::string_view seed_text) {
  return stats::resample_indices(n, resamples, fnv1a64(seed_text, 0x6a62656e63680014ULL));
}

}  // namespace jbench::attribution
