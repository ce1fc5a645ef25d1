// Independent pieces of work on a few threads: each index is handed to exactly one call of
// `work`, from the calling thread or up to threads - 1 others. Whoever needs a result writes it
// into a slot of its own (results[i]), so the outcome does not depend on the scheduling.
//
//   std::vector<Report> reports(runs.size());
//   parallel_for(runs.size(), 2, [&](std::size_t i) { reports[i] = check(runs[i]); });
//
// `work` must not throw: an exception on another thread would end the process.
#pragma once

#include <cstddef>
#include <functional>

namespace jbench {

void parallel_for(std::size_t count, unsigned threads,
                  const std::function<void(std::size_t)>& work);

// The threads a reader of many independent files may use here: the cores this process may run
// on, at least 1.
unsigned reading_threads();

}  // namespace jbench
