// parallel_for (jbench/common/parallel.h): every index handed out exactly once, whatever the
// number of threads, and none when there is no work.
#include "jbench/common/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

namespace jbench {
namespace {

TEST(ParallelFor, every_index_is_worked_on_exactly_once) {
  for (unsigned threads : {0u, 1u, 2u, 7u}) {
    std::vector<std::atomic<int>> seen(1000);
    parallel_for(seen.size(), threads, [&](std::size_t i) { seen[i].fetch_add(1); });
    for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i].load(), 1) << i;
  }
}

TEST(ParallelFor, more_threads_than_work_and_no_work_at_all) {
  std::atomic<int> calls{0};
  parallel_for(3, 16, [&](std::size_t) { calls.fetch_add(1); });
  EXPECT_EQ(calls.load(), 3);
  parallel_for(0, 4, [&](std::size_t) { calls.fetch_add(1); });
  EXPECT_EQ(calls.load(), 3);
}

TEST(ParallelFor, reading_threads_is_at_least_one) { EXPECT_GE(reading_threads(), 1u); }

}  // namespace
}  // namespace jbench
