#include "jbench/common/parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "jbench/common/cpus.h"

namespace jbench {

void parallel_for(std::size_t count, unsigned threads,
                  const std::function<void(std::size_t)>& work) {
  std::atomic<std::size_t> next{0};
  const auto drain = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < count;) work(i);
  };
  const auto n = static_cast<unsigned>(std::clamp<std::size_t>(count, 1, std::max(threads, 1u)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(drain);
  drain();
  for (auto& t : pool) t.join();
}

unsigned reading_threads() {
  const Result<unsigned> cpus = usable_cpus();
  return cpus ? *cpus : 1;
}

}  // namespace jbench
